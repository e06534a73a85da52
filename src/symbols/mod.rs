//! `find_symbol` and `related_files`: the engine side of `devprojex-symbols`.
//!
//! Both go through the same selection and the same open-verify-read path as every other tool.
//! `find_symbol` redacts each selected source file, screens the redacted text for the name (a
//! literal prefilter), and parses only the files whose redacted text contains it, so every
//! signature it returns is cut from redacted text, and neither its answer (the notices about
//! files not parsed included) nor its time depends on raw bytes redaction hides: the work per
//! file up to the screen is the same whatever the name (issue 35). `related_files` keeps an
//! import index of the project (see [`index`]); the index holds paths and line numbers only,
//! and every import line it returns is read again through redaction.

pub(crate) mod index;
mod outline;
mod references;
mod render;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use devprojex_detail::Detail;
use devprojex_symbols::resolve::Target;
use devprojex_symbols::{Definition, Kind, Lang, Skip};
use serde::Serialize;

use crate::caches::Caches;
use crate::content::Content;
use crate::coverage::Coverage;
use crate::engine::{Engine, Hooks, Request, SearchStop};
use crate::error::{DpxError, ErrorKind, Result};
use crate::limits;
use crate::project::ProjectRoot;
use crate::select::{self, Entry, Selection};

pub use index::SymbolIndex;
pub use outline::{OutlineEntry, outline_text};
pub use references::{
    Confidence, Reference, ReferenceOptions, ReferencesOutcome, references_json, references_text,
    references_trailer,
};

/// How `name` is compared with definition names (always case-sensitive).
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
pub enum MatchMode {
    #[default]
    Exact,
    Prefix,
    Substring,
}

/// The `kind` filter: one kind, except that `trait` and `interface` name the same thing in
/// different languages and match each other.
fn kind_matches(filter: Option<Kind>, kind: Kind) -> bool {
    match filter {
        None => true,
        Some(Kind::Trait | Kind::Interface) => matches!(kind, Kind::Trait | Kind::Interface),
        Some(filter) => filter == kind,
    }
}

/// `find_symbol` parameters.
#[derive(Debug, Clone)]
pub struct SymbolOptions {
    pub name: String,
    pub kind: Option<Kind>,
    pub mode: MatchMode,
    pub max_results: usize,
    /// The MCP limit (10 seconds); the CLI runs to completion unless `--timeout` is given.
    pub deadline: Option<Duration>,
    /// Give each definition's redacted body ([`definition_body`]).
    pub include_body: bool,
}

/// One definition found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SymbolHit {
    pub path: String,
    pub line: usize,
    /// The definition's last line.
    #[serde(rename = "endLine")]
    pub end_line: usize,
    pub kind: &'static str,
    pub name: String,
    /// The definition's head (redacted).
    pub signature: String,
    /// The enclosing container, such as `impl Display for Point` or `class Parser`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub container: Option<String>,
    /// Lines `line..=endLine` of the redacted text (`include_body`), at most
    /// [`limits::MAX_SYMBOL_BODY_LINES`] lines and [`limits::MAX_FILE_CHARS`] characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// The body was cut at one of those bounds.
    #[serde(rename = "bodyTruncated", skip_serializing_if = "std::ops::Not::not")]
    pub body_truncated: bool,
}

/// Lines `line..=end_line` (1-based) of `text`, cut at [`limits::MAX_SYMBOL_BODY_LINES`] lines
/// and [`limits::MAX_FILE_CHARS`] characters (whole characters; a minified line is cut inside).
/// The second value says whether anything was cut.
pub fn definition_body(text: &str, line: usize, end_line: usize) -> (String, bool) {
    let wanted = end_line.saturating_sub(line) + 1;
    let shown = wanted.min(limits::MAX_SYMBOL_BODY_LINES);
    let mut body = String::new();
    let mut chars = 0;
    let mut cut = wanted > shown;
    for piece in text
        .split_inclusive('\n')
        .skip(line.saturating_sub(1))
        .take(shown)
    {
        let count = piece.chars().count();
        if chars + count > limits::MAX_FILE_CHARS {
            body.extend(piece.chars().take(limits::MAX_FILE_CHARS - chars));
            body.push('\n');
            cut = true;
            break;
        }
        chars += count;
        body.push_str(piece);
    }
    if !body.is_empty() && !body.ends_with('\n') {
        body.push('\n');
    }
    (body, cut)
}

/// The outcome of a lookup.
#[derive(Debug, Clone, Default)]
pub struct SymbolOutcome {
    pub hits: Vec<SymbolHit>,
    /// Source files of the selection screened for the name.
    pub searched_files: usize,
    /// Files that contain the name and were parsed.
    pub parsed_files: usize,
    /// Files that contain the name but are too large to parse (over 4 MiB).
    pub unparsed_files: usize,
    /// Files that contain the name but are nested too deeply to index (skipped).
    pub nested_files: usize,
    /// Files that contain the name but whose definitions would take more than 64 times their
    /// size (skipped).
    pub over_budget_files: usize,
    /// Files that contain the name but on which the parser failed (skipped).
    pub failed_files: usize,
    /// Withheld and unreadable files, the selection's warnings, and why the lookup stopped.
    pub coverage: Coverage,
}

/// A parsed `name`: what to screen for, and how to compare names and scopes.
struct Query {
    /// The name without its qualifier.
    name: String,
    /// `Parser.parse` or `net::Parser::parse`: the scope must end with these names.
    qualifier: Vec<String>,
    mode: MatchMode,
    kind: Option<Kind>,
}

impl Query {
    fn parse(options: &SymbolOptions) -> Result<Self> {
        let raw = options.name.trim();
        let chars = raw.chars().count();
        if raw.is_empty() {
            return Err(DpxError::invalid_arguments(
                "name is empty; pass the name of a function, type or other definition, such as 'copy_process' or 'Parser.parse'",
            ));
        }
        if chars > limits::MAX_SYMBOL_NAME_CHARS {
            return Err(DpxError::invalid_arguments(format!(
                "name has {chars} characters; at most {} are allowed",
                limits::MAX_SYMBOL_NAME_CHARS
            )));
        }
        if raw.chars().any(char::is_control) {
            return Err(DpxError::invalid_arguments(
                "name contains a control character; pass a definition name such as 'copy_process'",
            ));
        }
        // `operator ==` and `operator==` are one name
        let compact;
        let raw = match raw.find("operator") {
            Some(at) => {
                compact = format!(
                    "{}{}",
                    &raw[..at],
                    raw[at..].split_whitespace().collect::<String>()
                );
                compact.as_str()
            }
            None => raw,
        };
        let (qualifier, name) = split_qualified(raw);
        if name.is_empty() {
            return Err(DpxError::invalid_arguments(
                "name ends with a separator; pass a name such as 'Parser.parse' or 'parse'",
            ));
        }
        Ok(Self {
            name: name.to_string(),
            qualifier,
            mode: options.mode,
            kind: options.kind,
        })
    }

    /// Whether `definition`, in the file at `path`, is the one asked for. The file counts as
    /// a container too (its folders and its name, as Rust and Python name modules): the
    /// README's `net::Parser::parse` finds the method in `src/net.rs`.
    fn matches(&self, definition: &Definition, path: &str) -> bool {
        let name = &definition.name;
        let name_ok = match self.mode {
            MatchMode::Exact => *name == self.name,
            MatchMode::Prefix => name.starts_with(&self.name),
            MatchMode::Substring => name.contains(&self.name),
        };
        if !name_ok || !kind_matches(self.kind, definition.kind) {
            return false;
        }
        if self.qualifier.is_empty() {
            return true;
        }
        // the scope's names, each split like the query, must end with the qualifier
        let scope: Vec<&str> = file_modules(path)
            .chain(definition.scope.iter().flat_map(|s| split_all(s)))
            .collect();
        scope.len() >= self.qualifier.len()
            && scope[scope.len() - self.qualifier.len()..]
                .iter()
                .zip(&self.qualifier)
                .all(|(a, b)| a == b)
    }
}

/// The module names a file stands for: its folders and its name without the extension, a
/// `mod.rs`, `lib.rs`, `main.rs`, `index.*` or `__init__.py` standing for its folder.
fn file_modules(path: &str) -> impl Iterator<Item = &str> {
    let (dir, file) = path.rsplit_once('/').unwrap_or(("", path));
    let stem = file.split('.').next().unwrap_or(file);
    let own = (!matches!(stem, "mod" | "lib" | "main" | "index" | "__init__")).then_some(stem);
    dir.split('/').filter(|d| !d.is_empty()).chain(own)
}

fn split_all(name: &str) -> Vec<&str> {
    name.split("::")
        .flat_map(|p| p.split(['.', '#', '\\']))
        .filter(|p| !p.is_empty())
        .collect()
}

/// `a::b.c` -> ([a, b], c). An operator's own characters (`operator.`, `operator::`) are
/// never a separator.
fn split_qualified(raw: &str) -> (Vec<String>, &str) {
    let searched = &raw[..raw.find("operator").unwrap_or(raw.len())];
    let cut = ["::", ".", "#", "\\"]
        .iter()
        .filter_map(|sep| searched.rfind(sep).map(|i| (i, sep.len())))
        .max_by_key(|(i, _)| *i);
    match cut {
        Some((i, len)) => {
            let qualifier = split_all(&raw[..i])
                .into_iter()
                .map(str::to_string)
                .collect();
            (qualifier, &raw[i + len..])
        }
        None => (Vec::new(), raw),
    }
}

/// Which way `related_files` looks.
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
pub enum Direction {
    Imports,
    Importers,
    #[default]
    Both,
}

impl Direction {
    fn imports(self) -> bool {
        matches!(self, Self::Imports | Self::Both)
    }

    fn importers(self) -> bool {
        matches!(self, Self::Importers | Self::Both)
    }
}

/// `related_files` parameters.
#[derive(Debug, Clone)]
pub struct RelatedOptions {
    pub path: String,
    pub direction: Direction,
    pub depth: usize,
    pub max_results: usize,
    /// The MCP limit (10 seconds); the CLI runs to completion unless `--timeout` is given.
    pub deadline: Option<Duration>,
}

/// One related file (or package folder) and the import line that links it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RelatedFile {
    /// The related file, or a package folder (Go, Java wildcard imports, C# namespaces).
    pub path: String,
    pub folder: bool,
    /// 1 for a direct import, 2 or 3 through others.
    pub depth: usize,
    /// The file holding the import line: `path` for an importer at depth 1, the target (or
    /// the file through which it was reached) for an import.
    pub via: String,
    pub line: usize,
    /// The import line, redacted.
    pub text: String,
}

/// The outcome of `related_files`.
#[derive(Debug, Clone, Default)]
pub struct RelatedOutcome {
    pub path: String,
    pub direction: Direction,
    pub depth: usize,
    pub imports: Vec<RelatedFile>,
    pub importers: Vec<RelatedFile>,
    /// Imports of `path` that lead to no project file (standard library, packages outside the
    /// project, generated files, a macro include).
    pub unresolved: usize,
    /// C/C++ includes found in several include folders equally near (the kernel's `<asm/...>`).
    pub ambiguous: usize,
    /// Related files beyond `max_results` that were not listed.
    pub truncated: usize,
    /// Files whose imports were not indexed when the time limit was reached.
    pub pending_files: usize,
    /// Why the imports of `path` are unknown, when it was skipped (too deeply nested, too
    /// large, or the parser failed on it).
    pub skipped: Option<Skip>,
    /// Withheld and unreadable files and the selection's warnings (a stop is `pending_files`).
    pub coverage: Coverage,
}

/// Extensions the two tools read (source files and the configuration files of imports).
fn source_extensions(with_configs: bool) -> Vec<String> {
    let mut out: Vec<String> = Lang::EXTENSIONS.iter().map(|e| e.to_string()).collect();
    if with_configs {
        out.extend(["toml", "mod", "json"].iter().map(|e| e.to_string()));
        out.extend(
            devprojex_symbols::imports::INCLUDE_FRAGMENT_EXTENSIONS
                .iter()
                .map(|e| e.to_string()),
        );
    }
    out
}

impl Engine {
    /// The selection narrowed to source files (and, for imports, their configuration files):
    /// other files are not listed, so the walk does not open them. With `keep` (the server's
    /// `related_files`), the last walk is reused while nothing it depends on changed.
    fn select_sources(
        &self,
        root: &ProjectRoot,
        request: &Request,
        with_configs: bool,
        keep: bool,
        caches: Option<&Caches>,
    ) -> Result<Arc<Selection>> {
        let mut prepared = self.prepare(root, request, caches)?;
        let ours = source_extensions(with_configs);
        if prepared.spec.extensions.is_empty() {
            prepared.spec.extensions = ours;
        } else {
            prepared.spec.extensions.retain(|e| ours.contains(e));
            if prepared.spec.extensions.is_empty() {
                // the profile allows no source file: nothing to look at
                let mut selection = Selection::default();
                selection.warnings.deleted = prepared.deleted;
                return Ok(Arc::new(selection));
            }
        }
        let selection = match caches {
            Some(caches) if keep => caches.selection.select(root, &prepared.spec, true)?,
            _ => Arc::new(select::select(root, &prepared.spec)?),
        };
        if selection.warnings.deleted == prepared.deleted {
            return Ok(selection);
        }
        let mut selection = (*selection).clone();
        selection.warnings.deleted = prepared.deleted;
        Ok(Arc::new(selection))
    }

    /// Definitions named like `options.name` in the selection's source files.
    pub fn find_symbol(
        &self,
        root: &ProjectRoot,
        request: &Request,
        options: &SymbolOptions,
        caches: Option<&Caches>,
        hooks: Hooks<'_>,
    ) -> Result<SymbolOutcome> {
        check_max_results(options.max_results)?;
        let query = Query::parse(options)?;
        let started = Instant::now();
        let selection = self.select_sources(root, request, false, false, caches)?;
        let files: Vec<&Entry> = selection
            .files()
            .filter(|f| !f.binary && Lang::of_path(&f.relative).is_some())
            .collect();
        let pipeline = self.pipeline(Detail::Full, caches);
        let needle = memchr::memmem::Finder::new(query.name.as_bytes());
        let cache = caches.map(|c| &c.symbols);
        let mut outcome = SymbolOutcome {
            coverage: Coverage::of(&selection.warnings),
            ..SymbolOutcome::default()
        };
        enum Found {
            Screened,
            Withheld,
            Unreadable,
            Unparsed(Skip),
            Parsed(Vec<SymbolHit>),
        }
        enum Halt {
            Stopped(SearchStop),
            Failed(DpxError),
        }
        const WINDOW_BYTES: u64 = 8 * 1024 * 1024;
        let halted = crate::ordered::for_each_ordered(
            files.len(),
            rayon::current_num_threads(),
            WINDOW_BYTES,
            |i| load_cost(files[i]),
            |i| {
                if options.deadline.is_some_and(|d| started.elapsed() >= d) {
                    return None;
                }
                let entry = files[i];
                // asked inside the parse and the walk of a file too: one minified megabyte
                // line must not hold the deadline or a cancellation up
                let stop = || {
                    options.deadline.is_some_and(|d| started.elapsed() >= d)
                        || hooks.cancelled.is_some_and(|c| c())
                };
                Some(match pipeline.load_matching(root, entry, &needle) {
                    None => Found::Screened,
                    Some(Content::Text(text)) => {
                        let definitions = match cache {
                            Some(cache) => cache.definitions(&entry.relative, &text.text, &stop),
                            None => devprojex_symbols::try_definitions_until(
                                &entry.relative,
                                &text.text,
                                &stop,
                            )
                            .map(|found| found.map(Arc::new)),
                        };
                        match definitions {
                            None => Found::Screened,
                            Some(Err(skip)) => Found::Unparsed(skip),
                            Some(Ok(definitions)) => Found::Parsed(
                                definitions
                                    .iter()
                                    .filter(|d| query.matches(d, &entry.relative))
                                    .map(|d| SymbolHit {
                                        path: entry.relative.to_string(),
                                        line: d.line,
                                        end_line: d.end_line,
                                        kind: d.kind.as_str(),
                                        name: d.name.clone(),
                                        signature: d.signature.clone(),
                                        container: d.container.clone(),
                                        body: None,
                                        body_truncated: false,
                                    })
                                    .map(|mut hit| {
                                        if options.include_body {
                                            let (body, cut) =
                                                definition_body(&text.text, hit.line, hit.end_line);
                                            hit.body = Some(body);
                                            hit.body_truncated = cut;
                                        }
                                        hit
                                    })
                                    .collect(),
                            ),
                        }
                    }
                    Some(Content::Withheld) => Found::Withheld,
                    Some(Content::Unreadable) => Found::Unreadable,
                    Some(Content::Binary) => Found::Screened,
                    Some(Content::Measured(_)) => unreachable!("find_symbol loads content"),
                })
            },
            |_, found| {
                if hooks.cancelled.is_some_and(|c| c()) {
                    return Err(Halt::Failed(cancelled()));
                }
                let Some(found) = found else {
                    return Err(Halt::Stopped(SearchStop::Deadline));
                };
                match found {
                    Found::Withheld => {
                        outcome.coverage.withheld_files += 1;
                        return Ok(());
                    }
                    Found::Unreadable => {
                        outcome.coverage.unreadable_files += 1;
                        return Ok(());
                    }
                    Found::Screened => {}
                    Found::Unparsed(Skip::TooLarge) => outcome.unparsed_files += 1,
                    Found::Unparsed(Skip::TooDeeplyNested) => outcome.nested_files += 1,
                    Found::Unparsed(Skip::OverBudget) => outcome.over_budget_files += 1,
                    Found::Unparsed(Skip::Failed | Skip::ParseOverBudget) => {
                        outcome.failed_files += 1
                    }
                    Found::Unparsed(Skip::Interrupted) => {
                        return Err(Halt::Stopped(SearchStop::Deadline));
                    }
                    Found::Parsed(hits) => {
                        outcome.parsed_files += 1;
                        for hit in hits {
                            if outcome.hits.len() >= options.max_results {
                                outcome.searched_files += 1;
                                return Err(Halt::Stopped(SearchStop::MaxResults));
                            }
                            outcome.hits.push(hit);
                        }
                    }
                }
                outcome.searched_files += 1;
                Ok(())
            },
        );
        match halted {
            Ok(()) => {}
            Err(crate::ordered::Stopped::Sink(Halt::Stopped(stop))) => {
                outcome.coverage.stopped = Some(stop)
            }
            Err(crate::ordered::Stopped::Sink(Halt::Failed(e))) => return Err(e),
            Err(crate::ordered::Stopped::WorkerPanicked) => return Err(worker_failed()),
        }
        Ok(outcome)
    }

    /// Project files linked to `options.path` by static imports.
    pub fn related_files(
        &self,
        root: &ProjectRoot,
        request: &Request,
        options: &RelatedOptions,
        caches: Option<&Caches>,
        hooks: Hooks<'_>,
    ) -> Result<RelatedOutcome> {
        check_max_results(options.max_results)?;
        if !(1..=limits::MAX_RELATED_DEPTH).contains(&options.depth) {
            return Err(DpxError::invalid_arguments(format!(
                "depth is {}; it must be between 1 and {}",
                options.depth,
                limits::MAX_RELATED_DEPTH
            )));
        }
        let chars = options.path.chars().count();
        if chars > crate::limits::MAX_PATH_CHARS {
            return Err(DpxError::invalid_arguments(format!(
                "path has {chars} characters; at most {} are allowed",
                crate::limits::MAX_PATH_CHARS
            )));
        }
        let started = Instant::now();
        let selection = self.select_sources(root, request, true, true, caches)?;
        let entries: Vec<&Entry> = selection.files().collect();
        let (target, target_entry) =
            crate::engine::selected_file(root, &options.path, &entries, "related_files")?;
        if Lang::of_path(&target).is_none()
            && !devprojex_symbols::imports::is_include_fragment(&target)
        {
            return Err(DpxError::new(
                ErrorKind::PathNotFound,
                format!(
                    "'{target}' has no related files: it is not a source file of a language with imports; use get_tree to list the project's files"
                ),
            ));
        }
        let fresh;
        let index = match caches {
            Some(caches) => &caches.symbols,
            None => {
                fresh = SymbolIndex::new(0);
                &fresh
            }
        };
        let pipeline = self.pipeline(Detail::Full, caches);
        // without a limit (the CLI's default), a day is as good as forever
        let deadline = started + options.deadline.unwrap_or(Duration::from_secs(86_400));
        let cancelled = || hooks.cancelled.is_some_and(|c| c());
        let shared = index.root_index(root);
        let mut project = index.project(
            &shared,
            root,
            &entries,
            &pipeline,
            // the importers of one file are found without the whole importer map (see
            // `ProjectGraph::direct_importers`); further levels use the map
            options.direction.importers() && options.depth > 1,
            deadline,
            &cancelled,
        )?;
        project.note_entry(target_entry);
        let mut outcome = RelatedOutcome {
            path: target.to_string(),
            direction: options.direction,
            depth: options.depth,
            coverage: Coverage {
                withheld_files: project.withheld_files as u64,
                unreadable_files: project.unreadable_files as u64,
                ..Coverage::of(&selection.warnings)
            },
            pending_files: project.pending_files,
            ..RelatedOutcome::default()
        };
        // file -> (depth, via, line), breadth first, in selection order within a level
        let mut found_imports: Vec<(Target, usize, String, usize)> = Vec::new();
        if options.direction.imports() {
            let mut seen: HashSet<Target> = HashSet::new();
            seen.insert(Target::File(target.clone()));
            let mut frontier = vec![target.clone()];
            for depth in 1..=options.depth {
                let mut next = Vec::new();
                for file in &frontier {
                    let edges = project.imports_of(file, &entries, &pipeline, deadline);
                    if depth == 1 {
                        outcome.unresolved += edges.unresolved;
                        outcome.ambiguous += edges.ambiguous;
                        outcome.skipped = edges.skipped;
                    }
                    for (target_of_edge, line) in edges.edges {
                        if seen.insert(target_of_edge.clone()) {
                            found_imports.push((target_of_edge.clone(), depth, file.clone(), line));
                            next.extend(project.files_of(&target_of_edge));
                        }
                    }
                }
                frontier = next;
            }
        }
        let mut found_importers: Vec<(String, usize, String, usize)> = Vec::new();
        if options.direction.importers() {
            let mut seen: HashSet<String> = HashSet::new();
            seen.insert(target.clone());
            let mut frontier = vec![target.clone()];
            for depth in 1..=options.depth {
                let mut next = Vec::new();
                for file in &frontier {
                    let importers = if options.depth == 1 {
                        let direct =
                            project.direct_importers(file, &pipeline, deadline, &cancelled)?;
                        outcome.coverage.withheld_files += direct.withheld_files as u64;
                        outcome.coverage.unreadable_files += direct.unreadable_files as u64;
                        outcome.pending_files += direct.pending_files;
                        direct
                            .importers
                            .into_iter()
                            .map(|(entry, line)| (entry.relative.clone(), line))
                            .collect()
                    } else {
                        project.importers_of(file)
                    };
                    for (importer, line) in importers {
                        if seen.insert(importer.clone()) {
                            found_importers.push((importer.clone(), depth, importer.clone(), line));
                            next.push(importer);
                        }
                    }
                }
                frontier = next;
            }
        }
        // the budget is shared: imports first, then importers
        let total = found_imports.len() + found_importers.len();
        let mut room = options.max_results;
        found_imports.truncate(room);
        room -= found_imports.len();
        found_importers.truncate(room);
        outcome.truncated = total - found_imports.len() - found_importers.len();
        // every line shown is read again through redaction
        let mut wanted: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (_, _, via, line) in &found_imports {
            wanted.entry(via.clone()).or_default().push(*line);
        }
        for (_, _, via, line) in &found_importers {
            wanted.entry(via.clone()).or_default().push(*line);
        }
        let mut by_path: HashMap<&str, &Entry> = HashMap::new();
        for via in wanted.keys() {
            if let Some(entry) = project.entry(via) {
                by_path.insert(entry.relative.as_str(), entry);
            }
        }
        drop(project);
        let lines = redacted_lines(root, &pipeline, &by_path, &wanted);
        let line_text = |via: &str, line: usize| {
            lines
                .get(&(via.to_string(), line))
                .cloned()
                .unwrap_or_default()
        };
        outcome.imports = found_imports
            .into_iter()
            .map(|(t, depth, via, line)| RelatedFile {
                // the package at a Go module's root is the folder "", shown as "."
                path: match t.path() {
                    "" => ".".to_string(),
                    path => path.to_string(),
                },
                folder: matches!(t, Target::Folder(_)),
                depth,
                text: line_text(&via, line),
                via: via.to_string(),
                line,
            })
            .collect();
        outcome.importers = found_importers
            .into_iter()
            .map(|(path, depth, via, line)| RelatedFile {
                path: path.to_string(),
                folder: false,
                depth,
                text: line_text(&via, line),
                via: via.to_string(),
                line,
            })
            .collect();
        if cancelled() {
            return Err(cancelled_error());
        }
        Ok(outcome)
    }
}

/// The redacted text of the wanted lines, read through the content pipeline.
fn redacted_lines(
    root: &ProjectRoot,
    pipeline: &crate::content::ContentPipeline,
    by_path: &HashMap<&str, &Entry>,
    wanted: &BTreeMap<String, Vec<usize>>,
) -> HashMap<(String, usize), String> {
    use rayon::prelude::*;
    wanted
        .par_iter()
        .flat_map_iter(|(path, lines)| {
            let text = by_path
                .get(path.as_str())
                .and_then(|entry| match pipeline.load(root, entry) {
                    Content::Text(text) => Some(text.text),
                    _ => None,
                })
                .unwrap_or_default();
            let all: Vec<&str> = text.lines().collect();
            lines
                .iter()
                .map(|&line| {
                    let shown = all
                        .get(line.wrapping_sub(1))
                        .map(|l| shorten(l.trim_end_matches('\r').trim()))
                        .unwrap_or_default();
                    ((path.clone(), line), shown)
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Import lines are shown whole up to this many characters.
const MAX_LINE_CHARS: usize = 300;

fn shorten(line: &str) -> String {
    if line.chars().count() <= MAX_LINE_CHARS {
        line.to_string()
    } else {
        let mut out: String = line.chars().take(MAX_LINE_CHARS - 1).collect();
        out.push('…');
        out
    }
}

fn check_max_results(max_results: usize) -> Result<()> {
    if max_results == 0 || max_results > limits::MAX_SYMBOL_RESULTS {
        return Err(DpxError::invalid_arguments(format!(
            "max_results is {max_results}; it must be between 1 and {}",
            limits::MAX_SYMBOL_RESULTS
        )));
    }
    Ok(())
}

fn load_cost(entry: &Entry) -> u64 {
    entry.size.min(devprojex_redact::INSPECTION_LIMIT_BYTES + 1)
}

fn cancelled() -> DpxError {
    cancelled_error()
}

fn cancelled_error() -> DpxError {
    DpxError::cancelled()
}

fn worker_failed() -> DpxError {
    DpxError::new(
        ErrorKind::ProjectUnavailable,
        "reading file contents failed unexpectedly; retry",
    )
}

pub use render::{related_text, related_trailer, symbols_text, symbols_trailer};

#[cfg(test)]
mod tests {
    use super::*;

    fn query(name: &str) -> Query {
        Query::parse(&SymbolOptions {
            name: name.into(),
            kind: None,
            mode: MatchMode::Exact,
            max_results: 50,
            deadline: None,
            include_body: false,
        })
        .unwrap()
    }

    #[test]
    fn qualified_names_split_at_their_last_separator() {
        let q = query("net::Parser::parse");
        assert_eq!(
            (q.qualifier.as_slice(), q.name.as_str()),
            (&["net".to_string(), "Parser".to_string()][..], "parse")
        );
        let q = query("Parser.parse");
        assert_eq!(q.qualifier, ["Parser"]);
        let q = query("operator ==");
        assert_eq!((q.qualifier.len(), q.name.as_str()), (0, "operator=="));
        let q = query("A::operator==");
        assert_eq!(
            (q.qualifier.as_slice(), q.name.as_str()),
            (&["A".to_string()][..], "operator==")
        );
    }
}
