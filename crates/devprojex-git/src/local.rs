//! Local repository state, read in-process with `gix`: tracked paths and git scopes.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Component, Path, PathBuf};

use gix::bstr::{BStr, ByteSlice};

use crate::error::{GitError, echo};

/// How many directory levels below a non-Git root are searched for repositories.
pub(crate) const NESTED_REPO_DEPTH: usize = 3;

/// How deep submodules inside submodules are followed.
pub(crate) const SUBMODULE_DEPTH: usize = 8;

/// Longest `git_scope` value, in Unicode scalar values.
pub const MAX_SCOPE_CHARS: usize = 4096;

/// A request-level `git_scope`: which momentary Git state narrows the selection.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GitScope {
    /// Paths whose index entry differs from `HEAD` (everything in the index on an unborn branch).
    Staged,
    /// Staged paths, plus paths modified or deleted in the working tree, plus untracked files
    /// that are not ignored.
    Changes,
    /// Paths that differ between the trees of two revisions (`diff:<from>..<to>`).
    Diff {
        /// The old side: a branch or tag name, a full or abbreviated commit id or `HEAD`,
        /// optionally followed by `~N` / `^N` steps (`main`, `v1.0`, `HEAD~3`, `a1b2c3d^2`).
        from: String,
        /// The new side, in the same grammar.
        to: String,
    },
}

/// Longest `~N` / `^N` walk one revision may ask for, in commits: a bound on the work a single
/// call can cause on a huge history (`HEAD~100000` is already far beyond any review).
pub(crate) const MAX_REV_STEPS: u64 = 100_000;

/// The grammar `git_scope` accepts for one side of `diff:<a>..<b>`. Everything else that Git's
/// revision syntax allows is refused before a repository is touched: `:/text` searches commit
/// messages (an oracle), `REV:path` reveals which paths existed and their blob ids, `@{...}`
/// reads reflogs and upstreams, `^{...}` peels and searches, and `^!`/`^@`/`^-`/`..` are ranges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Revision<'a> {
    /// `None` for `HEAD`, otherwise the branch/tag name or hex id as written.
    pub(crate) base: Option<&'a str>,
    /// The `~N` / `^N` steps, in order.
    pub(crate) steps: Vec<Step>,
}

/// One step after the base of a [`Revision`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// `~N` (`~` is `~1`): the N-th first-parent ancestor.
    Ancestor(u64),
    /// `^N` (`^` is `^1`): the N-th parent; `^0` is the commit itself.
    Parent(u64),
}

/// Hex ids of this many digits may be abbreviated commit ids (SHA-1 is 40, SHA-256 64).
fn could_be_object_id(name: &str) -> bool {
    (4..=64).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Why `name` is not a branch or tag name Git would accept (`git check-ref-format`), if so.
fn refname_problem(name: &str) -> Option<&'static str> {
    if name == "@" {
        return Some("`@` is not accepted; write `HEAD`");
    }
    if name.starts_with('-') {
        return Some("a name cannot start with `-`");
    }
    if name.starts_with('/') || name.ends_with('/') || name.contains("//") {
        return Some("a name cannot start or end with `/` or contain `//`");
    }
    if name.ends_with('.') {
        return Some("a name cannot end with `.`");
    }
    if name
        .chars()
        .any(|c| c.is_control() || c.is_whitespace() || matches!(c, '?' | '*' | '[' | '\\'))
    {
        return Some("a name cannot contain whitespace, control characters, `?`, `*`, `[` or `\\`");
    }
    if name
        .split('/')
        .any(|part| part.starts_with('.') || part.ends_with(".lock"))
    {
        return Some("no part of a name can start with `.` or end with `.lock`");
    }
    None
}

/// Check one side of `diff:<a>..<b>` against the accepted grammar; the error is the reason.
pub(crate) fn parse_revision(side: &str) -> Result<Revision<'_>, String> {
    let shown = echo(side);
    if side.is_empty() {
        return Err("a revision is needed on both sides of `..`".into());
    }
    // The refused Git forms first, each named, so the caller learns why and what to use.
    if side.starts_with(":/") || side.contains("^{/") {
        return Err(format!(
            "`{shown}` searches commit messages, which git_scope does not accept"
        ));
    }
    if side.contains(':') {
        return Err(format!(
            "`{shown}` names a path inside a revision (`REV:path`), which git_scope does not \
             accept"
        ));
    }
    if side.contains("@{") {
        return Err(format!(
            "`{shown}` is a reflog or upstream form (`@{{...}}`), which git_scope does not accept"
        ));
    }
    if side.contains("^{") {
        return Err(format!(
            "`{shown}` is a peel form (`^{{...}}`), which git_scope does not accept"
        ));
    }
    if side.contains("..") || side.ends_with("^!") || side.ends_with("^@") || side.contains("^-") {
        return Err(format!(
            "`{shown}` is a range, but each side of `diff:<a>..<b>` must be one revision"
        ));
    }
    let split = side.find(['~', '^']).unwrap_or(side.len());
    let (base, suffix) = side.split_at(split);
    if base.is_empty() {
        return Err(format!(
            "`{shown}` does not start with a revision (a leading `^` or `~` is not accepted)"
        ));
    }
    if let Some(problem) = refname_problem(base) {
        return Err(format!("`{shown}` is not a valid revision: {problem}"));
    }
    let mut steps = Vec::new();
    let mut total: u64 = 0;
    let mut rest = suffix;
    let too_far = || {
        format!(
            "`{shown}` walks more than 100,000 commits; use a branch, tag or commit id nearer to \
             what you want"
        )
    };
    while let Some(op) = rest.chars().next() {
        if op != '~' && op != '^' {
            return Err(format!(
                "`{shown}` has `{}` where only `~N` or `^N` steps may follow the revision",
                echo(rest)
            ));
        }
        let after = &rest[1..];
        let digits_len = after
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(after.len());
        let digits = &after[..digits_len];
        let n = if digits.is_empty() {
            1
        } else {
            match digits.parse::<u64>() {
                Ok(n) if n <= MAX_REV_STEPS => n,
                _ => return Err(too_far()),
            }
        };
        let step = if op == '~' {
            Step::Ancestor(n)
        } else {
            Step::Parent(n)
        };
        total = total.saturating_add(if op == '~' { n } else { 1 });
        if total > MAX_REV_STEPS {
            return Err(too_far());
        }
        steps.push(step);
        rest = &after[digits_len..];
    }
    Ok(Revision {
        base: (base != "HEAD").then_some(base),
        steps,
    })
}

impl GitScope {
    /// Parse `staged`, `changes` or `diff:<ref>..<ref>` (at most 4,096 Unicode scalar values).
    ///
    /// The value is matched exactly (no trimming, lowercase keywords). Each side of `diff:` must
    /// be a branch or tag name, a full or abbreviated commit id or `HEAD`, optionally followed
    /// by `~N` / `^N` steps; every other revision form is refused here. The refs are resolved
    /// only by [`scope_paths`], against the repository of the project.
    pub fn parse(input: &str) -> Result<GitScope, GitError> {
        let invalid = |reason: String| GitError::InvalidScope { reason };
        let chars = input.chars().count();
        if chars > MAX_SCOPE_CHARS {
            return Err(invalid(format!("the value has {chars} characters")));
        }
        match input {
            "staged" => return Ok(GitScope::Staged),
            "changes" => return Ok(GitScope::Changes),
            _ => {}
        }
        let Some(range) = input.strip_prefix("diff:") else {
            return Err(invalid(format!("`{}` is not a known scope", echo(input))));
        };
        let Some((from, to)) = range.split_once("..") else {
            return Err(invalid(format!(
                "`{}` has no `..` between two revisions",
                echo(input)
            )));
        };
        if to.starts_with('.') {
            return Err(invalid(
                "the three-dot (merge-base) form `a...b` is not supported; use `a..b`".into(),
            ));
        }
        for side in [from, to] {
            parse_revision(side).map_err(invalid)?;
        }
        Ok(GitScope::Diff {
            from: from.to_owned(),
            to: to.to_owned(),
        })
    }
}

impl fmt::Display for GitScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GitScope::Staged => f.write_str("staged"),
            GitScope::Changes => f.write_str("changes"),
            GitScope::Diff { from, to } => write!(f, "diff:{from}..{to}"),
        }
    }
}

impl std::str::FromStr for GitScope {
    type Err = GitError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GitScope::parse(s)
    }
}

/// What a [`GitScope`] selects under a project root.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScopeSelection {
    /// Files present in the working tree that the scope selects: relative to the root, with `/`.
    pub paths: BTreeSet<String>,
    /// How many selected paths were omitted because they are deleted (by the scope itself or in
    /// the working tree). Report it with the `DPX-GIT-STATE-DELETED` warning when non-zero.
    pub deleted: usize,
}

/// One repository that contributes to a project root.
pub(crate) struct Located {
    pub(crate) repo: gix::Repository,
    /// The root relative to the repository's working tree: `""` or `"dir/sub/"`.
    pub(crate) in_repo: String,
    /// What to prepend to a path relative to the root: `""` or `"nested/repo/"`.
    pub(crate) out: String,
}

pub(crate) fn state_err(root: &Path, what: &str, err: impl fmt::Display) -> GitError {
    GitError::StateUnavailable {
        root: root.to_path_buf(),
        reason: format!(
            "{what}: {err}; check that the repository is readable and not corrupt (`git status` should work there), then retry"
        ),
    }
}

fn open_options() -> gix::open::Options {
    // Repository-local configuration only: no global/system config, no environment, no `git`.
    gix::open::Options::isolated()
}

fn open_exact(path: &Path) -> Result<gix::Repository, gix::Error> {
    gix::open_opts(path, open_options())
}

/// `path` relative to `base` as a `/`-separated prefix with a trailing `/` (or `""`).
fn rel_prefix(root: &Path, path: &Path, base: &Path) -> Result<String, GitError> {
    let rel = path.strip_prefix(base).map_err(|_| {
        state_err(
            root,
            "cannot place the root in its repository",
            path.display(),
        )
    })?;
    let mut out = String::new();
    for comp in rel.components() {
        match comp {
            Component::Normal(name) => {
                let name = name.to_str().ok_or_else(|| {
                    state_err(root, "the root path is not valid UTF-8", path.display())
                })?;
                out.push_str(name);
                out.push('/');
            }
            Component::CurDir => {}
            _ => return Err(state_err(root, "unexpected path component", path.display())),
        }
    }
    Ok(out)
}

fn canonical_root(root: &Path) -> Result<PathBuf, GitError> {
    std::fs::canonicalize(root).map_err(|e| GitError::StateUnavailable {
        root: root.to_path_buf(),
        reason: format!("the project root cannot be resolved ({e}); pass an existing directory"),
    })
}

/// Find the repositories that make up `root`: the one containing it, or, when `root` is not
/// inside a working tree, the repositories at most [`NESTED_REPO_DEPTH`] levels below it.
pub(crate) fn locate(root: &Path) -> Result<Vec<Located>, GitError> {
    let canon = canonical_root(root)?;
    match gix::discover::upwards(&canon) {
        Ok(_) => {
            let trust = gix::sec::trust::Mapping {
                full: open_options(),
                reduced: open_options(),
            };
            let repo = gix::ThreadSafeRepository::discover_opts(&canon, Default::default(), trust)
                .map_err(|e| state_err(root, "the repository cannot be opened", e))?
                .to_thread_local();
            let Some(workdir) = repo.workdir() else {
                return Err(GitError::StateUnavailable {
                    root: root.to_path_buf(),
                    reason: "the root is inside a bare repository (no working tree); point the project at a checkout".into(),
                });
            };
            let workdir = canonical_root(workdir)?;
            if canon.starts_with(workdir.join(".git")) {
                return Err(GitError::StateUnavailable {
                    root: root.to_path_buf(),
                    reason: "the root is inside the .git directory; point the project at the working tree".into(),
                });
            }
            let in_repo = rel_prefix(root, &canon, &workdir)?;
            Ok(vec![Located {
                repo,
                in_repo,
                out: String::new(),
            }])
        }
        Err(_) => {
            let mut found = Vec::new();
            scan_nested(root, &canon, &canon, 1, &mut found)?;
            if found.is_empty() {
                return Err(GitError::NotARepository {
                    root: root.to_path_buf(),
                });
            }
            Ok(found)
        }
    }
}

fn scan_nested(
    root: &Path,
    base: &Path,
    dir: &Path,
    depth: usize,
    found: &mut Vec<Located>,
) -> Result<(), GitError> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()) && e.file_name() != ".git")
        .map(|e| e.path())
        .collect();
    dirs.sort();
    for sub in dirs {
        if std::fs::symlink_metadata(sub.join(".git")).is_ok() {
            let repo = open_exact(&sub)
                .map_err(|e| state_err(root, "a nested repository cannot be opened", e))?;
            if repo.workdir().is_some() {
                let out = rel_prefix(root, &sub, base)?;
                found.push(Located {
                    repo,
                    in_repo: String::new(),
                    out,
                });
            }
        } else if depth < NESTED_REPO_DEPTH {
            scan_nested(root, base, &sub, depth + 1, found)?;
        }
    }
    Ok(())
}

/// Map a repository-relative path to a root-relative one, or `None` when it lies outside the root
/// or is not valid UTF-8 (such names cannot be addressed by the `String` paths of devprojex).
pub(crate) fn map_path(path: &BStr, in_repo: &str, out: &str) -> Option<String> {
    let rest = path.strip_prefix(in_repo.as_bytes())?;
    let rest = rest.to_str().ok()?;
    if rest.is_empty() {
        return None;
    }
    let mut s = String::with_capacity(out.len() + rest.len());
    s.push_str(out);
    s.push_str(rest);
    Some(s)
}

/// Initialized submodules (gitlinks with a `.git` in their directory) under the root, as
/// `(repository, out prefix)`.
pub(crate) fn submodules(
    root: &Path,
    repo: &gix::Repository,
    index: &gix::index::State,
    in_repo: &str,
    out: &str,
) -> Result<Vec<(gix::Repository, String)>, GitError> {
    let Some(workdir) = repo.workdir() else {
        return Ok(Vec::new());
    };
    let mut subs = Vec::new();
    for entry in index.entries() {
        if !entry.mode.is_submodule() {
            continue;
        }
        let path = entry.path(index);
        let Some(mapped) = map_path(path, in_repo, out) else {
            continue;
        };
        let Ok(rel) = path.to_str() else { continue };
        let dir = workdir.join(rel);
        if std::fs::symlink_metadata(dir.join(".git")).is_err() {
            continue; // not initialized: nothing is checked out there
        }
        let sub =
            open_exact(&dir).map_err(|e| state_err(root, "a submodule cannot be opened", e))?;
        subs.push((sub, format!("{mapped}/")));
    }
    Ok(subs)
}

/// Project-relative paths (with `/`) of the files in the Git index, for `tracked_only`.
///
/// `root` may be the top level of a working tree or a folder inside one (only paths below it are
/// returned, relative to it). If `root` is not inside a working tree, the repositories at most
/// three levels below it are used, each under its own folder. Initialized submodules contribute
/// the files of their own index, recursively; uninitialized ones contribute nothing. Linked
/// worktrees use their own index. Paths that are not valid UTF-8 are left out.
///
/// A project without any repository is a [`GitError::NotARepository`], never an empty set.
pub fn tracked_paths(root: &Path) -> Result<BTreeSet<String>, GitError> {
    tracked_paths_stamped(root).map(|(paths, _)| paths)
}

/// [`tracked_paths`], plus an [`IndexStamp`] that tells later whether the answer may have
/// changed, so a long-lived caller can keep the set instead of reading the index on every call.
pub fn tracked_paths_stamped(root: &Path) -> Result<(BTreeSet<String>, IndexStamp), GitError> {
    let located = locate(root)?;
    let mut stamp = IndexStamp {
        git_dir: None,
        files: Vec::new(),
    };
    // Repositories found below a root outside any working tree can appear and disappear at any
    // depth: such answers are never reused.
    if let [only] = located.as_slice()
        && only.out.is_empty()
    {
        stamp.git_dir = std::fs::canonicalize(only.repo.git_dir()).ok();
    }
    let mut paths = Vec::new();
    for loc in located {
        tracked_into(
            root,
            &loc.repo,
            &loc.in_repo,
            &loc.out,
            &mut paths,
            &mut stamp.files,
            0,
        )?;
    }
    // Index entries are sorted, so this is a cheap bulk build rather than 100,000 inserts.
    Ok((paths.into_iter().collect(), stamp))
}

/// The identity of every index file a [`tracked_paths_stamped`] answer was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexStamp {
    /// The repository found upwards from the root (canonical); `None` when the answer is not
    /// reusable.
    git_dir: Option<PathBuf>,
    files: Vec<(PathBuf, Option<FileIdentity>)>,
}

/// What changes whenever Git rewrites a file: Git replaces the index through a lock file and a
/// rename, so the inode changes with every write on Unix; size and modification time cover the
/// rest.
#[derive(Debug, Clone, PartialEq, Eq)]
struct FileIdentity {
    len: u64,
    modified: Option<std::time::SystemTime>,
    #[cfg(unix)]
    inode: u64,
    #[cfg(unix)]
    changed: (i64, i64),
}

fn file_identity(path: &Path) -> Option<FileIdentity> {
    let meta = std::fs::metadata(path).ok()?;
    #[cfg(unix)]
    use std::os::unix::fs::MetadataExt;
    Some(FileIdentity {
        len: meta.len(),
        modified: meta.modified().ok(),
        #[cfg(unix)]
        inode: meta.ino(),
        #[cfg(unix)]
        changed: (meta.ctime(), meta.ctime_nsec()),
    })
}

impl IndexStamp {
    /// Whether an answer read under this stamp is still the answer for `root`: the same
    /// repository is found upwards from it and no index file it read was rewritten, added or
    /// removed since.
    pub fn is_current(&self, root: &Path) -> bool {
        let Some(git_dir) = &self.git_dir else {
            return false;
        };
        let Ok(canon) = std::fs::canonicalize(root) else {
            return false;
        };
        let same_repo = gix::discover::upwards(&canon)
            .ok()
            .and_then(|(path, _)| {
                let (dir, _) = path.into_repository_and_work_tree_directories();
                std::fs::canonicalize(dir).ok()
            })
            .is_some_and(|found| found == *git_dir);
        same_repo
            && self
                .files
                .iter()
                .all(|(path, identity)| file_identity(path) == *identity)
    }
}

fn tracked_into(
    root: &Path,
    repo: &gix::Repository,
    in_repo: &str,
    out: &str,
    paths: &mut Vec<String>,
    read: &mut Vec<(PathBuf, Option<FileIdentity>)>,
    depth: usize,
) -> Result<(), GitError> {
    // identify the file before reading it: a write in between makes the stamp older than the
    // content, which only costs a re-read later (the other order could keep a stale answer)
    let index_path = repo.index_path();
    read.push((index_path.clone(), file_identity(&index_path)));
    let index = repo
        .index_or_empty()
        .map_err(|e| state_err(root, "the Git index cannot be read", e))?;
    let mut has_submodules = false;
    for entry in index.entries() {
        if entry.mode.is_submodule() {
            has_submodules = true;
            continue;
        }
        if entry.mode.is_sparse() {
            continue;
        }
        if let Some(p) = map_path(entry.path(&index), in_repo, out) {
            paths.push(p);
        }
    }
    if has_submodules && depth < SUBMODULE_DEPTH {
        for (sub, sub_out) in submodules(root, repo, &index, in_repo, out)? {
            tracked_into(root, &sub, "", &sub_out, paths, read, depth + 1)?;
        }
    }
    Ok(())
}

/// Paths seen in a scope: `true` once any change shows the path as present.
type Seen = BTreeMap<String, bool>;

fn note(seen: &mut Seen, path: &BStr, live: bool, in_repo: &str, out: &str) {
    if let Some(p) = map_path(path, in_repo, out) {
        let slot = seen.entry(p).or_insert(false);
        *slot |= live;
    }
}

/// The files that `scope` selects under `root`, and how many selected paths are deleted.
///
/// - `staged`: index against `HEAD` (on an unborn branch, everything in the index).
/// - `changes`: `staged`, plus tracked files modified or deleted in the working tree, plus
///   untracked files that are not ignored (`.gitignore`, `.git/info/exclude`, `core.excludesFile`
///   of the repository config).
/// - `diff:<a>..<b>`: the tree-to-tree difference of two revisions.
///
/// Renames (detected as `git diff` does by default) appear under their new path only. Paths the
/// scope deletes, or that no longer exist in the working tree, are counted in
/// [`ScopeSelection::deleted`] instead of being selected. Root handling is that of
/// [`tracked_paths`]; `staged` and `changes` also recurse into initialized submodules, `diff`
/// does not (a submodule pointer is not a file).
pub fn scope_paths(root: &Path, scope: &GitScope) -> Result<ScopeSelection, GitError> {
    let mut seen = Seen::new();
    for loc in locate(root)? {
        match scope {
            GitScope::Staged => {
                status_into(root, &loc.repo, &loc.in_repo, &loc.out, false, &mut seen, 0)?;
            }
            GitScope::Changes => {
                status_into(root, &loc.repo, &loc.in_repo, &loc.out, true, &mut seen, 0)?;
            }
            GitScope::Diff { from, to } => {
                diff_into(root, &loc.repo, from, to, &loc.in_repo, &loc.out, &mut seen)?;
            }
        }
    }
    let mut selection = ScopeSelection::default();
    for (path, live) in seen {
        if live && present(&root.join(&path)) {
            selection.paths.insert(path);
        } else {
            selection.deleted += 1;
        }
    }
    Ok(selection)
}

/// A path that can be read from the working tree (a file or a symbolic link, not a directory).
pub(crate) fn present(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| !m.is_dir())
}

fn index_change_into(
    change: &gix::diff::index::ChangeRef<'_, '_>,
    seen: &mut Seen,
    in_repo: &str,
    out: &str,
) {
    use gix::diff::index::ChangeRef;
    match change {
        ChangeRef::Deletion {
            location,
            entry_mode,
            ..
        } => {
            if !entry_mode.is_submodule() && !entry_mode.is_sparse() {
                note(seen, location.as_ref(), false, in_repo, out);
            }
        }
        ChangeRef::Addition {
            location,
            entry_mode,
            ..
        }
        | ChangeRef::Modification {
            location,
            entry_mode,
            ..
        }
        | ChangeRef::Rewrite {
            location,
            entry_mode,
            ..
        } => {
            if !entry_mode.is_submodule() && !entry_mode.is_sparse() {
                note(seen, location.as_ref(), true, in_repo, out);
            }
        }
    }
}

/// What a status walk reports to: the repository it is in, then that repository's changes
/// (submodules follow their parent, each announced by `enter`).
pub(crate) trait StatusSink {
    /// The following changes are of `repo`; `in_repo`/`out` map its paths ([`map_path`]).
    fn enter(&mut self, repo: &gix::Repository, in_repo: &str, out: &str);
    /// A difference between `HEAD` and the index.
    fn index_change(&mut self, change: &gix::diff::index::ChangeRef<'_, '_>);
    /// A status item (`changes` only): index against `HEAD` or working tree against index.
    fn status_item(&mut self, item: gix::status::Item);
}

/// The paths a scope selects, as [`scope_paths`] collects them.
struct SeenSink<'s> {
    seen: &'s mut Seen,
    in_repo: String,
    out: String,
}

impl StatusSink for SeenSink<'_> {
    fn enter(&mut self, _: &gix::Repository, in_repo: &str, out: &str) {
        self.in_repo = in_repo.to_owned();
        self.out = out.to_owned();
    }
    fn index_change(&mut self, change: &gix::diff::index::ChangeRef<'_, '_>) {
        index_change_into(change, self.seen, &self.in_repo, &self.out);
    }
    fn status_item(&mut self, item: gix::status::Item) {
        status_item_into(item, self.seen, &self.in_repo, &self.out);
    }
}

fn status_into(
    root: &Path,
    repo: &gix::Repository,
    in_repo: &str,
    out: &str,
    worktree: bool,
    seen: &mut Seen,
    depth: usize,
) -> Result<(), GitError> {
    let mut sink = SeenSink {
        seen,
        in_repo: String::new(),
        out: String::new(),
    };
    walk_status(root, repo, in_repo, out, worktree, &mut sink, depth)
}

/// Walk `staged` (`worktree` false) or `changes` of `repo` and its initialized submodules.
pub(crate) fn walk_status(
    root: &Path,
    repo: &gix::Repository,
    in_repo: &str,
    out: &str,
    worktree: bool,
    sink: &mut dyn StatusSink,
    depth: usize,
) -> Result<(), GitError> {
    let index = repo
        .index_or_empty()
        .map_err(|e| state_err(root, "the Git index cannot be read", e))?;
    sink.enter(repo, in_repo, out);
    if worktree {
        let dirwalk = repo
            .dirwalk_options()
            .map_err(|e| state_err(root, "the working tree cannot be walked", e))?
            .emit_untracked(gix::dir::walk::EmissionMode::Matching)
            .emit_ignored(None)
            .emit_empty_directories(false)
            .emit_tracked(false)
            .recurse_repositories(false)
            .empty_patterns_match_prefix(false);
        let iter = repo
            .status(gix::progress::Discard)
            .map_err(|e| state_err(root, "Git status cannot be computed", e))?
            .index(index.clone().into())
            .index_worktree_submodules(None)
            .index_worktree_rewrites(None)
            .index_worktree_options_mut(|opts| {
                opts.dirwalk_options = Some(dirwalk);
                opts.sorting = None;
            })
            .into_iter(None)
            .map_err(|e| state_err(root, "Git status cannot be computed", e))?;
        for item in iter {
            let item = item.map_err(|e| state_err(root, "Git status failed", e))?;
            sink.status_item(item);
        }
    } else {
        let head_tree = repo
            .head_tree_id_or_empty()
            .map_err(|e| state_err(root, "HEAD cannot be read", e))?;
        repo.tree_index_status(
            &head_tree,
            &index,
            None,
            gix::status::tree_index::TrackRenames::AsConfigured,
            |change, _, _| {
                sink.index_change(&change);
                Ok(std::ops::ControlFlow::Continue(()))
            },
        )
        .map_err(|e| state_err(root, "the index cannot be compared with HEAD", e))?;
    }
    if depth < SUBMODULE_DEPTH && index.entries().iter().any(|e| e.mode.is_submodule()) {
        for (sub, sub_out) in submodules(root, repo, &index, in_repo, out)? {
            walk_status(root, &sub, "", &sub_out, worktree, sink, depth + 1)?;
        }
    }
    Ok(())
}

fn status_item_into(item: gix::status::Item, seen: &mut Seen, in_repo: &str, out: &str) {
    use gix::dir::entry::{Kind, Status};
    use gix::status::index_worktree::Item as Iw;
    use gix::status::plumbing::index_as_worktree::{Change, EntryStatus};
    match item {
        gix::status::Item::TreeIndex(change) => index_change_into(&change, seen, in_repo, out),
        gix::status::Item::IndexWorktree(Iw::Modification {
            entry,
            rela_path,
            status,
            ..
        }) => {
            if entry.mode.is_submodule() || entry.mode.is_sparse() {
                return;
            }
            let live = match status {
                EntryStatus::NeedsUpdate(_) => return,
                EntryStatus::Change(Change::Removed) => false,
                EntryStatus::Change(_)
                | EntryStatus::Conflict { .. }
                | EntryStatus::IntentToAdd => true,
            };
            note(seen, rela_path.as_bstr(), live, in_repo, out);
        }
        gix::status::Item::IndexWorktree(Iw::DirectoryContents { entry, .. }) => {
            if entry.status == Status::Untracked
                && matches!(entry.disk_kind, Some(Kind::File | Kind::Symlink))
            {
                note(seen, entry.rela_path.as_bstr(), true, in_repo, out);
            }
        }
        gix::status::Item::IndexWorktree(Iw::Rewrite { dirwalk_entry, .. }) => {
            note(seen, dirwalk_entry.rela_path.as_bstr(), true, in_repo, out);
        }
    }
}

/// The object a [`Revision`]'s base names: like Git, a ref (`<name>`, `refs/<name>`,
/// `refs/tags/<name>`, `refs/heads/<name>`, `refs/remotes/<name>`, `refs/remotes/<name>/HEAD`, in
/// that order) before an abbreviated object id. Pseudo-refs other than `HEAD` (`FETCH_HEAD`,
/// `ORIG_HEAD`, ...) are not names.
fn resolve_base(repo: &gix::Repository, base: Option<&str>) -> Result<gix::ObjectId, String> {
    let Some(name) = base else {
        return repo.head_id().map(|id| id.detach()).map_err(|_| {
            let unborn = repo.head().map(|h| h.is_unborn()).unwrap_or(false);
            if unborn {
                "the repository has no commits yet (HEAD is an unborn branch), so no revision can \
                 be diffed; commit first, or use the `staged` or `changes` scope"
                    .to_owned()
            } else {
                "HEAD does not point to a commit here; check that `git log -1` works, or name a \
                 branch, tag or commit id"
                    .to_owned()
            }
        });
    };
    let mut candidates = Vec::with_capacity(6);
    if name.starts_with("refs/") {
        candidates.push(name.to_owned());
    }
    for pattern in [
        "refs/{}",
        "refs/tags/{}",
        "refs/heads/{}",
        "refs/remotes/{}",
        "refs/remotes/{}/HEAD",
    ] {
        candidates.push(pattern.replace("{}", name));
    }
    for full in &candidates {
        let Ok(Some(mut reference)) = repo.try_find_reference(full.as_str()) else {
            continue;
        };
        if reference.name().as_bstr() != full.as_bytes() {
            continue; // gix's own shortening found some other ref
        }
        return reference
            .peel_to_id()
            .map(|id| id.detach())
            .map_err(|_| format!("the ref `{full}` does not point to an object that exists here"));
    }
    if could_be_object_id(name) {
        let hex = name.to_ascii_lowercase();
        let kind = repo.object_hash();
        if hex.len() == kind.len_in_hex() {
            if let Ok(id) = gix::ObjectId::from_hex(hex.as_bytes())
                && repo.has_object(id)
            {
                return Ok(id);
            }
        } else if hex.len() < kind.len_in_hex()
            && let Ok(prefix) = gix::hash::Prefix::from_hex(&hex)
        {
            match repo.objects.lookup_prefix(prefix, None) {
                Ok(Some(Ok(id))) => return Ok(id),
                Ok(Some(Err(()))) => {
                    return Err(format!(
                        "the abbreviated id `{name}` matches several objects; give more hex digits"
                    ));
                }
                _ => {}
            }
        }
    }
    Err(
        "it names no branch, tag or commit in this repository; use a branch, tag or commit id \
         that exists here (for example `main`, `v1.0`, a commit id from `git log`, or `HEAD~3`)"
            .to_owned(),
    )
}

/// Resolve one side of `diff:<a>..<b>` to its tree, with messages that say what exists.
pub(crate) fn resolve_tree<'r>(
    repo: &'r gix::Repository,
    spec: &str,
) -> Result<gix::Tree<'r>, GitError> {
    let invalid = |reason: String| GitError::InvalidRef {
        spec: echo(spec),
        reason,
    };
    // Already checked by `GitScope::parse`; checked again for scopes built directly.
    let revision = parse_revision(spec).map_err(|reason| GitError::InvalidScope { reason })?;
    let base_id = resolve_base(repo, revision.base).map_err(invalid)?;
    let object = repo
        .find_object(base_id)
        .map_err(|_| invalid("it names an object that is missing from this repository".into()))?;
    if revision.steps.is_empty() {
        return object.peel_to_tree().map_err(|_| {
            invalid("it names neither a commit nor a tree (a tag of a file?); name a commit".into())
        });
    }
    let mut commit = object.peel_to_commit().map_err(|_| {
        invalid("`~`/`^` steps need a commit, and this names something else; name a commit".into())
    })?;
    let shallow = repo.is_shallow().unwrap_or(false);
    let missing = |at: &str| {
        invalid(if shallow {
            format!(
                "the history before `{at}` is not in this repository: it is a shallow clone \
                 (remote sources are cloned with depth 1), so only the revisions it holds can be \
                 diffed; use the `staged` or `changes` scope, or a local checkout with full history"
            )
        } else {
            format!(
                "the parent of `{at}` is missing from this repository; check that `git log` works \
                 there"
            )
        })
    };
    // The revision reached so far, as the caller wrote it.
    let mut walked = revision.base.unwrap_or("HEAD").to_owned();
    for step in &revision.steps {
        match *step {
            Step::Parent(0) => walked.push_str("^0"),
            Step::Parent(n) => {
                let parents: Vec<gix::ObjectId> =
                    commit.parent_ids().map(|id| id.detach()).collect();
                let Some(parent) = usize::try_from(n - 1)
                    .ok()
                    .and_then(|i| parents.get(i))
                    .copied()
                else {
                    return Err(invalid(match parents.len() {
                        0 => format!(
                            "`{walked}` is a root commit (it has no parents), so `^{n}` names nothing"
                        ),
                        1 => format!(
                            "`{walked}` has 1 parent, so `^{n}` names nothing; use `^` or `^1`, or \
                             `~N` for older ancestors"
                        ),
                        k => format!(
                            "`{walked}` has {k} parents, so `^{n}` names nothing; use `^1` to `^{k}`"
                        ),
                    }));
                };
                commit = repo.find_commit(parent).map_err(|_| missing(&walked))?;
                walked.push_str(&format!("^{n}"));
            }
            Step::Ancestor(n) => {
                for done in 0..n {
                    let Some(parent) = commit.parent_ids().next().map(|id| id.detach()) else {
                        return Err(invalid(if done == 0 {
                            format!(
                                "`{walked}` is a root commit (nothing precedes it), so \
                                 `{walked}~{n}` names nothing"
                            )
                        } else {
                            let commits = if done == 1 {
                                "commit precedes"
                            } else {
                                "commits precede"
                            };
                            format!(
                                "`{walked}~{n}` goes back {n} commits, but only {done} {commits} \
                                 `{walked}` along its first-parent history; use `~{done}` or less"
                            )
                        }));
                    };
                    commit = repo
                        .find_commit(parent)
                        .map_err(|_| missing(&format!("{walked}~{done}")))?;
                }
                walked.push_str(&format!("~{n}"));
            }
        }
    }
    commit.tree().map_err(|_| {
        invalid(format!(
            "the tree of `{walked}` is missing from this repository"
        ))
    })
}

fn diff_into(
    root: &Path,
    repo: &gix::Repository,
    from: &str,
    to: &str,
    in_repo: &str,
    out: &str,
    seen: &mut Seen,
) -> Result<(), GitError> {
    use gix::object::tree::diff::ChangeDetached;
    let old = resolve_tree(repo, from)?;
    let new = resolve_tree(repo, to)?;
    let changes = repo
        .diff_tree_to_tree(&old, &new, None)
        .map_err(|e| state_err(root, "the two revisions cannot be compared", e))?;
    for change in changes {
        if !change.entry_mode().is_blob_or_symlink() {
            continue;
        }
        let live = !matches!(change, ChangeDetached::Deletion { .. });
        note(seen, change.location(), live, in_repo, out);
    }
    Ok(())
}
