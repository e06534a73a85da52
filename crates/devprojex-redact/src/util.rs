//! Small byte-level helpers shared by the engines.

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};

/// Whether `needle` occurs in `hay` (for short haystacks: no searcher set-up cost, and only
/// the places of its first byte are compared).
#[inline]
pub(crate) fn contains(hay: &[u8], needle: &[u8]) -> bool {
    let Some((&first, rest)) = needle.split_first() else {
        return true;
    };
    let Some(last_start) = hay.len().checked_sub(needle.len()) else {
        return false;
    };
    memchr::memchr_iter(first, &hay[..=last_start])
        .any(|at| &hay[at + 1..at + needle.len()] == rest)
}

/// A set of words matched ASCII case-insensitively anywhere in a haystack, built once.
pub(crate) fn word_set(
    cell: &'static OnceLock<AhoCorasick>,
    words: &[&str],
) -> &'static AhoCorasick {
    cell.get_or_init(|| {
        AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::LeftmostFirst)
            .build(words)
            .unwrap_or_else(|e| panic!("built-in word set is invalid: {e}"))
    })
}

/// Shannon entropy of the byte distribution, in bits per byte.
pub(crate) fn shannon_entropy(bytes: &[u8]) -> f64 {
    ByteCounts::of(bytes).entropy()
}

/// `c * log2(c)` for the counts `c` below 64, zero for 0 and 1 (a byte seen once adds nothing
/// to the entropy's sum), computed as [`ByteCounts::entropy`] computes the others.
fn repeat_terms() -> &'static [f64; 64] {
    static TERMS: OnceLock<[f64; 64]> = OnceLock::new();
    TERMS.get_or_init(|| {
        std::array::from_fn(|c| {
            // black_box: computed by the same `log2` as at run time, not folded by the compiler
            let c = f64::from(std::hint::black_box(c as u32));
            if c > 1.0 { c * c.log2() } else { 0.0 }
        })
    })
}

/// How often each byte value occurs in a (short) candidate secret.
pub(crate) struct ByteCounts<'a> {
    bytes: &'a [u8],
    counts: [u32; 256],
    max: u32,
}

impl<'a> ByteCounts<'a> {
    pub(crate) fn of(bytes: &'a [u8]) -> Self {
        let mut counts = [0u32; 256];
        let mut max = 0;
        for &b in bytes {
            let c = counts[b as usize] + 1;
            counts[b as usize] = c;
            max = max.max(c);
        }
        Self { bytes, counts, max }
    }

    /// Shannon entropy in bits per byte: `log2(n) - sum(c * log2(c)) / n` over the distinct
    /// bytes. Bytes seen once add nothing to the sum, so random-looking secrets need few
    /// logarithms; the loop runs over the (short) secret, not over all 256 byte values.
    pub(crate) fn entropy(&self) -> f64 {
        if self.bytes.is_empty() {
            return 0.0;
        }
        let n = self.bytes.len() as f64;
        let mut seen = [false; 256];
        let mut repeated = 0.0;
        let table = repeat_terms();
        for &b in self.bytes {
            let c = self.counts[b as usize];
            // `c * log2(c)` for each distinct byte, in the order the bytes first occur (the
            // same sum, term for term); a byte seen once, or seen before, adds an exact zero
            // (the term times 0), so the loop has no branch that depends on the bytes for
            // counts in the table
            let first = !std::mem::replace(&mut seen[b as usize], true);
            let term = match table.get(c as usize) {
                Some(&t) => t,
                None => {
                    let c = f64::from(c);
                    c * c.log2()
                }
            };
            repeated += term * f64::from(u8::from(first));
        }
        (n.log2() - repeated / n).max(0.0)
    }

    /// The count of the most frequent byte.
    pub(crate) fn max(&self) -> u32 {
        self.max
    }

    /// How often `byte` occurs.
    pub(crate) fn count(&self, byte: u8) -> u32 {
        self.counts[byte as usize]
    }
}

/// A byte of a marker's rule id (`github-pat`, `base64:github-pat`).
#[inline]
pub(crate) fn marker_id_byte(b: u8) -> bool {
    MARKER_ID_BYTE[b as usize]
}

/// The bytes of a marker's rule id (ASCII letters and digits, `-`, `_`, `:`), a table: the
/// scope-aware pass asks at every key it reads.
const MARKER_ID_BYTE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b':');
        b += 1;
    }
    table
};

/// Whether `bytes[at..]` starts inside the rule id of a marker (`[REDACTED:base64:generic-secret]`
/// read from `generic-secret`, or from `base64`): the id bytes before `at`, none or some, follow
/// `[REDACTED:`.
pub(crate) fn in_marker_id(bytes: &[u8], at: usize) -> bool {
    let mut i = at;
    loop {
        // only a `:` can end the marker's opening
        if i > 0 && bytes[i - 1] == b':' && bytes[..i].ends_with(b"[REDACTED:") {
            return true;
        }
        if i == 0 || at - i > 80 || !marker_id_byte(bytes[i - 1]) {
            return false;
        }
        i -= 1;
    }
}

/// Whether the bytes contain (part of) a replacement marker.
pub(crate) fn contains_redaction_marker(bytes: &[u8]) -> bool {
    contains(bytes, b"REDACTED")
}

/// The provider placeholder allowlist: documentation and placeholder bodies.
///
/// - contains `EXAMPLE` / `example` (AWS documentation keys and the like),
/// - one character makes up at least half of the value (`xxxx...`, `0000...`), or half of its
///   longest `-` / `_` / `.`-separated part of eight or more (`FLWSECK_TEST-000000000000`: a
///   short body after a long prefix),
/// - ascending runs (`abcd`, `1234`, four or more) make up at least half of its letters and
///   digits (`ghp_abcdefghijklmnopqrstuvwxyz0123456789`). A real token of the right format
///   whose body merely contains a run or two stays a secret.
///
/// Every candidate of every provider rule comes through here, so the byte counts the caller
/// already has skip the work that cannot succeed (the same answers, fewer instructions).
pub(crate) fn is_provider_placeholder(secret: &[u8], counts: &ByteCounts) -> bool {
    // `EXAMPLE` / `example` needs each of its letters.
    let has_all = |word: &[u8]| word.iter().all(|&b| counts.count(b) > 0);
    let example = (has_all(b"EXAMPL") || has_all(b"exampl"))
        && memchr::memchr2_iter(b'E', b'e', secret).any(|at| {
            let rest = &secret[at + 1..];
            rest.starts_with(b"XAMPLE") && secret[at] == b'E'
                || rest.starts_with(b"xample") && secret[at] == b'e'
        });
    if example {
        return true;
    }
    if secret.len() >= 8 && counts.max() as usize * 2 >= secret.len() {
        return true;
    }
    // A byte occurs in the part at most as often as in the whole, so a part of eight or more
    // can only be half one byte if some byte occurs four times or more.
    let most = counts.max() as usize;
    if most * 2 >= 8 {
        let longest_part = longest_part(secret);
        if longest_part.len() >= 8
            && longest_part.len() < secret.len()
            && most * 2 >= longest_part.len()
            && ByteCounts::of(longest_part).max() as usize * 2 >= longest_part.len()
        {
            return true;
        }
    }
    sequence_dominated(secret)
}

/// For each byte: all ones unless it separates the parts of a secret (`-`, `_`, `.`).
const PART_MASK: [usize; 256] = {
    let mut mask = [usize::MAX; 256];
    mask[b'-' as usize] = 0;
    mask[b'_' as usize] = 0;
    mask[b'.' as usize] = 0;
    mask
};

/// The longest `-` / `_` / `.`-separated part of `secret`, the last of equal ones (what
/// `split(..).max_by_key(len)` gives), found without a branch per byte: candidate secrets are
/// random, and a branch on each separator mispredicted all along them.
fn longest_part(secret: &[u8]) -> &[u8] {
    let (mut run, mut best, mut best_end) = (0usize, 0usize, 0usize);
    for (i, &b) in secret.iter().enumerate() {
        // `run` is zero after a separator, else one longer (a mask from a table, not a branch)
        run = (run + 1) & PART_MASK[b as usize];
        let longer = run >= best;
        best = if longer { run } else { best };
        best_end = if longer { i + 1 } else { best_end };
    }
    &secret[best_end - best..best_end]
}

/// Whether ascending runs of four or more (`abcd`, `1234`) cover at least half of the letters
/// and digits of `bytes` (and there are at least eight).
pub(crate) fn sequence_dominated(bytes: &[u8]) -> bool {
    // A run of four is three ascending pairs: most candidates have fewer in all, and counting
    // them is one branch-free pass.
    let ascending = bytes
        .iter()
        .zip(&bytes[1.min(bytes.len())..])
        .filter(|(a, b)| **b == a.wrapping_add(1))
        .count();
    if ascending < 3 {
        return false;
    }
    // one pass over the (short) candidate
    let (mut in_runs, mut run) = (0usize, 1usize);
    for w in bytes.windows(2) {
        let (a, b) = (w[0], w[1]);
        if b == a.wrapping_add(1) && a.is_ascii_alphanumeric() && b.is_ascii_alphanumeric() {
            run += 1;
        } else {
            if run >= 4 {
                in_runs += run;
            }
            run = 1;
        }
    }
    if run >= 4 {
        in_runs += run;
    }
    if in_runs == 0 {
        return false;
    }
    let alnum = bytes.iter().filter(|b| b.is_ascii_alphanumeric()).count();
    alnum >= 8 && in_runs * 2 >= alnum
}

/// Whether `bytes` holds a run of `n` consecutive ascending letters (`abcdefghij`, either
/// case): typed, not generated.
pub(crate) fn has_letter_run(bytes: &[u8], n: usize) -> bool {
    let mut run = 1usize;
    for w in bytes.windows(2) {
        let (a, b) = (w[0].to_ascii_lowercase(), w[1].to_ascii_lowercase());
        if a.is_ascii_lowercase() && b == a + 1 {
            run += 1;
            if run >= n {
                return true;
            }
        } else {
            run = 1;
        }
    }
    false
}

/// Bytes a credential token can be made of (base64, base64url, hex, JWT dots, percent and
/// backslash escapes): a long-line window is widened over these.
fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'+' | b'/' | b'=' | b'_' | b'-' | b'.' | b'~' | b'%' | b'\\'
        )
}

/// The start of the token run containing `pos`, not before `floor`.
pub(crate) fn token_run_start(bytes: &[u8], mut pos: usize, floor: usize) -> usize {
    while pos > floor && is_token_byte(bytes[pos - 1]) {
        pos -= 1;
    }
    pos
}

/// The end of the token run containing `pos - 1`, not after `ceiling`.
pub(crate) fn token_run_end(bytes: &[u8], mut pos: usize, ceiling: usize) -> usize {
    while pos < ceiling && is_token_byte(bytes[pos]) {
        pos += 1;
    }
    pos
}

/// Move `start` back and `end` forward to UTF-8 character boundaries of `text`.
pub(crate) fn widen_to_char_boundaries(
    text: &str,
    mut start: usize,
    mut end: usize,
) -> (usize, usize) {
    while start > 0 && !text.is_char_boundary(start) {
        start -= 1;
    }
    while end < text.len() && !text.is_char_boundary(end) {
        end += 1;
    }
    (start, end)
}

/// Start of the line containing byte `pos`.
pub(crate) fn line_start(bytes: &[u8], pos: usize) -> usize {
    memchr::memrchr(b'\n', &bytes[..pos]).map_or(0, |i| i + 1)
}

/// End (exclusive, before `\n`) of the line containing byte `pos`.
pub(crate) fn line_end(bytes: &[u8], pos: usize) -> usize {
    memchr::memchr(b'\n', &bytes[pos..]).map_or(bytes.len(), |i| pos + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marker_id_is_recognised_from_any_of_its_bytes() {
        let text = b"x [REDACTED:base64:generic-secret] y";
        let open = 2 + b"[REDACTED:".len();
        let close = text.iter().position(|&b| b == b']').unwrap();
        for at in 0..text.len() {
            assert_eq!(
                in_marker_id(text, at),
                (open..=close).contains(&at),
                "at {at}"
            );
        }
        assert!(!in_marker_id(b"REDACTED:secret", 9));
    }

    fn placeholder(secret: &[u8]) -> bool {
        is_provider_placeholder(secret, &ByteCounts::of(secret))
    }

    #[test]
    fn entropy_bounds() {
        assert_eq!(shannon_entropy(b""), 0.0);
        assert_eq!(shannon_entropy(b"aaaa"), 0.0);
        assert!((shannon_entropy(b"abcd") - 2.0).abs() < 1e-9);
        // the closed form agrees with the textbook sum over probabilities
        for text in [
            &b"aab"[..],
            b"Zx81kQp2LmN0vB7cR4tY",
            b"hello world",
            b"aaaaaaab",
        ] {
            let n = text.len() as f64;
            let mut counts = [0u32; 256];
            text.iter().for_each(|&b| counts[b as usize] += 1);
            let textbook: f64 = counts
                .iter()
                .filter(|&&c| c > 0)
                .map(|&c| -(f64::from(c) / n) * (f64::from(c) / n).log2())
                .sum();
            assert!((shannon_entropy(text) - textbook).abs() < 1e-9, "{text:?}");
        }
    }

    /// The placeholder allowlist as its documentation states it, without shortcuts.
    fn placeholder_by_definition(secret: &[u8]) -> bool {
        let most = |bytes: &[u8]| {
            let mut counts = [0usize; 256];
            bytes.iter().for_each(|&b| counts[b as usize] += 1);
            counts.into_iter().max().unwrap_or(0)
        };
        let longest_part = secret
            .split(|b| matches!(b, b'-' | b'_' | b'.'))
            .max_by_key(|part| part.len())
            .unwrap_or(secret);
        contains(secret, b"EXAMPLE")
            || contains(secret, b"example")
            || (secret.len() >= 8 && most(secret) * 2 >= secret.len())
            || (longest_part.len() >= 8
                && longest_part.len() < secret.len()
                && most(longest_part) * 2 >= longest_part.len())
            || sequence_dominated(secret)
    }

    proptest::proptest! {
        #[test]
        fn contains_finds_what_a_window_scan_finds(
            hay in proptest::collection::vec(proptest::sample::select(b"abRED".to_vec()), 0..24),
            needle in proptest::collection::vec(proptest::sample::select(b"abRED".to_vec()), 0..4),
        ) {
            let by_windows = needle.is_empty() || hay.windows(needle.len()).any(|w| w == needle);
            proptest::prop_assert_eq!(contains(&hay, &needle), by_windows);
        }

        #[test]
        fn entropy_is_the_branching_sum_bit_for_bit(
            bytes in proptest::collection::vec(proptest::sample::select(b"aAbB01-_.xyz".to_vec()), 0..300),
        ) {
            let counts = ByteCounts::of(&bytes);
            let mut seen = [false; 256];
            let mut repeated = 0.0;
            for &b in &bytes {
                let c = counts.count(b);
                if c > 1 && !std::mem::replace(&mut seen[b as usize], true) {
                    let c = f64::from(c);
                    repeated += c * c.log2();
                }
            }
            let n = bytes.len() as f64;
            let expected = if bytes.is_empty() { 0.0 } else { (n.log2() - repeated / n).max(0.0) };
            proptest::prop_assert_eq!(counts.entropy().to_bits(), expected.to_bits());
        }

        #[test]
        fn longest_part_is_the_last_longest_split(
            bytes in proptest::collection::vec(proptest::sample::select(b"ab-_.".to_vec()), 0..40),
        ) {
            let by_split = bytes
                .split(|b| matches!(b, b'-' | b'_' | b'.'))
                .max_by_key(|part| part.len())
                .unwrap_or(&bytes);
            let found = longest_part(&bytes);
            proptest::prop_assert_eq!(found, by_split);
            // the same part, not only the same bytes
            proptest::prop_assert_eq!(found.as_ptr(), by_split.as_ptr());
        }

        #[test]
        fn the_shortcuts_change_no_answer(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "example", "EXAMPLE", "xample", "e", "E", "x", "X", "abcd", "1234", "0000",
                    "aa", "Q7d9", "K2mX", "wZ5c", "_", "-", ".",
                ]),
                0..12,
            )
        ) {
            let secret = parts.concat().into_bytes();
            proptest::prop_assert_eq!(placeholder(&secret), placeholder_by_definition(&secret));
        }
    }

    #[test]
    fn placeholders() {
        assert!(placeholder(b"AKIAIOSFODNN7EXAMPLE"));
        assert!(placeholder(b"ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"));
        assert!(placeholder(b"ghp_abcdefghijklmnopqrstuvwxyz0123456789"));
        assert!(placeholder(b"AIzaSyabcdefghijklmnopqrstuvwxyz1234567"));
        assert!(!placeholder(b"ghp_Q7d9K2mX4pL8vN3bR6tY1wZ5cH0jF2sA9eU4"));
        // a short body after a long prefix is judged on its own
        assert!(placeholder(b"FLWSECK_TEST-000000000000"));
        assert!(!placeholder(b"FLWSECK_TEST-4c1e9a0b7d2f"));
        assert!(!placeholder(
            b"xoxb-123456789012-1234567890123-Zq81kPx0Lm2Nw4Rt6Vb3Hc9J"
        ));
        // a real-format key whose body holds a few runs is still a key (issue 19)
        assert!(!placeholder(
            b"sk-ant-api03-Zq81kPx0-7Lm2Nw4Rt6-klmnopqrstuvwx-Vb3Hc9Jd1Fg5Ks8Qe-Ty7Ui2Op4As6Df9Gh1Jk3Lz5Xc7Vb9Nm0abcdefghZx1Cv3Bn5M8r4uT6AA"
        ));
    }
}
