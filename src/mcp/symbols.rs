//! The `find_symbol` and `related_files` handlers.
//! Like every handler: parse and validate the arguments, call the engine, wrap the result.

use std::time::Duration;

use rmcp::model::CallToolResult;

use super::server::{ServerState, TextAnswer, resolve_project};
use crate::args::{FindSymbolArgs, RelatedFilesArgs};
use crate::engine::Hooks;
use crate::error::Result;
use crate::limits;
use crate::symbols::{RelatedOptions, SymbolOptions};

pub fn find_symbol(
    state: &ServerState,
    args: &FindSymbolArgs,
    hooks: Hooks<'_>,
) -> Result<CallToolResult> {
    let root = &resolve_project(state, args.project.as_deref(), args.branch.as_deref())?;
    let request = args.request();
    let name = args.lookup()?;
    if let Some(path) = &args.outline {
        return outline(state, root, args, path);
    }
    let options = SymbolOptions {
        name: name.to_string(),
        kind: args.kind,
        mode: args.match_mode,
        max_results: args.max_results as usize,
        deadline: Some(Duration::from_secs(limits::SYMBOL_DEADLINE_SECS)),
        include_body: args.include_body,
    };
    let outcome = state.engine.find_symbol(
        root,
        &request,
        &options,
        Some(&state.caches),
        hooks.cancel_only(),
    )?;
    Ok(TextAnswer {
        what: "definitions",
        nothing: outcome.hits.is_empty().then(|| {
            format!(
                "No definitions found in {} searched source files.",
                outcome.searched_files
            )
        }),
        cut_note: "[Definitions truncated at 50,000 characters. Narrow with include_patterns or kind, or lower max_results.]",
        notes: crate::symbols::symbols_trailer(&outcome, options.max_results, false),
        coverage: &outcome.coverage,
    }
    .render(&crate::symbols::symbols_text(&outcome)))
}

/// `find_symbol` `outline`: one file's definitions in order.
fn outline(
    state: &ServerState,
    root: &crate::project::ProjectRoot,
    args: &FindSymbolArgs,
    path: &str,
) -> Result<CallToolResult> {
    let entries = state
        .engine
        .outline(root, &args.request(), path, args.kind)?;
    Ok(TextAnswer {
        what: "outline",
        nothing: entries
            .is_empty()
            .then(|| "No definitions in this file.".to_string()),
        cut_note: "[Outline truncated at 50,000 characters. Narrow with kind.]",
        notes: Vec::new(),
        coverage: &crate::coverage::Coverage::default(),
    }
    .render(&crate::symbols::outline_text(&entries)))
}

pub fn related_files(
    state: &ServerState,
    args: &RelatedFilesArgs,
    hooks: Hooks<'_>,
) -> Result<CallToolResult> {
    let root = &resolve_project(state, args.project.as_deref(), args.branch.as_deref())?;
    let options = RelatedOptions {
        path: args.path.clone(),
        direction: args.direction,
        depth: args.depth as usize,
        max_results: args.max_results as usize,
        deadline: Some(Duration::from_secs(limits::SYMBOL_DEADLINE_SECS)),
    };
    let outcome = state.engine.related_files(
        root,
        &args.request(),
        &options,
        Some(&state.caches),
        hooks.cancel_only(),
    )?;
    Ok(TextAnswer {
        what: "related files",
        nothing: None,
        cut_note: "[Related files truncated at 50,000 characters. Lower depth or max_results, or choose one direction.]",
        notes: crate::symbols::related_trailer(&outcome, options.max_results, false),
        coverage: &outcome.coverage,
    }
    .render(&crate::symbols::related_text(&outcome)))
}
