//! Selection: which files of a project are in play.
//!
//! Layers, in order (each can only remove what earlier layers kept):
//! 1. product exclusions ([`rules`]): VCS folders, smart-ignored build/dependency output,
//!    OS litter, symlinks that leave the root;
//! 2. the Git baseline (`none`, `gitignore`, or `tracked`) and an optional Git scope, given to
//!    this module as allow-lists of relative paths;
//! 3. the profile (folders, extensions, paths, exclusion switches, its own globs);
//! 4. request `paths`, include globs, exclude globs;
//! 5. `max_file_bytes` (files strictly larger are removed).
//!
//! Order of the result: depth-first; at each level folders before files; names compared by
//! their UTF-8 bytes. It is the same on every OS and independent of thread timing.

pub mod effective;
pub mod globs;
pub mod rules;

use std::cmp::Ordering;
use std::collections::{BTreeSet, HashSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering as AtomicOrdering};
use std::sync::{Arc, Mutex};

use ignore::{WalkBuilder, WalkState};
use serde::Serialize;

use crate::error::Result;
use crate::project::ProjectRoot;
use globs::PatternSet;

/// How Git ignore rules shape the baseline.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GitMode {
    /// No Git rules at all.
    None,
    /// Honour `.gitignore` (nested), `.git/info/exclude` and the global excludes file.
    #[default]
    Gitignore,
    /// Only files in the Git index (implies the gitignore rules for untracked files).
    Tracked,
}

impl GitMode {
    /// Parse a user token; `off` is an alias of `none`.
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "none" | "off" => Some(Self::None),
            "gitignore" => Some(Self::Gitignore),
            "tracked" => Some(Self::Tracked),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Gitignore => "gitignore",
            Self::Tracked => "tracked",
        }
    }
}

/// Optional exclusion switches (off by default; profiles and flags turn them on).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Exclusions {
    pub hidden_folders: bool,
    pub hidden_files: bool,
    pub dot_folders: bool,
    pub dot_files: bool,
    pub empty_folders: bool,
    pub empty_files: bool,
    pub extensionless_files: bool,
}

/// Everything the walker and filters need; built by the engine from profile + request.
#[derive(Debug, Clone, Default)]
pub struct SelectionSpec {
    pub git_mode: GitMode,
    pub exclusions: Exclusions,
    /// Each inner list is a union of relative paths (files or folders); every list must match.
    pub path_filters: Vec<Vec<String>>,
    /// Allowed extensions (lowercase, without dot); empty = all.
    pub extensions: Vec<String>,
    /// Every include set must match (when non-empty).
    pub include: Vec<PatternSet>,
    /// No exclude set may match.
    pub exclude: Vec<PatternSet>,
    /// Each set, when present, is an allow-list of relative file paths (Git index, Git scope).
    pub allow_lists: Vec<Arc<BTreeSet<String>>>,
    pub max_file_bytes: Option<u64>,
}

impl SelectionSpec {
    fn narrows(&self) -> bool {
        !self.path_filters.is_empty()
            || !self.extensions.is_empty()
            || !self.include.is_empty()
            || !self.allow_lists.is_empty()
            || self.max_file_bytes.is_some()
    }
}

/// The kind of a selected entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EntryKind {
    Dir,
    File,
}

/// One selected file or folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Project-relative path with `/`. Names that are not valid UTF-8 are shown with U+FFFD.
    pub relative: String,
    /// The path to open (inside the root; may pass through in-root symlinks).
    pub absolute: PathBuf,
    pub kind: EntryKind,
    /// Size in bytes (0 for folders).
    pub size: u64,
    /// True when the first 8 KiB contain a NUL byte: listed, never shown as content.
    pub binary: bool,
}

impl Entry {
    pub fn depth(&self) -> usize {
        self.relative.matches('/').count()
    }

    pub fn name(&self) -> &str {
        self.relative.rsplit('/').next().unwrap_or(&self.relative)
    }

    pub fn extension(&self) -> Option<&str> {
        let name = self.name();
        let dot = name.rfind('.')?;
        (dot > 0 && dot + 1 < name.len()).then(|| &name[dot + 1..])
    }
}

/// Counts of things the walk skipped that a user may want to know about.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SelectionWarnings {
    /// Folders or files that could not be read (e.g. permission denied).
    pub unreadable: usize,
    /// Symbolic-link loops that were not followed.
    pub symlink_loops: usize,
    /// Symbolic links whose target lies outside the root (never followed).
    pub outside_root_links: usize,
    /// Paths a Git scope names that no longer exist in the working tree.
    pub deleted: usize,
}

impl SelectionWarnings {
    /// Trusted warning lines: stable codes and counts only, never paths.
    pub fn messages(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if self.unreadable > 0 {
            lines.push(format!("DPX-SELECT-UNREADABLE: {} entries could not be read (permission denied or I/O error) and were skipped.", self.unreadable));
        }
        if self.symlink_loops > 0 {
            lines.push(format!(
                "DPX-SELECT-SYMLINK-LOOP: {} symbolic-link loops were not followed.",
                self.symlink_loops
            ));
        }
        if self.outside_root_links > 0 {
            lines.push(format!("DPX-SELECT-OUTSIDE-ROOT: {} symbolic links point outside the project root and were not followed.", self.outside_root_links));
        }
        if self.deleted > 0 {
            lines.push(format!("{}: {} deleted paths in the Git scope were omitted; content always comes from the working tree.", crate::error::codes::GIT_STATE_DELETED, self.deleted));
        }
        lines
    }
}

/// The effective selection: folders and files in deterministic order.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    pub entries: Vec<Entry>,
    pub warnings: SelectionWarnings,
}

impl Selection {
    pub fn files(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| e.kind == EntryKind::File)
    }

    pub fn file_count(&self) -> usize {
        self.files().count()
    }
}

/// Walk `root` and apply every layer of `spec`.
pub fn select(root: &ProjectRoot, spec: &SelectionSpec) -> Result<Selection> {
    let walked = walk(root, spec)?;
    let warnings = walked.warnings;
    // the walk kept only the files `keep_file` accepts
    let mut files: Vec<Entry> = walked.entries;
    let mut dirs = walked.dirs;

    // Folders: ancestors of selected files, plus empty folders when nothing narrows the selection.
    let mut keep: HashSet<String> = HashSet::new();
    for file in &files {
        insert_ancestors(&file.relative, &mut keep);
    }
    if !spec.exclusions.empty_folders && !spec.narrows() {
        for dir in &dirs {
            if !spec
                .exclude
                .iter()
                .any(|set| set.matches_path_or_ancestor(&dir.relative))
            {
                keep.insert(dir.relative.clone());
                insert_ancestors(&dir.relative, &mut keep);
            }
        }
    }
    dirs.retain(|dir| keep.contains(&dir.relative));
    files.append(&mut dirs);
    files.sort_by(compare_entries);
    files.dedup_by(|a, b| a.absolute == b.absolute);
    Ok(Selection {
        entries: files,
        warnings,
    })
}

fn insert_ancestors(relative: &str, set: &mut HashSet<String>) {
    let mut rel = relative;
    while let Some(slash) = rel.rfind('/') {
        rel = &rel[..slash];
        if !set.insert(rel.to_string()) {
            break;
        }
    }
}

fn keep_file(entry: &Entry, spec: &SelectionSpec) -> bool {
    let rel = entry.relative.as_str();
    let ex = &spec.exclusions;
    let name = entry.name();
    if (ex.dot_files || ex.hidden_files && cfg!(not(windows))) && name.starts_with('.') {
        return false;
    }
    if ex.empty_files && entry.size == 0 {
        return false;
    }
    if ex.extensionless_files && entry.extension().is_none() {
        return false;
    }
    if !spec.allow_lists.iter().all(|set| set.contains(rel)) {
        return false;
    }
    if !spec.path_filters.iter().all(|union| {
        union.iter().any(|p| {
            p.is_empty()
                || rel == p
                || (rel.starts_with(p.as_str()) && rel.as_bytes()[p.len()] == b'/')
        })
    }) {
        return false;
    }
    if !spec.extensions.is_empty() {
        match entry.extension() {
            Some(ext)
                if spec
                    .extensions
                    .iter()
                    .any(|allowed| allowed.eq_ignore_ascii_case(ext)) => {}
            _ => return false,
        }
    }
    if !spec
        .include
        .iter()
        .all(|set| set.matches_path_or_ancestor(rel))
    {
        return false;
    }
    if spec
        .exclude
        .iter()
        .any(|set| set.matches_path_or_ancestor(rel))
    {
        return false;
    }
    if let Some(limit) = spec.max_file_bytes
        && entry.size > limit
    {
        return false;
    }
    true
}

/// The deterministic order: depth-first, folders before files at each level, byte order of names.
pub fn compare_entries(a: &Entry, b: &Entry) -> Ordering {
    let mut left = a.relative.split('/').peekable();
    let mut right = b.relative.split('/').peekable();
    loop {
        match (left.next(), right.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(l), Some(r)) => {
                let l_is_dir = left.peek().is_some() || a.kind == EntryKind::Dir;
                let r_is_dir = right.peek().is_some() || b.kind == EntryKind::Dir;
                let by_kind = r_is_dir.cmp(&l_is_dir);
                if by_kind != Ordering::Equal {
                    return by_kind;
                }
                let by_name = l.as_bytes().cmp(r.as_bytes());
                if by_name != Ordering::Equal {
                    return by_name;
                }
            }
        }
    }
}

struct Walked {
    entries: Vec<Entry>,
    dirs: Vec<Entry>,
    warnings: SelectionWarnings,
}

#[derive(Default)]
struct Counters {
    unreadable: AtomicUsize,
    loops: AtomicUsize,
    outside: AtomicUsize,
}

fn walk(root: &ProjectRoot, spec: &SelectionSpec) -> Result<Walked> {
    let root_path = Arc::new(root.path.clone());
    let counters = Arc::new(Counters::default());
    let exclusions = spec.exclusions;
    let git_mode = spec.git_mode;
    let git_rules = git_mode != GitMode::None;

    let mut builder = WalkBuilder::new(&root.path);
    builder
        .follow_links(true)
        .hidden(false)
        .ignore(false)
        .parents(git_rules)
        .git_ignore(git_rules)
        .git_global(git_rules)
        .git_exclude(git_rules)
        // Honour .gitignore also in projects that are not (yet) Git repositories.
        .require_git(false)
        .threads(
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2)
                .min(8),
        );
    {
        let root_path = Arc::clone(&root_path);
        let counters = Arc::clone(&counters);
        builder.filter_entry(move |entry| {
            if entry.depth() == 0 {
                return true;
            }
            let name = entry.file_name().to_string_lossy();
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            if entry.path_is_symlink() {
                match crate::project::dunce_canonicalize(entry.path()) {
                    Ok(target) if target.starts_with(root_path.as_path()) => {
                        // A link inside the root must not open a door into an excluded folder
                        // (`.git`, `node_modules`, ignored output): judge the target's own path.
                        let target_relative = relative_string(
                            target.strip_prefix(root_path.as_path()).unwrap_or(&target),
                        );
                        let probe = if is_dir {
                            format!("{target_relative}/_")
                        } else {
                            target_relative
                        };
                        if effective::check_path(&root_path, &probe, git_mode).is_some() {
                            return false;
                        }
                    }
                    Ok(_) => {
                        counters.outside.fetch_add(1, AtomicOrdering::Relaxed);
                        return false;
                    }
                    // Dangling link or a loop: nothing to read. A dangling link that points out of
                    // the root counts as outside, whether or not its target exists.
                    Err(_) => {
                        let leaves_root = std::fs::read_link(entry.path()).is_ok_and(|target| {
                            let base = entry.path().parent().unwrap_or(root_path.as_path());
                            !crate::project::normalize_lexically(&base.join(target))
                                .starts_with(root_path.as_path())
                        });
                        if leaves_root {
                            counters.outside.fetch_add(1, AtomicOrdering::Relaxed);
                        }
                        return false;
                    }
                }
            }
            if is_dir {
                if rules::VCS_DIRS.contains(&name.as_ref()) {
                    return false;
                }
                if (exclusions.dot_folders || exclusions.hidden_folders && cfg!(not(windows)))
                    && name.starts_with('.')
                {
                    return false;
                }
                if exclusions.hidden_folders && is_hidden_by_attribute(entry.path()) {
                    return false;
                }
                if let Some(parent) = entry.path().parent()
                    && rules::is_smart_ignored_dir(&name, parent, &root_path)
                {
                    return false;
                }
            } else {
                if rules::OS_LITTER_FILES.contains(&name.as_ref()) {
                    return false;
                }
                if exclusions.hidden_files && is_hidden_by_attribute(entry.path()) {
                    return false;
                }
            }
            true
        });
    }

    let shared: Arc<Mutex<(Vec<Entry>, Vec<Entry>)>> =
        Arc::new(Mutex::new((Vec::new(), Vec::new())));
    builder.build_parallel().run(|| {
        let mut collector = Collector {
            files: Vec::new(),
            dirs: Vec::new(),
            shared: Arc::clone(&shared),
        };
        let root_path = Arc::clone(&root_path);
        let counters = Arc::clone(&counters);
        Box::new(move |result| {
            match result {
                Ok(entry) => {
                    if entry.depth() == 0 {
                        return WalkState::Continue;
                    }
                    let Ok(relative_path) = entry.path().strip_prefix(root_path.as_path()) else {
                        return WalkState::Continue;
                    };
                    let relative = relative_string(relative_path);
                    let Some(file_type) = entry.file_type() else {
                        return WalkState::Continue;
                    };
                    if file_type.is_dir() {
                        collector.dirs.push(Entry {
                            relative,
                            absolute: entry.path().to_path_buf(),
                            kind: EntryKind::Dir,
                            size: 0,
                            binary: false,
                        });
                    } else if file_type.is_file() {
                        let (size, modified) = match entry.metadata() {
                            Ok(meta) => (meta.len(), meta.modified().ok()),
                            Err(_) => {
                                counters.unreadable.fetch_add(1, AtomicOrdering::Relaxed);
                                return WalkState::Continue;
                            }
                        };
                        let mut file = Entry {
                            relative,
                            absolute: entry.path().to_path_buf(),
                            kind: EntryKind::File,
                            size,
                            binary: false,
                        };
                        // a file the filters drop is not opened to sniff it
                        if !keep_file(&file, spec) {
                            return WalkState::Continue;
                        }
                        file.binary = size > 0 && sniff_binary_cached(entry.path(), size, modified);
                        collector.files.push(file);
                    }
                    // Sockets, FIFOs and devices are never listed or read.
                }
                Err(err) => {
                    if is_loop(&err) {
                        counters.loops.fetch_add(1, AtomicOrdering::Relaxed);
                    } else {
                        counters.unreadable.fetch_add(1, AtomicOrdering::Relaxed);
                    }
                }
            }
            WalkState::Continue
        })
    });

    let (entries, dirs) = std::mem::take(&mut *shared.lock().expect("walk collector poisoned"));
    Ok(Walked {
        entries,
        dirs,
        warnings: SelectionWarnings {
            unreadable: counters.unreadable.load(AtomicOrdering::Relaxed),
            symlink_loops: counters.loops.load(AtomicOrdering::Relaxed),
            outside_root_links: counters.outside.load(AtomicOrdering::Relaxed),
            deleted: 0,
        },
    })
}

/// Per-thread buffers, merged once when the walker drops its visitor.
struct Collector {
    files: Vec<Entry>,
    dirs: Vec<Entry>,
    shared: Arc<Mutex<(Vec<Entry>, Vec<Entry>)>>,
}

impl Drop for Collector {
    fn drop(&mut self) {
        if let Ok(mut guard) = self.shared.lock() {
            guard.0.append(&mut self.files);
            guard.1.append(&mut self.dirs);
        }
    }
}

fn is_loop(err: &ignore::Error) -> bool {
    match err {
        ignore::Error::Loop { .. } => true,
        ignore::Error::WithPath { err, .. }
        | ignore::Error::WithDepth { err, .. }
        | ignore::Error::WithLineNumber { err, .. } => is_loop(err),
        ignore::Error::Partial(errs) => errs.iter().any(is_loop),
        _ => false,
    }
}

/// Relative path with `/`; non-UTF-8 bytes become U+FFFD.
pub fn relative_string(path: &Path) -> String {
    let mut out = String::new();
    for (i, component) in path.components().enumerate() {
        if i > 0 {
            out.push('/');
        }
        out.push_str(&component.as_os_str().to_string_lossy());
    }
    out
}

/// Sniff results of a long-lived process (the MCP server), keyed by path and validated by size
/// and modification time, so a repeated walk of a large tree does not reopen every file.
type SniffCache = Mutex<std::collections::HashMap<PathBuf, (u64, std::time::SystemTime, bool)>>;
static SNIFF_CACHE: std::sync::OnceLock<SniffCache> = std::sync::OnceLock::new();

/// Turn on the sniff cache (the MCP server does; one-shot CLI runs gain nothing from it).
pub fn enable_sniff_cache() {
    SNIFF_CACHE.get_or_init(|| Mutex::new(std::collections::HashMap::new()));
}

fn sniff_binary_cached(path: &Path, size: u64, modified: Option<std::time::SystemTime>) -> bool {
    let (Some(cache), Some(modified)) = (SNIFF_CACHE.get(), modified) else {
        return sniff_binary(path);
    };
    let cached = cache.lock().ok().and_then(|c| c.get(path).copied());
    if let Some((cached_size, cached_modified, binary)) = cached
        && cached_size == size
        && cached_modified == modified
    {
        return binary;
    }
    let binary = sniff_binary(path);
    if let Ok(mut cache) = cache.lock() {
        cache.insert(path.to_path_buf(), (size, modified, binary));
    }
    binary
}

/// Binary sniffing, by content only (a name proves nothing: a `notes.o` may be text, a `.txt`
/// may hold NUL bytes): a NUL byte in the first 8 KiB.
pub fn sniff_binary(path: &Path) -> bool {
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let mut buffer = [0u8; 8192];
    let mut filled = 0;
    let mut handle = file.take(buffer.len() as u64);
    while filled < buffer.len() {
        match handle.read(&mut buffer[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(_) => break,
        }
    }
    memchr::memchr(0, &buffer[..filled]).is_some()
}

#[cfg(windows)]
fn is_hidden_by_attribute(path: &Path) -> bool {
    use std::os::windows::fs::MetadataExt;
    const FILE_ATTRIBUTE_HIDDEN: u32 = 0x2;
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_attributes() & FILE_ATTRIBUTE_HIDDEN != 0)
}

#[cfg(not(windows))]
fn is_hidden_by_attribute(_path: &Path) -> bool {
    // On Unix-like systems "hidden" means a leading dot, handled by name.
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(relative: &str, kind: EntryKind) -> Entry {
        Entry {
            relative: relative.into(),
            absolute: PathBuf::new(),
            kind,
            size: 0,
            binary: false,
        }
    }

    #[test]
    fn order_is_folders_first_then_bytes() {
        let mut entries = [
            entry("b.txt", EntryKind::File),
            entry("a", EntryKind::Dir),
            entry("a/z.rs", EntryKind::File),
            entry("a/b", EntryKind::Dir),
            entry("a/b/c.rs", EntryKind::File),
            entry("B.txt", EntryKind::File),
            entry("z", EntryKind::Dir),
        ];
        entries.sort_by(compare_entries);
        let order: Vec<&str> = entries.iter().map(|e| e.relative.as_str()).collect();
        assert_eq!(
            order,
            ["a", "a/b", "a/b/c.rs", "a/z.rs", "z", "B.txt", "b.txt"]
        );
    }

    #[test]
    fn git_mode_tokens() {
        assert_eq!(GitMode::parse("off"), Some(GitMode::None));
        assert_eq!(GitMode::parse("tracked"), Some(GitMode::Tracked));
        assert_eq!(GitMode::parse("staged"), None);
    }
}
