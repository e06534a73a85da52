//! The redactor (`decode_lossy`, then `Redactor::redact`), with secrets only and with private
//! data hidden as well (for a fixed machine identity, so runs are reproducible).
//!
//! Input: file bytes, checked as they are and as a generator template (`{{an:36}}` becomes
//! 36 random characters: the seeds hold no credential). A known secret is also planted into
//! them: one example of the rule catalog (`rules.toml`; each must be caught), expanded with
//! fresh random characters and inserted as whole lines at a position (example, seed and
//! position come from a hash of the input); for one input in eight, again behind a 70 KiB
//! first line, whose keywords are inspected in windows.
//!
//! Invariants:
//! - no panic; the line count never changes; unchanged text is returned borrowed;
//! - each output line is its input line with some runs of bytes replaced by
//!   `[REDACTED:<known rule id>]` markers, every marker replacing at least one byte (or
//!   standing at the end of a line, where a span that starts at the line break begins), so
//!   the output is never longer than the input plus one marker per replaced run;
//! - findings name known rules with the right kind, on existing lines, in order;
//! - idempotent: redacting the output again changes nothing and finds nothing;
//! - no secret survives: every random piece of the planted example that is redacted when the
//!   example stands alone is absent from the planted lines of the output, whatever surrounds
//!   them (except for whole-file rules: a key file holds nothing but its key, so the same
//!   32 hex digits inside other text are a checksum or an id).
#![no_main]

use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::OnceLock;

use devprojex_redact::{
    FindingKind, MachineIdentity, PRIVATE_DATA_RULE_IDS, RedactOptions, Redactor, decode_lossy,
    rule_catalog, testgen,
};
use libfuzzer_sys::fuzz_target;

struct Setup {
    redactors: [Redactor; 2],
    secret_ids: HashSet<String>,
    /// Each positive example of the catalog, and whether its rule judges whole files only.
    examples: Vec<(String, bool)>,
}

fn setup() -> &'static Setup {
    static SETUP: OnceLock<Setup> = OnceLock::new();
    SETUP.get_or_init(|| {
        let identity = MachineIdentity {
            user: Some("alice".into()),
            host: Some("build-host-7.corp.example".into()),
        };
        let catalog = rule_catalog();
        Setup {
            redactors: [
                Redactor::new(RedactOptions::default()),
                Redactor::with_identity(
                    RedactOptions {
                        hide_private_data: true,
                    },
                    &identity,
                ),
            ],
            secret_ids: catalog.iter().map(|r| r.id.clone()).collect(),
            examples: catalog
                .into_iter()
                .flat_map(|r| r.examples.into_iter().map(move |e| (e, r.whole_file)))
                .collect(),
        }
    })
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The length of the known marker at the start of `text`, if one is there.
fn marker_at(text: &[u8], ids: &HashSet<String>) -> Option<usize> {
    let rest = text.strip_prefix(b"[REDACTED:")?;
    let close = rest.iter().take(64).position(|&b| b == b']')?;
    let id = std::str::from_utf8(&rest[..close]).ok()?;
    let known = ids.contains(id) || PRIVATE_DATA_RULE_IDS.contains(&id);
    known.then_some(b"[REDACTED:".len() + close + 1)
}

/// Whether `output` is `input` with runs of bytes replaced by markers (see the invariants).
fn is_redaction_of(input: &[u8], output: &[u8], ids: &HashSet<String>) -> bool {
    // States (i, j, mode): input and output positions; mode 0 copies, 1 must consume a byte
    // for the marker just read, 2 may consume more. Depth-first with a visited set.
    let mut seen = HashSet::new();
    let mut stack = vec![(0usize, 0usize, 0u8)];
    while let Some(state) = stack.pop() {
        if !seen.insert(state) {
            continue;
        }
        let (i, j, mode) = state;
        match mode {
            0 => {
                if j == output.len() && i == input.len() {
                    return true;
                }
                if i < input.len() && j < output.len() && input[i] == output[j] {
                    stack.push((i + 1, j + 1, 0));
                }
                if let Some(len) = marker_at(&output[j..], ids) {
                    if i == input.len() {
                        stack.push((i, j + len, 0));
                    }
                    stack.push((i, j + len, 1));
                }
            }
            _ => {
                if mode == 2 {
                    stack.push((i, j, 0));
                }
                if i < input.len() {
                    stack.push((i + 1, j, 2));
                }
            }
        }
    }
    false
}

/// A long first line without keywords: its keywords are inspected in windows (minified files).
fn long_line_filler() -> &'static str {
    static FILLER: OnceLock<String> = OnceLock::new();
    FILLER.get_or_init(|| "var a=b+c;".repeat(7 * 1024))
}

/// The invariants every redaction keeps (see the top of the file).
fn check(redactor: &Redactor, ids: &HashSet<String>, input: &str) -> String {
    let out = redactor.redact(input);
    let in_lines: Vec<&str> = input.split('\n').collect();
    let out_lines: Vec<&str> = out.text.split('\n').collect();
    assert_eq!(out_lines.len(), in_lines.len(), "the line count changed");
    if out.findings.is_empty() {
        assert!(
            matches!(out.text, Cow::Borrowed(_)),
            "clean text was copied"
        );
    }
    for (a, b) in in_lines.iter().zip(&out_lines) {
        if a != b && b.len() <= 256 * 1024 {
            assert!(
                is_redaction_of(a.as_bytes(), b.as_bytes(), ids),
                "not a redaction of its input line:\n{a:?}\n{b:?}"
            );
        }
    }
    let mut last_line = 1;
    for finding in &out.findings {
        assert!(finding.line >= last_line, "findings out of order");
        assert!(
            finding.line <= in_lines.len(),
            "a finding past the last line"
        );
        last_line = finding.line;
        let private = PRIVATE_DATA_RULE_IDS.contains(&finding.rule_id.as_str());
        assert!(
            private || ids.contains(&finding.rule_id),
            "{}",
            finding.rule_id
        );
        assert_eq!(finding.kind == FindingKind::PrivateData, private);
    }
    let twice = redactor.redact(&out.text);
    assert!(
        twice.text == out.text && twice.findings.is_empty(),
        "not idempotent: {:?} then {:?} ({:?})",
        out.text,
        twice.text,
        twice.findings
    );
    out.text.into_owned()
}

fuzz_target!(|data: &[u8]| {
    let setup = setup();
    let hash = fnv(data);
    let decoded = decode_lossy(data);
    // Borrowed only for UTF-8; UTF-8 without a NUL byte (so neither binary nor UTF-16, whose
    // ASCII characters carry one) is always borrowed.
    let utf8 = std::str::from_utf8(data).is_ok();
    if matches!(decoded, Cow::Borrowed(_)) {
        assert!(utf8);
    } else {
        assert!(
            !utf8 || data.contains(&0),
            "valid UTF-8 without NUL was copied"
        );
    }
    // Seeds are generator templates (no credential is committed): `{{an:36}}` and the like
    // become random characters here.
    let expanded = testgen::expand(&decoded, hash);

    // Plant a known secret as whole lines.
    let (example, whole_file) = &setup.examples[(hash % setup.examples.len() as u64) as usize];
    let (planted, pieces) = testgen::expand_tracked(example, hash >> 8);
    let mut lines: Vec<&str> = expanded.split('\n').collect();
    let at = ((hash >> 40) as usize) % (lines.len() + 1);
    let planted_lines = planted.split('\n').count();
    lines.splice(at..at, planted.split('\n'));
    let text = lines.join("\n");
    // One input in eight (it costs as much as the other checks together).
    let long = (hash % 8 == 0).then(|| format!("{}{text}", long_line_filler()));

    for (index, redactor) in setup.redactors.iter().enumerate() {
        let ids = &setup.secret_ids;
        check(redactor, ids, &decoded);
        if expanded != *decoded {
            check(redactor, ids, &expanded);
        }
        let alone = redactor.redact(&planted);
        // A whole-file rule (a key file) is not meant to catch its example inside other text.
        let caught: Vec<&String> = pieces
            .iter()
            .filter(|piece| !whole_file && piece.len() >= 8 && !alone.text.contains(piece.as_str()))
            .collect();
        let mut outputs = vec![("", check(redactor, ids, &text))];
        // The planted lines must not start the long line.
        if let Some(long) = long.as_ref().filter(|_| index == 0 && at > 0) {
            outputs.push(("long ", check(redactor, ids, long)));
        }
        for (variant, output) in outputs {
            let out_lines: Vec<&str> = output.split('\n').collect();
            let planted_out = out_lines[at..at + planted_lines].join("\n");
            for piece in &caught {
                assert!(
                    !planted_out.contains(piece.as_str()),
                    "the secret {piece:?} of {example:?} is caught alone but not in {variant}context:\n{planted_out}"
                );
            }
        }
    }
});
