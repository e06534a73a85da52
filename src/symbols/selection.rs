//! A selection kept across `related_files` requests in the server, so a warm answer does not
//! walk the project again (on the kernel a walk is most of a second of CPU; a warm answer must
//! take a tenth of that).
//!
//! The walk's result depends on folder listings, on `.gitignore` files (in the listed folders,
//! in the folders between the repository top and the root, `info/exclude`) and on the user's
//! Git configuration (the global excludes file), and on the request's spec (hashed whole). A
//! kept selection is reused only when every one of those paths stats the same as right after
//! the walk, when none of them had changed within [`RACY_WINDOW_NS`] before the walk started
//! (another change in the same clock tick would leave the stat the same), and when it is less
//! than [`MAX_AGE`] old (a bound on what no stat shows, such as a global excludes file kept
//! under another name). Files are stat-ed too, and their fresh size and times replace the kept
//! ones, so the import index sees every edit. Requests with a Git scope or tracked-only rules
//! depend on the Git index and are never kept.

use std::collections::HashMap;
use std::hash::BuildHasher;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use rayon::prelude::*;

use super::index::RACY_WINDOW_NS;
use crate::error::Result;
use crate::project::ProjectRoot;
use crate::select::{self, Entry, EntryKind, Selection, SelectionSpec};

/// A kept selection is walked again after this long, whatever the stats say.
pub const MAX_AGE: Duration = Duration::from_secs(300);

/// What `stat` says of a path (absent: `None`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    device: u64,
    inode: u64,
    size: u64,
    modified_ns: i64,
    changed_ns: i64,
}

fn ns(time: std::io::Result<SystemTime>) -> i64 {
    time.ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as i64)
}

#[cfg(unix)]
fn stamp(path: &Path) -> Option<Stamp> {
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::symlink_metadata(path).ok()?;
    Some(Stamp {
        device: meta.dev(),
        inode: meta.ino(),
        size: meta.len(),
        modified_ns: meta.mtime() * 1_000_000_000 + meta.mtime_nsec(),
        changed_ns: meta.ctime() * 1_000_000_000 + meta.ctime_nsec(),
    })
}

#[cfg(not(unix))]
fn stamp(path: &Path) -> Option<Stamp> {
    // No inode or change time through std: the creation time stands in for both (a file
    // replaced by another has a new one).
    let meta = std::fs::symlink_metadata(path).ok()?;
    Some(Stamp {
        device: 0,
        inode: ns(meta.created()) as u64,
        size: meta.len(),
        modified_ns: ns(meta.modified()),
        changed_ns: ns(meta.created()),
    })
}

fn now_ns() -> i64 {
    ns(Ok(SystemTime::now()))
}

struct Kept {
    fingerprint: u64,
    selection: Arc<Selection>,
    stamps: Vec<(PathBuf, Option<Stamp>)>,
    walked_at: Instant,
}

/// The kept selections, one per root.
#[derive(Default)]
pub struct SelectionCache {
    kept: Mutex<HashMap<PathBuf, Arc<Kept>>>,
}

impl std::fmt::Debug for SelectionCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SelectionCache").finish_non_exhaustive()
    }
}

/// The paths whose stat decides whether a walk would list the same: the root and every listed
/// folder, the `.gitignore` each of them may hold, the `.gitignore` files and `info/exclude`
/// above the root inside its repository, and the user's Git configuration and excludes.
fn watched_paths(root: &ProjectRoot, folders: &[Entry]) -> Vec<PathBuf> {
    let mut paths = Vec::with_capacity(folders.len() * 2 + 16);
    for dir in std::iter::once(root.path.clone()).chain(folders.iter().map(|d| d.absolute.clone()))
    {
        paths.push(dir.join(".gitignore"));
        paths.push(dir);
    }
    if let Some(top) = root.path.ancestors().find(|dir| dir.join(".git").exists()) {
        let mut cursor = root.path.parent();
        while let Some(dir) = cursor {
            if !dir.starts_with(top) {
                break;
            }
            paths.push(dir.join(".gitignore"));
            cursor = dir.parent();
        }
        paths.push(top.join(".git").join("info").join("exclude"));
        paths.push(top.join(".git").join("config"));
    }
    if let Some(home) = std::env::var_os("HOME").or_else(|| std::env::var_os("USERPROFILE")) {
        let home = PathBuf::from(home);
        paths.push(home.join(".gitconfig"));
        let xdg = std::env::var_os("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| home.join(".config"));
        paths.push(xdg.join("git").join("config"));
        paths.push(xdg.join("git").join("ignore"));
    }
    paths
}

impl SelectionCache {
    /// The selection of `spec`, from the last walk when nothing it depends on changed.
    pub fn select(
        &self,
        root: &ProjectRoot,
        spec: &SelectionSpec,
        hasher: &impl BuildHasher,
    ) -> Result<Arc<Selection>> {
        let keepable = spec.allow_lists.is_empty();
        let fingerprint = hasher.hash_one(format!("{spec:?}"));
        if keepable {
            let kept = self
                .kept
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(&root.path)
                .cloned();
            if let Some(kept) = kept
                && kept.fingerprint == fingerprint
                && kept.walked_at.elapsed() < MAX_AGE
                && let Some(selection) = still_valid(&kept)
            {
                if !Arc::ptr_eq(&selection, &kept.selection) {
                    // files changed: keep their fresh stats for the next request
                    let updated = Arc::new(Kept {
                        fingerprint,
                        selection: Arc::clone(&selection),
                        stamps: kept.stamps.clone(),
                        walked_at: kept.walked_at,
                    });
                    self.kept
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .insert(root.path.clone(), updated);
                }
                return Ok(selection);
            }
        }
        let started = now_ns();
        let walked_at = Instant::now();
        let (selection, folders) = select::select_with_folders(root, spec)?;
        let selection = Arc::new(selection);
        if keepable {
            let paths = watched_paths(root, &folders);
            let stamps: Vec<(PathBuf, Option<Stamp>)> = paths
                .into_par_iter()
                .map(|p| {
                    let s = stamp(&p);
                    (p, s)
                })
                .collect();
            // a path that changed just before (or during) the walk may change again unseen
            let settled = stamps.iter().all(|(_, s)| {
                s.is_none_or(|s| {
                    s.modified_ns < started - RACY_WINDOW_NS
                        && s.changed_ns < started - RACY_WINDOW_NS
                })
            });
            let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
            if settled {
                kept.insert(
                    root.path.clone(),
                    Arc::new(Kept {
                        fingerprint,
                        selection: Arc::clone(&selection),
                        stamps,
                        walked_at,
                    }),
                );
            } else {
                kept.remove(&root.path);
            }
        }
        Ok(selection)
    }
}

/// The kept selection with its files' fresh stats (the same `Arc` when none changed), or `None`
/// when a watched path changed. Only on Unix, where a change time and an inode show every
/// replacement and edit.
fn still_valid(kept: &Kept) -> Option<Arc<Selection>> {
    if !cfg!(unix) {
        return None;
    }
    let unchanged = kept
        .stamps
        .par_iter()
        .all(|(path, expected)| stamp(path) == *expected);
    if !unchanged {
        return None;
    }
    let fresh: Vec<Option<Stamp>> = kept
        .selection
        .entries
        .par_iter()
        .map(|e| match e.kind {
            EntryKind::File => stamp(&e.absolute),
            _ => None,
        })
        .collect();
    let mut changed = false;
    for (entry, stamp) in kept.selection.entries.iter().zip(&fresh) {
        if entry.kind != EntryKind::File {
            continue;
        }
        let stamp = (*stamp)?;
        if entry
            .id
            .is_some_and(|id| id.inode != stamp.inode || id.device != stamp.device)
        {
            // replaced by another file: its folder changed too, but be sure
            return None;
        }
        changed |= entry.size != stamp.size
            || entry.modified_ns != stamp.modified_ns
            || entry.changed_ns != stamp.changed_ns;
    }
    if !changed {
        return Some(Arc::clone(&kept.selection));
    }
    let mut selection = (*kept.selection).clone();
    for (entry, stamp) in selection.entries.iter_mut().zip(fresh) {
        if let (EntryKind::File, Some(stamp)) = (entry.kind, stamp) {
            entry.size = stamp.size;
            entry.modified_ns = stamp.modified_ns;
            entry.changed_ns = stamp.changed_ns;
        }
    }
    Some(Arc::new(selection))
}
