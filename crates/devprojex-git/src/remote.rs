//! Remote Git sources: URL parsing, the RepoCache and per-session leases.
//!
//! Cloning is the only place where this crate starts the `git` executable and the only network
//! access of devprojex. Credentials from a URL reach `git` only through its environment
//! (`GIT_ASKPASS` answering from `DPX_GIT_USERNAME` / `DPX_GIT_PASSWORD`), never its arguments.

use std::collections::BTreeMap;
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use fs4::fs_std::FileExt;

use crate::error::{GitError, echo};

/// At most this many distinct remote sources (URL and branch) are pinned by one session.
pub const MAX_REMOTE_SOURCES: usize = 16;

/// Layout version of the cache directory.
const LAYOUT: &str = "v1";

/// Temp directories of clones older than this are removed (a crashed server left them).
const STALE_TMP: Duration = Duration::from_secs(24 * 60 * 60);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Http,
    Ssh,
    Git,
    Scp,
    File,
}

/// A Git URL given as a project: HTTP(S), SSH, `git://`, SCP-style `host:path`, or `file://`
/// inside a configured local root.
///
/// The password (and, except for SSH, the user name) never leaves this value except through the
/// environment of the `git` clone process. `Debug` and [`RemoteSource::safe_display`] omit them.
#[derive(Clone, PartialEq, Eq)]
pub struct RemoteSource {
    kind: Kind,
    scheme: String,
    user: Option<String>,
    password: Option<String>,
    host: String,
    port: Option<u16>,
    path: String,
    /// `file://` only: the repository and the roots it must stay inside.
    local: Option<LocalRepo>,
}

/// A `file://` repository: its folder and the configured roots (both canonical).
#[derive(Clone, Debug, PartialEq, Eq)]
struct LocalRepo {
    path: PathBuf,
    roots: Vec<PathBuf>,
}

impl fmt::Debug for RemoteSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RemoteSource")
            .field("url", &self.safe_display())
            .field(
                "has_credentials",
                &(self.user.is_some() || self.password.is_some()),
            )
            .finish()
    }
}

const VALID_FORMS: &str = "valid remote sources are https://host/path, http://host/path, \
    ssh://[user@]host[:port]/path, git://host[:port]/path, [user@]host:path (SCP style) and \
    file:///path inside a configured root, without query string or fragment";

fn invalid(message: String) -> GitError {
    GitError::InvalidArguments { message }
}

/// `scheme://` at the start of `input`: the lowercase scheme and the rest.
fn split_scheme(input: &str) -> Option<(String, &str)> {
    let (scheme, rest) = input.split_once("://")?;
    let mut chars = scheme.chars();
    let first = chars.next()?;
    if !first.is_ascii_alphabetic()
        || !chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    {
        return None;
    }
    Some((scheme.to_ascii_lowercase(), rest))
}

/// `transport::address` (Git remote helpers such as `ext::`), which are never accepted.
fn transport_helper(input: &str) -> Option<&str> {
    let (name, _) = input.split_once("::")?;
    (!name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')))
    .then_some(name)
}

fn valid_host(host: &str) -> bool {
    if let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        return !inner.is_empty()
            && inner
                .chars()
                .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.');
    }
    !host.is_empty()
        && !host.starts_with('-')
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
}

/// SCP-style `[user@]host:path`: a colon before any slash, a host name of two characters or more
/// (so `C:\dir` stays a Windows path).
///
/// The user part ends at the last `@` before the first slash, so `alice:pw@host:path` is user
/// `alice`, password `pw`, host `host` (refused for its password), never host `alice`.
fn split_scp(input: &str) -> Option<(Option<&str>, &str, &str)> {
    fn host_path(rest: &str) -> Option<(&str, &str)> {
        let (host, path) = rest.split_once(':')?;
        (host.len() >= 2 && valid_host(host) && !path.is_empty()).then_some((host, path))
    }
    let head_end = input.find(['/', '\\']).unwrap_or(input.len());
    if let Some(at) = input[..head_end].rfind('@')
        && let Some((host, path)) = host_path(&input[at + 1..])
    {
        return Some((Some(&input[..at]), host, path));
    }
    let (before, _) = input.split_once(':')?;
    if before.contains(['/', '\\', '@']) {
        return None;
    }
    host_path(input).map(|(host, path)| (None, host, path))
}

/// Best-effort credential-free form of something that looks like a URL (for error messages about
/// inputs that could not be parsed).
fn sanitize(input: &str) -> String {
    let cut = input.find(['?', '#']).map_or(input, |i| &input[..i]);
    let out = if let Some((scheme, rest)) = split_scheme(cut) {
        let authority_end = rest.find('/').unwrap_or(rest.len());
        let (authority, path) = rest.split_at(authority_end);
        let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        format!("{scheme}://{host}{path}")
    } else if let Some((_, host, path)) = split_scp(cut) {
        format!("{host}:{path}")
    } else {
        cut.to_owned()
    };
    echo(&out)
}

fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

impl RemoteSource {
    /// Parse a `project` argument. `Ok(None)`: not a URL, so a local path.
    ///
    /// Rejected with [`GitError::InvalidArguments`] (message credential-free): query strings and
    /// fragments, unsupported schemes and `transport::` helpers, passwords in SSH URLs, user info
    /// in `git://` and `file://` URLs, and `file://` paths that do not resolve inside one of
    /// `local_roots` (the configured local project roots).
    pub fn parse(input: &str, local_roots: &[PathBuf]) -> Result<Option<RemoteSource>, GitError> {
        let looks_remote = split_scheme(input).is_some()
            || transport_helper(input).is_some()
            || split_scp(input).is_some();
        if !looks_remote {
            return Ok(None);
        }
        if let Some(helper) = transport_helper(input).filter(|_| split_scheme(input).is_none()) {
            return Err(invalid(format!(
                "the Git transport `{}::` is not supported; {VALID_FORMS}",
                echo(helper)
            )));
        }
        let shown = sanitize(input);
        if input.contains(['?', '#']) {
            return Err(invalid(format!(
                "`{shown}` has a query string or fragment, which is not accepted (credentials must \
                 not reach Git arguments); {VALID_FORMS}"
            )));
        }
        if input.chars().any(|c| c.is_control() || c.is_whitespace()) {
            return Err(invalid(format!(
                "`{shown}` contains whitespace or control characters; {VALID_FORMS}"
            )));
        }
        if let Some((scheme, rest)) = split_scheme(input) {
            return Self::parse_url(&scheme, rest, &shown, local_roots).map(Some);
        }
        let (user, host, path) = split_scp(input).expect("checked above");
        let (user, password) = split_userinfo(user, &shown)?;
        if password.is_some() {
            return Err(invalid(format!(
                "`{shown}` carries a password; SSH sources authenticate with keys or an agent, \
                 remove the password"
            )));
        }
        if path.starts_with('-') {
            return Err(invalid(format!(
                "`{shown}` has an invalid path; {VALID_FORMS}"
            )));
        }
        Ok(Some(RemoteSource {
            kind: Kind::Scp,
            scheme: String::new(),
            user,
            password: None,
            host: host.to_owned(),
            port: None,
            path: path.to_owned(),
            local: None,
        }))
    }

    fn parse_url(
        scheme: &str,
        rest: &str,
        shown: &str,
        local_roots: &[PathBuf],
    ) -> Result<RemoteSource, GitError> {
        let kind = match scheme {
            "http" | "https" => Kind::Http,
            "ssh" | "git+ssh" | "ssh+git" => Kind::Ssh,
            "git" => Kind::Git,
            "file" => Kind::File,
            other => {
                return Err(invalid(format!(
                    "the URL scheme `{}` is not supported; {VALID_FORMS}",
                    echo(other)
                )));
            }
        };
        let authority_end = rest.find('/').unwrap_or(rest.len());
        let (authority, path) = rest.split_at(authority_end);
        let (userinfo, hostport) = match authority.rsplit_once('@') {
            Some((u, h)) => (Some(u), h),
            None => (None, authority),
        };
        let (user, password) = split_userinfo(userinfo, shown)?;
        if kind == Kind::File {
            if user.is_some()
                || !(hostport.is_empty() || hostport.eq_ignore_ascii_case("localhost"))
            {
                return Err(invalid(format!(
                    "`{shown}` must be file:///absolute/path (no host or user); {VALID_FORMS}"
                )));
            }
            return Self::parse_file(path, shown, local_roots);
        }
        if kind == Kind::Git && user.is_some() {
            return Err(invalid(format!(
                "`{shown}`: git:// URLs take no user name or password; remove them \
                 (git://host[:port]/path)"
            )));
        }
        if kind == Kind::Ssh && password.is_some() {
            return Err(invalid(format!(
                "`{shown}` carries a password; SSH sources authenticate with keys or an agent, \
                 remove the password"
            )));
        }
        let (host, port) = split_port(hostport).ok_or_else(|| {
            invalid(format!(
                "`{shown}` has an invalid host or port; {VALID_FORMS}"
            ))
        })?;
        if path.len() <= 1 {
            return Err(invalid(format!(
                "`{shown}` names no repository path; {VALID_FORMS}"
            )));
        }
        Ok(RemoteSource {
            kind,
            scheme: if kind == Kind::Ssh {
                "ssh".into()
            } else {
                scheme.to_owned()
            },
            user,
            password,
            host: host.to_owned(),
            port,
            path: path.to_owned(),
            local: None,
        })
    }

    fn parse_file(
        path: &str,
        shown: &str,
        local_roots: &[PathBuf],
    ) -> Result<RemoteSource, GitError> {
        let decoded = percent_decode(path).ok_or_else(|| {
            invalid(format!(
                "`{shown}` has an invalid percent-encoding; write `%` as `%25`"
            ))
        })?;
        // `file:///C:/dir` names `C:/dir` on Windows.
        #[cfg(windows)]
        let decoded = match decoded.as_bytes() {
            [b'/', d, b':', ..] if d.is_ascii_alphabetic() => decoded[1..].to_owned(),
            _ => decoded,
        };
        let roots: Vec<PathBuf> = local_roots
            .iter()
            .filter_map(|root| fs::canonicalize(root).ok())
            .collect();
        let outside = || GitError::OutsideRoots {
            display: shown.to_owned(),
            what: "the path".into(),
            roots: roots_text(local_roots),
        };
        let canon = match fs::canonicalize(&decoded) {
            Ok(canon) => canon,
            // A missing path outside the roots gets the same answer as an existing one.
            Err(_) if !crate::jail::missing_path_inside(Path::new(&decoded), &roots) => {
                return Err(outside());
            }
            Err(_) => {
                return Err(invalid(format!(
                    "`{shown}` does not resolve to an existing directory; file:// sources must \
                     name a Git repository inside a configured root ({})",
                    roots_text(local_roots)
                )));
            }
        };
        if !roots.iter().any(|root| canon.starts_with(root)) {
            return Err(outside());
        }
        if !canon.is_dir() {
            return Err(invalid(format!(
                "`{shown}` is not a directory; file:// sources must name a Git repository (a \
                 folder with `.git`, or a bare repository) inside a configured root"
            )));
        }
        let path = canon
            .clone()
            .to_str()
            .ok_or_else(|| invalid(format!(
                "`{shown}` does not resolve to a UTF-8 path; use a repository whose path is valid UTF-8"
            )))?
            .replace('\\', "/");
        let path = if path.starts_with('/') {
            path
        } else {
            format!("/{path}")
        };
        Ok(RemoteSource {
            kind: Kind::File,
            scheme: "file".into(),
            user: None,
            password: None,
            host: String::new(),
            port: None,
            path,
            local: Some(LocalRepo { path: canon, roots }),
        })
    }

    /// The credential-free URL, used in messages, Root lines and cache keys: no user info, no
    /// password (`https://host/path`, `ssh://host/path`, `host:path`).
    pub fn safe_display(&self) -> String {
        match self.kind {
            Kind::Scp => format!("{}:{}", self.host, self.path),
            Kind::File => format!("file://{}", self.path),
            _ => {
                let port = self.port.map(|p| format!(":{p}")).unwrap_or_default();
                format!("{}://{}{port}{}", self.scheme, self.host, self.path)
            }
        }
    }

    /// Whether the URL carried a user name or password (they go to `git` via its environment).
    pub fn has_credentials(&self) -> bool {
        self.user.is_some() || self.password.is_some()
    }

    /// The URL handed to `git clone`: never with a password; with the user name only for SSH
    /// (where it selects the account, not a secret).
    fn clone_url(&self) -> String {
        let ssh_user = self
            .user
            .as_deref()
            .map(|u| format!("{u}@"))
            .unwrap_or_default();
        match self.kind {
            Kind::Scp => format!("{ssh_user}{}:{}", self.host, self.path),
            Kind::Ssh => {
                let port = self.port.map(|p| format!(":{p}")).unwrap_or_default();
                format!("ssh://{ssh_user}{}{port}{}", self.host, self.path)
            }
            _ => self.safe_display(),
        }
    }

    /// Secrets to keep out of any message.
    fn secrets(&self) -> Vec<&str> {
        let mut s = Vec::new();
        if let Some(p) = self.password.as_deref().filter(|p| !p.is_empty()) {
            s.push(p);
        }
        if self.kind == Kind::Http
            && let Some(u) = self.user.as_deref().filter(|u| !u.is_empty())
        {
            s.push(u);
        }
        s
    }
}

/// The configured roots for messages (they are the caller's own configuration).
fn roots_text(local_roots: &[PathBuf]) -> String {
    if local_roots.is_empty() {
        return "none configured".to_owned();
    }
    local_roots
        .iter()
        .map(|r| r.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn split_userinfo(
    userinfo: Option<&str>,
    shown: &str,
) -> Result<(Option<String>, Option<String>), GitError> {
    let Some(info) = userinfo else {
        return Ok((None, None));
    };
    let bad = || {
        invalid(format!(
            "`{shown}` has invalid user information; remove it, or percent-encode it (a user \
             name cannot start with `-`)"
        ))
    };
    let (user, password) = match info.split_once(':') {
        Some((u, p)) => (u, Some(p)),
        None => (info, None),
    };
    let user = percent_decode(user).ok_or_else(bad)?;
    let password = match password {
        Some(p) => Some(percent_decode(p).ok_or_else(bad)?),
        None => None,
    };
    if user.starts_with('-') {
        return Err(bad());
    }
    Ok((Some(user), password))
}

fn split_port(hostport: &str) -> Option<(&str, Option<u16>)> {
    let (host, port) = if hostport.starts_with('[') {
        let end = hostport.find(']')?;
        let (h, rest) = hostport.split_at(end + 1);
        match rest.strip_prefix(':') {
            Some(p) => (h, Some(p)),
            None if rest.is_empty() => (h, None),
            None => return None,
        }
    } else {
        match hostport.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (hostport, None),
        }
    };
    if !valid_host(host) {
        return None;
    }
    let port = match port {
        Some("") | None => None,
        Some(p) => Some(p.parse::<u16>().ok().filter(|p| *p != 0)?),
    };
    Some((host, port))
}

/// Check a `branch` argument the way `git check-ref-format --branch` would, roughly.
fn validate_branch(branch: &str) -> Result<(), GitError> {
    let bad = |why: &str| {
        invalid(format!(
            "branch `{}` is not a valid branch or tag name ({why}); pass an existing branch or \
             tag of the remote, or omit `branch` for its default branch",
            echo(branch)
        ))
    };
    if branch.is_empty() || branch.chars().count() > 255 {
        return Err(bad("empty or longer than 255 characters"));
    }
    if branch.starts_with(['-', '/', '.'])
        || branch.ends_with(['/', '.'])
        || branch.ends_with(".lock")
    {
        return Err(bad("bad first or last character"));
    }
    if branch.contains("..")
        || branch.contains("//")
        || branch.contains("@{")
        || branch.contains("/.")
    {
        return Err(bad("forbidden sequence"));
    }
    if branch.chars().any(|c| {
        c.is_control() || c.is_whitespace() || matches!(c, '~' | '^' | ':' | '?' | '*' | '[' | '\\')
    }) {
        return Err(bad("forbidden character"));
    }
    Ok(())
}

/// A remote checkout pinned for the session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PinnedCheckout {
    /// The checkout's working tree inside the RepoCache (never show it to agents).
    pub path: PathBuf,
    /// The credential-free URL: the project's address in Root lines and messages.
    pub display: String,
    /// The branch (or tag) that was asked for, `None` for the remote's default branch.
    pub branch: Option<String>,
}

/// The on-disk cache of remote checkouts (`<user cache dir>/repos`).
///
/// Layout (see `docs/git.md`): `v1/<sha1(key)>/co-<id>/` are published checkouts,
/// `v1/<sha1(key)>/co-<id>.lock` their lease files, `v1/<sha1(key)>/key` the credential-free key
/// (`URL` and branch), `tmp/` clones in progress. A checkout is published by one atomic rename and
/// never modified afterwards; it is deleted only by someone holding the exclusive lock on its lease
/// file, which no session holds while another session keeps its shared lease.
#[derive(Clone, Debug)]
pub struct RepoCache {
    dir: PathBuf,
    timeout: Duration,
    max_age: Duration,
    git: PathBuf,
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

fn unique_id() -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let salt = {
        use std::hash::{BuildHasher, Hasher};
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(n);
        h.write_u128(now.as_nanos());
        h.finish() as u32
    };
    format!(
        "{:013}-{}-{n}-{salt:08x}",
        now.as_millis(),
        std::process::id()
    )
}

fn key_hash(key: &str) -> String {
    let mut hasher = gix::hash::hasher(gix::hash::Kind::Sha1);
    hasher.update(key.as_bytes());
    match hasher.try_finalize() {
        Ok(id) => id.to_hex().to_string(),
        Err(_) => {
            // Collision-attack detection tripped (cannot happen for our short keys): fall back to
            // the std hasher, still credential-free.
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            key.hash(&mut h);
            format!("{:016x}", h.finish())
        }
    }
}

/// A session's lease on one checkout: the shared lock on its lock file, released on drop.
#[derive(Debug)]
struct Lease {
    _file: File,
}

impl RepoCache {
    /// A cache rooted at `cache_dir` (created on first use). Defaults: a clone may take 10 minutes;
    /// a published checkout is reused by later sessions for 24 hours, then cloned afresh.
    pub fn new(cache_dir: PathBuf) -> RepoCache {
        RepoCache {
            dir: cache_dir,
            timeout: Duration::from_secs(600),
            max_age: Duration::from_secs(24 * 60 * 60),
            git: PathBuf::from("git"),
        }
    }

    /// Bound the time of one clone (the `git` process is killed after it).
    pub fn with_timeout(mut self, timeout: Duration) -> RepoCache {
        self.timeout = timeout;
        self
    }

    /// How old a published checkout may be and still be reused by a new session.
    pub fn with_max_age(mut self, max_age: Duration) -> RepoCache {
        self.max_age = max_age;
        self
    }

    /// Use this `git` executable instead of the one on `PATH`.
    pub fn with_git(mut self, git: PathBuf) -> RepoCache {
        self.git = git;
        self
    }

    /// The cache directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn pin(
        &self,
        source: &RemoteSource,
        branch: Option<&str>,
    ) -> Result<(PinnedCheckout, Lease), GitError> {
        let display = source.safe_display();
        let failed = |reason: String| GitError::RemoteFailed {
            display: display.clone(),
            reason,
        };
        // The cache path is local state: it never reaches a message.
        let io_failed = |what: &str, e: std::io::Error| {
            failed(format!(
                "{what} in the RepoCache failed ({e}); check that the devprojex cache folder is \
                 writable and has free space, then retry"
            ))
        };
        // A file:// repository is checked before anything is cached or cloned.
        let local_git_dir = match &source.local {
            Some(local) => Some(check_local(local, &display)?),
            None => None,
        };
        let key = format!("{display}\n{}", branch.unwrap_or(""));
        let entry = self.dir.join(LAYOUT).join(key_hash(&key));
        let tmp_root = self.dir.join("tmp");
        fs::create_dir_all(&entry).map_err(|e| io_failed("creating the cache entry", e))?;
        fs::create_dir_all(&tmp_root).map_err(|e| io_failed("creating the temp directory", e))?;
        let key_file = entry.join("key");
        if !key_file.exists() {
            let mut f = tempfile::NamedTempFile::new_in(&entry)
                .map_err(|e| io_failed("writing the key", e))?;
            f.write_all(key.as_bytes())
                .map_err(|e| io_failed("writing the key", e))?;
            // Another session may have written the same content meanwhile: either file is right.
            let _ = f.persist(&key_file);
        }
        self.scavenge_tmp(&tmp_root);

        let mut checkouts = list_checkouts(&entry);
        checkouts.sort();
        let now = SystemTime::now();
        let mut pinned = None;
        // A file:// checkout is never reused by a later session: it was checked against that
        // session's roots, and the repository's links may have changed since.
        let reusable = if source.local.is_some() {
            &[][..]
        } else {
            &checkouts[..]
        };
        for id in reusable.iter().rev() {
            let dir = entry.join(format!("co-{id}"));
            let fresh = fs::metadata(&dir)
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| now.duration_since(t).ok())
                .is_some_and(|age| age <= self.max_age);
            if !fresh {
                break; // sorted newest first: all older ones are stale too
            }
            if let Some(lease) = try_lease(&entry, id) {
                pinned = Some((id.clone(), dir, lease));
                break;
            }
        }
        let (id, dir, lease) = match pinned {
            Some(p) => p,
            None => self.clone_fresh(
                source,
                local_git_dir.as_deref(),
                branch,
                &entry,
                &tmp_root,
                &failed,
                &io_failed,
            )?,
        };
        // Remove checkouts of this key that no session leases (never ours, never leased ones).
        for other in list_checkouts(&entry) {
            if other != id {
                collect_garbage(&entry, &tmp_root, &other);
            }
        }
        remove_orphan_leases(&entry);
        Ok((
            PinnedCheckout {
                path: dir,
                display,
                branch: branch.map(str::to_owned),
            },
            lease,
        ))
    }

    #[allow(clippy::too_many_arguments)]
    fn clone_fresh(
        &self,
        source: &RemoteSource,
        local_git_dir: Option<&Path>,
        branch: Option<&str>,
        entry: &Path,
        tmp_root: &Path,
        failed: &dyn Fn(String) -> GitError,
        io_failed: &dyn Fn(&str, std::io::Error) -> GitError,
    ) -> Result<(String, PathBuf, Lease), GitError> {
        let id = unique_id();
        let work = tmp_root.join(format!("clone-{id}"));
        fs::create_dir_all(&work).map_err(|e| io_failed("creating the clone directory", e))?;
        let result = (|| {
            let dest = work.join("checkout");
            if let Err(first) = self.run_clone(source, local_git_dir, branch, &work, &dest, true) {
                let lower = first.to_ascii_lowercase();
                if !(lower.contains("shallow") || lower.contains("depth") || lower.contains("dumb"))
                {
                    return Err(failed(first));
                }
                let _ = fs::remove_dir_all(&dest);
                self.run_clone(source, local_git_dir, branch, &work, &dest, false)
                    .map_err(failed)?;
            }
            let lock_path = entry.join(format!("co-{id}.lock"));
            let file = OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&lock_path)
                .map_err(|e| io_failed("creating the lease", e))?;
            match FileExt::try_lock_shared(&file) {
                Ok(true) => {}
                Ok(false) => {
                    return Err(failed(
                        "the new checkout's lease is locked by another process; retry".into(),
                    ));
                }
                Err(e) => return Err(io_failed("taking the lease", e)),
            }
            let published = entry.join(format!("co-{id}"));
            rename_with_retry(&dest, &published, cfg!(windows), std::thread::sleep)
                .map_err(|e| io_failed("publishing the checkout", e))?;
            Ok((id.clone(), published, Lease { _file: file }))
        })();
        let _ = fs::remove_dir_all(&work);
        if result.is_err() {
            let _ = fs::remove_file(entry.join(format!("co-{id}.lock")));
        }
        result
    }

    fn askpass(&self, work: &Path) -> std::io::Result<PathBuf> {
        let path = work.join("askpass.sh");
        let mut f = File::create(&path)?;
        f.write_all(
            b"#!/bin/sh\ncase \"$1\" in\n  [Uu]sername*) printf '%s\\n' \"${DPX_GIT_USERNAME-}\" ;;\n  *) printf '%s\\n' \"${DPX_GIT_PASSWORD-}\" ;;\nesac\n",
        )?;
        drop(f);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&path, fs::Permissions::from_mode(0o700))?;
        }
        Ok(path)
    }

    /// Run one `git clone`; the error is a credential-free, actionable reason.
    ///
    /// `local_git_dir`: the checked Git directory of a `file://` source, which is cloned exactly
    /// (`git upload-pack --strict`: no `.git` file, `<dir>/.git` or `<dir>.git` guessing).
    fn run_clone(
        &self,
        source: &RemoteSource,
        local_git_dir: Option<&Path>,
        branch: Option<&str>,
        work: &Path,
        dest: &Path,
        shallow: bool,
    ) -> Result<(), String> {
        let hooks = work.join("no-hooks");
        fs::create_dir_all(&hooks).map_err(|e| format!("cannot prepare the clone ({e})"))?;
        let askpass = self
            .askpass(work)
            .map_err(|e| format!("cannot prepare the clone ({e})"))?;
        let mut cmd = Command::new(&self.git);
        cmd.arg("clone")
            .arg("--quiet")
            .arg("--no-tags")
            .arg("--single-branch")
            .arg("--no-recurse-submodules")
            .arg("--template=");
        if shallow {
            cmd.arg("--depth=1");
        }
        if let Some(b) = branch {
            cmd.arg(format!("--branch={b}"));
        }
        let url = match local_git_dir {
            Some(git_dir) => {
                cmd.arg("--upload-pack=git-upload-pack --strict");
                file_url(git_dir)
            }
            None => source.clone_url(),
        };
        cmd.arg("--").arg(url).arg(dest);
        for var in cleared_git_vars(std::env::vars_os().map(|(name, _)| name)) {
            cmd.env_remove(var);
        }
        let config = clone_config(
            hooks.display().to_string(),
            source.has_credentials(),
            cfg!(windows),
        );
        cmd.env("GIT_CONFIG_COUNT", config.len().to_string());
        for (i, (k, v)) in config.iter().enumerate() {
            cmd.env(format!("GIT_CONFIG_KEY_{i}"), k)
                .env(format!("GIT_CONFIG_VALUE_{i}"), v);
        }
        cmd.env("GIT_TERMINAL_PROMPT", "0")
            .env("GCM_INTERACTIVE", "never")
            .env("GIT_ASKPASS", &askpass)
            .env("SSH_ASKPASS_REQUIRE", "never")
            .env("GIT_ALLOW_PROTOCOL", "http:https:ssh:git:file")
            .env("GIT_HTTP_LOW_SPEED_LIMIT", "1000")
            .env("GIT_HTTP_LOW_SPEED_TIME", "60")
            .env("LC_ALL", "C")
            .env("LANGUAGE", "C");
        if std::env::var_os("GIT_SSH_COMMAND").is_none() && std::env::var_os("GIT_SSH").is_none() {
            cmd.env(
                "GIT_SSH_COMMAND",
                "ssh -o BatchMode=yes -o ConnectTimeout=30",
            );
        }
        cmd.env_remove("DPX_GIT_USERNAME")
            .env_remove("DPX_GIT_PASSWORD");
        if source.kind == Kind::Http {
            if let Some(u) = &source.user {
                cmd.env("DPX_GIT_USERNAME", u);
            }
            if let Some(p) = &source.password {
                cmd.env("DPX_GIT_PASSWORD", p);
            }
        }
        cmd.stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                "the `git` executable was not found on PATH; install Git to use remote sources"
                    .to_owned()
            } else {
                format!("`git` could not be started ({e})")
            }
        })?;
        let mut stderr = child.stderr.take().expect("piped");
        let reader = std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = stderr.by_ref().take(64 * 1024).read_to_end(&mut buf);
            let _ = std::io::copy(&mut stderr, &mut std::io::sink());
            buf
        });
        let start = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Ok(status),
                Ok(None) if start.elapsed() >= self.timeout => {
                    let _ = child.kill();
                    let _ = child.wait();
                    break Err(format!(
                        "git clone did not finish within {} s and was stopped; check the URL and \
                         the network, then retry",
                        self.timeout.as_secs()
                    ));
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(20)),
                Err(e) => break Err(format!("waiting for git failed ({e})")),
            }
        };
        let stderr = String::from_utf8_lossy(&reader.join().unwrap_or_default()).into_owned();
        let status = status?;
        if status.success() {
            return Ok(());
        }
        let mut text: String = stderr
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" / ");
        for secret in source.secrets() {
            text = text.replace(secret, "***");
        }
        // Local state never reaches a message: Git names its destination in some errors.
        for (local, shown) in [
            (dest, "<checkout>"),
            (work, "<clone folder>"),
            (self.dir.as_path(), "<RepoCache>"),
        ] {
            text = text.replace(&*local.to_string_lossy(), shown);
        }
        let text = redact_userinfo(&text);
        let text = if text.chars().count() > 600 {
            let tail: String = text
                .chars()
                .rev()
                .take(600)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            format!("...{tail}")
        } else {
            text
        };
        let what = match branch {
            Some(b) => format!(" (branch `{}`)", echo(b)),
            None => String::new(),
        };
        Err(format!(
            "git clone{what} failed: {text}; check the URL, that the branch exists and that you have \
             access, then retry"
        ))
    }

    fn scavenge_tmp(&self, tmp_root: &Path) {
        let Ok(entries) = fs::read_dir(tmp_root) else {
            return;
        };
        let now = SystemTime::now();
        for e in entries.flatten() {
            let old = e
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| now.duration_since(t).ok())
                .is_some_and(|age| age > STALE_TMP);
            if old {
                let _ = fs::remove_dir_all(e.path());
            }
        }
    }
}

/// `GIT_*` variables a clone keeps from the server's environment: the transport setup the user
/// chose (SSH, TLS, proxies, which `git` and which global configuration).
const KEPT_GIT_VARS: &[&str] = &[
    "GIT_SSH",
    "GIT_SSH_COMMAND",
    "GIT_SSH_VARIANT",
    "GIT_SSL_CAINFO",
    "GIT_SSL_CAPATH",
    "GIT_SSL_CERT",
    "GIT_SSL_KEY",
    "GIT_SSL_CERT_PASSWORD_PROTECTED",
    "GIT_SSL_CIPHER_LIST",
    "GIT_SSL_VERSION",
    "GIT_SSL_NO_VERIFY",
    "GIT_PROXY_COMMAND",
    "GIT_PROXY_SSL_CAINFO",
    "GIT_PROXY_SSL_CERT",
    "GIT_PROXY_SSL_KEY",
    "GIT_PROXY_SSL_CERT_PASSWORD_PROTECTED",
    "GIT_HTTP_PROXY_AUTHMETHOD",
    "GIT_HTTP_USER_AGENT",
    "GIT_EXEC_PATH",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "GIT_CONFIG_NOSYSTEM",
];

/// The inherited `GIT_*` variables to clear for a clone: all but [`KEPT_GIT_VARS`]. Repository
/// variables (`GIT_DIR`, `GIT_COMMON_DIR`, `GIT_OBJECT_DIRECTORY`,
/// `GIT_ALTERNATE_OBJECT_DIRECTORIES`, `GIT_INDEX_FILE`, ...) would make the clone read objects
/// from, or write into, another repository; `GIT_CONFIG_*` would inject configuration; trace
/// variables (`GIT_TRACE_CURL`, ...) would copy credentials into the error text. Names compare
/// ASCII-case-insensitively (Windows environment names are).
fn cleared_git_vars(
    names: impl IntoIterator<Item = std::ffi::OsString>,
) -> Vec<std::ffi::OsString> {
    names
        .into_iter()
        .filter(|name| {
            let upper = name.to_string_lossy().to_ascii_uppercase();
            upper.starts_with("GIT_") && !KEPT_GIT_VARS.contains(&upper.as_str())
        })
        .collect()
}

/// Configuration given to one clone (through `GIT_CONFIG_COUNT`, never in arguments): no hooks,
/// no credential helper storing URL credentials, and on Windows `core.longpaths`, so a
/// repository with paths over 260 characters checks out in the cache folder.
fn clone_config(
    hooks: String,
    has_credentials: bool,
    windows: bool,
) -> Vec<(&'static str, String)> {
    let mut config = vec![("core.hooksPath", hooks)];
    if has_credentials {
        config.push(("credential.helper", String::new()));
    }
    if windows {
        config.push(("core.longpaths", "true".to_owned()));
    }
    config
}

/// `file://` URL of a local Git directory for `git clone`: Git percent-decodes file URLs, so
/// every byte but unreserved ones and separators is encoded (`a%2Fb` is a folder name, not
/// `a/b`).
fn file_url(dir: &Path) -> String {
    let text = dir.to_string_lossy().replace('\\', "/");
    let mut out = String::from("file://");
    if !text.starts_with('/') {
        out.push('/'); // `C:/dir` on Windows
    }
    for (i, byte) in text.bytes().enumerate() {
        let keep = byte.is_ascii_alphanumeric()
            || matches!(byte, b'/' | b'-' | b'.' | b'_' | b'~')
            || (byte == b':' && i == 1);
        if keep {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Delays between attempts of the publish rename. On Windows an antivirus scanner or the search
/// indexer may hold a file of the fresh checkout open for a moment, and the rename then fails
/// with access denied or a sharing violation; elsewhere a failed rename is final.
const RENAME_RETRY_DELAYS_MS: &[u64] = &[50, 100, 200, 400, 800, 1000, 1000, 1000, 1000];

/// Whether a rename failure may be a file held open for a moment (Windows only:
/// `ERROR_ACCESS_DENIED`, `ERROR_SHARING_VIOLATION`, `ERROR_LOCK_VIOLATION`).
fn is_transient_rename_error(err: &std::io::Error, windows: bool) -> bool {
    windows
        && (err.kind() == std::io::ErrorKind::PermissionDenied
            || matches!(err.raw_os_error(), Some(5 | 32 | 33)))
}

/// `fs::rename`, retried with [`RENAME_RETRY_DELAYS_MS`] while the failure is transient.
fn rename_with_retry(
    from: &Path,
    to: &Path,
    windows: bool,
    sleep: impl FnMut(Duration),
) -> std::io::Result<()> {
    retry_transient(|| fs::rename(from, to), windows, sleep)
}

fn retry_transient(
    mut attempt: impl FnMut() -> std::io::Result<()>,
    windows: bool,
    mut sleep: impl FnMut(Duration),
) -> std::io::Result<()> {
    let mut delays = RENAME_RETRY_DELAYS_MS.iter();
    loop {
        match attempt() {
            Ok(()) => return Ok(()),
            Err(err) if is_transient_rename_error(&err, windows) => match delays.next() {
                Some(ms) => sleep(Duration::from_millis(*ms)),
                None => return Err(err),
            },
            Err(err) => return Err(err),
        }
    }
}

/// Check a `file://` repository against its roots; the Git directory to clone on success.
fn check_local(local: &LocalRepo, display: &str) -> Result<PathBuf, GitError> {
    use crate::jail::JailError;
    crate::jail::check_repository(&local.path, &local.roots)
        .map(|checked| checked.git_dir)
        .map_err(|err| match err {
            JailError::Outside(what) => GitError::OutsideRoots {
                display: display.to_owned(),
                what,
                roots: roots_text(&local.roots),
            },
            JailError::NotARepository => invalid(format!(
                "`{display}` is not a Git repository: a file:// source must name a repository \
                 folder (with `.git`) or a bare repository inside a configured root ({})",
                roots_text(&local.roots)
            )),
            JailError::Unreadable(reason) => GitError::RemoteFailed {
                display: display.to_owned(),
                reason: format!(
                    "the repository cannot be checked before cloning: {reason}; repair it (or \
                     remove the entry), then retry"
                ),
            },
        })
}

/// Strip `user[:password]@` from anything URL-shaped in a message.
fn redact_userinfo(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("://") {
        out.push_str(&rest[..i + 3]);
        rest = &rest[i + 3..];
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '/' || c == '\'' || c == '"')
            .unwrap_or(rest.len());
        if let Some(at) = rest[..end].rfind('@') {
            rest = &rest[at + 1..];
        }
    }
    out.push_str(rest);
    out
}

fn list_checkouts(entry: &Path) -> Vec<String> {
    let Ok(entries) = fs::read_dir(entry) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| {
            e.file_name()
                .to_str()?
                .strip_prefix("co-")
                .map(str::to_owned)
        })
        .collect()
}

/// Take a shared lease on a published checkout, if it still exists.
fn try_lease(entry: &Path, id: &str) -> Option<Lease> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(entry.join(format!("co-{id}.lock")))
        .ok()?;
    if !FileExt::try_lock_shared(&file).ok()? {
        return None; // being deleted
    }
    // Locked first, then checked: a collector deletes only under the exclusive lock.
    entry
        .join(format!("co-{id}"))
        .is_dir()
        .then_some(Lease { _file: file })
}

/// Remove lease files whose checkout is gone (a crash between collection steps) and that nobody
/// holds. A clone in progress holds its lease before publishing, so it is never removed.
fn remove_orphan_leases(entry: &Path) {
    let Ok(entries) = fs::read_dir(entry) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(id) = name
            .to_str()
            .and_then(|n| n.strip_prefix("co-"))
            .and_then(|n| n.strip_suffix(".lock"))
        else {
            continue;
        };
        if entry.join(format!("co-{id}")).exists() {
            continue;
        }
        if let Ok(file) = OpenOptions::new().read(true).write(true).open(e.path())
            && matches!(FileExt::try_lock_exclusive(&file), Ok(true))
            && !entry.join(format!("co-{id}")).exists()
        {
            let _ = fs::remove_file(e.path());
        }
    }
}

/// Delete a checkout that no session leases.
fn collect_garbage(entry: &Path, tmp_root: &Path, id: &str) {
    let lock_path = entry.join(format!("co-{id}.lock"));
    let Ok(file) = OpenOptions::new().read(true).write(true).open(&lock_path) else {
        return; // no lease file: a checkout being published, or not ours to judge
    };
    if !matches!(FileExt::try_lock_exclusive(&file), Ok(true)) {
        return; // leased by a live session
    }
    let trash = tmp_root.join(format!("trash-{}", unique_id()));
    if fs::rename(entry.join(format!("co-{id}")), &trash).is_ok() {
        let _ = fs::remove_dir_all(&trash);
    }
    let _ = fs::remove_file(&lock_path);
}

/// The remote sources of one server session: at most [`MAX_REMOTE_SOURCES`] pinned checkouts,
/// leased until the session is dropped. Calls are serialised (a clone blocks other callers).
#[derive(Debug)]
pub struct RemoteSession {
    cache: RepoCache,
    allow_remote: bool,
    pinned: Mutex<BTreeMap<String, (PinnedCheckout, Lease)>>,
}

impl RemoteSession {
    /// A session over `cache`; `allow_remote` is the server's `--allow-remote` flag.
    pub fn new(cache: RepoCache, allow_remote: bool) -> RemoteSession {
        RemoteSession {
            cache,
            allow_remote,
            pinned: Mutex::new(BTreeMap::new()),
        }
    }

    /// Whether remote sources are enabled.
    pub fn allow_remote(&self) -> bool {
        self.allow_remote
    }

    /// How many distinct sources this session pins.
    pub fn pinned_count(&self) -> usize {
        self.pinned.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    /// The checkout of `source` at `branch` (`None`: the remote's default branch): the one this
    /// session already pinned, a fresh-enough published one from the RepoCache, or a new shallow
    /// clone. The lease is held until the session is dropped.
    pub fn acquire(
        &self,
        source: &RemoteSource,
        branch: Option<&str>,
    ) -> Result<PinnedCheckout, GitError> {
        let display = source.safe_display();
        if !self.allow_remote {
            return Err(GitError::RemoteDisabled { display });
        }
        if let Some(b) = branch {
            validate_branch(b)?;
        }
        let key = format!("{display}\n{}", branch.unwrap_or(""));
        let mut pinned = self.pinned.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((checkout, _)) = pinned.get(&key) {
            return Ok(checkout.clone());
        }
        if pinned.len() >= MAX_REMOTE_SOURCES {
            return Err(GitError::RemoteLimit {
                limit: MAX_REMOTE_SOURCES,
            });
        }
        let (checkout, lease) = self.cache.pin(source, branch)?;
        pinned.insert(key, (checkout.clone(), lease));
        Ok(checkout)
    }

    /// Resolve a tool's `project` and `branch` arguments: `Ok(None)` for a local path (the caller
    /// resolves it against its roots), the pinned checkout for a URL.
    ///
    /// Order of checks: a URL without `--allow-remote` is [`GitError::RemoteDisabled`] (even if it
    /// is also malformed); `branch` with a local path and malformed URLs are
    /// [`GitError::InvalidArguments`].
    pub fn resolve(
        &self,
        project: &str,
        branch: Option<&str>,
        local_roots: &[PathBuf],
    ) -> Result<Option<PinnedCheckout>, GitError> {
        let looks_remote = split_scheme(project).is_some()
            || transport_helper(project).is_some()
            || split_scp(project).is_some();
        if looks_remote && !self.allow_remote {
            return Err(GitError::RemoteDisabled {
                display: sanitize(project),
            });
        }
        match RemoteSource::parse(project, local_roots)? {
            Some(source) => self.acquire(&source, branch).map(Some),
            None if branch.is_some() => Err(invalid(format!(
                "`branch` is only valid when `project` is a Git URL; `{}` is a local path, drop \
                 `branch` or pass a URL (with --allow-remote)",
                echo(project)
            ))),
            None => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::GitErrorKind;

    fn p(s: &str) -> Result<Option<RemoteSource>, GitError> {
        RemoteSource::parse(s, &[])
    }

    #[test]
    fn parses_supported_forms() {
        let cases = [
            (
                "https://example.com/org/repo.git",
                "https://example.com/org/repo.git",
            ),
            ("http://127.0.0.1:8080/r.git", "http://127.0.0.1:8080/r.git"),
            ("https://user:s3cret@example.com/r", "https://example.com/r"),
            (
                "ssh://git@example.com:2222/r.git",
                "ssh://example.com:2222/r.git",
            ),
            ("git+ssh://git@example.com/r.git", "ssh://example.com/r.git"),
            ("git://127.0.0.1:9418/r.git", "git://127.0.0.1:9418/r.git"),
            ("git@github.com:org/repo.git", "github.com:org/repo.git"),
            ("example.com:repo", "example.com:repo"),
            ("https://[::1]:8080/r", "https://[::1]:8080/r"),
        ];
        for (input, display) in cases {
            let src = p(input)
                .unwrap()
                .unwrap_or_else(|| panic!("{input} is a URL"));
            assert_eq!(src.safe_display(), display, "{input}");
            assert!(!format!("{src:?}").contains("s3cret"));
        }
    }

    #[test]
    fn local_paths_are_not_urls() {
        for input in [
            "/tmp/x",
            "./a:b",
            "relative/dir",
            "C:\\work\\x",
            "C:/work",
            "dir",
            "a/b:c",
        ] {
            assert!(p(input).unwrap().is_none(), "{input}");
        }
    }

    #[test]
    fn rejects_invalid_urls_without_echoing_credentials() {
        for input in [
            "https://u:topsecret@example.com/r?token=topsecret",
            "https://u:topsecret@example.com/r#topsecret",
            "ftp://u:topsecret@example.com/r",
            "ssh://u:topsecret@example.com/r",
            "git://u:topsecret@example.com/r",
            "ext::sh -c topsecret",
            "https://example.com",
            "https://exa mple.com/r",
            "https://example.com:99999/r",
            "topsecret@host:path?x",
        ] {
            let err = p(input).unwrap_err();
            assert_eq!(err.kind(), GitErrorKind::InvalidArguments, "{input}");
            let msg = err.to_string();
            assert!(!msg.contains("topsecret"), "{input}: {msg}");
            assert!(msg.contains("valid") || msg.contains("remove"), "{msg}");
        }
    }

    #[test]
    fn file_urls_only_inside_roots() {
        let root = tempfile::tempdir().unwrap();
        let inside = root.path().join("repo");
        fs::create_dir_all(&inside).unwrap();
        let other = tempfile::tempdir().unwrap();
        let url = file_url(&inside); // `file:///C:/...` on Windows
        let src = RemoteSource::parse(&url, &[root.path().to_path_buf()])
            .unwrap()
            .unwrap();
        assert!(src.safe_display().starts_with("file://"));
        let err = RemoteSource::parse(&url, &[other.path().to_path_buf()]).unwrap_err();
        assert_eq!(err.kind(), GitErrorKind::OutsideRoots);
        // A missing path outside the roots reads exactly like an existing one.
        let missing = file_url(&other.path().join("no/such/dir"));
        let existing = file_url(other.path());
        let roots = [root.path().to_path_buf()];
        let (a, b) = (
            RemoteSource::parse(&missing, &roots).unwrap_err(),
            RemoteSource::parse(&existing, &roots).unwrap_err(),
        );
        assert_eq!(
            (a.kind(), b.kind()),
            (GitErrorKind::OutsideRoots, GitErrorKind::OutsideRoots)
        );
        assert_eq!(
            a.to_string().replace(&missing, "URL"),
            b.to_string().replace(&existing, "URL")
        );
        // Inside a root, a missing folder is named as missing.
        let err = RemoteSource::parse(&format!("{url}/nope"), &roots).unwrap_err();
        assert_eq!(err.kind(), GitErrorKind::InvalidArguments);
        assert!(err.to_string().contains("does not resolve"), "{err}");
    }

    #[test]
    fn session_is_shareable_across_threads() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<RemoteSession>();
        assert_send_sync::<RepoCache>();
        assert_send_sync::<RemoteSource>();
        assert_send_sync::<GitError>();
    }

    #[test]
    fn branch_validation() {
        for ok in ["main", "feature/x", "v1.0", "release-2026"] {
            validate_branch(ok).unwrap();
        }
        for bad in [
            "", "-x", "a..b", "a b", "a:b", "x.lock", "/x", "x/", "a\\b", "@{u}",
        ] {
            assert!(validate_branch(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn redacts_userinfo_in_messages() {
        assert_eq!(
            redact_userinfo("fatal: unable to access 'https://me:pw@host/r/': 403"),
            "fatal: unable to access 'https://host/r/': 403"
        );
    }

    #[test]
    fn disabled_session_rejects_urls_first() {
        let dir = tempfile::tempdir().unwrap();
        let session = RemoteSession::new(RepoCache::new(dir.path().to_path_buf()), false);
        let err = session
            .resolve("https://u:pw123@example.com/r?x=1", None, &[])
            .unwrap_err();
        assert_eq!(err.kind(), GitErrorKind::RemoteDisabled);
        assert!(!err.to_string().contains("pw123"));
        let err = session
            .resolve("/some/local", Some("main"), &[])
            .unwrap_err();
        assert_eq!(err.kind(), GitErrorKind::InvalidArguments);
        assert!(session.resolve("/some/local", None, &[]).unwrap().is_none());
    }
    #[test]
    fn scp_credentials_are_refused_and_never_echoed() {
        for input in [
            "alice:pw@host.example:repo.git",
            "alice:pw@host.example:org/repo.git",
            "a@b:pw@host.example:repo",
        ] {
            let err = p(input).unwrap_err();
            assert_eq!(err.kind(), GitErrorKind::InvalidArguments, "{input}");
            let msg = err.to_string();
            assert!(msg.contains("password"), "{msg}");
            assert!(!msg.contains("pw") && !msg.contains("alice"), "{msg}");
            assert!(
                msg.contains("host.example:"),
                "shown without credentials: {msg}"
            );
            assert_eq!(sanitize(input).split(':').next(), Some("host.example"));
        }
        // the user name alone still selects the SSH account
        let src = p("alice@host.example:repo.git").unwrap().unwrap();
        assert_eq!(src.clone_url(), "alice@host.example:repo.git");
        assert_eq!(src.safe_display(), "host.example:repo.git");
        // a server without --allow-remote echoes the credential-free form too
        let dir = tempfile::tempdir().unwrap();
        let session = RemoteSession::new(RepoCache::new(dir.path().to_path_buf()), false);
        let err = session
            .resolve("alice:pw@host.example:repo.git", None, &[])
            .unwrap_err();
        assert_eq!(err.kind(), GitErrorKind::RemoteDisabled);
        assert!(!err.to_string().contains("pw@"), "{err}");
        assert!(err.to_string().contains("`host.example:repo.git`"), "{err}");
    }

    #[test]
    fn inherited_git_variables_are_cleared_except_transport_setup() {
        let cleared = [
            "GIT_DIR",
            "GIT_COMMON_DIR",
            "GIT_OBJECT_DIRECTORY",
            "GIT_ALTERNATE_OBJECT_DIRECTORIES",
            "GIT_INDEX_FILE",
            "GIT_WORK_TREE",
            "GIT_CONFIG_PARAMETERS",
            "GIT_CONFIG_COUNT",
            "GIT_CONFIG_KEY_0",
            "GIT_TRACE_CURL",
            "GIT_TRACE",
            "git_dir",
        ];
        let kept = [
            "GIT_SSH_COMMAND",
            "GIT_SSL_CAINFO",
            "GIT_EXEC_PATH",
            "git_ssh_command",
            "PATH",
            "HOME",
            "GITHUB_TOKEN",
        ];
        let names = kept.iter().chain(&cleared).map(std::ffi::OsString::from);
        let out = cleared_git_vars(names);
        let out: Vec<&str> = out.iter().map(|n| n.to_str().unwrap()).collect();
        assert_eq!(out, cleared);
    }

    #[test]
    fn clone_configuration_per_platform() {
        let windows = clone_config("/h".into(), true, true);
        assert_eq!(
            windows,
            [
                ("core.hooksPath", "/h".to_owned()),
                ("credential.helper", String::new()),
                ("core.longpaths", "true".to_owned()),
            ]
        );
        let unix = clone_config("/h".into(), false, false);
        assert_eq!(unix, [("core.hooksPath", "/h".to_owned())]);
    }

    #[test]
    fn file_urls_for_git_are_percent_encoded() {
        assert_eq!(
            file_url(Path::new("/srv/root/..%2F..%2Fx y")),
            "file:///srv/root/..%252F..%252Fx%20y"
        );
        assert_eq!(file_url(Path::new("/a/b.git")), "file:///a/b.git");
        // Windows drive paths (given with either separator)
        assert_eq!(file_url(Path::new("C:/work/repo")), "file:///C:/work/repo");
        assert_eq!(
            file_url(Path::new("C:\\work\\my repo")),
            "file:///C:/work/my%20repo"
        );
    }

    #[test]
    fn publish_rename_retries_only_transient_windows_failures() {
        use std::io::{Error, ErrorKind};
        // Windows: a sharing violation (32) twice, then success.
        let mut failures = vec![Error::from_raw_os_error(32), Error::from_raw_os_error(32)];
        let mut slept = Vec::new();
        let ok = retry_transient(
            || failures.pop().map_or(Ok(()), Err),
            true,
            |d| slept.push(d),
        );
        assert!(ok.is_ok());
        assert_eq!(
            slept,
            [Duration::from_millis(50), Duration::from_millis(100)]
        );
        // Windows: access denied forever gives up after the schedule, with the last error.
        let mut attempts = 0;
        let mut total = Duration::ZERO;
        let err = retry_transient(
            || {
                attempts += 1;
                Err(Error::new(ErrorKind::PermissionDenied, "held"))
            },
            true,
            |d| total += d,
        )
        .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::PermissionDenied);
        assert_eq!(attempts, RENAME_RETRY_DELAYS_MS.len() + 1);
        assert_eq!(total, Duration::from_millis(5550));
        // Unix: permission denied is final; and no platform retries "not found".
        for (windows, error) in [
            (false, Error::new(ErrorKind::PermissionDenied, "x")),
            (true, Error::new(ErrorKind::NotFound, "x")),
        ] {
            let mut attempts = 0;
            let mut error = Some(error);
            let _ = retry_transient(
                || {
                    attempts += 1;
                    Err(error.take().unwrap_or_else(|| Error::other("again")))
                },
                windows,
                |_| panic!("no retry expected"),
            );
            assert_eq!(attempts, 1);
        }
    }
}
