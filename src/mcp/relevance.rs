//! The `relevant_files` handler. Like every handler: parse and validate the arguments, call
//! the engine, wrap the result.

use rmcp::model::CallToolResult;

use super::server::{ServerState, TextAnswer, resolve_project};
use crate::args::RelevantFilesArgs;
use crate::engine::Hooks;
use crate::error::Result;
use crate::relevance::{RelevanceOptions, relevance_text, relevance_trailer};

pub fn relevant_files(
    state: &ServerState,
    args: &RelevantFilesArgs,
    hooks: Hooks<'_>,
) -> Result<CallToolResult> {
    let root = &resolve_project(state, args.project.as_deref(), args.branch.as_deref())?;
    let options = RelevanceOptions {
        query: args.query.clone(),
        max_results: args.max_results as usize,
    };
    let outcome = state.engine.relevant_files(
        root,
        &args.request(),
        &options,
        Some(&state.caches),
        hooks.cancel_only(),
    )?;
    Ok(TextAnswer {
        what: "ranked files",
        nothing: outcome.files.is_empty().then(|| {
            format!(
                "No file of the {} searched text files matches the query.",
                outcome.searched_files
            )
        }),
        cut_note: "[Ranked files truncated at 50,000 characters. Lower max_results or narrow with include_patterns.]",
        notes: relevance_trailer(&outcome, false),
        coverage: &outcome.coverage,
    }
    .render(&relevance_text(&outcome)))
}
