//! `devprojex symbols NAME [PATH]` and `devprojex related PATH`: the same requests and engine
//! methods as the `find_symbol` and `related_files` tools.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, ValueEnum};

use super::commands::{open_root, print_trailer, write_stdout};
use super::{NarrowingArgs, ProcessArgs};
use crate::args::{FindSymbolArgs, RelatedFilesArgs};
use crate::engine::{Engine, Hooks};
use crate::error::{DpxError, ErrorKind, Result};
use crate::project::ProjectRoot;
use crate::symbols::{RelatedOptions, SymbolOptions};

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum OutputFormat {
    Text,
    Json,
}

/// `devprojex symbols`: `find_symbol`'s arguments and the command line's own.
#[derive(Debug, Args)]
pub struct SymbolsCommand {
    #[command(flatten)]
    pub tool: FindSymbolArgs,
    /// Project folder (default: current directory).
    #[arg(default_value = ".")]
    pub path: PathBuf,
    #[command(flatten)]
    pub narrowing: NarrowingArgs,
    /// Remove files strictly larger than this many bytes.
    #[arg(long = "max-file-bytes", value_name = "BYTES", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_file_bytes: Option<u64>,
    #[command(flatten)]
    pub process: ProcessArgs,
    #[arg(long, value_enum, default_value = "text")]
    pub format: OutputFormat,
    /// Stop after this many seconds with what was found (default: run to completion).
    #[arg(long, value_name = "SECS", value_parser = super::parse_timeout)]
    pub timeout: Option<f64>,
}

/// `devprojex related`: `related_files`' arguments and the command line's own.
#[derive(Debug, Args)]
pub struct RelatedCommand {
    #[command(flatten)]
    pub tool: RelatedFilesArgs,
    /// The project folder (default: the Git checkout holding PATH, else the current directory).
    #[arg(long)]
    pub project: Option<PathBuf>,
    #[command(flatten)]
    pub process: ProcessArgs,
    #[arg(long, value_enum, default_value = "text")]
    pub format: OutputFormat,
    /// Stop after this many seconds with what was found (default: run to completion).
    #[arg(long, value_name = "SECS", value_parser = super::parse_timeout)]
    pub timeout: Option<f64>,
}

fn json_text(value: &serde_json::Value) -> Result<String> {
    serde_json::to_string_pretty(value)
        .map(|t| t + "\n")
        .map_err(|e| DpxError::new(ErrorKind::OutputFailed, e.to_string()))
}

pub fn symbols(args: SymbolsCommand) -> Result<ExitCode> {
    let (root, _lease) = open_root(&args.path, &args.process, args.tool.branch.as_deref())?;
    let engine = Engine::new(args.process.engine_config());
    let mut request = args.tool.request();
    args.narrowing.apply(&mut request, &args.process);
    request.max_file_bytes = args.max_file_bytes;
    let name = args.tool.lookup()?;
    if let Some(path) = &args.tool.outline {
        let entries = engine.outline(&root, &request, path, args.tool.kind)?;
        super::references_cmd::print_outline(path, &entries, args.format)?;
        return Ok(ExitCode::SUCCESS);
    }
    let options = SymbolOptions {
        name: name.to_string(),
        kind: args.tool.kind,
        mode: args.tool.match_mode,
        max_results: args.tool.max_results as usize,
        deadline: args.timeout.map(Duration::from_secs_f64),
        include_body: args.tool.include_body,
    };
    let outcome = engine.find_symbol(&root, &request, &options, None, Hooks::default())?;
    match args.format {
        OutputFormat::Text => write_stdout(&crate::symbols::symbols_text(&outcome))?,
        OutputFormat::Json => write_stdout(&json_text(&serde_json::json!({
            "project": root.address,
            "definitions": outcome.hits,
            "searchedFiles": outcome.searched_files,
            "parsedFiles": outcome.parsed_files,
            "truncated": outcome.coverage.stopped.is_some(),
        }))?)?,
    }
    print_trailer(
        &outcome.coverage,
        crate::symbols::symbols_trailer(&outcome, options.max_results, true),
    );
    Ok(if outcome.hits.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The project a `related` PATH belongs to: `--project`, else the Git checkout above it, else
/// the current directory.
pub(super) fn project_folder(path: &Path, project: Option<&Path>) -> PathBuf {
    if let Some(project) = project {
        return project.to_path_buf();
    }
    let absolute = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let mut current = absolute.parent();
    while let Some(dir) = current {
        if dir.join(".git").exists() {
            return dir.to_path_buf();
        }
        current = dir.parent();
    }
    PathBuf::from(".")
}

/// PATH relative to the project root (as the MCP `path` argument would name it).
pub(super) fn relative_to_root(
    path: &Path,
    root: &ProjectRoot,
    project_given: bool,
) -> Result<String> {
    let outside = || {
        DpxError::new(
            ErrorKind::RootViolation,
            format!(
                "'{}' is outside project root '{}'; pass a file inside the project (or --project)",
                path.display(),
                root.address
            ),
        )
    };
    // A relative PATH names a file from the current directory, or (with --project) from the root.
    let candidate = if path.is_absolute() {
        path.to_path_buf()
    } else {
        let from_cwd = std::env::current_dir()
            .map(|d| d.join(path))
            .unwrap_or_else(|_| path.to_path_buf());
        if project_given && !from_cwd.exists() {
            root.path.join(path)
        } else {
            from_cwd
        }
    };
    let canonical = crate::project::dunce_canonicalize(&candidate).map_err(|_| {
        DpxError::new(
            ErrorKind::PathNotFound,
            format!(
                "'{}' does not exist; pass an existing source file",
                path.display()
            ),
        )
    })?;
    let relative = canonical.strip_prefix(&root.path).map_err(|_| outside())?;
    Ok(crate::select::relative_string(relative))
}

pub fn related(args: RelatedCommand) -> Result<ExitCode> {
    let path = Path::new(&args.tool.path);
    let folder = project_folder(path, args.project.as_deref());
    let (root, _lease) = open_root(&folder, &args.process, args.tool.branch.as_deref())?;
    let relative = relative_to_root(path, &root, args.project.is_some())?;
    let engine = Engine::new(args.process.engine_config());
    let mut request = args.tool.request();
    request.git_mode = args.process.git_mode;
    let options = RelatedOptions {
        path: relative,
        direction: args.tool.direction,
        depth: args.tool.depth as usize,
        max_results: args.tool.max_results as usize,
        deadline: args.timeout.map(Duration::from_secs_f64),
    };
    let outcome = engine.related_files(&root, &request, &options, None, Hooks::default())?;
    match args.format {
        OutputFormat::Text => write_stdout(&crate::symbols::related_text(&outcome))?,
        OutputFormat::Json => write_stdout(&json_text(&serde_json::json!({
            "project": root.address,
            "path": outcome.path,
            "imports": outcome.imports,
            "importers": outcome.importers,
            "unresolvedImports": outcome.unresolved,
            "ambiguousIncludes": outcome.ambiguous,
            "truncated": outcome.truncated,
            "pendingFiles": outcome.pending_files,
        }))?)?,
    }
    print_trailer(
        &outcome.coverage,
        crate::symbols::related_trailer(&outcome, options.max_results, true),
    );
    Ok(ExitCode::SUCCESS)
}
