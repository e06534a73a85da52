//! The `find_symbol` and `related_files` handlers and the schema properties only they have.
//! Like every handler: parse and validate the arguments, call the engine, wrap the result.

use std::time::Duration;

use rmcp::model::CallToolResult;
use serde_json::{Value, json};

use super::args::ToolArgs;
use super::server::{
    RESPONSE_CHAR_LIMIT, ServerState, cut_to_chars, resolve_project, selection_request, text_result,
};
use super::spotlight::Spotlight;
use crate::engine::{Hooks, partial_content_notice};
use crate::error::Result;
use crate::symbols::{
    Direction, KIND_NAMES, MatchMode, RelatedOptions, SymbolOptions, limits, parse_kind,
};

/// Schema properties of the two tools (`None`: the shared definition in `tools.rs`).
pub fn property(tool: &str, name: &str) -> Option<Value> {
    Some(match (tool, name) {
        ("find_symbol", "name") => {
            json!({"type": "string", "minLength": 1, "maxLength": limits::MAX_NAME_CHARS, "description": "The name to look up, case-sensitive, such as 'copy_process'. Qualify it to narrow by container: 'Parser.parse', 'net::Parser::parse'."})
        }
        ("find_symbol", "kind") => {
            json!({"type": "string", "enum": KIND_NAMES, "description": "Only definitions of this kind (default: all). 'trait' and 'interface' match each other."})
        }
        ("find_symbol", "match") => {
            json!({"type": "string", "enum": ["exact", "prefix", "substring"], "description": "How name is compared with definition names (default exact)."})
        }
        ("find_symbol", "max_results") => {
            json!({"type": "integer", "minimum": 1, "maximum": limits::MAX_RESULTS, "description": "Maximum definitions (default 50, at most 200)."})
        }
        ("related_files", "path") => {
            json!({"type": "string", "minLength": 1, "maxLength": 4096, "description": "Project-relative path of the source file whose imports and importers to list."})
        }
        ("related_files", "direction") => {
            json!({"type": "string", "enum": ["imports", "importers", "both"], "description": "imports: what the file uses; importers: what uses it; both (default)."})
        }
        ("related_files", "depth") => {
            json!({"type": "integer", "minimum": 1, "maximum": limits::MAX_DEPTH, "description": "Follow imports this many steps (default 1, at most 3)."})
        }
        ("related_files", "max_results") => {
            json!({"type": "integer", "minimum": 1, "maximum": limits::MAX_RESULTS, "description": "Maximum related files, imports and importers together (default 50, at most 200)."})
        }
        _ => return None,
    })
}

fn max_results(args: &ToolArgs) -> Result<usize> {
    Ok(args
        .integer("max_results", 1, limits::MAX_RESULTS as u64)?
        .unwrap_or(limits::DEFAULT_RESULTS as u64) as usize)
}

fn with_trailer(mut text: String, trailer: Vec<String>) -> String {
    for line in trailer {
        text.push('\n');
        text.push_str(&line);
    }
    text
}

pub fn find_symbol(
    state: &ServerState,
    args: &ToolArgs,
    hooks: Hooks<'_>,
) -> Result<CallToolResult> {
    let name = args.required_string("name", limits::MAX_NAME_CHARS)?;
    let root = &resolve_project(state, args)?;
    let request = selection_request(args, false)?;
    let options = SymbolOptions {
        name,
        kind: args
            .choice("kind", &KIND_NAMES)?
            .and_then(|k| parse_kind(&k)),
        mode: args
            .choice("match", &["exact", "prefix", "substring"])?
            .and_then(|m| MatchMode::parse(&m))
            .unwrap_or_default(),
        max_results: max_results(args)?,
        deadline: Some(Duration::from_secs(limits::DEADLINE_SECS)),
    };
    let outcome = state.engine.find_symbol(
        root,
        &request,
        &options,
        Hooks {
            progress: None,
            cancelled: hooks.cancelled,
        },
    )?;
    let (body, size_cut) =
        cut_to_chars(&crate::symbols::symbols_text(&outcome), RESPONSE_CHAR_LIMIT);
    let text = if outcome.hits.is_empty() {
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
    trailer.extend(outcome.warnings.messages());
    trailer.extend(partial_content_notice(
        outcome.withheld_files as u64,
        outcome.unreadable_files as u64,
    ));
    Ok(text_result(vec![with_trailer(text, trailer)]))
}

pub fn related_files(
    state: &ServerState,
    args: &ToolArgs,
    hooks: Hooks<'_>,
) -> Result<CallToolResult> {
    let path = args.required_string("path", crate::engine::limits::MAX_PATH_CHARS)?;
    let root = &resolve_project(state, args)?;
    let options = RelatedOptions {
        path,
        direction: args
            .choice("direction", &["imports", "importers", "both"])?
            .and_then(|d| Direction::parse(&d))
            .unwrap_or_default(),
        depth: args
            .integer("depth", 1, limits::MAX_DEPTH as u64)?
            .unwrap_or(1) as usize,
        max_results: max_results(args)?,
        deadline: Some(Duration::from_secs(limits::DEADLINE_SECS)),
    };
    let outcome = state.engine.related_files(
        root,
        &crate::engine::Request::default(),
        &options,
        Hooks {
            progress: None,
            cancelled: hooks.cancelled,
        },
    )?;
    let (body, size_cut) =
        cut_to_chars(&crate::symbols::related_text(&outcome), RESPONSE_CHAR_LIMIT);
    let text = Spotlight::new(&[&body]).wrap("related files", &body);
    let mut trailer = Vec::new();
    if size_cut {
        trailer.push("[Related files truncated at 50,000 characters. Lower depth or max_results, or choose one direction.]".to_string());
    }
    trailer.extend(crate::symbols::related_trailer(
        &outcome,
        options.max_results,
        false,
    ));
    trailer.extend(outcome.warnings.messages());
    trailer.extend(partial_content_notice(
        outcome.withheld_files as u64,
        outcome.unreadable_files as u64,
    ));
    Ok(text_result(vec![with_trailer(text, trailer)]))
}
