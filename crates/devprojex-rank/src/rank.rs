//! The ranking: BM25F over each file's fields (path, defined names, text), files the query
//! names, commit messages that match it, files that change with the strong hits, and priors
//! for tests, docs, vendored and generated files.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;

use crate::history::{ChangeRef, History, change_refs};
use crate::terms::{self, FileTerms, Posting, Term};

/// A parsed query.
#[derive(Debug, Clone, Default)]
pub struct Query {
    /// Each distinct term with its weight and a spelling to show.
    pub terms: Vec<QueryTerm>,
    /// File names or paths the query mentions (`parser.go`, `src/net/http.rs`), lowercased.
    pub mentions: Vec<String>,
    /// The past changes it names (`Touch up PR 1273`, `Fix a typo in b6a052f`), at most
    /// [`crate::history::MAX_CHANGE_REFS`].
    pub changes: Vec<ChangeRef>,
    /// The scope a commit-style title starts with (`ignore,globset: ...`, `fix(v4): ...`),
    /// lowercased: each names a part of the project, often a folder.
    pub scopes: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct QueryTerm {
    pub term: Term,
    pub word: String,
    pub weight: f64,
    /// A whole identifier as the query writes it in code (`execute_hook`, `Command.Find`):
    /// a file that defines it is a strong hit.
    pub exact: bool,
}

/// Whether a word of the query is written as code: `snake_case`, `camelCase`, `call()`,
/// `a.b` or in backticks.
fn looks_like_code(word: &str, ident: &str) -> bool {
    ident.contains('_')
        || ident
            .as_bytes()
            .windows(2)
            .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
        || word.contains("()")
        || word.contains('`')
        || word.contains("::")
        || (word.contains('.') && !word.ends_with('.'))
}

/// Conventional Commits' types and their common kin: `fix: ...` says what kind of change it is,
/// not where it is (`docs/` and `ci/` folders are not what `docs:` and `ci:` point at).
const CHANGE_TYPES: &[&str] = &[
    "build", "bump", "chore", "ci", "dep", "deps", "doc", "docs", "feat", "fix", "lint", "merge",
    "perf", "refactor", "release", "revert", "style", "test", "tests", "typo", "wip",
];

/// The scope a title starts with, lowercased: `ignore,globset: increase pool capacity` gives
/// `ignore` and `globset`, `fix(v4): ...` gives `v4`, `pkg/brew: update tap` gives `pkg/brew`;
/// change types (`fix: ...`, `docs(readme)` keeps `readme`) are not scopes.
fn scopes_of(title: &str) -> Vec<String> {
    let Some((head, _)) = title.trim_start().split_once(": ") else {
        return Vec::new();
    };
    let head = head.strip_suffix('!').unwrap_or(head);
    let (outer, inner) = match head.split_once('(') {
        Some((outer, rest)) => match rest.strip_suffix(')') {
            Some(inner) if !inner.contains(['(', ')']) => (outer, Some(inner)),
            _ => return Vec::new(),
        },
        None => (head, None),
    };
    let is_name = |w: &str| {
        !w.is_empty()
            && w.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'/'))
    };
    let words = |list: &str| -> Option<Vec<String>> {
        list.split(',')
            .map(str::trim)
            .map(|w| is_name(w).then(|| w.trim_matches('/').to_ascii_lowercase()))
            .collect()
    };
    // `type(scope)`: the scope; `scope, scope`: the words themselves
    let Some(outer_words) = words(outer) else {
        return Vec::new();
    };
    let mut scopes = match inner {
        Some(inner) if outer_words.len() == 1 => match words(inner) {
            Some(inner) => inner,
            None => return Vec::new(),
        },
        Some(_) => return Vec::new(),
        None => outer_words,
    };
    scopes.retain(|w| !w.is_empty() && !CHANGE_TYPES.contains(&w.as_str()));
    scopes
}

/// How much more a word of an issue's or a commit's first line (its title) weighs than a word
/// of its description: the title says what the task is, the description how it shows.
const TITLE_WEIGHT: f64 = 3.0;

/// The file a word of the query names, lowercased: `parser.go`, `src/net/http.rs`, and the
/// path of a stack frame or an editor position without its line and column
/// (`.../cobra@v1.6.0/command.go:1223`, `mini/schemas.ts:921`, `cli.rs#L10`).
fn mention_of(cleaned: &str) -> Option<String> {
    let mut path = cleaned;
    if let Some(cut) = path.find(['#', '?']) {
        path = &path[..cut];
    }
    while let Some((before, tail)) = path.rsplit_once(':') {
        if !tail.bytes().all(|b| b.is_ascii_digit()) {
            break;
        }
        path = before;
    }
    let path = path.trim_end_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
    if let Some(dot) = path.rfind('.') {
        let ext = &path[dot + 1..];
        (dot > 0
            && !ext.contains('/')
            && (1..=5).contains(&ext.len())
            && ext.bytes().all(|b| b.is_ascii_alphanumeric()))
        .then(|| path.trim_start_matches("./").to_ascii_lowercase())
    } else if path.contains('/') && path.len() > 2 {
        Some(path.trim_matches('/').to_ascii_lowercase())
    } else {
        None
    }
}

/// A link (`https://github.com/o/r/blob/v1.2/src/tree.go#L851`): the path it names, if any,
/// and its last segment, the one part of it that may name something of the project.
fn link_of(word: &str) -> Option<(Option<String>, &str)> {
    let at = word.find("://")?;
    let rest = &word[at + 3..];
    let path = rest.find('/').map_or("", |slash| &rest[slash + 1..]);
    let path = path.split(['#', '?']).next().unwrap_or("");
    let last = path.trim_end_matches('/').rsplit('/').next().unwrap_or("");
    Some((mention_of(path), last))
}

/// A Git trailer that names a person (`Signed-off-by: A <a@example.org>`, `Co-authored-by:
/// renovate[bot] <...@users.noreply.github.com>`, `Cc: ...`): who took part in a change, not
/// what it is about. A fifth of the benchmark's commit messages end with such lines, and their
/// host and name words (`github`, `users`, `bot`) matched files.
fn is_person_trailer(line: &str) -> bool {
    let Some((key, _)) = line.trim().split_once(':') else {
        return false;
    };
    let key = key.to_ascii_lowercase();
    key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        && (key.len() > 3 && key.ends_with("-by") || key == "cc")
}

/// An email address (`<a.b@example.org>`): a person's, whose words say nothing of the task.
/// `lodash@4.17.21` and `@Override` are not: the part after `@` must end in a dotted
/// alphabetic domain.
fn is_email(word: &str) -> bool {
    let word = word.trim_matches(|c: char| !c.is_ascii_alphanumeric());
    let Some((local, domain)) = word.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && domain.rsplit_once('.').is_some_and(|(host, top)| {
            !host.is_empty() && top.len() >= 2 && top.bytes().all(|b| b.is_ascii_alphabetic())
        })
}

/// How much the base form of an inflected query word weighs (`quote` and `quot` for
/// "quoting"), against the word as written.
const INFLECTION_WEIGHT: f64 = 0.5;

/// The forms code is likely to spell an inflected word with: "quoting" and "quoted" as
/// `quote` (and `quot`), "stopped" as `stop`, "handled" as `handle`. Prose says what code
/// did; code names what it does.
fn base_forms(word: &str) -> Vec<String> {
    let bytes = word.as_bytes();
    if !bytes.iter().all(u8::is_ascii_lowercase) {
        return Vec::new();
    }
    let base = if word.len() >= 6 && word.ends_with("ing") {
        &word[..word.len() - 3]
    } else if word.len() >= 5 && word.ends_with("ed") && !word.ends_with("eed") {
        &word[..word.len() - 2]
    } else {
        return Vec::new();
    };
    if !base.bytes().any(|b| b"aeiouy".contains(&b)) {
        return Vec::new();
    }
    let mut forms = vec![base.to_string(), format!("{base}e")];
    let b = base.as_bytes();
    if b.len() >= 4 && b[b.len() - 1] == b[b.len() - 2] && !b"aeioulsz".contains(&b[b.len() - 1]) {
        forms.push(base[..base.len() - 1].to_string());
    }
    forms
}

/// Keywords and stock names of programming languages: in a code block of the query they are
/// its syntax (`func main() { ... return nil }`), not what the task is about.
fn is_snippet_syntax(ident: &str) -> bool {
    matches!(
        ident,
        "func"
            | "fn"
            | "def"
            | "return"
            | "let"
            | "var"
            | "const"
            | "pub"
            | "impl"
            | "import"
            | "package"
            | "self"
            | "this"
            | "nil"
            | "null"
            | "true"
            | "false"
            | "None"
            | "True"
            | "False"
            | "void"
            | "public"
            | "private"
            | "protected"
            | "static"
            | "final"
            | "else"
            | "elif"
            | "mut"
            | "err"
            | "println"
            | "printf"
            | "fmt"
            | "console"
            | "log"
            | "print"
            | "main"
            | "require"
            | "export"
            | "function"
            | "new"
            | "try"
            | "catch"
            | "throw"
            | "throws"
            | "extends"
            | "implements"
            | "echo"
            | "undefined"
            | "Some"
            | "Ok"
            | "Err"
            | "unwrap"
    )
}

impl Query {
    /// Reads a task the way a developer reads an issue: the first line (the title) weighs
    /// [`TITLE_WEIGHT`] times a line of the description; in fenced code blocks the
    /// language's own keywords are dropped; a link counts by the file it points at, not by
    /// its host and path words; stack frames and `file:line` positions name their file; the
    /// people a commit's trailers and email addresses name are not read.
    pub fn parse(text: &str) -> Self {
        let mut weights: BTreeMap<Term, (String, f64, bool)> = BTreeMap::new();
        let mut mentions = Vec::new();
        let mut in_fence = false;
        let mut title = text.trim().contains('\n');
        for line in text.lines() {
            let trimmed = line.trim();
            if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
                in_fence = !in_fence;
                continue;
            }
            if trimmed.is_empty() || !in_fence && is_person_trailer(trimmed) {
                continue;
            }
            let scale = if title { TITLE_WEIGHT } else { 1.0 };
            title = false;
            for raw in line.split_whitespace() {
                if is_email(raw) {
                    continue;
                }
                let mut word = raw;
                let link = link_of(raw);
                if let Some((mention, last)) = &link {
                    mentions.extend(mention.clone());
                    word = last;
                } else {
                    let cleaned = raw.trim_matches(|c: char| {
                        !(c.is_ascii_alphanumeric() || c == '_' || c == '/' || c == '.')
                    });
                    mentions.extend(mention_of(cleaned));
                }
                terms::identifiers(word, |_, ident| {
                    if in_fence && is_snippet_syntax(ident) {
                        return;
                    }
                    // a link's last segment is a name, not code (`.../v4/core/api.ts`)
                    let code = link.is_none() && looks_like_code(word, ident);
                    let weight = if code { 2.0 } else { 1.0 } * scale;
                    let mut parts = 0;
                    terms::split_identifier(ident, |_| parts += 1);
                    let mut last = None;
                    terms::identifier_terms(ident, |term, spelling| {
                        last = Some(term);
                        let slot = weights
                            .entry(term)
                            .or_insert_with(|| (spelling.to_string(), 0.0, false));
                        // repeated words count, with diminishing returns
                        slot.1 = if slot.1 == 0.0 {
                            weight
                        } else {
                            slot.1.max(weight) + 0.25
                        };
                    });
                    // the joined form comes last; a one-part identifier is exact when written as code
                    if let Some(term) = last
                        && code
                        && (parts > 1 || ident.len() >= 3)
                        && let Some(slot) = weights.get_mut(&term)
                    {
                        slot.2 = true;
                        if parts > 1 {
                            // shown as the query wrote it, not as the joined term
                            slot.0 = ident.to_string();
                        }
                    }
                });
            }
        }
        let inflected: Vec<(Term, String, f64)> = weights
            .values()
            .filter(|(_, _, exact)| !exact)
            .flat_map(|(word, weight, _)| {
                let weight = weight * INFLECTION_WEIGHT;
                base_forms(word).into_iter().map(move |base| {
                    let base = terms::stem(&base).to_string();
                    (terms::hash(&base), base, weight)
                })
            })
            .collect();
        for (term, word, weight) in inflected {
            weights.entry(term).or_insert((word, weight, false));
        }
        mentions.sort();
        mentions.dedup();
        let scopes = text
            .lines()
            .find(|l| !l.trim().is_empty())
            .map(scopes_of)
            .unwrap_or_default();
        Self {
            changes: change_refs(text),
            terms: weights
                .into_iter()
                .map(|(term, (word, weight, exact))| QueryTerm {
                    term,
                    word,
                    weight,
                    exact,
                })
                .collect(),
            mentions,
            scopes,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.terms.is_empty() && self.mentions.is_empty() && self.changes.is_empty()
    }

    fn term_weights(&self) -> Vec<(Term, f64)> {
        self.terms.iter().map(|t| (t.term, t.weight)).collect()
    }
}

/// What kind of file a path is, for the prior.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileClass {
    Source,
    Test,
    Docs,
    Data,
    Example,
    Vendored,
    Generated,
}

impl FileClass {
    pub fn of(path: &str) -> Self {
        let lower = path.to_ascii_lowercase();
        let name = lower.rsplit('/').next().unwrap_or(&lower);
        let folders: Vec<&str> = lower.split('/').collect();
        let folders = &folders[..folders.len() - 1];
        let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
        let stem = name.split('.').next().unwrap_or(name);
        let original_name = path.rsplit('/').next().unwrap_or(path);
        let original_stem = original_name.split('.').next().unwrap_or(original_name);
        if folders.iter().any(|f| {
            matches!(
                *f,
                "vendor" | "vendored" | "third_party" | "thirdparty" | "node_modules" | "external"
            )
        }) {
            return Self::Vendored;
        }
        if name.ends_with(".min.js")
            || name.ends_with(".pb.go")
            || name.ends_with("_pb2.py")
            || name.contains(".generated.")
            || name.contains("_generated")
            || matches!(
                name,
                "package-lock.json" | "yarn.lock" | "cargo.lock" | "go.sum"
            )
            || matches!(ext, "lock" | "snap" | "map")
        {
            return Self::Generated;
        }
        if folders.iter().any(|f| {
            matches!(
                *f,
                "test" | "tests" | "__tests__" | "testing" | "testdata" | "spec" | "specs" | "e2e"
            )
        }) || stem.starts_with("test_")
            || stem.ends_with("_test")
            || stem.ends_with("_tests")
            || name.contains(".test.")
            || name.contains(".spec.")
            || original_stem.ends_with("Test")
            || original_stem.ends_with("Tests")
            || matches!(stem, "conftest" | "test" | "tests")
        {
            return Self::Test;
        }
        let in_docs = folders
            .iter()
            .any(|f| matches!(*f, "doc" | "docs" | "documentation"));
        let code = terms::is_code_path(path);
        if matches!(ext, "md" | "rst" | "txt" | "adoc" | "markdown" | "rdoc")
            || (in_docs && !code)
            || stem == "changelog"
            || stem == "license"
        {
            return Self::Docs;
        }
        // everything else that is no program (configuration, data, build and CI files)
        if !code || folders.iter().any(|f| f.starts_with('.')) {
            return Self::Data;
        }
        // a program in a docs folder is the docs site's code (its configuration, its
        // components), ranked like examples rather than like prose
        if in_docs
            || folders.iter().any(|f| {
                matches!(
                    *f,
                    "example"
                        | "examples"
                        | "sample"
                        | "samples"
                        | "bench"
                        | "benches"
                        | "benchmarks"
                )
            })
        {
            return Self::Example;
        }
        Self::Source
    }

    /// Added to the file's score after the prior: the fitted model puts source and examples
    /// above configuration and data, and those above tests and docs, more firmly than the
    /// prior's factor alone (a weak match in source beats a strong one in a test). Fitted with
    /// the signals' weights (see `W_MENTION`); vendored and generated files had too few
    /// candidates to fit and get the least, as tests and docs.
    pub fn bonus(self) -> f64 {
        match self {
            Self::Source => 0.5,
            Self::Example => 0.55,
            Self::Data => 0.15,
            Self::Test | Self::Docs | Self::Vendored | Self::Generated => 0.0,
        }
    }

    /// The prior: source first.
    pub fn prior(self) -> f64 {
        match self {
            Self::Source => 1.0,
            Self::Example => 0.6,
            Self::Data | Self::Test => 0.4,
            Self::Docs => 0.3,
            Self::Vendored | Self::Generated => 0.2,
        }
    }
}

/// The signals, each named once: the field, its name in `DEVPROJEX_RANK_WITHOUT` and in
/// [`Signals::NAMES`] are the same word.
macro_rules! signals {
    ($($name:ident),* $(,)?) => {
        /// The signals that can be switched off (the benchmark's ablation).
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct Signals {
            $(pub $name: bool,)*
        }

        impl Default for Signals {
            fn default() -> Self {
                Self { $($name: true,)* }
            }
        }

        impl Signals {
            /// Every signal's name, in declaration order.
            pub const NAMES: &[&str] = &[$(stringify!($name)),*];

            /// Parse a comma-separated list of signals to switch off (`messages,cochange`).
            /// An unknown name is an error (its name): a misspelled signal would otherwise
            /// measure the whole ranker under the ablation's label.
            pub fn without(list: &str) -> Result<Self, String> {
                let mut signals = Self::default();
                for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                    match name {
                        $(stringify!($name) => signals.$name = false,)*
                        _ => return Err(name.to_string()),
                    }
                }
                Ok(signals)
            }
        }
    };
}

signals!(
    fields,
    definitions,
    names,
    graph,
    mentions,
    scope,
    named_changes,
    messages,
    cochange,
    feedback,
    priors,
);

/// One file offered to the ranker.
pub struct Candidate<'a> {
    pub path: &'a str,
    pub terms: &'a FileTerms,
}

/// Why a file ranks where it does.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Evidence {
    /// Query words found in the file, with their occurrences in its text.
    pub matched: Vec<(String, u32)>,
    /// Query words the file defines (lexically).
    pub defined: Vec<String>,
    /// Query words in its path.
    pub in_path: Vec<String>,
    /// The query names this file.
    pub mentioned: bool,
    /// The folder the query's scope names (`ignore: ...`), when the file is in it.
    pub scoped: Option<String>,
    /// A past change the query names (`#1273`, `commit b6a052f`) that changed this file.
    pub named_change: Option<String>,
    /// Past commits whose messages match the query and changed this file.
    pub commits: u32,
    /// A strong hit this file changed with, and in how many commits.
    pub changed_with: Option<(String, u32)>,
    /// A strong hit this file shares specific names with (it uses the hit's definitions, or
    /// defines names the hit uses), and how many.
    pub linked: Option<(String, u32)>,
    /// How many of the words the strongest hits use most, beyond the query's, the file has
    /// (0 for the hits themselves).
    pub echoes: u32,
    pub class: Option<FileClass>,
}

/// One ranked file.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    /// Index into the candidates.
    pub index: usize,
    /// In (0, 1]: the best file of the answer has 1.
    pub score: f64,
    pub evidence: Evidence,
}

const K1: f64 = 1.2;
const B: f64 = 0.75;
const W_DEFINED: f64 = 2.0;
const W_PATH: f64 = 2.5;
/// Weights of the normalized signals beside the lexical score (whose best file has 1), and the
/// class bonuses of [`FileClass::bonus`]: fitted, not set by hand. A pairwise logistic
/// regression (each answer file against each other file of the ranker's best 30, each task
/// weighing the same, L2 0.01) over the signals below times the prior, plus a term per class,
/// on the benchmark's 320 tasks of its 8 tuning repositories (`DEVPROJEX_RANK_FEATURES`,
/// `scripts/bench-relevance.py run --features`), then rounded. Leave-one-repository-out it
/// gave recall@5 0.855 against 0.836 for the hand-set weights, 0.860 against 0.849 on the 3
/// held-out repositories, and 0.844 against 0.822 on 5 repositories never used before
/// (docs/relevance.md, "Fitted weights").
///
/// Except the mention's: commit messages rarely name a file, and any weight from 0.1 to 1
/// gives them the same recall@5 (within one task of 640). Issue texts name files often, in
/// stack frames, links and `file:line` positions, and a file the task names is one the user
/// points at, so it keeps the weight that makes it outrank a lexical match (a whole hit).
const W_MENTION: f64 = 1.0;
/// A file in the folder a commit-style title's scope names (`attributes: ...` and
/// `tracing-attributes/`): half a mention, since it names a folder, not a file. On the tuning
/// repositories any weight from 0.1 to 0.8 gives the same recall@5 (docs/relevance.md,
/// "The scope of a title"); half of [`W_MENTION`] was set before the held-out figures were read.
const W_SCOPE: f64 = 0.5;
/// A file a past change changed, when the query names that change (`Touch up PR 1273`, `Fix a
/// typo in b6a052f`, `since #1188`): half a mention, like a scope, since a change names a few
/// files, not one. Few tasks name a change (it raised 11 of the benchmark's 975 tasks, 6 of
/// them serde-json's `Touch up PR N` and the like, and lowered 1), so the weight is not
/// fitted; it was set before they were measured.
const W_NAMED_CHANGE: f64 = 0.5;
/// A scope word that names more folders than this names none in particular.
const SCOPE_FOLDERS: usize = 3;
/// A file name the query mentions that more files than this bear (`src/lib.rs` of every crate
/// of a workspace, `index.ts`, `__init__.py`) names none in particular: an issue's example
/// crate has a `src/lib.rs` too.
const MENTION_FILES: usize = 3;
const W_DEFINES: f64 = 0.3;
const W_NAME: f64 = 0.4;
const W_MESSAGES: f64 = 0.5;
const W_COCHANGE: f64 = 0.1;
const W_GRAPH: f64 = 0.3;
/// The feedback step's weight and words ([`feedback_bonus`]): chosen on the tuning
/// repositories (weights 0.1–0.4, 5–50 words, 1–5 hits), then checked on the held-out and fresh
/// ones and the issue texts (docs/relevance.md, "Feedback from the strongest hits").
const W_FEEDBACK: f64 = 0.2;
const FEEDBACK_WORDS: usize = 20;
/// The reference graph is followed among this many best candidates (bounded work on trees
/// the size of the kernel's).
const GRAPH_CANDIDATES: usize = 3000;
/// Strong hits whose co-changes are followed.
const SEEDS: usize = 3;

/// Each signal's part of one ranked file's score before the signals are combined, and what
/// HEAD's history says of the file: for fitting the weights on the benchmark
/// (`DEVPROJEX_RANK_FEATURES`, which writes them under these names); the ranking does not
/// read them back.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Components {
    /// BM25F over the fields, divided by the best file's.
    pub fields: f64,
    /// Identifiers written as code that the file defines (at most 2).
    pub definitions: f64,
    /// Query words in the file's name, divided by the best file's.
    pub names: f64,
    /// 1 when the query names the file.
    pub mentions: f64,
    /// 1 when the file is in a folder the query's scope names.
    pub scope: f64,
    /// 1 when a past change the query names changed the file.
    pub named_changes: f64,
    /// Commit-message score, divided by the best file's.
    pub messages: f64,
    /// The graph step's gain divided by its weight.
    pub graph: f64,
    /// The co-change gain divided by its weight.
    pub cochange: f64,
    /// The feedback gain divided by its weight.
    pub feedback: f64,
    /// The prior of the file's class (1 when priors are off).
    pub prior: f64,
    /// The bonus of the file's class (0 when priors are off).
    pub bonus: f64,
    pub class: String,
    /// Indexed commits that changed the file.
    pub changes: u32,
    /// Indexed commits newer than the file's last change (`None`: none changed it).
    pub since_change: Option<u32>,
    /// Indexed commits of HEAD's history.
    pub history_commits: u32,
}

/// The files the query's mentions name: by file name, by the end of their path, or, for a
/// stack frame's or a link's longer path (`.../site-packages/pkg/a.py`), by the end of the
/// mention. A mention that names more than [`MENTION_FILES`] files is left out.
fn mentioned_files(mentions: &[String], files: &[Candidate<'_>]) -> Vec<usize> {
    let lower: Vec<String> = files.iter().map(|f| f.path.to_ascii_lowercase()).collect();
    let mut out: Vec<usize> = Vec::new();
    for mention in mentions {
        let suffix = format!("/{mention}");
        let names = |path: &str| {
            let name = path.rsplit('/').next().unwrap_or(path);
            mention == name
                || path == mention
                || (mention.contains('/') && path.ends_with(&suffix))
                || (mention.len() > path.len()
                    && mention.ends_with(path)
                    && mention.as_bytes()[mention.len() - path.len() - 1] == b'/')
        };
        let found: Vec<usize> = (0..files.len()).filter(|&f| names(&lower[f])).collect();
        if found.len() <= MENTION_FILES {
            out.extend(found);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The folders the query's scopes name among the candidates' folders: for each scope, the
/// folders whose path is it or ends with it (`ignore`: `crates/ignore`; `pkg/brew`), else those
/// whose name has it as a `-`, `_` or `.` part (`attributes`: `tracing-attributes`); a scope
/// that names more than [`SCOPE_FOLDERS`] folders is left out.
fn scope_folders(scopes: &[String], files: &[Candidate<'_>]) -> Vec<String> {
    let mut all: Vec<&str> = files
        .iter()
        .flat_map(|f| f.path.match_indices('/').map(move |(i, _)| &f.path[..i]))
        .collect();
    all.sort_unstable();
    all.dedup();
    let mut out: Vec<String> = Vec::new();
    for scope in scopes {
        let suffix = format!("/{scope}");
        let named = |folder: &&str| {
            let lower = folder.to_ascii_lowercase();
            lower == *scope || lower.ends_with(&suffix)
        };
        let mut found: Vec<&str> = all.iter().copied().filter(named).collect();
        if found.is_empty() {
            found = all
                .iter()
                .copied()
                .filter(|folder| {
                    let name = folder.rsplit('/').next().unwrap_or(folder);
                    name.to_ascii_lowercase()
                        .split(['-', '_', '.'])
                        .any(|part| part == scope)
                })
                .collect();
        }
        if found.len() <= SCOPE_FOLDERS {
            out.extend(found.into_iter().map(str::to_string));
        }
    }
    out.sort();
    out.dedup();
    // a folder inside another named one adds nothing
    out.iter()
        .filter(|f| {
            !out.iter().any(|g| {
                g != *f
                    && f.strip_prefix(g.as_str())
                        .is_some_and(|r| r.starts_with('/'))
            })
        })
        .cloned()
        .collect()
}

/// Rank `files` for `query`: the best `max_results`, best first; ties by path.
pub fn rank(
    query: &Query,
    files: &[Candidate<'_>],
    history: Option<&History>,
    signals: Signals,
    max_results: usize,
) -> Vec<Ranked> {
    rank_weighing(query, files, history, signals, max_results).0
}

/// [`rank`], with each query term's idf over `files` (in the query's order): how much the
/// ranking made of each word, for [`ranges`].
pub fn rank_weighing(
    query: &Query,
    files: &[Candidate<'_>],
    history: Option<&History>,
    signals: Signals,
    max_results: usize,
) -> (Vec<Ranked>, Vec<f64>) {
    let (ranked, _, idf) = rank_recording(
        query,
        files,
        history,
        signals,
        max_results,
        max_results,
        false,
    );
    (ranked, idf)
}

/// [`rank`], with the evidence of only the best `explained` files (the others' is empty): a
/// pack orders every matching file but lists the reasons of a few, and evidence for the
/// kernel's 60,000 matching files took tens of MB.
pub fn rank_explaining(
    query: &Query,
    files: &[Candidate<'_>],
    history: Option<&History>,
    signals: Signals,
    max_results: usize,
    explained: usize,
) -> Vec<Ranked> {
    rank_recording(
        query,
        files,
        history,
        signals,
        max_results,
        explained,
        false,
    )
    .0
}

/// [`rank`], with each ranked file's [`Components`] (in the same order).
pub fn rank_with_components(
    query: &Query,
    files: &[Candidate<'_>],
    history: Option<&History>,
    signals: Signals,
    max_results: usize,
) -> Vec<(Ranked, Components)> {
    let (ranked, components, _) = rank_recording(
        query,
        files,
        history,
        signals,
        max_results,
        max_results,
        true,
    );
    ranked.into_iter().zip(components).collect()
}

/// The ranking; with `record`, also each ranked file's components (kept off by default: a
/// vector per signal over the kernel's 78,000 files is memory the server does not spare).
fn rank_recording(
    query: &Query,
    files: &[Candidate<'_>],
    history: Option<&History>,
    signals: Signals,
    max_results: usize,
    explained: usize,
    record: bool,
) -> (Vec<Ranked>, Vec<Components>, Vec<f64>) {
    let n = files.len() as f64;
    if files.is_empty() || query.is_empty() {
        return (Vec::new(), Vec::new(), vec![0.0; query.terms.len()]);
    }
    let mut parts = if record {
        vec![Components::default(); files.len()]
    } else {
        Vec::new()
    };
    // the query's terms in term order (how files are searched), and where each is in the query
    let mut by_term: Vec<usize> = (0..query.terms.len()).collect();
    by_term.sort_by_key(|&i| query.terms[i].term);
    let sorted_terms: Vec<Term> = by_term.iter().map(|&i| query.terms[i].term).collect();
    // document frequencies of the query's terms
    let mut df = vec![0u32; query.terms.len()];
    let mut total_length = 0u64;
    for file in files {
        total_length += u64::from(file.terms.length);
        file.terms
            .for_each_of(&sorted_terms, |k, _| df[by_term[k]] += 1);
    }
    let avg_length = (total_length as f64 / n).max(1.0);
    let idf: Vec<f64> = df
        .iter()
        .map(|&d| {
            let d = f64::from(d);
            (1.0 + (n - d + 0.5) / (d + 0.5)).ln()
        })
        .collect();
    // each path's file, for the signals that read history (which names paths)
    let position: FxHashMap<&str, usize> = if history.is_some() {
        files.iter().enumerate().map(|(i, f)| (f.path, i)).collect()
    } else {
        FxHashMap::default()
    };

    let mut lexical = vec![0.0f64; files.len()];
    // per file: the identifiers the query writes as code that it defines
    let mut defines = vec![0usize; files.len()];
    for (f, file) in files.iter().enumerate() {
        let norm = 1.0 - B + B * f64::from(file.terms.length) / avg_length;
        let mut score = 0.0;
        file.terms.for_each_of(&sorted_terms, |k, p| {
            let i = by_term[k];
            let q = &query.terms[i];
            let mut tf = f64::from(p.body) / norm;
            if signals.fields {
                // a long file's defined names count as its text does: a generated header
                // defining thousands of `*_QUEUE_*` macros is not about queues
                tf += W_DEFINED * f64::from(p.defined) / norm.max(1.0) + W_PATH * f64::from(p.path);
            }
            score += q.weight * idf[i] * tf * (K1 + 1.0) / (K1 + tf);
            if q.exact && p.defined > 0 {
                defines[f] += 1;
            }
        });
        lexical[f] = score;
    }
    let best_lexical = lexical.iter().copied().fold(0.0, f64::max);
    let mut scores: Vec<f64> = lexical
        .iter()
        .map(|s| {
            if best_lexical > 0.0 {
                s / best_lexical
            } else {
                0.0
            }
        })
        .collect();
    for (part, score) in parts.iter_mut().zip(&scores) {
        part.fields = *score;
    }

    if signals.definitions {
        for (f, &defines) in defines.iter().enumerate() {
            if defines > 0 {
                scores[f] += W_DEFINES * (defines.min(2) as f64);
                if record {
                    parts[f].definitions = defines.min(2) as f64;
                }
            }
        }
    }

    // the file's own name is the strongest part of its path: `memoizer.ts` for "the memoizer"
    if signals.names {
        let weights: FxHashMap<Term, f64> = query
            .terms
            .iter()
            .zip(&idf)
            .map(|(q, idf)| (q.term, q.weight * idf))
            .collect();
        let total: f64 = weights.values().sum();
        let named: Vec<f64> = files
            .iter()
            .map(|file| {
                let name = file.path.rsplit('/').next().unwrap_or(file.path);
                let stem = name.split('.').next().unwrap_or(name);
                let mut sum = 0.0;
                let mut seen: Vec<Term> = Vec::new();
                terms::identifiers(stem, |_, ident| {
                    terms::identifier_terms(ident, |term, _| {
                        if !seen.contains(&term) {
                            seen.push(term);
                            sum += weights.get(&term).copied().unwrap_or(0.0);
                        }
                    });
                });
                sum
            })
            .collect();
        let best = named.iter().copied().fold(0.0, f64::max);
        if best > 0.0 && total > 0.0 {
            for (f, n) in named.into_iter().enumerate() {
                scores[f] += W_NAME * n / best;
                if record {
                    parts[f].names = n / best;
                }
            }
        }
    }

    let mut mentioned = vec![false; files.len()];
    if signals.mentions && !query.mentions.is_empty() {
        for f in mentioned_files(&query.mentions, files) {
            mentioned[f] = true;
            scores[f] += W_MENTION;
            if record {
                parts[f].mentions = 1.0;
            }
        }
    }

    let mut scoped: Vec<Option<usize>> = vec![None; files.len()];
    let folders = if signals.scope && !query.scopes.is_empty() {
        scope_folders(&query.scopes, files)
    } else {
        Vec::new()
    };
    if !folders.is_empty() {
        for (f, file) in files.iter().enumerate() {
            let Some(k) = folders.iter().position(|folder| {
                file.path
                    .strip_prefix(folder.as_str())
                    .is_some_and(|rest| rest.starts_with('/'))
            }) else {
                continue;
            };
            scoped[f] = Some(k);
            scores[f] += W_SCOPE;
            if record {
                parts[f].scope = 1.0;
            }
        }
    }

    let mut named_change: Vec<Option<&ChangeRef>> = vec![None; files.len()];
    if let Some(history) = history.filter(|_| signals.named_changes && !query.changes.is_empty()) {
        let named = history.named_changes(&query.changes);
        if !named.is_empty() {
            for (path, reference) in named {
                if let Some(&f) = position.get(path) {
                    named_change[f] = Some(reference);
                    scores[f] += W_NAMED_CHANGE;
                    if record {
                        parts[f].named_changes = 1.0;
                    }
                }
            }
        }
    }

    let mut commits = vec![0u32; files.len()];
    if let Some(history) = history.filter(|h| signals.messages && !h.is_empty()) {
        let by_path = history.message_scores(&query.term_weights());
        let best = by_path.values().map(|v| v.0).fold(0.0, f64::max);
        if best > 0.0 {
            for (f, file) in files.iter().enumerate() {
                if let Some(&(score, count)) = by_path.get(file.path) {
                    scores[f] += W_MESSAGES * score / best;
                    commits[f] = count;
                    if record {
                        parts[f].messages = score / best;
                    }
                }
            }
        }
    }

    let classes: Vec<FileClass> = files.iter().map(|f| FileClass::of(f.path)).collect();
    let prior = |f: usize| {
        if signals.priors {
            classes[f].prior()
        } else {
            1.0
        }
    };

    let mut linked: Vec<Option<(usize, u32)>> = vec![None; files.len()];
    if signals.graph {
        let before = record.then(|| scores.clone());
        graph_bonus(files, &mut scores, &prior, &mut linked);
        if let Some(before) = before {
            for (f, part) in parts.iter_mut().enumerate() {
                part.graph = (scores[f] - before[f]) / W_GRAPH;
            }
        }
    }

    let mut changed_with: Vec<Option<(usize, u32)>> = vec![None; files.len()];
    if let Some(history) = history.filter(|h| signals.cochange && !h.is_empty()) {
        let order = strongest_first(files, &scores, &prior);
        let mut bonus = vec![0.0f64; files.len()];
        for (seed, strength) in seeds_of(&order, &scores, &prior) {
            let changes = history.changes_of(files[seed].path).max(1) as f64;
            for (path, together) in history.changed_with(files[seed].path) {
                if together < 2 {
                    continue;
                }
                let Some(&f) = position.get(path) else {
                    continue;
                };
                let confidence = f64::from(together) / changes;
                let gain = W_COCHANGE * strength * confidence;
                if gain > bonus[f] {
                    bonus[f] = gain;
                    changed_with[f] = Some((seed, together));
                }
            }
        }
        for (f, b) in bonus.into_iter().enumerate() {
            scores[f] += b;
            if record {
                parts[f].cochange = b / W_COCHANGE;
            }
        }
    }

    let echoes = if signals.feedback {
        let before = record.then(|| scores.clone());
        let echoes = feedback_bonus(query, files, &mut scores, &prior, avg_length);
        if let Some(before) = before {
            for (f, part) in parts.iter_mut().enumerate() {
                part.feedback = (scores[f] - before[f]) / W_FEEDBACK;
            }
        }
        echoes
    } else {
        vec![0; files.len()]
    };

    let mut order: Vec<usize> = (0..files.len()).filter(|&f| scores[f] > 0.0).collect();
    let bonus = |f: usize| {
        if signals.priors {
            classes[f].bonus()
        } else {
            0.0
        }
    };
    let final_score = |f: usize| scores[f] * prior(f) + bonus(f);
    order.sort_by(|&a, &b| {
        final_score(b)
            .total_cmp(&final_score(a))
            .then(files[a].path.cmp(files[b].path))
    });
    order.truncate(max_results);
    let top = order.first().map_or(1.0, |&f| final_score(f));
    let components = if record {
        order
            .iter()
            .map(|&f| {
                let history = history.filter(|h| !h.is_empty());
                Components {
                    prior: prior(f),
                    bonus: bonus(f),
                    class: format!("{:?}", classes[f]).to_ascii_lowercase(),
                    changes: history.map_or(0, |h| h.changes_of(files[f].path) as u32),
                    since_change: history
                        .and_then(|h| h.newest_change_of(files[f].path))
                        .map(|i| i as u32),
                    history_commits: history.map_or(0, |h| h.len() as u32),
                    ..std::mem::take(&mut parts[f])
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    let ranked = order
        .into_iter()
        .enumerate()
        .map(|(place, f)| {
            if place >= explained {
                return Ranked {
                    index: f,
                    score: final_score(f) / top,
                    evidence: Evidence::default(),
                };
            }
            let mut evidence = Evidence {
                mentioned: mentioned[f],
                scoped: scoped[f].map(|k| folders[k].clone()),
                named_change: named_change[f].map(ToString::to_string),
                commits: commits[f],
                changed_with: changed_with[f].map(|(seed, n)| (files[seed].path.to_string(), n)),
                linked: linked[f].map(|(seed, n)| (files[seed].path.to_string(), n)),
                echoes: echoes[f],
                class: Some(classes[f]),
                ..Evidence::default()
            };
            for q in &query.terms {
                if let Some(p) = files[f].terms.get(q.term) {
                    if p.body > 0 {
                        evidence.matched.push((q.word.clone(), u32::from(p.body)));
                    }
                    if p.defined > 0 {
                        evidence.defined.push(q.word.clone());
                    }
                    if p.path > 0 {
                        evidence.in_path.push(q.word.clone());
                    }
                }
            }
            Ranked {
                index: f,
                score: final_score(f) / top,
                evidence,
            }
        })
        .collect();
    (ranked, components, idf)
}

/// Personalised propagation over the reference graph, one step from the strongest hits: a file
/// that uses names a hit defines, or defines names a hit uses, gains in proportion to the
/// hit's strength and the specificity of the shared names (names defined in at most
/// [`SPECIFIC_DEFINITIONS`] files, weighted `ln(1 + N / df)`).
fn graph_bonus(
    files: &[Candidate<'_>],
    scores: &mut [f64],
    prior: &dyn Fn(usize) -> f64,
    linked: &mut [Option<(usize, u32)>],
) {
    let order = strongest_first(files, scores, prior);
    // candidates: the best files by score, then the rest in path order, up to the bound
    let mut candidates: Vec<usize> = order.iter().copied().take(GRAPH_CANDIDATES).collect();
    if candidates.len() < GRAPH_CANDIDATES {
        let mut taken = vec![false; files.len()];
        for &c in &candidates {
            taken[c] = true;
        }
        candidates.extend(
            (0..files.len())
                .filter(|&f| !taken[f])
                .take(GRAPH_CANDIDATES - candidates.len()),
        );
    }
    let n = files.len() as f64;
    let mut bonus = vec![0.0f64; files.len()];
    for (seed, strength) in seeds_of(&order, scores, prior) {
        let seed_terms = SeedTerms::new(files[seed].terms.iter().collect());
        // per term of the seed: files that define it, files that contain it
        let mut defined = vec![0u32; seed_terms.len()];
        let mut df = vec![0u32; seed_terms.len()];
        for &f in &candidates {
            seed_terms.for_each_shared(files[f].terms, |i, q| {
                df[i] += 1;
                if q.defined > 0 {
                    defined[i] += 1;
                }
            });
        }
        // only the names few files define can link two files: the second pass looks for those
        // alone (a kernel seed has thousands of terms, a handful of them specific)
        let (specific, seed_index): (Vec<Posting>, Vec<usize>) = seed_terms
            .postings
            .iter()
            .enumerate()
            .filter(|&(i, _)| (1..=SPECIFIC_DEFINITIONS).contains(&defined[i]))
            .map(|(i, p)| (*p, i))
            .unzip();
        if specific.is_empty() {
            continue;
        }
        let specific = SeedTerms::new(specific);
        let weight = |i: usize| (1.0 + n / f64::from(df[i].max(1))).ln();
        let mut shared = vec![(0.0f64, 0u32); files.len()];
        for &f in &candidates {
            if f == seed {
                continue;
            }
            specific.for_each_shared(files[f].terms, |k, q| {
                // the seed defines it and f uses it, or f defines it and the seed uses it
                let p = &specific.postings[k];
                let seed_uses = p.body > u16::from(p.defined);
                let f_uses = q.body > u16::from(q.defined);
                if (p.defined > 0 && f_uses) || (q.defined > 0 && seed_uses) {
                    shared[f].0 += weight(seed_index[k]);
                    shared[f].1 += 1;
                }
            });
        }
        let most = shared.iter().map(|s| s.0).fold(0.0, f64::max);
        if most <= 0.0 {
            continue;
        }
        for (f, (sum, count)) in shared.into_iter().enumerate() {
            let gain = W_GRAPH * strength * sum / most;
            if gain > bonus[f] {
                bonus[f] = gain;
                linked[f] = Some((seed, count));
            }
        }
    }
    for (f, b) in bonus.into_iter().enumerate() {
        scores[f] += b;
    }
}

/// A seed's terms (sorted by term), with an index by term for the files smaller than it.
struct SeedTerms {
    postings: Vec<Posting>,
    index: FxHashMap<Term, usize>,
}

impl SeedTerms {
    fn new(postings: Vec<Posting>) -> Self {
        let index = postings
            .iter()
            .enumerate()
            .map(|(i, p)| (p.term, i))
            .collect();
        Self { postings, index }
    }

    fn len(&self) -> usize {
        self.postings.len()
    }

    /// Each term the seed shares with `file`: its index in the seed and the file's posting, in
    /// term order. The smaller side is walked and the larger looked up, so a seed of 100,000
    /// terms (a generated register header) costs each candidate its own few hundred lookups,
    /// not 100,000.
    fn for_each_shared(&self, file: &FileTerms, mut found: impl FnMut(usize, Posting)) {
        if self.postings.len() <= file.len() {
            for (i, p) in self.postings.iter().enumerate() {
                if let Some(q) = file.get(p.term) {
                    found(i, q);
                }
            }
        } else {
            for q in file.iter() {
                if let Some(&i) = self.index.get(&q.term) {
                    found(i, q);
                }
            }
        }
    }
}

/// Pseudo-relevance feedback: the words the strongest hits use most, beyond the query's own
/// and weighted by their rarity, asked again as a second, weaker query; the hits themselves
/// keep their place. A task's files share a vocabulary its words do not spell (a message
/// about "the session" and the file that signs the cookie), and the best hits speak it.
/// Returns, per file lifted, how many of those words it has.
fn feedback_bonus(
    query: &Query,
    files: &[Candidate<'_>],
    scores: &mut [f64],
    prior: &dyn Fn(usize) -> f64,
    avg_length: f64,
) -> Vec<u32> {
    let mut echoes = vec![0u32; files.len()];
    let order = strongest_first(files, scores, prior);
    let seeds = seeds_of(&order, scores, prior);
    // document frequencies from an even sample of the files (bounded work on the kernel)
    let stride = files.len().div_ceil(GRAPH_CANDIDATES).max(1);
    let sample: Vec<usize> = (0..files.len()).step_by(stride).collect();
    let n = sample.len() as f64;
    let asked: Vec<Term> = query.terms.iter().map(|q| q.term).collect();
    let mut gains: FxHashMap<Term, f64> = FxHashMap::default();
    for &(seed, strength) in &seeds {
        let terms = files[seed].terms;
        let length = f64::from(terms.length.max(1));
        for p in terms.iter() {
            if p.body < 2 || asked.contains(&p.term) {
                continue;
            }
            *gains.entry(p.term).or_default() += strength * f64::from(p.body) / length;
        }
    }
    // one pass over the sample's terms, not a search per word: a kernel file has thousands
    let mut df: FxHashMap<Term, u32> = gains.keys().map(|&t| (t, 0)).collect();
    for &f in &sample {
        for p in files[f].terms.iter() {
            if let Some(d) = df.get_mut(&p.term) {
                *d += 1;
            }
        }
    }
    let mut words: Vec<(Term, f64, f64)> = gains
        .into_iter()
        .filter_map(|(term, gain)| {
            let df = f64::from(df[&term]);
            // a word only the hits have lifts no other file, and one most files have says
            // nothing
            if df < 2.0 || df > n / 4.0 {
                return None;
            }
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            Some((term, gain * idf, idf))
        })
        .collect();
    words.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    words.truncate(FEEDBACK_WORDS);
    let Some(most) = words.first().map(|w| w.1) else {
        return echoes;
    };
    let mut lifted = vec![0.0f64; files.len()];
    for (f, file) in files.iter().enumerate() {
        let norm = 1.0 - B + B * f64::from(file.terms.length) / avg_length;
        for &(term, gain, idf) in &words {
            if let Some(p) = file.terms.get(term) {
                let tf = f64::from(p.body) / norm;
                lifted[f] += gain / most * idf * tf * (K1 + 1.0) / (K1 + tf);
                echoes[f] += 1;
            }
        }
    }
    // divided by the best lift, a hit's as a rule: a file that speaks as the hits do gains the
    // whole weight
    let best_lift = lifted.iter().copied().fold(0.0, f64::max);
    for (f, lift) in lifted.into_iter().enumerate() {
        if best_lift <= 0.0 || seeds.iter().any(|&(s, _)| s == f) {
            echoes[f] = 0;
            continue;
        }
        scores[f] += W_FEEDBACK * lift / best_lift;
    }
    echoes
}

/// The files with a score, strongest first (score times prior; ties by path).
fn strongest_first(
    files: &[Candidate<'_>],
    scores: &[f64],
    prior: &dyn Fn(usize) -> f64,
) -> Vec<usize> {
    let mut order: Vec<usize> = (0..files.len()).filter(|&f| scores[f] > 0.0).collect();
    order.sort_by(|&a, &b| {
        (scores[b] * prior(b))
            .total_cmp(&(scores[a] * prior(a)))
            .then(files[a].path.cmp(files[b].path))
    });
    order
}

/// The strong hits the graph, co-change and feedback steps start from: the first [`SEEDS`] of
/// `order` while at least half as strong as the best, with their strength.
fn seeds_of(order: &[usize], scores: &[f64], prior: &dyn Fn(usize) -> f64) -> Vec<(usize, f64)> {
    let Some(&best) = order.first() else {
        return Vec::new();
    };
    let top = scores[best] * prior(best);
    order
        .iter()
        .take(SEEDS)
        .map(|&s| (s, scores[s] * prior(s) / top))
        .take_while(|&(_, strength)| strength >= 0.5)
        .collect()
}

/// How central each file is without a query: the files whose definitions the most other files
/// use (a reference graph's in-degree, from terms: a name defined in at most
/// [`SPECIFIC_DEFINITIONS`] files and used in the text of others), each use counted as
/// `ln(1 + users)` so one ubiquitous name does not make a file central. Priors apply.
pub fn centrality(files: &[Candidate<'_>], signals: Signals) -> Vec<f64> {
    let mut defined_in: FxHashMap<Term, u32> = FxHashMap::default();
    let mut used_in: FxHashMap<Term, u32> = FxHashMap::default();
    for file in files {
        for p in file.terms.iter() {
            if p.defined > 0 {
                *defined_in.entry(p.term).or_default() += 1;
            }
        }
    }
    for file in files {
        for p in file.terms.iter() {
            if p.body > u16::from(p.defined) && defined_in.contains_key(&p.term) {
                *used_in.entry(p.term).or_default() += 1;
            }
        }
    }
    files
        .iter()
        .map(|file| {
            let mut score = 0.0;
            for p in file.terms.iter() {
                if p.defined == 0 || defined_in[&p.term] > SPECIFIC_DEFINITIONS {
                    continue;
                }
                // its own uses of the name are not another file's
                let users = used_in.get(&p.term).copied().unwrap_or(0)
                    - u32::from(p.body > u16::from(p.defined));
                score += f64::from(users).ln_1p();
            }
            let prior = if signals.priors {
                FileClass::of(file.path).prior()
            } else {
                1.0
            };
            score * prior
        })
        .collect()
}

/// A name defined in more files than this (`new`, `get`, `init`) says little about which one a
/// user means.
pub const SPECIFIC_DEFINITIONS: u32 = 3;

/// A definition of a file, as the caller parsed it (1-based line).
#[derive(Debug, Clone)]
pub struct Definition<'a> {
    pub line: usize,
    pub name: &'a str,
    /// `Command.Find`-style name to show.
    pub qualified: String,
}

/// The 1–3 line ranges of `text` that matter most for `query` (1-based, inclusive), in file
/// order: the definitions whose bodies hold the query's words best, and windows around the
/// lines before the first definition (imports, constants) that hold them; in a file without
/// definitions, windows around every line that does. A span's words count by the query's
/// weight times `idf` (each term's, in the query's order, as [`rank_weighing`] gives it), and
/// saturate as in BM25: a body using three of the query's rare words beats one repeating a
/// common one on every line. Also the definitions whose names the query uses.
pub fn ranges(
    text: &str,
    query: &Query,
    idf: &[f64],
    definitions: &[Definition<'_>],
    max_ranges: usize,
) -> (Vec<(usize, usize)>, Vec<String>) {
    const WINDOW: usize = 6;
    const MAX_SPAN: usize = 80;
    const SLIDE_STEP: usize = 10;
    // BM25's k1, low: the second use of a word in a span adds a third of the first's
    const SATURATION: f64 = 0.5;
    const NAMED_BONUS: f64 = 5.0;
    let weights: Vec<f64> = query
        .terms
        .iter()
        .enumerate()
        .map(|(i, t)| t.weight * idf.get(i).copied().unwrap_or(1.0))
        .collect();
    let index_of: FxHashMap<Term, usize> = query
        .terms
        .iter()
        .enumerate()
        .map(|(i, t)| (t.term, i))
        .collect();
    let lines: Vec<&str> = text.lines().collect();
    // each line's distinct query terms
    let mut line_terms: Vec<Vec<usize>> = vec![Vec::new(); lines.len()];
    for (line, found) in lines.iter().zip(&mut line_terms) {
        if line.len() > 2000 {
            continue;
        }
        terms::identifiers(line, |_, ident| {
            terms::identifier_terms(ident, |term, _| {
                if let Some(&k) = index_of.get(&term)
                    && !found.contains(&k)
                {
                    found.push(k);
                }
            });
        });
    }
    // per span, the uses of each term it holds (sparse: a long query has hundreds of terms)
    let mut uses = vec![0u32; query.terms.len()];
    let mut held: Vec<usize> = Vec::new();
    let mut span_score = |start: usize, end: usize| -> f64 {
        for found in line_terms.get(start - 1..end).unwrap_or_default() {
            for &k in found {
                if uses[k] == 0 {
                    held.push(k);
                }
                uses[k] += 1;
            }
        }
        let mut score = 0.0;
        for k in held.drain(..) {
            let u = f64::from(std::mem::take(&mut uses[k]));
            score += weights[k] * u * (SATURATION + 1.0) / (u + SATURATION);
        }
        score
    };
    let named_by_query = |name: &str| {
        let mut all = true;
        let mut any = false;
        terms::identifier_terms(name, |term, _| {
            any = true;
            all &= index_of.contains_key(&term);
        });
        any && all
    };
    let mut defined: Vec<String> = Vec::new();
    let mut candidates: Vec<(f64, usize, usize)> = Vec::new();
    // a definition outside the text (the caller parsed another version) shows nothing
    let mut sorted: Vec<&Definition<'_>> = definitions
        .iter()
        .filter(|d| (1..=lines.len()).contains(&d.line))
        .collect();
    sorted.sort_by_key(|d| d.line);
    // a definition's range starts at its doc comment or decorators
    let lead_in = |line: usize| {
        let mut start = line;
        while start > 1 && line - start < 12 {
            let above = lines[start - 2].trim_start();
            let is_lead = ["///", "//", "#", "/*", "*", "@", "--"]
                .iter()
                .any(|m| above.starts_with(m))
                && !above.starts_with("#include")
                && !above.starts_with("#define");
            if !is_lead {
                break;
            }
            start -= 1;
        }
        start
    };
    for (k, def) in sorted.iter().enumerate() {
        let start = lead_in(def.line);
        let next = sorted
            .get(k + 1)
            .map_or(lines.len(), |n| n.line.saturating_sub(1));
        // a definition longer than MAX_SPAN shows its MAX_SPAN lines that hold the query's
        // words best, from its head on in steps of SLIDE_STEP: what a task needs of a long
        // function may lie deep in its body
        let (mut start, mut end) = (start, next.max(start).min(start + MAX_SPAN - 1));
        let mut score = span_score(start, end);
        let mut at = start + SLIDE_STEP;
        while at + MAX_SPAN <= next + SLIDE_STEP {
            let window_end = (at + MAX_SPAN - 1).min(next);
            let window_score = span_score(at, window_end);
            if window_score > score {
                (start, end, score) = (at, window_end, window_score);
            }
            at += SLIDE_STEP;
        }
        if named_by_query(def.name) {
            score += NAMED_BONUS;
            if !defined.contains(&def.qualified) {
                defined.push(def.qualified.clone());
            }
        }
        if score > 0.0 {
            candidates.push((score, start, end));
        }
    }
    // windows where no definition shows the line: before the first one (a change to imports
    // or module constants), or anywhere in a file whose definitions hold none of the words
    let windows_end = match sorted.first() {
        Some(first) if !candidates.is_empty() => lead_in(first.line) - 1,
        _ => lines.len(),
    };
    for (i, found) in line_terms.iter().enumerate().take(windows_end) {
        if !found.is_empty() {
            let start = i.saturating_sub(WINDOW) + 1;
            let end = (i + 1 + WINDOW).min(windows_end);
            candidates.push((span_score(start, end), start, end));
        }
    }
    candidates.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut chosen: Vec<(usize, usize)> = Vec::new();
    for (_, start, end) in candidates {
        if chosen.len() >= max_ranges {
            break;
        }
        if chosen.iter().all(|&(s, e)| end < s || start > e) {
            chosen.push((start, end));
        }
    }
    chosen.sort_unstable();
    // ranges that touch read as one
    chosen.dedup_by(|next, kept| {
        let touches = next.0 == kept.1 + 1;
        if touches {
            kept.1 = next.1;
        }
        touches
    });
    (chosen, defined)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each `(path, text)`'s terms.
    fn terms_of(texts: &[(String, String)]) -> Vec<FileTerms> {
        texts.iter().map(|(p, t)| FileTerms::of(p, t)).collect()
    }

    /// The candidates of `texts`, over their `terms`.
    fn candidates_of<'a>(
        texts: &'a [(String, String)],
        terms: &'a [FileTerms],
    ) -> Vec<Candidate<'a>> {
        texts
            .iter()
            .zip(terms)
            .map(|((path, _), terms)| Candidate { path, terms })
            .collect()
    }

    #[test]
    fn a_titles_scope_names_folders_and_change_types_are_not_scopes() {
        let scopes = |t: &str| Query::parse(t).scopes;
        assert_eq!(
            scopes("ignore,globset: increase pool capacity"),
            ["ignore", "globset"]
        );
        assert_eq!(
            scopes("fix(v4): measure string length\n\nbody: text"),
            ["v4"]
        );
        assert_eq!(scopes("pkg/brew: update tap"), ["pkg/brew"]);
        assert_eq!(scopes("Subscriber!: breaking change"), ["subscriber"]);
        assert_eq!(scopes("docs(README): fix a link"), ["readme"]);
        for none in [
            "fix: a bug",
            "docs: fix typo",
            "Fix the parser: it drops NULs",
            "see https://example.com: here",
            "feat(a)(b): nested",
            "no scope here",
            "",
        ] {
            assert!(scopes(none).is_empty(), "{none:?}");
        }
        // only the title is read
        assert!(scopes("Fix the walker\n\nignore: text").is_empty());
    }

    #[test]
    fn a_file_in_the_folder_the_scope_names_ranks_up() {
        let lib = FileTerms::of(
            "tracing/src/lib.rs",
            "pub fn paths() {}\n// qualify paths, attribute paths\n",
        );
        let attr = FileTerms::of(
            "tracing-attributes/src/attr.rs",
            "pub fn parse() {}\n// paths\n",
        );
        let core = FileTerms::of("tracing-core/src/lib.rs", "pub fn other() {}\n");
        let files = [
            Candidate {
                path: "tracing/src/lib.rs",
                terms: &lib,
            },
            Candidate {
                path: "tracing-attributes/src/attr.rs",
                terms: &attr,
            },
            Candidate {
                path: "tracing-core/src/lib.rs",
                terms: &core,
            },
        ];
        let query = Query::parse("attributes: globally qualify attribute paths");
        let ranked = rank(&query, &files, None, Signals::default(), 10);
        assert_eq!(
            files[ranked[0].index].path,
            "tracing-attributes/src/attr.rs"
        );
        assert_eq!(
            ranked[0].evidence.scoped.as_deref(),
            Some("tracing-attributes")
        );
        let without = rank(&query, &files, None, Signals::without("scope").unwrap(), 10);
        assert_eq!(files[without[0].index].path, "tracing/src/lib.rs");
        assert!(without[0].evidence.scoped.is_none());
        // an exact folder name wins over a part of one: `tracing:` is `tracing/`
        let query = Query::parse("tracing: fix record_all");
        let ranked = rank(&query, &files, None, Signals::default(), 10);
        let tracing = ranked
            .iter()
            .find(|r| files[r.index].path == "tracing/src/lib.rs")
            .unwrap();
        assert_eq!(tracing.evidence.scoped.as_deref(), Some("tracing"));
        assert!(ranked.iter().all(|r| files[r.index].path == "tracing/src/lib.rs" || r.evidence.scoped.is_none()));
    }

    #[test]
    fn query_terms_and_mentions() {
        let q = Query::parse("Fix `execute_hook` crash in command.go when hooks fail");
        let words: Vec<&str> = q.terms.iter().map(|t| t.word.as_str()).collect();
        assert!(words.contains(&"execute_hook") && words.contains(&"hook"));
        assert!(!words.contains(&"in"));
        assert_eq!(q.mentions, ["command.go"]);
        let hook = q.terms.iter().find(|t| t.word == "hook").unwrap();
        assert!(hook.weight > 2.0, "code and a repeat: {}", hook.weight);
    }

    /// An issue as reporters write them: a title, a link to the lines at fault, a stack trace
    /// and the reporter's own program.
    const ISSUE: &str = "Completion panics on a dashed argument\n\n\
        It enters this branch by mistake: \
        https://github.com/spf13/cobra/blob/fce8d8a/completions.go#L577-L595\n\
        ```\n\
        panic: Group id 'Group1' is not defined for subcommand 'app1 sub1'\n\
        github.com/spf13/cobra.(*Command).AddCommand(0xd024e0, {0xc00024fd08, 0x1, 0x1?})\n\
        \t/home/u/go/pkg/mod/github.com/spf13/cobra@v1.6.0/command.go:1223 +0x2d4\n\
        ```\n\
        ```go\n\
        func main() {\n\
        \tif err := root.Execute(); err != nil {\n\
        \t\treturn\n\
        \t}\n\
        }\n\
        ```\n\
        `mini/schemas.ts:921` declares the panic too.";

    #[test]
    fn an_issue_is_read_as_a_developer_reads_it() {
        let q = Query::parse(ISSUE);
        let weight = |w: &str| q.terms.iter().find(|t| t.word == w).map(|t| t.weight);
        // links, stack frames and editor positions name their files
        assert_eq!(
            q.mentions,
            [
                "/home/u/go/pkg/mod/github.com/spf13/cobra@v1.6.0/command.go",
                "mini/schemas.ts",
                "spf13/cobra/blob/fce8d8a/completions.go",
            ]
        );
        // a link's host and path words are no words of the task; its file name is
        assert_eq!(weight("https"), None);
        assert_eq!(weight("blob"), None);
        assert_eq!(weight("completion"), Some(3.0 + 0.25));
        // the snippet's syntax is dropped, its names kept
        assert_eq!(weight("func"), None);
        assert_eq!(weight("main"), None);
        assert_eq!(weight("return"), None);
        assert_eq!(weight("err"), None);
        assert_eq!(weight("execute"), Some(2.0), "`root.Execute()` is code");
        // the title weighs triple: `panic` in it, `branch` in the description
        assert_eq!(weight("panic"), Some(3.0 + 0.25 + 0.25));
        assert_eq!(weight("branch"), Some(1.0));
        // a one-line query has no title to weigh
        let one = Query::parse("Completion panics on a dashed argument");
        let written: Vec<f64> = one
            .terms
            .iter()
            .filter(|t| !["dash", "dashe"].contains(&t.word.as_str()))
            .map(|t| t.weight)
            .collect();
        assert_eq!(written, [1.0; 4], "{:?}", one.terms);
    }

    /// Prose says what code did ("quoting", "handled", "stopped"); code names what it does.
    #[test]
    fn an_inflected_word_also_looks_for_its_base_form_at_half_weight() {
        let q = Query::parse("Resolve queryparam quoting; handled stopped `parsing_state` things");
        let weight = |w: &str| q.terms.iter().find(|t| t.word == w).map(|t| t.weight);
        assert_eq!(weight("quoting"), Some(1.0));
        assert_eq!(weight("quote"), Some(0.5));
        assert_eq!(weight("quot"), Some(0.5));
        assert_eq!(weight("handle"), Some(0.5));
        assert_eq!(weight("stop"), Some(0.5));
        // a part of code weighs 2, its base form 1; short or vowel-less stems are no base forms
        assert_eq!(weight("parse"), Some(1.0));
        assert_eq!(weight("th"), None);
        assert!(base_forms("string").is_empty() && base_forms("speed").is_empty());
        assert_eq!(base_forms("running"), ["runn", "runne", "run"]);
    }

    /// A squash-merged commit as GitHub writes it: the people its trailers and addresses name
    /// are no words of the task; a package at a version and a code block's lines are.
    #[test]
    fn the_people_a_commit_names_are_not_read() {
        let q = Query::parse(
            "Update kotlinpoet to v1.17.0 (#1761)\n\n\
             * Remove metadata preview, thanks to jane.doe@example.org\n\
             * Pin lodash@4.17.21\n\n\
             ```\nReviewed-by: parser_state\n```\n\
             Co-authored-by: renovate[bot] <29139614+renovate[bot]@users.noreply.github.com>\n\
             Signed-off-by: Zac Sweers <pandanomic@gmail.com>\n\
             Cc: Alice <alice@kernel.org>\n",
        );
        let words: Vec<&str> = q.terms.iter().map(|t| t.word.as_str()).collect();
        for person in [
            "renovate", "bot", "users", "noreply", "github", "zac", "sweers", "gmail",
        ]
        .iter()
        .chain(&[
            "alice",
            "jane",
            "doe",
            "example",
            "signed",
            "authored",
            "pandanomic",
        ]) {
            assert!(!words.contains(person), "{person} in {words:?}");
        }
        for task in [
            "kotlinpoet",
            "metadata",
            "preview",
            "thank",
            "lodash",
            "pin",
        ] {
            assert!(words.contains(&task), "{task} missing from {words:?}");
        }
        // in a code block a `key-by:` line is code, not a trailer
        assert!(words.contains(&"parser_state"), "{words:?}");
        assert!(is_person_trailer("Reported-by: A"));
        assert!(!is_person_trailer("by: the way"));
        assert!(!is_person_trailer("Fixes: 1234abcd (\"subject\")"));
        assert!(!is_email("@Override") && !is_email("lodash@4.17.21") && is_email("<a@b.io>,"));
    }

    /// An issue's example crate has a `src/lib.rs`: in a workspace where every crate has one,
    /// that names none of them; in a one-crate project it names the crate's.
    #[test]
    fn a_mention_that_many_files_bear_names_none_of_them() {
        let lib = FileTerms::of("src/lib.rs", "pub fn helper() {}\n");
        let expand = FileTerms::of(
            "attrs/src/expand.rs",
            "// the async function's trailing return value\nfn expand_async() {}\n",
        );
        let query = "attrs: silence a lint on async functions\n\n\
            The trailing return value warns.\n\n**src/lib.rs:**\n```\nfn main() {}\n```\n";
        let paths = [
            "attrs/src/lib.rs",
            "core/src/lib.rs",
            "futures/src/lib.rs",
            "serde/src/lib.rs",
        ];
        let mut files: Vec<Candidate<'_>> = paths
            .iter()
            .map(|path| Candidate { path, terms: &lib })
            .collect();
        files.push(Candidate {
            path: "attrs/src/expand.rs",
            terms: &expand,
        });
        let ranked = rank(&Query::parse(query), &files, None, Signals::default(), 10);
        assert_eq!(files[ranked[0].index].path, "attrs/src/expand.rs");
        assert!(ranked.iter().all(|r| !r.evidence.mentioned));
        // one crate: its src/lib.rs is the one the query names
        let one = [
            Candidate {
                path: "src/lib.rs",
                terms: &lib,
            },
            Candidate {
                path: "attrs/src/expand.rs",
                terms: &expand,
            },
        ];
        let ranked = rank(&Query::parse(query), &one, None, Signals::default(), 10);
        assert_eq!(one[ranked[0].index].path, "src/lib.rs");
        assert!(ranked[0].evidence.mentioned);
    }

    #[test]
    fn a_stack_frame_names_the_file_its_path_ends_with() {
        let command = FileTerms::of(
            "command.go",
            "func (c *Command) AddCommand(cmds ...*Command) {}\n",
        );
        let group = FileTerms::of(
            "group.go",
            "// subcommand group id not defined: panic\nfunc checkGroup(id string) { panic(id) }\n",
        );
        let files = [
            Candidate {
                path: "command.go",
                terms: &command,
            },
            Candidate {
                path: "group.go",
                terms: &group,
            },
        ];
        let query = "Subcommand group panics\n\n\
            panic: Group id 'Group1' is not defined for subcommand\n\
            \t/home/u/go/pkg/mod/github.com/spf13/cobra@v1.6.0/command.go:1223 +0x2d4";
        let ranked = rank(&Query::parse(query), &files, None, Signals::default(), 10);
        assert_eq!(files[ranked[0].index].path, "command.go");
        assert!(ranked[0].evidence.mentioned);
        assert!(!ranked[1].evidence.mentioned);
    }

    /// Walking the smaller side gives what looking up every seed term gives, in the same order,
    /// whichever side is larger.
    #[test]
    fn the_terms_a_seed_shares_with_a_file_are_the_same_from_either_side() {
        const WORDS: &[&str] = &[
            "parse",
            "Request",
            "handler",
            "fn",
            "struct",
            "queue",
            "busy",
            "cookie",
            "salt",
            "serializer",
            "x",
            "read_token",
            "ParseArgs",
            "z9",
            "value",
        ];
        let mut next = terms::sequence(0x2545_f491_4f6c_dd1du64);
        let mut text = |lines: usize| -> String {
            (0..lines)
                .map(|_| {
                    let words: Vec<&str> = (0..next(6)).map(|_| WORDS[next(WORDS.len())]).collect();
                    let mut line = words.join(" ");
                    if next(4) == 0 {
                        line = format!("fn {}{}() {{}}", WORDS[next(WORDS.len())], next(50));
                    }
                    line + "\n"
                })
                .collect()
        };
        for round in 0..40 {
            let seed = FileTerms::of("src/seed.rs", &text(1 + round * 7));
            let file = FileTerms::of("src/file.rs", &text(1 + (40 - round) * 5));
            let seed_terms = SeedTerms::new(seed.iter().collect());
            let mut walked = Vec::new();
            seed_terms.for_each_shared(&file, |i, q| walked.push((i, q)));
            let looked_up: Vec<(usize, Posting)> = seed_terms
                .postings
                .iter()
                .enumerate()
                .filter_map(|(i, p)| file.get(p.term).map(|q| (i, q)))
                .collect();
            assert_eq!(walked, looked_up, "round {round}");
            assert!(!looked_up.is_empty() || round == 0);
        }
    }

    /// A generated register header defines thousands of names that share the query's words:
    /// its defined names are divided by its length as its text is, so the short file that is
    /// about the task outranks it.
    #[test]
    fn a_long_files_defined_names_count_as_its_text_does() {
        // one line in two hundred is about queue work, as in a real register header
        let header: String = (0..3000)
            .map(|i| match i % 200 {
                0 => format!("#define GC_QUEUE{i}_WORK_SHIFT 0x{i:x}\n"),
                _ => format!("#define GC_CNTL{i}_ENABLE_MASK 0x{i:x}\n"),
            })
            .collect();
        let mut texts = vec![
            ("include/gc_sh_mask.h".to_string(), header),
            (
                "kernel/workqueue.c".to_string(),
                "int pool_size;\nvoid process_pending(struct pool *pool) {\n  queue_work(pool);\n}\n"
                    .repeat(3),
            ),
        ];
        for i in 0..20 {
            texts.push((
                format!("drivers/d{i}.c"),
                format!("int probe_{i}(struct device *dev) {{ return register_{i}(dev); }}\n")
                    .repeat(40),
            ));
        }
        let terms = terms_of(&texts);
        let files = candidates_of(&texts, &terms);
        assert!(
            terms[0]
                .get(terms::hash("queue"))
                .is_some_and(|p| p.defined >= 15)
        );
        let query = Query::parse("stall when the queue work is busy");
        let ranked = rank(&query, &files, None, Signals::default(), 3);
        assert_eq!(files[ranked[0].index].path, "kernel/workqueue.c");
    }

    #[test]
    fn a_files_terms_are_found_alike_by_search_and_by_merge() {
        let text: String = (0..400).map(|i| format!("word{i} ")).collect();
        let file = FileTerms::of("src/a.rs", &text);
        for wanted in [3usize, 40, 1000] {
            let mut sorted: Vec<Term> = (0..wanted)
                .map(|i| terms::hash(&format!("word{}", i * 7)))
                .collect();
            sorted.sort_unstable();
            sorted.dedup();
            let mut found = Vec::new();
            file.for_each_of(&sorted, |k, p| found.push((k, p)));
            let searched: Vec<(usize, Posting)> = sorted
                .iter()
                .enumerate()
                .filter_map(|(k, &t)| file.get(t).map(|p| (k, p)))
                .collect();
            assert_eq!(found, searched, "{wanted} terms");
            assert_eq!(found.len(), (0..wanted).filter(|i| i * 7 < 400).count());
        }
    }

    #[test]
    fn each_signal_is_switched_off_by_its_name_alone() {
        for name in Signals::NAMES {
            let off = Signals::without(name).unwrap();
            let changed = Signals::NAMES
                .iter()
                .filter(|other| Signals::without(other) == Ok(off))
                .count();
            assert_ne!(off, Signals::default(), "{name}");
            assert_eq!(changed, 1, "{name}");
        }
        assert_eq!(Signals::without(""), Ok(Signals::default()));
        assert_eq!(
            Signals::without("graph, messages,"),
            Ok(Signals {
                graph: false,
                messages: false,
                ..Signals::default()
            })
        );
        assert_eq!(
            Signals::without("graph,no_such_signal"),
            Err("no_such_signal".to_string())
        );
        assert_eq!(Signals::NAMES.len(), 11);
    }

    #[test]
    fn classes() {
        assert_eq!(FileClass::of("src/parser.rs"), FileClass::Source);
        assert_eq!(FileClass::of("src/parser_test.go"), FileClass::Test);
        assert_eq!(FileClass::of("tests/test_api.py"), FileClass::Test);
        assert_eq!(FileClass::of("src/Foo.test.ts"), FileClass::Test);
        assert_eq!(FileClass::of("docs/guide.md"), FileClass::Docs);
        assert_eq!(FileClass::of("docs/_static/site.json"), FileClass::Docs);
        // a docs site's own code ranks like examples, above prose and configuration
        assert_eq!(FileClass::of("docs/conf.py"), FileClass::Example);
        assert_eq!(
            FileClass::of("packages/docs/components/ecosystem.tsx"),
            FileClass::Example
        );
        assert!(FileClass::Example.prior() > FileClass::Docs.prior());
        assert!(FileClass::Test.prior() < FileClass::Source.prior());
        assert_eq!(FileClass::of("vendor/x/y.go"), FileClass::Vendored);
        assert_eq!(
            FileClass::of("app/src/test/java/FooTest.java"),
            FileClass::Test
        );
        assert_eq!(FileClass::of("src/latest.rs"), FileClass::Source);
        // a test suite named for what it is (hiredis's `test.c`, a Rust `tests.rs` module,
        // a Django app's `tests.py`)
        assert_eq!(FileClass::of("test.c"), FileClass::Test);
        assert_eq!(FileClass::of("src/walk/tests.rs"), FileClass::Test);
        assert_eq!(FileClass::of("polls/tests.py"), FileClass::Test);
        assert_eq!(FileClass::of("src/testing_utils.rs"), FileClass::Source);
    }

    #[test]
    fn the_defining_file_ranks_first_and_ties_break_by_path() {
        let a = FileTerms::of(
            "src/hooks.go",
            "func ExecuteHook(h Hook) error {\n\treturn h.Run()\n}\n",
        );
        let b = FileTerms::of("src/main.go", "func main() {\n\tExecuteHook(nil)\n}\n");
        let c = FileTerms::of(
            "src/hooks_test.go",
            "func TestExecuteHook(t *T) { ExecuteHook(nil) }\n",
        );
        let files = [
            Candidate {
                path: "src/main.go",
                terms: &b,
            },
            Candidate {
                path: "src/hooks_test.go",
                terms: &c,
            },
            Candidate {
                path: "src/hooks.go",
                terms: &a,
            },
        ];
        let ranked = rank(
            &Query::parse("ExecuteHook fails"),
            &files,
            None,
            Signals::default(),
            10,
        );
        assert_eq!(files[ranked[0].index].path, "src/hooks.go");
        assert_eq!(ranked[0].score, 1.0);
        assert!(
            ranked[0]
                .evidence
                .defined
                .contains(&"ExecuteHook".to_string())
        );
        let again = rank(
            &Query::parse("ExecuteHook fails"),
            &files,
            None,
            Signals::default(),
            10,
        );
        assert_eq!(ranked, again);
    }

    #[test]
    fn components_recombine_into_the_ranking() {
        let hooks = FileTerms::of(
            "src/hooks.go",
            "// ExecuteHook runs a hook\nfunc ExecuteHook(h Hook) error {\n\treturn h.Run()\n}\n",
        );
        let main = FileTerms::of("src/main.go", "func main() {\n\tExecuteHook(nil)\n}\n");
        let test = FileTerms::of(
            "src/hooks_test.go",
            "func TestExecuteHook(t *T) { ExecuteHook(nil) }\n",
        );
        let files = [
            Candidate {
                path: "src/hooks.go",
                terms: &hooks,
            },
            Candidate {
                path: "src/hooks_test.go",
                terms: &test,
            },
            Candidate {
                path: "src/main.go",
                terms: &main,
            },
        ];
        let history = History::build([
            crate::Commit {
                message: "hooks: run ExecuteHook once".into(),
                files: vec!["src/hooks.go".into(), "src/main.go".into()],
                ..Default::default()
            },
            crate::Commit {
                message: "main: flags".into(),
                files: vec!["src/main.go".into()],
                ..Default::default()
            },
            crate::Commit {
                message: "hooks: ExecuteHook error".into(),
                files: vec!["src/hooks.go".into(), "src/main.go".into()],
                ..Default::default()
            },
        ]);
        let query = Query::parse("ExecuteHook fails in hooks.go");
        let plain = rank(&query, &files, Some(&history), Signals::default(), 10);
        let with = rank_with_components(&query, &files, Some(&history), Signals::default(), 10);
        assert_eq!(
            plain,
            with.iter().map(|(r, _)| r.clone()).collect::<Vec<_>>(),
            "recording changes nothing"
        );
        let combined = |c: &Components| {
            (c.fields
                + W_DEFINES * c.definitions
                + W_NAME * c.names
                + W_MENTION * c.mentions
                + W_SCOPE * c.scope
                + W_MESSAGES * c.messages
                + W_GRAPH * c.graph
                + W_COCHANGE * c.cochange)
                * c.prior
                + c.bonus
        };
        let top = combined(&with[0].1);
        for (ranked, c) in &with {
            assert!((combined(c) / top - ranked.score).abs() < 1e-9, "{c:?}");
        }
        let (first, hooks_parts) = &with[0];
        assert_eq!(files[first.index].path, "src/hooks.go");
        assert_eq!(hooks_parts.mentions, 1.0);
        assert!(hooks_parts.definitions >= 1.0);
        assert_eq!(hooks_parts.messages, 1.0);
        assert_eq!(hooks_parts.class, "source");
        assert_eq!(
            (hooks_parts.changes, hooks_parts.since_change),
            (2, Some(0))
        );
        assert_eq!(hooks_parts.history_commits, 3);
        let test_parts = with
            .iter()
            .find(|(r, _)| files[r.index].path == "src/hooks_test.go")
            .map(|(_, c)| c)
            .unwrap();
        assert_eq!((test_parts.prior, test_parts.changes), (0.4, 0));
        assert_eq!((hooks_parts.bonus, test_parts.bonus), (0.5, 0.0));
        assert_eq!(test_parts.since_change, None);
        let main_parts = with
            .iter()
            .find(|(r, _)| files[r.index].path == "src/main.go")
            .map(|(_, c)| c)
            .unwrap();
        assert_eq!((main_parts.changes, main_parts.since_change), (3, Some(0)));
        assert!(main_parts.cochange > 0.0, "{main_parts:?}");
    }

    #[test]
    fn a_weaker_match_in_source_ranks_above_a_stronger_one_in_a_test() {
        // the test names the config parser far more often than the source that holds it
        let source = FileTerms::of(
            "src/settings.py",
            "import os\n\ndef load(path):\n    return read_config(path)\n",
        );
        let test = FileTerms::of(
            "tests/test_settings.py",
            "def test_parse_config():\n    parse_config('a')\n    parse_config('b')\n    \
             parse_config('c')\n    parse_config('d')\n",
        );
        let files = [
            Candidate {
                path: "src/settings.py",
                terms: &source,
            },
            Candidate {
                path: "tests/test_settings.py",
                terms: &test,
            },
        ];
        let query = Query::parse("parse config fails on an empty file");
        // lexical evidence only: no reference-graph step between the two
        let signals = Signals::without("graph").unwrap();
        let with = rank_with_components(&query, &files, None, signals, 10);
        let path = |i: usize| files[with[i].0.index].path;
        assert_eq!(
            (path(0), path(1)),
            ("src/settings.py", "tests/test_settings.py")
        );
        // lexically the test is well over twice as strong: the prior's factor alone (0.4)
        // would put it first; the class bonus keeps source first
        let (source_parts, test_parts) = (&with[0].1, &with[1].1);
        assert!(
            test_parts.fields * test_parts.prior > source_parts.fields,
            "{source_parts:?} {test_parts:?}"
        );
        let off = Signals::without("graph,priors").unwrap();
        let without = rank(&query, &files, None, off, 10);
        assert_eq!(files[without[0].index].path, "tests/test_settings.py");
    }

    #[test]
    fn a_file_speaking_the_best_hits_words_is_lifted_and_the_hits_keep_their_place() {
        let mut texts = vec![
            (
                "src/sessions.py".to_string(),
                "def open_session(request):\n    cookie = request.cookies.get(name)\n    \
                 return serializer.loads(cookie, salt=signing_salt)\n\n\
                 def save_session(response):\n    \
                 response.set_cookie(serializer.dumps(data, salt=signing_salt))\n"
                    .to_string(),
            ),
            (
                "src/tokens.py".to_string(),
                "def make_token(data):\n    return serializer.dumps(data, salt=signing_salt)\n\n\
                 def read_token(value):\n    return serializer.loads(value, salt=signing_salt)\n"
                    .to_string(),
            ),
        ];
        for i in 0..8 {
            texts.push((
                format!("src/other{i}.py"),
                format!("def other{i}():\n    return value{i} + total{i}\n"),
            ));
        }
        let terms = terms_of(&texts);
        let files = candidates_of(&texts, &terms);
        let query = Query::parse("The session cookie expires too early");
        let path_of = |r: &Ranked| files[r.index].path;
        let off = Signals::without("feedback").unwrap();
        let without = rank(&query, &files, None, off, 10);
        assert_eq!(
            without.iter().map(path_of).collect::<Vec<_>>(),
            ["src/sessions.py"]
        );
        let ranked = rank(&query, &files, None, Signals::default(), 10);
        assert_eq!(
            ranked.iter().map(path_of).collect::<Vec<_>>(),
            ["src/sessions.py", "src/tokens.py"]
        );
        // the hit keeps its score; the file found through it, which shares no name the graph
        // follows, has the hit's words used twice or more (`serializer`, `salt`, `signing`)
        assert_eq!(ranked[0].evidence.echoes, 0);
        assert!(ranked[1].evidence.echoes >= 3, "{:?}", ranked[1].evidence);
        assert!(ranked[1].evidence.matched.is_empty());
        assert_eq!(ranked, rank(&query, &files, None, Signals::default(), 10));
        // a pack's ranking: the same order and scores, the evidence of the first only
        let explaining = rank_explaining(&query, &files, None, Signals::default(), 10, 1);
        assert_eq!(explaining[0], ranked[0]);
        assert_eq!(
            (explaining[1].index, explaining[1].score),
            (ranked[1].index, ranked[1].score)
        );
        assert_eq!(explaining[1].evidence, Evidence::default());
    }

    #[test]
    fn the_file_whose_names_others_use_is_central() {
        let core = FileTerms::of(
            "src/core.rs",
            "pub fn parse_config() {}\npub fn load_plugins() {}\n",
        );
        let a = FileTerms::of("src/a.rs", "fn a() { parse_config(); load_plugins(); }\n");
        let b = FileTerms::of("src/b.rs", "fn b() { parse_config(); }\n");
        let files = [
            Candidate {
                path: "src/a.rs",
                terms: &a,
            },
            Candidate {
                path: "src/b.rs",
                terms: &b,
            },
            Candidate {
                path: "src/core.rs",
                terms: &core,
            },
        ];
        let scores = centrality(&files, Signals::default());
        assert!(scores[2] > scores[0] && scores[2] > scores[1], "{scores:?}");
    }

    #[test]
    fn ranges_follow_definitions() {
        let text = "fn a() {\n    other();\n}\n\nfn run_hook() {\n    hook.run();\n}\n";
        let defs = [
            Definition {
                line: 1,
                name: "a",
                qualified: "a".into(),
            },
            Definition {
                line: 5,
                name: "run_hook",
                qualified: "run_hook".into(),
            },
        ];
        let (ranges, defined) = ranges(text, &Query::parse("run_hook"), &[], &defs, 3);
        assert_eq!(ranges, [(5, 7)]);
        assert_eq!(defined, ["run_hook"]);
    }

    fn definition(line: usize, name: &str) -> Definition<'_> {
        Definition {
            line,
            name,
            qualified: name.into(),
        }
    }

    #[test]
    fn ranges_weigh_the_querys_rare_words_over_a_common_one_repeated() {
        // `config` is on every line of the long function; the short one holds the rare words
        let mut text = String::from("fn load() {\n");
        for i in 0..30 {
            text.push_str(&format!("    config.set_{i}(config.get_{i}());\n"));
        }
        text.push_str("}\n\nfn unescape(value: &str) -> String {\n    parser.escape(value)\n}\n");
        let defs = [definition(1, "load"), definition(34, "unescape")];
        let query = Query::parse("the config parser forgets to escape values");
        // as rank_weighing gives them: `config` in most files, the others in few
        let idf: Vec<f64> = query
            .terms
            .iter()
            .map(|t| if t.word == "config" { 0.1 } else { 2.0 })
            .collect();
        let (ranges, _) = ranges(&text, &query, &idf, &defs, 1);
        assert_eq!(ranges, [(34, 36)]);
    }

    #[test]
    fn ranges_show_the_imports_before_the_first_definition() {
        let text = "use std::fmt;\nuse crate::escape::Escaper;\n\nfn run() {\n    go();\n}\n\nfn other() {\n    Escaper::new();\n}\n";
        let defs = [definition(4, "run"), definition(8, "other")];
        let (ranges, _) = ranges(
            text,
            &Query::parse("drop the Escaper import"),
            &[],
            &defs,
            3,
        );
        // the window stops where the first definition starts
        assert_eq!(ranges, [(1, 3), (8, 10)]);
        // and reads as one with a definition right after it
        let (joined, _) = super::ranges(text, &Query::parse("fmt go"), &[], &defs, 3);
        assert_eq!(joined, [(1, 7)]);
    }

    #[test]
    fn a_long_definition_shows_where_the_words_are() {
        let mut text = String::from("fn dispatch(event: Event, retry: Retry) {\n");
        for i in 0..200 {
            if i == 150 {
                text.push_str("    retry_backoff.reset();\n");
            } else {
                text.push_str(&format!("    step_{i}(event);\n"));
            }
        }
        text.push_str("}\n");
        let defs = [definition(1, "dispatch")];
        let (ranges, _) = ranges(
            &text,
            &Query::parse("reset the retry backoff"),
            &[],
            &defs,
            3,
        );
        // line 152 holds the words; the head, only `retry`, would end at line 80
        assert_eq!(ranges.len(), 1);
        let (start, end) = ranges[0];
        assert!(start <= 152 && 152 <= end && end - start < 80, "{ranges:?}");
    }

    #[test]
    fn ranges_of_bad_definitions_stay_in_the_text() {
        let text = "fn a() {\n    escape();\n}\n";
        let defs = [
            definition(0, "a"),
            definition(99, "escape"),
            definition(2, "b"),
        ];
        let (ranges, defined) = ranges(text, &Query::parse("escape"), &[], &defs, 3);
        // `b` at line 2 is the one definition in the text: its span is the text's rest
        assert_eq!(ranges, [(2, 3)]);
        assert!(defined.is_empty(), "{defined:?}");
    }
}
