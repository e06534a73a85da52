//! Private key blocks (PEM: RSA, EC, DSA, OpenSSH, PKCS#8 incl. ENCRYPTED; PGP private key
//! blocks), multi-line or escaped into one line (`"-----BEGIN ...-----\nMII...\n-----END..."`).
//!
//! Each body line is replaced on its own, so the redacted block keeps its line count; the
//! `BEGIN` / `END` marker lines stay, which keeps the structure readable and makes the pass
//! idempotent.

use std::sync::OnceLock;

use regex::bytes::{Regex, RegexBuilder};

use crate::util;

/// A body span to replace; `report` is set on the first span of each block.
pub(crate) struct KeySpan {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) report: bool,
}

/// Lines scanned after a `BEGIN` marker without finding `END` before giving up on the block.
pub(crate) const MAX_BLOCK_LINES: usize = 400;
/// A body with fewer base64 characters than this is a documentation stub (`...`), not a key.
const MIN_BODY_CHARS: usize = 40;

fn begin_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        RegexBuilder::new(r"-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----")
            .unicode(false)
            .build()
            .unwrap_or_else(|e| panic!("built-in private key regex is invalid: {e}"))
    })
}

fn base64_chars(b: &[u8]) -> usize {
    b.iter()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'='))
        .count()
}

fn trim_range(bytes: &[u8], mut s: usize, mut e: usize) -> (usize, usize) {
    while s < e && bytes[s].is_ascii_whitespace() {
        s += 1;
    }
    while e > s && bytes[e - 1].is_ascii_whitespace() {
        e -= 1;
    }
    (s, e)
}

/// Whether a line of a block without `END` still looks like key material or a PEM header.
fn looks_like_body(line: &[u8]) -> bool {
    let t = line.trim_ascii();
    if t.is_empty() {
        return false;
    }
    let headers: [&[u8]; 5] = [
        b"Proc-Type:",
        b"DEK-Info:",
        b"Comment:",
        b"Version:",
        b"Charset:",
    ];
    if headers.iter().any(|h| t.starts_with(h)) {
        return true;
    }
    base64_chars(t) * 10 >= t.len() * 9
}

/// PuTTY key files: the `N` lines after `Private-Lines: N` are the private key.
pub(crate) fn scan_putty(bytes: &[u8], start: usize, end: usize, out: &mut Vec<KeySpan>) {
    let needle = b"Private-Lines:";
    let mut pos = start;
    while let Some(i) = memchr::memmem::find(&bytes[pos..end], needle) {
        let at = pos + i + needle.len();
        pos = at;
        let le = util::line_end(bytes, at);
        let Ok(n) = std::str::from_utf8(bytes[at..le].trim_ascii())
            .unwrap_or("x")
            .parse::<usize>()
        else {
            continue;
        };
        let mut line_begin = le + 1;
        for k in 0..n.min(MAX_BLOCK_LINES) {
            if line_begin > bytes.len() {
                break;
            }
            let e = util::line_end(bytes, line_begin.min(bytes.len()));
            let (s, e2) = trim_range(bytes, line_begin.min(bytes.len()), e);
            if s < e2 && !util::contains_redaction_marker(&bytes[s..e2]) {
                out.push(KeySpan {
                    start: s,
                    end: e2,
                    report: k == 0,
                });
            }
            line_begin = e + 1;
        }
    }
}

/// SSH2 (RFC 4716) private key blocks, `---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----` on a line
/// of its own: the header lines (`Comment: ...`, continued with `\`) stay, every base64 body
/// line is redacted, up to the `END` line or the first line that is not base64.
fn scan_ssh2(bytes: &[u8], start: usize, end: usize, out: &mut Vec<KeySpan>) {
    const BEGIN: &[u8] = b"---- BEGIN SSH2 ";
    let finder = memchr::memmem::Finder::new(BEGIN);
    let mut pos = start;
    while let Some(i) = finder.find(&bytes[pos..end]) {
        let at = pos + i;
        let ls = util::line_start(bytes, at);
        let le = util::line_end(bytes, at);
        pos = le.max(at + BEGIN.len());
        let marker = bytes[ls..le].trim_ascii();
        if !marker.starts_with(BEGIN)
            || !marker.ends_with(b"PRIVATE KEY ----")
            || memchr::memmem::find(marker, b"PUBLIC").is_some()
        {
            continue; // a public key, or the marker quoted in prose or code
        }
        let mut spans = Vec::new();
        let mut in_header = true;
        let mut continued = false;
        let mut line_begin = le + 1;
        for _ in 0..MAX_BLOCK_LINES {
            if line_begin >= bytes.len() {
                break;
            }
            let e = util::line_end(bytes, line_begin);
            let line = bytes[line_begin..e].trim_ascii();
            if line.starts_with(b"---- END SSH2") {
                break;
            }
            let header = continued
                || (in_header
                    && line.iter().position(|&b| b == b':').is_some_and(|c| {
                        c > 0
                            && line[..c]
                                .iter()
                                .all(|b| b.is_ascii_alphanumeric() || *b == b'-')
                    }));
            if header {
                continued = line.ends_with(b"\\");
            } else if !line.is_empty() {
                if !looks_like_body(line) {
                    break; // the block ended without its END line
                }
                in_header = false;
                let (s, e2) = trim_range(bytes, line_begin, e);
                if !util::contains_redaction_marker(&bytes[s..e2]) {
                    spans.push((s, e2));
                }
            }
            line_begin = e + 1;
        }
        let chars: usize = spans
            .iter()
            .map(|(s, e)| base64_chars(&bytes[*s..*e]))
            .sum();
        if chars < MIN_BODY_CHARS {
            continue;
        }
        for (n, (s, e)) in spans.into_iter().enumerate() {
            out.push(KeySpan {
                start: s,
                end: e,
                report: n == 0,
            });
        }
    }
}

/// Find private key blocks whose `BEGIN` marker lies in `bytes[start..end]`.
pub(crate) fn scan(bytes: &[u8], start: usize, end: usize, out: &mut Vec<KeySpan>) {
    scan_ssh2(bytes, start, end, out);
    let re = begin_re();
    let mut pos = start;
    while let Some(m) = re.find_at(&bytes[..end], pos) {
        pos = m.end();
        let line_stop = util::line_end(bytes, m.end());
        let rest = &bytes[m.end()..line_stop];
        if let Some(i) = memchr::memmem::find(rest, b"-----END") {
            // one-line (escaped) block
            let (mut s, e) = trim_range(bytes, m.end(), m.end() + i);
            // drop leading / trailing escaped newlines (`\n`, `\r\n`) from the body
            let body = &bytes[s..e];
            let skip = body
                .iter()
                .take_while(|&&b| matches!(b, b'\\' | b'n' | b'r'))
                .count();
            s += skip.min(4);
            let (s, e) = trim_range(bytes, s, e);
            let body = &bytes[s..e];
            if base64_chars(body) >= MIN_BODY_CHARS && !util::contains_redaction_marker(body) {
                out.push(KeySpan {
                    start: s,
                    end: e,
                    report: true,
                });
            }
            continue;
        }
        // multi-line block
        let mut spans = Vec::new();
        let mut chars = 0usize;
        let mut line_begin = line_stop + 1;
        let mut found_end = false;
        let mut lines = 0usize;
        while line_begin <= bytes.len() && lines < MAX_BLOCK_LINES {
            let le = util::line_end(bytes, line_begin.min(bytes.len()));
            let line = &bytes[line_begin.min(bytes.len())..le];
            if memchr::memmem::find(line, b"-----BEGIN").is_some() {
                break; // another block starts: this one has no END
            }
            if let Some(i) = memchr::memmem::find(line, b"-----END") {
                let (s, e) = trim_range(bytes, line_begin, line_begin + i);
                if s < e {
                    chars += base64_chars(&bytes[s..e]);
                    spans.push((s, e));
                }
                found_end = true;
                break;
            }
            let (s, e) = trim_range(bytes, line_begin, le);
            if s < e {
                spans.push((s, e));
                chars += base64_chars(&bytes[s..e]);
            }
            lines += 1;
            if le >= bytes.len() {
                break;
            }
            line_begin = le + 1;
        }
        if !found_end {
            // truncated block: keep only the leading lines that look like key material
            let keep = spans
                .iter()
                .take_while(|(s, e)| looks_like_body(&bytes[*s..*e]))
                .count();
            spans.truncate(keep);
            chars = spans
                .iter()
                .map(|(s, e)| base64_chars(&bytes[*s..*e]))
                .sum();
        }
        spans.retain(|(s, e)| !util::contains_redaction_marker(&bytes[*s..*e]));
        let _ = chars;
        let chars: usize = spans
            .iter()
            .map(|(s, e)| base64_chars(&bytes[*s..*e]))
            .sum();
        if chars < MIN_BODY_CHARS || spans.is_empty() {
            continue;
        }
        for (i, (s, e)) in spans.into_iter().enumerate() {
            out.push(KeySpan {
                start: s,
                end: e,
                report: i == 0,
            });
        }
    }
}
