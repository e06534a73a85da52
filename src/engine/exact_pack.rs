//! Exact budgets: with a tokenizer, `max_tokens` bounds the complete document (tree, headings,
//! fences, markup and, in JSON and XML, the metrics and budget report) in exact tokens.
//!
//! Exact counts do not add up across seams (see [`crate::tokens`]), so the document is measured
//! in pieces cut only where they do: each piece's count is then independent of its neighbours,
//! and the document's count is plain arithmetic over the pieces. Three steps:
//!
//! 1. Measure: every file is loaded once (in parallel), rendered as its section and counted on
//!    the workers; only counts and a keyed hash of the text are kept.
//! 2. Plan: files are admitted greedily in selection order with the trailer reserved, then the
//!    exact total (with the trailer these decisions produce) is checked; while it is over,
//!    the last admitted file is dropped; finally every skipped file is tried again against the
//!    exact total, so none is left out that would have fit.
//! 3. Write: the admitted files are loaded again and written; each must hash to the text that
//!    was measured (a file edited meanwhile fails the pack instead of breaking the bound).
//!
//! `docs/pack-format.md` ("Exact budgets") explains the method for users.

use std::cmp::Reverse;
use std::collections::BTreeSet;
use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::io::Write;
use std::sync::Arc;

use super::{
    Engine, Hooks, PackOutcome, Request, add_content_metrics, found_binary, output_error,
    tree_view_metrics,
};
use crate::content::{Content, ContentPipeline, TextContent};
use crate::error::{DpxError, ErrorKind, Result};
use crate::project::ProjectRoot;
use crate::render::View;
use crate::render::pack::{BudgetReport, PackLayout, PackMetrics, PackWriter, SKIPPED_LISTED};
use crate::select::{Entry, Selection};
use crate::tokens::{Counter, first_cut, last_cut};

/// An exact budget: `max_tokens` tokens of the counter's encoding.
pub(super) struct ExactBudget<'a> {
    pub counter: &'a Counter,
    pub max_tokens: u64,
}

/// The seams of a layout: what the measured pieces are glued to. A file's section is counted
/// from its first cut on, with the head of whatever follows it appended (the next section's
/// or the trailer's), so its count holds wherever it ends up.
struct Seams {
    /// The text before the first cut of a section that follows another section.
    section_head: String,
    /// The same for the first section, which follows the header.
    first_head: String,
    /// The text before the first cut of the trailer after a section, and after the header.
    trailer_head: String,
    empty_trailer_head: String,
    sections_end_with_newline: bool,
    header_ends_with_newline: bool,
}

/// A measured file: what its section costs followed by another section, or by the trailer.
#[derive(Debug, Clone, Copy)]
struct Section {
    mid: u64,
    end: u64,
    hash: [u64; 2],
}

fn construction_failed(what: &str) -> DpxError {
    DpxError::new(
        ErrorKind::ProjectUnavailable,
        format!(
            "the exact token budget could not be computed ({what}); retry without --tokenizer and report this"
        ),
    )
}

fn head(text: &str, after_newline: bool) -> &str {
    &text[..first_cut(text, after_newline).unwrap_or(text.len())]
}

fn render(write: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> Result<String> {
    let mut buffer = Vec::new();
    write(&mut buffer).map_err(output_error)?;
    // Every part is built from `str`s, so it is UTF-8; check rather than assume.
    String::from_utf8(buffer).map_err(|_| construction_failed("a part is not UTF-8"))
}

impl Seams {
    fn probe(layout: &PackLayout<'_>, header: &str, max_tokens: u64) -> Result<Self> {
        let probe = TextContent::new("x\n".to_string(), 0);
        let later = render(|out| layout.write_file(out, "probe", &probe, false))?;
        let first = render(|out| layout.write_file(out, "probe", &probe, true))?;
        let sections_end_with_newline = later.ends_with('\n');
        let header_ends_with_newline = header.ends_with('\n');
        let section_head = head(&later, sections_end_with_newline).to_string();
        let first_head = head(&first, header_ends_with_newline).to_string();
        if later[section_head.len()..] != first[first_head.len()..] {
            return Err(construction_failed("first and later sections differ"));
        }
        let report = BudgetReport::exact(max_tokens, "probe");
        let metrics = PackMetrics::default();
        let trailer = render(|out| layout.write_finish(out, &metrics, Some(&report), true))?;
        let empty = render(|out| layout.write_finish(out, &metrics, Some(&report), false))?;
        Ok(Self {
            trailer_head: head(&trailer, sections_end_with_newline).to_string(),
            empty_trailer_head: head(&empty, header_ends_with_newline).to_string(),
            section_head,
            first_head,
            sections_end_with_newline,
            header_ends_with_newline,
        })
    }
}

/// Counts the document apart from its files.
struct Fixed<'a> {
    counter: &'a Counter,
    seams: &'a Seams,
    layout: PackLayout<'a>,
    metrics: &'a PackMetrics,
    /// The header's count when a section follows it, and when the trailer does.
    header_with_files: u64,
    header_alone: u64,
}

impl Fixed<'_> {
    /// The trailer's count from its first cut on, for this report.
    fn trailer(&self, report: &BudgetReport, files_written: bool) -> Result<u64> {
        let text = render(|out| {
            self.layout
                .write_finish(out, self.metrics, Some(report), files_written)
        })?;
        let (after_newline, expected) = if files_written {
            (
                self.seams.sections_end_with_newline,
                &self.seams.trailer_head,
            )
        } else {
            (
                self.seams.header_ends_with_newline,
                &self.seams.empty_trailer_head,
            )
        };
        let cut = head(&text, after_newline).len();
        if &text[..cut] != expected {
            return Err(construction_failed("the trailer starts differently"));
        }
        Ok(self.counter.count(&text[cut..]))
    }
}

/// Admission decisions over the measured files.
struct Plan<'a> {
    files: &'a [(&'a str, Section)],
    admitted: BTreeSet<usize>,
    admitted_mid: u64,
    /// Skipped files by cost (largest first), then path: the report's order.
    skipped: BTreeSet<(Reverse<u64>, &'a str, usize)>,
    skipped_mid: u64,
    base: BudgetReport,
    /// How paths are shown (private-data redacted with `--hide-private-data`).
    label: &'a (dyn Fn(&str) -> String + Sync),
}

impl<'a> Plan<'a> {
    fn new(
        files: &'a [(&'a str, Section)],
        base: BudgetReport,
        label: &'a (dyn Fn(&str) -> String + Sync),
    ) -> Self {
        Self {
            files,
            admitted: BTreeSet::new(),
            admitted_mid: 0,
            skipped: files
                .iter()
                .enumerate()
                .map(|(i, (path, s))| (Reverse(s.mid), *path, i))
                .collect(),
            skipped_mid: files.iter().map(|(_, s)| s.mid).sum(),
            base,
            label,
        }
    }

    fn key(&self, i: usize) -> (Reverse<u64>, &'a str, usize) {
        (Reverse(self.files[i].1.mid), self.files[i].0, i)
    }

    fn admit(&mut self, i: usize) {
        self.skipped.remove(&self.key(i));
        self.skipped_mid -= self.files[i].1.mid;
        self.admitted.insert(i);
        self.admitted_mid += self.files[i].1.mid;
    }

    fn drop_last(&mut self) -> bool {
        let Some(last) = self.admitted.pop_last() else {
            return false;
        };
        self.admitted_mid -= self.files[last].1.mid;
        self.skipped.insert(self.key(last));
        self.skipped_mid += self.files[last].1.mid;
        true
    }

    /// The report (and its section tokens) as it would be with `extra` admitted too.
    fn report(&self, extra: Option<usize>) -> BudgetReport {
        let last = self.admitted.last().copied().max(extra);
        let mut report = self.base.clone();
        report.included_files = self.admitted.len() as u64 + u64::from(extra.is_some());
        let extra_mid = extra.map(|i| self.files[i].1.mid).unwrap_or(0);
        report.included_tokens = match last {
            Some(last) => {
                self.admitted_mid + extra_mid - self.files[last].1.mid + self.files[last].1.end
            }
            None => 0,
        };
        report.skipped_files = self.skipped.len() as u64 - u64::from(extra.is_some());
        report.skipped_tokens = self.skipped_mid - extra_mid;
        report.largest_skipped = self
            .skipped
            .iter()
            .filter(|(_, _, i)| Some(*i) != extra)
            .take(SKIPPED_LISTED + 1)
            .map(
                |(Reverse(tokens), path, _)| crate::render::pack::SkippedFile {
                    path: (self.label)(path),
                    tokens: *tokens,
                },
            )
            .collect();
        report.trim();
        report
    }

    /// The document's exact count with `extra` admitted too, and the report it carries.
    fn total(&self, fixed: &Fixed<'_>, extra: Option<usize>) -> Result<(u64, BudgetReport)> {
        let report = self.report(extra);
        let any = report.included_files > 0;
        let header = if any {
            fixed.header_with_files
        } else {
            fixed.header_alone
        };
        let total = header + report.included_tokens + fixed.trailer(&report, any)?;
        Ok((total, report))
    }
}

/// The admitted files (indexes into `files`) and the final report.
fn plan(
    files: &[(&str, Section)],
    fixed: &Fixed<'_>,
    base: BudgetReport,
    max_tokens: u64,
) -> Result<(BTreeSet<usize>, BudgetReport)> {
    let mut plan = Plan::new(files, base, fixed.layout.label);
    // 1. Greedy, with the trailer reserved at its size when every file is skipped.
    let (_, everything_skipped) = plan.total(fixed, None)?;
    let reserve = fixed.trailer(&everything_skipped, true)?;
    for (i, (_, section)) in files.iter().enumerate() {
        let cost = fixed.header_with_files + plan.admitted_mid + section.end + reserve;
        if cost <= max_tokens {
            plan.admit(i);
        }
    }
    // 2. The exact total with the trailer these decisions produce; drop files while over.
    let (mut total, mut report) = plan.total(fixed, None)?;
    while total > max_tokens {
        if !plan.drop_last() {
            return Err(DpxError::invalid_arguments(format!(
                "max_tokens is {max_tokens}, but the document without any file content already has {total} {} tokens (tree, headings and report). Pass max_tokens of at least {total}, narrow the selection, or use view=content",
                fixed.counter.encoding().name()
            )));
        }
        (total, report) = plan.total(fixed, None)?;
    }
    // 3. Fill: a skipped file that fits the exact total now is admitted, until none does.
    loop {
        let mut admitted_one = false;
        for i in 0..files.len() {
            if plan.admitted.contains(&i) {
                continue;
            }
            // A lower bound of what admitting it adds (the trailer can shrink to nothing at
            // most), so most files are ruled out without rendering a trailer.
            let section = files[i].1;
            let header_now = if plan.admitted.is_empty() {
                fixed.header_alone
            } else {
                fixed.header_with_files
            };
            let trailer_now = (total - header_now - report.included_tokens) as i128;
            let added: i128 = match plan.admitted.last() {
                Some(&last) if last < i => {
                    let last = files[last].1;
                    last.mid as i128 - last.end as i128 + section.end as i128
                }
                Some(_) => section.mid as i128,
                None => {
                    section.end as i128 + fixed.header_with_files as i128
                        - fixed.header_alone as i128
                }
            };
            if added - trailer_now > max_tokens as i128 - total as i128 {
                continue;
            }
            let (with, with_report) = plan.total(fixed, Some(i))?;
            if with <= max_tokens {
                plan.admit(i);
                (total, report) = (with, with_report);
                admitted_one = true;
            }
        }
        if !admitted_one {
            break;
        }
    }
    report.document_tokens = Some(total);
    Ok((plan.admitted, report))
}

impl Engine {
    /// `pack` with an exact budget; see the module documentation.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn pack_exact<W: Write>(
        &self,
        root: &ProjectRoot,
        request: &Request,
        selection: Arc<Selection>,
        budget: ExactBudget<'_>,
        pipeline: &ContentPipeline,
        paths_order: Option<&[String]>,
        out: W,
        hooks: Hooks<'_>,
    ) -> Result<(PackOutcome, W)> {
        let ExactBudget {
            counter,
            max_tokens,
        } = budget;
        let encoding = counter.encoding().name();
        let header = self.header(root);
        let label = |s: &str| self.label(s);
        let mut writer = PackWriter::new(out, request.format, request.view, &header, &label);
        let layout = writer.layout();
        let head_text = render(|out| layout.write_begin(out, &selection.entries))?;
        let seams = Seams::probe(&layout, &head_text, max_tokens)?;
        let (header_core, header_tail) = match last_cut(&head_text) {
            Some(cut) => (counter.count(&head_text[..cut]), &head_text[cut..]),
            None => (0, head_text.as_str()),
        };
        let header_with_files =
            header_core + counter.count(&format!("{header_tail}{}", seams.first_head));
        let header_alone =
            header_core + counter.count(&format!("{header_tail}{}", seams.empty_trailer_head));

        let files = super::pack_files(&selection, paths_order);
        let mut metrics = PackMetrics {
            files: files.len() as u64,
            bytes: files.iter().map(|f| f.size).sum(),
            ..Default::default()
        };
        let hashers = [RandomState::new(), RandomState::new()];
        let hash = |text: &str| [hashers[0].hash_one(text), hashers[1].hash_one(text)];
        let mut measured: Vec<(&Entry, Section)> = Vec::new();
        let mut late_binary_files = 0;
        if request.view == View::Tree {
            tree_view_metrics(&mut metrics, &files);
        } else {
            metrics.basis = "content";
            let measure = |entry: &Entry, mut content: Content| {
                let section = match &mut content {
                    Content::Text(text) => {
                        let section =
                            measure_section(&layout, &seams, counter, entry, text).map(|mut s| {
                                s.hash = hash(&text.text);
                                s
                            });
                        // only the figures travel on: memory stays bounded
                        text.text = String::new();
                        Some(section)
                    }
                    _ => None,
                };
                (content, section)
            };
            self.for_each_loaded(
                root,
                &files,
                pipeline,
                hooks,
                "transformation",
                measure,
                |entry, (content, section)| {
                    add_content_metrics(&mut metrics, &content);
                    late_binary_files += u64::from(found_binary(entry, &content));
                    if let Some(section) = section {
                        measured.push((entry, section?));
                    }
                    Ok(())
                },
            )?;
        }

        let fixed = Fixed {
            counter,
            seams: &seams,
            layout,
            metrics: &metrics,
            header_with_files,
            header_alone,
        };
        let planned: Vec<(&str, Section)> = measured
            .iter()
            .map(|(entry, section)| (entry.relative.as_str(), *section))
            .collect();
        let (admitted, report) = plan(
            &planned,
            &fixed,
            BudgetReport::exact(max_tokens, encoding),
            max_tokens,
        )?;

        hooks.report("output", 0, 1);
        writer.begin(&selection.entries).map_err(output_error)?;
        let chosen: Vec<&Entry> = admitted.iter().map(|&i| measured[i].0).collect();
        let hashes: Vec<[u64; 2]> = admitted.iter().map(|&i| measured[i].1.hash).collect();
        let mut next = 0;
        self.for_each_content(
            root,
            &chosen,
            pipeline,
            hooks.cancel_only(),
            "output",
            |entry, content| {
                let Content::Text(text) = content else {
                    return Err(changed_meanwhile());
                };
                if hash(&text.text) != hashes[next] {
                    return Err(changed_meanwhile());
                }
                next += 1;
                writer.file(&entry.relative, &text).map_err(output_error)
            },
        )?;
        let out = writer
            .finish(&metrics, Some(&report))
            .map_err(output_error)?;
        hooks.report("output", 1, 1);
        Ok((
            PackOutcome {
                coverage: crate::coverage::Coverage {
                    withheld_files: metrics.withheld_files,
                    unreadable_files: metrics.unreadable_files,
                    late_binary_files,
                    warnings: selection.warnings.clone(),
                    stopped: None,
                },
                metrics,
                budget: Some(report),
                entries: Arc::unwrap_or_clone(selection).entries,
                header,
            },
            out,
        ))
    }
}

fn changed_meanwhile() -> DpxError {
    DpxError::new(
        ErrorKind::ProjectUnavailable,
        "a selected file changed while the pack was being written, so the measured token budget no longer holds; retry",
    )
}

/// Measure one file's section (rendered as a later section; the first one differs only
/// before its first cut, which the header's count covers).
fn measure_section(
    layout: &PackLayout<'_>,
    seams: &Seams,
    counter: &Counter,
    entry: &Entry,
    text: &TextContent,
) -> Result<Section> {
    let section = render(|out| layout.write_file(out, &entry.relative, text, false))?;
    let own_head = head(&section, seams.sections_end_with_newline);
    if own_head != seams.section_head || section.ends_with('\n') != seams.sections_end_with_newline
    {
        return Err(construction_failed("a section starts or ends differently"));
    }
    let body = &section[own_head.len()..];
    let (core, tail) = match last_cut(body) {
        Some(cut) => (counter.count(&body[..cut]), &body[cut..]),
        None => (0, body),
    };
    let mid = core + counter.count(&format!("{tail}{}", seams.section_head));
    let end = if seams.trailer_head == seams.section_head {
        mid
    } else {
        core + counter.count(&format!("{tail}{}", seams.trailer_head))
    };
    Ok(Section {
        mid,
        end,
        hash: [0, 0],
    })
}
