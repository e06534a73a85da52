//! Another program's save that setup's brief swap hid, carried over.
//!
//! Setup swaps its text in and compares what it replaced with the text its edit was computed
//! from ([`crate::fsio::write_edited`]). When another program had saved the file in between
//! (`lost`), the swap is undone at once, but for that moment setup's text (`shown`) was in
//! place. A client that read the file just then holds `shown` and may save `newer` from it,
//! which lacks `lost`'s changes. [`carry_over`] applies them to `newer` where `newer` kept
//! `shown`'s value, key by key in JSON (through the CST, so the rest of `newer` stays byte for
//! byte) and line by line in TOML; setup's edit is then applied to the result as to any newer
//! text.

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::CstRootNode;
use serde_json::{Map, Value};

use crate::client::Format;
use crate::edit::{data_of, split_bom, to_input};
use crate::line_endings;
use crate::merge;

/// A change of one key: its path from the top level, and its new value (`None`: removed).
type KeyChange = (Vec<String>, Option<Value>);

/// `newer` with the changes `lost` made to `shown` applied wherever `newer` still has `shown`'s
/// value (where `newer` changed a key too, its own value stays). `None` when a text does not
/// parse, its top level is not a table, or the result would not hold exactly that data.
pub fn carry_over(format: Format, shown: &str, lost: &str, newer: &str) -> Option<String> {
    let (shown_data, lost_data) = (data_of(shown, format)?, data_of(lost, format)?);
    let newer_data = data_of(newer, format)?;
    if !(shown_data.is_object() && lost_data.is_object() && newer_data.is_object()) {
        return None;
    }
    let mut changes = Vec::new();
    changes_to_carry(
        shown_data.as_object()?,
        lost_data.as_object()?,
        newer_data.as_object()?,
        &mut Vec::new(),
        &mut changes,
    );
    let mut expected = newer_data.clone();
    for (path, value) in &changes {
        set_value(&mut expected, path, value.clone());
    }
    if changes.is_empty() {
        return Some(newer.to_string());
    }
    let carried = match format {
        Format::Json | Format::Jsonc => json_carried(newer, &changes)?,
        // TOML is written a key per line: `lost`'s lines merge onto `newer`'s.
        Format::Toml => merge::Placement::ALL
            .into_iter()
            .filter_map(|placement| merge::merge3(shown, newer, lost, placement))
            .find(|merged| data_of(merged, format).as_ref() == Some(&expected))?,
    };
    (data_of(&carried, format)? == expected).then_some(carried)
}

/// The keys `lost` changed from `shown` that `newer` left at `shown`'s value, descending into
/// tables that `lost` and `newer` both have (also where both added one: each keeps its keys).
fn changes_to_carry(
    shown: &Map<String, Value>,
    lost: &Map<String, Value>,
    newer: &Map<String, Value>,
    at: &mut Vec<String>,
    out: &mut Vec<KeyChange>,
) {
    let no_keys = Map::new();
    let keys = shown
        .keys()
        .chain(lost.keys().filter(|k| !shown.contains_key(*k)));
    for key in keys {
        let (s, l, n) = (shown.get(key), lost.get(key), newer.get(key));
        if s == l {
            continue;
        }
        match (s, l, n) {
            (None | Some(Value::Object(_)), Some(Value::Object(l)), Some(Value::Object(n))) => {
                let s = s.and_then(Value::as_object).unwrap_or(&no_keys);
                at.push(key.clone());
                changes_to_carry(s, l, n, at, out);
                at.pop();
            }
            _ if n == s => {
                let mut path = at.clone();
                path.push(key.clone());
                out.push((path, l.cloned()));
            }
            // `newer` changed it too: its value stays.
            _ => {}
        }
    }
}

/// Sets (or removes) the key at `path`, whose tables are there.
fn set_value(data: &mut Value, path: &[String], value: Option<Value>) {
    let Some((key, parents)) = path.split_last() else {
        return;
    };
    let table = parents
        .iter()
        .try_fold(data, |v, k| v.as_object_mut()?.get_mut(k))
        .and_then(Value::as_object_mut);
    match (table, value) {
        (Some(t), Some(v)) => {
            t.insert(key.clone(), v);
        }
        (Some(t), None) => {
            t.remove(key);
        }
        (None, _) => {}
    }
}

fn json_carried(newer: &str, changes: &[KeyChange]) -> Option<String> {
    let (bom, body) = split_bom(newer);
    let root = CstRootNode::parse(body, &ParseOptions::default()).ok()?;
    let top = root.object_value()?;
    for (path, value) in changes {
        let (key, parents) = path.split_last()?;
        let mut table = top.clone();
        for k in parents {
            table = table.object_value(k)?;
        }
        match (table.get(key), value) {
            (Some(prop), Some(v)) => prop.set_value(to_input(v)),
            (None, Some(v)) => {
                table.append(key, to_input(v));
            }
            (Some(prop), None) => prop.remove(),
            (None, None) => {}
        }
    }
    let text = line_endings::restore(body, &root.to_string(), Format::Jsonc);
    Some(format!("{bom}{text}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_saved_from_setups_shown_text_keeps_the_lost_save() {
        // `lost` added `tips`; the client read setup's text and saved `newer` with `startups: 2`.
        let shown = "{\n  \"startups\": 1,\n  \"mcpServers\": {\n    \"devprojex\": {}\n  }\n}\n";
        let lost = "{\n  \"startups\": 1,\n  \"tips\": {\"seen\": 3}\n}\n";
        let newer = "{\n  // the client's comment\n  \"startups\": 2,\n  \"mcpServers\": {\n    \"devprojex\": {}\n  }\n}\n";
        let carried = carry_over(Format::Jsonc, shown, lost, newer).unwrap();
        let data = data_of(&carried, Format::Jsonc).unwrap();
        assert_eq!(data["startups"], 2, "newer's own change stays: {carried}");
        assert_eq!(data["tips"]["seen"], 3, "the lost save is back: {carried}");
        // `lost` lacks setup's entry (setup's edit adds it again afterwards).
        assert!(data["mcpServers"].get("devprojex").is_none(), "{carried}");
        assert!(carried.contains("// the client's comment"), "{carried}");
    }

    #[test]
    fn where_both_changed_a_key_the_newer_value_stays() {
        let shown = r#"{"a": 1, "b": 1}"#;
        let lost = r#"{"a": 2, "b": 2}"#;
        let newer = r#"{"a": 3, "b": 1}"#;
        let carried = carry_over(Format::Json, shown, lost, newer).unwrap();
        assert_eq!(
            data_of(&carried, Format::Json).unwrap(),
            serde_json::json!({"a": 3, "b": 2})
        );
    }

    #[test]
    fn a_newer_text_made_from_the_lost_one_comes_back_unchanged() {
        // The usual case: the client read `lost`, not setup's text.
        let shown = "{\n  \"a\": 1,\n  \"mcpServers\": {\"devprojex\": {}}\n}\n";
        let lost = "{\n  \"a\": 2\n}\n";
        let newer = "{\n  \"a\": 2,\n  \"b\": 5\n}\n";
        let carried = carry_over(Format::Json, shown, lost, newer).unwrap();
        assert_eq!(
            data_of(&carried, Format::Json).unwrap(),
            serde_json::json!({"a": 2, "b": 5})
        );
    }

    #[test]
    fn toml_lines_of_the_lost_save_are_merged_in() {
        let shown = "model = \"a\"\n\n[mcp_servers.devprojex]\ncommand = \"dpx\"\n";
        let lost = "model = \"a\"\napproval = \"never\"\n";
        let newer = "model = \"b\"\n\n[mcp_servers.devprojex]\ncommand = \"dpx\"\n";
        let carried = carry_over(Format::Toml, shown, lost, newer).unwrap();
        let data = data_of(&carried, Format::Toml).unwrap();
        assert_eq!(data["model"], "b", "{carried}");
        assert_eq!(data["approval"], "never", "{carried}");
    }

    #[test]
    fn a_table_both_added_keeps_the_keys_of_each() {
        let shown = r#"{"n": 1}"#;
        let lost = r#"{"n": 1, "saves": {"s0": 0}}"#;
        let newer = r#"{"n": 1, "saves": {"s1": 1}}"#;
        let carried = carry_over(Format::Json, shown, lost, newer).unwrap();
        assert_eq!(
            data_of(&carried, Format::Json).unwrap(),
            serde_json::json!({"n": 1, "saves": {"s0": 0, "s1": 1}})
        );
    }

    #[test]
    fn texts_that_do_not_parse_are_not_carried() {
        assert_eq!(carry_over(Format::Json, "{", "{}", "{}"), None);
        assert_eq!(carry_over(Format::Json, "[]", "{}", "{}"), None);
    }
}
