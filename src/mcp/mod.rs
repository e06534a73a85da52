//! `devprojex mcp`: the read-only MCP server over stdio.
//!
//! stdout carries JSON-RPC only; every diagnostic goes to stderr. A line pre-parser sits
//! between stdin and rmcp so malformed lines get a JSON-RPC parse error (-32700, id null)
//! instead of silence, and JSON that is not a request gets -32600; the server keeps serving.
//! It is also the server's backpressure: it reads no further while 64 answers (or 64 MiB) wait
//! for a client that does not read them, and it handles cancels (backpressure.rs).

mod backpressure;
mod flags;
#[doc(hidden)]
pub mod fuzzing;
pub mod pack_store;
pub mod references;
mod relevance;
pub mod roots;
pub mod search;
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

pub use backpressure::InFlight;
pub use flags::McpArgs;

use crate::engine::{Engine, EngineConfig};
use crate::error::{DpxError, ErrorKind, Result};

/// The largest JSON-RPC line accepted (longer lines get a parse error and are discarded). One
/// byte under rmcp's 16 MiB, which counts the `\n` a forwarded line carries.
pub const MAX_LINE_BYTES: usize = rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH - 1;
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
    // Explicit roots, else the client's MCP roots or a safe working directory (roots.rs).
    let startup = roots::startup(
        &args.roots,
        &|key| std::env::var(key).ok(),
        std::env::current_dir().ok(),
    );
    let stdin_is_terminal = std::io::IsTerminal::is_terminal(&std::io::stdin());
    let (roots, mode) =
        match roots::prepare(startup, roots::home_dir().as_deref(), stdin_is_terminal) {
            Ok(prepared) => prepared,
            Err(message) => {
                eprintln!("devprojex mcp: {message}");
                return Ok(ExitCode::from(1));
            }
        };
    let store = match pack_store::PackStore::create() {
        Ok(store) => store,
        Err(err) => {
            eprintln!("devprojex mcp: {err}");
            return Ok(ExitCode::from(1));
        }
    };
    return_large_buffers_when_freed();
    // Compile the rules before serving, so no request's deadline pays for it.
    devprojex_redact::Redactor::prepare();
    let engine = Engine::new(EngineConfig {
        hide_private_data: args.hide_private_data,
        git_mode: args.git_mode,
    });
    let engine = match args.tokenizer {
        Some(encoding) => engine.with_tokenizer(
            encoding,
            Some(crate::limits::SERVER_TOKEN_COUNT_CACHE_ENTRIES),
        ),
        None => engine,
    };
    eprintln!(
        "devprojex mcp {}: roots [{}]; git mode {}; private data {}; remote {}; tokens {}",
        env!("CARGO_PKG_VERSION"),
        if roots.is_ready() {
            roots
                .iter()
                .map(|r| r.address.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        } else {
            "the client's MCP roots, else the working directory".into()
        },
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
        args.tokenizer
            .map(|e| format!("exact ({})", e.name()))
            .unwrap_or_else(|| "estimated".into()),
    );
    let state = Arc::new(server::ServerState {
        engine,
        caches: crate::caches::Caches::for_server(),
        roots,
        allow_remote: args.allow_remote,
        remote: crate::gitstate::remote_session(args.allow_remote),
        store,
        tools: tools::tool_list(args.allow_remote, args.tokenizer),
        in_flight: InFlight::default(),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .worker_threads(2)
        .build()
        .map_err(|err| {
            DpxError::new(
                ErrorKind::ProjectUnavailable,
                format!("cannot start the async runtime: {err}"),
            )
        })?;
    let mode = Arc::new(mode);
    let code = runtime.block_on(serve(Arc::clone(&state), Arc::clone(&mode)));
    state.store.remove_all();
    // Leave at once: a blocking stdin read or a long tool call must not delay exit.
    std::process::exit(code);
}

async fn serve(state: Arc<server::ServerState>, mode: Arc<roots::Mode>) -> i32 {
    // Before any request is read: a signal that arrives once the client has had an answer
    // must find its handler in place (installed later, on the first poll of the loop below,
    // a loaded machine could answer first and SIGTERM then killed the process).
    let shutdown = shutdown_signal();
    let (rmcp_in, mut to_rmcp) = tokio::io::duplex(1 << 20);
    let (from_rmcp, rmcp_out) = tokio::io::duplex(1 << 20);
    // Every line for stdout, from rmcp and from the pre-parser; `InFlight` bounds it.
    let (outgoing, mut outgoing_lines) = tokio::sync::mpsc::unbounded_channel::<String>();
    let in_flight = state.in_flight.clone();

    // Writer: whole lines, never interleaved. A line the client cannot take any more (stdout
    // closed) still counts as written, so the server never waits for it.
    let written = in_flight.clone();
    let writer = tokio::spawn(async move {
        let mut stdout = tokio::io::stdout();
        let mut open = true;
        while let Some(line) = outgoing_lines.recv().await {
            if open {
                open = stdout
                    .write_all(format!("{line}\n").as_bytes())
                    .await
                    .is_ok()
                    && stdout.flush().await.is_ok();
            }
            written.written(line.len());
        }
    });

    // rmcp's lines, taken no faster than the client reads them.
    let from_server = in_flight.clone();
    let to_writer = outgoing.clone();
    tokio::spawn(async move {
        let mut rmcp_lines = BufReader::new(from_rmcp).lines();
        loop {
            from_server.room_to_queue().await;
            match rmcp_lines.next_line().await {
                Ok(Some(line)) => {
                    if from_server.from_server(&line) {
                        let _ = to_writer.send(line);
                    }
                }
                _ => break,
            }
        }
    });

    // Reader: bounded lines from stdin, checked before rmcp sees them, and read only while
    // the client takes its answers (backpressure.rs).
    let reader = tokio::spawn(async move {
        let mut stdin = BufReader::new(tokio::io::stdin());
        let reply = |line: String| {
            in_flight.reply(&line);
            let _ = outgoing.send(line);
        };
        loop {
            in_flight.room_to_read().await;
            match read_bounded_line(&mut stdin, MAX_LINE_BYTES).await {
                Ok(None) => break,
                Ok(Some(Line::TooLong)) => reply(parse_error("message larger than 16 MiB")),
                Ok(Some(Line::Bytes(bytes))) => match screen(&bytes, &in_flight) {
                    Screened::Forward => {
                        let mut line = bytes;
                        line.push(b'\n');
                        if to_rmcp.write_all(&line).await.is_err() {
                            break;
                        }
                    }
                    Screened::Cancel(id) => in_flight.cancel(&id),
                    Screened::Reply(line) => reply(line),
                    Screened::Skip => {}
                },
                Err(_) => break,
            }
        }
        let _ = to_rmcp.shutdown().await;
        drop(to_rmcp);
    });

    let exit = Arc::new(roots::Exit::default());
    let handler = roots::SessionHandler::new(
        server::DevprojexServer::new(Arc::clone(&state)),
        state,
        Arc::clone(&mode),
        Arc::clone(&exit),
        crate::update_hint::current_note(),
    );
    let service = handler.serve((rmcp_in, rmcp_out));
    let mut reader = reader;
    tokio::select! {
        _ = async {
            match service.await {
                Ok(running) => { let _ = running.waiting().await; }
                Err(err) => eprintln!("devprojex mcp: the session ended before initialization: {err}"),
            }
        } => {},
        _ = shutdown => {},
        // The session refused to start (roots.rs): end it once the error has gone out.
        _ = exit.requested() => {},
        // stdin closed: the client is gone. rmcp would wait up to 5 s for calls in flight;
        // answers that are ready within the grace still go out, then the process ends.
        _ = async {
            let _ = (&mut reader).await;
            tokio::time::sleep(STDIN_CLOSED_GRACE).await;
        } => {},
    }
    reader.abort();
    let _ = tokio::time::timeout(std::time::Duration::from_millis(200), writer).await;
    exit.final_code(&mode)
}

/// Installs the handlers of the signals that end the server with cleanup, at once, and returns
/// what resolves on the first of them: SIGINT, SIGTERM and SIGHUP (a closed terminal) on Unix;
/// Ctrl+C, Ctrl+Break and console close on Windows. A signal whose handler cannot be installed
/// is simply not waited for.
fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    let (mut terminate, mut hangup, mut interrupt) = {
        use tokio::signal::unix::{SignalKind, signal};
        (
            signal(SignalKind::terminate()).ok(),
            signal(SignalKind::hangup()).ok(),
            signal(SignalKind::interrupt()).ok(),
        )
    };
    #[cfg(windows)]
    let (mut interrupt, mut brk, mut close) = {
        use tokio::signal::windows::{ctrl_break, ctrl_c, ctrl_close};
        (ctrl_c().ok(), ctrl_break().ok(), ctrl_close().ok())
    };
    async move {
        #[cfg(unix)]
        tokio::select! {
            _ = received(terminate.as_mut().map(|s| s.recv())) => {},
            _ = received(hangup.as_mut().map(|s| s.recv())) => {},
            _ = received(interrupt.as_mut().map(|s| s.recv())) => {},
        }
        #[cfg(windows)]
        tokio::select! {
            _ = received(interrupt.as_mut().map(|s| s.recv())) => {},
            _ = received(brk.as_mut().map(|s| s.recv())) => {},
            _ = received(close.as_mut().map(|s| s.recv())) => {},
        }
        #[cfg(not(any(unix, windows)))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
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
    max_bytes: usize,
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
            if line.len() + chunk.len() > max_bytes {
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
    /// `notifications/cancelled` for this request id: handled here, never forwarded
    /// (backpressure.rs says why).
    Cancel(Value),
    Reply(String),
    Skip,
}

fn parse_error(detail: &str) -> String {
    json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": format!("Parse error: {detail}")}}).to_string()
}

/// Decide what to do with one input line.
fn screen(bytes: &[u8], in_flight: &InFlight) -> Screened {
    // JSON's whitespace only: rmcp parses the line as sent, so a line with a form feed around it
    // must be answered here, not forwarded and dropped.
    if bytes
        .iter()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
    {
        return Screened::Skip;
    }
    // rmcp's transport drops a leading byte-order mark before parsing: read the line as it will.
    let json = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let value: Value = match serde_json::from_slice(json) {
        Ok(value) => value,
        Err(err) => {
            return Screened::Reply(parse_error(&format!("the line is not valid JSON ({err})")));
        }
    };
    let error = |id: Value, code: i64, message: String| {
        Screened::Reply(
            json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
                .to_string(),
        )
    };
    let invalid = |id: Value, why: &str| error(id, -32600, format!("Invalid Request: {why}"));
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
    let method = object.get("method").and_then(Value::as_str);
    let is_response = object.contains_key("id")
        && (object.contains_key("result") || object.contains_key("error"));
    if method.is_none() && !is_response {
        return invalid(id, "the message has no \"method\"");
    }
    if let Some(raw_id) = object.get("id")
        && !(raw_id.is_string() || raw_id.is_i64() || raw_id.is_u64() || raw_id.is_null())
    {
        return invalid(Value::Null, "\"id\" must be a string or an integer");
    }
    if method.is_some() && object.get("id").is_some_and(Value::is_null) {
        return invalid(
            Value::Null,
            "\"id\" must not be null (MCP); send a string or an integer, or omit \"id\" for a notification",
        );
    }
    let params = object.get("params");
    if method.is_some() && params.is_some_and(|p| !(p.is_object() || p.is_null())) {
        return invalid(id, "\"params\" must be an object");
    }
    if method == Some("tools/call") && !id.is_null() {
        let name = params.and_then(|p| p.get("name"));
        let arguments = params.and_then(|p| p.get("arguments"));
        if !name.is_some_and(Value::is_string) {
            return error(
                id,
                -32602,
                "Invalid params: tools/call needs \"name\", a string naming the tool (see tools/list)".into(),
            );
        }
        if arguments.is_some_and(|a| !(a.is_object() || a.is_null())) {
            return error(
                id,
                -32602,
                "Invalid params: tools/call \"arguments\" must be an object of the tool's arguments".into(),
            );
        }
    }
    if method == Some("notifications/cancelled")
        && id.is_null()
        && let Some(request_id) = params
            .and_then(|p| p.get("requestId"))
            .filter(|id| id.is_string() || id.is_i64() || id.is_u64())
    {
        return Screened::Cancel(request_id.clone());
    }
    // A request rmcp cannot decode it would answer with id null, and its id would stay in
    // flight: answer it here, with its id.
    if method.is_some()
        && !id.is_null()
        && let Err(err) = serde_json::from_slice::<rmcp::model::ClientJsonRpcMessage>(json)
    {
        let why: String = err.to_string().chars().take(200).collect();
        return invalid(
            id,
            &format!(
                "the params do not have the shape MCP gives this method ({why}); send them as the MCP specification describes"
            ),
        );
    }
    if method.is_some() && !id.is_null() && !in_flight.start(&id) {
        return invalid(
            id,
            "this id is already used by a request that has not been answered; use a new id for each request",
        );
    }
    Screened::Forward
}

/// The server lives long, and each call reads files of up to 16 MiB whole. glibc's malloc
/// raises its mmap threshold after the first such buffer is freed, so later ones come from the
/// arenas and stay resident after the call (a search of one 16 MiB file left 63–76 MB behind);
/// a fixed threshold gives each one back to the system when it is freed.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)] // the platform call; its SAFETY note is at the block
fn return_large_buffers_when_freed() {
    // SAFETY: mallopt only sets a parameter of glibc's allocator; it is called before the
    // server starts its threads, and a refused value leaves the default in place.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

/// Other allocators give large buffers back on their own.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn return_large_buffers_when_freed() {}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(line: &str) -> Option<Value> {
        match screen(line.as_bytes(), &InFlight::default()) {
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
        assert!(matches!(
            screen(b"   ", &InFlight::default()),
            Screened::Skip
        ));
        // Found by fuzz/fuzz_targets/jsonrpc_line.rs: a form feed is no JSON whitespace.
        assert_eq!(reply("\x0c  ").unwrap()["error"]["code"], -32700);
        // A byte-order mark before JSON is read past, as rmcp's transport does (a fuzz input).
        assert_eq!(reply("\u{feff}0").unwrap()["error"]["code"], -32600);
        assert_eq!(reply("\u{feff}{nope").unwrap()["error"]["code"], -32700);
        assert_eq!(
            reply("\x0c{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}").unwrap()["error"]["code"],
            -32700
        );
    }

    #[test]
    fn null_ids_tool_call_params_and_duplicate_ids() {
        let null = reply(r#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#).unwrap();
        assert_eq!(null["error"]["code"], -32600);
        assert!(null.as_object().unwrap().contains_key("id") && null["id"].is_null());
        let missing =
            reply(r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{}}"#).unwrap();
        assert_eq!(
            (missing["id"].clone(), missing["error"]["code"].clone()),
            (json!(4), json!(-32602))
        );
        let bad_args = reply(
            r#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"get_tree","arguments":[1]}}"#,
        )
        .unwrap();
        assert_eq!(bad_args["error"]["code"], -32602);
        assert_eq!(bad_args["id"], "a");
        let in_flight = InFlight::default();
        let line = br#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#;
        assert!(matches!(screen(line, &in_flight), Screened::Forward));
        let Screened::Reply(again) = screen(line, &in_flight) else {
            panic!("a duplicate id in flight is refused")
        };
        let again: Value = serde_json::from_str(&again).unwrap();
        assert_eq!(
            (again["id"].clone(), again["error"]["code"].clone()),
            (json!(7), json!(-32600))
        );
        assert!(in_flight.from_server(r#"{"jsonrpc":"2.0","id":7,"result":{}}"#));
        assert!(matches!(screen(line, &in_flight), Screened::Forward));
    }

    #[test]
    fn a_request_rmcp_cannot_decode_is_refused_with_its_id_and_cancels_stop_here() {
        // rmcp answered this with id null (its ids are i64), and the id stayed in flight for good.
        let refused = reply(r#"{"jsonrpc":"2.0","id":18446744073709551615,"method":"ping"}"#)
            .expect("refused by the pre-parser");
        assert_eq!(
            (refused["id"].clone(), refused["error"]["code"].clone()),
            (json!(18446744073709551615u64), json!(-32600))
        );
        let in_flight = InFlight::default();
        let cancel =
            br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a"}}"#;
        assert!(matches!(screen(cancel, &in_flight), Screened::Cancel(id) if id == json!("a")));
        // Unknown methods still reach rmcp, which answers "method not found".
        let custom = br#"{"jsonrpc":"2.0","id":1,"method":"vendor/thing","params":{}}"#;
        assert!(matches!(screen(custom, &in_flight), Screened::Forward));
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
