//! Escape sequences that hide token boundaries.
//!
//! A token right after `\n` in a JSON string (`"...\nAKIA..."`), after `%3D` in a query string
//! (`token%3Dsk_live_...`) or a key between escaped quotes (`{\"password\": \"...\"}`) is not
//! where the rules expect it: `n` and `D` are word characters, `\"` is not a quote. JSON logs,
//! HAR files, Terraform state, access logs and escaped configuration are full of these.
//!
//! So the segments that hold such an escape are inspected a second time, on a copy of them in
//! which the escapes of delimiters are decoded *in place*: the escape's bytes become blanks and
//! the decoded delimiter takes its last byte (`\"` becomes ` "`, `%3D` becomes `  =`,
//! `\u0022` becomes `     "`). Lengths do not change, so every span found on the copy maps back
//! to the original text by an offset. Only delimiters and white space are decoded: `%2B`,
//! `%2F` and `%40` belong to tokens (base64, URL-encoded passwords), and the first pass on the
//! original text still sees every token as written.
//!
//! The copy holds only those segments, one per line: the regex rules and the scope-aware
//! parser run on it (the block engines, private keys and Kubernetes manifests, read across
//! lines and have run on the original).

use crate::{Segment, Work};

/// The decoded segments, one per line, the work to repeat on them, and where each came from.
pub(crate) struct Decoded {
    pub(crate) bytes: Vec<u8>,
    pub(crate) work: Work,
    /// For each segment of `work`: the offset of its first byte in the original text.
    origins: Vec<usize>,
}

impl Decoded {
    /// The original offset of `at`, an offset in `bytes`.
    pub(crate) fn original(&self, at: usize) -> usize {
        let i = self
            .work
            .segments
            .partition_point(|s| s.start <= at)
            .saturating_sub(1);
        at - self.work.segments[i].start + self.origins[i]
    }
}

/// The work to repeat on decoded text, if any segment holds an escape that matters; `keep`
/// says which rules run again.
pub(crate) fn decoded_work(
    bytes: &[u8],
    work: &Work,
    keep: impl Fn(u16) -> bool,
) -> Option<Decoded> {
    let mut index = vec![u32::MAX; work.segments.len()];
    let mut out = Decoded {
        bytes: Vec::new(),
        work: Work::default(),
        origins: Vec::new(),
    };
    for (i, seg) in work.segments.iter().enumerate() {
        let region = &bytes[seg.start..seg.end];
        if !decode(region, None) {
            continue;
        }
        out.bytes.push(b'\n');
        let start = out.bytes.len();
        out.bytes.extend_from_slice(region);
        decode(region, Some(&mut out.bytes[start..]));
        index[i] = u32::try_from(out.work.segments.len()).expect("fewer than 2^32 segments");
        out.work.segments.push(Segment {
            start,
            end: out.bytes.len(),
        });
        out.origins.push(seg.start);
    }
    if out.work.segments.is_empty() {
        return None;
    }
    out.work.runs = work
        .runs
        .iter()
        .filter(|&&(r, s)| index[s as usize] != u32::MAX && keep(r))
        .map(|&(r, s)| (r, index[s as usize]))
        .collect();
    Some(out)
}

/// What an escape decodes to, if it is one we decode: (length, decoded byte).
fn escape_at(region: &[u8], i: usize) -> Option<(usize, u8)> {
    let rest = &region[i..];
    match rest[0] {
        b'\\' => match *rest.get(1)? {
            b'n' | b'r' | b't' => Some((2, b' ')),
            b'"' => Some((2, b'"')),
            b'\'' => Some((2, b'\'')),
            b'u' => {
                let hex = rest.get(2..6)?;
                if !hex.starts_with(b"00") {
                    return None;
                }
                delimiter(hex_byte(&hex[2..])?).map(|d| (6, d))
            }
            b'x' => delimiter(hex_byte(rest.get(2..4)?)?).map(|d| (4, d)),
            _ => None,
        },
        b'%' => delimiter(hex_byte(rest.get(1..3)?)?).map(|d| (3, d)),
        b'&' => {
            const ENTITIES: [(&[u8], u8); 5] = [
                (b"&quot;", b'"'),
                (b"&#34;", b'"'),
                (b"&#x22;", b'"'),
                (b"&apos;", b'\''),
                (b"&amp;", b'&'),
            ];
            ENTITIES
                .iter()
                .find(|(e, _)| rest.starts_with(e))
                .map(|(e, d)| (e.len(), *d))
        }
        _ => None,
    }
}

/// Decode the escapes of `region` into `out` (the same bytes, same length), or with `out` =
/// `None` only say whether there is one that can hide a boundary. Returns that answer.
fn decode(region: &[u8], mut out: Option<&mut [u8]>) -> bool {
    let mut found = false;
    // `\\n` is a backslash and an `n`: an escaped backslash ends where the next byte starts
    let mut skip_to = 0;
    for i in memchr::memchr3_iter(b'\\', b'%', b'&', region) {
        if i < skip_to {
            continue;
        }
        if region[i] == b'\\' && region.get(i + 1) == Some(&b'\\') {
            skip_to = i + 2;
            continue;
        }
        let Some((len, decoded)) = escape_at(region, i) else {
            continue;
        };
        // white space matters where a token may start right after it; a quote or an operator
        // always shapes what the rules see
        let next = region.get(i + len).copied().unwrap_or(b' ');
        if decoded != b' ' || next.is_ascii_alphanumeric() || next == b'_' {
            found = true;
            if out.is_none() {
                return true;
            }
        }
        if let Some(out) = out.as_deref_mut() {
            out[i..i + len - 1].fill(b' ');
            out[i + len - 1] = decoded;
        }
        skip_to = i + len;
    }
    found
}

/// The delimiters whose escapes are decoded (white space becomes a blank).
fn delimiter(code: u8) -> Option<u8> {
    match code {
        b'\n' | b'\r' | b'\t' | b' ' => Some(b' '),
        b'"' | b'\'' | b'<' | b'>' | b'&' | b'=' | b',' | b':' | b';' | b'?' | b'{' | b'}'
        | b'[' | b']' => Some(code),
        _ => None,
    }
}

fn hex_byte(h: &[u8]) -> Option<u8> {
    let digit = |c: u8| (c as char).to_digit(16);
    Some((digit(*h.first()?)? * 16 + digit(*h.get(1)?)?) as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(s: &str) -> String {
        let mut out = s.as_bytes().to_vec();
        decode(s.as_bytes(), Some(&mut out));
        assert_eq!(out.len(), s.len());
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn decodes_delimiters_in_place() {
        assert_eq!(decoded(r#""a\nAKIA""#), r#""a  AKIA""#);
        assert_eq!(decoded(r#"{\"k\":\"v\"}"#), r#"{ "k ": "v "}"#);
        assert_eq!(decoded("token%3Dsk_live_x%26y"), "token  =sk_live_x  &y");
        assert_eq!(decoded(r"\u0022t\u0022"), "     \"t     \"");
        assert_eq!(decoded("a&quot;b"), "a     \"b");
        // tokens keep their own escapes; an escaped backslash is not an escape
        assert_eq!(decoded("sig%2B%2Fx%40y"), "sig%2B%2Fx%40y");
        assert_eq!(decoded(r"C:\\new\\tmp"), r"C:\\new\\tmp");
    }

    #[test]
    fn only_boundary_escapes_count() {
        assert!(!decode(br#"println!("done\n");"#, None));
        assert!(decode(br#""one\ntwo""#, None));
        assert!(decode(br#"{\"a\": 1}"#, None));
        assert!(!decode(b"50% off, 100%", None));
    }
}
