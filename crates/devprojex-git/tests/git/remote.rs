//! Remote sources against real servers on loopback: `git daemon` (git protocol) and
//! `git http-backend` behind a small HTTP server, both started and stopped by the tests.

use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::common::{Sandbox, write};
use devprojex_git::{GitErrorKind, RemoteSession, RemoteSource, RepoCache, tracked_paths};

const SECRET: &str = "s3cr3t-Pa55";

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn exec_path() -> Option<PathBuf> {
    let out = Command::new("git").arg("--exec-path").output().ok()?;
    Some(PathBuf::from(String::from_utf8(out.stdout).ok()?.trim()))
}

fn have(tool: &str) -> bool {
    let found = exec_path().is_some_and(|p| p.join(tool).exists());
    if !found {
        eprintln!("SKIP: `{tool}` is not installed with this git; the test cannot run here");
    }
    found
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn wait_for_port(port: u16) {
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "server on {port} did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A bare repository `srv/repo.git` with `main` (default) and `feature`.
fn served_repo(sb: &Sandbox) -> PathBuf {
    let work = sb.init("work");
    write(&work, "README.md", "# remote\n");
    write(&work, "src/lib.rs", "pub fn f() {}\n");
    sb.git(&work, &["add", "-A"]);
    sb.git(&work, &["commit", "-qm", "one"]);
    write(&work, "src/second.rs", "// second commit\n");
    sb.git(&work, &["add", "-A"]);
    sb.git(&work, &["commit", "-qm", "two"]);
    sb.git(&work, &["checkout", "-qb", "feature"]);
    write(&work, "feature.txt", "only on feature\n");
    sb.git(&work, &["add", "-A"]);
    sb.git(&work, &["commit", "-qm", "feature"]);
    sb.git(&work, &["checkout", "-q", "main"]);
    let srv = sb.path().join("srv");
    std::fs::create_dir_all(&srv).unwrap();
    sb.git(
        sb.path(),
        &[
            "clone",
            "-q",
            "--bare",
            work.to_str().unwrap(),
            srv.join("repo.git").to_str().unwrap(),
        ],
    );
    srv
}

fn git_daemon(sb: &Sandbox, srv: &Path) -> (Server, u16) {
    let port = free_port();
    // `git daemon` runs `git-daemon` as a child of the `git` wrapper, and killing the wrapper
    // would leave the daemon running after the test: start the daemon itself, with the
    // sandbox's environment.
    let sandbox = sb.git_cmd(srv);
    let mut daemon = Command::new(exec_path().expect("git --exec-path").join("git-daemon"));
    daemon.current_dir(srv);
    for (key, value) in sandbox.get_envs() {
        match value {
            Some(value) => daemon.env(key, value),
            None => daemon.env_remove(key),
        };
    }
    let child = daemon
        .args([
            "--reuseaddr",
            "--export-all",
            "--listen=127.0.0.1",
            &format!("--port={port}"),
            &format!("--base-path={}", srv.display()),
            srv.to_str().unwrap(),
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let server = Server(child);
    wait_for_port(port);
    (server, port)
}

fn http_server(sb: &Sandbox, srv: &Path, auth: Option<&str>) -> (Server, u16) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/http_backend.py");
    let mut cmd = Command::new("python3");
    cmd.arg(script).arg(srv).env("HOME", sb.home());
    if let Some(a) = auth {
        cmd.arg(a);
    }
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port: u16 = line.trim().parse().expect("port line");
    let server = Server(child);
    wait_for_port(port);
    (server, port)
}

fn cache(sb: &Sandbox) -> RepoCache {
    RepoCache::new(sb.path().join("cache/repos")).with_timeout(Duration::from_secs(60))
}

fn session(sb: &Sandbox) -> RemoteSession {
    RemoteSession::new(cache(sb), true)
}

fn checkouts_in(cache_dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(keys) = std::fs::read_dir(cache_dir.join("v1")) else {
        return out;
    };
    for key in keys.flatten() {
        for e in std::fs::read_dir(key.path()).unwrap().flatten() {
            if e.file_type().unwrap().is_dir() {
                out.push(e.path());
            }
        }
    }
    out.sort();
    out
}

/// Every file and directory name below `dir`, for "never in the cache path" checks.
fn all_names(dir: &Path, out: &mut Vec<String>) {
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            out.push(e.path().display().to_string());
            if e.file_type().unwrap().is_dir() {
                all_names(&e.path(), out);
            }
        }
    }
}

#[test]
fn git_daemon_clone_branch_reuse_and_leases() {
    if !have("git-daemon") {
        return;
    }
    let sb = Sandbox::new();
    let srv = served_repo(&sb);
    let (_server, port) = git_daemon(&sb, &srv);
    let url = format!("git://127.0.0.1:{port}/repo.git");
    let source = RemoteSource::parse(&url, &[]).unwrap().unwrap();
    let a = session(&sb);
    let main = a.acquire(&source, None).unwrap();
    assert_eq!(main.display, url);
    assert!(main.path.join("src/second.rs").is_file());
    assert!(!main.path.join("feature.txt").exists());
    assert!(main.path.join(".git/shallow").is_file(), "clone is shallow");
    let tracked = tracked_paths(&main.path).unwrap();
    assert_eq!(
        tracked.into_iter().collect::<Vec<_>>(),
        vec!["README.md", "src/lib.rs", "src/second.rs"]
    );

    // Same key in the same session: same checkout, no new clone.
    assert_eq!(a.acquire(&source, None).unwrap(), main);
    // A non-default branch is a distinct source.
    let feature = a.acquire(&source, Some("feature")).unwrap();
    assert_ne!(feature.path, main.path);
    assert!(feature.path.join("feature.txt").is_file());
    assert_eq!(a.pinned_count(), 2);
    // A missing branch fails with the safe URL.
    let err = a.acquire(&source, Some("no-such-branch")).unwrap_err();
    assert_eq!(err.kind(), GitErrorKind::RemoteFailed);
    assert!(err.to_string().contains(&url), "{err}");

    // Another server (session) reuses the published checkout.
    let b = session(&sb);
    assert_eq!(b.acquire(&source, None).unwrap().path, main.path);

    // A third session that wants a fresh clone must not delete checkouts leased by others.
    let c = RemoteSession::new(cache(&sb).with_max_age(Duration::ZERO), true);
    let fresh = c.acquire(&source, None).unwrap();
    assert_ne!(fresh.path, main.path);
    assert!(
        main.path.join("README.md").is_file(),
        "leased checkout survives"
    );

    // Once its leases are gone, an old checkout is collected by the next fresh clone.
    drop(a);
    drop(b);
    drop(c);
    let d = RemoteSession::new(cache(&sb).with_max_age(Duration::ZERO), true);
    let newest = d.acquire(&source, None).unwrap();
    assert!(!main.path.exists(), "unleased old checkout collected");
    assert!(!fresh.path.exists());
    assert!(newest.path.join("README.md").is_file());
    assert!(feature.path.exists(), "other keys are untouched");
}

#[test]
fn smart_http_with_credentials_in_env_only() {
    if !have("git-http-backend") {
        return;
    }
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("SKIP: python3 is needed for the loopback HTTP server");
        return;
    }
    let sb = Sandbox::new();
    let srv = served_repo(&sb);
    let (_server, port) = http_server(&sb, &srv, Some(&format!("alice:{SECRET}")));

    // Log the arguments of every git process the cache starts.
    let log = sb.path().join("argv.log");
    let wrapper = sb.path().join("git-wrapper.sh");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$@\" >> '{}'\nexec git \"$@\"\n",
            log.display()
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let cache = cache(&sb).with_git(wrapper.clone());
    let session = RemoteSession::new(cache.clone(), true);

    let url = format!("http://alice:{SECRET}@127.0.0.1:{port}/repo.git");
    let safe = format!("http://127.0.0.1:{port}/repo.git");
    let checkout = session
        .resolve(&url, Some("feature"), &[])
        .unwrap()
        .unwrap();
    assert_eq!(checkout.display, safe);
    assert!(checkout.path.join("feature.txt").is_file());
    assert!(
        checkout.path.join(".git/shallow").is_file(),
        "smart HTTP clone is shallow"
    );

    let argv = std::fs::read_to_string(&log).unwrap();
    assert!(argv.contains("clone"));
    assert!(
        !argv.contains(SECRET),
        "credentials in git arguments: {argv}"
    );
    let mut names = Vec::new();
    all_names(cache.dir(), &mut names);
    assert!(
        !names
            .iter()
            .any(|n| n.contains(SECRET) || n.contains("alice")),
        "{names:?}"
    );
    let config = std::fs::read_to_string(checkout.path.join(".git/config")).unwrap();
    assert!(!config.contains(SECRET));
    for entry in names.iter().filter(|n| n.ends_with("/key")) {
        assert!(!std::fs::read_to_string(entry).unwrap().contains(SECRET));
    }

    // Wrong password: fails, the message has the safe URL and no secret.
    let bad = format!("http://alice:wrong-{SECRET}@127.0.0.1:{port}/repo.git");
    let err = session.resolve(&bad, Some("main"), &[]).unwrap_err();
    assert_eq!(err.kind(), GitErrorKind::RemoteFailed);
    let msg = err.to_string();
    assert!(msg.contains(&safe), "{msg}");
    assert!(!msg.contains(SECRET), "{msg}");

    // Query strings are rejected before anything runs, and never echoed with credentials.
    let err = session
        .resolve(
            &format!("http://alice:{SECRET}@127.0.0.1:{port}/repo.git?token={SECRET}"),
            None,
            &[],
        )
        .unwrap_err();
    assert_eq!(err.kind(), GitErrorKind::InvalidArguments);
    assert!(!err.to_string().contains(SECRET));
}

#[test]
fn smart_http_without_auth_default_branch() {
    if !have("git-http-backend") || Command::new("python3").arg("--version").output().is_err() {
        return;
    }
    let sb = Sandbox::new();
    let srv = served_repo(&sb);
    let (_server, port) = http_server(&sb, &srv, None);
    let session = session(&sb);
    let checkout = session
        .resolve(&format!("http://127.0.0.1:{port}/repo.git"), None, &[])
        .unwrap()
        .unwrap();
    assert!(checkout.path.join("src/second.rs").is_file());
    assert!(!checkout.path.join("feature.txt").exists());
}

#[test]
fn unreachable_port_fails_fast() {
    let sb = Sandbox::new();
    let port = free_port(); // bound and released: nothing listens there
    let session = session(&sb);
    for url in [
        format!("git://127.0.0.1:{port}/repo.git"),
        format!("http://127.0.0.1:{port}/repo.git"),
    ] {
        let start = Instant::now();
        let err = session.resolve(&url, None, &[]).unwrap_err();
        assert_eq!(err.kind(), GitErrorKind::RemoteFailed);
        assert!(err.to_string().contains(&url), "{err}");
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "took {:?}",
            start.elapsed()
        );
    }
    assert_eq!(session.pinned_count(), 0);
    assert!(checkouts_in(&sb.path().join("cache/repos")).is_empty());
}

#[test]
fn clone_timeout_is_enforced() {
    // A listener that accepts and never answers: the clone must be stopped by the timeout.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let sb = Sandbox::new();
    let session = RemoteSession::new(cache(&sb).with_timeout(Duration::from_secs(2)), true);
    let start = Instant::now();
    let err = session
        .resolve(&format!("git://127.0.0.1:{port}/repo.git"), None, &[])
        .unwrap_err();
    assert_eq!(err.kind(), GitErrorKind::RemoteFailed);
    assert!(err.to_string().contains("did not finish"), "{err}");
    assert!(start.elapsed() < Duration::from_secs(10));
    drop(listener);
}

#[test]
fn session_cap_and_file_urls() {
    let sb = Sandbox::new();
    let roots = [sb.path().to_path_buf()];
    let work = sb.init("local");
    write(&work, "a.txt", "a\n");
    sb.git(&work, &["add", "-A"]);
    sb.git(&work, &["commit", "-qm", "a"]);
    for i in 0..17 {
        sb.git(&work, &["branch", &format!("b{i}")]);
    }
    let url = format!("file://{}", work.display());
    let session = session(&sb);
    for i in 0..16 {
        let c = session
            .resolve(&url, Some(&format!("b{i}")), &roots)
            .unwrap()
            .unwrap();
        assert!(c.path.join("a.txt").is_file());
    }
    let err = session.resolve(&url, Some("b16"), &roots).unwrap_err();
    assert_eq!(err.kind(), GitErrorKind::RemoteLimit);
    assert!(
        err.to_string().contains("reuse") && err.to_string().contains("restart"),
        "{err}"
    );
    // Existing keys are still served.
    assert!(session.resolve(&url, Some("b3"), &roots).is_ok());
    // file:// outside the configured roots is refused.
    let elsewhere = tempfile::tempdir().unwrap();
    let err = session
        .resolve(&url, None, &[elsewhere.path().to_path_buf()])
        .unwrap_err();
    assert_eq!(err.kind(), GitErrorKind::OutsideRoots);
}

#[test]
fn concurrent_acquires_are_serialised() {
    let sb = Sandbox::new();
    let roots = vec![sb.path().to_path_buf()];
    let work = sb.init("local");
    write(&work, "a.txt", "a\n");
    sb.git(&work, &["add", "-A"]);
    sb.git(&work, &["commit", "-qm", "a"]);
    let url = format!("file://{}", work.display());
    let session = Arc::new(session(&sb));
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let session = Arc::clone(&session);
            let url = url.clone();
            let roots = roots.clone();
            std::thread::spawn(move || session.resolve(&url, None, &roots).unwrap().unwrap().path)
        })
        .collect();
    let paths: Vec<PathBuf> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert!(paths.windows(2).all(|w| w[0] == w[1]));
    assert_eq!(
        checkouts_in(&sb.path().join("cache/repos")).len(),
        1,
        "exactly one clone"
    );
}

#[test]
fn disabled_without_allow_remote() {
    let sb = Sandbox::new();
    let session = RemoteSession::new(cache(&sb), false);
    for url in [
        "https://example.com/r.git",
        "git@example.com:r.git",
        "git://127.0.0.1/r",
    ] {
        let err = session.resolve(url, None, &[]).unwrap_err();
        assert_eq!(err.kind(), GitErrorKind::RemoteDisabled);
        assert!(err.to_string().contains("--allow-remote"));
    }
    assert!(
        !sb.path().join("cache/repos").exists(),
        "no cache activity without the flag"
    );
}
