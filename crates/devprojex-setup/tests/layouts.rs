//! Layouts the first round-trip tests did not generate, found by an audit of real configs:
//! TOML that mixes LF and CRLF line by line, closing braces that share a line (`}}}`), empty
//! servers objects holding only a comment, comments inside an entry that setup updates, and a
//! duplicated key. Property tests where the layout is random, examples where it is one case.

use std::path::Path;

use devprojex_setup::Format;
use devprojex_setup::edit;
use devprojex_setup::entry::Entry;
use proptest::prelude::*;
use serde_json::{Value, json};

fn entry() -> Entry {
    Entry {
        with_type: false,
        command: "/opt/devprojex/bin/devprojex".into(),
        args: vec!["mcp".into(), "--root".into(), "/home/u/src/app".into()],
        extra: Vec::new(),
    }
}

fn lenient(text: &str) -> Value {
    jsonc_parser::parse_to_serde_value(text, &Default::default()).unwrap()
}

/// Random TOML lines, each ending in LF or CRLF as `endings` says.
fn mixed_toml() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(("[a-z][a-z_]{0,6}", 0i64..1000), 0..4),
        prop::collection::vec(("[a-z][a-z_]{0,6}", "[a-z]{0,5}"), 0..3),
        prop::collection::vec("[a-z][a-z0-9-]{0,6}", 0..3),
        prop::collection::vec(any::<bool>(), 40),
        any::<bool>(),
    )
        .prop_map(|(top, table, servers, endings, comment)| {
            let mut lines: Vec<String> = Vec::new();
            let mut seen = std::collections::HashSet::new();
            for (k, v) in top {
                if seen.insert(k.clone()) {
                    lines.push(format!("{k} = {v}"));
                }
            }
            if comment {
                lines.push("# a comment".into());
            }
            if !table.is_empty() {
                lines.push(String::new());
                lines.push("[profile]".into());
                let mut seen = std::collections::HashSet::new();
                for (k, v) in table {
                    if seen.insert(k.clone()) {
                        lines.push(format!("{k} = \"{v}\""));
                    }
                }
            }
            let mut seen = std::collections::HashSet::new();
            for s in servers {
                if s != "devprojex" && seen.insert(s.clone()) {
                    lines.push(String::new());
                    lines.push(format!("[mcp_servers.{s}]"));
                    lines.push("command = \"x\"".into());
                }
            }
            lines
                .iter()
                .zip(endings.iter().cycle())
                .map(|(l, crlf)| format!("{l}{}", if *crlf { "\r\n" } else { "\n" }))
                .collect()
        })
}

/// Pretty JSON with a servers object, some closing braces pulled up onto the line before.
fn joined_braces() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(("[a-z]{1,6}", 0i64..100), 0..3),
        prop::collection::vec("[a-z][a-z0-9-]{0,6}", 0..3),
        prop::collection::vec(any::<bool>(), 30),
        any::<bool>(),
    )
        .prop_map(|(top, servers, joins, crlf)| {
            let mut obj = serde_json::Map::new();
            for (k, v) in top {
                if k != "mcpServers" {
                    obj.insert(k, json!(v));
                }
            }
            let mut s = serde_json::Map::new();
            for name in servers {
                if name != "devprojex" {
                    s.insert(name, json!({"command": "x", "args": ["a"]}));
                }
            }
            obj.insert("mcpServers".into(), Value::Object(s));
            let pretty = serde_json::to_string_pretty(&Value::Object(obj)).unwrap();
            // Pull a closing brace up when the coin says so: `}\n  }` -> `}}`.
            let mut out = String::new();
            let mut coins = joins.iter().cycle();
            let mut rest = pretty.as_str();
            while let Some(i) = rest.find('\n') {
                let (line, tail) = rest.split_at(i);
                out.push_str(line);
                let next = tail[1..].trim_start();
                let join = next.starts_with('}') && line.trim_end().ends_with('}');
                if join && *coins.next().unwrap() {
                    rest = next;
                } else {
                    out.push_str(if crlf { "\r\n" } else { "\n" });
                    rest = &tail[1..];
                }
            }
            out.push_str(rest);
            out.push('\n');
            out
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    #[test]
    fn mixed_toml_keeps_every_line_ending(text in mixed_toml()) {
        let p = Path::new("config.toml");
        let added = edit::upsert(&text, Format::Toml, "mcp_servers", "devprojex", &entry(), p).unwrap();
        // Every line that was there keeps its own ending.
        for line in text.split_inclusive('\n').filter(|l| !l.trim().is_empty()) {
            prop_assert!(added.contains(line), "{line:?} kept in {added:?}");
        }
        let back = edit::remove(&added, Format::Toml, "mcp_servers", "devprojex", p).unwrap();
        prop_assert_eq!(back, text);
    }

    #[test]
    fn closing_braces_on_one_line_are_not_reflowed(text in joined_braces()) {
        let p = Path::new("claude.json");
        let added = edit::upsert(&text, Format::Json, "mcpServers", "devprojex", &entry(), p).unwrap();
        prop_assert_eq!(
            edit::read_entry(&added, Format::Json, "mcpServers", "devprojex", p).unwrap(),
            Some(entry().to_json())
        );
        let mut after = lenient(&added);
        after["mcpServers"].as_object_mut().unwrap().remove("devprojex");
        prop_assert_eq!(after, lenient(&text));
        let back = edit::remove(&added, Format::Json, "mcpServers", "devprojex", p).unwrap();
        prop_assert_eq!(back, text);
    }
}

#[test]
fn empty_servers_with_a_comment_are_restored() {
    let p = Path::new("mcp.json");
    // (text, whether its servers object is written on one line)
    for (text, one_line) in [
        ("{\n  \"mcpServers\": { /* none */ }\n}\n", true),
        ("{\"mcpServers\":{/* none */}}", true),
        ("{ /* nothing yet */ }\n", true),
        ("{\n  \"mcpServers\": {\n    // none yet\n  }\n}\n", false),
        (
            "{\n  \"mcpServers\": { \"other\": { \"command\": \"x\" /* c */ } } // end\n}\n",
            true,
        ),
        (
            "{\n  \"mcpServers\": {\n    \"other\": { \"command\": \"x\" } // keep\n  }\n}\n",
            false,
        ),
    ] {
        let added =
            edit::upsert(text, Format::Jsonc, "mcpServers", "devprojex", &entry(), p).unwrap();
        assert_eq!(
            edit::read_entry(&added, Format::Jsonc, "mcpServers", "devprojex", p).unwrap(),
            Some(entry().to_json()),
            "{added}"
        );
        if one_line {
            assert_eq!(
                added.lines().count(),
                text.lines().count(),
                "a one-line object stays on its line: {added}"
            );
        }
        let back = edit::remove(&added, Format::Jsonc, "mcpServers", "devprojex", p).unwrap();
        // A servers object that setup created stays behind, empty (documented).
        let want = text.replace(
            "{ /* nothing yet */ }",
            "{ /* nothing yet */ \"mcpServers\": {} }",
        );
        assert_eq!(back, want, "via {added}");
    }
}

#[test]
fn comments_inside_an_updated_entry_are_kept() {
    let p = Path::new("mcp.json");
    let text = "{\n  \"mcpServers\": {\n    \"devprojex\": {\n      // pinned by hand\n      \"command\": \"/old/devprojex\", // moved since\n      \"args\": [\"mcp\"] /* flags */\n    }\n  }\n}\n";
    let out = edit::upsert(text, Format::Jsonc, "mcpServers", "devprojex", &entry(), p).unwrap();
    for needle in ["// pinned by hand", "// moved since", "/* flags */"] {
        assert!(out.contains(needle), "{needle} kept:\n{out}");
    }
    assert_eq!(
        edit::read_entry(&out, Format::Jsonc, "mcpServers", "devprojex", p).unwrap(),
        Some(entry().to_json())
    );
    // Only the changed values moved: the rest of the file is byte for byte the same.
    assert!(out.starts_with("{\n  \"mcpServers\": {\n    \"devprojex\": {\n      // pinned by hand\n      \"command\": \"/opt/devprojex/bin/devprojex\", // moved since\n"), "{out}");
}

#[test]
fn removing_an_entry_after_a_line_comment_keeps_the_closing_brace_out_of_it() {
    // Found by fuzzing: the only entry, after a line comment, with its closing brace and the
    // servers object's on one line (`}}`): cutting the line break before the entry put the
    // servers object's brace into the comment.
    let p = Path::new("mcp.json");
    for nl in ["\n", "\r\n"] {
        let text = "{\n  \"servers\": {\n    // by an older setup\n    \"devprojex\": {\n      \"command\": \"x\"\n  }}\n}\n"
            .replace('\n', nl);
        let out = edit::remove(&text, Format::Jsonc, "servers", "devprojex", p).unwrap();
        assert_eq!(
            out,
            "{\n  \"servers\": {\n    // by an older setup\n}\n}\n".replace('\n', nl)
        );
        assert_eq!(lenient(&out), json!({"servers": {}}));
    }
}

#[test]
fn a_duplicated_key_is_an_error_not_a_silent_edit() {
    let p = Path::new("claude.json");
    let cases = [
        "{\"mcpServers\": {\"a\": {}}, \"mcpServers\": {\"b\": {}}}",
        "{\"mcpServers\": {\"devprojex\": {\"command\": \"a\"}, \"devprojex\": {\"command\": \"b\"}}}",
        "{\"projects\": {\"/p\": {}, \"/p\": {\"mcpServers\": {}}}}",
    ];
    for (i, text) in cases.iter().enumerate() {
        let keys: &[&str] = if i == 2 {
            &["projects", "/p", "mcpServers"]
        } else {
            &["mcpServers"]
        };
        for result in [
            edit::upsert_at(text, Format::Json, keys, "devprojex", &entry(), p).map(|_| ()),
            edit::remove_at(text, Format::Json, keys, "devprojex", p).map(|_| ()),
            edit::read_entry_at(text, Format::Json, keys, "devprojex", p).map(|_| ()),
            // Listing agrees with reading (found by fuzzing).
            edit::object_keys_at(text, Format::Json, keys, p).map(|_| ()),
        ] {
            let err = result.unwrap_err();
            assert_eq!(err.code(), "DPX-SETUP-DUPLICATE-KEY", "{text}: {err}");
        }
    }
}

#[test]
fn nested_containers_for_claude_code_local_scope() {
    let p = Path::new(".claude.json");
    let text = "{\n  \"projects\": {\n    \"/src/app\": {\n      \"allowedTools\": [],\n      \"mcpServers\": {\n        \"devprojex\": {\n          \"type\": \"stdio\",\n          \"command\": \"/old/devprojex\",\n          \"args\": [\"mcp\"],\n          \"env\": {}\n        }\n      }\n    }\n  }\n}\n";
    let keys = ["projects", "/src/app", "mcpServers"];
    let e = Entry {
        with_type: true,
        command: "/new/devprojex".into(),
        args: vec!["mcp".into()],
        extra: Vec::new(),
    };
    let out = edit::upsert_at(text, Format::Json, &keys, "devprojex", &e, p).unwrap();
    assert_eq!(
        edit::read_entry_at(&out, Format::Json, &keys, "devprojex", p).unwrap(),
        Some(e.to_json())
    );
    let removed = edit::remove_at(&out, Format::Json, &keys, "devprojex", p).unwrap();
    assert_eq!(
        lenient(&removed)["projects"]["/src/app"],
        json!({"allowedTools": [], "mcpServers": {}})
    );
    assert_eq!(
        edit::object_keys_at(text, Format::Json, &["projects"], p).unwrap(),
        ["/src/app"]
    );
}

#[test]
fn parse_error_at_the_end_of_the_file_has_a_real_column() {
    let p = Path::new("claude.json");
    let err = edit::upsert(
        "{\"mcpServers\": {\n",
        Format::Json,
        "mcpServers",
        "devprojex",
        &entry(),
        p,
    )
    .unwrap_err()
    .to_string();
    assert!(err.starts_with("claude.json:2:1:"), "{err}");
}

/// A servers object laid out by hand: any spacing and line breaks between its tokens (an entry
/// that shares the `{` line, a closing brace on the last entry's line), values spread over
/// lines, and in JSONC trailing commas and comments after an entry's comma.
fn hand_laid_servers(jsonc: bool) -> impl Strategy<Value = String> {
    let gap = prop::sample::select(vec!["", " ", "NL", "NL  ", "NL    ", " NL  ", "NLNL"]);
    let value = prop::sample::select(vec![
        "1",
        "{\"command\": \"x\"}",
        "[1,NL2]",
        "{\"command\":\"npx\",\"args\":[\"-y\",NL NL\"/p\"]}",
    ]);
    let note = prop::sample::select(vec!["", " // note", " /* note */"]);
    (
        prop::collection::vec((value, gap.clone(), gap.clone(), note), 1..4),
        prop::collection::vec(gap, 6),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(move |(entries, gaps, trailing_comma, crlf)| {
            let mut servers = String::from("{");
            servers.push_str(gaps[0]);
            let n = entries.len();
            for (i, (value, before_comma, after_comma, note)) in entries.into_iter().enumerate() {
                servers.push_str(&format!("\"s{i}\":{value}"));
                if i + 1 < n || (jsonc && trailing_comma) {
                    servers.push_str(before_comma);
                    servers.push(',');
                    if jsonc && !note.is_empty() {
                        // A line comment ends its line.
                        servers.push_str(note);
                        servers.push_str("NL");
                    }
                    servers.push_str(after_comma);
                }
            }
            servers.push_str(gaps[1]);
            servers.push('}');
            let text = format!(
                "{{{}\"mcpServers\":{}{servers},{}\"b\": 1{}}}NL",
                gaps[2], gaps[3], gaps[4], gaps[5]
            );
            text.replace("NL", if crlf { "\r\n" } else { "\n" })
        })
}

/// TOML whose servers table is inline, with any spacing inside (an empty `{  }` too).
fn inline_toml_servers() -> impl Strategy<Value = String> {
    let space = prop::sample::select(vec!["", " ", "  ", "\t", " \t "]);
    (
        prop::collection::vec(
            (
                "[a-z][a-z0-9_]{0,5}",
                space.clone(),
                space.clone(),
                prop::sample::select(vec![
                    "1",
                    "\"x\"",
                    "{ command = \"x\" }",
                    "{command=\"y\",args=[]}",
                ]),
            ),
            0..3,
        ),
        space.clone(),
        space,
        any::<bool>(),
    )
        .prop_map(|(entries, open, close, model)| {
            let mut seen = std::collections::HashSet::new();
            let items: Vec<String> = entries
                .into_iter()
                .filter(|(k, ..)| k != "devprojex" && seen.insert(k.clone()))
                .map(|(k, before, after, v)| format!("{k}{before}={after}{v}"))
                .collect();
            let head = if model { "model = \"o3\"\n" } else { "" };
            format!(
                "{head}mcp_servers = {{{open}{}{close}}}\n",
                items.join(", ")
            )
        })
}

fn assert_round_trip(text: &str, format: Format, container: &str) -> Result<(), TestCaseError> {
    let p = Path::new("config");
    let added = edit::upsert(text, format, container, "devprojex", &entry(), p).unwrap();
    prop_assert_eq!(
        edit::read_entry(&added, format, container, "devprojex", p).unwrap(),
        Some(entry().to_json())
    );
    let back = edit::remove(&added, format, container, "devprojex", p).unwrap();
    prop_assert_eq!(&back, text, "via {:?}", added);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    #[test]
    fn hand_laid_json_servers_are_not_reflowed(text in hand_laid_servers(false)) {
        let p = Path::new("claude.json");
        let added = edit::upsert(&text, Format::Json, "mcpServers", "devprojex", &entry(), p).unwrap();
        let mut after = lenient(&added);
        after["mcpServers"].as_object_mut().unwrap().remove("devprojex");
        prop_assert_eq!(after, lenient(&text));
        assert_round_trip(&text, Format::Json, "mcpServers")?;
    }

    #[test]
    fn hand_laid_jsonc_servers_are_not_reflowed(text in hand_laid_servers(true)) {
        assert_round_trip(&text, Format::Jsonc, "mcpServers")?;
    }

    #[test]
    fn inline_toml_servers_keep_their_spacing(text in inline_toml_servers()) {
        assert_round_trip(&text, Format::Toml, "mcp_servers")?;
    }
}

#[test]
fn an_entry_sharing_the_brace_line_stays_there() {
    // Found by fuzzing (fuzz/regressions/setup_edit/json-first-entry-on-the-brace-line.json):
    // the CST moved the first entry off the `{` line when adding ours, and removal did not put
    // it back.
    let p = Path::new("claude.json");
    let text = "{\"mcpServers\":{\"fs\":{\"command\":\"npx\",\"args\":[\"-y\",\n \n\"/Users/ada\"]}},\"globalShortcut\":\"Alt+Space\"}\n";
    let added = edit::upsert(text, Format::Json, "mcpServers", "devprojex", &entry(), p).unwrap();
    assert!(
        added.starts_with(
            "{\"mcpServers\":{\"fs\":{\"command\":\"npx\",\"args\":[\"-y\",\n \n\"/Users/ada\"]},\n"
        ),
        "{added}"
    );
    assert!(
        added.ends_with("}},\"globalShortcut\":\"Alt+Space\"}\n"),
        "{added}"
    );
    let back = edit::remove(&added, Format::Json, "mcpServers", "devprojex", p).unwrap();
    assert_eq!(back, text);
}

#[test]
fn an_empty_inline_toml_table_keeps_its_inner_spaces() {
    let p = Path::new("config.toml");
    for text in [
        "mcp_servers = {  }\n",
        "mcp_servers = {\t}\n",
        "mcp_servers = {}\n",
        // TOML 1.1: line breaks and comments inside an inline table.
        "mcp_servers = {\n  # none yet\n}\n",
    ] {
        let added =
            edit::upsert(text, Format::Toml, "mcp_servers", "devprojex", &entry(), p).unwrap();
        let back = edit::remove(&added, Format::Toml, "mcp_servers", "devprojex", p).unwrap();
        assert_eq!(back, text, "via {added:?}");
    }
}

/// Node writes a lone surrogate escape when it cuts a string between the halves of an emoji
/// (`~/.claude.json` history): valid JSON, kept byte for byte (issue 37, item 5).
#[test]
fn a_lone_surrogate_escape_is_kept_byte_for_byte() {
    let p = Path::new(".claude.json");
    let text = "{\n  \"history\": [\"cut \\ud83d\", \"pair \\ud83d\\ude00\", \"low \\uDE00 \\\\ud83d\"],\n  // kept\n  \"mcpServers\": {}\n}\n";
    for format in [Format::Json, Format::Jsonc] {
        let text = if format == Format::Json {
            text.replace("  // kept\n", "")
        } else {
            text.to_string()
        };
        let added = edit::upsert_at(&text, format, &["mcpServers"], "devprojex", &entry(), p)
            .unwrap_or_else(|e| panic!("{format:?}: {e}"));
        for original in [
            "cut \\ud83d\"",
            "pair \\ud83d\\ude00\"",
            "low \\uDE00 \\\\ud83d\"",
        ] {
            assert!(
                added.contains(original),
                "{format:?}: {original} in {added}"
            );
        }
        assert_eq!(
            edit::read_entry_at(&added, format, &["mcpServers"], "devprojex", p).unwrap(),
            Some(entry().to_json())
        );
        let back = edit::remove_at(&added, format, &["mcpServers"], "devprojex", p).unwrap();
        assert_eq!(back, text, "{format:?}");
        // Claude Code's local scopes are read through the same mask.
        if format == Format::Json {
            assert!(
                edit::keys_with_entry(&added, &["projects"], &["mcpServers"], "devprojex", p)
                    .unwrap()
                    .is_empty()
            );
        }
    }
}

/// A one-line JSONC servers object with a space before its trailing comma (found by the
/// hand-laid property test): the entry goes after that comma, and removal restores every byte.
#[test]
fn a_space_before_a_one_line_trailing_comma_survives_a_round_trip() {
    let p = Path::new("mcp.json");
    for text in [
        "{\"mcpServers\":{\"s0\":1 ,},\"b\": 1}\n",
        "{\"mcpServers\": {\"s0\": 1 , }, \"b\": 1}\n",
    ] {
        let added = edit::upsert_at(
            text,
            Format::Jsonc,
            &["mcpServers"],
            "devprojex",
            &entry(),
            p,
        )
        .unwrap();
        assert_eq!(
            edit::read_entry_at(&added, Format::Jsonc, &["mcpServers"], "devprojex", p).unwrap(),
            Some(entry().to_json()),
            "{added}"
        );
        assert!(!added.contains('\n') || added.ends_with("}\n") && added.lines().count() == 1);
        let back = edit::remove_at(&added, Format::Jsonc, &["mcpServers"], "devprojex", p).unwrap();
        assert_eq!(back, text, "via {added}");
    }
}
