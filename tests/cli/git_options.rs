//! Git options end to end through the real binary: `--tracked-only`, `--git-scope`,
//! `--git-mode tracked`, the MCP `tracked_only` / `git_scope` arguments, and their errors.
//! (Exact agreement with Git itself is tested in `crates/devprojex-git`.)

use std::path::Path;

use crate::common::{self, Fixture, Mcp, first_text, git, one_spot};
use serde_json::json;

/// a.txt committed and modified, b.txt untracked, c.txt staged, old.txt committed then deleted.
fn repo() -> Fixture {
    let fx = Fixture::new();
    fx.write("a.txt", "a\n")
        .write("old.txt", "old\n")
        .write(".gitignore", "*.log\n");
    git(&fx.root, &["init", "-q"]);
    git(&fx.root, &["add", "."]);
    git(&fx.root, &["commit", "-qm", "init"]);
    fx.write("a.txt", "a changed\n")
        .write("b.txt", "b\n")
        .write("c.txt", "c\n")
        .write("x.log", "log\n");
    git(&fx.root, &["add", "c.txt"]);
    std::fs::remove_file(fx.path("old.txt")).unwrap();
    fx
}

fn json_paths(out: &str) -> Vec<String> {
    let value: serde_json::Value = serde_json::from_str(out).unwrap();
    value["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "file")
        .map(|e| e["path"].as_str().unwrap().to_string())
        .collect()
}

fn tree(root: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["tree", ".", "--format", "json"];
    args.extend_from_slice(extra);
    let out = common::run(&args, root);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn tracked_only_and_scopes_through_the_cli() {
    let fx = repo();
    let (code, out, err) = tree(&fx.root, &["--tracked-only"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json_paths(&out), [".gitignore", "a.txt", "c.txt"]);
    let (_, out, _) = tree(&fx.root, &["--git-mode", "tracked"]);
    assert_eq!(json_paths(&out), [".gitignore", "a.txt", "c.txt"]);

    let (code, out, err) = tree(&fx.root, &["--git-scope", "staged"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json_paths(&out), ["c.txt"]);

    // changes: staged + unstaged + untracked non-ignored; the deleted file is reported, not listed.
    let (code, out, err) = tree(&fx.root, &["--git-scope", "changes"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json_paths(&out), ["a.txt", "b.txt", "c.txt"]);
    assert!(err.contains("DPX-GIT-STATE-DELETED"), "{err}");

    // A scope intersects the baseline: tracked_only removes the untracked b.txt.
    let (_, out, _) = tree(&fx.root, &["--git-scope", "changes", "--tracked-only"]);
    assert_eq!(json_paths(&out), ["a.txt", "c.txt"]);

    // Content comes from the working tree.
    let out = common::run(
        &[
            "pack",
            ".",
            "--git-scope",
            "changes",
            "--view",
            "content",
            "--format",
            "json",
        ],
        &fx.root,
    );
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let a = value["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "a.txt")
        .unwrap();
    assert_eq!(a["content"], "a changed\n");
}

#[test]
fn git_errors_are_actionable() {
    let fx = repo();
    let (code, _, err) = tree(&fx.root, &["--git-scope", "diff:HEAD..no-such-ref"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("DPX-GIT-INVALID-REF"), "{err}");
    let (code, _, err) = tree(&fx.root, &["--git-scope", "yesterday"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("DPX-GIT-INVALID-SCOPE") && err.contains("staged"),
        "{err}"
    );

    let plain = Fixture::new();
    plain.write("a.txt", "a\n");
    let (code, out, err) = tree(&plain.root, &["--tracked-only"]);
    assert_ne!(code, 0, "never an empty result: {out}");
    assert!(err.contains("DPX-GIT-NOT-A-REPOSITORY"), "{err}");
}

#[test]
fn git_arguments_over_mcp() {
    let fx = repo();
    let mut mcp = Mcp::start(&fx.root);
    let text = mcp.call_ok(
        "get_tree",
        json!({"format": "json", "tracked_only": "true"}),
    );
    assert_eq!(
        json_paths(&one_spot(&text).inner),
        [".gitignore", "a.txt", "c.txt"]
    );
    let text = mcp.call_ok(
        "get_tree",
        json!({"format": "json", "git_scope": "changes"}),
    );
    assert_eq!(
        json_paths(&one_spot(&text).inner),
        ["a.txt", "b.txt", "c.txt"]
    );
    // The deleted-path warning is trusted text outside the data block, with a count only.
    let after = &text[one_spot(&text).end..];
    assert!(
        after.contains("DPX-GIT-STATE-DELETED") && !after.contains("old.txt"),
        "{text}"
    );
    let result = mcp.call(
        "search_project",
        json!({"pattern": "changed", "git_scope": "diff:HEAD..nope"}),
    );
    assert_eq!(result["isError"], json!(true));
    // on the MCP surface every error has a DPX-MCP-* code; the message keeps the detail
    assert!(
        first_text(&result).starts_with("DPX-MCP-INVALID-ARGUMENTS: invalid Git reference"),
        "{result}"
    );
    let long_scope = format!("diff:{}..HEAD", "a".repeat(5000));
    let err = mcp.call_err("analyze", json!({"git_scope": long_scope}));
    assert!(err.contains("4096") || err.contains("4,096"), "{err}");

    let plain = Fixture::new();
    plain.write("a.txt", "a\n");
    let mut mcp = Mcp::start(&plain.root);
    let err = mcp.call_err("pack_context", json!({"tracked_only": true}));
    assert!(
        err.starts_with("DPX-MCP-INVALID-ARGUMENTS:")
            && err.contains("not inside a Git working tree"),
        "{err}"
    );
}

#[test]
fn remote_sources_need_the_flag() {
    let fx = Fixture::new();
    fx.write("a.txt", "a\n");
    let mut mcp = Mcp::start(&fx.root);
    let err = mcp.call_err(
        "get_tree",
        json!({"project": "https://user:hunter2@example.invalid/r.git"}),
    );
    assert!(err.starts_with("DPX-MCP-REMOTE-DISABLED"), "{err}");
    assert!(
        !err.contains("hunter2"),
        "credentials are never echoed: {err}"
    );
    let out = common::run(&["tree", "https://example.invalid/r.git"], &fx.root);
    assert_ne!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("DPX-MCP-REMOTE-DISABLED"), "{stderr}");
    // the CLI names its own flag; there is no server to restart
    assert!(stderr.contains("add --allow-remote"), "{stderr}");
    assert!(!stderr.contains("server"), "{stderr}");
}

#[test]
fn tracked_mode_server_follows_the_index_between_calls() {
    // The server keeps the tracked set while the index is unchanged; every index write must show.
    let fx = repo();
    let mut mcp = Mcp::start_with(&["--root", &fx.root_str(), "--git-mode", "tracked"], &[]);
    let err = mcp.call_err("get_file", json!({"path": "b.txt"}));
    assert!(err.starts_with("DPX-MCP-PATH-NOT-FOUND"), "{err}");
    assert!(err.contains("the Git mode exclude it"), "{err}");
    let ok = mcp.call("get_file", json!({"path": "a.txt"}));
    assert_ne!(ok["isError"], json!(true), "{ok}");

    git(&fx.root, &["add", "b.txt"]);
    let now = mcp.call("get_file", json!({"path": "b.txt"}));
    assert_ne!(
        now["isError"],
        json!(true),
        "a newly added file is seen: {now}"
    );
    assert!(first_text(&now).contains('b'));

    git(&fx.root, &["rm", "-q", "--cached", "a.txt"]);
    let err = mcp.call_err("get_file", json!({"path": "a.txt"}));
    assert!(
        err.contains("the Git mode exclude it"),
        "an unstaged removal is seen: {err}"
    );

    // the tree follows too
    let tree = mcp.call("get_tree", json!({"format": "json"}));
    let listing = first_text(&tree);
    assert!(
        listing.contains("b.txt") && !listing.contains("\"a.txt\""),
        "{listing}"
    );
}

/// `pack --view diff` (issue 40 item 3): the CLI twin of `pack_context` `view: "diff"`.
#[test]
fn pack_shows_the_diff_of_a_scope() {
    let fx = repo();
    let out = common::run(
        &["pack", ".", "--git-scope", "changes", "--view", "diff"],
        &fx.root,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // a.txt modified, b.txt and c.txt new, old.txt deleted: all four, as git diff shows them
    for expected in [
        "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+a changed\n",
        "--- /dev/null\n+++ b/b.txt\n",
        "--- /dev/null\n+++ b/c.txt\n",
        "--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-old\n",
    ] {
        assert!(stdout.contains(expected), "{expected:?} not in:\n{stdout}");
    }
    assert!(
        !stdout.contains("x.log"),
        "an ignored file is no change: {stdout}"
    );
    // no scope: a usage error that says what is valid
    let out = common::run(&["pack", ".", "--view", "diff"], &fx.root);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs git_scope"));
}

/// A file's diff stops after 5,000 lines with a note that says how many are left out.
#[test]
fn a_long_diff_is_cut_with_a_note() {
    let fx = Fixture::new();
    let old: String = (0..3000).map(|n| format!("old line {n}\n")).collect();
    fx.write("big.txt", &old);
    git(&fx.root, &["init", "-q"]);
    git(&fx.root, &["add", "."]);
    git(&fx.root, &["commit", "-qm", "init"]);
    let new: String = (0..3000).map(|n| format!("new line {n}\n")).collect();
    fx.write("big.txt", &new);
    let out = common::run(
        &[
            "pack",
            ".",
            "--git-scope",
            "changes",
            "--view",
            "diff",
            "--format",
            "text",
        ],
        &fx.root,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    // 3,000 removed + 3,000 added + the hunk header: 6,001 lines, 5,000 shown
    assert!(
        stdout.contains(
            "[Diff cut after 5000 lines; 1001 more lines of this file's diff are not shown."
        ),
        "{}",
        &stdout[stdout.len().saturating_sub(400)..]
    );
    let shown = stdout
        .lines()
        .filter(|l| l.starts_with('-') || l.starts_with('+') || l.starts_with("@@"))
        .count();
    assert_eq!(shown, 5000 + 2, "5,000 diff lines plus the ---/+++ header");
}
