//! Secret and private-data redaction for devprojex.
//!
//! CONTRACT (the main crate codes against exactly this API; keep it stable):
//! - `Redactor::new(RedactOptions)` builds the engine once (rules compiled into the binary).
//!   `Redactor` is `Send + Sync` and cheap to share behind an `Arc`.
//! - `Redactor::redact(&self, text: &str) -> Redacted<'_>` returns the redacted text (borrowed
//!   when nothing changed) and the findings. Line count never changes. Idempotent.
//! - `Finding { rule_id, line, kind }`: 1-based line in the input, never the secret itself.
//! - `INSPECTION_LIMIT_BYTES`: text larger than this is not inspected (callers withhold it).
//! - `decode_lossy(&[u8]) -> Cow<str>`: the one decoding rule for file content.

use std::borrow::Cow;

/// Text larger than this (16 MiB) is never inspected and therefore never returned.
pub const INSPECTION_LIMIT_BYTES: u64 = 16 * 1024 * 1024;

/// What the redactor hides besides secrets (secrets are always hidden).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RedactOptions {
    /// Also hide private data (e-mails, IPs, MACs, phone numbers, user and host names).
    pub hide_private_data: bool,
}

/// Which redaction pass produced a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FindingKind {
    Secret,
    PrivateData,
}

/// One redacted span. Never carries the secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub rule_id: String,
    /// 1-based line number in the input text.
    pub line: usize,
    pub kind: FindingKind,
}

/// The result of one redaction pass.
#[derive(Debug, Clone)]
pub struct Redacted<'a> {
    pub text: Cow<'a, str>,
    pub findings: Vec<Finding>,
}

/// The redaction engine.
#[derive(Debug, Clone)]
pub struct Redactor {
    options: RedactOptions,
}

impl Redactor {
    pub fn new(options: RedactOptions) -> Self {
        Self { options }
    }

    pub fn options(&self) -> RedactOptions {
        self.options
    }

    /// PLACEHOLDER until the redaction issue lands: returns the text unchanged.
    pub fn redact<'a>(&self, text: &'a str) -> Redacted<'a> {
        Redacted {
            text: Cow::Borrowed(text),
            findings: Vec::new(),
        }
    }
}

/// Decode file bytes as UTF-8, replacing invalid sequences with U+FFFD.
pub fn decode_lossy(bytes: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(bytes)
}
