//! The offline subcommands: tree, analyze, pack, search, scan.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use super::{
    AnalyzeCommand, AnalyzeFormat, PackCommand, ScanArgs, ScanFormat, SearchCommand, SearchFormat,
    TreeCommand,
};
use crate::coverage::{Coverage, Stop};
use crate::engine::{Engine, Hooks, ProgressEvent, SearchOutput};
use crate::error::{DpxError, ErrorKind, Result};
use crate::project::ProjectRoot;

/// Print an error as one line on stderr.
pub fn print_error(err: &DpxError) {
    eprintln!("error: {err}");
}

/// Open the project a command names: a local folder, or a Git URL with `--allow-remote`.
/// The returned session holds the remote checkout's lease; keep it alive while reading.
pub(super) fn open_root(
    path: &Path,
    process: &super::ProcessArgs,
    branch: Option<&str>,
) -> Result<(ProjectRoot, devprojex_git::RemoteSession)> {
    let text = path.to_string_lossy();
    let session = crate::gitstate::remote_session(process.allow_remote);
    if let Some(remote) = crate::gitstate::resolve_remote_from_cli(&session, &text, branch)? {
        return Ok((remote, session));
    }
    let root = ProjectRoot::open(path).map_err(|err| DpxError::invalid_arguments(err.message))?;
    Ok((root, session))
}

/// The one trailer of a command, on stderr: the coverage's trusted notices as warnings, then
/// the command's own `notes` (an early stop, a size cut).
pub(super) fn print_trailer(coverage: &Coverage, notes: Vec<String>) {
    for line in coverage.notices() {
        eprintln!("warning: {line}");
    }
    for line in notes {
        eprintln!("{line}");
    }
}

fn stdout_error(err: std::io::Error) -> DpxError {
    DpxError::new(
        ErrorKind::OutputFailed,
        format!("writing to stdout failed: {err}"),
    )
    .with_source(err)
}

pub(super) fn write_stdout(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        // A closed pipe (`| head`) is a normal way to stop reading.
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(err) => Err(stdout_error(err)),
    }
}

pub fn tree(args: TreeCommand) -> Result<ExitCode> {
    let (root, _lease) = open_root(&args.path, &args.process, args.tool.branch.as_deref())?;
    let engine = Engine::new(args.process.engine_config());
    let mut request = args.tool.request();
    args.narrowing.apply(&mut request, &args.process);
    let limits = crate::render::tree::TreeLimits {
        max_lines: args.max_lines.map(|n| n as usize),
        ..Default::default()
    };
    let (rendered, warnings) = engine.tree(&root, &request, limits, None)?;
    write_stdout(&rendered.text)?;
    if let Some(trailer) = rendered.trailer() {
        write_stdout(&format!("{trailer}\n"))?;
    }
    let coverage = Coverage {
        warnings,
        ..Coverage::default()
    };
    print_trailer(&coverage, Vec::new());
    Ok(ExitCode::SUCCESS)
}

/// A stderr progress bar that appears only on a terminal and only after a moment.
struct TerminalProgress {
    started: Instant,
    bar: Mutex<Option<ProgressBar>>,
    enabled: bool,
}

impl TerminalProgress {
    fn new() -> Self {
        Self {
            started: Instant::now(),
            bar: Mutex::new(None),
            enabled: std::io::stderr().is_terminal(),
        }
    }

    fn update(&self, event: ProgressEvent) {
        if !self.enabled || self.started.elapsed() < Duration::from_millis(400) {
            return;
        }
        let Ok(mut slot) = self.bar.lock() else {
            return;
        };
        let bar = slot.get_or_insert_with(|| {
            let bar = ProgressBar::new(event.total.max(1));
            bar.set_style(
                ProgressStyle::with_template("{msg:>14} [{bar:30}] {pos}/{len} files")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar
        });
        bar.set_message(event.phase);
        bar.set_length(event.total.max(1));
        bar.set_position(event.done);
    }

    fn finish(&self) {
        if let Ok(mut slot) = self.bar.lock()
            && let Some(bar) = slot.take()
        {
            bar.finish_and_clear();
        }
    }
}

pub fn analyze(args: AnalyzeCommand) -> Result<ExitCode> {
    let (root, _lease) = open_root(&args.path, &args.process, args.tool.branch.as_deref())?;
    let mut engine = Engine::new(args.process.engine_config());
    if let Some(encoding) = args.tokenizer {
        engine = engine.with_tokenizer(encoding, None);
    }
    let mut request = args.tool.request();
    request.git_mode = args.process.git_mode;
    request.token_map_depth = args
        .tree
        .map(|depth| depth.map_or(usize::MAX, |d| d as usize));
    let progress = TerminalProgress::new();
    let report = |event: ProgressEvent| progress.update(event);
    let analysis = engine.analyze(
        &root,
        &request,
        None,
        Hooks {
            progress: Some(&report),
            cancelled: None,
        },
    );
    progress.finish();
    let analysis = analysis?;
    match args.format {
        AnalyzeFormat::Json => {
            let mut text = serde_json::to_string_pretty(&analysis)
                .map_err(|e| DpxError::new(ErrorKind::OutputFailed, e.to_string()))?;
            text.push('\n');
            write_stdout(&text)?;
            for warning in &analysis.warnings {
                eprintln!("warning: {warning}");
            }
        }
        AnalyzeFormat::Table => {
            let mut out = String::new();
            out.push_str(&format!("Project:     {}\n", analysis.project));
            out.push_str(&format!(
                "Profile:     {}    Detail: {}\n",
                analysis.profile, analysis.detail
            ));
            out.push_str(&format!(
                "Files:       {} ({} text, {} binary, {} withheld, {} unreadable) in {} folders\n",
                analysis.files,
                analysis.text_files,
                analysis.binary_files,
                analysis.withheld_files,
                analysis.unreadable_files,
                analysis.folders
            ));
            out.push_str(&format!("Bytes:       {}\n", analysis.bytes));
            out.push_str(&format!("Characters:  {}\n", analysis.characters));
            let partly = if analysis.metrics_estimated {
                " (partly estimated)"
            } else {
                ""
            };
            match (analysis.exact_tokens, analysis.encoding) {
                (Some(exact), Some(encoding)) => out.push_str(&format!(
                    "Tokens:      {} estimated, {exact} exact ({encoding}){partly}\n",
                    analysis.tokens
                )),
                _ => out.push_str(&format!("Tokens:      {}{partly}\n", analysis.tokens)),
            }
            out.push_str(&format!("Lines:       {}\n", analysis.lines));
            out.push_str(&format!("Redactions:  {}\n", analysis.redactions));
            let exact = analysis.encoding.is_some();
            let exact_cell = |value: Option<u64>| match value {
                Some(v) if exact => format!(" {v:>11}"),
                _ => String::new(),
            };
            if !analysis.largest_files.is_empty() {
                out.push_str(if exact {
                    "\nLargest files by exact tokens (estimate, exact):\n"
                } else {
                    "\nLargest files by tokens:\n"
                });
                let width = analysis
                    .largest_files
                    .iter()
                    .map(|f| f.tokens.to_string().len())
                    .max()
                    .unwrap_or(1);
                for file in &analysis.largest_files {
                    out.push_str(&format!(
                        "  {:>width$}{}  {}\n",
                        file.tokens,
                        exact_cell(file.exact_tokens),
                        crate::render::escape::text_line(&file.path)
                    ));
                }
            }
            if !analysis.extensions.is_empty() {
                out.push_str(if exact {
                    "\nBy extension:\n  extension       files      tokens       exact       lines\n"
                } else {
                    "\nBy extension:\n  extension       files      tokens       lines\n"
                });
                for ext in &analysis.extensions {
                    out.push_str(&format!(
                        "  {:<12} {:>8} {:>11}{} {:>11}\n",
                        ext.extension,
                        ext.files,
                        ext.tokens,
                        exact_cell(ext.exact_tokens),
                        ext.lines
                    ));
                }
            }
            if let Some(tree) = &analysis.tree {
                out.push_str(&token_map_table(tree, analysis.encoding));
            }
            write_stdout(&out)?;
            for warning in &analysis.warnings {
                eprintln!("warning: {warning}");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `analyze --tree` as a table: folders indented by depth, in tree order.
fn token_map_table(tree: &[crate::engine::FolderMetrics], encoding: Option<&str>) -> String {
    let mut out = match encoding {
        Some(encoding) => format!(
            "\nToken map (tokens per folder; share of the {encoding} total):\n  {:<40} {:>8} {:>11} {:>11} {:>7}\n",
            "folder", "files", "tokens", "exact", "share"
        ),
        None => format!(
            "\nToken map (estimated tokens per folder; share of the total):\n  {:<40} {:>8} {:>11} {:>7}\n",
            "folder", "files", "tokens", "share"
        ),
    };
    for folder in tree {
        let name = if folder.depth == 0 {
            ".".to_string()
        } else {
            let leaf = folder.path.rsplit('/').next().unwrap_or(&folder.path);
            format!(
                "{}{}/",
                "  ".repeat(folder.depth - 1),
                crate::render::escape::text_line(leaf)
            )
        };
        let exact = match (encoding, folder.exact_tokens) {
            (Some(_), Some(exact)) => format!(" {exact:>11}"),
            _ => String::new(),
        };
        out.push_str(&format!(
            "  {name:<40} {:>8} {:>11}{exact} {:>6.1}%\n",
            folder.files,
            folder.tokens,
            folder.share * 100.0
        ));
    }
    out
}

pub fn pack(args: PackCommand) -> Result<ExitCode> {
    let (root, _lease) = open_root(&args.path, &args.process, args.tool.branch.as_deref())?;
    let mut engine = Engine::new(args.process.engine_config());
    if let Some(tokenizer) = args.tool.tokenizer {
        engine = engine.with_tokenizer(tokenizer.encoding(), None);
    }
    let mut request = args.tool.request();
    request.git_mode = args.process.git_mode;
    if let Some(file) = &args.query_file {
        request.query = Some(super::relevant_cmd::read_query("", Some(file))?);
    }
    if let Some(output) = &args.output {
        // Never pack the output file (or a previous run's) into itself.
        if let Some(relative) = output_inside_root(&root, output) {
            request.exclude_patterns.push(globset::escape(&relative));
        }
    }
    let progress = TerminalProgress::new();
    let report = |event: ProgressEvent| {
        if !args.quiet {
            progress.update(event)
        }
    };
    let hooks = Hooks {
        progress: Some(&report),
        cancelled: None,
    };
    let outcome = match &args.output {
        Some(path) => match OutputTarget::of(path)? {
            OutputTarget::Stream => {
                // A device, FIFO or socket (`-o /dev/null`, `-o /dev/stdout`, a named pipe) is
                // written in place: renaming a file over it would replace the device itself.
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .open(path)
                    .map_err(|err| output_failed("opening", path, err))?;
                let writer = std::io::BufWriter::with_capacity(256 * 1024, file);
                let (outcome, mut writer) = engine.pack(&root, &request, writer, None, hooks)?;
                writer
                    .flush()
                    .map_err(|err| output_failed("writing", path, err))?;
                outcome
            }
            OutputTarget::File(target) => {
                // Atomic replace: a temp file beside the target (beside the file a symlink
                // points to, so the link stays a link), created only when the first byte is
                // written (after selection, so it is never listed), then renamed over it.
                let dir = target
                    .parent()
                    .filter(|p| !p.as_os_str().is_empty())
                    .unwrap_or(Path::new("."))
                    .to_path_buf();
                let writer =
                    std::io::BufWriter::with_capacity(256 * 1024, LazyTempFile::new(dir, &target));
                let (outcome, writer) = engine.pack(&root, &request, writer, None, hooks)?;
                let lazy = writer
                    .into_inner()
                    .map_err(|err| output_failed("writing", path, err.into_error()))?;
                lazy.persist(&target)?;
                outcome
            }
        },
        None => match pack_to_reader(&engine, &root, &request, hooks, std::io::stdout().lock())? {
            Some(outcome) => outcome,
            // The reader went away (`| head`): a normal way to stop reading.
            None => return Ok(ExitCode::SUCCESS),
        },
    };
    progress.finish();
    if args.quiet {
        return Ok(ExitCode::SUCCESS);
    }
    print_trailer(&outcome.coverage, Vec::new());
    if let Some(budget) = &outcome.budget {
        eprint!("{}", budget.to_text());
    }
    if let Some(path) = &args.output {
        eprintln!(
            "Wrote {} ({} files, {} estimated tokens in the selection).",
            path.display(),
            outcome
                .budget
                .as_ref()
                .map(|b| b.included_files)
                .unwrap_or(outcome.metrics.text_files),
            outcome.metrics.tokens
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Write the pack to `out` (stdout or a pipe); `None` when the reader closed its end. A closed
/// pipe is told by its error kind, never by the message: Unix says "Broken pipe", Windows
/// "The pipe is being closed" (both are `ErrorKind::BrokenPipe`).
fn pack_to_reader<W: Write>(
    engine: &Engine,
    root: &ProjectRoot,
    request: &crate::engine::Request,
    hooks: Hooks<'_>,
    out: W,
) -> Result<Option<crate::engine::PackOutcome>> {
    let closed = std::cell::Cell::new(false);
    let watched = PipeWatch {
        inner: out,
        closed: &closed,
    };
    let writer = std::io::BufWriter::with_capacity(256 * 1024, watched);
    match engine.pack(root, request, writer, None, hooks) {
        Ok((outcome, writer)) => match writer.into_inner() {
            Ok(mut watched) => match watched.flush() {
                Ok(()) => Ok(Some(outcome)),
                Err(_) if closed.get() => Ok(None),
                Err(err) => Err(stdout_error(err)),
            },
            Err(_) if closed.get() => Ok(None),
            Err(err) => Err(stdout_error(err.into_error())),
        },
        Err(_) if closed.get() => Ok(None),
        Err(err) => Err(err),
    }
}

/// A writer that notes whether its reader went away.
struct PipeWatch<'a, W> {
    inner: W,
    closed: &'a std::cell::Cell<bool>,
}

impl<W: Write> PipeWatch<'_, W> {
    fn watch<T>(&self, result: std::io::Result<T>) -> std::io::Result<T> {
        if let Err(err) = &result
            && err.kind() == std::io::ErrorKind::BrokenPipe
        {
            self.closed.set(true);
        }
        result
    }
}

impl<W: Write> Write for PipeWatch<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let result = self.inner.write(buf);
        self.watch(result)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let result = self.inner.flush();
        self.watch(result)
    }
}

/// The project-relative path of `output` when it lies inside the root.
fn output_inside_root(root: &ProjectRoot, output: &Path) -> Option<String> {
    let absolute = if output.is_absolute() {
        output.to_path_buf()
    } else {
        std::env::current_dir().ok()?.join(output)
    };
    let parent = crate::project::dunce_canonicalize(absolute.parent()?).ok()?;
    let relative = parent.join(absolute.file_name()?);
    let relative = relative.strip_prefix(&root.path).ok()?;
    Some(crate::select::relative_string(relative))
}

/// `DPX-CLI-OUTPUT-FAILED`: "<what> '<path>' failed: <error>".
fn output_failed(what: &str, path: &Path, err: std::io::Error) -> DpxError {
    DpxError::new(
        ErrorKind::OutputFailed,
        format!("{what} '{}' failed: {err}", path.display()),
    )
    .with_source(err)
}

/// Where `pack -o PATH` writes.
enum OutputTarget {
    /// Not a regular file (character device, FIFO, socket): written in place.
    Stream,
    /// A regular file, new or replaced atomically; a symlink is resolved to the file it names.
    File(std::path::PathBuf),
}

impl OutputTarget {
    fn of(path: &Path) -> Result<Self> {
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => Err(DpxError::new(
                ErrorKind::OutputFailed,
                format!(
                    "'{}' is a directory; pass a file path such as '{}'",
                    path.display(),
                    path.join("context.md").display()
                ),
            )),
            Ok(meta) if !meta.is_file() => Ok(Self::Stream),
            // an existing file, possibly through a symlink: replace the file, keep the link
            // (Without Windows' `\\?\` prefix: the path appears in messages.)
            Ok(_) => Ok(Self::File(
                crate::project::dunce_canonicalize(path).unwrap_or_else(|_| path.to_path_buf()),
            )),
            Err(_) => Ok(Self::File(path.to_path_buf())),
        }
    }
}

/// A temp file created on first write, so it never appears in the selection it receives.
struct LazyTempFile {
    dir: std::path::PathBuf,
    /// The permissions of the file being replaced, if there is one.
    replaced: Option<std::fs::Permissions>,
    file: Option<tempfile::NamedTempFile>,
}

impl LazyTempFile {
    fn new(dir: std::path::PathBuf, target: &Path) -> Self {
        Self {
            dir,
            replaced: std::fs::metadata(target).ok().map(|m| m.permissions()),
            file: None,
        }
    }

    fn file(&mut self) -> std::io::Result<&mut tempfile::NamedTempFile> {
        if self.file.is_none() {
            let mut builder = tempfile::Builder::new();
            builder.prefix(".devprojex-pack-");
            // The pack ends up where `> FILE` would have put it: a replaced file keeps its
            // permissions, a new one gets the usual 0666 less the umask (not tempfile's 0600).
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                builder.permissions(std::fs::Permissions::from_mode(0o666));
            }
            let file = builder.tempfile_in(&self.dir)?;
            if let Some(permissions) = &self.replaced {
                file.as_file().set_permissions(permissions.clone())?;
            }
            self.file = Some(file);
        }
        Ok(self.file.as_mut().expect("just created"))
    }

    /// Rename the finished file over `path`: every reader sees the old file or the whole new
    /// one, and a failed or killed run leaves no partial file. No fsync, as `> FILE` has none:
    /// a pack is regenerated, not kept, and syncing a kernel-sized pack cost more than writing
    /// it (ext4 also flushes a file renamed over another, `auto_da_alloc`).
    fn persist(mut self, path: &Path) -> Result<()> {
        self.file()
            .map_err(|err| output_failed("creating", path, err))?;
        let file = self.file.take().expect("created above");
        file.persist(path)
            .map_err(|err| output_failed("replacing", path, err.error))?;
        Ok(())
    }
}

impl Write for LazyTempFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file()?.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.file {
            Some(file) => file.flush(),
            None => Ok(()),
        }
    }
}

pub fn search(args: SearchCommand) -> Result<ExitCode> {
    let (root, _lease) = open_root(&args.path, &args.process, args.tool.branch.as_deref())?;
    let engine = Engine::new(args.process.engine_config());
    let mut request = args.tool.request();
    args.narrowing.apply(&mut request, &args.process);
    // Like grep, the command line runs to completion unless a limit is asked for.
    let mut options = args.tool.options(args.timeout.map(Duration::from_secs_f64));
    options.ignore_case &= !args.case_sensitive;
    let outcome = engine.search(&root, &request, &options, None, Hooks::default())?;
    match args.format {
        SearchFormat::Text => write_stdout(&match options.output {
            SearchOutput::Matches => {
                crate::render::search::grep_lines(&outcome.groups, options.context_lines > 0)
            }
            listing => {
                crate::render::search::file_lines(&outcome.files, listing == SearchOutput::Count)
            }
        })?,
        SearchFormat::Json => write_stdout(&format!(
            "{}\n",
            serde_json::to_string_pretty(&crate::render::search::json_document(
                &root.address,
                &outcome
            ))
            .unwrap_or_default()
        ))?,
    }
    let notes = match outcome.coverage.stopped {
        Some(Stop::MaxResults) => vec![format!(
            "[Search truncated: stopped at {} (--max-results). Next: --offset {}; or narrow with --paths or --include-patterns, or refine the pattern.]",
            crate::select::plural(outcome.matches, "matching line", "matching lines"),
            options.offset + outcome.matches
        )],
        Some(Stop::Deadline) => vec![format!(
            "[Search truncated: the --timeout of {} seconds was reached after {}. Narrow with --paths or --include-patterns, or raise --timeout.]",
            args.timeout.unwrap_or_default(),
            crate::select::plural(outcome.searched_files, "file", "files")
        )],
        None => Vec::new(),
    };
    print_trailer(&outcome.coverage, notes);
    Ok(if outcome.matches > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

pub fn scan(args: ScanArgs) -> Result<ExitCode> {
    let (root, _lease) = open_root(&args.path, &args.process, args.branch.as_deref())?;
    let engine = Engine::new(args.process.engine_config());
    let request = args.request();
    let (findings, selection) = engine.scan(&root, &request)?;
    match args.format {
        ScanFormat::Json => {
            let body = serde_json::json!({ "project": root.address, "files": selection.file_count(), "findings": findings });
            write_stdout(&format!(
                "{}\n",
                serde_json::to_string_pretty(&body).unwrap_or_default()
            ))?;
        }
        ScanFormat::Text => {
            let mut out = String::new();
            for finding in &findings {
                out.push_str(&format!(
                    "{}:{}: {}\n",
                    crate::render::escape::text_line(&finding.path),
                    finding.line,
                    finding.rule_id
                ));
            }
            write_stdout(&out)?;
            eprintln!(
                "{} secrets found in {} files scanned.",
                findings.len(),
                selection.file_count()
            );
        }
    }
    let coverage = Coverage {
        warnings: selection.warnings.clone(),
        ..Coverage::default()
    };
    print_trailer(&coverage, Vec::new());
    Ok(if findings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that takes `budget` bytes, then fails every write with `kind` and `message`.
    struct ClosingReader {
        budget: usize,
        kind: std::io::ErrorKind,
        message: &'static str,
    }

    impl Write for ClosingReader {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.budget == 0 {
                return Err(std::io::Error::new(self.kind, self.message));
            }
            let n = buf.len().min(self.budget);
            self.budget -= n;
            Ok(n)
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn pack_into(reader: ClosingReader) -> Result<Option<crate::engine::PackOutcome>> {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..50 {
            std::fs::write(dir.path().join(format!("f{i}.txt")), "line\n".repeat(2_000)).unwrap();
        }
        let root = ProjectRoot::open(dir.path()).unwrap();
        let engine = Engine::new(crate::engine::EngineConfig::default());
        pack_to_reader(
            &engine,
            &root,
            &crate::engine::Request::default(),
            Hooks::default(),
            reader,
        )
    }

    #[test]
    fn a_closed_pipe_ends_the_pack_quietly_whatever_the_os_calls_it() {
        for message in [
            "Broken pipe (os error 32)",
            "The pipe is being closed. (os error 232)",
            "The pipe has been ended. (os error 109)",
        ] {
            let outcome = pack_into(ClosingReader {
                budget: 10_000,
                kind: std::io::ErrorKind::BrokenPipe,
                message,
            });
            assert!(matches!(outcome, Ok(None)), "{message}: {outcome:?}");
        }
        // Any other failure is still an error, even one whose text mentions a pipe.
        let outcome = pack_into(ClosingReader {
            budget: 10_000,
            kind: std::io::ErrorKind::Other,
            message: "Broken pipe, said a filter",
        });
        assert_eq!(outcome.unwrap_err().kind, ErrorKind::OutputFailed);
        let outcome = pack_into(ClosingReader {
            budget: usize::MAX,
            kind: std::io::ErrorKind::Other,
            message: "",
        });
        assert!(outcome.unwrap().is_some());
    }
}
