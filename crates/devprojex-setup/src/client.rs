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
    /// Google Antigravity: `~/.gemini/config/mcp_config.json` (and the pre-2.0
    /// `~/.gemini/antigravity/mcp_config.json` when that file exists).
    Antigravity,
    /// Cursor: `~/.cursor/mcp.json` or `.cursor/mcp.json`.
    Cursor,
    /// Visual Studio Code: user `Code/User/mcp.json` or `.vscode/mcp.json`.
    VsCode,
    /// Visual Studio Code Insiders: user `Code - Insiders/User/mcp.json`.
    VsCodeInsiders,
    /// Gemini CLI: `~/.gemini/settings.json` (or `$GEMINI_CLI_HOME/.gemini`) or
    /// `.gemini/settings.json`, JSON with comments.
    GeminiCli,
    /// GitHub Copilot CLI: `~/.copilot/mcp-config.json` (or `$COPILOT_HOME`).
    CopilotCli,
    /// Windsurf: `~/.codeium/windsurf/mcp_config.json`.
    Windsurf,
    /// Zed: its `settings.json` (JSON with comments), key `context_servers`.
    Zed,
}

/// Where an entry is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Scope {
    /// The user's own config, used in every project.
    User,
    /// The current repository (a file that can be committed).
    Project,
}

/// How a client is started, which decides the `PATH` its servers inherit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Launch {
    /// From a shell (Claude Code, Codex): servers inherit the shell's `PATH`.
    Terminal,
    /// From the desktop (Dock, Start menu, launcher): servers get the session's `PATH`, which on
    /// macOS is launchd's `/usr/bin:/bin:/usr/sbin:/sbin`.
    Desktop,
}

/// How a server learns which project to serve when the entry names none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootPolicy {
    /// The client starts servers in the project folder: no `--root`.
    StartsInProject,
    /// The client expands `${workspaceFolder}`: `--root ${workspaceFolder}`.
    WorkspaceVariable,
    /// The client sends the open folders as MCP roots: no `--root`.
    ClientRoots,
    /// The client gives no project: the user names the folders with `--root`.
    Named,
}

/// Where in a client's configuration an entry lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// The user's own config, used in every project.
    User,
    /// Claude Code's local scope: `projects["<project>"].mcpServers` in `~/.claude.json`.
    Local {
        /// The `projects` key, as Claude Code wrote it.
        project: String,
    },
    /// A project file (`.mcp.json`, `.cursor/mcp.json`, ...).
    Project,
    /// Antigravity's pre-2.0 `~/.gemini/antigravity/mcp_config.json`.
    Legacy,
}

impl Place {
    /// Short label for output.
    pub fn label(&self) -> String {
        match self {
            Place::User => "user scope".into(),
            Place::Local { project } => format!("local scope of {project}"),
            Place::Project => "project scope".into(),
            Place::Legacy => "pre-2.0 location".into(),
        }
    }

    /// The scope whose entry is written here.
    pub fn scope(&self) -> Scope {
        match self {
            Place::Project => Scope::Project,
            _ => Scope::User,
        }
    }
}

/// One place that may hold an entry: a file and the path of keys to the servers object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// The client.
    pub client: ClientId,
    /// Which of the client's places this is.
    pub place: Place,
    /// The config file.
    pub path: PathBuf,
    /// The keys to the servers object (`["mcpServers"]`, `["projects", "/p", "mcpServers"]`).
    pub keys: Vec<String>,
}

impl Location {
    /// The keys as `&str`s, for the edit functions.
    pub fn key_refs(&self) -> Vec<&str> {
        self.keys.iter().map(String::as_str).collect()
    }

    fn new(client: ClientId, place: Place, path: PathBuf) -> Location {
        Location {
            client,
            place,
            path,
            keys: vec![client.container().to_string()],
        }
    }
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
    pub const ALL: [ClientId; 11] = [
        ClientId::ClaudeCode,
        ClientId::ClaudeDesktop,
        ClientId::Codex,
        ClientId::Antigravity,
        ClientId::Cursor,
        ClientId::VsCode,
        ClientId::VsCodeInsiders,
        ClientId::GeminiCli,
        ClientId::CopilotCli,
        ClientId::Windsurf,
        ClientId::Zed,
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
            ClientId::GeminiCli => "gemini-cli",
            ClientId::CopilotCli => "copilot-cli",
            ClientId::Windsurf => "windsurf",
            ClientId::Zed => "zed",
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
            ClientId::GeminiCli => "Gemini CLI",
            ClientId::CopilotCli => "Copilot CLI",
            ClientId::Windsurf => "Windsurf",
            ClientId::Zed => "Zed",
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
            // Gemini CLI strips comments before parsing; Zed reads JSON with comments and
            // trailing commas.
            ClientId::Cursor
            | ClientId::VsCode
            | ClientId::VsCodeInsiders
            | ClientId::GeminiCli
            | ClientId::Zed => Format::Jsonc,
            _ => Format::Json,
        }
    }

    /// The key (JSON) or table (TOML) that holds the servers.
    pub fn container(self) -> &'static str {
        match self {
            ClientId::Codex => "mcp_servers",
            ClientId::VsCode | ClientId::VsCodeInsiders => "servers",
            ClientId::Zed => "context_servers",
            _ => "mcpServers",
        }
    }

    /// Whether entries carry `"type": "stdio"` (VS Code requires it; `claude mcp add` writes it).
    pub fn writes_type(self) -> bool {
        matches!(
            self,
            ClientId::ClaudeCode | ClientId::VsCode | ClientId::VsCodeInsiders
        )
    }

    /// Keys the client's entry carries besides `type`/`command`/`args`: Claude Code's
    /// `"alwaysLoad": true` (its tools are then loaded at the start of every session instead of
    /// waiting behind Claude Code's tool search), and what `copilot mcp add` writes.
    pub fn extra_fields(self) -> Vec<(&'static str, serde_json::Value)> {
        match self {
            ClientId::ClaudeCode => vec![("alwaysLoad", serde_json::json!(true))],
            ClientId::CopilotCli => vec![
                ("type", serde_json::json!("local")),
                ("tools", serde_json::json!(["*"])),
            ],
            _ => Vec::new(),
        }
    }

    /// How the client is usually started, which decides the `PATH` its servers inherit.
    pub fn launch(self) -> Launch {
        match self {
            ClientId::ClaudeCode | ClientId::Codex | ClientId::GeminiCli | ClientId::CopilotCli => {
                Launch::Terminal
            }
            _ => Launch::Desktop,
        }
    }

    /// How a server started by this client learns which project to serve, for entries written
    /// in `scope`.
    pub fn root_policy(self, scope: Scope) -> RootPolicy {
        match (self, scope) {
            // The terminal clients start servers in the folder they run in (Claude Code also sets
            // CLAUDE_PROJECT_DIR); Zed starts them in the project's first folder.
            (
                ClientId::ClaudeCode
                | ClientId::Codex
                | ClientId::GeminiCli
                | ClientId::CopilotCli
                | ClientId::Zed,
                _,
            ) => RootPolicy::StartsInProject,
            // Cursor expands `${workspaceFolder}` in its user and project files alike.
            (ClientId::Cursor, _) | (ClientId::VsCode, Scope::Project) => {
                RootPolicy::WorkspaceVariable
            }
            // VS Code's user-level servers start in the home folder and get no workspace
            // variable, but VS Code sends the workspace folders as MCP roots.
            (ClientId::VsCode | ClientId::VsCodeInsiders, _) => RootPolicy::ClientRoots,
            // Claude Desktop starts servers in `/` (macOS); Antigravity and Windsurf expand no
            // variables and give no project.
            (ClientId::ClaudeDesktop | ClientId::Antigravity | ClientId::Windsurf, _) => {
                RootPolicy::Named
            }
        }
    }

    /// Whether the client has a project-scope file that setup writes.
    pub fn supports_project(self) -> bool {
        matches!(
            self,
            ClientId::ClaudeCode
                | ClientId::Codex
                | ClientId::Cursor
                | ClientId::VsCode
                | ClientId::GeminiCli
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
            ClientId::GeminiCli => &["gemini"],
            ClientId::CopilotCli => &["copilot"],
            ClientId::Windsurf => &["windsurf"],
            ClientId::Zed => &["zed", "zeditor"],
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
            (ClientId::GeminiCli, _) => {
                "run `gemini mcp list` in a trusted project folder (or `/mcp` inside Gemini CLI)"
            }
            (ClientId::CopilotCli, _) => "run `copilot mcp list` (or `/mcp` inside Copilot CLI)",
            (ClientId::Windsurf, _) => {
                "in Windsurf open the Cascade panel's MCP servers (the plug icon) and refresh"
            }
            (ClientId::Zed, _) => {
                "open a project in Zed, then the Agent panel's settings: the server is listed with a green dot when it runs"
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

/// The MSIX-packaged Claude Desktop folders (`%LOCALAPPDATA%\Packages\Claude_<id>\LocalCache\Roaming\Claude`),
/// sorted by name.
fn claude_msix_dirs(env: &SetupEnv) -> Vec<PathBuf> {
    let Some(packages) = localappdata(env).ok().map(|d| d.join("Packages")) else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(&packages) else {
        return Vec::new();
    };
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with("Claude_"))
        .map(|e| e.path().join("LocalCache").join("Roaming").join("Claude"))
        .collect();
    dirs.sort();
    dirs
}

/// The Claude Desktop config on Windows. An MSIX install reads its package's private copy
/// (`LocalCache\Roaming`) when one exists and otherwise the real `%APPDATA%` file, so: a package
/// copy that exists, else `%APPDATA%`'s file when it exists, else (a fresh install) the package
/// folder the app will write to, else `%APPDATA%`.
fn claude_desktop_windows(env: &SetupEnv) -> Result<PathBuf> {
    let file = "claude_desktop_config.json";
    let classic = appdata(env)?.join("Claude").join(file);
    let packages = claude_msix_dirs(env);
    if let Some(d) = packages.iter().find(|d| d.join(file).exists()) {
        return Ok(d.join(file));
    }
    if classic.exists() {
        return Ok(classic);
    }
    let package = packages
        .iter()
        .find(|d| d.is_dir())
        .or_else(|| packages.first());
    Ok(package.map(|d| d.join(file)).unwrap_or(classic))
}

/// `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini` (Gemini CLI and Antigravity share it).
fn gemini_dir(env: &SetupEnv) -> Result<PathBuf> {
    Ok(match &env.gemini_cli_home {
        Some(h) => h.join(".gemini"),
        None => home(env)?.join(".gemini"),
    })
}

/// Zed's config folder: `$XDG_CONFIG_HOME/zed` on Linux, `~/.config/zed` on macOS,
/// `%APPDATA%\Zed` on Windows.
fn zed_dir(env: &SetupEnv) -> Result<PathBuf> {
    Ok(match env.os {
        Os::Linux => app_config_base(env)?.join("zed"),
        Os::Macos => home(env)?.join(".config").join("zed"),
        Os::Windows => appdata(env)?.join("Zed"),
    })
}

/// Folder (user scope) whose existence means the client is installed (`None`: only its config
/// file or executable tell, as `~/.gemini` is Antigravity's folder too).
fn user_dir(client: ClientId, env: &SetupEnv) -> Result<Option<PathBuf>> {
    Ok(Some(match client {
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
        ClientId::Antigravity => home(env)?.join(".gemini").join("config"),
        ClientId::Cursor => home(env)?.join(".cursor"),
        ClientId::VsCode => app_config_base(env)?.join("Code"),
        ClientId::VsCodeInsiders => app_config_base(env)?.join("Code - Insiders"),
        ClientId::GeminiCli => return Ok(None),
        ClientId::CopilotCli => match &env.copilot_home {
            Some(d) => d.clone(),
            None => home(env)?.join(".copilot"),
        },
        ClientId::Windsurf => home(env)?.join(".codeium").join("windsurf"),
        ClientId::Zed => zed_dir(env)?,
    }))
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
                Os::Windows => claude_desktop_windows(env)?,
                _ => app_config_base(env)?.join("Claude").join(file),
            }
        }
        ClientId::Codex => match &env.codex_home {
            Some(d) => d.join("config.toml"),
            None => home(env)?.join(".codex").join("config.toml"),
        },
        // Antigravity 2.0 (May 2026) and its `agy` CLI read `~/.gemini/config`; older IDE builds
        // read `~/.gemini/antigravity`, handled as a second location (`antigravity_legacy_path`).
        ClientId::Antigravity => home(env)?
            .join(".gemini")
            .join("config")
            .join("mcp_config.json"),
        ClientId::Cursor => home(env)?.join(".cursor").join("mcp.json"),
        ClientId::VsCode => app_config_base(env)?
            .join("Code")
            .join("User")
            .join("mcp.json"),
        ClientId::VsCodeInsiders => app_config_base(env)?
            .join("Code - Insiders")
            .join("User")
            .join("mcp.json"),
        ClientId::GeminiCli => gemini_dir(env)?.join("settings.json"),
        ClientId::CopilotCli => match &env.copilot_home {
            Some(d) => d.join("mcp-config.json"),
            None => home(env)?.join(".copilot").join("mcp-config.json"),
        },
        ClientId::Windsurf => home(env)?
            .join(".codeium")
            .join("windsurf")
            .join("mcp_config.json"),
        ClientId::Zed => zed_dir(env)?.join("settings.json"),
    })
}

/// Antigravity's pre-2.0 global MCP file, `~/.gemini/antigravity/mcp_config.json`.
pub fn antigravity_legacy_path(env: &SetupEnv) -> Result<PathBuf> {
    Ok(home(env)?
        .join(".gemini")
        .join("antigravity")
        .join("mcp_config.json"))
}

/// The project-scope config file of `client` inside `project`, if the client has one.
pub fn project_config_path(client: ClientId, project: &Path) -> Option<PathBuf> {
    Some(match client {
        ClientId::ClaudeCode => project.join(".mcp.json"),
        ClientId::Codex => project.join(".codex").join("config.toml"),
        ClientId::Cursor => project.join(".cursor").join("mcp.json"),
        ClientId::VsCode => project.join(".vscode").join("mcp.json"),
        ClientId::GeminiCli => project.join(".gemini").join("settings.json"),
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

/// Whether `client` looks installed: its config folder or file exists, or its executable is on
/// `PATH`. Folders and files that setup itself created (its record, `created`) do not count, so
/// naming a client once does not make it "detected" from then on.
pub fn detect(client: ClientId, env: &SetupEnv) -> bool {
    detect_with(client, env, &[])
}

/// [`detect`], ignoring the paths in `created`.
pub fn detect_with(client: ClientId, env: &SetupEnv, created: &[PathBuf]) -> bool {
    // Setup's own file, or a folder holding nothing but what setup created.
    let ours = |p: &Path| {
        created.iter().any(|c| c == p)
            && (!p.is_dir()
                || std::fs::read_dir(p).is_ok_and(|entries| {
                    entries
                        .filter_map(|e| e.ok())
                        .all(|e| created.iter().any(|c| *c == e.path()))
                }))
    };
    let dir = user_dir(client, env)
        .ok()
        .flatten()
        .is_some_and(|d| d.is_dir() && !ours(&d));
    let file = user_config_path(client, env)
        .map(|f| f.exists() && !ours(&f))
        .unwrap_or(false);
    let legacy = client == ClientId::Antigravity
        && antigravity_legacy_path(env)
            .is_ok_and(|f| f.parent().is_some_and(|d| d.is_dir()) && !ours(&f));
    dir || file || legacy || client.executables().iter().any(|e| env.which(e).is_some())
}

/// Claude Code's key in `~/.claude.json` `projects` for the current folder: the repository root
/// (else the folder), with symlinks resolved, and forward slashes on Windows.
pub fn claude_project_key(env: &SetupEnv) -> String {
    let cwd = std::fs::canonicalize(&env.cwd).unwrap_or_else(|_| env.cwd.clone());
    let root = cwd
        .ancestors()
        .find(|d| d.join(".git").exists())
        .map(Path::to_path_buf)
        .unwrap_or(cwd);
    claude_key_of(env.os, &root)
}

/// A folder as Claude Code writes it as a `projects` key.
pub fn claude_key_of(os: Os, dir: &Path) -> String {
    let s = dir.to_string_lossy();
    match os {
        Os::Windows => s.strip_prefix("\\\\?\\").unwrap_or(&s).replace('\\', "/"),
        _ => s.into_owned(),
    }
}

/// Whether two `projects` keys name the same folder (Windows: any slash, any case).
pub fn same_claude_key(os: Os, a: &str, b: &str) -> bool {
    match os {
        Os::Windows => {
            a.replace('\\', "/").trim_end_matches('/').to_lowercase()
                == b.replace('\\', "/").trim_end_matches('/').to_lowercase()
        }
        _ => a.trim_end_matches('/') == b.trim_end_matches('/'),
    }
}

/// The user-scope location of `client` (Antigravity: the current file).
pub fn user_location(client: ClientId, env: &SetupEnv) -> Result<Location> {
    Ok(Location::new(
        client,
        Place::User,
        user_config_path(client, env)?,
    ))
}

/// The project-scope location of `client` in the current project, if it has one.
pub fn project_location(client: ClientId, env: &SetupEnv) -> Option<Location> {
    project_config_path(client, &env.project_root())
        .map(|p| Location::new(client, Place::Project, p))
}

/// Antigravity's pre-2.0 location.
pub fn legacy_location(env: &SetupEnv) -> Result<Location> {
    Ok(Location::new(
        ClientId::Antigravity,
        Place::Legacy,
        antigravity_legacy_path(env)?,
    ))
}

/// Claude Code's local-scope location for the `projects` key `project`.
pub fn local_location(env: &SetupEnv, project: &str) -> Result<Location> {
    Ok(Location {
        client: ClientId::ClaudeCode,
        place: Place::Local {
            project: project.to_string(),
        },
        path: user_config_path(ClientId::ClaudeCode, env)?,
        keys: vec!["projects".into(), project.into(), "mcpServers".into()],
    })
}
