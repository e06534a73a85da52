//! The command-line front: clap arguments, the confirmation prompt, and what is printed.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use crate::client::{ClientId, Scope, config_path, detect, project_config_path, user_config_path};
use crate::entry::{
    CommandPath, GitMode, ServerFlags, command_resolves, looks_like_ours, resolve_command,
    runs_current_exe,
};
use crate::env::SetupEnv;
use crate::error::{Result, SetupError};
use crate::plan::{Action, Options, PlanItem, apply_item, plan_client, status_of};

const SETUP_EXAMPLES: &str = "\
Examples:
  devprojex setup                          detect clients, show the plan, ask before writing
  devprojex setup --dry-run                show the change to each file as a unified diff
  devprojex setup --client codex --client cursor --yes
  devprojex setup --client all --hide-private-data --git-mode tracked
  devprojex setup --scope project --client vscode     write .vscode/mcp.json in this repository
  devprojex setup --root ~/src/app --client claude-desktop
  devprojex setup --remove --yes           remove the entry from every detected client
  devprojex setup status                   show every client, its config file and the entry's state";

const DOCTOR_EXAMPLES: &str = "\
Examples:
  devprojex doctor
  devprojex doctor --root ~/src/app --root ~/src/lib";

/// A `--client` value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ClientArg {
    /// Every supported client.
    All,
    /// Claude Code.
    ClaudeCode,
    /// Claude Desktop.
    ClaudeDesktop,
    /// OpenAI Codex.
    Codex,
    /// Google Antigravity.
    Antigravity,
    /// Cursor.
    Cursor,
    /// Visual Studio Code.
    Vscode,
    /// Visual Studio Code Insiders.
    VscodeInsiders,
}

impl ClientArg {
    fn clients(self) -> Vec<ClientId> {
        match self {
            ClientArg::All => ClientId::ALL.to_vec(),
            ClientArg::ClaudeCode => vec![ClientId::ClaudeCode],
            ClientArg::ClaudeDesktop => vec![ClientId::ClaudeDesktop],
            ClientArg::Codex => vec![ClientId::Codex],
            ClientArg::Antigravity => vec![ClientId::Antigravity],
            ClientArg::Cursor => vec![ClientId::Cursor],
            ClientArg::Vscode => vec![ClientId::VsCode],
            ClientArg::VscodeInsiders => vec![ClientId::VsCodeInsiders],
        }
    }
}

/// `devprojex setup`: register (or with `--remove`, unregister) the MCP server in client configs.
#[derive(Debug, Clone, clap::Args)]
#[command(
    about = "Register the devprojex MCP server in Claude Code, Claude Desktop, Codex, Antigravity, Cursor and VS Code",
    long_about = "Register the devprojex MCP server in your MCP clients' config files.\n\n\
Without --client, setup detects the installed clients (config folder or executable present). \
It shows the plan and asks before writing; --yes skips the question (required when standard input \
is not a terminal). Edits keep comments, key order, indentation, line endings and every other entry; \
writes are atomic and the first write of a file keeps a copy as <file>.devprojex.bak.",
    after_help = SETUP_EXAMPLES
)]
pub struct SetupArgs {
    /// `status`: show each client's config file and entry state instead of writing.
    #[command(subcommand)]
    pub command: Option<SetupCommand>,

    /// Client to configure (repeatable; `all` for every client). Default: the detected clients.
    #[arg(long = "client", value_name = "NAME", value_enum, global = true)]
    pub clients: Vec<ClientArg>,

    /// `user`: the user's own config. `project`: files in the current repository
    /// (.mcp.json, .cursor/mcp.json, .vscode/mcp.json, .codex/config.toml).
    #[arg(long, value_enum, default_value_t = Scope::User, global = true)]
    pub scope: Scope,

    /// Pin the server to this project folder (repeatable). Default: none, so the server follows the
    /// client's working directory; for VS Code in project scope `${workspaceFolder}`.
    #[arg(long = "root", value_name = "PATH", global = true)]
    pub roots: Vec<PathBuf>,

    /// Name of the server entry.
    #[arg(long, value_name = "NAME", default_value = "devprojex", global = true)]
    pub name: String,

    /// Bake `--hide-private-data` into the server command line.
    #[arg(long, global = true)]
    pub hide_private_data: bool,

    /// Bake `--allow-remote` into the server command line.
    #[arg(long, global = true)]
    pub allow_remote: bool,

    /// Bake `--git-mode MODE` into the server command line.
    #[arg(long, value_name = "MODE", value_enum, global = true)]
    pub git_mode: Option<GitMode>,

    /// How to write the command: `auto` writes `devprojex` when this binary is the one on PATH,
    /// else its absolute path.
    #[arg(long, value_name = "HOW", value_enum, default_value_t = CommandPath::Auto, global = true)]
    pub command_path: CommandPath,

    /// Show a unified diff of each file instead of writing.
    #[arg(long)]
    pub dry_run: bool,

    /// Remove the entry instead of adding it.
    #[arg(long)]
    pub remove: bool,

    /// Replace (or remove) an entry of the same name that was changed by hand.
    #[arg(long)]
    pub force: bool,

    /// Apply without asking.
    #[arg(short = 'y', long)]
    pub yes: bool,
}

/// Subcommands of `devprojex setup`.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum SetupCommand {
    /// List every client, its config file, and whether the entry is present, current or stale.
    #[command(
        after_help = "Examples:\n  devprojex setup status\n  devprojex setup status --client codex --scope project"
    )]
    Status,
}

/// `devprojex doctor`: check the binary, the project roots, git, and each configured client.
#[derive(Debug, Clone, clap::Args)]
#[command(
    about = "Check the devprojex installation: binary, roots, git, and every client's entry",
    after_help = DOCTOR_EXAMPLES
)]
pub struct DoctorArgs {
    /// Project folder to check (repeatable). Default: the current directory.
    #[arg(long = "root", value_name = "PATH")]
    pub roots: Vec<PathBuf>,

    /// Name of the server entry to look for.
    #[arg(long, value_name = "NAME", default_value = "devprojex")]
    pub name: String,
}

/// Standard streams, injectable for tests.
pub struct Io<'a> {
    /// Standard output.
    pub out: &'a mut dyn Write,
    /// Standard error.
    pub err: &'a mut dyn Write,
    /// Standard input (for the confirmation).
    pub input: &'a mut dyn BufRead,
    /// Whether standard input is a terminal.
    pub interactive: bool,
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Shows `p` with the home folder abbreviated to `~`.
pub(crate) fn show(env: &SetupEnv, p: &Path) -> String {
    if let Some(home) = &env.home
        && let Ok(rest) = p.strip_prefix(home)
    {
        let sep = if env.os == crate::env::Os::Windows {
            "\\"
        } else {
            "/"
        };
        return format!("~{sep}{}", rest.display());
    }
    p.display().to_string()
}

/// Builds the [`Options`] from the arguments.
pub fn options(args: &SetupArgs, env: &SetupEnv) -> Result<Options> {
    if !valid_name(&args.name) {
        return Err(SetupError::Usage(format!(
            "invalid --name {:?}: use 1 to 64 letters, digits, '-' or '_'",
            args.name
        )));
    }
    let roots = args
        .roots
        .iter()
        .map(|r| env.absolute(r).to_string_lossy().into_owned())
        .collect();
    Ok(Options {
        scope: args.scope,
        name: args.name.clone(),
        command: resolve_command(args.command_path, env),
        flags: ServerFlags {
            roots,
            hide_private_data: args.hide_private_data,
            allow_remote: args.allow_remote,
            git_mode: args.git_mode,
        },
    })
}

/// The clients to act on: the named ones, else the detected ones.
fn select_clients(args: &SetupArgs, env: &SetupEnv) -> Result<Vec<ClientId>> {
    let mut named: Vec<ClientId> = args.clients.iter().flat_map(|c| c.clients()).collect();
    named.sort();
    named.dedup();
    let all_requested = args.clients.contains(&ClientArg::All);
    if args.scope == Scope::Project {
        if !all_requested && let Some(c) = named.iter().find(|c| !c.supports_project()) {
            return Err(SetupError::Usage(format!(
                "{} has no project-scope config; project scope supports claude-code, codex, cursor and vscode",
                c.name()
            )));
        }
        named.retain(|c| c.supports_project());
    }
    if !named.is_empty() {
        return Ok(named);
    }
    let detected: Vec<ClientId> = ClientId::ALL
        .into_iter()
        .filter(|c| args.scope == Scope::User || c.supports_project())
        .filter(|c| {
            detect(*c, env)
                || (args.scope == Scope::Project
                    && project_config_path(*c, &env.project_root()).is_some_and(|p| p.exists()))
        })
        .collect();
    if detected.is_empty() {
        Err(SetupError::NoClients)
    } else {
        Ok(detected)
    }
}

fn command_line(item: &PlanItem) -> String {
    let mut s = quote(&item.wanted.command);
    for a in &item.wanted.args {
        s.push(' ');
        s.push_str(&quote(a));
    }
    s
}

fn quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:\\${}".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// A unified diff of `old` to `new` with file headers.
pub fn unified_diff(old: &str, new: &str, old_name: &str, new_name: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(old_name, new_name)
        .to_string()
}

fn entry_diff(item: &PlanItem) -> String {
    let pretty = |v: &serde_json::Value| serde_json::to_string_pretty(v).unwrap_or_default() + "\n";
    let old = item.existing.as_ref().map(pretty).unwrap_or_default();
    let new = pretty(&item.wanted.to_json());
    unified_diff(&old, &new, "entry in the file", "entry setup writes")
}

/// `devprojex setup` with an explicit environment and streams. Returns the exit code.
pub fn run_setup_with(args: &SetupArgs, env: &SetupEnv, io: &mut Io<'_>) -> u8 {
    let result = match args.command {
        Some(SetupCommand::Status) => run_status(args, env, io),
        None => setup(args, env, io),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            let _ = writeln!(io.err, "error[{}]: {e}", e.code());
            e.exit_code()
        }
    }
}

fn setup(args: &SetupArgs, env: &SetupEnv, io: &mut Io<'_>) -> Result<u8> {
    let opts = options(args, env)?;
    let clients = select_clients(args, env)?;
    let items = clients
        .into_iter()
        .map(|c| plan_client(c, env, &opts, args.remove, args.force))
        .collect::<Result<Vec<_>>>()?;
    let out = &mut *io.out;
    let w = |e: std::io::Error| SetupError::io("standard output", "writing", e);

    let verb = if args.remove { "remove" } else { "register" };
    let scope = match opts.scope {
        Scope::User => "user",
        Scope::Project => "project",
    };
    writeln!(out, "Plan ({verb} \"{}\", {scope} scope):", opts.name).map_err(w)?;
    for item in &items {
        writeln!(
            out,
            "  {:<18} {}",
            item.client.display(),
            show(env, &item.path)
        )
        .map_err(w)?;
        writeln!(out, "  {:<18} -> {}", "", item.action.describe()).map_err(w)?;
        if matches!(
            item.action,
            Action::Conflict | Action::Replace | Action::Update
        ) {
            for line in entry_diff(item).lines() {
                writeln!(out, "  {:<18}    {line}", "").map_err(w)?;
            }
        }
    }
    if !args.remove
        && let Some(first) = items.first()
    {
        writeln!(out, "Server command: {}", command_line(first)).map_err(w)?;
    }
    if opts.scope == Scope::User
        && items
            .iter()
            .any(|i| i.client == ClientId::ClaudeCode && i.action.writes())
    {
        writeln!(
            out,
            "note: Claude Code rewrites its .claude.json while it runs: quit running Claude Code sessions first, or one may write back its older copy"
        )
        .map_err(w)?;
    }
    for r in &opts.flags.roots {
        if !Path::new(r).is_dir() {
            writeln!(
                out,
                "warning: --root {r} is not an existing folder; the server cannot start until it is"
            )
            .map_err(w)?;
        }
    }
    let problems = items.iter().filter(|i| i.action.is_problem()).count();
    let changes: Vec<&PlanItem> = items.iter().filter(|i| i.action.writes()).collect();
    report_problems(&items, &opts, io.err)?;
    let out = &mut *io.out;

    if args.dry_run {
        for item in &changes {
            let file = item.file.as_ref().expect("planned writes have a file");
            let name = item.path.display().to_string();
            let old_name = if file.text.is_some() {
                name.clone()
            } else {
                "/dev/null".into()
            };
            let new = item.new_text.as_deref().unwrap_or_default();
            writeln!(out).map_err(w)?;
            write!(
                out,
                "{}",
                unified_diff(file.text_or_empty(), new, &old_name, &name)
            )
            .map_err(w)?;
        }
        writeln!(out, "\nDry run: nothing was written.").map_err(w)?;
        return Ok(if problems > 0 { 1 } else { 0 });
    }
    if changes.is_empty() {
        let msg = if problems > 0 {
            "Nothing was changed."
        } else if args.remove {
            "Nothing to change: no entry to remove."
        } else {
            "Nothing to change: every selected client is already configured."
        };
        writeln!(out, "{msg}").map_err(w)?;
        return Ok(if problems > 0 { 1 } else { 0 });
    }
    if !args.yes {
        if !io.interactive {
            return Err(SetupError::NotATerminal);
        }
        write!(
            out,
            "Apply these changes to {} file(s)? [y/N] ",
            changes.len()
        )
        .map_err(w)?;
        out.flush().map_err(w)?;
        let mut answer = String::new();
        io.input
            .read_line(&mut answer)
            .map_err(|e| SetupError::io("standard input", "reading", e))?;
        if !matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes") {
            return Err(SetupError::Aborted);
        }
    }
    let mut failures = 0;
    for item in &changes {
        match apply_item(item, opts.scope) {
            Ok(report) => {
                let what = match item.action {
                    Action::Create => "created with the entry",
                    Action::Add => "entry added",
                    Action::Update => "entry updated",
                    Action::Replace => "entry replaced",
                    Action::Remove => "entry removed",
                    _ => "written",
                };
                writeln!(
                    out,
                    "{}: {what}: {}",
                    item.client.display(),
                    show(env, &item.path)
                )
                .map_err(w)?;
                if let Some(file) = &item.file
                    && file.real != file.path
                {
                    writeln!(
                        out,
                        "  (symlink: edited its target {})",
                        show(env, &file.real)
                    )
                    .map_err(w)?;
                }
                if let Some(bak) = report.backup {
                    writeln!(out, "  backup of the original: {}", show(env, &bak)).map_err(w)?;
                }
                if !args.remove {
                    writeln!(out, "  verify: {}", item.client.verify_hint(opts.scope))
                        .map_err(w)?;
                }
            }
            Err(e) => {
                failures += 1;
                writeln!(io.err, "error[{}]: {e}", e.code()).map_err(w)?;
            }
        }
    }
    Ok(if failures + problems > 0 { 1 } else { 0 })
}

/// Prints one error line per conflicting or failing client.
fn report_problems(items: &[PlanItem], opts: &Options, err: &mut dyn Write) -> Result<()> {
    for item in items.iter().filter(|i| i.action.is_problem()) {
        let msg = match &item.action {
            Action::Failed(e) => format!("error[{}]: {e}", e.code()),
            _ => {
                let e = SetupError::Conflict {
                    path: item.path.clone(),
                    name: opts.name.clone(),
                };
                format!("error[{}]: {e}", e.code())
            }
        };
        writeln!(err, "{msg}").map_err(|e| SetupError::io("standard error", "writing", e))?;
    }
    Ok(())
}

fn run_status(args: &SetupArgs, env: &SetupEnv, io: &mut Io<'_>) -> Result<u8> {
    let opts = options(args, env)?;
    let w = |e: std::io::Error| SetupError::io("standard output", "writing", e);
    let mut clients: Vec<ClientId> = args.clients.iter().flat_map(|c| c.clients()).collect();
    if clients.is_empty() {
        clients = ClientId::ALL.to_vec();
    }
    clients.sort();
    clients.dedup();
    writeln!(
        io.out,
        "Entry \"{}\", {} scope:",
        opts.name,
        if opts.scope == Scope::User {
            "user"
        } else {
            "project"
        }
    )
    .map_err(w)?;
    for c in clients {
        let installed = if detect(c, env) {
            "detected"
        } else {
            "not detected"
        };
        match config_path(c, opts.scope, env) {
            Ok(Some(path)) => {
                let st = status_of(c, &path, env, &opts);
                writeln!(io.out, "  {:<18} {installed}", c.display()).map_err(w)?;
                writeln!(io.out, "  {:<18} {}", "", show(env, &path)).map_err(w)?;
                writeln!(io.out, "  {:<18} {}", "", st.label()).map_err(w)?;
            }
            Ok(None) => {
                writeln!(
                    io.out,
                    "  {:<18} {installed}; no project-scope config",
                    c.display()
                )
                .map_err(w)?;
            }
            Err(e) => {
                writeln!(io.out, "  {:<18} error[{}]: {e}", c.display(), e.code()).map_err(w)?
            }
        }
    }
    Ok(0)
}

/// `devprojex doctor` with an explicit environment and streams. Returns the exit code.
pub fn run_doctor_with(args: &DoctorArgs, env: &SetupEnv, io: &mut Io<'_>) -> u8 {
    match doctor(args, env, io) {
        Ok(code) => code,
        Err(e) => {
            let _ = writeln!(io.err, "error[{}]: {e}", e.code());
            e.exit_code()
        }
    }
}

fn doctor(args: &DoctorArgs, env: &SetupEnv, io: &mut Io<'_>) -> Result<u8> {
    if !valid_name(&args.name) {
        return Err(SetupError::Usage(format!("invalid --name {:?}", args.name)));
    }
    let w = |e: std::io::Error| SetupError::io("standard output", "writing", e);
    let out = &mut *io.out;
    let mut problems = 0usize;
    let mut line =
        |out: &mut dyn Write, ok: bool, warn: bool, text: String| -> std::io::Result<()> {
            let tag = if ok {
                "ok  "
            } else if warn {
                "warn"
            } else {
                problems += 1;
                "FAIL"
            };
            writeln!(out, "[{tag}] {text}")
        };

    // Binary.
    let version = env!("CARGO_PKG_VERSION");
    match &env.current_exe {
        Some(exe) => line(
            out,
            true,
            false,
            format!("binary: {} (version {version})", exe.display()),
        )
        .map_err(w)?,
        None => line(
            out,
            false,
            true,
            format!("binary: path unknown (version {version})"),
        )
        .map_err(w)?,
    }
    match env.which("devprojex") {
        Some(p) => line(out, true, false, format!("on PATH: {}", p.display())).map_err(w)?,
        None => line(
            out,
            false,
            true,
            "`devprojex` is not on PATH: setup writes the absolute path of this binary instead"
                .into(),
        )
        .map_err(w)?,
    }

    // Roots.
    let roots: Vec<PathBuf> = if args.roots.is_empty() {
        vec![env.cwd.clone()]
    } else {
        args.roots.iter().map(|r| env.absolute(r)).collect()
    };
    for r in roots {
        if r.is_dir() {
            line(out, true, false, format!("root: {}", r.display())).map_err(w)?;
        } else if r.exists() {
            line(
                out,
                false,
                false,
                format!("root: {} is not a folder", r.display()),
            )
            .map_err(w)?;
        } else {
            line(
                out,
                false,
                false,
                format!("root: {} does not exist", r.display()),
            )
            .map_err(w)?;
        }
    }

    // Git.
    match env.which("git") {
        Some(git) => {
            let v = std::process::Command::new(&git)
                .arg("--version")
                .stdin(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .output();
            match v {
                Ok(o) if o.status.success() => {
                    let v = String::from_utf8_lossy(&o.stdout).trim().to_string();
                    line(out, true, false, format!("git: {v} ({})", git.display())).map_err(w)?
                }
                _ => line(
                    out,
                    false,
                    true,
                    format!("git: {} does not run", git.display()),
                )
                .map_err(w)?,
            }
        }
        None => line(
            out,
            false,
            true,
            "git: not found on PATH (git modes and remote clones need it)".into(),
        )
        .map_err(w)?,
    }

    // Clients: every user- and project-scope config that has the entry or fails to parse.
    let mut configured = 0;
    for c in ClientId::ALL {
        let mut paths = Vec::new();
        if let Ok(p) = user_config_path(c, env) {
            paths.push(p);
        }
        if let Some(p) = project_config_path(c, &env.project_root()) {
            paths.push(p);
        }
        for p in paths {
            let Some((ok, warn, text)) = doctor_entry(c, &p, &args.name, env) else {
                continue;
            };
            configured += 1;
            line(
                out,
                ok,
                warn,
                format!("{}: {text} ({})", c.display(), show(env, &p)),
            )
            .map_err(w)?;
        }
    }
    if configured == 0 {
        line(
            out,
            false,
            true,
            format!(
                "no client has an entry \"{}\": run `devprojex setup`",
                args.name
            ),
        )
        .map_err(w)?;
    }
    if problems > 0 {
        writeln!(out, "{problems} problem(s) found.").map_err(w)?;
        Ok(1)
    } else {
        writeln!(out, "No problems found.").map_err(w)?;
        Ok(0)
    }
}

/// Doctor's verdict on one config file: `None` when it has no entry; else (ok, warn-only, text).
fn doctor_entry(
    client: ClientId,
    path: &Path,
    name: &str,
    env: &SetupEnv,
) -> Option<(bool, bool, String)> {
    let file = match crate::fsio::load(path) {
        Ok(f) => f,
        Err(e) => return Some((false, false, format!("error[{}]: {e}", e.code()))),
    };
    let text = file.text.as_deref()?;
    let entry = match crate::edit::read_entry(text, client.format(), client.container(), name, path)
    {
        Ok(v) => v?,
        Err(e) => {
            return Some((
                false,
                false,
                format!("config does not parse: error[{}]: {e}", e.code()),
            ));
        }
    };
    let Some(cmd) = entry.get("command").and_then(serde_json::Value::as_str) else {
        return Some((
            true,
            false,
            "entry present (no command: not a stdio server)".into(),
        ));
    };
    if !command_resolves(cmd, env) {
        return Some((
            false,
            false,
            format!("entry STALE: command not found: {cmd}"),
        ));
    }
    if runs_current_exe(cmd, env) {
        Some((
            true,
            false,
            "entry present, current (runs this binary)".into(),
        ))
    } else if looks_like_ours(&entry) {
        Some((
            false,
            true,
            format!("entry present, runs another devprojex binary: {cmd}"),
        ))
    } else {
        Some((
            true,
            false,
            format!("entry present (not written by setup): {cmd}"),
        ))
    }
}
