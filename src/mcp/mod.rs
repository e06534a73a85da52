//! `devprojex mcp`: the read-only MCP server over stdio.
//!
//! stdout carries JSON-RPC only; every diagnostic goes to stderr. A line pre-parser sits
//! between stdin and rmcp so malformed lines get a JSON-RPC parse error (-32700, id null)
//! instead of silence, and JSON that is not a request gets -32600; the server keeps serving.

pub mod args;
pub mod pack_store;
pub mod server;
pub mod spotlight;
pub mod symbols;
pub mod tools;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use rmcp::ServiceExt;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use crate::cli::McpArgs;
use crate::engine::{Engine, EngineConfig};
use crate::error::{DpxError, Result, codes};
use crate::project::ProjectRoot;

/// The largest JSON-RPC line accepted (longer lines get a parse error and are discarded).
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;
/// After stdin closes, how long calls in flight may still finish before the process ends
/// (the exit then completes well within 1 s).
const STDIN_CLOSED_GRACE: std::time::Duration = std::time::Duration::from_millis(300);

/// Where the roots come from when `--root` is absent: `DEVPROJEX_ROOT`, then
/// `CLAUDE_PROJECT_DIR`, then the current directory.
pub fn default_roots(
    env: &dyn Fn(&str) -> Option<String>,
    current_dir: Option<PathBuf>,
) -> Vec<PathBuf> {
    for key in ["DEVPROJEX_ROOT", "CLAUDE_PROJECT_DIR"] {
        if let Some(value) = env(key).filter(|v| !v.trim().is_empty()) {
            return vec![PathBuf::from(value)];
        }
    }
    current_dir.into_iter().collect()
}

/// Run the server until stdin closes or a signal arrives.
pub fn run(args: McpArgs) -> Result<ExitCode> {
    let root_paths = if args.roots.is_empty() {
        default_roots(&|key| std::env::var(key).ok(), std::env::current_dir().ok())
    } else {
        args.roots.clone()
    };
    let mut roots: Vec<ProjectRoot> = Vec::new();
    for path in &root_paths {
        match ProjectRoot::open(path) {
            Ok(root) => {
                if !roots.iter().any(|r| r.path == root.path) {
                    roots.push(root)
                }
            }
            Err(err) => {
                eprintln!("devprojex mcp: {err}");
                return Ok(ExitCode::from(1));
            }
        }
    }
    if roots.is_empty() {
        eprintln!(
            "devprojex mcp: {}: no project root; pass --root /absolute/path/to/project",
            codes::PROJECT_UNAVAILABLE
        );
        return Ok(ExitCode::from(1));
    }
    let store = match pack_store::PackStore::create() {
        Ok(store) => store,
        Err(err) => {
            eprintln!("devprojex mcp: {err}");
            return Ok(ExitCode::from(1));
        }
    };
    crate::select::enable_sniff_cache();
    let engine = Engine::new(EngineConfig {
        hide_private_data: args.hide_private_data,
        git_mode: args.git_mode,
    })
    .with_transform_cache(crate::engine::limits::SERVER_TRANSFORM_CACHE_BYTES)
    .with_symbol_index();
    eprintln!(
        "devprojex mcp {}: roots [{}]; git mode {}; private data {}; remote {}",
        env!("CARGO_PKG_VERSION"),
        roots
            .iter()
            .map(|r| r.address.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        args.git_mode.as_str(),
        if args.hide_private_data {
            "hidden"
        } else {
            "shown"
        },
        if args.allow_remote {
            "allowed"
        } else {
            "disabled"
        },
    );
    let state = Arc::new(server::ServerState {
        engine,
        roots,
        allow_remote: args.allow_remote,
        remote: crate::gitstate::remote_session(args.allow_remote),
        store,
        tools: tools::tool_list(args.allow_remote),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .worker_threads(2)
        .build()
        .map_err(|err| {
            DpxError::new(
                codes::PROJECT_UNAVAILABLE,
                format!("cannot start the async runtime: {err}"),
            )
        })?;
    let code = runtime.block_on(serve(Arc::clone(&state)));
    state.store.remove_all();
    // Leave at once: a blocking stdin read or a long tool call must not delay exit.
    std::process::exit(code);
}

async fn serve(state: Arc<server::ServerState>) -> i32 {
    let (rmcp_in, mut to_rmcp) = tokio::io::duplex(1 << 20);
    let (from_rmcp, rmcp_out) = tokio::io::duplex(1 << 20);
    let (error_lines, mut error_receiver) = tokio::sync::mpsc::unbounded_channel::<String>();

    // Writer: whole lines from rmcp and from the pre-parser, never interleaved.
    let writer = tokio::spawn(async move {
        let mut stdout = tokio::io::stdout();
        let mut rmcp_lines = BufReader::new(from_rmcp).lines();
        let mut rmcp_open = true;
        loop {
            tokio::select! {
                line = rmcp_lines.next_line(), if rmcp_open => match line {
                    Ok(Some(line)) => {
                        if stdout.write_all(format!("{line}\n").as_bytes()).await.is_err() { break; }
                        let _ = stdout.flush().await;
                    }
                    _ => rmcp_open = false,
                },
                line = error_receiver.recv() => match line {
                    Some(line) => {
                        if stdout.write_all(format!("{line}\n").as_bytes()).await.is_err() { break; }
                        let _ = stdout.flush().await;
                    }
                    None if !rmcp_open => break,
                    None => {}
                },
            }
        }
    });

    // Reader: bounded lines from stdin, checked before rmcp sees them.
    let reader = tokio::spawn(async move {
        let mut stdin = BufReader::new(tokio::io::stdin());
        loop {
            match read_bounded_line(&mut stdin).await {
                Ok(None) => break,
                Ok(Some(Line::TooLong)) => {
                    let _ = error_lines.send(parse_error("message larger than 16 MiB"));
                }
                Ok(Some(Line::Bytes(bytes))) => match screen(&bytes) {
                    Screened::Forward => {
                        let mut line = bytes;
                        line.push(b'\n');
                        if to_rmcp.write_all(&line).await.is_err() {
                            break;
                        }
                    }
                    Screened::Reply(reply) => {
                        let _ = error_lines.send(reply);
                    }
                    Screened::Skip => {}
                },
                Err(_) => break,
            }
        }
        let _ = to_rmcp.shutdown().await;
        drop(to_rmcp);
    });

    let handler = server::DevprojexServer::new(state);
    let service = handler.serve((rmcp_in, rmcp_out));
    let mut reader = reader;
    let code = tokio::select! {
        result = async {
            match service.await {
                Ok(running) => { let _ = running.waiting().await; 0 }
                Err(err) => { eprintln!("devprojex mcp: the session ended before initialization: {err}"); 0 }
            }
        } => result,
        _ = shutdown_signal() => 0,
        // stdin closed: the client is gone. rmcp would wait up to 5 s for calls in flight;
        // answers that are ready within the grace still go out, then the process ends.
        _ = async {
            let _ = (&mut reader).await;
            tokio::time::sleep(STDIN_CLOSED_GRACE).await;
        } => 0,
    };
    reader.abort();
    let _ = tokio::time::timeout(std::time::Duration::from_millis(200), writer).await;
    code
}

/// Resolves on the first signal that ends the server with cleanup: SIGINT, SIGTERM and SIGHUP
/// (a closed terminal) on Unix; Ctrl+C, Ctrl+Break and console close on Windows. A signal
/// whose handler cannot be installed is simply not waited for.
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut terminate = signal(SignalKind::terminate()).ok();
        let mut hangup = signal(SignalKind::hangup()).ok();
        let mut interrupt = signal(SignalKind::interrupt()).ok();
        tokio::select! {
            _ = received(terminate.as_mut().map(|s| s.recv())) => {},
            _ = received(hangup.as_mut().map(|s| s.recv())) => {},
            _ = received(interrupt.as_mut().map(|s| s.recv())) => {},
        }
    }
    #[cfg(windows)]
    {
        use tokio::signal::windows::{ctrl_break, ctrl_c, ctrl_close};
        let mut interrupt = ctrl_c().ok();
        let mut brk = ctrl_break().ok();
        let mut close = ctrl_close().ok();
        tokio::select! {
            _ = received(interrupt.as_mut().map(|s| s.recv())) => {},
            _ = received(brk.as_mut().map(|s| s.recv())) => {},
            _ = received(close.as_mut().map(|s| s.recv())) => {},
        }
    }
    #[cfg(not(any(unix, windows)))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Wait for one signal; never resolves when its handler could not be installed.
#[cfg(any(unix, windows))]
async fn received(next: Option<impl std::future::Future<Output = Option<()>>>) {
    match next {
        Some(next) => {
            next.await;
        }
        None => std::future::pending().await,
    }
}

enum Line {
    Bytes(Vec<u8>),
    TooLong,
}

async fn read_bounded_line<R: tokio::io::AsyncBufRead + Unpin>(
    reader: &mut R,
) -> std::io::Result<Option<Line>> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let buffer = reader.fill_buf().await?;
        if buffer.is_empty() {
            return Ok(if line.is_empty() && !too_long {
                None
            } else if too_long {
                Some(Line::TooLong)
            } else {
                Some(Line::Bytes(line))
            });
        }
        let (chunk, found) = match memchr::memchr(b'\n', buffer) {
            Some(i) => (&buffer[..i], Some(i + 1)),
            None => (buffer, None),
        };
        if !too_long {
            if line.len() + chunk.len() > MAX_LINE_BYTES {
                too_long = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        let consumed = found.unwrap_or(buffer.len());
        reader.consume(consumed);
        if found.is_some() {
            return Ok(Some(if too_long {
                Line::TooLong
            } else {
                Line::Bytes(line)
            }));
        }
    }
}

enum Screened {
    Forward,
    Reply(String),
    Skip,
}

fn parse_error(detail: &str) -> String {
    json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": format!("Parse error: {detail}")}}).to_string()
}

/// Decide what to do with one input line.
fn screen(bytes: &[u8]) -> Screened {
    let trimmed = bytes.trim_ascii();
    if trimmed.is_empty() {
        return Screened::Skip;
    }
    let value: Value = match serde_json::from_slice(trimmed) {
        Ok(value) => value,
        Err(err) => {
            return Screened::Reply(parse_error(&format!("the line is not valid JSON ({err})")));
        }
    };
    let invalid = |id: Value, why: &str| {
        Screened::Reply(json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32600, "message": format!("Invalid Request: {why}")}}).to_string())
    };
    let Some(object) = value.as_object() else {
        return invalid(
            Value::Null,
            "a JSON-RPC message must be a JSON object (batches are not supported)",
        );
    };
    let id = object
        .get("id")
        .cloned()
        .filter(|id| id.is_string() || id.is_i64() || id.is_u64())
        .unwrap_or(Value::Null);
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid(id, "the \"jsonrpc\" member must be \"2.0\"");
    }
    let has_method = object.get("method").is_some_and(Value::is_string);
    let is_response = object.contains_key("id")
        && (object.contains_key("result") || object.contains_key("error"));
    if !has_method && !is_response {
        return invalid(id, "the message has no \"method\"");
    }
    if let Some(raw_id) = object.get("id")
        && !(raw_id.is_string() || raw_id.is_i64() || raw_id.is_u64() || raw_id.is_null())
    {
        return invalid(Value::Null, "\"id\" must be a string or an integer");
    }
    if has_method
        && let Some(params) = object.get("params")
        && !(params.is_object() || params.is_null())
    {
        return invalid(id, "\"params\" must be an object");
    }
    Screened::Forward
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(line: &str) -> Option<Value> {
        match screen(line.as_bytes()) {
            Screened::Reply(text) => Some(serde_json::from_str(&text).unwrap()),
            _ => None,
        }
    }

    #[test]
    fn screening() {
        assert_eq!(reply("{nope").unwrap()["error"]["code"], -32700);
        assert_eq!(reply("{nope").unwrap()["id"], Value::Null);
        assert_eq!(reply("[1,2]").unwrap()["error"]["code"], -32600);
        assert_eq!(reply(r#"{"jsonrpc":"2.0","id":3}"#).unwrap()["id"], 3);
        assert_eq!(
            reply(r#"{"jsonrpc":"1.0","id":3,"method":"x"}"#).unwrap()["error"]["code"],
            -32600
        );
        assert!(reply(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#).is_none());
        assert!(matches!(screen(b"   "), Screened::Skip));
    }

    #[test]
    fn root_fallbacks() {
        let env = |key: &str| (key == "CLAUDE_PROJECT_DIR").then(|| "/claude".to_string());
        assert_eq!(
            default_roots(&env, Some("/cwd".into())),
            vec![PathBuf::from("/claude")]
        );
        let env = |key: &str| match key {
            "DEVPROJEX_ROOT" => Some("/dpx".to_string()),
            _ => Some("/claude".to_string()),
        };
        assert_eq!(
            default_roots(&env, Some("/cwd".into())),
            vec![PathBuf::from("/dpx")]
        );
        assert_eq!(
            default_roots(&|_| None, Some("/cwd".into())),
            vec![PathBuf::from("/cwd")]
        );
    }
}
