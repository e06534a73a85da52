//! The documented uninstall works (issue 37, item 3): `setup --remove` and `setup status` find
//! every entry setup wrote, whether or not the client is detected (Claude Code as an IDE
//! extension or through `npx` leaves nothing on `PATH`), and say what they leave.
#![cfg(not(windows))]

mod common;

use common::Home;
use serde_json::json;

/// Entries in clients whose folders hold nothing else and whose executables are not on `PATH`:
/// what setup created itself (its record makes them "not detected").
fn home_with_undetected_entries() -> Home {
    let h = Home::new();
    let r = h.run(&[
        "setup",
        "--yes",
        "--client",
        "claude-code",
        "--client",
        "cursor",
        "--client",
        "zed",
        "--client",
        "gemini-cli",
    ]);
    assert_eq!(r.code, 0, "{}", r.all());
    // Claude Code keeps other things in its file; the client itself is gone from PATH.
    let mut v = h.json(".claude.json");
    v["numStartups"] = json!(7);
    h.write(".claude.json", &serde_json::to_string_pretty(&v).unwrap());
    h
}

#[test]
fn remove_without_client_finds_every_entry_setup_wrote() {
    let h = home_with_undetected_entries();
    let r = h.run(&["setup", "status"]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(r.out.contains("not detected"), "{}", r.out);
    assert!(r.out.matches("present, current").count() >= 4, "{}", r.out);

    let r = h.run(&["setup", "--remove", "--yes"]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert_eq!(r.out.matches("entry removed").count(), 4, "{}", r.out);
    let v = h.json(".claude.json");
    assert_eq!(v["numStartups"], 7);
    assert!(v["mcpServers"].get("devprojex").is_none(), "{v}");
    // The files and folders setup created for the others are gone again.
    for gone in [".cursor", ".config/zed", ".gemini"] {
        assert!(!h.p(gone).exists(), "{gone}: {:?}", h.files());
    }
    // A second removal finds nothing and says so, exit 0.
    let r = h.run(&["setup", "--remove", "--yes"]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert!(r.out.contains("Nothing to remove"), "{}", r.out);
}

#[test]
fn remove_with_client_all_finds_undetected_entries_too() {
    let h = home_with_undetected_entries();
    let r = h.run(&["setup", "--remove", "--yes", "--client", "all"]);
    assert_eq!(r.code, 0, "{}", r.all());
    assert_eq!(r.out.matches("entry removed").count(), 4, "{}", r.out);
}

#[test]
fn a_user_scope_remove_names_the_project_files_it_leaves() {
    let h = Home::new();
    h.mkdir("project/.git");
    for client in ["cursor", "vscode", "codex", "gemini-cli"] {
        let r = h.run(&["setup", "--yes", "--scope", "project", "--client", client]);
        assert_eq!(r.code, 0, "{client}: {}", r.all());
    }
    let r = h.run(&["setup", "--yes", "--client", "cursor", "--client", "codex"]);
    assert_eq!(r.code, 0, "{}", r.all());
    let r = h.run(&["setup", "--remove", "--yes"]);
    assert_eq!(r.code, 0, "{}", r.all());
    for file in ["~/project/.cursor/mcp.json", "~/project/.codex/config.toml"] {
        assert!(
            r.out.contains(&format!(
                "also registered in {file} (project scope, shared through the repository): setup --remove leaves it"
            )),
            "{file}: {}",
            r.out
        );
    }
    assert!(h.p("project/.cursor/mcp.json").exists());
}

/// Claude Code's `projects` listed twice: the local scopes cannot be known, so setup says so
/// and changes nothing (before, `--remove` said "no entry" and exited 0).
#[test]
fn a_duplicated_projects_key_is_reported_by_remove_as_by_status() {
    let h = Home::new();
    let text = format!(
        "{{\"projects\": {{\"{p}\": {{\"mcpServers\": {{\"devprojex\": {{\"command\": \"{e}\", \"args\": [\"mcp\"]}}}}}}}}, \"projects\": {{}}}}\n",
        p = h.s("project"),
        e = h.exe()
    );
    h.write(".claude.json", &text);
    let r = h.run(&["setup", "--remove", "--yes", "--client", "claude-code"]);
    assert_eq!(r.code, 1, "{}", r.all());
    assert!(r.err.contains("DPX-SETUP-DUPLICATE-KEY"), "{}", r.err);
    assert!(r.err.contains("\"projects\""), "{}", r.err);
    assert_eq!(h.read(".claude.json"), text);
}
