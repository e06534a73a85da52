//! An MCP call's arguments checked against the tool's generated schema: unknown names refused,
//! numbers accepted as JSON numbers or decimal strings, booleans as JSON booleans or exactly
//! `"true"`/`"false"`, lengths counted in Unicode scalar values. What passes is rewritten in
//! its JSON type, so the struct's `Deserialize` sees only values it accepts.
//!
//! Top-level `minLength` is not checked here: an empty `pattern`, `name` or `path` reaches the
//! engine, whose message says what to pass instead.

use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde_json::{Map, Value};

use crate::limits::MAX_CHOICE_CHARS;

/// Why a call's arguments were refused.
#[derive(Debug)]
pub struct Problem {
    /// The argument at fault (`None` for unknown names).
    pub argument: Option<&'static str>,
    pub message: String,
}

impl Problem {
    fn of(argument: &'static str, message: String) -> Self {
        Self {
            argument: Some(argument),
            message,
        }
    }
}

/// The field names `T`'s derived `Deserialize` accepts, in declaration order: serde passes them
/// to `deserialize_struct`, which this deserializer records instead of reading anything.
pub fn field_names<T: DeserializeOwned>() -> &'static [&'static str] {
    let mut names: &'static [&'static str] = &[];
    let _ = T::deserialize(FieldNames(&mut names));
    names
}

struct FieldNames<'a>(&'a mut &'static [&'static str]);

#[derive(Debug)]
struct Recorded;

impl std::fmt::Display for Recorded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("field names recorded")
    }
}

impl std::error::Error for Recorded {}

impl de::Error for Recorded {
    fn custom<M: std::fmt::Display>(_: M) -> Self {
        Self
    }
}

impl<'de> Deserializer<'de> for FieldNames<'_> {
    type Error = Recorded;

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Recorded> {
        *self.0 = fields;
        Err(Recorded)
    }

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Recorded> {
        Err(Recorded)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

/// Check `arguments` of `tool` (accepting `names`) against its `schema`; the checked values,
/// in their JSON types, with absent and `null` arguments left out.
pub fn check(
    tool: &str,
    names: &'static [&'static str],
    schema: &Map<String, Value>,
    arguments: Option<Map<String, Value>>,
) -> Result<Map<String, Value>, Problem> {
    let mut arguments = arguments.unwrap_or_default();
    let mut unknown: Vec<&String> = arguments
        .keys()
        .filter(|key| !names.contains(&key.as_str()))
        .collect();
    if !unknown.is_empty() {
        unknown.sort();
        let shown: Vec<String> = unknown
            .iter()
            .map(|key| format!("'{}'", key.chars().take(64).collect::<String>()))
            .collect();
        return Err(Problem {
            argument: None,
            message: format!(
                "{tool} does not accept {}; valid arguments: {}",
                shown.join(", "),
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ),
        });
    }
    let empty = Map::new();
    let properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let required = |name: &str| {
        schema
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(|list| list.iter().any(|r| r == name))
    };
    let mut checked = Map::new();
    for &name in names {
        let value = arguments.remove(name).filter(|v| !v.is_null());
        let Some(value) = value else {
            if required(name) {
                return Err(Problem::of(name, format!("{name} is required")));
            }
            continue;
        };
        let property = properties.get(name).unwrap_or(&Value::Null);
        checked.insert(name.to_string(), argument(name, property, value)?);
    }
    Ok(checked)
}

fn limit(schema: &Value, key: &str) -> Option<u64> {
    schema.get(key).and_then(Value::as_u64)
}

/// One argument's value checked against its property schema.
fn argument(name: &'static str, schema: &Value, value: Value) -> Result<Value, Problem> {
    if let Some(choices) = schema.get("enum").and_then(Value::as_array) {
        let text = string(name, MAX_CHOICE_CHARS as u64, value)?;
        if choices.iter().any(|c| c.as_str() == Some(text.as_str())) {
            return Ok(Value::String(text));
        }
        let names: Vec<&str> = choices.iter().filter_map(Value::as_str).collect();
        return Err(Problem::of(
            name,
            format!(
                "{name} is '{}'; valid values: {}",
                text.chars().take(64).collect::<String>(),
                names.join(", ")
            ),
        ));
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("string") => {
            let max = limit(schema, "maxLength").unwrap_or(u64::MAX);
            string(name, max, value).map(Value::String)
        }
        Some("integer") => {
            let min = limit(schema, "minimum").unwrap_or(0);
            let max = limit(schema, "maximum").unwrap_or(u64::MAX);
            integer(name, min, max, &value).map(Value::from)
        }
        Some("boolean") => boolean(name, &value).map(Value::Bool),
        Some("array") => {
            let max_items = limit(schema, "maxItems").unwrap_or(u64::MAX);
            let max_chars = schema
                .get("items")
                .and_then(|items| limit(items, "maxLength"))
                .unwrap_or(u64::MAX);
            string_list(name, max_items, max_chars, value)
        }
        Some("object") => glob_map(name, schema, value),
        // Only the types above appear in the tools' schemas (a test checks every property).
        _ => Ok(value),
    }
}

fn string(name: &'static str, max_chars: u64, value: Value) -> Result<String, Problem> {
    let argument = name;
    match value {
        Value::String(text) => {
            let chars = text.chars().count() as u64;
            if chars > max_chars {
                return Err(Problem::of(
                    argument,
                    format!("{name} has {chars} characters; at most {max_chars} are allowed"),
                ));
            }
            Ok(text)
        }
        _ => Err(Problem::of(argument, format!("{name} must be a string"))),
    }
}

/// An integer in `min..=max`, from a JSON number or a decimal numeric string.
fn integer(name: &'static str, min: u64, max: u64, value: &Value) -> Result<u64, Problem> {
    let range = || {
        if max == u64::MAX {
            format!(
                "{name} must be an integer of at least {min} (a JSON number or a decimal string)"
            )
        } else {
            format!(
                "{name} must be an integer from {min} to {max} (a JSON number or a decimal string)"
            )
        }
    };
    let refused = || Problem::of(name, range());
    let number = match value {
        Value::Number(n) => match n.as_u64() {
            Some(v) => v,
            None => match n.as_f64() {
                // `u64::MAX as f64` is 2^64, one past the largest u64.
                Some(f) if f.fract() == 0.0 && f >= 0.0 && f < u64::MAX as f64 => f as u64,
                _ => return Err(refused()),
            },
        },
        Value::String(text) => {
            let trimmed = text.trim();
            if trimmed.is_empty() || !trimmed.bytes().all(|b| b.is_ascii_digit()) {
                return Err(refused());
            }
            trimmed.parse::<u64>().map_err(|_| refused())?
        }
        _ => return Err(refused()),
    };
    if number < min || number > max {
        return Err(Problem::of(name, format!("{} (got {number})", range())));
    }
    Ok(number)
}

fn boolean(name: &'static str, value: &Value) -> Result<bool, Problem> {
    match value {
        Value::Bool(b) => Ok(*b),
        Value::String(s) if s == "true" => Ok(true),
        Value::String(s) if s == "false" => Ok(false),
        _ => Err(Problem::of(
            name,
            format!("{name} must be a boolean (true/false or the strings \"true\"/\"false\")"),
        )),
    }
}

/// An object from bounded, non-empty keys (globs) to one of the values' choices
/// (`pack_context` `detail_overrides`).
fn glob_map(name: &'static str, schema: &Value, value: Value) -> Result<Value, Problem> {
    let Value::Object(map) = value else {
        return Err(Problem::of(
            name,
            format!("{name} must be an object such as {{\"src/**\": \"full\"}}"),
        ));
    };
    let max_entries = limit(schema, "maxProperties").unwrap_or(u64::MAX);
    if map.len() as u64 > max_entries {
        return Err(Problem::of(
            name,
            format!(
                "{name} has {} entries; at most {max_entries} are allowed",
                map.len()
            ),
        ));
    }
    let max_chars = crate::limits::MAX_GLOB_CHARS as u64;
    let values = schema.get("additionalProperties").unwrap_or(&Value::Null);
    let mut checked = Map::new();
    for (key, item) in map {
        let chars = key.chars().count() as u64;
        if key.trim().is_empty() || chars > max_chars {
            return Err(Problem::of(
                name,
                format!(
                    "a key of {name} has {chars} characters; keys are globs of 1 to {max_chars}"
                ),
            ));
        }
        checked.insert(key, argument(name, values, item)?);
    }
    Ok(Value::Object(checked))
}

fn string_list(
    name: &'static str,
    max_items: u64,
    max_chars: u64,
    value: Value,
) -> Result<Value, Problem> {
    let Value::Array(items) = value else {
        return Err(Problem::of(
            name,
            format!("{name} must be an array of strings"),
        ));
    };
    if items.len() as u64 > max_items {
        return Err(Problem::of(
            name,
            format!(
                "{name} has {} entries; at most {max_items} are allowed",
                items.len()
            ),
        ));
    }
    for item in &items {
        match item {
            Value::String(text) => {
                let chars = text.chars().count() as u64;
                if chars > max_chars {
                    return Err(Problem::of(
                        name,
                        format!(
                            "an entry of {name} has {chars} characters; at most {max_chars} are allowed"
                        ),
                    ));
                }
                if text.is_empty() {
                    return Err(Problem::of(
                        name,
                        format!("{name} contains an empty entry; remove it"),
                    ));
                }
            }
            _ => {
                return Err(Problem::of(
                    name,
                    format!("every entry of {name} must be a string"),
                ));
            }
        }
    }
    Ok(Value::Array(items))
}
