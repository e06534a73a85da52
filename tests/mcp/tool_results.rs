//! Each tool's answer on the sample project, as the agent reads it (every text block).

use serde_json::{Value, json};

use crate::common::{Mcp, all_texts, masked, sample_project};

fn answer(fx: &crate::common::Fixture, result: &Value) -> String {
    let mut out = String::new();
    if let Some(structured) = result.get("structuredContent") {
        out.push_str("structuredContent:\n");
        out.push_str(&serde_json::to_string_pretty(structured).unwrap());
        out.push('\n');
    }
    for (i, text) in all_texts(result).iter().enumerate() {
        out.push_str(&format!("--- block {i}\n{text}\n"));
    }
    masked(fx, &out)
}

#[test]
fn every_tool_answers_as_before() {
    let fx = sample_project();
    // One stored pack: a file that does not fit an inline answer.
    fx.write(
        "docs/big.md",
        "a line of documentation text\n".repeat(2_000),
    );
    let mut mcp = Mcp::start(&fx.root);
    let calls: Vec<(&str, &str, Value)> = vec![
        ("list_projects", "list_projects", json!({})),
        ("get_tree_markdown", "get_tree", json!({})),
        ("get_tree_text", "get_tree", json!({"format": "text"})),
        ("get_tree_json", "get_tree", json!({"format": "json"})),
        (
            "get_tree_xml",
            "get_tree",
            json!({"format": "xml", "max_depth": 1}),
        ),
        ("analyze", "analyze", json!({"top_files": 3})),
        (
            "analyze_signatures",
            "analyze",
            json!({"detail": "signatures", "paths": ["src", "app"]}),
        ),
        (
            "pack_context_inline",
            "pack_context",
            json!({"exclude_patterns": ["docs/**"]}),
        ),
        (
            "pack_context_json_content",
            "pack_context",
            json!({"exclude_patterns": ["docs/**"], "format": "json", "view": "content", "detail": "compact"}),
        ),
        (
            "pack_context_budget",
            "pack_context",
            json!({"exclude_patterns": ["docs/**"], "max_tokens": 40, "format": "text"}),
        ),
        ("pack_context_stored", "pack_context", json!({})),
        (
            "search_project",
            "search_project",
            json!({"pattern": "greet"}),
        ),
        (
            "search_project_case",
            "search_project",
            json!({"pattern": "GREET", "ignore_case": false}),
        ),
        (
            "search_project_capped",
            "search_project",
            json!({"pattern": "e", "max_results": 2, "context_lines": 0}),
        ),
        (
            "search_project_secret",
            "search_project",
            json!({"pattern": "TOKEN"}),
        ),
        ("get_file", "get_file", json!({"path": "src/util.rs"})),
        (
            "get_file_range",
            "get_file",
            json!({"path": "app/settings.py", "start_line": 2, "end_line": 4}),
        ),
        ("find_symbol", "find_symbol", json!({"name": "greet"})),
        (
            "find_symbol_prefix",
            "find_symbol",
            json!({"name": "Gre", "match": "prefix", "kind": "class"}),
        ),
        (
            "related_files",
            "related_files",
            json!({"path": "src/main.rs"}),
        ),
        (
            "related_files_importers",
            "related_files",
            json!({"path": "web/helper.ts", "direction": "importers"}),
        ),
        (
            "find_references",
            "find_references",
            json!({"name": "greet"}),
        ),
    ];
    let mut stored_id = None;
    for (name, tool, arguments) in calls {
        let result = mcp.call(tool, arguments);
        assert_eq!(result["isError"], json!(false), "{name}: {result}");
        if name == "pack_context_stored" {
            let text = crate::common::first_text(&result);
            stored_id = crate::common::stored_pack_id(&text).map(|(id, _)| id);
        }
        insta::assert_snapshot!(name, answer(&fx, &result));
    }
    let id = stored_id.expect("the big pack is stored");
    let result = mcp.call(
        "read_pack",
        json!({"pack_id": id, "start_line": 1, "end_line": 12}),
    );
    insta::assert_snapshot!("read_pack", answer(&fx, &result));
}
