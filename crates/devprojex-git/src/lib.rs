//! Git state for devprojex: tracked files, git scopes, remote RepoCache.
//!
//! CONTRACT (the main crate codes against this API; refine it, but tell the integrator):
//! - `tracked_paths(root: &Path) -> Result<BTreeSet<String>, GitError>`: project-relative paths
//!   (with `/`) of files in the Git index of the repository containing `root` (and of repositories
//!   in subfolders / submodules, as documented). Non-Git project -> `GitError` with an actionable message.
//! - `GitScope::parse(&str) -> Result<GitScope, GitError>` for `staged`, `changes`, `diff:<a>..<b>`.
//! - `scope_paths(root: &Path, scope: &GitScope) -> Result<ScopeSelection, GitError>`:
//!   present paths (relative, `/`) that the scope selects, and the count of deleted paths omitted.
//! - `RemoteSource::parse(url)`, `RepoCache` for `--allow-remote` (see issue 7).
//! - Every error has a stable code (`GitError::code()`): `DPX-GIT-...`, `DPX-MCP-REMOTE-...`.
