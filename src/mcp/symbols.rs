//! The `find_symbol` and `related_files` handlers.
//! Like every handler: parse and validate the arguments, call the engine, wrap the result.

use std::time::Duration;

use rmcp::model::CallToolResult;

use super::server::{
    RESPONSE_CHAR_LIMIT, ServerState, append_trailer, cut_to_chars, resolve_project, text_result,
};
use super::spotlight::Spotlight;
use crate::args::{FindSymbolArgs, RelatedFilesArgs};
use crate::coverage::Coverage;
use crate::engine::Hooks;
use crate::error::Result;
use crate::limits;
use crate::select::SelectionWarnings;
use crate::symbols::{RelatedOptions, SymbolOptions};

/// What a lookup covered (its stop is in the tool's own trailer line).
fn coverage(withheld: usize, unreadable: usize, warnings: &SelectionWarnings) -> Coverage {
    Coverage {
        withheld_files: withheld as u64,
        unreadable_files: unreadable as u64,
        warnings: warnings.clone(),
        stopped: None,
        ..Coverage::default()
    }
}

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
        Hooks {
            progress: None,
            cancelled: hooks.cancelled,
        },
    )?;
    let (body, size_cut) =
        cut_to_chars(&crate::symbols::symbols_text(&outcome), RESPONSE_CHAR_LIMIT);
    let mut text = if outcome.hits.is_empty() {
        format!(
            "No definitions found in {} searched source files.",
            outcome.searched_files
        )
    } else {
        Spotlight::new(&[&body]).wrap("definitions", &body)
    };
    let mut trailer = Vec::new();
    if size_cut {
        trailer.push("[Definitions truncated at 50,000 characters. Narrow with include_patterns or kind, or lower max_results.]".to_string());
    }
    trailer.extend(crate::symbols::symbols_trailer(
        &outcome,
        options.max_results,
        false,
    ));
    let covered = coverage(
        outcome.withheld_files,
        outcome.unreadable_files,
        &outcome.warnings,
    );
    append_trailer(&mut text, trailer, &covered);
    Ok(text_result(vec![text]))
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
    if entries.is_empty() {
        return Ok(text_result(vec![
            "[No definitions in this file.]".to_string(),
        ]));
    }
    let (body, size_cut) =
        cut_to_chars(&crate::symbols::outline_text(&entries), RESPONSE_CHAR_LIMIT);
    let mut text = Spotlight::new(&[&body]).wrap("outline", &body);
    let mut trailer = Vec::new();
    if size_cut {
        trailer.push(format!(
            "[Outline truncated at 50,000 characters ({} definitions in all). Narrow with kind.]",
            entries.len()
        ));
    }
    append_trailer(&mut text, trailer, &Coverage::default());
    Ok(text_result(vec![text]))
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
        Hooks {
            progress: None,
            cancelled: hooks.cancelled,
        },
    )?;
    let (body, size_cut) =
        cut_to_chars(&crate::symbols::related_text(&outcome), RESPONSE_CHAR_LIMIT);
    let mut text = Spotlight::new(&[&body]).wrap("related files", &body);
    let mut trailer = Vec::new();
    if size_cut {
        trailer.push("[Related files truncated at 50,000 characters. Lower depth or max_results, or choose one direction.]".to_string());
    }
    trailer.extend(crate::symbols::related_trailer(
        &outcome,
        options.max_results,
        false,
    ));
    let covered = coverage(
        outcome.withheld_files,
        outcome.unreadable_files,
        &outcome.warnings,
    );
    append_trailer(&mut text, trailer, &covered);
    Ok(text_result(vec![text]))
}
