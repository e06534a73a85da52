//! Project roots and the root jail.
//!
//! A root is canonicalised and pinned (a directory handle) once, when it is configured. Every
//! path a caller names is first resolved lexically ([`resolve_lexically`]: no `..` escape, no
//! foreign absolute, drive or UNC forms), then physically, from the root's handle down
//! ([`jail`]): in-root links are followed one component at a time and judged lexically, files
//! are opened without blocking or following a final link, and the opened handle is checked
//! (a regular file, the one that was listed) before a byte is read.

mod handle_path;
pub mod jail;
mod lexical;

use std::ffi::OsString;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::error::{DpxError, ErrorKind, Result};

pub use handle_path::real_path_of_handle;
use jail::{DirHandle, FileId, NodeKind, NodeMeta, OpenError};
pub use lexical::{
    HostStyle, LexicalPath, NameRules, Platform, RootSpellings, is_network_or_device_form,
    lexical_inside, resolve_lexically, windows_device_name,
};

/// A configured local project root, pinned: `dir` is the folder as it was when the root was
/// opened, whatever later happens to the path.
#[derive(Debug, Clone)]
pub struct ProjectRoot {
    /// Canonical absolute path (symlinks resolved) at the time the root was opened.
    pub path: PathBuf,
    /// The folder name, used as the project's short name.
    pub name: String,
    /// The address shown to callers and accepted as `project` (the canonical path).
    pub address: String,
    /// Every absolute spelling of the root a caller may use, and how its volume compares names.
    spellings: RootSpellings,
    dir: Arc<DirHandle>,
}

impl PartialEq for ProjectRoot {
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path && self.address == other.address
    }
}

impl Eq for ProjectRoot {}

impl ProjectRoot {
    /// Canonicalise `path`, check it is an existing directory, and pin it.
    pub fn open(path: &Path) -> Result<Self> {
        let display = path.display().to_string();
        if display.contains("${workspaceFolder}") {
            return Err(DpxError::new(
                ErrorKind::ProjectUnavailable,
                format!(
                    "root '{display}' contains an unexpanded '${{workspaceFolder}}': this client does not expand VS Code variables; pass an absolute project path instead"
                ),
            ));
        }
        let canonical = dunce_canonicalize(path).map_err(|err| {
            DpxError::new(
                ErrorKind::ProjectUnavailable,
                format!(
                    "root '{display}' is not available: {err}; pass an existing project directory"
                ),
            )
            .with_source(err)
        })?;
        if !canonical.is_dir() {
            return Err(DpxError::new(
                ErrorKind::ProjectUnavailable,
                format!(
                    "root '{display}' is not a directory; pass a project directory, not a file"
                ),
            ));
        }
        let dir = DirHandle::open_root(&canonical).map_err(|err| {
            DpxError::new(
                ErrorKind::ProjectUnavailable,
                format!("root '{display}' cannot be opened: {err}; check its permissions"),
            )
            .with_source(err)
        })?;
        let name = canonical
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| canonical.to_string_lossy().into_owned());
        let address = canonical.to_string_lossy().into_owned();
        let configured = absolute_lexically(path);
        let platform = Platform::current();
        let spellings = RootSpellings::new(
            &canonical,
            &[configured.as_path()],
            platform,
            volume_names(&canonical, platform),
        );
        Ok(Self {
            path: canonical,
            name,
            address,
            spellings,
            dir: Arc::new(dir),
        })
    }

    /// The root's spellings and name rules (see [`RootSpellings`]).
    pub fn spellings(&self) -> &RootSpellings {
        &self.spellings
    }

    /// True when `value` names this root: its address, or lexically one of its spellings
    /// (relative to the working folder, `~` for the home folder). Never touches the file system.
    pub fn is_named_by(&self, value: &str) -> bool {
        if value == self.address {
            return true;
        }
        let cwd = std::env::current_dir().ok();
        let home = directories::BaseDirs::new().map(|dirs| dirs.home_dir().to_path_buf());
        self.spellings
            .names_root(value, cwd.as_deref(), home.as_deref())
    }

    /// The pinned root folder: every listing and read starts here.
    pub fn dir_handle(&self) -> &Arc<DirHandle> {
        &self.dir
    }

    /// [`resolve_lexically`] against this root. A violation names the root by its address (for
    /// a remote checkout the URL, never its RepoCache path).
    pub fn lexical(&self, input: &str) -> Result<LexicalPath> {
        if let Some(literal) = self.existing_literal(input) {
            return Ok(literal);
        }
        resolve_lexically(input, &self.spellings).map_err(|err| {
            if err.kind == ErrorKind::RootViolation {
                root_violation(input, self)
            } else {
                err
            }
        })
    }

    /// On Unix a `\` is a name character: the tree lists `\backslash.txt` as it is. The path
    /// `input` read that way ([`lexical::literal_unix_reading`], never above the root), when it
    /// names a file or folder that exists inside the root (walked from the root's handle,
    /// following in-root links only). Otherwise `\` stays a separator, so the Windows-style
    /// `src\main.rs` keeps working; an existing literal name wins, since it is the name the
    /// listing shows.
    fn existing_literal(&self, input: &str) -> Option<LexicalPath> {
        let literal = lexical::literal_unix_reading(input, &self.spellings)?;
        let components: Vec<OsString> = literal
            .as_str()
            .split('/')
            .filter(|p| !p.is_empty())
            .map(OsString::from)
            .collect();
        if components.is_empty() {
            return None;
        }
        jail::resolve_beneath(&self.dir, &self.spellings, &components).ok()?;
        Some(literal)
    }

    /// Resolve a caller-supplied path inside the root: lexical checks, then a walk from the
    /// root's handle that follows in-root links only. What the path names must exist.
    pub fn resolve(&self, input: &str) -> Result<ResolvedPath> {
        let lexical = self.lexical(input)?;
        let components: Vec<OsString> = lexical
            .as_str()
            .split('/')
            .filter(|p| !p.is_empty())
            .map(OsString::from)
            .collect();
        let resolved = jail::resolve_beneath(&self.dir, &self.spellings, &components)
            .map_err(|err| open_error(err, input, lexical.as_str(), self))?;
        let real_relative = resolved.relative_string();
        // Without a link on the way the real path is the named one, in the names the folders
        // list (another case or Unicode form on a volume that ignores them reads as listed).
        let relative = if resolved.through_link {
            lexical
        } else {
            LexicalPath::from_listed(real_relative.clone())
        };
        Ok(ResolvedPath {
            real_relative,
            real_components: resolved.relative,
            meta: resolved.meta,
            relative,
        })
    }

    /// Open a file the walk listed (no link may be on the way; it must still be the file that
    /// was listed when `expected` is given).
    pub fn open_listed(
        &self,
        relative: &Path,
        expected: Option<FileId>,
    ) -> Result<(File, NodeMeta)> {
        let parts: Vec<&std::ffi::OsStr> = relative.components().map(|c| c.as_os_str()).collect();
        jail::open_listed_file(&self.dir, &parts, expected).map_err(|err| {
            let shown = relative.to_string_lossy().replace('\\', "/");
            open_error(err, &shown, &shown, self)
        })
    }

    /// Open the regular file a [`ResolvedPath`] names (its real, link-free path).
    pub fn open_resolved(&self, resolved: &ResolvedPath) -> Result<(File, NodeMeta)> {
        let parts: Vec<&std::ffi::OsStr> = resolved
            .real_components
            .iter()
            .map(|p| p.as_os_str())
            .collect();
        jail::open_listed_file(&self.dir, &parts, resolved.meta.id).map_err(|err| {
            open_error(
                err,
                resolved.relative.as_str(),
                resolved.relative.as_str(),
                self,
            )
        })
    }
}

/// The typed error for a failed open or resolution. `input` is shown as the caller gave it.
pub fn open_error(err: OpenError, input: &str, relative: &str, root: &ProjectRoot) -> DpxError {
    let shown: String = relative.chars().take(200).collect();
    match err {
        OpenError::Escapes => root_violation(input, root),
        OpenError::NotFound => DpxError::new(
            ErrorKind::PathNotFound,
            format!(
                "path '{shown}' does not exist in project '{}'; use get_tree to list the project's files",
                root.address
            ),
        ),
        OpenError::PermissionDenied => DpxError::new(
            ErrorKind::Unreadable,
            format!(
                "'{shown}' cannot be read: permission denied for this user; check the file's permissions"
            ),
        ),
        OpenError::NotRegular(kind) => DpxError::new(
            ErrorKind::NotRegularFile,
            format!(
                "'{shown}' is {}, not a regular file; only regular files are read",
                kind.describe()
            ),
        ),
        OpenError::IsDir => DpxError::invalid_arguments(format!(
            "'{shown}' is a folder; get_file reads one file. Use get_tree to list its files"
        )),
        OpenError::Loop => DpxError::new(
            ErrorKind::Unreadable,
            format!(
                "'{shown}' is a symbolic-link loop (or a chain of more than {} links) and cannot be read",
                jail::MAX_LINK_HOPS
            ),
        ),
        OpenError::Symlink | OpenError::Changed => DpxError::new(
            ErrorKind::Unreadable,
            format!(
                "'{shown}' changed while it was being read (replaced by a link or another file); retry"
            ),
        ),
        OpenError::NotLocal => DpxError::new(
            ErrorKind::Unreadable,
            format!(
                "'{shown}' is a cloud placeholder whose content is not on this machine; it is not read, because reading would download it. Make it available offline, then retry"
            ),
        ),
        OpenError::Io(io) => DpxError::new(
            ErrorKind::Unreadable,
            format!("'{shown}' cannot be read: {io}"),
        ),
    }
}

/// A caller path that passed the lexical and physical checks.
#[derive(Debug, Clone)]
pub struct ResolvedPath {
    /// The path as the caller named it (normalised).
    pub relative: LexicalPath,
    /// The real path it leads to, with no links (`/`-separated; empty for the root).
    pub real_relative: String,
    real_components: Vec<OsString>,
    pub meta: NodeMeta,
}

impl ResolvedPath {
    pub fn is_dir(&self) -> bool {
        self.meta.kind == NodeKind::Dir
    }
}

/// The uniform root-violation error: it reads the same whether or not the outside path exists.
pub fn root_violation(input: &str, root: &ProjectRoot) -> DpxError {
    let shown: String = input.chars().take(200).collect();
    DpxError::new(
        ErrorKind::RootViolation,
        format!(
            "path '{shown}' is outside project root '{}'; pass a path relative to the root, using '/' and no '..'",
            root.address
        ),
    )
}

/// `path` made absolute against the working folder, without resolving anything.
fn absolute_lexically(path: &Path) -> PathBuf {
    if path.is_absolute() {
        return path.to_path_buf();
    }
    std::env::current_dir()
        .map(|cwd| cwd.join(path))
        .unwrap_or_else(|_| path.to_path_buf())
}

/// How the volume holding `root` compares names. macOS asks the volume (APFS and HFS+ can be
/// formatted case-sensitive; both ignore Unicode normalisation); elsewhere the platform's
/// default applies (NTFS ignores case; Linux file systems compare bytes).
#[cfg(target_os = "macos")]
#[allow(unsafe_code)] // the platform call; its SAFETY note is at the block
fn volume_names(root: &Path, platform: Platform) -> NameRules {
    use std::os::unix::ffi::OsStrExt;
    let mut names = platform.default_names();
    if let Ok(c_path) = std::ffi::CString::new(root.as_os_str().as_bytes()) {
        // SAFETY: `c_path` is a NUL-terminated string that outlives the call.
        let sensitive = unsafe { libc::pathconf(c_path.as_ptr(), libc::_PC_CASE_SENSITIVE) };
        if sensitive == 1 {
            names.case_insensitive = false;
        }
    }
    names
}

#[cfg(not(target_os = "macos"))]
fn volume_names(_root: &Path, platform: Platform) -> NameRules {
    platform.default_names()
}

/// `std::fs::canonicalize`, but on Windows without the `\\?\` verbatim prefix when the path
/// can be expressed without it, so roots compare and print the way users typed them.
pub fn dunce_canonicalize(path: &Path) -> std::io::Result<PathBuf> {
    let canonical = std::fs::canonicalize(path)?;
    Ok(strip_verbatim(canonical))
}

#[cfg(windows)]
fn strip_verbatim(path: PathBuf) -> PathBuf {
    match path.to_str() {
        Some(text) => PathBuf::from(lexical::without_verbatim_prefix(text).into_owned()),
        None => path,
    }
}

#[cfg(not(windows))]
fn strip_verbatim(path: PathBuf) -> PathBuf {
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Opening a placeholder by name (`get_file`, a pack's `paths`) is refused with a code and a
    /// message that says why and how to retry, never as a generic I/O failure.
    #[test]
    fn a_placeholder_opened_by_name_says_why_it_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let root = ProjectRoot::open(dir.path()).unwrap();
        let err = open_error(OpenError::NotLocal, "docs/a.md", "docs/a.md", &root);
        assert_eq!(err.kind, ErrorKind::Unreadable);
        assert_eq!(
            err.message,
            "'docs/a.md' is a cloud placeholder whose content is not on this machine; it is not read, because reading would download it. Make it available offline, then retry"
        );
    }
}
