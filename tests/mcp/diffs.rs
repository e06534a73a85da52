//! `pack_context` `view: "diff"` (issue 40 item 3): the redacted unified diff of a git scope,
//! on real repositories built here with the `git` executable.

use serde_json::json;

use crate::common::{Fixture, Mcp, all_texts, first_text, git, one_spot};

/// A 12-line file of which one line changes, as in the "3-line change".
fn numbered(changed: Option<usize>) -> String {
    (1..=12)
        .map(|n| match changed {
            Some(c) if c == n => format!("let value_{n} = compute({n}) * 2; // changed\n"),
            _ => format!("let value_{n} = compute({n});\n"),
        })
        .collect()
}

/// The diff document inside the answer's spotlight block, with the root's temporary path
/// replaced so that snapshots are stable.
fn diff_doc(mcp: &mut Mcp, fx: &Fixture, arguments: serde_json::Value) -> String {
    let text = mcp.call_ok("pack_context", arguments);
    one_spot(&text).inner.replace(&fx.root_str(), "ROOT")
}

fn git_out(fx: &Fixture, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .args(args)
        .current_dir(&fx.root)
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

/// Committed: main.rs, gone.txt, before.txt (renamed later), keep.md. Then: main.rs changed and
/// staged, then changed again in the working tree only; gone.txt deleted (staged); before.txt
/// renamed to after.txt (staged); new.txt untracked.
fn repo() -> Fixture {
    let fx = Fixture::new();
    fx.write("src/main.rs", numbered(None))
        .write("gone.txt", "farewell\n")
        .write(
            "before.txt",
            "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n",
        )
        .write("keep.md", "# keep\n");
    git(&fx.root, &["init", "-q"]);
    git(&fx.root, &["add", "."]);
    git(&fx.root, &["commit", "-qm", "init"]);
    fx.write("src/main.rs", numbered(Some(6)));
    git(&fx.root, &["add", "src/main.rs"]);
    fx.write("src/main.rs", numbered(Some(6)) + "// working tree only\n");
    git(&fx.root, &["rm", "-q", "gone.txt"]);
    git(&fx.root, &["mv", "before.txt", "after.txt"]);
    fx.write("new.txt", "brand new\n");
    fx
}

#[test]
fn a_diff_view_shows_each_scope_as_git_diff_does() {
    let fx = repo();
    let mut mcp = Mcp::start(&fx.root);

    // staged: HEAD against the INDEX (the working-tree-only line is not in it), with the
    // rename under its old path and the deletion as removed lines.
    let staged = diff_doc(
        &mut mcp,
        &fx,
        json!({"git_scope": "staged", "view": "diff"}),
    );
    insta::assert_snapshot!("diff_staged", staged);
    assert!(!staged.contains("working tree only"), "{staged}");
    assert!(!staged.contains("new.txt"), "{staged}");

    // changes: HEAD against the working tree, untracked files included.
    let changes = diff_doc(
        &mut mcp,
        &fx,
        json!({"git_scope": "changes", "view": "diff", "format": "text"}),
    );
    insta::assert_snapshot!("diff_changes_text", changes);
    assert!(changes.contains("+// working tree only"), "{changes}");
    assert!(changes.contains("+brand new"), "{changes}");

    // diff:A..B compares the two commits' trees.
    git(&fx.root, &["commit", "-qm", "second"]);
    let range = diff_doc(
        &mut mcp,
        &fx,
        json!({"git_scope": "diff:HEAD~1..HEAD", "view": "diff", "format": "json"}),
    );
    let value: serde_json::Value = serde_json::from_str(&range).unwrap();
    assert_eq!(value["view"], "diff");
    assert!(value.get("tree").is_none(), "{range}");
    let paths: Vec<&str> = value["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["after.txt", "gone.txt", "src/main.rs"]);
    assert_eq!(value["files"][0]["language"], "diff");

    // The selection still applies: an excluded file's diff is left out, deleted ones too.
    let narrowed = diff_doc(
        &mut mcp,
        &fx,
        json!({"git_scope": "diff:HEAD~1..HEAD", "view": "diff", "exclude_patterns": ["*.txt"]}),
    );
    assert!(narrowed.contains("src/main.rs"), "{narrowed}");
    assert!(
        !narrowed.contains("gone.txt") && !narrowed.contains("after.txt"),
        "{narrowed}"
    );
}

#[test]
fn a_small_change_costs_about_what_git_diff_shows() {
    let fx = Fixture::new();
    // a 10 KB file, one line changed
    let body: String = (0..300)
        .map(|n| format!("    let field_{n:03} = source.read_field({n});\n"))
        .collect();
    fx.write("src/big.rs", format!("fn load() {{\n{body}}}\n"));
    git(&fx.root, &["init", "-q"]);
    git(&fx.root, &["add", "."]);
    git(&fx.root, &["commit", "-qm", "init"]);
    let changed = body.replace("read_field(150)", "read_field(150).trim()");
    fx.write("src/big.rs", format!("fn load() {{\n{changed}}}\n"));
    git(&fx.root, &["add", "."]);
    let git_diff = git_out(&fx, &["diff", "--staged"]);

    let mut mcp = Mcp::start(&fx.root);
    let result = mcp.call(
        "pack_context",
        json!({"git_scope": "staged", "view": "diff"}),
    );
    let whole: usize = all_texts(&result).iter().map(|t| t.chars().count()).sum();
    let whole_file = mcp
        .call_ok(
            "pack_context",
            json!({"git_scope": "staged", "view": "content"}),
        )
        .chars()
        .count();
    assert!(
        whole <= git_diff.chars().count() + 200,
        "the diff answer has {whole} characters, git diff {}",
        git_diff.chars().count()
    );
    assert!(
        whole * 10 < whole_file,
        "{whole} vs the whole file's {whole_file}"
    );
    let text = first_text(&result);
    assert!(
        text.contains("+    let field_150 = source.read_field(150).trim();"),
        "{text}"
    );
}

#[test]
#[cfg(unix)] // the swapped-in symbolic link
fn a_diff_never_shows_secrets_binaries_huge_files_or_files_outside() {
    let fx = Fixture::new();
    let secret = "ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6";
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("private.txt"), "OUTSIDE-THE-PROJECT\n").unwrap();
    fx.write("config.py", format!("token = \"{secret}\"\nretries = 3\n"))
        .write("deleted.py", format!("OLD_TOKEN = \"{secret}\"\n"))
        .write("image.bin", b"\x89PNG\0\0\0one".as_slice())
        .write("huge.txt", "small at first\n")
        .write("link.txt", "a plain file in HEAD\n");
    git(&fx.root, &["init", "-q"]);
    git(&fx.root, &["add", "."]);
    git(&fx.root, &["commit", "-qm", "init"]);
    // the secret is only on the old side: removed from config.py, deleted with deleted.py
    fx.write("config.py", "token = read_env()\nretries = 3\n")
        .write("image.bin", b"\x89PNG\0\0\0two".as_slice());
    std::fs::remove_file(fx.path("deleted.py")).unwrap();
    // over the 16 MiB inspection boundary
    let line = "x".repeat(1023) + "\n";
    fx.write("huge.txt", line.repeat(17 * 1024));
    // a tracked file swapped for a link to a file outside the project
    std::fs::remove_file(fx.path("link.txt")).unwrap();
    std::os::unix::fs::symlink(outside.path().join("private.txt"), fx.path("link.txt")).unwrap();
    git(&fx.root, &["add", "-A"]);

    let mut mcp = Mcp::start(&fx.root);
    for scope in ["staged", "changes"] {
        for format in ["markdown", "json"] {
            let result = mcp.call(
                "pack_context",
                json!({"git_scope": scope, "view": "diff", "format": format}),
            );
            assert_eq!(result["isError"], json!(false), "{result}");
            let texts = all_texts(&result);
            let answer = texts.join("\n");
            assert!(!answer.contains(secret), "{scope} {format}: {answer}");
            assert!(!answer.contains("OUTSIDE-THE-PROJECT"), "{answer}");
            assert!(
                !answer.contains(&"x".repeat(1023)),
                "{scope}: the huge file is shown"
            );
            let doc = one_spot(&texts[0]).inner;
            // the removed secret line is there, redacted
            assert!(
                doc.contains("-token = \\\"[REDACTED") || doc.contains("-token = \"[REDACTED"),
                "{doc}"
            );
            assert!(
                doc.contains("Binary files a/image.bin and b/image.bin differ"),
                "{doc}"
            );
            assert!(
                doc.contains("larger than the 16 MiB inspection boundary"),
                "{doc}"
            );
            // the trusted notice counts the withheld file, outside the data block
            assert!(
                texts
                    .iter()
                    .skip(1)
                    .any(|t| t.contains("DPX-MCP-PAYLOAD-TRUNCATED")),
                "{answer}"
            );
        }
    }
    // the link is diffed as Git stores it, as its target text; it is never followed
    let target = outside.path().join("private.txt");
    for scope in ["staged", "changes"] {
        let doc = mcp.call_ok("pack_context", json!({"git_scope": scope, "view": "diff"}));
        assert!(doc.contains("-a plain file in HEAD"), "{doc}");
        assert!(doc.contains(&format!("+{}", target.display())), "{doc}");
    }
}

#[test]
fn a_diff_view_needs_a_scope_and_refuses_what_does_not_apply() {
    let fx = repo();
    let mut mcp = Mcp::start(&fx.root);
    for (arguments, expected) in [
        (json!({"view": "diff"}), "needs git_scope"),
        (
            json!({"view": "diff", "git_scope": "staged", "query": "main"}),
            "drop query and rank",
        ),
        (
            json!({"view": "diff", "git_scope": "staged", "detail": "signatures"}),
            "drop detail",
        ),
        (
            json!({"view": "diff", "git_scope": "diff:nope..HEAD"}),
            "names no branch, tag or commit",
        ),
    ] {
        let text = mcp.call_err("pack_context", arguments.clone());
        assert!(text.contains(expected), "{arguments}: {text}");
    }
    // Without view diff, git_scope packs are unchanged: file content, not a diff.
    let content = mcp.call_ok(
        "pack_context",
        json!({"git_scope": "staged", "view": "content"}),
    );
    assert!(!content.contains("@@ "), "{content}");
}

/// A submodule's own changes appear under its folder for `staged` and `changes`, as its files
/// do in the selection; the superproject's gitlink (a commit id, not a file) is no diff.
#[test]
fn a_submodules_changes_are_diffed_under_its_folder() {
    let fx = Fixture::new();
    let sub = tempfile::tempdir().unwrap();
    std::fs::write(sub.path().join("lib.rs"), "pub fn one() {}\n").unwrap();
    git(sub.path(), &["init", "-q"]);
    git(sub.path(), &["add", "."]);
    git(sub.path(), &["commit", "-qm", "sub"]);
    fx.write("top.rs", "fn top() {}\n");
    git(&fx.root, &["init", "-q"]);
    git(
        &fx.root,
        &[
            "-c",
            "protocol.file.allow=always",
            "submodule",
            "add",
            "-q",
            sub.path().to_str().unwrap(),
            "vendor/sub",
        ],
    );
    git(&fx.root, &["add", "."]);
    git(&fx.root, &["commit", "-qm", "top"]);
    fx.write("vendor/sub/lib.rs", "pub fn one() {}\npub fn two() {}\n");
    let inner = fx.path("vendor/sub");
    git(&inner, &["add", "lib.rs"]);

    let mut mcp = Mcp::start(&fx.root);
    for scope in ["staged", "changes"] {
        let doc = diff_doc(&mut mcp, &fx, json!({"git_scope": scope, "view": "diff"}));
        assert!(
            doc.contains("--- a/vendor/sub/lib.rs\n+++ b/vendor/sub/lib.rs\n"),
            "{scope}: {doc}"
        );
        assert!(doc.contains("+pub fn two() {}"), "{scope}: {doc}");
        assert!(!doc.contains("Subproject commit"), "{scope}: {doc}");
    }
}

/// A deleted file is judged by name by the selection's rules, also when its folder went with it:
/// the rules above a missing folder still apply (here a root `.gitignore` pattern).
#[test]
fn deleted_files_below_deleted_folders_follow_the_rules_above_them() {
    let fx = Fixture::new();
    fx.write(".gitignore", "*.log\n")
        .write("logs/deep/app.log", "ignored but force-added\n")
        .write("gone/deep/kept.txt", "an ordinary file\n");
    git(&fx.root, &["init", "-q"]);
    git(&fx.root, &["add", "."]);
    git(&fx.root, &["add", "-f", "logs/deep/app.log"]);
    git(&fx.root, &["commit", "-qm", "init"]);
    std::fs::remove_dir_all(fx.path("logs")).unwrap();
    std::fs::remove_dir_all(fx.path("gone")).unwrap();
    let mut mcp = Mcp::start(&fx.root);
    let doc = diff_doc(
        &mut mcp,
        &fx,
        json!({"git_scope": "changes", "view": "diff"}),
    );
    assert!(
        doc.contains("--- a/gone/deep/kept.txt\n+++ /dev/null\n"),
        "{doc}"
    );
    assert!(!doc.contains("app.log"), "{doc}");
}

/// A name with a newline stays on its `---`/`+++` line (control characters as pictures, as in
/// trees), so it cannot forge diff lines.
#[test]
#[cfg(unix)] // Windows names cannot hold a newline
fn diff_headers_keep_odd_names_on_one_line() {
    let fx = Fixture::new();
    fx.write("odd\n+forged.txt", "one\n");
    git(&fx.root, &["init", "-q"]);
    git(&fx.root, &["add", "."]);
    git(&fx.root, &["commit", "-qm", "init"]);
    fx.write("odd\n+forged.txt", "two\n");
    let mut mcp = Mcp::start(&fx.root);
    let doc = diff_doc(
        &mut mcp,
        &fx,
        json!({"git_scope": "changes", "view": "diff"}),
    );
    assert!(doc.contains("--- a/odd\u{240A}+forged.txt\n"), "{doc}");
    assert!(!doc.lines().any(|l| l == "+forged.txt"), "{doc}");
}
