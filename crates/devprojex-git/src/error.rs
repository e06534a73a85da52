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

/// What kind of failure a [`GitError`] is: the caller maps it to its own stable code (the
/// `devprojex` crate maps every kind to a `DPX-MCP-*` code on the MCP surface). Exhaustive on
/// purpose: a new kind does not compile in `devprojex` until it has a code there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GitErrorKind {
    /// [`GitError::NotARepository`].
    NotARepository,
    /// [`GitError::InvalidScope`]: the caller's `git_scope` value.
    InvalidScope,
    /// [`GitError::InvalidRef`]: a well-formed revision that names nothing here.
    InvalidRef,
    /// [`GitError::StateUnavailable`].
    StateUnavailable,
    /// [`GitError::RemoteDisabled`].
    RemoteDisabled,
    /// [`GitError::InvalidArguments`]: the caller's `project` or `branch`.
    InvalidArguments,
    /// [`GitError::RemoteFailed`].
    RemoteFailed,
    /// [`GitError::RemoteLimit`].
    RemoteLimit,
    /// [`GitError::OutsideRoots`]: a `file://` source that would widen the root jail.
    OutsideRoots,
}

/// Everything that can go wrong in this crate.
///
/// Every variant has one [`GitErrorKind`] ([`GitError::kind`]) for callers to match on; the
/// `Display` text says what is valid and how to retry. No message ever contains credentials or
/// RepoCache paths: remote URLs only appear in their safe display form
/// ([`crate::RemoteSource::safe_display`]), and nothing outside the configured roots is named.
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
        "invalid git_scope: {reason}; valid forms are `staged`, `changes` and `diff:<ref>..<ref>`, \
         where each <ref> is a branch or tag name, a full or abbreviated commit id or `HEAD`, \
         optionally followed by `~N` or `^N` (for example `diff:main..HEAD` or \
         `diff:v1.0..HEAD~3`), at most 4,096 characters"
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
    #[error("{message}")]
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
    /// A `file://` source whose repository reaches outside the configured roots: its path, its
    /// `.git` file or symbolic link, `commondir`, object alternates (`objects/info/alternates`,
    /// `info/http-alternates`, nested), worktree links, or any symbolic link in its Git
    /// directories. The outside target is never named, so the message is the same whether or
    /// not it exists.
    #[error(
        "`{display}` cannot be read: {what} points outside the configured roots ({roots}); \
         file:// sources never expand the root jail, so the repository, its Git directory, \
         common directory, object alternates and worktree links must all lie inside a \
         configured root: pass a repository inside a root, or add its location as a root"
    )]
    OutsideRoots {
        /// The credential-free URL (or a sanitised form of the input).
        display: String,
        /// Which link points outside, named by its place inside the root (`the .git file`,
        /// `objects/info/alternates line 2`, `the symbolic link .git/objects`).
        what: String,
        /// The configured roots, comma-separated.
        roots: String,
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
    /// The kind of this error, for callers to map to their codes.
    pub fn kind(&self) -> GitErrorKind {
        match self {
            GitError::NotARepository { .. } => GitErrorKind::NotARepository,
            GitError::InvalidScope { .. } => GitErrorKind::InvalidScope,
            GitError::InvalidRef { .. } => GitErrorKind::InvalidRef,
            GitError::StateUnavailable { .. } => GitErrorKind::StateUnavailable,
            GitError::RemoteDisabled { .. } => GitErrorKind::RemoteDisabled,
            GitError::InvalidArguments { .. } => GitErrorKind::InvalidArguments,
            GitError::RemoteFailed { .. } => GitErrorKind::RemoteFailed,
            GitError::RemoteLimit { .. } => GitErrorKind::RemoteLimit,
            GitError::OutsideRoots { .. } => GitErrorKind::OutsideRoots,
        }
    }
}
