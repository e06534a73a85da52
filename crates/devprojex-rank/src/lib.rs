//! Which files of a project matter for a task: a deterministic, offline ranker (no model, no
//! LLM) over views of files the caller has already read and redacted.
//!
//! - [`terms`]: each file tokenized once into term counts per field (path, defined names,
//!   text), identifiers split at `snake_case` and `camelCase` boundaries.
//! - [`history`]: HEAD's commits: messages that match the query, files that change together.
//! - [`rank`]: BM25F over the fields, files the query names, history, priors; and the line
//!   ranges of a file that matter most.
//!
//! Pure functions of their inputs: no I/O, same input, same order.

#![deny(unsafe_code)]

pub mod history;
pub mod rank;
pub mod terms;

pub use history::{ChangeRef, Commit, History};
pub use rank::{
    Candidate, Components, Definition, Evidence, FileClass, Query, Ranked, Signals, centrality,
    ranges, rank, rank_explaining, rank_weighing, rank_with_components,
};
pub use terms::FileTerms;
