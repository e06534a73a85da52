//! A warm server's caches never hide an edit: an edit that keeps a file's size and
//! modification time is still seen (the status-change time moves), by the binary sniff, the
//! metrics of `analyze`, and above all by secret redaction in search and packs. The kept walk
//! (`select/cache.rs`) sees files added, removed, renamed and newly ignored.
#![cfg(unix)]

use std::path::Path;
use std::time::Duration;

use crate::common::{Fixture, Mcp, all_texts, one_spot};
use serde_json::json;

/// Rewrite `path` in place with `content` (same length), then set its modification time back
/// to what it was, as a careless tool (or an attacker) could.
fn rewrite_keeping_size_and_mtime(path: &Path, content: &str) {
    let before = std::fs::metadata(path).unwrap();
    assert_eq!(before.len(), content.len() as u64, "same size");
    let mtime = before.modified().unwrap();
    std::fs::write(path, content).unwrap();
    let file = std::fs::File::options().write(true).open(path).unwrap();
    file.set_modified(mtime).unwrap();
    let after = std::fs::metadata(path).unwrap();
    assert_eq!(after.modified().unwrap(), mtime);
    assert_eq!(after.len(), before.len());
}

/// Walks and facts about paths changed in the last three seconds are not kept: let the
/// fixture age, so the second call of each test is answered from the caches.
fn let_files_age() {
    std::thread::sleep(Duration::from_millis(3300));
}

const CLEAN: &str = "let value = \"placeholder-text-without-any-secret-in-i\";\n";
const SECRET: &str = "let value = \"ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A\";\n";

#[test]
fn an_edit_keeping_size_and_mtime_is_redacted_in_a_warm_server() {
    assert_eq!(CLEAN.len(), SECRET.len());
    let fx = Fixture::new();
    fx.write("src/config.rs", CLEAN);
    let_files_age();
    let mut mcp = Mcp::start(&fx.root);
    // Warm every cache: the file is known to be clean.
    for _ in 0..2 {
        let analysis = mcp.call("analyze", json!({}));
        assert_eq!(analysis["structuredContent"]["redactions"], 0);
        mcp.call_ok("search_project", json!({"pattern": "value"}));
        mcp.call_ok("pack_context", json!({}));
    }
    rewrite_keeping_size_and_mtime(&fx.path("src/config.rs"), SECRET);
    let search = mcp.call_ok("search_project", json!({"pattern": "value"}));
    assert!(!search.contains("ghp_"), "{search}");
    assert!(search.contains("[REDACTED:"), "{search}");
    let pack = mcp.call_ok("pack_context", json!({}));
    assert!(!pack.contains("ghp_"), "{pack}");
    let analysis = mcp.call("analyze", json!({}));
    assert_eq!(analysis["structuredContent"]["redactions"], 1, "{analysis}");
    let text = mcp.call_ok("get_file", json!({"path": "src/config.rs"}));
    assert!(!text.contains("ghp_"), "{text}");
}

#[test]
fn a_warm_tree_sees_a_binary_file_become_text_at_the_same_size_and_mtime() {
    let fx = Fixture::new();
    fx.write("data.bin", "binary\0content\n");
    let_files_age();
    let mut mcp = Mcp::start(&fx.root);
    for _ in 0..2 {
        let tree = one_spot(&mcp.call_ok("get_tree", json!({}))).inner;
        assert!(tree.contains("data.bin (binary)"), "{tree}");
    }
    rewrite_keeping_size_and_mtime(&fx.path("data.bin"), "binary content\n");
    let tree = one_spot(&mcp.call_ok("get_tree", json!({}))).inner;
    assert!(tree.contains("- data.bin\n"), "{tree}");
    let analysis = mcp.call("analyze", json!({}));
    assert_eq!(analysis["structuredContent"]["textFiles"], 1, "{analysis}");
}

#[test]
fn a_warm_analyze_follows_edits_of_any_size() {
    let fx = Fixture::new();
    fx.write("a.txt", "one line\n");
    let_files_age();
    let mut mcp = Mcp::start(&fx.root);
    for _ in 0..2 {
        let analysis = mcp.call("analyze", json!({}));
        assert_eq!(analysis["structuredContent"]["lines"], 1);
    }
    fx.write("a.txt", "one line\ntwo lines\n");
    let analysis = mcp.call("analyze", json!({}));
    assert_eq!(analysis["structuredContent"]["lines"], 2, "{analysis}");
    assert_eq!(analysis["structuredContent"]["characters"], 19);
}

#[test]
fn a_warm_tree_and_search_see_files_added_removed_renamed_and_newly_ignored() {
    let fx = Fixture::new();
    fx.write("src/lib.rs", "pub fn marker_one() {}\n")
        .write("src/deep/inner/mod.rs", "pub fn marker_two() {}\n")
        .write("docs/guide.md", "marker_three\n")
        .write("old/name.txt", "marker_four\n");
    let_files_age();
    let mut mcp = Mcp::start(&fx.root);
    let tree = |mcp: &mut Mcp| one_spot(&mcp.call_ok("get_tree", json!({"format": "text"}))).inner;
    let found = |mcp: &mut Mcp| mcp.call_ok("search_project", json!({"pattern": "marker_"}));
    for _ in 0..2 {
        assert!(tree(&mut mcp).contains("mod.rs"));
        assert!(found(&mut mcp).contains("marker_four"));
    }
    // Deep inside: only that folder's listing changes.
    fx.write("src/deep/inner/added.rs", "pub fn marker_five() {}\n");
    std::fs::remove_file(fx.path("docs/guide.md")).unwrap();
    std::fs::rename(fx.path("old"), fx.path("new")).unwrap();
    let listed = tree(&mut mcp);
    assert!(listed.contains("added.rs"), "{listed}");
    assert!(!listed.contains("guide.md"), "{listed}");
    assert!(
        listed.contains("new/") && !listed.contains("old/"),
        "{listed}"
    );
    let hits = found(&mut mcp);
    assert!(
        hits.contains("marker_five") && !hits.contains("marker_three"),
        "{hits}"
    );
    assert!(hits.contains("new/name.txt"), "{hits}");
    // A new ignore file deep inside, then an edit of it that keeps its size.
    let_files_age();
    assert!(tree(&mut mcp).contains("added.rs"));
    fx.write("src/deep/.gitignore", "added.rs\n");
    let listed = tree(&mut mcp);
    assert!(
        !listed.contains("added.rs") && listed.contains("mod.rs"),
        "{listed}"
    );
    let_files_age();
    assert!(!tree(&mut mcp).contains("added.rs"));
    rewrite_keeping_size_and_mtime(&fx.path("src/deep/.gitignore"), "inner/**\n");
    let listed = tree(&mut mcp);
    assert!(
        !listed.contains("mod.rs") && !listed.contains("added.rs"),
        "{listed}"
    );
    assert!(!found(&mut mcp).contains("marker_two"));
}

#[test]
fn a_file_binary_past_its_first_8_kib_is_binary_in_every_tool() {
    let fx = Fixture::new();
    fx.write("late.txt", format!("{}\0tail\n", "a".repeat(9_000)))
        .write("notes.md", "hello\n");
    let_files_age();
    let mut mcp = Mcp::start(&fx.root);
    // The listing checks the first 8 KiB: the first pack finds it binary only when reading,
    // and says so instead of leaving it out silently.
    let pack = all_texts(&mcp.call("pack_context", json!({}))).join("\n");
    assert!(
        pack.contains("1 selected file listed as text turned out binary when read"),
        "{pack}"
    );
    assert!(!pack.contains("aaaa"), "{pack}");
    // From then on every tool treats it as binary.
    let tree = one_spot(&mcp.call_ok("get_tree", json!({}))).inner;
    assert!(tree.contains("late.txt (binary)"), "{tree}");
    let pack = all_texts(&mcp.call("pack_context", json!({}))).join("\n");
    assert!(pack.contains("late.txt (binary)"), "{pack}");
    assert!(!pack.contains("turned out binary"), "{pack}");
    let file = mcp.call("get_file", json!({"path": "late.txt"}));
    assert!(
        file.to_string().contains("is a binary file"),
        "the answer of any binary file: {file}"
    );
}
