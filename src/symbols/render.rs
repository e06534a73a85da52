//! The text the two tools answer with (MCP and CLI alike): one definition or related file per
//! entry, grep-like, with the redacted source line indented below it.

use super::{RelatedFile, RelatedOutcome, SymbolOutcome};
use crate::render::escape::text_line;

/// `path:line: kind name (in container)` and the signature on the next line.
pub fn symbols_text(outcome: &SymbolOutcome) -> String {
    let mut out = String::new();
    for hit in &outcome.hits {
        out.push_str(&format!(
            "{}:{}: {} {}",
            text_line(&hit.path),
            hit.line,
            hit.kind,
            text_line(&hit.name)
        ));
        if let Some(container) = &hit.container {
            out.push_str(&format!(" (in {})", text_line(container)));
        }
        out.push('\n');
        out.push_str("    ");
        out.push_str(&text_line(&hit.signature));
        out.push('\n');
    }
    out
}

fn push_related(out: &mut String, file: &RelatedFile) {
    out.push_str(&text_line(&file.path));
    if file.folder {
        out.push_str("/ (package folder)");
    }
    if file.depth > 1 {
        out.push_str(&format!(" (depth {})", file.depth));
    }
    out.push('\n');
    out.push_str(&format!(
        "    {}:{}: {}\n",
        text_line(&file.via),
        file.line,
        text_line(&file.text)
    ));
}

/// Two sections, `imports` and `importers`, each a list of files with the import line that
/// links them.
pub fn related_text(outcome: &RelatedOutcome) -> String {
    let mut out = String::new();
    let depth = if outcome.depth > 1 {
        format!(" (depth up to {})", outcome.depth)
    } else {
        String::new()
    };
    if outcome.direction.imports() {
        out.push_str(&format!(
            "imports of {}{depth}: {}\n",
            text_line(&outcome.path),
            count(outcome.imports.len())
        ));
        for file in &outcome.imports {
            push_related(&mut out, file);
        }
    }
    if outcome.direction.importers() {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&format!(
            "importers of {}{depth}: {}\n",
            text_line(&outcome.path),
            count(outcome.importers.len())
        ));
        for file in &outcome.importers {
            push_related(&mut out, file);
        }
    }
    out
}

fn count(n: usize) -> String {
    match n {
        0 => "none".to_string(),
        1 => "1 file".to_string(),
        n => format!("{n} files"),
    }
}

/// The trusted notes after a lookup: counts and limits only, never project text.
pub fn symbols_trailer(outcome: &SymbolOutcome, max_results: usize, cli: bool) -> Vec<String> {
    let mut trailer = Vec::new();
    let narrow = if cli {
        "--paths, --include-patterns or --kind"
    } else {
        "include_patterns, exclude_patterns or kind"
    };
    match outcome.stopped {
        Some(crate::engine::SearchStop::MaxResults) => trailer.push(format!(
            "[Definitions truncated: stopped at max_results={max_results}. Narrow with {narrow}, use match=exact, or raise max_results (at most {}).]",
            super::limits::MAX_RESULTS
        )),
        Some(crate::engine::SearchStop::Deadline) if cli => trailer.push(format!(
            "[Definitions truncated: the --timeout was reached after {} files. Narrow with {narrow}, or raise --timeout.]",
            outcome.searched_files
        )),
        Some(crate::engine::SearchStop::Deadline) => trailer.push(format!(
            "[Definitions truncated: the {}-second time limit was reached after {} files. Narrow with {narrow}.]",
            super::limits::DEADLINE_SECS,
            outcome.searched_files
        )),
        None => {}
    }
    if outcome.unparsed_files > 0 {
        trailer.push(format!(
            "[{} files that contain the name are larger than 4 MiB and were not parsed.]",
            outcome.unparsed_files
        ));
    }
    trailer
}

/// The trusted notes after `related_files`.
pub fn related_trailer(outcome: &RelatedOutcome, max_results: usize, cli: bool) -> Vec<String> {
    let mut trailer = Vec::new();
    if outcome.truncated > 0 {
        let (raise, lower) = if cli {
            ("--max-results", "--depth")
        } else {
            ("max_results", "depth")
        };
        trailer.push(format!(
            "[Related files truncated: {} more beyond max_results={max_results} were not listed. Lower {lower}, choose one direction, or raise {raise} (at most {}).]",
            outcome.truncated,
            super::limits::MAX_RESULTS
        ));
    }
    if outcome.direction.imports() && outcome.unresolved > 0 {
        let ambiguous = if outcome.ambiguous > 0 {
            format!(
                ", {} of them found in several include folders equally near (ambiguous without compile_commands.json)",
                outcome.ambiguous
            )
        } else {
            String::new()
        };
        trailer.push(format!(
            "[{} imports lead to no project file (standard library, packages outside the project, generated or unselected files){ambiguous}; they are counted, not listed.]",
            outcome.unresolved
        ));
    }
    if outcome.pending_files > 0 {
        trailer.push(if cli {
            format!(
                "[Related files incomplete: the --timeout was reached with {} files not yet indexed. Narrow the selection or raise --timeout.]",
                outcome.pending_files
            )
        } else {
            format!(
                "[Related files incomplete: the {}-second time limit was reached with {} files not yet indexed. The server keeps what it indexed: call related_files again to continue.]",
                super::limits::DEADLINE_SECS,
                outcome.pending_files
            )
        });
    }
    trailer
}
