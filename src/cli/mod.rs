//! The command line: clap definitions and dispatch. Each subcommand builds a `Request` and
//! calls the engine; nothing here knows how selection or rendering works.

mod commands;
mod profile_cmd;
mod symbols_cmd;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::engine::{EngineConfig, Request};
use crate::error::DpxError;
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
    Tree(TreeArgs),
    /// File, character and token metrics, and the largest files.
    #[command(
        after_help = "Examples:\n  devprojex analyze .\n  devprojex analyze . --detail signatures --top-files 25\n  devprojex analyze . --tokenizer o200k --tree 2\n  devprojex analyze . --format json"
    )]
    Analyze(AnalyzeArgs),
    /// Write a context pack (tree and file contents) that fits a token budget.
    #[command(
        after_help = "Examples:\n  devprojex pack . -o context.md\n  devprojex pack . --max-tokens 100000 --detail compact -o context.md\n  devprojex pack . --max-tokens 100000 --tokenizer o200k -o context.md\n  devprojex pack . --view content --format json --include-patterns 'src/**'"
    )]
    Pack(PackArgs),
    /// Grep-style search over redacted file contents.
    #[command(
        after_help = "Examples:\n  devprojex search 'TODO|FIXME' .\n  devprojex search 'fn \\w+_test' . --case-sensitive --context-lines 0"
    )]
    Search(SearchArgs),
    /// Where a name is defined: functions, types, classes, constants, macros, modules (15 languages).
    #[command(
        after_help = "Examples:\n  devprojex symbols copy_process /path/to/linux\n  devprojex symbols Parser.parse . --kind method\n  devprojex symbols parse_ . --match prefix --format json\n\nExit codes: 0 definitions found, 1 none found, 2 invalid usage."
    )]
    Symbols(symbols_cmd::SymbolsArgs),
    /// Files linked to one file by static imports: what it imports and what imports it.
    #[command(
        after_help = "Examples:\n  devprojex related src/engine.rs\n  devprojex related kernel/fork.c --direction importers --depth 2\n  devprojex related lib/app.ts --project ~/code/app --format json\n\nThe project is --project, else the Git checkout holding PATH, else the current directory."
    )]
    Related(symbols_cmd::RelatedArgs),
    /// List secrets found in the project (file, line, rule; never the secret). Exit 1 when any is found.
    #[command(
        after_help = "Examples:\n  devprojex scan .\n  devprojex scan . --format json\n\nUse it as a pre-commit or CI check: the exit code is 1 when a secret is found."
    )]
    Scan(ScanArgs),
    /// Run the read-only MCP server over stdio.
    #[command(
        after_help = "Examples:\n  devprojex mcp --root /absolute/path/to/project\n  devprojex mcp --root ~/a --root ~/b --hide-private-data\n  devprojex mcp --git-mode tracked\n\nWithout --root, DEVPROJEX_ROOT, then CLAUDE_PROJECT_DIR, then the current directory is used."
    )]
    Mcp(McpArgs),
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

/// Options shared by every command that selects files.
#[derive(Debug, Clone, Args)]
pub struct SelectionArgs {
    /// Project-relative files or folders to narrow to (repeatable).
    #[arg(long = "paths", alias = "path", value_name = "PATH", num_args = 1..)]
    pub paths: Vec<String>,
    /// Globs a file must match (project-relative, '/'); repeatable.
    #[arg(long = "include-patterns", alias = "include", value_name = "GLOB", num_args = 1..)]
    pub include_patterns: Vec<String>,
    /// Globs that remove files (project-relative, '/'); repeatable.
    #[arg(long = "exclude-patterns", alias = "exclude", value_name = "GLOB", num_args = 1..)]
    pub exclude_patterns: Vec<String>,
    /// Profile: `standard`, `local`, or a profile JSON path inside the project.
    #[arg(long)]
    pub profile: Option<String>,
    /// Git baseline: none (alias off), gitignore (default), tracked.
    #[arg(long = "git-mode", value_name = "MODE", value_parser = parse_git_mode)]
    pub git_mode: Option<GitMode>,
    /// Select only files in the Git index.
    #[arg(long = "tracked-only")]
    pub tracked_only: bool,
    /// Narrow to Git state: staged, changes, or diff:<ref>..<ref>.
    #[arg(long = "git-scope", value_name = "SCOPE")]
    pub git_scope: Option<String>,
    /// Remove files strictly larger than this many bytes.
    #[arg(long = "max-file-bytes", value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_file_bytes: Option<u64>,
    /// Also hide private data (e-mails, IPs, user and host names) in the output.
    #[arg(long = "hide-private-data")]
    pub hide_private_data: bool,
    /// Accept a Git URL as the project (cloned into the user cache; the only network use).
    #[arg(long = "allow-remote")]
    pub allow_remote: bool,
    /// Branch to check out when the project is a Git URL.
    #[arg(long, requires = "allow_remote")]
    pub branch: Option<String>,
}

impl SelectionArgs {
    pub fn request(&self) -> Request {
        Request {
            paths: self.paths.clone(),
            include_patterns: self.include_patterns.clone(),
            exclude_patterns: self.exclude_patterns.clone(),
            profile: self.profile.clone(),
            git_mode: self.git_mode,
            tracked_only: self.tracked_only,
            git_scope: self.git_scope.clone(),
            max_file_bytes: self.max_file_bytes,
            ..Request::default()
        }
    }

    pub fn engine_config(&self) -> EngineConfig {
        EngineConfig {
            hide_private_data: self.hide_private_data,
            git_mode: GitMode::Gitignore,
        }
    }
}

pub fn parse_git_mode(value: &str) -> Result<GitMode, String> {
    if matches!(value, "staged" | "changes") || value.starts_with("diff:") {
        return Err(format!(
            "'{value}' is a momentary Git state, not a baseline mode: pass it per request as the git_scope argument of a tool (CLI: --git-scope {value}). Valid modes: none, off, gitignore, tracked"
        ));
    }
    GitMode::parse(value).ok_or_else(|| {
        format!("'{value}' is not a Git mode; valid values: none, off, gitignore, tracked")
    })
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FormatArg {
    Markdown,
    Text,
    Json,
    Xml,
}

impl From<FormatArg> for crate::render::Format {
    fn from(value: FormatArg) -> Self {
        match value {
            FormatArg::Markdown => Self::Markdown,
            FormatArg::Text => Self::Text,
            FormatArg::Json => Self::Json,
            FormatArg::Xml => Self::Xml,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum DetailArg {
    Full,
    Compact,
    Signatures,
}

impl From<DetailArg> for devprojex_detail::Detail {
    fn from(value: DetailArg) -> Self {
        match value {
            DetailArg::Full => Self::Full,
            DetailArg::Compact => Self::Compact,
            DetailArg::Signatures => Self::Signatures,
        }
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ViewArg {
    #[value(name = "tree-content")]
    TreeContent,
    Content,
    Tree,
}

impl From<ViewArg> for crate::render::View {
    fn from(value: ViewArg) -> Self {
        match value {
            ViewArg::TreeContent => Self::TreeContent,
            ViewArg::Content => Self::Content,
            ViewArg::Tree => Self::Tree,
        }
    }
}

#[derive(Debug, Args)]
pub struct TreeArgs {
    /// Project folder (default: current directory).
    #[arg(default_value = ".")]
    pub path: PathBuf,
    #[command(flatten)]
    pub selection: SelectionArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "markdown")]
    pub format: FormatArg,
    /// Show entries down to this depth (top-level entries are depth 1).
    #[arg(long = "max-depth", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_depth: Option<u64>,
    /// At most this many document lines (markdown/text end with a truncation trailer; json/xml fail).
    #[arg(long = "max-lines", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_lines: Option<u64>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum AnalyzeFormat {
    Table,
    Json,
}

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    #[arg(default_value = ".")]
    pub path: PathBuf,
    #[command(flatten)]
    pub selection: SelectionArgs,
    /// Code reduction before measuring: full, compact, signatures.
    #[arg(long, value_enum)]
    pub detail: Option<DetailArg>,
    /// How many of the largest files to list (1..1000).
    #[arg(long = "top-files", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub top_files: u64,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: AnalyzeFormat,
    /// Also count exact tokens of this encoding: o200k (GPT-4o and later) or cl100k (GPT-4).
    #[arg(long, value_name = "ENCODING", value_parser = parse_encoding)]
    pub tokenizer: Option<Encoding>,
    /// Tokens per folder in tree order, with each folder's share, down to DEPTH levels (all
    /// levels without DEPTH). Put it after the project path: `analyze . --tree 2`.
    #[arg(long = "tree", value_name = "DEPTH", num_args = 0..=1, value_parser = clap::value_parser!(u64).range(1..))]
    pub tree: Option<Option<u64>>,
}

#[derive(Debug, Args)]
pub struct PackArgs {
    #[arg(default_value = ".")]
    pub path: PathBuf,
    #[command(flatten)]
    pub selection: SelectionArgs,
    /// What the pack contains.
    #[arg(long, value_enum, default_value = "tree-content")]
    pub view: ViewArg,
    /// Output format.
    #[arg(long, value_enum, default_value = "markdown")]
    pub format: FormatArg,
    /// Code reduction: full, compact, signatures.
    #[arg(long, value_enum)]
    pub detail: Option<DetailArg>,
    /// Budget of estimated content tokens (one per four characters, rounded up per file); with
    /// --tokenizer, of exact tokens of the complete document (tree, headings, markup, report).
    #[arg(long = "max-tokens", value_parser = parse_positive_decimal)]
    pub max_tokens: Option<u64>,
    /// Make --max-tokens exact in this encoding: o200k (GPT-4o and later) or cl100k (GPT-4).
    #[arg(long, value_name = "ENCODING", value_parser = parse_encoding, requires = "max_tokens")]
    pub tokenizer: Option<Encoding>,
    /// Write to this file (atomically replaced) instead of stdout. A file inside the project is
    /// never packed into itself.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Print nothing on stderr except errors (no budget report, summary or warnings).
    #[arg(short, long)]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct SearchArgs {
    /// Regular expression (Rust regex syntax, at most 4,096 characters).
    pub pattern: String,
    #[arg(default_value = ".")]
    pub path: PathBuf,
    #[command(flatten)]
    pub selection: SelectionArgs,
    /// Match case exactly (the default ignores case).
    #[arg(long = "case-sensitive", conflicts_with = "ignore_case")]
    pub case_sensitive: bool,
    /// Ignore case (the default).
    #[arg(long = "ignore-case")]
    pub ignore_case: bool,
    /// Lines of context around each match.
    #[arg(long = "context-lines", default_value_t = 2, value_parser = clap::value_parser!(u64).range(0..=50))]
    pub context_lines: u64,
    /// Stop after this many matching lines (1..200).
    #[arg(long = "max-results", default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..=200))]
    pub max_results: u64,
    /// Stop after this many seconds with what was found (the default is no limit; the MCP
    /// server's limit is 2 seconds).
    #[arg(long, value_name = "SECS", value_parser = parse_timeout)]
    pub timeout: Option<f64>,
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

#[derive(Debug, Args)]
pub struct ScanArgs {
    #[arg(default_value = ".")]
    pub path: PathBuf,
    #[command(flatten)]
    pub selection: SelectionArgs,
    #[arg(long, value_enum, default_value = "text")]
    pub format: ScanFormat,
}

#[derive(Debug, Args)]
pub struct McpArgs {
    /// A project root to expose (repeatable).
    #[arg(long = "root", value_name = "PATH")]
    pub roots: Vec<PathBuf>,
    /// Also redact private data (e-mails, IPs, user and host names) in everything returned.
    #[arg(long = "hide-private-data")]
    pub hide_private_data: bool,
    /// Allow Git URLs as `project` (network is used only to clone).
    #[arg(long = "allow-remote")]
    pub allow_remote: bool,
    /// Baseline Git mode when a tool names no profile: none (alias off), gitignore, tracked.
    #[arg(long = "git-mode", value_name = "MODE", value_parser = parse_git_mode, default_value = "gitignore")]
    pub git_mode: GitMode,
    /// Exact tokens of this encoding in analyze (beside the estimate) and in pack_context's
    /// max_tokens (the complete document): o200k (GPT-4o and later) or cl100k (GPT-4).
    #[arg(long, value_name = "ENCODING", value_parser = parse_encoding)]
    pub tokenizer: Option<Encoding>,
}

#[derive(Debug, Args)]
pub struct CompletionArgs {
    /// The shell to print completions for.
    pub shell: clap_complete::Shell,
}

pub fn parse_encoding(value: &str) -> Result<Encoding, String> {
    Encoding::parse(value).ok_or_else(|| {
        format!("'{value}' is not a supported encoding; valid values: o200k (o200k_base, GPT-4o and later), cl100k (cl100k_base, GPT-4)")
    })
}

/// Parse a positive integer given as decimal digits.
pub fn parse_positive_decimal(value: &str) -> Result<u64, String> {
    match value.trim().parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("'{value}' is not an integer of at least 1")),
    }
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
        Command::Related(args) => symbols_cmd::related(args),
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
                Err(err) => Err(DpxError::new(
                    crate::error::codes::OUTPUT_FAILED,
                    err.to_string(),
                )),
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
