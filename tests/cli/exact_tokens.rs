//! Exact token counts (`--tokenizer o200k|cl100k`): analyze beside the estimate, the token map,
//! and pack budgets that bound the complete document, checked by re-tokenizing what was
//! written, through the CLI and the MCP server.

use std::path::Path;

use crate::common::{
    self, Fixture, Mcp, first_text, one_spot, read_whole_pack, spots, stored_pack_id,
};
use devprojex::tokens::Encoding;
use serde_json::{Value, json};

const VIEWS: [&str; 3] = ["tree-content", "content", "tree"];
const FORMATS: [&str; 4] = ["markdown", "text", "json", "xml"];

/// Files whose seams are awkward for a tokenizer: no final newline, leading whitespace or `/`,
/// CRLF, blank runs, backticks, special-token text, non-ASCII, a long line.
fn project() -> Fixture {
    let fx = Fixture::new();
    fx.write(
        "src/main.rs",
        "fn main() {\n    println!(\"hi ``` there\");\n}\n",
    )
    .write(
        "src/lib.rs",
        "//! Library.\n\npub fn add(a: u32, b: u32) -> u32 {\n    a + b\n}\n".repeat(12),
    )
    .write("src/no_newline.rs", "pub const X: u8 = 1;")
    .write("src/slash_first.rs", "/// doc\n/ odd start\n")
    .write(
        "src/blank_start.py",
        "\n\n    def f():\n        return 1\n\n\n",
    )
    .write("docs/crlf.txt", "first line\r\nsecond line\r\n\r\n")
    .write(
        "docs/guide.md",
        "# Guide\n\n```rust\nlet x = 1;\n```\n\nText `code` ~~~\n".repeat(8),
    )
    .write(
        "docs/special.txt",
        "<|endoftext|> and <|fim_prefix|> stay text\n",
    )
    .write(
        "docs/unicode.md",
        "é✓ 😀 日本語のテキスト\n\u{2028}sep\u{a0}nbsp\n",
    )
    .write(
        "data/values.json",
        format!(
            "{{\"values\": [{}]}}\n",
            (0..300)
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    )
    .write("data/long_line.txt", "word ".repeat(900))
    .write("data/only_newlines.txt", "\n\n\n")
    .write("data/empty.txt", "")
    .write("a_root_file.toml", "[package]\nname = \"x\"\n");
    for i in 0..12 {
        fx.write(
            &format!("gen/module_{i:02}.rs"),
            format!("// module {i}\npub fn f{i}() -> u64 {{ {i} }}\n").repeat(i + 1),
        );
    }
    fx
}

fn run(root: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(common::bin())
        .args(args)
        .env(
            "DEVPROJEX_CONFIG_DIR",
            root.parent().unwrap().join("config"),
        )
        .env_remove("DEVPROJEX_ROOT")
        .env_remove("CLAUDE_PROJECT_DIR")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

fn analyze_json(root: &Path, extra: &[&str]) -> Value {
    let mut args = vec![
        "analyze",
        root.to_str().unwrap(),
        "--format",
        "json",
        "--top-files",
        "1000",
    ];
    args.extend_from_slice(extra);
    let out = run(root, &args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn analyze_reports_exact_counts_beside_the_estimate() {
    let fx = project();
    for (name, encoding) in [("o200k", Encoding::O200k), ("cl100k", Encoding::Cl100k)] {
        let analysis = analyze_json(&fx.root, &["--tokenizer", name]);
        assert_eq!(analysis["encoding"], encoding.name());
        let mut sum = 0;
        let files = analysis["largestFiles"].as_array().unwrap();
        assert_eq!(files.len() as u64, analysis["textFiles"].as_u64().unwrap());
        for file in files {
            let path = file["path"].as_str().unwrap();
            let text = std::fs::read_to_string(fx.path(path)).unwrap();
            let exact = encoding.count(&text);
            assert_eq!(file["exactTokens"].as_u64(), Some(exact), "{path}");
            // the estimate keeps its name and meaning
            assert_eq!(
                file["tokens"].as_u64(),
                Some(devprojex::tokens::estimate(&text)),
                "{path}"
            );
            sum += exact;
        }
        assert_eq!(analysis["exactTokens"].as_u64(), Some(sum));
        // largest first by the exact count
        let exacts: Vec<u64> = files
            .iter()
            .map(|f| f["exactTokens"].as_u64().unwrap())
            .collect();
        assert!(exacts.windows(2).all(|w| w[0] >= w[1]), "{exacts:?}");
        let by_extension: u64 = analysis["extensions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["exactTokens"].as_u64().unwrap())
            .sum();
        assert_eq!(by_extension, sum);
        let rs = analysis["extensions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["extension"] == ".rs")
            .unwrap();
        let rs_sum: u64 = files
            .iter()
            .filter(|f| f["path"].as_str().unwrap().ends_with(".rs"))
            .map(|f| f["exactTokens"].as_u64().unwrap())
            .sum();
        assert_eq!(rs["exactTokens"].as_u64(), Some(rs_sum));
    }
    // Without the flag nothing changes: no exact fields at all.
    let plain = analyze_json(&fx.root, &[]);
    let text = plain.to_string();
    assert!(
        !text.contains("exactTokens") && !text.contains("encoding"),
        "{text}"
    );
    // The table shows both.
    let out = run(
        &fx.root,
        &["analyze", fx.root.to_str().unwrap(), "--tokenizer", "o200k"],
    );
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.contains("exact (o200k_base)"), "{table}");
}

#[test]
fn unknown_tokenizer_is_a_usage_error_naming_the_valid_ones() {
    let fx = project();
    let out = run(
        &fx.root,
        &["analyze", fx.root.to_str().unwrap(), "--tokenizer", "p50k"],
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("o200k") && stderr.contains("cl100k"),
        "{stderr}"
    );
}

#[test]
fn token_map_lists_folders_in_tree_order_with_shares() {
    let fx = project();
    let analysis = analyze_json(&fx.root, &["--tokenizer", "o200k", "--tree", "1"]);
    let rows = analysis["tree"].as_array().unwrap();
    let paths: Vec<&str> = rows.iter().map(|r| r["path"].as_str().unwrap()).collect();
    assert_eq!(paths, [".", "data", "docs", "gen", "src"]);
    let files = analysis["largestFiles"].as_array().unwrap();
    for row in &rows[1..] {
        let prefix = format!("{}/", row["path"].as_str().unwrap());
        let under: Vec<&Value> = files
            .iter()
            .filter(|f| f["path"].as_str().unwrap().starts_with(&prefix))
            .collect();
        let exact: u64 = under
            .iter()
            .map(|f| f["exactTokens"].as_u64().unwrap())
            .sum();
        let estimate: u64 = under.iter().map(|f| f["tokens"].as_u64().unwrap()).sum();
        assert_eq!(row["exactTokens"].as_u64(), Some(exact), "{row}");
        assert_eq!(row["tokens"].as_u64(), Some(estimate), "{row}");
        assert_eq!(row["files"].as_u64(), Some(under.len() as u64), "{row}");
        let share = exact as f64 / analysis["exactTokens"].as_f64().unwrap();
        assert!(
            (row["share"].as_f64().unwrap() - share).abs() < 0.0001,
            "{row}"
        );
    }
    assert_eq!(rows[0]["exactTokens"], analysis["exactTokens"]);
    assert_eq!(rows[0]["share"], 1.0);
    // All levels without DEPTH; estimated only without --tokenizer.
    let all = analyze_json(&fx.root, &["--tree"]);
    let rows = all["tree"].as_array().unwrap();
    assert_eq!(rows.len(), 5, "no nested folders in this fixture");
    assert!(rows.iter().all(|r| r.get("exactTokens").is_none()));
    fx.write("src/nested/deep/x.rs", "fn x() {}\n");
    let nested = analyze_json(&fx.root, &["--tree"]);
    let paths: Vec<&str> = nested["tree"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        [
            ".",
            "data",
            "docs",
            "gen",
            "src",
            "src/nested",
            "src/nested/deep"
        ]
    );
    let out = run(
        &fx.root,
        &["analyze", fx.root.to_str().unwrap(), "--tree", "2"],
    );
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(
        table.contains("Token map") && table.contains("  nested/"),
        "{table}"
    );
    assert!(!table.contains("deep/"), "{table}");
}

/// `pack --tokenizer ENC --max-tokens N` into a file: the document and the stderr report.
fn exact_pack(
    fx: &Fixture,
    encoding: &str,
    max: u64,
    format: &str,
    view: &str,
) -> Result<(String, String), String> {
    let out_path = fx
        .base()
        .join(format!("pack-{encoding}-{max}-{format}-{view}.out"));
    let out = run(
        &fx.root,
        &[
            "pack",
            fx.root.to_str().unwrap(),
            "--tokenizer",
            encoding,
            "--max-tokens",
            &max.to_string(),
            "--format",
            format,
            "--view",
            view,
            "-o",
            out_path.to_str().unwrap(),
        ],
    );
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    if !out.status.success() {
        return Err(stderr);
    }
    Ok((std::fs::read_to_string(&out_path).unwrap(), stderr))
}

fn reported_document_tokens(stderr: &str) -> u64 {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("Document: "))
        .unwrap_or_else(|| panic!("{stderr}"));
    line["Document: ".len()..]
        .trim_end_matches(" tokens.")
        .parse()
        .unwrap()
}

/// The headings of the files a markdown or text pack contains, in order.
fn included(document: &str, format: &str) -> Vec<String> {
    let prefix = if format == "markdown" {
        "### "
    } else {
        "File: "
    };
    document
        .lines()
        .filter_map(|l| l.strip_prefix(prefix))
        .map(|p| p.replace('\\', ""))
        .collect()
}

#[test]
fn exact_budgets_bound_the_whole_document_in_every_format_and_view() {
    let fx = project();
    for (name, encoding) in [("o200k", Encoding::O200k), ("cl100k", Encoding::Cl100k)] {
        for format in FORMATS {
            for view in VIEWS {
                let (whole, _) = exact_pack(&fx, name, u64::MAX / 2, format, view).unwrap();
                let full = encoding.count(&whole);
                let mut fitted = 0;
                for max in [full, full - 1, full / 2, full / 5, 1] {
                    match exact_pack(&fx, name, max, format, view) {
                        Ok((document, stderr)) => {
                            let count = encoding.count(&document);
                            assert!(count <= max, "{name} {format} {view}: {count} > {max}");
                            assert_eq!(
                                reported_document_tokens(&stderr),
                                count,
                                "{name} {format} {view} {max}"
                            );
                            assert!(
                                stderr.contains(&format!(
                                    "{max} {} tokens for the complete document",
                                    encoding.name()
                                )),
                                "{stderr}"
                            );
                            fitted += 1;
                        }
                        Err(stderr) => {
                            // Only when even the document without any file is over the budget.
                            assert!(
                                stderr.contains("without any file content already has"),
                                "{name} {format} {view} {max}: {stderr}"
                            );
                        }
                    }
                }
                // a tree view's document does not depend on the budget: only the whole fits
                assert!(
                    fitted >= if view == "tree" { 1 } else { 3 },
                    "{name} {format} {view}"
                );
            }
        }
    }
}

/// Where the section of `path` starts in a markdown or text pack (its leading newline).
fn section_start(document: &str, path: &str, format: &str) -> usize {
    let prefix = if format == "markdown" {
        "### "
    } else {
        "File: "
    };
    let mut offset = 0;
    for line in document.split_inclusive('\n') {
        if line
            .trim_end_matches('\n')
            .strip_prefix(prefix)
            .is_some_and(|p| p.replace('\\', "") == path)
        {
            // "\n### path" or "\n====...====\nFile: path"
            return if format == "markdown" {
                offset - 1
            } else {
                offset - 66
            };
        }
        offset += line.len();
    }
    panic!("no section for {path}")
}

/// The section a file gets in a markdown or text pack, as the tool renders it.
fn section_of(fx: &Fixture, path: &str, format: &str) -> String {
    let out = run(
        &fx.root,
        &[
            "pack",
            fx.root.to_str().unwrap(),
            "--view",
            "content",
            "--format",
            format,
            "--paths",
            path,
        ],
    );
    let document = String::from_utf8(out.stdout).unwrap();
    document.split_once('\n').unwrap().1.to_string() // after the Root line
}

#[test]
fn no_skipped_file_would_have_fit() {
    let fx = project();
    for (name, encoding) in [("o200k", Encoding::O200k), ("cl100k", Encoding::Cl100k)] {
        for format in ["markdown", "text"] {
            for view in ["tree-content", "content"] {
                let (whole, _) = exact_pack(&fx, name, u64::MAX / 2, format, view).unwrap();
                let order = included(&whole, format);
                let full = encoding.count(&whole);
                for max in [full * 2 / 3, full / 3] {
                    let (document, _) = exact_pack(&fx, name, max, format, view).unwrap();
                    let kept = included(&document, format);
                    assert!(
                        kept.len() < order.len(),
                        "{format} {view} {max}: nothing skipped"
                    );
                    for skipped in order.iter().filter(|p| !kept.contains(p)) {
                        // Insert its section where it belongs: before the next kept file.
                        let position = order.iter().position(|p| p == skipped).unwrap();
                        let next_kept = order[position..].iter().find(|p| kept.contains(p));
                        let section = section_of(&fx, skipped, format);
                        let with = match next_kept {
                            Some(next) => {
                                let at = section_start(&document, next, format);
                                format!("{}{section}{}", &document[..at], &document[at..])
                            }
                            None => format!("{document}{section}"),
                        };
                        assert!(
                            encoding.count(&with) > max,
                            "{name} {format} {view} {max}: '{skipped}' was skipped but fits"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn tokenizer_on_pack_needs_a_budget() {
    let fx = project();
    let out = run(
        &fx.root,
        &["pack", fx.root.to_str().unwrap(), "--tokenizer", "o200k"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--max-tokens"));
}

fn tool<'a>(tools: &'a Value, name: &str) -> &'a Value {
    tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == name)
        .unwrap()
}

#[test]
fn mcp_without_the_flag_keeps_the_specified_schemas_and_results() {
    let fx = project();
    let mut mcp = Mcp::start(&fx.root);
    let tools = mcp.request("tools/list", json!({}));
    let analyze = tool(&tools["result"], "analyze");
    assert!(!analyze["outputSchema"].to_string().contains("exactTokens"));
    assert!(tool(&tools["result"], "pack_context")["inputSchema"]["properties"]["max_tokens"]["description"]
        .as_str()
        .unwrap()
        .starts_with("Estimated content tokens"));
    let result = mcp.call("analyze", json!({}));
    let text = result["structuredContent"].to_string();
    assert!(
        !text.contains("exactTokens") && !text.contains("encoding"),
        "{text}"
    );
}

#[test]
fn mcp_with_the_flag_counts_exactly_and_fits_pack_context_to_the_budget() {
    let fx = project();
    let root = fx.root_str();
    let mut mcp = Mcp::start_with(&["--root", &root, "--tokenizer", "o200k"], &[]);
    let tools = mcp.request("tools/list", json!({}));
    let analyze_tool = tool(&tools["result"], "analyze");
    let schema = &analyze_tool["outputSchema"];
    assert_eq!(schema["properties"]["exactTokens"]["type"], "integer");
    assert!(
        schema["required"]
            .as_array()
            .unwrap()
            .contains(&json!("exactTokens"))
    );
    let cli = analyze_json(&fx.root, &["--tokenizer", "o200k"]);
    let first = mcp.call("analyze", json!({"top_files": 1000}));
    let second = mcp.call("analyze", json!({"top_files": 1000})); // from the count cache
    for result in [&first, &second] {
        let structured = &result["structuredContent"];
        assert_eq!(structured["encoding"], "o200k_base");
        assert_eq!(structured["exactTokens"], cli["exactTokens"]);
        assert_eq!(structured["largestFiles"], cli["largestFiles"]);
    }
    let full: u64 = {
        let (document, _) =
            exact_pack(&fx, "o200k", u64::MAX / 2, "markdown", "tree-content").unwrap();
        Encoding::O200k.count(&document)
    };
    for format in FORMATS {
        let max = full / 2;
        let result = mcp.call("pack_context", json!({"max_tokens": max, "format": format}));
        assert_eq!(result["isError"], false, "{result}");
        let text = first_text(&result);
        let document = match stored_pack_id(&text) {
            Some((id, _)) => read_whole_pack(&mut mcp, &id).0,
            None => one_spot(&text).inner,
        };
        assert!(Encoding::O200k.count(&document) <= max, "{format}");
        // the same document as the CLI writes
        let (cli_document, _) = exact_pack(&fx, "o200k", max, format, "tree-content").unwrap();
        assert_eq!(document, cli_document, "{format}");
        let blocks: Vec<String> = result["content"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|b| b["text"].as_str().map(str::to_string))
            .collect();
        let report = blocks
            .iter()
            .flat_map(|b| spots(b))
            .find(|s| s.inner.starts_with("Token budget:"))
            .expect("a budget block");
        assert!(
            report
                .inner
                .contains("o200k_base tokens for the complete document"),
            "{}",
            report.inner
        );
        assert!(
            report.inner.contains(&format!(
                "Document: {} tokens.",
                Encoding::O200k.count(&document)
            )),
            "{}",
            report.inner
        );
    }
}

/// `view: "diff"` with an exact budget (issue 40): the complete diff document counts at most
/// `max_tokens` in the encoding, and the report says its count.
#[test]
fn an_exact_budget_bounds_a_diff_document_too() {
    let fx = project();
    common::git(&fx.root, &["init", "-q"]);
    common::git(&fx.root, &["add", "."]);
    common::git(&fx.root, &["commit", "-qm", "init"]);
    fx.write(
        "src/main.rs",
        "fn main() {\n    println!(\"changed\");\n}\n",
    )
    .write("src/lib.rs", "pub fn only() {}\n")
    .write("src/new.rs", "pub fn brand_new() -> u8 {\n    7\n}\n");
    let diff_pack = |max: u64, format: &str| {
        let out_path = fx.base().join(format!("diff-{max}-{format}.out"));
        let out = run(
            &fx.root,
            &[
                "pack",
                fx.root.to_str().unwrap(),
                "--git-scope",
                "changes",
                "--view",
                "diff",
                "--tokenizer",
                "o200k",
                "--max-tokens",
                &max.to_string(),
                "--format",
                format,
                "-o",
                out_path.to_str().unwrap(),
            ],
        );
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{stderr}");
        (std::fs::read_to_string(&out_path).unwrap(), stderr)
    };
    for format in FORMATS {
        let (whole, _) = diff_pack(u64::MAX / 2, format);
        assert!(whole.contains("+pub fn brand_new()"), "{whole}");
        let full = Encoding::O200k.count(&whole);
        for max in [full, full - 1, full / 2] {
            let (document, stderr) = diff_pack(max, format);
            let count = Encoding::O200k.count(&document);
            assert!(count <= max, "{format}: {count} > {max}");
            assert_eq!(reported_document_tokens(&stderr), count, "{format} {max}");
            if max < full {
                assert!(stderr.contains("Skipped: "), "{stderr}");
            }
        }
    }
}
