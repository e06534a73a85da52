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
//! letters and digits or more. A vector compare marks the letters and digits of 64 bytes at a
//! time and a few shifts find sixteen in a row, so no byte of ordinary text is read one at a
//! time; a candidate is judged by the characters of its first groups before anything is decoded.

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

/// For 64 bytes: bit `i` set where `chunk[i]` is an ASCII letter or digit.
#[inline]
fn alnum_mask(chunk: &[u8; 64]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        sse2::alnum_mask(chunk)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        alnum_mask_bytewise(chunk)
    }
}

/// [`alnum_mask`] a byte at a time (other processors, and the tests' reference).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn alnum_mask_bytewise(chunk: &[u8; 64]) -> u64 {
    let mut mask = 0u64;
    for (i, &b) in chunk.iter().enumerate() {
        mask |= u64::from(alnum(b)) << i;
    }
    mask
}

/// The scan's class test with SSE2, which every x86-64 processor has: per 16 bytes, two
/// range checks (digits; letters folded to lower case) of an add and a signed compare each,
/// and a movemask (the compiler did not vectorise the byte loop, which cost the scan five
/// times the instructions). The exact class matters: a looser one (every byte from `0` up)
/// let through five times as many sixteen-byte windows of ordinary source, each then read
/// byte by byte.
#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::{
        __m128i, _mm_add_epi8, _mm_cmpgt_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8,
    };

    #[inline]
    #[allow(unsafe_code)]
    pub(super) fn alnum_mask(chunk: &[u8; 64]) -> u64 {
        // SAFETY: SSE2 is part of the x86-64 baseline, so the intrinsics run on every
        // processor this code is built for; each load reads 16 bytes inside `chunk` (at 0,
        // 16, 32 and 48 of its 64), unaligned loads being what `_mm_loadu_si128` is for.
        unsafe {
            // `b - lo + 0x80` (wrapping) is below `-128 + len` as a signed byte exactly when
            // `b` is in `lo..lo + len`
            let shift = |lo: u8| _mm_set1_epi8(0x80u8.wrapping_sub(lo) as i8);
            let limit = |len: i8| _mm_set1_epi8(i8::MIN + len);
            let (digit_shift, digit_limit) = (shift(b'0'), limit(10));
            let (letter_shift, letter_limit) = (shift(b'a'), limit(26));
            let lower_case = _mm_set1_epi8(0x20);
            let p = chunk.as_ptr();
            let bits = |offset: usize| {
                let v = _mm_loadu_si128(p.add(offset).cast::<__m128i>());
                let digit = _mm_cmpgt_epi8(digit_limit, _mm_add_epi8(v, digit_shift));
                let folded = _mm_or_si128(v, lower_case);
                let letter = _mm_cmpgt_epi8(letter_limit, _mm_add_epi8(folded, letter_shift));
                u64::from(_mm_movemask_epi8(_mm_or_si128(digit, letter)) as u16)
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

/// Whether a byte of `mask` has all its bits set (eight letters and digits in a row, aligned).
#[inline]
fn has_full_byte(mask: u64) -> bool {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    // a zero byte of `!mask`: the word trick, exact for "some byte is zero"
    (!mask).wrapping_sub(ONES) & mask & HIGHS != 0
}

/// The letters and digits from `from` on (not past `to`).
fn alnum_run(bytes: &[u8], from: usize, to: usize) -> usize {
    bytes[from..to].iter().take_while(|&&b| alnum(b)).count()
}

/// The first byte of the next run of [`MIN_RUN`] letters and digits in `bytes[at..to]`:
/// with AVX2 where the processor has it (half the vector instructions of SSE2, and no register
/// copies), else with SSE2.
fn next_run(bytes: &[u8], at: usize, to: usize) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        return avx2::next_run(bytes, at, to);
    }
    next_run_with(bytes, at, to, alnum_mask)
}

/// [`next_run`] with `mask` for [`alnum_mask`].
///
/// 64 bytes at a time, a bit for each letter or digit: a run is sixteen set bits in a row,
/// found with a few shifts, or a chunk starting with set bits that continue the ones ending
/// the chunks before.
#[inline(always)]
fn next_run_with(
    bytes: &[u8],
    at: usize,
    to: usize,
    mask: impl Fn(&[u8; 64]) -> u64,
) -> Option<usize> {
    // the previous chunk's mask: the letters and digits ending it (fewer than MIN_RUN)
    let mut previous = 0u64;
    let chunks = bytes[at..to].chunks_exact(64);
    let tail = at + (to - at) / 64 * 64;
    for (n, chunk) in chunks.enumerate() {
        let mask = mask(chunk.try_into().expect("chunks of 64"));
        // A run of sixteen covers a whole aligned block of eight bytes, in this chunk or (for
        // a run reaching into it by fewer than eight) at the end of the previous one: most
        // chunks of ordinary text have neither, which a few word operations tell.
        let reaching = previous >> 56 == 0xff && mask & 1 == 1;
        if !(has_full_byte(mask) || reaching) {
            previous = mask;
            continue;
        }
        let base = at + 64 * n;
        let carried = previous.leading_ones() as usize;
        if carried + mask.trailing_ones() as usize >= MIN_RUN {
            return Some(base - carried);
        }
        let windows = windows_of_16(mask);
        if windows != 0 {
            // the first window starts its run: a run starting before it would hold an earlier
            // window, or reach back into the chunk's first bits (the case above)
            return Some(base + windows.trailing_zeros() as usize);
        }
        previous = mask;
    }
    let carried = previous.leading_ones() as usize;
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

/// [`alnum_mask`] with AVX2, for processors that have it (checked at run time).
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi8, _mm256_cmpeq_epi8, _mm256_cmpgt_epi8, _mm256_loadu_si256,
        _mm256_movemask_epi8, _mm256_or_si256, _mm256_set1_epi8,
    };

    /// [`super::next_run`]: only called once AVX2 was detected.
    pub(super) fn next_run(bytes: &[u8], at: usize, to: usize) -> Option<usize> {
        // SAFETY: the caller checked with `is_x86_feature_detected!` that the processor has
        // AVX2, which is all `scan` and the mask it inlines require.
        #[allow(unsafe_code)]
        unsafe {
            scan(bytes, at, to)
        }
    }

    #[target_feature(enable = "avx2")]
    fn scan(bytes: &[u8], at: usize, to: usize) -> Option<usize> {
        super::next_run_with(bytes, at, to, |chunk| alnum_mask(chunk))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    fn alnum_mask(chunk: &[u8; 64]) -> u64 {
        let (low, high) = chunk.split_at(32);
        let bits = |half: &[u8]| {
            let half: &[u8; 32] = half.try_into().expect("halves of 32");
            u64::from(_mm256_movemask_epi8(alnum_bytes(load(half))) as u32)
        };
        bits(low) | bits(high) << 32
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    fn load(block: &[u8; 32]) -> __m256i {
        // SAFETY: the load reads the 32 bytes of `block`, unaligned loads being what
        // `_mm256_loadu_si256` is for.
        #[allow(unsafe_code)]
        unsafe {
            _mm256_loadu_si256(block.as_ptr().cast::<__m256i>())
        }
    }

    /// All ones in the bytes of `v` that are ASCII letters or digits.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn alnum_bytes(v: __m256i) -> __m256i {
        // see `super::sse2::alnum_mask`: the same range checks, 32 bytes at a time
        let shift = |lo: u8| _mm256_set1_epi8(0x80u8.wrapping_sub(lo) as i8);
        let limit = |len: i8| _mm256_set1_epi8(i8::MIN + len);
        let digit = _mm256_cmpgt_epi8(limit(10), _mm256_add_epi8(v, shift(b'0')));
        let folded = _mm256_or_si256(v, _mm256_set1_epi8(0x20));
        let letter = _mm256_cmpgt_epi8(limit(26), _mm256_add_epi8(folded, shift(b'a')));
        _mm256_or_si256(digit, letter)
    }

    /// For 32 bytes: bit `i` set where `block[i]` is a byte of either base64 alphabet.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn base64_mask(block: &[u8; 32]) -> u32 {
        let v = load(block);
        let is = |b: u8| _mm256_cmpeq_epi8(v, _mm256_set1_epi8(b as i8));
        let signs = _mm256_or_si256(
            _mm256_or_si256(is(b'+'), is(b'/')),
            _mm256_or_si256(is(b'-'), is(b'_')),
        );
        _mm256_movemask_epi8(_mm256_or_si256(alnum_bytes(v), signs)) as u32
    }

    /// [`super::base64_end`]: only called once AVX2 was detected.
    pub(super) fn base64_end(bytes: &[u8], from: usize, to: usize) -> usize {
        // SAFETY: the caller checked with `is_x86_feature_detected!` that the processor has
        // AVX2, which is all `base64_end_32` and the masks it inlines require.
        #[allow(unsafe_code)]
        unsafe {
            base64_end_32(bytes, from, to)
        }
    }

    #[target_feature(enable = "avx2")]
    fn base64_end_32(bytes: &[u8], mut from: usize, to: usize) -> usize {
        while let Some(block) = bytes[..to].get(from..from + 32) {
            let mask = base64_mask(block.try_into().expect("32 bytes"));
            if mask != u32::MAX {
                return from + mask.trailing_ones() as usize;
            }
            from += 32;
        }
        super::base64_end_bytewise(bytes, from, to)
    }

    /// The AVX2 mask, where the processor has AVX2 (the tests' comparison).
    #[cfg(test)]
    pub(super) fn alnum_mask_if_supported(chunk: &[u8; 64]) -> Option<u64> {
        // SAFETY: called only once AVX2 is detected
        #[allow(unsafe_code)]
        std::arch::is_x86_feature_detected!("avx2").then(|| unsafe { alnum_mask(chunk) })
    }

    /// The AVX2 base64 mask, where the processor has AVX2 (the tests' comparison).
    #[cfg(test)]
    pub(super) fn base64_mask_if_supported(block: &[u8; 32]) -> Option<u32> {
        // SAFETY: called only once AVX2 is detected
        #[allow(unsafe_code)]
        std::arch::is_x86_feature_detected!("avx2").then(|| unsafe { base64_mask(block) })
    }
}

fn base64_byte(b: u8) -> bool {
    BASE64_BYTE[b as usize]
}

/// The bytes of either base64 alphabet, a table (widening reads every byte of a blob).
const BASE64_BYTE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'-' | b'_');
        b += 1;
    }
    table
};

/// The first byte from `from` on that is not a base64 byte (`to` if there is none): with AVX2
/// 32 bytes at a time where the processor has it (a text dense with tokens spends most of the
/// blob search here, a byte at a time), else a byte at a time.
fn base64_end(bytes: &[u8], from: usize, to: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        return avx2::base64_end(bytes, from, to);
    }
    base64_end_bytewise(bytes, from, to)
}

/// [`base64_end`] a byte at a time (other processors, the last bytes, and the tests'
/// reference).
fn base64_end_bytewise(bytes: &[u8], from: usize, to: usize) -> usize {
    from + bytes[from..to]
        .iter()
        .take_while(|&&b| base64_byte(b))
        .count()
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
    // the run's first sixteen bytes are letters and digits
    let mut end = base64_end(bytes, (run + MIN_RUN).min(to), to);
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

    /// Every run start [`next_run`] reports (AVX2 where the processor has it), and the same
    /// with the SSE2 mask.
    fn runs_by_scan(bytes: &[u8]) -> Vec<usize> {
        let with_sse2 = runs_by(bytes, |at| {
            next_run_with(bytes, at, bytes.len(), alnum_mask)
        });
        let got = runs_by(bytes, |at| next_run(bytes, at, bytes.len()));
        assert_eq!(got, with_sse2);
        got
    }

    fn runs_by(bytes: &[u8], next: impl Fn(usize) -> Option<usize>) -> Vec<usize> {
        let mut got = Vec::new();
        let mut at = 0;
        while let Some(r) = next(at) {
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
    fn a_full_byte_is_found_in_every_lane() {
        for lane in 0..8 {
            for other in [0u64, 0x7f7f_7f7f_7f7f_7f7f, 0xfefe_fefe_fefe_fefe, u64::MAX] {
                let mask = other & !(0xff << (8 * lane));
                let by_definition = mask.to_le_bytes().contains(&0xff);
                assert_eq!(has_full_byte(mask), by_definition, "{mask:x}");
                assert!(
                    has_full_byte(mask | 0xff << (8 * lane)),
                    "{mask:x} lane {lane}"
                );
            }
        }
    }

    #[test]
    fn the_vector_compare_is_the_byte_compare() {
        // every byte value in every lane
        let all: Vec<u8> = (0..=255u8).cycle().take(256 + 64).collect();
        for offset in 0..256 {
            let chunk: &[u8; 64] = all[offset..offset + 64].try_into().unwrap();
            assert_eq!(alnum_mask(chunk), alnum_mask_bytewise(chunk), "at {offset}");
            #[cfg(target_arch = "x86_64")]
            if let Some(wide) = avx2::alnum_mask_if_supported(chunk) {
                assert_eq!(wide, alnum_mask_bytewise(chunk), "AVX2 at {offset}");
            }
        }
    }

    #[test]
    fn the_vector_base64_compare_is_the_byte_compare() {
        // every byte value in every lane
        let all: Vec<u8> = (0..=255u8).cycle().take(256 + 32).collect();
        for offset in 0..256 {
            let block: &[u8; 32] = all[offset..offset + 32].try_into().unwrap();
            let by_definition = (block.iter().enumerate())
                .fold(0u32, |m, (i, &b)| m | u32::from(base64_byte(b)) << i);
            #[cfg(target_arch = "x86_64")]
            if let Some(wide) = avx2::base64_mask_if_supported(block) {
                assert_eq!(wide, by_definition, "AVX2 at {offset}");
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        #[test]
        fn the_base64_end_is_the_byte_loops(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "a", "Z", "7", "_", "-", "+", "/", "=", " ", "\n", "\u{e9}", "abcdefgh",
                    "QWERTYUIOPASDFGHJKLZXCVBNM0123456789+/", ".", "%",
                ]),
                0..80,
            ),
            cut in 0usize..8,
        ) {
            let text = parts.concat();
            let bytes = text.as_bytes();
            let to = bytes.len() - cut.min(bytes.len());
            for from in 0..=to {
                proptest::prop_assert_eq!(
                    base64_end(bytes, from, to),
                    base64_end_bytewise(bytes, from, to),
                    "from {} to {}", from, to
                );
            }
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
