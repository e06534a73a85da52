//! What a long-lived server remembers about each file between requests: whether it is binary,
//! whether secret redaction changes it, and its metrics per detail level. A warm `analyze`
//! then reads nothing it has measured before, and a warm search or pack skips the redaction
//! pass for files it knows redaction leaves unchanged.
//!
//! The key is what Git's index uses to notice an edit: the path, and the file's size,
//! modification time, status-change time and inode. Every write changes the status-change
//! time (it cannot be set back by a user), so an edit that keeps the size and restores the
//! modification time is still seen. Facts about a file whose times are within the racy window
//! ([`RACY_WINDOW_NS`]) are not kept ("racily clean" in Git's words: another write in the same clock tick
//! could leave every stamp unchanged).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use devprojex_detail::Detail;

use crate::project::jail::{FileId, NodeMeta};

/// Entries kept at most (about 150 bytes each); past this the map starts over.
const MAX_ENTRIES: usize = 2_000_000;

/// A stat changed this close to when it was read may change again without any field changing
/// (timestamps are coarse; FAT's are 2 seconds). The one racy window of every cache
/// (`crate::caches`).
pub const RACY_WINDOW_NS: i64 = 3_000_000_000;

/// The identity and version of a file's content as `stat` tells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    pub size: u64,
    pub modified_ns: i64,
    pub changed_ns: i64,
    pub id: Option<FileId>,
}

impl Stamp {
    pub fn of(meta: &NodeMeta) -> Self {
        Self {
            size: meta.size,
            modified_ns: meta.modified_ns,
            changed_ns: meta.changed_ns,
            id: meta.id,
        }
    }

    /// True when the file changed too recently to trust its stamp.
    fn is_racy(&self) -> bool {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(i64::MAX, |d| {
                i64::try_from(d.as_nanos()).unwrap_or(i64::MAX)
            });
        self.modified_ns.max(self.changed_ns) > now.saturating_sub(RACY_WINDOW_NS)
            || self.modified_ns == 0
    }
}

/// Metrics of one file's content at one detail level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextMetrics {
    pub characters: u64,
    pub tokens: u64,
    pub lines: u64,
    pub redactions: usize,
}

/// What is known about one file's content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Known {
    Binary,
    /// Text; `clean` when secret (and private-data) redaction changes nothing in it.
    Text {
        clean: bool,
        metrics: [Option<TextMetrics>; 3],
    },
}

/// The facts cache of one server process.
#[derive(Debug, Default)]
pub struct FactsCache {
    map: Mutex<HashMap<PathBuf, (Stamp, Known)>>,
}

fn slot(detail: Detail) -> usize {
    match detail {
        Detail::Full => 0,
        Detail::Compact => 1,
        Detail::Signatures => 2,
    }
}

impl FactsCache {
    /// What is known about the file at `path` with `stamp`, if anything.
    pub fn get(&self, path: &PathBuf, stamp: &Stamp) -> Option<Known> {
        let map = self.map.lock().unwrap_or_else(|p| p.into_inner());
        map.get(path)
            .filter(|(known_stamp, _)| known_stamp == stamp)
            .map(|(_, known)| *known)
    }

    /// Which of `files` (path and stamp) are known binary, under one lock (a tree of many files).
    pub fn binary_among<'a>(
        &self,
        files: impl Iterator<Item = (&'a PathBuf, Stamp)>,
    ) -> Vec<&'a PathBuf> {
        let map = self.map.lock().unwrap_or_else(|p| p.into_inner());
        files
            .filter(|(path, stamp)| {
                map.get(*path).is_some_and(|(known_stamp, known)| {
                    known_stamp == stamp && *known == Known::Binary
                })
            })
            .map(|(path, _)| path)
            .collect()
    }

    /// The metrics of the file at `detail`, when known for this stamp.
    pub fn metrics(&self, path: &PathBuf, stamp: &Stamp, detail: Detail) -> Option<TextMetrics> {
        match self.get(path, stamp)? {
            Known::Text { metrics, .. } => metrics[slot(detail)],
            Known::Binary => None,
        }
    }

    pub fn record_binary(&self, path: &PathBuf, stamp: Stamp) {
        self.insert(path, stamp, |_| Known::Binary);
    }

    /// Record a text file: whether redaction changed it, and its metrics at `detail`.
    pub fn record_text(
        &self,
        path: &PathBuf,
        stamp: Stamp,
        clean: bool,
        detail: Detail,
        text: TextMetrics,
    ) {
        self.insert(path, stamp, |previous| {
            let mut metrics = match previous {
                Some(Known::Text { metrics, .. }) => metrics,
                _ => [None; 3],
            };
            metrics[slot(detail)] = Some(text);
            Known::Text { clean, metrics }
        });
    }

    fn insert(&self, path: &PathBuf, stamp: Stamp, make: impl FnOnce(Option<Known>) -> Known) {
        if stamp.is_racy() {
            return;
        }
        let mut map = self.map.lock().unwrap_or_else(|p| p.into_inner());
        let previous = map
            .get(path)
            .filter(|(known_stamp, _)| *known_stamp == stamp)
            .map(|(_, known)| *known);
        if map.len() >= MAX_ENTRIES && previous.is_none() {
            map.clear();
        }
        map.insert(path.clone(), (stamp, make(previous)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamp(changed_ns: i64) -> Stamp {
        Stamp {
            size: 10,
            modified_ns: 1_000_000_000,
            changed_ns,
            id: Some(FileId {
                device: 1,
                inode: 2,
            }),
        }
    }

    #[test]
    fn any_stamp_change_forgets_the_facts() {
        let cache = FactsCache::default();
        let path = PathBuf::from("/r/a.txt");
        let metrics = TextMetrics {
            characters: 10,
            tokens: 3,
            lines: 1,
            redactions: 0,
        };
        cache.record_text(&path, stamp(5), true, Detail::Full, metrics);
        assert_eq!(cache.metrics(&path, &stamp(5), Detail::Full), Some(metrics));
        assert_eq!(cache.metrics(&path, &stamp(5), Detail::Compact), None);
        // Same size and mtime, new ctime: a different version.
        assert_eq!(cache.get(&path, &stamp(6)), None);
    }

    #[test]
    fn recent_files_are_not_remembered() {
        let cache = FactsCache::default();
        let path = PathBuf::from("/r/a.txt");
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_nanos() as i64;
        cache.record_binary(&path, stamp(now));
        assert_eq!(cache.get(&path, &stamp(now)), None);
    }
}
