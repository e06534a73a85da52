//! What the two tools remember between requests (in the MCP server process only; never on
//! disk), and the import graph of one request.
//!
//! - Definitions are kept by content: the language, the length and a randomly keyed hash of the
//!   redacted text. An edit of any size changes the key.
//! - Import facts are kept per file, keyed by what the walk saw: size, modification and change
//!   times, device and inode. A file whose modification time was less than
//!   [`RACY_WINDOW_NS`] before it was read is "racy", as Git calls it: another write in the same
//!   clock tick would leave every stat field the same, so the key alone is not trusted and the
//!   file is read again (and its content hash compared) until it has been still long enough.
//! - The project view (files, configuration, declared packages) is rebuilt when its fingerprint
//!   changes: the file list, the configuration files' keys, the declared packages. The names
//!   Rust crate roots and parent modules bring in by `use`, `extern crate` and `mod` (a
//!   facade's `pub extern crate x as y;`, a private `mod poll_fn;`) come from those files'
//!   import facts, kept like any file's, and are set again in the view when they change.
//!   Either change drops the resolved edges. Resolved edges are kept per file and the
//!   reverse (importer) map is updated file by file.
//!
//! Paths are interned as numbers so a tree the size of the kernel's (1.2 million includes)
//! stays small.
//!
//! **What raw text can tell (issue 35).** The import index reads files unredacted (a
//! redaction span may cover an import), so its answers and its time depend on raw bytes. They
//! reveal no more than this: an edge is a pair of project paths and a line number, and the
//! line shown is read again through redaction. What a secret could change is whether some line
//! resolves to an existing project file — its path, which `get_tree` lists anyway. The
//! importer screen (the [`Need`] literals) looks for a target's own file name or module name,
//! not for text the caller chooses: `related_files` takes only a selected file's path, so the
//! probes are fixed by the project's file list and the caller cannot walk a secret character
//! by character as it could with `find_symbol`'s old raw screen of the name asked for. A file
//! skipped for its nesting or size is skipped whatever the secrets in it, since redaction does
//! not change nesting and changes sizes only by the placeholders.

use std::collections::hash_map::RandomState;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use devprojex_symbols::imports::{FileFacts, Spec};
use devprojex_symbols::resolve::{self, ProjectView, Target, ViewInput};
use devprojex_symbols::{Definition, Lang};
use rayon::prelude::*;

use crate::content::{ContentPipeline, Screened, Unredacted};
use crate::error::{DpxError, Result};
use crate::project::ProjectRoot;
use crate::project::jail::FileId;
use crate::select::Entry;

pub use crate::facts::RACY_WINDOW_NS;

/// Everything remembered across requests.
pub struct SymbolIndex {
    definitions: Mutex<DefinitionCache>,
    roots: Mutex<HashMap<std::path::PathBuf, Arc<Mutex<RootIndex>>>>,
    pub(super) hasher: RandomState,
}

impl std::fmt::Debug for SymbolIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SymbolIndex").finish_non_exhaustive()
    }
}

struct DefinitionCache {
    budget: usize,
    held: usize,
    entries: HashMap<(Lang, usize, u64), Arc<Vec<Definition>>>,
}

fn definitions_cost(definitions: &[Definition]) -> usize {
    64 + definitions
        .iter()
        .map(|d| {
            160 + d.name.len()
                + d.signature.len()
                + d.container.as_ref().map_or(0, String::len)
                + d.scope.iter().map(|s| s.len() + 24).sum::<usize>()
        })
        .sum::<usize>()
}

impl SymbolIndex {
    /// `definition_budget`: bytes of parsed definitions kept (0 keeps none).
    pub fn new(definition_budget: usize) -> Self {
        Self {
            definitions: Mutex::new(DefinitionCache {
                budget: definition_budget,
                held: 0,
                entries: HashMap::new(),
            }),
            roots: Mutex::new(HashMap::new()),
            hasher: RandomState::new(),
        }
    }

    fn hash_bytes(&self, bytes: &[u8]) -> u64 {
        self.hasher.hash_one(bytes)
    }

    /// The definitions of a (redacted) text, parsed once per content; `Some(Err)` for a
    /// file that was skipped or interrupted by `stop` (not kept).
    pub fn definitions(
        &self,
        path: &str,
        text: &str,
        stop: devprojex_symbols::Stop<'_>,
    ) -> Option<Result<Arc<Vec<Definition>>, devprojex_symbols::Skip>> {
        let lang = Lang::of_file(path, text)?;
        let key = (lang, text.len(), self.hash_bytes(text.as_bytes()));
        if let Some(found) = lock(&self.definitions).entries.get(&key) {
            return Some(Ok(Arc::clone(found)));
        }
        let definitions = match devprojex_symbols::try_definitions_until(path, text, stop)? {
            Ok(found) => Arc::new(found),
            Err(skip) => return Some(Err(skip)),
        };
        let cost = definitions_cost(&definitions);
        let mut cache = lock(&self.definitions);
        if cost <= cache.budget / 4 {
            if cache.held + cost > cache.budget {
                // crude but bounded: start over (lookups parse only the files holding a name)
                cache.entries.clear();
                cache.held = 0;
            }
            cache.held += cost;
            cache.entries.insert(key, Arc::clone(&definitions));
        }
        Some(Ok(definitions))
    }

    /// The index of one root (shared by the requests on it, one at a time).
    pub fn root_index(&self, root: &ProjectRoot) -> Arc<Mutex<RootIndex>> {
        let mut roots = lock(&self.roots);
        Arc::clone(roots.entry(root.path.clone()).or_default())
    }

    /// The import graph of `root` for this request's selection (`entries`). With `all`, every
    /// file's imports are indexed (importers need them), else only the files that declare
    /// packages or namespaces (imports resolution needs those) and, later, what is asked.
    #[allow(clippy::too_many_arguments)]
    pub fn project<'a>(
        &'a self,
        shared: &'a Mutex<RootIndex>,
        root: &'a ProjectRoot,
        entries: &[&'a Entry],
        pipeline: &ContentPipeline,
        all: bool,
        deadline: Instant,
        cancelled: &(dyn Fn() -> bool + Sync),
    ) -> Result<ProjectGraph<'a>> {
        let mut graph = ProjectGraph {
            index: self,
            root,
            state: lock(shared),
            relevant: Vec::new(),
            classes: Vec::new(),
            order: None,
            entries_seen: HashMap::new(),
            reverse_ready: false,
            withheld_files: 0,
            unreadable_files: 0,
            pending_files: 0,
        };
        graph.prepare(entries, pipeline, all, deadline, cancelled)?;
        Ok(graph)
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// What the walk saw of a file: any edit changes one of these (see the racy rule above).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct FileKey {
    size: u64,
    modified_ns: i64,
    changed_ns: i64,
    id: Option<FileId>,
}

impl FileKey {
    fn of(entry: &Entry) -> Self {
        Self {
            size: entry.size,
            modified_ns: entry.modified_ns,
            changed_ns: entry.changed_ns,
            id: entry.id,
        }
    }
}

struct FactsEntry {
    key: FileKey,
    /// When the content was read (ns since the epoch).
    read_at_ns: i64,
    content_hash: u64,
    facts: Arc<FileFacts>,
}

impl FactsEntry {
    /// The stat key is enough only when the file had been still for a while when it was read,
    /// and only on Unix: elsewhere there is no change time, so an edit that puts the
    /// modification time back would go unseen; there the content is read and hashed every time
    /// (an unchanged file is not parsed again).
    fn trusted(&self, key: &FileKey) -> bool {
        settled(&self.key, self.read_at_ns, key)
    }
}

/// Whether what was learnt from a file read at `read_at_ns`, when the walk saw it as `seen`,
/// still holds for a file the walk now sees as `now` (see [`FactsEntry::trusted`]).
fn settled(seen: &FileKey, read_at_ns: i64, now: &FileKey) -> bool {
    cfg!(unix)
        && seen == now
        && seen.modified_ns < read_at_ns - RACY_WINDOW_NS
        && seen.changed_ns < read_at_ns - RACY_WINDOW_NS
}

/// What a file must contain for one of its imports to lead to a given target: the importer
/// prefilter of `related_files` (depth 1), which spares reading the imports of every file
/// of a tree like the kernel's to answer "who includes kernel/fork.c".
///
/// Why each rule is sound (a file it skips has no import that resolves to the target):
/// - C, C++ and include fragments: an `#include` path is a byte slice of the file's text (no
///   escapes, no line splicing in `include_directive`). Resolution joins it to a folder (the
///   including file's, a project `include/` folder, a compile_commands.json folder), so the
///   resolved path's last component is either a component written in the directive, or, when
///   `..` climbs out of every written one, that folder or one of its ancestors. The including
///   file's folder and `include/` folders are folders, never files; compile_commands.json
///   folders could name a file only if the project says so, and then the rule is
///   [`Need::Always`]. So the target's file name appears in the text.
/// - Python: a module resolves to `<base>/<a>/<b>.py` (or `.pyi`) with `b` the last
///   identifier written in the import (`import a.b`, `from a import b`), or to a package's
///   `__init__.py`, which `from . import x` reaches without naming it. So a target `b.py`
///   needs `b` in the text, an `__init__` needs nothing, and any other file is unreachable.
/// - Everything else (Rust's `crate`/`super` paths and crate roots, JavaScript's `index`
///   files, `tsconfig` paths and package entries, Go, Java and Kotlin wildcard imports, C#
///   namespaces, Ruby, PHP) may lead to a file without naming it: those files are always
///   read.
///
/// Import facts come from the unredacted text (the index keeps paths and lines only), so a
/// redaction marker can neither create nor hide a needle; the raw bytes are screened before
/// decoding, which changes nothing: lossy decoding replaces only invalid UTF-8, never the
/// bytes of a needle that is valid UTF-8 without U+FFFD (a needle with U+FFFD is not
/// screened).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Need {
    /// No import of this file's language can lead to the target: the file is only
    /// classified (read, so that withheld and unreadable files are counted as before).
    Never,
    /// Any file of this language may lead to it: its imports are read.
    Always,
    /// Only a file whose text contains this literal.
    Literal(String),
}

/// What a relevant file is, for the import index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// A configuration file that steers resolution (`Cargo.toml`, `tsconfig.json`, ...).
    Config,
    /// C, C++ and include fragments: `#include` lines.
    Include,
    Python,
    /// Java, Kotlin, Scala, C#, PHP: they declare packages or namespaces.
    Declaring,
    /// Any other language with imports.
    Other,
}

impl Class {
    fn of(path: &str) -> Option<Class> {
        Some(match Lang::of_path(path) {
            Some(Lang::C | Lang::Cpp) => Class::Include,
            Some(Lang::Python) => Class::Python,
            Some(Lang::Java | Lang::Kotlin | Lang::Scala | Lang::CSharp | Lang::Php) => {
                Class::Declaring
            }
            Some(_) => Class::Other,
            None if resolve::is_config_file(path) => Class::Config,
            None if devprojex_symbols::imports::is_include_fragment(path) => Class::Include,
            None => return None,
        })
    }
}

/// What a file of `class` must contain to import `target` (the rules are argued at [`Need`]).
fn importer_need(class: Class, target: &str, includes_name_their_file: bool) -> Need {
    let name = resolve::file_name(target);
    let need = match class {
        Class::Include if includes_name_their_file => Need::Literal(name.to_string()),
        Class::Python => match name
            .strip_suffix(".py")
            .or_else(|| name.strip_suffix(".pyi"))
        {
            None => Need::Never,
            Some("__init__") => Need::Always,
            Some(module) => Need::Literal(module.to_string()),
        },
        // configuration files are not importers (they are never screened)
        Class::Config => Need::Never,
        Class::Include | Class::Declaring | Class::Other => Need::Always,
    };
    match need {
        Need::Literal(text) if text.is_empty() || text.contains('\u{FFFD}') => Need::Always,
        need => need,
    }
}

/// The files screened out for one target (the last few targets are kept per root): a file
/// is not read again while the walk sees it unchanged (and it had settled when read).
struct Screen {
    target: String,
    includes_name_their_file: bool,
    absent: foldhash::HashMap<String, (FileKey, i64)>,
}

/// Targets whose screens a root keeps.
const SCREENS_KEPT: usize = 4;

/// What is known of a file that must be read again: its content hash and facts.
type Known = (u64, Arc<FileFacts>);

/// A resolved import before interning: target (`None`: unresolved), line, ambiguous. (A
/// target's path can be empty: a Go package at the module root is the folder "".)
type RawEdge = (Option<Target>, usize, bool);

/// One resolved import of a file: where it leads (an interned path) and its line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Edge {
    target: u32,
    folder: bool,
    line: u32,
}

#[derive(Debug, Default)]
struct Resolved {
    edges: Vec<Edge>,
    unresolved: usize,
    ambiguous: usize,
}

/// Which kind of package a folder edge names, so a Go folder edge is not read as a Java one.
fn family(path: &str) -> u8 {
    match Lang::of_path(path) {
        Some(Lang::Go) => 1,
        Some(Lang::Java | Lang::Kotlin | Lang::Scala) => 2,
        Some(Lang::CSharp) => 3,
        Some(Lang::Php) => 4,
        _ => 0,
    }
}

/// The index of one root.
#[derive(Default)]
pub struct RootIndex {
    /// (A fast hash: a warm request looks up every selected file.)
    facts: foldhash::HashMap<String, FactsEntry>,
    paths: Vec<Arc<str>>,
    ids: HashMap<Arc<str>, u32>,
    view: Option<ViewState>,
    /// Most recent last.
    screens: Vec<Screen>,
}

impl RootIndex {
    fn intern(&mut self, path: &str) -> u32 {
        if let Some(&id) = self.ids.get(path) {
            return id;
        }
        let id = self.paths.len() as u32;
        let shared: Arc<str> = Arc::from(path);
        self.paths.push(Arc::clone(&shared));
        self.ids.insert(shared, id);
        id
    }
}

struct ViewState {
    fingerprint: u64,
    /// The Rust crate roots and parent modules of the view, whose names it follows.
    rust_name_files: Arc<[String]>,
    /// Of the names those files bring in, as set in the view (`None`: none set).
    rust_names_fingerprint: Option<u64>,
    view: Arc<ProjectView>,
    /// Per importer: the facts its edges came from, and the edges.
    resolved: HashMap<u32, (Arc<FileFacts>, Arc<Resolved>)>,
    /// (target, is folder) -> importers with the line of their first import of it.
    reverse: HashMap<(u32, bool), Vec<(u32, u32)>>,
    /// Importers whose edges are in `reverse`.
    in_reverse: HashSet<u32>,
}

impl ViewState {
    /// Record a file's edges; the importer map forgets its old ones (they are added back,
    /// with the new ones, by `ensure_reverse`).
    fn store(&mut self, id: u32, facts: Arc<FileFacts>, resolved: Arc<Resolved>) {
        if let Some((_, old)) = self.resolved.insert(id, (facts, resolved))
            && self.in_reverse.remove(&id)
        {
            for edge in &old.edges {
                if let Some(importers) = self.reverse.get_mut(&(edge.target, edge.folder)) {
                    importers.retain(|(importer, _)| *importer != id);
                }
            }
        }
    }
}

/// The import graph for one request: holds the root's index until it is released.
pub struct ProjectGraph<'a> {
    index: &'a SymbolIndex,
    root: &'a ProjectRoot,
    state: MutexGuard<'a, RootIndex>,
    /// The selection's files with imports (and the configuration files), in selection order.
    relevant: Vec<&'a Entry>,
    /// What each relevant file is (aligned with `relevant`).
    classes: Vec<Class>,
    /// Position of each relevant file in selection order (results are sorted by it); built
    /// when first needed, so that a warm call that needs none of it costs no map.
    order: Option<HashMap<&'a str, usize>>,
    /// Entries this request looked up by path (the files whose lines are shown).
    entries_seen: HashMap<&'a str, &'a Entry>,
    /// The importer map is complete for this request.
    reverse_ready: bool,
    pub withheld_files: usize,
    pub unreadable_files: usize,
    pub pending_files: usize,
}

/// [`ProjectGraph::direct_importers`]: the importers (with the line of their first import of
/// the file), and the files it could not read.
#[derive(Debug, Default)]
pub struct DirectImporters<'a> {
    pub importers: Vec<(&'a Entry, usize)>,
    pub withheld_files: usize,
    pub unreadable_files: usize,
    pub pending_files: usize,
}

/// The imports of one file, resolved.
pub struct FileEdges {
    pub edges: Vec<(Target, usize)>,
    pub unresolved: usize,
    pub ambiguous: usize,
    /// Why the file's imports are unknown, when it was skipped.
    pub skipped: Option<devprojex_symbols::Skip>,
}

impl<'a> ProjectGraph<'a> {
    fn state(&mut self) -> &mut RootIndex {
        &mut self.state
    }

    /// The position of each relevant file (built once per request, when first needed).
    fn order(&mut self) -> &HashMap<&'a str, usize> {
        let relevant = &self.relevant;
        self.order.get_or_insert_with(|| {
            relevant
                .iter()
                .enumerate()
                .map(|(i, e)| (e.relative.as_str(), i))
                .collect()
        })
    }

    /// Remember the entry of a file the request names (its lines may be shown).
    pub fn note_entry(&mut self, entry: &'a Entry) {
        self.entries_seen.insert(entry.relative.as_str(), entry);
    }

    /// The selection entry of a relevant file.
    pub fn entry(&mut self, path: &str) -> Option<&'a Entry> {
        if let Some(entry) = self.entries_seen.get(path) {
            return Some(*entry);
        }
        let at = *self.order().get(path)?;
        Some(self.relevant[at])
    }

    fn prepare(
        &mut self,
        entries: &[&'a Entry],
        pipeline: &ContentPipeline,
        all: bool,
        deadline: Instant,
        cancelled: &(dyn Fn() -> bool + Sync),
    ) -> Result<()> {
        let mut relevant = Vec::new();
        let mut classes = Vec::new();
        for entry in entries.iter().copied() {
            if let Some(class) = Class::of(&entry.relative) {
                relevant.push(entry);
                classes.push(class);
            }
        }
        self.relevant = relevant;
        self.classes = classes;
        let declaring: Vec<&Entry> = self
            .relevant
            .iter()
            .zip(&self.classes)
            .filter(|(_, class)| **class == Class::Declaring || (all && **class != Class::Config))
            .map(|(entry, _)| *entry)
            .collect();
        self.refresh(&declaring, pipeline, deadline, cancelled)?;
        self.ensure_view(pipeline);
        self.ensure_rust_names(pipeline, deadline, cancelled)
    }

    /// Sets in the view the names the Rust crate roots and parent modules bring in (`pub
    /// extern crate x as y;`, `pub use crate::a::b;`, `mod x;`), read from their import facts
    /// as they are now: an edit of one is seen at the next request, like an edit of any
    /// importer.
    fn ensure_rust_names(
        &mut self,
        pipeline: &ContentPipeline,
        deadline: Instant,
        cancelled: &(dyn Fn() -> bool + Sync),
    ) -> Result<()> {
        let files = Arc::clone(
            &self
                .state
                .view
                .as_ref()
                .expect("view built")
                .rust_name_files,
        );
        if files.is_empty() {
            return Ok(());
        }
        let wanted: HashSet<&str> = files.iter().map(String::as_str).collect();
        let entries: Vec<&Entry> = self
            .relevant
            .iter()
            .copied()
            .filter(|e| wanted.contains(e.relative.as_str()))
            .collect();
        self.refresh(&entries, pipeline, deadline, cancelled)?;
        let state = &mut *self.state;
        let mut hash = self.index.hasher.build_hasher();
        let mut names = Vec::new();
        for entry in &entries {
            if let Some(known) = state.facts.get(&entry.relative)
                && !known.facts.declares.is_empty()
            {
                entry.relative.hash(&mut hash);
                known.facts.declares.hash(&mut hash);
                names.push((entry.relative.clone(), known.facts.declares.clone()));
            }
        }
        let fingerprint = hash.finish();
        let view_state = state.view.as_mut().expect("view built");
        if view_state.rust_names_fingerprint == Some(fingerprint) {
            return Ok(());
        }
        // (a copy only while a request elsewhere still holds the old view)
        Arc::make_mut(&mut view_state.view).set_rust_names(names);
        view_state.rust_names_fingerprint = Some(fingerprint);
        view_state.resolved.clear();
        view_state.reverse.clear();
        view_state.in_reverse.clear();
        Ok(())
    }

    /// Bring the facts of `files` up to date (in parallel), within the deadline.
    fn refresh(
        &mut self,
        files: &[&Entry],
        pipeline: &ContentPipeline,
        deadline: Instant,
        cancelled: &(dyn Fn() -> bool + Sync),
    ) -> Result<()> {
        let root = self.root;
        let hasher = &self.index.hasher;
        let state = &mut *self.state;
        // (entry, what is known) for the files that must be read
        let stale: Vec<(&Entry, Option<Known>)> = files
            .iter()
            .copied()
            .filter_map(|entry| match state.facts.get(&entry.relative) {
                Some(known) if known.trusted(&FileKey::of(entry)) => None,
                Some(known) => Some((entry, Some((known.content_hash, Arc::clone(&known.facts))))),
                None => Some((entry, None)),
            })
            .collect();
        if stale.is_empty() {
            return Ok(());
        }
        enum Read {
            Facts(u64, Arc<FileFacts>),
            Withheld,
            Unreadable,
            Skipped,
            Late,
        }
        let read: Vec<(String, FileKey, i64, Read)> = stale
            .par_iter()
            .map(|(entry, known)| {
                let key = FileKey::of(entry);
                if Instant::now() >= deadline || cancelled() {
                    return (entry.relative.clone(), key, 0, Read::Late);
                }
                let read_at = now_ns();
                let stop = || Instant::now() >= deadline || cancelled();
                let outcome = match pipeline.load_unredacted_for_index(root, entry) {
                    Unredacted::Text(text) => {
                        match facts_of_text(hasher, &entry.relative, &text, known.as_ref(), &stop) {
                            Some((hash, facts)) => Read::Facts(hash, facts),
                            None => Read::Late,
                        }
                    }
                    Unredacted::Withheld => Read::Withheld,
                    Unredacted::Unreadable => Read::Unreadable,
                    Unredacted::Binary => Read::Skipped,
                };
                (entry.relative.clone(), key, read_at, outcome)
            })
            .collect();
        if cancelled() {
            return Err(DpxError::cancelled());
        }
        for (path, key, read_at_ns, outcome) in read {
            match outcome {
                Read::Facts(content_hash, facts) => {
                    state.facts.insert(
                        path,
                        FactsEntry {
                            key,
                            read_at_ns,
                            content_hash,
                            facts,
                        },
                    );
                }
                Read::Withheld => {
                    self.withheld_files += 1;
                    state.facts.remove(&path);
                }
                Read::Unreadable => {
                    self.unreadable_files += 1;
                    state.facts.remove(&path);
                }
                Read::Skipped => {
                    state.facts.remove(&path);
                }
                Read::Late => self.pending_files += 1,
            }
        }
        Ok(())
    }

    /// The view for this request's files: reused when nothing it depends on changed.
    fn ensure_view(&mut self, pipeline: &ContentPipeline) {
        let root = self.root;
        let relevant = &self.relevant;
        let state = &mut *self.state;
        let mut hash = self.index.hasher.build_hasher();
        let mut declarations = Vec::new();
        for (entry, class) in relevant.iter().zip(&self.classes) {
            entry.relative.hash(&mut hash);
            if *class == Class::Config {
                FileKey::of(entry).hash(&mut hash);
            }
            // only the package languages declare anything
            if *class == Class::Declaring
                && let Some(known) = state.facts.get(&entry.relative)
                && !known.facts.declares.is_empty()
            {
                known.facts.declares.hash(&mut hash);
                declarations.push((entry.relative.clone(), known.facts.declares.clone()));
            }
        }
        let fingerprint = hash.finish();
        if state
            .view
            .as_ref()
            .is_some_and(|v| v.fingerprint == fingerprint)
        {
            return;
        }
        let by_path: HashMap<&str, &Entry> =
            relevant.iter().map(|e| (e.relative.as_str(), *e)).collect();
        // configuration files are read through the same jail (their text is only parsed)
        let read = |path: &str| -> Option<String> {
            let entry = by_path.get(path)?;
            match pipeline.load_unredacted_for_index(root, entry) {
                Unredacted::Text(text) => Some(text),
                _ => None,
            }
        };
        let view = ProjectView::new(ViewInput {
            files: relevant.iter().map(|e| e.relative.clone()).collect(),
            declarations,
            read: &read,
            root: Some(root.path.to_string_lossy().replace('\\', "/")),
        });
        state.view = Some(ViewState {
            fingerprint,
            rust_name_files: view.rust_name_files().into(),
            rust_names_fingerprint: None,
            view: Arc::new(view),
            resolved: HashMap::new(),
            reverse: HashMap::new(),
            in_reverse: HashSet::new(),
        });
    }

    fn resolve_facts(view: &ProjectView, from: &str, facts: &FileFacts) -> Vec<RawEdge> {
        let mut out = Vec::new();
        for import in &facts.imports {
            let targets = view.resolve(from, &import.spec);
            if targets.is_empty() {
                let ambiguous = matches!(import.spec, Spec::Include { .. })
                    && view.include_is_ambiguous(from, &import.spec);
                out.push((None, import.line, ambiguous));
            }
            for target in targets {
                out.push((Some(target), import.line, false));
            }
        }
        out
    }

    /// The resolved imports of `file` (its facts read now if they are not known).
    pub fn imports_of(
        &mut self,
        file: &str,
        entries: &[&'a Entry],
        pipeline: &ContentPipeline,
        deadline: Instant,
    ) -> FileEdges {
        let known = self.state().facts.contains_key(file);
        let entry = self
            .entry(file)
            .or_else(|| entries.iter().find(|e| e.relative == file).copied());
        if let Some(entry) = entry {
            self.entries_seen.insert(entry.relative.as_str(), entry);
            // a file asked for is always read if it changed, whatever the deadline
            let _ = self.refresh(
                &[entry],
                pipeline,
                if known {
                    deadline
                } else {
                    Instant::now() + std::time::Duration::from_secs(60)
                },
                &|| false,
            );
        }
        let resolved = self.resolved(file);
        let state = self.state();
        let skipped = state.facts.get(file).and_then(|f| f.facts.skipped);
        let edges = resolved
            .edges
            .iter()
            .map(|e| {
                let path = state.paths[e.target as usize].to_string();
                let target = if e.folder {
                    Target::Folder(path)
                } else {
                    Target::File(path)
                };
                (target, e.line as usize)
            })
            .collect();
        FileEdges {
            edges,
            unresolved: resolved.unresolved,
            ambiguous: resolved.ambiguous,
            skipped,
        }
    }

    /// The edges of one file (resolved once per view and facts).
    fn resolved(&mut self, file: &str) -> Arc<Resolved> {
        let state = self.state();
        let Some(facts) = state.facts.get(file).map(|f| Arc::clone(&f.facts)) else {
            return Arc::new(Resolved::default());
        };
        let id = state.intern(file);
        let view_state = state.view.as_ref().expect("view built in prepare");
        if let Some((from, resolved)) = view_state.resolved.get(&id)
            && Arc::ptr_eq(from, &facts)
        {
            return Arc::clone(resolved);
        }
        let view = Arc::clone(&view_state.view);
        let raw = Self::resolve_facts(&view, file, &facts);
        let resolved = Arc::new(Self::intern_edges(state, raw));
        state
            .view
            .as_mut()
            .expect("view")
            .store(id, facts, Arc::clone(&resolved));
        resolved
    }

    fn intern_edges(state: &mut RootIndex, raw: Vec<RawEdge>) -> Resolved {
        let mut resolved = Resolved::default();
        let mut seen = HashSet::new();
        for (target, line, ambiguous) in raw {
            let Some(target) = target else {
                resolved.unresolved += 1;
                resolved.ambiguous += usize::from(ambiguous);
                continue;
            };
            let folder = matches!(target, Target::Folder(_));
            let id = state.intern(target.path());
            if seen.insert((id, folder)) {
                resolved.edges.push(Edge {
                    target: id,
                    folder,
                    line: line as u32,
                });
            }
        }
        resolved
    }

    /// The files a target stands for when the walk goes one level further: a file itself, a
    /// package folder's files of its language.
    pub fn files_of(&mut self, target: &Target) -> Vec<String> {
        match target {
            Target::File(path) => vec![path.clone()],
            Target::Folder(dir) => {
                let state = self.state();
                let view = &state.view.as_ref().expect("view").view;
                view.files_in(dir)
                    .iter()
                    .filter(|f| Lang::of_path(f).is_some())
                    .cloned()
                    .collect()
            }
        }
    }

    /// The files `file` re-exports whole (`export * from "./x"`), as far as its import facts
    /// are known (after [`ProjectGraph::imports_of`] or [`ProjectGraph::direct_importers`]
    /// found it).
    pub fn reexported_whole(&mut self, file: &str) -> Vec<String> {
        let state = self.state();
        let Some(facts) = state.facts.get(file).map(|f| Arc::clone(&f.facts)) else {
            return Vec::new();
        };
        let view = &state.view.as_ref().expect("view built in prepare").view;
        facts
            .imports
            .iter()
            .filter(|i| {
                matches!(
                    i.spec,
                    Spec::Js {
                        reexports_all: true,
                        ..
                    }
                )
            })
            .flat_map(|i| view.resolve(file, &i.spec))
            .filter_map(|t| match t {
                Target::File(path) => Some(path),
                Target::Folder(_) => None,
            })
            .collect()
    }

    /// Files whose imports lead to `file` (or to its package folder), with the line.
    pub fn importers_of(&mut self, file: &str) -> Vec<(String, usize)> {
        self.ensure_reverse();
        let state = self.state();
        let Some(&id) = state.ids.get(file) else {
            return Vec::new();
        };
        let dir = resolve::dir_of(file).to_string();
        let wanted_family = family(file);
        let view_state = state.view.as_ref().expect("view");
        let mut out: Vec<(u32, u32)> = view_state
            .reverse
            .get(&(id, false))
            .cloned()
            .unwrap_or_default();
        if wanted_family != 0
            && let Some(&dir_id) = state.ids.get(dir.as_str())
            && let Some(from_folder) = view_state.reverse.get(&(dir_id, true))
        {
            out.extend(
                from_folder.iter().filter(|(importer, _)| {
                    family(&state.paths[*importer as usize]) == wanted_family
                }),
            );
        }
        // selection order (the order of `relevant`) keeps results deterministic
        self.order();
        let order = self.order.as_ref().expect("built above");
        let state = &*self.state;
        let mut named: Vec<(String, usize)> = out
            .into_iter()
            .map(|(importer, line)| (state.paths[importer as usize].to_string(), line as usize))
            .filter(|(importer, _)| order.contains_key(importer.as_str()) && importer != file)
            .collect();
        named.sort_by_key(|(importer, line)| (order[importer.as_str()], *line));
        named.dedup_by(|a, b| a.0 == b.0);
        named
    }

    /// The same answer as [`ProjectGraph::importers_of`], without the importer map: only the
    /// files that may import `file` (see [`Need`]) have their imports read and resolved, and
    /// a file screened out is not read again while the walk sees it unchanged.
    pub fn direct_importers(
        &mut self,
        file: &str,
        pipeline: &ContentPipeline,
        deadline: Instant,
        cancelled: &(dyn Fn() -> bool + Sync),
    ) -> Result<DirectImporters<'a>> {
        let mut out = DirectImporters::default();
        let root = self.root;
        let hasher = &self.index.hasher;
        let relevant = &self.relevant;
        let classes = &self.classes;
        let state = &mut *self.state;
        let includes_name_their_file = !state
            .view
            .as_ref()
            .expect("view built in prepare")
            .view
            .include_search_names_a_file();
        let mut screen = match state.screens.iter().position(|s| {
            s.target == file && s.includes_name_their_file == includes_name_their_file
        }) {
            Some(at) => state.screens.remove(at),
            None => Screen {
                target: file.to_string(),
                includes_name_their_file,
                absent: foldhash::HashMap::default(),
            },
        };
        // one needle per class at most (C's file name, Python's module name)
        let classes_needs: [(Class, Need); 5] = [
            Class::Config,
            Class::Include,
            Class::Python,
            Class::Declaring,
            Class::Other,
        ]
        .map(|class| (class, importer_need(class, file, includes_name_their_file)));
        let need_of = |class: Class| {
            &classes_needs
                .iter()
                .find(|(c, _)| *c == class)
                .expect("every class")
                .1
        };
        let finders: Vec<(Class, memchr::memmem::Finder<'_>)> = classes_needs
            .iter()
            .filter_map(|(class, need)| match need {
                Need::Literal(text) => Some((*class, memchr::memmem::Finder::new(text.as_bytes()))),
                _ => None,
            })
            .collect();
        let finder_of = |class: Class| finders.iter().find(|(c, _)| *c == class).map(|(_, f)| f);
        // positions in `relevant` of the files whose imports are resolved
        let mut candidates: Vec<usize> = Vec::new();
        // (position, what is known)
        let mut to_read: Vec<(usize, Option<Known>)> = Vec::new();
        for (at, (entry, class)) in relevant.iter().zip(classes).enumerate() {
            let need = need_of(*class);
            if *class == Class::Config {
                continue;
            }
            let key = FileKey::of(entry);
            if *need != Need::Always
                && let Some((seen, read_at_ns)) = screen.absent.get(entry.relative.as_str())
                && settled(seen, *read_at_ns, &key)
            {
                continue;
            }
            let known = state.facts.get(entry.relative.as_str());
            if let Some(known) = known
                && known.trusted(&key)
            {
                if *need != Need::Never {
                    candidates.push(at);
                }
                continue;
            }
            to_read.push((at, known.map(|k| (k.content_hash, Arc::clone(&k.facts)))));
        }
        enum Read {
            Facts(u64, Arc<FileFacts>),
            Absent,
            Withheld,
            Unreadable,
            Late,
        }
        let read: Vec<(usize, i64, Read)> = to_read
            .par_iter()
            .map(|(at, known)| {
                if Instant::now() >= deadline || cancelled() {
                    return (*at, 0, Read::Late);
                }
                let entry = relevant[*at];
                let class = classes[*at];
                let read_at = now_ns();
                let text = match need_of(class) {
                    Need::Always => match pipeline.load_unredacted_for_index(root, entry) {
                        Unredacted::Text(text) => Screened::Text(text),
                        Unredacted::Binary => Screened::Binary,
                        Unredacted::Withheld => Screened::Withheld,
                        Unredacted::Unreadable => Screened::Unreadable,
                    },
                    // `Never`: read without a needle, only to count what cannot be read
                    Need::Never | Need::Literal(_) => {
                        pipeline.screen_unredacted_for_index(root, entry, finder_of(class))
                    }
                };
                let stop = || Instant::now() >= deadline || cancelled();
                let outcome = match text {
                    Screened::Text(text) => {
                        match facts_of_text(hasher, &entry.relative, &text, known.as_ref(), &stop) {
                            Some((hash, facts)) => Read::Facts(hash, facts),
                            None => Read::Late,
                        }
                    }
                    // a binary file has no imports, like one without the needle
                    Screened::Absent | Screened::Binary => Read::Absent,
                    Screened::Withheld => Read::Withheld,
                    Screened::Unreadable => Read::Unreadable,
                };
                (*at, read_at, outcome)
            })
            .collect();
        if cancelled() {
            state.screens.push(screen);
            return Err(DpxError::cancelled());
        }
        for (at, read_at_ns, outcome) in read {
            let entry = relevant[at];
            let key = FileKey::of(entry);
            match outcome {
                Read::Facts(content_hash, facts) => {
                    state.facts.insert(
                        entry.relative.clone(),
                        FactsEntry {
                            key,
                            read_at_ns,
                            content_hash,
                            facts,
                        },
                    );
                    if *need_of(classes[at]) != Need::Never {
                        candidates.push(at);
                    }
                }
                Read::Absent => {
                    screen
                        .absent
                        .insert(entry.relative.clone(), (key, read_at_ns));
                }
                Read::Withheld => {
                    out.withheld_files += 1;
                    state.facts.remove(&entry.relative);
                }
                Read::Unreadable => {
                    out.unreadable_files += 1;
                    state.facts.remove(&entry.relative);
                }
                Read::Late => out.pending_files += 1,
            }
        }
        if state.screens.len() >= SCREENS_KEPT {
            state.screens.remove(0);
        }
        state.screens.push(screen);
        let wanted_family = family(file);
        let dir = resolve::dir_of(file);
        // position -> the line of its first import of `file` (or of its package folder)
        let mut found: Vec<(usize, u32)> = Vec::new();
        for at in candidates {
            let entry = self.relevant[at];
            if entry.relative == file {
                continue;
            }
            let resolved = self.resolved(&entry.relative);
            let state = &*self.state;
            let id = state.ids.get(file).copied();
            let dir_id = state.ids.get(dir).copied();
            let line = resolved
                .edges
                .iter()
                .filter(|edge| {
                    if edge.folder {
                        wanted_family != 0
                            && Some(edge.target) == dir_id
                            && family(&entry.relative) == wanted_family
                    } else {
                        Some(edge.target) == id
                    }
                })
                .map(|edge| edge.line)
                .min();
            if let Some(line) = line {
                found.push((at, line));
            }
        }
        found.sort_unstable();
        for (at, line) in found {
            let entry = self.relevant[at];
            self.entries_seen.insert(entry.relative.as_str(), entry);
            out.importers.push((entry, line as usize));
        }
        Ok(out)
    }

    /// The importer map covers every file of this request's selection whose facts are known.
    fn ensure_reverse(&mut self) {
        if self.reverse_ready {
            return;
        }
        self.reverse_ready = true;
        let files: Vec<String> = self
            .relevant
            .iter()
            .zip(&self.classes)
            .filter(|(_, class)| **class != Class::Config)
            .map(|(e, _)| e.relative.clone())
            .collect();
        // resolve what is missing in parallel
        let state = &mut *self.state;
        let view_state = state.view.as_ref().expect("view");
        let view = Arc::clone(&view_state.view);
        let todo: Vec<(String, Arc<FileFacts>)> = files
            .iter()
            .filter_map(|f| {
                let facts = &state.facts.get(f)?.facts;
                let current = state
                    .ids
                    .get(f.as_str())
                    .and_then(|id| view_state.resolved.get(id))
                    .is_some_and(|(from, _)| Arc::ptr_eq(from, facts));
                (!current).then(|| (f.clone(), Arc::clone(facts)))
            })
            .collect();
        let raw: Vec<(String, Arc<FileFacts>, Vec<RawEdge>)> = todo
            .into_par_iter()
            .map(|(file, facts)| {
                let edges = Self::resolve_facts(&view, &file, &facts);
                (file, facts, edges)
            })
            .collect();
        for (file, facts, edges) in raw {
            let id = state.intern(&file);
            let resolved = Arc::new(Self::intern_edges(state, edges));
            state
                .view
                .as_mut()
                .expect("view")
                .store(id, facts, resolved);
        }
        // bring the reverse map up to date, file by file
        let ids: Vec<u32> = files
            .iter()
            .filter_map(|f| state.ids.get(f.as_str()).copied())
            .collect();
        let view_state = state.view.as_mut().expect("view");
        for id in ids {
            let Some((_, resolved)) = view_state.resolved.get(&id) else {
                continue;
            };
            let resolved = Arc::clone(resolved);
            if view_state.in_reverse.contains(&id) {
                continue;
            }
            for edge in &resolved.edges {
                view_state
                    .reverse
                    .entry((edge.target, edge.folder))
                    .or_default()
                    .push((id, edge.line));
            }
            view_state.in_reverse.insert(id);
        }
    }
}

/// The import facts of a file's text, and its content hash. The hash spares a parse when a
/// racy file is read again unchanged; a C file's line scan costs less than hashing it.
/// `None` when `stop` interrupted the parse (the file is read again next time).
fn facts_of_text(
    hasher: &RandomState,
    path: &str,
    text: &str,
    known: Option<&Known>,
    stop: devprojex_symbols::Stop<'_>,
) -> Option<(u64, Arc<FileFacts>)> {
    let parsed = !Lang::of_path(path).is_none_or(Lang::is_c_family);
    let hash = if parsed {
        hasher.hash_one(text.as_bytes())
    } else {
        0
    };
    match known {
        Some((old, facts)) if parsed && *old == hash => Some((hash, Arc::clone(facts))),
        _ => {
            let facts = match devprojex_symbols::imports::try_scan_until(path, text, stop) {
                None => FileFacts::default(),
                Some(Ok(facts)) => facts,
                Some(Err(devprojex_symbols::Skip::Interrupted)) => return None,
                Some(Err(skip)) => FileFacts::skipped(skip),
            };
            Some((hash, Arc::new(facts)))
        }
    }
}

fn now_ns() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: FileKey, read_at_ns: i64) -> FactsEntry {
        FactsEntry {
            key,
            read_at_ns,
            content_hash: 0,
            facts: Arc::new(FileFacts::default()),
        }
    }

    /// Every language's importers, with the traps of each resolver: C includes through `..`,
    /// `include/` folders and an ambiguous arch header, a `.c` and a fragment included,
    /// Python packages reached without being named, Rust crate roots, JavaScript index files
    /// and tsconfig paths, Go and Java package folders, C# namespaces, Ruby and PHP. Import
    /// lines carry secrets: import facts come from the unredacted text, shown lines from the
    /// redacted one.
    const MIXED: &[(&str, &str)] = &[
        (
            "Cargo.toml",
            "[package]\nname = \"demo\"\nversion = \"0.1.0\"\n",
        ),
        (
            "src/main.rs",
            "mod config;\nmod net;\n\nuse crate::config::Settings;\nuse demo::Shared;\n\nfn main() {}\n",
        ),
        ("src/lib.rs", "pub struct Shared;\n"),
        ("src/config.rs", "pub struct Settings;\nuse crate::net;\n"),
        (
            "src/net/mod.rs",
            "pub mod http;\nuse super::config::Settings;\n",
        ),
        ("src/net/http.rs", "use crate::config;\nuse super::*;\n"),
        ("pkg/__init__.py", ""),
        (
            "pkg/core.py",
            "from . import helpers\nfrom .models import User  # api_key = \"sk_live_51HfW9xQk2LrT8mVd3Zp0aB7\"\nimport os\n",
        ),
        ("pkg/helpers.py", "def help():\n    pass\n"),
        ("pkg/models.py", "class User:\n    pass\n"),
        ("pkg/sub/__init__.py", "from .. import models\n"),
        ("pkg/sub/deep.py", "from . import nothing_here\n"),
        (
            "app.py",
            "import pkg.core\nfrom pkg import helpers\nimport pkg.sub.missing\n",
        ),
        (
            "web/tsconfig.json",
            "{\n  \"compilerOptions\": {\n    \"baseUrl\": \".\",\n    \"paths\": { \"@lib/*\": [\"src/lib/*\"], \"@entry\": [\"src/util.ts\"] }\n  }\n}\n",
        ),
        (
            "web/src/index.ts",
            "import { a } from \"./util\";\nimport b from \"@lib/b\";\nimport c from \"./comp\";\nconst d = require(\"./d.js\");\nimport e from \"@entry\";\n",
        ),
        ("web/src/util.ts", "export const a = 1;\n"),
        (
            "web/src/lib/b.ts",
            "import up from \"..\";\nexport default 2;\n",
        ),
        ("web/src/comp/index.tsx", "export default 3;\n"),
        ("web/src/d.ts", "module.exports = 4;\n"),
        ("go.mod", "module example.com/demo\n\ngo 1.22\n"),
        (
            "cmd/app/main.go",
            "package main\n\nimport (\n\t\"fmt\"\n\t\"example.com/demo/internal/store\"\n)\n\nfunc main() { fmt.Println(store.Get()) }\n",
        ),
        (
            "internal/store/store.go",
            "package store\n\nfunc Get() int { return 1 }\n",
        ),
        ("internal/store/cache.go", "package store\n"),
        (
            "java/src/com/ex/App.java",
            "package com.ex;\n\nimport com.ex.util.*;\nimport java.util.List;\n\nclass App {}\n",
        ),
        (
            "java/src/com/ex/util/Strings.java",
            "package com.ex.util;\n\npublic class Strings {}\n",
        ),
        (
            "java/src/com/ex/util/Chars.java",
            "package com.ex.util;\n\npublic class Chars {}\n",
        ),
        (
            "include/linux/list.h",
            "#include <linux/types.h>\nstruct list_head;\n",
        ),
        ("include/linux/types.h", "typedef int s32;\n"),
        (
            "kernel/fork.c",
            "#include <linux/list.h>\n#include \"fork_internal.h\" /* password = \"hunter2hunter2\" */\n#include <asm/page.h>\n#include <stdio.h>\n/* #include <linux/types.h> */\n#include \"tables.def\"\n",
        ),
        ("kernel/fork_internal.h", "int fork_helper(void);\n"),
        ("kernel/tables.def", "#include \"fork_internal.h\"\nX(a)\n"),
        (
            "kernel/sub/user.c",
            "#include \"../fork.c\"\n#include \"../sub/../fork_internal.h\"\n#include \"linux/types.h\"\n",
        ),
        (
            "kernel/sub/plain.c",
            "int fork_internal_h;\n/* fork.c is mentioned, not included */\n",
        ),
        ("arch/x86/include/asm/page.h", "#include <linux/types.h>\n"),
        ("arch/arm/include/asm/page.h", "\n"),
        ("arch/x86/kernel/setup.c", "#include <asm/page.h>\n"),
        (
            "cs/Models/User.cs",
            "namespace Demo.Models\n{\n    public class User {}\n}\n",
        ),
        (
            "cs/App.cs",
            "using System;\nusing Demo.Models;\n\nclass App {}\n",
        ),
        (
            "rb/app.rb",
            "require_relative \"lib/tool\"\nrequire \"json\"\n",
        ),
        ("rb/lib/tool.rb", "module Tool; end\n"),
        (
            "composer.json",
            "{\"autoload\": {\"psr-4\": {\"App\\\\\": \"php/src/\"}}}\n",
        ),
        (
            "php/src/Models/User.php",
            "<?php\nnamespace App\\Models;\n\nclass User {}\n",
        ),
        (
            "php/index.php",
            "<?php\nuse App\\Models\\User;\nrequire __DIR__ . '/helpers.php';\n",
        ),
        ("php/helpers.php", "<?php\nfunction h() {}\n"),
    ];

    fn write_fixture(dir: &std::path::Path, files: &[(&str, &str)]) {
        for (path, text) in files {
            let path = dir.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
    }

    /// (every source file, importers through the importer map, importers screened).
    type Both = Vec<(String, Vec<(String, usize)>, Vec<(String, usize)>)>;

    /// For each source file of `root`: its importers through the importer map (a fresh
    /// index) and through `direct_importers` on `screened` (which may be warm).
    fn importers_both_ways(root: &ProjectRoot, screened: &SymbolIndex) -> Both {
        let engine = crate::engine::Engine::new(crate::engine::EngineConfig::default());
        let selection = engine
            .select_sources(root, &crate::engine::Request::default(), true, false, None)
            .unwrap();
        let entries: Vec<&Entry> = selection.files().collect();
        let pipeline = engine.pipeline(devprojex_detail::Detail::Full, None);
        let deadline = Instant::now() + std::time::Duration::from_secs(60);
        let mut out = Vec::new();
        for file in entries.iter().filter(|e| {
            !resolve::is_config_file(&e.relative)
                && (Lang::of_path(&e.relative).is_some()
                    || devprojex_symbols::imports::is_include_fragment(&e.relative))
        }) {
            let by_map = SymbolIndex::new(0);
            let shared = by_map.root_index(root);
            let mut graph = by_map
                .project(&shared, root, &entries, &pipeline, true, deadline, &|| {
                    false
                })
                .unwrap();
            let expected = graph.importers_of(&file.relative);
            drop(graph);
            let shared = screened.root_index(root);
            let mut graph = screened
                .project(&shared, root, &entries, &pipeline, false, deadline, &|| {
                    false
                })
                .unwrap();
            let direct = graph
                .direct_importers(&file.relative, &pipeline, deadline, &|| false)
                .unwrap();
            assert_eq!(
                (
                    direct.withheld_files,
                    direct.unreadable_files,
                    direct.pending_files
                ),
                (0, 0, 0)
            );
            let direct = direct
                .importers
                .iter()
                .map(|(entry, line)| (entry.relative.clone(), *line))
                .collect();
            out.push((file.relative.clone(), expected, direct));
        }
        out
    }

    fn assert_same(both: &Both, when: &str) {
        for (file, expected, direct) in both {
            assert_eq!(direct, expected, "importers of {file} ({when})");
        }
    }

    fn edges(both: &Both) -> usize {
        both.iter().map(|(_, expected, _)| expected.len()).sum()
    }

    #[test]
    fn screened_importers_are_the_importer_maps_cold_warm_and_after_edits() {
        let dir = tempfile::tempdir().unwrap();
        write_fixture(dir.path(), MIXED);
        let root = ProjectRoot::open(dir.path()).unwrap();
        // settled files, so that the screens and facts kept are trusted on the warm rounds
        std::thread::sleep(std::time::Duration::from_millis(3_500));
        let cold = importers_both_ways(&root, &SymbolIndex::new(0));
        // the fixture is not vacuous: every language's imports lead somewhere
        assert!(edges(&cold) >= 25, "{cold:#?}");
        let of = |file: &str| &cold.iter().find(|(f, ..)| f == file).unwrap().1;
        assert_eq!(
            of("kernel/fork.c"),
            &vec![("kernel/sub/user.c".to_string(), 1)]
        );
        assert_eq!(of("kernel/fork_internal.h").len(), 3);
        // reached without being named: `import pkg.sub.missing`, `from . import nothing_here`
        assert!(of("pkg/sub/__init__.py").contains(&("app.py".to_string(), 3)));
        assert!(of("pkg/sub/__init__.py").contains(&("pkg/sub/deep.py".to_string(), 1)));
        assert!(of("src/lib.rs").contains(&("src/main.rs".to_string(), 5)));
        assert!(of("web/src/index.ts").contains(&("web/src/lib/b.ts".to_string(), 1)));
        assert_same(&cold, "cold");

        // warm: each call reuses what the previous calls read and screened
        let warm = SymbolIndex::new(0);
        assert_same(&importers_both_ways(&root, &warm), "first");
        assert_same(&importers_both_ways(&root, &warm), "warm");
        {
            // the screen did its work: a C file that names no file was never scanned
            let shared = warm.root_index(&root);
            let state = lock(&shared);
            assert!(!state.facts.contains_key("arch/arm/include/asm/page.h"));
            assert!(state.facts.contains_key("kernel/sub/plain.c"));
            assert!(!state.screens.is_empty());
        }

        // edits: an include added to a screened-out file, one removed, a new importer
        let plain = dir.path().join("kernel/sub/plain.c");
        std::fs::write(&plain, "#include \"../fork.c\"\n").unwrap();
        std::fs::write(dir.path().join("kernel/sub/user.c"), "int x;\n").unwrap();
        std::fs::write(dir.path().join("late.py"), "from pkg import models\n").unwrap();
        let edited = importers_both_ways(&root, &warm);
        assert_same(&edited, "after edits");
        let of = |file: &str| &edited.iter().find(|(f, ..)| f == file).unwrap().1;
        assert_eq!(
            of("kernel/fork.c"),
            &vec![("kernel/sub/plain.c".to_string(), 1)]
        );
        assert!(of("pkg/models.py").contains(&("late.py".to_string(), 1)));
    }

    #[test]
    fn a_compile_commands_folder_naming_a_file_turns_the_include_screen_off() {
        let dir = tempfile::tempdir().unwrap();
        write_fixture(dir.path(), MIXED);
        write_fixture(dir.path(), &[("odd/odd.c", "#include \".\"\n")]);
        let root = ProjectRoot::open(dir.path()).unwrap();
        let commands = serde_json::json!([{
            "directory": root.path.to_string_lossy(),
            "file": "odd/odd.c",
            "command": "cc -iquote include/linux/list.h -c odd/odd.c"
        }]);
        std::fs::write(
            dir.path().join("compile_commands.json"),
            commands.to_string(),
        )
        .unwrap();
        let both = importers_both_ways(&root, &SymbolIndex::new(0));
        let of = |file: &str| &both.iter().find(|(f, ..)| f == file).unwrap().1;
        // `#include "."` in odd.c leads to the header without naming it
        assert!(of("include/linux/list.h").contains(&("odd/odd.c".to_string(), 1)));
        assert_same(&both, "compile_commands.json");
    }

    #[test]
    fn a_stat_key_is_trusted_only_when_equal_and_settled_before_the_read() {
        let key = FileKey {
            size: 10,
            modified_ns: 1_000_000_000_000,
            changed_ns: 1_000_000_000_000,
            id: Some(FileId {
                device: 1,
                inode: 2,
            }),
        };
        let long_after = key.modified_ns + 10 * RACY_WINDOW_NS;
        assert_eq!(entry(key, long_after).trusted(&key), cfg!(unix));
        // read within the racy window of the last change: read again next time
        assert!(!entry(key, key.modified_ns + RACY_WINDOW_NS / 2).trusted(&key));
        let changed = FileKey {
            changed_ns: key.changed_ns + 1,
            ..key
        };
        assert!(!entry(key, long_after).trusted(&changed));
        let replaced = FileKey {
            id: Some(FileId {
                device: 1,
                inode: 3,
            }),
            ..key
        };
        assert!(!entry(key, long_after).trusted(&replaced));
        let grown = FileKey { size: 11, ..key };
        assert!(!entry(key, long_after).trusted(&grown));
    }
}
