//! The words of a ranking: each file's reasons, and the text both doors show.

use devprojex_rank::{Evidence, FileClass};

use super::RelevanceOutcome;
use crate::render::escape::text_line;
use crate::select::plural;

/// Words listed per reason at most.
const MAX_WORDS: usize = 5;

fn list(words: &[String]) -> String {
    let mut shown: Vec<&str> = words.iter().take(MAX_WORDS).map(String::as_str).collect();
    if words.len() > MAX_WORDS {
        shown.push("…");
    }
    shown.join(", ")
}

/// Why a file ranks: `defines Command.Find`, `matches: execute, hook (12)`, `changed with
/// cmd/root.go in 9 commits`, ... `defined`: the definitions named by the query (redacted
/// text); `label`: a path as the answer shows it.
pub(crate) fn reasons(
    evidence: &Evidence,
    defined: &[String],
    label: &dyn Fn(&str) -> String,
) -> Vec<String> {
    let mut out = Vec::new();
    if evidence.mentioned {
        out.push("named in the query".to_string());
    }
    if let Some(folder) = &evidence.scoped {
        out.push(format!("in {}/, the title's scope", label(folder)));
    }
    if let Some(change) = &evidence.named_change {
        out.push(format!("changed in {change}, which the query names"));
    }
    if !defined.is_empty() {
        out.push(format!("defines {}", list(defined)));
    } else if !evidence.defined.is_empty() {
        out.push(format!("defines names with: {}", list(&evidence.defined)));
    }
    if !evidence.in_path.is_empty() {
        out.push(format!("path matches: {}", list(&evidence.in_path)));
    }
    if !evidence.matched.is_empty() {
        let mut matched = evidence.matched.clone();
        matched.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let total: u32 = matched.iter().map(|m| m.1).sum();
        let words: Vec<String> = matched.into_iter().map(|m| m.0).collect();
        out.push(format!("matches: {} ({total})", list(&words)));
    }
    if evidence.commits > 0 {
        out.push(format!(
            "changed in {} whose message matches",
            plural(evidence.commits as usize, "past commit", "past commits")
        ));
    }
    if let Some((seed, names)) = &evidence.linked {
        out.push(format!(
            "shares {} with {}",
            plural(*names as usize, "name", "names"),
            label(seed)
        ));
    }
    if evidence.echoes > 0 {
        out.push(format!(
            "shares {} with the best hits",
            plural(evidence.echoes as usize, "other word", "other words")
        ));
    }
    if let Some((seed, commits)) = &evidence.changed_with {
        out.push(format!(
            "changed with {} in {}",
            label(seed),
            plural(*commits as usize, "commit", "commits")
        ));
    }
    let class = match evidence.class {
        Some(FileClass::Test) => Some("a test (ranked below source)"),
        Some(FileClass::Docs) => Some("documentation (ranked below source)"),
        Some(FileClass::Vendored) => Some("vendored (ranked below source)"),
        Some(FileClass::Generated) => Some("generated (ranked below source)"),
        _ => None,
    };
    out.extend(class.map(str::to_string));
    out
}

/// One file per entry: `N. path (score S)`, its reasons, its line ranges.
pub fn relevance_text(outcome: &RelevanceOutcome) -> String {
    let mut out = String::new();
    for (i, file) in outcome.files.iter().enumerate() {
        out.push_str(&format!(
            "{}. {} (score {:.3})\n",
            i + 1,
            text_line(&file.path),
            file.score
        ));
        if !file.reasons.is_empty() {
            out.push_str("   ");
            out.push_str(&text_line(&file.reasons.join("; ")));
            out.push('\n');
        }
        if !file.ranges.is_empty() {
            let ranges: Vec<String> = file
                .ranges
                .iter()
                .map(|r| format!("{}-{}", r.start, r.end))
                .collect();
            out.push_str(&format!("   lines {}\n", ranges.join(", ")));
        }
    }
    out
}

/// The trusted trailer lines: counts only.
pub fn relevance_trailer(outcome: &RelevanceOutcome, cli: bool) -> Vec<String> {
    let history = if outcome.history_commits > 0 {
        format!(
            " and {} of Git history",
            plural(outcome.history_commits, "commit", "commits")
        )
    } else {
        String::new()
    };
    let next = if cli {
        ""
    } else {
        " Read a range with get_file (path, start_line, end_line)."
    };
    vec![format!(
        "[{} ranked from {}{history}.{next}]",
        plural(outcome.files.len(), "file", "files"),
        plural(outcome.searched_files, "text file", "text files"),
    )]
}
