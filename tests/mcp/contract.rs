//! The MCP contract as a client sees it: the tool list, and the answer to every kind of bad
//! argument.

use serde_json::{Value, json};

use crate::common::{Mcp, masked, sample_project};

fn tool_list(mcp: &mut Mcp) -> Value {
    mcp.request("tools/list", json!({}))["result"]["tools"].clone()
}

#[test]
fn the_tool_list() {
    let fx = sample_project();
    let mut mcp = Mcp::start(&fx.root);
    insta::assert_snapshot!(
        "tools_list",
        serde_json::to_string_pretty(&tool_list(&mut mcp)).unwrap()
    );
}

#[test]
fn the_tool_list_with_remote_projects_and_exact_tokens() {
    let fx = sample_project();
    let mut mcp = Mcp::start_with(
        &[
            "--root",
            fx.root.to_str().unwrap(),
            "--allow-remote",
            "--tokenizer",
            "o200k",
        ],
        &[],
    );
    insta::assert_snapshot!(
        "tools_list_remote_exact",
        serde_json::to_string_pretty(&tool_list(&mut mcp)).unwrap()
    );
}

/// Every kind of argument problem, for every tool: the answer's text (code and message).
#[test]
fn argument_errors() {
    let fx = sample_project();
    let mut mcp = Mcp::start(&fx.root);
    let long = "x".repeat(4097);
    let cases: Vec<(&str, Value)> = vec![
        ("list_projects", json!({"extra": 1})),
        ("get_tree", json!({"bogus": 1, "another": 2})),
        ("get_tree", json!({"format": "html"})),
        ("get_tree", json!({"format": 3})),
        ("get_tree", json!({"format": "x".repeat(65)})),
        ("get_tree", json!({"max_depth": 0})),
        ("get_tree", json!({"max_depth": "two"})),
        ("get_tree", json!({"max_depth": -1})),
        ("get_tree", json!({"max_depth": 1.5})),
        ("get_tree", json!({"tracked_only": "yes"})),
        ("get_tree", json!({"tracked_only": 1})),
        ("get_tree", json!({"include_patterns": "src/**"})),
        ("get_tree", json!({"include_patterns": ["src/**", 3]})),
        ("get_tree", json!({"include_patterns": [""]})),
        ("get_tree", json!({"exclude_patterns": ["x".repeat(513)]})),
        ("get_tree", json!({"include_patterns": vec!["a"; 257]})),
        ("get_tree", json!({"git_scope": long})),
        ("get_tree", json!({"max_file_bytes": 0})),
        ("get_tree", json!({"project": 7})),
        ("get_tree", json!({"project": "elsewhere"})),
        ("get_tree", json!({"branch": "main"})),
        ("get_tree", json!({"branch": "b".repeat(256)})),
        ("analyze", json!({"top_files": 1001})),
        ("analyze", json!({"top_files": "0"})),
        ("analyze", json!({"detail": "tiny"})),
        ("analyze", json!({"paths": vec!["a"; 257]})),
        ("analyze", json!({"paths": [long]})),
        ("analyze", json!({"profile": long})),
        ("analyze", json!({"paths": ["missing.rs"]})),
        ("pack_context", json!({"view": "everything"})),
        ("pack_context", json!({"max_tokens": 0})),
        (
            "pack_context",
            json!({"max_tokens": "18446744073709551616"}),
        ),
        ("pack_context", json!({"format": "yaml"})),
        ("read_pack", json!({})),
        ("read_pack", json!({"pack_id": "pack_0000"})),
        ("read_pack", json!({"pack_id": "p".repeat(129)})),
        (
            "read_pack",
            json!({"pack_id": "pack_0000", "start_line": 0}),
        ),
        ("search_project", json!({})),
        ("search_project", json!({"pattern": 5})),
        ("search_project", json!({"pattern": long})),
        ("search_project", json!({"pattern": ""})),
        ("search_project", json!({"pattern": "("})),
        (
            "search_project",
            json!({"pattern": "a", "max_results": 201}),
        ),
        (
            "search_project",
            json!({"pattern": "a", "context_lines": 51}),
        ),
        (
            "search_project",
            json!({"pattern": "a", "ignore_case": "no"}),
        ),
        ("get_file", json!({})),
        ("get_file", json!({"path": ""})),
        ("get_file", json!({"path": "src"})),
        ("get_file", json!({"path": "../outside.rs"})),
        ("get_file", json!({"path": "src/main.rs", "start_line": 99})),
        (
            "get_file",
            json!({"path": "src/main.rs", "start_line": 3, "end_line": 2}),
        ),
        ("get_file", json!({"path": "debug.log"})),
        ("find_symbol", json!({})),
        ("find_symbol", json!({"name": ""})),
        ("find_symbol", json!({"name": "n".repeat(257)})),
        ("find_symbol", json!({"name": "greet", "kind": "variable"})),
        ("find_symbol", json!({"name": "greet", "match": "fuzzy"})),
        ("find_symbol", json!({"name": "greet", "max_results": 0})),
        ("related_files", json!({})),
        ("related_files", json!({"path": "src/main.rs", "depth": 4})),
        (
            "related_files",
            json!({"path": "src/main.rs", "direction": "up"}),
        ),
        ("related_files", json!({"path": "missing.rs"})),
    ];
    let mut out = String::new();
    for (tool, arguments) in cases {
        let result = mcp.call(tool, arguments.clone());
        let shown = arguments.to_string();
        let shown = if shown.chars().count() > 120 {
            format!("{}…", shown.chars().take(120).collect::<String>())
        } else {
            shown
        };
        let text = crate::common::first_text(&result);
        out.push_str(&format!(
            "{tool} {shown}\n  isError={} {}\n",
            result["isError"],
            masked(&fx, &text)
        ));
    }
    // Numbers and booleans also come as strings.
    for (tool, arguments) in [
        (
            "get_tree",
            json!({"max_depth": "1", "tracked_only": "false", "format": "text"}),
        ),
        (
            "search_project",
            json!({"pattern": "greet", "max_results": " 1 ", "ignore_case": "true", "context_lines": 0.0}),
        ),
        (
            "get_file",
            json!({"path": "src/main.rs", "start_line": "2", "end_line": 3}),
        ),
    ] {
        let text = mcp.call_ok(tool, arguments.clone());
        out.push_str(&format!(
            "{tool} {arguments}\n  ok\n{}\n",
            masked(&fx, &text)
        ));
    }
    insta::assert_snapshot!("argument_errors", out);
}

/// The spec's tool table (`tests/data/spec-tool-table.md`, copied from the spec verbatim): each
/// row's tool is served in the table's order with exactly its parameters, in its order (as the
/// unknown-argument answer lists them), and the ones without `?` are required. Extensions
/// (`EXTENDED`) are optional arguments after the spec's, whose defaults keep the spec's answers.
#[test]
fn the_served_tools_match_the_spec_table() {
    let table = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/spec-tool-table.md"),
    )
    .unwrap();
    let rows: Vec<(String, Vec<String>)> = table
        .lines()
        .filter(|line| line.starts_with("| `"))
        .map(|line| {
            let cells: Vec<&str> = line.split(" | ").collect();
            let tool = cells[0]
                .trim_start_matches("| ")
                .trim_matches('`')
                .to_string();
            let parameters = match cells[1] {
                "none" => Vec::new(),
                list => list
                    .split(", ")
                    .map(|p| p.trim_matches('`').to_string())
                    .collect(),
            };
            (tool, parameters)
        })
        .collect();
    assert_eq!(rows.len(), 7, "the spec's seven tools");
    let fx = sample_project();
    let mut mcp = Mcp::start(&fx.root);
    let listed = tool_list(&mut mcp);
    /// Issue 40: exact pack budgets per call, search an agent can steer, numbered reads; issue
    /// 41: ranked packs.
    const EXTENDED: [(&str, &[&str]); 3] = [
        (
            "pack_context",
            &["tokenizer", "query", "rank", "detail_overrides"],
        ),
        ("search_project", &["offset", "output", "literal"]),
        ("get_file", &["line_numbers"]),
    ];
    for (index, (tool, parameters)) in rows.iter().enumerate() {
        let served = &listed[index];
        assert_eq!(served["name"], json!(tool), "the tool order");
        let extended = EXTENDED
            .iter()
            .find(|(name, _)| name == tool)
            .map_or(&[][..], |(_, names)| *names);
        let names: Vec<&str> = parameters
            .iter()
            .map(|p| p.trim_end_matches('?'))
            .chain(extended.iter().copied())
            .collect();
        let required: Vec<&str> = parameters
            .iter()
            .filter(|p| !p.ends_with('?'))
            .map(String::as_str)
            .collect();
        let mut properties: Vec<&str> = served["inputSchema"]["properties"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        properties.sort_unstable();
        assert_eq!(properties, sorted, "{tool} parameters");
        assert_eq!(served["inputSchema"]["required"], json!(required), "{tool}");
        assert_eq!(served["inputSchema"]["additionalProperties"], json!(false));
        let refusal = mcp.call_err(tool, json!({"no_such_argument": 1}));
        let order = if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        };
        assert!(
            refusal.ends_with(&format!("valid arguments: {order}")),
            "{tool}: {refusal}"
        );
    }
}
