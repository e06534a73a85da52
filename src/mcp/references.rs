//! The `find_references` handler: parse, call the engine, wrap the result.

use std::time::Duration;

use rmcp::model::CallToolResult;

use super::server::{ServerState, TextAnswer, resolve_project};
use super::spotlight::Spotlight;
use crate::args::FindReferencesArgs;
use crate::engine::Hooks;
use crate::error::Result;
use crate::limits;

pub fn find_references(
    state: &ServerState,
    args: &FindReferencesArgs,
    hooks: Hooks<'_>,
) -> Result<CallToolResult> {
    let root = &resolve_project(state, args.project.as_deref(), args.branch.as_deref())?;
    let options = args.options(Some(Duration::from_secs(limits::SYMBOL_DEADLINE_SECS)));
    let outcome = state.engine.find_references(
        root,
        &args.request(),
        &options,
        Some(&state.caches),
        hooks.cancel_only(),
    )?;
    let nothing = (outcome.definitions.is_empty() && outcome.total == 0).then(|| {
        let near = if outcome.near_names.is_empty() {
            String::new()
        } else {
            let body = format!("near names: {}", outcome.near_names.join(", "));
            format!(" {}", Spotlight::new(&[&body]).wrap("near names", &body))
        };
        format!(
            "No definition or use of the name found in {} searched source files. Names are case-sensitive; find_symbol with match=substring lists definitions.{near}",
            outcome.searched_files
        )
    });
    let body = if nothing.is_some() {
        String::new()
    } else {
        crate::symbols::references_text(&outcome)
    };
    Ok(TextAnswer {
        what: "references",
        nothing,
        cut_note: "[References truncated at 50,000 characters. Lower max_results and page with offset, or narrow with at, kind, paths or include_patterns.]",
        notes: crate::symbols::references_trailer(&outcome, false),
        coverage: &outcome.coverage,
    }
    .render(&body))
}
