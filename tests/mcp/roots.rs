//! Which folders `devprojex mcp` serves when no root is named: the client's MCP roots (local
//! `file://` only, followed on `notifications/roots/list_changed`), else the working directory,
//! and never `/` or the home folder by accident (issue 26, item 1).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{self, Fixture, Mcp, first_text};
use serde_json::{Value, json};

fn initialize(mcp: &mut Mcp, capabilities: Value) -> Value {
    mcp.request(
        "initialize",
        json!({
            "protocolVersion": "2025-06-18",
            "capabilities": capabilities,
            "clientInfo": {"name": "roots-test", "version": "0"}
        }),
    )
}

/// Waits for the server's `roots/list` request and answers it with `uris`.
fn answer_roots(mcp: &mut Mcp, uris: &[String]) {
    let request = loop {
        let message = mcp.recv();
        if message["method"] == "roots/list" {
            break message;
        }
        assert!(
            message.get("id").is_none(),
            "unexpected message while waiting for roots/list: {message}"
        );
    };
    let roots: Vec<Value> = uris.iter().map(|u| json!({"uri": u})).collect();
    mcp.send(&json!({"jsonrpc": "2.0", "id": request["id"], "result": {"roots": roots}}));
}

/// `file://{host}/path`: `/home/x` on Unix, `/C:/Users/x` on Windows, spaces escaped.
fn uri_on(host: &str, p: &Path) -> String {
    let path = p.to_str().unwrap().replace('\\', "/").replace(' ', "%20");
    let slash = if path.starts_with('/') { "" } else { "/" };
    format!("file://{host}{slash}{path}")
}

fn uri(p: &Path) -> String {
    uri_on("", p)
}

fn projects(mcp: &mut Mcp) -> Vec<String> {
    let r = mcp.call("list_projects", json!({}));
    r["structuredContent"]["projects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["path"].as_str().unwrap().to_string())
        .collect()
}

/// The crate folder, where the test processes (and the servers they start) run.
fn cwd() -> String {
    common::canonical(Path::new(env!("CARGO_MANIFEST_DIR")))
        .to_string_lossy()
        .into_owned()
}

#[test]
fn the_clients_roots_are_served_and_followed() {
    let a = Fixture::named("alpha");
    a.write("a.txt", "alpha\n");
    let b = Fixture::named("beta dir");
    let c = Fixture::named("gamma");
    let mut mcp = Mcp::spawn(&[], &[]);
    let init = initialize(&mut mcp, json!({"roots": {"listChanged": true}}));
    assert!(init.get("result").is_some(), "{init}");
    mcp.notify("notifications/initialized", json!({}));
    answer_roots(
        &mut mcp,
        &[
            uri(&a.root),
            uri_on("localhost", &b.root),
            "https://example.com/repo".into(),
            "file://attacker.example/share".into(),
            uri(&a.root),
        ],
    );
    assert_eq!(projects(&mut mcp), [a.root_str(), b.root_str()]);
    let text = mcp.call_ok(
        "get_file",
        json!({"project": a.root_str(), "path": "a.txt"}),
    );
    assert!(text.contains("alpha"), "{text}");

    // The client opens another folder.
    mcp.notify("notifications/roots/list_changed", json!({}));
    answer_roots(&mut mcp, &[uri(&c.root)]);
    let deadline = Instant::now() + Duration::from_secs(10);
    while projects(&mut mcp) != [c.root_str()] {
        assert!(Instant::now() < deadline, "the new roots were not served");
        std::thread::yield_now();
    }
    // A path in a folder that is no longer a root is refused.
    let err = mcp.call_err(
        "get_file",
        json!({"project": a.root_str(), "path": "a.txt"}),
    );
    assert!(err.contains("DPX-MCP-UNKNOWN-PROJECT"), "{err}");
}

#[test]
fn an_unsafe_working_directory_is_refused_when_the_client_sends_no_roots() {
    // The server runs in the crate folder; as HOME that is "the user's home folder".
    let mut mcp = Mcp::spawn(&[], &[("HOME", &cwd()), ("USERPROFILE", &cwd())]);
    let response = initialize(&mut mcp, json!({}));
    let message = response["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("DPX-MCP-UNSAFE-ROOT")
            && message.contains("your home folder")
            && message.contains("--root"),
        "{response}"
    );
    let status = mcp
        .wait_exit(Duration::from_secs(5))
        .expect("the server exits after refusing");
    assert_eq!(status.code(), Some(1));
    assert!(
        mcp.stderr().contains("DPX-MCP-UNSAFE-ROOT"),
        "{}",
        mcp.stderr()
    );
}

#[test]
fn an_unsafe_working_directory_with_no_client_exits_1_at_once() {
    let out = Command::new(common::bin())
        .arg("mcp")
        .env_remove("DEVPROJEX_ROOT")
        .env_remove("CLAUDE_PROJECT_DIR")
        .env("HOME", "/")
        .env("USERPROFILE", "/")
        .current_dir("/")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "stdout stays JSON-RPC only");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("DPX-MCP-UNSAFE-ROOT") && err.contains("a filesystem root"),
        "{err}"
    );
}

#[test]
fn client_roots_rescue_an_unsafe_working_directory() {
    let a = Fixture::named("project");
    let mut mcp = Mcp::spawn(&[], &[("HOME", &cwd()), ("USERPROFILE", &cwd())]);
    let init = initialize(&mut mcp, json!({"roots": {}}));
    assert!(init.get("result").is_some(), "{init}");
    mcp.notify("notifications/initialized", json!({}));
    answer_roots(&mut mcp, &[uri(&a.root)]);
    assert_eq!(projects(&mut mcp), [a.root_str()]);
}

#[test]
fn no_usable_client_root_and_no_safe_default_is_a_coded_tool_error() {
    let mut mcp = Mcp::spawn(&[], &[("HOME", &cwd()), ("USERPROFILE", &cwd())]);
    assert!(
        initialize(&mut mcp, json!({"roots": {}}))
            .get("result")
            .is_some()
    );
    mcp.notify("notifications/initialized", json!({}));
    answer_roots(
        &mut mcp,
        &["vscode-remote://ssh-remote+box/src".to_string()],
    );
    let err = mcp.call_err("get_tree", json!({}));
    assert!(err.starts_with("DPX-MCP-NO-ROOTS"), "{err}");
    assert!(projects(&mut mcp).is_empty());
}

#[test]
fn a_safe_working_directory_serves_a_client_without_roots() {
    let mut mcp = Mcp::spawn(&[], &[]);
    assert!(initialize(&mut mcp, json!({})).get("result").is_some());
    mcp.notify("notifications/initialized", json!({}));
    assert_eq!(projects(&mut mcp), [cwd()]);
}

#[test]
fn an_explicit_root_is_never_replaced_by_client_roots() {
    let a = Fixture::named("named");
    let b = Fixture::named("offered");
    let mut mcp = Mcp::spawn(&["--root", &a.root_str()], &[]);
    assert!(
        initialize(&mut mcp, json!({"roots": {"listChanged": true}}))
            .get("result")
            .is_some()
    );
    mcp.notify("notifications/initialized", json!({}));
    mcp.notify("notifications/roots/list_changed", json!({}));
    // No roots/list request comes; the tool call is answered with the named root.
    assert_eq!(projects(&mut mcp), [a.root_str()]);
    assert!(
        mcp.recv_within(Duration::from_millis(300)).is_none(),
        "no request to the client"
    );
    let _ = b;
}

#[test]
fn a_development_build_adds_no_version_note() {
    let fx = Fixture::new();
    let mut mcp = Mcp::spawn(&["--root", &fx.root_str()], &[]);
    let init = initialize(&mut mcp, json!({}));
    assert_eq!(
        init["result"]["instructions"],
        devprojex::mcp::server::instructions(),
        "builds without a compiled-in release date never show the note"
    );
    mcp.notify("notifications/initialized", json!({}));
    let r = mcp.call("list_projects", json!({}));
    assert!(!first_text(&r).contains("newer release"), "{r}");
}

// ---------- issue 37, item 1: every root passes the guard, only --root is exempt ----------

/// Claude Code started in a new terminal: `CLAUDE_PROJECT_DIR` is the home folder.
#[test]
fn claude_project_dir_at_home_is_refused_with_how_to_pin_a_project() {
    let home = Fixture::named("home");
    let mut mcp = Mcp::spawn(
        &[],
        &[
            ("HOME", &home.root_str()),
            ("USERPROFILE", &home.root_str()),
            ("CLAUDE_PROJECT_DIR", &home.root_str()),
        ],
    );
    // Claude Code declares no roots capability.
    let response = initialize(&mut mcp, json!({}));
    let message = response["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("DPX-MCP-UNSAFE-ROOT")
            && message.contains("CLAUDE_PROJECT_DIR")
            && message.contains("your home folder")
            && message.contains("--root"),
        "{response}"
    );
    let status = mcp.wait_exit(Duration::from_secs(5)).expect("exits");
    assert_eq!(status.code(), Some(1));
}

#[test]
fn claude_project_dir_at_the_filesystem_root_is_refused() {
    let home = Fixture::named("home");
    let out = Command::new(common::bin())
        .arg("mcp")
        .env_remove("DEVPROJEX_ROOT")
        .env("CLAUDE_PROJECT_DIR", "/")
        .env("HOME", home.root_str())
        .current_dir("/")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty(), "stdout stays JSON-RPC only");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("DPX-MCP-UNSAFE-ROOT") && err.contains("a filesystem root"),
        "{err}"
    );
}

#[test]
fn an_unsafe_devprojex_root_yields_to_the_clients_roots() {
    let home = Fixture::named("home");
    let project = Fixture::named("project");
    let mut mcp = Mcp::spawn(
        &[],
        &[
            ("HOME", &home.root_str()),
            ("USERPROFILE", &home.root_str()),
            ("DEVPROJEX_ROOT", &home.root_str()),
        ],
    );
    assert!(
        initialize(&mut mcp, json!({"roots": {}}))
            .get("result")
            .is_some()
    );
    mcp.notify("notifications/initialized", json!({}));
    answer_roots(&mut mcp, &[uri(&project.root)]);
    assert_eq!(projects(&mut mcp), [project.root_str()]);
}

#[test]
fn the_clients_roots_pass_the_guard_too() {
    let home = Fixture::named("home");
    let project = Fixture::named("project");
    let envs = [("HOME", home.root_str()), ("USERPROFILE", home.root_str())];
    let envs: Vec<(&str, &str)> = envs.iter().map(|(k, v)| (*k, v.as_str())).collect();
    // The home folder and `/` next to a project: only the project is served.
    let mut mcp = Mcp::spawn(&[], &envs);
    assert!(
        initialize(&mut mcp, json!({"roots": {}}))
            .get("result")
            .is_some()
    );
    mcp.notify("notifications/initialized", json!({}));
    answer_roots(
        &mut mcp,
        &[uri(&home.root), "file:///".into(), uri(&project.root)],
    );
    assert_eq!(projects(&mut mcp), [project.root_str()]);
    assert!(
        mcp.stderr().contains("DPX-MCP-UNSAFE-ROOT"),
        "{}",
        mcp.stderr()
    );

    // Only the home folder: every tool call says why, and how to pin a project.
    let mut mcp = Mcp::spawn(&[], &envs);
    assert!(
        initialize(&mut mcp, json!({"roots": {}}))
            .get("result")
            .is_some()
    );
    mcp.notify("notifications/initialized", json!({}));
    answer_roots(&mut mcp, &[uri(&home.root)]);
    let err = mcp.call_err("get_tree", json!({}));
    assert!(
        err.starts_with("DPX-MCP-UNSAFE-ROOT")
            && err.contains("your home folder")
            && err.contains("--root"),
        "{err}"
    );
    assert!(projects(&mut mcp).is_empty());
}

#[test]
fn an_explicit_root_serves_the_home_folder() {
    let home = Fixture::named("home");
    home.write("notes.txt", "mine\n");
    let mut mcp = Mcp::spawn(
        &["--root", &home.root_str()],
        &[
            ("HOME", &home.root_str()),
            ("USERPROFILE", &home.root_str()),
            ("CLAUDE_PROJECT_DIR", &home.root_str()),
        ],
    );
    assert!(initialize(&mut mcp, json!({})).get("result").is_some());
    mcp.notify("notifications/initialized", json!({}));
    assert_eq!(projects(&mut mcp), [home.root_str()]);
}
