//! Tool-argument coercion (`ToolArgs::parse` and its accessors), driven per tool: for each of
//! the seven tools, the arguments are checked against `allowed_arguments`, then every declared
//! argument is read with the accessor its input schema implies (the limits come from the
//! schema, as the handlers use them).
//!
//! Input: the JSON text of a `tools/call` request's `arguments` (an object, or `null`).
//!
//! Invariants: parsing fails exactly when a key is not allowed, with DPX-MCP-INVALID-ARGUMENTS
//! and key names cut to 64 characters; an accessor never panics; an accepted value satisfies
//! the schema's limits and is exactly the value sent (integers from JSON numbers or decimal
//! strings, booleans from JSON booleans or "true"/"false", strings and lists unchanged); a
//! value of the declared type within the limits is always accepted.
#![no_main]

use std::sync::OnceLock;

use devprojex::error::codes;
use devprojex::mcp::args::ToolArgs;
use devprojex::mcp::tools::{TOOL_ORDER, allowed_arguments, tool_list};
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
        tool_list(false, None)
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

fn check_argument(
    args: &ToolArgs,
    name: &str,
    schema: &Value,
    required: bool,
    raw: Option<&Value>,
) {
    let raw = raw.filter(|v| !v.is_null());
    let kind = schema["type"].as_str().expect("every property has a type");
    match kind {
        "string" if schema.get("enum").is_some() => {
            let choices: Vec<&str> = schema["enum"]
                .as_array()
                .expect("enum is an array")
                .iter()
                .map(|c| c.as_str().expect("choices are strings"))
                .collect();
            let got = args.choice(name, &choices);
            let wanted = raw.and_then(Value::as_str).filter(|s| choices.contains(s));
            match (got, raw) {
                (Ok(value), _) => assert_eq!(value.as_deref(), wanted),
                (Err(err), Some(_)) => {
                    assert_eq!(err.code, codes::INVALID_ARGUMENTS);
                    assert!(wanted.is_none(), "a valid choice was refused");
                }
                (Err(_), None) => panic!("an absent choice was refused"),
            }
        }
        "string" => {
            let max = limit(schema, "maxLength").expect("strings have a maxLength") as usize;
            let wanted = raw
                .and_then(Value::as_str)
                .filter(|s| s.chars().count() <= max);
            match args.string(name, max) {
                Ok(value) => assert_eq!(value.as_deref(), wanted),
                Err(err) => {
                    assert_eq!(err.code, codes::INVALID_ARGUMENTS);
                    assert!(
                        wanted.is_none() && raw.is_some(),
                        "a valid string was refused"
                    );
                }
            }
            if required {
                match args.required_string(name, max) {
                    Ok(value) => assert_eq!(Some(value.as_str()), wanted),
                    Err(err) => {
                        assert_eq!(err.code, codes::INVALID_ARGUMENTS);
                        assert!(wanted.is_none(), "a valid required string was refused");
                    }
                }
            }
        }
        "integer" => {
            let min = limit(schema, "minimum").unwrap_or(0);
            let max = limit(schema, "maximum").unwrap_or(u64::MAX);
            let got = args.integer(name, min, max);
            let wanted = raw
                .and_then(exact_integer)
                .filter(|&v| u128::from(min) <= v && v <= u128::from(max));
            match got {
                Ok(value) => {
                    assert_eq!(value.map(u128::from), wanted, "{name} from {raw:?}")
                }
                Err(err) => {
                    assert_eq!(err.code, codes::INVALID_ARGUMENTS);
                    assert!(wanted.is_none() && raw.is_some(), "{name}: {raw:?} refused");
                }
            }
        }
        "boolean" => {
            let wanted = match raw {
                Some(Value::Bool(b)) => Some(*b),
                Some(Value::String(s)) if s == "true" => Some(true),
                Some(Value::String(s)) if s == "false" => Some(false),
                _ => None,
            };
            match args.boolean(name) {
                Ok(value) => assert_eq!(value, wanted),
                Err(err) => {
                    assert_eq!(err.code, codes::INVALID_ARGUMENTS);
                    assert!(wanted.is_none() && raw.is_some());
                }
            }
        }
        "array" => {
            let max_items = limit(schema, "maxItems").expect("arrays have maxItems") as usize;
            let max_chars =
                limit(&schema["items"], "maxLength").expect("items have a maxLength") as usize;
            let wanted: Option<Vec<String>> = match raw {
                None => Some(Vec::new()),
                Some(Value::Array(items)) if items.len() <= max_items => items
                    .iter()
                    .map(|item| {
                        item.as_str()
                            .filter(|s| !s.is_empty() && s.chars().count() <= max_chars)
                            .map(str::to_string)
                    })
                    .collect(),
                Some(_) => None,
            };
            match args.string_list(name, max_items, max_chars) {
                Ok(list) => assert_eq!(Some(list), wanted),
                Err(err) => {
                    assert_eq!(err.code, codes::INVALID_ARGUMENTS);
                    assert!(wanted.is_none(), "a valid list was refused");
                }
            }
        }
        other => panic!("no accessor for schema type {other}"),
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
        let allowed = allowed_arguments(tool);
        let mut allowed_sorted = allowed.to_vec();
        allowed_sorted.sort_unstable();
        let mut declared: Vec<&str> = properties.keys().map(String::as_str).collect();
        declared.sort_unstable();
        assert_eq!(
            allowed_sorted, declared,
            "{tool}: schema and allowed arguments differ"
        );

        let unknown: Vec<&String> = arguments
            .iter()
            .flat_map(|map| map.keys())
            .filter(|key| !allowed.contains(&key.as_str()))
            .collect();
        match ToolArgs::parse(tool, allowed, arguments.clone()) {
            Ok(args) => {
                assert!(
                    unknown.is_empty(),
                    "{tool} accepted unknown keys {unknown:?}"
                );
                for (name, schema) in properties {
                    let raw = arguments.as_ref().and_then(|map| map.get(name));
                    check_argument(&args, name, schema, required.contains(name), raw);
                }
            }
            Err(err) => {
                assert!(
                    !unknown.is_empty(),
                    "{tool} refused allowed keys: {}",
                    err.message
                );
                assert_eq!(err.code, codes::INVALID_ARGUMENTS);
                for key in unknown {
                    let shown: String = key.chars().take(64).collect();
                    assert!(err.message.contains(&format!("'{shown}'")));
                }
            }
        }
    }
});
