//! The walk: every folder is listed through a handle opened from its parent's handle, down from
//! the root pinned at start-up (`project::jail`). A folder swapped for a symlink mid-walk is
//! never entered, and nothing outside the root is listed, sized or sniffed.
//!
//! Git's ignore rules are read the same way: each `.gitignore` through its folder's handle. The
//! matching itself is the `ignore` crate's `Gitignore`, so patterns mean what they mean in
//! ripgrep; the same [`Rules`] judge a single path for `get_file` (`effective.rs`).
//!
//! Folders are listed in parallel (one rayon task per folder); the caller sorts the result, so
//! the order never depends on thread timing.

use std::ffi::{OsStr, OsString};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use ignore::Match;
use ignore::gitignore::{Gitignore, GitignoreBuilder};

use super::{Entry, EntryKind, ExclusionCounts, GitMode, SelectionSpec, SelectionWarnings, rules};
use crate::project::jail::{self, DirHandle, FileId, NodeKind, NodeMeta, OpenError};
use crate::project::{NameRules, Platform, ProjectRoot};

/// `.gitignore` files larger than this are not read (Git itself has no limit; none this size is
/// real, and reading one must not cost unbounded memory).
const MAX_IGNORE_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// Why a candidate is not selected, for the empty-selection explanation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExclusionKind {
    GitIgnore,
    BuiltIn,
    SmartIgnore,
    Profile,
    Globs,
    Paths,
    GitScope,
    Size,
}

/// One `.gitignore` matcher in effect for a folder, and the one above it.
struct ChainNode {
    matcher: Gitignore,
    parent: Option<Arc<ChainNode>>,
}

/// What a folder passes to its children.
#[derive(Clone)]
pub(super) struct DirState {
    /// Project-relative path (`""` for the root).
    pub rel: String,
    /// The same path with the names' real bytes (what is opened).
    raw: PathBuf,
    chain: Option<Arc<ChainNode>>,
    /// Smart-ignore markers inherited from ancestors (see `rules::inherited_markers`).
    above_markers: u64,
    /// Identities of this folder and its ancestors (loop detection when following links).
    ancestors: Arc<Vec<FileId>>,
}

impl DirState {
    /// The state of a folder named `rel` that does not exist (the folder of a deleted file,
    /// judged by name): it adds no ignore file and no markers of its own.
    pub(super) fn missing_child(&self, rel: String) -> DirState {
        DirState {
            raw: self.raw.join(rel.rsplit('/').next().unwrap_or_default()),
            rel,
            ..self.clone()
        }
    }
}

/// The judgement of one name in a folder.
pub(super) enum Verdict {
    Keep,
    Excluded(ExclusionKind),
}

/// The product and Git rules of one walk, shared by every folder.
pub(super) struct Rules {
    git_rules: bool,
    case_insensitive: bool,
    /// Match ignore rules against NFC names, as Git on macOS does.
    precompose: bool,
    exclusions: super::Exclusions,
    /// Matchers from above the root (global excludes, `info/exclude`, `.gitignore` files from
    /// the repository top down to the root's parent), most specific first, each with the root's
    /// path relative to the matcher's base folder (`""` when they are the same).
    above: Vec<(Gitignore, String)>,
    /// The first `.gitignore` rule that excluded an entry at the top level, and whether every
    /// top-level exclusion by `.gitignore` was by that same rule (for explanations).
    pub first_top_level_ignore: Mutex<Option<(IgnoreRuleHit, bool)>>,
}

/// A `.gitignore` rule that removed something, with where it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IgnoreRuleHit {
    /// The ignore file, relative to the root when it is inside it.
    pub file: String,
    pub line: Option<usize>,
    pub pattern: String,
}

impl Rules {
    pub fn new(root: &ProjectRoot, git_mode: GitMode, exclusions: super::Exclusions) -> Self {
        let git_rules = git_mode != GitMode::None;
        let case_insensitive = ignore_case(&root.path);
        let above = if git_rules {
            matchers_above(&root.path, case_insensitive)
        } else {
            Vec::new()
        };
        Self {
            git_rules,
            case_insensitive,
            precompose: precomposes_unicode(),
            exclusions,
            above,
            first_top_level_ignore: Mutex::new(None),
        }
    }

    /// The state of the root folder, given its listing.
    pub fn root_state(&self, root: &DirHandle, listing: &[jail::RawEntry]) -> DirState {
        let base = DirState {
            rel: String::new(),
            raw: PathBuf::new(),
            chain: None,
            above_markers: 0,
            ancestors: Arc::new(
                root.stat_self()
                    .ok()
                    .and_then(|m| m.id)
                    .into_iter()
                    .collect(),
            ),
        };
        self.enter(base, root, listing)
    }

    /// Complete `state` (whose `rel` names `dir`) with what `dir`'s own listing adds: its
    /// `.gitignore`.
    fn enter(&self, mut state: DirState, dir: &DirHandle, listing: &[jail::RawEntry]) -> DirState {
        if self.git_rules
            && listing.iter().any(|e| e.name == ".gitignore")
            && let Some(matcher) = self.read_ignore_file(dir, &state.rel)
        {
            state.chain = Some(Arc::new(ChainNode {
                matcher,
                parent: state.chain.take(),
            }));
        }
        state
    }

    /// The state of `child` (a folder named `name` in the folder of `parent`).
    pub fn child_state(
        &self,
        parent: &DirState,
        here_markers: u64,
        (rel, raw): (String, PathBuf),
        child: &DirHandle,
        child_id: Option<FileId>,
        listing: &[jail::RawEntry],
    ) -> DirState {
        let mut ancestors = (*parent.ancestors).clone();
        ancestors.extend(child_id);
        let state = DirState {
            rel,
            raw,
            chain: parent.chain.clone(),
            above_markers: parent.above_markers | rules::inherited_markers(here_markers),
            ancestors: Arc::new(ancestors),
        };
        self.enter(state, child, listing)
    }

    fn read_ignore_file(&self, dir: &DirHandle, rel: &str) -> Option<Gitignore> {
        let (file, meta) = dir.open_file(OsStr::new(".gitignore")).ok()?;
        if meta.size > MAX_IGNORE_FILE_BYTES {
            return None;
        }
        let mut text = String::new();
        file.take(MAX_IGNORE_FILE_BYTES)
            .read_to_string(&mut text)
            .ok()?;
        let base = if rel.is_empty() { "." } else { rel };
        let mut builder = GitignoreBuilder::new(base);
        builder.case_insensitive(self.case_insensitive).ok()?;
        let source = PathBuf::from(join(rel, ".gitignore"));
        for line in text.lines() {
            // A bad line is skipped, as Git skips it.
            let _ = builder.add_line(Some(source.clone()), line);
        }
        builder.build().ok()
    }

    /// Judge the name `name` of kind `kind` in the folder `state` (whose listing gave the
    /// markers `here_markers`). Only product and Git rules: the request's filters come later.
    pub fn judge(
        &self,
        state: &DirState,
        here_markers: u64,
        (name, rel): (&str, &str),
        kind: NodeKind,
    ) -> Verdict {
        if rules::VCS_DIRS.contains(&name) {
            return Verdict::Excluded(ExclusionKind::BuiltIn);
        }
        let is_dir = kind == NodeKind::Dir;
        if is_dir {
            if rules::OS_LITTER_DIRS.contains(&name) {
                return Verdict::Excluded(ExclusionKind::BuiltIn);
            }
            let ex = &self.exclusions;
            if (ex.dot_folders || ex.hidden_folders && cfg!(not(windows))) && name.starts_with('.')
            {
                return Verdict::Excluded(ExclusionKind::Profile);
            }
            if rules::is_smart_ignored_dir(name, here_markers, state.above_markers) {
                return Verdict::Excluded(ExclusionKind::SmartIgnore);
            }
        } else if rules::is_os_litter_file(name) {
            return Verdict::Excluded(ExclusionKind::BuiltIn);
        }
        if self.git_rules {
            let rel = if self.precompose {
                NameRules {
                    case_insensitive: false,
                    unicode_normalized: true,
                }
                .key(rel)
            } else {
                std::borrow::Cow::Borrowed(rel)
            };
            if let Some(hit) = self.ignored(state, &rel, is_dir) {
                if state.rel.is_empty()
                    && let Ok(mut first) = self.first_top_level_ignore.lock()
                {
                    match first.as_mut() {
                        None => *first = Some((hit, true)),
                        Some((seen, same)) => *same &= *seen == hit,
                    }
                }
                return Verdict::Excluded(ExclusionKind::GitIgnore);
            }
        }
        Verdict::Keep
    }

    /// The rule that ignores `rel`, if any: the most specific `.gitignore` that has an opinion
    /// decides (a `!` rule there re-includes), as in Git.
    fn ignored(&self, state: &DirState, rel: &str, is_dir: bool) -> Option<IgnoreRuleHit> {
        let mut node = state.chain.as_deref();
        while let Some(current) = node {
            match current.matcher.matched(rel, is_dir) {
                Match::Ignore(glob) => return Some(rule_hit(glob)),
                Match::Whitelist(_) => return None,
                Match::None => node = current.parent.as_deref(),
            }
        }
        for (matcher, prefix) in &self.above {
            let path = if prefix.is_empty() {
                rel.to_string()
            } else {
                format!("{prefix}/{rel}")
            };
            match matcher.matched(&path, is_dir) {
                Match::Ignore(glob) => return Some(rule_hit(glob)),
                Match::Whitelist(_) => return None,
                Match::None => {}
            }
        }
        None
    }
}

/// The line of `hit`'s pattern in its file (the root's own files are read through the root's
/// handle; files above the root by path).
fn with_line(root: &ProjectRoot, mut hit: IgnoreRuleHit) -> IgnoreRuleHit {
    let text = if Path::new(&hit.file).is_absolute() {
        std::fs::read_to_string(&hit.file).ok()
    } else {
        root.open_listed(Path::new(&hit.file), None)
            .ok()
            .and_then(|(file, _)| {
                let mut text = String::new();
                file.take(MAX_IGNORE_FILE_BYTES)
                    .read_to_string(&mut text)
                    .ok()
                    .map(|_| text)
            })
    };
    hit.line = text.and_then(|text| {
        text.lines()
            .position(|line| line.trim_end() == hit.pattern)
            .map(|i| i + 1)
    });
    hit
}

fn rule_hit(glob: &ignore::gitignore::Glob) -> IgnoreRuleHit {
    IgnoreRuleHit {
        file: glob
            .from()
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .unwrap_or_else(|| "the global excludes file".into()),
        line: None,
        pattern: glob.original().to_string(),
    }
}

/// How Git compares the names of the repository holding `root`: ignoring case per
/// [`ignore_case`], and on macOS as NFC (Git's `core.precomposeunicode`, on by default there,
/// precomposes the names it reads from the file system).
pub fn git_names(root: &Path) -> NameRules {
    NameRules {
        case_insensitive: ignore_case(root),
        unicode_normalized: precomposes_unicode(),
    }
}

fn precomposes_unicode() -> bool {
    Platform::current() == Platform::MacOs
}

/// `core.ignorecase` of the repository holding `root`, else the platform's default (Git sets it
/// on the case-insensitive volumes that macOS and Windows use by default).
fn ignore_case(root: &Path) -> bool {
    devprojex_git::ignore_case(root).unwrap_or(cfg!(any(target_os = "macos", windows)))
}

/// Matchers that apply from above the root: the global excludes file, the repository's
/// `info/exclude`, and `.gitignore` files in folders between the repository top and the root.
fn matchers_above(root: &Path, case_insensitive: bool) -> Vec<(Gitignore, String)> {
    let mut out = Vec::new();
    let Some(top) = root.ancestors().find(|dir| dir.join(".git").exists()) else {
        // Not a repository: only the root's own `.gitignore` files (read in the walk) and the
        // global excludes apply.
        push_global(&mut out, "", case_insensitive);
        return out;
    };
    let prefix_of = |dir: &Path| -> String {
        root.strip_prefix(dir)
            .map(super::relative_string)
            .unwrap_or_default()
    };
    // Most specific first: the `.gitignore` files of the root's ancestors, nearest first.
    let mut cursor = root.parent();
    while let Some(dir) = cursor {
        if !dir.starts_with(top) {
            break;
        }
        let file = dir.join(".gitignore");
        if file.is_file() {
            let mut builder = GitignoreBuilder::new(".");
            let _ = builder.case_insensitive(case_insensitive);
            builder.add(&file);
            if let Ok(matcher) = builder.build() {
                out.push((matcher, prefix_of(dir)));
            }
        }
        cursor = dir.parent();
    }
    let exclude = top.join(".git").join("info").join("exclude");
    if exclude.is_file() {
        let mut builder = GitignoreBuilder::new(".");
        let _ = builder.case_insensitive(case_insensitive);
        builder.add(&exclude);
        if let Ok(matcher) = builder.build() {
            out.push((matcher, prefix_of(top)));
        }
    }
    push_global(&mut out, &prefix_of(top), case_insensitive);
    out
}

/// The global excludes file (`core.excludesFile`, else `$XDG_CONFIG_HOME/git/ignore`), matched
/// with the repository's case rule like every other ignore file, as Git does.
fn push_global(out: &mut Vec<(Gitignore, String)>, prefix: &str, case_insensitive: bool) {
    let mut builder = GitignoreBuilder::new(".");
    let _ = builder.case_insensitive(case_insensitive);
    let (global, _) = builder.build_global();
    if !global.is_empty() {
        out.push((global, prefix.to_string()));
    }
}

pub(super) fn join(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_string()
    } else {
        let mut out = String::with_capacity(parent.len() + 1 + name.len());
        out.push_str(parent);
        out.push('/');
        out.push_str(name);
        out
    }
}

/// What the walk found, before sorting and folder pruning.
pub(super) struct Walked {
    pub files: Vec<Entry>,
    pub dirs: Vec<Entry>,
    pub warnings: SelectionWarnings,
}

#[derive(Default)]
struct Counters {
    unreadable: AtomicUsize,
    loops: AtomicUsize,
    outside: AtomicUsize,
    special: AtomicUsize,
    not_local: AtomicUsize,
    changed: AtomicUsize,
    excluded: [AtomicUsize; 8],
}

impl Counters {
    fn exclude(&self, kind: ExclusionKind) {
        self.excluded[kind as usize].fetch_add(1, Ordering::Relaxed);
    }
}

struct Walk<'a> {
    root: &'a ProjectRoot,
    spec: &'a SelectionSpec,
    /// Sniffs kept across walks (the server's), if any.
    sniffs: Option<&'a super::SniffCache>,
    /// Files are not stat-ed where the listing gave their kind (see [`SelectionSpec::names_only`]).
    names_only: bool,
    rules: Rules,
    counters: Counters,
    found: Mutex<(Vec<Entry>, Vec<Entry>)>,
}

/// Walk `root` and keep what `spec` keeps (files pass `super::keep_file`).
pub(super) fn walk(
    root: &ProjectRoot,
    spec: &SelectionSpec,
    sniffs: Option<&super::SniffCache>,
) -> Walked {
    let walk = Walk::new(root, spec, sniffs);
    let root_dir = root.dir_handle();
    match root_dir.list() {
        Ok(listing) => {
            let state = walk.rules.root_state(root_dir, &listing);
            rayon::scope(|scope| walk.visit_listing(scope, Arc::clone(root_dir), state, listing));
        }
        Err(_) => {
            walk.counters.unreadable.fetch_add(1, Ordering::Relaxed);
        }
    }
    walk.into_walked()
}

impl<'a> Walk<'a> {
    fn new(
        root: &'a ProjectRoot,
        spec: &'a SelectionSpec,
        sniffs: Option<&'a super::SniffCache>,
    ) -> Self {
        Walk {
            root,
            spec,
            sniffs,
            names_only: spec.names_only
                && jail::LISTING_KIND_SUFFICES
                && spec.max_file_bytes.is_none()
                && !spec.exclusions.empty_files,
            rules: Rules::new(root, spec.git_mode, spec.exclusions),
            counters: Counters::default(),
            found: Mutex::new((Vec::new(), Vec::new())),
        }
    }

    /// What was found, with the counts as warnings.
    fn into_walked(self) -> Walked {
        let (files, dirs) = self.found.into_inner().unwrap_or_else(|p| p.into_inner());
        let c = &self.counters;
        let excluded = |kind: ExclusionKind| c.excluded[kind as usize].load(Ordering::Relaxed);
        Walked {
            files,
            dirs,
            warnings: SelectionWarnings {
                unreadable: c.unreadable.load(Ordering::Relaxed),
                symlink_loops: c.loops.load(Ordering::Relaxed),
                outside_root_links: c.outside.load(Ordering::Relaxed),
                deleted: 0,
                special_files: c.special.load(Ordering::Relaxed),
                not_local: c.not_local.load(Ordering::Relaxed),
                changed_during_walk: c.changed.load(Ordering::Relaxed),
                excluded: ExclusionCounts {
                    gitignore: excluded(ExclusionKind::GitIgnore),
                    built_in: excluded(ExclusionKind::BuiltIn),
                    smart_ignore: excluded(ExclusionKind::SmartIgnore),
                    profile: excluded(ExclusionKind::Profile),
                    globs: excluded(ExclusionKind::Globs),
                    paths: excluded(ExclusionKind::Paths),
                    git_scope: excluded(ExclusionKind::GitScope),
                    size: excluded(ExclusionKind::Size),
                    sole_top_level_rule: self
                        .rules
                        .first_top_level_ignore
                        .lock()
                        .ok()
                        .and_then(|g| g.clone())
                        .filter(|(_, same)| *same)
                        .map(|(hit, _)| with_line(self.root, hit)),
                    selection_empty: false,
                },
            },
        }
    }
}

impl<'a> Walk<'a> {
    /// List the folder `name` of `parent`, shown as `rel`.
    fn visit<'s>(
        &'s self,
        scope: &rayon::Scope<'s>,
        parent: Arc<DirHandle>,
        parent_state: Arc<DirState>,
        here_markers: u64,
        (name, rel, raw): (OsString, String, PathBuf),
    ) {
        let Ok(dir) = parent.open_dir(&name) else {
            // Gone, or no longer a folder (swapped for a link): nothing is entered.
            self.counters.changed.fetch_add(1, Ordering::Relaxed);
            return;
        };
        drop(parent);
        let Ok(listing) = dir.list() else {
            self.counters.unreadable.fetch_add(1, Ordering::Relaxed);
            return;
        };
        let id = dir.stat_self().ok().and_then(|m| m.id);
        let state =
            self.rules
                .child_state(&parent_state, here_markers, (rel, raw), &dir, id, &listing);
        self.visit_listing(scope, Arc::new(dir), state, listing);
    }

    fn visit_listing<'s>(
        &'s self,
        scope: &rayon::Scope<'s>,
        dir: Arc<DirHandle>,
        state: DirState,
        listing: Vec<jail::RawEntry>,
    ) {
        let names: Vec<std::borrow::Cow<'_, str>> =
            listing.iter().map(|e| e.name.to_string_lossy()).collect();
        let name_refs: Vec<&str> = names.iter().map(|n| n.as_ref()).collect();
        let here_markers = rules::markers_present(&name_refs);
        let state = Arc::new(state);
        let mut files = Vec::new();
        let mut dirs = Vec::new();
        let mut children: Vec<(OsString, String, PathBuf)> = Vec::new();
        for (raw, &name) in listing.iter().zip(&name_refs) {
            let kind = match raw.kind {
                Some(kind) => kind,
                None => match dir.stat(&raw.name) {
                    Ok(meta) => meta.kind,
                    Err(_) => continue,
                },
            };
            if let NodeKind::Special(_) = kind {
                self.counters.special.fetch_add(1, Ordering::Relaxed);
                continue;
            }
            let rel = join(&state.rel, name);
            if let Verdict::Excluded(why) =
                self.rules.judge(&state, here_markers, (name, &rel), kind)
            {
                // VCS metadata is never a candidate the user would miss.
                if !rules::VCS_DIRS.contains(&name) {
                    self.counters.exclude(why);
                }
                continue;
            }
            let raw_path = state.raw.join(&raw.name);
            match kind {
                NodeKind::Dir => {
                    if self.prunes(&rel) {
                        continue;
                    }
                    if self.spec.exclusions.hidden_folders
                        && dir.stat(&raw.name).is_ok_and(|m| m.hidden_attribute)
                    {
                        self.counters.exclude(ExclusionKind::Profile);
                        continue;
                    }
                    dirs.push(self.dir_entry(rel.clone(), raw_path.clone()));
                    children.push((raw.name.clone(), rel, raw_path));
                }
                NodeKind::File => {
                    let meta = if self.names_only && raw.kind.is_some() {
                        // The listing said "regular file", and nothing here needs more; a
                        // sniff still opens it with the handle checks.
                        NodeMeta::of_kind(NodeKind::File)
                    } else {
                        let Ok(meta) = dir.stat(&raw.name) else {
                            self.counters.unreadable.fetch_add(1, Ordering::Relaxed);
                            continue;
                        };
                        meta
                    };
                    if meta.kind != NodeKind::File {
                        self.counters.changed.fetch_add(1, Ordering::Relaxed);
                        continue;
                    }
                    if let Some(entry) =
                        self.file_entry(&dir, &raw.name, rel, raw_path, &meta, None)
                    {
                        files.push(entry);
                    }
                }
                NodeKind::Symlink => {
                    if self.spec.follow_symlinks {
                        if let Some(followed) = self.follow(&state, &rel, &raw_path) {
                            match followed {
                                Followed::File(entry) => files.push(entry),
                                Followed::Dir(real_parent, real_name) => {
                                    dirs.push(self.dir_entry(rel.clone(), raw_path.clone()));
                                    // Descend into the target, listed under the link's path.
                                    let parent_state = Arc::clone(&state);
                                    scope.spawn(move |scope| {
                                        self.visit(
                                            scope,
                                            real_parent,
                                            parent_state,
                                            here_markers,
                                            (real_name, rel, raw_path),
                                        )
                                    });
                                }
                            }
                        }
                        continue;
                    }
                    let target = dir
                        .read_link(&raw.name)
                        .map(|t| t.to_string_lossy().replace('\\', "/"))
                        .unwrap_or_default();
                    let entry = Entry {
                        absolute: self.root.path.join(&raw_path),
                        raw: raw_path,
                        relative: rel,
                        kind: EntryKind::Symlink,
                        target: Some(target),
                        ..Entry::default()
                    };
                    if super::keep_file(&entry, self.spec).is_ok() {
                        files.push(entry);
                    }
                }
                NodeKind::Special(_) => unreachable!("skipped above"),
            }
        }
        if !files.is_empty() || !dirs.is_empty() {
            let mut found = self.found.lock().unwrap_or_else(|p| p.into_inner());
            found.0.append(&mut files);
            found.1.append(&mut dirs);
        }
        for (name, rel, raw) in children {
            let parent = Arc::clone(&dir);
            let parent_state = Arc::clone(&state);
            scope.spawn(move |scope| {
                self.visit(scope, parent, parent_state, here_markers, (name, rel, raw))
            });
        }
    }

    fn dir_entry(&self, rel: String, raw: PathBuf) -> Entry {
        Entry {
            absolute: self.root.path.join(&raw),
            raw,
            relative: rel,
            kind: EntryKind::Dir,
            ..Entry::default()
        }
    }

    /// A regular file that passes the request's filters, sniffed when the spec asks for it.
    fn file_entry(
        &self,
        dir: &DirHandle,
        name: &OsStr,
        rel: String,
        raw: PathBuf,
        meta: &NodeMeta,
        open_as: Option<PathBuf>,
    ) -> Option<Entry> {
        if meta.not_local {
            self.counters.not_local.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        if self.spec.exclusions.hidden_files && meta.hidden_attribute {
            self.counters.exclude(ExclusionKind::Profile);
            return None;
        }
        let mut entry = Entry {
            absolute: self.root.path.join(&raw),
            raw,
            relative: rel,
            kind: EntryKind::File,
            size: meta.size,
            id: meta.id,
            modified_ns: meta.modified_ns,
            changed_ns: meta.changed_ns,
            open_as,
            ..Entry::default()
        };
        if let Err(why) = super::keep_file(&entry, self.spec) {
            self.counters.exclude(why);
            return None;
        }
        // A size of 0 is only known with an identity: a names-only walk (no stats) or a file
        // without an id is sniffed, which costs nothing for an empty file (it reads as text).
        let may_hold_bytes = meta.size > 0 || meta.id.is_none();
        if self.spec.sniff_binary && may_hold_bytes && !rules::is_known_text(entry.name()) {
            let sniff = || sniff_at(dir, name, meta.id);
            entry.binary = match self.sniffs {
                Some(sniffs) => sniffs.sniffed(&entry, sniff),
                None => sniff(),
            };
        }
        Some(entry)
    }

    /// Pruning a folder that no path filter, allow-list or exclude glob can keep anything in.
    fn prunes(&self, rel: &str) -> bool {
        let spec = self.spec;
        if spec
            .exclude
            .iter()
            .any(|set| set.matches_path_or_ancestor(rel))
        {
            self.counters.exclude(ExclusionKind::Globs);
            return true;
        }
        // Path filters and allow-lists hold comparison keys (see `SelectionSpec::names`).
        let key = spec.key(rel);
        let rel = key.as_ref();
        let under = |p: &str| {
            p.is_empty()
                || p == rel
                || (p.len() > rel.len() && p.starts_with(rel) && p.as_bytes()[rel.len()] == b'/')
                || (rel.len() > p.len() && rel.starts_with(p) && rel.as_bytes()[p.len()] == b'/')
        };
        if !spec
            .path_filters
            .iter()
            .all(|union| union.iter().any(|p| under(p)))
        {
            self.counters.exclude(ExclusionKind::Paths);
            return true;
        }
        let prefix = format!("{rel}/");
        if !spec.allow_lists.iter().all(|set| {
            set.range(prefix.clone()..)
                .next()
                .is_some_and(|first| first.starts_with(&prefix))
        }) {
            self.counters.exclude(ExclusionKind::GitScope);
            return true;
        }
        false
    }

    /// Follow the link `name` (profile option): an in-root, effective target becomes a file
    /// entry or a folder to descend, under the link's own path.
    fn follow(&self, state: &DirState, rel: &str, raw: &Path) -> Option<Followed> {
        let components: Vec<OsString> = raw
            .components()
            .map(|c| c.as_os_str().to_os_string())
            .collect();
        let resolved =
            match jail::resolve_beneath(self.root.dir_handle(), self.root.spellings(), &components)
            {
                Ok(resolved) => resolved,
                Err(OpenError::Escapes) => {
                    self.counters.outside.fetch_add(1, Ordering::Relaxed);
                    return None;
                }
                Err(OpenError::Loop) => {
                    self.counters.loops.fetch_add(1, Ordering::Relaxed);
                    return None;
                }
                Err(_) => return None,
            };
        let real = resolved.relative_string();
        // A link must not open a door into what the rules exclude (`.git`, ignored output).
        let is_dir = resolved.meta.kind == NodeKind::Dir;
        if real.is_empty()
            || super::effective::check_with(&self.rules, self.root, &real, is_dir).is_some()
        {
            return None;
        }
        match resolved.meta.kind {
            NodeKind::File => {
                let (parent_parts, last) = resolved.relative.split_at(resolved.relative.len() - 1);
                let parent = open_components(self.root.dir_handle(), parent_parts).ok()?;
                let real_raw: PathBuf = resolved.relative.iter().collect();
                self.file_entry(
                    &parent,
                    &last[0],
                    rel.to_string(),
                    raw.to_path_buf(),
                    &resolved.meta,
                    Some(real_raw),
                )
                .map(Followed::File)
            }
            NodeKind::Dir => {
                if resolved
                    .meta
                    .id
                    .is_some_and(|id| state.ancestors.contains(&id))
                {
                    self.counters.loops.fetch_add(1, Ordering::Relaxed);
                    return None;
                }
                let (parent_parts, last) = resolved.relative.split_at(resolved.relative.len() - 1);
                let parent = open_components(self.root.dir_handle(), parent_parts).ok()?;
                Some(Followed::Dir(parent, last[0].clone()))
            }
            _ => None,
        }
    }
}

enum Followed {
    File(Entry),
    Dir(Arc<DirHandle>, OsString),
}

/// Open the folder at `parts` beneath `root`, refusing links.
fn open_components(root: &Arc<DirHandle>, parts: &[OsString]) -> std::io::Result<Arc<DirHandle>> {
    let mut current = Arc::clone(root);
    for part in parts {
        current = Arc::new(current.open_dir(part)?);
    }
    Ok(current)
}

/// A NUL byte in the first 8 KiB of the file `name`, in text that is not UTF-16, read through
/// its folder's handle (never blocking, never through a link, only if it is still the file that
/// was listed).
fn sniff_at(dir: &DirHandle, name: &OsStr, expected: Option<FileId>) -> bool {
    let Ok((file, meta)) = dir.open_file(name) else {
        return false;
    };
    if expected.is_some() && meta.id != expected {
        return false;
    }
    let mut buffer = [0u8; 8192];
    let mut filled = 0;
    let mut handle = file.take(buffer.len() as u64);
    while filled < buffer.len() {
        match handle.read(&mut buffer[filled..]) {
            Ok(0) | Err(_) => break,
            Ok(n) => filled += n,
        }
    }
    devprojex_redact::looks_binary(&buffer[..filled])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file the platform marks as not local (what `jail` reads from `SF_DATALESS` or the
    /// recall attributes) is counted, never listed and never sniffed; the same file when local
    /// is listed and sniffed.
    #[test]
    fn placeholders_are_counted_and_never_listed_or_read() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["cloud.dat", "other.dat"] {
            std::fs::write(dir.path().join(name), b"\0\x01 binary content").unwrap();
        }
        let root = ProjectRoot::open(dir.path()).unwrap();
        let spec = SelectionSpec {
            sniff_binary: true,
            ..SelectionSpec::default()
        };
        let walk = Walk::new(&root, &spec, None);
        let handle = root.dir_handle();
        let entry = |name: &str, not_local: bool| {
            let mut meta = handle.stat(OsStr::new(name)).unwrap();
            meta.not_local = not_local;
            walk.file_entry(
                handle,
                OsStr::new(name),
                name.to_string(),
                PathBuf::from(name),
                &meta,
                None,
            )
        };
        let local = entry("cloud.dat", false).expect("a local file is listed");
        assert!(local.binary, "a local file is sniffed");
        assert_eq!(walk.counters.not_local.load(Ordering::Relaxed), 0);

        assert!(entry("cloud.dat", true).is_none());
        assert!(entry("other.dat", true).is_none());
        let warnings = walk.into_walked().warnings;
        assert_eq!(warnings.not_local, 2);
        assert!(
            warnings.messages().contains(
                &"DPX-SELECT-NOT-LOCAL: 2 files are not on this machine (cloud placeholders) and were not read, so nothing was downloaded.".to_string()
            ),
            "{:?}",
            warnings.messages()
        );
    }
}

#[cfg(test)]
mod names_only_tests {
    use super::super::{GitMode, SelectionSpec, select};
    use crate::project::ProjectRoot;

    /// A names-only walk lists exactly what a full walk lists, with the same `binary` flags
    /// (empty files, binaries of unknown extension, ignored files, links and nested folders), and
    /// skips the stat only where it may: a size rule brings the sizes back.
    #[test]
    fn a_names_only_walk_lists_what_a_full_walk_lists() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path();
        std::fs::create_dir_all(path.join("src/deep")).unwrap();
        std::fs::write(path.join(".gitignore"), "*.log\n").unwrap();
        std::fs::write(path.join("src/main.rs"), "fn main() {}\n").unwrap();
        std::fs::write(path.join("src/deep/blob.dat"), b"a\0b").unwrap();
        std::fs::write(path.join("src/deep/notes.dat"), b"plain text").unwrap();
        std::fs::write(path.join("empty.dat"), b"").unwrap();
        std::fs::write(path.join("debug.log"), "ignored").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink("src/main.rs", path.join("link.rs")).unwrap();
        let root = ProjectRoot::open(path).unwrap();
        let full = SelectionSpec {
            git_mode: GitMode::Gitignore,
            sniff_binary: true,
            ..SelectionSpec::default()
        };
        let names_only = SelectionSpec {
            names_only: true,
            ..full.clone()
        };
        let listed = |spec: &SelectionSpec| -> Vec<(String, bool)> {
            select(&root, spec)
                .unwrap()
                .entries
                .iter()
                .map(|e| (e.relative.clone(), e.binary))
                .collect()
        };
        let expected = listed(&full);
        assert!(expected.contains(&("src/deep/blob.dat".to_string(), true)));
        assert!(expected.contains(&("src/deep/notes.dat".to_string(), false)));
        assert!(!expected.iter().any(|(p, _)| p == "debug.log"));
        assert_eq!(listed(&names_only), expected);

        let sizes = |spec: &SelectionSpec| -> Vec<u64> {
            select(&root, spec)
                .unwrap()
                .files()
                .filter(|e| e.kind == super::super::EntryKind::File)
                .map(|e| e.size)
                .collect()
        };
        if crate::project::jail::LISTING_KIND_SUFFICES {
            assert!(sizes(&names_only).iter().all(|&s| s == 0), "not stat-ed");
        }
        let sized = SelectionSpec {
            max_file_bytes: Some(1 << 20),
            ..names_only.clone()
        };
        assert_eq!(sizes(&sized), sizes(&full));
        assert!(sizes(&full).contains(&13));
    }
}
