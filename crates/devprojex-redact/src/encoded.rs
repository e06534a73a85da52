//! Base64 payloads: a blob that decodes to text holding a secret is redacted whole.
//!
//! Kubernetes and CI tooling store whole `.env` files, Docker `config.json` and JSON documents as
//! base64 (`echo ... | base64`, `data:` values, Helm values, CI variables). A blob of standard or
//! URL-safe base64 of at least [`MIN_BLOB`] characters that decodes to UTF-8 text is inspected
//! like any text (its own escapes and blobs included, to [`crate::MAX_DEPTH`]); when a secret is
//! found there, the whole blob becomes `[REDACTED:base64:<rule-id>]`. A blob that decodes to
//! binary (an image in a data URL, a lock file's `sha512-...` integrity hash, a key of random
//! bytes) or to text without a secret stays as it is.
//!
//! Finding the blobs must not slow down ordinary text: base64 of text is made of ASCII letters
//! and digits (of the 64 sextets of a byte below 0x80, `+` `/` `-` `_` stand only for the last
//! one of a group when the third byte is `>` `?` `~`), so candidates are runs of letters and
//! digits, found 64 bytes at a time by byte compares the compiler turns into vector
//! instructions, and judged by their first bytes before anything is decoded.

use base64::Engine as _;
use base64::engine::DecodePaddingMode;
#[cfg(test)]
use base64::engine::general_purpose;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};

/// The shortest blob inspected (15 decoded bytes).
pub(crate) const MIN_BLOB: usize = 20;

/// A run of letters and digits this long starts a candidate (a blob of text holds few `+/-_`).
const MIN_RUN: usize = 16;

/// The longest blob inspected: larger payloads are files of their own, not values.
const MAX_BLOB: usize = 1 << 20;

/// A blob found in a text: its range, and the decoded text.
pub(crate) struct Blob {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) text: Vec<u8>,
}

/// Every base64 blob of `bytes[from..to]` that decodes to UTF-8 text.
pub(crate) fn blobs(bytes: &[u8], from: usize, to: usize) -> Vec<Blob> {
    let mut out = Vec::new();
    let mut at = from;
    while let Some(run) = next_run(bytes, at, to) {
        let (start, end) = widen(bytes, run, from, to);
        at = end.max(run + 1);
        if end - start < MIN_BLOB || end - start > MAX_BLOB {
            continue;
        }
        if let Some(text) = decode_text(&bytes[start..end]) {
            out.push(Blob { start, end, text });
        }
    }
    out
}

/// Bit `i` set where `chunk[i]` is an ASCII letter or digit: compares without a branch, which
/// the compiler vectorises.
#[inline]
fn alnum_mask(chunk: &[u8; 64]) -> u64 {
    let mut flags = [0u8; 64];
    for (flag, &b) in flags.iter_mut().zip(chunk) {
        let letter = (b | 0x20).wrapping_sub(b'a') < 26;
        let digit = b.wrapping_sub(b'0') < 10;
        *flag = u8::from(letter | digit);
    }
    let mut mask = 0u64;
    for (k, eight) in flags.chunks_exact(8).enumerate() {
        let eight = u64::from_le_bytes(eight.try_into().expect("eight flags"));
        // eight 0/1 bytes -> eight bits (the partial products land on distinct bits)
        mask |= ((eight.wrapping_mul(0x0102_0408_1020_4080) >> 56) & 0xff) << (8 * k);
    }
    mask
}

/// Bits of `mask` that start a run of at least [`MIN_RUN`] set bits inside it.
#[inline]
fn long_runs(mask: u64) -> u64 {
    let mut m = mask;
    m &= m >> 1; // runs of 2
    m &= m >> 2; // 4
    m &= m >> 4; // 8
    m &= m >> 8; // 16
    m
}

/// The first byte of the next run of [`MIN_RUN`] letters and digits in `bytes[at..to]`.
fn next_run(bytes: &[u8], at: usize, to: usize) -> Option<usize> {
    let mut base = at;
    // set bits that end the previous chunk (a run across the chunks' edge)
    let mut carried = 0usize;
    while base < to {
        let mut chunk = [0u8; 64];
        let n = (to - base).min(64);
        chunk[..n].copy_from_slice(&bytes[base..base + n]);
        let mask = alnum_mask(&chunk) & (u64::MAX >> (64 - n));
        if carried > 0 && carried + (mask.trailing_ones() as usize) >= MIN_RUN {
            return Some(base - carried);
        }
        let runs = long_runs(mask);
        if runs != 0 {
            return Some(base + runs.trailing_zeros() as usize);
        }
        carried = if n < 64 {
            0
        } else if mask == u64::MAX {
            carried + 64
        } else {
            mask.leading_ones() as usize
        };
        base += n;
    }
    None
}

fn base64_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'-' | b'_')
}

/// The whole blob around a run starting at `run`: base64 bytes on both sides, then up to two
/// `=` of padding.
fn widen(bytes: &[u8], run: usize, from: usize, to: usize) -> (usize, usize) {
    let mut start = run;
    while start > from && base64_byte(bytes[start - 1]) {
        start -= 1;
    }
    // a colour code right before the blob (`ESC[33m`): its parameters and final letter are
    // not part of it
    if start >= from + 2 && bytes[start - 1] == b'[' && bytes[start - 2] == 0x1b {
        let params = bytes[start..]
            .iter()
            .take_while(|b| b.is_ascii_digit() || **b == b';')
            .count();
        if bytes
            .get(start + params)
            .is_some_and(|b| (0x40..=0x7e).contains(b))
        {
            start += params + 1;
        }
    }
    let mut end = run;
    while end < to && base64_byte(bytes[end]) {
        end += 1;
    }
    let mut pad = 0;
    while pad < 2 && end < to && bytes[end] == b'=' {
        end += 1;
        pad += 1;
    }
    (start, end)
}

const LENIENT: GeneralPurposeConfig = GeneralPurposeConfig::new()
    .with_decode_padding_mode(DecodePaddingMode::Indifferent)
    .with_decode_allow_trailing_bits(true);
const STANDARD: GeneralPurpose = GeneralPurpose::new(&base64::alphabet::STANDARD, LENIENT);
const URL_SAFE: GeneralPurpose = GeneralPurpose::new(&base64::alphabet::URL_SAFE, LENIENT);

/// The text `blob` decodes to: UTF-8 without control characters other than white space.
/// `None` for binary, for a blob of neither alphabet (`/` and `_` together: a path or a
/// name), and for text that fails in its first bytes (most runs of letters are identifiers,
/// judged by their first group before the rest is decoded).
fn decode_text(blob: &[u8]) -> Option<Vec<u8>> {
    let body = blob.strip_suffix(b"==").or_else(|| blob.strip_suffix(b"="));
    let body = body.unwrap_or(blob);
    if body.len() % 4 == 1 {
        return None;
    }
    let standard = body.iter().any(|b| matches!(b, b'+' | b'/'));
    let url_safe = body.iter().any(|b| matches!(b, b'-' | b'_'));
    let engine = match (standard, url_safe) {
        (true, true) => return None,
        (_, true) => &URL_SAFE,
        _ => &STANDARD,
    };
    // the first 8 characters (6 bytes) decide most candidates
    let head = engine.decode(&body[..8.min(body.len())]).ok()?;
    if !head.iter().all(|&b| text_byte(b) || b >= 0x80) {
        return None;
    }
    let decoded = engine.decode(body).ok()?;
    let text = std::str::from_utf8(&decoded).ok()?;
    text.bytes()
        .all(|b| text_byte(b) || b >= 0x80)
        .then_some(decoded)
}

/// A byte of text: printable ASCII, white space, or the escape that starts an ANSI sequence
/// (a coloured log).
fn text_byte(b: u8) -> bool {
    (0x20..0x7f).contains(&b) || matches!(b, b'\t' | b'\n' | b'\r' | 0x1b)
}

/// Standard base64 of `bytes` (tests and examples).
#[cfg(test)]
pub(crate) fn encode(bytes: &[u8]) -> String {
    general_purpose::STANDARD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(String, String)> {
        blobs(text.as_bytes(), 0, text.len())
            .into_iter()
            .map(|b| {
                (
                    text[b.start..b.end].to_string(),
                    String::from_utf8(b.text).unwrap(),
                )
            })
            .collect()
    }

    #[test]
    fn text_blobs_are_found_and_binary_ones_are_not() {
        let env = encode(b"DB_HOST=db\nAPI_TOKEN=Zx81kQp2LmN0vB7cR4tY\n");
        let text = format!("data:\n  app.env: {env}\n");
        assert_eq!(
            found(&text),
            [(
                env.clone(),
                "DB_HOST=db\nAPI_TOKEN=Zx81kQp2LmN0vB7cR4tY\n".to_string()
            )]
        );
        // URL-safe, unpadded
        let url = general_purpose::URL_SAFE_NO_PAD.encode(b"token=abc>def?ghi~jkl and more text");
        assert_eq!(found(&format!("x={url};")).len(), 1);
        // images, integrity hashes, hex digests and identifiers stay
        for quiet in [
            "src=\"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==\"",
            "\"integrity\": \"sha512-Xv9pNOO3E+o0x3S3HaN6eYV1cU2Rz3bn4EbkBRwzkU1T02xyhsmBDx9PrILvGCWyWlAr0e9KTmc2E2X6QHrGZA==\"",
            "commit 3fce3b5bb0236da2df6d99672afb8a719642eca7 sha256:4d5e4cbb8f8a3c41b5b7df7d7f06da6e0e39e6b5a4c1d5b09a2c4de0fd1e3a2b",
            "class AbstractSingletonProxyFactoryBean",
        ] {
            assert!(found(quiet).is_empty(), "{quiet}: {:?}", found(quiet));
        }
    }

    #[test]
    fn runs_across_chunk_edges_are_found() {
        for pad in 0..70 {
            let blob = encode(b"password=Zx81kQp2LmN0vB7cR4tY");
            let text = format!("{}{blob} x", " ".repeat(pad));
            assert_eq!(found(&text).len(), 1, "pad {pad}");
        }
    }

    #[test]
    fn the_run_scan_finds_what_a_byte_loop_finds() {
        let text = "ab ".repeat(30)
            + &"Q".repeat(15)
            + " "
            + &"w".repeat(16)
            + &"z ".repeat(40)
            + &"9".repeat(200);
        let bytes = text.as_bytes();
        let mut expected = Vec::new();
        let mut run = 0;
        for (i, b) in bytes.iter().enumerate() {
            run = if b.is_ascii_alphanumeric() {
                run + 1
            } else {
                0
            };
            if run == MIN_RUN {
                expected.push(i + 1 - MIN_RUN);
            }
        }
        let mut got = Vec::new();
        let mut at = 0;
        while let Some(r) = next_run(bytes, at, bytes.len()) {
            got.push(r);
            at = widen(bytes, r, 0, bytes.len()).1;
        }
        assert_eq!(got, expected);
    }
}
