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
//! one of a group when the third byte is `>` `?` `~`), so candidates are runs of sixteen
//! letters and digits or more. Such a run covers a whole aligned 8-byte block without a byte
//! below `0` (white space and most punctuation), which four word operations tell; only those
//! blocks are read byte by byte, and a candidate is judged by the characters of its first
//! groups before anything is decoded.

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

fn alnum(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

/// For 64 bytes: bit `i` set where `chunk[i]` is at least `0` (`0x30`), below 0x80 and not `_`,
/// which white space, quotes, parentheses, commas, dots, slashes, hyphens and the underscores of
/// names are not: source code has one of them in nearly every sixteen bytes, a blob none.
#[inline]
fn not_low(chunk: &[u8; 64]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        sse2::not_low(chunk)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        not_low_bytewise(chunk)
    }
}

/// [`not_low`] a byte at a time (other processors, and the tests' reference).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn not_low_bytewise(chunk: &[u8; 64]) -> u64 {
    let mut mask = 0u64;
    for (i, &b) in chunk.iter().enumerate() {
        mask |= u64::from((0x30..0x80).contains(&b) && b != b'_') << i;
    }
    mask
}

/// The scan's compare with SSE2, which every x86-64 processor has: a compare and a movemask
/// per 16 bytes (the compiler did not vectorise the byte loop, which cost the scan five times
/// the instructions).
#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::{
        __m128i, _mm_andnot_si128, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_loadu_si128,
        _mm_movemask_epi8, _mm_set1_epi8,
    };

    #[inline]
    #[allow(unsafe_code)]
    pub(super) fn not_low(chunk: &[u8; 64]) -> u64 {
        // SAFETY: SSE2 is part of the x86-64 baseline, so the intrinsics run on every
        // processor this code is built for; each load reads 16 bytes inside `chunk` (at 0,
        // 16, 32 and 48 of its 64), unaligned loads being what `_mm_loadu_si128` is for.
        unsafe {
            let threshold = _mm_set1_epi8(0x2f);
            let underscore = _mm_set1_epi8(b'_' as i8);
            let p = chunk.as_ptr();
            // signed bytes: 0x80 and more are negative, below the threshold
            let bits = |offset: usize| {
                let v = _mm_loadu_si128(p.add(offset).cast::<__m128i>());
                let high = _mm_cmpgt_epi8(v, threshold);
                let kept = _mm_andnot_si128(_mm_cmpeq_epi8(v, underscore), high);
                u64::from(_mm_movemask_epi8(kept) as u16)
            };
            bits(0) | bits(16) << 16 | bits(32) << 32 | bits(48) << 48
        }
    }
}

/// Bit `j` of the result set where bits `j..j + 16` of `mask` are all set.
#[inline]
fn windows_of_16(mask: u64) -> u64 {
    let mut r = mask & (mask >> 1);
    r &= r >> 2;
    r &= r >> 4;
    r & (r >> 8)
}

/// The letters and digits from `from` on (not past `to`).
fn alnum_run(bytes: &[u8], from: usize, to: usize) -> usize {
    bytes[from..to].iter().take_while(|&&b| alnum(b)).count()
}

/// The first byte of the next run of [`MIN_RUN`] letters and digits in `bytes[at..to]`.
///
/// 64 bytes at a time, a bit for each: where sixteen bytes in a row have no byte below `0`
/// (white space and most punctuation), which in source code is rare, the bytes are read to
/// see whether they are letters and digits.
fn next_run(bytes: &[u8], at: usize, to: usize) -> Option<usize> {
    // bytes without a low byte that end the bytes before the chunk
    let mut carried = 0usize;
    let chunks = bytes[at..to].chunks_exact(64);
    let tail = at + (to - at) / 64 * 64;
    for (n, chunk) in chunks.enumerate() {
        let mask = not_low(chunk.try_into().expect("chunks of 64"));
        let base = at + 64 * n;
        if mask == 0 {
            carried = 0;
            continue;
        }
        let windows = windows_of_16(mask);
        let across = carried > 0 && carried + mask.trailing_ones() as usize >= MIN_RUN;
        if (windows != 0 || across)
            && let Some(start) = run_in(bytes, at, to, base, carried, windows)
        {
            return Some(start);
        }
        carried = if mask == u64::MAX {
            carried + 64
        } else {
            mask.leading_ones() as usize
        };
    }
    // the last bytes, one at a time
    let mut start = tail - carried.min(tail - at);
    while start < to {
        let run = alnum_run(bytes, start, to);
        if run >= MIN_RUN {
            return Some(start);
        }
        start += run + 1;
    }
    None
}

/// The first run of [`MIN_RUN`] letters and digits that starts in the `carried` bytes before
/// `base` or at one of the `windows` (bits: sixteen bytes without a low byte from `base + bit`).
#[cold]
fn run_in(
    bytes: &[u8],
    at: usize,
    to: usize,
    base: usize,
    carried: usize,
    mut windows: u64,
) -> Option<usize> {
    // windows starting before this hold a byte that is no letter or digit
    let mut skip_to = base;
    let mut start = base - carried;
    while start < base {
        let run = alnum_run(bytes, start, to);
        if run >= MIN_RUN {
            return Some(start);
        }
        start += run + 1;
        skip_to = start;
    }
    while windows != 0 {
        let j = base + windows.trailing_zeros() as usize;
        windows &= windows - 1;
        if j < skip_to {
            continue;
        }
        let run = alnum_run(bytes, j, to);
        if run >= MIN_RUN {
            let mut start = j;
            while start > at && alnum(bytes[start - 1]) {
                start -= 1;
            }
            return Some(start);
        }
        skip_to = j + run + 1;
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
    if !text_shaped(body) {
        return None;
    }
    let standard = body.iter().any(|b| matches!(b, b'+' | b'/'));
    let url_safe = body.iter().any(|b| matches!(b, b'-' | b'_'));
    let engine = match (standard, url_safe) {
        (true, true) => return None,
        (_, true) => &URL_SAFE,
        _ => &STANDARD,
    };
    let decoded = engine.decode(body).ok()?;
    let text = std::str::from_utf8(&decoded).ok()?;
    text.bytes()
        .all(|b| text_byte(b) || b >= 0x80)
        .then_some(decoded)
}

/// Whether the first groups of `body` can be base64 of ASCII text, judged from the characters
/// alone: a group's first character holds the top six bits of a byte below 0x80 (`A`-`Z`,
/// `a`-`f`), its second the low two bits of that byte and the top four of the next, which for
/// printable text or white space is 0x2 to 0x7 or 0x0. Most identifiers fail in their first
/// group, before anything is decoded.
fn text_shaped(body: &[u8]) -> bool {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' | b'-' => Some(62),
        b'/' | b'_' => Some(63),
        _ => None,
    };
    body.chunks_exact(4).take(4).all(|group| {
        let (Some(first), Some(second)) = (value(group[0]), value(group[1])) else {
            return false;
        };
        first < 32 && matches!(second & 15, 0 | 2..=7)
    })
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

    /// Every run start the scan reports, as a byte loop finds them.
    fn runs_by_definition(bytes: &[u8]) -> Vec<usize> {
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
        expected
    }

    fn runs_by_scan(bytes: &[u8]) -> Vec<usize> {
        let mut got = Vec::new();
        let mut at = 0;
        while let Some(r) = next_run(bytes, at, bytes.len()) {
            got.push(r);
            at = r + alnum_run(bytes, r, bytes.len());
        }
        got
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        #[test]
        fn the_scan_finds_every_run_a_byte_loop_finds(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "a", "Z", "7", "_", ":", "=", " ", "\n", "\u{e9}", "abcdefgh", "QWERTYUIOPASDFG",
                    "0123456789", "x_y_z", "+", "/",
                ]),
                0..80,
            ),
        ) {
            let text = parts.concat();
            proptest::prop_assert_eq!(runs_by_scan(text.as_bytes()), runs_by_definition(text.as_bytes()));
        }
    }

    #[test]
    fn the_vector_compare_is_the_byte_compare() {
        let all: Vec<u8> = (0..=255u8).collect();
        for chunk in all.chunks_exact(64) {
            let chunk: &[u8; 64] = chunk.try_into().unwrap();
            assert_eq!(not_low(chunk), not_low_bytewise(chunk));
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
