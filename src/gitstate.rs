//! Adapter between the engine and the Git component: allow-lists of relative paths.

use std::collections::BTreeSet;

use crate::error::{DpxError, Result};
use crate::project::ProjectRoot;

/// Paths a Git scope selects, plus how many deleted paths it omitted.
#[derive(Debug, Clone, Default)]
pub struct ScopedPaths {
    pub paths: BTreeSet<String>,
    pub deleted: usize,
}

/// Files in the Git index, relative to the root.
pub fn tracked(_root: &ProjectRoot) -> Result<BTreeSet<String>> {
    Err(DpxError::invalid_arguments(
        "tracked-only selection is not available in this build yet; use git mode 'gitignore'",
    ))
}

/// Validate a `git_scope` value without touching a repository.
pub fn validate_scope(value: &str) -> Result<()> {
    let chars = value.chars().count();
    if chars > 4096 {
        return Err(DpxError::invalid_arguments(format!(
            "git_scope has {chars} characters; at most 4096 are allowed"
        )));
    }
    Ok(())
}

/// Paths selected by a Git scope.
pub fn scoped(_root: &ProjectRoot, _scope: &str) -> Result<ScopedPaths> {
    Err(DpxError::invalid_arguments(
        "git_scope is not available in this build yet; omit it",
    ))
}
