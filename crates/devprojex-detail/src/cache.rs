//! A bounded memory of transform results for long-lived processes (the MCP server).
//!
//! An agent asks for `signatures` or `compact` packs of the same project again and again while it
//! works; every file it did not touch would be parsed again for the same answer. The transform
//! is a pure function of the language, the level and the text, so its result is kept under a key
//! made of exactly those: the language the path selects, the level, the text's length and two
//! independently keyed 64-bit SipHashes of the text. The keys are random per process, so nobody
//! can prepare two texts that collide.
//!
//! Memory is bounded by two generations: new results go into the current one; when it holds
//! half the budget it becomes the previous one and the former previous one is dropped. A hit in
//! the previous generation moves the entry back into the current one, so what is in use
//! survives. A result larger than half the budget is not kept.

use std::borrow::Cow;
use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::sync::{Arc, Mutex};

use crate::Detail;

/// What a text is known to transform into.
#[derive(Clone)]
enum Known {
    /// The transform leaves it as it is (nothing to remove, too many parse errors).
    Unchanged,
    Reduced(Arc<str>),
}

impl Known {
    /// Bytes charged against the budget: the text kept plus the entry itself.
    fn cost(&self) -> usize {
        const ENTRY: usize = 96;
        match self {
            Known::Unchanged => ENTRY,
            Known::Reduced(text) => ENTRY + text.len(),
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

#[derive(Default)]
struct Generations {
    current: HashMap<Key, Known>,
    current_bytes: usize,
    previous: HashMap<Key, Known>,
    previous_bytes: usize,
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
    generations: Mutex<Generations>,
    stats: Mutex<(u64, u64)>,
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
            generations: Mutex::new(Generations::default()),
            stats: Mutex::new((0, 0)),
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
        if let Some(known) = self.lookup(&key) {
            self.count(true);
            return match known {
                Known::Unchanged => Cow::Borrowed(text),
                Known::Reduced(reduced) => Cow::Owned(reduced.to_string()),
            };
        }
        self.count(false);
        let result = crate::transform(path, text, detail);
        let known = match &result {
            Cow::Borrowed(_) => Known::Unchanged,
            Cow::Owned(reduced) => Known::Reduced(Arc::from(reduced.as_str())),
        };
        self.insert(key, known);
        result
    }

    /// Hits, misses and the bytes held now.
    pub fn stats(&self) -> CacheStats {
        let (hits, misses) = *self.stats.lock().unwrap_or_else(|e| e.into_inner());
        let generations = self.generations.lock().unwrap_or_else(|e| e.into_inner());
        CacheStats {
            hits,
            misses,
            held_bytes: generations.current_bytes + generations.previous_bytes,
        }
    }

    fn count(&self, hit: bool) {
        let mut stats = self.stats.lock().unwrap_or_else(|e| e.into_inner());
        if hit {
            stats.0 += 1;
        } else {
            stats.1 += 1;
        }
    }

    fn lookup(&self, key: &Key) -> Option<Known> {
        let mut generations = self.generations.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(known) = generations.current.get(key) {
            return Some(known.clone());
        }
        let known = generations.previous.remove(key)?;
        generations.previous_bytes -= known.cost();
        self.insert_locked(&mut generations, *key, known.clone());
        Some(known)
    }

    fn insert(&self, key: Key, known: Known) {
        let mut generations = self.generations.lock().unwrap_or_else(|e| e.into_inner());
        self.insert_locked(&mut generations, key, known);
    }

    fn insert_locked(&self, generations: &mut Generations, key: Key, known: Known) {
        let half = self.budget_bytes / 2;
        let cost = known.cost();
        if cost > half {
            return;
        }
        if generations.current_bytes + cost > half {
            generations.previous = std::mem::take(&mut generations.current);
            generations.previous_bytes = std::mem::take(&mut generations.current_bytes);
        }
        // another thread may have stored the same key meanwhile: charge it once
        if let Some(old) = generations.current.insert(key, known) {
            generations.current_bytes -= old.cost();
        }
        generations.current_bytes += cost;
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
        // four parsed files (not `d.txt`), two reducing levels, twice
        let stats = cache.stats();
        assert_eq!(stats.misses, 8);
        assert_eq!(stats.hits, 8);
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
    fn memory_stays_within_the_budget_and_recent_entries_survive() {
        let budget = 4096;
        let cache = TransformCache::new(budget);
        let texts: Vec<String> = (0..200).map(rust_file).collect();
        for text in &texts {
            cache.transform("x.rs", text, Detail::Compact);
            assert!(cache.stats().held_bytes <= budget);
        }
        let before = cache.stats();
        cache.transform("x.rs", texts.last().unwrap(), Detail::Compact);
        assert_eq!(
            cache.stats().hits,
            before.hits + 1,
            "the newest entry is kept"
        );
        cache.transform("x.rs", &texts[0], Detail::Compact);
        assert_eq!(
            cache.stats().misses,
            before.misses + 1,
            "the oldest was dropped"
        );
        // a result larger than half the budget is computed but not kept
        let big = rust_file(7).repeat(100);
        cache.transform("big.rs", &big, Detail::Compact);
        cache.transform("big.rs", &big, Detail::Compact);
        assert!(cache.stats().held_bytes <= budget);
        assert_eq!(cache.stats().misses, before.misses + 3);
    }
}
