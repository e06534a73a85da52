//! Killed in the middle of a write: SIGTERM and SIGINT leave no temporary file and an intact
//! config (the old or the new bytes), and a run after SIGKILL removes what was left.
//! Drives the `cli` example (the setup front as a process) on a 6 MB `~/.claude.json`, and sends
//! each signal as soon as the run's temporary file appears, so it lands inside the write.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

fn cli() -> PathBuf {
    // target/debug/deps/signals-<hash> -> target/debug/examples/cli
    let exe = std::env::current_exe().unwrap();
    let path = exe
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("examples")
        .join("cli");
    assert!(
        path.exists(),
        "cargo test builds the cli example: {}",
        path.display()
    );
    path
}

fn big_config() -> String {
    let mut projects = serde_json::Map::new();
    for i in 0..15_000 {
        projects.insert(
            format!("/home/u/src/project-{i:05}"),
            serde_json::json!({"allowedTools": [], "history": ["x".repeat(300)]}),
        );
    }
    serde_json::to_string_pretty(&serde_json::json!({"numStartups": 7, "projects": projects}))
        .unwrap()
}

fn leftovers(home: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut dirs = vec![home.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().filter_map(|e| e.ok()) {
            let name = e.file_name().to_string_lossy().into_owned();
            if e.path().is_dir() {
                dirs.push(e.path());
            } else if name.starts_with(".devprojex-setup-") {
                found.push(e.path().display().to_string());
            }
        }
    }
    found
}

fn setup(home: &Path) -> std::process::Child {
    Command::new(cli())
        .args([
            "setup",
            "--yes",
            "--client",
            "claude-code",
            "--allow-dev-build",
        ])
        .env_clear()
        .env("HOME", home)
        .env("PATH", "/usr/bin:/bin")
        .current_dir(home)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn kill(pid: u32, signal: &str) {
    let status = Command::new("kill")
        .args([signal, &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Waits until the running setup has a temporary file (it is writing), up to a minute.
fn wait_for_temp(home: &Path, child: &mut std::process::Child) -> bool {
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while std::time::Instant::now() < deadline {
        if !leftovers(home).is_empty() {
            return true;
        }
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    false
}

#[test]
fn sigterm_and_sigint_mid_write_leave_no_temporary_file() {
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join(".claude.json");
    let original = big_config();
    assert!(original.len() > 4 << 20);
    let mut caught = 0;
    for signal in ["-TERM", "-INT", "-TERM"] {
        std::fs::write(&config, &original).unwrap();
        let mut child = setup(home.path());
        if !wait_for_temp(home.path(), &mut child) {
            // The write was over before the poll saw it; nothing to interrupt this round.
            child.wait().unwrap();
            continue;
        }
        kill(child.id(), signal);
        let status = child.wait().unwrap();
        if status.code() == Some(130) {
            caught += 1;
        }
        assert!(
            leftovers(home.path()).is_empty(),
            "{signal}: {:?}",
            leftovers(home.path())
        );
        let now = std::fs::read_to_string(&config).unwrap();
        let v: serde_json::Value = serde_json::from_str(&now).expect("never a torn file");
        assert_eq!(v["numStartups"], 7);
        assert!(now == original || v["mcpServers"]["devprojex"].is_object());
    }
    assert!(
        caught > 0,
        "no signal landed while a temporary file existed"
    );
}

#[test]
fn a_run_after_sigkill_removes_what_the_killed_run_left() {
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join(".claude.json");
    let original = big_config();
    let mut left = 0;
    for round in 0..2 {
        std::fs::write(&config, &original).unwrap();
        let mut child = setup(home.path());
        if wait_for_temp(home.path(), &mut child) {
            kill(child.id(), "-KILL");
        }
        child.wait().unwrap();
        left += leftovers(home.path()).len();
        // The next run removes it at once (its writer is dead), whatever its age.
        let status = setup(home.path()).wait().unwrap();
        assert_eq!(status.code(), Some(0), "round {round}");
        assert!(
            leftovers(home.path()).is_empty(),
            "round {round}: {:?}",
            leftovers(home.path())
        );
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&config).unwrap()).unwrap();
        assert!(v["mcpServers"]["devprojex"].is_object());
    }
    assert!(
        left > 0,
        "SIGKILL while writing leaves the temporary file the next run removes"
    );
}
