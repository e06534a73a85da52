//! Line endings in configs that mix LF and CRLF (found by fuzzing, issue 26): setup followed by
//! `--remove` gives back the original bytes, every line setup does not edit keeps its own
//! ending, a line setup edits keeps its ending, and the lines setup inserts take the ending of
//! the line they are inserted after. A file without any line break gets LF.

use std::path::Path;

use devprojex_setup::Format;
use devprojex_setup::edit;
use devprojex_setup::entry::Entry;
use proptest::prelude::*;

const NAME: &str = "devprojex";

fn entry() -> Entry {
    Entry {
        with_type: false,
        command: "/opt/devprojex/bin/devprojex".into(),
        args: vec!["mcp".into(), "--root".into(), "/home/u/src/app".into()],
        extra: Vec::new(),
    }
}

/// The lines of `text`, each with its ending (`"\r\n"`, `"\n"`, or `""` for a last line
/// without one).
fn lines(text: &str) -> Vec<(&str, &str)> {
    text.split_inclusive('\n')
        .map(|l| match l.strip_suffix("\r\n") {
            Some(body) => (body, "\r\n"),
            None => match l.strip_suffix('\n') {
                Some(body) => (body, "\n"),
                None => (l, ""),
            },
        })
        .collect()
}

/// Setup then remove: checks the entry is there and the line-ending rules, and returns the
/// text with the entry and the text `--remove` gave back.
fn round_trip(text: &str, format: Format, container: &str) -> (String, String) {
    let p = Path::new("config");
    let added = edit::upsert(text, format, container, NAME, &entry(), p).unwrap();
    assert_eq!(
        edit::read_entry(&added, format, container, NAME, p).unwrap(),
        Some(entry().to_json()),
        "{added}"
    );
    check_endings(text, &added);
    let back = edit::remove(&added, format, container, NAME, p).unwrap();
    (added, back)
}

/// Setup then remove gives `back`; returns the text with the entry.
fn check_with(text: &str, format: Format, container: &str, back: &str) -> String {
    let (added, removed) = round_trip(text, format, container);
    assert_eq!(removed, back, "round trip of\n{text:?}\nvia\n{added:?}");
    added
}

/// Setup then remove gives back the original bytes; returns the text with the entry.
fn check(text: &str, format: Format, container: &str) -> String {
    check_with(text, format, container, text)
}

/// Whether `new` is `old` as setup may edit a line in place: unchanged, with a comma appended,
/// or with something added before its closing braces (`"s": {}` opened to `"s": {`, a one-line
/// TOML table that gains the entry).
fn same_line(old: &str, new: &str) -> bool {
    let stem = old.trim_end_matches(['}', ' ', ',']);
    new == old
        || new.strip_suffix(',') == Some(old)
        || (!stem.trim().is_empty() && stem.len() < old.len() && new.starts_with(stem))
}

/// Every line of `original` is in `added`, in order, with its own ending (also a line setup
/// edits in place, see `same_line`); every other line of `added` (the inserted ones) ends like
/// the line before it, or at the very start like the original's first line break (LF when it
/// has none).
fn check_endings(original: &str, added: &str) {
    let old = lines(original);
    let new = lines(added);
    let mut at = 0;
    let mut inserted = Vec::new();
    for (i, (body, ending)) in old.iter().enumerate() {
        // The last line may have gained an ending: the file goes on after it now.
        let last_without = ending.is_empty() && i + 1 == old.len();
        let found = new[at..]
            .iter()
            .position(|(b, e)| same_line(body, b) && (e == ending || last_without));
        let Some(offset) = found else {
            panic!(
                "line {} {body:?} with ending {ending:?} is not kept in\n{added:?}",
                i + 1
            );
        };
        inserted.extend(at..at + offset);
        at += offset + 1;
    }
    inserted.extend(at..new.len());
    let first_break = old
        .iter()
        .map(|(_, e)| *e)
        .find(|e| !e.is_empty())
        .unwrap_or("\n");
    for i in inserted {
        let want = match i {
            0 => first_break,
            _ => new[i - 1].1,
        };
        // The new last line has no ending when the original had none.
        if new[i].1.is_empty() && i + 1 == new.len() && !original.ends_with('\n') {
            continue;
        }
        assert_eq!(
            new[i].1,
            want,
            "inserted line {} {:?} does not end like the line before it in\n{added:?}",
            i + 1,
            new[i].0
        );
    }
}

#[test]
fn jsonc_inserted_lines_take_the_ending_of_their_neighbourhood() {
    // The first line break is LF, the servers object CRLF: the entry is written in CRLF.
    let added = check(
        "// settings\n{\r\n  \"editor\": 1,\r\n  \"mcpServers\": {\r\n    \"fetch\": {\r\n      \"command\": \"uvx\"\r\n    }\r\n  }\r\n}\r\n",
        Format::Jsonc,
        "mcpServers",
    );
    assert_eq!(
        added,
        "// settings\n{\r\n  \"editor\": 1,\r\n  \"mcpServers\": {\r\n    \"fetch\": {\r\n      \"command\": \"uvx\"\r\n    },\r\n    \"devprojex\": {\r\n      \"command\": \"/opt/devprojex/bin/devprojex\",\r\n      \"args\": [\"mcp\", \"--root\", \"/home/u/src/app\"]\r\n    }\r\n  }\r\n}\r\n"
    );
    // And the other way round: a CRLF first line, an LF servers object.
    let added = check(
        "{\r\n  \"a\": 1,\n  \"mcpServers\": {\n    \"x\": {}\n  }\n}\r\n",
        Format::Jsonc,
        "mcpServers",
    );
    assert_eq!(
        added,
        "{\r\n  \"a\": 1,\n  \"mcpServers\": {\n    \"x\": {},\n    \"devprojex\": {\n      \"command\": \"/opt/devprojex/bin/devprojex\",\n      \"args\": [\"mcp\", \"--root\", \"/home/u/src/app\"]\n    }\n  }\n}\r\n"
    );
}

#[test]
fn json_created_servers_object_follows_the_line_it_is_inserted_after() {
    let added = check_with(
        "{\n  \"a\": 1\r\n}\n",
        Format::Json,
        "mcpServers",
        // A servers object setup created stays behind, empty (documented).
        "{\n  \"a\": 1,\r\n  \"mcpServers\": {}\r\n}\n",
    );
    assert_eq!(
        added,
        "{\n  \"a\": 1,\r\n  \"mcpServers\": {\r\n    \"devprojex\": {\r\n      \"command\": \"/opt/devprojex/bin/devprojex\",\r\n      \"args\": [\"mcp\", \"--root\", \"/home/u/src/app\"]\r\n    }\r\n  }\r\n}\n"
    );
}

#[test]
fn jsonc_kept_fuzz_input_round_trips() {
    // fuzz/regressions/setup_edit/mixed-line-endings.json (NULs shortened): LF, a lone CR,
    // then CRLF lines.
    let text = "\n \r{ \"mcpServers\": {\r\n    \"fetch\": {\r\n      \"c\0\0ommand\": \"uvx\",\r\n      \"args\": [\"mcp-server-fetch\"]\r\n    }\r\n  }\r\n}\r\n";
    let added = check(text, Format::Jsonc, "mcpServers");
    assert!(
        added.contains("    },\r\n    \"devprojex\": {\r\n"),
        "{added:?}"
    );
}

#[test]
fn json_updated_entry_keeps_the_endings_of_its_lines() {
    let p = Path::new("mcp.json");
    let text = "{\r\n  \"mcpServers\": {\n    \"devprojex\": {\r\n      // pinned\n      \"command\": \"/old/devprojex\",\r\n      \"args\": [\"mcp\"]\n    }\r\n  }\n}\r\n";
    let out = edit::upsert(text, Format::Jsonc, "mcpServers", NAME, &entry(), p).unwrap();
    assert_eq!(
        out,
        "{\r\n  \"mcpServers\": {\n    \"devprojex\": {\r\n      // pinned\n      \"command\": \"/opt/devprojex/bin/devprojex\",\r\n      \"args\": [\"mcp\", \"--root\", \"/home/u/src/app\"]\n    }\r\n  }\n}\r\n"
    );
}

#[test]
fn toml_edited_line_keeps_its_own_ending() {
    // An inline servers table is edited on its line; that line keeps its CRLF although the
    // line before it ends in LF.
    let p = Path::new("config.toml");
    let text = "model = \"o3\"\nmcp_servers = { fetch = { command = \"uvx\" } }\r\nz = 1\n";
    let added = edit::upsert(text, Format::Toml, "mcp_servers", NAME, &entry(), p).unwrap();
    assert!(
        added.starts_with(
            "model = \"o3\"\nmcp_servers = { fetch = { command = \"uvx\" } , devprojex = {"
        ),
        "{added:?}"
    );
    assert!(added.ends_with("] } }\r\nz = 1\n"), "{added:?}");
    assert_eq!(
        edit::remove(&added, Format::Toml, "mcp_servers", NAME, p).unwrap(),
        text
    );
}

#[test]
fn toml_inserted_lines_take_the_ending_of_their_neighbourhood() {
    let added = check(
        "model = 1\n\n[mcp_servers.a]\r\ncommand = \"a\"\r\n\r\n[tui]\nz = 1\n",
        Format::Toml,
        "mcp_servers",
    );
    assert_eq!(
        added,
        "model = 1\n\n[mcp_servers.a]\r\ncommand = \"a\"\r\n\r\n[mcp_servers.devprojex]\r\ncommand = \"/opt/devprojex/bin/devprojex\"\r\nargs = [\"mcp\", \"--root\", \"/home/u/src/app\"]\r\n\r\n[tui]\nz = 1\n"
    );
    let added = check(
        "model = 1\r\n[mcp_servers.x]\ncommand = \"x\"\n",
        Format::Toml,
        "mcp_servers",
    );
    assert_eq!(
        added,
        "model = 1\r\n[mcp_servers.x]\ncommand = \"x\"\n\n[mcp_servers.devprojex]\ncommand = \"/opt/devprojex/bin/devprojex\"\nargs = [\"mcp\", \"--root\", \"/home/u/src/app\"]\n"
    );
}

#[test]
fn toml_without_a_final_newline_continues_with_the_nearest_line_break() {
    // The last line gains the ending of the nearest line break before it (CRLF here, although
    // the first line ends in LF); the final newline stays after removal (documented).
    let text = "a = 1\nb = 2\r\n[mcp_servers.x]\r\ncommand = \"x\"";
    let added = check_with(text, Format::Toml, "mcp_servers", &format!("{text}\r\n"));
    assert_eq!(last_break(text), "\r\n");
    assert!(
        added.starts_with(
            "a = 1\nb = 2\r\n[mcp_servers.x]\r\ncommand = \"x\"\r\n\r\n[mcp_servers.devprojex]\r\n"
        ),
        "{added:?}"
    );
}

#[test]
fn a_file_without_any_line_break_gets_lf() {
    let added = check_with("model = 1", Format::Toml, "mcp_servers", "model = 1\n");
    assert!(!added.contains('\r'), "{added:?}");
    let added = check_with(
        "{}",
        Format::Json,
        "mcpServers",
        "{\n  \"mcpServers\": {}\n}",
    );
    assert!(!added.contains('\r') && added.contains('\n'), "{added:?}");
    // A one-line object stays on its line: no line break is written at all.
    let p = Path::new("config");
    let text = "{\"mcpServers\": {\"x\": {}}}";
    let added = edit::upsert(text, Format::Json, "mcpServers", NAME, &entry(), p).unwrap();
    assert!(!added.contains(['\r', '\n']), "{added:?}");
    assert_eq!(
        edit::remove(&added, Format::Json, "mcpServers", NAME, p).unwrap(),
        text
    );
}

/// The lines of a pretty JSONC config with a servers object, optional comments, and random
/// line endings; with or without a final line break.
fn mixed_jsonc() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(("[a-z]{1,6}", 0i64..100), 0..3),
        prop::collection::vec("[a-z][a-z0-9-]{0,6}", 0..3),
        prop::collection::vec(any::<bool>(), 60),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(top, servers, crlf, comments, final_break)| {
            let mut obj = serde_json::Map::new();
            for (k, v) in top {
                if k != "mcpServers" {
                    obj.insert(k, v.into());
                }
            }
            let mut s = serde_json::Map::new();
            for name in servers {
                if name != NAME {
                    s.insert(
                        name,
                        serde_json::json!({"command": "x", "args": ["a", "b"]}),
                    );
                }
            }
            obj.insert("mcpServers".into(), s.into());
            let pretty = serde_json::to_string_pretty(&serde_json::Value::Object(obj)).unwrap();
            let mut out = String::new();
            let mut ends = crlf.iter().cycle();
            let mut nl = || if *ends.next().unwrap() { "\r\n" } else { "\n" };
            if comments {
                out.push_str("// user settings");
                out.push_str(nl());
            }
            for (i, line) in pretty.lines().enumerate() {
                if i > 0 {
                    out.push_str(nl());
                }
                out.push_str(line);
                if comments && line.trim_start().starts_with("\"args\"") {
                    out.push_str(" // flags");
                }
            }
            if final_break {
                out.push_str(nl());
            }
            out
        })
}

/// How the generated TOML writes its servers.
#[derive(Debug, Clone, Copy)]
enum ServersStyle {
    /// `[mcp_servers.name]` tables.
    Tables,
    /// One line: `mcp_servers = { name = { command = "x" } }`.
    Inline,
    /// `mcp_servers.name.command = "x"` lines.
    Dotted,
}

/// TOML with top-level keys, comments, a profile table and servers, each line ending in LF or
/// CRLF as the coins say; with or without a final line break.
fn mixed_toml() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(("[a-z][a-z_]{0,6}", 0i64..1000), 0..3),
        prop::collection::vec("[a-z][a-z0-9-]{0,6}", 0..3),
        prop::sample::select(vec![
            ServersStyle::Tables,
            ServersStyle::Inline,
            ServersStyle::Dotted,
        ]),
        prop::collection::vec(any::<bool>(), 60),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(top, servers, style, crlf, profile, blank_lines, final_break)| {
                let mut lines: Vec<String> = vec!["# Codex".into()];
                let mut seen = std::collections::HashSet::new();
                for (k, v) in top {
                    if k != "mcp_servers" && seen.insert(k.clone()) {
                        lines.push(format!("{k} = {v} # note"));
                    }
                }
                let mut seen = std::collections::HashSet::new();
                let servers: Vec<String> = servers
                    .into_iter()
                    .filter(|s| s != NAME && seen.insert(s.clone()))
                    .collect();
                match style {
                    ServersStyle::Tables => {
                        for s in &servers {
                            if blank_lines {
                                lines.push(String::new());
                            }
                            lines.push(format!("[mcp_servers.{s}]"));
                            lines.push("command = \"x\"".into());
                            lines.push("args = [\"a\"]".into());
                        }
                    }
                    ServersStyle::Inline => {
                        let items: Vec<String> = servers
                            .iter()
                            .map(|s| format!("{s} = {{ command = \"x\" }}"))
                            .collect();
                        // An empty one is `{}`: `{ }` comes back without its space, which is
                        // not about line endings.
                        lines.push(match items.is_empty() {
                            true => "mcp_servers = {}".into(),
                            false => format!("mcp_servers = {{ {} }}", items.join(", ")),
                        });
                    }
                    ServersStyle::Dotted => {
                        for s in &servers {
                            lines.push(format!("mcp_servers.{s}.command = \"x\""));
                        }
                    }
                }
                if profile {
                    if blank_lines {
                        lines.push(String::new());
                    }
                    lines.push("[profiles.deep]".into());
                    lines.push("model = \"o3\"".into());
                }
                let mut out = String::new();
                for (i, (line, crlf)) in lines.iter().zip(crlf.iter().cycle()).enumerate() {
                    out.push_str(line);
                    if i + 1 < lines.len() || final_break {
                        out.push_str(if *crlf { "\r\n" } else { "\n" });
                    }
                }
                out
            },
        )
}

/// The nearest line break before the end of `text`, LF when it has none.
fn last_break(text: &str) -> &str {
    lines(text)
        .iter()
        .rev()
        .map(|(_, e)| *e)
        .find(|e| !e.is_empty())
        .unwrap_or("\n")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    #[test]
    fn mixed_jsonc_round_trips_byte_for_byte(text in mixed_jsonc()) {
        check(&text, Format::Jsonc, "mcpServers");
    }

    #[test]
    fn mixed_toml_round_trips_byte_for_byte(text in mixed_toml()) {
        let (added, back) = round_trip(&text, Format::Toml, "mcp_servers");
        // A file without a final line break may get one, the nearest before the end
        // (documented): when setup's table went after its last line.
        let with_break = format!("{text}{}", last_break(&text));
        prop_assert!(
            back == text || (!text.ends_with('\n') && back == with_break),
            "round trip of\n{:?}\nvia\n{:?}\ngave\n{:?}", text, added, back
        );
    }
}
