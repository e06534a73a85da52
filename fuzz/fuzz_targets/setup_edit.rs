//! `devprojex setup`'s config editors (`devprojex_setup::edit`): reading an entry, adding or
//! replacing it (`upsert`, which plans the edit and applies it to the text) and removing it,
//! for every client format: strict JSON (Claude Code, Claude Desktop, Antigravity), JSONC
//! (Cursor, VS Code) and TOML (Codex).
//!
//! Input: the text of a client config (setup refuses files that are not UTF-8).
//!
//! Invariants, per format and container, with a plain entry and one whose command and
//! arguments need escaping in every format:
//! - nothing panics; a text that does not parse is refused by every edit;
//! - an edit is refused, or gives a text that parses (as strict JSON where the client is
//!   strict), holds exactly the entry, keeps every other entry, and, read as data by an
//!   independent parser, differs from the original only in that entry (and a servers object or
//!   table setup had to create); a second identical edit changes nothing;
//! - removing the entry again gives back the original bytes, line endings included (also in a
//!   file that mixes LF and CRLF), except where `docs/setup.md` promises less: a servers object
//!   setup created stays behind as `{}`, an empty servers object written across lines comes
//!   back as `{}`, and a TOML file without a final newline may get one (the nearest line break
//!   before the end, else LF);
//! - removing an entry that is there leaves a parsing text without it and every other entry.
#![no_main]

use std::path::Path;

use devprojex_setup::Format;
use devprojex_setup::edit;
use devprojex_setup::entry::Entry;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

const NAME: &str = "devprojex";

const TARGETS: [(Format, &str, bool); 4] = [
    (Format::Json, "mcpServers", false),
    (Format::Jsonc, "mcpServers", false),
    (Format::Jsonc, "servers", true),
    (Format::Toml, "mcp_servers", false),
];

fn entries(with_type: bool) -> [Entry; 2] {
    [
        Entry {
            with_type,
            command: "devprojex".into(),
            args: vec!["mcp".into()],
            extra: Vec::new(),
        },
        Entry {
            with_type,
            command: r#"C:\Program Files\devprojex\devprojex.exe"#.into(),
            args: vec![
                "mcp".into(),
                "--root".into(),
                "/home/ü/src/a \"b\" 'c' ''' \"\"\" # ] } \\ \t\n\u{2028}".into(),
                "--git-mode".into(),
                "tracked".into(),
            ],
            extra: vec![("alwaysLoad", serde_json::Value::Bool(true))],
        },
    ]
}

/// The document as data, read by a parser the editor does not use for writing; `None` when
/// there is no value (an empty file). TOML tables become JSON objects.
fn data_of(text: &str, format: Format) -> Option<Value> {
    // The editor keeps every leading byte order mark as it is and reads what follows.
    let body = text.trim_start_matches('\u{feff}');
    match format {
        Format::Json => {
            if body.trim().is_empty() {
                return None;
            }
            Some(serde_json::from_str(body).expect("checked by the editor"))
        }
        Format::Jsonc => {
            jsonc_parser::parse_to_serde_value::<Option<Value>>(body, &Default::default())
                .expect("checked by the editor")
        }
        Format::Toml => {
            let doc: toml_edit::DocumentMut = body.parse().expect("checked by the editor");
            let table = toml_edit::Item::Table(doc.as_table().clone());
            Some(toml_item(&table))
        }
    }
}

fn toml_value(value: &toml_edit::Value) -> Value {
    match value {
        toml_edit::Value::String(s) => Value::from(s.value().as_str()),
        toml_edit::Value::Integer(i) => Value::from(*i.value()),
        toml_edit::Value::Float(f) => Value::from(f.value().to_string()),
        toml_edit::Value::Boolean(b) => Value::from(*b.value()),
        toml_edit::Value::Datetime(d) => Value::from(d.value().to_string()),
        toml_edit::Value::Array(a) => Value::Array(a.iter().map(toml_value).collect()),
        toml_edit::Value::InlineTable(t) => Value::Object(
            t.iter()
                .map(|(k, v)| (k.to_string(), toml_value(v)))
                .collect(),
        ),
    }
}

fn toml_item(item: &toml_edit::Item) -> Value {
    match item {
        toml_edit::Item::None => Value::Null,
        toml_edit::Item::Value(v) => toml_value(v),
        toml_edit::Item::Table(t) => Value::Object(
            t.iter()
                .map(|(k, v)| (k.to_string(), toml_item(v)))
                .collect(),
        ),
        toml_edit::Item::ArrayOfTables(a) => Value::Array(
            a.iter()
                .map(|t| toml_item(&toml_edit::Item::Table(t.clone())))
                .collect(),
        ),
    }
}

/// The data without the entry, and without the container when that leaves it empty (setup
/// may create an empty one, or drop one it emptied); also whether the container was there.
fn without_entry(data: Option<Value>, container: &str) -> (Option<Value>, bool) {
    let mut data = data;
    let mut had_container = false;
    if let Some(Value::Object(root)) = data.as_mut()
        && let Some(Value::Object(servers)) = root.get_mut(container)
    {
        had_container = true;
        servers.remove(NAME);
        if servers.is_empty() {
            root.remove(container);
        }
    }
    (data, had_container)
}

/// The nearest line break before the end of `text` (LF, CRLF), LF when it has none.
fn last_break(text: &str) -> &'static str {
    match text.rfind('\n') {
        Some(i) if text[..i].ends_with('\r') => "\r\n",
        _ => "\n",
    }
}

fn strip_space(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

fn check(text: &str, format: Format, container: &str, entry: &Entry) {
    let path = Path::new("config");
    let before = edit::read_entry(text, format, container, NAME, path);
    let names = edit::entry_names(text, format, container, path);
    let added = edit::upsert(text, format, container, NAME, entry, path);
    let removed = edit::remove(text, format, container, NAME, path);
    let (before, names) = match (before, names) {
        (Ok(before), Ok(names)) => (before, names),
        (before, names) => {
            assert!(before.is_err() && names.is_err(), "read and list disagree");
            assert!(added.is_err(), "an unreadable config was edited");
            assert!(removed.is_err(), "an unreadable config was edited");
            return;
        }
    };
    let added = added.expect("a readable config can take the entry");
    let removed = removed.expect("a readable config can lose the entry");

    // The edit holds the entry, keeps the others, and changes nothing else.
    assert_eq!(
        edit::read_entry(&added, format, container, NAME, path).expect("the edit parses"),
        Some(entry.to_json()),
        "the edited config does not hold the entry:\n{added}"
    );
    let added_names = edit::entry_names(&added, format, container, path).expect("parses");
    let others = |names: &[String]| -> Vec<String> {
        names.iter().filter(|n| *n != NAME).cloned().collect()
    };
    assert_eq!(
        others(&added_names),
        others(&names),
        "other entries changed"
    );
    for other in others(&names) {
        assert_eq!(
            edit::read_entry(&added, format, container, &other, path).unwrap(),
            edit::read_entry(text, format, container, &other, path).unwrap(),
            "entry {other:?} changed"
        );
    }
    let (data_before, had_container) = without_entry(data_of(text, format), container);
    let (data_added, _) = without_entry(data_of(&added, format), container);
    // An empty file has no data; the edit makes it an object.
    let expected = data_before.or_else(|| Some(Value::Object(Default::default())));
    assert_eq!(data_added, expected, "the edit changed more than the entry");
    assert_eq!(
        edit::upsert(&added, format, container, NAME, entry, path).expect("parses"),
        added,
        "a second identical edit changed the text"
    );

    // Removing what was added.
    let back = edit::remove(&added, format, container, NAME, path).expect("parses");
    assert_eq!(
        edit::read_entry(&back, format, container, NAME, path).expect("parses"),
        None
    );
    if before.is_none() {
        let empty_container = had_container && others(&names).is_empty();
        let exact = back == text;
        let allowed = match format {
            // A created servers object stays behind as `{}`.
            _ if !had_container && format != Format::Toml => {
                without_entry(data_of(&back, format), container).0 == expected
            }
            // An empty servers object written across lines comes back as `{}`.
            Format::Json | Format::Jsonc if empty_container => {
                strip_space(&back) == strip_space(text)
                    && data_of(&back, format) == data_of(text, format)
            }
            // A TOML file without a final newline may get one: the nearest line break before
            // the end, LF when it has none.
            Format::Toml => !text.ends_with('\n') && back == format!("{text}{}", last_break(text)),
            _ => false,
        };
        assert!(
            exact || allowed,
            "setup then remove did not give back the original:\n{text:?}\n{added:?}\n{back:?}"
        );
    }

    // Removing an entry that is there.
    if before.is_some() {
        assert_eq!(
            edit::read_entry(&removed, format, container, NAME, path).expect("parses"),
            None
        );
        let removed_names = edit::entry_names(&removed, format, container, path).unwrap();
        assert_eq!(others(&removed_names), others(&names));
        let (data_removed, _) = without_entry(data_of(&removed, format), container);
        let (data_text, _) = without_entry(data_of(text, format), container);
        assert_eq!(
            data_removed, data_text,
            "removing changed more than the entry"
        );
    } else {
        assert_eq!(removed, text, "removing an absent entry changed the text");
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for (format, container, with_type) in TARGETS {
        for mut entry in entries(with_type) {
            // Extra keys (Claude Code's alwaysLoad, Copilot CLI's tools) are for JSON clients;
            // the one TOML client, Codex, takes a command and its arguments only.
            if format == Format::Toml {
                entry.extra.clear();
            }
            check(text, format, container, &entry);
        }
    }
});
