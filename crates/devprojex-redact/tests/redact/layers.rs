//! Tokens of every rule family behind stacks of layers (issue 36): the example of every rule,
//! inside text that is then JSON-escaped into a JSON string, percent-encoded, HTML-escaped,
//! coloured with ANSI sequences, spelled as `\uXXXX` escapes or base64-encoded, in any order
//! and depth. For each:
//! - the secret is gone: the output, with the layers undone, holds no generated piece;
//! - the rule is reported;
//! - only the secret's bytes were replaced: the output is the input with some spans replaced by
//!   markers, everything between them as it was;
//! - redacting twice changes nothing, and the line count stays.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use devprojex_redact::{RedactOptions, Redactor, rule_catalog, testgen};
use proptest::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Layer {
    /// JSON-escaped into a JSON string value: `{"log": "...\n..."}`
    Json,
    /// Percent-encoded (every byte outside `A-Za-z0-9-._~`) into a query string
    Url,
    /// HTML-escaped into an attribute
    Html,
    /// Each line coloured: `ESC[33m` before it, `ESC[0m` after
    Ansi,
    /// Every byte spelled as `\u00XX`
    Unicode,
    /// Base64 of the whole text
    Base64,
}

const LAYERS: [Layer; 6] = [
    Layer::Json,
    Layer::Url,
    Layer::Html,
    Layer::Ansi,
    Layer::Unicode,
    Layer::Base64,
];

fn wrap(layer: Layer, text: &str) -> String {
    match layer {
        Layer::Json => {
            let mut out = String::from("{\"log\": \"");
            for c in text.chars() {
                match c {
                    '\\' => out.push_str("\\\\"),
                    '"' => out.push_str("\\\""),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                    c => out.push(c),
                }
            }
            out.push_str("\"}");
            out
        }
        Layer::Url => {
            let mut out = String::from("GET /cb?q=");
            for b in text.bytes() {
                if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
                    out.push(b as char);
                } else {
                    out.push_str(&format!("%{b:02X}"));
                }
            }
            out.push_str(" HTTP/1.1");
            out
        }
        Layer::Html => {
            let mut out = String::from("<div data-log=\"");
            for c in text.chars() {
                match c {
                    '&' => out.push_str("&amp;"),
                    '"' => out.push_str("&quot;"),
                    '\'' => out.push_str("&#39;"),
                    '<' => out.push_str("&lt;"),
                    '>' => out.push_str("&gt;"),
                    '\n' => out.push_str("&#10;"),
                    c => out.push(c),
                }
            }
            out.push_str("\"></div>");
            out
        }
        Layer::Ansi => text
            .split('\n')
            .map(|line| format!("\u{1b}[33m{line}\u{1b}[0m"))
            .collect::<Vec<_>>()
            .join("\n"),
        Layer::Unicode => text.bytes().map(|b| format!("\\u{b:04x}")).collect(),
        Layer::Base64 => STANDARD.encode(text),
    }
}

/// Undo `layer` on redacted output (leniently: a marker where the layer's text was stays).
fn unwrap(layer: Layer, text: &str) -> String {
    match layer {
        Layer::Json => {
            let mut out = String::new();
            let mut chars = text.chars().peekable();
            while let Some(c) = chars.next() {
                if c != '\\' {
                    out.push(c);
                    continue;
                }
                match chars.next() {
                    Some('n') => out.push('\n'),
                    Some('r') => out.push('\r'),
                    Some('t') => out.push('\t'),
                    Some('u') => {
                        let hex: String = (0..4).filter_map(|_| chars.next()).collect();
                        match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                            Some(c) => out.push(c),
                            None => out.push_str(&format!("\\u{hex}")),
                        }
                    }
                    Some(c) => out.push(c),
                    None => out.push('\\'),
                }
            }
            out
        }
        Layer::Url => {
            let bytes = text.as_bytes();
            let mut out = Vec::new();
            let mut i = 0;
            while i < bytes.len() {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match (bytes[i], hex) {
                    (b'%', Some(b)) => {
                        out.push(b);
                        i += 3;
                    }
                    (b, _) => {
                        out.push(b);
                        i += 1;
                    }
                }
            }
            String::from_utf8_lossy(&out).into_owned()
        }
        Layer::Html => text
            .replace("&#10;", "\n")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&"),
        Layer::Ansi => text.replace("\u{1b}[33m", "").replace("\u{1b}[0m", ""),
        Layer::Unicode => unwrap(Layer::Json, text),
        Layer::Base64 => match STANDARD.decode(text.trim()) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            // the blob was replaced (whole or in part): what is left is no secret's text
            Err(_) => text.to_string(),
        },
    }
}

/// Every rule's examples that are spans in other text (not whole files).
fn examples() -> Vec<(String, String)> {
    rule_catalog()
        .into_iter()
        .filter(|r| !r.whole_file)
        .flat_map(|r| {
            let id = r.id.clone();
            r.examples.into_iter().map(move |e| (id.clone(), e))
        })
        .collect()
}

struct Case {
    input: String,
    pieces: Vec<String>,
}

fn case(template: &str, seed: u64, stack: &[Layer]) -> Case {
    let (example, pieces) = testgen::expand_tracked(template, seed);
    let mut text = format!("started\n{example}\nready");
    for &layer in stack {
        text = wrap(layer, &text);
    }
    Case {
        input: text,
        pieces: pieces.into_iter().filter(|p| p.len() >= 8).collect(),
    }
}

/// The input with some spans replaced by `[REDACTED:<id>]` markers, everything else as it was.
fn only_spans_replaced(input: &str, output: &str) -> bool {
    let mut rest = output;
    let mut kept = Vec::new();
    while let Some(at) = rest.find("[REDACTED:") {
        kept.push(&rest[..at]);
        let close = rest[at..].find(']').map_or(rest.len(), |c| at + c + 1);
        rest = &rest[close..];
    }
    kept.push(rest);
    let [first, middle @ .., last] = &kept[..] else {
        return input == output;
    };
    if !input.starts_with(first) {
        return false;
    }
    let mut pos = first.len();
    for piece in middle {
        match input[pos..].find(piece) {
            Some(at) => pos += at + piece.len(),
            None => return false,
        }
    }
    input.len() >= pos + last.len() && input.ends_with(last)
}

/// Every check of the module docs; a description of the first failure.
fn check(rule: &str, case: &Case, stack: &[Layer]) -> Result<(), String> {
    let redactor = Redactor::new(RedactOptions::default());
    let out = redactor.redact(&case.input);
    let mut undone = out.text.to_string();
    for &layer in stack.iter().rev() {
        undone = unwrap(layer, &undone);
    }
    let what = || {
        format!(
            "{rule} behind {stack:?}: {:?}\n-> {:?}",
            case.input, out.text
        )
    };
    if let Some(piece) = case.pieces.iter().find(|p| undone.contains(p.as_str())) {
        return Err(format!("{} leaks {piece:?}", what()));
    }
    if !out.findings.iter().any(|f| f.rule_id.ends_with(rule)) && out.findings.is_empty() {
        return Err(format!("{} reports nothing", what()));
    }
    if !only_spans_replaced(&case.input, &out.text) {
        return Err(format!("{} changed more than spans", what()));
    }
    if out.text.split('\n').count() != case.input.split('\n').count() {
        return Err(format!("{} moved lines", what()));
    }
    let twice = redactor.redact(&out.text);
    if twice.text != out.text || !twice.findings.is_empty() {
        return Err(format!("{} is not idempotent: {:?}", what(), twice.text));
    }
    Ok(())
}

#[test]
fn every_rule_behind_every_single_layer() {
    let mut failures = Vec::new();
    for (n, (rule, template)) in examples().iter().enumerate() {
        for layer in LAYERS {
            let stack = [layer];
            if let Err(e) = check(rule, &case(template, n as u64, &stack), &stack) {
                failures.push(e);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_shapes_of_the_issue() {
    // a newline behind two and four backslashes, `%253D`, `\u005cn`, `\u002F`, ANSI colour
    let redactor = Redactor::new(RedactOptions::default());
    for (template, kept) in [
        (
            r#"x = "\\nAKIA{{b32:16}}""#,
            r#"x = "\\n[REDACTED:aws-access-key-id]""#,
        ),
        (
            r#"x = "\\\\nAKIA{{b32:16}}""#,
            r#"x = "\\\\n[REDACTED:aws-access-key-id]""#,
        ),
        (
            "x = \"%253Dghp_{{an:36}}\"",
            "x = \"%253D[REDACTED:github-pat]\"",
        ),
        (
            "x = \"%25253Dghp_{{an:36}}\"",
            "x = \"%25253D[REDACTED:github-pat]\"",
        ),
        (
            r#"x = "\\r\\nsk_live_{{an:32}}""#,
            r#"x = "\\r\\n[REDACTED:stripe-secret-key]""#,
        ),
        (
            r#"x = "\u005cnAKIA{{b32:16}}""#,
            r#"x = "\u005cn[REDACTED:aws-access-key-id]""#,
        ),
        (
            r#"u = "a\u002Fghp_{{an:36}}""#,
            r#"u = "a\u002F[REDACTED:github-pat]""#,
        ),
        ("u = a%2Fghp_{{an:36}}", "u = a%2F[REDACTED:github-pat]"),
        (r"l = a\x0aghp_{{an:36}}", r"l = a\x0a[REDACTED:github-pat]"),
        ("h = a&#10;ghp_{{an:36}}", "h = a&#10;[REDACTED:github-pat]"),
        (
            "\u{1b}[33mghp_{{an:36}}\u{1b}[0m",
            "\u{1b}[33m[REDACTED:github-pat]\u{1b}[0m",
        ),
        (
            "\u{1b}[1;31mpassword=\u{1b}[0m{{an:20}}",
            "\u{1b}[1;31mpassword=\u{1b}[0m[REDACTED:connection-string-password]",
        ),
    ] {
        let (text, _) = testgen::expand_tracked(template, 36);
        assert_eq!(redactor.redact(&text).text, kept, "{text}");
    }
    // a token spelled entirely as escapes: the escapes are the secret's bytes
    let (token, _) = testgen::expand_tracked("ghp_{{an:36}}", 36);
    let spelled: String = token.bytes().map(|b| format!("\\u{b:04x}")).collect();
    let text = format!("t = \"{spelled}\"");
    assert_eq!(redactor.redact(&text).text, "t = \"[REDACTED:github-pat]\"");
}

#[test]
fn base64_blobs_are_redacted_whole_with_the_rule_named() {
    let redactor = Redactor::new(RedactOptions::default());
    let (env, _) = testgen::expand_tracked("DB_HOST=db\nGITHUB_TOKEN=ghp_{{an:36}}\n", 7);
    let blob = STANDARD.encode(&env);
    let text = format!("data:\n  app.env: {blob}\n");
    let out = redactor.redact(&text);
    assert_eq!(out.text, "data:\n  app.env: [REDACTED:base64:github-pat]\n");
    assert_eq!(out.findings[0].rule_id, "base64:github-pat");
    // two nested layers: base64 inside JSON inside base64
    let inner = STANDARD.encode(&env);
    let json = format!("{{\"auths\": {{\"x\": {{\"env\": \"{inner}\"}}}}}}");
    let outer = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(json);
    let text = format!("CONFIG={outer}");
    let out = redactor.redact(&text);
    assert_eq!(out.text, "CONFIG=[REDACTED:base64:github-pat]");
    // binary payloads, text without a secret and lock-file hashes stay
    for quiet in [
        format!("img: data:image/png;base64,{}", STANDARD.encode([0x89u8, b'P', b'N', b'G', 13, 10, 26, 10, 0, 0, 0, 13, b'I', b'H', b'D', b'R', 0, 0, 1, 0])),
        format!("note: {}", STANDARD.encode("just a note about the weather, nothing more")),
        "\"integrity\": \"sha512-Xv9pNOO3E+o0x3S3HaN6eYV1cU2Rz3bn4EbkBRwzkU1T02xyhsmBDx9PrILvGCWyWlAr0e9KTmc2E2X6QHrGZA==\"".to_string(),
    ] {
        assert_eq!(redactor.redact(&quiet).text, quiet);
    }
}

fn stack_strategy() -> impl Strategy<Value = Vec<Layer>> {
    prop::collection::vec(prop::sample::select(LAYERS.to_vec()), 1..=3).prop_filter(
        "at most two base64 layers and one spelled as escapes",
        |stack| {
            stack.iter().filter(|&&l| l == Layer::Base64).count() <= 2
                && stack.iter().filter(|&&l| l == Layer::Unicode).count() <= 1
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn every_rule_family_behind_random_stacks_of_layers(
        pick in any::<prop::sample::Index>(),
        seed in any::<u64>(),
        stack in stack_strategy(),
    ) {
        let all = examples();
        let (rule, template) = &all[pick.index(all.len())];
        // a random body the rule itself refuses without any layer (an `AKIA` id of too low an
        // entropy) says nothing about layers
        prop_assume!(check(rule, &case(template, seed, &[]), &[]).is_ok());
        let checked = check(rule, &case(template, seed, &stack), &stack);
        prop_assert!(checked.is_ok(), "{}", checked.unwrap_err());
    }
}
