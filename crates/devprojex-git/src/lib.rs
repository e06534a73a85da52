//! Git state for devprojex: tracked files, git scopes and the remote RepoCache.
//!
//! - [`tracked_paths`]: the files in the Git index under a project root (`tracked_only`).
//! - [`head_history`]: HEAD's commits and the files each changed (relevance ranking).
//! - [`GitScope`] and [`scope_paths`]: `staged`, `changes`, `diff:<ref>..<ref>` (`git_scope`).
//! - [`scope_changes`]: a scope's changed files with both sides, for diffs (`view: "diff"`).
//! - [`RemoteSource`], [`RepoCache`] and [`RemoteSession`]: Git URLs as projects
//!   (`--allow-remote`), cloned shallowly into the user cache, published atomically, leased for the
//!   session.
//!
//! Local state is read in-process with `gix`, opened in isolation (repository-local configuration
//! only, no environment, no `git` process). Only cloning starts the `git` executable. Every error
//! is a [`GitError`] with a [`GitErrorKind`] for the caller to map to its codes. See `docs/git.md` for the decisions.

#![deny(unsafe_code)]
#![warn(missing_docs)]

mod changes;
mod config;
mod error;
mod history;
mod jail;
mod local;
mod remote;

pub use changes::{BlobRead, DiffSide, FileChange, ScopeChanges, scope_changes};
pub use config::ignore_case;
pub use error::{GitError, GitErrorKind};
pub use history::{CommitFiles, head_commit, head_history};
pub use local::{
    GitScope, IndexStamp, MAX_SCOPE_CHARS, ScopeSelection, scope_paths, tracked_paths,
    tracked_paths_stamped,
};
pub use remote::{MAX_REMOTE_SOURCES, PinnedCheckout, RemoteSession, RemoteSource, RepoCache};
