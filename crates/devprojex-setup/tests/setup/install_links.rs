//! The one-click install links in README.md and docs/setup.md: each is decoded here and must
//! give exactly the entry `setup` writes into that client's user config (command `devprojex`),
//! and the blocks must be what `scripts/generate-install-links.sh` writes (not stale).

use std::path::Path;

use base64::Engine;
use devprojex_setup::ClientId;
use devprojex_setup::links::{BLOCK_END, BLOCK_START, linked_entry, markdown_block};
use serde_json::{Value, json};

fn doc(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"))
}

fn block(text: &str, file: &str) -> String {
    let start = text
        .find(BLOCK_START)
        .unwrap_or_else(|| panic!("{file}: no block"));
    let end = text[start..].find(BLOCK_END).unwrap() + start + BLOCK_END.len();
    text[start..end].to_string()
}

/// Every link in `text` that starts with `prefix`, up to `)`, a backtick or white space.
fn links<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
    text.match_indices(prefix)
        .map(|(i, _)| {
            let rest = &text[i..];
            let end = rest
                .find(|c: char| c == ')' || c == '`' || c.is_whitespace())
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect()
}

fn decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s)
        .decode_utf8()
        .unwrap()
        .into_owned()
}

fn query(link: &str, key: &str) -> Option<String> {
    let q = link.split_once('?')?.1;
    q.split('&')
        .find_map(|kv| kv.strip_prefix(&format!("{key}=")))
        .map(decode)
}

fn vscode_entry() -> Value {
    json!({"type": "stdio", "command": "devprojex", "args": ["mcp"]})
}

#[test]
fn every_link_decodes_to_the_entry_setup_writes() {
    assert_eq!(linked_entry(ClientId::VsCode, "devprojex"), vscode_entry());
    assert_eq!(
        linked_entry(ClientId::VsCodeInsiders, "devprojex"),
        vscode_entry()
    );
    let cursor = json!({"command": "devprojex", "args": ["mcp", "--root", "${workspaceFolder}"]});
    assert_eq!(linked_entry(ClientId::Cursor, "devprojex"), cursor);

    for file in ["README.md", "docs/setup.md"] {
        let text = doc(file);
        let b = block(&text, file);
        let mut seen = 0;
        for scheme in ["vscode:mcp/install?", "vscode-insiders:mcp/install?"] {
            for link in links(&b, scheme) {
                let json: Value =
                    serde_json::from_str(&decode(link.split_once('?').unwrap().1)).unwrap();
                let mut want = vscode_entry();
                want["name"] = json!("devprojex");
                assert_eq!(json, want, "{file}: {link}");
                seen += 1;
            }
        }
        for link in links(&b, "https://insiders.vscode.dev/redirect/mcp/install?") {
            assert_eq!(query(link, "name").as_deref(), Some("devprojex"), "{link}");
            let config: Value = serde_json::from_str(&query(link, "config").unwrap()).unwrap();
            assert_eq!(config, vscode_entry(), "{file}: {link}");
            seen += 1;
        }
        for prefix in [
            "cursor://anysphere.cursor-deeplink/mcp/install?",
            "https://cursor.com/en/install-mcp?",
        ] {
            for link in links(&b, prefix) {
                assert_eq!(query(link, "name").as_deref(), Some("devprojex"), "{link}");
                let raw = base64::engine::general_purpose::STANDARD
                    .decode(query(link, "config").unwrap())
                    .unwrap();
                let config: Value = serde_json::from_slice(&raw).unwrap();
                assert_eq!(config, cursor, "{file}: {link}");
                seen += 1;
            }
        }
        assert_eq!(seen, 6, "{file}: two links per client kind and form");
        assert_eq!(
            b,
            markdown_block("devprojex"),
            "{file}: stale install links: run scripts/generate-install-links.sh"
        );
    }
}
