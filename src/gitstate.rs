//! Adapter between the engine and `devprojex-git`: allow-lists of relative paths, and remote
//! checkouts pinned for a session.

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use devprojex_git::{GitError, GitErrorKind, GitScope, RemoteSession, RepoCache};

use crate::error::{DpxError, ErrorKind, Result};
use crate::project::ProjectRoot;

/// Paths a Git scope selects, plus how many deleted paths it omitted.
#[derive(Debug, Clone, Default)]
pub struct ScopedPaths {
    pub paths: BTreeSet<String>,
    pub deleted: usize,
}

/// The stable code of each Git error kind (the MCP surface maps the `DPX-GIT-*` ones to
/// `DPX-MCP-*` codes, see `mcp::server::error_result`).
pub fn to_dpx(err: GitError) -> DpxError {
    let kind = match err.kind() {
        GitErrorKind::NotARepository => ErrorKind::GitNotARepository,
        GitErrorKind::InvalidScope => ErrorKind::GitInvalidScope,
        GitErrorKind::InvalidRef => ErrorKind::GitInvalidRef,
        GitErrorKind::StateUnavailable => ErrorKind::GitStateUnavailable,
        GitErrorKind::RemoteDisabled => ErrorKind::RemoteDisabled,
        GitErrorKind::InvalidArguments => ErrorKind::InvalidArguments,
        GitErrorKind::RemoteFailed => ErrorKind::RemoteFailed,
        GitErrorKind::RemoteLimit => ErrorKind::RemoteLimit,
        GitErrorKind::OutsideRoots => ErrorKind::RootViolation,
    };
    DpxError::new(kind, err.to_string()).with_source(err)
}

/// A Git error about `root`, which names the root by its address: for a remote checkout the
/// credential-free URL, never its RepoCache path (Git messages embed the paths they read).
fn to_dpx_at(root: &ProjectRoot, err: GitError) -> DpxError {
    let mut dpx = to_dpx(err);
    let path = root.path.to_string_lossy();
    if *path != root.address {
        dpx.message = dpx.message.replace(&*path, &root.address);
    }
    dpx
}

/// Each root's Git-index path set, kept while the index files it came from are unchanged
/// (checked by a few `stat` calls), so a long-lived server does not re-read a 100,000-entry
/// index for every `get_file` in tracked mode. One entry per root (a handful per process).
#[derive(Debug, Default)]
pub struct TrackedCache {
    sets: Mutex<HashMap<PathBuf, TrackedSet>>,
}

/// A root's index paths and the stamp of the index files they were read from.
type TrackedSet = (devprojex_git::IndexStamp, Arc<BTreeSet<String>>);

/// Files in the Git index, relative to the root (kept in `cache` when there is one).
pub fn tracked(root: &ProjectRoot, cache: Option<&TrackedCache>) -> Result<Arc<BTreeSet<String>>> {
    let Some(cache) = cache else {
        let (paths, _) =
            devprojex_git::tracked_paths_stamped(&root.path).map_err(|e| to_dpx_at(root, e))?;
        return Ok(Arc::new(paths));
    };
    let cached = cache
        .sets
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .get(&root.path)
        .cloned();
    if let Some((stamp, paths)) = cached
        && stamp.is_current(&root.path)
    {
        return Ok(paths);
    }
    let (paths, stamp) =
        devprojex_git::tracked_paths_stamped(&root.path).map_err(|e| to_dpx_at(root, e))?;
    let paths = Arc::new(paths);
    // One entry per root (a handful per process). A stamp that is not reusable, or an index
    // rewritten while it was read, fails `is_current` next time and the set is read again.
    cache
        .sets
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .insert(root.path.clone(), (stamp, Arc::clone(&paths)));
    Ok(paths)
}

/// Validate a `git_scope` value without touching a repository.
pub fn validate_scope(value: &str) -> Result<GitScope> {
    GitScope::parse(value).map_err(to_dpx)
}

/// Paths selected by a Git scope.
pub fn scoped(root: &ProjectRoot, scope: &str) -> Result<ScopedPaths> {
    let scope = validate_scope(scope)?;
    let selection =
        devprojex_git::scope_paths(&root.path, &scope).map_err(|e| to_dpx_at(root, e))?;
    Ok(ScopedPaths {
        paths: selection.paths,
        deleted: selection.deleted,
    })
}

/// The changed files of a Git scope with both sides, for `view: "diff"`.
pub fn changes(root: &ProjectRoot, scope: &str) -> Result<devprojex_git::ScopeChanges> {
    let scope = validate_scope(scope)?;
    devprojex_git::scope_changes(&root.path, &scope).map_err(|e| to_dpx_at(root, e))
}

/// The RepoCache folder: `$DEVPROJEX_CACHE_DIR/repos` or the OS cache dir.
pub fn repo_cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("DEVPROJEX_CACHE_DIR").filter(|v| !v.is_empty()) {
        return PathBuf::from(dir).join("repos");
    }
    directories::ProjectDirs::from("dev", "devprojex", "devprojex")
        .map(|dirs| dirs.cache_dir().join("repos"))
        .unwrap_or_else(|| std::env::temp_dir().join("devprojex-repos"))
}

/// A remote-source session for one process (server or CLI run).
pub fn remote_session(allow_remote: bool) -> RemoteSession {
    RemoteSession::new(RepoCache::new(repo_cache_dir()), allow_remote)
}

/// Resolve `project` as a remote source: `Ok(None)` when it is a local path. A pinned checkout
/// becomes a root whose address is the credential-free URL (never the cache path).
pub fn resolve_remote(
    session: &RemoteSession,
    project: &str,
    branch: Option<&str>,
    local_roots: &[PathBuf],
) -> Result<Option<ProjectRoot>> {
    resolve_remote_with(session, project, branch, local_roots, to_dpx)
}

/// Refuse a `file://` source whose path is a network or device form (`file:////host/share`,
/// `file:///%5C%5Chost%5Cshare`, `file:///net/host/repo`) before anything resolves it: on
/// Windows that would open an SMB session (sending the user's NTLM response to the host), on
/// macOS it makes the automounter mount the share. Such a path passes only when it lies
/// lexically inside a configured root (a root on a share the user configured).
pub fn refuse_network_file_url(value: &str, roots: &[ProjectRoot]) -> Result<()> {
    let spellings: Vec<&crate::project::RootSpellings> =
        roots.iter().map(ProjectRoot::spellings).collect();
    let Some(shown) = network_file_path_outside(value, &spellings) else {
        return Ok(());
    };
    let listed: Vec<String> = roots.iter().map(|r| format!("'{}'", r.address)).collect();
    Err(DpxError::new(
        ErrorKind::RootViolation,
        format!(
            "file:// path '{shown}' is a network or device path outside the configured roots ({}); file:// sources must name a Git repository inside one of them",
            if listed.is_empty() {
                "none".to_string()
            } else {
                listed.join(", ")
            }
        ),
    ))
}

/// The path of `value` as written, when it is a `file://` URL whose path is a network or device
/// form lying outside every root (pure: nothing is looked up).
fn network_file_path_outside(
    value: &str,
    roots: &[&crate::project::RootSpellings],
) -> Option<String> {
    let (shown, path) = file_url_path(value)?;
    (crate::project::is_network_or_device_form(&path)
        && !roots
            .iter()
            .any(|root| crate::project::lexical_inside(&path, root)))
    .then_some(shown)
}

/// The path part of a `file://` URL as written (for messages) and percent-decoded, as
/// `devprojex-git` reads it (`file://[localhost]/path`).
fn file_url_path(value: &str) -> Option<(String, String)> {
    let (scheme, rest) = value.split_once("://")?;
    if !scheme.eq_ignore_ascii_case("file") {
        return None;
    }
    let path = &rest[rest.find('/').unwrap_or(rest.len())..];
    let decoded = percent_encoding::percent_decode_str(path)
        .decode_utf8_lossy()
        .into_owned();
    let shown: String = path.chars().take(200).collect();
    Some((shown, decoded))
}

/// [`resolve_remote`] for a CLI command: a URL without `--allow-remote` is explained in terms of
/// the command's own flag rather than a server's.
pub fn resolve_remote_from_cli(
    session: &RemoteSession,
    project: &str,
    branch: Option<&str>,
) -> Result<Option<ProjectRoot>> {
    resolve_remote_with(session, project, branch, &[], |err| match err {
        GitError::RemoteDisabled { display } => DpxError::new(
            ErrorKind::RemoteDisabled,
            format!(
                "remote sources are disabled: `{display}` is a Git URL; add --allow-remote to read it from a shallow clone in the cache, or pass a local folder"
            ),
        ),
        other => to_dpx(other),
    })
}

fn resolve_remote_with(
    session: &RemoteSession,
    project: &str,
    branch: Option<&str>,
    local_roots: &[PathBuf],
    map_error: impl FnOnce(GitError) -> DpxError,
) -> Result<Option<ProjectRoot>> {
    let Some(checkout) = session
        .resolve(project, branch, local_roots)
        .map_err(map_error)?
    else {
        return Ok(None);
    };
    // The checkout's path is local state: its errors name the URL instead.
    let mut root = ProjectRoot::open(&checkout.path).map_err(|_| {
        DpxError::new(
            ErrorKind::RemoteFailed,
            format!(
                "the checkout of `{}` is no longer available in the RepoCache; retry, or restart \
                 the server to clone it again",
                checkout.display
            ),
        )
    })?;
    root.name = checkout
        .display
        .trim_end_matches('/')
        .rsplit(['/', ':'])
        .next()
        .map(|name| name.trim_end_matches(".git").to_string())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| checkout.display.clone());
    root.address = match &checkout.branch {
        Some(branch) => format!("{} (branch {branch})", checkout.display),
        None => checkout.display.clone(),
    };
    Ok(Some(root))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project::{Platform, RootSpellings};
    use std::path::Path;

    fn outside(value: &str, platform: Platform, root: &str) -> bool {
        let root = RootSpellings::new(Path::new(root), &[], platform, platform.default_names());
        network_file_path_outside(value, &[&root]).is_some()
    }

    #[test]
    fn network_file_urls_are_refused_before_any_lookup() {
        for value in [
            "file:////attacker.example/share/repo",
            "FILE://///attacker.example/share/repo",
            "file://localhost//attacker.example/share",
            "file:///%5C%5Cattacker.example%5Cshare",
            "file:///%2F%2Fattacker.example/share",
            "file:///\\\\attacker.example\\share",
            "file:///net/attacker.example/export/repo",
            "file:///Network/Servers/attacker.example/repo",
            "file:////?/UNC/attacker.example/share",
        ] {
            for (platform, root) in [
                (Platform::Linux, "/srv/project"),
                (Platform::MacOs, "/Users/ana/project"),
                (Platform::Windows, r"C:\Users\ana\project"),
            ] {
                assert!(outside(value, platform, root), "{platform:?}: {value}");
            }
        }
        // Local paths are left to devprojex-git's own checks; so are other schemes.
        for value in [
            "file:///srv/project/repo",
            "file:///C:/Users/ana/project",
            "https://example.com/r.git",
            "/srv/project",
            r"\\attacker.example\x",
        ] {
            assert!(!outside(value, Platform::Linux, "/srv/project"), "{value}");
            assert!(
                !outside(value, Platform::Windows, r"C:\Users\ana\project"),
                "{value}"
            );
        }
        // A root the user configured on a share admits its own file:// paths.
        assert!(!outside(
            "file:////fileserver/team/project/repo",
            Platform::Windows,
            r"\\fileserver\team\project"
        ));
        assert!(!outside(
            "file:///net/nas/export/project/repo",
            Platform::Linux,
            "/net/nas/export/project"
        ));
    }
}
