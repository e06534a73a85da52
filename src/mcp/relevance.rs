//! The `relevant_files` handler. Like every handler: parse and validate the arguments, call
//! the engine, wrap the result.

use rmcp::model::CallToolResult;

use super::server::{
    RESPONSE_CHAR_LIMIT, ServerState, append_trailer, cut_to_chars, resolve_project, text_result,
};
use super::spotlight::Spotlight;
use crate::args::RelevantFilesArgs;
use crate::coverage::Coverage;
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
        Hooks {
            progress: None,
            cancelled: hooks.cancelled,
        },
    )?;
    let (body, size_cut) = cut_to_chars(&relevance_text(&outcome), RESPONSE_CHAR_LIMIT);
    let mut text = if outcome.files.is_empty() {
        format!(
            "No file of the {} searched text files matches the query.",
            outcome.searched_files
        )
    } else {
        Spotlight::new(&[&body]).wrap("ranked files", &body)
    };
    let mut trailer = Vec::new();
    if size_cut {
        trailer.push("[Ranked files truncated at 50,000 characters. Lower max_results or narrow with include_patterns.]".to_string());
    }
    trailer.extend(relevance_trailer(&outcome, false));
    let covered = Coverage {
        withheld_files: outcome.withheld_files as u64,
        unreadable_files: outcome.unreadable_files as u64,
        warnings: outcome.warnings.clone(),
        stopped: None,
        ..Coverage::default()
    };
    append_trailer(&mut text, trailer, &covered);
    Ok(text_result(vec![text]))
}
