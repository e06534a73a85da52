//! Integration tests of the `devprojex` command line: real fixture projects in temp dirs, the
//! built binary driven through assert_cmd.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

use crate::common::{
    self, Fixture, markdown_code_blocks, markdown_events, markdown_headings, parse_xml,
};
use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;
#[cfg(unix)]
use serde_json::json;

const GUARD: Duration = Duration::from_secs(60);

/// `devprojex` with an isolated config dir, run in `cwd`, no stdin.
fn dpx(cwd: &Path) -> Command {
    let mut cmd = Command::cargo_bin("devprojex").unwrap();
    cmd.current_dir(cwd)
        .env(
            "DEVPROJEX_CONFIG_DIR",
            cwd.parent().unwrap_or(cwd).join("config"),
        )
        .env_remove("DEVPROJEX_ROOT")
        .env_remove("CLAUDE_PROJECT_DIR")
        .timeout(GUARD)
        .write_stdin("");
    cmd
}

/// Run and return (exit code, stdout, stderr).
fn run(cwd: &Path, args: &[&str]) -> (i32, String, String) {
    let out = dpx(cwd).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn ok_stdout(cwd: &Path, args: &[&str]) -> String {
    let (code, out, err) = run(cwd, args);
    assert_eq!(code, 0, "devprojex {args:?} failed: {err}");
    out
}

/// Paths of a JSON tree.
fn json_tree_paths(out: &str) -> BTreeSet<String> {
    let v: Value = serde_json::from_str(out).unwrap_or_else(|e| panic!("bad JSON ({e}): {out}"));
    v["entries"]
        .as_array()
        .expect("entries array")
        .iter()
        .map(|e| e["path"].as_str().unwrap().to_string())
        .collect()
}

fn tree_paths(root: &Path, extra: &[&str]) -> BTreeSet<String> {
    let mut args = vec!["tree", ".", "--format", "json"];
    args.extend_from_slice(extra);
    json_tree_paths(&ok_stdout(root, &args))
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

// ---------------------------------------------------------------------------------------------
// Help and version

#[test]
fn help_and_version() {
    let fx = Fixture::new();
    dpx(&fx.root)
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("Usage: devprojex"))
        .stdout(predicate::str::contains("Examples:"))
        .stdout(predicate::str::contains("mcp"));
    dpx(&fx.root)
        .arg("--version")
        .assert()
        .success()
        .stdout(format!("devprojex {}\n", env!("CARGO_PKG_VERSION")));
    // No subcommand is a usage error.
    dpx(&fx.root).assert().code(2);
    dpx(&fx.root).arg("frobnicate").assert().code(2);
}

#[test]
fn every_subcommand_help_has_examples() {
    let fx = Fixture::new();
    let commands: &[&[&str]] = &[
        &["tree"],
        &["analyze"],
        &["pack"],
        &["search"],
        &["scan"],
        &["mcp"],
        &["completion"],
        &["setup"],
        &["doctor"],
        &["profile", "show"],
        &["profile", "save"],
        &["profile", "export"],
        &["profile", "import"],
        &["profile", "validate"],
        &["profile", "reset"],
    ];
    for command in commands {
        let out = dpx(&fx.root).args(*command).arg("--help").output().unwrap();
        assert!(out.status.success(), "{command:?} --help failed");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.contains("Example"),
            "{command:?} --help mentions no example:\n{text}"
        );
        assert!(
            text.contains("devprojex "),
            "{command:?} example shows no command line"
        );
    }
}

#[test]

fn grouped_and_nested_subcommand_help_has_examples() {
    let fx = Fixture::new();
    for command in [&["profile"][..], &["setup", "status"][..]] {
        let out = dpx(&fx.root).args(command).arg("--help").output().unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.contains("Example"),
            "{command:?} --help mentions no example:\n{text}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Tree snapshots

fn snapshot_fixture() -> Fixture {
    let fx = Fixture::new();
    fx.write("Cargo.toml", "[package]\nname = \"demo\"\n")
        .write("README.md", "# Demo\n")
        .write("src/main.rs", "fn main() {\n    println!(\"hi\");\n}\n")
        .write("src/util/mod.rs", "pub fn util() {}\n")
        .write("docs/guide.md", "Guide\n")
        .write("assets/logo.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR")
        .write(".gitignore", "*.log\n")
        .write("debug.log", "ignored\n")
        .write("target/debug/demo", "build output\n")
        .write(".DS_Store", "litter")
        .write(".git/HEAD", "ref: refs/heads/main\n");
    fx
}

/// The output with the temp folder masked; the root reads `[TMP]/proj` on every OS (JSON writes
/// each `\` of a Windows path as `\\`).
fn filtered(fx: &Fixture, text: &str) -> String {
    let root = fx.root_str();
    let masked_root = format!("[TMP]/{}", fx.root.file_name().unwrap().to_str().unwrap());
    let json_root = serde_json::to_string(&root).unwrap();
    text.replace(json_root.trim_matches('"'), &masked_root)
        .replace(&root, &masked_root)
        .replace(fx.base().to_str().unwrap(), "[TMP]")
}

/// Whether the file system here can hold a file of this name: Windows refuses `< > : " | ? *`
/// and reads `\\` as a separator.
fn name_is_possible_here(name: &str) -> bool {
    !cfg!(windows) || !name.contains(['<', '>', ':', '"', '|', '?', '*', '\\'])
}

#[test]
fn tree_snapshot_markdown() {
    let fx = snapshot_fixture();
    let out = ok_stdout(&fx.root, &["tree", "."]);
    let explicit = ok_stdout(&fx.root, &["tree", ".", "--format", "markdown"]);
    assert_eq!(out, explicit, "markdown is the default format");
    // The Root line escapes the (random) temp path; check it literally, then mask it.
    let first = out.lines().next().unwrap();
    let root_text: String = markdown_events(first)
        .into_iter()
        .filter_map(|e| match e {
            pulldown_cmark::Event::Text(t) => Some(t.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(root_text, format!("Root: {}", fx.root_str()));
    let masked = out.replacen(first, "Root: [ROOT]", 1);
    insta::assert_snapshot!("tree_markdown", masked);
}

#[test]
fn tree_snapshot_text() {
    let fx = snapshot_fixture();
    let out = ok_stdout(&fx.root, &["tree", ".", "--format", "text"]);
    insta::assert_snapshot!("tree_text", filtered(&fx, &out));
}

#[test]
fn tree_snapshot_json() {
    let fx = snapshot_fixture();
    let out = ok_stdout(&fx.root, &["tree", ".", "--format", "json"]);
    let _: Value = serde_json::from_str(&out).expect("valid JSON");
    insta::assert_snapshot!("tree_json", filtered(&fx, &out));
}

#[test]
fn tree_snapshot_xml() {
    let fx = snapshot_fixture();
    let out = ok_stdout(&fx.root, &["tree", ".", "--format", "xml"]);
    parse_xml(&out);
    insta::assert_snapshot!("tree_xml", filtered(&fx, &out));
}

#[test]
fn text_tree_names_the_root_once_without_a_synthetic_node() {
    let fx = snapshot_fixture();
    let out = ok_stdout(&fx.root, &["tree", ".", "--format", "text"]);
    let first = out.lines().next().unwrap();
    assert_eq!(first, fx.root_str());
    assert_eq!(
        out.matches("proj").count(),
        1,
        "project name appears once: {out}"
    );
    assert!(
        out.lines().nth(1).unwrap().starts_with("├── ")
            || out.lines().nth(1).unwrap().starts_with("└── ")
    );
}

#[test]
fn tree_max_depth() {
    let fx = snapshot_fixture();
    let paths = tree_paths(&fx.root, &["--max-depth", "1"]);
    assert!(paths.contains("src"));
    assert!(paths.contains("Cargo.toml"));
    assert!(!paths.contains("src/main.rs"), "{paths:?}");
    let paths = tree_paths(&fx.root, &["--max-depth", "2"]);
    assert!(paths.contains("src/main.rs"));
    assert!(!paths.contains("src/util/mod.rs"), "{paths:?}");
}

// ---------------------------------------------------------------------------------------------
// Smart ignore and product exclusions

#[test]
fn rust_target_hidden_only_under_cargo_toml() {
    let fx = Fixture::new();
    fx.write("Cargo.toml", "[package]\n")
        .write("target/debug/app", "bin")
        .write("src/lib.rs", "");
    let paths = tree_paths(&fx.root, &[]);
    assert!(!paths.iter().any(|p| p.starts_with("target")), "{paths:?}");
    assert!(paths.contains("src/lib.rs"));

    let fx = Fixture::new();
    fx.write(
        "target/notes.txt",
        "a folder named target holding real files",
    )
    .write("main.py", "");
    let paths = tree_paths(&fx.root, &[]);
    assert!(paths.contains("target/notes.txt"), "{paths:?}");
}

#[test]
fn node_modules_hidden_only_under_package_json() {
    let fx = Fixture::new();
    fx.write("package.json", "{}")
        .write("node_modules/left-pad/index.js", "x")
        .write("index.js", "")
        .write("tools/node_modules/dep.js", "x");
    let paths = tree_paths(&fx.root, &[]);
    assert!(!paths.contains("node_modules"), "{paths:?}");
    assert!(!paths.contains("node_modules/left-pad/index.js"));
    assert!(paths.contains("index.js"));
    // `tools` has no package.json of its own: its node_modules is not a dependency folder.
    assert!(paths.contains("tools/node_modules/dep.js"), "{paths:?}");
}

#[test]
fn vcs_folder_and_os_litter_hidden() {
    let fx = Fixture::new();
    fx.write(".git/HEAD", "ref")
        .write(".git/config", "[core]")
        .write(".DS_Store", "x")
        .write("sub/.DS_Store", "x")
        .write("sub/Thumbs.db", "x")
        .write("sub/a.txt", "a")
        .write(".hidden-but-kept", "x");
    let paths = tree_paths(&fx.root, &[]);
    assert_eq!(paths, set(&["sub", "sub/a.txt", ".hidden-but-kept"]));
    // Also in every other format.
    for format in ["markdown", "text", "xml"] {
        let out = ok_stdout(&fx.root, &["tree", ".", "--format", format]);
        assert!(!out.contains(".git"), "{format}: {out}");
        assert!(!out.contains("DS_Store"), "{format}: {out}");
    }
    // And never in a pack.
    let out = ok_stdout(&fx.root, &["pack", ".", "--format", "json"]);
    assert!(!out.contains(".git/"), "{out}");
    assert!(!out.contains("DS_Store"));
}

#[test]
fn gitignore_honoured_including_nested_in_gitignore_mode_only() {
    let fx = Fixture::new();
    fx.write(".gitignore", "*.log\n/build-out/\n")
        .write("app.log", "x")
        .write("keep.txt", "x")
        .write("build-out/x.txt", "x")
        .write("sub/.gitignore", "secret*\n")
        .write("sub/secret1.txt", "x")
        .write("sub/deep/secret2.txt", "x")
        .write("sub/deep/visible.txt", "x")
        .write("other/secret3.txt", "x");
    for extra in [&[][..], &["--git-mode", "gitignore"][..]] {
        let paths = tree_paths(&fx.root, extra);
        for hidden in [
            "app.log",
            "build-out/x.txt",
            "sub/secret1.txt",
            "sub/deep/secret2.txt",
        ] {
            assert!(
                !paths.contains(hidden),
                "{hidden} listed with {extra:?}: {paths:?}"
            );
        }
        for shown in [
            "keep.txt",
            "sub/deep/visible.txt",
            "other/secret3.txt",
            ".gitignore",
            "sub/.gitignore",
        ] {
            assert!(
                paths.contains(shown),
                "{shown} missing with {extra:?}: {paths:?}"
            );
        }
    }
    for mode in ["none", "off"] {
        let paths = tree_paths(&fx.root, &["--git-mode", mode]);
        for shown in [
            "app.log",
            "build-out/x.txt",
            "sub/secret1.txt",
            "sub/deep/secret2.txt",
        ] {
            assert!(
                paths.contains(shown),
                "{shown} missing with --git-mode {mode}: {paths:?}"
            );
        }
    }
    // Pack and search follow the same selection.
    let pack = ok_stdout(&fx.root, &["pack", ".", "--format", "json"]);
    assert!(!pack.contains("secret1.txt"));
    let (code, out, _) = run(&fx.root, &["search", "x", "."]);
    assert_eq!(code, 0);
    assert!(!out.contains("app.log"), "{out}");
}

#[test]
fn include_and_exclude_globs_only_narrow() {
    let fx = Fixture::new();
    fx.write("Cargo.toml", "[package]\n")
        .write(".gitignore", "ignored.txt\n")
        .write("ignored.txt", "x")
        .write("target/out.rs", "x")
        .write("src/a.rs", "x")
        .write("src/b.txt", "x")
        .write("tests/t.rs", "x")
        .write(".git/HEAD", "x");
    let paths = tree_paths(&fx.root, &["--include-patterns", "**/*.rs"]);
    assert!(
        paths.contains("src/a.rs") && paths.contains("tests/t.rs"),
        "{paths:?}"
    );
    assert!(!paths.contains("src/b.txt") && !paths.contains("Cargo.toml"));
    assert!(
        !paths.contains("target/out.rs"),
        "include cannot re-include smart-ignored files"
    );

    let paths = tree_paths(
        &fx.root,
        &[
            "--include-patterns",
            "**/*.rs",
            "--exclude-patterns",
            "tests/**",
        ],
    );
    assert!(paths.contains("src/a.rs"));
    assert!(!paths.contains("tests/t.rs"), "{paths:?}");

    // Ignored files cannot be brought back by any include glob.
    for pattern in ["ignored.txt", "target/**", ".git/**", "**"] {
        let paths = tree_paths(&fx.root, &["--include-patterns", pattern]);
        assert!(!paths.contains("ignored.txt"), "{pattern}: {paths:?}");
        assert!(!paths.contains("target/out.rs"), "{pattern}: {paths:?}");
        assert!(
            !paths.iter().any(|p| p == ".git" || p.starts_with(".git/")),
            "{pattern}: {paths:?}"
        );
    }
    // An exclude of everything leaves an empty but valid tree.
    let paths = tree_paths(&fx.root, &["--exclude-patterns", "**"]);
    assert!(!paths.iter().any(|p| p.ends_with(".rs")), "{paths:?}");
}

#[test]
fn max_file_bytes_keeps_a_file_exactly_at_the_limit() {
    let fx = Fixture::new();
    fx.write("four.txt", "1234")
        .write("five.txt", "12345")
        .write("six.txt", "123456");
    let paths = tree_paths(&fx.root, &["--max-file-bytes", "5"]);
    assert_eq!(paths, set(&["four.txt", "five.txt"]));
    let pack = ok_stdout(
        &fx.root,
        &["pack", ".", "--format", "json", "--max-file-bytes", "5"],
    );
    assert!(pack.contains("five.txt") && !pack.contains("six.txt"));
    let analyze: Value = serde_json::from_str(&ok_stdout(
        &fx.root,
        &["analyze", ".", "--format", "json", "--max-file-bytes", "5"],
    ))
    .unwrap();
    assert_eq!(analyze["files"], 2);
    // Zero is not a positive byte count.
    let (code, _, _) = run(&fx.root, &["tree", ".", "--max-file-bytes", "0"]);
    assert_ne!(code, 0);
}

#[test]
fn max_lines_truncates_text_and_markdown_and_refuses_json_and_xml() {
    let fx = Fixture::new();
    for i in 0..10 {
        fx.write(&format!("f{i}.txt"), "x");
    }
    // The limit counts every line of the document: markdown spends two on `Root:` and a blank
    // line, text one on the project address.
    for (format, expected_entries) in [("markdown", 1), ("text", 2)] {
        let out = ok_stdout(
            &fx.root,
            &["tree", ".", "--format", format, "--max-lines", "3"],
        );
        let last = out.trim_end().lines().last().unwrap();
        assert!(last.starts_with("[Tree truncated"), "{format}: {out}");
        assert!(last.ends_with(']'));
        let entries = out
            .lines()
            .filter(|l| l.contains("f") && l.contains(".txt") && !l.starts_with('['))
            .count();
        assert_eq!(entries, expected_entries, "{format}: {out}");
    }
    for format in ["json", "xml"] {
        let (code, out, err) = run(
            &fx.root,
            &["tree", ".", "--format", format, "--max-lines", "3"],
        );
        assert_eq!(code, 1, "{format}");
        assert!(out.is_empty(), "{format}: never a partial document: {out}");
        assert!(err.contains("DPX-MCP-PAYLOAD-TRUNCATED"), "{format}: {err}");
    }
    // At the limit nothing is cut: 10 entries plus the address line; JSON adds two frame lines.
    let out = ok_stdout(
        &fx.root,
        &["tree", ".", "--format", "text", "--max-lines", "11"],
    );
    assert!(!out.contains("[Tree truncated"), "{out}");
    let (code, _, _) = run(
        &fx.root,
        &["tree", ".", "--format", "text", "--max-lines", "10"],
    );
    assert_eq!(code, 0);
    let out = ok_stdout(
        &fx.root,
        &["tree", ".", "--format", "json", "--max-lines", "12"],
    );
    assert_eq!(json_tree_paths(&out).len(), 10);
}

// ---------------------------------------------------------------------------------------------
// Escaping

/// Markdown-active characters in a file name (on Windows without the ones it refuses in names).
const HOSTILE_NAME: &str = if cfg!(windows) {
    "_[x](y)_&amp;"
} else {
    "*[x](y)<b>&amp;"
};

/// Text of each list item of a markdown document.
fn markdown_item_texts(doc: &str) -> Vec<String> {
    use pulldown_cmark::{Event, Tag, TagEnd};
    let mut stack: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for event in pulldown_cmark::Parser::new(doc) {
        match event {
            Event::Start(Tag::Item) => stack.push(String::new()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(last) = stack.last_mut() {
                    last.push_str(&t)
                }
            }
            Event::End(TagEnd::Item) => out.push(stack.pop().unwrap()),
            _ => {}
        }
    }
    out
}

fn assert_no_active_markdown(doc: &str) {
    use pulldown_cmark::{Event, Tag};
    for event in markdown_events(doc) {
        match event {
            Event::Start(Tag::Link { .. })
            | Event::Start(Tag::Image { .. })
            | Event::Start(Tag::Emphasis)
            | Event::Start(Tag::Strong)
            | Event::Html(_)
            | Event::InlineHtml(_) => panic!("active markdown {event:?} in:\n{doc}"),
            _ => {}
        }
    }
}

#[test]
fn markdown_tree_escapes_names() {
    let fx = Fixture::new();
    fx.write(HOSTILE_NAME, "x")
        .write("plain.txt", "x")
        .write("_u_/`t`", "x");
    let out = ok_stdout(&fx.root, &["tree", ".", "--format", "markdown"]);
    assert_no_active_markdown(&out);
    let items = markdown_item_texts(&out);
    assert!(items.iter().any(|t| t == HOSTILE_NAME), "{items:?}\n{out}");
    assert!(items.iter().any(|t| t == "`t`"), "{items:?}");
}

#[test]
fn markdown_pack_headings_and_root_line_escape_names() {
    let fx = Fixture::named(if cfg!(windows) { "_r_[i]" } else { "*r*<i>" });
    fx.write(HOSTILE_NAME, "content\n");
    let out = ok_stdout(&fx.root, &["pack", ".", "--format", "markdown"]);
    assert_no_active_markdown(&out);
    let headings = markdown_headings(&out);
    assert!(
        headings.iter().any(|(_, h)| h == HOSTILE_NAME),
        "{headings:?}\n{out}"
    );
    let out = ok_stdout(
        &fx.root,
        &["pack", ".", "--view", "content", "--format", "markdown"],
    );
    assert_no_active_markdown(&out);
    assert!(headings_contain(&out, HOSTILE_NAME), "{out}");
    // The Root line names the real folder literally.
    let paragraph_text: String = markdown_events(&out)
        .into_iter()
        .filter_map(|e| match e {
            pulldown_cmark::Event::Text(t) => Some(t.to_string()),
            _ => None,
        })
        .collect();
    assert!(
        paragraph_text.contains(&format!("Root: {}", fx.root_str())),
        "{paragraph_text}\n{out}"
    );
}

fn headings_contain(doc: &str, text: &str) -> bool {
    markdown_headings(doc).iter().any(|(_, h)| h == text)
}

#[cfg(unix)]
#[test]
fn json_and_xml_trees_escape_any_name() {
    use std::os::unix::ffi::OsStrExt;
    let fx = Fixture::new();
    let names = [
        "new\nline",
        "q\"uote",
        "back\\slash",
        "ctl\u{1}\u{1f}x",
        "tab\tname",
        "<tag>&amp;",
        "apos'",
        "uni\u{e9}\u{1f600}",
    ];
    for name in names {
        fx.write(name, "x");
    }
    // An invalid UTF-8 name.
    let raw = std::ffi::OsStr::from_bytes(b"bad\xff\xfename");
    std::fs::write(fx.root.join(raw), "x").unwrap();

    let out = ok_stdout(&fx.root, &["tree", ".", "--format", "json"]);
    let paths = json_tree_paths(&out);
    assert_eq!(paths.len(), names.len() + 1, "{paths:?}");
    for name in names {
        assert!(paths.contains(name), "JSON lost {name:?}: {paths:?}");
    }
    assert!(
        paths
            .iter()
            .any(|p| p.starts_with("bad") && p.ends_with("name"))
    );

    let out = ok_stdout(&fx.root, &["tree", ".", "--format", "xml"]);
    let elems = parse_xml(&out);
    let xml_paths: BTreeSet<String> = elems
        .iter()
        .filter(|e| e.name == "file")
        .map(|e| e.attrs["path"].clone())
        .collect();
    assert_eq!(xml_paths.len(), names.len() + 1, "{xml_paths:?}");
    for name in names.iter().filter(|n| !n.contains('\u{1}')) {
        assert!(
            xml_paths.contains(*name),
            "XML lost {name:?}: {xml_paths:?}"
        );
    }

    // Pack documents too.
    for view in ["tree-content", "content", "tree"] {
        let out = ok_stdout(&fx.root, &["pack", ".", "--view", view, "--format", "json"]);
        let _: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{view}: {e}"));
        let out = ok_stdout(&fx.root, &["pack", ".", "--view", view, "--format", "xml"]);
        parse_xml(&out);
    }
}

// ---------------------------------------------------------------------------------------------
// Packs

fn pack_fixture() -> (Fixture, Vec<(&'static str, String)>) {
    let fx = Fixture::new();
    let files: Vec<(&'static str, String)> = vec![
        (
            "src/main.rs",
            "fn main() {\n    let s = \"<&>\";\n}\n".to_string(),
        ),
        (
            "docs/fences.md",
            "Intro\n```\ncode\n```\n````rust\nmore ``` inside\n````\n~~~\n".to_string(),
        ),
        (
            "data/cdata.xml",
            "<a><![CDATA[ x ]]> y ]]> &amp; \"q\" 'a'</a>\n".to_string(),
        ),
        (
            "data/json.txt",
            "{\"k\": \"v\\n\"}\t\\u0000 \u{2028}\u{e9}\n".to_string(),
        ),
        ("notes.txt", "line one\n\n  indented\nlast\n".to_string()),
    ];
    for (path, content) in &files {
        fx.write(path, content);
    }
    fx.write("bin/blob.dat", b"BINARYMARK\0\x01\x02\xff");
    (fx, files)
}

#[test]
fn pack_every_view_and_format_parses_back() {
    let (fx, files) = pack_fixture();
    for view in ["tree-content", "content", "tree"] {
        let with_content = view != "tree";
        let with_tree = view != "content";

        // JSON
        let out = ok_stdout(&fx.root, &["pack", ".", "--view", view, "--format", "json"]);
        let v: Value =
            serde_json::from_str(&out).unwrap_or_else(|e| panic!("{view} json: {e}\n{out}"));
        assert_eq!(v["root"], fx.root_str());
        assert!(v.get("metrics").is_some(), "{view}: metrics");
        assert_eq!(v.get("tree").is_some(), with_tree, "{view}: tree presence");
        if with_content {
            let got: Vec<(String, String)> = v["files"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| {
                    (
                        f["path"].as_str().unwrap().into(),
                        f["content"].as_str().unwrap().into(),
                    )
                })
                .collect();
            for (path, content) in &files {
                assert!(
                    got.iter().any(|(p, c)| p == path && c == content),
                    "{view} json: {path} content differs: {got:?}"
                );
            }
            assert_eq!(got.len(), files.len(), "binary never in files: {got:?}");
        } else {
            assert!(v.get("files").is_none() || v["files"].as_array().unwrap().is_empty());
        }

        // XML
        let out = ok_stdout(&fx.root, &["pack", ".", "--view", view, "--format", "xml"]);
        let elems = parse_xml(&out);
        assert_eq!(elems[0].name, "pack");
        assert_eq!(elems[0].attrs["root"], fx.root_str());
        if with_content {
            let in_files: Vec<&common::XmlElem> = elems
                .iter()
                .filter(|e| e.name == "file" && e.attrs.contains_key("characters"))
                .collect();
            for (path, content) in &files {
                assert!(
                    in_files
                        .iter()
                        .any(|e| &e.attrs["path"] == path && &e.text == content),
                    "{view} xml: {path} content differs: {in_files:?}"
                );
            }
        }
        assert!(
            !out.contains("BINARYMARK"),
            "binary content never in a pack"
        );

        // Markdown
        let out = ok_stdout(
            &fx.root,
            &["pack", ".", "--view", view, "--format", "markdown"],
        );
        let blocks = markdown_code_blocks(&out);
        if with_content {
            for (path, content) in &files {
                assert!(
                    blocks.iter().any(|(_, c)| c == content),
                    "{view} markdown: code block for {path} differs:\n{out}"
                );
                assert!(
                    headings_contain(&out, path),
                    "{view}: heading for {path}:\n{out}"
                );
            }
            let rust = blocks
                .iter()
                .find(|(_, c)| c.starts_with("fn main"))
                .unwrap();
            assert_eq!(rust.0, "rust", "language tag from the extension");
        } else {
            assert!(blocks.is_empty(), "tree view has no code blocks:\n{out}");
        }
        assert!(!out.contains("BINARYMARK"));

        // Text
        let out = ok_stdout(&fx.root, &["pack", ".", "--view", view, "--format", "text"]);
        if with_content {
            for (path, content) in &files {
                assert!(out.contains(content.as_str()), "{view} text: {path}");
                assert!(out.contains(path), "{view} text: heading {path}");
            }
        }
        if view == "content" {
            let root_lines = out.lines().filter(|l| l.starts_with("Root: ")).count();
            assert_eq!(root_lines, 1, "content view writes one Root line:\n{out}");
        }
        assert!(!out.contains("BINARYMARK"));
    }
}

#[test]
fn pack_is_deterministic_and_default_is_tree_content_markdown() {
    let (fx, _) = pack_fixture();
    let a = ok_stdout(&fx.root, &["pack", "."]);
    let b = ok_stdout(
        &fx.root,
        &[
            "pack",
            ".",
            "--view",
            "tree-content",
            "--format",
            "markdown",
        ],
    );
    assert_eq!(a, b);
}

fn budget_fixture() -> Fixture {
    let fx = Fixture::new();
    // Selection order is by name: a_big (101 tokens), b_small (2), c_mid (11).
    fx.write("a_big.txt", format!("{}\n", "0".repeat(400)))
        .write("b_small.txt", "small\n")
        .write("c_mid.txt", format!("{}\n", "0".repeat(40)));
    fx
}

#[test]
fn max_tokens_skips_a_large_file_and_still_includes_later_smaller_ones() {
    let fx = budget_fixture();
    let out = dpx(&fx.root)
        .args(["pack", ".", "--format", "json", "--max-tokens", "20"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let v: Value = serde_json::from_str(&stdout).unwrap();
    let included: Vec<&str> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(included, ["b_small.txt", "c_mid.txt"]);
    // The tree stays the complete selection.
    let tree: Vec<&str> = v["tree"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    assert!(tree.contains(&"a_big.txt"));
    let budget = &v["tokenBudget"];
    assert_eq!(budget["maxTokens"], 20);
    assert_eq!(budget["includedFiles"], 2);
    assert_eq!(budget["skippedFiles"], 1);
    assert_eq!(budget["includedTokens"], 2 + 11);
    assert_eq!(budget["skippedTokens"], 101);
    assert_eq!(budget["largestSkipped"][0]["path"], "a_big.txt");
    // Metrics cover the whole selection before the budget.
    assert_eq!(v["metrics"]["tokens"], 101 + 2 + 11);
    // The budget report goes to stderr, never into the JSON document.
    assert!(stderr.contains("20"), "{stderr}");
    assert!(stderr.contains("a_big.txt"), "{stderr}");
    assert!(
        stderr.contains("compact") && stderr.contains("signatures"),
        "{stderr}"
    );

    // Markdown: the same choice, and the big file's content is absent.
    let (code, md, err) = run(&fx.root, &["pack", ".", "--max-tokens", "20"]);
    assert_eq!(code, 0);
    assert!(!md.contains(&"0".repeat(400)));
    assert!(md.contains("small") && md.contains(&"0".repeat(40)));
    assert!(err.contains("Skipped") || err.contains("skipped"), "{err}");
}

#[test]
fn max_tokens_that_fits_nothing_is_a_valid_empty_pack() {
    let fx = budget_fixture();
    let out = ok_stdout(
        &fx.root,
        &["pack", ".", "--format", "json", "--max-tokens", "1"],
    );
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!(v["files"].as_array().unwrap().is_empty(), "{out}");
    assert_eq!(v["tokenBudget"]["includedFiles"], 0);
    assert_eq!(v["tokenBudget"]["skippedFiles"], 3);
    let out = ok_stdout(
        &fx.root,
        &["pack", ".", "--format", "xml", "--max-tokens", "1"],
    );
    let elems = parse_xml(&out);
    assert!(elems.iter().any(|e| e.name == "tokenBudget"));
    let (code, _, _) = run(&fx.root, &["pack", ".", "--max-tokens", "0"]);
    assert_eq!(code, 2, "max_tokens must be at least 1");
}

#[cfg(unix)]
#[test]
fn output_to_a_fifo_or_through_a_symlink_keeps_what_is_there() {
    use std::os::unix::fs::FileTypeExt;
    let (fx, _) = pack_fixture();
    let expected = ok_stdout(&fx.root, &["pack", "."]);
    let out_dir = fx.base().join("special-out");
    std::fs::create_dir_all(&out_dir).unwrap();

    // a named pipe (like /dev/null or /dev/stdout, not a regular file) is written in place;
    // renaming a temp file over it would replace the pipe itself
    let fifo = out_dir.join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let (code, _, err) = run(&fx.root, &["pack", ".", "-o", fifo.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    // checked before joining: had the pipe been replaced, the reader would wait forever
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the pipe is still a pipe: {kind:?}");
    assert_eq!(reader.join().unwrap(), expected);

    // a symlink stays a symlink; the file it names gets the pack
    let real = out_dir.join("real.md");
    std::fs::write(&real, "old").unwrap();
    let link = out_dir.join("link.md");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let (code, _, err) = run(&fx.root, &["pack", ".", "-o", link.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_to_string(&real).unwrap(), expected);

    // a directory is refused with a usable message, and nothing is written into it
    let (code, _, err) = run(&fx.root, &["pack", ".", "-o", out_dir.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(err.contains("is a directory"), "{err}");
    assert_eq!(
        std::fs::read_dir(&out_dir).unwrap().count(),
        3,
        "pipe, real.md, link.md only"
    );
}

#[cfg(unix)]
#[test]
fn output_file_permissions_follow_the_umask_or_the_replaced_file() {
    use std::os::unix::fs::PermissionsExt;
    let (fx, _) = pack_fixture();
    let out_dir = fx.base().join("perm-out");
    std::fs::create_dir_all(&out_dir).unwrap();
    // what `> FILE` would create here: 0666 less the umask
    let reference = out_dir.join("reference");
    std::fs::write(&reference, "").unwrap();
    let expected = std::fs::metadata(&reference).unwrap().permissions().mode() & 0o777;
    let fresh = out_dir.join("fresh.md");
    let (code, _, err) = run(&fx.root, &["pack", ".", "-o", fresh.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let mode = std::fs::metadata(&fresh).unwrap().permissions().mode() & 0o777;
    assert_eq!(
        mode, expected,
        "a new pack file is not the temp file's 0600"
    );

    let kept = out_dir.join("kept.md");
    std::fs::write(&kept, "old").unwrap();
    std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o640)).unwrap();
    let (code, _, err) = run(&fx.root, &["pack", ".", "-o", kept.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let mode = std::fs::metadata(&kept).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640, "a replaced file keeps its permissions");
}

#[test]
fn output_file_is_replaced_atomically() {
    let (fx, _) = pack_fixture();
    let out_dir = fx.base().join("out");
    std::fs::create_dir_all(&out_dir).unwrap();
    let target = out_dir.join("context.md");
    std::fs::write(
        &target,
        "OLD CONTENT that is much longer than nothing\n".repeat(1000),
    )
    .unwrap();
    let stdout = ok_stdout(&fx.root, &["pack", "."]);
    let (code, printed, _) = run(&fx.root, &["pack", ".", "-o", target.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(printed.is_empty(), "nothing on stdout with -o: {printed}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), stdout);
    let left: Vec<_> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 1, "no temp files left behind: {left:?}");

    // A failing run leaves the previous file untouched and no temp file.
    let (code, _, err) = run(
        &fx.root,
        &[
            "pack",
            ".",
            "--include-patterns",
            "[",
            "-o",
            target.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), stdout);
    let left: Vec<_> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 1, "{left:?}");
}

#[test]

fn output_file_inside_the_project_does_not_pack_its_own_temp_file() {
    let fx = Fixture::new();
    fx.write("a.txt", "a\n");
    let (code, _, err) = run(&fx.root, &["pack", ".", "-o", "out.md"]);
    assert_eq!(code, 0, "{err}");
    let written = std::fs::read_to_string(fx.path("out.md")).unwrap();
    // The Root line holds the fixture's own temp path; everything after it is the selection.
    let body: Vec<&str> = written
        .lines()
        .filter(|l| !l.starts_with("Root:"))
        .collect();
    let listed: Vec<&&str> = body
        .iter()
        .filter(|l| l.trim_start().starts_with("- "))
        .collect();
    assert_eq!(listed.len(), 1, "only a.txt may be listed:\n{written}");
    assert!(
        !body
            .iter()
            .any(|l| l.contains(".tmp") || l.contains("devprojex-pack") || l.contains("out")),
        "the pack lists its own temp or output file:\n{written}"
    );
    // A second run must not pack the previous output either.
    let (code, _, err) = run(&fx.root, &["pack", ".", "-o", "out.md"]);
    assert_eq!(code, 0, "{err}");
    let again = std::fs::read_to_string(fx.path("out.md")).unwrap();
    assert!(
        !again.contains("out\\.md"),
        "the previous output was packed:\n{again}"
    );
}

// ---------------------------------------------------------------------------------------------
// Analyze

#[test]
fn analyze_json_schema_and_top_files_order() {
    let fx = Fixture::new();
    fx.write("a.rs", "x".repeat(40)) // 10 tokens
        .write("b.rs", "x".repeat(401)) // 101 tokens
        .write("c.md", "x".repeat(5)) // 2 tokens
        .write("d.txt", "x".repeat(81)) // 21 tokens
        .write("img.bin", b"\0\x01\x02");
    let out = ok_stdout(
        &fx.root,
        &["analyze", ".", "--format", "json", "--top-files", "3"],
    );
    let v: Value = serde_json::from_str(&out).unwrap();
    for field in [
        "project",
        "name",
        "profile",
        "detail",
        "files",
        "textFiles",
        "binaryFiles",
        "bytes",
        "characters",
        "tokens",
        "lines",
        "largestFiles",
        "extensions",
        "warnings",
    ] {
        assert!(v.get(field).is_some(), "analyze JSON lacks {field}: {out}");
    }
    assert_eq!(v["project"], fx.root_str());
    assert_eq!(v["detail"], "full");
    assert_eq!(v["files"], 5);
    assert_eq!(v["textFiles"], 4);
    assert_eq!(v["binaryFiles"], 1);
    assert_eq!(v["characters"], 40 + 401 + 5 + 81);
    assert_eq!(
        v["tokens"],
        10 + 101 + 2 + 21,
        "one token per four characters, rounded up per file"
    );
    let top: Vec<(&str, u64)> = v["largestFiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["path"].as_str().unwrap(), f["tokens"].as_u64().unwrap()))
        .collect();
    assert_eq!(top, [("b.rs", 101), ("d.txt", 21), ("a.rs", 10)]);
    let rs = v["extensions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["extension"] == ".rs")
        .expect(".rs extension row");
    assert_eq!(rs["files"], 2);
    assert_eq!(rs["tokens"], 111);

    // Default top files is 10; the table lists the largest first.
    let v: Value =
        serde_json::from_str(&ok_stdout(&fx.root, &["analyze", ".", "--format", "json"])).unwrap();
    assert_eq!(v["largestFiles"].as_array().unwrap().len(), 4);
    let table = ok_stdout(&fx.root, &["analyze", "."]);
    let b = table.find("b.rs").unwrap();
    let d = table.find("d.txt").unwrap();
    assert!(b < d, "{table}");
    for bad in ["0", "1001", "x"] {
        let (code, _, _) = run(&fx.root, &["analyze", ".", "--top-files", bad]);
        assert_eq!(code, 2, "--top-files {bad}");
    }
}

// ---------------------------------------------------------------------------------------------
// Search

#[test]
fn search_prints_grep_style_lines() {
    let fx = Fixture::new();
    fx.write(
        "a.txt",
        "one\ntwo\nthree MATCH\nfour\nfive\nsix\nseven match\n",
    )
    .write("sub/b.txt", "nothing\nmatch here\n");
    let out = ok_stdout(&fx.root, &["search", "match", "."]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.contains(&"a.txt:3:three MATCH"), "{out}");
    assert!(lines.contains(&"a.txt:7:seven match"), "{out}");
    assert!(lines.contains(&"a.txt-2-two"), "context before: {out}");
    assert!(lines.contains(&"a.txt-5-five"), "context after: {out}");
    assert!(lines.contains(&"sub/b.txt:2:match here"), "{out}");
    assert!(lines.contains(&"sub/b.txt-1-nothing"), "{out}");
    let grep_like = regex::Regex::new(r"^(\S+):(\d+):|^(\S+)-(\d+)-|^--$").unwrap();
    for line in &lines {
        assert!(grep_like.is_match(line), "not grep-style: {line:?}");
    }

    let out = ok_stdout(
        &fx.root,
        &[
            "search",
            "match",
            ".",
            "--case-sensitive",
            "--context-lines",
            "0",
        ],
    );
    assert!(!out.contains("MATCH"), "{out}");
    assert!(
        out.lines()
            .filter(|l| *l != "--")
            .all(|l| l.contains(':') && !l.contains("-1-")),
        "{out}"
    );

    let (code, out, err) = run(
        &fx.root,
        &[
            "search",
            "match",
            ".",
            "--max-results",
            "1",
            "--context-lines",
            "0",
        ],
    );
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(
        err.contains("max-results") || err.contains("truncated"),
        "{err}"
    );
    for bad in ["0", "201"] {
        let (code, _, _) = run(&fx.root, &["search", "match", ".", "--max-results", bad]);
        assert_eq!(code, 2, "--max-results {bad}");
    }
    let long = "a".repeat(4097);
    let (code, _, err) = run(&fx.root, &["search", &long, "."]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("4096") || err.contains("4,096"), "{err}");
    let (code, _, err) = run(&fx.root, &["search", "(a{1000}){1000}", "."]);
    assert_ne!(code, 0);
    assert!(err.contains("DPX-MCP-INVALID-PATTERN"), "{err}");
    let (code, _, err) = run(&fx.root, &["search", "(unclosed", "."]);
    assert_ne!(code, 0);
    assert!(
        err.contains("DPX-MCP-INVALID-PATTERN") || err.contains("regular expression"),
        "{err}"
    );
}

// ---------------------------------------------------------------------------------------------
// Bad input

#[test]
fn invalid_glob_is_a_usage_error_naming_the_pattern() {
    let fx = Fixture::new();
    fx.write("a.txt", "x");
    for (flag, pattern) in [
        ("--include-patterns", "src/[abc"),
        ("--exclude-patterns", "a{b"),
    ] {
        for command in ["tree", "pack", "analyze"] {
            let (code, out, err) = run(&fx.root, &[command, ".", flag, pattern]);
            assert_eq!(code, 2, "{command} {flag} {pattern}: {err}");
            assert!(out.is_empty());
            assert!(
                err.contains(pattern),
                "{command}: error does not name {pattern}: {err}"
            );
        }
    }
}

#[test]
fn missing_path_and_file_path_are_clear_errors() {
    let fx = Fixture::new();
    fx.write("a.txt", "x");
    let missing = fx.base().join("does-not-exist");
    for command in ["tree", "analyze", "pack"] {
        let (code, out, err) = run(&fx.root, &[command, missing.to_str().unwrap()]);
        assert!(code == 1 || code == 2, "{command}: exit {code}");
        assert!(out.is_empty());
        assert!(err.contains("does-not-exist"), "{command}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "one clear line: {err}");
    }
    let (code, _, err) = run(&fx.root, &["tree", "a.txt"]);
    assert_ne!(code, 0, "a file is not a project folder: {err}");
    assert!(err.contains("a.txt"), "{err}");
}

#[test]
fn binary_file_is_listed_as_binary_but_never_packed() {
    let fx = Fixture::new();
    fx.write("text.txt", "hello\n")
        .write("blob.bin", b"BINMARK\0more")
        .write("mystery", b"looks like text BINMARK2 but \0 has a NUL");
    let md = ok_stdout(&fx.root, &["tree", "."]);
    assert!(
        md.contains("blob\\.bin (binary)") || md.contains("blob.bin (binary)"),
        "{md}"
    );
    let text = ok_stdout(&fx.root, &["tree", ".", "--format", "text"]);
    assert!(text.contains("blob.bin [binary]"), "{text}");
    let v: Value =
        serde_json::from_str(&ok_stdout(&fx.root, &["tree", ".", "--format", "json"])).unwrap();
    let entry = |p: &str| {
        v["entries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["path"] == p)
            .unwrap()
            .clone()
    };
    assert_eq!(entry("blob.bin")["binary"], true);
    assert_eq!(entry("mystery")["binary"], true);
    assert_eq!(entry("text.txt")["binary"], false);
    let elems = parse_xml(&ok_stdout(&fx.root, &["tree", ".", "--format", "xml"]));
    let blob = elems
        .iter()
        .find(|e| e.attrs.get("path").map(String::as_str) == Some("blob.bin"))
        .unwrap();
    assert_eq!(blob.attrs["binary"], "true");
    for format in ["markdown", "text", "json", "xml"] {
        let out = ok_stdout(&fx.root, &["pack", ".", "--format", format]);
        assert!(
            !out.contains("BINMARK"),
            "{format}: binary content packed:\n{out}"
        );
        assert!(out.contains("hello"));
    }
    let (code, out, _) = run(&fx.root, &["search", "BINMARK", "."]);
    assert_eq!(code, 1, "binary content is never searched: {out}");
    let v: Value =
        serde_json::from_str(&ok_stdout(&fx.root, &["analyze", ".", "--format", "json"])).unwrap();
    assert_eq!(v["binaryFiles"], 2);
}

#[cfg(unix)]
#[test]
fn symlinks_out_of_the_root_are_listed_as_links_and_never_read() {
    let fx = Fixture::new();
    let outside = fx.base().join("outside");
    common::write_file(&outside.join("secret.txt"), "OUTSIDE-SECRET-CONTENT\n");
    common::write_file(&outside.join("deeper/name-only-outside.txt"), "x\n");
    fx.write("inside.txt", "inside\n");
    common::symlink(outside.join("secret.txt"), fx.path("file_link"));
    common::symlink("../outside", fx.path("dir_link"));
    common::symlink("inside.txt", fx.path("inner_link"));
    // Like Git: each link is one entry, listed with its target, never descended.
    let tree: Value =
        serde_json::from_str(&ok_stdout(&fx.root, &["tree", ".", "--format", "json"])).unwrap();
    let entries = tree["entries"].as_array().unwrap();
    let kind_of = |path: &str| {
        entries
            .iter()
            .find(|e| e["path"] == path)
            .map(|e| (e["type"].clone(), e["target"].clone()))
    };
    assert_eq!(
        kind_of("dir_link").unwrap(),
        (json!("symlink"), json!("../outside"))
    );
    assert_eq!(
        kind_of("inner_link").unwrap(),
        (json!("symlink"), json!("inside.txt"))
    );
    assert_eq!(kind_of("file_link").unwrap().0, json!("symlink"));
    assert!(
        !entries
            .iter()
            .any(|e| e["path"].as_str().unwrap().starts_with("dir_link/")),
        "{tree}"
    );
    let markdown = ok_stdout(&fx.root, &["tree", "."]);
    assert!(markdown.contains("dir_link -> ../outside"), "{markdown}");
    for format in ["markdown", "text", "json", "xml"] {
        let out = ok_stdout(&fx.root, &["pack", ".", "--format", format]);
        assert!(!out.contains("OUTSIDE-SECRET"), "{format}: {out}");
        assert!(!out.contains("name-only-outside"), "{format}: {out}");
    }
    let (code, out, _) = run(&fx.root, &["search", "OUTSIDE", "."]);
    assert_eq!(code, 1, "{out}");
    assert!(!out.contains("OUTSIDE"));
    // Naming the link does not read through it either: it leads outside the root.
    let (code, out, err) = run(&fx.root, &["pack", ".", "--paths", "dir_link"]);
    assert_ne!(code, 0, "{out}");
    assert!(err.contains("DPX-MCP-ROOT-VIOLATION"), "{err}");
    assert!(!out.contains("OUTSIDE-SECRET"), "exit {code}: {out}");
    let (_, out, err) = run(&fx.root, &["pack", ".", "--paths", "file_link"]);
    assert!(!out.contains("OUTSIDE-SECRET"), "{out}");
    assert!(err.contains("DPX-MCP-ROOT-VIOLATION"), "{err}");
}

#[cfg(unix)]
#[test]
fn symlink_loops_do_not_hang() {
    let fx = Fixture::new();
    fx.write("a/file.txt", "x\n");
    common::symlink("..", fx.path("a/up"));
    common::symlink("self", fx.path("self"));
    common::symlink("loop2", fx.path("loop1"));
    common::symlink("loop1", fx.path("loop2"));
    for args in [
        &["tree", ".", "--format", "json"][..],
        &["pack", ".", "--format", "json"][..],
        &["analyze", ".", "--format", "json"][..],
        &["search", "x", "."][..],
    ] {
        let out = dpx(&fx.root)
            .args(args)
            .timeout(Duration::from_secs(20))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let paths = tree_paths(&fx.root, &[]);
    assert!(paths.contains("a/file.txt"));
}

// ---------------------------------------------------------------------------------------------
// Profiles

#[test]
fn profile_save_show_use_and_reset() {
    let fx = Fixture::new();
    fx.write("a.rs", "x").write("b.txt", "x").write("c.rs", "x");
    let config = fx.base().join("config");
    let show = ok_stdout(&fx.root, &["profile", "show", "."]);
    let v: Value = serde_json::from_str(&show).unwrap();
    assert_eq!(v["name"], "standard");
    assert_eq!(v["kind"], "devprojex-profile");

    ok_stdout(
        &fx.root,
        &[
            "profile",
            "save",
            ".",
            "--extensions",
            "rs",
            "--exclude-patterns",
            "c.*",
        ],
    );
    let stored: Vec<_> = walk_files(&config.join("profiles"));
    assert_eq!(
        stored.len(),
        1,
        "one local profile file under $DEVPROJEX_CONFIG_DIR/profiles: {stored:?}"
    );
    let v: Value = serde_json::from_str(&ok_stdout(&fx.root, &["profile", "show", "."])).unwrap();
    assert_eq!(v["name"], "local");
    assert_eq!(v["selection"]["extensions"], serde_json::json!(["rs"]));
    assert_eq!(
        tree_paths(&fx.root, &["--profile", "local"]),
        set(&["a.rs"])
    );
    // The default profile is unaffected.
    assert_eq!(tree_paths(&fx.root, &[]), set(&["a.rs", "b.txt", "c.rs"]));

    // Export produces a valid portable profile.
    let exported = ok_stdout(&fx.root, &["profile", "export", "."]);
    fx.write("exported.json", &exported);
    ok_stdout(&fx.root, &["profile", "validate", "exported.json"]);

    ok_stdout(&fx.root, &["profile", "reset", "."]);
    let v: Value = serde_json::from_str(&ok_stdout(&fx.root, &["profile", "show", "."])).unwrap();
    assert_eq!(v["name"], "standard");
    assert!(walk_files(&config.join("profiles")).is_empty());
}

fn walk_files(dir: &Path) -> Vec<std::path::PathBuf> {
    match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .collect(),
        Err(_) => Vec::new(),
    }
}

#[test]
fn portable_profile_with_unknown_key_is_rejected_naming_its_place() {
    let fx = Fixture::new();
    fx.write("a.txt", "x");
    fx.write(
        "inner.json",
        r#"{"schemaVersion":1,"kind":"devprojex-profile","selection":{"extensions":["txt"],"bogusKey":true}}"#,
    );
    fx.write(
        "outer.json",
        r#"{"schemaVersion":1,"kind":"devprojex-profile","frobnicate":1,"selection":{}}"#,
    );
    fx.write(
        "good.json",
        r#"{"schemaVersion":1,"kind":"devprojex-profile","selection":{"extensions":["md"]}}"#,
    );
    // The error names the place (line, column, the schema key around it), never the document's
    // own text: a profile is project data, and errors are trusted text.
    for (file, key, place) in [
        (
            "inner.json",
            "bogusKey",
            "line 1, column 90, inside key 'selection'",
        ),
        (
            "outer.json",
            "frobnicate",
            "line 1, column 58: an unknown key",
        ),
    ] {
        let (code, _, err) = run(&fx.root, &["profile", "validate", file]);
        assert_ne!(code, 0, "{file}");
        assert!(
            err.contains(place),
            "{file}: error does not name {place}: {err}"
        );
        assert!(!err.contains(key), "{file}: error echoes {key}: {err}");
        let (code, out, err) = run(&fx.root, &["tree", ".", "--profile", file]);
        assert_ne!(code, 0, "{file} used as --profile");
        assert!(out.is_empty());
        assert!(err.contains(place) && !err.contains(key), "{err}");
        let (code, _, err) = run(&fx.root, &["profile", "import", file, "."]);
        assert_ne!(code, 0);
        assert!(err.contains(place) && !err.contains(key), "{err}");
    }
    ok_stdout(&fx.root, &["profile", "validate", "good.json"]);
    let paths = tree_paths(&fx.root, &["--profile", "good.json"]);
    assert!(!paths.contains("a.txt"), "{paths:?}");
}

#[test]
fn markdown_tree_escapes_block_and_inline_syntax_in_names() {
    let fx = Fixture::new();
    let names = [
        "1. item",
        "1) item",
        "# head",
        "- dash",
        "* star",
        "+ plus",
        "> quote",
        "| pipe |",
        "<!-- c -->",
        "&#42;",
        "&copy;",
        "![i](x)",
        "<http:x>",
        "~~s~~",
        "__u__",
        "_e_",
        "a\\b",
        "[ref]",
        "[x]: y",
        "{x}",
        "---",
        "***",
        "===",
        "`",
        "``code``",
        "<div>",
        "a  b",
        "ünï ✓",
    ];
    let names: Vec<&str> = names
        .into_iter()
        .filter(|name| name_is_possible_here(name))
        .collect();
    for name in &names {
        fx.write(name, "x");
    }
    let out = ok_stdout(&fx.root, &["tree", ".", "--format", "markdown"]);
    assert_no_active_markdown(&out);
    let items = markdown_item_texts(&out);
    for name in names {
        assert!(
            items.iter().any(|t| t == name),
            "{name:?} not shown literally; items: {items:?}\n{out}"
        );
    }
    // No item was turned into a heading, quote, rule or nested list.
    use pulldown_cmark::{Event, Tag};
    for event in markdown_events(&out) {
        assert!(
            !matches!(
                event,
                Event::Start(Tag::Heading { .. })
                    | Event::Start(Tag::BlockQuote(_))
                    | Event::Rule
                    | Event::Start(Tag::Table(_))
            ),
            "{event:?}\n{out}"
        );
    }
}

#[test]
fn git_info_exclude_and_negated_gitignore_patterns() {
    let fx = Fixture::new();
    fx.write(".git/HEAD", "ref: refs/heads/main\n")
        .write(".git/info/exclude", "excluded-*\n")
        .write(".gitignore", "*.log\n!keep.log\n")
        .write("excluded-file", "x")
        .write("a.log", "x")
        .write("keep.log", "x")
        .write("plain.txt", "x");
    let paths = tree_paths(&fx.root, &[]);
    assert_eq!(paths, set(&[".gitignore", "keep.log", "plain.txt"]));
    let paths = tree_paths(&fx.root, &["--git-mode", "none"]);
    assert_eq!(
        paths,
        set(&[
            ".gitignore",
            "a.log",
            "excluded-file",
            "keep.log",
            "plain.txt"
        ])
    );
}

#[test]
fn xml_pack_is_well_formed_for_invalid_xml_characters() {
    let fx = Fixture::new();
    fx.write(
        "ctl.txt",
        "bell\u{7} esc\u{1b} vt\u{b} ff\u{c} del\u{7f} ]]> end\n",
    )
    .write("fffe.txt", "nonchar \u{fffe}\u{ffff} ok\n");
    for view in ["tree-content", "content"] {
        let out = ok_stdout(&fx.root, &["pack", ".", "--view", view, "--format", "xml"]);
        let elems = parse_xml(&out);
        let ctl = elems
            .iter()
            .find(|e| {
                e.name == "file"
                    && e.attrs.get("path").map(String::as_str) == Some("ctl.txt")
                    && e.attrs.contains_key("characters")
            })
            .unwrap_or_else(|| panic!("{view}: ctl.txt content missing:\n{out}"));
        assert!(
            ctl.text.contains("bell") && ctl.text.contains("]]> end"),
            "{:?}",
            ctl.text
        );
        let json = ok_stdout(&fx.root, &["pack", ".", "--view", view, "--format", "json"]);
        let v: Value = serde_json::from_str(&json).unwrap();
        let content = v["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["path"] == "ctl.txt")
            .unwrap()["content"]
            .clone();
        assert_eq!(
            content, "bell\u{7} esc\u{1b} vt\u{b} ff\u{c} del\u{7f} ]]> end\n",
            "JSON keeps every character"
        );
    }
}

#[test]
fn empty_project_renders_valid_documents() {
    let fx = Fixture::new();
    for format in ["markdown", "text", "json", "xml"] {
        let out = ok_stdout(&fx.root, &["tree", ".", "--format", format]);
        match format {
            "json" => assert!(json_tree_paths(&out).is_empty()),
            "xml" => {
                parse_xml(&out);
            }
            _ => assert!(out.contains(&fx.root_str()) || out.contains("Root:")),
        }
        for view in ["tree-content", "content", "tree"] {
            let out = ok_stdout(&fx.root, &["pack", ".", "--view", view, "--format", format]);
            match format {
                "json" => {
                    let _: Value = serde_json::from_str(&out).unwrap();
                }
                "xml" => {
                    parse_xml(&out);
                }
                _ => {}
            }
        }
    }
    let v: Value =
        serde_json::from_str(&ok_stdout(&fx.root, &["analyze", ".", "--format", "json"])).unwrap();
    assert_eq!(v["files"], 0);
    assert_eq!(v["tokens"], 0);
}

mod hostile {
    use super::*;
    use proptest::prelude::*;

    /// Names: a safe first letter, then characters that are active in Markdown, HTML, XML or
    /// JSON; no '/', NUL, or leading/trailing whitespace.
    fn name() -> impl Strategy<Value = String> {
        let pattern = if cfg!(windows) {
            // without the characters Windows refuses in names, and `\\`, its separator
            r#"f[a-z0-9_\[\]()&;#!{}'`~=+.\- é✓]{0,12}[a-z]"#
        } else {
            r#"f[a-z0-9*_\[\]()<>&;#!|{}"'`~=+.\-\\ é✓]{0,12}[a-z]"#
        };
        proptest::string::string_regex(pattern).unwrap()
    }

    /// Contents: text with fences, markup, CDATA ends and escapes; no NUL, no CR, no other
    /// control characters (those are covered by deterministic tests).
    fn content() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                Just("```".to_string()),
                Just("````".to_string()),
                Just("~~~".to_string()),
                Just("]]>".to_string()),
                Just("<![CDATA[".to_string()),
                Just("</file>".to_string()),
                Just("&amp;".to_string()),
                Just("\\u0000".to_string()),
                Just("\"".to_string()),
                Just("\n".to_string()),
                Just("\t".to_string()),
                Just("    ".to_string()),
                "[a-zA-Z0-9 <>&#*_é✓]{1,8}",
            ],
            0..30,
        )
        .prop_map(|parts| {
            let mut s: String = parts.concat();
            if !s.ends_with('\n') {
                s.push('\n');
            }
            s
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn packs_of_hostile_files_parse_back(files in proptest::collection::btree_map(name(), content(), 1..4)) {
            let fx = Fixture::new();
            for (n, c) in &files {
                fx.write(n, c);
            }
            // JSON: exact paths and contents.
            let out = ok_stdout(&fx.root, &["pack", ".", "--format", "json"]);
            let v: Value = serde_json::from_str(&out).unwrap();
            let got: BTreeSet<(String, String)> = v["files"].as_array().unwrap().iter()
                .map(|f| (f["path"].as_str().unwrap().to_string(), f["content"].as_str().unwrap().to_string()))
                .collect();
            let want: BTreeSet<(String, String)> = files.iter().map(|(n, c)| (n.clone(), c.clone())).collect();
            prop_assert_eq!(&got, &want);

            // XML: exact paths and contents.
            let out = ok_stdout(&fx.root, &["pack", ".", "--format", "xml"]);
            let elems = parse_xml(&out);
            let got: BTreeSet<(String, String)> = elems.iter()
                .filter(|e| e.name == "file" && e.attrs.contains_key("characters"))
                .map(|e| (e.attrs["path"].clone(), e.text.clone()))
                .collect();
            prop_assert_eq!(&got, &want);

            // Markdown: headings are the literal paths, code blocks the exact contents.
            let out = ok_stdout(&fx.root, &["pack", ".", "--format", "markdown"]);
            assert_no_active_markdown(&out);
            let headings: BTreeSet<String> = markdown_headings(&out).into_iter().filter(|(l, _)| *l == 3).map(|(_, h)| h).collect();
            let names: BTreeSet<String> = files.keys().cloned().collect();
            prop_assert_eq!(&headings, &names, "{}", out);
            let blocks: Vec<String> = markdown_code_blocks(&out).into_iter().map(|(_, c)| c).collect();
            prop_assert_eq!(blocks.len(), files.len(), "{}", out);
            for c in files.values() {
                prop_assert!(blocks.contains(c), "content {:?} not a code block of:\n{}", c, out);
            }

            // Markdown tree items are the literal names.
            let out = ok_stdout(&fx.root, &["tree", "."]);
            assert_no_active_markdown(&out);
            let items: BTreeSet<String> = markdown_item_texts(&out).into_iter().collect();
            prop_assert_eq!(&items, &names, "{}", out);
        }
    }
}

#[cfg(unix)]
#[test]

fn symlinks_inside_the_root_cannot_reach_product_excluded_folders() {
    let fx = Fixture::new();
    fx.write(
        ".git/config",
        "[remote \"origin\"]\n    url = https://example.invalid/VCSMARK\n",
    )
    .write("package.json", "{}\n")
    .write("node_modules/dep/index.js", "DEPMARK\n")
    .write("src/a.js", "a\n");
    common::symlink(".git", fx.path("gitdir_link"));
    common::symlink(".git/config", fx.path("gitcfg_link"));
    common::symlink("node_modules", fx.path("deps_link"));
    for format in ["text", "json"] {
        let out = ok_stdout(&fx.root, &["pack", ".", "--format", format]);
        assert!(
            !out.contains("VCSMARK"),
            "{format}: .git content packed through a symlink:\n{out}"
        );
        assert!(
            !out.contains("DEPMARK"),
            "{format}: node_modules content packed through a symlink:\n{out}"
        );
    }
    let paths = tree_paths(&fx.root, &[]);
    assert!(!paths.contains("gitdir_link/config"), "{paths:?}");
    assert!(!paths.contains("deps_link/dep/index.js"), "{paths:?}");
}

#[cfg(target_os = "linux")]
#[test]

fn distinct_non_utf8_names_are_not_merged() {
    use std::os::unix::ffi::OsStrExt;
    let fx = Fixture::new();
    std::fs::write(
        fx.root.join(std::ffi::OsStr::from_bytes(b"bad\xffname")),
        "one\n",
    )
    .unwrap();
    std::fs::write(
        fx.root.join(std::ffi::OsStr::from_bytes(b"bad\xfename")),
        "two\n",
    )
    .unwrap();
    let out = ok_stdout(&fx.root, &["tree", ".", "--format", "json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["entries"].as_array().unwrap().len(), 2, "{out}");
    let v: Value =
        serde_json::from_str(&ok_stdout(&fx.root, &["analyze", ".", "--format", "json"])).unwrap();
    assert_eq!(v["files"], 2);
    let pack = ok_stdout(&fx.root, &["pack", ".", "--format", "json"]);
    assert!(pack.contains("one\\n") && pack.contains("two\\n"), "{pack}");
}

#[test]
fn paths_narrow_the_selection_and_stay_inside_the_root() {
    let fx = Fixture::new();
    fx.write("src/a.rs", "a\n")
        .write("src/sub/b.rs", "b\n")
        .write("docs/c.md", "c\n");
    std::fs::create_dir_all(fx.base().join("sibling")).unwrap();
    assert_eq!(
        tree_paths(&fx.root, &["--paths", "src/sub"]),
        set(&["src", "src/sub", "src/sub/b.rs"])
    );
    let paths = tree_paths(&fx.root, &["--paths", "src/a.rs", "--paths", "docs"]);
    assert!(
        paths.contains("src/a.rs")
            && paths.contains("docs/c.md")
            && !paths.contains("src/sub/b.rs"),
        "{paths:?}"
    );
    for bad in ["../sibling", "/etc", "src/../../sibling"] {
        let (code, out, err) = run(&fx.root, &["tree", ".", "--paths", bad]);
        assert_ne!(code, 0, "{bad}");
        assert!(out.is_empty());
        assert!(err.contains("DPX-MCP-ROOT-VIOLATION"), "{bad}: {err}");
    }
    let (code, _, err) = run(&fx.root, &["pack", ".", "--paths", "missing"]);
    assert_ne!(code, 0);
    assert!(err.contains("missing"), "{err}");
}

#[test]

fn pack_quiet_writes_nothing_to_stderr() {
    let fx = budget_fixture();
    let target = fx.base().join("context.md");
    let out = dpx(&fx.root)
        .args([
            "pack",
            ".",
            "--max-tokens",
            "20",
            "--quiet",
            "-o",
            target.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(std::fs::read_to_string(&target).unwrap().contains("small"));
}

#[test]
fn no_progress_output_when_stderr_is_not_a_terminal() {
    let fx = Fixture::new();
    for i in 0..1500 {
        fx.write(
            &format!("d{:02}/f{i:04}.txt", i / 100),
            format!("line {i}\n"),
        );
    }
    for args in [
        &["pack", "."][..],
        &["analyze", "."][..],
        &["tree", "."][..],
    ] {
        let (code, out, err) = run(&fx.root, args);
        assert_eq!(code, 0);
        assert!(!out.is_empty());
        assert!(
            err.is_empty(),
            "{args:?}: stderr is a pipe, so no progress: {err:?}"
        );
    }
}

#[test]
fn smart_ignore_is_scoped_by_ecosystem_markers() {
    // (marker file or "" for none, folder, hidden?)
    let cases: &[(&str, &str, bool)] = &[
        ("pyproject.toml", "__pycache__", true),
        ("requirements.txt", ".venv", true),
        ("tox.ini", ".tox", true),
        ("setup.py", ".mypy_cache", true),
        ("go.mod", "vendor", true),
        ("composer.json", "vendor", true),
        ("", "vendor", false),
        ("app.csproj", "bin", true),
        ("app.csproj", "obj", true),
        ("", "bin", false),
        ("package.json", "dist", true),
        ("package.json", ".next", true),
        ("package.json", "coverage", true),
        ("", "dist", false),
        ("pom.xml", "target", true),
        ("build.gradle", "build", true),
        ("", "build", false),
        ("Package.swift", ".build", true),
        ("Podfile", "Pods", true),
        ("pubspec.yaml", ".dart_tool", true),
    ];
    for (marker, folder, hidden) in cases {
        let fx = Fixture::new();
        fx.write(&format!("{folder}/inner/file.txt"), "x")
            .write("keep.txt", "y");
        if !marker.is_empty() {
            fx.write(marker, "");
        }
        let paths = tree_paths(&fx.root, &[]);
        assert!(paths.contains("keep.txt"));
        let shown = paths.contains(&format!("{folder}/inner/file.txt"));
        assert_eq!(
            !shown, *hidden,
            "marker {marker:?}, folder {folder:?}: {paths:?}"
        );
    }
}

#[test]

fn a_known_text_file_with_nul_bytes_is_binary_where_content_is_read() {
    let fx = Fixture::new();
    fx.write("text.txt", "hello\n")
        .write("with-nul.txt", b"looks like text but \0 has a NUL\n")
        .write("with-nul.unknownext", b"no known extension \0 NUL\n");
    let v: Value =
        serde_json::from_str(&ok_stdout(&fx.root, &["tree", ".", "--format", "json"])).unwrap();
    let binary = |path: &str| {
        v["entries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["path"] == path)
            .unwrap()["binary"]
            .clone()
    };
    // The tree sniffs only names it cannot judge (docs/selection.md): a `.txt` is not opened.
    assert_eq!(binary("with-nul.txt"), false);
    assert_eq!(binary("with-nul.unknownext"), true);
    let a: Value =
        serde_json::from_str(&ok_stdout(&fx.root, &["analyze", ".", "--format", "json"])).unwrap();
    assert_eq!(
        a["binaryFiles"], 2,
        "analyze reads nul.txt and counts it binary"
    );
    // Its content is never shown.
    let pack = ok_stdout(&fx.root, &["pack", "."]);
    assert!(!pack.contains("looks like text"), "{pack}");
    let (code, _, err) = run(&fx.root, &["search", "looks", "."]);
    assert_eq!(code, 1, "{err}");
}

#[test]
fn a_five_gigabyte_sparse_file_is_listed_but_never_read() {
    let fx = Fixture::new();
    fx.write("small.txt", "small\n");
    // Text for the first 16 KiB (so sniffing sees no NUL), then a sparse hole up to 5 GB.
    let big = fx.path("huge.log.txt");
    std::fs::write(&big, "text line\n".repeat(1700)).unwrap();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&big)
        .unwrap()
        .set_len(5 * 1024 * 1024 * 1024)
        .unwrap();
    let (code, out, err) = run(&fx.root, &["analyze", ".", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["files"], 2);
    assert_eq!(v["withheldFiles"], 1, "{out}");
    assert_eq!(v["metricsEstimated"], true);
    assert!(err.contains("DPX-MCP-PAYLOAD-TRUNCATED"), "{err}");
    let (code, out, err) = run(
        &fx.root,
        &["pack", ".", "--view", "content", "--format", "json"],
    );
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let packed: Vec<&str> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(packed, ["small.txt"]);
    assert_eq!(v["metrics"]["withheldFiles"], 1);
}

/// A file binary only past the first 8 KiB: the pack leaves it out and says so on stderr, with
/// or without an exact budget.
#[test]
fn pack_says_when_a_file_turned_out_binary_when_read() {
    let fx = Fixture::new();
    fx.write("late.txt", format!("{}\0tail\n", "a".repeat(9_000)))
        .write("notes.md", "hello\n");
    for extra in [
        &[][..],
        &["--max-tokens", "5000", "--tokenizer", "o200k"][..],
    ] {
        let mut args = vec!["pack", "."];
        args.extend_from_slice(extra);
        let (code, out, err) = run(&fx.root, &args);
        assert_eq!(code, 0, "{err}");
        assert!(!out.contains("aaaa") && out.contains("hello"), "{out}");
        assert!(
            err.contains("1 selected file listed as text turned out binary when read"),
            "{err}"
        );
    }
}
