//! `devprojex references NAME [PATH]`: the `find_references` tool on the command line.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use super::ProcessArgs;
use super::commands::{open_root, print_trailer, write_stdout};
use super::symbols_cmd::OutputFormat;
use crate::args::FindReferencesArgs;
use crate::engine::{Engine, Hooks};
use crate::error::{DpxError, ErrorKind, Result};

/// `devprojex references`: `find_references`' arguments and the command line's own.
#[derive(Debug, Args)]
pub struct ReferencesCommand {
    #[command(flatten)]
    pub tool: FindReferencesArgs,
    /// Project folder (default: current directory).
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// Project-relative files or folders to narrow to.
    #[arg(long = "paths", alias = "path", value_name = "PATH", num_args = 1..)]
    pub paths: Vec<String>,
    /// 'standard' (default), 'local', or a portable profile JSON path inside the project.
    #[arg(long)]
    pub profile: Option<String>,
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

pub fn references(args: ReferencesCommand) -> Result<ExitCode> {
    let (root, _lease) = open_root(&args.path, &args.process, args.tool.branch.as_deref())?;
    let engine = Engine::new(args.process.engine_config());
    let mut request = args.tool.request();
    request.paths = args.paths.clone();
    request.profile = args.profile.clone();
    request.git_mode = args.process.git_mode;
    request.max_file_bytes = args.max_file_bytes;
    let options = args.tool.options(args.timeout.map(Duration::from_secs_f64));
    let outcome = engine.find_references(&root, &request, &options, None, Hooks::default())?;
    let nothing = outcome.definitions.is_empty() && outcome.total == 0;
    match args.format {
        OutputFormat::Text if nothing => {}
        OutputFormat::Text => write_stdout(&crate::symbols::references_text(&outcome))?,
        OutputFormat::Json => {
            let text = serde_json::to_string_pretty(&crate::symbols::references_json(
                &outcome,
                &root.address,
            ))
            .map_err(|e| DpxError::new(ErrorKind::OutputFailed, e.to_string()))?;
            write_stdout(&(text + "\n"))?
        }
    }
    let mut trailer = crate::symbols::references_trailer(&outcome, true);
    if nothing {
        let near = if outcome.near_names.is_empty() {
            String::new()
        } else {
            format!(
                " Near names: {}.",
                crate::render::escape::text_line(&outcome.near_names.join(", "))
            )
        };
        trailer.push(format!(
            "[No definition or use of '{}' found in {} searched source files. Names are case-sensitive.{near}]",
            crate::render::escape::text_line(&outcome.name),
            outcome.searched_files
        ));
    }
    print_trailer(&outcome.coverage, trailer);
    Ok(if nothing {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `devprojex outline FILE`: one file's definitions in order, with start and end lines.
#[derive(Debug, Args)]
pub struct OutlineCommand {
    /// The source file (relative to the current directory, or absolute).
    pub file: PathBuf,
    /// The project folder (default: the Git checkout holding FILE, else the current directory).
    #[arg(long)]
    pub project: Option<PathBuf>,
    #[command(flatten)]
    pub process: ProcessArgs,
    #[arg(long, value_enum, default_value = "text")]
    pub format: OutputFormat,
}

pub fn outline(args: OutlineCommand) -> Result<ExitCode> {
    let folder = super::symbols_cmd::project_folder(&args.file, args.project.as_deref());
    let (root, _lease) = open_root(&folder, &args.process, None)?;
    let relative = super::symbols_cmd::relative_to_root(&args.file, &root, args.project.is_some())?;
    let engine = Engine::new(args.process.engine_config());
    let request = crate::engine::Request {
        git_mode: args.process.git_mode,
        ..crate::engine::Request::default()
    };
    let entries = engine.outline(&root, &request, &relative, None)?;
    print_outline(&relative, &entries, args.format)?;
    Ok(ExitCode::SUCCESS)
}

/// An outline on stdout (`outline`, `symbols --outline`).
pub(super) fn print_outline(
    path: &str,
    entries: &[crate::symbols::OutlineEntry],
    format: OutputFormat,
) -> Result<()> {
    match format {
        OutputFormat::Text => write_stdout(&crate::symbols::outline_text(entries)),
        OutputFormat::Json => {
            let text = serde_json::to_string_pretty(&serde_json::json!({
                "path": path,
                "definitions": entries,
            }))
            .map_err(|e| DpxError::new(ErrorKind::OutputFailed, e.to_string()))?;
            write_stdout(&(text + "\n"))
        }
    }
}
