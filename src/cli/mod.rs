//! The command line: clap definitions and dispatch. Each subcommand builds a `Request` and
//! calls the engine; nothing here knows how selection or rendering works.

mod commands;
mod get_cmd;
mod profile_cmd;
mod references_cmd;
mod relevant_cmd;
mod symbols_cmd;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::args::{AnalyzeArgs, GetTreeArgs, PackContextArgs, SearchProjectArgs};
use crate::engine::{EngineConfig, Request};
use crate::error::{DpxError, ErrorKind};
use crate::select::GitMode;
use crate::tokens::Encoding;

pub use commands::print_error;

const ABOUT: &str = "Show coding agents a project safely: effective file tree, token metrics, search, files and token-budgeted context packs, with secrets always redacted. Runs as a local read-only MCP server (`devprojex mcp`) or offline from the command line.";

/// The `devprojex` command line.
#[derive(Debug, Parser)]
#[command(name = "devprojex", version, about = ABOUT, propagate_version = true, after_help = "Examples:\n  devprojex tree .\n  devprojex analyze . --top-files 20\n  devprojex pack . --max-tokens 100000 -o context.md\n  devprojex search 'fn main' .\n  devprojex mcp --root /absolute/path/to/project\n\nExit codes: 0 success, 1 failure (or secrets found by `scan`), 2 invalid usage.")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the effective file tree.
    #[command(
        after_help = "Examples:\n  devprojex tree .\n  devprojex tree . --format text --max-depth 2\n  devprojex tree . --include-patterns 'src/**' --format json"
    )]
    Tree(TreeCommand),
    /// File, character and token metrics, and the largest files.
    #[command(
        after_help = "Examples:\n  devprojex analyze .\n  devprojex analyze . --detail signatures --top-files 25\n  devprojex analyze . --tokenizer o200k --tree 2\n  devprojex analyze . --format json"
    )]
    Analyze(AnalyzeCommand),
    /// Write a context pack (tree and file contents) that fits a token budget.
    #[command(
        after_help = "Examples:\n  devprojex pack . -o context.md\n  devprojex pack . --max-tokens 100000 --detail compact -o context.md\n  devprojex pack . --max-tokens 100000 --tokenizer o200k -o context.md\n  devprojex pack . --view content --format json --include-patterns 'src/**'"
    )]
    Pack(PackCommand),
    /// Grep-style search over redacted file contents.
    #[command(
        after_help = "Examples:\n  devprojex search 'TODO|FIXME' .\n  devprojex search 'fn \\w+_test' . --case-sensitive --context-lines 0"
    )]
    Search(SearchCommand),
    /// One file by line range, secrets redacted: what the get_file tool shows an agent.
    #[command(
        after_help = "Examples:\n  devprojex get src/main.rs\n  devprojex get src/engine.rs --start-line 120 --end-line 180 --line-numbers\n  devprojex get lib/app.ts --project ~/code/app --format json\n\nAt most 1,000 lines or 50,000 characters a call, as for the tool; stderr names the --start-line that reads on.\nThe project is --project, else the Git checkout holding PATH, else the current directory."
    )]
    Get(get_cmd::GetCommand),
    /// Where a name is defined: functions, types, classes, constants, macros, modules (15 languages).
    #[command(
        after_help = "Examples:\n  devprojex symbols copy_process /path/to/linux\n  devprojex symbols Parser.parse . --kind method\n  devprojex symbols parse_ . --match prefix --format json\n\nExit codes: 0 definitions found, 1 none found, 2 invalid usage."
    )]
    Symbols(symbols_cmd::SymbolsCommand),
    /// Files linked to one file by static imports: what it imports and what imports it.
    #[command(
        after_help = "Examples:\n  devprojex related src/engine.rs\n  devprojex related kernel/fork.c --direction importers --depth 2\n  devprojex related lib/app.ts --project ~/code/app --format json\n\nThe project is --project, else the Git checkout holding PATH, else the current directory."
    )]
    Related(symbols_cmd::RelatedCommand),
    /// Every use of a defined name, each labelled resolved or name-only.
    #[command(
        after_help = "Examples:\n  devprojex references copy_process /path/to/linux\n  devprojex references Parser.parse . --kind method\n  devprojex references parse . --at src/parser.rs:8 --format json\n\nExit codes: 0 references found, 1 none found, 2 invalid usage."
    )]
    References(references_cmd::ReferencesCommand),
    /// One file's definitions in order, with their start and end lines.
    #[command(
        after_help = "Examples:\n  devprojex outline src/engine.rs\n  devprojex outline lib/app.js --project ~/code/app --format json\n\nThe project is --project, else the Git checkout holding FILE, else the current directory."
    )]
    Outline(references_cmd::OutlineCommand),
    /// The files that matter for a task, ranked, with reasons and line ranges (no model).
    #[command(
        after_help = "Examples:\n  devprojex relevant . --query 'crash in parse_args when the config is empty'\n  devprojex relevant ~/code/app --query-file issue.txt --max-results 10 --format json\n\nExit codes: 0 files ranked, 1 none matched, 2 invalid usage."
    )]
    Relevant(relevant_cmd::RelevantCommand),
    /// List secrets found in the project (file, line, rule; never the secret). Exit 1 when any is found.
    #[command(
        after_help = "Examples:\n  devprojex scan .\n  devprojex scan . --format json\n\nUse it as a pre-commit or CI check: the exit code is 1 when a secret is found."
    )]
    Scan(ScanArgs),
    /// Run the read-only MCP server over stdio.
    #[command(
        after_help = "Examples:\n  devprojex mcp --root /absolute/path/to/project\n  devprojex mcp --root ~/a --root ~/b --hide-private-data\n  devprojex mcp --git-mode tracked\n\nWithout --root, DEVPROJEX_ROOT, then CLAUDE_PROJECT_DIR, then the current directory is used."
    )]
    Mcp(crate::mcp::McpArgs),
    /// Manage the per-project `local` profile and validate portable profiles.
    #[command(
        subcommand,
        after_help = "Examples:\n  devprojex profile show .\n  devprojex profile save . --extensions rs toml --detail compact\n  devprojex profile validate .devprojex/profile.json"
    )]
    Profile(profile_cmd::ProfileCommand),
    /// Register the MCP server in your clients: Claude Code, Claude Desktop, Codex, Antigravity, Cursor, VS Code, Gemini CLI, Copilot CLI, Windsurf and Zed.
    Setup(devprojex_setup::SetupArgs),
    /// Check the binary, the roots, Git, and every configured client entry.
    Doctor(devprojex_setup::DoctorArgs),
    /// Update this standalone devprojex to the latest release (sha256-verified).
    #[cfg(feature = "self-update")]
    #[command(
        disable_version_flag = true,
        after_help = "Examples:\n  devprojex self-update --check\n  devprojex self-update --yes\n  devprojex self-update --version 0.4.1\n\nHomebrew, winget, .deb and cargo installs are updated by their package manager; self-update names the command.\nExit codes: 0 done or up to date, 1 update failed (binary unchanged), 2 refused."
    )]
    SelfUpdate(devprojex_update::SelfUpdateArgs),
    /// Print shell completions.
    #[command(
        after_help = "Examples:\n  devprojex completion bash > ~/.local/share/bash-completion/completions/devprojex\n  devprojex completion zsh > ~/.zfunc/_devprojex"
    )]
    Completion(CompletionArgs),
    /// Print the man page (roff).
    #[command(hide = true)]
    Man,
}

/// What every offline command takes that the server takes once, at startup.
#[derive(Debug, Clone, Args)]
pub struct ProcessArgs {
    /// Git baseline: none (alias off), gitignore (default), tracked.
    #[arg(long = "git-mode", value_name = "MODE", value_parser = crate::args::parse_git_mode)]
    pub git_mode: Option<GitMode>,
    /// Also hide private data (e-mails, IPs, user and host names) in the output.
    #[arg(long = "hide-private-data")]
    pub hide_private_data: bool,
    /// Accept a Git URL as the project (cloned into the user cache; the only network use).
    #[arg(long = "allow-remote")]
    pub allow_remote: bool,
}

impl ProcessArgs {
    pub fn engine_config(&self) -> EngineConfig {
        EngineConfig {
            hide_private_data: self.hide_private_data,
            git_mode: GitMode::Gitignore,
        }
    }
}

/// Narrowing the command line offers where the command's MCP tool does not (`tree`, `search`,
/// `symbols`): the tool's agent reaches the same files with globs.
#[derive(Debug, Clone, Args)]
pub struct NarrowingArgs {
    /// Existing project-relative files or folders to narrow to; at most 256 entries.
    #[arg(long = "paths", alias = "path", value_name = "PATH", num_args = 1..)]
    pub paths: Vec<String>,
    /// 'standard' (default), 'local', or a portable profile JSON path inside the project.
    #[arg(long)]
    pub profile: Option<String>,
}

impl NarrowingArgs {
    /// `request` narrowed further.
    fn apply(&self, request: &mut Request, process: &ProcessArgs) {
        request.paths = self.paths.clone();
        request.profile = self.profile.clone();
        request.git_mode = process.git_mode;
    }
}

/// `devprojex tree`: `get_tree`'s arguments and the command line's own.
#[derive(Debug, Args)]
pub struct TreeCommand {
    /// Project folder (default: current directory).
    #[arg(default_value = ".")]
    pub path: PathBuf,
    #[command(flatten)]
    pub tool: GetTreeArgs,
    #[command(flatten)]
    pub narrowing: NarrowingArgs,
    #[command(flatten)]
    pub process: ProcessArgs,
    /// At most this many document lines (markdown/text end with a truncation trailer; json/xml fail).
    #[arg(long = "max-lines", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_lines: Option<u64>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum AnalyzeFormat {
    Table,
    Json,
}

/// `devprojex analyze`: `analyze`'s arguments and the command line's own.
#[derive(Debug, Args)]
pub struct AnalyzeCommand {
    #[arg(default_value = ".")]
    pub path: PathBuf,
    #[command(flatten)]
    pub tool: AnalyzeArgs,
    #[command(flatten)]
    pub process: ProcessArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: AnalyzeFormat,
    /// Also count exact tokens of this encoding: o200k (GPT-4o and later) or cl100k (GPT-4).
    #[arg(long, value_name = "ENCODING", value_parser = crate::args::parse_encoding)]
    pub tokenizer: Option<Encoding>,
    /// Tokens per folder in tree order, with each folder's share, down to DEPTH levels (all
    /// levels without DEPTH). Put it after the project path: `analyze . --tree 2`.
    #[arg(long = "tree", value_name = "DEPTH", num_args = 0..=1, value_parser = clap::value_parser!(u64).range(1..))]
    pub tree: Option<Option<u64>>,
}

/// `devprojex pack`: `pack_context`'s arguments and the command line's own.
#[derive(Debug, Args)]
pub struct PackCommand {
    #[arg(default_value = ".")]
    pub path: PathBuf,
    #[command(flatten)]
    pub tool: PackContextArgs,
    #[command(flatten)]
    pub process: ProcessArgs,
    /// Read the query from this file (UTF-8 text, at most 8,000 characters) instead of --query.
    #[arg(long = "query-file", value_name = "FILE", conflicts_with = "query")]
    pub query_file: Option<PathBuf>,
    /// Write to this file (atomically replaced) instead of stdout. A file inside the project is
    /// never packed into itself.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Print nothing on stderr except errors (no budget report, summary or warnings).
    #[arg(short, long)]
    pub quiet: bool,
}

/// `devprojex search`: `search_project`'s arguments and the command line's own.
#[derive(Debug, Args)]
pub struct SearchCommand {
    #[command(flatten)]
    pub tool: SearchProjectArgs,
    #[arg(default_value = ".")]
    pub path: PathBuf,
    #[command(flatten)]
    pub narrowing: NarrowingArgs,
    #[command(flatten)]
    pub process: ProcessArgs,
    /// Match case exactly (the same as --ignore-case=false).
    #[arg(long = "case-sensitive", conflicts_with = "ignore_case")]
    pub case_sensitive: bool,
    /// Stop after this many seconds with what was found (the default is no limit; the MCP
    /// server's limit is 2 seconds).
    #[arg(long, value_name = "SECS", value_parser = parse_timeout)]
    pub timeout: Option<f64>,
    /// Output format: grep-style lines, or a JSON document of the groups and counts.
    #[arg(long, value_enum, default_value = "text")]
    pub format: SearchFormat,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum SearchFormat {
    Text,
    Json,
}

fn parse_timeout(value: &str) -> Result<f64, String> {
    match value.parse::<f64>() {
        Ok(secs) if secs > 0.0 && secs.is_finite() && secs <= 86_400.0 => Ok(secs),
        _ => Err("a number of seconds greater than 0 and at most 86400, such as 2 or 0.5".into()),
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ScanFormat {
    Text,
    Json,
}

/// `devprojex scan` (no MCP twin): the selection options of the project tools.
#[derive(Debug, Args)]
pub struct ScanArgs {
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// Existing project-relative files or folders to narrow to; at most 256 entries.
    #[arg(long = "paths", alias = "path", value_name = "PATH", num_args = 1..)]
    pub paths: Vec<String>,
    /// Project-relative globs using '/' (a file must match one). A pattern without '/' matches
    /// names at any depth. Globs only narrow the selection.
    #[arg(long = "include-patterns", alias = "include", value_name = "GLOB", num_args = 1..)]
    pub include_patterns: Vec<String>,
    /// Project-relative globs using '/' (matching files are removed). A pattern without '/'
    /// matches names at any depth. Globs only narrow the selection.
    #[arg(long = "exclude-patterns", alias = "exclude", value_name = "GLOB", num_args = 1..)]
    pub exclude_patterns: Vec<String>,
    /// 'standard' (default), 'local', or a portable profile JSON path inside the project.
    #[arg(long)]
    pub profile: Option<String>,
    /// Select only files in the Git index (default false). Cannot weaken a tracked profile.
    #[arg(long = "tracked-only")]
    pub tracked_only: bool,
    /// Narrow to Git state: 'staged', 'changes', or 'diff:<ref>..<ref>'. Content always comes
    /// from the working tree.
    #[arg(long = "git-scope", value_name = "SCOPE")]
    pub git_scope: Option<String>,
    /// Remove files strictly larger than this many bytes.
    #[arg(long = "max-file-bytes", value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_file_bytes: Option<u64>,
    /// Branch to check out; valid only when the project is a Git URL.
    #[arg(long, requires = "allow_remote")]
    pub branch: Option<String>,
    #[command(flatten)]
    pub process: ProcessArgs,
    #[arg(long, value_enum, default_value = "text")]
    pub format: ScanFormat,
}

impl ScanArgs {
    pub fn request(&self) -> Request {
        Request {
            paths: self.paths.clone(),
            include_patterns: self.include_patterns.clone(),
            exclude_patterns: self.exclude_patterns.clone(),
            profile: self.profile.clone(),
            git_mode: self.process.git_mode,
            tracked_only: self.tracked_only,
            git_scope: self.git_scope.clone(),
            max_file_bytes: self.max_file_bytes,
            ..Request::default()
        }
    }
}

#[derive(Debug, Args)]
pub struct CompletionArgs {
    /// The shell to print completions for.
    pub shell: clap_complete::Shell,
}

/// Parse arguments and run.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result: Result<ExitCode, DpxError> = match cli.command {
        Command::Tree(args) => commands::tree(args),
        Command::Analyze(args) => commands::analyze(args),
        Command::Pack(args) => commands::pack(args),
        Command::Search(args) => commands::search(args),
        Command::Scan(args) => commands::scan(args),
        Command::Symbols(args) => symbols_cmd::symbols(args),
        Command::Get(args) => get_cmd::get(args),
        Command::Related(args) => symbols_cmd::related(args),
        Command::References(args) => references_cmd::references(args),
        Command::Outline(args) => references_cmd::outline(args),
        Command::Relevant(args) => relevant_cmd::relevant(args),
        Command::Mcp(args) => crate::mcp::run(args),
        Command::Profile(command) => profile_cmd::run(command),
        Command::Setup(args) => Ok(devprojex_setup::run_setup(args)),
        Command::Doctor(args) => Ok(devprojex_setup::run_doctor(args)),
        #[cfg(feature = "self-update")]
        Command::SelfUpdate(args) => {
            return devprojex_update::run_self_update(args, env!("CARGO_PKG_VERSION"));
        }
        Command::Completion(args) => {
            let mut command = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(
                args.shell,
                &mut command,
                "devprojex",
                &mut std::io::stdout(),
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Man => {
            let command = <Cli as clap::CommandFactory>::command();
            match clap_mangen::Man::new(command).render(&mut std::io::stdout()) {
                Ok(()) => Ok(ExitCode::SUCCESS),
                Err(err) => Err(DpxError::new(ErrorKind::OutputFailed, err.to_string())),
            }
        }
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            print_error(&err);
            if err.is_usage() {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}
