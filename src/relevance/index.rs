//! What `relevant_files` keeps between requests (server only, never on disk): each file's
//! terms, keyed by its stat like every other cache (`crate::caches`), and HEAD's history,
//! keyed by the commit HEAD points at.
//!
//! Terms come from redacted text, so a secret never becomes a term; they hold hashes and
//! counts, no text.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

use devprojex_rank::{FileTerms, History};

use crate::facts::{RACY_WINDOW_NS, Stamp};
use crate::select::Entry;

/// The server's relevance index, per root.
pub struct RelevanceIndex {
    budget: usize,
    roots: Mutex<HashMap<PathBuf, RootTerms>>,
}

impl std::fmt::Debug for RelevanceIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RelevanceIndex").finish_non_exhaustive()
    }
}

#[derive(Default)]
struct RootTerms {
    files: HashMap<String, Kept>,
    held: usize,
    history: Option<(String, Arc<History>)>,
}

struct Kept {
    stamp: Stamp,
    read_at_ns: i64,
    terms: Arc<FileTerms>,
}

pub(crate) fn stamp_of(entry: &Entry) -> Stamp {
    Stamp {
        size: entry.size,
        modified_ns: entry.modified_ns,
        changed_ns: entry.changed_ns,
        id: entry.id,
    }
}

pub(crate) fn now_ns() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
}

/// Whether terms read at `read_at_ns` from a file stamped `seen` still hold for `now`: the
/// same stamp, still for the racy window before the read, and only where a change time exists
/// (Unix); elsewhere a file is read again each time.
fn settled(seen: &Stamp, read_at_ns: i64, now: &Stamp) -> bool {
    cfg!(unix)
        && seen == now
        && seen.modified_ns < read_at_ns - RACY_WINDOW_NS
        && seen.changed_ns < read_at_ns - RACY_WINDOW_NS
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl RelevanceIndex {
    /// `budget`: bytes of file terms kept across all roots (0 keeps none).
    pub fn new(budget: usize) -> Self {
        Self {
            budget,
            roots: Mutex::new(HashMap::new()),
        }
    }

    /// The kept terms of each entry that has not changed since it was read (`None`: read it).
    pub fn lookup(&self, root: &Path, entries: &[&Entry]) -> Vec<Option<Arc<FileTerms>>> {
        let roots = lock(&self.roots);
        let Some(kept) = roots.get(root) else {
            return vec![None; entries.len()];
        };
        entries
            .iter()
            .map(|entry| {
                let found = kept.files.get(&entry.relative)?;
                settled(&found.stamp, found.read_at_ns, &stamp_of(entry))
                    .then(|| Arc::clone(&found.terms))
            })
            .collect()
    }

    /// Keep what was read (`read_at_ns`: when the reads started), within the budget.
    pub fn store(&self, root: &Path, read: Vec<(&Entry, Arc<FileTerms>)>, read_at_ns: i64) {
        if self.budget == 0 {
            return;
        }
        let mut roots = lock(&self.roots);
        let total: usize = roots.values().map(|r| r.held).sum();
        let kept = roots.entry(root.to_path_buf()).or_default();
        let mut room = self.budget.saturating_sub(total);
        for (entry, terms) in read {
            let cost = terms.cost() + entry.relative.len() + 96;
            if let Some(old) = kept.files.remove(&entry.relative) {
                let freed = old.terms.cost() + entry.relative.len() + 96;
                kept.held -= freed;
                room += freed;
            }
            if cost > room {
                continue;
            }
            room -= cost;
            kept.held += cost;
            kept.files.insert(
                entry.relative.clone(),
                Kept {
                    stamp: stamp_of(entry),
                    read_at_ns,
                    terms,
                },
            );
        }
    }

    /// The kept history of `root` when HEAD still points at `head`.
    pub fn history(&self, root: &Path, head: &str) -> Option<Arc<History>> {
        let roots = lock(&self.roots);
        let (kept_head, history) = roots.get(root)?.history.as_ref()?;
        (kept_head == head).then(|| Arc::clone(history))
    }

    pub fn store_history(&self, root: &Path, head: String, history: Arc<History>) {
        let mut roots = lock(&self.roots);
        roots.entry(root.to_path_buf()).or_default().history = Some((head, history));
    }
}
