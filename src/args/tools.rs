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
use crate::engine::{Request, SearchOptions, SearchOutput};
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
    crate::limits::DEFAULT_SYMBOL_RESULTS as u64
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
    /// Root path or name from list_projects (or a Git URL); optional with one root.
    #[arg(skip)]
    #[schemars(length(max = limits::MAX_PATH_CHARS))]
    pub project: Option<String>,
    /// Branch of a Git URL project.
    #[arg(long, requires = "allow_remote")]
    #[schemars(length(max = limits::MAX_BRANCH_CHARS))]
    pub branch: Option<String>,
    /// Globs files must match (without '/': at any depth).
    #[arg(long = "include-patterns", alias = "include", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub include_patterns: Vec<String>,
    /// Globs of files to leave out.
    #[arg(long = "exclude-patterns", alias = "exclude", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub exclude_patterns: Vec<String>,
    /// Only files in the Git index.
    #[arg(long = "tracked-only")]
    #[serde(default)]
    pub tracked_only: bool,
    /// Only files changed: staged, changes, or diff:<ref>..<ref>.
    #[arg(long = "git-scope", value_name = "SCOPE")]
    #[schemars(length(max = limits::MAX_GIT_SCOPE_CHARS))]
    pub git_scope: Option<String>,
    /// Skip files larger than this many bytes.
    #[arg(long = "max-file-bytes", value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..))]
    #[schemars(range(min = 1))]
    pub max_file_bytes: Option<u64>,
    /// Depth to show (top level = 1).
    #[arg(long = "max-depth", value_parser = clap::value_parser!(u64).range(1..))]
    #[schemars(range(min = 1))]
    pub max_depth: Option<u64>,
    /// Default markdown.
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
    /// Root path or name from list_projects (or a Git URL); optional with one root.
    #[arg(skip)]
    #[schemars(length(max = limits::MAX_PATH_CHARS))]
    pub project: Option<String>,
    /// Branch of a Git URL project.
    #[arg(long, requires = "allow_remote")]
    #[schemars(length(max = limits::MAX_BRANCH_CHARS))]
    pub branch: Option<String>,
    /// Project-relative files or folders to narrow to.
    #[arg(long = "paths", alias = "path", value_name = "PATH", num_args = 1..)]
    #[schemars(length(max = limits::MAX_PATHS), inner(length(min = 1, max = limits::MAX_PATH_CHARS)))]
    #[serde(default)]
    pub paths: Vec<String>,
    /// Globs files must match (without '/': at any depth).
    #[arg(long = "include-patterns", alias = "include", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub include_patterns: Vec<String>,
    /// Globs of files to leave out.
    #[arg(long = "exclude-patterns", alias = "exclude", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub exclude_patterns: Vec<String>,
    /// standard (default), local, or a profile JSON path in the project.
    #[arg(long)]
    #[schemars(length(max = limits::MAX_PATH_CHARS))]
    pub profile: Option<String>,
    /// full (default); compact drops comments and blank lines; signatures also function bodies.
    #[arg(long, value_enum)]
    pub detail: Option<Detail>,
    /// Only files in the Git index.
    #[arg(long = "tracked-only")]
    #[serde(default)]
    pub tracked_only: bool,
    /// Only files changed: staged, changes, or diff:<ref>..<ref>.
    #[arg(long = "git-scope", value_name = "SCOPE")]
    #[schemars(length(max = limits::MAX_GIT_SCOPE_CHARS))]
    pub git_scope: Option<String>,
    /// Largest files to list (default 10).
    #[arg(long = "top-files", default_value_t = default_top_files(), hide_default_value = true, value_parser = clap::value_parser!(u64).range(1..=limits::MAX_TOP_FILES as u64))]
    #[schemars(range(min = 1, max = limits::MAX_TOP_FILES))]
    #[serde(default = "default_top_files")]
    pub top_files: u64,
    /// Skip files larger than this many bytes.
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
    /// Root path or name from list_projects (or a Git URL); optional with one root.
    #[arg(skip)]
    #[schemars(length(max = limits::MAX_PATH_CHARS))]
    pub project: Option<String>,
    /// Branch of a Git URL project.
    #[arg(long, requires = "allow_remote")]
    #[schemars(length(max = limits::MAX_BRANCH_CHARS))]
    pub branch: Option<String>,
    /// Project-relative files or folders to narrow to.
    #[arg(long = "paths", alias = "path", value_name = "PATH", num_args = 1..)]
    #[schemars(length(max = limits::MAX_PATHS), inner(length(min = 1, max = limits::MAX_PATH_CHARS)))]
    #[serde(default)]
    pub paths: Vec<String>,
    /// Globs files must match (without '/': at any depth).
    #[arg(long = "include-patterns", alias = "include", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub include_patterns: Vec<String>,
    /// Globs of files to leave out.
    #[arg(long = "exclude-patterns", alias = "exclude", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub exclude_patterns: Vec<String>,
    /// standard (default), local, or a profile JSON path in the project.
    #[arg(long)]
    #[schemars(length(max = limits::MAX_PATH_CHARS))]
    pub profile: Option<String>,
    /// full (default); compact drops comments and blank lines; signatures also function bodies.
    #[arg(long, value_enum)]
    pub detail: Option<Detail>,
    /// Only files in the Git index.
    #[arg(long = "tracked-only")]
    #[serde(default)]
    pub tracked_only: bool,
    /// Only files changed: staged, changes, or diff:<ref>..<ref>.
    #[arg(long = "git-scope", value_name = "SCOPE")]
    #[schemars(length(max = limits::MAX_GIT_SCOPE_CHARS))]
    pub git_scope: Option<String>,
    /// Estimated content tokens (characters / 4 per file); default unlimited.
    #[arg(long = "max-tokens", value_parser = parse_positive_decimal)]
    #[schemars(range(min = 1))]
    pub max_tokens: Option<u64>,
    /// Skip files larger than this many bytes.
    #[arg(long = "max-file-bytes", value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..))]
    #[schemars(range(min = 1))]
    pub max_file_bytes: Option<u64>,
    /// Default tree-content; diff needs git_scope.
    #[arg(long, value_enum, default_value_t, hide_default_value = true)]
    #[serde(default)]
    pub view: View,
    /// Default markdown.
    #[arg(long, value_enum, default_value_t, hide_default_value = true)]
    #[serde(default)]
    pub format: Format,
    /// Make max_tokens exact in this encoding.
    #[arg(long, value_enum, value_name = "ENCODING", requires = "max_tokens")]
    pub tokenizer: Option<Tokenizer>,
    /// A task: files by relevance, max_tokens filled best-first (full, signatures, names).
    #[arg(long, value_name = "TEXT")]
    #[schemars(length(min = 1, max = limits::MAX_QUERY_CHARS))]
    pub query: Option<String>,
    /// relevance (default with query), centrality (repository map), paths (as listed).
    #[arg(long, value_enum)]
    pub rank: Option<PackRank>,
    /// {glob: detail}.
    #[arg(long = "detail-overrides", visible_alias = "detail-override", value_name = "GLOB=DETAIL", value_parser = parse_detail_override)]
    #[serde(default, deserialize_with = "detail_override_map")]
    #[schemars(schema_with = "detail_overrides_schema")]
    pub detail_overrides: Vec<DetailOverride>,
}

/// One `detail_overrides` entry: files matching `glob` take `detail`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DetailOverride {
    pub glob: String,
    pub detail: Detail,
}

/// `detail_overrides`' schema: detail values (the checks bound the glob keys by
/// [`limits::MAX_GLOB_CHARS`]; the tool list leaves that out to stay small).
fn detail_overrides_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "object",
        "maxProperties": limits::MAX_DETAIL_OVERRIDES,
        "additionalProperties": {"enum": ["full", "compact", "signatures"]},
    })
}

/// `--detail-override GLOB=DETAIL`.
fn parse_detail_override(value: &str) -> Result<DetailOverride, String> {
    let (glob, detail) = value.rsplit_once('=').ok_or_else(|| {
        format!("'{value}' is not GLOB=DETAIL (detail: full, compact or signatures)")
    })?;
    let detail = Detail::parse(detail)
        .ok_or_else(|| format!("'{detail}' is not a detail; valid: full, compact, signatures"))?;
    Ok(DetailOverride {
        glob: glob.to_string(),
        detail,
    })
}

/// `detail_overrides` as MCP sends it: an object from glob to detail.
fn detail_override_map<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<DetailOverride>, D::Error> {
    let map = std::collections::BTreeMap::<String, Detail>::deserialize(deserializer)?;
    Ok(map
        .into_iter()
        .map(|(glob, detail)| DetailOverride { glob, detail })
        .collect())
}

/// An encoding for exact token counts (`--tokenizer`, `pack_context`'s `tokenizer`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Tokenizer {
    #[serde(alias = "o200k_base")]
    #[value(alias = "o200k_base")]
    O200k,
    #[serde(alias = "cl100k_base")]
    #[value(alias = "cl100k_base")]
    Cl100k,
}

impl Tokenizer {
    pub fn encoding(self) -> Encoding {
        match self {
            Self::O200k => Encoding::O200k,
            Self::Cl100k => Encoding::Cl100k,
        }
    }
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
            detail_overrides: self
                .detail_overrides
                .iter()
                .map(|o| (o.glob.clone(), o.detail))
                .collect(),
            ..Request::default()
        }
    }
}

/// `read_pack` (no CLI twin: a pack id lives only as long as its server).
#[derive(Debug, Clone, Default, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct ReadPackArgs {
    /// From a stored pack_context result.
    #[arg(skip)]
    #[schemars(length(max = limits::MAX_PACK_ID_CHARS))]
    pub pack_id: String,
    /// First line, 1-based (default 1).
    #[arg(long = "start-line", value_parser = clap::value_parser!(u64).range(1..))]
    #[schemars(range(min = 1))]
    pub start_line: Option<u64>,
    /// Last line, inclusive.
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
    /// Root path or name from list_projects (or a Git URL); optional with one root.
    #[arg(skip)]
    #[schemars(length(max = limits::MAX_PATH_CHARS))]
    pub project: Option<String>,
    /// Branch of a Git URL project.
    #[arg(long, requires = "allow_remote")]
    #[schemars(length(max = limits::MAX_BRANCH_CHARS))]
    pub branch: Option<String>,
    /// Regex (Rust syntax), searched over redacted content.
    #[schemars(length(min = 1, max = limits::MAX_REGEX_CHARS))]
    pub pattern: String,
    /// Globs files must match (without '/': at any depth).
    #[arg(long = "include-patterns", alias = "include", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub include_patterns: Vec<String>,
    /// Globs of files to leave out.
    #[arg(long = "exclude-patterns", alias = "exclude", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub exclude_patterns: Vec<String>,
    /// Only files in the Git index.
    #[arg(long = "tracked-only")]
    #[serde(default)]
    pub tracked_only: bool,
    /// Only files changed: staged, changes, or diff:<ref>..<ref>.
    #[arg(long = "git-scope", value_name = "SCOPE")]
    #[schemars(length(max = limits::MAX_GIT_SCOPE_CHARS))]
    pub git_scope: Option<String>,
    /// Skip files larger than this many bytes.
    #[arg(long = "max-file-bytes", value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..))]
    #[schemars(range(min = 1))]
    pub max_file_bytes: Option<u64>,
    /// Context lines around a match (default 2).
    #[arg(long = "context-lines", default_value_t = default_context_lines(), hide_default_value = true, value_parser = clap::value_parser!(u64).range(0..=limits::MAX_CONTEXT_LINES as u64))]
    #[schemars(range(min = 0, max = limits::MAX_CONTEXT_LINES))]
    #[serde(default = "default_context_lines")]
    pub context_lines: u64,
    /// Case-insensitive matching (default true).
    #[arg(long = "ignore-case", value_name = "BOOL", action = clap::ArgAction::Set, num_args = 0..=1, require_equals = true, default_value_t = true, default_missing_value = "true", hide_default_value = true)]
    #[serde(default = "yes")]
    pub ignore_case: bool,
    /// Maximum matching lines or files (default 50).
    #[arg(long = "max-results", default_value_t = default_search_results(), hide_default_value = true, value_parser = clap::value_parser!(u64).range(1..=limits::MAX_SEARCH_RESULTS as u64))]
    #[schemars(range(min = 1, max = limits::MAX_SEARCH_RESULTS))]
    #[serde(default = "default_search_results")]
    pub max_results: u64,
    /// Matching lines (or files) to skip; a capped answer names the next offset.
    #[arg(long, default_value_t = 0, hide_default_value = true, value_parser = clap::value_parser!(u64).range(0..=limits::MAX_SEARCH_OFFSET as u64))]
    #[schemars(range(max = limits::MAX_SEARCH_OFFSET))]
    #[serde(default)]
    pub offset: u64,
    /// files: paths; count: path:count, most first (default matches).
    #[arg(long, value_enum, default_value_t, hide_default_value = true)]
    #[serde(default)]
    pub output: SearchOutput,
    /// Treat pattern as a fixed string, not a regex.
    #[arg(long)]
    #[serde(default)]
    pub literal: bool,
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
    /// The search as these arguments ask for it, stopping at `deadline`.
    pub fn options(&self, deadline: Option<std::time::Duration>) -> SearchOptions {
        SearchOptions {
            pattern: self.pattern.clone(),
            ignore_case: self.ignore_case,
            context_lines: self.context_lines as usize,
            max_results: self.max_results as usize,
            deadline,
            literal: self.literal,
            offset: self.offset as usize,
            output: self.output,
            count_left_out: false,
        }
    }

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

/// `get_file` and `devprojex get`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct GetFileArgs {
    /// Root path or name from list_projects (or a Git URL); optional with one root.
    #[arg(skip)]
    #[schemars(length(max = limits::MAX_PATH_CHARS))]
    pub project: Option<String>,
    /// Branch of a Git URL project.
    #[arg(long, requires = "allow_remote")]
    #[schemars(length(max = limits::MAX_BRANCH_CHARS))]
    pub branch: Option<String>,
    /// Project-relative file path.
    #[schemars(length(min = 1, max = limits::MAX_PATH_CHARS))]
    pub path: String,
    /// First line, 1-based (default 1).
    #[arg(long = "start-line", value_parser = clap::value_parser!(u64).range(1..))]
    #[schemars(range(min = 1))]
    pub start_line: Option<u64>,
    /// Last line, inclusive.
    #[arg(long = "end-line", value_parser = clap::value_parser!(u64).range(1..))]
    #[schemars(range(min = 1))]
    pub end_line: Option<u64>,
    /// Prefix lines with their number and a tab, as cat -n.
    #[arg(long = "line-numbers")]
    #[serde(default)]
    pub line_numbers: bool,
}

impl ToolArgs for GetFileArgs {
    const NAME: &'static str = "get_file";
}

/// `find_symbol` and `devprojex symbols`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct FindSymbolArgs {
    /// Root path or name from list_projects (or a Git URL); optional with one root.
    #[arg(skip)]
    #[schemars(length(max = limits::MAX_PATH_CHARS))]
    pub project: Option<String>,
    /// Branch of a Git URL project.
    #[arg(long, requires = "allow_remote")]
    #[schemars(length(max = limits::MAX_BRANCH_CHARS))]
    pub branch: Option<String>,
    /// Case-sensitive; qualify to narrow: Parser.parse, net::Parser::parse.
    #[arg(required_unless_present = "outline")]
    #[schemars(length(min = 1, max = crate::limits::MAX_SYMBOL_NAME_CHARS))]
    pub name: Option<String>,
    /// Only this kind; trait matches interface.
    #[arg(long, value_enum)]
    pub kind: Option<Kind>,
    /// Name comparison (default exact).
    #[arg(long = "match", value_enum, default_value_t, hide_default_value = true)]
    #[serde(rename = "match", default)]
    pub match_mode: MatchMode,
    /// Globs files must match (without '/': at any depth).
    #[arg(long = "include-patterns", alias = "include", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub include_patterns: Vec<String>,
    /// Globs of files to leave out.
    #[arg(long = "exclude-patterns", alias = "exclude", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub exclude_patterns: Vec<String>,
    /// Only files in the Git index.
    #[arg(long = "tracked-only")]
    #[serde(default)]
    pub tracked_only: bool,
    /// Only files changed: staged, changes, or diff:<ref>..<ref>.
    #[arg(long = "git-scope", value_name = "SCOPE")]
    #[schemars(length(max = limits::MAX_GIT_SCOPE_CHARS))]
    pub git_scope: Option<String>,
    /// Maximum definitions (default 50).
    #[arg(long = "max-results", default_value_t = default_symbol_results(), hide_default_value = true, value_parser = clap::value_parser!(u64).range(1..=crate::limits::MAX_SYMBOL_RESULTS as u64))]
    #[schemars(range(min = 1, max = crate::limits::MAX_SYMBOL_RESULTS))]
    #[serde(default = "default_symbol_results")]
    pub max_results: u64,
    /// Add bodies (up to 400 lines).
    #[arg(long = "include-body")]
    #[serde(default)]
    pub include_body: bool,
    /// A file to outline instead of name.
    #[arg(long, value_name = "FILE", conflicts_with = "name")]
    #[schemars(length(min = 1, max = limits::MAX_PATH_CHARS))]
    pub outline: Option<String>,
}

impl ToolArgs for FindSymbolArgs {
    const NAME: &'static str = "find_symbol";
}

impl FindSymbolArgs {
    /// The name to look up, or `""` with `outline`: exactly one of the two is given.
    pub fn lookup(&self) -> crate::error::Result<&str> {
        match (&self.name, &self.outline) {
            (Some(name), None) => Ok(name),
            (None, Some(_)) if self.include_body => Err(crate::error::DpxError::invalid_arguments(
                "include_body needs a name: outline lists one file's definitions with their lines; pass name (and include_body) to read one",
            )),
            (None, Some(_)) => Ok(""),
            (Some(_), Some(_)) => Err(crate::error::DpxError::invalid_arguments(
                "pass name or outline, not both: name looks a definition up in every file, outline lists one file's definitions",
            )),
            (None, None) => Err(crate::error::DpxError::invalid_arguments(
                "find_symbol needs name (a definition to look up, such as 'Parser.parse') or outline (a project-relative file whose definitions to list)",
            )),
        }
    }

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
    /// Root path or name from list_projects (or a Git URL); optional with one root.
    #[arg(skip)]
    #[schemars(length(max = limits::MAX_PATH_CHARS))]
    pub project: Option<String>,
    /// Branch of a Git URL project.
    #[arg(long, requires = "allow_remote")]
    #[schemars(length(max = limits::MAX_BRANCH_CHARS))]
    pub branch: Option<String>,
    /// Project-relative source file.
    #[arg(help = "The source file (relative to the current directory, or absolute)")]
    #[schemars(length(min = 1, max = limits::MAX_PATH_CHARS))]
    pub path: String,
    /// imports, importers, or both (default).
    #[arg(long, value_enum, default_value_t, hide_default_value = true)]
    #[serde(default)]
    pub direction: Direction,
    /// Import steps to follow (default 1).
    #[arg(long, default_value_t = default_related_depth(), hide_default_value = true, value_parser = clap::value_parser!(u64).range(1..=crate::limits::MAX_RELATED_DEPTH as u64))]
    #[schemars(range(min = 1, max = crate::limits::MAX_RELATED_DEPTH))]
    #[serde(default = "default_related_depth")]
    pub depth: u64,
    /// Project-relative files or folders to narrow to.
    #[arg(long = "paths", alias = "path", value_name = "PATH", num_args = 1..)]
    #[schemars(length(max = limits::MAX_PATHS), inner(length(min = 1, max = limits::MAX_PATH_CHARS)))]
    #[serde(default)]
    pub paths: Vec<String>,
    /// Globs files must match (without '/': at any depth).
    #[arg(long = "include-patterns", alias = "include", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub include_patterns: Vec<String>,
    /// Globs of files to leave out.
    #[arg(long = "exclude-patterns", alias = "exclude", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub exclude_patterns: Vec<String>,
    /// standard (default), local, or a profile JSON path in the project.
    #[arg(long)]
    #[schemars(length(max = limits::MAX_PATH_CHARS))]
    pub profile: Option<String>,
    /// Only files in the Git index.
    #[arg(long = "tracked-only")]
    #[serde(default)]
    pub tracked_only: bool,
    /// Only files changed: staged, changes, or diff:<ref>..<ref>.
    #[arg(long = "git-scope", value_name = "SCOPE")]
    #[schemars(length(max = limits::MAX_GIT_SCOPE_CHARS))]
    pub git_scope: Option<String>,
    /// Skip files larger than this many bytes.
    #[arg(long = "max-file-bytes", value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..))]
    #[schemars(range(min = 1))]
    pub max_file_bytes: Option<u64>,
    /// Maximum related files (default 50).
    #[arg(long = "max-results", default_value_t = default_symbol_results(), hide_default_value = true, value_parser = clap::value_parser!(u64).range(1..=crate::limits::MAX_SYMBOL_RESULTS as u64))]
    #[schemars(range(min = 1, max = crate::limits::MAX_SYMBOL_RESULTS))]
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

fn default_reference_results() -> u64 {
    limits::DEFAULT_REFERENCE_RESULTS as u64
}

fn default_true() -> bool {
    true
}

/// `find_references` and `devprojex references`.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema, Args)]
#[serde(deny_unknown_fields)]
pub struct FindReferencesArgs {
    /// Root path or name from list_projects (or a Git URL); optional with one root.
    #[arg(skip)]
    #[schemars(length(max = limits::MAX_PATH_CHARS))]
    pub project: Option<String>,
    /// Branch of a Git URL project.
    #[arg(long, requires = "allow_remote")]
    #[schemars(length(max = limits::MAX_BRANCH_CHARS))]
    pub branch: Option<String>,
    /// Case-sensitive; qualify to narrow: Parser.parse, net::Parser::parse.
    #[schemars(length(min = 1, max = limits::MAX_SYMBOL_NAME_CHARS))]
    pub name: String,
    /// path:line of the definition meant.
    #[arg(long, value_name = "FILE:LINE")]
    #[schemars(length(min = 1, max = limits::MAX_PATH_CHARS))]
    pub at: Option<String>,
    /// Only this kind; trait matches interface.
    #[arg(long, value_enum)]
    pub kind: Option<Kind>,
    /// Count imports (default true).
    #[arg(long = "include-imports", default_value_t = true, action = clap::ArgAction::Set, hide_default_value = true, value_name = "BOOL")]
    #[serde(default = "default_true")]
    pub include_imports: bool,
    /// Globs files must match (without '/': at any depth).
    #[arg(long = "include-patterns", alias = "include", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub include_patterns: Vec<String>,
    /// Globs of files to leave out.
    #[arg(long = "exclude-patterns", alias = "exclude", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub exclude_patterns: Vec<String>,
    /// Only files in the Git index.
    #[arg(long = "tracked-only")]
    #[serde(default)]
    pub tracked_only: bool,
    /// Only files changed: staged, changes, or diff:<ref>..<ref>.
    #[arg(long = "git-scope", value_name = "SCOPE")]
    #[schemars(length(max = limits::MAX_GIT_SCOPE_CHARS))]
    pub git_scope: Option<String>,
    /// References per page (default 100).
    #[arg(long = "max-results", default_value_t = default_reference_results(), hide_default_value = true, value_parser = clap::value_parser!(u64).range(1..=limits::MAX_REFERENCE_RESULTS as u64))]
    #[schemars(range(min = 1, max = limits::MAX_REFERENCE_RESULTS))]
    #[serde(default = "default_reference_results")]
    pub max_results: u64,
    /// References to skip.
    #[arg(long, default_value_t = 0, hide_default_value = true)]
    #[schemars(range(min = 0, max = limits::MAX_REFERENCE_OFFSET))]
    #[serde(default)]
    pub offset: u64,
}

impl ToolArgs for FindReferencesArgs {
    const NAME: &'static str = "find_references";
}

impl FindReferencesArgs {
    pub fn request(&self) -> Request {
        Request {
            include_patterns: self.include_patterns.clone(),
            exclude_patterns: self.exclude_patterns.clone(),
            tracked_only: self.tracked_only,
            git_scope: self.git_scope.clone(),
            ..Request::default()
        }
    }

    pub fn options(
        &self,
        deadline: Option<std::time::Duration>,
    ) -> crate::symbols::ReferenceOptions {
        crate::symbols::ReferenceOptions {
            name: self.name.clone(),
            at: self.at.clone(),
            kind: self.kind,
            include_imports: self.include_imports,
            max_results: self.max_results as usize,
            offset: self.offset as usize,
            deadline,
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
    /// Root path or name from list_projects (or a Git URL); optional with one root.
    #[arg(skip)]
    #[schemars(length(max = limits::MAX_PATH_CHARS))]
    pub project: Option<String>,
    /// Branch of a Git URL project.
    #[arg(long, requires = "allow_remote")]
    #[schemars(length(max = limits::MAX_BRANCH_CHARS))]
    pub branch: Option<String>,
    /// The task, in words or code.
    #[arg(
        long,
        value_name = "TEXT",
        default_value = "",
        hide_default_value = true
    )]
    #[schemars(length(min = 1, max = limits::MAX_QUERY_CHARS))]
    pub query: String,
    /// Globs files must match (without '/': at any depth).
    #[arg(long = "include-patterns", alias = "include", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub include_patterns: Vec<String>,
    /// Globs of files to leave out.
    #[arg(long = "exclude-patterns", alias = "exclude", value_name = "GLOB", num_args = 1..)]
    #[schemars(length(max = limits::MAX_GLOBS), inner(length(min = 1, max = limits::MAX_GLOB_CHARS)))]
    #[serde(default)]
    pub exclude_patterns: Vec<String>,
    /// Only files in the Git index.
    #[arg(long = "tracked-only")]
    #[serde(default)]
    pub tracked_only: bool,
    /// Only files changed: staged, changes, or diff:<ref>..<ref>.
    #[arg(long = "git-scope", value_name = "SCOPE")]
    #[schemars(length(max = limits::MAX_GIT_SCOPE_CHARS))]
    pub git_scope: Option<String>,
    /// Skip files larger than this many bytes.
    #[arg(long = "max-file-bytes", value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..))]
    #[schemars(range(min = 1))]
    pub max_file_bytes: Option<u64>,
    /// Maximum ranked files (default 20).
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
