//! Tool-argument coercion: unknown keys rejected; numbers accept JSON numbers and decimal
//! numeric strings; booleans accept JSON booleans and exactly "true"/"false"; lengths count
//! Unicode scalar values.

use serde_json::{Map, Value};

use crate::error::{DpxError, Result};

/// The arguments of one tool call, checked against the tool's known keys.
pub struct ToolArgs {
    map: Map<String, Value>,
}

impl ToolArgs {
    pub fn parse(
        tool: &str,
        allowed: &[&str],
        arguments: Option<Map<String, Value>>,
    ) -> Result<Self> {
        let map = arguments.unwrap_or_default();
        let mut unknown: Vec<&String> = map
            .keys()
            .filter(|k| !allowed.contains(&k.as_str()))
            .collect();
        if !unknown.is_empty() {
            unknown.sort();
            let names: Vec<String> = unknown
                .iter()
                .map(|k| format!("'{}'", k.chars().take(64).collect::<String>()))
                .collect();
            return Err(DpxError::invalid_arguments(format!(
                "{tool} does not accept {}; valid arguments: {}",
                names.join(", "),
                if allowed.is_empty() {
                    "none".to_string()
                } else {
                    allowed.join(", ")
                }
            )));
        }
        Ok(Self { map })
    }

    fn get(&self, key: &str) -> Option<&Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    pub fn string(&self, key: &str, max_chars: usize) -> Result<Option<String>> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(text)) => {
                let chars = text.chars().count();
                if chars > max_chars {
                    return Err(DpxError::invalid_arguments(format!(
                        "{key} has {chars} characters; at most {max_chars} are allowed"
                    )));
                }
                Ok(Some(text.clone()))
            }
            Some(_) => Err(DpxError::invalid_arguments(format!(
                "{key} must be a string"
            ))),
        }
    }

    pub fn required_string(&self, key: &str, max_chars: usize) -> Result<String> {
        self.string(key, max_chars)?
            .ok_or_else(|| DpxError::invalid_arguments(format!("{key} is required")))
    }

    /// An integer in `min..=max`, from a JSON number or a decimal numeric string.
    pub fn integer(&self, key: &str, min: u64, max: u64) -> Result<Option<u64>> {
        let range = || {
            if max == u64::MAX {
                format!(
                    "{key} must be an integer of at least {min} (a JSON number or a decimal string)"
                )
            } else {
                format!(
                    "{key} must be an integer from {min} to {max} (a JSON number or a decimal string)"
                )
            }
        };
        let value = match self.get(key) {
            None => return Ok(None),
            Some(Value::Number(n)) => match n.as_u64() {
                Some(v) => v,
                None => match n.as_f64() {
                    // `u64::MAX as f64` is 2^64, one past the largest u64.
                    Some(f) if f.fract() == 0.0 && f >= 0.0 && f < u64::MAX as f64 => f as u64,
                    _ => return Err(DpxError::invalid_arguments(range())),
                },
            },
            Some(Value::String(text)) => {
                let trimmed = text.trim();
                if trimmed.is_empty() || !trimmed.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(DpxError::invalid_arguments(range()));
                }
                trimmed
                    .parse::<u64>()
                    .map_err(|_| DpxError::invalid_arguments(range()))?
            }
            Some(_) => return Err(DpxError::invalid_arguments(range())),
        };
        if value < min || value > max {
            return Err(DpxError::invalid_arguments(format!(
                "{} (got {value})",
                range()
            )));
        }
        Ok(Some(value))
    }

    pub fn boolean(&self, key: &str) -> Result<Option<bool>> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(Value::String(s)) if s == "true" => Ok(Some(true)),
            Some(Value::String(s)) if s == "false" => Ok(Some(false)),
            Some(_) => Err(DpxError::invalid_arguments(format!(
                "{key} must be a boolean (true/false or the strings \"true\"/\"false\")"
            ))),
        }
    }

    pub fn string_list(
        &self,
        key: &str,
        max_items: usize,
        max_chars: usize,
    ) -> Result<Vec<String>> {
        match self.get(key) {
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => {
                if items.len() > max_items {
                    return Err(DpxError::invalid_arguments(format!(
                        "{key} has {} entries; at most {max_items} are allowed",
                        items.len()
                    )));
                }
                items
                    .iter()
                    .map(|item| match item {
                        Value::String(text) => {
                            let chars = text.chars().count();
                            if chars > max_chars {
                                Err(DpxError::invalid_arguments(format!("an entry of {key} has {chars} characters; at most {max_chars} are allowed")))
                            } else if text.is_empty() {
                                Err(DpxError::invalid_arguments(format!("{key} contains an empty entry; remove it")))
                            } else {
                                Ok(text.clone())
                            }
                        }
                        _ => Err(DpxError::invalid_arguments(format!("every entry of {key} must be a string"))),
                    })
                    .collect()
            }
            Some(_) => Err(DpxError::invalid_arguments(format!(
                "{key} must be an array of strings"
            ))),
        }
    }

    pub fn choice(&self, key: &str, choices: &[&str]) -> Result<Option<String>> {
        match self.string(key, 64)? {
            None => Ok(None),
            Some(value) if choices.contains(&value.as_str()) => Ok(Some(value)),
            Some(value) => Err(DpxError::invalid_arguments(format!(
                "{key} is '{}'; valid values: {}",
                value.chars().take(64).collect::<String>(),
                choices.join(", ")
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(value: Value) -> ToolArgs {
        ToolArgs::parse("t", &["n", "b", "s", "l"], value.as_object().cloned()).unwrap()
    }

    #[test]
    fn numbers_and_booleans_coerce() {
        assert_eq!(args(json!({"n": 5})).integer("n", 1, 10).unwrap(), Some(5));
        assert_eq!(
            args(json!({"n": "7"})).integer("n", 1, 10).unwrap(),
            Some(7)
        );
        assert_eq!(
            args(json!({"n": 5.0})).integer("n", 1, 10).unwrap(),
            Some(5)
        );
        assert!(args(json!({"n": "7.5"})).integer("n", 1, 10).is_err());
        // 2^64 arrives as a float; it is no u64 (it was taken as u64::MAX).
        let huge: Value = serde_json::from_str(r#"{"n": 18446744073709551616}"#).unwrap();
        assert!(args(huge).integer("n", 0, u64::MAX).is_err());
        assert!(args(json!({"n": -1})).integer("n", 1, 10).is_err());
        assert!(
            args(json!({"n": "11"}))
                .integer("n", 1, 10)
                .unwrap_err()
                .message
                .contains("from 1 to 10")
        );
        assert_eq!(args(json!({"b": "true"})).boolean("b").unwrap(), Some(true));
        assert!(args(json!({"b": "TRUE"})).boolean("b").is_err());
        assert!(args(json!({"b": 1})).boolean("b").is_err());
    }

    #[test]
    fn unknown_keys_and_lengths() {
        let err = ToolArgs::parse(
            "get_file",
            &["path"],
            json!({"path": "a", "evil": 1}).as_object().cloned(),
        )
        .err()
        .unwrap();
        assert!(err.message.contains("'evil'") && err.message.contains("path"));
        assert!(args(json!({"s": "é".repeat(5)})).string("s", 5).is_ok());
        assert!(args(json!({"s": "é".repeat(6)})).string("s", 5).is_err());
        assert!(
            args(json!({"l": ["a", 1]}))
                .string_list("l", 3, 10)
                .is_err()
        );
        assert!(
            args(json!({"l": ["a", "b", "c", "d"]}))
                .string_list("l", 3, 10)
                .is_err()
        );
    }
}
