//! Tool-argument checking (`Call::parse`: the argument structs of `devprojex::args` and the
//! checks their generated schemas drive), for every tool in the list.
//!
//! Input: the JSON text of a `tools/call` request's `arguments` (an object, or `null`).
//!
//! Invariants: a call is refused exactly when a key is not an argument of the tool (the answer
//! names each such key, cut to 64 characters), a required argument is missing, or a present
//! value does not fit its schema: integers from JSON numbers or decimal strings within the
//! schema's range, booleans from JSON booleans or "true"/"false", strings within `maxLength`
//! (choices within 64 characters and among `enum`), lists of non-empty strings within
//! `maxItems` and the items' `maxLength`; `null` is absent. A refusal is
//! DPX-MCP-INVALID-ARGUMENTS (DPX-MCP-INVALID-PATTERN for `search_project`'s pattern), and
//! nothing panics.
#![no_main]

use std::sync::OnceLock;

use devprojex::error::ErrorKind;
use devprojex::mcp::tools::{Call, TOOL_ORDER, argument_names, tools_with_checked_schemas};
use libfuzzer_sys::fuzz_target;
use serde_json::{Map, Value};

/// One tool's input schema.
struct Schema {
    tool: String,
    properties: Map<String, Value>,
    required: Vec<String>,
}

/// Every tool's input schema, in the stable order.
fn schemas() -> &'static [Schema] {
    static SCHEMAS: OnceLock<Vec<Schema>> = OnceLock::new();
    SCHEMAS.get_or_init(|| {
        // the schemas calls are checked against (the listed ones give a repeated argument by
        // its type alone)
        tools_with_checked_schemas(false, None)
            .into_iter()
            .map(|tool| Schema {
                tool: tool.name.to_string(),
                properties: tool.input_schema["properties"]
                    .as_object()
                    .cloned()
                    .expect("every schema has properties"),
                required: tool.input_schema["required"]
                    .as_array()
                    .expect("every schema lists its required arguments")
                    .iter()
                    .map(|name| name.as_str().expect("names").to_string())
                    .collect(),
            })
            .collect()
    })
}

fn limit(schema: &Value, key: &str) -> Option<u64> {
    schema.get(key).and_then(Value::as_u64)
}

/// The integer a JSON value denotes exactly, if any (what `integer` may accept).
fn exact_integer(value: &Value) -> Option<u128> {
    match value {
        Value::Number(n) => match n.as_u64() {
            Some(v) => Some(v.into()),
            None if n.is_i64() => None,
            None => {
                let f = n.as_f64()?;
                // Every f64 at or above 2^53 is an integer; 2^64 and above do not fit.
                (f.fract() == 0.0 && f >= 0.0 && f < 18_446_744_073_709_551_616.0)
                    .then_some(f as u128)
            }
        },
        Value::String(text) => {
            let trimmed = text.trim();
            (!trimmed.is_empty() && trimmed.bytes().all(|b| b.is_ascii_digit()))
                .then(|| trimmed.parse::<u128>().ok())
                .flatten()
        }
        _ => None,
    }
}

/// Whether the tool's checks accept `raw` for an argument of this schema.
fn fits(schema: &Value, raw: &Value) -> bool {
    if let Some(choices) = schema.get("enum").and_then(Value::as_array) {
        return raw
            .as_str()
            .is_some_and(|s| s.chars().count() <= 64 && choices.iter().any(|c| c == raw));
    }
    match schema["type"].as_str().expect("every property has a type") {
        "string" => {
            let max = limit(schema, "maxLength").expect("strings have a maxLength") as usize;
            raw.as_str().is_some_and(|s| s.chars().count() <= max)
        }
        "integer" => {
            let min = limit(schema, "minimum").unwrap_or(0);
            let max = limit(schema, "maximum").unwrap_or(u64::MAX);
            exact_integer(raw).is_some_and(|v| u128::from(min) <= v && v <= u128::from(max))
        }
        "boolean" => matches!(raw, Value::Bool(_)) || raw == "true" || raw == "false",
        "array" => {
            let max_items = limit(schema, "maxItems").expect("arrays have maxItems") as usize;
            let max_chars =
                limit(&schema["items"], "maxLength").expect("items have a maxLength") as usize;
            raw.as_array().is_some_and(|items| {
                items.len() <= max_items
                    && items.iter().all(|item| {
                        item.as_str()
                            .is_some_and(|s| !s.is_empty() && s.chars().count() <= max_chars)
                    })
            })
        }
        // `detail_overrides`: globs of 1 to 512 characters to one of the values' choices
        "object" => {
            let max_entries = limit(schema, "maxProperties").unwrap_or(u64::MAX) as usize;
            raw.as_object().is_some_and(|map| {
                map.len() <= max_entries
                    && map.iter().all(|(glob, detail)| {
                        !glob.trim().is_empty()
                            && glob.chars().count() <= 512
                            && fits(&schema["additionalProperties"], detail)
                    })
            })
        }
        other => panic!("no check for schema type {other}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let arguments = match value {
        Value::Object(map) => Some(map),
        Value::Null => None,
        _ => return,
    };
    for Schema {
        tool,
        properties,
        required,
    } in schemas()
    {
        assert!(TOOL_ORDER.contains(&tool.as_str()));
        let names = argument_names(tool).expect("a listed tool has arguments");
        let mut sorted = names.to_vec();
        sorted.sort_unstable();
        let mut declared: Vec<&str> = properties.keys().map(String::as_str).collect();
        declared.sort_unstable();
        assert_eq!(
            sorted, declared,
            "{tool}: schema and accepted arguments differ"
        );

        let unknown: Vec<&String> = arguments
            .iter()
            .flat_map(|map| map.keys())
            .filter(|key| !names.contains(&key.as_str()))
            .collect();
        let present = |name: &str| {
            arguments
                .as_ref()
                .and_then(|map| map.get(name))
                .filter(|v| !v.is_null())
        };
        let acceptable = unknown.is_empty()
            && properties.iter().all(|(name, schema)| match present(name) {
                Some(raw) => fits(schema, raw),
                None => !required.contains(name),
            });
        match Call::parse(tool, arguments.clone()).expect("a listed tool parses") {
            Ok(_) => assert!(acceptable, "{tool} accepted {arguments:?}"),
            Err(err) => {
                assert!(!acceptable, "{tool} refused {arguments:?}: {}", err.message);
                assert!(
                    err.kind == ErrorKind::InvalidArguments
                        || (tool == "search_project" && err.kind == ErrorKind::InvalidPattern),
                    "{tool}: {}",
                    err.code()
                );
                if !unknown.is_empty() {
                    for key in &unknown {
                        let shown: String = key.chars().take(64).collect();
                        assert!(err.message.contains(&format!("'{shown}'")));
                    }
                }
            }
        }
    }
});
