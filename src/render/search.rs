//! Search results as the two doors write them: grep-style lines (`path:N:text` for matches,
//! `path-N-text` for context, `--` between groups), and the CLI's JSON document.

use serde_json::{Value, json};

use crate::coverage::Stop;
use crate::engine::{SearchGroup, SearchOutcome};

/// The grep-style lines of `groups`. A path is escaped for a one-line display and quoted where
/// it would be ambiguous (`grep::shown_path`).
pub fn grep_lines(groups: &[SearchGroup]) -> String {
    let mut out = String::new();
    for group in groups {
        let path = crate::grep::shown_path(&super::escape::text_line(&group.path));
        crate::grep::render_group(&mut out, &path, &group.lines);
    }
    out
}

/// `devprojex search --format json`: every group with its lines, the counts, and whether (and
/// why) the search stopped early.
pub fn json_document(project: &str, outcome: &SearchOutcome) -> Value {
    json!({
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
    })
}
