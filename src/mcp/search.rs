//! The `search_project` handler: match lines (paged with `offset`), or the matching files
//! (`output: files | count`), and the trailers that say what was left out and how to get it.

use std::time::Duration;

use rmcp::model::CallToolResult;

use super::server::{RESPONSE_CHAR_LIMIT, ServerState, append_trailer, cut_to_chars, text_result};
use super::spotlight::Spotlight;
use crate::args::SearchProjectArgs;
use crate::coverage::Stop;
use crate::engine::{Hooks, SearchOutcome, SearchOutput};
use crate::error::Result;
use crate::limits;
use crate::select::plural;

/// Files named in the block of a capped answer's left-out matches.
const LEFT_OUT_SHOWN: usize = 5;

pub(super) fn search_project(
    state: &ServerState,
    args: &SearchProjectArgs,
    hooks: Hooks<'_>,
) -> Result<CallToolResult> {
    let root =
        &super::server::resolve_project(state, args.project.as_deref(), args.branch.as_deref())?;
    let request = args.request();
    let mut options = args.options(Some(Duration::from_secs(limits::SEARCH_DEADLINE_SECS)));
    options.count_left_out = true;
    let outcome = state.engine.search(
        root,
        &request,
        &options,
        Some(&state.caches),
        hooks.cancel_only(),
    )?;
    let listing = options.output != SearchOutput::Matches;
    let rendered = if listing {
        crate::render::search::file_lines(&outcome.files, options.output == SearchOutput::Count)
    } else {
        crate::render::search::grep_lines(&outcome.groups, options.context_lines > 0)
    };
    let (body, size_cut) = cut_to_chars(&rendered, RESPONSE_CHAR_LIMIT);
    let left_out = (!listing && outcome.coverage.stopped == Some(Stop::MaxResults))
        .then(|| {
            let shown = &outcome.left_out[..outcome.left_out.len().min(LEFT_OUT_SHOWN)];
            crate::render::search::file_lines(shown, true)
        })
        .filter(|block| !block.is_empty());
    let spotlight = Spotlight::new(&[&body, left_out.as_deref().unwrap_or_default()]);
    let mut text = if body.is_empty() {
        nothing_found(&outcome, options.offset)
    } else {
        spotlight.wrap(
            match options.output {
                SearchOutput::Matches => "search results",
                SearchOutput::Files => "files with matches",
                SearchOutput::Count => "match counts",
            },
            &body,
        )
    };
    if let Some(block) = &left_out {
        text.push('\n');
        text.push_str(&spotlight.wrap(
            "files with the most matches left out (path:matches)",
            block.trim_end_matches('\n'),
        ));
    }
    let mut notes = Vec::new();
    if size_cut {
        notes.push("[Search output truncated at 50,000 characters. Narrow with include_patterns or paths, lower context_lines, or refine the pattern.]".to_string());
    }
    if listing && !outcome.left_out.is_empty() {
        let first = options.offset + 1;
        let last = options.offset + outcome.files.len();
        notes.push(format!(
            "[Showing files {first}-{last} of {}. Next: call search_project with offset={last}.]",
            last + outcome.left_out.len()
        ));
    }
    match outcome.coverage.stopped {
        Some(Stop::MaxResults) if !listing => notes.push(format!(
            "[Search truncated at max_results={} ({}). Next: call search_project with offset={}, or narrow the search.]",
            options.max_results,
            plural(outcome.matches, "matching line", "matching lines"),
            options.offset + outcome.matches
        )),
        Some(Stop::Deadline) if !body.is_empty() => notes.push(format!(
            "[Search truncated at the 2-second time limit: {}. Narrow with include_patterns or exclude_patterns.]",
            how_far(&outcome)
        )),
        _ => {}
    }
    append_trailer(&mut text, notes, &outcome.coverage);
    Ok(text_result(vec![text]))
}

/// The answer without results.
fn nothing_found(outcome: &SearchOutcome, offset: usize) -> String {
    if outcome.coverage.stopped == Some(Stop::Deadline) {
        return format!(
            "No matches before the 2-second time limit: {}.",
            how_far(outcome)
        );
    }
    if offset > 0 && outcome.matches > 0 {
        return format!(
            "Nothing past offset={offset}: the search has {} in {}.",
            plural(outcome.matches, "match", "matches"),
            plural(outcome.files_with_matches, "file", "files")
        );
    }
    format!(
        "No matches in {} searched.",
        plural(outcome.searched_files, "file", "files")
    )
}

/// How much a search stopped by its time limit searched.
fn how_far(outcome: &SearchOutcome) -> String {
    let mut said = format!(
        "searched {} of {} completely",
        outcome.searched_files,
        plural(outcome.selected_files, "file", "files")
    );
    if let Some(percent) = outcome.partly_searched_percent {
        said.push_str(&format!(" and {percent} % of the next"));
    }
    said
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coverage::Coverage;

    /// A search stopped by its time limit inside its only file says how far it got, not
    /// "no matches in the 0 files searched".
    #[test]
    fn a_timed_out_search_says_how_much_it_searched() {
        let outcome = SearchOutcome {
            selected_files: 1,
            partly_searched_percent: Some(61),
            coverage: Coverage {
                stopped: Some(Stop::Deadline),
                ..Coverage::default()
            },
            ..SearchOutcome::default()
        };
        assert_eq!(
            nothing_found(&outcome, 0),
            "No matches before the 2-second time limit: searched 0 of 1 file completely and 61 % of the next."
        );
    }
}
