//! Agent and profile globs. They are applied after the walk, so they can only narrow the
//! selection (the `ignore` crate's overrides would re-include ignored files).
//!
//! Matching: a pattern is tested against the file's relative path and against every ancestor
//! folder's relative path, so `tests` or `tests/**` both select or drop a whole folder. A
//! pattern without `/` also matches the file or folder name at any depth, like `.gitignore`.

use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};

use crate::error::{DpxError, ErrorKind, Result};

use crate::limits::{MAX_GLOB_CHARS as MAX_PATTERN_CHARS, MAX_GLOBS as MAX_PATTERNS};

/// A compiled list of patterns.
#[derive(Debug, Clone)]
pub struct PatternSet {
    full_path: GlobSet,
    name_only: GlobSet,
    len: usize,
}

impl PatternSet {
    /// Compile `patterns` (field is the argument name used in error messages).
    pub fn compile(field: &str, patterns: &[String]) -> Result<Self> {
        if patterns.len() > MAX_PATTERNS {
            return Err(DpxError::invalid_arguments(format!(
                "{field} has {} patterns; at most {MAX_PATTERNS} are allowed. Combine patterns with '{{a,b}}' or narrow with paths",
                patterns.len()
            )));
        }
        let mut full = GlobSetBuilder::new();
        let mut names = GlobSetBuilder::new();
        for pattern in patterns {
            let chars = pattern.chars().count();
            if pattern.trim().is_empty() {
                return Err(DpxError::invalid_arguments(format!(
                    "{field} contains an empty pattern; remove it or pass a glob such as 'src/**/*.rs'"
                )));
            }
            if chars > MAX_PATTERN_CHARS {
                return Err(DpxError::invalid_arguments(format!(
                    "a pattern in {field} has {chars} characters; at most {MAX_PATTERN_CHARS} are allowed"
                )));
            }
            let normalised = pattern.trim_start_matches("./").trim_end_matches('/');
            let build = |text: &str| -> Result<Glob> {
                GlobBuilder::new(text)
                    .literal_separator(true)
                    .backslash_escape(true)
                    .build()
                    .map_err(|err| {
                        DpxError::new(
                            ErrorKind::InvalidPattern,
                            format!("invalid glob '{pattern}' in {field}: {}; use project-relative globs with '/', '*', '**', '?', '[...]' and '{{a,b}}'", err.kind()),
                        )
                    })
            };
            let glob = build(normalised)?;
            if normalised.contains('/') {
                full.add(glob);
            } else {
                names.add(glob);
            }
        }
        let finish = |builder: GlobSetBuilder| {
            builder.build().map_err(|err| {
                DpxError::new(
                    ErrorKind::InvalidPattern,
                    format!("invalid globs in {field}: {err}"),
                )
            })
        };
        Ok(Self {
            full_path: finish(full)?,
            name_only: finish(names)?,
            len: patterns.len(),
        })
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// True when the relative path or any of its ancestor folders matches.
    pub fn matches_path_or_ancestor(&self, relative: &str) -> bool {
        let mut end = relative.len();
        loop {
            let prefix = &relative[..end];
            let name = prefix.rsplit('/').next().unwrap_or(prefix);
            if self.full_path.is_match(prefix) || self.name_only.is_match(name) {
                return true;
            }
            match prefix.rfind('/') {
                Some(slash) => end = slash,
                None => return false,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(patterns: &[&str]) -> PatternSet {
        PatternSet::compile(
            "include_patterns",
            &patterns.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
        )
        .unwrap()
    }

    #[test]
    fn name_patterns_match_at_any_depth() {
        let s = set(&["*.rs"]);
        assert!(s.matches_path_or_ancestor("main.rs"));
        assert!(s.matches_path_or_ancestor("src/deep/main.rs"));
        assert!(!s.matches_path_or_ancestor("src/main.py"));
    }

    #[test]
    fn path_patterns_anchor_at_the_root() {
        let s = set(&["src/*.rs"]);
        assert!(s.matches_path_or_ancestor("src/main.rs"));
        assert!(!s.matches_path_or_ancestor("src/deep/main.rs"));
        assert!(!s.matches_path_or_ancestor("other/src/main.rs"));
        let deep = set(&["src/**"]);
        assert!(deep.matches_path_or_ancestor("src/deep/main.rs"));
    }

    #[test]
    fn folder_names_select_whole_folders() {
        let s = set(&["tests"]);
        assert!(s.matches_path_or_ancestor("tests/a/b.rs"));
        assert!(s.matches_path_or_ancestor("crates/x/tests/b.rs"));
        assert!(!s.matches_path_or_ancestor("src/testsuite.rs"));
    }

    #[test]
    fn limits_and_bad_globs_are_clear_errors() {
        let err = PatternSet::compile("exclude_patterns", &["a[".to_string()]).unwrap_err();
        assert_eq!(err.kind, ErrorKind::InvalidPattern);
        assert!(err.message.contains("a["));
        let many: Vec<String> = (0..257).map(|i| format!("{i}.rs")).collect();
        assert_eq!(
            PatternSet::compile("x", &many).unwrap_err().kind,
            ErrorKind::InvalidArguments
        );
        assert_eq!(
            PatternSet::compile("x", &["".into()]).unwrap_err().kind,
            ErrorKind::InvalidArguments
        );
        assert_eq!(
            PatternSet::compile("x", &["a".repeat(513)])
                .unwrap_err()
                .kind,
            ErrorKind::InvalidArguments
        );
    }
}
