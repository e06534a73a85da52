//! `devprojex relevant`: the ranked files as text and JSON, and its two ways to pass a query.

use crate::common::{self, Fixture};
use serde_json::Value;

fn project() -> Fixture {
    let fx = Fixture::new();
    fx.write(
        "src/parser.rs",
        "/// Parse the arguments.\npub fn parse_args(args: &[String]) -> Config {\n    Config::default()\n}\n",
    )
    .write("src/main.rs", "fn main() {\n    println!(\"hi\");\n}\n")
    .write("README.md", "# demo\n");
    common::git(&fx.root, &["init", "-q"]);
    common::git(&fx.root, &["add", "-A"]);
    common::git(&fx.root, &["commit", "-qm", "parser: read the arguments"]);
    fx
}

#[test]
fn json_lists_files_with_score_reasons_and_ranges_in_order() {
    let fx = project();
    let out = common::run(
        &[
            "relevant",
            ".",
            "--query",
            "parse_args crashes on empty input",
            "--format",
            "json",
        ],
        &fx.root,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let keys: Vec<usize> = [
        "\"query\"",
        "\"files\"",
        "\"path\"",
        "\"score\"",
        "\"reasons\"",
        "\"ranges\"",
    ]
    .iter()
    .map(|k| text.find(k).unwrap())
    .collect();
    assert!(keys.windows(2).all(|w| w[0] < w[1]), "field order: {text}");
    let value: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["query"], "parse_args crashes on empty input");
    let first = &value["files"][0];
    assert_eq!(first["path"], "src/parser.rs");
    assert_eq!(first["score"], 1.0);
    assert!(
        first["reasons"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r == "defines parse_args"),
        "{first}"
    );
    assert_eq!(first["ranges"][0]["start"], 1, "{first}");
}

#[test]
fn the_query_comes_from_a_flag_or_a_file_and_one_is_required() {
    let fx = project();
    fx.write(".task.txt", "parse_args crashes on empty input\n");
    let by_file = common::run(
        &[
            "relevant",
            ".",
            "--query-file",
            ".task.txt",
            "--max-results",
            "1",
        ],
        &fx.root,
    );
    assert!(
        by_file.status.success(),
        "{}",
        String::from_utf8_lossy(&by_file.stderr)
    );
    let text = String::from_utf8(by_file.stdout).unwrap();
    assert!(
        text.starts_with("1. src/parser.rs (score 1.000)\n"),
        "{text}"
    );
    assert!(!text.contains("2. "), "{text}");

    let neither = common::run(&["relevant", "."], &fx.root);
    assert_eq!(neither.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&neither.stderr).contains("--query"));
    let both = common::run(
        &["relevant", ".", "--query", "x", "--query-file", ".task.txt"],
        &fx.root,
    );
    assert_eq!(both.status.code(), Some(2));
    fx.write(".binary", b"\x00\x01\x02ELF");
    let binary = common::run(&["relevant", ".", "--query-file", ".binary"], &fx.root);
    assert_eq!(binary.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&binary.stderr).contains("binary"));
    let nothing = common::run(&["relevant", ".", "--query", "zebra"], &fx.root);
    assert_eq!(nothing.status.code(), Some(1));
}

#[test]
fn a_panic_location_in_an_issue_names_the_file_that_panicked() {
    let fx = project();
    fx.write(
        "src/config.rs",
        "/// Read the walker options from the config: depth, hidden.\npub fn read_options(path: &Path) -> Options {\n    Options::default()\n}\n",
    )
    .write(
        "src/walk.rs",
        "pub fn visit(dir: &Path) {\n    for entry in dir.read_dir().unwrap() {\n        let _ = entry;\n    }\n}\n",
    )
    .write(
        ".issue.txt",
        "Crash with the walker options\n\nWith `depth = 2` in the config the walker crashes:\n\n```\nthread 'main' panicked at /home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/demo-1.2.0/src/walk.rs:88:5:\ncalled `Option::unwrap()` on a `None` value\n```\n",
    );
    let out = common::run(
        &[
            "relevant",
            ".",
            "--query-file",
            ".issue.txt",
            "--format",
            "json",
        ],
        &fx.root,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    let first = &value["files"][0];
    assert_eq!(first["path"], "src/walk.rs", "{value}");
    assert!(
        first["reasons"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r == "named in the query"),
        "{first}"
    );
}
