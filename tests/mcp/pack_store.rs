//! The session pack store tried as another user, a crash and a temp cleaner would, through the
//! built binary: a private per-user folder, never a folder that fails the check, other users
//! kept out, nothing left behind after any signal, folders recreated when they vanish, and a
//! prompt exit when stdin closes with a call in flight.
#![cfg(unix)]

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

use crate::common::{self, Fixture, Mcp, first_text, stored_pack_id};
use serde_json::json;

const EXIT_GUARD: Duration = Duration::from_secs(10);

fn effective_uid() -> u32 {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() }
}

fn mode_of(path: &Path) -> u32 {
    std::fs::symlink_metadata(path).unwrap().mode() & 0o7777
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

fn session_dirs(store: &Path) -> Vec<PathBuf> {
    names_in(store)
        .into_iter()
        .filter(|n| n.starts_with("session-"))
        .map(|n| store.join(n))
        .collect()
}

/// 100 files whose tree-content pack is stored (over 50,000 characters).
fn stored_project(fx: &Fixture) {
    for f in 0..100 {
        let line = format!("line of file {f:03} belonging to its owner\n");
        fx.write(
            &format!("module_{:02}/file_{f:03}.txt", f / 10),
            line.repeat(20),
        );
    }
}

/// Store a pack; returns its id and its first three lines.
fn store_pack(mcp: &mut Mcp) -> (String, String) {
    let text = first_text(&mcp.call("pack_context", json!({"format": "text"})));
    let (id, _) = stored_pack_id(&text).unwrap_or_else(|| panic!("not stored: {text}"));
    let head = read_head(mcp, &id);
    (id, head)
}

/// The pack text of lines 1-3 (without the per-response spotlight tags).
fn read_head(mcp: &mut Mcp, id: &str) -> String {
    let text = mcp.call_ok("read_pack", json!({"pack_id": id, "end_line": 3}));
    common::one_spot(&text).inner
}

/// A folder standing in for `/tmp`: world-writable and sticky.
fn shared_tmp() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    chmod(tmp.path(), 0o1777);
    tmp
}

/// The environment that makes the server use its default store under `tmp`.
fn default_store_env(tmp: &Path) -> Vec<(&'static str, String)> {
    vec![
        ("TMPDIR", tmp.to_str().unwrap().to_string()),
        ("DEVPROJEX_PACK_DIR", String::new()),
    ]
}

fn start(root: &Path, envs: &[(&str, String)]) -> Mcp {
    let envs: Vec<(&str, &str)> = envs.iter().map(|(k, v)| (*k, v.as_str())).collect();
    Mcp::start_with(&["--root", root.to_str().unwrap()], &envs)
}

fn usual_store(tmp: &Path, uid: u32) -> PathBuf {
    tmp.join(format!("devprojex-packs-{uid}"))
}

/// Fallback folders `devprojex-packs-<uid>-<random>` under `tmp`.
fn fallback_stores(tmp: &Path, uid: u32) -> Vec<PathBuf> {
    let prefix = format!("devprojex-packs-{uid}-");
    names_in(tmp)
        .into_iter()
        .filter(|n| n.starts_with(&prefix))
        .map(|n| tmp.join(n))
        .collect()
}

fn assert_private_dir(path: &Path) {
    let meta =
        std::fs::symlink_metadata(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    assert!(meta.is_dir(), "{} is a real directory", path.display());
    assert_eq!(meta.uid(), effective_uid(), "{} owner", path.display());
    assert_eq!(meta.mode() & 0o7777, 0o700, "{} mode", path.display());
}

#[test]
fn the_default_store_is_a_private_folder_named_for_the_user() {
    let tmp = shared_tmp();
    let fx = Fixture::new();
    stored_project(&fx);
    let mut mcp = start(&fx.root, &default_store_env(tmp.path()));
    store_pack(&mut mcp);

    let store = usual_store(tmp.path(), effective_uid());
    assert_eq!(
        names_in(tmp.path()),
        vec![store.file_name().unwrap().to_string_lossy().into_owned()],
        "one store folder, named for the user"
    );
    assert_private_dir(&store);
    let sessions = session_dirs(&store);
    assert_eq!(sessions.len(), 1, "{sessions:?}");
    assert_private_dir(&sessions[0]);
    let files = names_in(&sessions[0]);
    assert!(files.iter().any(|n| n.ends_with(".pack")), "{files:?}");
    for name in &files {
        assert_eq!(
            mode_of(&sessions[0].join(name)),
            0o600,
            "{name} is readable by its owner only"
        );
    }
    let status = mcp.close_and_wait(EXIT_GUARD).expect("exit");
    assert_eq!(status.code(), Some(0));
    assert!(!sessions[0].exists(), "the session is removed at exit");
}

#[test]
fn a_usual_store_folder_that_fails_the_check_is_never_used() {
    let uid = effective_uid();
    // Each case plants something at the usual store name (and may use a second folder).
    type Plant = dyn Fn(&Path, &Path);
    let cases: [(&str, &Plant); 4] = [
        ("mode 0755", &|store, _| {
            std::fs::create_dir(store).unwrap();
            chmod(store, 0o755);
        }),
        ("mode 0777", &|store, _| {
            std::fs::create_dir(store).unwrap();
            chmod(store, 0o777);
        }),
        ("a symbolic link", &|store, elsewhere| {
            std::fs::create_dir(elsewhere).unwrap();
            chmod(elsewhere, 0o700);
            std::os::unix::fs::symlink(elsewhere, store).unwrap();
        }),
        ("a regular file", &|store, _| {
            std::fs::write(store, "not a folder").unwrap();
        }),
    ];
    let fx = Fixture::new();
    stored_project(&fx);
    for (case, plant) in cases {
        let tmp = shared_tmp();
        let store = usual_store(tmp.path(), uid);
        let elsewhere = tmp.path().join("elsewhere");
        plant(&store, &elsewhere);
        let before = std::fs::symlink_metadata(&store).unwrap();

        let mut mcp = start(&fx.root, &default_store_env(tmp.path()));
        let (id, head) = store_pack(&mut mcp);
        let stderr = mcp.stderr();
        assert!(
            stderr.contains("DPX-MCP-PACK-STORE-UNSAFE") && stderr.contains("is not used"),
            "{case}: the server says it does not use the folder: {stderr}"
        );

        let after = std::fs::symlink_metadata(&store).unwrap();
        assert_eq!(
            (after.mode(), after.ino()),
            (before.mode(), before.ino()),
            "{case}: left as it was"
        );
        if after.is_dir() {
            assert!(names_in(&store).is_empty(), "{case}: nothing written in it");
        }
        if elsewhere.exists() {
            assert!(
                names_in(&elsewhere).is_empty(),
                "{case}: nothing written through the link"
            );
        }
        let fallbacks = fallback_stores(tmp.path(), uid);
        assert_eq!(fallbacks.len(), 1, "{case}: {fallbacks:?}");
        assert_private_dir(&fallbacks[0]);
        assert_eq!(session_dirs(&fallbacks[0]).len(), 1, "{case}");
        assert_eq!(read_head(&mut mcp, &id), head, "{case}");

        let status = mcp.close_and_wait(EXIT_GUARD).expect("exit");
        assert_eq!(status.code(), Some(0), "{case}");
        assert!(
            !fallbacks[0].exists(),
            "{case}: the fallback folder is removed at exit"
        );
    }
}

/// Start `devprojex mcp` with stdin closed and return (exit code, stderr).
fn startup_with(root: &Path, envs: &[(&str, &Path)]) -> (Option<i32>, String) {
    let mut command = Command::new(common::bin());
    command
        .args(["mcp", "--root"])
        .arg(root)
        .env_remove("DEVPROJEX_ROOT")
        .env_remove("CLAUDE_PROJECT_DIR")
        .stdin(Stdio::null())
        .stdout(Stdio::null());
    for (key, value) in envs {
        command.env(key, value);
    }
    let out = command.output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_configured_pack_dir_that_is_not_private_is_refused_at_startup() {
    let fx = Fixture::new();
    let base = fx.base();

    let open_dir = base.join("open-packs");
    std::fs::create_dir(&open_dir).unwrap();
    chmod(&open_dir, 0o755);
    let (code, stderr) = startup_with(&fx.root, &[("DEVPROJEX_PACK_DIR", &open_dir)]);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("DPX-MCP-PACK-STORE-UNSAFE")
            && stderr.contains("0755")
            && stderr.contains("chmod 700"),
        "the message says what is wrong and how to fix it: {stderr}"
    );
    assert!(names_in(&open_dir).is_empty(), "nothing written in it");
    assert_eq!(mode_of(&open_dir), 0o755, "its mode is left alone");

    let target = base.join("private-target");
    std::fs::create_dir(&target).unwrap();
    chmod(&target, 0o700);
    let link = base.join("linked-packs");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let (code, stderr) = startup_with(&fx.root, &[("DEVPROJEX_PACK_DIR", &link)]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("DPX-MCP-PACK-STORE-UNSAFE") && stderr.contains("symbolic link"),
        "{stderr}"
    );
    assert!(names_in(&target).is_empty());

    let fresh = base.join("new-packs");
    let (code, stderr) = startup_with(&fx.root, &[("DEVPROJEX_PACK_DIR", &fresh)]);
    assert_eq!(code, Some(0), "a missing folder is created: {stderr}");
    assert_private_dir(&fresh);
}

#[test]
fn every_ending_signal_removes_the_session_sighup_included() {
    let fx = Fixture::new();
    stored_project(&fx);
    for (name, signal) in [
        ("SIGHUP", libc::SIGHUP),
        ("SIGTERM", libc::SIGTERM),
        ("SIGINT", libc::SIGINT),
    ] {
        let packs = fx.base().join(format!("packs-{name}"));
        let mut mcp = start(&fx.root, &[("DEVPROJEX_PACK_DIR", path_env(&packs))]);
        store_pack(&mut mcp);
        let sessions = session_dirs(&packs);
        assert_eq!(sessions.len(), 1, "{name}");
        // SAFETY: signalling our own child.
        assert_eq!(
            unsafe { libc::kill(mcp.child.id() as libc::pid_t, signal) },
            0
        );
        let status = mcp.wait_exit(EXIT_GUARD).expect("exit");
        assert_eq!(status.code(), Some(0), "{name}: a clean exit, {status:?}");
        assert!(
            session_dirs(&packs).is_empty(),
            "{name}: the session and its packs are removed"
        );
    }
}

fn path_env(path: &Path) -> String {
    path.to_str().unwrap().to_string()
}

#[test]
fn after_a_sigkill_the_next_start_removes_the_dead_sessions_packs_at_once() {
    let fx = Fixture::new();
    stored_project(&fx);
    let packs = fx.base().join("packs");
    let env = [("DEVPROJEX_PACK_DIR", path_env(&packs))];

    // A live server with an old session: its lock, not its age, keeps it.
    let mut live = start(&fx.root, &env);
    let (live_id, live_head) = store_pack(&mut live);
    let live_session = session_dirs(&packs).pop().unwrap();
    let day_ago = SystemTime::now() - Duration::from_secs(25 * 60 * 60);
    for path in [live_session.clone(), live_session.join("owner.pid")] {
        std::fs::File::open(&path)
            .unwrap()
            .set_modified(day_ago)
            .unwrap();
    }

    let mut killed = start(&fx.root, &env);
    store_pack(&mut killed);
    let killed_session = session_dirs(&packs)
        .into_iter()
        .find(|s| *s != live_session)
        .unwrap();
    killed.child.kill().unwrap();
    killed.child.wait().unwrap();
    assert!(
        names_in(&killed_session)
            .iter()
            .any(|n| n.ends_with(".pack")),
        "a SIGKILL leaves the packs behind"
    );

    let mut next = start(&fx.root, &env);
    next.call_ok("list_projects", json!({}));
    assert!(
        !killed_session.exists(),
        "the dead session's packs are removed by the next start"
    );
    assert!(live_session.exists(), "a running server's session is kept");
    assert_eq!(read_head(&mut live, &live_id), live_head);
    assert_eq!(
        session_dirs(&packs).len(),
        2,
        "the live and the new session"
    );
}

#[test]
fn a_store_removed_from_outside_is_recreated_for_the_next_pack() {
    let tmp = shared_tmp();
    let fx = Fixture::new();
    stored_project(&fx);
    let env = default_store_env(tmp.path());
    let store = usual_store(tmp.path(), effective_uid());
    let mut mcp = start(&fx.root, &env);
    let (old_id, _) = store_pack(&mut mcp);

    // A temp cleaner (macOS purges $TMPDIR items unused for 3 days) removes everything.
    std::fs::remove_dir_all(&store).unwrap();
    let (id, head) = store_pack(&mut mcp);
    assert_private_dir(&store);
    let text = mcp.call_err("read_pack", json!({"pack_id": old_id}));
    assert!(text.starts_with("DPX-MCP-PACK-EXPIRED"), "{text}");

    // Only the owner file goes: it is recreated, with its lock, and the packs stay valid.
    let session = session_dirs(&store).pop().unwrap();
    std::fs::remove_file(session.join("owner.pid")).unwrap();
    let (id2, head2) = store_pack(&mut mcp);
    assert_eq!(session_dirs(&store), vec![session.clone()]);
    assert_eq!(
        std::fs::read_to_string(session.join("owner.pid")).unwrap(),
        mcp.child.id().to_string()
    );
    assert_eq!(read_head(&mut mcp, &id), head, "packs stored before stay");
    let stderr = mcp.stderr();
    assert_eq!(stderr.matches("recreated").count(), 2, "logged: {stderr}");

    // Another server's scavenger sees a locked session and keeps it.
    let mut other = start(&fx.root, &env);
    other.call_ok("list_projects", json!({}));
    assert!(session.exists());
    assert_eq!(read_head(&mut mcp, &id2), head2);
}

#[test]
fn closing_stdin_with_a_call_in_flight_ends_the_process_within_a_second() {
    let fx = Fixture::new();
    // A search that runs for seconds: a backtracking-heavy pattern over 4 MiB of Cyrillic
    // words with no digit to end it.
    let words = ["привет", "мир", "слово", "текст", "пример", "данные"];
    let mut text = String::new();
    let mut n = 0usize;
    while text.len() < 4 * 1024 * 1024 {
        text.push_str(words[n % words.len()]);
        n += 1;
        text.push(if n.is_multiple_of(12) { '\n' } else { ' ' });
    }
    fx.write("big.txt", &text);
    let packs = fx.base().join("packs");
    let mut mcp = start(&fx.root, &[("DEVPROJEX_PACK_DIR", path_env(&packs))]);
    mcp.call_ok("list_projects", json!({}));
    let session = session_dirs(&packs).pop().unwrap();
    mcp.send(&json!({"jsonrpc": "2.0", "id": 77, "method": "tools/call",
        "params": {"name": "search_project", "arguments": {"pattern": r"\b(\w+\b\s){12}\d"}}}));
    let closed = Instant::now();
    let status = mcp.close_and_wait(EXIT_GUARD).expect("exit");
    let took = closed.elapsed();
    assert_eq!(status.code(), Some(0));
    assert!(
        took < Duration::from_secs(1),
        "stdin closed with a call in flight: exit took {took:?}"
    );
    assert!(!session.exists(), "the session is removed on this path too");
}

// ---------------------------------------------------------------------------------------------
// Another user (root only: CI runs as root and creates a throwaway user for these tests)

/// A throwaway system user, removed on drop.
struct ThrowawayUser {
    name: String,
    uid: u32,
    gid: u32,
}

impl ThrowawayUser {
    /// `None` (with a note) when the tests do not run as root.
    fn create() -> Option<Self> {
        if effective_uid() != 0 {
            eprintln!(
                "note: skipped: creating a second user needs root (CI runs these tests as root)"
            );
            return None;
        }
        let name = format!("dpxtest{}", random_suffix());
        let _serial = USER_DATABASE.lock().unwrap_or_else(|p| p.into_inner());
        let out = Command::new("useradd")
            .args([
                "--system",
                "--no-create-home",
                "--shell",
                "/usr/sbin/nologin",
            ])
            .arg(&name)
            .output()
            .expect("useradd (passwd package) is installed");
        assert!(
            out.status.success(),
            "useradd {name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let id = |flag: &str| -> u32 {
            let out = Command::new("id").arg(flag).arg(&name).output().unwrap();
            String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
        };
        let (uid, gid) = (id("-u"), id("-g"));
        Some(Self { name, uid, gid })
    }

    /// Run a shell script as this user; returns its stdout.
    fn sh(&self, script: &str, tmp: &Path) -> String {
        use std::os::unix::process::CommandExt;
        let out = Command::new("sh")
            .arg("-c")
            .arg(script)
            .env("T", tmp)
            .current_dir("/")
            .uid(self.uid)
            .gid(self.gid)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Start `program mcp` as this user with `TMPDIR=tmp`.
    fn mcp(&self, program: &Path, root: &Path, tmp: &Path, home: &Path) -> Mcp {
        use std::os::unix::process::CommandExt;
        let (uid, gid) = (self.uid, self.gid);
        let env = [
            ("TMPDIR", tmp.to_str().unwrap()),
            ("DEVPROJEX_PACK_DIR", ""),
            ("HOME", home.to_str().unwrap()),
            ("XDG_CACHE_HOME", home.to_str().unwrap()),
        ];
        let mut mcp =
            Mcp::spawn_adjusted(program, &["--root", root.to_str().unwrap()], &env, |c| {
                // std drops root's supplementary groups when it sets the uid.
                c.uid(uid).gid(gid).current_dir("/");
            });
        mcp.initialize();
        mcp
    }
}

/// useradd and userdel lock the user database; tests of this binary take turns.
static USER_DATABASE: std::sync::Mutex<()> = std::sync::Mutex::new(());

impl Drop for ThrowawayUser {
    fn drop(&mut self) {
        let _serial = USER_DATABASE.lock().unwrap_or_else(|p| p.into_inner());
        let _ = Command::new("userdel").arg(&self.name).output();
    }
}

/// A user name not taken yet: the process id and a per-process counter.
fn random_suffix() -> String {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("{}x{n}", std::process::id())
}

/// A project, a HOME and a shared temp folder that the other user can use.
struct SharedSetup {
    _base: tempfile::TempDir,
    tmp: PathBuf,
    other_root: PathBuf,
    other_home: PathBuf,
    /// The binary, where the other user can run it.
    program: PathBuf,
}

fn shared_setup(user: &ThrowawayUser) -> SharedSetup {
    let base = tempfile::tempdir().unwrap();
    chmod(base.path(), 0o755);
    let tmp = base.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    chmod(&tmp, 0o1777);
    let other_root = base.path().join("other-project");
    for f in 0..100 {
        common::write_file(
            &other_root.join(format!("m{:02}/f{f:03}.txt", f / 10)),
            "the other user's line\n".repeat(30),
        );
    }
    let other_home = base.path().join("other-home");
    std::fs::create_dir(&other_home).unwrap();
    let chown = Command::new("chown")
        .arg("-R")
        .arg(format!("{}:{}", user.uid, user.gid))
        .arg(&other_root)
        .arg(&other_home)
        .status()
        .unwrap();
    assert!(chown.success());
    // The other user runs the built binary, or a copy when the checkout is closed to others.
    let mut program = PathBuf::from(common::bin());
    let runnable =
        |path: &Path| user.sh(&format!("test -x '{}' && echo yes", path.display()), &tmp);
    if runnable(&program).trim() != "yes" {
        let copy = base.path().join("devprojex");
        std::fs::copy(&program, &copy).unwrap();
        chmod(&copy, 0o755);
        program = copy;
        assert_eq!(runnable(&program).trim(), "yes", "{}", program.display());
    }
    SharedSetup {
        _base: base,
        tmp,
        other_root,
        other_home,
        program,
    }
}

/// Everything the other user can list under the shared temp folder.
fn visible_to(user: &ThrowawayUser, tmp: &Path) -> String {
    user.sh(r#"find "$T" 2>/dev/null"#, tmp)
}

#[test]
fn a_second_users_server_starts_beside_the_first_and_cannot_see_its_sessions() {
    let Some(user) = ThrowawayUser::create() else {
        return;
    };
    let setup = shared_setup(&user);
    let fx = Fixture::new();
    stored_project(&fx);
    let mut first = start(&fx.root, &default_store_env(&setup.tmp));
    let (id, head) = store_pack(&mut first);
    let first_session = session_dirs(&usual_store(&setup.tmp, effective_uid()))
        .pop()
        .unwrap();

    let mut second = user.mcp(
        &setup.program,
        &setup.other_root,
        &setup.tmp,
        &setup.other_home,
    );
    let (second_id, _) = store_pack(&mut second);
    assert!(
        usual_store(&setup.tmp, user.uid).is_dir(),
        "the second user has a store of its own"
    );

    let seen = visible_to(&user, &setup.tmp);
    let first_session_name = first_session.file_name().unwrap().to_string_lossy();
    assert!(
        !seen.contains(&*first_session_name) && !seen.contains(&id),
        "the second user cannot list the first user's sessions or packs:\n{seen}"
    );
    assert!(seen.contains(&second_id), "but sees its own:\n{seen}");
    assert!(
        first_session.exists(),
        "the second start kept the first session"
    );
    assert_eq!(read_head(&mut first, &id), head);
    let text = second.call_err("read_pack", json!({"pack_id": id}));
    assert!(text.starts_with("DPX-MCP-PACK-EXPIRED"), "{text}");
}

#[test]
fn a_user_who_creates_the_store_names_first_cannot_list_or_take_over_a_session() {
    let Some(attacker) = ThrowawayUser::create() else {
        return;
    };
    let setup = shared_setup(&attacker);
    // The attacker creates every name a victim's server might use, open to everyone.
    attacker.sh(
        &format!(
            r#"for d in "$T/devprojex-packs" "$T/devprojex-packs-{uid}"; do mkdir "$d" && chmod 777 "$d"; done"#,
            uid = effective_uid()
        ),
        &setup.tmp,
    );
    let fx = Fixture::new();
    stored_project(&fx);
    let mut victim = start(&fx.root, &default_store_env(&setup.tmp));
    let (id, head) = store_pack(&mut victim);

    let seen = visible_to(&attacker, &setup.tmp);
    assert!(
        !seen.contains("session-") && !seen.contains(&id),
        "the attacker lists no session or pack id:\n{seen}"
    );
    // The takeover: move every visible session aside and plant attacker text under the same
    // pack names.
    attacker.sh(
        r#"for s in "$T"/*/session-*; do
             [ -d "$s" ] || continue
             mv "$s" "$s.moved" && mkdir "$s" &&
             for p in "$s.moved"/*.pack; do echo "ATTACKER TEXT" > "$s/$(basename "$p")"; done
           done"#,
        &setup.tmp,
    );
    let again = read_head(&mut victim, &id);
    assert!(!again.contains("ATTACKER"), "{again}");
    assert_eq!(again, head, "the victim reads its own pack");
    assert!(
        victim.stderr().contains("DPX-MCP-PACK-STORE-UNSAFE"),
        "the victim's server says why it does not use the folder: {}",
        victim.stderr()
    );
    let store = fallback_stores(&setup.tmp, effective_uid());
    assert_eq!(store.len(), 1, "a fresh private folder: {store:?}");
    assert_private_dir(&store[0]);
}

#[test]
fn a_store_that_cannot_take_the_pack_answers_the_documented_code_with_the_remedy_and_no_path() {
    // A file-size limit makes every write past 64 KiB fail as a full disk does (EFBIG instead
    // of ENOSPC; SIGXFSZ ignored so the write returns the error): no mount, no root needed.
    const LIMIT: libc::rlim_t = 64 * 1024;
    let fx = Fixture::new();
    stored_project(&fx);
    fx.write("small.txt", "small\n");
    let packs = fx.base().join("packs");
    let packs_str = packs.to_str().unwrap().to_string();
    let root = fx.root_str();
    let mut mcp = Mcp::spawn_adjusted(
        Path::new(common::bin()),
        &["--root", &root],
        &[("DEVPROJEX_PACK_DIR", &packs_str)],
        |command| {
            use std::os::unix::process::CommandExt;
            // SAFETY: only async-signal-safe calls between fork and exec.
            unsafe {
                command.pre_exec(|| {
                    libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                    let limit = libc::rlimit {
                        rlim_cur: LIMIT,
                        rlim_max: LIMIT,
                    };
                    if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        },
    );
    mcp.initialize();
    let text = mcp.call_err("pack_context", json!({}));
    assert!(
        text.starts_with("DPX-MCP-PACK-STORE-UNAVAILABLE: "),
        "{text}"
    );
    for remedy in [
        "free disk space",
        "DEVPROJEX_PACK_DIR",
        "call pack_context again",
    ] {
        assert!(text.contains(remedy), "no '{remedy}' in: {text}");
    }
    assert!(
        text.contains("(file too large)"),
        "the reason is kept: {text}"
    );
    for internal in [packs_str.as_str(), "session-", ".tmp", "/"] {
        assert!(!text.contains(internal), "'{internal}' shown in: {text}");
    }
    // The path goes to the server's log, for the user.
    assert!(mcp.stderr().contains(&packs_str), "{}", mcp.stderr());
    // The server keeps serving, and a pack that fits the store is kept.
    let small = mcp.call_ok("pack_context", json!({"paths": ["small.txt"]}));
    assert!(small.contains("small"), "{small}");
}
