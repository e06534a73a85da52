//! The `find_references` handler: parse, call the engine, wrap the result.

use std::time::Duration;

use rmcp::model::CallToolResult;

use super::server::{
    RESPONSE_CHAR_LIMIT, ServerState, append_trailer, cut_to_chars, resolve_project, text_result,
};
use super::spotlight::Spotlight;
use crate::args::FindReferencesArgs;
use crate::coverage::Coverage;
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
        Hooks {
            progress: None,
            cancelled: hooks.cancelled,
        },
    )?;
    let mut trailer = Vec::new();
    let mut text = if outcome.definitions.is_empty() && outcome.total == 0 {
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
    } else {
        let (body, size_cut) = cut_to_chars(
            &crate::symbols::references_text(&outcome),
            RESPONSE_CHAR_LIMIT,
        );
        if size_cut {
            trailer.push("[References truncated at 50,000 characters. Lower max_results and page with offset, or narrow with at, kind, paths or include_patterns.]".to_string());
        }
        Spotlight::new(&[&body]).wrap("references", &body)
    };
    trailer.extend(crate::symbols::references_trailer(&outcome, false));
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
