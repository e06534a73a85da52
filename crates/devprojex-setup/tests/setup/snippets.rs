//! `client-configs/` holds one copy-paste snippet per client. Each must be exactly what setup
//! writes into an empty config with the command `devprojex`: no `--root` where the client gives
//! the server the project (Claude Code, Codex, Cursor's `${workspaceFolder}`, VS Code's
//! project-scope `.vscode/mcp.json`, VS Code Insiders' MCP roots), and the placeholder
//! `/absolute/path/to/project` where the user must name it (Claude Desktop, Antigravity). Run
//! with `UPDATE_SNIPPETS=1` to rewrite them.

use std::path::{Path, PathBuf};

use devprojex_setup::entry::ServerFlags;
use devprojex_setup::plan::{Commands, Options, needs_root};
use devprojex_setup::{ClientId, Format, Scope, edit};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../client-configs")
}

fn snippet(client: ClientId) -> (String, String) {
    let scope = match client {
        ClientId::VsCode => Scope::Project,
        _ => Scope::User,
    };
    let roots = if needs_root(client, scope) {
        vec!["/absolute/path/to/project".to_string()]
    } else {
        vec![]
    };
    let opts = Options {
        scope,
        name: "devprojex".into(),
        commands: Commands::same("devprojex"),
        flags: ServerFlags {
            roots,
            ..ServerFlags::default()
        },
    };
    let ext = if client.format() == Format::Toml {
        "toml"
    } else {
        "json"
    };
    let file = format!("{}.{ext}", client.name());
    let text = edit::upsert(
        "",
        client.format(),
        client.container(),
        &opts.name,
        &opts.entry_for(client),
        Path::new(&file),
    )
    .unwrap();
    (file, text)
}

#[test]
fn client_configs_match_what_setup_writes() {
    let update = std::env::var_os("UPDATE_SNIPPETS").is_some();
    let mut stale = Vec::new();
    for c in ClientId::ALL {
        let (file, text) = snippet(c);
        let path = dir().join(&file);
        if update {
            std::fs::write(&path, &text).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            stale.push(format!("client-configs/{file} should be:\n{text}"));
        }
    }
    assert!(stale.is_empty(), "{}", stale.join("\n"));
}
