//! `devprojex get FILE`: the `get_file` tool on the command line. The slice, its limits and
//! its redaction are the tool's; the content goes to stdout as it is (numbered with
//! `--line-numbers`), and what was not shown is said on stderr with the flag that reads on.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use serde::Serialize;

use super::ProcessArgs;
use super::commands::{open_root, write_stdout};
use super::symbols_cmd::{OutputFormat, project_folder, relative_to_root};
use crate::args::GetFileArgs;
use crate::engine::{Engine, EngineConfig, FileSlice};
use crate::error::{DpxError, ErrorKind, Result};
use crate::render::tree::group_thousands;
use crate::select::GitMode;

/// `devprojex get`: `get_file`'s arguments and the command line's own.
#[derive(Debug, Args)]
pub struct GetCommand {
    #[command(flatten)]
    pub tool: GetFileArgs,
    /// The project folder (default: the Git checkout holding PATH, else the current directory).
    #[arg(long)]
    pub project: Option<PathBuf>,
    #[command(flatten)]
    pub process: ProcessArgs,
    /// Output format: the file's text, or a JSON document of the slice and its line numbers.
    #[arg(long, value_enum, default_value = "text")]
    pub format: OutputFormat,
}

/// The JSON form of a slice.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SliceJson<'a> {
    project: &'a str,
    path: &'a str,
    start_line: usize,
    end_line: usize,
    total_lines: usize,
    /// Set when lines of the range were left out at the 50,000-character limit.
    cut_by_characters: bool,
    /// Set when only the start of one over-long line is given.
    long_line_chars: Option<usize>,
    text: &'a str,
}

pub fn get(args: GetCommand) -> Result<ExitCode> {
    let path = Path::new(&args.tool.path);
    let folder = project_folder(path, args.project.as_deref());
    let (root, _lease) = open_root(&folder, &args.process, args.tool.branch.as_deref())?;
    let relative = relative_to_root(path, &root, args.project.is_some())?;
    let engine = Engine::new(EngineConfig {
        git_mode: args.process.git_mode.unwrap_or(GitMode::Gitignore),
        ..args.process.engine_config()
    });
    let slice = engine.read_file(
        &root,
        &relative,
        args.tool.start_line.map(|n| n as usize),
        args.tool.end_line.map(|n| n as usize),
        None,
    )?;
    match args.format {
        OutputFormat::Text => {
            let text = if args.tool.line_numbers {
                crate::render::numbered_lines(&slice.text, slice.start_line)
            } else {
                slice.text.clone()
            };
            write_stdout(&text)?;
            if let Some(note) = continuation_note(&slice) {
                eprintln!("{note}");
            }
        }
        OutputFormat::Json => {
            let json = SliceJson {
                project: &root.address,
                path: &slice.path,
                start_line: slice.start_line,
                end_line: slice.end_line,
                total_lines: slice.total_lines,
                cut_by_characters: slice.cut_by_characters,
                long_line_chars: slice.long_line.map(|long| long.total_chars),
                text: &slice.text,
            };
            let text = serde_json::to_string_pretty(&json)
                .map_err(|e| DpxError::new(ErrorKind::OutputFailed, e.to_string()))?;
            write_stdout(&(text + "\n"))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// What a slice left out of the file, and the flag that reads on; `None` when it reached the
/// end of the file.
fn continuation_note(slice: &FileSlice) -> Option<String> {
    if let Some(long) = slice.long_line {
        return Some(format!(
            "[Showing the first {} of {} characters of line {}: get reads whole lines of at most 50,000 characters; `devprojex pack --paths {}` splits long lines into parts.]",
            group_thousands(long.shown_chars),
            group_thousands(long.total_chars),
            slice.start_line,
            crate::render::escape::text_line(&slice.path),
        ));
    }
    (slice.end_line < slice.total_lines).then(|| {
        format!(
            "[Showing lines {}-{} of {}. Next: --start-line {}.]",
            slice.start_line,
            slice.end_line,
            slice.total_lines,
            slice.end_line + 1
        )
    })
}
