//! The argument structs, one per tool, fields in the order of the spec's table. A field's doc
//! comment is its MCP description and its CLI help; `#[schemars(...)]` gives its limits,
//! `#[arg(...)]` its flag. Fields the CLI takes otherwise (`project`, `pack_id`) are
//! `#[arg(skip)]`. Options a tool shares are spelled alike in every struct; a test compares
//! their schemas across the tools.

use clap::Args;
use devprojex_detail::Detail;
use devprojex_symbols::Kind;
use schemars::JsonSchema;
use serde::Deserialize;

use super::ToolArgs;
use crate::engine::Request;
use crate::error::{DpxError, ErrorKind};
use crate::limits;
use crate::relevance::PackRank;
use crate::render::{Format, View};
use crate::select::GitMode;
use crate::symbols::{Direction, MatchMode};
use crate::tokens::Encoding;

fn default_top_files() -> u64 {
    limits::DEFAULT_TOP_FILES as u64
}

fn default_context_lines() -> u64 {
    limits::DEFAULT_CONTEXT_LINES as u64
}

fn default_search_results() -> u64 {
    limits::DEFAULT_SEARCH_RESULTS as u64
}

fn default_symbol_results() -> u64 {
    crate::symbols::limits::DEFAULT_RESULTS as u64
}

fn default_related_depth() -> u64 {
    1
}

fn yes() -> bool {
    true
}

/// A Git baseline mode (`--git-mode`); a momentary state is refused with where it belongs.
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

/// An exact-token encoding (`--tokenizer`).
pub fn parse_encoding(value: &str) -> Result<Encoding, String> {
    Encoding::parse(value).ok_or_else(|| {
        format!("'{value}' is not a supported encoding; valid values: o200k (o200k_base, GPT-4o and later), cl100k (cl100k_base, GPT-4)")
    })
}

/// A positive integer written in decimal digits (`--max-tokens`).
pub fn parse_positive_decimal(value: &str) -> Result<u64, String> {
    match value.trim().parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("'{value}' is not an integer of at least 1")),
    }
}

/// `list_projects`: no arguments.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct ListProjectsArgs {}

impl ToolArgs for ListProjectsArgs {
    const NAME: &'static str = "list_projects";
}

/// `get_tree` and `devprojex tree`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct GetTreeArgs {
    /// A root path or name from list_projects. Optional when the server has exactly one root.
    /// A Git URL is accepted only when the server runs with --allow-remote.
    #[arg(skip)]
    #[schemars(length(max = limits::MAX_PATH_CHARS))]
    pub project: Option<String>,
    /// Branch to check out; valid only when project is a Git URL.
    #[arg(long, requires = "allow_remote")]
    #[schemars(length(max = limits::MAX_BRANCH_CHARS))]
    pub branch: Option<String>,
    /// Project-relative globs using '/' (a file must match one); at most 256 patterns of at
    /// most 512 characters. A pattern without '/' matches names at any depth. Globs only narrow
    /// the selection.
    #[arg(long = "include-patterns", alias = "include", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub include_patterns: Vec<String>,
    /// Project-relative globs using '/' (matching files are removed); at most 256 patterns of at
    /// most 512 characters. A pattern without '/' matches names at any depth. Globs only narrow
    /// the selection.
    #[arg(long = "exclude-patterns", alias = "exclude", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub exclude_patterns: Vec<String>,
    /// Select only files in the Git index (default false). Cannot weaken a tracked profile.
    #[arg(long = "tracked-only")]
    #[serde(default)]
    pub tracked_only: bool,
    /// Narrow to Git state: 'staged', 'changes', or 'diff:<ref>..<ref>'. Content always comes
    /// from the working tree.
    #[arg(long = "git-scope", value_name = "SCOPE")]
    #[schemars(length(max = limits::MAX_GIT_SCOPE_CHARS))]
    pub git_scope: Option<String>,
    /// Remove files strictly larger than this many bytes.
    #[arg(long = "max-file-bytes", value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..))]
    #[schemars(range(min = 1))]
    pub max_file_bytes: Option<u64>,
    /// Show entries down to this depth (top level = 1).
    #[arg(long = "max-depth", value_parser = clap::value_parser!(u64).range(1..))]
    #[schemars(range(min = 1))]
    pub max_depth: Option<u64>,
    /// Output format (default markdown). markdown and text are for reading; json and xml have
    /// escaping guarantees for parsing.
    #[arg(long, value_enum, default_value_t, hide_default_value = true)]
    #[serde(default)]
    pub format: Format,
}

impl ToolArgs for GetTreeArgs {
    const NAME: &'static str = "get_tree";
}

impl GetTreeArgs {
    pub fn request(&self) -> Request {
        Request {
            include_patterns: self.include_patterns.clone(),
            exclude_patterns: self.exclude_patterns.clone(),
            tracked_only: self.tracked_only,
            git_scope: self.git_scope.clone(),
            max_file_bytes: self.max_file_bytes,
            max_depth: self.max_depth.map(|d| d as usize),
            format: self.format,
            ..Request::default()
        }
    }
}

/// `analyze` and `devprojex analyze`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeArgs {
    /// A root path or name from list_projects. Optional when the server has exactly one root.
    /// A Git URL is accepted only when the server runs with --allow-remote.
    #[arg(skip)]
    #[schemars(length(max = limits::MAX_PATH_CHARS))]
    pub project: Option<String>,
    /// Branch to check out; valid only when project is a Git URL.
    #[arg(long, requires = "allow_remote")]
    #[schemars(length(max = limits::MAX_BRANCH_CHARS))]
    pub branch: Option<String>,
    /// Existing project-relative files or folders to narrow to; at most 256 entries.
    #[arg(long = "paths", alias = "path", value_name = "PATH", num_args = 1..)]
    #[schemars(length(max = limits::MAX_PATHS), inner(length(min = 1, max = limits::MAX_PATH_CHARS)))]
    #[serde(default)]
    pub paths: Vec<String>,
    /// Project-relative globs using '/' (a file must match one); at most 256 patterns of at
    /// most 512 characters. A pattern without '/' matches names at any depth. Globs only narrow
    /// the selection.
    #[arg(long = "include-patterns", alias = "include", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub include_patterns: Vec<String>,
    /// Project-relative globs using '/' (matching files are removed); at most 256 patterns of at
    /// most 512 characters. A pattern without '/' matches names at any depth. Globs only narrow
    /// the selection.
    #[arg(long = "exclude-patterns", alias = "exclude", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub exclude_patterns: Vec<String>,
    /// 'standard' (default), 'local', or a portable profile JSON path inside the project.
    #[arg(long)]
    #[schemars(length(max = limits::MAX_PATH_CHARS))]
    pub profile: Option<String>,
    /// Code reduction: full (default) changes nothing, compact removes comments and blank
    /// lines, signatures also collapses function bodies. Combine with max_tokens to fit more
    /// files.
    #[arg(long, value_enum)]
    pub detail: Option<Detail>,
    /// Select only files in the Git index (default false). Cannot weaken a tracked profile.
    #[arg(long = "tracked-only")]
    #[serde(default)]
    pub tracked_only: bool,
    /// Narrow to Git state: 'staged', 'changes', or 'diff:<ref>..<ref>'. Content always comes
    /// from the working tree.
    #[arg(long = "git-scope", value_name = "SCOPE")]
    #[schemars(length(max = limits::MAX_GIT_SCOPE_CHARS))]
    pub git_scope: Option<String>,
    /// How many of the largest files by tokens to list (default 10).
    #[arg(long = "top-files", default_value_t = default_top_files(), hide_default_value = true, value_parser = clap::value_parser!(u64).range(1..=limits::MAX_TOP_FILES as u64))]
    #[schemars(range(min = 1, max = limits::MAX_TOP_FILES))]
    #[serde(default = "default_top_files")]
    pub top_files: u64,
    /// Remove files strictly larger than this many bytes.
    #[arg(long = "max-file-bytes", value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..))]
    #[schemars(range(min = 1))]
    pub max_file_bytes: Option<u64>,
}

impl ToolArgs for AnalyzeArgs {
    const NAME: &'static str = "analyze";
}

impl AnalyzeArgs {
    pub fn request(&self) -> Request {
        Request {
            paths: self.paths.clone(),
            include_patterns: self.include_patterns.clone(),
            exclude_patterns: self.exclude_patterns.clone(),
            profile: self.profile.clone(),
            detail: self.detail,
            tracked_only: self.tracked_only,
            git_scope: self.git_scope.clone(),
            top_files: Some(self.top_files as usize),
            max_file_bytes: self.max_file_bytes,
            ..Request::default()
        }
    }
}

/// `pack_context` and `devprojex pack`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct PackContextArgs {
    /// A root path or name from list_projects. Optional when the server has exactly one root.
    /// A Git URL is accepted only when the server runs with --allow-remote.
    #[arg(skip)]
    #[schemars(length(max = limits::MAX_PATH_CHARS))]
    pub project: Option<String>,
    /// Branch to check out; valid only when project is a Git URL.
    #[arg(long, requires = "allow_remote")]
    #[schemars(length(max = limits::MAX_BRANCH_CHARS))]
    pub branch: Option<String>,
    /// Existing project-relative files or folders to narrow to; at most 256 entries.
    #[arg(long = "paths", alias = "path", value_name = "PATH", num_args = 1..)]
    #[schemars(length(max = limits::MAX_PATHS), inner(length(min = 1, max = limits::MAX_PATH_CHARS)))]
    #[serde(default)]
    pub paths: Vec<String>,
    /// Project-relative globs using '/' (a file must match one); at most 256 patterns of at
    /// most 512 characters. A pattern without '/' matches names at any depth. Globs only narrow
    /// the selection.
    #[arg(long = "include-patterns", alias = "include", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub include_patterns: Vec<String>,
    /// Project-relative globs using '/' (matching files are removed); at most 256 patterns of at
    /// most 512 characters. A pattern without '/' matches names at any depth. Globs only narrow
    /// the selection.
    #[arg(long = "exclude-patterns", alias = "exclude", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub exclude_patterns: Vec<String>,
    /// 'standard' (default), 'local', or a portable profile JSON path inside the project.
    #[arg(long)]
    #[schemars(length(max = limits::MAX_PATH_CHARS))]
    pub profile: Option<String>,
    /// Code reduction: full (default) changes nothing, compact removes comments and blank
    /// lines, signatures also collapses function bodies. Combine with max_tokens to fit more
    /// files.
    #[arg(long, value_enum)]
    pub detail: Option<Detail>,
    /// Select only files in the Git index (default false). Cannot weaken a tracked profile.
    #[arg(long = "tracked-only")]
    #[serde(default)]
    pub tracked_only: bool,
    /// Narrow to Git state: 'staged', 'changes', or 'diff:<ref>..<ref>'. Content always comes
    /// from the working tree.
    #[arg(long = "git-scope", value_name = "SCOPE")]
    #[schemars(length(max = limits::MAX_GIT_SCOPE_CHARS))]
    pub git_scope: Option<String>,
    /// Budget of estimated content tokens (one per four characters, rounded up per file).
    /// Default: unlimited.
    #[arg(long = "max-tokens", value_parser = parse_positive_decimal)]
    #[schemars(range(min = 1))]
    pub max_tokens: Option<u64>,
    /// Remove files strictly larger than this many bytes.
    #[arg(long = "max-file-bytes", value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..))]
    #[schemars(range(min = 1))]
    pub max_file_bytes: Option<u64>,
    /// What the pack contains (default tree-content).
    #[arg(long, value_enum, default_value_t, hide_default_value = true)]
    #[serde(default)]
    pub view: View,
    /// Output format (default markdown). markdown and text are for reading; json and xml have
    /// escaping guarantees for parsing.
    #[arg(long, value_enum, default_value_t, hide_default_value = true)]
    #[serde(default)]
    pub format: Format,
    /// A task in words or code, at most 8,000 characters: files come by relevance and a
    /// max_tokens budget fills best-first (full, then signatures, then names only).
    #[arg(long, value_name = "TEXT")]
    #[schemars(length(min = 1, max = limits::MAX_QUERY_CHARS))]
    pub query: Option<String>,
    /// File order: relevance (to query; the default with one) or centrality (a repository map
    /// without a query). Default: path order.
    #[arg(long, value_enum)]
    pub rank: Option<PackRank>,
}

impl ToolArgs for PackContextArgs {
    const NAME: &'static str = "pack_context";
}

impl PackContextArgs {
    pub fn request(&self) -> Request {
        Request {
            paths: self.paths.clone(),
            include_patterns: self.include_patterns.clone(),
            exclude_patterns: self.exclude_patterns.clone(),
            profile: self.profile.clone(),
            detail: self.detail,
            tracked_only: self.tracked_only,
            git_scope: self.git_scope.clone(),
            max_tokens: self.max_tokens,
            max_file_bytes: self.max_file_bytes,
            view: self.view,
            format: self.format,
            query: self.query.clone(),
            rank: self.rank,
            ..Request::default()
        }
    }
}

/// `read_pack` (no CLI twin: a pack id lives only as long as its server).
#[derive(Debug, Clone, Default, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct ReadPackArgs {
    /// The id from a stored pack_context result, valid until this server process exits.
    #[arg(skip)]
    #[schemars(length(max = limits::MAX_PACK_ID_CHARS))]
    pub pack_id: String,
    /// First line, 1-based and inclusive (default 1).
    #[arg(long = "start-line", value_parser = clap::value_parser!(u64).range(1..))]
    #[schemars(range(min = 1))]
    pub start_line: Option<u64>,
    /// Last line, inclusive; at most 1,000 lines or 50,000 characters are returned per call.
    #[arg(long = "end-line", value_parser = clap::value_parser!(u64).range(1..))]
    #[schemars(range(min = 1))]
    pub end_line: Option<u64>,
}

impl ToolArgs for ReadPackArgs {
    const NAME: &'static str = "read_pack";
}

/// `search_project` and `devprojex search`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct SearchProjectArgs {
    /// A root path or name from list_projects. Optional when the server has exactly one root.
    /// A Git URL is accepted only when the server runs with --allow-remote.
    #[arg(skip)]
    #[schemars(length(max = limits::MAX_PATH_CHARS))]
    pub project: Option<String>,
    /// Branch to check out; valid only when project is a Git URL.
    #[arg(long, requires = "allow_remote")]
    #[schemars(length(max = limits::MAX_BRANCH_CHARS))]
    pub branch: Option<String>,
    /// Regular expression (Rust regex syntax), at most 4,096 characters; searched over redacted
    /// content.
    #[schemars(length(min = 1, max = limits::MAX_REGEX_CHARS))]
    pub pattern: String,
    /// Project-relative globs using '/' (a file must match one); at most 256 patterns of at
    /// most 512 characters. A pattern without '/' matches names at any depth. Globs only narrow
    /// the selection.
    #[arg(long = "include-patterns", alias = "include", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub include_patterns: Vec<String>,
    /// Project-relative globs using '/' (matching files are removed); at most 256 patterns of at
    /// most 512 characters. A pattern without '/' matches names at any depth. Globs only narrow
    /// the selection.
    #[arg(long = "exclude-patterns", alias = "exclude", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub exclude_patterns: Vec<String>,
    /// Select only files in the Git index (default false). Cannot weaken a tracked profile.
    #[arg(long = "tracked-only")]
    #[serde(default)]
    pub tracked_only: bool,
    /// Narrow to Git state: 'staged', 'changes', or 'diff:<ref>..<ref>'. Content always comes
    /// from the working tree.
    #[arg(long = "git-scope", value_name = "SCOPE")]
    #[schemars(length(max = limits::MAX_GIT_SCOPE_CHARS))]
    pub git_scope: Option<String>,
    /// Remove files strictly larger than this many bytes.
    #[arg(long = "max-file-bytes", value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..))]
    #[schemars(range(min = 1))]
    pub max_file_bytes: Option<u64>,
    /// Lines of context around each match (default 2).
    #[arg(long = "context-lines", default_value_t = default_context_lines(), hide_default_value = true, value_parser = clap::value_parser!(u64).range(0..=limits::MAX_CONTEXT_LINES as u64))]
    #[schemars(range(min = 0, max = limits::MAX_CONTEXT_LINES))]
    #[serde(default = "default_context_lines")]
    pub context_lines: u64,
    /// Case-insensitive matching (default true).
    #[arg(long = "ignore-case", value_name = "BOOL", action = clap::ArgAction::Set, num_args = 0..=1, require_equals = true, default_value_t = true, default_missing_value = "true", hide_default_value = true)]
    #[serde(default = "yes")]
    pub ignore_case: bool,
    /// Maximum matching lines (default 50, at most 200).
    #[arg(long = "max-results", default_value_t = default_search_results(), hide_default_value = true, value_parser = clap::value_parser!(u64).range(1..=limits::MAX_SEARCH_RESULTS as u64))]
    #[schemars(range(min = 1, max = limits::MAX_SEARCH_RESULTS))]
    #[serde(default = "default_search_results")]
    pub max_results: u64,
}

impl ToolArgs for SearchProjectArgs {
    const NAME: &'static str = "search_project";

    /// A pattern that is missing, not a string or too long is an invalid pattern.
    fn argument_error(argument: &str, message: String) -> DpxError {
        if argument == "pattern" {
            DpxError::new(ErrorKind::InvalidPattern, message)
        } else {
            DpxError::invalid_arguments(message)
        }
    }
}

impl SearchProjectArgs {
    pub fn request(&self) -> Request {
        Request {
            include_patterns: self.include_patterns.clone(),
            exclude_patterns: self.exclude_patterns.clone(),
            tracked_only: self.tracked_only,
            git_scope: self.git_scope.clone(),
            max_file_bytes: self.max_file_bytes,
            ..Request::default()
        }
    }
}

/// `get_file` (no CLI twin yet; the flags are ready for one).
#[derive(Debug, Clone, Default, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct GetFileArgs {
    /// A root path or name from list_projects. Optional when the server has exactly one root.
    /// A Git URL is accepted only when the server runs with --allow-remote.
    #[arg(skip)]
    #[schemars(length(max = limits::MAX_PATH_CHARS))]
    pub project: Option<String>,
    /// Branch to check out; valid only when project is a Git URL.
    #[arg(long, requires = "allow_remote")]
    #[schemars(length(max = limits::MAX_BRANCH_CHARS))]
    pub branch: Option<String>,
    /// Project-relative path of one file.
    #[schemars(length(min = 1, max = limits::MAX_PATH_CHARS))]
    pub path: String,
    /// First line, 1-based and inclusive (default 1).
    #[arg(long = "start-line", value_parser = clap::value_parser!(u64).range(1..))]
    #[schemars(range(min = 1))]
    pub start_line: Option<u64>,
    /// Last line, inclusive; at most 1,000 lines or 50,000 characters are returned per call.
    #[arg(long = "end-line", value_parser = clap::value_parser!(u64).range(1..))]
    #[schemars(range(min = 1))]
    pub end_line: Option<u64>,
}

impl ToolArgs for GetFileArgs {
    const NAME: &'static str = "get_file";
}

/// `find_symbol` and `devprojex symbols`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct FindSymbolArgs {
    /// A root path or name from list_projects. Optional when the server has exactly one root.
    /// A Git URL is accepted only when the server runs with --allow-remote.
    #[arg(skip)]
    #[schemars(length(max = limits::MAX_PATH_CHARS))]
    pub project: Option<String>,
    /// Branch to check out; valid only when project is a Git URL.
    #[arg(long, requires = "allow_remote")]
    #[schemars(length(max = limits::MAX_BRANCH_CHARS))]
    pub branch: Option<String>,
    /// The name to look up, case-sensitive, such as 'copy_process'. Qualify it to narrow by
    /// container: 'Parser.parse', 'net::Parser::parse'.
    #[schemars(length(min = 1, max = crate::symbols::limits::MAX_NAME_CHARS))]
    pub name: String,
    /// Only definitions of this kind (default: all). 'trait' and 'interface' match each other.
    #[arg(long, value_enum)]
    pub kind: Option<Kind>,
    /// How name is compared with definition names (default exact).
    #[arg(long = "match", value_enum, default_value_t, hide_default_value = true)]
    #[serde(rename = "match", default)]
    pub match_mode: MatchMode,
    /// Project-relative globs using '/' (a file must match one); at most 256 patterns of at
    /// most 512 characters. A pattern without '/' matches names at any depth. Globs only narrow
    /// the selection.
    #[arg(long = "include-patterns", alias = "include", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub include_patterns: Vec<String>,
    /// Project-relative globs using '/' (matching files are removed); at most 256 patterns of at
    /// most 512 characters. A pattern without '/' matches names at any depth. Globs only narrow
    /// the selection.
    #[arg(long = "exclude-patterns", alias = "exclude", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub exclude_patterns: Vec<String>,
    /// Select only files in the Git index (default false). Cannot weaken a tracked profile.
    #[arg(long = "tracked-only")]
    #[serde(default)]
    pub tracked_only: bool,
    /// Narrow to Git state: 'staged', 'changes', or 'diff:<ref>..<ref>'. Content always comes
    /// from the working tree.
    #[arg(long = "git-scope", value_name = "SCOPE")]
    #[schemars(length(max = limits::MAX_GIT_SCOPE_CHARS))]
    pub git_scope: Option<String>,
    /// Maximum definitions (default 50, at most 200).
    #[arg(long = "max-results", default_value_t = default_symbol_results(), hide_default_value = true, value_parser = clap::value_parser!(u64).range(1..=crate::symbols::limits::MAX_RESULTS as u64))]
    #[schemars(range(min = 1, max = crate::symbols::limits::MAX_RESULTS))]
    #[serde(default = "default_symbol_results")]
    pub max_results: u64,
}

impl ToolArgs for FindSymbolArgs {
    const NAME: &'static str = "find_symbol";
}

impl FindSymbolArgs {
    pub fn request(&self) -> Request {
        Request {
            include_patterns: self.include_patterns.clone(),
            exclude_patterns: self.exclude_patterns.clone(),
            tracked_only: self.tracked_only,
            git_scope: self.git_scope.clone(),
            ..Request::default()
        }
    }
}

/// `related_files` and `devprojex related`. It takes the selection arguments `devprojex
/// related` takes: the import index covers the selected files.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct RelatedFilesArgs {
    /// A root path or name from list_projects. Optional when the server has exactly one root.
    /// A Git URL is accepted only when the server runs with --allow-remote.
    #[arg(skip)]
    #[schemars(length(max = limits::MAX_PATH_CHARS))]
    pub project: Option<String>,
    /// Branch to check out; valid only when project is a Git URL.
    #[arg(long, requires = "allow_remote")]
    #[schemars(length(max = limits::MAX_BRANCH_CHARS))]
    pub branch: Option<String>,
    /// Project-relative path of the source file whose imports and importers to list.
    #[arg(help = "The source file (relative to the current directory, or absolute)")]
    #[schemars(length(min = 1, max = limits::MAX_PATH_CHARS))]
    pub path: String,
    /// imports: what the file uses; importers: what uses it; both (default).
    #[arg(long, value_enum, default_value_t, hide_default_value = true)]
    #[serde(default)]
    pub direction: Direction,
    /// Follow imports this many steps (default 1, at most 3).
    #[arg(long, default_value_t = default_related_depth(), hide_default_value = true, value_parser = clap::value_parser!(u64).range(1..=crate::symbols::limits::MAX_DEPTH as u64))]
    #[schemars(range(min = 1, max = crate::symbols::limits::MAX_DEPTH))]
    #[serde(default = "default_related_depth")]
    pub depth: u64,
    /// Existing project-relative files or folders to narrow to; at most 256 entries.
    #[arg(long = "paths", alias = "path", value_name = "PATH", num_args = 1..)]
    #[schemars(length(max = limits::MAX_PATHS), inner(length(min = 1, max = limits::MAX_PATH_CHARS)))]
    #[serde(default)]
    pub paths: Vec<String>,
    /// Project-relative globs using '/' (a file must match one); at most 256 patterns of at
    /// most 512 characters. A pattern without '/' matches names at any depth. Globs only narrow
    /// the selection.
    #[arg(long = "include-patterns", alias = "include", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub include_patterns: Vec<String>,
    /// Project-relative globs using '/' (matching files are removed); at most 256 patterns of at
    /// most 512 characters. A pattern without '/' matches names at any depth. Globs only narrow
    /// the selection.
    #[arg(long = "exclude-patterns", alias = "exclude", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub exclude_patterns: Vec<String>,
    /// 'standard' (default), 'local', or a portable profile JSON path inside the project.
    #[arg(long)]
    #[schemars(length(max = limits::MAX_PATH_CHARS))]
    pub profile: Option<String>,
    /// Select only files in the Git index (default false). Cannot weaken a tracked profile.
    #[arg(long = "tracked-only")]
    #[serde(default)]
    pub tracked_only: bool,
    /// Narrow to Git state: 'staged', 'changes', or 'diff:<ref>..<ref>'. Content always comes
    /// from the working tree.
    #[arg(long = "git-scope", value_name = "SCOPE")]
    #[schemars(length(max = limits::MAX_GIT_SCOPE_CHARS))]
    pub git_scope: Option<String>,
    /// Remove files strictly larger than this many bytes.
    #[arg(long = "max-file-bytes", value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..))]
    #[schemars(range(min = 1))]
    pub max_file_bytes: Option<u64>,
    /// Maximum related files, imports and importers together (default 50, at most 200).
    #[arg(long = "max-results", default_value_t = default_symbol_results(), hide_default_value = true, value_parser = clap::value_parser!(u64).range(1..=crate::symbols::limits::MAX_RESULTS as u64))]
    #[schemars(range(min = 1, max = crate::symbols::limits::MAX_RESULTS))]
    #[serde(default = "default_symbol_results")]
    pub max_results: u64,
}

impl ToolArgs for RelatedFilesArgs {
    const NAME: &'static str = "related_files";
}

impl RelatedFilesArgs {
    pub fn request(&self) -> Request {
        Request {
            paths: self.paths.clone(),
            include_patterns: self.include_patterns.clone(),
            exclude_patterns: self.exclude_patterns.clone(),
            profile: self.profile.clone(),
            tracked_only: self.tracked_only,
            git_scope: self.git_scope.clone(),
            max_file_bytes: self.max_file_bytes,
            ..Request::default()
        }
    }
}

fn default_relevant_results() -> u64 {
    limits::DEFAULT_RELEVANT_RESULTS as u64
}

/// `relevant_files` and `devprojex relevant`. Selection arguments as `search_project`'s.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct RelevantFilesArgs {
    /// A root path or name from list_projects. Optional when the server has exactly one root.
    /// A Git URL is accepted only when the server runs with --allow-remote.
    #[arg(skip)]
    #[schemars(length(max = limits::MAX_PATH_CHARS))]
    pub project: Option<String>,
    /// Branch to check out; valid only when project is a Git URL.
    #[arg(long, requires = "allow_remote")]
    #[schemars(length(max = limits::MAX_BRANCH_CHARS))]
    pub branch: Option<String>,
    /// The task in natural language or code (an issue, a commit message, identifiers), at most
    /// 8,000 characters.
    #[arg(
        long,
        value_name = "TEXT",
        default_value = "",
        hide_default_value = true
    )]
    #[schemars(length(min = 1, max = limits::MAX_QUERY_CHARS))]
    pub query: String,
    /// Project-relative globs using '/' (a file must match one); at most 256 patterns of at
    /// most 512 characters. A pattern without '/' matches names at any depth. Globs only narrow
    /// the selection.
    #[arg(long = "include-patterns", alias = "include", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub include_patterns: Vec<String>,
    /// Project-relative globs using '/' (matching files are removed); at most 256 patterns of at
    /// most 512 characters. A pattern without '/' matches names at any depth. Globs only narrow
    /// the selection.
    #[arg(long = "exclude-patterns", alias = "exclude", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub exclude_patterns: Vec<String>,
    /// Select only files in the Git index (default false). Cannot weaken a tracked profile.
    #[arg(long = "tracked-only")]
    #[serde(default)]
    pub tracked_only: bool,
    /// Narrow to Git state: 'staged', 'changes', or 'diff:<ref>..<ref>'. Content always comes
    /// from the working tree.
    #[arg(long = "git-scope", value_name = "SCOPE")]
    #[schemars(length(max = limits::MAX_GIT_SCOPE_CHARS))]
    pub git_scope: Option<String>,
    /// Remove files strictly larger than this many bytes.
    #[arg(long = "max-file-bytes", value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..))]
    #[schemars(range(min = 1))]
    pub max_file_bytes: Option<u64>,
    /// Maximum ranked files (default 20, at most 200).
    #[arg(long = "max-results", default_value_t = default_relevant_results(), hide_default_value = true, value_parser = clap::value_parser!(u64).range(1..=limits::MAX_RELEVANT_RESULTS as u64))]
    #[schemars(range(min = 1, max = limits::MAX_RELEVANT_RESULTS))]
    #[serde(default = "default_relevant_results")]
    pub max_results: u64,
}

impl ToolArgs for RelevantFilesArgs {
    const NAME: &'static str = "relevant_files";
}

impl RelevantFilesArgs {
    pub fn request(&self) -> Request {
        Request {
            include_patterns: self.include_patterns.clone(),
            exclude_patterns: self.exclude_patterns.clone(),
            tracked_only: self.tracked_only,
            git_scope: self.git_scope.clone(),
            max_file_bytes: self.max_file_bytes,
            ..Request::default()
        }
    }
}
