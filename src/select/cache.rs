//! A selection kept across requests in the server, so a warm answer does not walk the project
//! again (on the kernel a walk is most of a second of CPU; a warm `get_tree` must take a tenth of
//! that). Every tool of the server selects through it (`Engine::with_selection_cache`).
//!
//! The walk's result depends on folder listings, on `.gitignore` files (in the listed folders,
//! in the folders between the repository top and the root, `info/exclude`), on the user's Git
//! configuration (the global excludes file), on the request's spec (hashed whole), and on each
//! listed file's stat and, for files the tree sniffs, its first bytes. A kept selection is
//! reused only when every watched path stats the same as right after the walk, when none of them
//! had changed within [`RACY_WINDOW_NS`] before the walk started (another change in the same
//! clock tick would leave the stat the same), and when it is less than [`MAX_AGE`] old (a bound
//! on what no stat shows, such as a global excludes file kept under another name). Files are
//! stat-ed too: the key is Git's index key (device, inode, size, modification and change time),
//! so an edit that keeps the size and the modification time is still seen through the change
//! time. An edited file's fresh stat replaces the kept one, except where the edit could change
//! the selection itself (a sniffed file may have become binary): then the project is walked again.
//!
//! Never kept, because the selection depends on what no folder stat shows: Git-index allow-lists
//! (`tracked_only`, `git_scope`), size rules (`max_file_bytes`, empty files: a file the rule
//! removed is not listed, so its edits would go unseen), and followed links (a listed folder
//! reached through a link stats as the link). Off Unix no stat shows every replacement (no
//! change time or inode through `std`), so nothing is kept there.

use std::collections::HashMap;
use std::hash::BuildHasher;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use rayon::prelude::*;

use crate::error::Result;
use crate::project::ProjectRoot;
use crate::select::{self, Entry, EntryKind, Selection, SelectionSpec, rules};

use crate::facts::RACY_WINDOW_NS;

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
    /// Whether the walk sniffed files of unknown extensions (their edits may change `binary`).
    sniffed: bool,
}

/// The kept selections: per root, one per spec fingerprint, the most recent few (a tree and a
/// search of the same project differ only in the sniff, and an agent alternates them).
#[derive(Default)]
pub struct SelectionCache {
    kept: Mutex<HashMap<PathBuf, Vec<Arc<Kept>>>>,
    hasher: std::collections::hash_map::RandomState,
    /// Binary sniffs, for kept and unkept walks alike.
    sniffs: select::SniffCache,
}

/// Kept specs per root: the tools' two walks (with and without the sniff) and a few filters.
const KEPT_PER_ROOT: usize = 4;

/// Whether a selection of `spec` may be kept (see the module comment).
fn keepable(spec: &SelectionSpec) -> bool {
    cfg!(unix)
        && spec.allow_lists.is_empty()
        && spec.max_file_bytes.is_none()
        && !spec.exclusions.empty_files
        && !spec.follow_symlinks
        // a names-only walk has no file stats to tell an edit by
        && !spec.names_only
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
    /// `file_stats`: the caller uses the files' sizes, times or identities (contents, sizes
    /// shown). A caller of names and kinds only (a text or Markdown tree) leaves the stat of each
    /// file the walk did not sniff for the next caller that needs it: the folders' stats show
    /// every name added, removed or renamed, and a sniffed file's stat whether it may have
    /// turned binary or text.
    pub fn select(
        &self,
        root: &ProjectRoot,
        spec: &SelectionSpec,
        file_stats: bool,
    ) -> Result<Arc<Selection>> {
        // A kept walk needs the stats of its files, to see later edits (a names-only walk, which
        // skips them, is for a one-off selection).
        let unstatted;
        let spec = if spec.names_only {
            unstatted = SelectionSpec {
                names_only: false,
                ..spec.clone()
            };
            &unstatted
        } else {
            spec
        };
        if !keepable(spec) {
            let (selection, _) = select::select_with_folders(root, spec, Some(&self.sniffs))?;
            return Ok(Arc::new(selection));
        }
        let fingerprint = self.hasher.hash_one(format!("{spec:?}"));
        let kept = self
            .lock()
            .get(&root.path)
            .and_then(|list| list.iter().find(|k| k.fingerprint == fingerprint).cloned());
        if let Some(kept) = kept
            && kept.walked_at.elapsed() < MAX_AGE
            && let Some(selection) = still_valid(&kept, file_stats)
        {
            if !Arc::ptr_eq(&selection, &kept.selection) {
                // files changed: keep their fresh stats for the next request
                self.keep(
                    root,
                    Kept {
                        fingerprint,
                        selection: Arc::clone(&selection),
                        stamps: kept.stamps.clone(),
                        walked_at: kept.walked_at,
                        sniffed: kept.sniffed,
                    },
                );
            }
            return Ok(selection);
        }
        let started = now_ns();
        let walked_at = Instant::now();
        let (selection, folders) = select::select_with_folders(root, spec, Some(&self.sniffs))?;
        let selection = Arc::new(selection);
        let paths = watched_paths(root, &folders);
        let stamps: Vec<(PathBuf, Option<Stamp>)> = paths
            .into_par_iter()
            .map(|p| {
                let s = stamp(&p);
                (p, s)
            })
            .collect();
        // a path that changed just before (or during) the walk may change again unseen
        let settled_at = |modified_ns: i64, changed_ns: i64| {
            modified_ns < started - RACY_WINDOW_NS && changed_ns < started - RACY_WINDOW_NS
        };
        let settled = stamps
            .iter()
            .all(|(_, s)| s.is_none_or(|s| settled_at(s.modified_ns, s.changed_ns)))
            // a sniffed file's next edit must show in its stat, or its `binary` could go stale
            && (!spec.sniff_binary
                || selection.files().all(|f| {
                    rules::is_known_text(f.name()) || settled_at(f.modified_ns, f.changed_ns)
                }));
        if settled {
            self.keep(
                root,
                Kept {
                    fingerprint,
                    selection: Arc::clone(&selection),
                    stamps,
                    walked_at,
                    sniffed: spec.sniff_binary,
                },
            );
        } else {
            self.forget(root, fingerprint);
        }
        Ok(selection)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, Vec<Arc<Kept>>>> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Keep `kept` first in its root's list, in place of the same spec's older walk.
    fn keep(&self, root: &ProjectRoot, kept: Kept) {
        let mut all = self.lock();
        let list = all.entry(root.path.clone()).or_default();
        list.retain(|k| k.fingerprint != kept.fingerprint);
        list.insert(0, Arc::new(kept));
        list.truncate(KEPT_PER_ROOT);
    }

    fn forget(&self, root: &ProjectRoot, fingerprint: u64) {
        if let Some(list) = self.lock().get_mut(&root.path) {
            list.retain(|k| k.fingerprint != fingerprint);
        }
    }
}

/// The kept selection with its files' fresh stats (the same `Arc` when none changed), or `None`
/// when a watched path changed or an edit may change what the walk decided.
fn still_valid(kept: &Kept, file_stats: bool) -> Option<Arc<Selection>> {
    let unchanged = kept
        .stamps
        .par_iter()
        .all(|(path, expected)| stamp(path) == *expected);
    if !unchanged {
        return None;
    }
    let sniffed = |entry: &Entry| kept.sniffed && !rules::is_known_text(entry.name());
    if !file_stats {
        // Names only: a sniffed file that changed (or went) means a new walk; the other files'
        // stats are refreshed by the next caller that uses them.
        let entries = &kept.selection.entries;
        let fresh = file_stamps(entries, sniffed);
        let same = entries.iter().zip(&fresh).all(|(entry, stamp)| {
            entry.kind != EntryKind::File
                || !sniffed(entry)
                || stamp.is_some_and(|stamp| !replaced(entry, &stamp) && !edited(entry, &stamp))
        });
        return same.then(|| Arc::clone(&kept.selection));
    }
    let fresh = file_stamps(&kept.selection.entries, |_| true);
    let mut changed = false;
    for (entry, stamp) in kept.selection.entries.iter().zip(&fresh) {
        if entry.kind != EntryKind::File {
            continue;
        }
        let stamp = (*stamp)?;
        if replaced(entry, &stamp) {
            // replaced by another file: its folder changed too, but be sure
            return None;
        }
        let edited = edited(entry, &stamp);
        if edited && sniffed(entry) {
            // the walk sniffed it: the edit may have made it binary or text
            return None;
        }
        changed |= edited;
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

/// The stat of every file entry (`None` for other entries and for files gone). Files are stat-ed
/// by name in their folder, opened once per run of files that share it: a path lookup of one
/// component instead of the whole path (most of a warm call's time on the kernel's 78,000
/// files was the kernel walking the same folders' names again).
/// Another file now has the entry's path (where the entry knows its identity).
fn replaced(entry: &Entry, stamp: &Stamp) -> bool {
    entry
        .id
        .is_some_and(|id| id.inode != stamp.inode || id.device != stamp.device)
}

/// The file's size or times differ from the entry's.
fn edited(entry: &Entry, stamp: &Stamp) -> bool {
    entry.size != stamp.size
        || entry.modified_ns != stamp.modified_ns
        || entry.changed_ns != stamp.changed_ns
}

fn file_stamps(entries: &[Entry], wanted: impl Fn(&Entry) -> bool) -> Vec<Option<Stamp>> {
    let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        if entry.kind != EntryKind::File || !wanted(entry) {
            continue;
        }
        match runs.last_mut() {
            Some(run)
                if run.end == i
                    && entries[run.start].absolute.parent() == entry.absolute.parent() =>
            {
                run.end += 1
            }
            _ => runs.push(i..i + 1),
        }
    }
    let stamped: Vec<(usize, Vec<Option<Stamp>>)> = runs
        .into_par_iter()
        .map(|run| (run.start, stamps_in_folder(&entries[run])))
        .collect();
    let mut fresh = vec![None; entries.len()];
    for (start, stamps) in stamped {
        for (offset, stamp) in stamps.into_iter().enumerate() {
            fresh[start + offset] = stamp;
        }
    }
    fresh
}

/// The stats of `files`, which share one folder.
#[cfg(unix)]
fn stamps_in_folder(files: &[Entry]) -> Vec<Option<Stamp>> {
    use rustix::fs::{AtFlags, Mode, OFlags};
    #[cfg(target_os = "linux")]
    let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    #[cfg(not(target_os = "linux"))]
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let folder = files[0]
        .absolute
        .parent()
        .map(|dir| rustix::fs::open(dir, flags, Mode::empty()));
    let Some(Ok(folder)) = folder else {
        return files.iter().map(|f| stamp(&f.absolute)).collect();
    };
    files
        .iter()
        .map(|file| {
            let name = file.absolute.file_name()?;
            let st = rustix::fs::statat(&folder, name, AtFlags::SYMLINK_NOFOLLOW).ok()?;
            Some(Stamp {
                device: st.st_dev as u64,
                inode: st.st_ino as u64,
                size: st.st_size as u64,
                modified_ns: st.st_mtime as i64 * 1_000_000_000 + st.st_mtime_nsec as i64,
                changed_ns: st.st_ctime as i64 * 1_000_000_000 + st.st_ctime_nsec as i64,
            })
        })
        .collect()
}

#[cfg(not(unix))]
fn stamps_in_folder(files: &[Entry]) -> Vec<Option<Stamp>> {
    files.iter().map(|f| stamp(&f.absolute)).collect()
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn settle() {
        std::thread::sleep(Duration::from_nanos(RACY_WINDOW_NS as u64 + 300_000_000));
    }

    /// A settled walk is answered from the cache (the same `Arc`); a fresh change is walked
    /// again, and a walk of paths that just changed is not kept at all.
    #[test]
    fn a_settled_walk_is_reused_until_something_it_depends_on_changes() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("a/b")).unwrap();
        std::fs::write(dir.path().join("a/b/one.rs"), "fn one() {}\n").unwrap();
        std::fs::write(dir.path().join("data.unknown"), "text\n").unwrap();
        let root = ProjectRoot::open(dir.path()).unwrap();
        let cache = SelectionCache::default();
        let spec = SelectionSpec {
            sniff_binary: true,
            ..SelectionSpec::default()
        };
        let racy = cache.select(&root, &spec, true).unwrap();
        assert!(
            !Arc::ptr_eq(&racy, &cache.select(&root, &spec, true).unwrap()),
            "paths changed within the racy window are walked again"
        );
        settle();
        let first = cache.select(&root, &spec, true).unwrap();
        let second = cache.select(&root, &spec, true).unwrap();
        assert!(Arc::ptr_eq(&first, &second), "a settled walk is reused");
        let other_spec = SelectionSpec::default();
        let unsniffed = cache.select(&root, &other_spec, true).unwrap();
        assert!(!unsniffed.files().any(|f| f.binary));
        assert!(
            Arc::ptr_eq(&first, &cache.select(&root, &spec, true).unwrap()),
            "another spec is kept beside, not instead"
        );

        // A known-text file edited: the same listing with its fresh stat.
        std::fs::write(dir.path().join("a/b/one.rs"), "fn one() { two() }\n").unwrap();
        let edited = cache.select(&root, &spec, true).unwrap();
        assert!(!Arc::ptr_eq(&first, &edited));
        let one = edited.files().find(|f| f.relative == "a/b/one.rs").unwrap();
        assert_eq!(one.size, 19);
        // A sniffed file edited into binary: walked again, so the flag follows.
        // (NULs as both bytes of a code unit: not UTF-16 text either)
        std::fs::write(dir.path().join("data.unknown"), "\0\0\0\0\n").unwrap();
        let sniffed = cache.select(&root, &spec, true).unwrap();
        let data = sniffed
            .files()
            .find(|f| f.relative == "data.unknown")
            .unwrap();
        assert!(data.binary);
        // A new file two folders down.
        std::fs::write(dir.path().join("a/b/two.rs"), "fn two() {}\n").unwrap();
        let added = cache.select(&root, &spec, true).unwrap();
        assert!(added.files().any(|f| f.relative == "a/b/two.rs"));
    }

    /// A names-only caller (a text tree) does not stat files the walk did not sniff: it gets the
    /// kept walk while only their contents changed, and the next caller that uses file stats
    /// sees the edit. A sniffed file's edit, or a new name, still means a new walk.
    #[test]
    fn a_names_only_caller_sees_every_name_and_leaves_file_stats_to_the_next_caller() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/one.rs"), "fn one() {}\n").unwrap();
        std::fs::write(dir.path().join("data.unknown"), "text\n").unwrap();
        let root = ProjectRoot::open(dir.path()).unwrap();
        let cache = SelectionCache::default();
        let spec = SelectionSpec {
            sniff_binary: true,
            ..SelectionSpec::default()
        };
        settle();
        let first = cache.select(&root, &spec, true).unwrap();
        assert!(Arc::ptr_eq(
            &first,
            &cache.select(&root, &spec, false).unwrap()
        ));

        std::fs::write(dir.path().join("src/one.rs"), "fn one() { two() }\n").unwrap();
        let names = cache.select(&root, &spec, false).unwrap();
        assert!(
            Arc::ptr_eq(&first, &names),
            "a known-text edit changes no name"
        );
        let stats = cache.select(&root, &spec, true).unwrap();
        let one = stats.files().find(|f| f.relative == "src/one.rs").unwrap();
        assert_eq!(
            one.size, 19,
            "the next caller that uses stats sees the edit"
        );

        // (NULs as both bytes of a code unit: not UTF-16 text either)
        std::fs::write(dir.path().join("data.unknown"), "\0\0\0\0\n").unwrap();
        let names = cache.select(&root, &spec, false).unwrap();
        let data = names
            .files()
            .find(|f| f.relative == "data.unknown")
            .unwrap();
        assert!(data.binary, "a sniffed file's edit is walked again");

        std::fs::write(dir.path().join("src/two.rs"), "fn two() {}\n").unwrap();
        let names = cache.select(&root, &spec, false).unwrap();
        assert!(names.files().any(|f| f.relative == "src/two.rs"));
    }

    #[test]
    fn selections_that_depend_on_what_no_folder_stat_shows_are_never_kept() {
        let base = SelectionSpec::default();
        assert!(keepable(&base));
        let sized = SelectionSpec {
            max_file_bytes: Some(10),
            ..base.clone()
        };
        let mut empty = base.clone();
        empty.exclusions.empty_files = true;
        let linked = SelectionSpec {
            follow_symlinks: true,
            ..base.clone()
        };
        let tracked = SelectionSpec {
            allow_lists: vec![Arc::new(Default::default())],
            ..base.clone()
        };
        for spec in [sized, empty, linked, tracked] {
            assert!(!keepable(&spec), "{spec:?}");
        }
    }
}
