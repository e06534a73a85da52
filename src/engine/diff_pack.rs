//! `pack_context` `view: "diff"`: the redacted unified diff of a `git_scope`, file by file.
//!
//! The sides are those `git diff` compares for the scope (`devprojex_git::scope_changes`):
//! `staged` is `HEAD` against the index (the new side is the index blob, not the working tree),
//! `changes` is `HEAD` against the working tree, `diff:A..B` the two revisions' trees. Deleted
//! files are shown as removed lines; renames keep their old path in the `---` line.
//!
//! What it never shows:
//! - raw text: each side is redacted as a whole before the two are compared, so a secret never
//!   appears, in an added, removed or context line;
//! - binary content (a NUL byte, the rule of file reads) or a side over the 16 MiB inspection
//!   boundary (its size is read from the object header; the blob is never loaded): the file's
//!   section says so, and the trusted notice counts withheld sides;
//! - files the selection leaves out: a file in the working tree must be in the pack's
//!   selection (profile, ignore rules, `paths`, globs, `tracked_only`, `max_file_bytes`); a
//!   deleted file or a rename's old path is judged by name by the same filters;
//! - anything outside the root: working-tree sides are read through the root jail (a link is
//!   shown as its target text, as Git stores it, never followed unless the profile follows
//!   in-root links).
//!
//! A file's diff stops at [`limits::MAX_DIFF_LINES_PER_FILE`] lines with a note; the document as
//! a whole is inlined or stored as every pack is.

use std::collections::HashMap;
use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

use devprojex_git::{BlobRead, DiffSide, FileChange, ScopeChanges};

use super::{Engine, Hooks, PackOutcome, Prepared, Request, admit, output_error};
use crate::content::{Content, ContentPipeline, TextContent, decode_blob};
use crate::coverage::Coverage;
use crate::error::Result;
use crate::limits;
use crate::project::ProjectRoot;
use crate::render::View;
use crate::render::escape::text_line;
use crate::render::pack::{BudgetReport, PackLayout, PackMetrics, PackWriter};
use crate::select::{AbsentFileFilter, Entry, EntryKind, Selection};
use crate::tokens::Counter;
use devprojex_detail::Detail;

/// One side of a file, ready to compare.
enum Side {
    Absent,
    /// Redacted text and how many secrets were replaced.
    Text(String, usize),
    Binary,
    Withheld,
    Unreadable,
}

impl Engine {
    /// A diff pack of `request.git_scope` over the selected files (see the module comment).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn pack_diff<W: Write>(
        &self,
        root: &ProjectRoot,
        request: &Request,
        prepared: &Prepared,
        selection: Arc<Selection>,
        out: W,
        caches: Option<&crate::caches::Caches>,
        hooks: Hooks<'_>,
    ) -> Result<(PackOutcome, W)> {
        let scope = request.git_scope.as_deref().unwrap_or_default();
        let changes = crate::gitstate::changes(root, scope)?;
        // files and links (a link's side is its target text, as Git stores it)
        let selected: HashMap<&str, &Entry> = selection
            .entries
            .iter()
            .filter(|entry| matches!(entry.kind, EntryKind::File | EntryKind::Symlink))
            .map(|entry| (entry.relative.as_str(), entry))
            .collect();
        let by_name = AbsentFileFilter::new(root, &prepared.spec);
        // Full detail: a diff shows whole lines of both sides.
        let pipeline = self.pipeline(Detail::Full, caches);
        let header = self.header(root);
        let label = |s: &str| self.label(s);
        let mut metrics = PackMetrics {
            basis: "diff",
            ..Default::default()
        };
        // every file's diff first: an exact budget measures the document they make
        let mut sections: Vec<(String, TextContent)> = Vec::new();
        let total = changes.files.len() as u64;
        // progress at most every 100 ms, as the other packs report it
        let mut last_report = Instant::now();
        hooks.report("transformation", 0, total);
        for (done, change) in changes.files.iter().enumerate() {
            hooks.check_cancelled()?;
            if last_report.elapsed() >= Duration::from_millis(100) {
                hooks.report("transformation", done as u64, total);
                last_report = Instant::now();
            }
            let Some((change, entry)) = shown_change(root, change, &selected, &by_name) else {
                continue;
            };
            let old = self.side(root, &changes, &change, &change.old, None, &pipeline);
            let new = self.side(root, &changes, &change, &change.new, entry, &pipeline);
            // one line each, whatever the names hold (control characters as pictures)
            let old_label = match change.old {
                DiffSide::Absent => "/dev/null".to_owned(),
                _ => format!(
                    "a/{}",
                    text_line(&self.label(change.old_path.as_ref().unwrap_or(&change.path)))
                ),
            };
            let new_label = match change.new {
                DiffSide::Absent => "/dev/null".to_owned(),
                _ => format!("b/{}", text_line(&self.label(&change.path))),
            };
            let mut redactions = 0;
            let text = match (&old, &new) {
                (Side::Withheld, _) | (_, Side::Withheld) => {
                    metrics.withheld_files += 1;
                    format!(
                        "--- {old_label}\n+++ {new_label}\nNot shown: a side is larger than the 16 MiB inspection boundary, so it is not inspected for secrets.\n"
                    )
                }
                (Side::Unreadable, _) | (_, Side::Unreadable) => {
                    metrics.unreadable_files += 1;
                    format!(
                        "--- {old_label}\n+++ {new_label}\nNot shown: a side could not be read.\n"
                    )
                }
                (Side::Binary, _) | (_, Side::Binary) => {
                    metrics.binary_files += 1;
                    format!("Binary files {old_label} and {new_label} differ\n")
                }
                _ => {
                    let (old_text, new_text) = (side_text(&old), side_text(&new));
                    for side in [&old, &new] {
                        if let Side::Text(_, found) = side {
                            redactions += found;
                        }
                    }
                    metrics.text_files += 1;
                    unified_diff(
                        &old_label,
                        &new_label,
                        old_text,
                        new_text,
                        change.old_path.is_some(),
                    )
                }
            };
            let content = TextContent::new(text, redactions);
            metrics.files += 1;
            metrics.characters += content.characters;
            metrics.tokens += content.tokens;
            metrics.lines += content.lines;
            metrics.redactions += redactions as u64;
            sections.push((change.path, content));
        }
        hooks.report("transformation", total, total);
        hooks.report("output", 0, 1);
        let layout = PackLayout {
            format: request.format,
            view: View::Diff,
            header: &header,
            label: &label,
        };
        let (admitted, budget) = match (self.counter(), request.max_tokens) {
            (Some(counter), Some(max_tokens)) => {
                exact_admission(&layout, &sections, &metrics, counter, max_tokens)?
            }
            (_, max_tokens) => {
                let mut budget = max_tokens.map(BudgetReport::new);
                let admitted = sections
                    .iter()
                    .map(|(path, content)| admit(&mut budget, || self.label(path), content))
                    .collect();
                if let Some(report) = &mut budget {
                    report.trim();
                }
                (admitted, budget)
            }
        };
        let mut writer = PackWriter::new(out, request.format, View::Diff, &header, &label);
        writer.begin(&[]).map_err(output_error)?;
        for ((path, content), admitted) in sections.iter().zip(&admitted) {
            if *admitted {
                writer.file(path, content).map_err(output_error)?;
            }
        }
        let out = writer
            .finish(&metrics, budget.as_ref())
            .map_err(output_error)?;
        hooks.report("output", 1, 1);
        let mut warnings = selection.warnings.clone();
        warnings.deleted = 0; // deleted files are part of the diff, not left out
        Ok((
            PackOutcome {
                coverage: Coverage {
                    withheld_files: metrics.withheld_files,
                    unreadable_files: metrics.unreadable_files,
                    warnings,
                    ..Coverage::default()
                },
                metrics,
                budget,
                entries: Arc::unwrap_or_clone(selection).entries,
                header,
            },
            out,
        ))
    }

    /// One side's redacted text, or why there is none.
    fn side(
        &self,
        root: &ProjectRoot,
        changes: &ScopeChanges,
        change: &FileChange,
        side: &DiffSide,
        entry: Option<&Entry>,
        pipeline: &ContentPipeline,
    ) -> Side {
        match side {
            DiffSide::Absent => Side::Absent,
            DiffSide::Blob { .. } => {
                match changes.read(change, side, devprojex_redact::INSPECTION_LIMIT_BYTES) {
                    Some(BlobRead::Bytes(bytes)) => match decode_blob(bytes) {
                        Some(text) => self.redacted(&text),
                        None => Side::Binary,
                    },
                    Some(BlobRead::TooLarge) => Side::Withheld,
                    Some(BlobRead::Missing) | None => Side::Unreadable,
                }
            }
            DiffSide::WorkTree => {
                let Some(entry) = entry else {
                    return Side::Unreadable;
                };
                if entry.kind == EntryKind::Symlink && entry.open_as.is_none() {
                    // A link that is not followed: its target, as Git stores and diffs it.
                    return match &entry.target {
                        Some(target) => self.redacted(target),
                        None => Side::Unreadable,
                    };
                }
                match pipeline.load(root, entry) {
                    Content::Text(text) => Side::Text(text.text, text.redactions),
                    Content::Binary => Side::Binary,
                    Content::Withheld => Side::Withheld,
                    Content::Unreadable | Content::Measured(_) => Side::Unreadable,
                }
            }
        }
    }

    fn redacted(&self, text: &str) -> Side {
        let redacted = self.redactor().redact(text);
        Side::Text(redacted.text.into_owned(), redacted.findings.len())
    }
}

/// Which sections an exact budget of `max_tokens` admits, and its report: files in order while
/// the sum of their exact counts fits beside the empty document's; then, while the complete
/// document (headings, fences, markup, report) counts more than the budget, the last admitted
/// file goes. The document's count is the report's `document_tokens`.
fn exact_admission(
    layout: &PackLayout<'_>,
    sections: &[(String, TextContent)],
    metrics: &PackMetrics,
    counter: &Counter,
    max_tokens: u64,
) -> Result<(Vec<bool>, Option<BudgetReport>)> {
    let report_for = |admitted: &[bool], tokens: &[u64]| {
        let mut report = BudgetReport::exact(max_tokens, counter.encoding().name());
        for (((path, _), admitted), tokens) in sections.iter().zip(admitted).zip(tokens) {
            if *admitted {
                report.included_files += 1;
                report.included_tokens += tokens;
            } else {
                report.skip(&(layout.label)(path), *tokens);
            }
        }
        report.trim();
        report
    };
    let document = |admitted: &[bool], report: &BudgetReport| -> Result<u64> {
        let mut out = Vec::new();
        layout.write_begin(&mut out, &[]).map_err(output_error)?;
        let mut first = true;
        for ((path, content), admitted) in sections.iter().zip(admitted) {
            if *admitted {
                layout
                    .write_file(&mut out, path, content, first)
                    .map_err(output_error)?;
                first = false;
            }
        }
        layout
            .write_finish(&mut out, metrics, Some(report), !first)
            .map_err(output_error)?;
        Ok(counter.count(&String::from_utf8_lossy(&out)))
    };
    let tokens: Vec<u64> = sections
        .iter()
        .map(|(_, content)| counter.count(&content.text))
        .collect();
    let mut admitted = vec![false; sections.len()];
    let mut running = document(&admitted, &report_for(&admitted, &tokens))?;
    for (index, cost) in tokens.iter().enumerate() {
        if running + cost <= max_tokens {
            admitted[index] = true;
            running += cost;
        }
    }
    loop {
        let mut report = report_for(&admitted, &tokens);
        let total = document(&admitted, &report)?;
        let last = admitted.iter().rposition(|a| *a);
        match last {
            Some(index) if total > max_tokens => admitted[index] = false,
            _ => {
                report.document_tokens = Some(total);
                return Ok((admitted, Some(report)));
            }
        }
    }
}

fn side_text(side: &Side) -> &str {
    match side {
        Side::Text(text, _) => text,
        _ => "",
    }
}

/// The change as the pack shows it, with the selected working-tree entry of its new side, or
/// `None` when the selection leaves the file out.
fn shown_change<'e>(
    root: &ProjectRoot,
    change: &FileChange,
    selected: &HashMap<&str, &'e Entry>,
    by_name: &AbsentFileFilter<'_>,
) -> Option<(FileChange, Option<&'e Entry>)> {
    // Git's paths are relative and clean; one from a crafted object database that is not is
    // never looked up, not even by a stat
    if !clean(&change.path) || change.old_path.as_deref().is_some_and(|old| !clean(old)) {
        return None;
    }
    let entry = selected.get(change.path.as_str()).copied();
    let kept = match change.new {
        // read from the working tree: only a selected file
        DiffSide::WorkTree => entry.is_some(),
        // from Git: a selected file, or by name when the working tree has none
        DiffSide::Blob { .. } => {
            entry.is_some() || (!exists(root, &change.path) && by_name.keeps(&change.path, 0))
        }
        DiffSide::Absent => by_name.keeps(&change.path, 0),
    };
    if !kept {
        return None;
    }
    let mut change = change.clone();
    if let Some(old_path) = &change.old_path
        && !selected.contains_key(old_path.as_str())
        && !by_name.keeps(old_path, 0)
    {
        // renamed from a file the selection leaves out: shown as an addition
        change.old_path = None;
        change.old = DiffSide::Absent;
    }
    if change.old == DiffSide::Absent && change.new == DiffSide::Absent {
        return None;
    }
    Some((change, entry))
}

/// A relative path of plain names: no empty, `.` or `..` part, no leading `/` (and on Windows,
/// where they separate or name drives, no `\` or `:`).
fn clean(relative: &str) -> bool {
    !(cfg!(windows) && relative.contains(['\\', ':']))
        && relative
            .split('/')
            .all(|part| !part.is_empty() && part != "." && part != "..")
}

/// Whether the working tree has anything at `relative` (judged by name only, inside the root).
fn exists(root: &ProjectRoot, relative: &str) -> bool {
    std::fs::symlink_metadata(root.path.join(relative)).is_ok()
}

/// `git diff`'s unified form with [`limits::DIFF_CONTEXT_LINES`] of context, cut after
/// [`limits::MAX_DIFF_LINES_PER_FILE`] lines.
fn unified_diff(old_label: &str, new_label: &str, old: &str, new: &str, renamed: bool) -> String {
    let deadline = Instant::now() + Duration::from_millis(limits::DIFF_FILE_DEADLINE_MS);
    let diff = similar::TextDiff::configure()
        .algorithm(similar::Algorithm::Myers)
        .deadline(deadline)
        .diff_lines(old, new);
    let mut out = format!("--- {old_label}\n+++ {new_label}\n");
    let mut lines = 0usize;
    let mut cut = 0usize;
    let mut any = false;
    for hunk in diff
        .unified_diff()
        .context_radius(limits::DIFF_CONTEXT_LINES)
        .iter_hunks()
    {
        any = true;
        let text = hunk.to_string();
        for line in text.split_inclusive('\n') {
            if lines < limits::MAX_DIFF_LINES_PER_FILE {
                out.push_str(line);
                lines += 1;
            } else {
                cut += 1;
            }
        }
        if !out.ends_with('\n') {
            out.push('\n');
        }
    }
    if !any {
        out.push_str(if renamed {
            "Renamed without line changes.\n"
        } else {
            "No line changes (a mode change, or only redacted text changed).\n"
        });
    }
    if cut > 0 {
        out.push_str(&format!(
            "[Diff cut after {} lines; {cut} more lines of this file's diff are not shown. Read the file with get_file, or narrow git_scope.]\n",
            limits::MAX_DIFF_LINES_PER_FILE
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_clean_relative_paths_are_looked_up() {
        for good in ["a.txt", "src/main.rs", "dir/a\\b.txt"] {
            assert_eq!(
                clean(good),
                !cfg!(windows) || !good.contains('\\'),
                "{good}"
            );
        }
        for bad in ["", "/etc/passwd", "../x", "a/../../x", "a//b", "./a", "a/."] {
            assert!(!clean(bad), "{bad}");
        }
    }

    #[test]
    fn a_diff_without_line_changes_says_why() {
        let same = "one\ntwo\n";
        let renamed = unified_diff("a/old", "b/new", same, same, true);
        assert_eq!(
            renamed,
            "--- a/old\n+++ b/new\nRenamed without line changes.\n"
        );
        let unchanged = unified_diff("a/x", "b/x", same, same, false);
        assert!(
            unchanged.ends_with("only redacted text changed).\n"),
            "{unchanged}"
        );
        let missing_newline = unified_diff("a/x", "b/x", "one", "two", false);
        assert!(
            missing_newline.contains("\\ No newline at end of file"),
            "{missing_newline}"
        );
    }
}
