//! `find_references`: every use of a defined name, each labelled `resolved` (proved through
//! scope, imports or the receiver) or `name-only` (spelled the same, not proved).
//!
//! The files whose redacted text contains the name (`ContentPipeline::load_matching`, the screen
//! `find_symbol` uses: every file is redacted before it is screened, so neither the answer nor
//! its time tells what a secret holds) are parsed once: their definitions give the targets,
//! their identifiers the uses
//! (`devprojex_symbols::references`). A use in another file is resolved through the import
//! graph `related_files` keeps: the file must import the target's file (or, in Go, share its
//! package folder). Every line shown is cut from redacted text.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use devprojex_detail::Detail;
use devprojex_symbols::references::{Access, DEFAULT_EXPORT, FileTypes, Names, Occurrence, TypeOf};
use devprojex_symbols::resolve::Target;
use devprojex_symbols::{Definition, Kind, Lang};
use serde::Serialize;

use super::index::ProjectGraph;
use super::{
    MatchMode, Query, SymbolHit, SymbolIndex, SymbolOptions, cancelled_error, load_cost, shorten,
    worker_failed,
};
use crate::caches::Caches;
use crate::content::Content;
use crate::coverage::Coverage;
use crate::engine::{Engine, Hooks, Request, SearchStop};
use crate::error::{DpxError, Result};
use crate::limits;
use crate::project::ProjectRoot;
use crate::select::Entry;

/// What a reference's confidence rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Confidence {
    /// Proved through scope, imports, or the receiver (`self`/`this`, the container's name, an
    /// imported module).
    #[serde(rename = "resolved")]
    Resolved,
    /// The same name, not proved to mean the definition.
    #[serde(rename = "name-only")]
    NameOnly,
}

impl Confidence {
    pub fn as_str(self) -> &'static str {
        match self {
            Confidence::Resolved => "resolved",
            Confidence::NameOnly => "name-only",
        }
    }
}

/// `find_references` parameters.
#[derive(Debug, Clone)]
pub struct ReferenceOptions {
    pub name: String,
    /// `path:line` of one definition, when several share the name.
    pub at: Option<String>,
    pub kind: Option<Kind>,
    pub include_imports: bool,
    pub max_results: usize,
    pub offset: usize,
    /// The MCP limit; the CLI runs to completion unless `--timeout` is given.
    pub deadline: Option<Duration>,
}

/// One use.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Reference {
    pub path: String,
    pub line: usize,
    pub column: usize,
    /// The enclosing function or method.
    pub container: Option<String>,
    pub confidence: Confidence,
    pub import: bool,
    /// The line, redacted.
    pub text: String,
}

/// The outcome of `find_references`.
#[derive(Debug, Clone, Default)]
pub struct ReferencesOutcome {
    pub name: String,
    /// The definitions the references are of.
    pub definitions: Vec<SymbolHit>,
    /// This page.
    pub references: Vec<Reference>,
    pub total: usize,
    pub resolved: usize,
    pub offset: usize,
    /// Names of definitions near the one asked for, when it has none (case mistakes first).
    pub near_names: Vec<String>,
    pub searched_files: usize,
    pub parsed_files: usize,
    pub unparsed_files: usize,
    /// Withheld and unreadable files, the selection's warnings, and why the lookup stopped.
    pub coverage: Coverage,
}

/// What one file gave.
struct FileUses {
    path: String,
    /// As the file was parsed (a `.h` may be C++).
    lang: Option<Lang>,
    definitions: Vec<Definition>,
    occurrences: Vec<Occurrence>,
    /// The redacted text of the lines with an occurrence.
    lines: HashMap<usize, String>,
    /// C and C++: the file's macros whose body spells the name (`#define UNITY_END()
    /// UnityEnd()`); their expansions are uses of it, as a compiler sees them.
    macros_using: Vec<String>,
    /// JavaScript and TypeScript: each class and interface of the file with what it extends
    /// and implements, and the names it declares more than once.
    heritage: devprojex_symbols::references::Heritage,
}

/// A definition the references are of, with what proves a use of it.
#[derive(Clone)]
struct TargetDef {
    path: String,
    dir: String,
    lang: Option<Lang>,
    line: usize,
    /// The function that binds it (a local or nested definition), as its occurrence says.
    scope: Option<usize>,
    /// The innermost container's name (`Parser` for `Parser.parse`).
    container: Option<String>,
    /// Names a qualified use of its file goes by: the module (`parser`, `flask`), the Go
    /// package folder.
    module_names: Vec<String>,
    /// A method: reached through a receiver, or bare only from its own class in the
    /// languages with an implicit `this`.
    method: bool,
    kind: Kind,
    /// The container is a value, not a type: a JavaScript/TypeScript object a member is
    /// assigned to or written in (`response.json = …`, `const api = { get() {} }`), whose
    /// label is its bare name. Another file's `response.json()` means its own `response`.
    container_is_value: bool,
    /// For a member assigned to a value (`container_is_value`): the type its file declares
    /// that value with (`response: Response`, `const ky: Partial<Mutable<KyInstance>>`):
    /// the member is that type's, so a receiver of that type, anywhere, uses it, and the
    /// type's own signature of it (`extend: (…) => KyInstance;`) is a reference, as the
    /// TypeScript service answers.
    value_type: Option<String>,
    /// JavaScript and TypeScript, a method of a class or interface: the classes and
    /// interfaces (with their files) whose method of the name is the same one to the
    /// TypeScript service (see [`method_families`]), its own container among them.
    family: Vec<FamilyMember>,
    /// A Rust method of a trait's `impl` (`impl Colorable for DirEntry`) whose type also has
    /// an inherent method of the name (`impl DirEntry`): `x.f()` and `DirEntry::f()` call
    /// that one, only the trait's path (`Colorable::f(&x)`) reaches this.
    behind_inherent: bool,
    /// A Rust associated type or constant (in an `impl` or a trait): named only through a
    /// path (`Self::Captures`, `M::Captures`), never bare.
    associated: bool,
    /// A Rust associated type or constant of a trait (`type Captures: Captures;` in `trait
    /// Matcher`) or of a trait's `impl` (`impl Matcher for RegexMatcher`): the trait's name.
    /// It is the trait's item, as rust-analyzer answers: its uses through the trait
    /// (`Self::Captures` in the trait and its impls, `M::Captures` with `M: Matcher`) and the
    /// other impls' definitions of it are its references.
    trait_item: Option<String>,
    /// In a file parsed as C: whether it is a struct, union or enum tag (`struct list`),
    /// which C keeps apart from typedef names, functions and variables (`struct list *l`
    /// uses the tag, `list *l` a typedef). `None` in other languages.
    c_tag: Option<bool>,
}

impl TargetDef {
    fn file_level(&self) -> bool {
        self.scope.is_none()
    }
}

/// Macros whose expansions are searched for one name (`UNITY_END()` for `UnityEnd`): each is
/// one more screen of the C and C++ files.
const MAX_EXPANDED_MACROS: usize = 4;

/// The macros defined in `text` (besides `name` itself) whose lines spell `name` as a word.
fn macros_spelling(text: &str, definitions: &[Definition], name: &str) -> Vec<String> {
    let mut starts: Option<Vec<usize>> = None;
    let mut out = Vec::new();
    for definition in definitions
        .iter()
        .filter(|d| d.kind == Kind::Macro && d.name != name)
    {
        let starts = starts.get_or_insert_with(|| {
            std::iter::once(0)
                .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1))
                .collect()
        });
        let (Some(&from), to) = (
            starts.get(definition.line.saturating_sub(1)),
            starts
                .get(definition.end_line.max(definition.line))
                .copied()
                .unwrap_or(text.len()),
        ) else {
            continue;
        };
        let body = text.get(from..to).unwrap_or("");
        let word = |at: usize| {
            let before = body[..at].chars().next_back();
            let after = body[at + name.len()..].chars().next();
            // a member (`x.name`, `x->name`) is another name
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
                && !body[..at].ends_with("->")
                && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
        };
        if memchr::memmem::find_iter(body.as_bytes(), name.as_bytes()).any(word)
            && !out.contains(&definition.name)
        {
            out.push(definition.name.clone());
        }
    }
    out
}

/// How far a chain of re-exports is followed (`export *` barrels of barrels).
const REEXPORT_DEPTH: usize = 4;
/// Files of one level of the chain whose importers are searched for `export *`.
const REEXPORT_FRONTIER: usize = 16;
/// How deep a C or C++ file's includes are followed, and how many files at most.
const INCLUDE_DEPTH: usize = 4;
const INCLUDES_WALKED: usize = 256;

/// How the targets reach other files: [`Engine::reach`].
#[derive(Default)]
struct Reach<'u> {
    /// Files that use the name and import a target's file.
    importing: HashSet<&'u str>,
    /// Files that pass a target on (re-exports), whether or not they spell the name.
    passers: Vec<String>,
    /// Files that use the name and import a passer (not a target's file), with the lines of
    /// those imports.
    importing_passer: HashMap<&'u str, Vec<usize>>,
    /// C and C++ files that use the name and reach a target's file, or a header that
    /// declares it for the target's file, through their includes.
    included: HashSet<&'u str>,
}

/// Receivers that name the enclosing class.
const SELF_RECEIVERS: [&str; 7] = ["self", "this", "cls", "Self", "@", "$this", "super"];

/// `path:line` -> (path, line).
fn parse_at(at: &str) -> Result<(String, usize)> {
    let bad = || {
        DpxError::invalid_arguments(format!(
            "at is '{}'; pass the path and line of one definition as 'path:line', such as 'src/parser.rs:12' (find_symbol lists them)",
            shorten(at)
        ))
    };
    let (path, line) = at.trim().rsplit_once(':').ok_or_else(bad)?;
    let line: usize = line.trim().parse().map_err(|_| bad())?;
    if path.trim().is_empty() || line == 0 {
        return Err(bad());
    }
    Ok((path.trim().trim_start_matches("./").to_string(), line))
}

fn module_names(path: &str, lang: Option<Lang>) -> Vec<String> {
    let dir = devprojex_symbols::resolve::dir_of(path);
    let file = devprojex_symbols::resolve::file_name(path);
    let stem = file.split('.').next().unwrap_or(file);
    let folder = devprojex_symbols::resolve::file_name(dir);
    let mut names = Vec::new();
    match lang {
        Some(Lang::Go) => names.push(folder.to_string()),
        // the project's root folder has no name: an import of it binds the receiver to
        // `ROOT_MODULE` (`require('..')`, `import * as m from '../index.js'` in `test/`)
        Some(Lang::JavaScript | Lang::TypeScript | Lang::Tsx)
            if stem == "index" && dir.is_empty() =>
        {
            names.push(devprojex_symbols::references::ROOT_MODULE.to_string())
        }
        _ if matches!(stem, "__init__" | "index" | "mod" | "lib") => names.push(folder.to_string()),
        _ => names.push(stem.to_string()),
    }
    names.retain(|n| !n.is_empty());
    names
}

/// A CommonJS export of the name (`exports.X = …`, `module.exports.X = …`): a file that
/// requires the target's file and exports the name passes it on, as `export { X }` does.
fn exports_commonjs(occurrence: &Occurrence, lang: Option<Lang>) -> bool {
    matches!(lang, Some(Lang::JavaScript | Lang::TypeScript | Lang::Tsx))
        && matches!(&occurrence.access, Access::Member { receiver }
            if receiver == "exports" || receiver == "module.exports")
}

/// Function and method names a lookup of results across files reads at most (a file whose
/// receivers wait on more is left as it is: each name is a screen over every file).
const MAX_RESULT_NAMES: usize = 64;

/// Languages that call each other's functions: JavaScript and TypeScript are one.
fn lang_family(lang: Lang) -> Lang {
    match lang {
        Lang::Tsx | Lang::JavaScript => Lang::TypeScript,
        other => other,
    }
}

/// Whether a receiver's type waits on a call of a bare function name (`make()`), which
/// only the file's imports tell apart.
fn waits_on_a_bare_call(waiting: &TypeOf) -> bool {
    match waiting {
        TypeOf::Named(_) | TypeOf::BaseOf(_) => false,
        TypeOf::Result { module, .. } => module.is_none(),
        TypeOf::MethodResult { receiver, .. } | TypeOf::FieldOf { receiver, .. } => {
            waits_on_a_bare_call(receiver)
        }
    }
}

/// Rounds of reading files for types: the names receivers wait on, then the bases of the
/// classes found, then their bases.
const MAX_TYPE_ROUNDS: usize = 3;

/// Base classes followed above a receiver's class.
const MAX_BASE_DEPTH: usize = 4;

/// file -> the files it imports.
fn imported_files(imports: &HashMap<String, Vec<Target>>) -> HashMap<&str, HashSet<&str>> {
    imports
        .iter()
        .map(|(file, targets)| {
            (
                file.as_str(),
                targets
                    .iter()
                    .filter_map(|t| match t {
                        Target::File(path) => Some(path.as_str()),
                        Target::Folder(_) => None,
                    })
                    .collect(),
            )
        })
        .collect()
}

/// What the functions and methods named in receivers return, file by file.
#[derive(Default)]
struct ResultIndex {
    /// Class -> what it extends (empty when two classes of the name disagree).
    bases: HashMap<String, Vec<String>>,
    /// The files read.
    read: HashSet<String>,
    /// Free function name -> (path, what it returns).
    functions: HashMap<String, Vec<(String, TypeOf)>>,
    /// (class, method) -> (path, what it returns).
    methods: HashMap<(String, String), Vec<(String, TypeOf)>>,
    /// (class, attribute or field) -> (path, what it holds).
    fields: HashMap<(String, String), Vec<(String, TypeOf)>>,
}

/// Receiver chains longer than this are left untyped.
const MAX_RESOLVE_DEPTH: usize = 12;

struct ResultResolver<'a> {
    index: &'a ResultIndex,
    /// The files each bare caller imports.
    imported: &'a HashMap<&'a str, HashSet<&'a str>>,
    /// Steps left for the receiver being resolved: results that lead to several definitions
    /// each, level after level, would otherwise cost their number to the power of the depth.
    steps: std::cell::Cell<usize>,
}

/// Steps one receiver's resolution may take.
const MAX_RESOLVE_STEPS: usize = 256;

impl ResultResolver<'_> {
    /// The one class among `class`'s bases (the nearest level that has any) that is in
    /// `defining`; `None` when no base, or two, define it.
    fn defining_base(&self, class: &str, defining: &HashSet<String>) -> Option<String> {
        let mut level: Vec<&str> = vec![class];
        for _ in 0..MAX_BASE_DEPTH {
            let above: Vec<&str> = level
                .iter()
                .filter_map(|c| self.index.bases.get(*c))
                .flatten()
                .map(String::as_str)
                .collect();
            let found: HashSet<&str> = above
                .iter()
                .copied()
                .filter(|c| defining.contains(*c))
                .collect();
            match found.len() {
                0 if above.is_empty() => return None,
                0 => level = above,
                1 => return found.into_iter().next().map(str::to_string),
                _ => return None,
            }
        }
        None
    }

    /// The type `waiting` names, seen from the file `from`; `None` unless every definition
    /// it can mean returns the same type.
    fn resolve(&self, waiting: &TypeOf, from: &str, depth: usize) -> Option<String> {
        if depth == 0 {
            self.steps.set(MAX_RESOLVE_STEPS);
        }
        let steps = self.steps.get();
        if depth > MAX_RESOLVE_DEPTH || steps == 0 {
            return None;
        }
        self.steps.set(steps - 1);
        let family = Lang::of_path(from).map(lang_family);
        let same_family = |path: &str| Lang::of_path(path).map(lang_family) == family;
        let candidates: Vec<&(String, TypeOf)> = match waiting {
            TypeOf::Named(name) => return (!name.is_empty()).then(|| name.clone()),
            // `super()`: the class's one base
            TypeOf::BaseOf(class) => {
                return match self.index.bases.get(class).map(Vec::as_slice) {
                    Some([base]) => Some(base.clone()),
                    _ => None,
                };
            }
            TypeOf::Result { function, module } => {
                let go = family == Some(Lang::Go);
                let from_dir = devprojex_symbols::resolve::dir_of(from);
                self.index
                    .functions
                    .get(function)?
                    .iter()
                    .filter(|(path, _)| same_family(path))
                    .filter(|(path, _)| match module {
                        Some(module) => module_names(path, Lang::of_path(path)).contains(module),
                        // Go: the same package; elsewhere a file the caller imports
                        None if go => devprojex_symbols::resolve::dir_of(path) == from_dir,
                        None => self
                            .imported
                            .get(from)
                            .is_some_and(|files| files.contains(path.as_str())),
                    })
                    .collect()
            }
            TypeOf::MethodResult {
                receiver,
                method: member,
            }
            | TypeOf::FieldOf {
                receiver,
                field: member,
            } => {
                let members = match waiting {
                    TypeOf::MethodResult { .. } => &self.index.methods,
                    _ => &self.index.fields,
                };
                let class = match self.resolve(receiver, from, depth + 1) {
                    Some(class) => class,
                    // `utils.make()` with `import utils from './utils'` whose default export
                    // is not typed (`export default { make }`): the module's function
                    None => match receiver.as_ref() {
                        TypeOf::Result { function, module }
                            if function == DEFAULT_EXPORT
                                && module.is_some()
                                && matches!(waiting, TypeOf::MethodResult { .. }) =>
                        {
                            return self.resolve(
                                &TypeOf::Result {
                                    function: member.clone(),
                                    module: module.clone(),
                                },
                                from,
                                depth + 1,
                            );
                        }
                        _ => return None,
                    },
                };
                let defining: HashSet<String> = members
                    .keys()
                    .filter(|(_, m)| m == member)
                    .map(|(c, _)| c.clone())
                    .collect();
                let class = if defining.contains(&class) {
                    class
                } else {
                    self.defining_base(&class, &defining)?
                };
                members
                    .get(&(class, member.clone()))?
                    .iter()
                    .filter(|(path, _)| same_family(path))
                    .collect()
            }
        };
        let mut agreed: Option<String> = None;
        for (path, result) in candidates {
            let found = self.resolve(result, path, depth + 1)?;
            match &agreed {
                Some(before) if *before != found => return None,
                _ => agreed = Some(found),
            }
        }
        agreed
    }
}

impl Engine {
    /// The uses of the definitions named `options.name`.
    pub fn find_references(
        &self,
        root: &ProjectRoot,
        request: &Request,
        options: &ReferenceOptions,
        caches: Option<&Caches>,
        hooks: Hooks<'_>,
    ) -> Result<ReferencesOutcome> {
        if options.max_results == 0 || options.max_results > limits::MAX_REFERENCE_RESULTS {
            return Err(DpxError::invalid_arguments(format!(
                "max_results is {}; it must be between 1 and {}",
                options.max_results,
                limits::MAX_REFERENCE_RESULTS
            )));
        }
        let query = Query::parse(&SymbolOptions {
            name: options.name.clone(),
            kind: options.kind,
            mode: MatchMode::Exact,
            max_results: 1,
            deadline: None,
            include_body: false,
        })?;
        let at = options.at.as_deref().map(parse_at).transpose()?;
        let started = Instant::now();
        let deadline = options.deadline.map(|d| started + d);
        let selection = self.select_sources(root, request, false, false, caches)?;
        let files: Vec<&Entry> = selection
            .files()
            .filter(|f| !f.binary && Lang::of_path(&f.relative).is_some())
            .collect();
        let pipeline = self.pipeline(Detail::Full, caches);
        let needle = memchr::memmem::Finder::new(query.name.as_bytes());
        let mut outcome = ReferencesOutcome {
            name: query.name.clone(),
            coverage: Coverage::of(&selection.warnings),
            offset: options.offset,
            ..ReferencesOutcome::default()
        };
        enum Found {
            Screened,
            Withheld,
            Unreadable,
            Unparsed,
            Parsed(FileUses),
        }
        let mut uses: Vec<FileUses> = Vec::new();
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
                let entry = files[i];
                Some(match pipeline.load_matching(root, entry, &needle) {
                    None | Some(Content::Binary) => Found::Screened,
                    Some(Content::Text(text)) => {
                        let text = &text.text;
                        let found = devprojex_symbols::references::occurrences_and_supertypes(
                            &entry.relative,
                            text,
                            &query.name,
                            deadline,
                        );
                        let (occurrences, heritage) = match found {
                            Some((occurrences, heritage)) => (Some(occurrences), heritage),
                            None => (None, Default::default()),
                        };
                        let stop = || deadline.is_some_and(|d| Instant::now() >= d);
                        let definitions = match caches {
                            Some(caches) => caches
                                .symbols
                                .definitions(&entry.relative, text, &stop)
                                .and_then(|d| d.ok()),
                            None => devprojex_symbols::try_definitions_until(
                                &entry.relative,
                                text,
                                &stop,
                            )
                            .and_then(|d| d.ok())
                            .map(Arc::new),
                        };
                        match (occurrences, definitions) {
                            (Some(occurrences), Some(definitions)) => {
                                let wanted: HashSet<usize> =
                                    occurrences.iter().map(|o| o.line).collect();
                                let lines = text
                                    .lines()
                                    .enumerate()
                                    .filter(|(i, _)| wanted.contains(&(i + 1)))
                                    .map(|(i, l)| (i + 1, shorten(l.trim_end_matches('\r').trim())))
                                    .collect();
                                let lang = Lang::of_file(&entry.relative, text);
                                let macros_using = if matches!(lang, Some(Lang::C | Lang::Cpp)) {
                                    macros_spelling(text, &definitions, &query.name)
                                } else {
                                    Vec::new()
                                };
                                Found::Parsed(FileUses {
                                    path: entry.relative.clone(),
                                    lang,
                                    macros_using,
                                    heritage,
                                    definitions: definitions
                                        .iter()
                                        .filter(|d| d.name == query.name)
                                        .cloned()
                                        .collect(),
                                    occurrences,
                                    lines,
                                })
                            }
                            _ => Found::Unparsed,
                        }
                    }
                    Some(Content::Withheld) => Found::Withheld,
                    Some(Content::Unreadable) => Found::Unreadable,
                    Some(Content::Measured(_)) => unreachable!("find_references loads content"),
                })
            },
            |_, found| {
                if hooks.cancelled.is_some_and(|c| c()) {
                    return Err(cancelled_error());
                }
                let Some(found) = found else {
                    outcome.coverage.stopped = Some(SearchStop::Deadline);
                    return Err(DpxError::cancelled());
                };
                outcome.searched_files += 1;
                match found {
                    Found::Screened => {}
                    Found::Withheld => outcome.coverage.withheld_files += 1,
                    Found::Unreadable => outcome.coverage.unreadable_files += 1,
                    Found::Unparsed => outcome.unparsed_files += 1,
                    Found::Parsed(file) => {
                        outcome.parsed_files += 1;
                        if !file.occurrences.is_empty() || !file.macros_using.is_empty() {
                            uses.push(file);
                        }
                    }
                }
                Ok(())
            },
        );
        match halted {
            Ok(()) => {}
            // the deadline: answer with what was read
            Err(crate::ordered::Stopped::Sink(_)) if outcome.coverage.stopped.is_some() => {}
            Err(crate::ordered::Stopped::Sink(e)) => return Err(e),
            Err(crate::ordered::Stopped::WorkerPanicked) => return Err(worker_failed()),
        }
        // C and C++: the expansions of macros whose body spells the name, as uses of it where
        // they are expanded (the macro's body itself is no code a parser sees)
        let macro_names: Vec<String> = {
            let mut names: Vec<String> = uses
                .iter()
                .flat_map(|f| f.macros_using.iter().cloned())
                .collect();
            names.sort();
            names.dedup();
            names.truncate(MAX_EXPANDED_MACROS);
            names
        };
        if !macro_names.is_empty() {
            self.add_macro_expansions(root, &files, &pipeline, &macro_names, deadline, &mut uses);
            // files the deadline skipped: the answer says it is incomplete
            if deadline.is_some_and(|d| Instant::now() >= d) {
                outcome.coverage.stopped = Some(SearchStop::Deadline);
            }
        }
        // the definitions asked for
        let mut targets: Vec<TargetDef> = Vec::new();
        for file in &uses {
            for definition in &file.definitions {
                if !query.matches(definition, &file.path) {
                    continue;
                }
                if let Some((path, line)) = &at
                    && (path != &file.path || *line != definition.line)
                {
                    continue;
                }
                let lang = Lang::of_path(&file.path);
                let scope = file
                    .occurrences
                    .iter()
                    .find(|o| o.definition && o.line == definition.line)
                    .and_then(|o| o.scope);
                let container = definition.scope.iter().last().map(str::to_string);
                let container_is_value =
                    matches!(lang, Some(Lang::JavaScript | Lang::TypeScript | Lang::Tsx))
                        && definition.container.is_some()
                        && definition.container.as_deref() == container.as_deref();
                // `ky.extend = …` with `ky` declared of a type: the member is that type's
                let value_type = file
                    .occurrences
                    .iter()
                    .filter(|_| container_is_value)
                    .find(|o| {
                        o.line == definition.line
                            && matches!(&o.access, Access::Member { receiver }
                                if Some(receiver) == container.as_ref())
                    })
                    .and_then(|o| o.receiver_type.clone());
                outcome.definitions.push(SymbolHit {
                    path: file.path.clone(),
                    line: definition.line,
                    end_line: definition.end_line,
                    kind: definition.kind.as_str(),
                    name: definition.name.clone(),
                    signature: definition.signature.clone(),
                    container: definition.container.clone(),
                    body: None,
                    body_truncated: false,
                });
                targets.push(TargetDef {
                    path: file.path.clone(),
                    dir: devprojex_symbols::resolve::dir_of(&file.path).to_string(),
                    lang,
                    line: definition.line,
                    scope,
                    container,
                    module_names: module_names(&file.path, lang),
                    method: definition.kind == Kind::Method,
                    kind: definition.kind,
                    container_is_value,
                    value_type,
                    family: Vec::new(),
                    behind_inherent: false,
                    associated: lang == Some(Lang::Rust)
                        && matches!(definition.kind, Kind::Type | Kind::Constant)
                        && definition
                            .container
                            .as_deref()
                            .is_some_and(|c| c.starts_with("impl ") || c.starts_with("trait ")),
                    trait_item: None,
                    c_tag: (file.lang == Some(Lang::C))
                        .then_some(matches!(definition.kind, Kind::Struct | Kind::Enum)),
                });
            }
        }
        // Rust: the inherent methods of a name, by their type
        let inherent: HashSet<&str> = uses
            .iter()
            .filter(|f| Lang::of_path(&f.path) == Some(Lang::Rust))
            .flat_map(|f| &f.definitions)
            .filter(|d| d.name == query.name && d.kind == Kind::Method)
            .filter(|d| {
                d.container
                    .as_deref()
                    .is_some_and(|c| c.starts_with("impl ") && !c.contains(" for "))
            })
            .filter_map(|d| d.scope.iter().last())
            .collect();
        for (target, hit) in targets.iter_mut().zip(&outcome.definitions) {
            target.behind_inherent = target.lang == Some(Lang::Rust)
                && hit
                    .container
                    .as_deref()
                    .is_some_and(|c| c.starts_with("impl ") && c.contains(" for "))
                && target
                    .container
                    .as_deref()
                    .is_some_and(|c| inherent.contains(c));
        }
        add_trait_items(&uses, &mut targets, &outcome.definitions);
        method_families(&uses, &mut targets);
        if let Some((path, line)) = &at
            && targets.is_empty()
        {
            let listed: Vec<String> = uses
                .iter()
                .flat_map(|f| {
                    f.definitions
                        .iter()
                        .filter(|d| query.matches(d, &f.path))
                        .map(move |d| format!("{}:{}", f.path, d.line))
                })
                .take(10)
                .collect();
            let hint = if listed.is_empty() {
                format!(
                    "no definition of '{}' was found; check the name with find_symbol",
                    query.name
                )
            } else {
                format!("its definitions are at {}", listed.join(", "))
            };
            return Err(DpxError::invalid_arguments(format!(
                "at '{}:{line}' is not a definition of '{}'; {hint}. Pass one of them as at, or leave at out",
                shorten(path),
                query.name
            )));
        }
        // receivers typed by what other files' functions and methods return
        self.type_receivers_across_files(
            root,
            request,
            caches,
            &files,
            &mut uses,
            &query.name,
            deadline,
            &pipeline,
        );
        // which files import the targets' files (resolution through imports), and which
        // files pass the targets on to others (re-exports)
        let target_files: HashSet<&str> = targets.iter().map(|t| t.path.as_str()).collect();
        let target_dirs: HashSet<&str> = targets
            .iter()
            .filter(|t| t.lang == Some(Lang::Go))
            .map(|t| t.dir.as_str())
            .collect();
        let reach = self.reach(
            root,
            request,
            caches,
            &uses,
            &target_files,
            &target_dirs,
            deadline,
            &pipeline,
        );
        let importing = &reach.importing;
        let reexport_modules: Vec<String> = reach
            .passers
            .iter()
            .flat_map(|f| module_names(f, Lang::of_path(f)))
            .collect();
        // C: tags and the other names live apart (a use after `struct` means a tag, any
        // other use a typedef, function or variable)
        let (c_tag_targets, c_plain_targets): (Vec<TargetDef>, Vec<TargetDef>) =
            if targets.iter().any(|t| t.c_tag.is_some()) {
                (
                    targets
                        .iter()
                        .filter(|t| t.c_tag != Some(false))
                        .cloned()
                        .collect(),
                    targets
                        .iter()
                        .filter(|t| t.c_tag != Some(true))
                        .cloned()
                        .collect(),
                )
            } else {
                (Vec::new(), Vec::new())
            };
        // Go: package folders where another file-level definition of the name lives (its
        // files' bare uses mean that one)
        let go_hidden_dirs: HashSet<&str> = uses
            .iter()
            .filter(|f| Lang::of_path(&f.path) == Some(Lang::Go))
            .filter(|f| {
                f.definitions.iter().any(|d| {
                    d.container.is_none()
                        && !targets.iter().any(|t| t.path == f.path && t.line == d.line)
                })
            })
            .map(|f| devprojex_symbols::resolve::dir_of(&f.path))
            .collect();
        // names defined at file level by other definitions in each file (they hide the target)
        let mut references = Vec::new();
        for file in &uses {
            let own_defs: Vec<&Definition> = file
                .definitions
                .iter()
                .filter(|d| {
                    !targets
                        .iter()
                        .any(|t| t.path == file.path && t.line == d.line)
                })
                .collect();
            let hidden_here = own_defs.iter().any(|d| d.container.is_none())
                || go_hidden_dirs.contains(devprojex_symbols::resolve::dir_of(&file.path));
            let passed_on = reach.importing_passer.get(file.path.as_str());
            let via_reexport = passed_on.is_some();
            let included = reach.included.contains(file.path.as_str());
            let imports_target = importing.contains(file.path.as_str()) || via_reexport || included;
            // through a re-export, a bare name is the target only when the file takes it from
            // a file passing it on (`import { parse } from './index'`), not from elsewhere
            let bare_imported = importing.contains(file.path.as_str())
                || included
                || passed_on.is_some_and(|lines| {
                    file.occurrences.iter().any(|o| {
                        o.import_line
                            .or(o.definition.then_some(o.line))
                            .is_some_and(|l| lines.contains(&l))
                    })
                });
            let file_dir = devprojex_symbols::resolve::dir_of(&file.path);
            for occurrence in &file.occurrences {
                if occurrence.definition {
                    // Python: another declaration of the name in the target's own scope
                    // (`@overload` signatures, a property's setter) is the same symbol
                    // Rust: the other impls' (and the trait's) definitions of a trait's item
                    let trait_sibling = file.lang == Some(Lang::Rust)
                        && targets.iter().any(|t| {
                            t.trait_item.is_some()
                                && t.path == file.path
                                && t.line == occurrence.line
                        })
                        && !outcome
                            .definitions
                            .iter()
                            .any(|h| h.path == file.path && h.line == occurrence.line);
                    // TypeScript: the signature of the member in the type a target was
                    // assigned through (`extend: (…) => KyInstance;` for `ky.extend = …`)
                    let declares_assigned = occurrence.signature_of.is_some()
                        && targets.iter().any(|t| {
                            t.value_type.is_some() && t.value_type == occurrence.signature_of
                        });
                    // JavaScript and TypeScript: a method the target overrides or
                    // implements, or another override of it
                    let in_family = !targets
                        .iter()
                        .any(|t| t.path == file.path && t.line == occurrence.line)
                        && file
                            .definitions
                            .iter()
                            .find(|d| d.line == occurrence.line)
                            .and_then(|d| d.scope.iter().last())
                            .or(occurrence.signature_of.as_deref())
                            .is_some_and(|class| {
                                targets.iter().any(|t| {
                                    t.family
                                        .iter()
                                        .any(|m| m.class == class && m.path == file.path)
                                })
                            });
                    if trait_sibling
                        || declares_assigned
                        || in_family
                        || redeclares_a_target(occurrence, file, &targets)
                    {
                        references.push(Reference {
                            path: file.path.clone(),
                            line: occurrence.line,
                            column: occurrence.column,
                            container: occurrence.container.clone(),
                            confidence: Confidence::Resolved,
                            import: false,
                            text: file
                                .lines
                                .get(&occurrence.line)
                                .cloned()
                                .unwrap_or_default(),
                        });
                    }
                    continue;
                }
                // another definition's own name: `app2.response.shout = function …` defines a
                // second `shout`, it does not use the first
                if matches!(occurrence.access, Access::Member { .. })
                    && own_defs.iter().any(|d| d.line == occurrence.line)
                {
                    continue;
                }
                if occurrence.import && !options.include_imports {
                    continue;
                }
                if file.lang == Some(Lang::Rust)
                    && names_own_member(occurrence, &file.path, &own_defs, &targets)
                {
                    continue;
                }
                let targets_here: &[TargetDef] = match (file.lang, occurrence.tag) {
                    (Some(Lang::C), true) if !c_tag_targets.is_empty() => &c_tag_targets,
                    (Some(Lang::C), false) if !c_plain_targets.is_empty() => &c_plain_targets,
                    // the other namespace: another definition of the name
                    (Some(Lang::C), _) if targets.iter().any(|t| t.c_tag.is_some()) => continue,
                    _ => &targets,
                };
                let confidence = judge(
                    occurrence,
                    &file.path,
                    file_dir,
                    targets_here,
                    Imported {
                        file: imports_target,
                        bare: bare_imported,
                    },
                    if via_reexport { &reexport_modules } else { &[] },
                    hidden_here,
                );
                let Some(confidence) = confidence else {
                    continue;
                };
                references.push(Reference {
                    path: file.path.clone(),
                    line: occurrence.line,
                    column: occurrence.column,
                    container: occurrence.container.clone(),
                    confidence,
                    import: occurrence.import,
                    text: file
                        .lines
                        .get(&occurrence.line)
                        .cloned()
                        .unwrap_or_default(),
                });
            }
        }
        outcome.total = references.len();
        outcome.resolved = references
            .iter()
            .filter(|r| r.confidence == Confidence::Resolved)
            .count();
        outcome.references = references
            .into_iter()
            .skip(options.offset)
            .take(options.max_results)
            .collect();
        if outcome.definitions.is_empty() && outcome.total == 0 {
            outcome.near_names = self.near_names(root, request, caches, &query.name)?;
        }
        Ok(outcome)
    }

    /// The uses of `macros` (macros whose body spells the name) in the C and C++ files of
    /// `files`, added to `uses` as bare uses of the name at the expansion.
    fn add_macro_expansions(
        &self,
        root: &ProjectRoot,
        files: &[&Entry],
        pipeline: &crate::content::ContentPipeline,
        macros: &[String],
        deadline: Option<Instant>,
        uses: &mut Vec<FileUses>,
    ) {
        use rayon::prelude::*;
        let c_files: Vec<&Entry> = files
            .iter()
            .filter(|f| matches!(Lang::of_path(&f.relative), Some(Lang::C | Lang::Cpp)))
            .copied()
            .collect();
        for name in macros {
            let needle = memchr::memmem::Finder::new(name.as_bytes());
            let found: Vec<(String, Vec<Occurrence>, HashMap<usize, String>)> = c_files
                .par_iter()
                .filter_map(|entry| {
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        return None;
                    }
                    let Some(Content::Text(text)) = pipeline.load_matching(root, entry, &needle)
                    else {
                        return None;
                    };
                    let text = &text.text;
                    let expansions: Vec<Occurrence> = devprojex_symbols::references::occurrences(
                        &entry.relative,
                        text,
                        name,
                        deadline,
                    )?
                    .into_iter()
                    .filter(|o| !o.definition && !o.import && o.access == Access::Bare)
                    .map(|mut o| {
                        // the name as the expansion writes it: bare, at file level
                        o.scope = None;
                        o.tag = false;
                        o
                    })
                    .collect();
                    if expansions.is_empty() {
                        return None;
                    }
                    let wanted: HashSet<usize> = expansions.iter().map(|o| o.line).collect();
                    let lines: HashMap<usize, String> = text
                        .lines()
                        .enumerate()
                        .filter(|(i, _)| wanted.contains(&(i + 1)))
                        .map(|(i, l)| (i + 1, shorten(l.trim_end_matches('\r').trim())))
                        .collect();
                    // `#ifndef UNITY_END`, `#undef`: directives name the macro, they do not
                    // expand it
                    let expansions: Vec<Occurrence> = expansions
                        .into_iter()
                        .filter(|o| !lines.get(&o.line).is_some_and(|l| l.starts_with('#')))
                        .collect();
                    if expansions.is_empty() {
                        return None;
                    }
                    Some((entry.relative.clone(), expansions, lines))
                })
                .collect();
            for (path, expansions, lines) in found {
                match uses.iter_mut().find(|f| f.path == path) {
                    Some(file) => {
                        file.occurrences.extend(expansions);
                        file.occurrences.sort_by_key(|o| (o.line, o.column));
                        file.lines.extend(lines);
                    }
                    None => uses.push(FileUses {
                        lang: Lang::of_path(&path),
                        path,
                        definitions: Vec::new(),
                        occurrences: expansions,
                        lines,
                        macros_using: Vec::new(),
                        heritage: Default::default(),
                    }),
                }
            }
        }
    }

    /// Which files among `uses` import the targets' files (or, in Go, the package folder of
    /// one), and which files pass the targets on, with the files among `uses` importing those.
    ///
    /// A file passes a target on when it imports the target's file (or a file passing it on)
    /// and either names it in an import (`from .helpers import get_flashed_messages` in
    /// `flask/__init__.py`, `export { parse } from './parser'`) or re-exports that file whole
    /// (`export * from './schemas.js'` in a barrel, found among the importers of the file even
    /// when it does not spell the name). The chain is followed [`REEXPORT_DEPTH`] files deep.
    #[allow(clippy::too_many_arguments)]
    fn reach<'u>(
        &self,
        root: &ProjectRoot,
        request: &Request,
        caches: Option<&Caches>,
        uses: &'u [FileUses],
        target_files: &HashSet<&str>,
        target_dirs: &HashSet<&str>,
        deadline: Option<Instant>,
        pipeline: &crate::content::ContentPipeline,
    ) -> Reach<'u> {
        // every use in a target's own file: no other file to reach, so the project's import
        // index (78k files on the kernel) is not built for nothing
        if target_files.is_empty() || uses.iter().all(|f| target_files.contains(f.path.as_str())) {
            return Reach::default();
        }
        self.with_import_graph(
            root,
            request,
            caches,
            deadline,
            pipeline,
            |project, entries, deadline| {
                let mut out = Reach::default();
                // the resolved imports of every file that uses the name
                let candidates: Vec<(&FileUses, Vec<(Target, usize)>)> = uses
                    .iter()
                    .filter(|f| !target_files.contains(f.path.as_str()))
                    .map(|f| {
                        let edges = project.imports_of(&f.path, entries, pipeline, deadline);
                        (f, edges.edges)
                    })
                    .collect();
                let leads_to =
                    |edges: &[(Target, usize)], files: &HashSet<&str>, dirs: &HashSet<&str>| {
                        edges
                            .iter()
                            .filter(|(target, _)| match target {
                                Target::File(path) => files.contains(path.as_str()),
                                Target::Folder(dir) => dirs.contains(dir.as_str()),
                            })
                            .map(|(_, line)| *line)
                            .collect::<Vec<usize>>()
                    };
                for (file, edges) in &candidates {
                    if !leads_to(edges, target_files, target_dirs).is_empty() {
                        out.importing.insert(file.path.as_str());
                    }
                }
                // C and C++: a header passes on what it declares for the source file that includes
                // it (`cJSON.h` for `cJSON.c`), and `#include` passes a header on whole, so each file
                // using the name has its includes followed to such a header (or a target's file:
                // cJSON's tests include `common.h`, which includes `../cJSON.c`)
                let c_family = |p: &str| matches!(Lang::of_path(p), Some(Lang::C | Lang::Cpp));
                let mut declaring: HashSet<String> = HashSet::new();
                let mut file_edges = |file: &str| {
                    project
                        .imports_of(file, entries, pipeline, deadline)
                        .edges
                        .into_iter()
                        .filter_map(|(t, _)| match t {
                            Target::File(p) => Some(p),
                            Target::Folder(_) => None,
                        })
                        .collect::<Vec<String>>()
                };
                for target in target_files.iter().filter(|t| c_family(t)) {
                    declaring.insert(target.to_string());
                    // the headers the target's file includes, directly or through others
                    let mut seen: HashSet<String> = HashSet::new();
                    let mut level = file_edges(target);
                    for _ in 0..INCLUDE_DEPTH {
                        let mut next = Vec::new();
                        for header in level {
                            if seen.len() >= INCLUDES_WALKED || !seen.insert(header.clone()) {
                                continue;
                            }
                            let declares = uses.iter().any(|f| {
                                f.path == header
                                    && f.occurrences.iter().any(|o| o.container.is_none())
                            });
                            if declares {
                                declaring.insert(header.clone());
                            }
                            next.extend(file_edges(&header));
                        }
                        level = next;
                    }
                }
                if !declaring.is_empty() {
                    for (file, edges) in &candidates {
                        if !c_family(&file.path) || out.importing.contains(file.path.as_str()) {
                            continue;
                        }
                        if declaring.contains(&file.path) {
                            out.included.insert(file.path.as_str());
                            continue;
                        }
                        let mut seen: HashSet<String> = HashSet::new();
                        let mut level: Vec<String> = edges
                            .iter()
                            .filter_map(|(t, _)| match t {
                                Target::File(p) => Some(p.clone()),
                                Target::Folder(_) => None,
                            })
                            .collect();
                        'walk: for _ in 0..INCLUDE_DEPTH {
                            let mut next = Vec::new();
                            for header in level {
                                if declaring.contains(&header) {
                                    out.included.insert(file.path.as_str());
                                    break 'walk;
                                }
                                if seen.len() >= INCLUDES_WALKED || !seen.insert(header.clone()) {
                                    continue;
                                }
                                next.extend(
                                    project
                                        .imports_of(&header, entries, pipeline, deadline)
                                        .edges
                                        .into_iter()
                                        .filter_map(|(t, _)| match t {
                                            Target::File(p) => Some(p),
                                            Target::Folder(_) => None,
                                        }),
                                );
                            }
                            level = next;
                        }
                    }
                }
                // the chain of files passing the targets on
                let mut passing: HashSet<String> = HashSet::new();
                let mut frontier: Vec<String> =
                    target_files.iter().map(|f| f.to_string()).collect();
                let mut frontier_dirs: HashSet<&str> = target_dirs.clone();
                for _ in 0..REEXPORT_DEPTH {
                    let frontier_files: HashSet<&str> =
                        frontier.iter().map(String::as_str).collect();
                    // by name: a file that uses the name imports it from the frontier
                    let mut named: Vec<String> = Vec::new();
                    for (file, edges) in &candidates {
                        if passing.contains(&file.path)
                            || !file
                                .occurrences
                                .iter()
                                .any(|o| o.import || exports_commonjs(o, file.lang))
                            || leads_to(edges, &frontier_files, &frontier_dirs).is_empty()
                        {
                            continue;
                        }
                        named.push(file.path.clone());
                    }
                    let mut whole_files: Vec<String> = Vec::new();
                    // whole: `export * from` a frontier file (JavaScript and TypeScript)
                    for whole in frontier
                        .iter()
                        .filter(|f| {
                            matches!(
                                Lang::of_path(f),
                                Some(Lang::JavaScript | Lang::TypeScript | Lang::Tsx)
                            )
                        })
                        .take(REEXPORT_FRONTIER)
                    {
                        let Ok(importers) =
                            project.direct_importers(whole, pipeline, deadline, &|| false)
                        else {
                            break;
                        };
                        for (entry, _) in importers.importers {
                            let path = &entry.relative;
                            if passing.contains(path)
                                || target_files.contains(path.as_str())
                                || whole_files.contains(path)
                            {
                                continue;
                            }
                            if project.reexported_whole(path).iter().any(|f| f == whole) {
                                whole_files.push(path.clone());
                            }
                        }
                    }
                    // the barrels first: the next level searches the importers of the first few only
                    // (a popular name is imported by many files that pass nothing on)
                    whole_files.sort();
                    named.sort();
                    named.retain(|f| !whole_files.contains(f));
                    let next: Vec<String> = whole_files.into_iter().chain(named).collect();
                    if next.is_empty() {
                        break;
                    }
                    passing.extend(next.iter().cloned());
                    frontier = next;
                    frontier_dirs = HashSet::new();
                }
                let passing_files: HashSet<&str> = passing.iter().map(String::as_str).collect();
                for (file, edges) in &candidates {
                    if out.importing.contains(file.path.as_str()) {
                        continue;
                    }
                    let lines = leads_to(edges, &passing_files, &HashSet::new());
                    if !lines.is_empty() {
                        out.importing_passer.insert(file.path.as_str(), lines);
                    }
                }
                out.passers = passing.into_iter().collect();
                out.passers.sort();
                out
            },
        )
        .unwrap_or_default()
    }

    /// The resolved imports of each of `files`, through the import graph `related_files` keeps.
    fn import_edges(
        &self,
        root: &ProjectRoot,
        request: &Request,
        caches: Option<&Caches>,
        files: &[&str],
        deadline: Option<Instant>,
        pipeline: &crate::content::ContentPipeline,
    ) -> HashMap<String, Vec<Target>> {
        if files.is_empty() {
            return HashMap::new();
        }
        self.with_import_graph(
            root,
            request,
            caches,
            deadline,
            pipeline,
            |project, entries, deadline| {
                files
                    .iter()
                    .map(|file| {
                        let edges = project.imports_of(file, entries, pipeline, deadline);
                        let targets = edges.edges.into_iter().map(|(target, _)| target);
                        (file.to_string(), targets.collect())
                    })
                    .collect()
            },
        )
        .unwrap_or_default()
    }

    /// Runs `work` on the import graph `related_files` keeps for the selection (the server's
    /// cached one, or a fresh one for the CLI); `None` when the selection or the graph fails.
    fn with_import_graph<T>(
        &self,
        root: &ProjectRoot,
        request: &Request,
        caches: Option<&Caches>,
        deadline: Option<Instant>,
        pipeline: &crate::content::ContentPipeline,
        work: impl for<'g> FnOnce(&mut ProjectGraph<'g>, &[&'g Entry], Instant) -> T,
    ) -> Option<T> {
        let selection = self
            .select_sources(root, request, true, true, caches)
            .ok()?;
        let entries: Vec<&Entry> = selection.files().collect();
        let fresh;
        let index = match caches {
            Some(caches) => &caches.symbols,
            None => {
                fresh = SymbolIndex::new(0);
                &fresh
            }
        };
        let deadline = deadline.unwrap_or_else(|| Instant::now() + Duration::from_secs(86_400));
        let shared = index.root_index(root);
        let mut project = index
            .project(&shared, root, &entries, pipeline, false, deadline, &|| {
                false
            })
            .ok()?;
        Some(work(&mut project, &entries, deadline))
    }

    /// Types the receivers of `uses` that wait on what another file's function or method
    /// returns (`c, _ := CreateTestContext(w)`, `router.Group("/v1").GET`): the functions
    /// and methods of that name are read from the files of the selection that spell one, and
    /// a receiver is typed only when the definitions it can mean (the same Go package, a file
    /// the using file imports, a module its qualifier names, a method of the receiver's
    /// class) all return one type. A receiver whose class does not define the name is then
    /// typed by the base class (Go: the embedded struct) that does, as a method call on it
    /// reaches that one.
    #[allow(clippy::too_many_arguments)]
    fn type_receivers_across_files(
        &self,
        root: &ProjectRoot,
        request: &Request,
        caches: Option<&Caches>,
        files: &[&Entry],
        uses: &mut [FileUses],
        name: &str,
        deadline: Option<Instant>,
        pipeline: &crate::content::ContentPipeline,
    ) {
        // the classes that define the name themselves
        let defining: HashSet<String> = uses
            .iter()
            .flat_map(|f| &f.definitions)
            .filter(|d| d.name == name)
            .filter_map(|d| d.scope.iter().last().map(str::to_string))
            .collect();
        let mut languages: HashSet<Lang> = HashSet::new();
        let mut bare_callers: Vec<&str> = Vec::new();
        let mut wanted: HashSet<String> = HashSet::new();
        for file in uses.iter() {
            let lang = Lang::of_path(&file.path);
            // the languages whose results, fields and bases the walk reads
            if !matches!(
                lang.map(lang_family),
                Some(Lang::Go | Lang::Python | Lang::TypeScript | Lang::Rust)
            ) {
                continue;
            }
            for occurrence in &file.occurrences {
                if let Some(waiting) = &occurrence.receiver_result {
                    wanted.extend(waiting.functions().into_iter().map(str::to_string));
                    languages.extend(lang.map(lang_family));
                    if lang != Some(Lang::Go) && waits_on_a_bare_call(waiting) {
                        bare_callers.push(&file.path);
                    }
                }
                if let Some(class) = &occurrence.receiver_type
                    && !defining.contains(class)
                {
                    wanted.insert(class.clone());
                    languages.extend(lang.map(lang_family));
                }
            }
        }
        if wanted.is_empty() {
            return;
        }
        bare_callers.dedup();
        let bare_callers: Vec<String> = bare_callers.into_iter().map(str::to_string).collect();
        let mut index = ResultIndex::default();
        let mut screened: HashSet<String> = HashSet::new();
        let mut imports: HashMap<String, Vec<Target>> = HashMap::new();
        // a round reads the files spelling the names wanted; the bases and results it finds
        // may want more (a base's base, a type a function returns)
        for round in 0..MAX_TYPE_ROUNDS {
            let names: Vec<String> = wanted
                .iter()
                .filter(|n| !screened.contains(*n))
                .cloned()
                .collect();
            if names.is_empty() || screened.len() + names.len() > MAX_RESULT_NAMES {
                break;
            }
            screened.extend(names.iter().cloned());
            self.read_types(
                root, files, &names, &languages, deadline, pipeline, &mut index,
            );
            if round == 0 {
                let callers: Vec<&str> = bare_callers.iter().map(String::as_str).collect();
                imports = self.import_edges(root, request, caches, &callers, deadline, pipeline);
            }
            let imported = imported_files(&imports);
            let resolver = ResultResolver {
                index: &index,
                imported: &imported,
                steps: std::cell::Cell::new(MAX_RESOLVE_STEPS),
            };
            for file in uses.iter() {
                for occurrence in &file.occurrences {
                    let class = match &occurrence.receiver_result {
                        Some(waiting) => resolver.resolve(waiting, &file.path, 0),
                        None => occurrence.receiver_type.clone(),
                    };
                    if let Some(class) = class {
                        // its bases, when it does not define the name
                        let mut next = vec![class];
                        for _ in 0..MAX_BASE_DEPTH {
                            let mut above = Vec::new();
                            for class in next {
                                if defining.contains(&class) {
                                    continue;
                                }
                                if let Some(bases) = index.bases.get(&class) {
                                    above.extend(bases.iter().cloned());
                                }
                                wanted.insert(class);
                            }
                            next = above;
                        }
                    }
                }
            }
        }
        let imported = imported_files(&imports);
        let resolver = ResultResolver {
            index: &index,
            imported: &imported,
            steps: std::cell::Cell::new(MAX_RESOLVE_STEPS),
        };
        for file in uses.iter_mut() {
            for occurrence in &mut file.occurrences {
                if let Some(waiting) = occurrence.receiver_result.take() {
                    occurrence.receiver_type = resolver.resolve(&waiting, &file.path, 0);
                }
                if let Some(class) = &occurrence.receiver_type
                    && !defining.contains(class)
                    && let Some(base) = resolver.defining_base(class, &defining)
                {
                    occurrence.receiver_type = Some(base);
                }
            }
        }
    }

    /// Reads what the files spelling one of `names` tell of their functions' results and
    /// their classes' bases, into `index`.
    #[allow(clippy::too_many_arguments)]
    fn read_types(
        &self,
        root: &ProjectRoot,
        files: &[&Entry],
        names: &[String],
        languages: &HashSet<Lang>,
        deadline: Option<Instant>,
        pipeline: &crate::content::ContentPipeline,
        index: &mut ResultIndex,
    ) {
        use rayon::prelude::*;
        let finders: Vec<memchr::memmem::Finder<'_>> = names
            .iter()
            .map(|n| memchr::memmem::Finder::new(n.as_bytes()))
            .collect();
        let found: Vec<(String, FileTypes)> = files
            .par_iter()
            .filter(|entry| {
                Lang::of_path(&entry.relative).is_some_and(|l| languages.contains(&lang_family(l)))
                    && !index.read.contains(&entry.relative)
            })
            .filter_map(|entry| {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    return None;
                }
                let Content::Text(text) = pipeline.load(root, entry) else {
                    return None;
                };
                let bytes = text.text.as_bytes();
                if !finders.iter().any(|f| f.find(bytes).is_some()) {
                    return None;
                }
                let types = devprojex_symbols::references::result_types(
                    &entry.relative,
                    &text.text,
                    deadline,
                )?;
                Some((entry.relative.clone(), types))
            })
            .collect();
        for (path, types) in found {
            for result in types.results {
                match result.key.split_once('.') {
                    Some((class, method)) => index
                        .methods
                        .entry((class.to_string(), method.to_string()))
                        .or_default()
                        .push((path.clone(), result.result)),
                    None => index
                        .functions
                        .entry(result.key)
                        .or_default()
                        .push((path.clone(), result.result)),
                }
            }
            for field in types.fields {
                if let Some((class, name)) = field.key.split_once('.') {
                    index
                        .fields
                        .entry((class.to_string(), name.to_string()))
                        .or_default()
                        .push((path.clone(), field.result));
                }
            }
            for (class, bases) in types.bases {
                match index.bases.get(&class) {
                    // two classes of one name that extend different ones: neither is followed
                    Some(before) if *before != bases => {
                        index.bases.insert(class, Vec::new());
                    }
                    Some(_) => {}
                    None => {
                        index.bases.insert(class, bases);
                    }
                }
            }
            index.read.insert(path);
        }
    }

    /// Definition names like `name` (another case, a prefix or a part of it), for the hint
    /// when nothing is found.
    fn near_names(
        &self,
        root: &ProjectRoot,
        request: &Request,
        caches: Option<&Caches>,
        name: &str,
    ) -> Result<Vec<String>> {
        let lower = name.to_lowercase();
        let mut probes: Vec<String> = vec![name.to_string()];
        // case mistakes: the lower-case, upper-case and capitalised spellings
        let mut capital = lower.clone();
        if let Some(first) = capital.get_mut(0..1) {
            first.make_ascii_uppercase();
        }
        probes.extend([lower.clone(), name.to_uppercase(), capital]);
        // a shorter stem finds longer and shorter relatives: the first half for a slip near
        // the end, the last half for one near the start (`fnd_symbol`)
        let chars = name.chars().count();
        let half = chars.div_ceil(2).max(3);
        probes.push(name.chars().take(half).collect());
        probes.push(name.chars().skip(chars.saturating_sub(half)).collect());
        probes.dedup();
        let mut found: Vec<String> = Vec::new();
        for probe in probes {
            if found.len() >= 10 {
                break;
            }
            let outcome = self.find_symbol(
                root,
                request,
                &SymbolOptions {
                    name: probe,
                    kind: None,
                    mode: MatchMode::Substring,
                    max_results: limits::MAX_SYMBOL_RESULTS,
                    deadline: Some(Duration::from_secs(2)),
                    include_body: false,
                },
                caches,
                Hooks::default(),
            );
            let Ok(outcome) = outcome else { continue };
            for hit in outcome.hits {
                if hit.name != name && !found.contains(&hit.name) {
                    found.push(hit.name);
                }
            }
        }
        // case-insensitive equals first, then the closest spellings (the edit distance of the
        // lower-case forms, relative to their length), then by name
        let closeness = |n: &str| strsim::normalized_damerau_levenshtein(&n.to_lowercase(), &lower);
        found.sort_by(|a, b| {
            (a.to_lowercase() != lower)
                .cmp(&(b.to_lowercase() != lower))
                .then(closeness(b).total_cmp(&closeness(a)))
                .then_with(|| a.cmp(b))
        });
        found.truncate(10);
        Ok(found)
    }
}

/// The answer's text: a head line, the definitions, then one line per reference
/// (`path:line:column: confidence [import] (in container): text`).
pub fn references_text(outcome: &ReferencesOutcome) -> String {
    use crate::render::escape::text_line;
    let mut out = String::new();
    let definitions = match outcome.definitions.len() {
        0 => "no definition in the selection".to_string(),
        1 => "1 definition".to_string(),
        n => format!("{n} definitions"),
    };
    out.push_str(&format!(
        "references of {}: {} ({} resolved, {} name-only), {definitions}\n",
        text_line(&outcome.name),
        outcome.total,
        outcome.resolved,
        outcome.total - outcome.resolved,
    ));
    for hit in &outcome.definitions {
        out.push_str(&format!(
            "definition {}:{}: {} {}",
            text_line(&hit.path),
            hit.line,
            hit.kind,
            text_line(&hit.name)
        ));
        if let Some(container) = &hit.container {
            out.push_str(&format!(" (in {})", text_line(container)));
        }
        out.push('\n');
    }
    for reference in &outcome.references {
        out.push_str(&format!(
            "{}:{}:{}: {}",
            text_line(&reference.path),
            reference.line,
            reference.column,
            reference.confidence.as_str()
        ));
        if reference.import {
            out.push_str(" import");
        }
        if let Some(container) = &reference.container {
            out.push_str(&format!(" (in {})", text_line(container)));
        }
        out.push_str(": ");
        out.push_str(&text_line(&reference.text));
        out.push('\n');
    }
    out
}

/// The trusted notes after `find_references`: counts, limits and how to go on.
pub fn references_trailer(outcome: &ReferencesOutcome, cli: bool) -> Vec<String> {
    let (offset, narrow, raise) = if cli {
        (
            "--offset",
            "--at, --kind, --paths or --include-patterns",
            "--max-results",
        )
    } else {
        (
            "offset",
            "at, kind, paths or include_patterns",
            "max_results",
        )
    };
    let mut trailer = Vec::new();
    let shown = outcome.references.len();
    let end = outcome.offset + shown;
    if end < outcome.total {
        trailer.push(format!(
            "[Showing references {}-{end} of {}. Call again with {offset}={end} for the next page, raise {raise} (at most {}), or narrow with {narrow}.]",
            outcome.offset + 1,
            outcome.total,
            limits::MAX_REFERENCE_RESULTS
        ));
    } else if shown == 0 && outcome.total > 0 {
        trailer.push(format!(
            "[No references at {offset}={}: there are {}. Lower {offset}.]",
            outcome.offset, outcome.total
        ));
    }
    if outcome.coverage.stopped.is_some() {
        trailer.push(format!(
            "[References incomplete: the time limit was reached after {} files. Narrow with {narrow}.]",
            outcome.searched_files
        ));
    }
    if outcome.unparsed_files > 0 {
        trailer.push(format!(
            "[{} not parsed (larger than 4 MiB).]",
            crate::select::plural(
                outcome.unparsed_files,
                "file that contains the name was",
                "files that contain the name were"
            )
        ));
    }
    trailer
}

/// The answer as JSON (the CLI's `--format json`).
pub fn references_json(outcome: &ReferencesOutcome, project: &str) -> serde_json::Value {
    serde_json::json!({
        "project": project,
        "name": outcome.name,
        "definitions": outcome.definitions,
        "references": outcome.references,
        "total": outcome.total,
        "resolved": outcome.resolved,
        "offset": outcome.offset,
        "nearNames": outcome.near_names,
        "truncated": outcome.coverage.stopped.is_some(),
    })
}

/// Whether the definition `occurrence` is another declaration of a target in the same scope
/// of its file, which the analysers take as one symbol: Python's `@overload` signatures,
/// `@x.setter`, a redefinition (pyright); TypeScript's overload signatures and a `get`/`set`
/// pair (the TypeScript service). Not a member assigned to an object (`res.json = …` twice
/// are two values).
fn redeclares_a_target(occurrence: &Occurrence, file: &FileUses, targets: &[TargetDef]) -> bool {
    if !matches!(
        Lang::of_path(&file.path),
        Some(Lang::Python | Lang::TypeScript | Lang::Tsx)
    ) || targets
        .iter()
        .any(|t| t.path == file.path && t.line == occurrence.line)
    {
        return false;
    }
    let Some(declared) = file.definitions.iter().find(|d| d.line == occurrence.line) else {
        return false;
    };
    targets.iter().any(|t| {
        t.path == file.path
            && t.file_level()
            && !t.container_is_value
            && declared.scope.iter().last() == t.container.as_deref()
    })
}

/// Rust: an associated type or constant of a trait or of a trait's `impl` is the trait's
/// item; the trait's and its other impls' definitions of it join the targets (their
/// `Self::Captures` are uses; their definitions are listed as references).
fn add_trait_items(uses: &[FileUses], targets: &mut Vec<TargetDef>, hits: &[SymbolHit]) {
    let mut asked: Vec<(String, String, Kind)> = Vec::new();
    for (target, hit) in targets.iter_mut().zip(hits) {
        if target.associated {
            target.trait_item = hit.container.as_deref().and_then(trait_of_container);
            if let Some(of_trait) = &target.trait_item {
                asked.push((of_trait.clone(), hit.name.clone(), target.kind));
            }
        }
    }
    for file in uses.iter().filter(|f| f.lang == Some(Lang::Rust)) {
        for definition in &file.definitions {
            let Some(of_trait) = definition.container.as_deref().and_then(trait_of_container)
            else {
                continue;
            };
            let same_item = asked.iter().any(|(t, name, kind)| {
                *t == of_trait && *name == definition.name && *kind == definition.kind
            });
            let already = targets
                .iter()
                .any(|t| t.path == file.path && t.line == definition.line);
            if !same_item || already {
                continue;
            }
            targets.push(TargetDef {
                path: file.path.clone(),
                dir: devprojex_symbols::resolve::dir_of(&file.path).to_string(),
                lang: Some(Lang::Rust),
                line: definition.line,
                scope: None,
                container: definition.scope.iter().last().map(str::to_string),
                module_names: module_names(&file.path, Some(Lang::Rust)),
                method: false,
                kind: definition.kind,
                container_is_value: false,
                value_type: None,
                family: Vec::new(),
                behind_inherent: false,
                associated: true,
                trait_item: Some(of_trait),
                c_tag: None,
            });
        }
    }
}

/// A class or interface of a method's family (see [`method_families`]).
#[derive(Clone)]
struct FamilyMember {
    class: String,
    path: String,
    /// No other file declares a class of the name with the method: a receiver typed by the
    /// name in any file means this one (else only in its own file).
    unique: bool,
}

/// JavaScript and TypeScript: for each method target of a class or interface, the classes
/// and interfaces whose method of the name the TypeScript service takes for the same one:
/// those it overrides or implements (up `extends` and `implements`, [`MAX_BASE_DEPTH`]
/// levels, among the files that spell the name), and every other one that overrides or
/// implements one of those. Their definitions of the name are its references, and a receiver
/// typed by one of them uses it.
fn method_families(uses: &[FileUses], targets: &mut [TargetDef]) {
    let script =
        |lang: Option<Lang>| matches!(lang, Some(Lang::JavaScript | Lang::TypeScript | Lang::Tsx));
    if !targets
        .iter()
        .any(|t| script(t.lang) && t.method && !t.container_is_value && t.container.is_some())
    {
        return;
    }
    // class -> (its file, what it extends and implements), each file's own
    let mut supertypes: HashMap<&str, Vec<(&str, &[String])>> = HashMap::new();
    // (class, file) declaring the name
    let mut declaring: HashSet<(&str, &str)> = HashSet::new();
    // (class, file) declared more than once in its file: none of them is meant
    let repeated: HashSet<(&str, &str)> = uses
        .iter()
        .flat_map(|f| {
            f.heritage
                .repeated
                .iter()
                .map(move |c| (c.as_str(), f.path.as_str()))
        })
        .collect();
    for file in uses.iter().filter(|f| script(f.lang)) {
        for (class, above) in &file.heritage.supertypes {
            if repeated.contains(&(class.as_str(), file.path.as_str())) {
                continue;
            }
            supertypes
                .entry(class.as_str())
                .or_default()
                .push((file.path.as_str(), above.as_slice()));
        }
        // an interface's or object type alias's signature of the name
        for occurrence in &file.occurrences {
            if occurrence.definition
                && let Some(owner) = &occurrence.signature_of
                && !repeated.contains(&(owner.as_str(), file.path.as_str()))
            {
                declaring.insert((owner.as_str(), file.path.as_str()));
            }
        }
        for definition in &file.definitions {
            // (a member assigned to an object is the object's, not a class's)
            if definition.container.as_deref() != definition.scope.iter().last()
                && let Some(class) = definition.scope.iter().last()
                && !repeated.contains(&(class, file.path.as_str()))
            {
                declaring.insert((class, file.path.as_str()));
            }
        }
    }
    // the classes above `class` of `path`: a name is looked up in the same file first, else
    // where it is the only one of its name (two classes of a name elsewhere: not followed)
    let ancestors =
        |class: &str, path: &str| -> HashSet<&str> {
            let mut seen: HashSet<&str> = HashSet::new();
            let mut level: Vec<(&str, &str)> = vec![(class, path)];
            for _ in 0..MAX_BASE_DEPTH {
                let mut above: Vec<(&str, &str)> = Vec::new();
                for (class, from) in level {
                    let Some(entries) = supertypes.get(class) else {
                        continue;
                    };
                    let entry = entries.iter().find(|(file, _)| *file == from).or(
                        match entries.as_slice() {
                            [only] => Some(only),
                            _ => None,
                        },
                    );
                    if let Some((file, parents)) = entry {
                        for parent in parents.iter() {
                            if seen.insert(parent.as_str()) {
                                above.push((parent.as_str(), file));
                            }
                        }
                    }
                }
                if above.is_empty() {
                    break;
                }
                level = above;
            }
            seen
        };
    for target in targets.iter_mut() {
        if !script(target.lang) || !target.method || target.container_is_value {
            continue;
        }
        let Some(own) = target.container.clone() else {
            continue;
        };
        // a class its file declares again (a local class per test): the others of the name
        // are other classes, but what they all extend or implement is still above it
        let own_repeated = repeated.contains(&(own.as_str(), target.path.as_str()));
        let above: HashSet<&str> = if own_repeated {
            uses.iter()
                .filter(|f| f.path == target.path)
                .flat_map(|f| &f.heritage.supertypes)
                .filter(|(class, _)| *class == own)
                .flat_map(|(_, parents)| parents)
                .flat_map(|parent| {
                    let mut up = ancestors(parent, &target.path);
                    up.insert(parent.as_str());
                    up
                })
                .collect()
        } else {
            ancestors(&own, &target.path)
        };
        let mut roots: HashSet<&str> = above
            .into_iter()
            .filter(|c| declaring.iter().any(|(d, _)| d == c))
            .collect();
        if !own_repeated {
            roots.insert(own.as_str());
        }
        let mut family: Vec<(String, String)> = declaring
            .iter()
            .filter(|(class, path)| {
                !(own_repeated && *class == own.as_str() && *path == target.path.as_str())
                    && (*class != own.as_str() && roots.contains(class)
                        || ancestors(class, path).iter().any(|a| roots.contains(a)))
            })
            .map(|(class, path)| (class.to_string(), path.to_string()))
            .collect();
        if !own_repeated {
            family.push((own.clone(), target.path.clone()));
        }
        family.sort();
        family.dedup();
        target.family = family
            .into_iter()
            .map(|(class, path)| FamilyMember {
                unique: declaring.iter().filter(|(c, _)| *c == class).count() <= 1,
                class,
                path,
            })
            .collect();
    }
}

/// The trait a Rust container names: `trait Matcher`, `impl Matcher for RegexMatcher`,
/// `impl<M: Matcher> grep_matcher::Matcher for &'a M` → `Matcher`.
fn trait_of_container(container: &str) -> Option<String> {
    let named = match container.strip_prefix("trait ") {
        Some(name) => name,
        None => {
            let rest = container.strip_prefix("impl")?;
            // past the impl's own generics (`impl<M: Matcher> …`)
            let rest = match rest.strip_prefix('<') {
                Some(generics) => {
                    let mut depth = 1;
                    let end = generics.char_indices().find_map(|(i, c)| {
                        match c {
                            '<' => depth += 1,
                            '>' => depth -= 1,
                            _ => {}
                        }
                        (depth == 0).then_some(i + 1)
                    })?;
                    &generics[end..]
                }
                None => rest,
            };
            rest.trim_start()
                .split(" for ")
                .next()
                .filter(|_| rest.contains(" for "))?
        }
    };
    let name = named.split('<').next()?.rsplit("::").next()?.trim();
    (!name.is_empty()).then(|| name.to_string())
}

/// Whether a Rust path's qualifier is a generic type parameter (`M` in `M::Captures`):
/// one segment, in capitals, by the convention type parameters follow.
fn rust_type_parameter(qualifier: &str) -> bool {
    !qualifier.is_empty()
        && qualifier.len() <= 2
        && qualifier.starts_with(|c: char| c.is_ascii_uppercase())
        && qualifier
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
}

/// How a file reaches the targets through its imports.
#[derive(Clone, Copy)]
struct Imported {
    /// It imports a target's file, or a file passing a target on.
    file: bool,
    /// Its bare uses of the name mean the target: it imports a target's file, or takes the
    /// name from a file passing it on.
    bare: bool,
}

/// Whether a use means one of the targets, and how sure that is; `None`: it means something
/// else (a local of the same name, another definition in its file).
fn judge(
    occurrence: &Occurrence,
    path: &str,
    dir: &str,
    targets: &[TargetDef],
    imported: Imported,
    reexport_modules: &[String],
    hidden_here: bool,
) -> Option<Confidence> {
    let imports_target = imported.file;
    let in_same_file = |t: &&TargetDef| t.path == path;
    let rust = Lang::of_path(path) == Some(Lang::Rust);
    if rust && !targets.is_empty() && !rust_may_name(occurrence, targets) {
        return None;
    }
    // a local or nested definition is seen only inside the function that binds it
    if !targets.is_empty() && targets.iter().all(|t| !t.file_level()) {
        let seen = occurrence.access == Access::Bare
            && targets
                .iter()
                .filter(in_same_file)
                .any(|t| occurrence.scope == t.scope);
        return seen.then_some(Confidence::Resolved);
    }
    match &occurrence.access {
        Access::Bare if !targets.is_empty() && targets.iter().all(|t| t.method) => {
            // a bare method name: its own class calling it without `this`, where the language
            // allows that; elsewhere (Python, JavaScript, Rust, Go) something else
            let implicit_this = matches!(
                Lang::of_path(path),
                Some(
                    Lang::Java
                        | Lang::Kotlin
                        | Lang::CSharp
                        | Lang::Cpp
                        | Lang::Scala
                        | Lang::Swift
                        | Lang::Ruby
                )
            );
            let own_class = targets.iter().any(|t| {
                t.container.is_some() && occurrence.classes.last() == t.container.as_ref()
            });
            (implicit_this && own_class && !occurrence.import).then_some(Confidence::Resolved)
        }
        Access::Bare => {
            if let Some(scope) = occurrence.scope {
                // bound by a local: only a local target in that very scope
                return targets
                    .iter()
                    .filter(in_same_file)
                    .any(|t| t.scope == Some(scope))
                    .then_some(Confidence::Resolved);
            }
            if targets
                .iter()
                .filter(in_same_file)
                .any(TargetDef::file_level)
            {
                return Some(Confidence::Resolved);
            }
            if targets.is_empty() {
                return Some(Confidence::NameOnly);
            }
            if hidden_here {
                // the file defines the name itself: its uses mean that definition
                return None;
            }
            let same_package = targets.iter().any(|t| {
                t.lang == Some(Lang::Go) && t.file_level() && t.dir == dir && t.path != path
            });
            if same_package || imported.bare {
                return Some(Confidence::Resolved);
            }
            // Go reaches another package's names only through its name (`pkg.Name`)
            if Lang::of_path(path) == Some(Lang::Go)
                && targets.iter().all(|t| t.lang == Some(Lang::Go))
            {
                return None;
            }
            Some(Confidence::NameOnly)
        }
        Access::Member { receiver } => {
            let receiver = receiver.trim_start_matches('&').trim_start_matches('*');
            // `Parser().parse()`, `new Parser().parse()`: the constructor names the type
            let constructed = receiver
                .strip_suffix(')')
                .and_then(|r| r.split('(').next())
                .map(|r| r.trim_start_matches("new ").trim());
            let proved = targets.iter().any(|t| {
                let container = t.container.as_deref();
                let self_receiver = SELF_RECEIVERS.contains(&receiver)
                    && container.is_some()
                    && occurrence.classes.last().map(String::as_str) == container;
                let by_container = container == Some(receiver)
                    && (!t.container_is_value || t.path == path)
                    || container.is_some()
                        && (occurrence.receiver_type.as_deref() == container
                            || constructed == container)
                    // a receiver of the type the member was assigned through
                    || t.value_type.is_some() && occurrence.receiver_type == t.value_type
                    // a class or interface whose method of the name is the target's
                    || t.family.iter().any(|m| {
                        (m.unique || m.path == path)
                            && (occurrence.receiver_type.as_ref() == Some(&m.class)
                                || SELF_RECEIVERS.contains(&receiver)
                                    && occurrence.classes.last() == Some(&m.class))
                    });
                // the module itself (`utils.f`), or a name an import binds to it
                // (`const u = require('./utils')`, `from . import _types as _t`)
                // (Rust reaches a module's items by `m::f`, never `m.f`: `dent.path()` is a
                // variable named like the module)
                let by_module = imports_target
                    && !rust
                    && t.module_names
                        .iter()
                        .chain(reexport_modules)
                        .any(|m| m == receiver || occurrence.receiver_module.as_ref() == Some(m));
                let same_file_self = t.path == path && self_receiver;
                self_receiver || by_container || by_module || same_file_self
            });
            Some(if proved {
                Confidence::Resolved
            } else {
                Confidence::NameOnly
            })
        }
        Access::Path { qualifier } => {
            let last = qualifier
                .rsplit(['.', ':', '\\'])
                .find(|s| !s.is_empty())
                .unwrap_or(qualifier);
            let proved = targets.iter().any(|t| {
                t.container.as_deref() == Some(last)
                    // Rust's `impl` blocks of one type may sit in several files
                    || (last == "Self"
                        && (t.path == path || rust)
                        && occurrence.classes.last() == t.container.as_ref())
                    || rust && rust_path_reaches(qualifier, &t.path)
                    // a trait's item through the trait (`Matcher::Captures`) or a type
                    // parameter bounded by it (`M::Captures`): the trait's own definition
                    // is among the targets (a project trait)
                    || t.trait_item.as_deref().is_some_and(|of_trait| {
                        (last == of_trait || rust_type_parameter(qualifier))
                            && targets.iter().any(|d| {
                                d.trait_item.as_deref() == Some(of_trait)
                                    && d.container.as_deref() == Some(of_trait)
                            })
                    })
                    || (imports_target || t.path == path)
                        && (t.module_names.iter().any(|m| m == last)
                            || matches!(last, "crate" | "self" | "super"))
                    // a module passing it on (`core.$ZodRecordParams` in a type, through
                    // `import * as core from "../core/index.js"`)
                    || imports_target
                        && reexport_modules.iter().any(|m| {
                            m == last || occurrence.receiver_module.as_ref() == Some(m)
                        })
            });
            Some(if proved {
                Confidence::Resolved
            } else {
                Confidence::NameOnly
            })
        }
    }
}

/// Whether a Rust use can mean one of the targets, by what its place says it names, and by
/// how it is reached: a macro is named only by `name!`; a path's qualifier is a module or a
/// type, never a function; a field is never a function; a free function is never called
/// as a method (`x.f()`) nor through a type (`Type::f()`); a trait's method that an inherent
/// method of its type hides is reached only through the trait; an associated type or
/// constant only through a path, never by a `use`.
fn rust_may_name(occurrence: &Occurrence, targets: &[TargetDef]) -> bool {
    let function = |t: &TargetDef| matches!(t.kind, Kind::Function | Kind::Method);
    let may = |t: &TargetDef| match occurrence.names {
        // (nor imported: a `use` names the trait of that name, `use grep_matcher::Captures`)
        _ if t.associated && (occurrence.access == Access::Bare || occurrence.import) => false,
        // `x.f()`, `Type::f()` mean the inherent method
        _ if t.behind_inherent
            && match &occurrence.access {
                Access::Member { .. } => true,
                Access::Path { qualifier } => {
                    t.container.as_deref() == qualifier.rsplit("::").next() || qualifier == "Self"
                }
                Access::Bare => false,
            } =>
        {
            false
        }
        Names::Macro => t.kind == Kind::Macro,
        Names::Any if t.kind == Kind::Macro => occurrence.import,
        Names::Namespace => !function(t) && !matches!(t.kind, Kind::Macro | Kind::Constant),
        Names::Field => !function(t),
        Names::Any => match &occurrence.access {
            Access::Member { .. } => t.kind != Kind::Function,
            Access::Path { qualifier } if t.kind == Kind::Function => !qualifier
                .rsplit("::")
                .next()
                .and_then(|last| last.chars().next())
                .is_some_and(char::is_uppercase),
            _ => true,
        },
    };
    targets.iter().any(may)
}

/// Whether a Rust use names a member of a type its own file defines the name in:
/// `Glob::unmatched()`, or `g.unmatched()` with `g` typed `Glob`, in a file with its own
/// `impl Glob { fn unmatched … }` (a file's own type hides another of the same name).
fn names_own_member(
    occurrence: &Occurrence,
    path: &str,
    own_defs: &[&Definition],
    targets: &[TargetDef],
) -> bool {
    let class = match &occurrence.access {
        Access::Path { qualifier } => qualifier.rsplit("::").next(),
        Access::Member { .. } => occurrence.receiver_type.as_deref(),
        Access::Bare => None,
    };
    // (another `impl` block of a target's type in the target's file is no other type)
    class.is_some_and(|class| {
        class != "Self"
            && !targets
                .iter()
                .any(|t| t.path == path && t.container.as_deref() == Some(class))
            && own_defs
                .iter()
                .any(|d| d.scope.iter().last() == Some(class))
    })
}

/// Whether a Rust path's qualifier (`crate::exec::job`, `super::job`, `exec::job`) names the
/// module of `target_path` (`src/exec/job.rs`, `src/exec/job/mod.rs`): its module names after
/// `crate`/`self`/`super` end the file's path. A lone module name (`job::f`) needs the
/// import edge the caller checks.
fn rust_path_reaches(qualifier: &str, target_path: &str) -> bool {
    let relative = qualifier.starts_with("crate::")
        || qualifier.starts_with("self::")
        || qualifier.starts_with("super::");
    let segments: Vec<&str> = qualifier
        .split("::")
        .map(str::trim)
        .filter(|s| !matches!(*s, "" | "crate" | "self" | "super"))
        .collect();
    if segments.is_empty() || !relative && segments.len() < 2 {
        return false;
    }
    let mut modules: Vec<&str> = target_path
        .strip_suffix(".rs")
        .unwrap_or(target_path)
        .split('/')
        .collect();
    if modules.last() == Some(&"mod") {
        modules.pop();
    }
    modules.ends_with(&segments)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trait_containers_name_their_trait() {
        for (container, expected) in [
            ("trait Matcher", Some("Matcher")),
            ("impl Matcher for RegexMatcher", Some("Matcher")),
            (
                "impl<'a, M: Matcher> grep::Matcher for &'a M",
                Some("Matcher"),
            ),
            ("impl Iterator<Item = u8> for Bytes", Some("Iterator")),
            ("impl RegexMatcher", None),
            ("impl<T> Wrapper<T>", None),
        ] {
            assert_eq!(
                trait_of_container(container).as_deref(),
                expected,
                "{container}"
            );
        }
        assert!(rust_type_parameter("M") && rust_type_parameter("T2"));
        assert!(!rust_type_parameter("Self") && !rust_type_parameter("regex"));
    }

    #[test]
    fn rust_paths_reach_module_files() {
        assert!(rust_path_reaches("crate::exec::job", "src/exec/job.rs"));
        assert!(rust_path_reaches("crate::exec", "src/exec/mod.rs"));
        assert!(rust_path_reaches("super::job", "src/exec/job.rs"));
        assert!(rust_path_reaches("exec::job", "src/exec/job.rs"));
        assert!(!rust_path_reaches("job", "src/exec/job.rs"));
        assert!(!rust_path_reaches("crate::walk", "src/exec/job.rs"));
        assert!(!rust_path_reaches("crate::other::job", "src/exec/job.rs"));
    }

    #[test]
    fn at_takes_a_path_and_a_line() {
        assert_eq!(
            parse_at("src/a.rs:12").unwrap(),
            ("src/a.rs".to_string(), 12)
        );
        assert_eq!(parse_at("./a.py:3").unwrap(), ("a.py".to_string(), 3));
        for bad in ["a.rs", "a.rs:x", ":3", "a.rs:0"] {
            assert!(parse_at(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn module_names_follow_the_language() {
        assert_eq!(
            module_names("pkg/flask/app.py", Some(Lang::Python)),
            ["app"]
        );
        assert_eq!(
            module_names("pkg/flask/__init__.py", Some(Lang::Python)),
            ["flask"]
        );
        assert_eq!(module_names("doc/man.go", Some(Lang::Go)), ["doc"]);
        assert_eq!(
            module_names("lib/index.js", Some(Lang::JavaScript)),
            ["lib"]
        );
        assert_eq!(
            module_names("index.js", Some(Lang::JavaScript)),
            [devprojex_symbols::references::ROOT_MODULE]
        );
    }
}
