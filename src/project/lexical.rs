//! Lexical resolution of caller paths: a pure function, tested with per-OS fixtures.
//!
//! Rules (identical on every OS except where `HostStyle` says otherwise):
//! - `/` and `\` are both separators, so Windows-style relative paths work everywhere;
//! - `.` and empty components are dropped, `..` removes the previous component, and a `..`
//!   that would climb above the root is a root violation;
//! - drive forms (`C:\x`, `C:x`), UNC and device forms (`\\server\share`, `//server/share`,
//!   `\\?\`, `\\.\`) are rejected on every OS, except that on Windows an absolute drive or UNC
//!   path inside the root is accepted and made relative;
//! - a POSIX absolute path is accepted only on Unix and only inside the root.

use std::path::{Path, PathBuf};

use crate::error::{DpxError, Result, codes};

/// Which OS's absolute-path rules apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostStyle {
    Unix,
    Windows,
}

impl HostStyle {
    pub fn current() -> Self {
        if cfg!(windows) {
            Self::Windows
        } else {
            Self::Unix
        }
    }
}

/// A normalised project-relative path using `/`; empty for the root itself.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LexicalPath(String);

impl LexicalPath {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    pub fn join_onto(&self, root: &Path) -> PathBuf {
        let mut path = root.to_path_buf();
        for part in self.0.split('/').filter(|p| !p.is_empty()) {
            path.push(part);
        }
        path
    }
}

/// Resolve `input` relative to `root` without touching the file system.
pub fn resolve_lexically(input: &str, root: &Path, style: HostStyle) -> Result<LexicalPath> {
    if input.contains('\0') {
        return Err(DpxError::invalid_arguments(
            "path contains a NUL character; pass a project-relative path such as 'src/main.rs'",
        ));
    }
    let violation = || {
        let shown: String = input.chars().take(200).collect();
        DpxError::new(
            codes::ROOT_VIOLATION,
            format!(
                "path '{shown}' is outside project root '{}'; pass a path relative to the root, using '/' and no '..'",
                root.display()
            ),
        )
    };
    let bytes = input.as_bytes();
    let is_unc = input.starts_with("\\\\")
        || input.starts_with("//")
        || input.starts_with("\\/")
        || input.starts_with("/\\");
    let has_drive = bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
    let relative_part: String = if is_unc || has_drive {
        if style != HostStyle::Windows {
            return Err(violation());
        }
        strip_root_prefix(input, root, true).ok_or_else(violation)?
    } else if input.starts_with('/') || input.starts_with('\\') {
        if style != HostStyle::Unix || input.starts_with('\\') {
            return Err(violation());
        }
        strip_root_prefix(input, root, false).ok_or_else(violation)?
    } else {
        input.to_string()
    };

    let mut parts: Vec<&str> = Vec::new();
    for part in relative_part.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Err(violation());
                }
            }
            other => {
                if style == HostStyle::Windows && other.contains(':') {
                    // Alternate data streams and drive-relative tricks.
                    return Err(violation());
                }
                parts.push(other)
            }
        }
    }
    Ok(LexicalPath(parts.join("/")))
}

/// If `input` is an absolute path inside `root`, return the remainder.
fn strip_root_prefix(input: &str, root: &Path, case_insensitive: bool) -> Option<String> {
    let normalise = |text: &str| {
        let unified = text.replace('\\', "/");
        let trimmed = unified.trim_end_matches('/').to_string();
        if case_insensitive {
            trimmed.to_lowercase()
        } else {
            trimmed
        }
    };
    let root_text = normalise(&root.to_string_lossy());
    let input_unified = input.replace('\\', "/");
    let input_cmp = if case_insensitive {
        input_unified.to_lowercase()
    } else {
        input_unified.clone()
    };
    if input_cmp == root_text {
        return Some(String::new());
    }
    let prefix = format!("{root_text}/");
    if input_cmp.starts_with(&prefix) {
        // Byte offsets agree: lowercasing ASCII keeps lengths; non-ASCII roots compare exactly.
        if input_cmp.len() == input_unified.len() {
            return Some(input_unified[prefix.len()..].to_string());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unix(input: &str) -> Result<String> {
        resolve_lexically(input, Path::new("/srv/project"), HostStyle::Unix).map(|p| p.0)
    }

    fn windows(input: &str) -> Result<String> {
        resolve_lexically(
            input,
            Path::new(r"C:\Users\dev\project"),
            HostStyle::Windows,
        )
        .map(|p| p.0)
    }

    #[test]
    fn relative_paths_normalise() {
        assert_eq!(unix("src/main.rs").unwrap(), "src/main.rs");
        assert_eq!(unix("./src//main.rs").unwrap(), "src/main.rs");
        assert_eq!(unix("src/../README.md").unwrap(), "README.md");
        assert_eq!(unix(".").unwrap(), "");
        assert_eq!(unix("").unwrap(), "");
        assert_eq!(unix(r"src\main.rs").unwrap(), "src/main.rs");
        assert_eq!(windows(r"src\main.rs").unwrap(), "src/main.rs");
    }

    #[test]
    fn escapes_are_rejected_on_every_os() {
        for input in [
            "..",
            "../x",
            "src/../../x",
            r"..\x",
            r"src\..\..\x",
            r"C:\Windows\system32",
            "C:relative",
            "c:/x",
            r"\\server\share\x",
            "//server/share/x",
            r"\\?\C:\x",
            r"\\.\pipe\x",
        ] {
            let unix_err = unix(input).unwrap_err();
            assert_eq!(unix_err.code, codes::ROOT_VIOLATION, "unix: {input}");
            let windows_err = windows(input).unwrap_err();
            assert_eq!(windows_err.code, codes::ROOT_VIOLATION, "windows: {input}");
        }
    }

    #[test]
    fn absolute_paths_inside_the_root_are_accepted_per_os() {
        assert_eq!(unix("/srv/project/src/a.rs").unwrap(), "src/a.rs");
        assert_eq!(unix("/srv/project").unwrap(), "");
        assert_eq!(
            unix("/srv/project-other/a").unwrap_err().code,
            codes::ROOT_VIOLATION
        );
        assert_eq!(unix("/etc/passwd").unwrap_err().code, codes::ROOT_VIOLATION);
        assert_eq!(
            windows(r"C:\Users\dev\project\src\a.rs").unwrap(),
            "src/a.rs"
        );
        assert_eq!(
            windows(r"c:\users\DEV\project\src\a.rs").unwrap(),
            "src/a.rs"
        );
        assert_eq!(
            windows("/etc/passwd").unwrap_err().code,
            codes::ROOT_VIOLATION
        );
        assert_eq!(
            windows("src/a.rs:stream").unwrap_err().code,
            codes::ROOT_VIOLATION
        );
    }

    #[test]
    fn nul_is_an_argument_error() {
        assert_eq!(unix("a\0b").unwrap_err().code, codes::INVALID_ARGUMENTS);
    }
}
