//! Where the real clients put setup (issue 37): broad `--root` folders, a home folder that
//! belongs to another user (with real user ids: the file system reports the owners), and the
//! smaller things of item 5.
#![cfg(not(windows))]

mod common;

use common::Home;
use serde_json::json;

// ---------- item 1: `--root` never names /, a drive or the home folder by accident ----------

#[test]
fn a_broad_root_is_refused_without_allow_broad_root() {
    let h = Home::new();
    h.mkdir(".config/Claude");
    let home = h.s("");
    let home = home.trim_end_matches('/');
    let link = h.p("src/home-link");
    h.mkdir("src");
    std::os::unix::fs::symlink(&h.root, &link).unwrap();
    for root in [
        "~",
        "/",
        home,
        &format!("{home}/src/.."),
        link.to_str().unwrap(),
    ] {
        let r = h.run(&[
            "setup",
            "--yes",
            "--client",
            "claude-desktop",
            "--root",
            root,
        ]);
        assert_eq!(r.code, 2, "{root}: {}", r.all());
        assert!(r.err.contains("DPX-SETUP-USAGE"), "{root}: {}", r.err);
        assert!(r.err.contains("--allow-broad-root"), "{root}: {}", r.err);
        assert!(
            !h.p(".config/Claude/claude_desktop_config.json").exists(),
            "{root}"
        );
    }
    // Named on purpose: written.
    let r = h.run(&[
        "setup",
        "--yes",
        "--client",
        "claude-desktop",
        "--root",
        "~",
        "--allow-broad-root",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert_eq!(
        h.json(".config/Claude/claude_desktop_config.json")["mcpServers"]["devprojex"]["args"],
        json!(["mcp", "--root", home])
    );
}

#[test]
fn the_project_prompt_warns_about_the_home_folder_and_asks_again() {
    let h = Home::new();
    h.mkdir(".config/Claude");
    h.mkdir("src/app");
    let r = h.run_with(
        &["setup", "--client", "claude-desktop"],
        true,
        "~\n~/src/app\ny\n",
    );
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(
        r.out.contains("warning: ~ is your home folder"),
        "{}",
        r.out
    );
    assert_eq!(r.out.matches("Project folder(s)").count(), 2, "{}", r.out);
    assert_eq!(
        h.json(".config/Claude/claude_desktop_config.json")["mcpServers"]["devprojex"]["args"],
        json!(["mcp", "--root", h.s("src/app")])
    );
}

// ---------- item 4: never a file owned by someone else in a home setup writes to ----------

#[cfg(unix)]
fn uid_of(p: &std::path::Path) -> u32 {
    std::os::unix::fs::MetadataExt::uid(&std::fs::metadata(p).unwrap())
}

/// Root without `SUDO_UID` (`su -m`, doas with keepenv) in another user's home: refused, and
/// nothing is created. As root (CI) the home really belongs to another user id; otherwise the
/// test runs as a user who is not the home's owner.
#[cfg(unix)]
#[test]
fn another_users_home_is_refused_and_nothing_is_created() {
    let mut h = Home::new();
    h.mkdir(".cursor");
    h.write(".claude.json", "{}\n");
    let me = rustix::process::geteuid().as_raw();
    if me == 0 {
        // A real other user: the home and what is in it belong to uid 4242.
        for p in [h.root.clone(), h.p(".cursor"), h.p(".claude.json")] {
            std::os::unix::fs::chown(&p, Some(4242), Some(4242)).unwrap();
        }
        assert_eq!(uid_of(&h.root), 4242);
        h.env.user.euid = Some(0);
    } else {
        h.env.user.euid = Some(me + 1);
    }
    h.env.user.sudo_uid = None;
    let before = h.files();
    let r = h.run(&[
        "setup",
        "--yes",
        "--client",
        "cursor",
        "--client",
        "claude-code",
    ]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.err.contains("DPX-SETUP-OWNERSHIP"), "{}", r.err);
    assert!(r.err.contains("belongs to user id"), "{}", r.err);
    assert_eq!(h.files(), before, "nothing created or changed");
    assert_eq!(h.read(".claude.json"), "{}\n");
}

/// Under sudo the refusal names sudo, as before.
#[cfg(unix)]
#[test]
fn sudo_keeps_its_refusal() {
    let mut h = Home::new();
    h.mkdir(".cursor");
    h.env.user.euid = Some(0);
    h.env.user.sudo_uid = Some(1000);
    let r = h.run(&["setup", "--yes", "--client", "cursor"]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.err.contains("DPX-SETUP-OWNERSHIP") && r.err.contains("sudo"));
    assert!(!h.p(".cursor/mcp.json").exists());
}

/// A config folder elsewhere (`CODEX_HOME`) inside a folder of another user: setup running as
/// root creates nothing there.
#[cfg(unix)]
#[test]
fn root_creates_nothing_in_a_folder_of_another_user() {
    if rustix::process::geteuid().as_raw() != 0 {
        eprintln!("needs root to give a folder to another user id");
        return;
    }
    let mut h = Home::new();
    let shared = tempfile::tempdir().unwrap();
    std::os::unix::fs::chown(shared.path(), Some(4242), Some(4242)).unwrap();
    h.env.user.euid = Some(0);
    h.env.codex_home = Some(shared.path().join("codex"));
    let r = h.run(&["setup", "--yes", "--client", "codex"]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.err.contains("DPX-SETUP-OWNERSHIP"), "{}", r.err);
    assert!(!shared.path().join("codex").exists());
}

// ---------- item 5: the smaller things ----------

#[test]
fn a_temp_file_beside_a_symlinked_configs_target_is_cleaned() {
    let h = Home::new();
    h.mkdir("dotfiles");
    h.write("dotfiles/mcp.json", "{}\n");
    h.mkdir(".cursor");
    std::os::unix::fs::symlink(h.p("dotfiles/mcp.json"), h.p(".cursor/mcp.json")).unwrap();
    // SIGKILL between creating the temporary file and the swap, in a run long gone.
    let left = h.p("dotfiles/.devprojex-setup-999999999-abc123.tmp");
    std::fs::write(&left, "partial").unwrap();
    let r = h.run(&["setup", "--yes", "--client", "cursor"]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(!left.exists(), "{}", r.out);
    assert!(
        r.out
            .contains("temporary file(s) left by an interrupted run")
    );
}

#[test]
fn an_entry_whose_root_is_gone_is_named_and_replaced_without_force() {
    let h = Home::new();
    h.mkdir(".config/Claude");
    h.mkdir("src/new");
    h.write(
        ".config/Claude/claude_desktop_config.json",
        &format!(
            "{{\"mcpServers\": {{\"devprojex\": {{\"command\": \"{}\", \"args\": [\"mcp\", \"--root\", \"{}\"]}}}}}}\n",
            h.exe(),
            h.s("src/gone")
        ),
    );
    let r = h.run(&["setup", "--yes", "--client", "claude-desktop"]);
    assert!(
        r.out
            .contains("no longer exists: the server cannot start there"),
        "{}",
        r.out
    );
    let r = h.run(&[
        "setup",
        "--yes",
        "--client",
        "claude-desktop",
        "--root",
        "~/src/new",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert_eq!(
        h.json(".config/Claude/claude_desktop_config.json")["mcpServers"]["devprojex"]["args"],
        json!(["mcp", "--root", h.s("src/new")])
    );
}

#[test]
fn a_second_installed_copy_says_it_repoints_the_entry() {
    let mut h = Home::new();
    // The other copy, installed and on the PATH Claude Code gets.
    h.mkdir("other");
    std::fs::write(h.p("other/devprojex"), "").unwrap();
    h.env.path = vec![h.p("other")];
    h.write(
        ".claude.json",
        "{\"mcpServers\": {\"devprojex\": {\"type\": \"stdio\", \"command\": \"devprojex\", \"args\": [\"mcp\"], \"alwaysLoad\": true}}}\n",
    );
    let r = h.run(&["setup", "--yes", "--client", "claude-code"]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(
        r.out.contains("runs another installed devprojex") && r.out.contains("uninstall the copy"),
        "{}",
        r.out
    );
    assert_eq!(
        h.json(".claude.json")["mcpServers"]["devprojex"]["command"],
        h.exe()
    );
}

/// Claude Code and Codex started by a desktop app (the Claude app, an IDE extension) get the
/// desktop PATH: doctor says that an entry naming `devprojex` would then fail to connect.
#[test]
fn doctor_is_truthful_about_terminal_clients_started_from_a_desktop_app() {
    let mut h = Home::new();
    h.env.os = devprojex_setup::Os::Macos;
    h.env.path = vec![h.p("bin")];
    h.write(
        ".claude.json",
        "{\"mcpServers\": {\"devprojex\": {\"type\": \"stdio\", \"command\": \"devprojex\", \"args\": [\"mcp\"], \"alwaysLoad\": true}}}\n",
    );
    let r = h.run(&["doctor"]);
    assert_eq!(r.code, 0, "a terminal start works: {}", r.out);
    let line = r
        .out
        .lines()
        .find(|l| l.contains("Claude Code:"))
        .unwrap_or_default();
    assert!(
        line.starts_with("[warn]")
            && line.contains("desktop PATH (/usr/bin:/bin:/usr/sbin:/sbin)")
            && line.contains("--command-path absolute"),
        "{}",
        r.out
    );
    // With the absolute path written, doctor is content.
    let r = h.run(&[
        "setup",
        "--yes",
        "--client",
        "claude-code",
        "--command-path",
        "absolute",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    let r = h.run(&["doctor"]);
    assert!(
        r.out.contains("[ok  ] Claude Code: entry present, current"),
        "{}",
        r.out
    );
}
