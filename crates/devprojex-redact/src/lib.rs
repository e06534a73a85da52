//! Secret and private-data redaction for devprojex.
//!
//! Every byte of file content that leaves devprojex passes through [`Redactor::redact`]. Secrets
//! are always hidden; private data (e-mails, IP and MAC addresses, phone numbers, user and host
//! names) only with [`RedactOptions::hide_private_data`].
//!
//! CONTRACT (the main crate codes against exactly this API; keep it stable):
//! - `Redactor::new(RedactOptions)` builds the engine once (rules compiled into the binary).
//!   `Redactor` is `Send + Sync` and cheap to share behind an `Arc`.
//! - `Redactor::redact(&self, text: &str) -> Redacted<'_>` returns the redacted text (borrowed
//!   when nothing changed) and the findings. Line count never changes. Idempotent.
//! - `Finding { rule_id, line, kind }`: 1-based line in the input, never the secret itself.
//! - `INSPECTION_LIMIT_BYTES`: text larger than this is not inspected (callers withhold it).
//! - `decode_lossy(&[u8]) -> Cow<str>`: the one decoding rule for file content.
//!
//! # How it works
//! 1. One Aho-Corasick DFA holds the keywords of every rule (ASCII case-insensitive). A single
//!    pass over the text (four interleaved lanes on long texts, see `keywords.rs`) yields the
//!    lines that contain a keyword, and for each line the rules to run. Text without keywords
//!    costs one automaton pass and nothing else. A keyword line takes along the lines a shell
//!    `\` continues it onto, and the next line when it opens an XML element or a YAML block
//!    scalar; on a very long line, a window around the keyword widened to whole tokens.
//! 2. On those regions only, each triggered rule runs, grouped by rule so its regex stays hot
//!    in cache: a byte regex with a secret capture group (Unicode off), the private key block
//!    scanner, the Kubernetes `Secret` scanner, and last the scope-aware assignment detector
//!    (which skips values a provider rule already redacts). Candidates go through the rule's
//!    entropy threshold, the placeholder allowlist, its own allowlists and its `verify` check.
//! 3. Regions where an escape sequence or a percent-encoding can hide a boundary (`\nAKIA...`,
//!    `token%3D...`, `{\"password\": ...}`) run again on a copy with those escapes decoded in
//!    place (`escapes.rs`), so offsets still point into the original.
//! 4. With `hide_private_data`, the private-data patterns run over the whole text.
//! 5. Overlapping spans are merged; each span becomes `[REDACTED:<rule-id>]`.
//!
//! See `docs/redaction.md` for the rule list, the replacement format and the limits.

#![deny(unsafe_code)]
#![warn(missing_docs)]

use std::borrow::Cow;
use std::sync::Arc;

mod encoded;
mod escapes;
mod keywords;
mod kube;
mod private_data;
mod private_key;
mod rules;
mod scope;
pub mod testgen;
mod util;
mod verify;

pub use private_data::MachineIdentity;
pub use rules::{RuleError, RuleInfo, rule_catalog, validate_rules};

use rules::{Engine, ruleset};

/// Text larger than this (16 MiB) is never inspected and therefore never returned.
pub const INSPECTION_LIMIT_BYTES: u64 = 16 * 1024 * 1024;

/// Lines longer than this are inspected in windows around each keyword instead of as a whole
/// (minified files), which keeps the cost proportional to the keywords. Each window is widened
/// to whole tokens, so a rule still sees a token of any length on such a line.
const LONG_LINE_BYTES: usize = 64 * 1024;
/// Half-width of the window inspected around a keyword on a long line (before widening).
const LONG_LINE_WINDOW: usize = 4 * 1024;

/// The ids of the private-data rules (only active with `hide_private_data`).
pub const PRIVATE_DATA_RULE_IDS: &[&str] = &[
    "email",
    "ipv4",
    "ipv6",
    "mac-address",
    "phone-number",
    "home-user",
    "user-name",
    "host-name",
];

/// What the redactor hides besides secrets (secrets are always hidden).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RedactOptions {
    /// Also hide private data (e-mails, IPs, MACs, phone numbers, user and host names).
    pub hide_private_data: bool,
}

/// Which redaction pass produced a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FindingKind {
    /// A credential: always redacted.
    Secret,
    /// Private data: redacted only with `hide_private_data`.
    PrivateData,
}

/// One redacted span. Never carries the secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The id of the rule that matched (the same id as in the `[REDACTED:<id>]` marker).
    pub rule_id: String,
    /// 1-based line number in the input text.
    pub line: usize,
    /// Secret or private data.
    pub kind: FindingKind,
}

/// The result of one redaction pass.
#[derive(Debug, Clone)]
pub struct Redacted<'a> {
    /// The redacted text; `Cow::Borrowed` when nothing was redacted.
    pub text: Cow<'a, str>,
    /// One finding per redacted span (a private key block counts once), in text order.
    pub findings: Vec<Finding>,
}

impl Redacted<'_> {
    /// Whether any secret (not only private data) was found.
    pub fn has_secrets(&self) -> bool {
        self.findings.iter().any(|f| f.kind == FindingKind::Secret)
    }
}

/// The replacement written for a span matched by `rule_id`: `[REDACTED:<rule-id>]`.
pub fn replacement(rule_id: &str) -> String {
    let mut marker = String::new();
    push_replacement(&mut marker, rule_id);
    marker
}

/// Append the replacement for `rule_id` (no intermediate `String`: `apply` writes thousands).
fn push_replacement(out: &mut String, rule_id: &str) {
    out.push_str("[REDACTED:");
    out.push_str(rule_id);
    out.push(']');
}

/// The redaction engine. Cheap to clone; `Send + Sync`.
#[derive(Debug, Clone)]
pub struct Redactor {
    options: RedactOptions,
    identity: Option<Arc<regex::bytes::Regex>>,
}

/// A span to replace.
#[derive(Clone)]
struct Span {
    start: usize,
    end: usize,
    id: &'static str,
    kind: FindingKind,
    report: bool,
    /// Lower wins when two spans start at the same byte (provider rules before generic ones).
    priority: u8,
}

impl Redactor {
    /// Build a redactor. The rule set is compiled once per process, on the first redaction
    /// (a command that lists names only never pays for it; [`Redactor::prepare`] compiles it
    /// ahead); with `hide_private_data`, the current machine's user and host names are read
    /// once.
    pub fn new(options: RedactOptions) -> Self {
        let identity = if options.hide_private_data {
            Self::current_identity_regex()
        } else {
            None
        };
        Self { options, identity }
    }

    /// Compile the shared rule set now, every rule's regex included (a long-lived process, so
    /// that its first request does not wait for it; otherwise each regex compiles on its first
    /// use).
    pub fn prepare() {
        ruleset().compile_all();
    }

    /// Build a redactor that hides the given machine identity instead of the current one
    /// (for tests and for redacting on behalf of another machine). Has an effect only with
    /// `hide_private_data`.
    pub fn with_identity(options: RedactOptions, identity: &MachineIdentity) -> Self {
        let identity = if options.hide_private_data {
            private_data::identity_regex(identity).map(Arc::new)
        } else {
            None
        };
        Self { options, identity }
    }

    fn current_identity_regex() -> Option<Arc<regex::bytes::Regex>> {
        static RE: std::sync::OnceLock<Option<Arc<regex::bytes::Regex>>> =
            std::sync::OnceLock::new();
        RE.get_or_init(|| private_data::identity_regex(MachineIdentity::current()).map(Arc::new))
            .clone()
    }

    /// The options this redactor was built with.
    pub fn options(&self) -> RedactOptions {
        self.options
    }

    /// Redact `text`: secrets always, private data when enabled. The line count never changes,
    /// and `redact(redact(x).text) == redact(x).text`.
    ///
    /// Callers must not pass text larger than [`INSPECTION_LIMIT_BYTES`]; such text is withheld
    /// by the caller, not inspected. (It is still processed if passed, only slowly.)
    pub fn redact<'a>(&self, text: &'a str) -> Redacted<'a> {
        let mut spans = Vec::new();
        secret_spans(text, &mut spans);
        if self.options.hide_private_data {
            let mut hits = Vec::new();
            private_data::scan(text.as_bytes(), self.identity.as_deref(), &mut hits);
            spans.extend(hits.into_iter().map(|h| Span {
                start: h.start,
                end: h.end,
                id: h.id,
                kind: FindingKind::PrivateData,
                report: true,
                priority: 3,
            }));
        }
        drop_spans_on_markers(text.as_bytes(), &mut spans);
        if spans.is_empty() {
            return Redacted {
                text: Cow::Borrowed(text),
                findings: Vec::new(),
            };
        }
        let mut redacted = apply(text, spans);
        if self.options.hide_private_data {
            // A marker is a boundary the text did not have: `NAME::1c2d:3e4f:5a6b:7c8d`, once
            // `NAME` is redacted, reads as an IPv6 address. Scan the lines that hold markers
            // again until nothing new turns up, so that redacting twice changes nothing. Each
            // round redacts more of the text, so a few rounds end it.
            for _ in 0..4 {
                let more = self.private_data_beside_markers(&redacted.text);
                if more.is_empty() {
                    break;
                }
                let again = apply(&redacted.text, more);
                let findings = again.findings;
                redacted.text = Cow::Owned(again.text.into_owned());
                redacted.findings.extend(findings);
                redacted.findings.sort_by_key(|f| f.line);
            }
        }
        redacted
    }

    /// Private data on the lines of `text` that hold a replacement marker (the patterns are
    /// line-local, so each line is scanned alone).
    fn private_data_beside_markers(&self, text: &str) -> Vec<Span> {
        let bytes = text.as_bytes();
        let mut spans = Vec::new();
        let mut next_line = 0;
        for marker in memchr::memmem::find_iter(bytes, b"[REDACTED:") {
            if marker < next_line {
                continue; // this line was scanned
            }
            let (start, end) = (
                util::line_start(bytes, marker),
                util::line_end(bytes, marker),
            );
            next_line = end;
            let mut hits = Vec::new();
            private_data::scan(&bytes[start..end], self.identity.as_deref(), &mut hits);
            spans.extend(hits.into_iter().map(|h| Span {
                start: start + h.start,
                end: start + h.end,
                id: h.id,
                kind: FindingKind::PrivateData,
                report: true,
                priority: 3,
            }));
        }
        drop_spans_on_markers(bytes, &mut spans);
        spans
    }
}

/// Remove every span that overlaps a `[REDACTED:<id>]` marker already in the text. A marker
/// replaced a secret, and its bytes are ours: read as part of a candidate (`root:[REDACTED:id]`
/// as user and password of a DSN) they would be redacted again, and `redact` would not be
/// idempotent. A candidate that merely contains the word is refused by each rule already.
fn drop_spans_on_markers(bytes: &[u8], spans: &mut Vec<Span>) {
    if spans.is_empty() {
        return;
    }
    // a few spans in a long text: search their surroundings only (the whole text would be one
    // more pass over every byte); many spans: the whole text in one search
    let near: usize = spans.iter().map(|s| s.end - s.start + MARKER_MAX_LEN).sum();
    if near < bytes.len() / 4 {
        retain_off_markers(bytes, spans, &marker_windows(spans));
    } else {
        retain_off_markers(bytes, spans, &[(0, bytes.len())]);
    }
}

const MARKER_OPEN: &[u8] = b"[REDACTED:";
const MARKER_MAX_ID: usize = 64;
/// The longest marker: `[REDACTED:`, an id, `]`.
const MARKER_MAX_LEN: usize = MARKER_OPEN.len() + MARKER_MAX_ID + 1;

/// Where a marker that overlaps one of `spans` can start: less than [`MARKER_MAX_LEN`] bytes
/// before a span, up to its end. In order, not overlapping.
fn marker_windows(spans: &[Span]) -> Vec<(usize, usize)> {
    let mut windows: Vec<(usize, usize)> = spans
        .iter()
        .map(|s| (s.start.saturating_sub(MARKER_MAX_LEN - 1), s.end))
        .collect();
    windows.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(windows.len());
    for (from, to) in windows {
        match merged.last_mut() {
            Some(last) if from <= last.1 => last.1 = last.1.max(to),
            _ => merged.push((from, to)),
        }
    }
    merged
}

/// Drop the spans that overlap a marker starting inside one of `windows` (in order, not
/// overlapping, and holding every place where a marker overlapping a span can start).
fn retain_off_markers(bytes: &[u8], spans: &mut Vec<Span>, windows: &[(usize, usize)]) {
    let finder = memchr::memmem::Finder::new(MARKER_OPEN);
    let mut markers = Vec::new();
    for &(from, to) in windows {
        // the occurrences that start in from..to
        let hay = &bytes[from..(to + MARKER_OPEN.len() - 1).min(bytes.len())];
        for start in finder.find_iter(hay).map(|at| from + at) {
            let rest = &bytes[start + MARKER_OPEN.len()..];
            let id_len = rest
                .iter()
                .take(MARKER_MAX_ID)
                .take_while(|b| util::marker_id_byte(**b))
                .count();
            if id_len > 0 && rest.get(id_len) == Some(&b']') {
                markers.push((start, start + MARKER_OPEN.len() + id_len + 1));
            }
        }
    }
    if markers.is_empty() {
        return;
    }
    // markers are in order and never overlap: the first ending after a span's start decides
    spans.retain(|span| {
        let first = markers.partition_point(|&(_, end)| end <= span.start);
        markers
            .get(first)
            .is_none_or(|&(start, _)| start >= span.end)
    });
}

/// Merge overlapping spans and write the redacted text and the findings.
fn apply(text: &str, mut spans: Vec<Span>) -> Redacted<'_> {
    for s in &mut spans {
        let (a, b) = util::widen_to_char_boundaries(text, s.start, s.end);
        s.start = a;
        s.end = b;
    }
    spans.sort_by(|a, b| {
        a.start
            .cmp(&b.start)
            .then(a.priority.cmp(&b.priority))
            .then(b.end.cmp(&a.end))
    });
    // merge: a span overlapping the previous one extends it and keeps the first rule id
    let mut merged: Vec<Span> = Vec::with_capacity(spans.len());
    for s in spans {
        if let Some(last) = merged.last_mut()
            && s.start < last.end
        {
            last.end = last.end.max(s.end);
            continue;
        }
        merged.push(s);
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut findings = Vec::new();
    let mut pos = 0usize;
    let mut line = 1usize;
    for s in merged {
        line += count_newlines(&bytes[pos..s.start]);
        out.push_str(&text[pos..s.start]);
        // a span never contains a newline (engines emit single-line spans); be defensive and
        // keep every newline so the line count never changes.
        let body = &text[s.start..s.end];
        let mut first = true;
        for piece in body.split('\n') {
            if !first {
                out.push('\n');
            }
            if !piece.is_empty() || first {
                push_replacement(&mut out, s.id);
            }
            first = false;
        }
        if s.report {
            findings.push(Finding {
                rule_id: s.id.to_string(),
                line,
                kind: s.kind,
            });
        }
        line += count_newlines(body.as_bytes());
        pos = s.end;
    }
    out.push_str(&text[pos..]);
    Redacted {
        text: Cow::Owned(out),
        findings,
    }
}

/// The newlines in `bytes`. Between the spans of text dense with secrets the gaps are short,
/// and `memchr`'s count takes a branch per byte on those (it mispredicted on every newline):
/// a short gap is counted without a branch, a long one by `memchr`.
fn count_newlines(bytes: &[u8]) -> usize {
    if bytes.len() < 64 {
        bytes.iter().map(|&b| usize::from(b == b'\n')).sum()
    } else {
        memchr::memchr_iter(b'\n', bytes).count()
    }
}

/// A region of whole lines (or a window of a long line) where keywords occurred.
#[derive(Clone, Copy)]
pub(crate) struct Segment {
    pub(crate) start: usize,
    pub(crate) end: usize,
}

/// The keyword pass's result: the segments, and each (rule, segment) pair to run.
#[derive(Default)]
pub(crate) struct Work {
    pub(crate) segments: Vec<Segment>,
    /// (rule index, segment index); a rule appears at most once per segment.
    pub(crate) runs: Vec<(u16, u32)>,
}

/// Lines joined to a keyword line that continues on the next one (shell `\`): at most this many.
const MAX_JOINED_LINES: usize = 16;

/// How many layers deep the engine reads: each view of escaped text and each base64 payload is
/// a layer (base64 inside an escaped JSON string inside base64 is three).
pub(crate) const MAX_DEPTH: u8 = 4;

fn secret_spans(text: &str, spans: &mut Vec<Span>) {
    let bytes = text.as_bytes();
    spans_at(bytes, 0, spans);
    // a key file holds nothing else: checked on the whole (short) text, no keyword needed
    if let Some((start, end)) = key_file(bytes) {
        let set = ruleset();
        for rule in set.rules.iter().filter(|r| r.engine == Engine::KeyFile) {
            spans.push(Span {
                start,
                end,
                id: rule.id.as_str(),
                kind: FindingKind::Secret,
                report: true,
                priority: 0,
            });
        }
    }
}

/// The secret spans of `bytes`, a text `depth` layers below the original: the rules on the
/// regions their keywords mark, then (below [`MAX_DEPTH`]) the same again on views of the
/// regions where escapes hide a boundary, and on the text of base64 blobs.
fn spans_at(bytes: &[u8], depth: u8, spans: &mut Vec<Span>) {
    let mut work = keyword_work(bytes);
    run_work(bytes, &mut work, spans);
    if depth < MAX_DEPTH {
        layered_pass(bytes, &work, depth, spans);
        encoded_pass(bytes, depth, spans);
    }
}

/// The keyword pass: the regions where keywords occur, and the rules each one triggers.
fn keyword_work(bytes: &[u8]) -> Work {
    let set = ruleset();
    let mut work = Work::default();
    let mut seen = vec![false; set.rules.len()];
    let mut current: Option<Segment> = None;
    let mut current_rules: Vec<u16> = Vec::new();
    let (mut line_s, mut line_e) = (usize::MAX, 0usize);
    let mut joined_e = 0usize;
    let close = |seg: Segment, rules: &mut Vec<u16>, seen: &mut [bool], work: &mut Work| {
        let index = u32::try_from(work.segments.len()).expect("fewer than 2^32 segments");
        work.segments.push(seg);
        for r in rules.drain(..) {
            seen[r as usize] = false;
            work.runs.push((r, index));
        }
    };
    for hit in set.keywords.hits(bytes) {
        let at = hit.start;
        let slot = &set.keyword_slots[hit.pattern as usize];
        // the automaton matched the lower-cased keyword case-insensitively, which is all a
        // case-insensitive keyword asks; a case-sensitive variant is checked here
        let mut matched = (slot.iter())
            .filter(|k| !k.exact || k.matches_at(bytes, at))
            .peekable();
        if matched.peek().is_none() {
            continue;
        }
        if !(line_s <= at && at <= line_e) {
            line_s = util::line_start(bytes, at);
            line_e = util::line_end(bytes, at);
            joined_e = joined_end(bytes, line_s, line_e);
        }
        // A marker's rule id (`[REDACTED:gcp-api-key]`) is our text, not the project's: read as
        // a keyword, it would send rules on a second pass to lines the first never gave them.
        if util::in_marker_id(bytes, at) {
            continue;
        }
        let (ws, we) = if line_e - line_s > LONG_LINE_BYTES {
            // a window around the keyword, widened to whole tokens: a rule sees a JWT of any
            // length on a minified line, and the work stays proportional to the line
            let ws = at.saturating_sub(LONG_LINE_WINDOW).max(line_s);
            let we = (at + slot[0].bytes.len() + LONG_LINE_WINDOW).min(line_e);
            let covered_to = current.map_or(0, |s| s.end);
            let ws = if ws <= covered_to {
                ws
            } else {
                util::token_run_start(bytes, ws, line_s.max(covered_to))
            };
            let we = if we <= covered_to {
                we
            } else {
                util::token_run_end(bytes, we, line_e)
            };
            (ws, we)
        } else {
            (line_s, joined_e)
        };
        match current.as_mut() {
            Some(seg) if ws <= seg.end && we >= seg.start => {
                seg.start = seg.start.min(ws);
                seg.end = seg.end.max(we);
            }
            _ => {
                if let Some(seg) = current.take() {
                    close(seg, &mut current_rules, &mut seen, &mut work);
                }
                current = Some(Segment { start: ws, end: we });
            }
        }
        for k in matched {
            for &r in &k.rules {
                if !seen[r as usize] {
                    seen[r as usize] = true;
                    current_rules.push(r);
                }
            }
        }
    }
    if let Some(seg) = current.take() {
        close(seg, &mut current_rules, &mut seen, &mut work);
    }
    work
}

/// The rules again on views of the regions of `work` where escapes hide a boundary or spell a
/// token (`escapes.rs`), each span mapped back to the bytes it was decoded from.
fn layered_pass(bytes: &[u8], work: &Work, depth: u8, spans: &mut Vec<Span>) {
    let (Some(first), Some(last)) = (work.segments.first(), work.segments.last()) else {
        return;
    };
    // Where an escape can start, found in one pass over the regions' span of the text: a
    // search in each region cost more than the whole pass on source code, whose many keyword
    // lines are short (and hold `&` for references, `%` for formats, but rarely an escape).
    let (from, to) = (first.start, last.end);
    // `&`, frequent in code, is searched alone: three bytes a search cost as much as four, and
    // the hits of the rare three are few.
    let mut starts: Vec<usize> = memchr::memchr3_iter(b'\\', b'%', 0x1b, &bytes[from..to])
        .chain(
            memchr::memchr_iter(b'&', &bytes[from..to])
                .filter(|&i| escapes::may_be_reference(&bytes[from + i + 1..to])),
        )
        .map(|i| from + i)
        .collect();
    if starts.is_empty() {
        return;
    }
    starts.sort_unstable();
    let mut next_start = 0;
    // the end of the last coloured region viewed whole
    let mut viewed_to = 0;
    for seg in &work.segments {
        if seg.end <= viewed_to {
            continue;
        }
        while next_start < starts.len() && starts[next_start] < seg.start {
            next_start += 1;
        }
        if starts.get(next_start).is_none_or(|&at| at >= seg.end) {
            continue;
        }
        let region = &bytes[seg.start..seg.end];
        let inside = starts[next_start..]
            .iter()
            .take_while(|&&at| at < seg.end)
            .map(|&at| at - seg.start);
        if !escapes::worth_a_view(region, inside) {
            continue;
        }
        // A coloured line is viewed with the coloured lines after it: a key block, a shell
        // continuation or a `.netrc` entry goes on past the line that holds the keyword, and
        // each of its lines has its own colour codes.
        let (start, mut end) = (seg.start, seg.end);
        if memchr::memchr(0x1b, region).is_some() {
            for _ in 0..private_key::MAX_BLOCK_LINES {
                let next_e = util::line_end(bytes, (end + 1).min(bytes.len()));
                if end >= bytes.len() || memchr::memchr(0x1b, &bytes[end..next_e]).is_none() {
                    break;
                }
                end = next_e;
            }
            viewed_to = end;
        }
        let Some(view) = escapes::view(&bytes[start..end]) else {
            continue;
        };
        let mut found = Vec::new();
        spans_at(&view.bytes, depth + 1, &mut found);
        spans.extend(found.into_iter().map(|mut s| {
            let (from, to) = view.source(s.start, s.end);
            s.start = start + from;
            s.end = start + to;
            s
        }));
    }
}

/// Base64 blobs of `bytes` that decode to text holding a secret, redacted whole and named
/// after the rule that found the secret (`encoded.rs`).
fn encoded_pass(bytes: &[u8], depth: u8, spans: &mut Vec<Span>) {
    let set = ruleset();
    for blob in encoded::blobs(bytes, 0, bytes.len()) {
        let mut found = Vec::new();
        spans_at(&blob.text, depth + 1, &mut found);
        let Some(inner) = found
            .iter()
            .filter(|s| s.report && s.kind == FindingKind::Secret)
            .min_by_key(|s| (s.priority, s.start))
        else {
            continue;
        };
        spans.push(Span {
            start: blob.start,
            end: blob.end,
            id: set.encoded_id(inner.id),
            kind: FindingKind::Secret,
            report: true,
            priority: 2,
        });
    }
}

/// The end of the region a keyword line `bytes[line_s..line_e]` speaks for: the line itself,
/// plus the lines a shell `\` continues it onto, the next line when this one opens an XML
/// element or a YAML block scalar whose value is written below (`<token>`, `password: |`), or
/// the `login` / `password` lines of a `.netrc` entry it starts (`machine NAME`).
fn joined_end(bytes: &[u8], line_s: usize, line_e: usize) -> usize {
    let mut end = line_e;
    let mut start = line_s;
    if bytes[line_s..line_e]
        .trim_ascii_start()
        .starts_with(b"machine ")
    {
        for _ in 0..4 {
            let next_e = util::line_end(bytes, (end + 1).min(bytes.len()));
            let next = bytes
                .get(end + 1..next_e)
                .map_or(&b""[..], <[u8]>::trim_ascii_start);
            let netrc = [&b"login"[..], b"password", b"account", b"port", b"macdef"]
                .iter()
                .any(|k| next.starts_with(k));
            if end >= bytes.len() || !netrc {
                break;
            }
            end = next_e;
        }
        return end;
    }
    for n in 0..MAX_JOINED_LINES {
        if end >= bytes.len() {
            break;
        }
        let line = bytes[start..end].trim_ascii_end();
        let continued = line.ends_with(b"\\") && !line.ends_with(b"\\\\");
        let opens_value = n == 0 && (opens_element(line) || opens_block_scalar(line));
        if !continued && !opens_value {
            break;
        }
        start = end + 1;
        end = util::line_end(bytes, start);
        if !continued {
            break;
        }
    }
    end
}

/// `<name ...>` at the end of a line, neither closing nor self-closing: its text follows.
fn opens_element(line: &[u8]) -> bool {
    if !line.ends_with(b">") || line.ends_with(b"/>") {
        return false;
    }
    match memchr::memrchr(b'<', line) {
        Some(i) => line.get(i + 1).is_some_and(|b| b.is_ascii_alphabetic()),
        None => false,
    }
}

/// `key: |`, `key: >-` and friends: a YAML block scalar, its value on the next lines; or
/// `key = """` / `key = '''`: a TOML multi-line string.
fn opens_block_scalar(line: &[u8]) -> bool {
    let t = line.trim_ascii_end();
    if (t.ends_with(b"\"\"\"") || t.ends_with(b"'''"))
        && t[..t.len() - 3].trim_ascii_end().ends_with(b"=")
    {
        return true;
    }
    let t = t
        .strip_suffix(b"-")
        .or_else(|| t.strip_suffix(b"+"))
        .unwrap_or(t);
    (t.ends_with(b": |") || t.ends_with(b": >") || t.ends_with(b":|") || t.ends_with(b":>"))
        && t.len() > 3
}

/// A text that is nothing but one 32-hex-digit key (Rails `config/master.key`,
/// `config/credentials/*.key`): the span of the key.
fn key_file(bytes: &[u8]) -> Option<(usize, usize)> {
    if bytes.len() > 40 {
        return None;
    }
    let s = bytes.iter().position(|b| !b.is_ascii_whitespace())?;
    let e = bytes.iter().rposition(|b| !b.is_ascii_whitespace())? + 1;
    let key = &bytes[s..e];
    let hex = key.len() == 32 && key.iter().all(u8::is_ascii_hexdigit);
    // a key is random: not one digit repeated, not a run
    (hex && !util::is_provider_placeholder(key, &util::ByteCounts::of(key))).then_some((s, e))
}

/// Run one rule alone over the whole text, ignoring the keyword prefilter, and count the
/// accepted matches. `None` when the id is unknown. Test support for rule authors.
#[doc(hidden)]
pub fn rule_match_count(rule_id: &str, text: &str) -> Option<usize> {
    let set = ruleset();
    let index = *set.by_id.get(rule_id)?;
    let rule = &set.rules[index as usize];
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    if rule.engine == Engine::KeyFile {
        return Some(usize::from(key_file(bytes).is_some()));
    }
    let mut work = Work::default();
    let mut line_begin = 0;
    // run line by line (joined as the engine joins them)
    while line_begin <= bytes.len() {
        let line_end = util::line_end(bytes, line_begin.min(bytes.len()));
        let end = joined_end(bytes, line_begin.min(bytes.len()), line_end);
        let segment = u32::try_from(work.segments.len()).ok()?;
        work.segments.push(Segment {
            start: line_begin,
            end,
        });
        work.runs.push((index, segment));
        line_begin = line_end + 1;
    }
    run_work(bytes, &mut work, &mut spans);
    layered_pass(bytes, &work, 0, &mut spans);
    let own = rule.id.as_str();
    let mut starts: Vec<usize> = spans
        .iter()
        .filter(|s| s.id == own || rule.engine == Engine::Scope)
        .filter(|s| s.report)
        .map(|s| s.start)
        .collect();
    starts.sort_unstable();
    starts.dedup();
    Some(starts.len())
}

/// Pairs up to this many are ordered by a stable sort: a counting sort's pass over every rule
/// costs more than sorting a few pairs (the views of escaped regions and the text of base64
/// blobs are small texts, each with its own pass).
const FEW_RUNS: usize = 32;

/// Order the (rule, segment) pairs by the rules' run rank, keeping segment order within a rule:
/// a counting sort, since the pairs arrive in segment order and there are a few hundred rules
/// (a stable sort for a few pairs: the same order).
fn group_by_rule(run_rank: &[u16], runs: &mut Vec<(u16, u32)>) {
    if runs.len() <= FEW_RUNS {
        runs.sort_by_key(|&(r, _)| run_rank[r as usize]);
    } else {
        group_by_counting(run_rank, runs);
    }
}

/// [`group_by_rule`] by a counting sort.
fn group_by_counting(run_rank: &[u16], runs: &mut Vec<(u16, u32)>) {
    let mut start = vec![0u32; run_rank.len() + 1];
    for &(r, _) in runs.iter() {
        start[run_rank[r as usize] as usize + 1] += 1;
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let mut grouped = vec![(0u16, 0u32); runs.len()];
    for &(r, segment) in runs.iter() {
        let slot = &mut start[run_rank[r as usize] as usize];
        grouped[*slot as usize] = (r, segment);
        *slot += 1;
    }
    *runs = grouped;
}

/// Run every (rule, segment) pair. Pairs run grouped by rule: a rule's compiled regex and its
/// lazy DFA cache stay hot in the processor caches across all the lines it inspects, instead of
/// some 200 regexes taking turns line by line (ten times slower on text dense with candidates).
fn run_work(bytes: &[u8], work: &mut Work, spans: &mut Vec<Span>) {
    let set = ruleset();
    // scope-aware detection runs last: it skips values that provider rules already redact
    group_by_rule(&set.run_rank, &mut work.runs);
    // the scope-aware parser runs once per segment, whichever scope rules triggered it
    let mut scope_done = vec![false; work.segments.len()];
    let mut covered: Option<Vec<(usize, usize)>> = None;
    let mut captures: Option<(u16, regex_automata::util::captures::Captures)> = None;
    let mut kube_seen = kube::Seen::default();
    for &(r, segment) in &work.runs {
        let seg = work.segments[segment as usize];
        let rule = &set.rules[r as usize];
        match rule.engine {
            Engine::Regex => {
                let Some(re) = rule.regex.as_ref().map(rules::LazyRegex::get) else {
                    continue;
                };
                let hay = &bytes[..seg.end];
                let mut pos = seg.start;
                if seg.end - pos < rule.min_len {
                    continue; // too short for any match
                }
                // capture slots are reused across the rule's lines (runs are grouped by rule)
                let caps = match &mut captures {
                    Some((owner, caps)) if *owner == r => caps,
                    slot => &mut slot.insert((r, re.create_captures())).1,
                };
                let input = |pos: usize| regex_automata::Input::new(hay).span(pos..hay.len());
                // One search per match: plain `find` when the secret is the whole match,
                // otherwise a capture search (a DFA search, then capture slots on the match only).
                // When the match's end tells where the secret is, a half search finds the end
                // alone (no reverse scan for the start).
                // after a match, the rest of the line is searched only if a match still fits
                while pos <= seg.end && seg.end - pos >= rule.min_len {
                    // an assignment's value of fixed length ends the match: no capture search
                    // unless the match's last bytes can be read two ways; and unless an
                    // allowlist reads the whole match, its start is not needed either (the
                    // value's start stands for it: the search goes on after the value anyway)
                    let from_end = match rule.value_len {
                        Some(len) if !rule.reads_match && rule.min_len >= 2 => {
                            match re.search_half(&input(pos)) {
                                Some(h) => rules::value_end_before(hay, h.offset(), true)
                                    .and_then(|end| Some((end.checked_sub(len)?, end)))
                                    .filter(|&(start, _)| start >= pos)
                                    .map(|secret| ((secret.0, h.offset()), Some(secret))),
                                None => break,
                            }
                        }
                        Some(len) => match re.search(&input(pos)) {
                            Some(m) => rules::assignment_value_end(hay, m.start(), m.end())
                                .and_then(|end| Some((end.checked_sub(len)?, end)))
                                .filter(|&(start, _)| start >= m.start())
                                .map(|secret| ((m.start(), m.end()), Some(secret))),
                            None => break,
                        },
                        None => None,
                    };
                    let (whole, secret) = if let Some(found) = from_end {
                        found
                    } else if let (Some(0), Some(len)) = (rule.secret_group, rule.match_len) {
                        // every match has the same length: its end gives its start
                        match re.search_half(&input(pos)) {
                            Some(h) => {
                                let m = (h.offset() - len, h.offset());
                                (m, Some(m))
                            }
                            None => break,
                        }
                    } else if rule.secret_group == Some(0) {
                        match re.search(&input(pos)) {
                            Some(m) => ((m.start(), m.end()), Some((m.start(), m.end()))),
                            None => break,
                        }
                    } else {
                        re.search_captures(&input(pos), caps);
                        match caps.get_match() {
                            Some(whole) => {
                                let group = |g: usize| caps.get_group(g).map(|s| (s.start, s.end));
                                let g = match rule.secret_group {
                                    Some(g) => group(g),
                                    None => (1..caps.group_len()).find_map(group),
                                };
                                ((whole.start(), whole.end()), g)
                            }
                            None => break,
                        }
                    };
                    pos = whole.1.max(whole.0 + 1);
                    let Some((start, end)) = secret else {
                        continue;
                    };
                    // The context a match consumes after its secret can hold the start of the
                    // next match (`postgres://a:x@ibgres://a:y@h`: the first match ends at
                    // `@i`): the search goes on right after the secret, or a second pass would
                    // find what the first missed.
                    pos = pos.min(end.max(whole.0 + 1));
                    if rule.token_end && !rules::token_ends_at(bytes, whole.1) {
                        continue;
                    }
                    let line = {
                        let ls = util::line_start(bytes, start).max(seg.start);
                        let le = util::line_end(bytes, start).min(seg.end);
                        &bytes[ls..le]
                    };
                    if !rule.accepts(&bytes[start..end], &bytes[whole.0..whole.1], line) {
                        continue;
                    }
                    let Some((start, end)) = verify::check(rule.verify, bytes, start, end) else {
                        continue;
                    };
                    spans.push(Span {
                        start,
                        end,
                        id: rule.id.as_str(),
                        kind: FindingKind::Secret,
                        report: true,
                        priority: 0,
                    });
                }
            }
            Engine::PrivateKey => {
                let mut out = Vec::new();
                if rule.id == "putty-private-key" {
                    private_key::scan_putty(bytes, seg.start, seg.end, &mut out);
                } else {
                    private_key::scan(bytes, seg.start, seg.end, &mut out);
                }
                spans.extend(out.into_iter().map(|k| Span {
                    start: k.start,
                    end: k.end,
                    id: rule.id.as_str(),
                    kind: FindingKind::Secret,
                    report: k.report,
                    priority: 0,
                }));
            }
            Engine::KubeSecret => {
                let mut out = Vec::new();
                kube::scan(bytes, seg.start, seg.end, &mut kube_seen, &mut out);
                spans.extend(out.into_iter().map(|k| Span {
                    start: k.start,
                    end: k.end,
                    id: rule.id.as_str(),
                    kind: FindingKind::Secret,
                    report: k.report,
                    priority: 0,
                }));
            }
            Engine::KeyFile => {}
            Engine::Scope => {
                if std::mem::replace(&mut scope_done[segment as usize], true) {
                    continue;
                }
                let covered = covered.get_or_insert_with(|| {
                    let mut ranges: Vec<(usize, usize)> =
                        spans.iter().map(|s| (s.start, s.end)).collect();
                    ranges.sort_unstable();
                    ranges
                });
                let mut out = Vec::new();
                scope::scan(bytes, seg.start, seg.end, covered, &mut out);
                for h in out {
                    let id = match h.class {
                        scope::KeyClass::Password => "generic-password",
                        scope::KeyClass::Secret => "generic-secret",
                    };
                    let id = set.rules[set.by_id[id] as usize].id.as_str();
                    spans.push(Span {
                        start: h.start,
                        end: h.end,
                        id,
                        kind: FindingKind::Secret,
                        report: true,
                        priority: 1,
                    });
                }
            }
        }
    }
}

/// Decode file bytes, replacing each invalid sequence with U+FFFD: UTF-16 text (a byte-order
/// mark, or the pattern of one, see [`decode_utf16`]) as UTF-16, anything else as UTF-8 (the
/// standard "maximal subpart" rule of [`String::from_utf8_lossy`]). Valid UTF-8 is borrowed
/// unchanged, a UTF-8 byte-order mark included. The decoded text is then redacted like any
/// other text.
pub fn decode_lossy(bytes: &[u8]) -> Cow<'_, str> {
    if let Some(text) = decode_utf16(bytes) {
        return Cow::Owned(text);
    }
    // `from_utf8` validates word-at-a-time and is several times faster than the chunked
    // validation inside `from_utf8_lossy`; nearly all source files are valid UTF-8.
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// How much of a file decides whether it is binary or UTF-16 text (the walk's sniff reads as
/// much).
pub const SNIFF_BYTES: usize = 8192;

/// Whether a file whose first bytes are `sample` is binary: it holds a NUL byte and is not
/// UTF-16 text. Windows tools write UTF-16 (`.reg` exports, PowerShell and resource files):
/// its ASCII characters carry a NUL byte each, and it is text all the same.
pub fn looks_binary(sample: &[u8]) -> bool {
    memchr::memchr(0, sample).is_some() && utf16_order(sample).is_none()
}

/// Byte order of UTF-16 text.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Utf16Order {
    Little,
    Big,
}

/// Code units a sample must hold before UTF-16 text is guessed without a byte-order mark: a
/// pattern in two or three units is chance (`te\0t`, a few bytes of a binary format, reads as
/// two "characters" with a NUL high byte), while a file of eight characters or more shows it.
const MIN_GUESSED_UTF16_UNITS: usize = 8;

/// Whether `bytes` (a whole file, or its first bytes) is UTF-16 text, and in which order: a
/// byte-order mark (not UTF-32's), or without one the pattern of text that is mostly ASCII, a
/// NUL as the high byte of most code units and never as the low byte of one (checked on the
/// first [`SNIFF_BYTES`], which must hold [`MIN_GUESSED_UTF16_UNITS`] units). Either way the
/// sample must decode without unpaired surrogates, NUL or control characters other than white
/// space.
fn utf16_order(bytes: &[u8]) -> Option<Utf16Order> {
    let order = match bytes {
        [0xff, 0xfe, 0, 0, ..] => return None, // UTF-32 LE
        [0xff, 0xfe, ..] => Utf16Order::Little,
        [0xfe, 0xff, ..] => Utf16Order::Big,
        _ => {
            let sample = &bytes[..bytes.len().min(SNIFF_BYTES) & !1];
            if sample.len() < 2 * MIN_GUESSED_UTF16_UNITS || memchr::memchr(0, sample).is_none() {
                return None;
            }
            let (mut zero_even, mut zero_odd) = (0usize, 0usize);
            for pair in sample.chunks_exact(2) {
                zero_even += usize::from(pair[0] == 0);
                zero_odd += usize::from(pair[1] == 0);
            }
            let units = sample.len() / 2;
            if zero_odd * 2 >= units && zero_even == 0 {
                Utf16Order::Little
            } else if zero_even * 2 >= units && zero_odd == 0 {
                Utf16Order::Big
            } else {
                return None;
            }
        }
    };
    let sample = &bytes[..bytes.len().min(SNIFF_BYTES) & !1];
    let text_like = char::decode_utf16(units(sample, order)).all(|c| match c {
        Ok(c) => !c.is_control() || matches!(c, '\t' | '\n' | '\r' | '\u{c}' | '\u{1b}'),
        // a surrogate pair cut by the sample's end is not an error of the text
        Err(e) => sample.len() < bytes.len() && e.unpaired_surrogate() >= 0xd800,
    });
    text_like.then_some(order)
}

fn units(bytes: &[u8], order: Utf16Order) -> impl Iterator<Item = u16> + '_ {
    bytes.chunks_exact(2).map(move |pair| match order {
        Utf16Order::Little => u16::from_le_bytes([pair[0], pair[1]]),
        Utf16Order::Big => u16::from_be_bytes([pair[0], pair[1]]),
    })
}

/// The text of UTF-16 file bytes (see [`looks_binary`] for what counts as UTF-16), its
/// byte-order mark dropped, invalid units and an odd last byte replaced with U+FFFD; `None`
/// when the bytes are not UTF-16 text, or hold a NUL character (binary after all).
pub fn decode_utf16(bytes: &[u8]) -> Option<String> {
    let order = utf16_order(bytes)?;
    let body = match bytes {
        [0xff, 0xfe, rest @ ..] | [0xfe, 0xff, rest @ ..] => rest,
        _ => bytes,
    };
    let mut text = String::with_capacity(body.len() / 2 + 3);
    for c in char::decode_utf16(units(body, order)) {
        match c {
            Ok('\0') => return None,
            Ok(c) => text.push(c),
            Err(_) => text.push(char::REPLACEMENT_CHARACTER),
        }
    }
    if body.len() % 2 == 1 {
        text.push(char::REPLACEMENT_CHARACTER);
    }
    Some(text)
}

/// Every rule id a `[REDACTED:<id>]` marker can carry: the secret rules, their `base64:` forms
/// and the private-data rules.
pub fn marker_ids() -> Vec<String> {
    ruleset()
        .marker_ids()
        .map(str::to_string)
        .chain(PRIVATE_DATA_RULE_IDS.iter().map(|id| id.to_string()))
        .collect()
}

/// Count keyword hits of the prefilter automaton. Benchmark support only.
#[doc(hidden)]
pub fn keyword_hit_counts(text: &str) -> usize {
    ruleset().keywords.hits(text.as_bytes()).len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn redactor_is_send_sync() {
        assert_send_sync::<Redactor>();
    }

    #[test]
    fn a_marker_is_never_read_as_a_key() {
        // Found by fuzz/fuzz_targets/redact.rs: the second pass read the rule id of
        // `password=[REDACTED:connection-string-password] = "..."` as a key.
        let r = Redactor::new(RedactOptions::default());
        let once = r.redact("password=hunter2x = \"rpbeLPTO5dfY4eWGiE59\"\n");
        let twice = r.redact(&once.text);
        assert_eq!(twice.text, once.text);
        assert!(twice.findings.is_empty(), "{:?}", twice.findings);
    }

    #[test]
    fn a_marker_is_never_part_of_a_new_span() {
        // Found by fuzz/fuzz_targets/redact.rs (kept as fuzz/regressions/redact/dsn-marker):
        // the second pass read `[REDACTED` and `go-mysql-dsn]` of a redacted Go MySQL DSN as
        // its user and password.
        let r = Redactor::new(RedactOptions::default());
        let once = r.redact("MYSQL_DSN=root:Xq7vLp2mR9sT@tcp(127.0.0.1:3306)/app\n");
        assert!(!once.text.contains("Xq7vLp2mR9sT"), "{}", once.text);
        let twice = r.redact(&once.text);
        assert_eq!(twice.text, once.text);
        assert!(twice.findings.is_empty(), "{:?}", twice.findings);
        // A secret beside a marker (not overlapping it) is still found.
        let beside = r.redact("[REDACTED:github-pat] ghp_Zr8sK2vQ9mN4xL7pT1wY5bC3dF6hJ0gA2eR4\n");
        assert!(!beside.text.contains("ghp_Zr8"), "{}", beside.text);
    }

    #[test]
    fn a_match_starting_in_the_context_another_consumed_is_found_in_the_same_pass() {
        // Found by fuzzing: the first URL's match ends at `@i`, inside the second URL's scheme.
        let text = "DATABASE_URL=postgres://app:Ab3dEf5hIj7lMn9p@ibgres://app:3osO1LSKBpYoygbJ@ibn.dternal:5432/app\n";
        let redactor = Redactor::new(RedactOptions::default());
        let once = redactor.redact(text);
        assert!(
            !once.text.contains("Ab3dEf5hIj7lMn9p") && !once.text.contains("3osO1LSKBpYoygbJ"),
            "{}",
            once.text
        );
        assert_eq!(redactor.redact(&once.text).text, once.text);
    }

    #[test]
    fn a_marker_as_a_new_boundary_is_redacted_in_the_same_pass() {
        // Found by fuzz/fuzz_targets/redact.rs (kept as fuzz/regressions/redact/
        // marker-as-boundary): once the user name is redacted, what follows it reads as an
        // IPv6 address, which the second pass redacted.
        let r = Redactor::new(RedactOptions {
            hide_private_data: true,
        });
        let once = r.redact("home C:\\Users\\ale80::1c2d:3e4f:5a6b:7c8d\n");
        let twice = r.redact(&once.text);
        assert_eq!(twice.text, once.text);
        assert!(twice.findings.is_empty(), "{:?}", twice.findings);
        assert!(once.text.contains("[REDACTED:ipv6]"), "{}", once.text);
        let lines: Vec<usize> = once.findings.iter().map(|f| f.line).collect();
        assert_eq!(lines, [1, 1], "{:?}", once.findings);
    }

    /// `drop_spans_on_markers` as first written: every marker of the whole text.
    fn spans_off_markers_by_definition(bytes: &[u8], spans: &[(usize, usize)]) -> Vec<bool> {
        const OPEN: &[u8] = b"[REDACTED:";
        let mut markers = Vec::new();
        for start in memchr::memmem::find_iter(bytes, OPEN) {
            let rest = &bytes[start + OPEN.len()..];
            let id_len = rest
                .iter()
                .take(64)
                .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b':'))
                .count();
            if id_len > 0 && rest.get(id_len) == Some(&b']') {
                markers.push((start, start + OPEN.len() + id_len + 1));
            }
        }
        spans
            .iter()
            .map(|&(start, end)| !markers.iter().any(|&(ms, me)| ms < end && me > start))
            .collect()
    }

    proptest::proptest! {
        #[test]
        fn only_spans_on_markers_are_dropped(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "[REDACTED:", "[REDACTED:github-pat]", "generic-secret", "]", "[", "a", "-",
                    " ", "\n", "x_y", "0123456789abcdef0123456789abcdef", "REDACTED:",
                    // the longest id (64 bytes), and one byte too long
                    "[REDACTED:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef]",
                    "[REDACTED:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdefx]",
                ]),
                0..40,
            ),
            picks in proptest::collection::vec(
                (
                    proptest::prelude::any::<proptest::sample::Index>(),
                    proptest::prelude::any::<bool>(),
                    0usize..3,
                    1usize..90,
                ),
                1..12,
            ),
        ) {
            let text = parts.concat();
            let bytes = text.as_bytes();
            proptest::prop_assume!(!bytes.is_empty());
            // half the spans start at or just before the last byte of a `]`: the edge of a marker
            let closes: Vec<usize> = memchr::memchr_iter(b']', bytes).collect();
            let wanted: Vec<(usize, usize)> = picks
                .iter()
                .map(|(at, at_close, back, len)| {
                    let start = match (at_close, closes.is_empty()) {
                        (true, false) => closes[at.index(closes.len())].saturating_sub(*back),
                        _ => at.index(bytes.len()),
                    };
                    (start, (start + len).min(bytes.len()).max(start + 1))
                })
                .collect();
            let spans: Vec<Span> = wanted
                .iter()
                .map(|&(start, end)| Span {
                    start,
                    end,
                    id: "x",
                    kind: FindingKind::Secret,
                    report: true,
                    priority: 0,
                })
                .collect();
            let keep = spans_off_markers_by_definition(bytes, &wanted);
            let expected: Vec<(usize, usize)> = wanted
                .iter()
                .zip(keep)
                .filter(|(_, k)| *k)
                .map(|(s, _)| *s)
                .collect();
            // the surroundings of the spans, the whole text, and whichever the engine picks
            let windows = marker_windows(&spans);
            for windows in [&windows[..], &[(0, bytes.len())], &[]] {
                let mut spans = spans.clone();
                if windows.is_empty() {
                    drop_spans_on_markers(bytes, &mut spans);
                } else {
                    retain_off_markers(bytes, &mut spans, windows);
                }
                let kept: Vec<(usize, usize)> = spans.iter().map(|s| (s.start, s.end)).collect();
                proptest::prop_assert_eq!(&kept, &expected);
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn both_groupings_give_the_stable_order(
            ranks in proptest::collection::vec(0u16..40, 1..40),
            picks in proptest::collection::vec((0usize..40, 0u32..1000), 0..100),
        ) {
            // a rank for each rule, below the number of rules (as `run_rank` gives them)
            let ranks: Vec<u16> = ranks.iter().map(|&k| k % ranks.len() as u16).collect();
            let runs: Vec<(u16, u32)> =
                picks.iter().map(|&(r, s)| ((r % ranks.len()) as u16, s)).collect();
            let mut expected = runs.clone();
            expected.sort_by_key(|&(r, _)| ranks[r as usize]);
            let mut counted = runs.clone();
            group_by_counting(&ranks, &mut counted);
            proptest::prop_assert_eq!(&counted, &expected);
            let mut grouped = runs;
            group_by_rule(&ranks, &mut grouped);
            proptest::prop_assert_eq!(&grouped, &expected);
        }
    }

    fn utf16le(text: &str) -> Vec<u8> {
        text.encode_utf16().flat_map(u16::to_le_bytes).collect()
    }

    #[test]
    fn a_few_bytes_with_a_nul_are_binary_not_utf16() {
        // a few units that happen to fit the pattern (`te` and `\0t`): binary, as before
        // UTF-16 was read
        for bytes in [&b"te\0t"[..], b"te\0t\n", b"ab\0c\0d\0e\0f\0g\0"] {
            assert!(looks_binary(bytes), "{bytes:?}");
            assert_eq!(decode_utf16(bytes), None, "{bytes:?}");
        }
        // seven characters without a byte-order mark are too few to tell; eight are text
        assert!(looks_binary(&utf16le("a=1\r\nb=")));
        assert_eq!(
            decode_utf16(&utf16le("a=1\r\nb=2")).as_deref(),
            Some("a=1\r\nb=2")
        );
        assert!(!looks_binary(&utf16le("a=1\r\nb=2")));
        // with a byte-order mark, any length is text
        let mut marked = vec![0xff, 0xfe];
        marked.extend(utf16le("ok"));
        assert_eq!(decode_utf16(&marked).as_deref(), Some("ok"));
        assert_eq!(decode_lossy(&marked), "ok");
    }

    #[test]
    fn borrowed_when_clean() {
        let r = Redactor::new(RedactOptions::default());
        let out = r.redact("fn main() { println!(\"hello\"); }\n");
        assert!(matches!(out.text, Cow::Borrowed(_)));
        assert!(out.findings.is_empty());
    }
}
