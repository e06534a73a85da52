//! A bounded memory of transform results for long-lived processes (the MCP server).
//!
//! An agent asks for `signatures` or `compact` packs of the same project again and again while it
//! works; every file it did not touch would be parsed again for the same answer. The transform
//! is a pure function of the language, the level and the text, so its result is kept under a key
//! made of exactly those: the language the path selects, the level, the text's length and two
//! independently keyed 64-bit SipHashes of the text. The keys are random per process, so nobody
//! can prepare two texts that collide.
//!
//! Memory is bounded by a byte budget. A pack visits every file in the same order each time, so
//! for a project larger than the budget, least-recently-used eviction would drop each entry just
//! before it is asked for again and never hit. Here, once the budget is full, only one new result
//! in [`ADMIT_EVERY`] is let in, and entries chosen at random make room for it: most of what is
//! held survives from one pack to the next (about budget/project of the files hit), while stale
//! entries, such as the old text of an edited file, still leave over time. A result larger than
//! a quarter of the budget is not kept.
//!
//! A result is held as a [`Splice`]: the byte ranges of the text it keeps and the placeholders
//! it inserts, rebuilt from the text on a hit. That is 1–5 % of the source's size where the
//! reduced text itself would be 33–97 % (`DETAIL_BENCH_CACHE=1` makes the corpus bench print
//! it), so the budget covers a project over ten times larger.

use std::borrow::Cow;
use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::sync::{Arc, Mutex};

use crate::Detail;
use crate::splice::Splice;

/// What a text is known to transform into.
#[derive(Clone)]
enum Known {
    /// The transform leaves it as it is (nothing to remove, too many parse errors).
    Unchanged,
    /// Reduced: the result as pieces of the text it came from.
    Reduced(Arc<Splice>),
}

impl Known {
    /// Bytes charged against the budget: the text kept plus the entry itself.
    fn cost(&self) -> usize {
        const ENTRY: usize = 96;
        match self {
            Known::Unchanged => ENTRY,
            Known::Reduced(splice) => ENTRY + splice.heap_bytes(),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    language: &'static str,
    detail: Detail,
    len: usize,
    hashes: [u64; 2],
}

/// When the budget is full, one new result in this many replaces a random held one.
const ADMIT_EVERY: u64 = 8;

/// The entries, and their keys in a vector for picking a victim at random in O(1).
struct Store {
    entries: HashMap<Key, (Known, usize)>,
    keys: Vec<Key>,
    held_bytes: usize,
    hits: u64,
    misses: u64,
    /// xorshift state; eviction needs no secrecy, only spread.
    seed: u64,
    /// New results that found the budget full.
    pressed: u64,
}

impl Store {
    fn new() -> Self {
        Self {
            entries: HashMap::new(),
            keys: Vec::new(),
            held_bytes: 0,
            hits: 0,
            misses: 0,
            seed: 0x9e37_79b9_7f4a_7c15,
            pressed: 0,
        }
    }

    fn remove(&mut self, key: &Key) -> Option<Known> {
        let (known, slot) = self.entries.remove(key)?;
        self.keys.swap_remove(slot);
        if let Some(moved) = self.keys.get(slot) {
            self.entries
                .get_mut(moved)
                .expect("every key has an entry")
                .1 = slot;
        }
        self.held_bytes -= known.cost();
        Some(known)
    }

    fn evict_one(&mut self) {
        self.seed ^= self.seed << 13;
        self.seed ^= self.seed >> 7;
        self.seed ^= self.seed << 17;
        let victim = self.keys[(self.seed % self.keys.len() as u64) as usize];
        self.remove(&victim);
    }

    fn insert(&mut self, key: Key, known: Known, budget: usize) {
        let cost = known.cost();
        if cost > budget / 4 {
            return;
        }
        // another thread may have stored the same key meanwhile: charge it once
        self.remove(&key);
        if self.held_bytes + cost > budget {
            self.pressed += 1;
            if !self.pressed.is_multiple_of(ADMIT_EVERY) {
                return;
            }
        }
        while self.held_bytes + cost > budget && !self.keys.is_empty() {
            self.evict_one();
        }
        self.entries.insert(key, (known, self.keys.len()));
        self.keys.push(key);
        self.held_bytes += cost;
    }
}

/// Counters for tests and diagnostics.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    pub hits: u64,
    pub misses: u64,
    /// Bytes charged by the entries held now (never more than the budget).
    pub held_bytes: usize,
}

/// Transform results kept across requests; see the module documentation.
pub struct TransformCache {
    budget_bytes: usize,
    keys: [RandomState; 2],
    store: Mutex<Store>,
}

impl std::fmt::Debug for TransformCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TransformCache")
            .field("budget_bytes", &self.budget_bytes)
            .field("stats", &self.stats())
            .finish()
    }
}

impl TransformCache {
    /// A cache holding at most `budget_bytes` of results.
    pub fn new(budget_bytes: usize) -> Self {
        Self {
            budget_bytes,
            keys: [RandomState::new(), RandomState::new()],
            store: Mutex::new(Store::new()),
        }
    }

    /// [`crate::transform`], answered from memory when the same language, level and text were
    /// transformed before.
    pub fn transform<'a>(&self, path: &str, text: &'a str, detail: Detail) -> Cow<'a, str> {
        let Some(language) = crate::language_name(path).filter(|_| detail != Detail::Full) else {
            // nothing to parse: the transform returns the text as it is at once
            return crate::transform(path, text, detail);
        };
        let key = Key {
            language,
            detail,
            len: text.len(),
            hashes: [self.keys[0].hash_one(text), self.keys[1].hash_one(text)],
        };
        match self.lookup(&key) {
            Some(Known::Unchanged) => return Cow::Borrowed(text),
            Some(Known::Reduced(splice)) => {
                if let Some(out) = splice.render(text) {
                    return Cow::Owned(out);
                }
                // Cannot happen for the text the key was made from; computing is always right.
            }
            None => {}
        }
        let (result, _, splice) = crate::transform_spliced(path, text, detail);
        let known = match splice {
            None => Known::Unchanged,
            Some(mut splice) => {
                splice.shrink_to_fit();
                Known::Reduced(Arc::new(splice))
            }
        };
        self.insert(key, known);
        result
    }

    /// Hits, misses and the bytes held now.
    pub fn stats(&self) -> CacheStats {
        let store = self.store.lock().unwrap_or_else(|e| e.into_inner());
        CacheStats {
            hits: store.hits,
            misses: store.misses,
            held_bytes: store.held_bytes,
        }
    }

    /// The known result, counted as a hit or a miss.
    fn lookup(&self, key: &Key) -> Option<Known> {
        let mut store = self.store.lock().unwrap_or_else(|e| e.into_inner());
        let known = store.entries.get(key).map(|(known, _)| known.clone());
        if known.is_some() {
            store.hits += 1;
        } else {
            store.misses += 1;
        }
        known
    }

    fn insert(&self, key: Key, known: Known) {
        let mut store = self.store.lock().unwrap_or_else(|e| e.into_inner());
        store.insert(key, known, self.budget_bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rust_file(n: usize) -> String {
        format!("// file {n}\nfn f{n}(x: u32) -> u32 {{\n    // add\n    x + {n}\n}}\n")
    }

    #[test]
    fn answers_exactly_what_the_transform_answers_and_hits_the_second_time() {
        let cache = TransformCache::new(1 << 20);
        let texts = [
            ("a.rs", rust_file(1)),
            ("b.rs", "fn g() {}\n".to_string()), // nothing to remove at compact
            ("c.py", "def f():\n    # note\n    return 1\n".to_string()),
            ("d.txt", "not a language\n".to_string()),
            ("e.rs", "fn broken( {{{{ ]]] ))) \n".repeat(20)), // parse errors: unchanged
            ("f.rs", format!("\u{feff}{}", rust_file(2))),     // byte order mark: pieces shift
        ];
        for round in 0..2 {
            for detail in Detail::ALL {
                for (path, text) in &texts {
                    let expected = crate::transform(path, text, detail);
                    let got = cache.transform(path, text, detail);
                    assert_eq!(got, expected, "{path} {detail} round {round}");
                    assert_eq!(
                        matches!(got, Cow::Borrowed(_)),
                        matches!(expected, Cow::Borrowed(_)),
                        "{path} {detail}: unchanged text stays borrowed"
                    );
                }
            }
        }
        // five parsed files (not `d.txt`), two reducing levels, twice
        let stats = cache.stats();
        assert_eq!(stats.misses, 10);
        assert_eq!(stats.hits, 10);
    }

    #[test]
    fn a_changed_text_or_another_language_is_not_a_hit() {
        let cache = TransformCache::new(1 << 20);
        let first = rust_file(1);
        let edited = first.replace("x + 1", "x + 2");
        assert_eq!(first.len(), edited.len());
        cache.transform("a.rs", &first, Detail::Signatures);
        let out = cache.transform("a.rs", &edited, Detail::Compact);
        assert!(out.contains("x + 2"));
        let out = cache.transform("a.rs", &edited, Detail::Signatures);
        assert_eq!(out, crate::transform("a.rs", &edited, Detail::Signatures));
        // the same bytes as Python are another transform
        let as_python = cache.transform("a.py", &edited, Detail::Compact);
        assert_eq!(
            as_python,
            crate::transform("a.py", &edited, Detail::Compact)
        );
        assert_eq!(cache.stats().hits, 0);
    }

    #[test]
    fn memory_stays_within_the_budget_and_a_scan_larger_than_it_still_hits() {
        let budget = 8192;
        let cache = TransformCache::new(budget);
        let texts: Vec<String> = (0..200).map(rust_file).collect();
        for text in &texts {
            cache.transform("x.rs", text, Detail::Compact);
            assert!(cache.stats().held_bytes <= budget);
        }
        let first_pass = cache.stats();
        assert_eq!(first_pass.misses, 200);
        // the same 200 texts again, in the same order, as a repeated pack asks for them
        for text in &texts {
            let out = cache.transform("x.rs", text, Detail::Compact);
            assert_eq!(out, crate::transform("x.rs", text, Detail::Compact));
            assert!(cache.stats().held_bytes <= budget);
        }
        let hits = cache.stats().hits;
        let held = cache.stats().held_bytes;
        assert!(
            hits > 40,
            "a repeated scan hits most of what the budget holds ({held} bytes): {hits} hits"
        );
        // a result larger than a quarter of the budget is computed but not kept
        let big = rust_file(7).repeat(80);
        cache.transform("big.rs", &big, Detail::Compact);
        cache.transform("big.rs", &big, Detail::Compact);
        assert_eq!(cache.stats().hits, hits);
        assert!(cache.stats().held_bytes <= budget);
    }

    #[test]
    fn removing_entries_keeps_the_key_index_consistent() {
        let mut store = Store::new();
        let key = |n: usize| Key {
            language: "rust",
            detail: Detail::Compact,
            len: n,
            hashes: [n as u64, 0],
        };
        for n in 0..50 {
            store.insert(key(n), Known::Unchanged, usize::MAX);
        }
        for n in (0..50).step_by(3) {
            assert!(store.remove(&key(n)).is_some());
        }
        assert_eq!(store.entries.len(), store.keys.len());
        for (slot, k) in store.keys.iter().enumerate() {
            assert_eq!(store.entries[k].1, slot);
        }
        let expected: usize = store.entries.values().map(|(known, _)| known.cost()).sum();
        assert_eq!(store.held_bytes, expected);
    }
}
