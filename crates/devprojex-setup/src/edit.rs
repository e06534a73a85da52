//! Pure text edits of client configs: read, add or replace, and remove one server entry while
//! keeping every other byte (comments, order, indentation, line endings, BOM).
//!
//! JSON/JSONC goes through the `jsonc-parser` CST (which is `!Send`, so it never leaves these
//! functions); TOML goes through `toml_edit`.

use std::path::Path;

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstInputValue, CstObject, CstRootNode};
use serde_json::Value;
use toml_edit::{DocumentMut, Item, Table, TableLike};

use crate::client::Format;
use crate::entry::Entry;
use crate::error::{Result, SetupError, line_col};

const BOM: &str = "\u{feff}";

/// Splits a leading UTF-8 byte order mark off.
fn split_bom(text: &str) -> (&'static str, &str) {
    match text.strip_prefix(BOM) {
        Some(rest) => (BOM, rest),
        None => ("", text),
    }
}

/// Reads the entry `name` from `text`, if present.
pub fn read_entry(
    text: &str,
    format: Format,
    container: &str,
    name: &str,
    path: &Path,
) -> Result<Option<Value>> {
    let (_, body) = split_bom(text);
    match format {
        Format::Json | Format::Jsonc => {
            let root = parse_json(body, format, path)?;
            let Some(servers) = json_container(&root, container, path)? else {
                return Ok(None);
            };
            Ok(servers
                .get(name)
                .and_then(|p| p.value())
                .and_then(|v| v.to_serde_value()))
        }
        Format::Toml => {
            let doc = parse_toml(body, path)?;
            let Some(servers) = toml_container(&doc, container, path)? else {
                return Ok(None);
            };
            Ok(servers.get(name).map(item_to_json))
        }
    }
}

/// Reads every entry name in the container (for status output).
pub fn entry_names(
    text: &str,
    format: Format,
    container: &str,
    path: &Path,
) -> Result<Vec<String>> {
    let (_, body) = split_bom(text);
    match format {
        Format::Json | Format::Jsonc => {
            let root = parse_json(body, format, path)?;
            let Some(servers) = json_container(&root, container, path)? else {
                return Ok(Vec::new());
            };
            Ok(servers
                .properties()
                .iter()
                .filter_map(|p| p.decoded_name())
                .collect())
        }
        Format::Toml => {
            let doc = parse_toml(body, path)?;
            let Some(servers) = toml_container(&doc, container, path)? else {
                return Ok(Vec::new());
            };
            Ok(servers.iter().map(|(k, _)| k.to_string()).collect())
        }
    }
}

/// Adds the entry `name`, or replaces its value in place when it exists.
pub fn upsert(
    text: &str,
    format: Format,
    container: &str,
    name: &str,
    entry: &Entry,
    path: &Path,
) -> Result<String> {
    let (bom, body) = split_bom(text);
    let out = match format {
        Format::Json | Format::Jsonc => {
            // A file of only whitespace is treated as empty (the new object starts at column 1).
            let body = if body.trim().is_empty() { "" } else { body };
            let root = parse_json(body, format, path)?;
            if root.value().is_some() && root.object_value().is_none() {
                return Err(shape(path, "the top level is not an object"));
            }
            let existing = json_container(&root, container, path)?;
            let current = existing
                .as_ref()
                .and_then(|s| s.get(name))
                .and_then(|p| p.value());
            if current.and_then(|v| v.to_serde_value()) == Some(entry.to_json()) {
                return Ok(text.to_string());
            }
            if let Some(out) = single_line_upsert(body, container, name, entry) {
                return Ok(format!("{bom}{out}"));
            }
            let servers = root.object_value_or_set().object_value_or_set(container);
            let value = entry_input(entry);
            match servers.get(name) {
                Some(prop) => prop.set_value(value),
                None => {
                    servers.append(name, value);
                }
            }
            root.to_string()
        }
        Format::Toml => {
            let crlf = is_crlf(body);
            let mut doc = parse_toml(body, path)?;
            toml_container(&doc, container, path)?;
            if doc.get(container).is_none() {
                let mut t = Table::new();
                t.set_implicit(true);
                doc.insert(container, Item::Table(t));
            }
            let servers = doc
                .get_mut(container)
                .and_then(Item::as_table_like_mut)
                .expect("checked above");
            let is_inline = servers.is_dotted() || doc[container].is_inline_table();
            toml_upsert(&mut doc, container, name, entry, is_inline);
            restore_newlines(doc.to_string(), crlf)
        }
    };
    Ok(format!("{bom}{out}"))
}

/// Removes the entry `name` (a no-op when absent). An implicit TOML parent table that becomes empty
/// goes too; a JSON container that becomes empty stays as `{}`.
pub fn remove(
    text: &str,
    format: Format,
    container: &str,
    name: &str,
    path: &Path,
) -> Result<String> {
    let (bom, body) = split_bom(text);
    let out = match format {
        Format::Json | Format::Jsonc => {
            let root = parse_json(body, format, path)?;
            let Some(servers) = json_container(&root, container, path)? else {
                return Ok(text.to_string());
            };
            let Some(prop) = servers.get(name) else {
                return Ok(text.to_string());
            };
            prop.remove();
            root.to_string()
        }
        Format::Toml => {
            let crlf = is_crlf(body);
            let mut doc = parse_toml(body, path)?;
            if toml_container(&doc, container, path)?.is_none_or(|s| !s.contains_key(name)) {
                return Ok(text.to_string());
            }
            let servers = doc
                .get_mut(container)
                .and_then(Item::as_table_like_mut)
                .expect("checked above");
            servers.remove(name);
            let drop_parent =
                servers.is_empty() && doc[container].as_table().is_some_and(|t| t.is_implicit());
            if drop_parent {
                doc.remove(container);
            }
            restore_newlines(doc.to_string(), crlf)
        }
    };
    Ok(format!("{bom}{out}"))
}

/// Checks that `text` parses as `format` (used by status and doctor).
pub fn validate(text: &str, format: Format, container: &str, path: &Path) -> Result<()> {
    entry_names(text, format, container, path).map(|_| ())
}

fn shape(path: &Path, message: &str) -> SetupError {
    SetupError::Shape {
        path: path.to_path_buf(),
        message: message.to_string(),
    }
}

// ---------- JSON / JSONC ----------

fn parse_options(format: Format) -> ParseOptions {
    if format == Format::Jsonc {
        return ParseOptions::default();
    }
    ParseOptions {
        allow_comments: false,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

fn parse_json(body: &str, format: Format, path: &Path) -> Result<CstRootNode> {
    // The CST keeps comments whatever the options say, so strict JSON is checked by serde_json.
    if format == Format::Json
        && !body.trim().is_empty()
        && let Err(e) = serde_json::from_str::<Value>(body)
    {
        let message = e.to_string();
        let message = message
            .split(" at line ")
            .next()
            .unwrap_or(&message)
            .to_string();
        return Err(SetupError::Parse {
            path: path.to_path_buf(),
            line: e.line(),
            column: e.column(),
            format: format.label(),
            message,
        });
    }
    CstRootNode::parse(body, &parse_options(format)).map_err(|e| SetupError::Parse {
        path: path.to_path_buf(),
        line: e.line_display(),
        column: e.column_display(),
        format: format.label(),
        message: e.kind().to_string(),
    })
}

/// The servers object, `None` when absent; an error when the shape is wrong.
fn json_container(root: &CstRootNode, container: &str, path: &Path) -> Result<Option<CstObject>> {
    let Some(value) = root.value() else {
        return Ok(None);
    };
    let Some(obj) = value.as_object() else {
        return Err(shape(path, "the top level is not an object"));
    };
    let Some(prop) = obj.get(container) else {
        return Ok(None);
    };
    match prop.value().and_then(|v| v.as_object()) {
        Some(o) => Ok(Some(o)),
        None => Err(shape(path, &format!("\"{container}\" is not an object"))),
    }
}

/// Adds or replaces the entry in a non-empty object written on one line (the servers object, or
/// the top level when there is no servers object) by splicing text, so the object stays on one
/// line in its own spacing style; the CST would spread it over several lines. `None`: not such a
/// case.
fn single_line_upsert(body: &str, container: &str, name: &str, entry: &Entry) -> Option<String> {
    use jsonc_parser::ast;
    use jsonc_parser::common::Ranged;
    let collect = jsonc_parser::CollectOptions {
        tokens: true,
        ..Default::default()
    };
    let parsed = jsonc_parser::parse_to_ast(body, &collect, &ParseOptions::default()).ok()?;
    let strings: Vec<jsonc_parser::common::Range> = parsed
        .tokens
        .iter()
        .flatten()
        .filter(|t| matches!(t.token, jsonc_parser::tokens::Token::String(_)))
        .map(|t| t.range)
        .collect();
    let ast::Value::Object(root) = parsed.value? else {
        return None;
    };
    let (target, wrap) = match root
        .properties
        .iter()
        .find(|p| p.name.as_str() == container)
    {
        Some(prop) => match &prop.value {
            ast::Value::Object(o) => (o.clone(), false),
            _ => return None,
        },
        None => (root.clone(), true),
    };
    let last = target.properties.last()?;
    let text = body.get(target.range.start..target.range.end)?;
    // A line break inside a string (JSONC takes raw ones) does not spread the object.
    let spread = text.match_indices(['\n', '\r']).any(|(i, _)| {
        let at = target.range.start + i;
        !strings.iter().any(|s| s.start < at && at < s.end)
    });
    if spread {
        return None;
    }
    let spaced = text.contains(": ");
    let (colon, comma) = if spaced { (": ", ", ") } else { (":", ",") };
    let compact = |v: &Value| -> String {
        match v {
            Value::Array(a) => {
                let items: Vec<String> = a.iter().map(|x| x.to_string()).collect();
                format!("[{}]", items.join(comma))
            }
            other => other.to_string(),
        }
    };
    let fields: Vec<String> = entry
        .fields()
        .iter()
        .map(|(k, v)| format!("{}{colon}{}", Value::from(*k), compact(v)))
        .collect();
    let value = format!("{{{}}}", fields.join(comma));
    let out = if let Some(prop) = (!wrap)
        .then(|| target.properties.iter().find(|p| p.name.as_str() == name))
        .flatten()
    {
        let r = prop.value.range();
        format!("{}{value}{}", &body[..r.start], &body[r.end..])
    } else {
        if !body
            .get(last.range.end..target.range.end - 1)?
            .trim()
            .is_empty()
        {
            return None; // a trailing comma or a comment: leave it to the CST
        }
        let mut item = format!("{}{colon}{value}", Value::from(name));
        if wrap {
            item = format!("{}{colon}{{{item}}}", Value::from(container));
        }
        let at = last.range.end;
        format!("{}{comma}{item}{}", &body[..at], &body[at..])
    };
    // Belt and braces: the result must parse (the caller re-reads the entry).
    CstRootNode::parse(&out, &ParseOptions::default()).ok()?;
    Some(out)
}

fn to_input(v: &Value) -> CstInputValue {
    match v {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(a) => CstInputValue::Array(a.iter().map(to_input).collect()),
        Value::Object(o) => {
            CstInputValue::Object(o.iter().map(|(k, v)| (k.clone(), to_input(v))).collect())
        }
    }
}

fn entry_input(entry: &Entry) -> CstInputValue {
    CstInputValue::Object(
        entry
            .fields()
            .into_iter()
            .map(|(k, v)| (k.to_string(), to_input(&v)))
            .collect(),
    )
}

// ---------- TOML ----------

fn parse_toml(body: &str, path: &Path) -> Result<DocumentMut> {
    body.parse::<DocumentMut>().map_err(|e| {
        let (line, column) = line_col(body, e.span().map(|s| s.start).unwrap_or(0));
        SetupError::Parse {
            path: path.to_path_buf(),
            line,
            column,
            format: "TOML",
            message: e.message().trim().to_string(),
        }
    })
}

fn toml_container<'a>(
    doc: &'a DocumentMut,
    container: &str,
    path: &Path,
) -> Result<Option<&'a dyn TableLike>> {
    match doc.get(container) {
        None => Ok(None),
        Some(item) => match item.as_table_like() {
            Some(t) => Ok(Some(t)),
            None => Err(shape(path, &format!("\"{container}\" is not a table"))),
        },
    }
}

/// A TOML string. One holding a line break is written as an escaped one-line basic string:
/// `toml_edit`'s default multi-line form keeps the break raw, and `restore_newlines` would
/// then turn `\n` into `\r\n` inside the value.
fn toml_string(s: &str) -> toml_edit::Value {
    if !s.contains(['\n', '\r']) {
        return s.into();
    }
    use toml_writer::ToTomlValue;
    let mut value: toml_edit::Value = toml_writer::TomlStringBuilder::new(s)
        .as_basic()
        .to_toml_value()
        .parse()
        .expect("toml_writer writes valid basic strings");
    value.decor_mut().clear();
    value
}

fn toml_array(args: &[String]) -> toml_edit::Array {
    let mut a = toml_edit::Array::new();
    for s in args {
        a.push(toml_string(s));
    }
    a
}

fn toml_upsert(
    doc: &mut DocumentMut,
    container: &str,
    name: &str,
    entry: &Entry,
    inline_parent: bool,
) {
    let servers = doc
        .get_mut(container)
        .and_then(Item::as_table_like_mut)
        .expect("container exists");
    // Replace in place when the entry is already a table: keeps its header, position and comments.
    if let Some(existing) = servers.get_mut(name).and_then(Item::as_table_like_mut) {
        let stale: Vec<String> = existing
            .iter()
            .map(|(k, _)| k.to_string())
            .filter(|k| k != "command" && k != "args")
            .collect();
        for k in stale {
            existing.remove(&k);
        }
        set_toml_value(existing, "command", toml_string(&entry.command));
        set_toml_value(
            existing,
            "args",
            toml_edit::Value::Array(toml_array(&entry.args)),
        );
        return;
    }
    if inline_parent {
        let mut t = toml_edit::InlineTable::new();
        t.insert("command", toml_string(&entry.command));
        t.insert("args", toml_edit::Value::Array(toml_array(&entry.args)));
        servers.insert(name, Item::Value(toml_edit::Value::InlineTable(t)));
    } else {
        let mut t = Table::new();
        t.insert("command", Item::Value(toml_string(&entry.command)));
        t.insert("args", toml_edit::value(toml_array(&entry.args)));
        servers.insert(name, Item::Table(t));
    }
}

/// Sets `key` keeping the decor of an existing value.
fn set_toml_value(table: &mut dyn TableLike, key: &str, mut value: toml_edit::Value) {
    if let Some(old) = table.get(key).and_then(Item::as_value) {
        *value.decor_mut() = old.decor().clone();
    }
    match table.get_mut(key) {
        Some(item) => *item = Item::Value(value),
        None => {
            table.insert(key, Item::Value(value));
        }
    }
}

fn toml_value_to_json(v: &toml_edit::Value) -> Value {
    match v {
        toml_edit::Value::String(s) => Value::String(s.value().clone()),
        toml_edit::Value::Integer(i) => Value::from(*i.value()),
        toml_edit::Value::Float(f) => serde_json::Number::from_f64(*f.value())
            .map(Value::Number)
            .unwrap_or(Value::Null),
        toml_edit::Value::Boolean(b) => Value::Bool(*b.value()),
        toml_edit::Value::Datetime(d) => Value::String(d.value().to_string()),
        toml_edit::Value::Array(a) => Value::Array(a.iter().map(toml_value_to_json).collect()),
        toml_edit::Value::InlineTable(t) => Value::Object(
            t.iter()
                .map(|(k, v)| (k.to_string(), toml_value_to_json(v)))
                .collect(),
        ),
    }
}

/// Converts a TOML item to JSON for comparison with the wanted entry.
pub(crate) fn item_to_json(item: &Item) -> Value {
    match item {
        Item::None => Value::Null,
        Item::Value(v) => toml_value_to_json(v),
        Item::Table(t) => Value::Object(
            t.iter()
                .map(|(k, v)| (k.to_string(), item_to_json(v)))
                .collect(),
        ),
        Item::ArrayOfTables(a) => Value::Array(
            a.iter()
                .map(|t| item_to_json(&Item::Table(t.clone())))
                .collect(),
        ),
    }
}

/// Whether every line break in `text` is CRLF (and there is at least one).
fn is_crlf(text: &str) -> bool {
    let lf = text.matches('\n').count();
    lf > 0 && text.matches("\r\n").count() == lf
}

fn restore_newlines(out: String, crlf: bool) -> String {
    if crlf {
        out.replace("\r\n", "\n").replace('\n', "\r\n")
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(cmd: &str) -> Entry {
        Entry {
            with_type: false,
            command: cmd.into(),
            args: vec!["mcp".into()],
        }
    }

    #[test]
    fn toml_inline_container() {
        let p = Path::new("c.toml");
        let t = "mcp_servers = { other = { command = \"x\" } }\n";
        let out = upsert(
            t,
            Format::Toml,
            "mcp_servers",
            "devprojex",
            &e("devprojex"),
            p,
        )
        .unwrap();
        assert!(
            out.contains("devprojex = { command = \"devprojex\""),
            "{out}"
        );
        assert_eq!(
            remove(&out, Format::Toml, "mcp_servers", "devprojex", p).unwrap(),
            t
        );
    }

    #[test]
    fn toml_line_breaks_in_values_survive_crlf_files() {
        // Found by fuzz/fuzz_targets/setup_edit.rs: the multi-line string form kept the break
        // raw and the CRLF restoration changed the value.
        let p = Path::new("config.toml");
        let entry = Entry {
            with_type: false,
            command: "dev\nprojex".into(),
            args: vec!["mcp".into(), "--root".into(), "/src/a\nb\r\nc".into()],
        };
        let text = "model = \"o3\"\r\n\r\n[mcp_servers.fetch]\r\ncommand = \"uvx\"\r\n";
        let out = upsert(text, Format::Toml, "mcp_servers", "devprojex", &entry, p).unwrap();
        assert_eq!(
            read_entry(&out, Format::Toml, "mcp_servers", "devprojex", p).unwrap(),
            Some(entry.to_json()),
            "{out}"
        );
        assert!(
            !out.replace("\r\n", "").contains('\n'),
            "a bare LF in {out:?}"
        );
        assert_eq!(
            remove(&out, Format::Toml, "mcp_servers", "devprojex", p).unwrap(),
            text
        );
    }

    #[test]
    fn windows_paths_are_escaped() {
        let p = Path::new("c.json");
        let out = upsert(
            "{}",
            Format::Json,
            "mcpServers",
            "devprojex",
            &e("C:\\bin\\devprojex.exe"),
            p,
        )
        .unwrap();
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            v["mcpServers"]["devprojex"]["command"],
            "C:\\bin\\devprojex.exe"
        );
        let out = upsert(
            "",
            Format::Toml,
            "mcp_servers",
            "devprojex",
            &e("C:\\bin\\devprojex.exe"),
            p,
        )
        .unwrap();
        let got = read_entry(&out, Format::Toml, "mcp_servers", "devprojex", p)
            .unwrap()
            .unwrap();
        assert_eq!(got["command"], "C:\\bin\\devprojex.exe");
    }
}

#[cfg(test)]
mod edge_tests {
    use super::*;

    fn e() -> Entry {
        Entry {
            with_type: false,
            command: "devprojex".into(),
            args: vec!["mcp".into()],
        }
    }

    fn round_trip(text: &str, format: Format, container: &str) -> String {
        let p = Path::new("x");
        let added = upsert(text, format, container, "devprojex", &e(), p).unwrap();
        assert_eq!(
            read_entry(&added, format, container, "devprojex", p).unwrap(),
            Some(e().to_json()),
            "{added}"
        );
        let back = remove(&added, format, container, "devprojex", p).unwrap();
        assert_eq!(back, text, "round trip of {text:?} via {added:?}");
        added
    }

    #[test]
    fn toml_edges() {
        round_trip("model = 1\n", Format::Toml, "mcp_servers");
        // Known exception: a TOML file without a final newline gets one.
        let p = Path::new("x");
        let added = upsert(
            "model = 1",
            Format::Toml,
            "mcp_servers",
            "devprojex",
            &e(),
            p,
        )
        .unwrap();
        assert_eq!(
            remove(&added, Format::Toml, "mcp_servers", "devprojex", p).unwrap(),
            "model = 1\n"
        );
        round_trip(
            "mcp_servers.other.command = \"x\"\n",
            Format::Toml,
            "mcp_servers",
        );
        round_trip("# only a comment\n", Format::Toml, "mcp_servers");
        round_trip(
            "[mcp_servers.a]\ncommand = \"a\"\n\n[[profiles]]\nname = \"x\"\n",
            Format::Toml,
            "mcp_servers",
        );
    }

    #[test]
    fn json_edges() {
        round_trip(
            "{\"a\": 1, \"mcpServers\": {\n  \"x\": {}\n}}",
            Format::Json,
            "mcpServers",
        );
        round_trip("{\"mcpServers\": {}}", Format::Json, "mcpServers");
        let added = round_trip(
            "{\"a\": 1, \"mcpServers\": {\"x\": {}}}",
            Format::Json,
            "mcpServers",
        );
        assert_eq!(
            added,
            "{\"a\": 1, \"mcpServers\": {\"x\": {}, \"devprojex\": {\"command\": \"devprojex\", \"args\": [\"mcp\"]}}}"
        );
        let added = round_trip(
            "{\"mcpServers\":{\"x\":{}},\"b\":2}\n",
            Format::Json,
            "mcpServers",
        );
        assert_eq!(
            added,
            "{\"mcpServers\":{\"x\":{},\"devprojex\":{\"command\":\"devprojex\",\"args\":[\"mcp\"]}},\"b\":2}\n"
        );
        let p = Path::new("x");
        let added = upsert(
            "{\"a\":1}",
            Format::Json,
            "mcpServers",
            "devprojex",
            &e(),
            p,
        )
        .unwrap();
        assert_eq!(
            added,
            "{\"a\":1,\"mcpServers\":{\"devprojex\":{\"command\":\"devprojex\",\"args\":[\"mcp\"]}}}"
        );
        round_trip("{\r\n  \"mcpServers\": {}\r\n}", Format::Json, "mcpServers");
        round_trip(
            "// header\n{\n  \"servers\": {}\n}\n",
            Format::Jsonc,
            "servers",
        );
        // Known exception: an empty container written across lines comes back as `{}`.
        let p = Path::new("x");
        let t = "{\n  \"servers\": {\n  }\n}\n";
        let added = upsert(t, Format::Jsonc, "servers", "devprojex", &e(), p).unwrap();
        let back = remove(&added, Format::Jsonc, "servers", "devprojex", p).unwrap();
        assert_eq!(back, "{\n  \"servers\": {}\n}\n");
    }

    #[test]
    fn a_line_break_inside_a_string_keeps_an_object_on_one_line() {
        // Found by fuzz/fuzz_targets/setup_edit.rs: JSONC takes a raw line break in a string,
        // which made a one-line servers object look spread, so the CST re-laid it out and
        // removing the entry no longer gave back the original bytes.
        let added = round_trip(
            "{\"servers\":{\"a\":{\"command\":\"x\",\"args\":[\"one\ntwo\"]}},\"b\":1}\n",
            Format::Jsonc,
            "servers",
        );
        assert_eq!(added.lines().count(), 2, "{added}");
    }

    #[test]
    fn shape_errors() {
        let p = Path::new("x");
        for (t, f, c) in [
            ("[]", Format::Json, "mcpServers"),
            ("{\"mcpServers\": []}", Format::Json, "mcpServers"),
            ("mcp_servers = 3\n", Format::Toml, "mcp_servers"),
        ] {
            let err = upsert(t, f, c, "devprojex", &e(), p).unwrap_err();
            assert_eq!(err.code(), "DPX-SETUP-SHAPE", "{t}");
        }
    }
}
