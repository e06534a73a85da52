//! The MCP server's stdin pre-parser: `read_bounded_line` cuts the byte stream into lines and
//! `screen` decides, per line, to forward it to rmcp, answer it, or skip it.
//!
//! Input: the bytes stdin delivers; a `0x01` byte (never valid in JSON text) ends a read: the
//! bytes before and after it arrive in separate `fill_buf` calls. The stream is read with the
//! server's limit, and again with a small limit (1 to 128 bytes, from a hash of the input), so
//! the refusal of long lines is exercised at every read boundary. (The 16 MiB limit itself is
//! tested in `tests/mcp_protocol.rs`: lines that long would make every run slow.)
//!
//! Invariants: the lines are exactly the stream split at `\n` (a last line without `\n`
//! counts when not empty), a line over the limit becomes `TooLong`; a forwarded line is one
//! rmcp's transport parses as a JSON object (after its own `\r` and BOM handling), so it is
//! never dropped in silence, and a request among them has a string or integer id; a reply is
//! one line of JSON-RPC error with code -32700, -32600 or -32602 (tools/call params) and the
//! request's id when it has a valid one; only blank lines are skipped.
#![no_main]

use devprojex::mcp::fuzzing::{self, InFlight, MAX_LINE_BYTES, ReadLine, Screen};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

/// The specification of `read_bounded_line`: the stream split at `\n`.
fn expected_lines(stream: &[u8], max_bytes: usize) -> Vec<ReadLine> {
    let mut segments: Vec<&[u8]> = stream.split(|&b| b == b'\n').collect();
    if segments.last().is_some_and(|last| last.is_empty()) {
        segments.pop();
    }
    segments
        .into_iter()
        .map(|line| {
            if line.len() > max_bytes {
                ReadLine::TooLong
            } else {
                ReadLine::Bytes(line.to_vec())
            }
        })
        .collect()
}

fn is_json_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// The line as rmcp's stdio transport parses it: a trailing `\r` and a leading BOM dropped.
fn rmcp_view(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line)
}

fn valid_id(id: &Value) -> bool {
    id.is_string() || id.is_i64() || id.is_u64()
}

fn check_screen(line: &[u8], in_flight: &InFlight) {
    let parsed = serde_json::from_slice::<Value>(rmcp_view(line));
    match fuzzing::screen(line, in_flight) {
        Screen::Skip => assert!(
            line.iter().all(|&b| is_json_space(b)),
            "a line that is not blank was skipped without an answer"
        ),
        Screen::Forward => {
            let value = parsed.expect("forwarded a line rmcp cannot parse (it would drop it)");
            let object = value
                .as_object()
                .expect("forwarded JSON that is not an object");
            assert_eq!(object.get("jsonrpc"), Some(&Value::from("2.0")));
            let has_method = object.get("method").is_some_and(Value::is_string);
            let is_response = object.contains_key("id")
                && (object.contains_key("result") || object.contains_key("error"));
            assert!(has_method || is_response);
            if let Some(id) = object.get("id") {
                // A request's id is a string or an integer (MCP: never null).
                assert!(
                    valid_id(id) || (!has_method && id.is_null()),
                    "forwarded id {id}"
                );
            }
            if has_method && let Some(params) = object.get("params") {
                assert!(params.is_object() || params.is_null());
            }
        }
        Screen::Reply(reply) => {
            assert!(!reply.contains(['\n', '\r']), "a reply must be one line");
            let reply: Value = serde_json::from_str(&reply).expect("a reply is JSON");
            assert_eq!(reply["jsonrpc"], "2.0");
            assert!(reply["error"]["message"].is_string());
            match reply["error"]["code"].as_i64() {
                Some(-32700) => {
                    assert!(
                        parsed.is_err(),
                        "JSON rmcp takes was answered as a parse error"
                    );
                    assert_eq!(reply["id"], Value::Null);
                }
                Some(-32602) => {
                    // tools/call whose params name no tool or carry arguments that are no object.
                    let value = parsed.expect("invalid JSON answered as invalid params");
                    assert_eq!(value["method"], "tools/call");
                    assert!(valid_id(&value["id"]));
                    assert_eq!(reply["id"], value["id"], "invalid params must echo the id");
                }
                Some(-32600) => {
                    let value = parsed.expect("invalid JSON answered as an invalid request");
                    let id = value.get("id").filter(|id| valid_id(id));
                    let echoed = &reply["id"];
                    assert!(
                        echoed.is_null() || Some(echoed) == id,
                        "reply id {echoed} is not the request's"
                    );
                    if value.get("jsonrpc") == Some(&Value::from("2.0"))
                        && let Some(id) = id
                    {
                        assert_eq!(echoed, id, "a valid request id must be echoed");
                    }
                }
                other => panic!("unexpected error code {other:?}"),
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let reads: Vec<&[u8]> = data.split(|&b| b == 0x01).collect();
    let stream: Vec<u8> = reads.concat();
    let hash = data.iter().fold(0x811c_9dc5u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    let small_limit = 1 + (hash % 128) as usize;
    for limit in [MAX_LINE_BYTES, small_limit] {
        let lines = fuzzing::read_lines(&reads, limit);
        assert!(
            lines == expected_lines(&stream, limit),
            "lines read with a {limit}-byte limit differ from a split at \\n"
        );
        if limit == MAX_LINE_BYTES {
            // One session: no response comes back, so a reused request id is refused.
            let in_flight = InFlight::default();
            for line in &lines {
                if let ReadLine::Bytes(bytes) = line {
                    check_screen(bytes, &in_flight);
                }
            }
        }
    }
});
