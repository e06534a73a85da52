//! The one error type of this crate, with stable codes.

use std::path::PathBuf;

/// Longest piece of caller input (a ref, a scope) echoed back in a message.
const ECHO_LIMIT: usize = 200;

/// Shorten caller input before it is echoed in a message.
pub(crate) fn echo(input: &str) -> String {
    if input.chars().count() <= ECHO_LIMIT {
        input.to_owned()
    } else {
        let mut s: String = input.chars().take(ECHO_LIMIT).collect();
        s.push_str("...");
        s
    }
}

/// Everything that can go wrong in this crate.
///
/// Every variant maps to one stable code ([`GitError::code`]); the `Display` text says what is
/// valid and how to retry. No message ever contains credentials: remote URLs only appear in
/// their safe display form ([`crate::RemoteSource::safe_display`]).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GitError {
    /// The project is not a Git working tree and holds no repository in its subfolders.
    #[error(
        "{} is not inside a Git working tree and no Git repository was found in its subfolders \
         (searched {} levels deep); tracked_only and git_scope need a Git project: run them on a \
         Git checkout, or drop tracked_only/git_scope",
        root.display(),
        crate::local::NESTED_REPO_DEPTH
    )]
    NotARepository {
        /// The project root that was examined.
        root: PathBuf,
    },
    /// A `git_scope` value that is not one of the valid forms.
    #[error(
        "invalid git_scope: {reason}; valid forms are `staged`, `changes` and `diff:<ref>..<ref>` \
         (for example `diff:main..HEAD` or `diff:HEAD~3..HEAD`), at most 4,096 characters"
    )]
    InvalidScope {
        /// What is wrong with the value.
        reason: String,
    },
    /// A revision in `diff:<ref>..<ref>` that does not name a commit (or `HEAD` is unborn).
    #[error("invalid Git reference `{spec}` in git_scope: {reason}")]
    InvalidRef {
        /// The revision as given (shortened).
        spec: String,
        /// Why it cannot be used and what to do instead.
        reason: String,
    },
    /// The repository exists but its state cannot be read (bare repository, corrupt index...).
    #[error("Git state is unavailable for {}: {reason}", root.display())]
    StateUnavailable {
        /// The project root.
        root: PathBuf,
        /// What failed.
        reason: String,
    },
    /// A URL was given to a server started without `--allow-remote`.
    #[error(
        "remote sources are disabled: `{display}` is a Git URL, but this server was started \
         without --allow-remote; pass a configured local project, or restart the server with \
         --allow-remote"
    )]
    RemoteDisabled {
        /// The credential-free form of the URL.
        display: String,
    },
    /// An unsupported URL, a URL with query/fragment, or `branch` with a local path.
    #[error("invalid arguments: {message}")]
    InvalidArguments {
        /// What is wrong and what is valid (credential-free).
        message: String,
    },
    /// Cloning, fetching, publishing into the RepoCache, or checking out the branch failed.
    #[error("remote source `{display}` could not be acquired: {reason}")]
    RemoteFailed {
        /// The credential-free form of the URL.
        display: String,
        /// What failed and how to retry (credential-free).
        reason: String,
    },
    /// The session already pins the maximum number of distinct remote sources.
    #[error(
        "this server session already pins {limit} distinct remote sources (URL and branch), the \
         maximum; reuse one of the sources already in use, or restart the server to start a new \
         session"
    )]
    RemoteLimit {
        /// The cap (16).
        limit: usize,
    },
}

impl GitError {
    /// The stable code of this error, for tool results and `docs/errors.md`.
    pub fn code(&self) -> &'static str {
        match self {
            GitError::NotARepository { .. } => "DPX-GIT-NOT-A-REPOSITORY",
            GitError::InvalidScope { .. } => "DPX-GIT-INVALID-SCOPE",
            GitError::InvalidRef { .. } => "DPX-GIT-INVALID-REF",
            GitError::StateUnavailable { .. } => "DPX-GIT-STATE-UNAVAILABLE",
            GitError::RemoteDisabled { .. } => "DPX-MCP-REMOTE-DISABLED",
            GitError::InvalidArguments { .. } => "DPX-MCP-INVALID-ARGUMENTS",
            GitError::RemoteFailed { .. } => "DPX-MCP-REMOTE-FAILED",
            GitError::RemoteLimit { .. } => "DPX-MCP-REMOTE-LIMIT",
        }
    }
}
