//! The root jail and special files, tried as an attacker would, through the real binary: FIFOs
//! and devices, files swapped for FIFOs mid-call, a root replaced by a symlink, and folder
//! links flipping between inside and outside targets during a walk.
#![cfg(unix)]

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::common::{self, Fixture, Mcp, first_text};
use serde_json::{Value, json};

fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}

/// Every call answers; none blocks on a FIFO or a link to one.
#[test]
fn fifos_and_links_to_them_are_refused_without_blocking() {
    let fx = Fixture::new();
    fx.write("plain.txt", "plain\n");
    mkfifo(&fx.path("fifo"));
    mkfifo(&fx.path("pipe.txt"));
    common::symlink("fifo", fx.path("link_to_fifo"));
    let mut mcp = Mcp::start(&fx.root);
    for path in ["fifo", "pipe.txt", "link_to_fifo"] {
        let started = Instant::now();
        let text = mcp.call_err("get_file", json!({"path": path}));
        assert!(
            text.starts_with("DPX-MCP-NOT-A-REGULAR-FILE:"),
            "{path}: {text}"
        );
        assert!(text.contains("FIFO"), "{text}");
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{path} took too long"
        );
    }
    // The walk never lists them; content tools never read them.
    let tree = mcp.call_ok("get_tree", json!({"format": "json"}));
    assert!(!tree.contains("\"path\":\"fifo\""), "{tree}");
    assert!(!tree.contains("pipe.txt"), "{tree}");
    assert!(
        tree.contains("\"path\":\"link_to_fifo\",\"type\":\"symlink\""),
        "{tree}"
    );
    let pack = mcp.call_ok("pack_context", json!({}));
    assert!(pack.contains("plain"), "{pack}");
    let search = mcp.call_ok("search_project", json!({"pattern": "plain"}));
    assert!(search.contains("plain.txt"), "{search}");
    let analyze = mcp.call("analyze", json!({}));
    assert_eq!(analyze["structuredContent"]["files"], 1, "{analyze}");
}

/// Hundreds of concurrent calls on a FIFO (more than tokio's 512 blocking threads) neither
/// hang nor take the server down: `tools/list` still answers.
#[test]
fn many_concurrent_fifo_calls_leave_the_server_serving() {
    let fx = Fixture::new();
    mkfifo(&fx.path("fifo"));
    let mut mcp = Mcp::start(&fx.root);
    let calls = 600;
    for id in 0..calls {
        mcp.send(&json!({
            "jsonrpc": "2.0", "id": 10_000 + id, "method": "tools/call",
            "params": {"name": "get_file", "arguments": {"path": "fifo"}}
        }));
    }
    let mut answered = 0;
    let deadline = Instant::now() + Duration::from_secs(60);
    while answered < calls && Instant::now() < deadline {
        let message = mcp.recv();
        if message["id"].as_i64().is_some_and(|id| id >= 10_000) {
            assert_eq!(message["result"]["isError"], json!(true), "{message}");
            answered += 1;
        }
    }
    assert_eq!(answered, calls);
    let listed = mcp.request("tools/list", json!({}));
    assert!(listed["result"]["tools"].as_array().is_some(), "{listed}");
}

/// A character device inside the root (root only: `mknod` needs it) is refused like a FIFO.
#[test]
fn devices_are_refused() {
    if !nix_is_root() {
        eprintln!("skipped: creating a device node needs root (CI runs as root)");
        return;
    }
    let fx = Fixture::new();
    let status = std::process::Command::new("mknod")
        .arg(fx.path("zero"))
        .args(["c", "1", "5"])
        .status()
        .unwrap();
    assert!(status.success());
    let mut mcp = Mcp::start(&fx.root);
    let text = mcp.call_err("get_file", json!({"path": "zero"}));
    assert!(
        text.starts_with("DPX-MCP-NOT-A-REGULAR-FILE:") && text.contains("character device"),
        "{text}"
    );
    let tree = mcp.call_ok("get_tree", json!({}));
    assert!(!tree.contains("zero"), "{tree}");
}

fn nix_is_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// Regular files flipping to FIFOs (and back) while packs and searches read them: every call
/// returns, and no FIFO is ever read.
#[test]
fn files_swapped_for_fifos_mid_call_never_hang_a_call() {
    let fx = Fixture::new();
    for i in 0..40 {
        fx.write(&format!("f{i:02}.txt"), format!("needle {i}\n"));
    }
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let stop = Arc::clone(&stop);
        let root = fx.root.clone();
        let spare = fx.base().join("spare");
        std::fs::create_dir_all(&spare).unwrap();
        std::thread::spawn(move || {
            let mut round = 0u64;
            while !stop.load(Ordering::Relaxed) {
                for i in 0..40 {
                    let path = root.join(format!("f{i:02}.txt"));
                    let fifo = spare.join(format!("fifo{i}"));
                    let keep = spare.join(format!("keep{i}"));
                    // Swap the file for a FIFO by rename (atomic), then back.
                    if round.is_multiple_of(2) {
                        let _ = std::process::Command::new("mkfifo").arg(&fifo).status();
                        let _ = std::fs::rename(&path, &keep);
                        let _ = std::fs::rename(&fifo, &path);
                    } else {
                        let _ = std::fs::rename(&path, &fifo);
                        let _ = std::fs::remove_file(&fifo);
                        let _ = std::fs::rename(&keep, &path);
                    }
                }
                round += 1;
            }
        })
    };
    let mut mcp = Mcp::start(&fx.root);
    for round in 0..15 {
        let started = Instant::now();
        let pack = mcp.call("pack_context", json!({}));
        assert_eq!(pack["isError"], json!(false), "{pack}");
        let search = mcp.call("search_project", json!({"pattern": "needle"}));
        assert_eq!(search["isError"], json!(false), "{search}");
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "round {round} took {:?}",
            started.elapsed()
        );
    }
    stop.store(true, Ordering::Relaxed);
    swapper.join().unwrap();
}

/// The walk is anchored to the root folder pinned at start-up: replacing the root's path by a
/// symlink to another folder exposes nothing of that folder.
#[test]
fn a_root_replaced_by_a_symlink_is_still_the_pinned_folder() {
    let fx = Fixture::new();
    fx.write("inside.txt", "inside content\n");
    let other = fx.base().join("other");
    common::write_file(&other.join("OTHER_SECRET_NAME.txt"), "OTHER-CONTENT\n");
    let mut mcp = Mcp::start(&fx.root);
    assert!(mcp.call_ok("get_tree", json!({})).contains("inside.txt"));
    // Swap: the configured path now leads to `other`.
    std::fs::rename(&fx.root, fx.base().join("moved-away")).unwrap();
    common::symlink(&other, &fx.root);
    let tree = mcp.call_ok("get_tree", json!({}));
    assert!(!tree.contains("OTHER_SECRET_NAME"), "{tree}");
    assert!(tree.contains("inside.txt"), "{tree}");
    let pack = mcp.call_ok("pack_context", json!({}));
    assert!(!pack.contains("OTHER"), "{pack}");
    let analyze = mcp.call("analyze", json!({}));
    let analyze_text = analyze.to_string();
    assert!(
        !analyze_text.contains("OTHER_SECRET_NAME"),
        "{analyze_text}"
    );
    assert_eq!(analyze["structuredContent"]["files"], 1);
    let text = first_text(&mcp.call("get_file", json!({"path": "OTHER_SECRET_NAME.txt"})));
    assert!(!text.contains("OTHER-CONTENT"), "{text}");
    let search = mcp.call_ok("search_project", json!({"pattern": "CONTENT"}));
    assert!(!search.contains("OTHER"), "{search}");
}

/// A folder inside the root that flips between a real folder and a link to an outside folder
/// while trees are listed: no outside name is ever listed.
#[test]
fn a_folder_flipping_to_an_outside_link_never_leaks_outside_names() {
    let fx = Fixture::new();
    fx.write("sub/inside_name.txt", "inside\n");
    let outside = fx.base().join("outside");
    for i in 0..50 {
        common::write_file(&outside.join(format!("OUTSIDE_{i}.txt")), "outside\n");
    }
    let stop = Arc::new(AtomicBool::new(false));
    let flipper = {
        let stop = Arc::clone(&stop);
        let sub = fx.path("sub");
        let parked = fx.base().join("parked-sub");
        let link = fx.base().join("link-sub");
        std::os::unix::fs::symlink(&outside, &link).unwrap();
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                // real folder -> link -> real folder, each by an atomic rename
                let _ = std::fs::rename(&sub, &parked);
                let _ = std::fs::rename(&link, &sub);
                std::thread::yield_now();
                let _ = std::fs::rename(&sub, &link);
                let _ = std::fs::rename(&parked, &sub);
            }
        })
    };
    let mut mcp = Mcp::start(&fx.root);
    for format in ["markdown", "json"] {
        for _ in 0..40 {
            let tree = mcp.call_ok("get_tree", json!({"format": format}));
            assert!(!tree.contains("OUTSIDE_"), "{tree}");
        }
    }
    for _ in 0..10 {
        let result: Value = mcp.call("analyze", json!({}));
        assert!(!result.to_string().contains("OUTSIDE_"), "{result}");
        let pack = mcp.call_ok("pack_context", json!({"format": "json"}));
        assert!(!pack.contains("OUTSIDE_"), "{pack}");
    }
    stop.store(true, Ordering::Relaxed);
    flipper.join().unwrap();
}

/// A slow pattern on one large file stops at the 2-second limit inside the file, and says so.
#[test]
fn the_search_deadline_holds_inside_one_large_file() {
    let fx = Fixture::new();
    let words = [
        "привет",
        "мир",
        "данные",
        "строка",
        "поиск",
        "текст",
        "файл",
        "слово",
    ];
    let mut text = String::new();
    let mut i = 0usize;
    while text.len() < 16 * 1024 * 1024 - 400 {
        text.push_str(words[i % words.len()]);
        text.push(if i % 13 == 12 { '\n' } else { ' ' });
        i += 1;
    }
    // One real match at the very end, so no prefilter can rule the file out: only the deadline
    // can stop the search before it gets there.
    text.push_str(&["слово"; 12].join(" "));
    text.push_str(" 7\n");
    fx.write("cyrillic.txt", &text);
    let mut mcp = Mcp::start(&fx.root);
    let started = Instant::now();
    let result = mcp.call(
        "search_project",
        json!({"pattern": r"\b(\w+\b\s){12}\d", "ignore_case": false}),
    );
    let elapsed = started.elapsed();
    let text = first_text(&result);
    assert_eq!(result["isError"], json!(false), "{text}");
    // It says how much it searched (issue 40): none of the file completely, and how far in.
    assert!(
        text.starts_with(
            "No matches before the 2-second time limit: searched 0 of 1 file completely and "
        ) && text.contains(" % of the next"),
        "{text}"
    );
    assert!(
        !text.contains(" 7"),
        "the search ran past its deadline: {text}"
    );
    assert!(elapsed < Duration::from_secs(12), "took {elapsed:?}");
}

/// Peak memory of one search over a 16 MiB file of one-character lines stays within a few
/// times the file (every line used to cost a slice and a flag: about 830 MB).
#[cfg(target_os = "linux")]
#[test]
fn search_memory_is_bounded_by_the_file_not_its_lines() {
    let fx = Fixture::new();
    fx.write("lines.txt", "a\n".repeat(8 * 1024 * 1024 - 8));
    let mut mcp = Mcp::start(&fx.root);
    let peak_kb = |pid: u32| -> u64 {
        std::fs::read_to_string(format!("/proc/{pid}/status"))
            .unwrap()
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap()
    };
    let pid = mcp.child.id();
    let before = peak_kb(pid);
    for max_results in [1, 200] {
        let result = mcp.call(
            "search_project",
            json!({"pattern": "a", "max_results": max_results, "context_lines": 50}),
        );
        assert_eq!(result["isError"], json!(false));
    }
    let grown_mb = (peak_kb(pid).saturating_sub(before)) / 1024;
    assert!(grown_mb <= 4 * 16, "peak memory grew by {grown_mb} MB");
}

/// On Unix a `\` is a name character (issue 40 item 8): a real in-project file named with one is
/// listed and readable by the name the tree shows; read as a separator instead, `\` keeps
/// Windows-style relative paths working, and no reading ever leaves the root.
#[test]
fn a_backslash_in_a_name_is_reachable_and_never_an_escape() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.txt"), "OUTSIDE\n").unwrap();
    let fx = Fixture::new();
    fx.write("\\backslash.txt", "leading backslash\n")
        .write("dir/a\\b.txt", "inner backslash\n")
        .write("..\\dots.txt", "dots then backslash\n")
        .write("src/main.rs", "fn main() {}\n");
    common::symlink(outside.path().join("secret.txt"), fx.path("\\out.txt"));
    let mut mcp = Mcp::start(&fx.root);
    let tree = first_text(&mcp.call("get_tree", json!({"format": "text"})));
    assert!(tree.contains("\\backslash.txt"), "{tree}");
    for (path, expected) in [
        ("\\backslash.txt", "leading backslash"),
        ("dir/a\\b.txt", "inner backslash"),
        ("..\\dots.txt", "dots then backslash"),
        // no such literal name: `\` separates, as in Windows-style input
        ("src\\main.rs", "fn main() {}"),
    ] {
        let text = first_text(&mcp.call("get_file", json!({"path": path})));
        assert!(text.contains(expected), "{path}: {text}");
    }
    // a pack and a search find it under the same name
    let pack = mcp.call_ok(
        "pack_context",
        json!({"paths": ["\\backslash.txt"], "view": "content"}),
    );
    assert!(pack.contains("leading backslash"), "{pack}");
    // escapes stay escapes: no literal file by that name, so `\` separates and `..` climbs
    for path in ["..\\..\\etc\\passwd", "\\etc\\passwd", "..\\secret.txt"] {
        let text = mcp.call_err("get_file", json!({"path": path}));
        assert!(text.starts_with("DPX-MCP-ROOT-VIOLATION"), "{path}: {text}");
    }
    // a literal name that is a link out of the root is refused, whatever the reading
    let text = mcp.call_err("get_file", json!({"path": "\\out.txt"}));
    assert!(!text.contains("OUTSIDE"), "{text}");
    assert!(
        text.starts_with("DPX-MCP-ROOT-VIOLATION") || text.starts_with("DPX-MCP-PATH-NOT-FOUND"),
        "{text}"
    );
}
