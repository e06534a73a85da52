//! Token counts.
//!
//! - The estimate (the spec's contract and the default): one token per four characters (Unicode
//!   scalar values), rounded up per file. Calibrated against cl100k/o200k-class tokenizers.
//! - Exact counts in a real encoding (`--tokenizer o200k|cl100k`): OpenAI's `o200k_base` and
//!   `cl100k_base`, counted by the pure-Rust `tiktoken` crate, whose vocabularies are compiled
//!   into the binary (nothing is downloaded). The crate was chosen by measurement against
//!   `bpe-openai` and `tiktoken-rs` (`docs/benchmarks.md`, "Tokenizer crates").
//!
//! Exact counts of a concatenation are not the sum of the parts' counts: the encodings first
//! split text with a regular expression (pre-tokenization) and a piece can run across the seam
//! (`"}\n" + "\n"` is one piece, and so is `"}\n" + "/"` in o200k). [`is_cut`] names the seams where it
//! provably cannot, and [`DocumentCounter`] counts a document written in pieces exactly by
//! cutting only there; `docs/pack-format.md` gives the argument.

use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::sync::Mutex;

/// Estimated tokens of one file's (transformed) text.
pub fn estimate(text: &str) -> u64 {
    estimate_chars(text.chars().count() as u64)
}

/// Estimated tokens for a character count.
pub fn estimate_chars(chars: u64) -> u64 {
    chars.div_ceil(4)
}

/// A real encoding for exact counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// GPT-4o, GPT-4.1, GPT-5, o-series.
    O200k,
    /// GPT-4, GPT-3.5.
    Cl100k,
}

impl Encoding {
    pub const ALL: [Encoding; 2] = [Encoding::O200k, Encoding::Cl100k];

    /// `o200k` or `cl100k`, with or without the `_base` suffix.
    pub fn parse(value: &str) -> Option<Self> {
        match value.trim().to_ascii_lowercase().as_str() {
            "o200k" | "o200k_base" => Some(Self::O200k),
            "cl100k" | "cl100k_base" => Some(Self::Cl100k),
            _ => None,
        }
    }

    /// The encoding's own name, as OpenAI's tiktoken spells it.
    pub fn name(self) -> &'static str {
        match self {
            Self::O200k => "o200k_base",
            Self::Cl100k => "cl100k_base",
        }
    }

    fn tokenizer(self) -> &'static tiktoken::CoreBpe {
        tiktoken::get_encoding(self.name()).expect("both vocabularies are compiled in")
    }

    /// Exact tokens of `text` as ordinary text (tiktoken's `encode_ordinary`: text that looks like
    /// a special token such as `<|endoftext|>` counts as the characters it is).
    pub fn count(self, text: &str) -> u64 {
        self.tokenizer().count(text) as u64
    }

    /// The token ids (for tests and the comparison with the reference implementation).
    pub fn encode(self, text: &str) -> Vec<u32> {
        self.tokenizer().encode(text)
    }
}

/// True when a document may be cut between `before` and `after` without changing its exact
/// count in either encoding: count(a ++ b) = count(a) + count(b) whenever `a` ends with `before`
/// and `b` starts with `after`.
///
/// Why: both encodings' pre-tokenizers have no look-behind, so a piece starting at the seam is
/// the same whatever precedes it, and no alternative of their patterns matches a newline followed
/// by a character that is neither whitespace nor `/` (newlines only end a whitespace run, or
/// follow punctuation as `[\r\n]*` in cl100k and `[\r\n/]*` in o200k). So the piece holding the
/// newline ends at the seam in `a` alone and in `a ++ b` alike.
pub fn is_cut(before: char, after: char) -> bool {
    before == '\n' && after != '/' && !after.is_whitespace()
}

/// The first cut inside `text` (a byte offset > 0), or 0 when `after_newline` (the text
/// follows a newline) and its first character may start a piece.
pub fn first_cut(text: &str, after_newline: bool) -> Option<usize> {
    let first = text.chars().next()?;
    if after_newline && is_cut('\n', first) {
        return Some(0);
    }
    memchr::memchr_iter(b'\n', text.as_bytes())
        .map(|i| i + 1)
        .find(|&p| text[p..].chars().next().is_some_and(|c| is_cut('\n', c)))
}

/// The last cut strictly inside `text` (0 < offset < len).
pub fn last_cut(text: &str) -> Option<usize> {
    memchr::memrchr_iter(b'\n', text.as_bytes())
        .map(|i| i + 1)
        .find(|&p| text[p..].chars().next().is_some_and(|c| is_cut('\n', c)))
}

/// Counts a document exactly while it is produced in pieces: text up to the last cut is counted
/// and dropped, only what follows it is kept for the next piece.
#[derive(Debug, Clone)]
pub struct DocumentCounter<'a> {
    counter: &'a Counter,
    counted: u64,
    pending: String,
}

impl<'a> DocumentCounter<'a> {
    pub fn new(counter: &'a Counter) -> Self {
        Self {
            counter,
            counted: 0,
            pending: String::new(),
        }
    }

    pub fn push(&mut self, piece: &str) {
        let start = self.pending.len();
        let after_newline = self.pending.ends_with('\n');
        self.pending.push_str(piece);
        // Only the new text and its seam can hold a new cut (the kept text holds none).
        let search_from = if after_newline { start - 1 } else { start };
        if let Some(cut) = last_cut(&self.pending[search_from..]).map(|c| c + search_from) {
            self.counted += self.counter.count(&self.pending[..cut]);
            self.pending.drain(..cut);
        }
    }

    /// The exact count of everything pushed.
    pub fn total(&self) -> u64 {
        self.counted + self.counter.count(&self.pending)
    }
}

/// Exact counting in one encoding, optionally remembering counts by content hash (the MCP
/// server), so a text counted once costs hashing only the next time.
#[derive(Debug)]
pub struct Counter {
    encoding: Encoding,
    cache: Option<CountCache>,
}

/// Texts shorter than this are counted again rather than looked up.
const CACHED_FROM_BYTES: usize = 512;

impl Counter {
    pub fn new(encoding: Encoding) -> Self {
        Self {
            encoding,
            cache: None,
        }
    }

    /// Remember up to `entries` counts (about 64 bytes each).
    pub fn with_cache(encoding: Encoding, entries: usize) -> Self {
        Self {
            encoding,
            cache: Some(CountCache::new(entries)),
        }
    }

    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    pub fn count(&self, text: &str) -> u64 {
        match &self.cache {
            Some(cache) if text.len() >= CACHED_FROM_BYTES => cache.count(self.encoding, text),
            _ => self.encoding.count(text),
        }
    }

    /// Cache hits and misses so far (tests, diagnostics).
    pub fn cache_stats(&self) -> Option<(u64, u64)> {
        self.cache.as_ref().map(|cache| {
            let store = cache.store.lock().unwrap_or_else(|e| e.into_inner());
            (store.hits, store.misses)
        })
    }
}

/// Counts by content: the key is the text's length and two independently keyed SipHashes
/// (random per process, so no one can prepare colliding texts). Bounded by an entry count;
/// once full, one new count in eight replaces a random entry, so a project larger than the
/// cache keeps most of its counts from one request to the next (LRU would keep none).
#[derive(Debug)]
struct CountCache {
    capacity: usize,
    keys: [RandomState; 2],
    store: Mutex<CountStore>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct CountKey {
    encoding: Encoding,
    len: usize,
    hashes: [u64; 2],
}

#[derive(Debug, Default)]
struct CountStore {
    entries: HashMap<CountKey, (u64, usize)>,
    order: Vec<CountKey>,
    hits: u64,
    misses: u64,
    pressed: u64,
    seed: u64,
}

impl CountCache {
    fn new(capacity: usize) -> Self {
        Self {
            capacity: capacity.max(1),
            keys: [RandomState::new(), RandomState::new()],
            store: Mutex::new(CountStore {
                seed: 0x9e37_79b9_7f4a_7c15,
                ..CountStore::default()
            }),
        }
    }

    fn count(&self, encoding: Encoding, text: &str) -> u64 {
        let key = CountKey {
            encoding,
            len: text.len(),
            hashes: [self.keys[0].hash_one(text), self.keys[1].hash_one(text)],
        };
        {
            let mut store = self.store.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(&(count, _)) = store.entries.get(&key) {
                store.hits += 1;
                return count;
            }
            store.misses += 1;
        }
        let count = encoding.count(text);
        let mut store = self.store.lock().unwrap_or_else(|e| e.into_inner());
        store.insert(key, count, self.capacity);
        count
    }
}

impl CountStore {
    fn insert(&mut self, key: CountKey, count: u64, capacity: usize) {
        if self.entries.contains_key(&key) {
            return;
        }
        if self.order.len() >= capacity {
            self.pressed += 1;
            if !self.pressed.is_multiple_of(8) {
                return;
            }
            self.seed ^= self.seed << 13;
            self.seed ^= self.seed >> 7;
            self.seed ^= self.seed << 17;
            let slot = (self.seed % self.order.len() as u64) as usize;
            let victim = self.order.swap_remove(slot);
            self.entries.remove(&victim);
            if let Some(moved) = self.order.get(slot) {
                self.entries
                    .get_mut(moved)
                    .expect("every key has an entry")
                    .1 = slot;
            }
        }
        self.entries.insert(key, (count, self.order.len()));
        self.order.push(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_up_per_file() {
        assert_eq!(super::estimate(""), 0);
        assert_eq!(super::estimate("a"), 1);
        assert_eq!(super::estimate("abcd"), 1);
        assert_eq!(super::estimate("abcde"), 2);
        assert_eq!(super::estimate("ééééé"), 2);
    }

    #[test]
    fn encodings_parse_by_short_and_full_name() {
        assert_eq!(Encoding::parse("o200k"), Some(Encoding::O200k));
        assert_eq!(Encoding::parse("O200K_BASE"), Some(Encoding::O200k));
        assert_eq!(Encoding::parse("cl100k_base"), Some(Encoding::Cl100k));
        assert_eq!(Encoding::parse("p50k"), None);
    }

    #[test]
    fn known_counts_of_the_reference_implementation() {
        // Python tiktoken 0.14: get_encoding(E).encode_ordinary(TEXT)
        let text = "fn main() {\n    println!(\"hello, world\");\n}\n";
        assert_eq!(Encoding::Cl100k.encode("hello world"), vec![15339, 1917]);
        assert_eq!(Encoding::O200k.encode("hello world"), vec![24912, 2375]);
        assert_eq!(
            Encoding::Cl100k.count(text),
            Encoding::Cl100k.encode(text).len() as u64
        );
        // special tokens are ordinary text
        assert!(Encoding::O200k.count("<|endoftext|>") > 1);
    }

    #[test]
    fn seams_that_are_not_cuts_really_change_counts() {
        // the reason cuts exist: these concatenations do not add up
        let joined =
            |a: &str, b: &str, e: Encoding| (e.count(&format!("{a}{b}")), e.count(a) + e.count(b));
        let (together, apart) = joined("}\n", "\n", Encoding::Cl100k);
        assert_ne!(together, apart);
        let (together, apart) = joined("}\n", "/", Encoding::O200k);
        assert_ne!(together, apart);
    }

    /// Pieces with awkward seams: whitespace runs, punctuation with newlines, `/`, CRLF, letters
    /// split mid-word, digits, non-ASCII.
    const PIECES: &[&str] = &[
        "}\n",
        "\n",
        "\n\n",
        "  ",
        "\t\n",
        "/",
        "//",
        "x",
        "abc",
        "ABC",
        "'s",
        "123",
        "4567",
        "```\n",
        "### a/b.rs\n",
        "\r\n",
        " \n",
        "é",
        "日本",
        "<file>",
        "\"},",
        ",\n",
        "]\n",
        "fn f() {\n",
        "    x\n",
        "\u{a0}",
        "\u{2028}",
        "?",
        "\n/",
        "\n\n/x",
        "a\n",
        "\n#",
    ];

    fn pseudo_random_documents() -> Vec<Vec<&'static str>> {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        (0..400)
            .map(|_| {
                let len = 1 + (next() % 12) as usize;
                (0..len)
                    .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
                    .collect()
            })
            .collect()
    }

    #[test]
    fn document_counter_is_exact_on_awkward_seams() {
        for encoding in Encoding::ALL {
            let counter = Counter::new(encoding);
            for pieces in pseudo_random_documents() {
                let mut document = DocumentCounter::new(&counter);
                for piece in &pieces {
                    document.push(piece);
                }
                let whole: String = pieces.concat();
                assert_eq!(document.total(), encoding.count(&whole), "{pieces:?}");
            }
        }
    }

    #[test]
    fn every_cut_splits_the_count_exactly() {
        for encoding in Encoding::ALL {
            for pieces in pseudo_random_documents() {
                let whole: String = pieces.concat();
                let mut from = 0;
                while let Some(cut) = first_cut(&whole[from..], false).map(|c| c + from) {
                    let (a, b) = whole.split_at(cut);
                    assert_eq!(
                        encoding.count(a) + encoding.count(b),
                        encoding.count(&whole),
                        "{encoding:?} cut at {cut} of {whole:?}"
                    );
                    from = cut;
                }
            }
        }
    }

    #[test]
    fn cuts_are_found_where_they_are() {
        assert_eq!(first_cut("ab\ncd\n/e\nf", false), Some(3));
        assert_eq!(first_cut("x", true), Some(0));
        assert_eq!(first_cut(" x\ny", true), Some(3));
        assert_eq!(last_cut("ab\ncd\n/e\nf"), Some(9));
        assert_eq!(last_cut("ab\n"), None);
        assert_eq!(last_cut("ab\n\n"), None);
    }

    #[test]
    fn cached_counts_equal_fresh_counts_and_hit_the_second_time() {
        let counter = Counter::with_cache(Encoding::O200k, 2);
        let texts: Vec<String> = (0..4)
            .map(|i| format!("fn f{i}() {{}}\n").repeat(100))
            .collect();
        for text in &texts {
            assert_eq!(counter.count(text), Encoding::O200k.count(text));
        }
        let (hits, misses) = counter.cache_stats().unwrap();
        assert_eq!((hits, misses), (0, 4));
        // capacity 2: at most two are held, and a held one is answered from memory
        let held = texts.iter().filter(|t| {
            let before = counter.cache_stats().unwrap().0;
            counter.count(t);
            counter.cache_stats().unwrap().0 > before
        });
        assert!((1..=2).contains(&held.count()));
    }
}
