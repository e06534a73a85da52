//! What each offline command prints on the sample project: every pack format and view, the
//! analyze table and JSON, search, symbols, related, scan, and each command's help.

use crate::common::{Fixture, masked, run, sample_project};

/// stdout, then stderr when there is any, then the exit code when it is not 0.
fn shown(fx: &Fixture, args: &[&str]) -> String {
    let out = run(args, &fx.root);
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !stderr.is_empty() {
        text.push_str("--- stderr\n");
        text.push_str(&stderr);
    }
    let code = out.status.code().unwrap_or(-1);
    if code != 0 {
        text.push_str(&format!("--- exit code {code}\n"));
    }
    masked(fx, &text)
}

#[test]
fn pack_in_every_format_and_view() {
    let fx = sample_project();
    for format in ["markdown", "text", "json", "xml"] {
        for view in ["tree-content", "content", "tree"] {
            insta::assert_snapshot!(
                format!("pack_{format}_{view}"),
                shown(&fx, &["pack", ".", "--format", format, "--view", view])
            );
        }
    }
    insta::assert_snapshot!(
        "pack_budget_compact",
        shown(
            &fx,
            &["pack", ".", "--max-tokens", "40", "--detail", "compact"]
        )
    );
}

#[test]
fn analyze_table_and_json() {
    let fx = sample_project();
    insta::assert_snapshot!("analyze_table", shown(&fx, &["analyze", "."]));
    insta::assert_snapshot!(
        "analyze_table_tree",
        shown(
            &fx,
            &[
                "analyze",
                ".",
                "--tree",
                "--detail",
                "signatures",
                "--top-files",
                "3"
            ]
        )
    );
    insta::assert_snapshot!(
        "analyze_json",
        shown(&fx, &["analyze", ".", "--format", "json"])
    );
}

#[test]
fn search_symbols_related_and_scan() {
    let fx = sample_project();
    let cases: [(&str, &[&str]); 14] = [
        ("search", &["search", "greet", "."]),
        ("search_json", &["search", "greet", ".", "--format", "json"]),
        (
            "search_json_capped",
            &["search", "e", ".", "--max-results", "2", "--format", "json"],
        ),
        (
            "search_case_sensitive",
            &["search", "GREET", ".", "--case-sensitive"],
        ),
        (
            "search_capped",
            &[
                "search",
                "e",
                ".",
                "--max-results",
                "2",
                "--context-lines",
                "0",
            ],
        ),
        ("search_no_match", &["search", "nothing-matches-this", "."]),
        ("symbols", &["symbols", "greet", "."]),
        (
            "symbols_json",
            &[
                "symbols", "Gre", ".", "--match", "prefix", "--format", "json",
            ],
        ),
        ("symbols_none", &["symbols", "absent_name", "."]),
        ("related", &["related", "src/main.rs"]),
        (
            "related_json",
            &[
                "related",
                "web/helper.ts",
                "--direction",
                "importers",
                "--format",
                "json",
            ],
        ),
        ("scan", &["scan", "."]),
        ("scan_json", &["scan", ".", "--format", "json"]),
        (
            "tree_depth",
            &["tree", ".", "--max-depth", "1", "--format", "text"],
        ),
    ];
    for (name, args) in cases {
        insta::assert_snapshot!(name, shown(&fx, args));
    }
}

#[test]
fn help_of_every_command() {
    let fx = sample_project();
    for command in [
        "tree", "analyze", "pack", "search", "symbols", "related", "relevant", "scan", "mcp",
    ] {
        insta::assert_snapshot!(format!("help_{command}"), shown(&fx, &[command, "--help"]));
    }
}
