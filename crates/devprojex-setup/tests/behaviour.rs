//! `devprojex setup` as a new user meets it, one test per failure the audit found (issue 26):
//! the right folder for every client, no lost update, Claude Code's three scopes, a command
//! path that keeps working, dev builds, ownership, only the clients the user has, nothing left
//! after a kill, and the smaller things.
//!
//! These tests simulate a Linux home (`SetupEnv::for_tests(Os::Linux, ..)`) in a real temporary
//! folder, with Unix paths written into the configs they start from; on Windows that mix is
//! neither Linux nor Windows, so they run on Linux and macOS. Windows' own rules (config
//! locations, PATH choice, `\\?\` and drive forms, locked and read-only files, backup names) are
//! tested as pure functions with per-OS fixtures (`tests/paths.rs`, the unit tests), and the
//! edits themselves by `golden`, `roundtrip`, `line_endings` and `layouts`, which run there too.
#![cfg(not(windows))]

mod common;

use std::path::PathBuf;

use common::{Home, Meanwhile};
use devprojex_setup::Os;
use serde_json::json;

// ---------- 1. the server serves the project ----------

#[test]
fn each_client_gets_the_root_it_can_resolve() {
    let h = Home::new();
    for d in [".cursor", ".codex", ".config/Code"] {
        h.mkdir(d);
    }
    h.write(".claude.json", "{}\n");
    let r = h.run(&["setup", "--yes"]);
    assert_eq!(r.code, 0, "{}", r.all());
    // Cursor expands ${workspaceFolder} in ~/.cursor/mcp.json.
    assert_eq!(
        h.json(".cursor/mcp.json")["mcpServers"]["devprojex"]["args"],
        json!(["mcp", "--root", "${workspaceFolder}"])
    );
    // Claude Code and Codex start the server in the project.
    assert_eq!(
        h.json(".claude.json")["mcpServers"]["devprojex"],
        json!({"type": "stdio", "command": h.exe(), "args": ["mcp"], "alwaysLoad": true})
    );
    assert!(
        h.read(".codex/config.toml").contains("args = [\"mcp\"]"),
        "{}",
        h.read(".codex/config.toml")
    );
    // VS Code user servers get the workspace folders as MCP roots: no --root.
    assert_eq!(
        h.json(".config/Code/User/mcp.json")["servers"]["devprojex"]["args"],
        json!(["mcp"])
    );
}

#[test]
fn clients_that_give_no_project_need_root_in_a_non_interactive_run() {
    let h = Home::new();
    h.mkdir(".config/Claude");
    h.mkdir(".gemini/config");
    h.mkdir(".cursor");
    let r = h.run(&["setup", "--yes"]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert_eq!(
        r.err.matches("DPX-SETUP-NEEDS-ROOT").count(),
        2,
        "Claude Desktop and Antigravity, once each:\n{}",
        r.err
    );
    assert!(r.err.contains("--root PATH"), "{}", r.err);
    assert!(!h.p(".config/Claude/claude_desktop_config.json").exists());
    assert!(!h.p(".gemini/config/mcp_config.json").exists());
    assert!(h.p(".cursor/mcp.json").exists(), "the other clients go on");

    let app = h.s("src/app");
    h.mkdir("src/app");
    let r = h.run(&[
        "setup",
        "--yes",
        "--client",
        "claude-desktop",
        "--root",
        &app,
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert_eq!(
        h.json(".config/Claude/claude_desktop_config.json")["mcpServers"]["devprojex"]["args"],
        json!(["mcp", "--root", app])
    );
}

#[test]
fn setup_asks_for_the_project_folder_on_a_terminal() {
    let h = Home::new();
    h.mkdir(".config/Claude");
    h.mkdir("src/app");
    let r = h.run_with(&["setup"], true, "~/src/app\ny\n");
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(r.out.contains("Project folder(s)"), "{}", r.out);
    assert_eq!(
        h.json(".config/Claude/claude_desktop_config.json")["mcpServers"]["devprojex"]["args"],
        json!(["mcp", "--root", h.s("src/app")])
    );
    // Later runs keep the folders the entry names: no question, nothing to change.
    let r = h.run(&["setup", "--yes"]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(r.out.contains("Nothing to change"), "{}", r.out);

    // An empty answer skips the client.
    let h = Home::new();
    h.mkdir(".gemini/config");
    let r = h.run_with(&["setup"], true, "\n");
    assert!(r.out.contains("skipped"), "{}", r.all());
    assert!(!h.p(".gemini/config/mcp_config.json").exists());
}

#[test]
fn an_entry_from_before_per_client_roots_is_brought_up_to_date() {
    let h = Home::new();
    // What setup wrote before: a bare `devprojex mcp`, which serves `~` for a user-level server.
    h.write(
        ".cursor/mcp.json",
        &format!(
            "{{\n  \"mcpServers\": {{\n    \"devprojex\": {{\n      \"command\": \"{}\",\n      \"args\": [\"mcp\"]\n    }}\n  }}\n}}\n",
            h.exe()
        ),
    );
    let r = h.run(&["setup", "--yes", "--client", "cursor"]);
    assert_eq!(r.code, 0, "no --force needed:\n{}", r.all());
    assert_eq!(
        h.json(".cursor/mcp.json")["mcpServers"]["devprojex"]["args"],
        json!(["mcp", "--root", "${workspaceFolder}"])
    );
}

// ---------- 2. no lost update ----------

#[test]
fn an_edit_made_while_the_prompt_is_open_is_kept() {
    let h = Home::new();
    let path = h.p(".claude.json");
    h.write(".claude.json", "{\n  \"numStartups\": 1\n}\n");
    let concurrent = "{\n  \"numStartups\": 2,\n  \"tipsHistory\": {\"x\": 1}\n}\n";
    // A running Claude Code rewrites its file while the [y/N] question waits.
    let mut input = Meanwhile::new(|| std::fs::write(&path, concurrent).unwrap(), "y\n");
    let r = h.run_io(&["setup", "--client", "claude-code"], true, &mut input);
    assert_eq!(r.code, 0, "{}", r.all());
    let v = h.json(".claude.json");
    assert_eq!(v["numStartups"], 2, "the concurrent edit is kept");
    assert_eq!(v["tipsHistory"], json!({"x": 1}));
    assert_eq!(v["mcpServers"]["devprojex"]["command"], h.exe());
    // The backup holds the bytes that were replaced: the concurrent version.
    let bak = r
        .out
        .lines()
        .find_map(|l| l.trim().strip_prefix("backup of the replaced file: "))
        .map(|p| PathBuf::from(p.replacen('~', &h.root.to_string_lossy(), 1)))
        .expect("backup named");
    assert_eq!(std::fs::read_to_string(bak).unwrap(), concurrent);
}

#[test]
fn a_change_that_matters_is_planned_and_asked_again() {
    let h = Home::new();
    let path = h.p(".cursor/mcp.json");
    h.write(".cursor/mcp.json", "{\"mcpServers\": {}}\n");
    // Meanwhile someone registers another server under the same name.
    let theirs =
        "{\"mcpServers\": {\"devprojex\": {\"command\": \"npx\", \"args\": [\"other\"]}}}\n";
    let mut input = Meanwhile::new(|| std::fs::write(&path, theirs).unwrap(), "y\n");
    let r = h.run_io(&["setup", "--client", "cursor"], true, &mut input);
    assert!(
        r.out.contains("changed while setup was waiting"),
        "{}",
        r.all()
    );
    assert_eq!(r.out.matches("Plan (register").count(), 2, "{}", r.out);
    assert!(r.err.contains("DPX-SETUP-CONFLICT"), "{}", r.err);
    assert_eq!(
        h.read(".cursor/mcp.json"),
        theirs,
        "their entry is not replaced"
    );
    assert_eq!(r.code, 1);
}

// ---------- 3. every scope Claude Code uses ----------

/// What `claude mcp add devprojex -- <exe> mcp` writes in `~/project` (local scope).
fn claude_local(h: &Home, command: &str) -> String {
    format!(
        "{{\n  \"numStartups\": 3,\n  \"projects\": {{\n    \"{}\": {{\n      \"allowedTools\": [],\n      \"mcpServers\": {{\n        \"devprojex\": {{\n          \"type\": \"stdio\",\n          \"command\": \"{command}\",\n          \"args\": [\n            \"mcp\"\n          ],\n          \"env\": {{}}\n        }}\n      }}\n    }},\n    \"{}\": {{\n      \"mcpServers\": {{\n        \"devprojex\": {{\n          \"type\": \"stdio\",\n          \"command\": \"{command}\",\n          \"args\": [\"mcp\"],\n          \"env\": {{}}\n        }}\n      }}\n    }}\n  }}\n}}\n",
        h.s("project"),
        h.s("other-project"),
    )
}

#[test]
fn no_duplicate_at_user_scope_when_a_local_entry_exists() {
    let h = Home::new();
    h.write(".claude.json", &claude_local(&h, "/gone/devprojex"));
    let r = h.run(&["setup", "--yes", "--client", "claude-code"]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(r.out.contains("local scope"), "{}", r.out);
    let v = h.json(".claude.json");
    assert!(
        v.get("mcpServers").is_none(),
        "no user-scope duplicate: {v}"
    );
    let local = &v["projects"][h.s("project")]["mcpServers"]["devprojex"];
    assert_eq!(
        local["command"],
        h.exe(),
        "the local entry is the one updated"
    );
    assert_eq!(local["type"], "stdio");
}

#[test]
fn status_doctor_and_remove_see_all_three_scopes() {
    let h = Home::new();
    h.write(".claude.json", &claude_local(&h, &h.exe()));
    std::fs::create_dir_all(h.p("project/.git")).unwrap();
    h.write(
        "project/.mcp.json",
        &format!(
            "{{\"mcpServers\": {{\"devprojex\": {{\"type\": \"stdio\", \"command\": \"{}\", \"args\": [\"mcp\"]}}}}}}\n",
            h.exe()
        ),
    );
    let r = h.run(&["setup", "status", "--client", "claude-code"]);
    assert_eq!(r.code, 0, "{}", r.all());
    for needle in [
        "(user scope)".to_string(),
        format!("(local scope of {})", h.s("project")),
        "(project scope)".to_string(),
        format!(
            "also at local scope in 1 other project(s): {}",
            h.s("other-project")
        ),
    ] {
        assert!(r.out.contains(&needle), "{needle}:\n{}", r.out);
    }
    // What `claude mcp add` wrote lacks `alwaysLoad`, which the next setup adds.
    assert_eq!(
        r.out
            .matches("present, lacks a key setup now writes")
            .count(),
        2,
        "{}",
        r.out
    );

    let r = h.run(&["doctor"]);
    assert!(r.out.contains("local scope of"), "{}", r.out);
    assert!(r.out.contains("1 other project(s)"), "{}", r.out);

    // --remove takes the entry out of every project's local scope, and says where else it is.
    let r = h.run(&["setup", "--yes", "--remove", "--client", "claude-code"]);
    assert_eq!(r.code, 0, "{}", r.all());
    let v = h.json(".claude.json");
    for p in ["project", "other-project"] {
        assert_eq!(v["projects"][h.s(p)]["mcpServers"], json!({}), "{p}: {v}");
    }
    assert_eq!(v["numStartups"], 3);
    assert!(
        r.out.contains("remove it there with --scope project"),
        "{}",
        r.out
    );
    let r = h.run(&[
        "setup",
        "--yes",
        "--remove",
        "--client",
        "claude-code",
        "--scope",
        "project",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert_eq!(h.json("project/.mcp.json")["mcpServers"], json!({}));
}

// ---------- 4. a command path that keeps working ----------

#[test]
fn desktop_clients_get_the_absolute_path_terminal_clients_the_name() {
    let mut h = Home::new();
    h.env.os = Os::Macos;
    // The binary is on the shell's PATH, not on launchd's /usr/bin:/bin:/usr/sbin:/sbin.
    h.env.path = vec![h.p("bin")];
    h.mkdir(".codex");
    h.mkdir(".cursor");
    let r = h.run(&["setup", "--yes"]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(
        h.read(".codex/config.toml")
            .contains("command = \"devprojex\"")
    );
    assert_eq!(
        h.json(".cursor/mcp.json")["mcpServers"]["devprojex"]["command"],
        h.exe()
    );
    // Each client's own command is shown.
    assert!(r.out.contains("command: devprojex mcp"), "{}", r.out);
    assert!(
        r.out.contains(&format!(
            "command: {} mcp --root ${{workspaceFolder}}",
            h.exe()
        )),
        "{}",
        r.out
    );
}

#[test]
fn doctor_checks_the_command_with_the_clients_path() {
    let mut h = Home::new();
    h.env.path = vec![h.p("bin")];
    // `devprojex` resolves in this shell, but not on the desktop session's PATH Cursor gets.
    h.write(
        ".cursor/mcp.json",
        "{\"mcpServers\": {\"devprojex\": {\"command\": \"devprojex\", \"args\": [\"mcp\", \"--root\", \"${workspaceFolder}\"]}}}",
    );
    let r = h.run(&["doctor"]);
    assert_eq!(r.code, 1, "{}", r.out);
    assert!(
        r.out.contains("[FAIL] Cursor: entry's command `devprojex` is on this shell's PATH but not on the PATH Cursor gives its servers"),
        "{}",
        r.out
    );
    // A Claude Desktop entry without --root cannot start (the server refuses `/`).
    h.write(
        ".config/Claude/claude_desktop_config.json",
        &format!(
            "{{\"mcpServers\": {{\"devprojex\": {{\"command\": \"{}\", \"args\": [\"mcp\"]}}}}}}",
            h.exe()
        ),
    );
    let r = h.run(&["doctor"]);
    assert!(
        r.out.contains("[FAIL] Claude Desktop: entry has no --root"),
        "{}",
        r.out
    );
}

// ---------- 5. a dev build never takes over ----------

#[test]
fn a_dev_build_refuses_to_write_and_never_repoints_an_installed_entry() {
    let mut h = Home::new();
    let installed = h.exe();
    let dev = h.p("src/devprojex/target/debug/devprojex");
    std::fs::create_dir_all(dev.parent().unwrap()).unwrap();
    std::fs::write(&dev, "").unwrap();
    h.env.current_exe = Some(dev.clone());
    h.mkdir(".codex");
    let r = h.run(&["setup", "--yes"]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(
        r.err.contains("DPX-SETUP-DEV-BUILD") && r.err.contains("--allow-dev-build"),
        "{}",
        r.err
    );
    assert!(!h.p(".codex/config.toml").exists());

    // A working entry running the installed binary stays, even with --allow-dev-build.
    h.write(
        ".codex/config.toml",
        &format!("[mcp_servers.devprojex]\ncommand = \"{installed}\"\nargs = [\"mcp\"]\n"),
    );
    let before = h.read(".codex/config.toml");
    let r = h.run(&["setup", "--yes", "--allow-dev-build"]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(
        r.out.contains("a development build never replaces"),
        "{}",
        r.out
    );
    assert_eq!(h.read(".codex/config.toml"), before);
}

// ---------- 6. no root-owned user configs ----------

#[test]
fn setup_under_sudo_refuses() {
    let mut h = Home::new();
    h.env.user.euid = Some(0);
    h.env.user.sudo_uid = Some(1000);
    h.mkdir(".cursor");
    let r = h.run(&["setup", "--yes"]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(
        r.err.contains("DPX-SETUP-OWNERSHIP") && r.err.contains("without sudo"),
        "{}",
        r.err
    );
    assert!(!h.p(".cursor/mcp.json").exists());
}

#[cfg(unix)]
#[test]
fn a_read_only_config_is_refused_with_a_code() {
    use std::os::unix::fs::PermissionsExt;
    let h = Home::new();
    h.write(".cursor/mcp.json", "{}\n");
    std::fs::set_permissions(
        h.p(".cursor/mcp.json"),
        std::fs::Permissions::from_mode(0o444),
    )
    .unwrap();
    let r = h.run(&["setup", "--yes", "--client", "cursor"]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.err.contains("DPX-SETUP-READ-ONLY"), "{}", r.err);
    assert_eq!(h.read(".cursor/mcp.json"), "{}\n");
}

// ---------- 7. only the clients the user has ----------

#[test]
fn all_means_the_detected_clients_and_remove_leaves_nothing_setup_created() {
    let h = Home::new();
    h.mkdir(".cursor");
    let before = h.files();
    let r = h.run(&["setup", "--yes", "--client", "all"]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(!r.out.contains("Claude Desktop"), "{}", r.out);
    assert!(!h.p(".config").exists() && !h.p(".gemini").exists());

    // Naming an absent client creates its config, and says so; it does not become "detected".
    let r = h.run(&["setup", "--yes", "--client", "codex"]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(
        r.out
            .contains("OpenAI Codex was not detected: setup creates this file"),
        "{}",
        r.out
    );
    let r = h.run(&["setup", "status", "--client", "codex"]);
    assert!(
        r.out.contains("OpenAI Codex       not detected"),
        "{}",
        r.out
    );

    // Remove everything: the files and folders setup created go, and so does its data folder.
    let r = h.run(&[
        "setup", "--yes", "--remove", "--client", "codex", "--client", "cursor",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(!h.p(".codex").exists(), "{:?}", h.files());
    assert!(!h.data().exists(), "{:?}", h.files());
    // Cursor's folder was there before; the mcp.json setup created in it is gone again.
    assert_eq!(h.files(), before);
}

#[test]
fn remove_deletes_backups_that_still_hold_the_entry() {
    let h = Home::new();
    h.write(
        ".cursor/mcp.json",
        "{\"mcpServers\": {\"other\": {\"command\": \"x\"}}}\n",
    );
    assert_eq!(h.run(&["setup", "--yes", "--client", "cursor"]).code, 0);
    // A later setup run (the binary moved) backs up a version that holds the entry.
    h.write(
        ".cursor/mcp.json",
        &h.read(".cursor/mcp.json")
            .replace(&h.exe(), "/old/devprojex"),
    );
    assert_eq!(h.run(&["setup", "--yes", "--client", "cursor"]).code, 0);
    let backups = h.data().join("setup-backups");
    assert_eq!(std::fs::read_dir(&backups).unwrap().count(), 2);
    let r = h.run(&["setup", "--yes", "--remove", "--client", "cursor"]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(
        r.out
            .contains("deleted 1 backup(s) that still held the entry"),
        "{}",
        r.out
    );
    let left: Vec<_> = std::fs::read_dir(&backups).unwrap().collect();
    assert_eq!(left.len(), 1, "the backup from before setup stays");
}

// ---------- 8. nothing left after a kill ----------

#[test]
fn leftover_temp_files_of_a_killed_run_are_removed() {
    let h = Home::new();
    h.mkdir(".cursor");
    let stale = h.p(".devprojex-setup-Xk2a9q.tmp");
    std::fs::write(&stale, vec![b'{'; 1 << 20]).unwrap();
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&stale)
        .unwrap()
        .set_modified(old)
        .unwrap();
    let r = h.run(&["setup", "--yes"]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(!stale.exists());
    assert!(
        r.out
            .contains("Removed 1 temporary file(s) left by an interrupted run"),
        "{}",
        r.out
    );
}

// ---------- 10. smaller things ----------

#[test]
fn each_error_is_printed_once() {
    let h = Home::new();
    h.write(".claude.json", "{ broken");
    let r = h.run(&["setup", "--yes", "--client", "claude-code"]);
    assert_eq!(r.code, 1);
    assert_eq!(r.all().matches("DPX-SETUP-PARSE").count(), 1, "{}", r.all());
}

#[test]
fn a_remove_conflict_does_not_say_replace() {
    let h = Home::new();
    h.write(
        ".cursor/mcp.json",
        "{\"mcpServers\": {\"devprojex\": {\"command\": \"npx\"}}}\n",
    );
    let r = h.run(&["setup", "--yes", "--remove", "--client", "cursor"]);
    assert_eq!(r.code, 1);
    assert!(!r.all().contains("replace"), "{}", r.all());
    assert!(
        r.all().contains("--force to remove it anyway"),
        "{}",
        r.all()
    );
}

#[test]
fn doctor_without_home_is_an_error() {
    let mut h = Home::new();
    h.env.home = None;
    let r = h.run(&["doctor"]);
    assert_eq!(r.code, 1, "{}", r.out);
    assert!(
        r.out.contains("[FAIL] cannot locate the home folder"),
        "{}",
        r.out
    );
}

#[test]
fn run_from_home_lists_each_file_once_and_project_scope_refuses() {
    let mut h = Home::new();
    h.env.cwd = h.root.clone();
    h.write(
        ".codex/config.toml",
        &format!(
            "[mcp_servers.devprojex]\ncommand = \"{}\"\nargs = [\"mcp\"]\n",
            h.exe()
        ),
    );
    let r = h.run(&["doctor"]);
    assert_eq!(r.out.matches("OpenAI Codex:").count(), 1, "{}", r.out);
    let before = h.read(".codex/config.toml");
    let r = h.run(&[
        "setup",
        "--yes",
        "--scope",
        "project",
        "--client",
        "codex",
        "--hide-private-data",
    ]);
    assert_eq!(r.code, 2, "{}", r.all());
    assert!(r.err.contains("home folder"), "{}", r.err);
    assert_eq!(h.read(".codex/config.toml"), before, "user files untouched");
}

#[test]
fn a_project_file_with_an_absolute_path_gets_a_warning() {
    let h = Home::new();
    std::fs::create_dir_all(h.p("project/.git")).unwrap();
    let r = h.run(&["setup", "--yes", "--scope", "project", "--client", "vscode"]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(
        r.out
            .contains("warning: ~/project/.vscode/mcp.json is meant to be committed"),
        "{}",
        r.out
    );
    let r = h.run(&[
        "setup",
        "--yes",
        "--scope",
        "project",
        "--client",
        "cursor",
        "--command-path",
        "name",
    ]);
    assert!(!r.out.contains("meant to be committed"), "{}", r.out);
}

// ---------- Antigravity: both files ----------

#[test]
fn antigravity_writes_the_current_file_and_the_pre_2_0_one_when_present() {
    let h = Home::new();
    h.write(
        ".gemini/antigravity/mcp_config.json",
        "{\n  \"mcpServers\": {}\n}\n",
    );
    let app = h.s("project");
    let r = h.run(&["setup", "--yes", "--client", "antigravity", "--root", &app]);
    assert_eq!(r.code, 0, "{}", r.all());
    for f in [
        ".gemini/config/mcp_config.json",
        ".gemini/antigravity/mcp_config.json",
    ] {
        assert_eq!(
            h.json(f)["mcpServers"]["devprojex"]["args"],
            json!(["mcp", "--root", app]),
            "{f}"
        );
    }
    let r = h.run(&["setup", "status", "--client", "antigravity"]);
    assert!(r.out.contains("(pre-2.0 location)"), "{}", r.out);
    let r = h.run(&["setup", "--yes", "--remove", "--client", "antigravity"]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert_eq!(
        h.read(".gemini/antigravity/mcp_config.json"),
        "{\n  \"mcpServers\": {}\n}\n"
    );
    assert!(
        !h.p(".gemini/config").exists(),
        "the file and folder setup created are gone"
    );
}

#[test]
fn an_entry_that_runs_this_binary_under_another_spelling_is_current() {
    let mut h = Home::new();
    h.env.path = vec![h.p("bin")];
    // `claude mcp add devprojex -- ~/bin/devprojex mcp`: absolute, while setup would write the
    // name (the binary is on the PATH Claude Code gets). Both run this binary.
    h.write(".claude.json", &claude_local(&h, &h.exe()));
    // The first run adds only `"alwaysLoad": true` (issue 40, item 7), keeping the spelling.
    let r = h.run(&["setup", "--yes", "--client", "claude-code"]);
    assert_eq!(r.code, 0, "{}", r.all());
    let local = &h.json(".claude.json")["projects"][h.s("project")]["mcpServers"]["devprojex"];
    assert_eq!(
        *local,
        json!({"type": "stdio", "command": h.exe(), "args": ["mcp"], "env": {}, "alwaysLoad": true})
            .as_object()
            .map(|o| {
                let mut o = o.clone();
                o.remove("env");
                serde_json::Value::Object(o)
            })
            .unwrap(),
        "{}",
        r.out
    );
    let before = h.read(".claude.json");
    let r = h.run(&["setup", "--yes", "--client", "claude-code"]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(r.out.contains("Nothing to change"), "{}", r.out);
    assert_eq!(h.read(".claude.json"), before);
    let r = h.run(&["setup", "status", "--client", "claude-code"]);
    assert!(r.out.contains("present, current"), "{}", r.out);
    assert!(!r.out.contains("another devprojex binary"), "{}", r.out);
}
