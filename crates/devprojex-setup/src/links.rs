//! One-click install links for VS Code and Cursor, built from the same entry `setup` writes
//! for their user configs with `--command-path name` (a link cannot know where the binary is).
//! `scripts/generate-install-links.sh` puts them into `README.md` and `docs/setup.md`; a test
//! decodes every link there and compares it with that entry.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::{Map, Value};

use crate::client::{ClientId, Scope};
use crate::entry::ServerFlags;
use crate::plan::{Commands, Options};

/// What JavaScript's `encodeURIComponent` leaves alone: letters, digits and `-_.!~*'()`.
const URI_COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'!')
    .remove(b'~')
    .remove(b'*')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')');

fn encode(s: &str) -> String {
    utf8_percent_encode(s, URI_COMPONENT).to_string()
}

/// The entry setup writes into `client`'s user config with the command `devprojex`, as JSON.
pub fn linked_entry(client: ClientId, name: &str) -> Value {
    let opts = Options {
        scope: Scope::User,
        name: name.to_string(),
        commands: Commands::same("devprojex"),
        flags: ServerFlags::default(),
    };
    opts.entry_for(client).to_json()
}

fn compact(v: &Value) -> String {
    serde_json::to_string(v).expect("JSON values serialise")
}

/// `vscode:mcp/install?{...}` (or `vscode-insiders:`): the entry with its `name`.
pub fn vscode_link(insiders: bool, name: &str) -> String {
    let client = if insiders {
        ClientId::VsCodeInsiders
    } else {
        ClientId::VsCode
    };
    let mut with_name = Map::new();
    with_name.insert("name".into(), Value::from(name));
    if let Value::Object(entry) = linked_entry(client, name) {
        with_name.extend(entry);
    }
    let scheme = if insiders {
        "vscode-insiders"
    } else {
        "vscode"
    };
    format!(
        "{scheme}:mcp/install?{}",
        encode(&compact(&Value::Object(with_name)))
    )
}

/// The `https://insiders.vscode.dev/redirect/mcp/install` form that GitHub renders as a link
/// (GitHub drops `vscode:` links from Markdown).
pub fn vscode_badge_target(insiders: bool, name: &str) -> String {
    let client = if insiders {
        ClientId::VsCodeInsiders
    } else {
        ClientId::VsCode
    };
    let config = encode(&compact(&linked_entry(client, name)));
    let quality = if insiders { "&quality=insiders" } else { "" };
    format!(
        "https://insiders.vscode.dev/redirect/mcp/install?name={}&config={config}{quality}",
        encode(name)
    )
}

fn cursor_config(name: &str) -> String {
    use base64::Engine;
    let json = compact(&linked_entry(ClientId::Cursor, name));
    encode(&base64::engine::general_purpose::STANDARD.encode(json))
}

/// `cursor://anysphere.cursor-deeplink/mcp/install?name=...&config=<base64 of the entry>`.
pub fn cursor_link(name: &str) -> String {
    format!(
        "cursor://anysphere.cursor-deeplink/mcp/install?name={}&config={}",
        encode(name),
        cursor_config(name)
    )
}

/// Cursor's `https://cursor.com/en/install-mcp` form of [`cursor_link`], for GitHub.
pub fn cursor_web_link(name: &str) -> String {
    format!(
        "https://cursor.com/en/install-mcp?name={}&config={}",
        encode(name),
        cursor_config(name)
    )
}

/// Marks the generated block in the Markdown files.
pub const BLOCK_START: &str = "<!-- install-links:start (scripts/generate-install-links.sh) -->";
/// See [`BLOCK_START`].
pub const BLOCK_END: &str = "<!-- install-links:end -->";

/// The Markdown block with the badges and the raw links.
pub fn markdown_block(name: &str) -> String {
    let vscode_badge = "https://img.shields.io/badge/VS_Code-Install_devprojex-0098FF?style=flat-square&logo=visualstudiocode&logoColor=white";
    let insiders_badge = "https://img.shields.io/badge/VS_Code_Insiders-Install_devprojex-24bfa5?style=flat-square&logo=visualstudiocode&logoColor=white";
    let cursor_badge = "https://cursor.com/deeplink/mcp-install-dark.svg";
    format!(
        "{BLOCK_START}\n\
[![Install in VS Code]({vscode_badge})]({})\n\
[![Install in VS Code Insiders]({insiders_badge})]({})\n\
[![Install in Cursor]({cursor_badge})]({})\n\
\n\
The same links without the web redirect: VS Code `{}`, VS Code Insiders `{}`, Cursor `{}`.\n\
{BLOCK_END}",
        vscode_badge_target(false, name),
        vscode_badge_target(true, name),
        cursor_web_link(name),
        vscode_link(false, name),
        vscode_link(true, name),
        cursor_link(name),
    )
}

/// `text` with its generated block replaced by `block` (`None`: no block markers in it).
pub fn replace_block(text: &str, block: &str) -> Option<String> {
    let start = text.find(BLOCK_START)?;
    let end = text[start..].find(BLOCK_END)? + start + BLOCK_END.len();
    Some(format!("{}{block}{}", &text[..start], &text[end..]))
}
