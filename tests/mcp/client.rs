//! A real MCP client (rmcp) talks to `devprojex mcp` over the child's stdio: initialize, list
//! the tools and call each of them once.

use std::time::Duration;

use crate::common::{self, Fixture, is_spot_tag, stored_pack_id};
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject};
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

const GUARD: Duration = Duration::from_secs(90);

fn project() -> Fixture {
    let fx = Fixture::new();
    fx.write("src/main.rs", "fn main() {\n    println!(\"hello\");\n}\n")
        .write("README.md", "# Demo\n");
    // Big enough that pack_context stores the pack and read_pack has something to read.
    for i in 0..120 {
        fx.write(
            &format!("data/file_{i:03}.txt"),
            format!("{}\n", format!("row {i} ").repeat(60)),
        );
    }
    fx
}

fn args(value: Value) -> JsonObject {
    value.as_object().cloned().unwrap()
}

fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
        .expect("a first text block")
}

async fn call(
    client: &rmcp::service::RunningService<rmcp::RoleClient, ()>,
    tool: &'static str,
    arguments: Value,
) -> CallToolResult {
    client
        .peer()
        .call_tool(CallToolRequestParams::new(tool).with_arguments(args(arguments)))
        .await
        .unwrap_or_else(|err| panic!("{tool}: {err}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rmcp_client_initializes_lists_and_calls_every_tool() {
    tokio::time::timeout(GUARD, session())
        .await
        .expect("the rmcp session timed out");
}

async fn session() {
    let fx = project();
    let packs = fx.base().join("packs");
    let mut command = tokio::process::Command::new(common::bin());
    command
        .arg("mcp")
        .arg("--root")
        .arg(&fx.root)
        .env("DEVPROJEX_PACK_DIR", &packs)
        .env_remove("DEVPROJEX_ROOT")
        .env_remove("CLAUDE_PROJECT_DIR");
    // The startup diagnostic line goes to stderr; keep test output quiet.
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn devprojex mcp");
    let client = ().serve(transport).await.expect("initialize");

    let info = client
        .peer()
        .peer_info()
        .expect("server info after initialize");
    let info = serde_json::to_value(&*info).unwrap();
    assert_eq!(info["serverInfo"]["name"], "devprojex", "{info}");
    assert!(
        info["instructions"]
            .as_str()
            .is_some_and(|s| s.contains("pack_context"))
    );

    let tools = client.peer().list_tools(None).await.expect("tools/list");
    let names: Vec<&str> = tools.tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "list_projects",
            "get_tree",
            "analyze",
            "pack_context",
            "read_pack",
            "search_project",
            "get_file",
            "find_symbol",
            "related_files",
            "find_references"
        ]
    );
    for tool in &tools.tools {
        let annotations = tool.annotations.as_ref().expect("annotations");
        assert_eq!(annotations.read_only_hint, Some(true), "{}", tool.name);
        assert_eq!(
            tool.output_schema.is_some(),
            matches!(tool.name.as_ref(), "list_projects" | "analyze"),
            "{}",
            tool.name
        );
    }

    // list_projects: structured result.
    let result = call(&client, "list_projects", json!({})).await;
    assert_eq!(result.is_error, Some(false));
    let structured = result
        .structured_content
        .clone()
        .expect("structuredContent");
    assert_eq!(structured["projects"][0]["path"], fx.root_str());
    let first: Value = serde_json::from_str(&text_of(&result)).unwrap();
    assert_eq!(first, structured);

    // get_tree
    let result = call(&client, "get_tree", json!({"format": "text"})).await;
    assert_eq!(result.is_error, Some(false));
    let text = text_of(&result);
    assert!(
        text.contains("main.rs") && text.contains("file_119.txt"),
        "{text}"
    );
    assert!(result.structured_content.is_none());

    // analyze
    let result = call(&client, "analyze", json!({"top_files": 3})).await;
    assert_eq!(result.is_error, Some(false));
    let structured = result
        .structured_content
        .clone()
        .expect("structuredContent");
    assert_eq!(structured["files"], 122);
    assert_eq!(structured["largestFiles"].as_array().unwrap().len(), 3);

    // pack_context (stored) then read_pack
    let result = call(&client, "pack_context", json!({})).await;
    assert_eq!(result.is_error, Some(false));
    let text = text_of(&result);
    let (id, characters) = stored_pack_id(&text).expect("the fixture pack is stored");
    assert!(characters > 50_000);
    let result = call(
        &client,
        "read_pack",
        json!({"pack_id": id, "start_line": 1, "end_line": 20}),
    )
    .await;
    assert_eq!(result.is_error, Some(false));
    let text = text_of(&result);
    assert!(text.contains("# Project context: proj"), "{text}");
    assert!(text.contains("[Showing lines 1-20 of "), "{text}");

    // search_project
    let result = call(
        &client,
        "search_project",
        json!({"pattern": "println", "context_lines": 0}),
    )
    .await;
    assert_eq!(result.is_error, Some(false));
    assert!(
        text_of(&result).contains("src/main.rs:2:"),
        "{}",
        text_of(&result)
    );

    // get_file
    let result = call(&client, "get_file", json!({"path": "README.md"})).await;
    assert_eq!(result.is_error, Some(false));
    let text = text_of(&result);
    assert!(text.contains("# Demo"));
    let tag = text
        .split('<')
        .filter_map(|s| s.split('>').next())
        .find(|t| t.starts_with("untrusted-data-"))
        .unwrap();
    assert!(is_spot_tag(tag), "{tag}");

    // A tool error is a result, not a protocol failure.
    let result = call(&client, "get_file", json!({"path": "../etc/passwd"})).await;
    assert_eq!(result.is_error, Some(true));
    assert!(text_of(&result).starts_with("DPX-MCP-ROOT-VIOLATION"));
    // An unknown tool is a protocol error.
    let err = client
        .peer()
        .call_tool(CallToolRequestParams::new("no_such_tool").with_arguments(args(json!({}))))
        .await;
    assert!(err.is_err(), "unknown tool must be a protocol error");

    client.cancel().await.expect("shut down the client");
}
