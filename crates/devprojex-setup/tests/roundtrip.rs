//! Property tests: for random valid configs, setup then remove gives back the original bytes, a
//! second setup changes nothing, and setup never changes any other key.

use std::path::Path;

use devprojex_setup::Format;
use devprojex_setup::edit;
use devprojex_setup::entry::Entry;
use proptest::prelude::*;
use serde_json::Value;

fn entry(with_type: bool) -> Entry {
    Entry {
        with_type,
        command: "/opt/devprojex/bin/devprojex".into(),
        args: vec!["mcp".into(), "--root".into(), "/home/u/src/app".into()],
        extra: Vec::new(),
    }
}

#[derive(Debug, Clone)]
struct JsonStyle {
    indent: &'static str,
    nl: &'static str,
    bom: bool,
    final_nl: bool,
    trailing_commas: bool,
    comments: bool,
    /// Everything on one line: `Some(true)` with spaces after `:` and `,`, `Some(false)` minified.
    one_line: Option<bool>,
}

#[derive(Debug, Clone)]
enum Scalar {
    Num(i64),
    Str(String),
    Bool(bool),
    Null,
    Obj(Vec<(String, Scalar)>),
    Arr(Vec<Scalar>),
}

fn scalar() -> impl Strategy<Value = Scalar> {
    let leaf = prop_oneof![
        any::<i32>().prop_map(|n| Scalar::Num(n as i64)),
        "[a-zA-Z0-9 _./:\\\\\"é-]{0,12}".prop_map(Scalar::Str),
        any::<bool>().prop_map(Scalar::Bool),
        Just(Scalar::Null),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            prop::collection::vec(("[a-z]{1,6}", inner.clone()), 0..3).prop_map(|v| {
                let mut seen = std::collections::HashSet::new();
                Scalar::Obj(
                    v.into_iter()
                        .filter(|(k, _)| seen.insert(k.clone()))
                        .collect(),
                )
            }),
            prop::collection::vec(inner, 0..3).prop_map(Scalar::Arr),
        ]
    })
}

fn render_scalar(s: &Scalar) -> String {
    match s {
        Scalar::Num(n) => n.to_string(),
        Scalar::Str(s) => serde_json::to_string(s).unwrap(),
        Scalar::Bool(b) => b.to_string(),
        Scalar::Null => "null".into(),
        Scalar::Obj(o) => {
            let parts: Vec<String> = o
                .iter()
                .map(|(k, v)| {
                    format!(
                        "{}: {}",
                        serde_json::to_string(k).unwrap(),
                        render_scalar(v)
                    )
                })
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        Scalar::Arr(a) => format!(
            "[{}]",
            a.iter().map(render_scalar).collect::<Vec<_>>().join(", ")
        ),
    }
}

#[derive(Debug, Clone)]
struct JsonDoc {
    style: JsonStyle,
    /// Top-level keys (never the container).
    top: Vec<(String, Scalar)>,
    /// Index at which the container sits among the top keys; `None`: no container.
    container_at: Option<usize>,
    /// Other servers in the container.
    servers: Vec<(String, Scalar)>,
    /// Comment texts (JSONC), one per slot.
    comment_slots: Vec<bool>,
}

fn json_style(jsonc: bool) -> impl Strategy<Value = JsonStyle> {
    (
        prop::sample::select(vec!["  ", "    ", "\t", "   ", " "]),
        prop::sample::select(vec!["\n", "\r\n"]),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        prop::option::weighted(0.3, any::<bool>()),
    )
        .prop_map(
            move |(indent, nl, bom, final_nl, tc, comments, one_line)| JsonStyle {
                indent,
                nl,
                bom,
                final_nl,
                trailing_commas: jsonc && tc && one_line.is_none(),
                comments: jsonc && comments && one_line.is_none(),
                one_line,
            },
        )
}

fn json_doc(
    jsonc: bool,
    container: &'static str,
    with_container: bool,
) -> impl Strategy<Value = JsonDoc> {
    (
        json_style(jsonc),
        prop::collection::vec(("[a-zA-Z][a-zA-Z0-9_]{0,8}", scalar()), 0..5),
        any::<prop::sample::Index>(),
        prop::collection::vec(("[a-z][a-z0-9-]{0,8}", scalar()), 0..4),
        prop::collection::vec(any::<bool>(), 12),
    )
        .prop_map(move |(style, top, idx, servers, comment_slots)| {
            let mut seen = std::collections::HashSet::new();
            let top: Vec<_> = top
                .into_iter()
                .filter(|(k, _)| k != container && seen.insert(k.clone()))
                .collect();
            let mut seen = std::collections::HashSet::new();
            let servers: Vec<_> = servers
                .into_iter()
                .filter(|(k, _)| k != "devprojex" && seen.insert(k.clone()))
                .collect();
            let container_at = with_container.then(|| idx.index(top.len() + 1));
            JsonDoc {
                style,
                top,
                container_at,
                servers,
                comment_slots,
            }
        })
}

fn render_json(d: &JsonDoc, container: &str) -> String {
    let s = &d.style;
    if let Some(spaced) = s.one_line {
        let (colon, comma) = if spaced { (": ", ", ") } else { (":", ",") };
        let obj = |kv: Vec<(String, String)>| {
            let parts: Vec<String> = kv
                .into_iter()
                .map(|(k, v)| format!("{k}{colon}{v}"))
                .collect();
            format!("{{{}}}", parts.join(comma))
        };
        let q = |k: &str| serde_json::to_string(k).unwrap();
        let mut keys: Vec<(String, String)> = d
            .top
            .iter()
            .map(|(k, v)| (q(k), render_scalar(v)))
            .collect();
        if let Some(at) = d.container_at {
            let servers = d
                .servers
                .iter()
                .map(|(k, v)| (q(k), render_scalar(v)))
                .collect();
            keys.insert(at, (q(container), obj(servers)));
        }
        let bom = if s.bom { "\u{feff}" } else { "" };
        let end = if s.final_nl { s.nl } else { "" };
        return format!("{bom}{}{end}", obj(keys));
    }
    let (i1, i2) = (s.indent.to_string(), s.indent.repeat(2));
    let mut slot = 0;
    let mut comment = |out: &mut String, indent: &str| {
        let on = s.comments && d.comment_slots.get(slot).copied().unwrap_or(false);
        slot += 1;
        if on {
            out.push_str(&format!("{indent}// note {slot}{}", s.nl));
        }
    };
    let mut items: Vec<String> = Vec::new();
    let mut keys: Vec<(String, String)> = d
        .top
        .iter()
        .map(|(k, v)| (serde_json::to_string(k).unwrap(), render_scalar(v)))
        .collect();
    if let Some(at) = d.container_at {
        let mut inner = String::new();
        if d.servers.is_empty() {
            inner.push_str("{}");
        } else {
            inner.push('{');
            inner.push_str(s.nl);
            let n = d.servers.len();
            for (i, (k, v)) in d.servers.iter().enumerate() {
                comment(&mut inner, &i2);
                let comma = if i + 1 < n || s.trailing_commas {
                    ","
                } else {
                    ""
                };
                inner.push_str(&format!(
                    "{i2}{}: {}{comma}{}",
                    serde_json::to_string(k).unwrap(),
                    render_scalar(v),
                    s.nl
                ));
            }
            inner.push_str(&format!("{i1}}}"));
        }
        keys.insert(at, (serde_json::to_string(container).unwrap(), inner));
    }
    let mut out = String::new();
    if s.bom {
        out.push('\u{feff}');
    }
    if keys.is_empty() {
        out.push_str("{}");
    } else {
        out.push('{');
        out.push_str(s.nl);
        let n = keys.len();
        for (i, (k, v)) in keys.iter().enumerate() {
            let mut c = String::new();
            comment(&mut c, &i1);
            let comma = if i + 1 < n || s.trailing_commas {
                ","
            } else {
                ""
            };
            items.push(format!("{c}{i1}{k}: {v}{comma}{}", s.nl));
        }
        out.push_str(&items.concat());
        out.push('}');
    }
    if s.final_nl {
        out.push_str(s.nl);
    }
    out
}

fn json_value(text: &str) -> Value {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    jsonc_parser::cst::CstRootNode::parse(body, &Default::default())
        .unwrap()
        .to_serde_value()
        .unwrap_or(Value::Null)
}

fn check_json(
    text: &str,
    format: Format,
    container: &str,
    with_type: bool,
) -> Result<(), TestCaseError> {
    let p = Path::new("config.json");
    let e = entry(with_type);
    let added = edit::upsert(text, format, container, "devprojex", &e, p).unwrap();
    // The result parses, has the entry, and every other key is unchanged.
    let got = edit::read_entry(&added, format, container, "devprojex", p).unwrap();
    prop_assert_eq!(got, Some(e.to_json()));
    let mut after = json_value(&added);
    let before = json_value(text);
    after[container]
        .as_object_mut()
        .unwrap()
        .remove("devprojex");
    let mut expected = if before.is_null() {
        serde_json::json!({})
    } else {
        before.clone()
    };
    if expected.get(container).is_none() {
        expected[container] = serde_json::json!({});
    }
    prop_assert_eq!(after, expected);
    // BOM and line endings kept.
    prop_assert_eq!(added.starts_with('\u{feff}'), text.starts_with('\u{feff}'));
    if text.contains("\r\n") {
        prop_assert_eq!(added.matches('\n').count(), added.matches("\r\n").count());
    }
    // A second run changes nothing.
    let again = edit::upsert(&added, format, container, "devprojex", &e, p).unwrap();
    prop_assert_eq!(&again, &added);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    #[test]
    fn jsonc_setup_then_remove_is_identity(d in json_doc(true, "servers", true)) {
        let text = render_json(&d, "servers");
        let p = Path::new("mcp.json");
        let added = edit::upsert(&text, Format::Jsonc, "servers", "devprojex", &entry(true), p).unwrap();
        let back = edit::remove(&added, Format::Jsonc, "servers", "devprojex", p).unwrap();
        prop_assert_eq!(back, text);
    }

    #[test]
    fn json_setup_then_remove_is_identity(d in json_doc(false, "mcpServers", true)) {
        let text = render_json(&d, "mcpServers");
        let p = Path::new("claude.json");
        let added = edit::upsert(&text, Format::Json, "mcpServers", "devprojex", &entry(false), p).unwrap();
        let back = edit::remove(&added, Format::Json, "mcpServers", "devprojex", p).unwrap();
        prop_assert_eq!(back, text);
    }

    #[test]
    fn jsonc_setup_changes_no_other_key(d in json_doc(true, "mcpServers", false), with in any::<bool>()) {
        let mut d = d;
        if with { d.container_at = Some(0); }
        check_json(&render_json(&d, "mcpServers"), Format::Jsonc, "mcpServers", true)?;
    }

    #[test]
    fn json_setup_changes_no_other_key(d in json_doc(false, "mcpServers", false), with in any::<bool>()) {
        let mut d = d;
        if with { d.container_at = Some(d.top.len()); }
        check_json(&render_json(&d, "mcpServers"), Format::Json, "mcpServers", false)?;
    }
}

// ---------- TOML ----------

#[derive(Debug, Clone)]
struct TomlDoc {
    crlf: bool,
    bom: bool,
    comments: Vec<bool>,
    top: Vec<(String, i64)>,
    tables: Vec<(String, Vec<(String, String)>)>,
    servers: Vec<(String, String)>,
    /// Where the `[mcp_servers.*]` tables sit among the other tables; `None`: none.
    servers_at: Option<usize>,
    explicit_parent: bool,
}

fn toml_doc() -> impl Strategy<Value = TomlDoc> {
    (
        any::<bool>(),
        any::<bool>(),
        prop::collection::vec(any::<bool>(), 16),
        prop::collection::vec(("[a-z][a-z_]{0,7}", any::<i32>().prop_map(i64::from)), 0..4),
        prop::collection::vec(
            (
                "[a-z][a-z_]{0,7}",
                prop::collection::vec(("[a-z][a-z_]{0,5}", "[a-zA-Z0-9 ./\\\\\"'-]{0,10}"), 0..3),
            ),
            0..3,
        ),
        prop::collection::vec(("[a-z][a-z0-9_-]{0,7}", "[a-z/]{1,10}"), 0..3),
        any::<prop::sample::Index>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(crlf, bom, comments, top, tables, servers, idx, has, explicit_parent)| {
                let dedup = |v: Vec<(String, String)>| {
                    let mut seen = std::collections::HashSet::new();
                    v.into_iter()
                        .filter(|(k, _)| seen.insert(k.clone()))
                        .collect::<Vec<_>>()
                };
                let mut seen = std::collections::HashSet::new();
                let top: Vec<_> = top
                    .into_iter()
                    .filter(|(k, _)| seen.insert(k.clone()))
                    .collect();
                let mut seen = std::collections::HashSet::new();
                let tables: Vec<_> = tables
                    .into_iter()
                    .filter(|(k, _)| {
                        k != "mcp_servers"
                            && !top.iter().any(|(t, _)| t == k)
                            && seen.insert(k.clone())
                    })
                    .map(|(k, v)| (k, dedup(v)))
                    .collect();
                let servers: Vec<_> = dedup(servers)
                    .into_iter()
                    .filter(|(k, _)| k != "devprojex")
                    .collect();
                let servers_at = (has || !servers.is_empty()).then(|| idx.index(tables.len() + 1));
                TomlDoc {
                    crlf,
                    bom,
                    comments,
                    top,
                    tables,
                    servers,
                    servers_at,
                    explicit_parent,
                }
            },
        )
}

fn render_toml(d: &TomlDoc) -> String {
    let nl = if d.crlf { "\r\n" } else { "\n" };
    let mut slot = 0;
    let mut comment = |out: &mut String| {
        let on = d.comments.get(slot).copied().unwrap_or(false);
        slot += 1;
        if on {
            out.push_str(&format!("# comment {slot}{nl}"));
        }
    };
    let mut out = String::new();
    if d.bom {
        out.push('\u{feff}');
    }
    for (k, v) in &d.top {
        comment(&mut out);
        out.push_str(&format!("{k} = {v}{nl}"));
    }
    let mut blocks: Vec<String> = d
        .tables
        .iter()
        .map(|(name, kv)| {
            let mut b = format!("{nl}[{name}]{nl}");
            for (k, v) in kv {
                b.push_str(&format!("{k} = {}{nl}", toml_edit::Value::from(v.as_str())));
            }
            b
        })
        .collect();
    if let Some(at) = d.servers_at {
        let mut b = String::new();
        if d.explicit_parent || d.servers.is_empty() {
            b.push_str(&format!("{nl}[mcp_servers]{nl}"));
        }
        for (name, cmd) in &d.servers {
            b.push_str(&format!(
                "{nl}[mcp_servers.{name}]{nl}command = \"{cmd}\"{nl}args = [\"x\"]{nl}"
            ));
        }
        blocks.insert(at, b);
    }
    for b in blocks {
        comment(&mut out);
        out.push_str(&b);
    }
    out
}

fn toml_json(text: &str) -> Value {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let doc: toml_edit::DocumentMut = body.parse().unwrap();
    fn item(i: &toml_edit::Item) -> Value {
        match i {
            toml_edit::Item::Value(v) => value(v),
            toml_edit::Item::Table(t) => {
                Value::Object(t.iter().map(|(k, v)| (k.to_string(), item(v))).collect())
            }
            _ => Value::Null,
        }
    }
    fn value(v: &toml_edit::Value) -> Value {
        match v {
            toml_edit::Value::String(s) => Value::String(s.value().clone()),
            toml_edit::Value::Integer(i) => Value::from(*i.value()),
            toml_edit::Value::Array(a) => Value::Array(a.iter().map(value).collect()),
            toml_edit::Value::InlineTable(t) => {
                Value::Object(t.iter().map(|(k, v)| (k.to_string(), value(v))).collect())
            }
            other => Value::String(other.to_string()),
        }
    }
    Value::Object(doc.iter().map(|(k, v)| (k.to_string(), item(v))).collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    #[test]
    fn toml_setup_then_remove_is_identity(d in toml_doc()) {
        let text = render_toml(&d);
        let p = Path::new("config.toml");
        let e = entry(false);
        let added = edit::upsert(&text, Format::Toml, "mcp_servers", "devprojex", &e, p).unwrap();
        prop_assert_eq!(edit::read_entry(&added, Format::Toml, "mcp_servers", "devprojex", p).unwrap(), Some(e.to_json()));
        let again = edit::upsert(&added, Format::Toml, "mcp_servers", "devprojex", &e, p).unwrap();
        prop_assert_eq!(&again, &added);
        let back = edit::remove(&added, Format::Toml, "mcp_servers", "devprojex", p).unwrap();
        prop_assert_eq!(&back, &text);
    }

    #[test]
    fn toml_setup_changes_no_other_key(d in toml_doc()) {
        let text = render_toml(&d);
        let p = Path::new("config.toml");
        let added = edit::upsert(&text, Format::Toml, "mcp_servers", "devprojex", &entry(false), p).unwrap();
        let mut after = toml_json(&added);
        after["mcp_servers"].as_object_mut().unwrap().remove("devprojex");
        let mut expected = toml_json(&text);
        if expected.get("mcp_servers").is_none() {
            expected["mcp_servers"] = serde_json::json!({});
        }
        prop_assert_eq!(after, expected);
        prop_assert_eq!(added.starts_with('\u{feff}'), text.starts_with('\u{feff}'));
        if d.crlf && text.contains('\n') {
            prop_assert_eq!(added.matches('\n').count(), added.matches("\r\n").count());
        }
    }
}
