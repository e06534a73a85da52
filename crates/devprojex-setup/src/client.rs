//! The supported clients: where each keeps its MCP config, in which format, and how to detect it.

use std::path::{Path, PathBuf};

use crate::env::{Os, SetupEnv};
use crate::error::{Result, SetupError};

/// An MCP client that setup knows how to configure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ClientId {
    /// Claude Code (CLI): `~/.claude.json` or `.mcp.json`.
    ClaudeCode,
    /// Claude Desktop: `claude_desktop_config.json` in the app-data folder.
    ClaudeDesktop,
    /// OpenAI Codex: `$CODEX_HOME/config.toml` or `.codex/config.toml`.
    Codex,
    /// Google Antigravity: `~/.gemini/config/mcp_config.json`.
    Antigravity,
    /// Cursor: `~/.cursor/mcp.json` or `.cursor/mcp.json`.
    Cursor,
    /// Visual Studio Code: user `Code/User/mcp.json` or `.vscode/mcp.json`.
    VsCode,
    /// Visual Studio Code Insiders: user `Code - Insiders/User/mcp.json`.
    VsCodeInsiders,
}

/// Where an entry is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Scope {
    /// The user's own config, used in every project.
    User,
    /// The current repository (a file that can be committed).
    Project,
}

/// The file format of a client config.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Strict JSON (no comments or trailing commas are accepted, since the client rejects them).
    Json,
    /// JSON with comments and trailing commas.
    Jsonc,
    /// TOML.
    Toml,
}

impl Format {
    /// Name used in messages.
    pub fn label(self) -> &'static str {
        match self {
            Format::Json => "JSON",
            Format::Jsonc => "JSONC",
            Format::Toml => "TOML",
        }
    }
}

impl ClientId {
    /// Every client, in display order.
    pub const ALL: [ClientId; 7] = [
        ClientId::ClaudeCode,
        ClientId::ClaudeDesktop,
        ClientId::Codex,
        ClientId::Antigravity,
        ClientId::Cursor,
        ClientId::VsCode,
        ClientId::VsCodeInsiders,
    ];

    /// The name used with `--client`.
    pub fn name(self) -> &'static str {
        match self {
            ClientId::ClaudeCode => "claude-code",
            ClientId::ClaudeDesktop => "claude-desktop",
            ClientId::Codex => "codex",
            ClientId::Antigravity => "antigravity",
            ClientId::Cursor => "cursor",
            ClientId::VsCode => "vscode",
            ClientId::VsCodeInsiders => "vscode-insiders",
        }
    }

    /// Human name.
    pub fn display(self) -> &'static str {
        match self {
            ClientId::ClaudeCode => "Claude Code",
            ClientId::ClaudeDesktop => "Claude Desktop",
            ClientId::Codex => "OpenAI Codex",
            ClientId::Antigravity => "Google Antigravity",
            ClientId::Cursor => "Cursor",
            ClientId::VsCode => "VS Code",
            ClientId::VsCodeInsiders => "VS Code Insiders",
        }
    }

    /// Parses a `--client` name.
    pub fn parse(name: &str) -> Option<ClientId> {
        ClientId::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The config format.
    pub fn format(self) -> Format {
        match self {
            ClientId::Codex => Format::Toml,
            ClientId::Cursor | ClientId::VsCode | ClientId::VsCodeInsiders => Format::Jsonc,
            _ => Format::Json,
        }
    }

    /// The key (JSON) or table (TOML) that holds the servers.
    pub fn container(self) -> &'static str {
        match self {
            ClientId::Codex => "mcp_servers",
            ClientId::VsCode | ClientId::VsCodeInsiders => "servers",
            _ => "mcpServers",
        }
    }

    /// Whether entries carry `"type": "stdio"`.
    pub fn writes_type(self) -> bool {
        matches!(self, ClientId::VsCode | ClientId::VsCodeInsiders)
    }

    /// Whether the client has a project-scope file that setup writes.
    pub fn supports_project(self) -> bool {
        matches!(
            self,
            ClientId::ClaudeCode | ClientId::Codex | ClientId::Cursor | ClientId::VsCode
        )
    }

    /// Executables whose presence on `PATH` means the client is installed.
    fn executables(self) -> &'static [&'static str] {
        match self {
            ClientId::ClaudeCode => &["claude"],
            ClientId::ClaudeDesktop => &[],
            ClientId::Codex => &["codex"],
            ClientId::Antigravity => &["antigravity", "agy"],
            ClientId::Cursor => &["cursor"],
            ClientId::VsCode => &["code"],
            ClientId::VsCodeInsiders => &["code-insiders"],
        }
    }

    /// How to check that the client picked the server up.
    pub fn verify_hint(self, scope: Scope) -> &'static str {
        match (self, scope) {
            (ClientId::ClaudeCode, Scope::User) => {
                "run `claude mcp list` (or `/mcp` inside Claude Code)"
            }
            (ClientId::ClaudeCode, Scope::Project) => {
                "start `claude` in the repository, approve the project server, then run `/mcp`"
            }
            (ClientId::ClaudeDesktop, _) => {
                "quit and restart Claude Desktop, then look for the server under Settings > Developer"
            }
            (ClientId::Codex, Scope::User) => "run `codex mcp list` (or `/mcp` inside Codex)",
            (ClientId::Codex, Scope::Project) => {
                "Codex reads .codex/config.toml only in trusted projects: trust the repository, then run `/mcp`"
            }
            (ClientId::Antigravity, _) => {
                "in Antigravity open the agent panel's MCP Servers > Manage MCP Servers and refresh"
            }
            (ClientId::Cursor, _) => {
                "open Cursor Settings > Tools & MCP and check that the server is enabled"
            }
            (ClientId::VsCode | ClientId::VsCodeInsiders, _) => {
                "run `MCP: List Servers` from the Command Palette and start the server"
            }
        }
    }
}

impl std::fmt::Display for ClientId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

fn need<'a>(p: &'a Option<PathBuf>, what: &'static str, hint: &'static str) -> Result<&'a PathBuf> {
    p.as_ref().ok_or(SetupError::NoLocation { what, hint })
}

fn home(env: &SetupEnv) -> Result<&PathBuf> {
    need(
        &env.home,
        "home folder",
        "set HOME (USERPROFILE on Windows)",
    )
}

/// `%APPDATA%`, defaulting to `<home>\AppData\Roaming`.
fn appdata(env: &SetupEnv) -> Result<PathBuf> {
    match &env.appdata {
        Some(p) => Ok(p.clone()),
        None => Ok(home(env)?.join("AppData").join("Roaming")),
    }
}

/// `%LOCALAPPDATA%`, defaulting to `<home>\AppData\Local`.
fn localappdata(env: &SetupEnv) -> Result<PathBuf> {
    match &env.localappdata {
        Some(p) => Ok(p.clone()),
        None => Ok(home(env)?.join("AppData").join("Local")),
    }
}

/// The per-OS folder that Electron apps (VS Code, Claude Desktop) keep their settings in.
fn app_config_base(env: &SetupEnv) -> Result<PathBuf> {
    match env.os {
        Os::Linux => match &env.xdg_config_home {
            Some(p) => Ok(p.clone()),
            None => Ok(home(env)?.join(".config")),
        },
        Os::Macos => Ok(home(env)?.join("Library").join("Application Support")),
        Os::Windows => appdata(env),
    }
}

/// The MSIX-packaged Claude Desktop folder (`%LOCALAPPDATA%\Packages\Claude_<id>\LocalCache\Roaming\Claude`),
/// when such a package folder exists. With several, the one holding a config wins, then the first by name.
fn claude_msix_dir(env: &SetupEnv) -> Option<PathBuf> {
    let packages = localappdata(env).ok()?.join("Packages");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&packages)
        .ok()?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with("Claude_"))
        .map(|e| e.path().join("LocalCache").join("Roaming").join("Claude"))
        .collect();
    dirs.sort();
    dirs.iter()
        .find(|d| d.join("claude_desktop_config.json").exists())
        .or_else(|| dirs.first())
        .cloned()
}

/// Folder (user scope) whose existence means the client is installed.
fn user_dir(client: ClientId, env: &SetupEnv) -> Result<PathBuf> {
    Ok(match client {
        ClientId::ClaudeCode => match &env.claude_config_dir {
            Some(d) => d.clone(),
            None => home(env)?.join(".claude"),
        },
        ClientId::ClaudeDesktop => user_config_path(client, env)?
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default(),
        ClientId::Codex => match &env.codex_home {
            Some(d) => d.clone(),
            None => home(env)?.join(".codex"),
        },
        ClientId::Antigravity => home(env)?.join(".gemini"),
        ClientId::Cursor => home(env)?.join(".cursor"),
        ClientId::VsCode => app_config_base(env)?.join("Code"),
        ClientId::VsCodeInsiders => app_config_base(env)?.join("Code - Insiders"),
    })
}

/// The user-scope config file of `client` in `env`.
pub fn user_config_path(client: ClientId, env: &SetupEnv) -> Result<PathBuf> {
    Ok(match client {
        ClientId::ClaudeCode => match &env.claude_config_dir {
            Some(d) => d.join(".claude.json"),
            None => home(env)?.join(".claude.json"),
        },
        ClientId::ClaudeDesktop => {
            let file = "claude_desktop_config.json";
            match env.os {
                Os::Windows => match claude_msix_dir(env) {
                    Some(d) => d.join(file),
                    None => appdata(env)?.join("Claude").join(file),
                },
                _ => app_config_base(env)?.join("Claude").join(file),
            }
        }
        ClientId::Codex => match &env.codex_home {
            Some(d) => d.join("config.toml"),
            None => home(env)?.join(".codex").join("config.toml"),
        },
        ClientId::Antigravity => {
            let gemini = home(env)?.join(".gemini");
            let current = gemini.join("config").join("mcp_config.json");
            let legacy = gemini.join("antigravity").join("mcp_config.json");
            if !current.exists() && legacy.exists() {
                legacy
            } else {
                current
            }
        }
        ClientId::Cursor => home(env)?.join(".cursor").join("mcp.json"),
        ClientId::VsCode => app_config_base(env)?
            .join("Code")
            .join("User")
            .join("mcp.json"),
        ClientId::VsCodeInsiders => app_config_base(env)?
            .join("Code - Insiders")
            .join("User")
            .join("mcp.json"),
    })
}

/// The project-scope config file of `client` inside `project`, if the client has one.
pub fn project_config_path(client: ClientId, project: &Path) -> Option<PathBuf> {
    Some(match client {
        ClientId::ClaudeCode => project.join(".mcp.json"),
        ClientId::Codex => project.join(".codex").join("config.toml"),
        ClientId::Cursor => project.join(".cursor").join("mcp.json"),
        ClientId::VsCode => project.join(".vscode").join("mcp.json"),
        _ => return None,
    })
}

/// The config file for `client` in `scope` (`Ok(None)`: the client has no such scope).
pub fn config_path(client: ClientId, scope: Scope, env: &SetupEnv) -> Result<Option<PathBuf>> {
    match scope {
        Scope::User => user_config_path(client, env).map(Some),
        Scope::Project => Ok(project_config_path(client, &env.project_root())),
    }
}

/// Whether `client` looks installed: its config folder or file exists, or its executable is on `PATH`.
pub fn detect(client: ClientId, env: &SetupEnv) -> bool {
    let dir = user_dir(client, env).map(|d| d.is_dir()).unwrap_or(false);
    let file = user_config_path(client, env)
        .map(|f| f.exists())
        .unwrap_or(false);
    dir || file || client.executables().iter().any(|e| env.which(e).is_some())
}
