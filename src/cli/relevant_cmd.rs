//! `devprojex relevant [PATH] (--query TEXT | --query-file FILE)`: the same request and engine
//! method as the `relevant_files` tool.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::commands::{open_root, print_trailer, write_stdout};
use super::{NarrowingArgs, ProcessArgs};
use crate::args::RelevantFilesArgs;
use crate::engine::{Engine, Hooks};
use crate::error::{DpxError, ErrorKind, Result};
use crate::relevance::{RelevanceOptions, relevance_text, relevance_trailer};

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum RelevantFormat {
    Text,
    Json,
}

/// `devprojex relevant`: `relevant_files`' arguments and the command line's own.
#[derive(Debug, Args)]
pub struct RelevantCommand {
    /// Project folder (default: current directory).
    #[arg(default_value = ".")]
    pub path: PathBuf,
    #[command(flatten)]
    pub tool: RelevantFilesArgs,
    /// Read the query from this file (UTF-8 text, at most 8,000 characters) instead of --query.
    #[arg(long = "query-file", value_name = "FILE", conflicts_with = "query")]
    pub query_file: Option<PathBuf>,
    #[command(flatten)]
    pub narrowing: NarrowingArgs,
    #[command(flatten)]
    pub process: ProcessArgs,
    #[arg(long, value_enum, default_value = "text")]
    pub format: RelevantFormat,
}

/// The query of `--query` or `--query-file` (one of them is required).
pub(super) fn read_query(query: &str, query_file: Option<&PathBuf>) -> Result<String> {
    let Some(file) = query_file else {
        if query.is_empty() {
            return Err(DpxError::invalid_arguments(
                "pass the task with --query TEXT or --query-file FILE",
            ));
        }
        return Ok(query.to_string());
    };
    let bytes = std::fs::read(file).map_err(|err| {
        DpxError::invalid_arguments(format!(
            "--query-file '{}' cannot be read ({err}); pass a readable text file",
            file.display()
        ))
    })?;
    String::from_utf8(bytes).map_err(|_| {
        DpxError::invalid_arguments(format!(
            "--query-file '{}' is not UTF-8 text; pass the task as text",
            file.display()
        ))
    })
}

pub fn relevant(args: RelevantCommand) -> Result<ExitCode> {
    let query = read_query(&args.tool.query, args.query_file.as_ref())?;
    let (root, _lease) = open_root(&args.path, &args.process, args.tool.branch.as_deref())?;
    let engine = Engine::new(args.process.engine_config());
    let mut request = args.tool.request();
    args.narrowing.apply(&mut request, &args.process);
    let options = RelevanceOptions {
        query: query.clone(),
        max_results: args.tool.max_results as usize,
    };
    let outcome = engine.relevant_files(&root, &request, &options, None, Hooks::default())?;
    match args.format {
        RelevantFormat::Text => write_stdout(&relevance_text(&outcome))?,
        RelevantFormat::Json => {
            /// The document's fields in the documented order.
            #[derive(serde::Serialize)]
            struct Answer<'a> {
                query: &'a str,
                files: &'a [crate::relevance::RelevantFile],
            }
            let answer = Answer {
                query: &query,
                files: &outcome.files,
            };
            let text = serde_json::to_string_pretty(&answer)
                .map_err(|e| DpxError::new(ErrorKind::OutputFailed, e.to_string()))?;
            write_stdout(&(text + "\n"))?
        }
    }
    print_trailer(&outcome.coverage, relevance_trailer(&outcome, true));
    Ok(if outcome.files.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
