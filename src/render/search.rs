//! Search results as the two doors write them: grep-style lines (`path:N:text` for matches,
//! `path-N-text` for context, `--` between groups when context is shown), file lists (`path`
//! or `path:count`), and the CLI's JSON document.

use serde_json::{Value, json};

use crate::coverage::Stop;
use crate::engine::{SearchGroup, SearchOutcome};

/// The grep-style lines of `groups`. A path is escaped for a one-line display and quoted where
/// it would be ambiguous (`grep::shown_path`).
/// `separated`: `--` between groups (when context lines are shown).
pub fn grep_lines(groups: &[SearchGroup], separated: bool) -> String {
    let mut out = String::new();
    for group in groups {
        let path = crate::grep::shown_path(&super::escape::text_line(&group.path));
        crate::grep::render_group(&mut out, &path, &group.lines, separated);
    }
    out
}

/// One file a line: its path, or `path:count` with `counts` (ripgrep's `--count` form).
pub fn file_lines(files: &[(String, usize)], counts: bool) -> String {
    let mut out = String::new();
    for (path, count) in files {
        out.push_str(&crate::grep::shown_path(&super::escape::text_line(path)));
        if counts {
            out.push_str(&format!(":{count}"));
        }
        out.push('\n');
    }
    out
}

/// `devprojex search --format json`: every group with its lines, the counts, and whether (and
/// why) the search stopped early.
pub fn json_document(project: &str, outcome: &SearchOutcome) -> Value {
    let mut document = json!({
        "project": project,
        "groups": outcome.groups.iter().map(|group| json!({
            "path": group.path,
            "lines": group.lines.iter().map(|line| json!({
                "line": line.number,
                "match": line.is_match,
                "text": line.text,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "matches": outcome.matches,
        "filesWithMatches": outcome.files_with_matches,
        "searchedFiles": outcome.searched_files,
        "selectedFiles": outcome.selected_files,
        "truncated": outcome.coverage.stopped.is_some(),
        "stoppedBy": match outcome.coverage.stopped {
            Some(Stop::MaxResults) => json!("max_results"),
            Some(Stop::Deadline) => json!("timeout"),
            None => Value::Null,
        },
    });
    let listed = |files: &[(String, usize)]| {
        files
            .iter()
            .map(|(path, matches)| json!({"path": path, "matches": matches}))
            .collect::<Vec<_>>()
    };
    if !outcome.files.is_empty() {
        document["files"] = json!(listed(&outcome.files));
    }
    if !outcome.left_out.is_empty() {
        document["leftOut"] = json!(listed(&outcome.left_out));
    }
    document
}
