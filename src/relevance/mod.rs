//! `relevant_files` (and `pack --query`): the engine side of `devprojex-rank`.
//!
//! The ranker sees the effective selection through the same open-verify-read path as every
//! other tool: each text file is read, redacted and tokenized once into its terms
//! ([`devprojex_rank::FileTerms`], kept by the server in [`index::RelevanceIndex`]); HEAD's
//! history is read once per HEAD, its messages redacted. The answer's reasons and line ranges
//! come from the redacted text of the ranked files, read again, and their real definitions.
//!
//! No oracle on secrets (issue 35): every file of the selection is tokenized from its redacted
//! text whatever the query, and commit messages are redacted before they are tokenized, so
//! neither the ranking nor the time it takes depends on what a secret holds.

pub(crate) mod index;
mod pack;
mod render;

use std::sync::{Arc, Mutex, PoisonError};

use devprojex_detail::Detail;
use devprojex_rank::{Candidate, FileTerms, History, Query, Ranked, Signals};
use rayon::prelude::*;
use serde::Serialize;

use crate::caches::Caches;
use crate::content::Content;
use crate::coverage::Coverage;
use crate::engine::{Engine, Hooks, Request};
use crate::error::{DpxError, Result};
use crate::limits;
use crate::project::ProjectRoot;
use crate::select::Entry;

pub use index::RelevanceIndex;
pub(crate) use pack::order_of;
pub use render::{relevance_text, relevance_trailer};

/// How `pack_context` orders its files when asked to (default: path order).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, schemars::JsonSchema, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum PackRank {
    /// By relevance to `query` (the default when a query is given).
    Relevance,
    /// The most central files first (whose definitions the most other files use): a
    /// repository map, without a query.
    Centrality,
    /// In the order of `paths` (an extension: the spec's packs take files in path order): the
    /// files of the first entry, then of the second, and so on, each entry's in path order.
    Paths,
}

/// `relevant_files` parameters.
#[derive(Debug, Clone)]
pub struct RelevanceOptions {
    pub query: String,
    pub max_results: usize,
}

/// An inclusive 1-based line range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LineRange {
    pub start: usize,
    pub end: usize,
}

/// One ranked file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RelevantFile {
    pub path: String,
    /// In (0, 1]; the best file has 1.
    pub score: f64,
    pub reasons: Vec<String>,
    pub ranges: Vec<LineRange>,
}

/// The outcome of a ranking.
#[derive(Debug, Clone, Default)]
pub struct RelevanceOutcome {
    pub files: Vec<RelevantFile>,
    /// Text files of the selection that were ranked.
    pub searched_files: usize,
    /// Commits of HEAD's history that took part (0: no Git history).
    pub history_commits: usize,
    /// Withheld and unreadable files and the selection's warnings.
    pub coverage: Coverage,
}

/// The ranked selection before it is shown: what `pack --query` orders by.
pub(crate) struct Ranking {
    /// Each ranked file's entry, best first.
    pub ranked: Vec<(Entry, Ranked)>,
    pub query: Query,
    /// Each query term's idf over the ranked selection (for the line ranges).
    pub idf: Vec<f64>,
    pub outcome: RelevanceOutcome,
}

/// A query checked and parsed: not empty, at most [`limits::MAX_QUERY_CHARS`], text.
pub fn parse_query(text: &str) -> Result<Query> {
    let chars = text.chars().count();
    if chars > limits::MAX_QUERY_CHARS {
        return Err(DpxError::invalid_arguments(format!(
            "query has {chars} characters; at most {} are allowed. Pass the task's summary, or the key identifiers and file names",
            limits::MAX_QUERY_CHARS
        )));
    }
    if text
        .chars()
        .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
    {
        return Err(DpxError::invalid_arguments(
            "query contains binary data (a NUL or control character); pass the task as text, such as 'fix the crash in parse_args when the config is empty'",
        ));
    }
    if text.trim().is_empty() {
        return Err(DpxError::invalid_arguments(
            "query is empty; pass the task as text, such as 'fix the crash in parse_args when the config is empty'",
        ));
    }
    let query = Query::parse(text);
    if query.is_empty() {
        return Err(DpxError::invalid_arguments(
            "query has no word to rank by (only punctuation or common words); name what the task is about: identifiers, file names or topics",
        ));
    }
    Ok(query)
}

/// Signals switched off for the benchmark's ablation (`DEVPROJEX_RANK_WITHOUT=messages,...`);
/// a name that is not a signal fails the ranking rather than measure the whole ranker.
pub(crate) fn signals() -> Result<Signals> {
    let Some(list) = std::env::var_os("DEVPROJEX_RANK_WITHOUT") else {
        return Ok(Signals::default());
    };
    Signals::without(&list.to_string_lossy()).map_err(|unknown| {
        DpxError::invalid_arguments(format!(
            "DEVPROJEX_RANK_WITHOUT names '{}', which is not a signal; name only these, comma-separated, or unset it: {}",
            unknown.escape_debug(),
            Signals::NAMES.join(", ")
        ))
    })
}

/// Candidates whose signal components `DEVPROJEX_RANK_FEATURES` writes per query.
const FEATURE_CANDIDATES: usize = 100;
/// Files larger than this are explained one at a time, by their densest lines without their
/// definitions (`explain`).
const EXPLAIN_ALONE_BYTES: u64 = 1024 * 1024;

/// For fitting the ranker's weights on the benchmark (`DEVPROJEX_RANK_FEATURES=FILE.jsonl`,
/// like `DEVPROJEX_RANK_WITHOUT` a knob of the benchmark only, not an option): appends one JSON
/// line per ranking to FILE with each of the best [`FEATURE_CANDIDATES`] files' signal
/// components before they are combined. What it writes is what the ranking read: paths and
/// numbers, no file text. A write that fails is ignored: the answer does not depend on it.
fn dump_features(
    path: &std::path::Path,
    query: &Query,
    candidates: &[Candidate<'_>],
    history: Option<&History>,
    signals: Signals,
) {
    use std::io::Write;
    let files: Vec<serde_json::Value> = devprojex_rank::rank_with_components(
        query,
        candidates,
        history,
        signals,
        FEATURE_CANDIDATES,
    )
    .into_iter()
    .map(|(ranked, components)| {
        let mut file = serde_json::json!({
            "path": candidates[ranked.index].path,
            "score": ranked.score,
        });
        if let (Some(file), Ok(serde_json::Value::Object(components))) =
            (file.as_object_mut(), serde_json::to_value(components))
        {
            file.extend(components);
        }
        file
    })
    .collect();
    let line = serde_json::json!({ "searched_files": candidates.len(), "files": files });
    if let Ok(mut file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        let _ = writeln!(file, "{line}");
    }
}

impl Engine {
    /// The files of the selection ranked for `options.query`, with reasons and line ranges.
    pub fn relevant_files(
        &self,
        root: &ProjectRoot,
        request: &Request,
        options: &RelevanceOptions,
        caches: Option<&Caches>,
        hooks: Hooks<'_>,
    ) -> Result<RelevanceOutcome> {
        if options.max_results == 0 || options.max_results > limits::MAX_RELEVANT_RESULTS {
            return Err(DpxError::invalid_arguments(format!(
                "max_results is {}; it must be between 1 and {}",
                options.max_results,
                limits::MAX_RELEVANT_RESULTS
            )));
        }
        let query = parse_query(&options.query)?;
        let ranking =
            self.rank_selection(root, request, &query, options.max_results, caches, hooks)?;
        self.explain(root, ranking, caches, hooks)
    }

    /// Rank the selection's text files; the best `max_results`.
    pub(crate) fn rank_selection(
        &self,
        root: &ProjectRoot,
        request: &Request,
        query: &Query,
        max_results: usize,
        caches: Option<&Caches>,
        hooks: Hooks<'_>,
    ) -> Result<Ranking> {
        let signals = signals()?;
        let (_, selection) = self.select(root, request, caches)?;
        let entries: Vec<&Entry> = selection.files().filter(|e| !e.binary).collect();
        let mut outcome = RelevanceOutcome {
            coverage: Coverage::of(&selection.warnings),
            ..RelevanceOutcome::default()
        };
        let terms = self.file_terms(root, &entries, caches, hooks, &mut outcome)?;
        let history = self.history(root, caches);
        outcome.history_commits = history.as_ref().map_or(0, |h| h.len());
        let (kept, candidates): (Vec<&Entry>, Vec<Candidate<'_>>) = entries
            .iter()
            .zip(&terms)
            .filter_map(|(entry, terms)| {
                Some((
                    *entry,
                    Candidate {
                        path: &entry.relative,
                        terms: terms.as_deref()?,
                    },
                ))
            })
            .unzip();
        outcome.searched_files = candidates.len();
        let (ranked, idf) = devprojex_rank::rank_weighing(
            query,
            &candidates,
            history.as_deref(),
            signals,
            max_results,
        );
        if let Some(path) = std::env::var_os("DEVPROJEX_RANK_FEATURES") {
            dump_features(
                std::path::Path::new(&path),
                query,
                &candidates,
                history.as_deref(),
                signals,
            );
        }
        let ranked = ranked
            .into_iter()
            .map(|r| (kept[r.index].clone(), r))
            .collect();
        Ok(Ranking {
            ranked,
            query: query.clone(),
            idf,
            outcome,
        })
    }

    /// Each entry's terms: kept ones when the server has them unchanged, else read, redacted
    /// and tokenized (in parallel).
    pub(crate) fn file_terms(
        &self,
        root: &ProjectRoot,
        entries: &[&Entry],
        caches: Option<&Caches>,
        hooks: Hooks<'_>,
        outcome: &mut RelevanceOutcome,
    ) -> Result<Vec<Option<Arc<FileTerms>>>> {
        let index = caches.map(|c| &c.relevance);
        let mut terms = match index {
            Some(index) => index.lookup(&root.path, entries),
            None => vec![None; entries.len()],
        };
        let missing: Vec<usize> = (0..entries.len()).filter(|&i| terms[i].is_none()).collect();
        let pipeline = self.pipeline(Detail::Full, caches);
        let read_at = index::now_ns();
        enum Read {
            Terms(Arc<FileTerms>),
            Withheld,
            Unreadable,
            Skipped,
        }
        let cancelled = || hooks.cancelled.is_some_and(|c| c());
        let read: Vec<Read> = missing
            .par_iter()
            .map(|&i| {
                if cancelled() {
                    return Read::Skipped;
                }
                let entry = entries[i];
                match pipeline.load(root, entry) {
                    Content::Text(text) => {
                        Read::Terms(Arc::new(FileTerms::of(&entry.relative, &text.text)))
                    }
                    Content::Withheld => Read::Withheld,
                    Content::Unreadable => Read::Unreadable,
                    Content::Binary | Content::Measured(_) => Read::Skipped,
                }
            })
            .collect();
        if cancelled() {
            return Err(DpxError::cancelled());
        }
        let mut fresh = Vec::new();
        for (&i, read) in missing.iter().zip(read) {
            match read {
                Read::Terms(t) => {
                    fresh.push((entries[i], Arc::clone(&t)));
                    terms[i] = Some(t);
                }
                Read::Withheld => outcome.coverage.withheld_files += 1,
                Read::Unreadable => outcome.coverage.unreadable_files += 1,
                Read::Skipped => {}
            }
        }
        if let Some(index) = index {
            index.store(&root.path, fresh, read_at);
        }
        Ok(terms)
    }

    /// HEAD's history (once per HEAD in the server); `None` outside a Git checkout.
    pub(crate) fn history(
        &self,
        root: &ProjectRoot,
        caches: Option<&Caches>,
    ) -> Option<Arc<History>> {
        let head = devprojex_git::head_commit(&root.path).ok()??;
        if let Some(kept) = caches.and_then(|c| c.relevance.history(&root.path, &head)) {
            return Some(kept);
        }
        let commits =
            devprojex_git::head_history(&root.path, limits::RELEVANCE_HISTORY_COMMITS).ok()?;
        // Messages are redacted like file text: a secret pasted into a commit message must not
        // move a ranking that a query spelling it could observe (issue 35's oracle).
        let redactor = self.redactor();
        let history = Arc::new(History::build(commits.into_iter().map(|c| {
            devprojex_rank::Commit {
                id: c.id,
                message: redactor.redact(&c.message).text.into_owned(),
                files: c.files,
                merge: c.merge,
            }
        })));
        if let Some(caches) = caches {
            caches
                .relevance
                .store_history(&root.path, head, Arc::clone(&history));
        }
        Some(history)
    }

    /// Reasons and line ranges of the ranked files, from their redacted text.
    fn explain(
        &self,
        root: &ProjectRoot,
        ranking: Ranking,
        caches: Option<&Caches>,
        hooks: Hooks<'_>,
    ) -> Result<RelevanceOutcome> {
        let Ranking {
            ranked,
            query,
            idf,
            mut outcome,
        } = ranking;
        let pipeline = self.pipeline(Detail::Full, caches);
        let large_file = Mutex::new(());
        let files: Vec<RelevantFile> = ranked
            .par_iter()
            .map(|(entry, ranked)| {
                // a large file's text, its redaction and its ranges take tens of MB while they
                // are worked on: one at a time, so two never add up (the kernel's 4 MB register
                // headers, two of them in one answer, set the server's peak)
                let _one_at_a_time = (entry.size > EXPLAIN_ALONE_BYTES)
                    .then(|| large_file.lock().unwrap_or_else(PoisonError::into_inner));
                let path = &entry.relative;
                let text = match pipeline.load(root, entry) {
                    Content::Text(text) => Some(text.text),
                    _ => None,
                };
                let (ranges, defined) = match text {
                    // parsing a large file takes many times its size (the kernel's generated
                    // register headers, 100,000 `#define`s each): its densest lines show it
                    Some(text) if entry.size > EXPLAIN_ALONE_BYTES => devprojex_rank::ranges(
                        &text,
                        &query,
                        &idf,
                        &[],
                        limits::MAX_RELEVANT_RANGES,
                    ),
                    Some(text) => {
                        let definitions = match caches {
                            Some(caches) => caches
                                .symbols
                                .definitions(path, &text, &|| false)
                                .and_then(Result::ok),
                            None => devprojex_symbols::definitions(path, &text).map(Arc::new),
                        };
                        let shown: Vec<devprojex_rank::Definition<'_>> = definitions
                            .as_deref()
                            .map(|defs| {
                                defs.iter()
                                    .map(|d| devprojex_rank::Definition {
                                        line: d.line,
                                        name: &d.name,
                                        qualified: match d.scope.iter().last() {
                                            Some(container) => {
                                                format!("{container}.{}", d.name)
                                            }
                                            None => d.name.clone(),
                                        },
                                    })
                                    .collect()
                            })
                            .unwrap_or_default();
                        devprojex_rank::ranges(
                            &text,
                            &query,
                            &idf,
                            &shown,
                            limits::MAX_RELEVANT_RANGES,
                        )
                    }
                    None => (Vec::new(), Vec::new()),
                };
                RelevantFile {
                    path: self.label(path),
                    score: (ranked.score * 1000.0).round() / 1000.0,
                    reasons: render::reasons(&ranked.evidence, &defined, &|p| self.label(p)),
                    ranges: ranges
                        .into_iter()
                        .map(|(start, end)| LineRange { start, end })
                        .collect(),
                }
            })
            .collect();
        if hooks.cancelled.is_some_and(|c| c()) {
            return Err(DpxError::cancelled());
        }
        outcome.files = files;
        Ok(outcome)
    }
}
