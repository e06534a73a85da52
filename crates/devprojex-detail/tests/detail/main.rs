//! devprojex-detail's public behaviour: the API, faithfulness of every reduction, the expected
//! outputs of the language corpus, the queries, the languages' own parsers, and summaries.

mod api;
mod faithfulness;
mod golden;
mod queries;
mod real_parsers;
mod summaries;
