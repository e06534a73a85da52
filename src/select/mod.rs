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

pub mod cache;
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
use crate::project::jail::FileId;
use crate::project::{NameRules, ProjectRoot};
use globs::PatternSet;
pub use walk::{ExclusionKind, IgnoreRuleHit, git_names};

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
    /// Only the names, kinds and `binary` flags of files are needed (a one-off text tree): where
    /// the listing gives a file's kind and no size rule applies, the walk skips its stat, so
    /// such entries have no size, identity or times (`size` 0, `id` None). Never for a walk
    /// that is kept (its files' stats are how edits are seen) or whose files are then read.
    pub names_only: bool,
    /// How `path_filters` and `allow_lists` compare with listed names: as Git compares them
    /// (ignoring case with `core.ignorecase`, NFC on macOS). [`select`] turns both into keys.
    pub names: NameRules,
}

impl SelectionSpec {
    /// The spec with `path_filters` and `allow_lists` as comparison keys of `names`, which
    /// [`keep_file`] and the walk's prunes compare with the key of each listed path.
    fn with_keys(&self) -> Self {
        let names = self.names;
        let mut keyed = self.clone();
        keyed.path_filters = self
            .path_filters
            .iter()
            .map(|union| union.iter().map(|p| names.key(p).into_owned()).collect())
            .collect();
        keyed.allow_lists = self
            .allow_lists
            .iter()
            .map(|set| Arc::new(set.iter().map(|p| names.key(p).into_owned()).collect()))
            .collect();
        keyed
    }

    /// The comparison key of a listed path.
    pub(crate) fn key<'a>(&self, relative: &'a str) -> std::borrow::Cow<'a, str> {
        self.names.key(relative)
    }

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
        self.relative.bytes().filter(|&b| b == b'/').count()
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
    /// The `.gitignore` rule that removed every top-level entry it removed, when one did.
    pub sole_top_level_rule: Option<walk::IgnoreRuleHit>,
    /// Set when nothing was selected although candidates existed.
    pub selection_empty: bool,
}

impl ExclusionCounts {
    /// Why nothing is selected: the candidates removed per kind of rule, and the one
    /// `.gitignore` rule that removed every top-level entry when there is one.
    pub fn empty_selection_message(&self) -> String {
        let kinds = [
            (self.gitignore, ".gitignore"),
            (self.built_in, "built-in rules"),
            (
                self.smart_ignore,
                "smart ignore (build and dependency output)",
            ),
            (self.profile, "profile switches or extensions"),
            (self.globs, "include or exclude patterns"),
            (self.paths, "paths"),
            (self.git_scope, "the Git scope or tracked files"),
            (self.size, "max_file_bytes"),
        ];
        let parts: Vec<String> = kinds
            .iter()
            .filter(|(count, _)| *count > 0)
            .map(|(count, kind)| format!("{count} by {kind}"))
            .collect();
        let mut message = format!(
            "DPX-SELECT-EMPTY: no file is selected; {} excluded: {}.",
            plural(self.total(), "candidate was", "candidates were"),
            parts.join(", ")
        );
        if let Some(rule) = &self.sole_top_level_rule
            && self.gitignore > 0
        {
            let place = match rule.line {
                Some(line) => format!(
                    "line {line} of {}",
                    crate::render::escape::text_line(&rule.file)
                ),
                None => crate::render::escape::text_line(&rule.file),
            };
            message.push_str(&format!(
                " One rule, on {place}, excluded every top-level entry it matched ({} in all); Git honours it the same way. Edit that rule, or pass --git-mode none (server flag or CLI option) to ignore .gitignore.",
                plural(self.gitignore, "entry", "entries")
            ));
        }
        message
    }

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
        if self.excluded.selection_empty {
            lines.push(self.excluded.empty_selection_message());
        }
        if self.deleted > 0 {
            lines.push(format!(
                "{}: {} in the Git scope {} omitted; content always comes from the working tree.",
                crate::error::GIT_STATE_DELETED,
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
    select_with_folders(root, spec, None).map(|(selection, _)| selection)
}

/// [`select`], and every folder the walk listed (whether or not it holds a selected file): a
/// caller that keeps a selection across requests (`related_files`' index) stats them again to
/// see that no listing changed.
pub fn select_with_folders(
    root: &ProjectRoot,
    spec: &SelectionSpec,
    sniffs: Option<&SniffCache>,
) -> Result<(Selection, Vec<Entry>)> {
    let keyed;
    let spec =
        if spec.names.is_exact() || (spec.path_filters.is_empty() && spec.allow_lists.is_empty()) {
            spec
        } else {
            keyed = spec.with_keys();
            &keyed
        };
    let walked = walk::walk(root, spec, sniffs);
    let listed = walked.dirs.clone();
    let warnings = walked.warnings;
    let mut files: Vec<Entry> = walked.files;
    let mut dirs = walked.dirs;
    let mut warnings = warnings;
    warnings.excluded.selection_empty = files.is_empty() && warnings.excluded.total() > 0;

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
    sort_entries(&mut files);
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

/// True when the allow-list `set` holds `relative`, compared as `names` say (Git's
/// `core.ignorecase`: the index may spell a name in another case than the folder lists it).
pub fn allow_list_holds(set: &BTreeSet<String>, relative: &str, names: NameRules) -> bool {
    if set.contains(relative) {
        return true;
    }
    if names.is_exact() {
        return false;
    }
    let key = names.key(relative);
    set.iter().any(|listed| names.key(listed) == key)
}

/// The request's and profile's filters for files that are not in the working tree (the old
/// or deleted side of a diff), judged by name as the walk and [`keep_file`] judge a listed file.
/// Git allow-lists do not apply: the scope itself names these files.
pub struct AbsentFileFilter<'r> {
    root: &'r ProjectRoot,
    /// The product and ignore rules, read once (ignore files above the root, global excludes).
    rules: walk::Rules,
    keyed: SelectionSpec,
}

impl<'r> AbsentFileFilter<'r> {
    pub fn new(root: &'r ProjectRoot, spec: &SelectionSpec) -> Self {
        let without_allow_lists = SelectionSpec {
            allow_lists: Vec::new(),
            ..spec.clone()
        };
        Self {
            root,
            rules: walk::Rules::new(root, spec.git_mode, spec.exclusions),
            keyed: without_allow_lists.with_keys(),
        }
    }

    /// Whether a file at `relative` of `size` bytes would be selected by name: the product and
    /// ignore rules (of the folders that still exist, above a missing one), then the request's
    /// and profile's filters.
    pub fn keeps(&self, relative: &str, size: u64) -> bool {
        if effective::check_with(&self.rules, self.root, relative, false).is_some() {
            return false;
        }
        let ex = &self.keyed.exclusions;
        let folders = relative.rsplit_once('/').map_or("", |(dir, _)| dir);
        if (ex.dot_folders || ex.hidden_folders && cfg!(not(windows)))
            && folders.split('/').any(|name| name.starts_with('.'))
        {
            return false;
        }
        let entry = Entry {
            relative: relative.to_owned(),
            kind: EntryKind::File,
            size,
            ..Entry::default()
        };
        keep_file(&entry, &self.keyed).is_ok()
    }
}

fn insert_ancestors(relative: &str, set: &mut HashSet<String>) {
    let mut rel = relative;
    while let Some(slash) = rel.rfind('/') {
        rel = &rel[..slash];
        // most files share their folder with the one before: no allocation for those
        if set.contains(rel) {
            break;
        }
        set.insert(rel.to_string());
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
    let key = spec.key(rel);
    let key = key.as_ref();
    if !spec.allow_lists.iter().all(|set| set.contains(key)) {
        return Err(ExclusionKind::GitScope);
    }
    if !spec.path_filters.iter().all(|union| {
        union.iter().any(|p| {
            p.is_empty()
                || key == p
                || (key.starts_with(p.as_str()) && key.as_bytes()[p.len()] == b'/')
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
    let (left, right) = (a.relative.as_bytes(), b.relative.as_bytes());
    // Only the first component that differs decides: it starts after the last `/` the two
    // paths share (comparing whole paths instead of splitting both was a tenth of a search).
    let common = left.iter().zip(right).take_while(|(l, r)| l == r).count();
    let start = left[..common]
        .iter()
        .rposition(|&c| c == b'/')
        .map_or(0, |slash| slash + 1);
    let component_end = |path: &[u8]| {
        path[start..]
            .iter()
            .position(|&c| c == b'/')
            .map(|i| start + i)
    };
    let (left_end, right_end) = (component_end(left), component_end(right));
    let l_is_dir = left_end.is_some() || a.kind == EntryKind::Dir;
    let r_is_dir = right_end.is_some() || b.kind == EntryKind::Dir;
    let l = &left[start..left_end.unwrap_or(left.len())];
    let r = &right[start..right_end.unwrap_or(right.len())];
    r_is_dir
        .cmp(&l_is_dir)
        .then_with(|| l.cmp(r))
        // the same folder: the shorter path is the folder itself, listed before its content
        .then_with(|| left.len().cmp(&right.len()))
}

/// Sort `entries` in [`compare_entries`] order, by a byte key per entry that compares the same
/// way (`order_key`): keys are built once and compared with `memcmp`, where comparing entries
/// re-parsed both paths on each of the ~1.4 million comparisons a kernel tree takes. The keys
/// share one buffer and the entries are permuted in place, so the sort holds about the paths'
/// size again, never a second copy of the entries.
pub fn sort_entries(entries: &mut [Entry]) {
    use rayon::prelude::*;
    let mut keys = Vec::new();
    let mut bounds = Vec::with_capacity(entries.len() + 1);
    bounds.push(0usize);
    for entry in entries.iter() {
        push_order_key(entry, &mut keys);
        bounds.push(keys.len());
    }
    let key = |i: u32| &keys[bounds[i as usize]..bounds[i as usize + 1]];
    let mut order: Vec<u32> = (0..entries.len() as u32).collect();
    order.par_sort_unstable_by(|&a, &b| key(a).cmp(key(b)));
    // Position `i` takes the entry at `order[i]`: follow each cycle of the permutation once.
    for start in 0..order.len() {
        let mut current = start;
        while order[current] as usize != start {
            let next = order[current] as usize;
            entries.swap(current, next);
            order[current] = current as u32;
            current = next;
        }
        order[current] = current as u32;
    }
}

/// Each component as a kind byte (0 for a folder, 1 for a file or link: folders first), its
/// name, and a 0 byte (no name holds one), so the bytes compare component by component.
fn push_order_key(entry: &Entry, key: &mut Vec<u8>) {
    let path = entry.relative.as_bytes();
    let mut components = path.split(|&b| b == b'/').peekable();
    while let Some(component) = components.next() {
        let is_dir = components.peek().is_some() || entry.kind == EntryKind::Dir;
        key.push(u8::from(!is_dir));
        key.extend_from_slice(component);
        key.push(0);
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

/// Binary sniffs kept across walks (part of the server's `SelectionCache`): a walk again of an
/// unchanged file reads none of its bytes. Bounded: past [`SniffCache::MAX_ENTRIES`] it starts
/// over.
#[derive(Debug, Default)]
pub struct SniffCache {
    map: Mutex<HashMap<PathBuf, (SniffKey, bool)>>,
}

impl SniffCache {
    /// Entries kept at most (about 100 bytes each).
    pub const MAX_ENTRIES: usize = 1_000_000;

    /// Whether `entry` is binary: the kept answer while its stat is the same, else `sniff()`.
    pub fn sniffed(&self, entry: &Entry, sniff: impl FnOnce() -> bool) -> bool {
        // Without an identity (a names-only walk, which has no stats either, or a platform that
        // gave no file id) the key could not tell a replaced file: sniff afresh.
        if entry.id.is_none() {
            return sniff();
        }
        let key: SniffKey = (entry.size, entry.modified_ns, entry.changed_ns, entry.id);
        let cached = self
            .map
            .lock()
            .ok()
            .and_then(|c| c.get(&entry.absolute).copied());
        if let Some((cached_key, binary)) = cached
            && cached_key == key
        {
            return binary;
        }
        let binary = sniff();
        if let Ok(mut map) = self.map.lock() {
            if map.len() >= Self::MAX_ENTRIES {
                map.clear();
            }
            map.insert(entry.absolute.clone(), (key, binary));
        }
        binary
    }
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

    /// The order component by component, as the walk defined it first: the fast comparison must
    /// agree with it on every pair.
    fn reference_order(a: &Entry, b: &Entry) -> Ordering {
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
                    let by = r_is_dir
                        .cmp(&l_is_dir)
                        .then_with(|| l.as_bytes().cmp(r.as_bytes()));
                    if by != Ordering::Equal {
                        return by;
                    }
                }
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn the_order_compares_as_components_do(
            paths in proptest::collection::vec("[ab./_-]{1,3}(/[ab./_-]{1,3}){0,3}", 2..12),
            dirs in proptest::collection::vec(proptest::bool::ANY, 12),
        ) {
            let entries: Vec<Entry> = paths
                .iter()
                .zip(&dirs)
                .map(|(p, &dir)| entry(p, if dir { EntryKind::Dir } else { EntryKind::File }))
                .collect();
            for a in &entries {
                for b in &entries {
                    proptest::prop_assert_eq!(
                        compare_entries(a, b),
                        reference_order(a, b),
                        "{} {:?} vs {} {:?}", a.relative, a.kind, b.relative, b.kind
                    );
                    let key = |e: &Entry| {
                        let mut key = Vec::new();
                        push_order_key(e, &mut key);
                        key
                    };
                    proptest::prop_assert_eq!(
                        key(a).cmp(&key(b)),
                        reference_order(a, b),
                        "key of {} {:?} vs {} {:?}", a.relative, a.kind, b.relative, b.kind
                    );
                }
            }
            let shown = |list: &[Entry]| -> Vec<(String, EntryKind)> {
                list.iter().map(|e| (e.relative.clone(), e.kind)).collect()
            };
            let mut sorted = entries.clone();
            sort_entries(&mut sorted);
            let mut reference = entries.clone();
            reference.sort_by(reference_order);
            proptest::prop_assert_eq!(shown(&sorted), shown(&reference));
        }
    }

    fn kept(relative: &str, spec: &SelectionSpec) -> bool {
        let keyed = spec.with_keys();
        keep_file(&entry(relative, EntryKind::File), &keyed).is_ok()
    }

    #[test]
    fn allow_lists_and_paths_compare_as_git_does() {
        let tracked: BTreeSet<String> = ["src/Main.rs", "docs/Caf\u{e9}.md"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let spec = |names: NameRules| SelectionSpec {
            allow_lists: vec![Arc::new(tracked.clone())],
            names,
            ..SelectionSpec::default()
        };
        let exact = spec(NameRules::EXACT);
        let windows = spec(crate::project::Platform::Windows.default_names());
        let macos = spec(crate::project::Platform::MacOs.default_names());
        // The folder lists `main.rs` where the index says `Main.rs` (core.ignorecase=true).
        assert!(!kept("src/main.rs", &exact));
        assert!(kept("src/main.rs", &windows));
        assert!(kept("src/main.rs", &macos));
        // The folder lists NFD (HFS+), the index holds NFC (core.precomposeunicode).
        assert!(kept("docs/Cafe\u{301}.md", &macos));
        assert!(!kept("docs/Cafe\u{301}.md", &windows));
        assert!(!kept("src/other.rs", &macos));

        let paths = |names: NameRules| SelectionSpec {
            path_filters: vec![vec!["SRC".to_string(), "Docs/README.md".to_string()]],
            names,
            ..SelectionSpec::default()
        };
        assert!(!kept("src/a.rs", &paths(NameRules::EXACT)));
        assert!(kept(
            "src/a.rs",
            &paths(crate::project::Platform::Windows.default_names())
        ));
        assert!(kept(
            "docs/readme.md",
            &paths(crate::project::Platform::MacOs.default_names())
        ));
        assert!(!kept(
            "srcx/a.rs",
            &paths(crate::project::Platform::MacOs.default_names())
        ));
        assert!(allow_list_holds(
            &tracked,
            "SRC/MAIN.RS",
            crate::project::Platform::Windows.default_names()
        ));
        assert!(!allow_list_holds(&tracked, "SRC/MAIN.RS", NameRules::EXACT));
    }

    #[test]
    fn git_mode_tokens() {
        assert_eq!(GitMode::parse("off"), Some(GitMode::None));
        assert_eq!(GitMode::parse("tracked"), Some(GitMode::Tracked));
        assert_eq!(GitMode::parse("staged"), None);
    }

    /// Placeholders have their own coded line, in the singular for one, and none when there
    /// are none.
    #[test]
    fn placeholders_have_their_own_notice() {
        let notice = |not_local: usize| -> Vec<String> {
            SelectionWarnings {
                not_local,
                ..SelectionWarnings::default()
            }
            .messages()
            .into_iter()
            .filter(|line| line.starts_with("DPX-SELECT-NOT-LOCAL:"))
            .collect()
        };
        assert!(notice(0).is_empty());
        assert_eq!(
            notice(1),
            [
                "DPX-SELECT-NOT-LOCAL: 1 file is not on this machine (cloud placeholders) and was not read, so nothing was downloaded."
            ]
        );
        assert_eq!(
            notice(3),
            [
                "DPX-SELECT-NOT-LOCAL: 3 files are not on this machine (cloud placeholders) and were not read, so nothing was downloaded."
            ]
        );
    }
}
