//! `file://` sources never expand the root jail.
//!
//! Before a local repository is cloned, every place Git would read it from is resolved: the
//! `.git` file or symbolic link, `commondir`, the object directory and its alternates
//! (`objects/info/alternates`, `objects/info/http-alternates`, nested), worktree links
//! (`worktrees/*/gitdir`), configuration includes, and every symbolic link inside those
//! directories. Each must lie inside a configured root. The clone then reads exactly the Git
//! directory found here (`git upload-pack --strict`), so Git's own guessing (`<dir>/.git`,
//! `<dir>.git`, a `.git` file) cannot pick another one.
//!
//! A violation names the link by its place inside the root, never its target, so the answer is
//! the same whether or not the outside target exists. Hard links are not links here: the jail is
//! path-based, like Git's and ripgrep's.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fs;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// Alternates may chain this deep (Git itself stops at 5 and ignores the rest).
const MAX_ALTERNATE_DEPTH: usize = 5;

/// The largest link file read (`.git` file, `commondir`, alternates, `gitdir`, config).
const MAX_LINK_FILE: u64 = 1024 * 1024;

/// Directory nesting walked inside a Git directory (`refs/heads/a/b/...`).
const MAX_WALK_DEPTH: usize = 128;

/// Why a `file://` repository cannot be cloned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum JailError {
    /// Something points outside the roots: the description names the link, inside the root.
    Outside(String),
    /// No repository at the path (no `.git`, not a bare repository).
    NotARepository,
    /// A link file or directory cannot be read, or is a special file (FIFO, socket, device).
    Unreadable(String),
}

/// The checked layout of a local repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CheckedRepo {
    /// The Git directory to clone from (canonical).
    pub(crate) git_dir: PathBuf,
}

/// Resolve the repository at `repo` (canonical, inside `roots`) and check that nothing it reads
/// lies outside `roots` (canonical).
pub(crate) fn check_repository(repo: &Path, roots: &[PathBuf]) -> Result<CheckedRepo, JailError> {
    let jail = Jail { roots, repo };
    let git_dir = jail.git_dir()?;
    let common = match jail.read_link_file(&git_dir.join("commondir"))? {
        Some(text) => {
            let line = first_line(&text);
            let target = jail.place(&git_dir, line, || {
                format!("`{}`", jail.show(&git_dir.join("commondir")))
            })?;
            target.ok_or(JailError::NotARepository)?
        }
        None => git_dir.clone(),
    };
    let mut walked = BTreeSet::new();
    jail.walk(&git_dir, &mut walked)?;
    jail.walk(&common, &mut walked)?;
    jail.config_includes(&common.join("config"))?;
    jail.config_includes(&git_dir.join("config.worktree"))?;
    jail.worktree_links(&common)?;
    jail.object_dirs(&common.join("objects"), &mut walked)?;
    Ok(CheckedRepo { git_dir })
}

/// Whether a path that does not resolve (it does not exist) would lie inside `roots`: lexically,
/// and not through a symbolic link that leaves them. Missing paths outside the roots must get the
/// same answer as existing ones.
pub(crate) fn missing_path_inside(path: &Path, roots: &[PathBuf]) -> bool {
    let jail = Jail { roots, repo: path };
    jail.inside(&normalize(path)) && !jail.through_outside_link(path)
}

struct Jail<'a> {
    roots: &'a [PathBuf],
    repo: &'a Path,
}

impl Jail<'_> {
    fn inside(&self, path: &Path) -> bool {
        let path = without_verbatim_prefix(path);
        self.roots
            .iter()
            .any(|root| path.starts_with(&*without_verbatim_prefix(root)))
    }

    /// A path for messages: relative to the repository when below it (`.git/objects`), else as
    /// it is (it lies inside a configured root, which messages may name).
    fn show(&self, path: &Path) -> String {
        match path.strip_prefix(self.repo) {
            Ok(rel) if rel.as_os_str().is_empty() => ".".to_owned(),
            Ok(rel) => rel.to_string_lossy().replace('\\', "/"),
            Err(_) => path.to_string_lossy().replace('\\', "/"),
        }
    }

    /// Resolve `target` (absolute, or relative to `base`) and require it inside the roots.
    /// `Ok(None)`: it does not exist (Git reads nothing there), but lies lexically inside.
    fn place(
        &self,
        base: &Path,
        target: &str,
        what: impl Fn() -> String,
    ) -> Result<Option<PathBuf>, JailError> {
        let joined = base.join(target);
        match fs::canonicalize(&joined) {
            Ok(real) if self.inside(&real) => Ok(Some(real)),
            Ok(_) => Err(JailError::Outside(what())),
            Err(_) if self.inside(&normalize(&joined)) && !self.through_outside_link(&joined) => {
                Ok(None)
            }
            Err(_) => Err(JailError::Outside(what())),
        }
    }

    /// True when some existing prefix of `path` is a symbolic link that leaves the roots (a
    /// dangling target reached through it must not be judged lexically).
    fn through_outside_link(&self, path: &Path) -> bool {
        let mut current = PathBuf::new();
        for component in normalize(path).components() {
            current.push(component);
            let Ok(meta) = fs::symlink_metadata(&current) else {
                return false;
            };
            if meta.file_type().is_symlink() {
                return match fs::canonicalize(&current) {
                    Ok(real) => !self.inside(&real),
                    Err(_) => true,
                };
            }
        }
        false
    }

    /// Which Git directory `git` would use for the repository, by Git's rules for a `.git`
    /// entry: a directory, a symbolic link to one, or a file `gitdir: <path>`; without `.git`,
    /// the folder itself when it is a bare repository.
    fn git_dir(&self) -> Result<PathBuf, JailError> {
        let dot_git = self.repo.join(".git");
        let meta = match fs::symlink_metadata(&dot_git) {
            Ok(meta) => meta,
            Err(_) if looks_like_git_dir(self.repo) => return Ok(self.repo.to_path_buf()),
            Err(_) => return Err(JailError::NotARepository),
        };
        let kind = meta.file_type();
        if kind.is_dir() || kind.is_symlink() {
            let what = || {
                if kind.is_symlink() {
                    "the symbolic link `.git`".to_owned()
                } else {
                    "`.git`".to_owned()
                }
            };
            return self
                .place(self.repo, ".git", what)?
                .ok_or(JailError::NotARepository);
        }
        if !kind.is_file() {
            return Err(JailError::Unreadable(
                "`.git` is a special file (FIFO, socket or device)".into(),
            ));
        }
        let text = self
            .read_link_file(&dot_git)?
            .ok_or(JailError::NotARepository)?;
        let Some(target) = first_line(&text).strip_prefix("gitdir:") else {
            return Err(JailError::NotARepository);
        };
        self.place(self.repo, target.trim(), || {
            "the `gitdir:` line of the `.git` file".to_owned()
        })?
        .ok_or(JailError::NotARepository)
    }

    /// The text of a small regular file, `None` when it does not exist. A symbolic link is
    /// followed only to a target inside the roots; a FIFO or device is never opened.
    fn read_link_file(&self, path: &Path) -> Result<Option<String>, JailError> {
        let Ok(meta) = fs::symlink_metadata(path) else {
            return Ok(None);
        };
        let shown = self.show(path);
        if meta.file_type().is_symlink() {
            let real = fs::canonicalize(path).ok();
            if !real.as_deref().is_some_and(|r| self.inside(r)) {
                return Err(JailError::Outside(format!("the symbolic link `{shown}`")));
            }
        }
        let meta = fs::metadata(path).map_err(|_| unreadable(&shown))?;
        if !meta.is_file() {
            return Err(JailError::Unreadable(format!(
                "`{shown}` is not a regular file"
            )));
        }
        let mut text = String::new();
        fs::File::open(path)
            .and_then(|f| f.take(MAX_LINK_FILE + 1).read_to_string(&mut text))
            .map_err(|_| unreadable(&shown))?;
        if text.len() as u64 > MAX_LINK_FILE {
            return Err(JailError::Unreadable(format!(
                "`{shown}` is larger than 1 MiB"
            )));
        }
        Ok(Some(text))
    }

    /// Every symbolic link below `dir` must point inside the roots, and nothing below it may be
    /// a FIFO, socket or device (Git would block on one). Links to folders are not descended:
    /// their targets are checked, and object directories are walked in their own right.
    fn walk(&self, dir: &Path, walked: &mut BTreeSet<PathBuf>) -> Result<(), JailError> {
        // A folder below one already walked was seen there (a link into it was checked).
        if walked.iter().any(|done| dir.starts_with(done)) {
            return Ok(());
        }
        walked.insert(dir.to_path_buf());
        let mut stack = vec![(dir.to_path_buf(), 0usize)];
        while let Some((current, depth)) = stack.pop() {
            if depth > MAX_WALK_DEPTH {
                return Err(JailError::Unreadable(format!(
                    "`{}` nests folders more than {MAX_WALK_DEPTH} levels deep",
                    self.show(dir)
                )));
            }
            let entries = fs::read_dir(&current).map_err(|_| unreadable(&self.show(&current)))?;
            for entry in entries {
                let entry = entry.map_err(|_| unreadable(&self.show(&current)))?;
                let path = entry.path();
                let kind = entry
                    .file_type()
                    .map_err(|_| unreadable(&self.show(&path)))?;
                if kind.is_dir() {
                    stack.push((path, depth + 1));
                } else if kind.is_symlink() {
                    let shown = self.show(&path);
                    let target = fs::read_link(&path).map_err(|_| unreadable(&shown))?;
                    let base = path.parent().unwrap_or(&current).to_path_buf();
                    let target = target.to_string_lossy().into_owned();
                    self.place(&base, &target, || format!("the symbolic link `{shown}`"))?;
                } else if !kind.is_file() {
                    return Err(JailError::Unreadable(format!(
                        "`{}` is a special file (FIFO, socket or device)",
                        self.show(&path)
                    )));
                }
            }
        }
        Ok(())
    }

    /// The object directory and every alternate it chains to, each walked for links.
    fn object_dirs(&self, objects: &Path, walked: &mut BTreeSet<PathBuf>) -> Result<(), JailError> {
        let Some(first) = self.place(objects, "", || {
            format!("the object folder `{}`", self.show(objects))
        })?
        else {
            return Ok(());
        };
        let mut queue = vec![(first, 0usize)];
        let mut seen = BTreeSet::new();
        while let Some((dir, depth)) = queue.pop() {
            if !seen.insert(dir.clone()) {
                continue;
            }
            self.walk(&dir, walked)?;
            for (file, http) in [("info/alternates", false), ("info/http-alternates", true)] {
                let path = dir.join(file);
                let Some(text) = self.read_link_file(&path)? else {
                    continue;
                };
                let shown = self.show(&path);
                for (number, line) in text.lines().enumerate() {
                    let Some(target) = alternate_entry(line, http) else {
                        continue;
                    };
                    let what = || format!("line {} of `{shown}`", number + 1);
                    let target = target.map_err(|()| JailError::Outside(what()))?;
                    let Some(real) = self.place(&dir, &target, what)? else {
                        continue;
                    };
                    if depth + 1 > MAX_ALTERNATE_DEPTH {
                        return Err(JailError::Unreadable(format!(
                            "object alternates nest deeper than {MAX_ALTERNATE_DEPTH} levels at \
                             line {} of `{shown}`",
                            number + 1
                        )));
                    }
                    queue.push((real, depth + 1));
                }
            }
        }
        Ok(())
    }

    /// `worktrees/<id>/gitdir` of the common directory: the linked worktrees' `.git` files.
    fn worktree_links(&self, common: &Path) -> Result<(), JailError> {
        let Ok(entries) = fs::read_dir(common.join("worktrees")) else {
            return Ok(());
        };
        for entry in entries.flatten() {
            let dir = entry.path();
            let link = dir.join("gitdir");
            let Some(text) = self.read_link_file(&link)? else {
                continue;
            };
            let shown = self.show(&link);
            self.place(&dir, first_line(&text), || {
                format!("the worktree link `{shown}`")
            })?;
        }
        Ok(())
    }

    /// `include.path` and `includeIf.<condition>.path` of a config file: Git reads those files
    /// too, so they must lie inside the roots (`~/...` only when the home folder is in a root).
    fn config_includes(&self, config: &Path) -> Result<(), JailError> {
        let Some(text) = self.read_link_file(config)? else {
            return Ok(());
        };
        let shown = self.show(config);
        let parsed = gix::config::File::from_bytes_no_includes(
            text.as_bytes(),
            gix::config::file::Metadata::api(),
            Default::default(),
        )
        .map_err(|_| {
            JailError::Unreadable(format!("`{shown}` is not a valid Git configuration file"))
        })?;
        let base = config.parent().unwrap_or(config).to_path_buf();
        for section in ["include", "includeIf"] {
            let Some(sections) = parsed.sections_by_name(section) else {
                continue;
            };
            for body in sections {
                for value in body.values("path") {
                    let value = String::from_utf8_lossy(&value).into_owned();
                    let what = || format!("an `{section}.path` in `{shown}`");
                    let target = match value.strip_prefix("~/") {
                        Some(rest) => match home_dir() {
                            Some(home) => home.join(rest).to_string_lossy().into_owned(),
                            None => return Err(JailError::Outside(what())),
                        },
                        None if value.starts_with('~') || value.starts_with("%(") => {
                            return Err(JailError::Outside(what()));
                        }
                        None => value,
                    };
                    self.place(&base, &target, what)?;
                }
            }
        }
        Ok(())
    }
}

fn unreadable(shown: &str) -> JailError {
    JailError::Unreadable(format!("`{shown}` cannot be read"))
}

fn home_dir() -> Option<PathBuf> {
    std::env::var_os(if cfg!(windows) { "USERPROFILE" } else { "HOME" })
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
}

/// A bare repository (or a Git directory given directly): `HEAD` and an object directory.
fn looks_like_git_dir(dir: &Path) -> bool {
    dir.join("HEAD").is_file() && (dir.join("objects").is_dir() || dir.join("commondir").is_file())
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("").trim_end_matches('\r')
}

/// One line of an alternates file: `None` to skip (blank, comment), `Err` for a URL to another
/// host (http-alternates), else the path, relative to the object directory unless absolute.
/// Git C-quotes lines that start with `"`.
pub(crate) fn alternate_entry(line: &str, http: bool) -> Option<Result<String, ()>> {
    let line = line.trim_end_matches('\r');
    if line.trim().is_empty() || line.starts_with('#') {
        return None;
    }
    if http && line.contains("://") {
        return Some(Err(()));
    }
    if let Some(quoted) = line.strip_prefix('"') {
        return Some(c_unquote(quoted).ok_or(()));
    }
    Some(Ok(line.to_owned()))
}

/// Undo Git's C-style quoting (the opening quote already removed).
fn c_unquote(s: &str) -> Option<String> {
    let mut out = Vec::new();
    let mut bytes = s.bytes();
    while let Some(b) = bytes.next() {
        match b {
            b'"' => return String::from_utf8(out).ok(),
            b'\\' => {
                let c = bytes.next()?;
                let v = match c {
                    b'a' => 7,
                    b'b' => 8,
                    b't' => b'\t',
                    b'n' => b'\n',
                    b'v' => 11,
                    b'f' => 12,
                    b'r' => b'\r',
                    b'"' | b'\\' => c,
                    b'0'..=b'3' => {
                        let d1 = bytes.next()?;
                        let d2 = bytes.next()?;
                        if !(b'0'..=b'7').contains(&d1) || !(b'0'..=b'7').contains(&d2) {
                            return None;
                        }
                        (c - b'0') * 64 + (d1 - b'0') * 8 + (d2 - b'0')
                    }
                    _ => return None,
                };
                out.push(v);
            }
            other => out.push(other),
        }
    }
    None
}

/// Remove `.` and `..` without touching the file system.
/// A path without Windows' verbatim prefix (`\\?\C:\x` is `C:\x`, `\\?\UNC\s\x` is
/// `\\s\x`): the roots are canonical, so verbatim there, while a path not yet resolved (a
/// missing folder) is not, and `Path::starts_with` tells the two prefixes apart.
fn without_verbatim_prefix(path: &Path) -> Cow<'_, Path> {
    let Some(rest) = path.to_str().and_then(|text| text.strip_prefix(r"\\?\")) else {
        return Cow::Borrowed(path);
    };
    match rest.as_bytes() {
        [drive, b':', ..] if drive.is_ascii_alphabetic() => Cow::Borrowed(Path::new(rest)),
        _ => match rest.strip_prefix(r"UNC\") {
            Some(share) => Cow::Owned(PathBuf::from(format!(r"\\{share}"))),
            None => Cow::Borrowed(path),
        },
    }
}

fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbatim_prefixes_are_dropped_for_comparison() {
        let plain = |s: &str| without_verbatim_prefix(Path::new(s)).into_owned();
        assert_eq!(plain(r"\\?\C:\Users\ada"), PathBuf::from(r"C:\Users\ada"));
        assert_eq!(
            plain(r"\\?\UNC\server\share\x"),
            PathBuf::from(r"\\server\share\x")
        );
        assert_eq!(plain(r"C:\Users\ada"), PathBuf::from(r"C:\Users\ada"));
        assert_eq!(plain("/home/ada"), PathBuf::from("/home/ada"));
        // a device path is not a drive path
        assert_eq!(plain(r"\\?\pipe\x"), PathBuf::from(r"\\?\pipe\x"));
    }

    #[test]
    fn alternate_lines() {
        assert_eq!(alternate_entry("", false), None);
        assert_eq!(alternate_entry("# comment", false), None);
        assert_eq!(
            alternate_entry("../../other/objects", false),
            Some(Ok("../../other/objects".into()))
        );
        assert_eq!(
            alternate_entry("\"/tmp/a\\040b\\\\c\"", false),
            Some(Ok("/tmp/a b\\c".into()))
        );
        assert_eq!(alternate_entry("\"unterminated", false), Some(Err(())));
        assert_eq!(
            alternate_entry("https://other.example/objects", true),
            Some(Err(()))
        );
        assert_eq!(
            alternate_entry("/srv/objects\r", true),
            Some(Ok("/srv/objects".into()))
        );
    }

    #[test]
    fn lexical_normalisation() {
        assert_eq!(
            normalize(Path::new("/a/b/../c/./d")),
            PathBuf::from("/a/c/d")
        );
        assert_eq!(normalize(Path::new("/a/../../x")), PathBuf::from("/x"));
    }
}
