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
//!   changes: the file list, the configuration files' keys, the declared packages. Resolved
//!   edges are kept per file and the reverse (importer) map is updated file by file.
//!
//! Paths are interned as numbers so a tree the size of the kernel's (1.2 million includes)
//! stays small.

use std::collections::hash_map::RandomState;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use devprojex_symbols::imports::{FileFacts, Spec};
use devprojex_symbols::resolve::{self, ProjectView, Target, ViewInput};
use devprojex_symbols::{Definition, Lang};
use rayon::prelude::*;

use crate::content::{ContentPipeline, Unredacted};
use crate::error::{DpxError, Result, codes};
use crate::project::ProjectRoot;
use crate::project::jail::FileId;
use crate::select::Entry;

pub use crate::select::cache::RACY_WINDOW_NS;

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

    /// The definitions of a (redacted) text, parsed once per content.
    pub fn definitions(&self, path: &str, text: &str) -> Option<Arc<Vec<Definition>>> {
        let lang = Lang::of_file(path, text)?;
        let key = (lang, text.len(), self.hash_bytes(text.as_bytes()));
        if let Some(found) = lock(&self.definitions).entries.get(&key) {
            return Some(Arc::clone(found));
        }
        let definitions = Arc::new(devprojex_symbols::definitions(path, text)?);
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
        Some(definitions)
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
            order: HashMap::new(),
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
        cfg!(unix)
            && self.key == *key
            && self.key.modified_ns < self.read_at_ns - RACY_WINDOW_NS
            && self.key.changed_ns < self.read_at_ns - RACY_WINDOW_NS
    }
}

/// What is known of a file that must be read again: its content hash and facts.
type Known = (u64, Arc<FileFacts>);

/// A resolved import before interning: target (empty path: unresolved), line, ambiguous.
type RawEdge = (Target, usize, bool);

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
    facts: HashMap<String, FactsEntry>,
    paths: Vec<Arc<str>>,
    ids: HashMap<Arc<str>, u32>,
    view: Option<ViewState>,
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
    /// Position of each relevant file in selection order (results are sorted by it).
    order: HashMap<&'a str, usize>,
    /// The importer map is complete for this request.
    reverse_ready: bool,
    pub withheld_files: usize,
    pub unreadable_files: usize,
    pub pending_files: usize,
}

/// The imports of one file, resolved.
pub struct FileEdges {
    pub edges: Vec<(Target, usize)>,
    pub unresolved: usize,
    pub ambiguous: usize,
}

impl<'a> ProjectGraph<'a> {
    fn state(&mut self) -> &mut RootIndex {
        &mut self.state
    }

    fn prepare(
        &mut self,
        entries: &[&'a Entry],
        pipeline: &ContentPipeline,
        all: bool,
        deadline: Instant,
        cancelled: &(dyn Fn() -> bool + Sync),
    ) -> Result<()> {
        self.relevant = entries
            .iter()
            .filter(|e| {
                Lang::of_path(&e.relative).is_some()
                    || resolve::is_config_file(&e.relative)
                    || devprojex_symbols::imports::is_include_fragment(&e.relative)
            })
            .copied()
            .collect();
        self.order = self
            .relevant
            .iter()
            .enumerate()
            .map(|(i, e)| (e.relative.as_str(), i))
            .collect();
        let declaring: Vec<&Entry> = self
            .relevant
            .iter()
            .filter(|e| {
                all || matches!(
                    Lang::of_path(&e.relative),
                    Some(Lang::Java | Lang::Kotlin | Lang::Scala | Lang::CSharp | Lang::Php)
                )
            })
            .filter(|e| !resolve::is_config_file(&e.relative))
            .copied()
            .collect();
        self.refresh(&declaring, pipeline, deadline, cancelled)?;
        self.ensure_view(pipeline);
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
                let outcome = match pipeline.load_unredacted_for_index(root, entry) {
                    Unredacted::Text(text) => {
                        // the hash spares a parse when a racy file is read again unchanged; a
                        // C file's line scan costs less than hashing it
                        let parsed = !Lang::of_path(&entry.relative).is_none_or(Lang::is_c_family);
                        let hash = if parsed {
                            hasher.hash_one(text.as_bytes())
                        } else {
                            0
                        };
                        match known {
                            Some((old, facts)) if parsed && *old == hash => {
                                Read::Facts(hash, Arc::clone(facts))
                            }
                            _ => Read::Facts(
                                hash,
                                Arc::new(
                                    devprojex_symbols::imports::scan(&entry.relative, &text)
                                        .unwrap_or_default(),
                                ),
                            ),
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
            return Err(DpxError::new(
                codes::INVALID_ARGUMENTS,
                "the request was cancelled",
            ));
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
        for entry in relevant {
            entry.relative.hash(&mut hash);
            if resolve::is_config_file(&entry.relative) {
                FileKey::of(entry).hash(&mut hash);
            }
            if let Some(known) = state.facts.get(&entry.relative)
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
            view: Arc::new(view),
            resolved: HashMap::new(),
            reverse: HashMap::new(),
            in_reverse: HashSet::new(),
        });
    }

    fn resolve_facts(
        view: &ProjectView,
        from: &str,
        facts: &FileFacts,
    ) -> Vec<(Target, usize, bool)> {
        let mut out = Vec::new();
        for import in &facts.imports {
            let targets = view.resolve(from, &import.spec);
            if targets.is_empty() {
                let ambiguous = matches!(import.spec, Spec::Include { .. })
                    && view.include_is_ambiguous(from, &import.spec);
                out.push((Target::File(String::new()), import.line, ambiguous));
            }
            for target in targets {
                out.push((target, import.line, false));
            }
        }
        out
    }

    /// The resolved imports of `file` (its facts read now if they are not known).
    pub fn imports_of(
        &mut self,
        file: &str,
        entries: &[&Entry],
        pipeline: &ContentPipeline,
        deadline: Instant,
    ) -> FileEdges {
        let known = self.state().facts.contains_key(file);
        let entry = self
            .order
            .get(file)
            .map(|&i| self.relevant[i])
            .or_else(|| entries.iter().find(|e| e.relative == file).copied());
        if let Some(entry) = entry {
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
            if target.path().is_empty() {
                resolved.unresolved += 1;
                resolved.ambiguous += usize::from(ambiguous);
                continue;
            }
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
        let order = &self.order;
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

    /// The importer map covers every file of this request's selection whose facts are known.
    fn ensure_reverse(&mut self) {
        if self.reverse_ready {
            return;
        }
        self.reverse_ready = true;
        let files: Vec<String> = self
            .relevant
            .iter()
            .filter(|e| !resolve::is_config_file(&e.relative))
            .map(|e| e.relative.clone())
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
