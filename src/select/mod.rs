//! Selection: which files of a project are in play.
//!
//! Layers, in order (each can only remove what earlier layers kept):
//! 1. product exclusions ([`rules`]): VCS folders, smart-ignored build/dependency output,
//!    OS litter, special files (FIFOs, sockets, devices); symlinks are listed as links;
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
pub mod walk;

use std::cmp::Ordering;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::Serialize;

use crate::error::Result;
use crate::project::ProjectRoot;
use crate::project::jail::FileId;
use globs::PatternSet;
pub use walk::{ExclusionKind, IgnoreRuleHit};

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
    /// Follow in-root symbolic links (a profile option; off like Git and ripgrep).
    pub follow_symlinks: bool,
    /// Sniff files with unknown extensions for NUL bytes while walking (trees show `binary`).
    pub sniff_binary: bool,
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
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EntryKind {
    Dir,
    #[default]
    File,
    /// A symbolic link, listed as itself (like Git stores it): never descended, never read as
    /// content unless the profile turns following on.
    Symlink,
}

/// One selected file, folder or link.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Entry {
    /// Project-relative path with `/`. Names that are not valid UTF-8 are shown with U+FFFD.
    pub relative: String,
    /// The configured root joined with `raw` (for messages and platform code; content is
    /// opened through the root's handle, never through this path).
    pub absolute: PathBuf,
    /// The project-relative path with the names' real bytes: what the loader opens.
    pub raw: PathBuf,
    pub kind: EntryKind,
    /// Size in bytes (0 for folders and links).
    pub size: u64,
    /// True when the first 8 KiB contain a NUL byte: listed, never shown as content. Files with
    /// a known text extension are not sniffed by the walk; the loader finds their NUL bytes.
    pub binary: bool,
    /// Device and inode as the walk saw them: the loader refuses a file replaced since.
    pub id: Option<FileId>,
    pub modified_ns: i64,
    pub changed_ns: i64,
    /// A link's target as stored.
    pub target: Option<String>,
    /// The real path to open when the entry was reached through a followed link.
    pub open_as: Option<PathBuf>,
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

    /// The project-relative path the content is read from (real bytes).
    pub fn content_path(&self) -> &Path {
        self.open_as.as_deref().unwrap_or(&self.raw)
    }
}

/// Candidates the rules removed, per kind of rule (folders count once, not their content).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExclusionCounts {
    pub gitignore: usize,
    pub built_in: usize,
    pub smart_ignore: usize,
    /// Profile switches (dot and hidden names, empty files, extensions).
    pub profile: usize,
    pub globs: usize,
    pub paths: usize,
    /// Git allow-lists: `tracked_only`, tracked mode, `git_scope`.
    pub git_scope: usize,
    pub size: usize,
    /// The first `.gitignore` rule that removed a top-level entry.
    pub first_gitignore_rule: Option<walk::IgnoreRuleHit>,
}

impl ExclusionCounts {
    pub fn total(&self) -> usize {
        self.gitignore
            + self.built_in
            + self.smart_ignore
            + self.profile
            + self.globs
            + self.paths
            + self.git_scope
            + self.size
    }
}

/// Counts of things the walk skipped that a user may want to know about.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SelectionWarnings {
    /// Folders or files that could not be read (e.g. permission denied).
    pub unreadable: usize,
    /// Symbolic-link loops that were not followed (only when following links).
    pub symlink_loops: usize,
    /// Symbolic links whose target lies outside the root (only counted when following links).
    pub outside_root_links: usize,
    /// Paths a Git scope names that no longer exist in the working tree.
    pub deleted: usize,
    /// FIFOs, sockets and devices: never listed or read.
    pub special_files: usize,
    /// Files whose content is not on this machine (cloud placeholders): never read.
    pub not_local: usize,
    /// Entries that changed between listing and use (e.g. a folder replaced by a link).
    pub changed_during_walk: usize,
    /// What the rules removed (explains an empty selection).
    pub excluded: ExclusionCounts,
}

impl SelectionWarnings {
    /// Trusted warning lines: stable codes and counts only, never paths.
    pub fn messages(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if self.unreadable > 0 {
            lines.push(format!(
                "DPX-SELECT-UNREADABLE: {} could not be read (permission denied or I/O error) and {} skipped.",
                plural(self.unreadable, "entry", "entries"),
                if self.unreadable == 1 { "was" } else { "were" }
            ));
        }
        if self.symlink_loops > 0 {
            lines.push(format!(
                "DPX-SELECT-SYMLINK-LOOP: {} not followed.",
                plural(
                    self.symlink_loops,
                    "symbolic-link loop was",
                    "symbolic-link loops were"
                )
            ));
        }
        if self.outside_root_links > 0 {
            lines.push(format!(
                "DPX-SELECT-OUTSIDE-ROOT: {} outside the project root and {} not followed.",
                plural(
                    self.outside_root_links,
                    "symbolic link points",
                    "symbolic links point"
                ),
                if self.outside_root_links == 1 {
                    "was"
                } else {
                    "were"
                }
            ));
        }
        if self.not_local > 0 {
            lines.push(format!(
                "DPX-SELECT-NOT-LOCAL: {} not on this machine (cloud placeholders) and {} not read, so nothing was downloaded.",
                plural(self.not_local, "file is", "files are"),
                if self.not_local == 1 { "was" } else { "were" }
            ));
        }
        if self.deleted > 0 {
            lines.push(format!(
                "{}: {} in the Git scope {} omitted; content always comes from the working tree.",
                crate::error::codes::GIT_STATE_DELETED,
                plural(self.deleted, "deleted path", "deleted paths"),
                if self.deleted == 1 { "was" } else { "were" }
            ));
        }
        lines
    }
}

/// `1 file`, `2 files`.
pub fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// The effective selection: folders and files in deterministic order.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    pub entries: Vec<Entry>,
    pub warnings: SelectionWarnings,
}

impl Selection {
    /// Regular files: the entries that have content.
    pub fn files(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| e.kind == EntryKind::File)
    }

    pub fn file_count(&self) -> usize {
        self.files().count()
    }
}

/// Walk `root` and apply every layer of `spec`.
pub fn select(root: &ProjectRoot, spec: &SelectionSpec) -> Result<Selection> {
    select_with_folders(root, spec).map(|(selection, _)| selection)
}

/// [`select`], and every folder the walk listed (whether or not it holds a selected file): a
/// caller that keeps a selection across requests (`related_files`' index) stats them again to
/// see that no listing changed.
pub fn select_with_folders(
    root: &ProjectRoot,
    spec: &SelectionSpec,
) -> Result<(Selection, Vec<Entry>)> {
    let walked = walk::walk(root, spec);
    let listed = walked.dirs.clone();
    let warnings = walked.warnings;
    let mut files: Vec<Entry> = walked.files;
    let mut dirs = walked.dirs;

    // Folders: ancestors of selected files, plus empty folders when nothing narrows the selection.
    let mut keep: HashSet<String> = HashSet::new();
    for file in &files {
        insert_ancestors(&file.relative, &mut keep);
    }
    if !spec.exclusions.empty_folders && !spec.narrows() {
        for dir in &dirs {
            keep.insert(dir.relative.clone());
            insert_ancestors(&dir.relative, &mut keep);
        }
    }
    dirs.retain(|dir| keep.contains(&dir.relative));
    files.append(&mut dirs);
    files.sort_by(compare_entries);
    if spec.follow_symlinks {
        // A file reached through several links is counted once: where it first appears.
        let mut seen: HashSet<FileId> = HashSet::new();
        files.retain(|e| e.kind != EntryKind::File || e.id.is_none_or(|id| seen.insert(id)));
    }
    Ok((
        Selection {
            entries: files,
            warnings,
        },
        listed,
    ))
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

/// The request's and profile's filters for one file or link (the walk applied the product and
/// Git rules already).
fn keep_file(entry: &Entry, spec: &SelectionSpec) -> std::result::Result<(), ExclusionKind> {
    let rel = entry.relative.as_str();
    let ex = &spec.exclusions;
    let name = entry.name();
    if (ex.dot_files || ex.hidden_files && cfg!(not(windows))) && name.starts_with('.') {
        return Err(ExclusionKind::Profile);
    }
    if ex.empty_files && entry.kind == EntryKind::File && entry.size == 0 {
        return Err(ExclusionKind::Profile);
    }
    if ex.extensionless_files && entry.extension().is_none() {
        return Err(ExclusionKind::Profile);
    }
    if !spec.allow_lists.iter().all(|set| set.contains(rel)) {
        return Err(ExclusionKind::GitScope);
    }
    if !spec.path_filters.iter().all(|union| {
        union.iter().any(|p| {
            p.is_empty()
                || rel == p
                || (rel.starts_with(p.as_str()) && rel.as_bytes()[p.len()] == b'/')
        })
    }) {
        return Err(ExclusionKind::Paths);
    }
    if !spec.extensions.is_empty() {
        match entry.extension() {
            Some(ext)
                if spec
                    .extensions
                    .iter()
                    .any(|allowed| allowed.eq_ignore_ascii_case(ext)) => {}
            _ => return Err(ExclusionKind::Profile),
        }
    }
    if !spec
        .include
        .iter()
        .all(|set| set.matches_path_or_ancestor(rel))
    {
        return Err(ExclusionKind::Globs);
    }
    if spec
        .exclude
        .iter()
        .any(|set| set.matches_path_or_ancestor(rel))
    {
        return Err(ExclusionKind::Globs);
    }
    if let Some(limit) = spec.max_file_bytes
        && entry.size > limit
    {
        return Err(ExclusionKind::Size);
    }
    Ok(())
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

/// The cache key of a sniff: what Git's index uses to notice an edit (size, mtime, ctime and
/// inode), so an edit that keeps the size and the mtime is still seen through the ctime.
type SniffKey = (u64, i64, i64, Option<FileId>);
type SniffCache = Mutex<HashMap<PathBuf, (SniffKey, bool)>>;
static SNIFF_CACHE: std::sync::OnceLock<SniffCache> = std::sync::OnceLock::new();

/// Turn on the sniff cache (the MCP server does; one-shot CLI runs gain nothing from it).
pub fn enable_sniff_cache() {
    SNIFF_CACHE.get_or_init(|| Mutex::new(HashMap::new()));
}

fn sniff_cached(entry: &Entry, sniff: impl FnOnce() -> bool) -> bool {
    let Some(cache) = SNIFF_CACHE.get() else {
        return sniff();
    };
    let key: SniffKey = (entry.size, entry.modified_ns, entry.changed_ns, entry.id);
    let cached = cache
        .lock()
        .ok()
        .and_then(|c| c.get(&entry.absolute).copied());
    if let Some((cached_key, binary)) = cached
        && cached_key == key
    {
        return binary;
    }
    let binary = sniff();
    if let Ok(mut cache) = cache.lock() {
        cache.insert(entry.absolute.clone(), (key, binary));
    }
    binary
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(relative: &str, kind: EntryKind) -> Entry {
        Entry {
            relative: relative.into(),
            kind,
            ..Entry::default()
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
