//! Project roots and the root jail.
//!
//! A root is canonicalised once when it is configured. Every path a caller names is first
//! resolved lexically ([`resolve_lexically`]: no `..` escape, no foreign absolute, drive or
//! UNC forms), then physically ([`open_file_in_root`]: the file is opened and the *opened
//! handle's* real path is checked to lie inside the root before a byte is read), so a
//! symlink swapped in between the check and the open cannot escape.

mod handle_path;
mod lexical;

use std::fs::File;
use std::path::{Path, PathBuf};

use crate::error::{DpxError, Result, codes};

pub use handle_path::real_path_of_handle;
pub use lexical::{HostStyle, LexicalPath, resolve_lexically};

/// A configured local project root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectRoot {
    /// Canonical absolute path (symlinks resolved).
    pub path: PathBuf,
    /// The folder name, used as the project's short name.
    pub name: String,
    /// The address shown to callers and accepted as `project` (the canonical path).
    pub address: String,
}

impl ProjectRoot {
    /// Canonicalise `path` and check it is an existing directory.
    pub fn open(path: &Path) -> Result<Self> {
        let display = path.display().to_string();
        if display.contains("${workspaceFolder}") {
            return Err(DpxError::new(
                codes::PROJECT_UNAVAILABLE,
                format!(
                    "root '{display}' contains an unexpanded '${{workspaceFolder}}': this client does not expand VS Code variables; pass an absolute project path instead"
                ),
            ));
        }
        let canonical = dunce_canonicalize(path).map_err(|err| {
            DpxError::new(
                codes::PROJECT_UNAVAILABLE,
                format!(
                    "root '{display}' is not available: {err}; pass an existing project directory"
                ),
            )
        })?;
        if !canonical.is_dir() {
            return Err(DpxError::new(
                codes::PROJECT_UNAVAILABLE,
                format!(
                    "root '{display}' is not a directory; pass a project directory, not a file"
                ),
            ));
        }
        let name = canonical
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| canonical.to_string_lossy().into_owned());
        let address = canonical.to_string_lossy().into_owned();
        Ok(Self {
            path: canonical,
            name,
            address,
        })
    }

    /// True when `candidate` (an absolute, real path) lies inside this root.
    pub fn contains(&self, candidate: &Path) -> bool {
        candidate.starts_with(&self.path)
    }

    /// [`resolve_lexically`] against this root. A violation names the root by its address (for
    /// a remote checkout the URL, never its RepoCache path).
    pub fn lexical(&self, input: &str) -> Result<LexicalPath> {
        resolve_lexically(input, &self.path, HostStyle::current()).map_err(|err| {
            if err.code == codes::ROOT_VIOLATION {
                root_violation(input, self)
            } else {
                err
            }
        })
    }

    /// Resolve a caller-supplied path to a relative path inside the root (lexical checks,
    /// then a physical containment check of the existing target).
    pub fn resolve(&self, input: &str) -> Result<ResolvedPath> {
        let lexical = self.lexical(input)?;
        let joined = lexical.join_onto(&self.path);
        let real = dunce_canonicalize(&joined).map_err(|_| {
            // A path through a symlink that leaves the root is a violation whether or not the
            // outside target exists: the answer must not reveal what exists outside.
            if self.escapes_through_symlink(&lexical) {
                return root_violation(input, self);
            }
            DpxError::new(
                codes::PATH_NOT_FOUND,
                format!(
                    "path '{}' does not exist in project '{}'; use get_tree to list the project's files",
                    lexical.as_str(),
                    self.address
                ),
            )
        })?;
        if !self.contains(&real) {
            return Err(root_violation(input, self));
        }
        Ok(ResolvedPath {
            relative: lexical,
            real,
        })
    }
}

impl ProjectRoot {
    /// True when some existing prefix of `lexical` is a symlink whose target (resolved, or taken
    /// lexically when dangling) lies outside the root.
    fn escapes_through_symlink(&self, lexical: &LexicalPath) -> bool {
        let mut current = self.path.clone();
        for part in lexical.as_str().split('/').filter(|p| !p.is_empty()) {
            current.push(part);
            let Ok(meta) = std::fs::symlink_metadata(&current) else {
                return false;
            };
            if !meta.file_type().is_symlink() {
                continue;
            }
            let target = match dunce_canonicalize(&current) {
                Ok(real) => real,
                Err(_) => match std::fs::read_link(&current) {
                    Ok(link) => {
                        let base = current.parent().unwrap_or(&self.path).to_path_buf();
                        normalize_lexically(&base.join(link))
                    }
                    Err(_) => return true,
                },
            };
            if !self.contains(&target) {
                return true;
            }
        }
        false
    }
}

/// Remove `.` and `..` components without touching the file system.
pub fn normalize_lexically(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// A caller path that passed the lexical and physical checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedPath {
    pub relative: LexicalPath,
    pub real: PathBuf,
}

/// The uniform root-violation error: it reads the same whether or not the outside path exists.
pub fn root_violation(input: &str, root: &ProjectRoot) -> DpxError {
    let shown: String = input.chars().take(200).collect();
    DpxError::new(
        codes::ROOT_VIOLATION,
        format!(
            "path '{shown}' is outside project root '{}'; pass a path relative to the root, using '/' and no '..'",
            root.address
        ),
    )
}

/// Open `relative` inside `root`, then verify the opened handle's real path is inside the
/// root before returning it. Symlinks are resolved by the OS at open time; the check on the
/// handle is what makes a swap between listing and reading harmless.
pub fn open_file_in_root(root: &ProjectRoot, absolute: &Path) -> Result<File> {
    let file = File::open(absolute).map_err(|err| {
        DpxError::new(
            codes::PATH_NOT_FOUND,
            format!("cannot open '{}': {err}", display_relative(root, absolute)),
        )
    })?;
    let real = real_path_of_handle(&file, absolute).map_err(|err| {
        DpxError::new(
            codes::ROOT_VIOLATION,
            format!(
                "cannot verify where '{}' resolves: {err}; refusing to read it",
                display_relative(root, absolute)
            ),
        )
    })?;
    if !root.contains(&real) {
        return Err(root_violation(&display_relative(root, absolute), root));
    }
    Ok(file)
}

fn display_relative(root: &ProjectRoot, absolute: &Path) -> String {
    absolute
        .strip_prefix(&root.path)
        .unwrap_or(absolute)
        .to_string_lossy()
        .replace('\\', "/")
}

/// `std::fs::canonicalize`, but on Windows without the `\\?\` verbatim prefix when the path
/// can be expressed without it, so roots compare and print the way users typed them.
pub fn dunce_canonicalize(path: &Path) -> std::io::Result<PathBuf> {
    let canonical = std::fs::canonicalize(path)?;
    Ok(strip_verbatim(canonical))
}

#[cfg(windows)]
fn strip_verbatim(path: PathBuf) -> PathBuf {
    let text = path.to_string_lossy();
    if let Some(rest) = text.strip_prefix(r"\\?\UNC\") {
        return PathBuf::from(format!(r"\\{rest}"));
    }
    if let Some(rest) = text.strip_prefix(r"\\?\") {
        if rest.len() >= 2 && rest.as_bytes()[1] == b':' {
            return PathBuf::from(rest);
        }
    }
    path
}

#[cfg(not(windows))]
fn strip_verbatim(path: PathBuf) -> PathBuf {
    path
}
