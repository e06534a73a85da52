//! The one pipeline behind every front door: `Request` -> select -> read + redact + detail ->
//! budget -> render. The CLI and every MCP tool build a `Request` and call an `Engine` method.

use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

use devprojex_detail::Detail;
use devprojex_redact::{RedactOptions, Redactor};
use rayon::prelude::*;
use serde::Serialize;

use crate::caches::Caches;
use crate::content::{Content, ContentPipeline, DetailOverrides, TextContent};
use crate::coverage::Coverage;
pub use crate::coverage::partial_content_notice;
use crate::error::{DpxError, ErrorKind, Result};
use crate::limits;
use crate::profile::{self, Profile};
use crate::project::ProjectRoot;
use crate::render::pack::{BudgetReport, PackMetrics, PackWriter};
use crate::render::tree::{RenderedTree, TreeHeader, TreeLimits, render_tree};
use crate::render::{Format, View};
use crate::select::globs::PatternSet;
use crate::select::{self, Entry, GitMode, Selection, SelectionSpec, SelectionWarnings};
use crate::tokens::{Counter, Encoding};

mod diff_pack;
mod exact_pack;
mod token_map;

/// Why a search or lookup stopped early (the name the symbol lookups use).
pub use crate::coverage::Stop as SearchStop;
pub use token_map::FolderMetrics;

/// Process-wide settings (server flags or CLI flags).
#[derive(Debug, Clone, Copy, Default)]
pub struct EngineConfig {
    pub hide_private_data: bool,
    /// Baseline Git mode when a request names no profile and no explicit mode.
    pub git_mode: GitMode,
}

/// Everything a caller can ask for. Plain data: built by the CLI and the MCP tools alike.
#[derive(Debug, Clone, Default)]
pub struct Request {
    pub paths: Vec<String>,
    pub include_patterns: Vec<String>,
    pub exclude_patterns: Vec<String>,
    pub profile: Option<String>,
    pub detail: Option<Detail>,
    /// An explicit Git mode (CLI `--git-mode`); replaces the profile's.
    pub git_mode: Option<GitMode>,
    pub tracked_only: bool,
    pub git_scope: Option<String>,
    pub max_file_bytes: Option<u64>,
    pub max_tokens: Option<u64>,
    pub view: View,
    pub format: Format,
    pub max_depth: Option<usize>,
    pub top_files: Option<usize>,
    /// `analyze --tree [DEPTH]`: tokens per folder down to this depth (`usize::MAX`: all).
    pub token_map_depth: Option<usize>,
    /// `pack_context` `query`: files ordered by relevance to this task.
    pub query: Option<String>,
    /// `pack_context` `rank`.
    pub rank: Option<crate::relevance::PackRank>,
    /// Packs: (glob, detail) pairs; a matching file takes the fullest of its globs' details.
    pub detail_overrides: Vec<(String, Detail)>,
}

/// A phase update for progress reporting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProgressEvent {
    pub phase: &'static str,
    pub done: u64,
    pub total: u64,
}

/// Optional observers of a long operation.
#[derive(Default, Clone, Copy)]
pub struct Hooks<'a> {
    pub progress: Option<&'a (dyn Fn(ProgressEvent) + Sync)>,
    pub cancelled: Option<&'a (dyn Fn() -> bool + Sync)>,
}

impl Hooks<'_> {
    /// The same cancellation, without progress: for the tools that report none.
    pub fn cancel_only(self) -> Self {
        Self {
            progress: None,
            ..self
        }
    }

    fn report(&self, phase: &'static str, done: u64, total: u64) {
        if let Some(progress) = self.progress {
            progress(ProgressEvent { phase, done, total });
        }
    }

    fn check_cancelled(&self) -> Result<()> {
        if self.cancelled.is_some_and(|c| c()) {
            return Err(DpxError::cancelled());
        }
        Ok(())
    }
}

/// The engine: one per process.
#[derive(Debug, Clone)]
pub struct Engine {
    config: EngineConfig,
    redactor: Arc<Redactor>,
    /// Exact token counts (`--tokenizer`): analyze reports them beside the estimate and a
    /// pack budget covers the complete document in that encoding.
    counter: Option<Arc<Counter>>,
}

/// A request resolved against a project: the selection spec and the effective detail.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub spec: SelectionSpec,
    pub detail: Detail,
    pub profile_name: String,
    pub deleted: usize,
}

/// Metrics of one file for `analyze`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileMetrics {
    pub path: String,
    pub bytes: u64,
    pub characters: u64,
    pub tokens: u64,
    /// Exact tokens in the engine's encoding (`--tokenizer`); for a file that was not
    /// inspected (`estimated`), the estimate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_tokens: Option<u64>,
    pub lines: u64,
    /// True when the file was not inspected and its figures are estimated from its size.
    pub estimated: bool,
}

/// Per-extension totals.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExtensionMetrics {
    pub extension: String,
    pub files: u64,
    pub characters: u64,
    pub tokens: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_tokens: Option<u64>,
    pub lines: u64,
}

/// The `analyze` result (the MCP structured content and the CLI JSON).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Analysis {
    pub project: String,
    pub name: String,
    pub profile: String,
    /// The effective detail tier: the union of the profile's and the request's.
    pub detail: &'static str,
    pub files: u64,
    pub text_files: u64,
    pub binary_files: u64,
    /// Files over the 16 MiB inspection boundary; their figures are estimated from size.
    pub withheld_files: u64,
    pub unreadable_files: u64,
    pub folders: u64,
    pub bytes: u64,
    pub characters: u64,
    pub tokens: u64,
    /// With `--tokenizer`: the encoding of `exactTokens`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<&'static str>,
    /// With `--tokenizer`: exact tokens of the selection, each file counted alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_tokens: Option<u64>,
    pub lines: u64,
    pub redactions: u64,
    /// True when some figures are estimates (withheld files).
    pub metrics_estimated: bool,
    pub largest_files: Vec<FileMetrics>,
    pub extensions: Vec<ExtensionMetrics>,
    /// `analyze --tree`: tokens per folder in tree order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tree: Option<Vec<FolderMetrics>>,
    pub warnings: Vec<String>,
}

impl Analysis {
    /// Cut `largest_files` and `extensions` from their ends (the smallest entries go first)
    /// until the compact JSON of the whole result has at most `max_chars` characters (MCP:
    /// the text block and `structuredContent` alike); the totals stay whole. Returns what was
    /// kept of each list when something was cut.
    pub fn fit_within(&mut self, max_chars: usize) -> Option<AnalysisCut> {
        fn json_chars(value: &impl Serialize) -> usize {
            serde_json::to_string(value).map_or(0, |text| text.chars().count())
        }
        let mut total = json_chars(self);
        if total <= max_chars {
            return None;
        }
        let cut = AnalysisCut {
            files: self.largest_files.len(),
            extensions: self.extensions.len(),
        };
        // Each entry costs its JSON and one comma.
        let mut file_sizes: Vec<usize> = self
            .largest_files
            .iter()
            .map(|f| json_chars(f) + 1)
            .collect();
        let mut extension_sizes: Vec<usize> =
            self.extensions.iter().map(|e| json_chars(e) + 1).collect();
        let (mut in_files, mut in_extensions): (usize, usize) =
            (file_sizes.iter().sum(), extension_sizes.iter().sum());
        while total > max_chars && !(file_sizes.is_empty() && extension_sizes.is_empty()) {
            // Take from the list that holds more characters.
            let size = if in_files >= in_extensions && !file_sizes.is_empty() {
                self.largest_files.pop();
                let size = file_sizes.pop().unwrap_or(0);
                in_files -= size;
                size
            } else {
                self.extensions.pop();
                let size = extension_sizes.pop().unwrap_or(0);
                in_extensions -= size;
                size
            };
            total = total.saturating_sub(size);
        }
        Some(cut)
    }
}

/// The sizes of the lists an `analyze` result was cut from ([`Analysis::fit_within`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnalysisCut {
    pub files: usize,
    pub extensions: usize,
}

/// The outcome of writing a pack.
#[derive(Debug, Clone, Default)]
pub struct PackOutcome {
    pub metrics: PackMetrics,
    pub budget: Option<BudgetReport>,
    /// Withheld and unreadable files (as in `metrics`), and the selection's warnings.
    pub coverage: Coverage,
    pub entries: Vec<Entry>,
    pub header: TreeHeader,
}

/// Search parameters.
#[derive(Debug, Clone, Default)]
pub struct SearchOptions {
    pub pattern: String,
    pub ignore_case: bool,
    pub context_lines: usize,
    /// Matching lines shown (`matches`), or files listed (`files`, `count`).
    pub max_results: usize,
    /// The MCP limit (2 seconds); the CLI runs to completion unless `--timeout` is given.
    pub deadline: Option<Duration>,
    /// `pattern` is a fixed string, not a regular expression.
    pub literal: bool,
    /// Matching lines (`matches`) or files (`files`, `count`) skipped before the first shown.
    pub offset: usize,
    pub output: SearchOutput,
    /// A search stopped by `max_results` goes on counting, until its deadline, the matches it
    /// leaves out ([`SearchOutcome::left_out`]).
    pub count_left_out: bool,
}

impl SearchOptions {
    /// The regular expression searched: `pattern`, escaped when it is literal.
    pub fn regex_pattern(&self) -> std::borrow::Cow<'_, str> {
        if self.literal {
            regex::escape(&self.pattern).into()
        } else {
            self.pattern.as_str().into()
        }
    }
}

/// What a search answers with.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    serde::Deserialize,
    schemars::JsonSchema,
    clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum SearchOutput {
    // (Plain comments: a documented variant would turn clap's help into its long layout.)
    // Match and context lines.
    #[default]
    Matches,
    // The paths of the files with matches, in selection order.
    Files,
    // The files with their match counts, most matches first.
    Count,
}

/// The matches of one file: consecutive match and context lines per group, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchGroup {
    /// The file's project-relative path: an address, as written (never private-data redacted).
    pub path: String,
    pub lines: Vec<crate::grep::HitLine>,
}

/// The outcome of a search: its groups in selection order, and what it covered.
#[derive(Debug, Clone, Default)]
pub struct SearchOutcome {
    pub groups: Vec<SearchGroup>,
    /// Match lines in `groups` (context lines are not counted).
    pub matches: usize,
    pub files_with_matches: usize,
    pub searched_files: usize,
    /// Text files the selection gave the search.
    pub selected_files: usize,
    pub coverage: Coverage,
    /// `files` and `count` output: the files listed (after `offset`, at most `max_results`),
    /// with their match counts.
    pub files: Vec<(String, usize)>,
    /// Files with matches not shown, with their match counts: past the page (`files`,
    /// `count`), or after `max_results` stopped a `matches` search that counts them
    /// (`count_left_out`, until the deadline). Most matches first.
    pub left_out: Vec<(String, usize)>,
    /// The deadline stopped the search inside a file: the share of it searched, in percent.
    pub partly_searched_percent: Option<u8>,
}

/// A slice of one file.
#[derive(Debug, Clone)]
pub struct FileSlice {
    pub path: String,
    pub text: String,
    pub start_line: usize,
    pub end_line: usize,
    pub total_lines: usize,
    /// Set when the slice was cut by the character limit inside the requested range.
    pub cut_by_characters: bool,
    /// Set when the first line alone is longer than the limit: only its start is shown.
    pub long_line: Option<LongLine>,
}

/// How much of one over-long line a slice shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LongLine {
    pub shown_chars: usize,
    /// The whole line, its newline included.
    pub total_chars: usize,
}

impl Engine {
    pub fn new(config: EngineConfig) -> Self {
        Self {
            config,
            redactor: Arc::new(Redactor::new(RedactOptions {
                hide_private_data: config.hide_private_data,
            })),
            counter: None,
        }
    }

    /// Count exact tokens of `encoding` (see [`crate::tokens`]); `cached_counts` remembers
    /// that many counts by content hash (long-lived processes).
    pub fn with_tokenizer(mut self, encoding: Encoding, cached_counts: Option<usize>) -> Self {
        self.counter = Some(Arc::new(match cached_counts {
            Some(entries) => Counter::with_cache(encoding, entries),
            None => Counter::new(encoding),
        }));
        self
    }

    /// The exact encoding, when there is one.
    pub fn encoding(&self) -> Option<Encoding> {
        self.counter.as_ref().map(|c| c.encoding())
    }

    pub fn counter(&self) -> Option<&Counter> {
        self.counter.as_deref()
    }

    pub fn config(&self) -> EngineConfig {
        self.config
    }

    pub fn redactor(&self) -> &Arc<Redactor> {
        &self.redactor
    }

    /// Project labels (addresses, names, paths): private-data redacted only with the flag.
    pub fn label(&self, text: &str) -> String {
        if self.config.hide_private_data {
            self.redactor.redact(text).text.into_owned()
        } else {
            text.to_string()
        }
    }

    pub fn header(&self, root: &ProjectRoot) -> TreeHeader {
        TreeHeader {
            address: self.label(&root.address),
            name: self.label(&root.name),
        }
    }

    /// Resolve profile and request into a selection spec. Validates every argument.
    pub fn prepare(
        &self,
        root: &ProjectRoot,
        request: &Request,
        caches: Option<&Caches>,
    ) -> Result<Prepared> {
        let named_profile = request.profile.as_deref().filter(|p| *p != "standard");
        let profile: Profile = profile::load(root, request.profile.as_deref())?;
        let selection = &profile.selection;
        let profile_mode = selection.git_mode.as_deref().and_then(GitMode::parse);
        let git_mode = match (request.git_mode, named_profile) {
            (Some(mode), _) => mode,
            (None, Some(_)) => profile_mode.unwrap_or_default(),
            (None, None) => self.config.git_mode,
        };
        let mut spec = SelectionSpec {
            git_mode,
            exclusions: selection.exclusions,
            max_file_bytes: request.max_file_bytes,
            follow_symlinks: selection.follow_symlinks,
            names: select::git_names(&root.path),
            ..SelectionSpec::default()
        };
        if request.max_file_bytes == Some(0) {
            return Err(DpxError::invalid_arguments(
                "max_file_bytes must be a positive byte count (at least 1)",
            ));
        }
        // Profile path filters (roots and selected paths form one union).
        let profile_paths: Vec<String> = selection
            .roots
            .iter()
            .chain(selection.paths.iter())
            .cloned()
            .collect();
        if !profile_paths.is_empty() {
            let mut union = Vec::new();
            for path in &profile_paths {
                union.push(root.lexical(path)?.as_str().to_string());
            }
            spec.path_filters.push(union);
        }
        // Request paths: lexically deduplicated, then each checked physically.
        if !request.paths.is_empty() {
            let baseline = Baseline::new(root, git_mode, spec.exclusions, caches)?;
            spec.path_filters
                .push(self.resolve_request_paths(root, &request.paths, &baseline)?);
        }
        spec.extensions = selection
            .extensions
            .iter()
            .map(|e| e.trim_start_matches('.').to_ascii_lowercase())
            .collect();
        for (field, patterns, target) in [
            ("selection.includePatterns", &selection.include_patterns, 0),
            ("include_patterns", &request.include_patterns, 0),
            ("selection.excludePatterns", &selection.exclude_patterns, 1),
            ("exclude_patterns", &request.exclude_patterns, 1),
        ] {
            let set = PatternSet::compile(field, patterns)?;
            if !set.is_empty() {
                if target == 0 {
                    spec.include.push(set)
                } else {
                    spec.exclude.push(set)
                }
            }
        }
        if git_mode == GitMode::Tracked || request.tracked_only {
            spec.allow_lists
                .push(crate::gitstate::tracked(root, caches.map(|c| &c.tracked))?);
        }
        let mut deleted = 0;
        if let Some(scope) = &request.git_scope {
            let scoped = crate::gitstate::scoped(root, scope)?;
            deleted = scoped.deleted;
            spec.allow_lists.push(Arc::new(scoped.paths));
        }
        let profile_detail = selection
            .detail
            .as_deref()
            .and_then(Detail::parse)
            .unwrap_or_default();
        let detail = profile_detail.max(request.detail.unwrap_or_default());
        Ok(Prepared {
            spec,
            detail,
            profile_name: request.profile.clone().unwrap_or_else(|| "standard".into()),
            deleted,
        })
    }

    fn resolve_request_paths(
        &self,
        root: &ProjectRoot,
        paths: &[String],
        baseline: &Baseline<'_>,
    ) -> Result<Vec<String>> {
        if paths.len() > limits::MAX_PATHS {
            return Err(DpxError::invalid_arguments(format!(
                "paths has {} entries; at most {} are allowed. Pass parent folders or use include_patterns",
                paths.len(),
                limits::MAX_PATHS
            )));
        }
        let mut seen = HashSet::new();
        let mut unique = Vec::new();
        for path in paths {
            let chars = path.chars().count();
            if chars > limits::MAX_PATH_CHARS {
                return Err(DpxError::invalid_arguments(format!(
                    "a paths entry has {chars} characters; at most {} are allowed",
                    limits::MAX_PATH_CHARS
                )));
            }
            let lexical = root.lexical(path)?;
            if seen.insert(lexical.clone()) {
                unique.push(lexical);
            }
        }
        let mut resolved = Vec::new();
        for lexical in unique {
            // Left out and missing read the same (see `Baseline`).
            let named = lexical.as_str();
            let left_out = || not_selected(named, "a file or folder");
            if baseline.leaves_out_name(named) {
                return Err(left_out());
            }
            let path = root.resolve(named).map_err(|err| match err.kind {
                ErrorKind::PathNotFound => left_out(),
                _ => err,
            })?;
            if baseline.leaves_out(&path) {
                return Err(left_out());
            }
            // The listed spelling: another case or Unicode form selects the files it opens.
            resolved.push(path.relative.as_str().to_string());
        }
        Ok(resolved)
    }

    /// Run the selection for a request. Content operations find binary files when they read
    /// them, so the walk sniffs nothing.
    pub fn select(
        &self,
        root: &ProjectRoot,
        request: &Request,
        caches: Option<&Caches>,
    ) -> Result<(Prepared, Arc<Selection>)> {
        self.select_with(root, request, false, Uses::Stats, caches)
    }

    /// The selection with `binary` flags for files of unknown extensions (trees show them).
    fn select_with(
        &self,
        root: &ProjectRoot,
        request: &Request,
        sniff_binary: bool,
        uses: Uses,
        caches: Option<&Caches>,
    ) -> Result<(Prepared, Arc<Selection>)> {
        let mut prepared = self.prepare(root, request, caches)?;
        prepared.spec.sniff_binary = sniff_binary;
        // A walk for names needs no file stats (a kept walk takes them anyway, to see edits).
        prepared.spec.names_only = uses == Uses::Names;
        let mut selection = match caches {
            Some(caches) => caches
                .selection
                .select(root, &prepared.spec, uses == Uses::Stats)?,
            None => Arc::new(select::select(root, &prepared.spec)?),
        };
        if selection.warnings.deleted != prepared.deleted {
            Arc::make_mut(&mut selection).warnings.deleted = prepared.deleted;
        }
        Ok((prepared, selection))
    }

    /// The effective tree within `limits` (MCP: 2,000 lines, 50,000 characters, deepest levels
    /// that fit); the request's `max_depth` applies.
    pub fn tree(
        &self,
        root: &ProjectRoot,
        request: &Request,
        limits: TreeLimits,
        caches: Option<&Caches>,
    ) -> Result<(RenderedTree, SelectionWarnings)> {
        // Text and Markdown trees show names, kinds and binary flags only (JSON and XML show
        // sizes too).
        let uses = if matches!(request.format, Format::Text | Format::Markdown) {
            Uses::Names
        } else {
            Uses::Stats
        };
        let (_, selection) = self.select_with(root, request, true, uses, caches)?;
        let selection = mark_known_binary(selection, caches);
        // Trees are project addresses, the contract for later `project`/`path` arguments: they
        // are returned as-is. Private-data redaction applies to exported content (files, search
        // matches, packs, whose tree header is redacted in full).
        let label = |s: &str| s.to_string();
        let rendered = render_tree(
            &TreeHeader {
                address: root.address.clone(),
                name: root.name.clone(),
            },
            &selection.entries,
            request.format,
            TreeLimits {
                max_depth: request.max_depth,
                ..limits
            },
            &label,
        )?;
        Ok((rendered, selection.warnings.clone()))
    }

    /// The content pipeline at `detail`, skipping what `caches` proves unchanged.
    pub(crate) fn pipeline(&self, detail: Detail, caches: Option<&Caches>) -> ContentPipeline {
        ContentPipeline {
            redactor: Arc::clone(&self.redactor),
            detail,
            transform_cache: caches.map(|c| Arc::clone(&c.transforms)),
            facts: caches.map(|c| Arc::clone(&c.facts)),
            measure_only: false,
            overrides: None,
        }
    }

    /// Loads files in parallel (read, redact, transform) and hands each result to `sink` in
    /// selection order; see [`crate::ordered`].
    fn for_each_content(
        &self,
        root: &ProjectRoot,
        files: &[&Entry],
        pipeline: &ContentPipeline,
        hooks: Hooks<'_>,
        phase: &'static str,
        sink: impl FnMut(&Entry, Content) -> Result<()>,
    ) -> Result<()> {
        self.for_each_loaded(root, files, pipeline, hooks, phase, |_, c| c, sink)
    }

    /// [`Self::for_each_content`] with more work per file on the workers (`work`: exact token
    /// counts, measuring a pack's sections), whose results reach `sink` in selection order.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn for_each_loaded<'e, T: Send>(
        &self,
        root: &ProjectRoot,
        files: &[&'e Entry],
        pipeline: &ContentPipeline,
        hooks: Hooks<'_>,
        phase: &'static str,
        work: impl Fn(&Entry, Content) -> T + Sync,
        mut sink: impl FnMut(&'e Entry, T) -> Result<()>,
    ) -> Result<()> {
        /// Loaded content waiting for the consumer: bounds memory on any project size.
        const WINDOW_BYTES: u64 = 32 * 1024 * 1024;
        let total = files.len() as u64;
        let mut done = 0u64;
        let mut last_report = Instant::now();
        let outcome = crate::ordered::for_each_ordered(
            files.len(),
            rayon::current_num_threads(),
            WINDOW_BYTES,
            |i| load_cost(files[i]),
            |i| work(files[i], pipeline.load(root, files[i])),
            |i, loaded| {
                // cheap (a flag), and lets a cancelled request stop within one file
                hooks.check_cancelled()?;
                sink(files[i], loaded)?;
                done += 1;
                if last_report.elapsed() >= Duration::from_millis(100) || done == total {
                    hooks.report(phase, done, total);
                    last_report = Instant::now();
                }
                Ok(())
            },
        );
        match outcome {
            Ok(()) => Ok(()),
            Err(crate::ordered::Stopped::Sink(e)) => Err(e),
            Err(crate::ordered::Stopped::WorkerPanicked) => Err(worker_failed()),
        }
    }

    /// File, character and token metrics at the effective detail level.
    pub fn analyze(
        &self,
        root: &ProjectRoot,
        request: &Request,
        caches: Option<&Caches>,
        hooks: Hooks<'_>,
    ) -> Result<Analysis> {
        let top_files = request.top_files.unwrap_or(limits::DEFAULT_TOP_FILES);
        if !(1..=limits::MAX_TOP_FILES).contains(&top_files) {
            return Err(DpxError::invalid_arguments(format!(
                "top_files is {top_files}; it must be between 1 and {}",
                limits::MAX_TOP_FILES
            )));
        }
        hooks.report("selection", 0, 1);
        let (prepared, selection) = self.select(root, request, caches)?;
        hooks.report("selection", 1, 1);
        let files: Vec<&Entry> = selection.files().collect();
        // Known metrics need no read, except where exact counts need the text (the counter
        // has a content-hash cache of its own).
        let pipeline = ContentPipeline {
            measure_only: self.counter.is_none(),
            ..self.pipeline(prepared.detail, caches)
        };
        let mut analysis = Analysis {
            // Addresses are returned as-is (see `tree`); analyze exports no content.
            project: root.address.clone(),
            name: root.name.clone(),
            profile: prepared.profile_name.clone(),
            detail: prepared.detail.as_str(),
            files: files.len() as u64,
            text_files: 0,
            binary_files: 0,
            withheld_files: 0,
            unreadable_files: 0,
            folders: (selection.entries.len() - files.len()) as u64,
            bytes: files.iter().map(|f| f.size).sum(),
            characters: 0,
            tokens: 0,
            encoding: self.encoding().map(Encoding::name),
            exact_tokens: self.counter.as_ref().map(|_| 0),
            lines: 0,
            redactions: 0,
            metrics_estimated: false,
            largest_files: Vec::new(),
            extensions: Vec::new(),
            tree: None,
            warnings: Vec::new(),
        };
        let counter = self.counter.as_deref();
        let mut per_file: Vec<FileMetrics> = Vec::new();
        let mut per_extension: BTreeMap<String, ExtensionMetrics> = BTreeMap::new();
        // Exact counts run on the workers, beside reading and redaction.
        let count_exact = |_: &Entry, content: Content| {
            let exact = match (&content, counter) {
                (Content::Text(text), Some(counter)) => Some(counter.count(&text.text)),
                _ => None,
            };
            (content, exact)
        };
        self.for_each_loaded(
            root,
            &files,
            &pipeline,
            hooks,
            "transformation",
            count_exact,
            |entry, (content, exact)| {
                let measured = match content {
                    Content::Text(ref text) => Some(text.metrics()),
                    Content::Measured(metrics) => Some(metrics),
                    _ => None,
                };
                let metrics = match content {
                    Content::Text(_) | Content::Measured(_) => {
                        let text = measured.expect("text has metrics");
                        analysis.text_files += 1;
                        analysis.redactions += text.redactions as u64;
                        FileMetrics {
                            path: entry.relative.clone(),
                            bytes: entry.size,
                            characters: text.characters,
                            tokens: text.tokens,
                            exact_tokens: exact,
                            lines: text.lines,
                            estimated: false,
                        }
                    }
                    Content::Withheld => {
                        analysis.withheld_files += 1;
                        let tokens = crate::tokens::estimate_chars(entry.size);
                        FileMetrics {
                            path: entry.relative.clone(),
                            bytes: entry.size,
                            characters: entry.size,
                            tokens,
                            exact_tokens: counter.map(|_| tokens),
                            lines: 0,
                            estimated: true,
                        }
                    }
                    Content::Binary => {
                        analysis.binary_files += 1;
                        return Ok(());
                    }
                    Content::Unreadable => {
                        analysis.unreadable_files += 1;
                        return Ok(());
                    }
                };
                analysis.characters += metrics.characters;
                analysis.tokens += metrics.tokens;
                add_exact(&mut analysis.exact_tokens, metrics.exact_tokens);
                analysis.lines += metrics.lines;
                let ext = entry
                    .extension()
                    .map(|e| format!(".{}", e.to_ascii_lowercase()))
                    .unwrap_or_else(|| "(none)".into());
                let slot = per_extension
                    .entry(ext.clone())
                    .or_insert_with(|| ExtensionMetrics {
                        extension: ext,
                        exact_tokens: counter.map(|_| 0),
                        ..Default::default()
                    });
                slot.files += 1;
                slot.characters += metrics.characters;
                slot.tokens += metrics.tokens;
                add_exact(&mut slot.exact_tokens, metrics.exact_tokens);
                slot.lines += metrics.lines;
                per_file.push(metrics);
                Ok(())
            },
        )?;
        hooks.report("output", 0, 1);
        if let Some(depth) = request.token_map_depth {
            analysis.tree = Some(token_map::folder_metrics(
                &selection.entries,
                &per_file,
                depth,
                counter.is_some(),
            ));
        }
        // Largest first by the exact count when there is one (the estimate otherwise).
        let size = |tokens: u64, exact: Option<u64>| exact.unwrap_or(tokens);
        per_file.sort_by(|a, b| {
            size(b.tokens, b.exact_tokens)
                .cmp(&size(a.tokens, a.exact_tokens))
                .then_with(|| a.path.cmp(&b.path))
        });
        per_file.truncate(top_files);
        analysis.largest_files = per_file;
        let mut extensions: Vec<ExtensionMetrics> = per_extension.into_values().collect();
        extensions.sort_by(|a, b| {
            size(b.tokens, b.exact_tokens)
                .cmp(&size(a.tokens, a.exact_tokens))
                .then_with(|| a.extension.cmp(&b.extension))
        });
        analysis.extensions = extensions;
        analysis.metrics_estimated = analysis.withheld_files > 0;
        analysis.warnings = selection.warnings.messages();
        analysis.warnings.extend(partial_content_notice(
            analysis.withheld_files,
            analysis.unreadable_files,
        ));
        hooks.report("output", 1, 1);
        Ok(analysis)
    }

    /// Write a pack document to `out` as it is produced.
    pub fn pack<W: Write>(
        &self,
        root: &ProjectRoot,
        request: &Request,
        out: W,
        caches: Option<&Caches>,
        hooks: Hooks<'_>,
    ) -> Result<(PackOutcome, W)> {
        if request.max_tokens == Some(0) {
            return Err(DpxError::invalid_arguments(
                "max_tokens must be an integer of at least 1",
            ));
        }
        if request.view == View::Diff {
            self.check_diff_request(request)?;
        }
        let order = crate::relevance::order_of(request)?;
        hooks.report("selection", 0, 1);
        let overrides = DetailOverrides::compile(&request.detail_overrides)?.map(Arc::new);
        let (prepared, selection) = self.select_with(root, request, true, Uses::Stats, caches)?;
        let selection = mark_known_binary(selection, caches);
        hooks.report("selection", 1, 1);
        if request.view == View::Diff {
            return self.pack_diff(root, request, &prepared, selection, out, caches, hooks);
        }
        if let Some(order) = order.filter(|_| request.view != View::Tree) {
            if overrides.is_some() {
                // a ranked pack grades each file's detail by its rank
                return Err(DpxError::invalid_arguments(
                    "detail_overrides cannot be combined with query or rank (a ranked pack gives \
                     each file its detail by rank); pass one or the other",
                ));
            }
            return self.pack_ranked(
                root, request, &prepared, selection, order, out, caches, hooks,
            );
        }
        let pipeline = ContentPipeline {
            overrides,
            ..self.pipeline(prepared.detail, caches)
        };
        // `rank: "paths"`: the request's paths, resolved and deduplicated in the order given
        // (the last path filter; profile paths come first)
        let paths_order = (request.rank == Some(crate::relevance::PackRank::Paths))
            .then(|| prepared.spec.path_filters.last().cloned())
            .flatten();
        if let (Some(counter), Some(max_tokens)) = (self.counter.as_deref(), request.max_tokens) {
            let budget = exact_pack::ExactBudget {
                counter,
                max_tokens,
            };
            return self.pack_exact(
                root,
                request,
                selection,
                budget,
                &pipeline,
                paths_order.as_deref(),
                out,
                hooks,
            );
        }
        let header = self.header(root);
        let label = |s: &str| self.label(s);
        let mut writer = PackWriter::new(out, request.format, request.view, &header, &label);
        writer.begin(&selection.entries).map_err(output_error)?;
        let files = pack_files(&selection, paths_order.as_deref());
        let mut metrics = PackMetrics {
            files: files.len() as u64,
            bytes: files.iter().map(|f| f.size).sum(),
            ..Default::default()
        };
        let mut budget = request.max_tokens.map(BudgetReport::new);
        let mut late_binary_files = 0;
        if request.view == View::Tree {
            tree_view_metrics(&mut metrics, &files);
        } else {
            metrics.basis = "content";
            self.for_each_content(
                root,
                &files,
                &pipeline,
                hooks,
                "transformation",
                |entry, content| {
                    add_content_metrics(&mut metrics, &content);
                    late_binary_files += u64::from(found_binary(entry, &content));
                    if let Content::Text(text) = content
                        && admit(&mut budget, || self.label(&entry.relative), &text)
                    {
                        writer.file(&entry.relative, &text).map_err(output_error)?;
                    }
                    Ok(())
                },
            )?;
        }
        if let Some(report) = &mut budget {
            report.trim();
        }
        hooks.report("output", 0, 1);
        let out = writer
            .finish(&metrics, budget.as_ref())
            .map_err(output_error)?;
        hooks.report("output", 1, 1);
        Ok((
            PackOutcome {
                coverage: Coverage {
                    withheld_files: metrics.withheld_files,
                    unreadable_files: metrics.unreadable_files,
                    late_binary_files,
                    warnings: selection.warnings.clone(),
                    stopped: None,
                },
                metrics,
                budget,
                entries: Arc::unwrap_or_clone(selection).entries,
                header,
            },
            out,
        ))
    }

    /// `view: "diff"` takes a scope and shows whole lines: the options that reorder or reduce
    /// files do not apply, and are refused rather than ignored.
    fn check_diff_request(&self, request: &Request) -> Result<()> {
        let refuse = |what: &str| {
            Err(DpxError::invalid_arguments(format!(
                "view 'diff' {what}; or use view tree-content, content or tree"
            )))
        };
        if request.git_scope.is_none() {
            return refuse("needs git_scope: staged, changes or diff:<ref>..<ref>");
        }
        if request.query.is_some() || request.rank.is_some() {
            return refuse("lists changed files in path order; drop query and rank");
        }
        if request.detail.is_some_and(|d| d != Detail::Full) || !request.detail_overrides.is_empty()
        {
            return refuse("shows whole lines; drop detail and detail_overrides");
        }
        Ok(())
    }

    /// Grep-style search over redacted content.
    pub fn search(
        &self,
        root: &ProjectRoot,
        request: &Request,
        options: &SearchOptions,
        caches: Option<&Caches>,
        hooks: Hooks<'_>,
    ) -> Result<SearchOutcome> {
        check_pattern_length(&options.pattern)?;
        let pattern = options.regex_pattern();
        let regex = build_search_regex(&pattern, options.ignore_case)?;
        if options.max_results == 0 || options.max_results > limits::MAX_SEARCH_RESULTS {
            return Err(DpxError::invalid_arguments(format!(
                "max_results is {}; it must be between 1 and {}",
                options.max_results,
                limits::MAX_SEARCH_RESULTS
            )));
        }
        // The redactor's rules compile once per process: never on the deadline's time.
        Redactor::prepare();
        let started = Instant::now();
        let (_, selection) = self.select_with(root, request, false, Uses::Contents, caches)?;
        let warnings = selection.warnings.clone();
        let files: Vec<&Entry> = selection.files().filter(|f| !f.binary).collect();
        // Search sees redacted text, never reduced text.
        let pipeline = self.pipeline(Detail::Full, caches);
        let deadline = options.deadline.map(|limit| started + limit);
        // The prefilter decides from raw bytes whether a file is redacted, so its time would
        // tell whether the pattern matches inside a secret: the server, whose caller sees only
        // redacted text, redacts every file not known clean instead (prefilter.rs, "Timing").
        let prefilter = match caches {
            Some(_) => None,
            None => crate::prefilter::RawPrefilter::for_pattern(&pattern, options.ignore_case),
        };
        let listing = options.output != SearchOutput::Matches;
        let grep = crate::grep::Grep {
            regex: &regex,
            line_by_line: crate::grep::Grep::needs_line_by_line(&pattern),
            context: options.context_lines,
            max_matches: options.offset + options.max_results + 1,
            deadline,
            count_only: false,
        };
        // Files listed by count, and matches left out after the cap, are counted, not kept.
        let counter = crate::grep::Grep {
            max_matches: usize::MAX,
            context: 0,
            count_only: true,
            ..grep
        };
        // Set when a `matches` search reached max_results and goes on counting.
        let capped = std::sync::atomic::AtomicBool::new(false);
        let mut to_skip = if listing { 0 } else { options.offset };
        let mut listed: Vec<(String, usize)> = Vec::new();
        let mut outcome = SearchOutcome {
            selected_files: files.len(),
            coverage: Coverage {
                warnings,
                ..Coverage::default()
            },
            ..Default::default()
        };
        /// Why the consumer stopped before the last file.
        enum Halt {
            Stopped(SearchStop),
            Failed(DpxError),
        }
        // Hits are small; the window bounds how far the workers run past a stop.
        const WINDOW_BYTES: u64 = 8 * 1024 * 1024;
        let halted = crate::ordered::for_each_ordered(
            files.len(),
            rayon::current_num_threads(),
            WINDOW_BYTES,
            |i| load_cost(files[i]),
            |i| {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    return None;
                }
                let skip = |raw: &str| prefilter.as_ref().is_some_and(|p| !p.may_match(raw));
                let Some(content) = pipeline.load_unless(root, files[i], skip) else {
                    // The raw text proves the redacted text has no match (prefilter.rs).
                    return Some(FileHits::Searched(crate::grep::FileGrep::default()));
                };
                let counting = listing || capped.load(std::sync::atomic::Ordering::Relaxed);
                Some(match content {
                    Content::Text(text) if counting => FileHits::Searched(counter.file(&text.text)),
                    Content::Text(text) => {
                        let mut found = grep.file(&text.text);
                        if options.count_left_out
                            && found.matches == grep.max_matches
                            && !found.timed_out
                        {
                            // The cap falls in this file: count all it holds, to say how many
                            // are left out.
                            let all = counter.file(&text.text);
                            found.matches = all.matches;
                            found.timed_out = all.timed_out;
                            found.searched_bytes = all.searched_bytes;
                        }
                        FileHits::Searched(found)
                    }
                    Content::Withheld => FileHits::Withheld,
                    Content::Unreadable => FileHits::Unreadable,
                    Content::Binary => FileHits::Searched(crate::grep::FileGrep::default()),
                    Content::Measured(_) => unreachable!("search loads content"),
                })
            },
            |i, result| {
                hooks.check_cancelled().map_err(Halt::Failed)?;
                let found = match result {
                    None => return Err(Halt::Stopped(SearchStop::Deadline)),
                    Some(FileHits::Withheld) => {
                        outcome.coverage.withheld_files += 1;
                        return Ok(());
                    }
                    Some(FileHits::Unreadable) => {
                        outcome.coverage.unreadable_files += 1;
                        return Ok(());
                    }
                    Some(FileHits::Searched(found)) => found,
                };
                if found.timed_out {
                    outcome.partly_searched_percent = Some(found.searched_percent());
                } else {
                    outcome.searched_files += 1;
                }
                if found.matches > 0 {
                    outcome.files_with_matches += 1;
                }
                // A path is an address the agent passes back (get_file), never redacted.
                let path = files[i].relative.to_string();
                if listing {
                    if found.matches > 0 {
                        outcome.matches += found.matches;
                        listed.push((path, found.matches));
                    }
                    return if found.timed_out {
                        Err(Halt::Stopped(SearchStop::Deadline))
                    } else {
                        Ok(())
                    };
                }
                if outcome.coverage.stopped == Some(SearchStop::MaxResults) {
                    // Past the cap: only counting what is left out.
                    if found.matches > 0 {
                        outcome.left_out.push((path, found.matches));
                    }
                    return if found.timed_out {
                        Err(Halt::Stopped(SearchStop::Deadline))
                    } else {
                        Ok(())
                    };
                }
                let mut shown_in_file = 0;
                let mut skipped_in_file = 0;
                for mut group in found.groups {
                    if to_skip > 0 {
                        // `offset`: drop the lines up to the last skipped match.
                        let skip = to_skip.min(group.matches);
                        to_skip -= skip;
                        skipped_in_file += skip;
                        if skip == group.matches {
                            continue;
                        }
                        let mut seen = 0;
                        let cut = group
                            .lines
                            .iter()
                            .position(|line| {
                                seen += usize::from(line.is_match);
                                seen == skip
                            })
                            .map_or(0, |p| p + 1);
                        group.lines.drain(..cut);
                        group.matches -= skip;
                    }
                    let room = options.max_results - outcome.matches;
                    if group.matches > room {
                        // Keep the lines up to the match that reaches the limit.
                        let mut seen = 0;
                        let cut = group
                            .lines
                            .iter()
                            .position(|line| {
                                seen += usize::from(line.is_match);
                                seen > room
                            })
                            .unwrap_or(group.lines.len());
                        group.lines.truncate(cut);
                        group.matches = room;
                    }
                    if group.matches > 0 {
                        outcome.groups.push(SearchGroup {
                            path: path.clone(),
                            lines: group.lines,
                        });
                        outcome.matches += group.matches;
                        shown_in_file += group.matches;
                    }
                    if outcome.matches >= options.max_results {
                        if !options.count_left_out {
                            return Err(Halt::Stopped(SearchStop::MaxResults));
                        }
                        let rest = found.matches - skipped_in_file - shown_in_file;
                        if rest > 0 {
                            outcome.left_out.push((path, rest));
                        }
                        outcome.coverage.stopped = Some(SearchStop::MaxResults);
                        capped.store(true, std::sync::atomic::Ordering::Relaxed);
                        return if found.timed_out {
                            Err(Halt::Stopped(SearchStop::Deadline))
                        } else {
                            Ok(())
                        };
                    }
                }
                if found.timed_out {
                    return Err(Halt::Stopped(SearchStop::Deadline));
                }
                Ok(())
            },
        );
        match halted {
            Ok(()) => {}
            // Counting what the cap left out until the deadline: the answer is still capped.
            Err(crate::ordered::Stopped::Sink(Halt::Stopped(SearchStop::Deadline)))
                if outcome.coverage.stopped == Some(SearchStop::MaxResults) => {}
            Err(crate::ordered::Stopped::Sink(Halt::Stopped(stop))) => {
                outcome.coverage.stopped = Some(stop)
            }
            Err(crate::ordered::Stopped::Sink(Halt::Failed(e))) => return Err(e),
            Err(crate::ordered::Stopped::WorkerPanicked) => return Err(worker_failed()),
        }
        if listing {
            if options.output == SearchOutput::Count {
                // Stable: equal counts stay in selection order.
                listed.sort_by_key(|(_, count)| std::cmp::Reverse(*count));
            }
            let mut rest = listed.split_off(options.offset.min(listed.len()));
            outcome.left_out = rest.split_off(options.max_results.min(rest.len()));
            outcome.files = rest;
        }
        outcome
            .left_out
            .sort_by_key(|(_, count)| std::cmp::Reverse(*count));
        Ok(outcome)
    }

    /// Read a line range of one effective file (redacted; no detail transform).
    pub fn read_file(
        &self,
        root: &ProjectRoot,
        path: &str,
        start_line: Option<usize>,
        end_line: Option<usize>,
        caches: Option<&Caches>,
    ) -> Result<FileSlice> {
        let chars = path.chars().count();
        if chars > limits::MAX_PATH_CHARS {
            return Err(DpxError::invalid_arguments(format!(
                "path has {chars} characters; at most {} are allowed",
                limits::MAX_PATH_CHARS
            )));
        }
        // The path as named is judged before anything is opened: a path outside the effective
        // selection answers as a missing one, in words and in time, whether it exists or not.
        let lexical = root.lexical(path)?;
        let named = lexical.as_str();
        if named.is_empty() {
            return Err(DpxError::invalid_arguments(
                "'.' is the project root; get_file reads one file. Use get_tree to list the project's files, then pass a file path such as 'src/main.rs'",
            ));
        }
        let baseline = Baseline::new(
            root,
            self.config.git_mode,
            select::Exclusions::default(),
            caches,
        )?;
        if baseline.leaves_out_name(named) {
            return Err(not_selected(named, "a file"));
        }
        let resolved = root.resolve(path).map_err(|err| match err.kind {
            ErrorKind::PathNotFound => not_selected(named, "a file"),
            _ => err,
        })?;
        if baseline.leaves_out(&resolved) {
            return Err(not_selected(named, "a file"));
        }
        let relative = resolved.relative.as_str().to_string();
        if resolved.is_dir() {
            return Err(DpxError::invalid_arguments(format!(
                "'{relative}' is a folder; get_file reads one file. Use get_tree to list its files"
            )));
        }
        let text = self
            .pipeline(Detail::Full, caches)
            .load_redacted(root, &resolved, &relative)?;
        let total = crate::content::count_lines(&text) as usize;
        let start = start_line.unwrap_or(1);
        if start == 0 {
            return Err(DpxError::new(
                ErrorKind::InvalidRange,
                "start_line is 1-based; pass 1 or more",
            ));
        }
        if let Some(end) = end_line
            && end < start
        {
            return Err(DpxError::new(
                ErrorKind::InvalidRange,
                format!("end_line {end} is before start_line {start}; pass start_line <= end_line"),
            ));
        }
        if total == 0 {
            if start == 1 {
                return Ok(FileSlice {
                    path: relative,
                    text: String::new(),
                    start_line: 0,
                    end_line: 0,
                    total_lines: 0,
                    cut_by_characters: false,
                    long_line: None,
                });
            }
            return Err(DpxError::new(
                ErrorKind::InvalidRange,
                format!("'{relative}' is empty; omit start_line and end_line"),
            ));
        }
        if start > total {
            return Err(DpxError::new(
                ErrorKind::InvalidRange,
                format!(
                    "start_line {start} is past the end of '{relative}', which has {total} lines; pass a start_line between 1 and {total}"
                ),
            ));
        }
        let max_end = start + limits::MAX_FILE_LINES - 1;
        let end = end_line.unwrap_or(max_end).min(max_end).min(total);
        let mut out = String::new();
        let mut used = 0usize;
        let mut last = start - 1;
        let mut cut = false;
        let mut long_line = None;
        let wanted = text
            .split_inclusive('\n')
            .skip(start - 1)
            .take(end + 1 - start);
        for (index, line) in wanted.enumerate() {
            let line_chars = line.chars().count();
            if used + line_chars > limits::MAX_FILE_CHARS {
                if index == 0 {
                    // One line longer than the limit: its first part, and exactly what is
                    // missing (the trailer names the route to the rest).
                    out.extend(line.chars().take(limits::MAX_FILE_CHARS));
                    last = start;
                    long_line = Some(LongLine {
                        shown_chars: limits::MAX_FILE_CHARS,
                        total_chars: line_chars,
                    });
                }
                cut = true;
                break;
            }
            out.push_str(line);
            used += line_chars;
            last = start + index;
        }
        Ok(FileSlice {
            path: relative,
            text: out,
            start_line: start,
            end_line: last,
            total_lines: total,
            cut_by_characters: cut,
            long_line,
        })
    }
}

/// One secret found by `scan` (never the secret itself).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScanFinding {
    pub path: String,
    pub line: usize,
    pub rule_id: String,
}

impl Engine {
    /// Secret findings in every selected text file (private data is not a finding).
    pub fn scan(
        &self,
        root: &ProjectRoot,
        request: &Request,
    ) -> Result<(Vec<ScanFinding>, Arc<Selection>)> {
        let (_, selection) = self.select(root, request, None)?;
        let files: Vec<&Entry> = selection.files().filter(|f| !f.binary).collect();
        let secrets_only = Redactor::new(RedactOptions {
            hide_private_data: false,
        });
        let per_file: Vec<Vec<ScanFinding>> = files
            .par_iter()
            .map(|entry| {
                let Ok((file, _)) = root.open_listed(entry.content_path(), entry.id) else {
                    return Vec::new();
                };
                let mut bytes = Vec::new();
                use std::io::Read;
                if file
                    .take(devprojex_redact::INSPECTION_LIMIT_BYTES)
                    .read_to_end(&mut bytes)
                    .is_err()
                {
                    return Vec::new();
                }
                let text = devprojex_redact::decode_lossy(&bytes);
                secrets_only
                    .redact(&text)
                    .findings
                    .into_iter()
                    .filter(|f| f.kind == devprojex_redact::FindingKind::Secret)
                    .map(|f| ScanFinding {
                        path: entry.relative.clone(),
                        line: f.line,
                        rule_id: f.rule_id,
                    })
                    .collect()
            })
            .collect();
        Ok((per_file.into_iter().flatten().collect(), selection))
    }
}

/// The selection with the files a content read of this server already found binary marked
/// as binary (same stat), so trees and packs list them as every other tool treats them. The
/// command line keeps no facts: its packs say how many they found (`Coverage::late_binary_files`).
/// The files of a pack in the order the budget considers and the document writes them: the
/// selection's deterministic order, or, with `rank: "paths"`, the files of the first `paths`
/// entry, then of the second, and so on (a stable sort: each entry's files keep their order).
fn pack_files<'s>(selection: &'s Selection, paths_order: Option<&[String]>) -> Vec<&'s Entry> {
    let mut files: Vec<&Entry> = selection.files().collect();
    if let Some(order) = paths_order {
        let rank = |relative: &str| {
            order
                .iter()
                .position(|path| {
                    path.is_empty()
                        || relative == path
                        || relative
                            .strip_prefix(path.as_str())
                            .is_some_and(|rest| rest.starts_with('/'))
                })
                .unwrap_or(usize::MAX)
        };
        files.sort_by_cached_key(|entry| rank(&entry.relative));
    }
    files
}

fn mark_known_binary(selection: Arc<Selection>, caches: Option<&Caches>) -> Arc<Selection> {
    let Some(caches) = caches else {
        return selection;
    };
    let candidates = selection
        .files()
        .filter(|entry| !entry.binary && entry.id.is_some())
        .map(|entry| {
            let stamp = crate::facts::Stamp {
                size: entry.size,
                modified_ns: entry.modified_ns,
                changed_ns: entry.changed_ns,
                id: entry.id,
            };
            (&entry.absolute, stamp)
        });
    let found: std::collections::HashSet<std::path::PathBuf> = caches
        .facts
        .binary_among(candidates)
        .into_iter()
        .cloned()
        .collect();
    if found.is_empty() {
        return selection;
    }
    let mut marked = Arc::unwrap_or_clone(selection);
    for entry in &mut marked.entries {
        if entry.kind == crate::select::EntryKind::File && found.contains(&entry.absolute) {
            entry.binary = true;
        }
    }
    Arc::new(marked)
}

/// Whether reading `entry` found it binary though the listing showed it as text.
pub(crate) fn found_binary(entry: &Entry, content: &Content) -> bool {
    matches!(content, Content::Binary) && !entry.binary
}

/// A tree-only pack reads no content: its metrics come from file sizes.
fn tree_view_metrics(metrics: &mut PackMetrics, files: &[&Entry]) {
    metrics.basis = "source-bytes";
    metrics.characters = metrics.bytes;
    metrics.tokens = files
        .iter()
        .filter(|f| !f.binary)
        .map(|f| crate::tokens::estimate_chars(f.size))
        .sum();
    metrics.binary_files = files.iter().filter(|f| f.binary).count() as u64;
    metrics.text_files = metrics.files - metrics.binary_files;
}

/// Count one loaded file into a pack's metrics (the whole selection, before the budget).
pub(crate) fn add_content_metrics(metrics: &mut PackMetrics, content: &Content) {
    match content {
        Content::Text(text) => {
            metrics.text_files += 1;
            metrics.characters += text.characters;
            metrics.tokens += text.tokens;
            metrics.lines += text.lines;
            metrics.redactions += text.redactions as u64;
        }
        Content::Binary => metrics.binary_files += 1,
        Content::Withheld => metrics.withheld_files += 1,
        Content::Unreadable => metrics.unreadable_files += 1,
        Content::Measured(_) => unreachable!("packs load content"),
    }
}

pub(crate) fn output_error(err: std::io::Error) -> DpxError {
    DpxError::new(
        ErrorKind::OutputFailed,
        format!("writing the pack failed: {err}"),
    )
    .with_source(err)
}

/// What loading a file can cost in memory: files over the inspection limit are not read whole.
/// What a caller uses of the selected files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Uses {
    /// Names, kinds and binary flags (text and Markdown trees).
    Names,
    /// The contents of every file, read through its handle, whose own stat keys the facts (a
    /// search): a kept walk's file stats need no refresh (an edit that replaces a file changes
    /// its folder, which means a new walk, so the walk's identities still hold).
    Contents,
    /// Sizes, times or identities of the listing as well (metrics from facts, sizes shown).
    Stats,
}

fn load_cost(entry: &Entry) -> u64 {
    entry.size.min(devprojex_redact::INSPECTION_LIMIT_BYTES + 1)
}

/// A content worker panicked (a bug): the request fails cleanly instead of unwinding.
fn worker_failed() -> DpxError {
    DpxError::new(
        ErrorKind::ProjectUnavailable,
        "reading file contents failed unexpectedly; retry",
    )
}

/// Add a file's exact count to a total that exists only with a tokenizer.
fn add_exact(total: &mut Option<u64>, exact: Option<u64>) {
    if let (Some(total), Some(exact)) = (total, exact) {
        *total += exact;
    }
}

/// Admit a file into the token budget, or record it as skipped under its label (private-data
/// redacted with `--hide-private-data`, like the rest of the pack).
fn admit(
    budget: &mut Option<BudgetReport>,
    label: impl FnOnce() -> String,
    text: &TextContent,
) -> bool {
    let Some(report) = budget else {
        return true;
    };
    if report.included_tokens + text.tokens <= report.max_tokens {
        report.included_files += 1;
        report.included_tokens += text.tokens;
        true
    } else {
        report.skip(&label(), text.tokens);
        false
    }
}

/// Compile a search pattern with size and nesting limits (the regex engine is linear-time;
/// the 2-second budget is enforced between files).
/// The checks of a search pattern as the caller wrote it (before a literal is escaped).
fn check_pattern_length(pattern: &str) -> Result<()> {
    let chars = pattern.chars().count();
    if chars > limits::MAX_REGEX_CHARS {
        return Err(DpxError::new(
            ErrorKind::InvalidPattern,
            format!(
                "pattern has {chars} characters; at most {} are allowed",
                limits::MAX_REGEX_CHARS
            ),
        ));
    }
    Ok(())
}

pub fn compile_search_regex(pattern: &str, ignore_case: bool) -> Result<regex::Regex> {
    check_pattern_length(pattern)?;
    build_search_regex(pattern, ignore_case)
}

/// The search regex of a pattern whose length was checked as the caller wrote it.
fn build_search_regex(pattern: &str, ignore_case: bool) -> Result<regex::Regex> {
    if pattern.is_empty() {
        return Err(DpxError::new(
            ErrorKind::InvalidPattern,
            "pattern is empty; pass a regular expression such as 'fn main'",
        ));
    }
    regex::RegexBuilder::new(pattern)
        .case_insensitive(ignore_case)
        .multi_line(true)
        .crlf(true)
        .size_limit(8 * 1024 * 1024)
        .dfa_size_limit(8 * 1024 * 1024)
        .nest_limit(64)
        .build()
        .map_err(|err| {
            let detail = match &err {
                regex::Error::CompiledTooBig(_) => "the compiled pattern is too large; simplify it (fewer repetitions or alternatives)".to_string(),
                other => other.to_string().lines().last().unwrap_or("invalid syntax").trim().to_string(),
            };
            DpxError::new(ErrorKind::InvalidPattern, format!("invalid regular expression: {detail}. Patterns use Rust regex syntax; escape literal characters such as '(' with '\\'"))
        })
}

/// What searching one file produced.
enum FileHits {
    /// Over the inspection boundary: not searched.
    Withheld,
    /// Could not be read (permission denied, I/O error, replaced mid-search).
    Unreadable,
    Searched(crate::grep::FileGrep),
}

/// The one answer for a path outside the effective selection (`kind`: "a file", "a file or
/// folder"), the same whether it is missing, excluded by a product rule or `.gitignore`
/// (`.git/` too), or outside the Git mode: its words never tell whether something is there.
pub(crate) fn not_selected(named: &str, kind: &str) -> DpxError {
    let shown: String = named.chars().take(200).collect();
    DpxError::new(
        ErrorKind::PathNotFound,
        format!(
            "'{shown}' is not {kind} of the effective selection: it does not exist, or product rules, .gitignore or the Git mode exclude it; use get_tree to list the project's files"
        ),
    )
}

/// The rules of the selection's baseline (product exclusions, ignore files, the Git mode) for
/// one caller-named path, judged by its name before anything is opened (so a left-out path
/// costs what a missing one does), then where it resolved (a link into `.git` is no way in).
struct Baseline<'a> {
    root: &'a ProjectRoot,
    mode: GitMode,
    exclusions: select::Exclusions,
    tracked: Option<Arc<std::collections::BTreeSet<String>>>,
    names: crate::project::NameRules,
}

impl<'a> Baseline<'a> {
    fn new(
        root: &'a ProjectRoot,
        mode: GitMode,
        exclusions: select::Exclusions,
        caches: Option<&Caches>,
    ) -> Result<Self> {
        let tracked = match mode {
            GitMode::Tracked => Some(crate::gitstate::tracked(root, caches.map(|c| &c.tracked))?),
            _ => None,
        };
        Ok(Self {
            root,
            mode,
            exclusions,
            tracked,
            names: select::git_names(&root.path),
        })
    }

    fn excludes(&self, relative: &str, is_dir: bool) -> bool {
        select::effective::check_path_under(self.root, relative, self.mode, self.exclusions, is_dir)
            .is_some()
    }

    /// Outside the tracked mode's files (a folder counts when Git tracks a file in it).
    fn untracked(&self, relative: &str, may_be_folder: bool) -> bool {
        let Some(tracked) = &self.tracked else {
            return false;
        };
        if select::allow_list_holds(tracked, relative, self.names) {
            return false;
        }
        if !may_be_folder {
            return true;
        }
        let prefix = format!("{relative}/");
        let in_folder = if self.names.is_exact() {
            tracked
                .range(prefix.clone()..)
                .next()
                .is_some_and(|path| path.starts_with(&prefix))
        } else {
            let prefix = self.names.key(&prefix).into_owned();
            tracked
                .iter()
                .any(|path| self.names.key(path).starts_with(&prefix))
        };
        !in_folder
    }

    fn leaves_out_name(&self, named: &str) -> bool {
        !named.is_empty() && (self.excludes(named, false) || self.untracked(named, true))
    }

    fn leaves_out(&self, resolved: &crate::project::ResolvedPath) -> bool {
        let relative = resolved.relative.as_str();
        let real = resolved.real_relative.as_str();
        if relative.is_empty() {
            return false;
        }
        let is_dir = resolved.is_dir();
        self.excludes(relative, is_dir)
            || (!real.is_empty() && self.excludes(real, is_dir))
            || self.untracked(relative, is_dir)
    }
}

/// The file `path` names among a selection's files, for a tool that takes one file: a missing
/// path and one the selection leaves out get the same [`not_selected`] answer; a link out of
/// the root is a violation whether or not its target exists (`ProjectRoot::resolve`).
pub(crate) fn selected_file<'a>(
    root: &ProjectRoot,
    path: &str,
    files: &[&'a Entry],
    tool: &str,
) -> Result<(String, &'a Entry)> {
    let lexical = root.lexical(path)?;
    let named = lexical.as_str();
    let resolved = match root.resolve(path) {
        Err(err) if err.kind == ErrorKind::RootViolation => return Err(err),
        other => other,
    };
    // The listed names where the path resolves (another case on a volume that ignores case).
    let target = match &resolved {
        Ok(resolved) => resolved.relative.as_str().to_string(),
        Err(_) => named.to_string(),
    };
    if let Some(entry) = files.iter().find(|e| e.relative == target) {
        // A selected file that cannot be opened says why.
        resolved.map_err(|err| match err.kind {
            ErrorKind::PathNotFound => not_selected(named, "a file"),
            _ => err,
        })?;
        return Ok((target, entry));
    }
    let folder = format!("{target}/");
    if target.is_empty() || files.iter().any(|e| e.relative.starts_with(&folder)) {
        return Err(DpxError::invalid_arguments(format!(
            "'{target}' is a folder; {tool} takes one file. Use get_tree to list its files"
        )));
    }
    Err(not_selected(named, "a file"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_results_cuts_inside_a_group_at_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("a.txt"),
            "hit 1\nhit 2\nhit 3\nhit 4\nplain\n",
        )
        .unwrap();
        let root = ProjectRoot::open(dir.path()).unwrap();
        let engine = Engine::new(EngineConfig::default());
        let options = SearchOptions {
            pattern: "hit".into(),
            ignore_case: true,
            context_lines: 2,
            max_results: 2,
            deadline: Some(Duration::from_secs(limits::SEARCH_DEADLINE_SECS)),
            ..Default::default()
        };
        let outcome = engine
            .search(&root, &Request::default(), &options, None, Hooks::default())
            .unwrap();
        assert_eq!(outcome.matches, 2);
        assert_eq!(outcome.coverage.stopped, Some(SearchStop::MaxResults));
        assert_eq!(
            crate::render::search::grep_lines(&outcome.groups, true),
            "a.txt:1:hit 1\na.txt:2:hit 2\n"
        );
    }

    fn search_tree(files: usize) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..files {
            std::fs::write(
                dir.path().join(format!("f{i:03}.txt")),
                format!("hit {i}\n"),
            )
            .unwrap();
        }
        dir
    }

    fn search_options(max_results: usize, deadline: Option<Duration>) -> SearchOptions {
        SearchOptions {
            pattern: "hit".into(),
            ignore_case: false,
            context_lines: 0,
            max_results,
            deadline,
            ..Default::default()
        }
    }

    #[test]
    fn search_results_come_in_selection_order_and_stop_at_the_limit() {
        let dir = search_tree(300);
        let root = ProjectRoot::open(dir.path()).unwrap();
        let engine = Engine::new(EngineConfig::default());
        let options = search_options(150, Some(Duration::from_secs(limits::SEARCH_DEADLINE_SECS)));
        let outcome = engine
            .search(&root, &Request::default(), &options, None, Hooks::default())
            .unwrap();
        // grep style: groups from different files are separated by `--`
        let expected = (0..150)
            .map(|i| format!("f{i:03}.txt:1:hit {i}\n"))
            .collect::<Vec<_>>()
            .join("--\n");
        assert_eq!(
            crate::render::search::grep_lines(&outcome.groups, true),
            expected
        );
        assert_eq!(outcome.coverage.stopped, Some(SearchStop::MaxResults));
        assert_eq!(outcome.searched_files, 150);
    }

    #[test]
    fn a_search_past_its_deadline_stops_with_what_it_has() {
        let dir = search_tree(20);
        let root = ProjectRoot::open(dir.path()).unwrap();
        let engine = Engine::new(EngineConfig::default());
        let outcome = engine
            .search(
                &root,
                &Request::default(),
                &search_options(100, Some(Duration::ZERO)),
                None,
                Hooks::default(),
            )
            .unwrap();
        assert_eq!(outcome.coverage.stopped, Some(SearchStop::Deadline));
        assert_eq!(outcome.matches, 0);
    }

    #[test]
    fn a_cancelled_search_fails_with_the_cancellation_error() {
        let dir = search_tree(20);
        let root = ProjectRoot::open(dir.path()).unwrap();
        let engine = Engine::new(EngineConfig::default());
        let cancelled = || true;
        let hooks = Hooks {
            cancelled: Some(&cancelled),
            ..Hooks::default()
        };
        let options = search_options(100, Some(Duration::from_secs(limits::SEARCH_DEADLINE_SECS)));
        let err = engine
            .search(&root, &Request::default(), &options, None, hooks)
            .unwrap_err();
        assert_eq!(err.kind, ErrorKind::Cancelled);
    }
}
