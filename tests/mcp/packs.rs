//! `pack_context` and `read_pack` over raw JSON-RPC: inline and stored packs, parity with
//! `devprojex pack`, budget reports, progress notifications and the session pack store.

use std::path::Path;
use std::time::Duration;

use crate::common::{
    self, Fixture, Mcp, all_texts, code_of, first_text, one_spot, read_whole_pack, spots,
    stored_pack_id,
};
use serde_json::{Value, json};

const VIEWS: [&str; 3] = ["tree-content", "content", "tree"];
const FORMATS: [&str; 4] = ["markdown", "text", "json", "xml"];

/// `devprojex pack <root> <args>` stdout.
fn cli_pack(root: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new(common::bin())
        .arg("pack")
        .arg(root)
        .args(args)
        .env(
            "DEVPROJEX_CONFIG_DIR",
            root.parent().unwrap().join("config"),
        )
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "devprojex pack {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn small_project() -> Fixture {
    let fx = Fixture::new();
    fx.write(
        "src/main.rs",
        "fn main() {\n    println!(\"hi ``` there\");\n}\n",
    )
    .write("README.md", "# Title\n\n```\nfenced\n```\n")
    .write("data.xml", "<x a=\"1\">]]> &amp;</x>\n");
    fx
}

/// Many small files: every view and format of its pack exceeds 50,000 characters.
fn large_project() -> Fixture {
    let fx = Fixture::new();
    for d in 0..25 {
        for f in 0..100 {
            fx.write(
                &format!("module_{d:02}/component_file_{f:03}.txt"),
                format!("content of {d}/{f} with <xml> & \"json\" chars\n"),
            );
        }
    }
    // Line endings, a missing final newline and multi-byte characters must survive too.
    fx.write("edge/crlf.txt", "first\r\nsecond\r\n")
        .write("edge/no_final_newline.txt", "no newline at the end")
        .write("edge/unicode.md", "é✓ 😀 ``` fence\n\u{2028} sep\n");
    fx
}

/// Fewer, larger files: every tree-content pack exceeds 50,000 characters.
fn stored_project() -> Fixture {
    let fx = Fixture::new();
    for f in 0..100 {
        let line = format!("line of file {f:03} with <xml> & \"json\" chars\n");
        fx.write(
            &format!("module_{:02}/component_file_{f:03}.txt", f / 10),
            line.repeat(20),
        );
    }
    fx
}

/// The document of a pack_context response: the inline pack or the stored pack read back.
fn pack_document(mcp: &mut Mcp, args: Value) -> (String, bool) {
    let result = mcp.call("pack_context", args.clone());
    assert_eq!(result["isError"], false, "{args}: {result}");
    let text = first_text(&result);
    match stored_pack_id(&text) {
        Some((id, _)) => (read_whole_pack(mcp, &id).0, true),
        None => (one_spot(&text).inner, false),
    }
}

// ---------------------------------------------------------------------------------------------

#[test]
fn small_pack_is_inline_and_whole() {
    let fx = small_project();
    let mut mcp = Mcp::start(&fx.root);
    let result = mcp.call("pack_context", json!({}));
    assert_eq!(result["isError"], false);
    let texts = all_texts(&result);
    assert_eq!(texts.len(), 1, "no budget block or diagnostics: {texts:?}");
    assert!(!texts[0].starts_with("Pack stored"), "{}", texts[0]);
    let spot = one_spot(&texts[0]);
    assert_eq!(
        spot.inner,
        cli_pack(&fx.root, &[]),
        "inline pack equals the CLI document"
    );
    assert!(spot.inner.contains("fn main()"));
}

#[test]
fn large_pack_is_stored_with_a_bounded_tree_preview() {
    let fx = stored_project();
    let mut mcp = Mcp::start(&fx.root);
    let cli = cli_pack(&fx.root, &[]);
    assert!(cli.chars().count() > 50_000, "fixture must be large");
    let result = mcp.call("pack_context", json!({}));
    assert_eq!(result["isError"], false);
    let texts = all_texts(&result);
    let total: usize = texts.iter().map(|t| t.chars().count()).sum();
    assert!(
        total <= 50_000,
        "the whole stored response is at most 50,000 characters: {total}"
    );
    let text = &texts[0];
    let (id, characters) =
        stored_pack_id(text).unwrap_or_else(|| panic!("not stored: {}", &text[..200]));
    assert_eq!(
        characters as usize,
        cli.chars().count(),
        "announced size is the document's"
    );
    assert!(
        id.chars().filter(|c| c.is_ascii_hexdigit()).count() >= 32,
        "128-bit id: {id}"
    );
    assert!(text.contains("read_pack"));
    // A preview of the project tree follows, spotlighted.
    let preview = one_spot(text);
    assert!(
        preview.inner.contains("component\\_file\\_000")
            || preview.inner.contains("component_file_000"),
        "{}",
        &preview.inner[..300]
    );
    assert!(
        !preview.inner.contains("line of file"),
        "the preview holds no file content"
    );

    // A second stored pack gets a new id.
    let again = first_text(&mcp.call("pack_context", json!({})));
    let (id2, _) = stored_pack_id(&again).unwrap();
    assert_ne!(id, id2);
}

#[test]
fn a_huge_tree_preview_is_cut_but_the_stored_pack_is_complete() {
    let fx = Fixture::new();
    for i in 0..4000 {
        fx.write(
            &format!("d{:02}/a_rather_long_file_name_number_{i:05}.txt", i / 200),
            "x\n",
        );
    }
    let mut mcp = Mcp::start(&fx.root);
    let result = mcp.call(
        "pack_context",
        json!({"view": "tree", "format": "markdown"}),
    );
    assert_eq!(result["isError"], false);
    let texts = all_texts(&result);
    let total: usize = texts.iter().map(|t| t.chars().count()).sum();
    assert!(total <= 50_000, "{total}");
    let (id, _) = stored_pack_id(&texts[0]).expect("stored");
    let (doc, _) = read_whole_pack(&mut mcp, &id);
    assert_eq!(
        doc,
        cli_pack(&fx.root, &["--view", "tree", "--format", "markdown"])
    );
    assert!(doc.contains("number\\_03999") || doc.contains("number_03999"));
}

#[test]
fn read_pack_reassembles_the_cli_document_for_every_view_and_format() {
    let fx = large_project();
    let mut mcp = Mcp::start(&fx.root);
    for view in VIEWS {
        for format in FORMATS {
            let cli = cli_pack(&fx.root, &["--view", view, "--format", format]);
            let result = mcp.call("pack_context", json!({"view": view, "format": format}));
            let text = first_text(&result);
            let (id, characters) =
                stored_pack_id(&text).unwrap_or_else(|| panic!("{view}/{format} not stored"));
            assert_eq!(characters as usize, cli.chars().count(), "{view}/{format}");
            let (doc, calls) = read_whole_pack(&mut mcp, &id);
            assert!(calls >= 2, "{view}/{format}: read in several ranges");
            assert!(
                doc == cli,
                "{view}/{format}: read_pack document differs from `devprojex pack` output"
            );
            match format {
                "json" => {
                    let _: Value = serde_json::from_str(&doc).unwrap();
                }
                "xml" => {
                    common::parse_xml(&doc);
                }
                _ => {}
            }
        }
    }
}

#[test]
fn inline_packs_match_the_cli_for_every_view_and_format() {
    let fx = small_project();
    let mut mcp = Mcp::start(&fx.root);
    for view in VIEWS {
        for format in FORMATS {
            let (doc, stored) = pack_document(&mut mcp, json!({"view": view, "format": format}));
            assert!(!stored);
            assert_eq!(
                doc,
                cli_pack(&fx.root, &["--view", view, "--format", format]),
                "{view}/{format}"
            );
        }
    }
    // Same selection options give the same document.
    let args = ["--include-patterns", "src/**", "--exclude-patterns", "*.md"];
    let (doc, _) = pack_document(
        &mut mcp,
        json!({"include_patterns": ["src/**"], "exclude_patterns": ["*.md"], "format": "json"}),
    );
    let mut cli_args = args.to_vec();
    cli_args.extend(["--format", "json"]);
    assert_eq!(doc, cli_pack(&fx.root, &cli_args));
}

#[test]

fn read_pack_returns_every_character_of_a_very_long_line() {
    let fx = Fixture::new();
    // A JSON pack writes each file's content on one line; a minified file is one long line in
    // every format.
    let content: String = (0..6000).map(|i| format!("row {i:05}\n")).collect(); // 60,000 chars
    fx.write("big.txt", &content);
    fx.write("min.js", format!("{}\n", "m".repeat(60_000)));
    let mut mcp = Mcp::start(&fx.root);
    let mut failures = Vec::new();
    for format in ["json", "markdown", "text", "xml"] {
        let (doc, stored) = pack_document(&mut mcp, json!({"format": format}));
        assert!(stored);
        let cli = cli_pack(&fx.root, &["--format", format]);
        if doc != cli {
            failures.push(format!(
                "{format}: read back {} characters, the CLI document has {}",
                doc.chars().count(),
                cli.chars().count()
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn read_pack_ranges_and_errors() {
    let fx = stored_project();
    let mut mcp = Mcp::start(&fx.root);
    let text = first_text(&mcp.call("pack_context", json!({"format": "text"})));
    let (id, _) = stored_pack_id(&text).unwrap();
    let cli = cli_pack(&fx.root, &["--format", "text"]);
    let total = cli.lines().count();

    let text = mcp.call_ok(
        "read_pack",
        json!({"pack_id": id, "start_line": 3, "end_line": 7}),
    );
    let spot = one_spot(&text);
    let expected: String = cli.split_inclusive('\n').skip(2).take(5).collect();
    assert_eq!(spot.inner, expected);
    assert_eq!(
        text[spot.end..].trim(),
        format!("[Showing lines 3-7 of {total}. Next: call read_pack with start_line=8.]")
    );
    // Numeric strings work here too.
    let text2 = mcp.call_ok(
        "read_pack",
        json!({"pack_id": id, "start_line": "3", "end_line": "7"}),
    );
    assert_eq!(one_spot(&text2).inner, expected);
    // Default range: from line 1, at most 1,000 lines.
    let text = mcp.call_ok("read_pack", json!({"pack_id": id}));
    let spot = one_spot(&text);
    assert_eq!(spot.inner.lines().count(), 1000);
    assert!(
        text[spot.end..]
            .trim()
            .starts_with(&format!("[Showing lines 1-1000 of {total}. Next:"))
    );
    // An end past the last line is capped at the end.
    let text = mcp.call_ok(
        "read_pack",
        json!({"pack_id": id, "start_line": total - 1, "end_line": total + 50}),
    );
    assert!(
        text.contains(&format!(
            "[Showing lines {}-{total} of {total}. End of content.]",
            total - 1
        )),
        "{text}"
    );
    // The last line.
    let text = mcp.call_ok("read_pack", json!({"pack_id": id, "start_line": total}));
    assert!(
        text.contains(&format!("[Showing lines {total}-{total} of {total}.")),
        "{text}"
    );

    for args in [
        json!({"pack_id": id, "start_line": total + 1}),
        json!({"pack_id": id, "start_line": 9, "end_line": 3}),
    ] {
        let text = mcp.call_err("read_pack", args.clone());
        assert_eq!(code_of(&text), "DPX-MCP-INVALID-RANGE", "{args}: {text}");
    }
    let text = mcp.call_err("read_pack", json!({"start_line": 1}));
    assert_eq!(
        code_of(&text),
        "DPX-MCP-INVALID-ARGUMENTS",
        "pack_id is required: {text}"
    );
}

#[test]
fn unknown_or_expired_pack_id_says_to_call_pack_context_again() {
    let fx = stored_project();
    let mut mcp = Mcp::start(&fx.root);
    let text = mcp.call_err(
        "read_pack",
        json!({"pack_id": "pack_00000000000000000000000000000000"}),
    );
    assert_eq!(code_of(&text), "DPX-MCP-PACK-EXPIRED", "{text}");
    assert!(text.contains("pack_context"), "{text}");

    // An id from a previous server process is expired after a restart.
    let stored = first_text(&mcp.call("pack_context", json!({})));
    let (id, _) = stored_pack_id(&stored).unwrap();
    mcp.call_ok("read_pack", json!({"pack_id": id, "end_line": 1}));
    drop(mcp);
    let mut restarted = Mcp::start(&fx.root);
    let text = restarted.call_err("read_pack", json!({"pack_id": id}));
    assert_eq!(code_of(&text), "DPX-MCP-PACK-EXPIRED", "{text}");
    assert!(text.contains("pack_context"), "{text}");
}

// ---------------------------------------------------------------------------------------------
// Budget report

fn budget_project() -> Fixture {
    let fx = Fixture::new();
    fx.write("a_big.txt", format!("{}\n", "0".repeat(400)))
        .write("b_small.txt", "small\n")
        .write("c_mid.txt", format!("{}\n", "0".repeat(40)));
    fx
}

#[test]
fn max_tokens_budget_report_is_a_separate_spotlighted_block_after_an_inline_pack() {
    let fx = budget_project();
    let mut mcp = Mcp::start(&fx.root);
    for format in ["json", "xml", "markdown"] {
        let result = mcp.call("pack_context", json!({"max_tokens": 20, "format": format}));
        assert_eq!(result["isError"], false);
        let texts = all_texts(&result);
        assert!(
            texts.len() >= 2,
            "{format}: pack and budget report are separate blocks: {texts:?}"
        );
        let pack = one_spot(&texts[0]);
        let report = one_spot(&texts[1]);
        assert_ne!(pack.tag, report.tag, "{format}");
        assert_eq!(
            pack.inner,
            cli_pack(&fx.root, &["--max-tokens", "20", "--format", format])
        );
        match format {
            "json" => {
                let v: Value =
                    serde_json::from_str(&pack.inner).expect("inline JSON pack parses alone");
                assert_eq!(v["tokenBudget"]["includedFiles"], 2);
                assert_eq!(v["files"].as_array().unwrap().len(), 2);
            }
            "xml" => {
                common::parse_xml(&pack.inner);
            }
            _ => {}
        }
        let r = &report.inner;
        assert!(r.contains("20"), "{r}");
        assert!(r.contains("a_big.txt"), "names the skipped file: {r}");
        assert!(r.contains("compact") && r.contains("signatures"), "{r}");
        assert!(
            r.contains('2') && r.contains('1'),
            "included and skipped counts: {r}"
        );
        assert!(
            !pack.inner.contains("Largest skipped"),
            "{format}: the report is not inside the pack"
        );
    }
    // Without max_tokens there is no report.
    let result = mcp.call("pack_context", json!({"format": "json"}));
    assert_eq!(all_texts(&result).len(), 1);
    // max_tokens as a decimal string; 0 rejected.
    mcp.call_ok("pack_context", json!({"max_tokens": "20"}));
    let text = mcp.call_err("pack_context", json!({"max_tokens": 0}));
    assert_eq!(code_of(&text), "DPX-MCP-INVALID-ARGUMENTS");
}

#[test]
fn budget_report_lists_at_most_25_skipped_files_and_follows_a_stored_preview() {
    let fx = Fixture::new();
    for i in 0..40 {
        fx.write(
            &format!("skip_{i:02}.txt"),
            format!("{}\n", "s".repeat(400 + i)),
        );
    }
    for i in 0..600 {
        fx.write(
            &format!("keep/k_{i:03}.txt"),
            format!("{}\n", "k".repeat(120)),
        );
    }
    let mut mcp = Mcp::start(&fx.root);
    // Budget fits the small files (31 tokens each) but none of the large ones.
    let result = mcp.call(
        "pack_context",
        json!({"max_tokens": 600 * 31, "view": "content"}),
    );
    assert_eq!(result["isError"], false);
    let texts = all_texts(&result);
    let total: usize = texts.iter().map(|t| t.chars().count()).sum();
    assert!(total <= 50_000, "{total}");
    assert!(
        stored_pack_id(&texts[0]).is_some(),
        "stored: {}",
        &texts[0][..100]
    );
    let report_block = texts[1..]
        .iter()
        .find(|t| !spots(t).is_empty())
        .expect("budget block");
    let report = one_spot(report_block).inner;
    let listed = (0..40)
        .filter(|i| report.contains(&format!("skip_{i:02}.txt")))
        .count();
    assert_eq!(listed, 25, "{report}");
    assert!(report.contains("and 15 more"), "{report}");
    // The largest skipped files are the listed ones.
    assert!(
        report.contains("skip_39.txt") && !report.contains("skip_00.txt"),
        "{report}"
    );
}

// ---------------------------------------------------------------------------------------------
// Progress

fn progress_values(notifications: &[Value], token: &Value) -> Vec<f64> {
    notifications
        .iter()
        .filter(|n| n["method"] == "notifications/progress")
        .map(|n| {
            assert_eq!(&n["params"]["progressToken"], token, "{n}");
            n["params"]["progress"].as_f64().unwrap()
        })
        .collect()
}

#[test]
fn progress_notifications_only_with_a_token_and_monotonic() {
    let fx = stored_project();
    let mut mcp = Mcp::start(&fx.root);
    for (tool, token) in [("pack_context", json!("tok-1")), ("analyze", json!(42))] {
        mcp.notifications.clear();
        let response = mcp.request(
            "tools/call",
            json!({"name": tool, "arguments": {}, "_meta": {"progressToken": token}}),
        );
        assert_eq!(response["result"]["isError"], false, "{response}");
        let values = progress_values(&mcp.notifications, &token);
        assert!(
            values.len() >= 2,
            "{tool}: progress reported: {:?}",
            mcp.notifications
        );
        assert!(
            values.windows(2).all(|w| w[1] > w[0]),
            "{tool}: monotonic: {values:?}"
        );
        for n in &mcp.notifications {
            if let Some(total) = n["params"]["total"].as_f64() {
                assert!(n["params"]["progress"].as_f64().unwrap() <= total);
            }
        }

        // Without a token: nothing.
        mcp.notifications.clear();
        let response = mcp.request("tools/call", json!({"name": tool, "arguments": {}}));
        assert_eq!(response["result"]["isError"], false);
        assert!(
            mcp.notifications.is_empty(),
            "{tool}: {:?}",
            mcp.notifications
        );
        let next = mcp.recv_within(Duration::from_millis(300));
        assert!(next.is_none(), "{tool}: late notification: {next:?}");
    }
    // The other tools never report progress, even with a token.
    mcp.notifications.clear();
    let response = mcp.request(
        "tools/call",
        json!({"name": "get_tree", "arguments": {}, "_meta": {"progressToken": "t"}}),
    );
    assert_eq!(response["result"]["isError"], false);
    assert!(mcp.notifications.is_empty(), "{:?}", mcp.notifications);
}

// ---------------------------------------------------------------------------------------------
// Pack store lifecycle

fn session_dirs(parent: &Path) -> Vec<std::path::PathBuf> {
    match std::fs::read_dir(parent) {
        Ok(entries) => entries
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_dir())
            .collect(),
        Err(_) => Vec::new(),
    }
}

fn count_files(dir: &Path) -> usize {
    std::fs::read_dir(dir).map(|e| e.count()).unwrap_or(0)
}

#[test]
fn session_directory_is_removed_when_stdin_closes() {
    let fx = stored_project();
    let packs = fx.base().join("packs");
    let packs_str = packs.to_str().unwrap().to_string();
    let mut mcp = Mcp::start_with(
        &["--root", &fx.root_str()],
        &[("DEVPROJEX_PACK_DIR", &packs_str)],
    );
    let dirs = session_dirs(&packs);
    assert_eq!(
        dirs.len(),
        1,
        "one session directory under DEVPROJEX_PACK_DIR: {dirs:?}"
    );
    let before = count_files(&dirs[0]);
    let text = first_text(&mcp.call("pack_context", json!({})));
    assert!(stored_pack_id(&text).is_some());
    assert!(
        count_files(&dirs[0]) > before,
        "the stored pack lives in the session directory"
    );
    let status = mcp.close_and_wait(Duration::from_secs(5)).expect("exit");
    assert_eq!(status.code(), Some(0));
    assert!(!dirs[0].exists(), "session directory removed at exit");
}

#[cfg(unix)]
#[test]
fn session_directory_is_removed_on_sigterm() {
    let fx = stored_project();
    let packs = fx.base().join("packs");
    let packs_str = packs.to_str().unwrap().to_string();
    let mut mcp = Mcp::start_with(
        &["--root", &fx.root_str()],
        &[("DEVPROJEX_PACK_DIR", &packs_str)],
    );
    let text = first_text(&mcp.call("pack_context", json!({})));
    assert!(stored_pack_id(&text).is_some());
    let dirs = session_dirs(&packs);
    assert_eq!(dirs.len(), 1);
    unsafe { libc::kill(mcp.child.id() as libc::pid_t, libc::SIGTERM) };
    let status = mcp.wait_exit(Duration::from_secs(5)).expect("exit");
    assert_eq!(status.code(), Some(0));
    assert!(!dirs[0].exists(), "session directory removed at exit");
}

#[test]
fn two_servers_do_not_share_or_remove_each_others_packs() {
    let fx = stored_project();
    let packs = fx.base().join("packs");
    let packs_str = packs.to_str().unwrap().to_string();
    let mut a = Mcp::start_with(
        &["--root", &fx.root_str()],
        &[("DEVPROJEX_PACK_DIR", &packs_str)],
    );
    let mut b = Mcp::start_with(
        &["--root", &fx.root_str()],
        &[("DEVPROJEX_PACK_DIR", &packs_str)],
    );
    let text = first_text(&a.call("pack_context", json!({})));
    let (id, _) = stored_pack_id(&text).unwrap();
    let text = b.call_err("read_pack", json!({"pack_id": id}));
    assert_eq!(
        code_of(&text),
        "DPX-MCP-PACK-EXPIRED",
        "ids are per process: {text}"
    );
    b.close_and_wait(Duration::from_secs(5)).expect("b exits");
    a.call_ok("read_pack", json!({"pack_id": id, "end_line": 2}));
}

#[test]
fn read_pack_cuts_a_range_at_50000_characters_and_continues_exactly() {
    let fx = Fixture::new();
    let row = format!("{}\n", "w".repeat(199));
    fx.write("wide_a.txt", row.repeat(600));
    fx.write("wide_b.txt", row.repeat(600));
    let mut mcp = Mcp::start(&fx.root);
    let text = first_text(&mcp.call("pack_context", json!({"format": "text"})));
    let (id, _) = stored_pack_id(&text).expect("stored");
    let text = mcp.call_ok("read_pack", json!({"pack_id": id}));
    let spot = one_spot(&text);
    let chars = spot.inner.chars().count();
    assert!(chars <= 50_000 && chars > 45_000, "{chars}");
    let shown = spot.inner.lines().count();
    assert!(shown < 1000);
    let trailer = text[spot.end..].trim();
    assert!(
        trailer.starts_with(&format!("[Showing lines 1-{shown} of "))
            && trailer.contains(&format!("start_line={}", shown + 1)),
        "{trailer}"
    );
    let (doc, calls) = read_whole_pack(&mut mcp, &id);
    assert!(calls >= 5, "{calls}");
    assert!(
        doc == cli_pack(&fx.root, &["--format", "text"]),
        "reassembled document differs"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn sessions_of_gone_servers_are_scavenged_but_live_ones_are_kept() {
    use std::os::unix::fs::PermissionsExt;
    use std::time::SystemTime;
    let fx = small_project();
    let packs = fx.base().join("packs");
    let packs_str = packs.to_str().unwrap().to_string();
    let day_ago = SystemTime::now() - Duration::from_secs(25 * 60 * 60);
    let age = |dir: &Path| {
        std::fs::File::open(dir)
            .unwrap()
            .set_modified(day_ago)
            .unwrap();
    };
    // A PID above the Linux maximum (2^22) is never alive.
    let dead_pid = "4194305";
    let stale = packs.join("session-4194305-stale");
    let fresh = packs.join("session-4194305-fresh");
    let foreign = packs.join("not-a-session");
    // A session being set up right now: its owner (this test process) is alive and has not
    // locked the owner file yet.
    let starting = packs.join(format!("session-{}-starting", std::process::id()));
    for dir in [&stale, &fresh, &foreign] {
        common::write_file(&dir.join("owner.pid"), dead_pid);
        common::write_file(&dir.join("pack_x.pack"), "old pack\n");
    }
    common::write_file(&starting.join("owner.pid"), std::process::id().to_string());
    std::fs::set_permissions(&packs, std::fs::Permissions::from_mode(0o700)).unwrap();
    age(&stale);
    age(&foreign);

    // A live server whose directory is old must not lose it to a second server's scavenger.
    let mut live = Mcp::start_with(
        &["--root", &fx.root_str()],
        &[("DEVPROJEX_PACK_DIR", &packs_str)],
    );
    let live_dir = session_dirs(&packs)
        .into_iter()
        .find(|d| {
            std::fs::read_to_string(d.join("owner.pid"))
                .ok()
                .as_deref()
                .map(str::trim)
                == Some(live.child.id().to_string().as_str())
        })
        .expect("the live server's session directory");
    age(&live_dir);
    age(&live_dir.join("owner.pid"));

    let mut second = Mcp::start_with(
        &["--root", &fx.root_str()],
        &[("DEVPROJEX_PACK_DIR", &packs_str)],
    );
    second.call_ok("list_projects", json!({}));
    assert!(
        !stale.exists(),
        "a stale session directory of a dead owner is removed"
    );
    assert!(
        !fresh.exists(),
        "a recent session of a dead owner is removed at once"
    );
    assert!(starting.exists(), "a session being set up is kept");
    assert!(foreign.exists(), "only session directories are touched");
    assert!(
        live_dir.exists(),
        "a live server's directory is never touched"
    );
    live.call_ok("list_projects", json!({}));
}

#[test]
fn a_cancelled_pack_leaves_no_partial_file_in_the_store() {
    let fx = large_project();
    let packs = fx.base().join("packs");
    let packs_str = packs.to_str().unwrap().to_string();
    let mut mcp = Mcp::start_with(
        &["--root", &fx.root_str()],
        &[("DEVPROJEX_PACK_DIR", &packs_str)],
    );
    let dirs = session_dirs(&packs);
    assert_eq!(dirs.len(), 1);
    let session = dirs[0].clone();
    mcp.send(&json!({"jsonrpc": "2.0", "id": 900, "method": "tools/call",
        "params": {"name": "pack_context", "arguments": {"format": "json"}}}));
    mcp.notify(
        "notifications/cancelled",
        json!({"requestId": 900, "reason": "test"}),
    );
    // The server keeps serving other requests.
    let listed = mcp.request(
        "tools/call",
        json!({"name": "list_projects", "arguments": {}}),
    );
    let mut answered_900 = listed["id"] == json!(900);
    assert!(listed["result"]["isError"] == false || answered_900);
    // Wait (guarded) until no temporary file is left in the session directory.
    let is_temp =
        |name: &str| name != "owner.pid" && !(name.starts_with("pack_") && name.ends_with(".pack"));
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let names: Vec<String> = std::fs::read_dir(&session)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        if !names.iter().any(|n| is_temp(n)) {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "partial files left: {names:?}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    while let Some(message) = mcp.recv_within(Duration::from_millis(300)) {
        answered_900 |= message["id"] == json!(900);
    }
    let stored = std::fs::read_dir(&session)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".pack")
        })
        .count();
    assert!(
        stored == 0 || answered_900,
        "a cancelled pack left {stored} stored file(s)"
    );
}

#[test]
fn the_inline_threshold_is_the_pack_itself_and_stored_responses_stay_within_50000() {
    let fx = Fixture::new();
    fx.write("a.txt", "\n");
    let base = cli_pack(&fx.root, &[]).chars().count() - 1;
    let mut mcp = Mcp::start(&fx.root);
    let mut saw_inline = false;
    let mut saw_stored = false;
    // Every line stays under 50,000 characters (see the long-line bug test above).
    for target in [
        48_000usize,
        49_700,
        49_800,
        49_900,
        49_950,
        49_999,
        50_000,
        50_001,
        50_050,
    ] {
        let n = target - base;
        fx.write("a.txt", format!("{}\n", "x".repeat(n - 1)));
        let cli = cli_pack(&fx.root, &[]);
        assert_eq!(cli.chars().count(), target, "fixture sizing");
        let result = mcp.call("pack_context", json!({}));
        assert_eq!(result["isError"], false);
        let texts = all_texts(&result);
        let total: usize = texts.iter().map(|t| t.chars().count()).sum();
        // The spec: the limit applies to the useful payload; a stored response is bounded
        // whole, wrapper and preview included.
        assert_eq!(
            stored_pack_id(&texts[0]).is_some(),
            target > 50_000,
            "document of {target} characters"
        );
        match stored_pack_id(&texts[0]) {
            Some((id, chars)) => {
                saw_stored = true;
                assert!(
                    total <= 50_000,
                    "document of {target} characters: stored response of {total}"
                );
                assert_eq!(chars as usize, target);
                let doc = read_whole_pack(&mut mcp, &id).0;
                assert!(
                    doc == cli,
                    "target {target}: read back {} bytes, CLI {}",
                    doc.len(),
                    cli.len()
                );
            }
            None => {
                saw_inline = true;
                assert_eq!(
                    one_spot(&texts[0]).inner,
                    cli,
                    "inline means the whole document"
                );
            }
        }
    }
    assert!(saw_inline && saw_stored);
}

#[test]
fn repeated_detail_packs_follow_every_edit_and_match_the_cli() {
    // The server keeps transform results across calls; an edited file must never be answered
    // from what its old text transformed into, whether its size changes or not.
    let fx = Fixture::new();
    fx.write(
        "src/lib.rs",
        "/// Adds one.\npub fn add_one(x: u32) -> u32 {\n    // plain comment\n    x + 1\n}\n",
    )
    .write(
        "src/util.py",
        "def helper(a):\n    # note\n    return a * 2\n",
    );
    let mut mcp = Mcp::start(&fx.root);
    for detail in ["signatures", "compact"] {
        let args = json!({ "detail": detail });
        let (first, _) = pack_document(&mut mcp, args.clone());
        let (second, _) = pack_document(&mut mcp, args.clone());
        assert_eq!(first, second, "{detail}: the same project packs the same");
        assert_eq!(first, cli_pack(&fx.root, &["--detail", detail]), "{detail}");
        assert!(!first.contains("plain comment"), "{detail}: {first}");
    }
    // same length, other name: only the content tells the two texts apart
    fx.write(
        "src/lib.rs",
        "/// Adds one.\npub fn add_two(x: u32) -> u32 {\n    // plain comment\n    x + 1\n}\n",
    );
    let (edited, _) = pack_document(&mut mcp, json!({ "detail": "signatures" }));
    assert!(edited.contains("pub fn add_two(x: u32) -> u32"), "{edited}");
    assert!(!edited.contains("add_one"), "{edited}");
    assert_eq!(edited, cli_pack(&fx.root, &["--detail", "signatures"]));
    // a longer body
    fx.write(
        "src/util.py",
        "def helper(a, b):\n    # note\n    return a * b\n",
    );
    let (edited, _) = pack_document(&mut mcp, json!({ "detail": "compact" }));
    assert!(edited.contains("def helper(a, b):"), "{edited}");
    assert!(edited.contains("return a * b"), "{edited}");
    assert_eq!(edited, cli_pack(&fx.root, &["--detail", "compact"]));
}

#[test]
fn detail_overrides_keep_key_files_full_in_a_reduced_pack() {
    let fx = Fixture::new();
    let source = "// why this matters\nfn body() {\n    let inner_marker = 1;\n}\n";
    fx.write("src/key.rs", source).write("src/other.rs", source);
    let mut mcp = Mcp::start(&fx.root);
    let pack = |mcp: &mut Mcp, args: Value| all_texts(&mcp.call("pack_context", args)).join("\n");
    let args = json!({"detail": "signatures", "detail_overrides": {"src/key*": "full"}});
    let mixed = pack(&mut mcp, args);
    let section = |name: &str| {
        let start = mixed.find(&format!("### {name}")).unwrap();
        mixed[start..].split("\n### ").next().unwrap().to_string()
    };
    assert!(section("src/key.rs").contains("inner_marker"), "{mixed}");
    assert!(
        section("src/key.rs").contains("why this matters"),
        "{mixed}"
    );
    assert!(!section("src/other.rs").contains("inner_marker"), "{mixed}");
    // The same from the command line; without overrides nothing changes.
    let cli = cli_pack(
        &fx.root,
        &[
            "--detail",
            "signatures",
            "--detail-override",
            "src/key*=full",
        ],
    );
    assert_eq!(cli.matches("inner_marker").count(), 1, "{cli}");
    let plain = pack(&mut mcp, json!({"detail": "signatures"}));
    assert!(!plain.contains("inner_marker"), "{plain}");
    // Bad details and globs name what is valid.
    for (bad, valid) in [
        (json!({"a": "tiny"}), "full, compact, signatures"),
        (json!({"[": "full"}), "globs with"),
        (json!(["full"]), "must be an object"),
    ] {
        let err = mcp.call_err("pack_context", json!({"detail_overrides": bad}));
        assert_eq!(code_of(&err), "DPX-MCP-INVALID-ARGUMENTS", "{err}");
        assert!(err.contains(valid), "{err}");
    }
}

/// `rank: "paths"` (issue 40 item 4): the pack takes its files in the order `paths` lists them,
/// so the agent's priority wins the budget; without it the spec's path order stays.
#[test]
fn rank_paths_keeps_the_agents_order_of_paths() {
    let fx = Fixture::new();
    fx.write("a.rs", "fn a() {}\n".repeat(20))
        .write("b/x.rs", "fn x() {}\n")
        .write("b/y.rs", "fn y() {}\n")
        .write("c.rs", "fn c() {}\n".repeat(20));
    let mut mcp = Mcp::start(&fx.root);
    let headings = |doc: &str| -> Vec<String> {
        doc.lines()
            .filter_map(|l| l.strip_prefix("### "))
            .map(str::to_string)
            .collect()
    };
    let paths = json!(["c.rs", "b", "a.rs"]);
    let (ordered, _) = pack_document(
        &mut mcp,
        json!({"paths": paths, "rank": "paths", "view": "content"}),
    );
    assert_eq!(headings(&ordered), ["c.rs", "b/x.rs", "b/y.rs", "a.rs"]);
    // default: the deterministic selection order of the spec (folders first)
    let (default, _) = pack_document(&mut mcp, json!({"paths": paths, "view": "content"}));
    assert_eq!(headings(&default), ["b/x.rs", "b/y.rs", "a.rs", "c.rs"]);
    // a budget for one large file: the first listed wins it
    // (estimated: c.rs is 50 tokens; exact: about 100, and the budget covers the headings too)
    for extra in [
        json!({"max_tokens": 60}),
        json!({"max_tokens": 160, "tokenizer": "o200k"}),
    ] {
        let mut args = json!({"paths": paths, "rank": "paths", "view": "content"});
        args.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        let (budgeted, _) = pack_document(&mut mcp, args.clone());
        let included = headings(&budgeted);
        assert_eq!(
            included.first().map(String::as_str),
            Some("c.rs"),
            "{args}: {budgeted}"
        );
        assert!(
            !included.contains(&"a.rs".to_string()),
            "{args}: {budgeted}"
        );
    }
    // the CLI twin
    let cli = cli_pack(
        &fx.root,
        &[
            "--view", "content", "--rank", "paths", "--paths", "c.rs", "b", "a.rs",
        ],
    );
    assert_eq!(headings(&cli), ["c.rs", "b/x.rs", "b/y.rs", "a.rs"]);
    // what does not go with it says so
    for (args, expected) in [
        (json!({"rank": "paths"}), "pass paths"),
        (
            json!({"rank": "paths", "paths": ["a.rs"], "query": "a"}),
            "drop query",
        ),
    ] {
        let text = mcp.call_err("pack_context", args.clone());
        assert!(text.contains(expected), "{args}: {text}");
    }
}

/// A stored default pack whose preview is its whole tree says where its files start, so the
/// agent does not read the tree twice (issue 40 item 4: fewer calls for large packs).
#[test]
fn a_stored_pack_whose_preview_is_its_whole_tree_says_where_the_files_start() {
    let fx = stored_project();
    let mut mcp = Mcp::start(&fx.root);
    let text = first_text(&mcp.call("pack_context", json!({})));
    let (id, _) = stored_pack_id(&text).unwrap();
    let trailer = &text[one_spot(&text).end..];
    let line: u64 = trailer
        .split("call read_pack with start_line=")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .and_then(|n| n.trim_end_matches('.').parse().ok())
        .unwrap_or_else(|| panic!("no start line in: {trailer}"));
    let from_there = one_spot(&first_text(&mcp.call(
        "read_pack",
        json!({"pack_id": id, "start_line": line, "end_line": line + 3}),
    )))
    .inner;
    assert!(from_there.starts_with("## Files\n"), "{from_there}");
    // everything before that line is the heading and the tree the preview showed
    let head = one_spot(&first_text(&mcp.call(
        "read_pack",
        json!({"pack_id": id, "start_line": 1, "end_line": line - 1}),
    )))
    .inner;
    let preview = one_spot(&text).inner;
    assert!(head.contains(preview.trim_end()), "{head}");
    // other formats and views keep the plain answer
    let json_pack = first_text(&mcp.call("pack_context", json!({"format": "json"})));
    assert!(!json_pack.contains("files start at line"), "{json_pack}");
}
