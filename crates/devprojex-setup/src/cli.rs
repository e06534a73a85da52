//! The command-line front: clap arguments, the prompts, and what is printed.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::client::{ClientId, Launch, Location, Place, Scope, detect_with, project_config_path};
use crate::entry::{
    CommandPath, GitMode, ServerFlags, command_target_in, entry_args, is_dev_build, likely_path,
    looks_like_ours, resolve_command, roots_of, runs_current_exe,
};
use crate::env::{Os, SetupEnv};
use crate::error::{Result, SetupError};
use crate::fsio::{self, Record, WriteOptions};
use crate::plan::{
    Action, Commands, FileOutcome, Mode, Options, PlanItem, all_places, apply_file, edited_text,
    files_to_write, is_effectively_empty, is_other_project, local_entries, needs_root, plan_client,
    status_at,
};

const SETUP_EXAMPLES: &str = "\
Examples:
  devprojex setup                          detect clients, show the plan, ask before writing
  devprojex setup --dry-run                show the change to each file as a unified diff
  devprojex setup --client codex --client cursor --yes
  devprojex setup --client all --hide-private-data --git-mode tracked
  devprojex setup --scope project --client vscode     write .vscode/mcp.json in this repository
  devprojex setup --root ~/src/app --client claude-desktop
  devprojex setup --remove --yes           remove the entry from every detected client
  devprojex setup status                   show every client, its config files and the entry's state";

const DOCTOR_EXAMPLES: &str = "\
Examples:
  devprojex doctor
  devprojex doctor --root ~/src/app --root ~/src/lib";

const STATUS_HELP: &str = "\
List every client (or those named with --client), whether it is detected, and for each place that \
can hold the entry (user scope; Claude Code's local scope of this project and its .mcp.json; \
Antigravity's pre-2.0 file; with --scope project, the project files) the file and the entry's state:

  no config file
  not configured
  present, current
  present, points at another devprojex binary (run setup to update)
  present, lacks a key setup now writes, such as alwaysLoad (run setup to update)
  present, STALE: command not found: COMMAND
  present, differs from what setup would write with these flags
  ERROR: MESSAGE

Claude Code entries at local scope in other projects are counted on one line. Pass the flags you ran \
setup with, so \"current\" compares against the same entry. Exit code 0.";

/// How long a `.devprojex-setup-*.tmp` file must be untouched before a later run removes it.
const STALE_TEMP_AGE: Duration = Duration::from_secs(60);

/// A `--client` value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ClientArg {
    /// Every detected client.
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
    /// Gemini CLI.
    GeminiCli,
    /// GitHub Copilot CLI.
    CopilotCli,
    /// Windsurf.
    Windsurf,
    /// Zed.
    Zed,
}

impl ClientArg {
    fn client(self) -> Option<ClientId> {
        Some(match self {
            ClientArg::All => return None,
            ClientArg::ClaudeCode => ClientId::ClaudeCode,
            ClientArg::ClaudeDesktop => ClientId::ClaudeDesktop,
            ClientArg::Codex => ClientId::Codex,
            ClientArg::Antigravity => ClientId::Antigravity,
            ClientArg::Cursor => ClientId::Cursor,
            ClientArg::Vscode => ClientId::VsCode,
            ClientArg::VscodeInsiders => ClientId::VsCodeInsiders,
            ClientArg::GeminiCli => ClientId::GeminiCli,
            ClientArg::CopilotCli => ClientId::CopilotCli,
            ClientArg::Windsurf => ClientId::Windsurf,
            ClientArg::Zed => ClientId::Zed,
        })
    }
}

/// `devprojex setup`: register (or with `--remove`, unregister) the MCP server in client configs.
#[derive(Debug, Clone, clap::Args)]
#[command(
    about = "Register the devprojex MCP server in Claude Code, Claude Desktop, Codex, Antigravity, Cursor, VS Code, Gemini CLI, Copilot CLI, Windsurf and Zed",
    long_about = "Register the devprojex MCP server in your MCP clients' config files.\n\n\
Without --client, setup acts on the detected clients (config folder or executable present); \
--client all means every detected client, and naming a client that is not detected creates its \
config. --remove acts on every client whose config holds the entry, detected or not. Each client \
gets an entry that serves the project, never / or your home folder: Cursor and VS Code project \
files get --root ${workspaceFolder}; Claude Code, Codex, Gemini CLI, Copilot CLI and Zed start the \
server in the project; VS Code user entries use the workspace folders it sends; Claude Desktop, \
Antigravity and Windsurf need --root (asked on a terminal). Claude Code entries carry \
\"alwaysLoad\": true, so its tools are loaded in every session. setup shows the plan and asks \
before writing; --yes skips the question (required when standard input is not a terminal). Edits \
keep comments, key order, indentation, line endings and every other entry; each file is swapped in \
atomically, and a save another program makes meanwhile is kept (the edit is applied to it again); \
the bytes replaced are kept in devprojex's data folder.",
    after_help = SETUP_EXAMPLES
)]
pub struct SetupArgs {
    /// `status`: show each client's config files and entry state instead of writing.
    #[command(subcommand)]
    pub command: Option<SetupCommand>,

    /// Client to configure (repeatable; `all` for every detected client). Default: the detected
    /// clients.
    #[arg(long = "client", value_name = "NAME", value_enum, global = true)]
    pub clients: Vec<ClientArg>,

    /// `user`: the user's own config. `project`: files in the current repository
    /// (.mcp.json, .cursor/mcp.json, .vscode/mcp.json, .codex/config.toml, .gemini/settings.json).
    #[arg(long, value_enum, default_value_t = Scope::User, global = true)]
    pub scope: Scope,

    /// Pin the server to this project folder (repeatable; `~` is expanded). Default: each
    /// client's own way to the project (see above); Claude Desktop, Antigravity and Windsurf
    /// need it. `/`, a drive root and the home folder are refused (see --allow-broad-root).
    #[arg(long = "root", value_name = "PATH", global = true)]
    pub roots: Vec<PathBuf>,

    /// Accept a --root that is `/`, a drive root, the home folder or a folder above it: the
    /// server then reads every file there (SSH keys, browser profiles, other projects).
    #[arg(long, global = true)]
    pub allow_broad_root: bool,

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

    /// How to write the command: `auto` writes `devprojex` when the client would find this
    /// binary through its own PATH (desktop apps do not get the shell's), else its stable
    /// absolute path (Homebrew's `bin/devprojex`, never a versioned Cellar path).
    #[arg(long, value_name = "HOW", value_enum, default_value_t = CommandPath::Auto, global = true)]
    pub command_path: CommandPath,

    /// Show a unified diff of each file instead of writing.
    #[arg(long)]
    pub dry_run: bool,

    /// Remove the entry instead of adding it (Claude Code: user scope and every project's local
    /// scope).
    #[arg(long)]
    pub remove: bool,

    /// Replace (or remove) an entry of the same name that was changed by hand.
    #[arg(long)]
    pub force: bool,

    /// Write entries that run this binary even though it is a development build in a Cargo
    /// `target/` folder (what `cargo run -- setup` runs).
    #[arg(long)]
    pub allow_dev_build: bool,

    /// Apply without asking.
    #[arg(short = 'y', long)]
    pub yes: bool,
}

/// Subcommands of `devprojex setup`.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum SetupCommand {
    /// List every client, its config files, and the entry's state in each.
    #[command(
        long_about = STATUS_HELP,
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
    /// Standard input (for the questions).
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
        if rest.as_os_str().is_empty() {
            return "~".into();
        }
        let sep = if env.os == Os::Windows { "\\" } else { "/" };
        return format!("~{sep}{}", rest.display());
    }
    p.display().to_string()
}

fn w(e: std::io::Error) -> SetupError {
    SetupError::io("standard output", "writing", e)
}

/// Why `root` is too broad to serve (`/`, a drive root, the home folder or above it), judged on
/// its real path when it exists: the server's own guard (`root_guard`).
pub fn broad_root(env: &SetupEnv, root: &str) -> Option<&'static str> {
    let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let home = env.home.as_deref().map(canon);
    let lexical =
        crate::root_guard::too_broad(Path::new(root), env.home.as_deref(), env.os == Os::Windows);
    lexical.or_else(|| {
        crate::root_guard::too_broad(
            &canon(Path::new(root)),
            home.as_deref(),
            env.os == Os::Windows,
        )
    })
}

/// Builds the [`Options`] from the arguments.
pub fn options(args: &SetupArgs, env: &SetupEnv) -> Result<Options> {
    if !valid_name(&args.name) {
        return Err(SetupError::Usage(format!(
            "invalid --name {:?}: use 1 to 64 letters, digits, '-' or '_'",
            args.name
        )));
    }
    let roots: Vec<String> = args
        .roots
        .iter()
        .map(|r| env.expand_user_path(r).to_string_lossy().into_owned())
        .collect();
    if !args.allow_broad_root
        && let Some((root, why)) = roots
            .iter()
            .find_map(|r| broad_root(env, r).map(|w| (r, w)))
    {
        return Err(SetupError::Usage(format!(
            "--root {} is {why}: the server would read every file there (SSH keys, browser profiles, other projects); name the project folder instead, or pass --allow-broad-root to write it anyway",
            show(env, Path::new(root))
        )));
    }
    Ok(Options {
        scope: args.scope,
        name: args.name.clone(),
        commands: Commands {
            terminal: resolve_command(args.command_path, env, Launch::Terminal),
            desktop: resolve_command(args.command_path, env, Launch::Desktop),
            exact: args.command_path != CommandPath::Auto,
        },
        flags: ServerFlags {
            roots,
            hide_private_data: args.hide_private_data,
            allow_remote: args.allow_remote,
            git_mode: args.git_mode,
        },
    })
}

/// Whether `client` has the entry in a place a removal acts on (its config exists and names
/// it), whether or not the client is detected: setup finds what it wrote even when the client
/// runs only as an IDE extension or through `npx`.
pub fn has_entry(client: ClientId, env: &SetupEnv, opts: &Options) -> bool {
    let Ok(places) = crate::plan::places(client, env, opts, Mode::Remove) else {
        return false;
    };
    places.iter().any(|l| {
        fsio::load(&l.path)
            .ok()
            .and_then(|f| f.text)
            .and_then(|t| {
                crate::edit::read_entry_at(&t, client.format(), &l.key_refs(), &opts.name, &l.path)
                    .ok()
            })
            .flatten()
            .is_some()
    })
}

/// The clients to act on: the named ones (noting those not detected), else the detected ones;
/// `all` adds every detected client. A removal also acts on every client whose config holds
/// the entry, detected or not.
fn select_clients(
    args: &SetupArgs,
    env: &SetupEnv,
    opts: &Options,
    record: &Record,
) -> Result<(Vec<ClientId>, Vec<ClientId>)> {
    let project = args.scope == Scope::Project;
    let detected = |c: ClientId| {
        detect_with(c, env, &record.created)
            || (project && project_config_path(c, &env.project_root()).is_some_and(|p| p.exists()))
            || (args.remove && has_entry(c, env, opts))
    };
    let mut named: Vec<ClientId> = args.clients.iter().filter_map(|c| c.client()).collect();
    named.sort();
    named.dedup();
    if project && let Some(c) = named.iter().find(|c| !c.supports_project()) {
        return Err(SetupError::Usage(format!(
            "{} has no project-scope config; project scope supports claude-code, codex, cursor, vscode and gemini-cli",
            c.name()
        )));
    }
    let all = args.clients.contains(&ClientArg::All);
    let mut chosen = named.clone();
    if all || named.is_empty() {
        chosen.extend(
            ClientId::ALL
                .into_iter()
                .filter(|c| !project || c.supports_project())
                .filter(|c| detected(*c)),
        );
    }
    chosen.sort();
    chosen.dedup();
    if chosen.is_empty() && !args.remove {
        return Err(SetupError::NoClients);
    }
    let absent = named.into_iter().filter(|c| !detected(*c)).collect();
    Ok((chosen, absent))
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

/// Refuses to write users' configs as root on someone else's behalf (`sudo`).
fn check_not_sudo(env: &SetupEnv) -> Result<()> {
    if env.user.euid == Some(0)
        && let Some(uid) = env.user.sudo_uid.filter(|u| *u != 0)
    {
        return Err(SetupError::Ownership {
            message: format!(
                "setup runs under sudo (for user id {uid}): the configs it writes would become root-owned and lock that user out of them; run `devprojex setup` without sudo"
            ),
        });
    }
    Ok(())
}

/// Refuses to write into a home folder that belongs to another user: what setup creates there
/// (`~/.cursor`, `~/.local/share/devprojex`, a new `~/.claude.json`) would belong to the user
/// setup runs as, and the home's owner could no longer change it. This is root without
/// `SUDO_UID` (`su -m`, `doas` with keepenv, a service) keeping another user's `HOME`.
fn check_home_owner(env: &SetupEnv) -> Result<()> {
    let (Some(euid), Some(home)) = (env.user.euid, &env.home) else {
        return Ok(());
    };
    let Some(owner) = fsio::owner_of(home) else {
        return Ok(());
    };
    if owner == euid {
        return Ok(());
    }
    Err(SetupError::Ownership {
        message: format!(
            "the home folder {} belongs to user id {owner}, but setup runs as user id {euid}{}: the files it would create there would belong to user id {euid} and lock the home's owner out of them; run `devprojex setup` as that user (for example `su - USER -c 'devprojex setup'`, which also sets HOME)",
            home.display(),
            if euid == 0 {
                " (root, with another user's HOME kept, as `su -m` or doas's keepenv do)"
            } else {
                ""
            }
        ),
    })
}

fn backup_dir(env: &SetupEnv) -> Option<PathBuf> {
    env.data_dir().map(|d| d.join("setup-backups"))
}

/// A removal keeps no backup: the bytes it replaces differ from the result only by setup's own
/// entry, and a copy holding the entry is what `--remove` must not leave behind.
fn write_options(env: &SetupEnv, client: ClientId, scope: Scope, mode: Mode) -> WriteOptions {
    WriteOptions {
        private: scope == Scope::User,
        backup_dir: backup_dir(env).filter(|_| mode == Mode::Add),
        backup_label: client.name().into(),
        client_display: client.display().into(),
        user: env.user,
        home: env.home.clone(),
    }
}

/// Folders where setup's temporary files of a killed run may be left: every config folder (and
/// a symlinked config's target folder), the home folder and the backup folder.
fn temp_dirs(env: &SetupEnv) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = env.home.iter().cloned().collect();
    for c in ClientId::ALL {
        for l in all_places(c, env).unwrap_or_default() {
            if let Some(d) = l.path.parent() {
                dirs.push(d.to_path_buf());
            }
            // A symlinked config is written at its target: the temporary files are there.
            if let Ok(real) = fsio::resolve(&l.path)
                && let Some(d) = real.parent()
            {
                dirs.push(d.to_path_buf());
            }
        }
    }
    dirs.extend(backup_dir(env));
    dirs.extend(env.data_dir());
    dirs
}

/// Options for the clients that need `--root`, with the folders the user typed.
struct Answer {
    roots: Option<Vec<String>>,
}

/// Asks for the project folders of clients that give the server none. An answer that is `/`,
/// a drive root or the home folder gets a warning, and (without `--allow-broad-root`) is
/// asked again, at most three times.
fn ask_roots(
    clients: &[ClientId],
    env: &SetupEnv,
    allow_broad: bool,
    io: &mut Io<'_>,
) -> Result<Answer> {
    let names: Vec<&str> = clients.iter().map(|c| c.display()).collect();
    writeln!(
        io.out,
        "{} start{} MCP servers outside any project, so the entry names the project folders it may read.",
        names.join(" and "),
        if clients.len() == 1 { "s" } else { "" },
    )
    .map_err(w)?;
    for _ in 0..3 {
        write!(
            io.out,
            "Project folder(s), separated by commas (empty: skip {}): ",
            if clients.len() == 1 { "it" } else { "them" },
        )
        .map_err(w)?;
        io.out.flush().map_err(w)?;
        let mut line = String::new();
        io.input
            .read_line(&mut line)
            .map_err(|e| SetupError::io("standard input", "reading", e))?;
        let roots: Vec<String> = line
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| {
                env.expand_user_path(Path::new(s))
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        let broad: Vec<(&String, &str)> = roots
            .iter()
            .filter_map(|r| broad_root(env, r).map(|why| (r, why)))
            .collect();
        for (r, why) in &broad {
            writeln!(
                io.out,
                "warning: {} is {why}: the server would read every file there (SSH keys, browser profiles, other projects){}",
                show(env, Path::new(r)),
                if allow_broad {
                    "; written because of --allow-broad-root"
                } else {
                    ": name the project folder instead (or pass --allow-broad-root)"
                }
            )
            .map_err(w)?;
        }
        if broad.is_empty() || allow_broad {
            return Ok(Answer {
                roots: (!roots.is_empty()).then_some(roots),
            });
        }
    }
    Ok(Answer { roots: None })
}

fn setup(args: &SetupArgs, env: &SetupEnv, io: &mut Io<'_>) -> Result<u8> {
    let opts = options(args, env)?;
    let mode = if args.remove { Mode::Remove } else { Mode::Add };
    if opts.scope == Scope::Project && env.project_is_home() {
        return Err(SetupError::Usage(format!(
            "the project folder is your home folder ({}), where the project-scope files are your user configs: run --scope project inside a repository",
            show(env, &env.project_root())
        )));
    }
    if !args.dry_run {
        check_not_sudo(env)?;
        check_home_owner(env)?;
    }
    if let Some(exe) = &env.current_exe
        && mode == Mode::Add
        && !args.dry_run
        && !args.allow_dev_build
        && is_dev_build(exe)
    {
        return Err(SetupError::DevBuild { exe: exe.clone() });
    }
    let mut record = Record::load(env.data_dir().as_deref());
    let (clients, absent) = select_clients(args, env, &opts, &record)?;
    if clients.is_empty() {
        writeln!(
            io.out,
            "Nothing to remove: no client's config has an entry \"{}\" (looked in {}).",
            opts.name,
            if opts.scope == Scope::Project {
                "this project's files"
            } else {
                "every client's user config, and Claude Code's local scopes"
            }
        )
        .map_err(w)?;
        return Ok(0);
    }
    if !args.dry_run {
        let removed = fsio::remove_stale_temp_files(&temp_dirs(env), STALE_TEMP_AGE);
        if !removed.is_empty() {
            writeln!(
                io.out,
                "Removed {} temporary file(s) left by an interrupted run.",
                removed.len()
            )
            .map_err(w)?;
        }
    }
    let mut answer: Option<Answer> = None;
    for round in 0.. {
        let mut items = plan_all(&clients, env, &opts, mode, args.force, answer.as_ref())?;
        // Clients that need a project folder: ask once on a terminal, then plan them again.
        let missing: Vec<ClientId> = items
            .iter()
            .filter(|i| matches!(i.action, Action::Failed(SetupError::NeedsRoot { .. })))
            .map(|i| i.client())
            .collect();
        if answer.is_none() && !missing.is_empty() && io.interactive && !args.yes && !args.dry_run {
            answer = Some(ask_roots(&missing, env, args.allow_broad_root, io)?);
            items = plan_all(&clients, env, &opts, mode, args.force, answer.as_ref())?;
        }
        for item in &mut items {
            if absent.contains(&item.client()) && matches!(item.action, Action::Create) {
                item.notes.push(format!(
                    "{} was not detected: setup creates this file",
                    item.client().display()
                ));
            }
        }
        print_plan(&items, &opts, env, mode, io)?;
        let problems = items.iter().filter(|i| i.action.is_problem()).count();
        report_problems(&items, &opts, io.err)?;
        let groups = files_to_write(&items);
        if args.dry_run {
            print_diffs(&items, &groups, &opts, io)?;
            if let Some(exe) = env.current_exe.as_ref().filter(|e| is_dev_build(e))
                && mode == Mode::Add
                && !args.allow_dev_build
            {
                writeln!(
                    io.out,
                    "note: this is a development build ({}): a real run refuses to write it without --allow-dev-build",
                    exe.display()
                )
                .map_err(w)?;
            }
            writeln!(io.out, "\nDry run: nothing was written.").map_err(w)?;
            return Ok(u8::from(problems > 0));
        }
        if groups.is_empty() {
            let msg = if problems > 0 {
                "Nothing was changed."
            } else if args.remove {
                "Nothing to change: no entry to remove."
            } else {
                "Nothing to change: every selected client is already configured."
            };
            writeln!(io.out, "{msg}").map_err(w)?;
            return Ok(u8::from(problems > 0));
        }
        if !args.yes {
            if !io.interactive {
                return Err(SetupError::NotATerminal);
            }
            write!(
                io.out,
                "Apply these changes to {} file(s)? [y/N] ",
                groups.len()
            )
            .map_err(w)?;
            io.out.flush().map_err(w)?;
            let mut reply = String::new();
            io.input
                .read_line(&mut reply)
                .map_err(|e| SetupError::io("standard input", "reading", e))?;
            if !matches!(reply.trim().to_ascii_lowercase().as_str(), "y" | "yes") {
                return Err(SetupError::Aborted);
            }
        }
        let mut failures = 0;
        let mut replan = Vec::new();
        for group in &groups {
            let members: Vec<&PlanItem> = group.iter().map(|i| &items[*i]).collect();
            let first = members[0];
            let write = write_options(env, first.client(), opts.scope, mode);
            match apply_file(&members, env, &opts, mode, args.force, &write) {
                FileOutcome::Written(report) => {
                    record.add(report.created_dirs.iter().cloned());
                    if report.created
                        && let Some(f) = &first.file
                    {
                        record.add([f.real.clone()]);
                    }
                    print_written(&members, &report, &opts, env, mode, io)?;
                    if mode == Mode::Remove {
                        clean_after_remove(&members, &mut record, &opts, env, io)?;
                    }
                }
                FileOutcome::Replan => replan.push(first.path().to_path_buf()),
                FileOutcome::Failed(e) => {
                    failures += 1;
                    writeln!(io.err, "error[{}]: {e}", e.code()).map_err(w)?;
                }
            }
        }
        if let Some(data) = env.data_dir() {
            if mode == Mode::Remove {
                record.finish_removal(&data);
            }
            let _ = record.save(&data);
        }
        if !replan.is_empty() {
            if io.interactive && !args.yes && round < 2 {
                for p in &replan {
                    writeln!(
                        io.out,
                        "\n{} changed while setup was waiting, and the change matters: planning again.",
                        show(env, p)
                    )
                    .map_err(w)?;
                }
                continue;
            }
            for p in &replan {
                failures += 1;
                let e = SetupError::Changed { path: p.clone() };
                writeln!(io.err, "error[{}]: {e}", e.code()).map_err(w)?;
            }
        }
        return Ok(u8::from(failures + problems > 0));
    }
    unreachable!("the loop returns")
}

fn plan_all(
    clients: &[ClientId],
    env: &SetupEnv,
    opts: &Options,
    mode: Mode,
    force: bool,
    answer: Option<&Answer>,
) -> Result<Vec<PlanItem>> {
    let mut items = Vec::new();
    for c in clients {
        let mut client_opts = opts.clone();
        let asked = answer.filter(|_| needs_root(*c, opts.scope) && opts.flags.roots.is_empty());
        if let Some(a) = asked {
            match &a.roots {
                Some(roots) => client_opts.flags.roots = roots.clone(),
                None => {
                    let mut planned = plan_client(*c, env, opts, mode, force)?;
                    for i in &mut planned {
                        if matches!(i.action, Action::Failed(SetupError::NeedsRoot { .. })) {
                            i.action = Action::Skipped;
                        }
                    }
                    items.extend(planned);
                    continue;
                }
            }
        }
        items.extend(plan_client(*c, env, &client_opts, mode, force)?);
        if opts.scope == Scope::User {
            where_else_notes(*c, &mut items, env, opts, mode);
        }
    }
    Ok(items)
}

/// Tells where else a client has the entry: Claude Code at local scope (setup kept it there
/// instead of adding a duplicate at user scope), and any client in this project's file (its
/// project scope), which a user-scope run leaves to `--scope project`.
fn where_else_notes(
    client: ClientId,
    items: &mut [PlanItem],
    env: &SetupEnv,
    opts: &Options,
    mode: Mode,
) {
    let Some(item) = items.iter_mut().rev().find(|i| i.client() == client) else {
        return;
    };
    if client == ClientId::ClaudeCode
        && mode == Mode::Add
        && matches!(item.location.place, Place::Local { .. })
    {
        item.notes.push(
            "Claude Code has this entry at local scope for this project (claude mcp add): setup keeps it there and adds no duplicate at user scope".into(),
        );
    }
    let Some(project_file) = project_config_path(client, &env.project_root()) else {
        return;
    };
    if env.project_is_home() || project_file == item.location.path {
        return;
    }
    let in_project = fsio::load(&project_file)
        .ok()
        .and_then(|f| f.text)
        .and_then(|t| {
            crate::edit::read_entry(
                &t,
                client.format(),
                client.container(),
                &opts.name,
                &project_file,
            )
            .ok()
        })
        .flatten()
        .is_some();
    if in_project {
        item.notes.push(format!(
            "also registered in {} (project scope, shared through the repository){}",
            show(env, &project_file),
            if mode == Mode::Remove {
                ": setup --remove leaves it; remove it there with --scope project"
            } else {
                ""
            }
        ));
    }
}

fn place_suffix(item: &PlanItem) -> String {
    match &item.location.place {
        Place::User | Place::Project => String::new(),
        other => format!(" ({})", other.label()),
    }
}

fn print_plan(
    items: &[PlanItem],
    opts: &Options,
    env: &SetupEnv,
    mode: Mode,
    io: &mut Io<'_>,
) -> Result<()> {
    let out = &mut *io.out;
    let verb = if mode == Mode::Remove {
        "remove"
    } else {
        "register"
    };
    let scope = match opts.scope {
        Scope::User => "user",
        Scope::Project => "project",
    };
    writeln!(out, "Plan ({verb} \"{}\", {scope} scope):", opts.name).map_err(w)?;
    for item in items {
        writeln!(
            out,
            "  {:<18} {}{}",
            item.client().display(),
            show(env, item.path()),
            place_suffix(item)
        )
        .map_err(w)?;
        writeln!(out, "  {:<18} -> {}", "", item.action.describe()).map_err(w)?;
        for note in &item.notes {
            writeln!(out, "  {:<18}    note: {note}", "").map_err(w)?;
        }
        if matches!(
            item.action,
            Action::Conflict { .. } | Action::Replace | Action::Update
        ) {
            for line in entry_diff(item).lines() {
                writeln!(out, "  {:<18}    {line}", "").map_err(w)?;
            }
        }
        if mode == Mode::Add && item.action.writes() {
            writeln!(out, "  {:<18}    command: {}", "", command_line(item)).map_err(w)?;
        }
    }
    if mode == Mode::Add
        && opts.scope == Scope::User
        && items
            .iter()
            .any(|i| i.client() == ClientId::ClaudeCode && i.action.writes())
    {
        writeln!(
            out,
            "note: a running Claude Code rewrites ~/.claude.json; what it writes meanwhile is kept (setup applies its edit again to the newer file)"
        )
        .map_err(w)?;
    }
    if mode == Mode::Add && opts.scope == Scope::Project {
        for item in items.iter().filter(|i| i.action.writes()) {
            if crate::env::is_absolute_for(env.os, Path::new(&item.wanted.command)) {
                writeln!(
                    out,
                    "warning: {} is meant to be committed, and this entry names {}, a path other machines may not have; with devprojex on everyone's PATH, use --command-path name",
                    show(env, item.path()),
                    item.wanted.command
                )
                .map_err(w)?;
            }
        }
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
    Ok(())
}

fn print_diffs(
    items: &[PlanItem],
    groups: &[Vec<usize>],
    opts: &Options,
    io: &mut Io<'_>,
) -> Result<()> {
    for group in groups {
        let members: Vec<&PlanItem> = group.iter().map(|i| &items[*i]).collect();
        let Some(file) = members[0].file.as_ref() else {
            continue;
        };
        let new = edited_text(file.text_or_empty(), &members, &opts.name)?;
        let name = members[0].path().display().to_string();
        let old_name = if file.text.is_some() {
            name.clone()
        } else {
            "/dev/null".into()
        };
        writeln!(io.out).map_err(w)?;
        write!(
            io.out,
            "{}",
            unified_diff(file.text_or_empty(), &new, &old_name, &name)
        )
        .map_err(w)?;
    }
    Ok(())
}

fn print_written(
    members: &[&PlanItem],
    report: &fsio::WriteReport,
    opts: &Options,
    env: &SetupEnv,
    mode: Mode,
    io: &mut Io<'_>,
) -> Result<()> {
    let out = &mut *io.out;
    for item in members {
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
            "{}: {what}: {}{}",
            item.client().display(),
            show(env, item.path()),
            place_suffix(item)
        )
        .map_err(w)?;
    }
    let first = members[0];
    if let Some(file) = &first.file
        && file.real != file.path
    {
        writeln!(
            out,
            "  (symlink: edited its target {})",
            show(env, &file.real)
        )
        .map_err(w)?;
    }
    if let Some(bak) = &report.backup {
        writeln!(out, "  backup of the replaced file: {}", show(env, bak)).map_err(w)?;
    }
    if let Some((from, to)) = &report.moved_legacy_backup {
        writeln!(
            out,
            "  moved the old backup {} to {}",
            show(env, from),
            show(env, to)
        )
        .map_err(w)?;
    }
    if mode == Mode::Add {
        writeln!(out, "  verify: {}", first.client().verify_hint(opts.scope)).map_err(w)?;
    }
    Ok(())
}

/// After a removal: a file setup created that is now empty goes, then the folders setup created
/// that are now empty, and every backup of that file that still holds the entry.
fn clean_after_remove(
    members: &[&PlanItem],
    record: &mut Record,
    opts: &Options,
    env: &SetupEnv,
    io: &mut Io<'_>,
) -> Result<()> {
    let first = members[0];
    let Some(file) = &first.file else {
        return Ok(());
    };
    let real = &file.real;
    let format = first.client().format();
    if record.contains(real)
        && std::fs::read_to_string(real).is_ok_and(|t| is_effectively_empty(&t, format))
        && std::fs::remove_file(real).is_ok()
    {
        record.created.retain(|p| p != real);
        writeln!(
            io.out,
            "  removed {}: setup had created it and it is empty now",
            show(env, real)
        )
        .map_err(w)?;
    }
    let mut dirs: Vec<PathBuf> = record
        .created
        .iter()
        .filter(|d| real.starts_with(d) && *d != real)
        .cloned()
        .collect();
    dirs.sort_by_key(|d| std::cmp::Reverse(d.components().count()));
    for d in dirs {
        if std::fs::remove_dir(&d).is_ok() {
            record.created.retain(|p| *p != d);
            writeln!(
                io.out,
                "  removed the folder {} (setup had created it)",
                show(env, &d)
            )
            .map_err(w)?;
        }
    }
    // Backups that still hold the entry would bring it back if restored.
    let holds_entry = |text: &str| {
        members.iter().any(|m| {
            crate::edit::read_entry_at(text, format, &m.location.key_refs(), &opts.name, real)
                .ok()
                .flatten()
                .is_some_and(|v| looks_like_ours(&v))
        })
    };
    let mut deleted = 0;
    let mut candidates = backup_dir(env)
        .map(|d| fsio::backups_of(&d, first.client().name(), real))
        .unwrap_or_default();
    candidates.push(fsio::legacy_backup_path(real));
    for bak in candidates {
        if std::fs::read_to_string(&bak).is_ok_and(|t| holds_entry(&t))
            && std::fs::remove_file(&bak).is_ok()
        {
            deleted += 1;
        }
    }
    if deleted > 0 {
        writeln!(
            io.out,
            "  deleted {deleted} backup(s) that still held the entry"
        )
        .map_err(w)?;
    }
    if let Some(d) = backup_dir(env) {
        let _ = std::fs::remove_dir(&d);
    }
    Ok(())
}

/// Prints one error line per conflicting or failing place (the plan line only points here).
fn report_problems(items: &[PlanItem], opts: &Options, err: &mut dyn Write) -> Result<()> {
    for item in items.iter().filter(|i| i.action.is_problem()) {
        let msg = match &item.action {
            Action::Failed(e) => format!("error[{}]: {e}", e.code()),
            Action::Conflict { removing } => {
                let e = SetupError::Conflict {
                    path: item.path().to_path_buf(),
                    name: opts.name.clone(),
                    removing: *removing,
                };
                format!("error[{}]: {e}", e.code())
            }
            _ => continue,
        };
        writeln!(err, "{msg}").map_err(|e| SetupError::io("standard error", "writing", e))?;
    }
    Ok(())
}

fn run_status(args: &SetupArgs, env: &SetupEnv, io: &mut Io<'_>) -> Result<u8> {
    let opts = options(args, env)?;
    let record = Record::load(env.data_dir().as_deref());
    let mut clients: Vec<ClientId> = args.clients.iter().filter_map(|c| c.client()).collect();
    if clients.is_empty() {
        clients = ClientId::ALL.to_vec();
    }
    clients.sort();
    clients.dedup();
    let out = &mut *io.out;
    writeln!(
        out,
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
        let installed = if detect_with(c, env, &record.created) {
            "detected"
        } else {
            "not detected"
        };
        let places = match status_places(c, env, opts.scope) {
            Ok(p) => p,
            Err(e) => {
                writeln!(out, "  {:<18} error[{}]: {e}", c.display(), e.code()).map_err(w)?;
                continue;
            }
        };
        if places.is_empty() {
            writeln!(
                out,
                "  {:<18} {installed}; no project-scope config",
                c.display()
            )
            .map_err(w)?;
            continue;
        }
        writeln!(out, "  {:<18} {installed}", c.display()).map_err(w)?;
        for l in &places {
            let label = match &l.place {
                Place::User if opts.scope == Scope::User && places.len() == 1 => String::new(),
                other => format!(" ({})", other.label()),
            };
            writeln!(out, "  {:<18} {}{label}", "", show(env, &l.path)).map_err(w)?;
            writeln!(out, "  {:<18}   {}", "", status_at(l, env, &opts).label()).map_err(w)?;
        }
        if c == ClientId::ClaudeCode && opts.scope == Scope::User {
            let others: Vec<String> = local_entries(env, &opts.name)
                .unwrap_or_default()
                .into_iter()
                .filter(|p| is_other_project(&Place::Local { project: p.clone() }, env))
                .collect();
            if !others.is_empty() {
                writeln!(
                    out,
                    "  {:<18} also at local scope in {} other project(s): {}",
                    "",
                    others.len(),
                    others.join(", ")
                )
                .map_err(w)?;
            }
        }
    }
    Ok(0)
}

/// The places `setup status` shows for `client`.
fn status_places(client: ClientId, env: &SetupEnv, scope: Scope) -> Result<Vec<Location>> {
    let all = all_places(client, env)?;
    Ok(all
        .into_iter()
        .filter(|l| match scope {
            Scope::Project => l.place == Place::Project,
            Scope::User => l.place != Place::Project || client == ClientId::ClaudeCode,
        })
        .collect())
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

/// One doctor line.
struct Checks<'o> {
    out: &'o mut dyn Write,
    problems: usize,
}

impl Checks<'_> {
    fn ok(&mut self, text: impl AsRef<str>) -> Result<()> {
        writeln!(self.out, "[ok  ] {}", text.as_ref()).map_err(w)
    }
    fn warn(&mut self, text: impl AsRef<str>) -> Result<()> {
        writeln!(self.out, "[warn] {}", text.as_ref()).map_err(w)
    }
    fn fail(&mut self, text: impl AsRef<str>) -> Result<()> {
        self.problems += 1;
        writeln!(self.out, "[FAIL] {}", text.as_ref()).map_err(w)
    }
}

/// Whether `git` is macOS's `/usr/bin/git` shim while no developer tools are installed: running
/// it would open the "install the command line developer tools" dialog, so doctor must not.
/// `developer_dir` is what `xcode-select -p` printed (it never opens the dialog).
pub fn git_is_uninstalled_xcode_shim(
    os: Os,
    git: &Path,
    developer_dir: Option<&Path>,
    exists: &dyn Fn(&Path) -> bool,
) -> bool {
    os == Os::Macos
        && git == Path::new("/usr/bin/git")
        && !developer_dir.is_some_and(|d| exists(&d.join("usr/bin/git")))
}

fn xcode_developer_dir() -> Option<PathBuf> {
    let out = std::process::Command::new("/usr/bin/xcode-select")
        .arg("-p")
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
}

fn doctor(args: &DoctorArgs, env: &SetupEnv, io: &mut Io<'_>) -> Result<u8> {
    if !valid_name(&args.name) {
        return Err(SetupError::Usage(format!("invalid --name {:?}", args.name)));
    }
    let mut c = Checks {
        out: &mut *io.out,
        problems: 0,
    };

    // Binary.
    let version = env!("CARGO_PKG_VERSION");
    match &env.current_exe {
        Some(exe) if is_dev_build(exe) => c.warn(format!(
            "binary: {} (version {version}) is a development build; install devprojex for client entries",
            exe.display()
        ))?,
        Some(exe) => c.ok(format!("binary: {} (version {version})", exe.display()))?,
        None => c.warn(format!("binary: path unknown (version {version})"))?,
    }
    match env.which("devprojex") {
        Some(p) => c.ok(format!("on PATH: {}", p.display()))?,
        None => c.warn(
            "`devprojex` is not on PATH: setup writes the absolute path of this binary instead",
        )?,
    }
    if env.home.is_none() {
        c.fail("cannot locate the home folder: set HOME (USERPROFILE on Windows); no client config can be found without it")?;
    }

    // Roots.
    let roots: Vec<PathBuf> = if args.roots.is_empty() {
        vec![env.cwd.clone()]
    } else {
        args.roots.iter().map(|r| env.expand_user_path(r)).collect()
    };
    for r in roots {
        if r.is_dir() {
            c.ok(format!("root: {}", r.display()))?;
        } else if r.exists() {
            c.fail(format!("root: {} is not a folder", r.display()))?;
        } else {
            c.fail(format!("root: {} does not exist", r.display()))?;
        }
    }

    // Git, never through macOS's installer shim.
    match env.which("git") {
        Some(git)
            if git_is_uninstalled_xcode_shim(
                env.os,
                &git,
                if env.os == Os::Macos {
                    xcode_developer_dir()
                } else {
                    None
                }
                .as_deref(),
                &|p| p.exists(),
            ) =>
        {
            c.warn("git: /usr/bin/git is the Xcode Command Line Tools shim and the tools are not installed (doctor did not run it, which would open the installer); install them with `xcode-select --install`, or Git from git-scm.com")?
        }
        Some(git) => {
            let v = std::process::Command::new(&git)
                .arg("--version")
                .stdin(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .output();
            match v {
                Ok(o) if o.status.success() => {
                    let v = String::from_utf8_lossy(&o.stdout).trim().to_string();
                    c.ok(format!("git: {v} ({})", git.display()))?
                }
                _ => c.warn(format!("git: {} does not run", git.display()))?,
            }
        }
        None => c.warn("git: not found on PATH (git modes and remote clones need it)")?,
    }

    // Clients: every place that has the entry or fails to parse.
    let mut configured = 0;
    let mut seen: Vec<(PathBuf, Vec<String>)> = Vec::new();
    for client in ClientId::ALL {
        let Ok(places) = all_places(client, env) else {
            continue;
        };
        for l in places {
            let key = (l.path.clone(), l.keys.clone());
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            let Some((verdict, text)) = doctor_entry(&l, &args.name, env) else {
                continue;
            };
            configured += 1;
            let line = format!(
                "{}: {text} ({}{})",
                client.display(),
                show(env, &l.path),
                match &l.place {
                    Place::User | Place::Project => String::new(),
                    other => format!(", {}", other.label()),
                }
            );
            match verdict {
                Verdict::Ok => c.ok(line)?,
                Verdict::Warn => c.warn(line)?,
                Verdict::Fail => c.fail(line)?,
            }
        }
    }
    let others: Vec<String> = local_entries(env, &args.name)
        .unwrap_or_default()
        .into_iter()
        .filter(|p| is_other_project(&Place::Local { project: p.clone() }, env))
        .collect();
    if !others.is_empty() {
        c.ok(format!(
            "Claude Code: entry at local scope in {} other project(s): {}",
            others.len(),
            others.join(", ")
        ))?;
        configured += others.len();
    }
    if configured == 0 {
        c.warn(format!(
            "no client has an entry \"{}\": run `devprojex setup`",
            args.name
        ))?;
    }
    let problems = c.problems;
    if problems > 0 {
        writeln!(io.out, "{problems} problem(s) found.").map_err(w)?;
        Ok(1)
    } else {
        writeln!(io.out, "No problems found.").map_err(w)?;
        Ok(0)
    }
}

enum Verdict {
    Ok,
    Warn,
    Fail,
}

/// Doctor's verdict on one place: `None` when it has no entry. The command must resolve through
/// the PATH the client gives its servers (a desktop app's, not this shell's), and a client that
/// gives no project needs `--root` folders that exist.
fn doctor_entry(l: &Location, name: &str, env: &SetupEnv) -> Option<(Verdict, String)> {
    let client = l.client;
    let file = match fsio::load(&l.path) {
        Ok(f) => f,
        Err(e) => return Some((Verdict::Fail, format!("error[{}]: {e}", e.code()))),
    };
    let text = file.text.as_deref()?;
    let entry =
        match crate::edit::read_entry_at(text, client.format(), &l.key_refs(), name, &l.path) {
            Ok(v) => v?,
            Err(e) => {
                return Some((
                    Verdict::Fail,
                    format!("config does not parse: error[{}]: {e}", e.code()),
                ));
            }
        };
    let Some(cmd) = entry.get("command").and_then(serde_json::Value::as_str) else {
        return Some((
            Verdict::Ok,
            "entry present (no command: not a stdio server)".into(),
        ));
    };
    let client_path = likely_path(env, client.launch());
    if command_target_in(cmd, env, &client_path).is_none() {
        if command_target_in(cmd, env, &env.path).is_some() {
            let shown: Vec<String> = client_path
                .iter()
                .map(|p| p.display().to_string())
                .collect();
            return Some((
                Verdict::Fail,
                format!(
                    "entry's command `{cmd}` is on this shell's PATH but not on the PATH {} gives its servers ({}): run `devprojex setup` to write the absolute path",
                    client.display(),
                    shown.join(if env.os == Os::Windows { ";" } else { ":" })
                ),
            ));
        }
        return Some((
            Verdict::Fail,
            format!("entry STALE: command not found: {cmd}"),
        ));
    }
    let args = entry_args(&entry).unwrap_or_default();
    let roots = roots_of(&args);
    if looks_like_ours(&entry) && needs_root(client, l.place.scope()) && roots.is_empty() {
        return Some((
            Verdict::Fail,
            format!(
                "entry has no --root: {} starts servers outside any project, so devprojex refuses to start there: run `devprojex setup --client {} --root PATH`",
                client.display(),
                client.name()
            ),
        ));
    }
    if let Some(missing) = roots
        .iter()
        .find(|r| !r.contains("${") && !Path::new(r).is_dir())
    {
        return Some((
            Verdict::Fail,
            format!("entry's --root {missing} is not an existing folder"),
        ));
    }
    // A terminal client started by a desktop app (Claude Code in the Claude app or an IDE
    // extension, Codex in its app) gives its servers the desktop PATH, not this shell's.
    if client.launch() == Launch::Terminal && env.os != Os::Windows {
        let desktop = likely_path(env, Launch::Desktop);
        if command_target_in(cmd, env, &desktop).is_none() {
            let shown: Vec<String> = desktop.iter().map(|p| p.display().to_string()).collect();
            return Some((
                Verdict::Warn,
                format!(
                    "entry's command `{cmd}` is found on this shell's PATH only: from a terminal it connects, but {} started by a desktop app or an IDE extension gets the desktop PATH ({}) and shows ✘ Failed to connect; run `devprojex setup --client {} --command-path absolute` if you start it that way",
                    client.display(),
                    shown.join(":"),
                    client.name()
                ),
            ));
        }
    }
    if runs_current_exe(cmd, env) {
        Some((
            Verdict::Ok,
            "entry present, current (runs this binary)".into(),
        ))
    } else if looks_like_ours(&entry) {
        Some((
            Verdict::Warn,
            format!("entry present, runs another devprojex binary: {cmd}"),
        ))
    } else {
        Some((
            Verdict::Ok,
            format!("entry present (not written by setup): {cmd}"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Status;

    #[test]
    fn doctor_never_runs_the_xcode_shim_without_the_tools() {
        let none = |_: &Path| false;
        let all = |_: &Path| true;
        let git = Path::new("/usr/bin/git");
        assert!(git_is_uninstalled_xcode_shim(Os::Macos, git, None, &all));
        let clt = Path::new("/Library/Developer/CommandLineTools");
        assert!(git_is_uninstalled_xcode_shim(
            Os::Macos,
            git,
            Some(clt),
            &none
        ));
        assert!(!git_is_uninstalled_xcode_shim(
            Os::Macos,
            git,
            Some(clt),
            &all
        ));
        // Homebrew's git, and other systems, are run as usual.
        assert!(!git_is_uninstalled_xcode_shim(
            Os::Macos,
            Path::new("/opt/homebrew/bin/git"),
            None,
            &none
        ));
        assert!(!git_is_uninstalled_xcode_shim(Os::Linux, git, None, &none));
    }

    #[test]
    fn status_help_lists_what_status_prints() {
        for label in Status::LABELS {
            assert!(STATUS_HELP.contains(label), "{label}");
        }
    }
}
