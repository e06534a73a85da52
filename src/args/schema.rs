//! A tool's `inputSchema`, generated from its argument struct.
//!
//! schemars describes Rust types; the MCP schema describes what a client may send, in the
//! compact form agents read. The generated schema is brought to that form: subschemas inline,
//! no `$schema`, titles, number formats or defaults (defaults are in the descriptions), an
//! optional argument is its value's type (a `null` means "absent" and needs no mention), a
//! documented enum is a plain `enum` of its names, and a description is one line.
//!
//! The tool list is loaded into every agent session, so it is written smaller still
//! ([`list_form`]): an argument an earlier tool already declares alike is given by its type
//! only, and the `initialize` instructions say that the first tool that has it describes it.

use schemars::generate::SchemaSettings;
use serde_json::{Map, Value};

/// The `inputSchema` of `T`'s tool: an object of its arguments, `required` listed (possibly
/// empty), no other properties allowed.
pub fn input_schema<T: schemars::JsonSchema>() -> Map<String, Value> {
    let generator = SchemaSettings::draft2020_12()
        .with(|settings| {
            settings.inline_subschemas = true;
            settings.meta_schema = None;
        })
        .into_generator();
    let schema = generator.into_root_schema_for::<T>();
    let mut value = Value::from(schema);
    compact(&mut value);
    let mut object = match value {
        Value::Object(object) => object,
        _ => Map::new(),
    };
    // The struct's doc is for Rust readers; the tool's description is in the tool list.
    object.remove("description");
    object
        .entry("properties")
        .or_insert_with(|| Value::Object(Map::new()));
    object
        .entry("required")
        .or_insert_with(|| Value::Array(Vec::new()));
    object
}

/// Bring one (sub)schema to the compact form, depth first.
fn compact(value: &mut Value) {
    let Value::Object(object) = value else {
        return;
    };
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        properties.values_mut().for_each(compact);
    }
    if let Some(items) = object.get_mut("items") {
        compact(items);
    }
    // `Option<T>` of a composite `T`: `anyOf: [T, {type: null}]`; keep `T`.
    if let Some(Value::Array(any_of)) = object.get("anyOf") {
        let mut kept: Vec<Value> = any_of
            .iter()
            .filter(|s| s.get("type").and_then(Value::as_str) != Some("null"))
            .cloned()
            .collect();
        if kept.len() == 1 {
            object.remove("anyOf");
            let mut inner = kept.remove(0);
            compact(&mut inner);
            if let Value::Object(inner) = inner {
                for (key, value) in inner {
                    object.entry(key).or_insert(value);
                }
            }
        }
    }
    // A documented enum: `oneOf` of one `const` each.
    if let Some(Value::Array(one_of)) = object.get("oneOf")
        && one_of.iter().all(|s| s.get("const").is_some())
    {
        let names: Vec<Value> = one_of.iter().map(|s| s["const"].clone()).collect();
        object.remove("oneOf");
        if names.iter().all(Value::is_string) {
            object.insert("type".into(), Value::from("string"));
        }
        object.insert("enum".into(), Value::Array(names));
    }
    if let Some(Value::Array(types)) = object.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let only = types.remove(0);
            object.insert("type".into(), only);
        }
    }
    if let Some(Value::Array(names)) = object.get_mut("enum") {
        names.retain(|n| !n.is_null());
    }
    for key in ["$schema", "title", "format", "default"] {
        object.remove(key);
    }
    if let Some(Value::String(description)) = object.get_mut("description") {
        *description = description
            .lines()
            .map(str::trim)
            .collect::<Vec<_>>()
            .join(" ");
    }
}

/// The tool list's form of the tools' input schemas, given in the list's order as (tool name,
/// schema as [`input_schema`] makes it): each tool's listed schema.
///
/// - An argument that an earlier tool declares with the same schema is declared again by its
///   type (and choices) only: the earlier tool carries the description, the items' type and
///   the limits; the server checks them either way.
/// - Numbers and booleans are declared by their own type only, though the server also accepts
///   decimal strings and `"true"`/`"false"` (clients send the declared type, and the
///   `[type, "string"]` form cost tokens in every session).
/// - The items of an array argument are declared without `minLength` (an empty entry is
///   refused with a message naming it).
pub fn list_form(tools: &[(&str, &Map<String, Value>)]) -> Vec<Map<String, Value>> {
    // (tool, argument, schema) of every argument described so far
    let mut described: Vec<(&str, &str, &Value)> = Vec::new();
    let mut listed = Vec::with_capacity(tools.len());
    for &(tool, schema) in tools {
        let mut properties = Map::new();
        for (name, property) in schema["properties"].as_object().into_iter().flatten() {
            let earlier = described
                .iter()
                .find(|(_, seen, first)| *seen == name && *first == property);
            let mut listed_property = match earlier {
                Some(_) => type_only(property),
                None => {
                    described.push((tool, name, property));
                    let mut property = property.clone();
                    // The checks leave a top-level minimum length to the engine, whose message
                    // says what to pass instead.
                    if let Some(object) = property.as_object_mut() {
                        object.remove("minLength");
                    }
                    property
                }
            };
            if let Some(items) = listed_property
                .get_mut("items")
                .and_then(Value::as_object_mut)
            {
                items.remove("minLength");
            }
            properties.insert(name.clone(), listed_property);
        }
        let mut schema = schema.clone();
        schema.insert("properties".into(), Value::Object(properties));
        listed.push(schema);
    }
    listed
}

/// A property reduced to its type and choices (an array's items are described, with their
/// type, where the argument is described).
fn type_only(property: &Value) -> Value {
    let mut lean = Map::new();
    for key in ["type", "enum"] {
        if let Some(value) = property.get(key) {
            lean.insert(key.into(), value.clone());
        }
    }
    Value::Object(lean)
}
