//! The text the two tools answer with (MCP and CLI alike): one definition or related file per
//! entry, grep-like, with the redacted source line indented below it.

use super::{RelatedFile, RelatedOutcome, SymbolOutcome};
use crate::render::escape::text_line;
use crate::select::plural;

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
        match &hit.body {
            // numbered as get_file's line_numbers: the lines, not the head alone
            Some(body) => out.push_str(&crate::render::numbered_lines(body, hit.line)),
            None => {
                out.push_str("    ");
                out.push_str(&text_line(&hit.signature));
                out.push('\n');
            }
        }
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
    let (narrow, exact, raise) = if cli {
        (
            "--paths, --include-patterns or --kind",
            "--match exact",
            "--max-results",
        )
    } else {
        (
            "include_patterns, exclude_patterns or kind",
            "match=exact",
            "max_results",
        )
    };
    match outcome.coverage.stopped {
        Some(crate::engine::SearchStop::MaxResults) => trailer.push(format!(
            "[Definitions truncated: stopped at {raise}={max_results}. Narrow with {narrow}, use {exact}, or raise {raise} (at most {}).]",
            crate::limits::MAX_SYMBOL_RESULTS
        )),
        Some(crate::engine::SearchStop::Deadline) if cli => trailer.push(format!(
            "[Definitions truncated: the --timeout was reached after {}. Narrow with {narrow}, or raise --timeout.]",
            plural(outcome.searched_files, "file", "files")
        )),
        Some(crate::engine::SearchStop::Deadline) => trailer.push(format!(
            "[Definitions truncated: the {}-second time limit was reached after {}. Narrow with {narrow}.]",
            crate::limits::SYMBOL_DEADLINE_SECS,
            plural(outcome.searched_files, "file", "files")
        )),
        None => {}
    }
    let cut_bodies = outcome.hits.iter().filter(|h| h.body_truncated).count();
    if cut_bodies > 0 {
        let read = if cli {
            "read the rest from the file"
        } else {
            "read the rest with get_file start_line/end_line"
        };
        trailer.push(format!(
            "[{} cut at {} lines or {} characters; {read}.]",
            plural(cut_bodies, "body", "bodies"),
            crate::limits::MAX_SYMBOL_BODY_LINES,
            crate::render::tree::group_thousands(crate::limits::MAX_FILE_CHARS),
        ));
    }
    if outcome.unparsed_files > 0 {
        trailer.push(format!(
            "[{} larger than 4 MiB and not parsed.]",
            plural(
                outcome.unparsed_files,
                "file that contains the name is",
                "files that contain the name are"
            )
        ));
    }
    for (count, reason) in [
        (
            outcome.nested_files,
            "too deeply nested to index (over 64 levels of classes, modules, namespaces or use lists)",
        ),
        (
            outcome.over_budget_files,
            "its definitions would take more than 64 times its size",
        ),
        (outcome.failed_files, "the parser failed on it"),
    ] {
        if count > 0 {
            trailer.push(format!(
                "[{} skipped: {reason}.]",
                plural(
                    count,
                    "file that contains the name was",
                    "files that contain the name were"
                )
            ));
        }
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
            "[Related files truncated: {} more beyond {raise}={max_results} {} not listed. Lower {lower}, choose one direction, or raise {raise} (at most {}).]",
            outcome.truncated,
            if outcome.truncated == 1 { "was" } else { "were" },
            crate::limits::MAX_SYMBOL_RESULTS
        ));
    }
    if outcome.direction.imports() && outcome.unresolved > 0 {
        let one = outcome.unresolved == 1;
        let ambiguous = match outcome.ambiguous {
            0 => String::new(),
            _ if one => ", found in several include folders equally near (ambiguous without compile_commands.json)".to_string(),
            n => format!(
                ", {n} of them found in several include folders equally near (ambiguous without compile_commands.json)"
            ),
        };
        trailer.push(format!(
            "[{} to no project file (standard library, packages outside the project, generated or unselected files){ambiguous}; {} counted, not listed.]",
            plural(outcome.unresolved, "import leads", "imports lead"),
            if one { "it is" } else { "they are" }
        ));
    }
    if outcome.pending_files > 0 {
        let pending = plural(outcome.pending_files, "file", "files");
        trailer.push(if cli {
            format!(
                "[Related files incomplete: the --timeout was reached with {pending} not yet indexed. Narrow the selection or raise --timeout.]"
            )
        } else {
            format!(
                "[Related files incomplete: the {}-second time limit was reached with {pending} not yet indexed. The server keeps what it indexed: call related_files again to continue.]",
                crate::limits::SYMBOL_DEADLINE_SECS
            )
        });
    }
    if let Some(skip) = outcome.skipped
        && outcome.direction.imports()
    {
        trailer.push(format!(
            "[The imports of {} were not read: it is {}; it was skipped. Its importers are listed as usual.]",
            outcome.path,
            match skip {
                devprojex_symbols::Skip::TooLarge => "larger than 4 MiB",
                devprojex_symbols::Skip::OverBudget => {
                    "a file whose imports would take more than 64 times its size"
                }
                devprojex_symbols::Skip::TooDeeplyNested => {
                    "too deeply nested to index (over 64 levels of modules, namespaces or use lists)"
                }
                devprojex_symbols::Skip::Failed
                | devprojex_symbols::Skip::ParseOverBudget
                | devprojex_symbols::Skip::Interrupted => {
                    "a file the parser failed on"
                }
            }
        ));
    }
    trailer
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coverage::Coverage;
    use crate::engine::SearchStop;

    fn related(unresolved: usize, ambiguous: usize, truncated: usize, pending: usize) -> String {
        let outcome = RelatedOutcome {
            unresolved,
            ambiguous,
            truncated,
            pending_files: pending,
            ..RelatedOutcome::default()
        };
        related_trailer(&outcome, 5, false).join("\n")
    }

    #[test]
    fn related_trailers_agree_in_number_with_their_counts() {
        let one = related(1, 1, 1, 1);
        assert!(
            one.contains("[1 import leads to no project file (")
                && one.contains("), found in several include folders equally near (")
                && one.contains("; it is counted, not listed.]")
                && one.contains("truncated: 1 more beyond max_results=5 was not listed.")
                && one.contains("reached with 1 file not yet indexed."),
            "{one}"
        );
        let many = related(3, 2, 4, 6);
        assert!(
            many.contains("[3 imports lead to no project file (")
                && many.contains(", 2 of them found in several include folders")
                && many.contains("; they are counted, not listed.]")
                && many.contains("truncated: 4 more beyond max_results=5 were not listed.")
                && many.contains("reached with 6 files not yet indexed."),
            "{many}"
        );
        // an importers-only answer does not look at the file's own imports
        let importers = RelatedOutcome {
            direction: super::super::Direction::Importers,
            unresolved: 2,
            ..RelatedOutcome::default()
        };
        assert!(related_trailer(&importers, 5, false).is_empty());
    }

    #[test]
    fn symbols_trailers_agree_in_number_and_name_the_callers_flags() {
        let outcome = SymbolOutcome {
            searched_files: 1,
            unparsed_files: 1,
            coverage: Coverage {
                stopped: Some(SearchStop::Deadline),
                ..Coverage::default()
            },
            ..SymbolOutcome::default()
        };
        let one = symbols_trailer(&outcome, 5, false).join("\n");
        assert!(
            one.contains("reached after 1 file.")
                && one.contains(
                    "[1 file that contains the name is larger than 4 MiB and not parsed.]"
                ),
            "{one}"
        );
        let outcome = SymbolOutcome {
            searched_files: 7,
            unparsed_files: 2,
            coverage: Coverage {
                stopped: Some(SearchStop::MaxResults),
                ..Coverage::default()
            },
            ..SymbolOutcome::default()
        };
        let mcp = symbols_trailer(&outcome, 5, false).join("\n");
        assert!(
            mcp.contains("stopped at max_results=5. Narrow with include_patterns, exclude_patterns or kind, use match=exact, or raise max_results")
                && mcp.contains("[2 files that contain the name are larger than 4 MiB and not parsed.]"),
            "{mcp}"
        );
        let cli = symbols_trailer(&outcome, 5, true).join("\n");
        assert!(
            cli.contains("stopped at --max-results=5. Narrow with --paths, --include-patterns or --kind, use --match exact, or raise --max-results"),
            "{cli}"
        );
    }
}
