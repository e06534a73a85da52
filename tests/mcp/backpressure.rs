//! Backpressure: a client that does not read its answers finds the server no longer reading
//! its requests, instead of the server's memory growing; once it reads, every request is
//! answered exactly once.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{Fixture, bin};

const REQUESTS: usize = 20_000;
/// One request in this many reads a ~40 KB file; the others are `ping`s.
const LARGE_EVERY: usize = 20;

/// The server's resident memory, from /proc (Linux).
fn resident_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
}

#[test]
fn a_client_that_never_reads_stops_the_server_reading_and_then_gets_every_answer_once() {
    let fx = Fixture::new();
    let line = format!("{}\n", "z".repeat(99));
    fx.write("large.txt", line.repeat(400));
    let packs = tempfile::tempdir().unwrap();
    let mut child = Command::new(bin())
        .args(["mcp", "--root", &fx.root_str()])
        .env_remove("DEVPROJEX_ROOT")
        .env_remove("CLAUDE_PROJECT_DIR")
        .env("DEVPROJEX_PACK_DIR", packs.path().join("packs"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    // A failure guard: a server that never answers is ended, which fails the reads below.
    let child = Arc::new(std::sync::Mutex::new(child));
    let (done, finished) = std::sync::mpsc::channel::<()>();
    std::thread::spawn({
        let child = Arc::clone(&child);
        move || {
            if finished.recv_timeout(Duration::from_secs(300)).is_err() {
                let _ = child.lock().unwrap().kill();
            }
        }
    });

    // The client writes everything and reads nothing.
    let sent = Arc::new(AtomicUsize::new(0));
    let writer = std::thread::spawn({
        let sent = Arc::clone(&sent);
        move || {
            let initialize = json!({"jsonrpc": "2.0", "id": "init", "method": "initialize",
                "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "backpressure", "version": "0"}}});
            writeln!(stdin, "{initialize}").unwrap();
            writeln!(
                stdin,
                "{}",
                json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
            )
            .unwrap();
            for id in 0..REQUESTS {
                let request = if id % LARGE_EVERY == 0 {
                    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                        "params": {"name": "get_file", "arguments": {"path": "large.txt"}}})
                } else {
                    json!({"jsonrpc": "2.0", "id": id, "method": "ping"})
                };
                if writeln!(stdin, "{request}").is_err() {
                    return;
                }
                sent.fetch_add(1, Ordering::SeqCst);
            }
            // Keep stdin open until the answers are read (closing it ends the session).
            std::thread::park();
        }
    });

    // Wait until the client's writes stall (the server stopped reading) or all went out.
    let mut last = (0, Instant::now());
    let guard = Instant::now() + Duration::from_secs(120);
    loop {
        std::thread::sleep(Duration::from_millis(100));
        let now = sent.load(Ordering::SeqCst);
        if now == REQUESTS || Instant::now() > guard {
            break;
        }
        if now != last.0 {
            last = (now, Instant::now());
        } else if last.1.elapsed() > Duration::from_secs(2) {
            break;
        }
    }
    let stalled_at = sent.load(Ordering::SeqCst);
    let resident = resident_kib(pid);
    assert!(
        stalled_at < 2_000,
        "the server read {stalled_at} of {REQUESTS} requests from a client that reads none of its answers"
    );
    if let Some(kib) = resident {
        assert!(
            kib < 200 * 1024,
            "the server holds {kib} KiB with its client not reading"
        );
    }

    // The client reads: every request is answered exactly once.
    let mut answers: HashMap<Value, usize> = HashMap::new();
    let mut lines = BufReader::new(stdout).lines();
    while answers.len() < REQUESTS + 1 {
        let Some(line) = lines.next() else {
            panic!(
                "stdout closed after {} answers, {} requests sent; status {:?}",
                answers.len(),
                sent.load(Ordering::SeqCst),
                child.lock().unwrap().try_wait()
            );
        };
        let line = line.unwrap();
        let message: Value = serde_json::from_str(&line).unwrap();
        if message.get("result").is_some() || message.get("error").is_some() {
            assert!(message.get("error").is_none(), "an error answer: {message}");
            *answers.entry(message["id"].clone()).or_default() += 1;
        }
    }
    assert_eq!(sent.load(Ordering::SeqCst), REQUESTS);
    assert_eq!(answers.remove(&json!("init")), Some(1));
    for id in 0..REQUESTS {
        assert_eq!(answers.get(&json!(id)), Some(&1), "answers to request {id}");
    }
    writer.thread().unpark();
    writer.join().unwrap();
    let _ = done.send(());
    let mut child = child.lock().unwrap();
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn cancelled_calls_free_their_place_and_are_answered_at_most_once() {
    let fx = Fixture::new();
    for n in 0..200 {
        fx.write(&format!("src/file_{n}.rs"), "fn f() {}\n".repeat(50));
    }
    let mut mcp = crate::common::Mcp::start(&fx.root);
    // More calls than the backpressure allows in flight, each cancelled at once: a cancelled
    // call that kept its place would stop the server reading before the pings.
    let calls = 2 * devprojex::limits::MAX_QUEUED_ANSWERS;
    for id in 0..calls {
        mcp.send(
            &json!({"jsonrpc": "2.0", "id": format!("call-{id}"), "method": "tools/call",
            "params": {"name": "analyze", "arguments": {"detail": "signatures"}}}),
        );
        mcp.notify(
            "notifications/cancelled",
            json!({"requestId": format!("call-{id}"), "reason": "test"}),
        );
    }
    // A cancel for an id never sent changes nothing.
    mcp.notify("notifications/cancelled", json!({"requestId": 12345}));
    let mut answers: HashMap<Value, usize> = HashMap::new();
    for id in 0..calls {
        mcp.send(&json!({"jsonrpc": "2.0", "id": id, "method": "ping"}));
    }
    while (0..calls).any(|id| !answers.contains_key(&json!(id))) {
        let message = mcp.recv();
        if message.get("result").is_some() || message.get("error").is_some() {
            *answers.entry(message["id"].clone()).or_default() += 1;
        }
    }
    while let Some(message) = mcp.recv_within(Duration::from_millis(500)) {
        *answers.entry(message["id"].clone()).or_default() += 1;
    }
    assert!(answers.values().all(|&n| n == 1), "{answers:?}");
}
