//! `pack_context` with `query` or `rank`: the budget fills best-first with graded detail, and
//! the budget report says which file got which detail and why the rest were left out. The best
//! [`COVERAGE_FILES`] go in first at their smallest form (signatures), the budget left then
//! takes the best of them in full, and the next files come at signatures; the rest are names
//! in the tree only.

use std::io::Write;
use std::sync::Arc;

use devprojex_detail::Detail;
use devprojex_rank::{Candidate, Query};

use super::{PackRank, parse_query};
use crate::caches::Caches;
use crate::content::{Content, TextContent};
use crate::coverage::Coverage;
use crate::engine::{
    Engine, Hooks, PackOutcome, Prepared, Request, add_content_metrics, output_error,
};
use crate::error::{DpxError, Result};
use crate::project::ProjectRoot;
use crate::render::pack::{
    BudgetReport, PackMetrics, PackWriter, RANKED_LISTED, RankedFile, RankingReport,
};
use crate::select::{Entry, Selection};

/// The best ranked files the budget first makes room for, each at its smallest form
/// (signatures), before any of them goes in full: as many as `relevant_files` lists by
/// default. Most answers lie within them, and a few large files in full would crowd the rest out.
const COVERAGE_FILES: usize = crate::limits::DEFAULT_RELEVANT_RESULTS;
/// After this many ranked files in a row whose smallest form did not fit, the budget counts as
/// spent: the files after them are names, without their signatures being computed. On the
/// kernel a query matches most of its 78,000 files, and reducing each one only to find that
/// it does not fit took two minutes.
const SPENT_AFTER_MISSES: usize = 200;
/// Share of the budget one file may take in full: a bigger one stays at signatures (and one
/// without a smaller form stays out), so one large file does not crowd out the next ranked ones.
const FULL_FILE_PERCENT: u64 = 25;

/// How a ranked pack orders: by relevance to a query, or by centrality.
pub(crate) enum Order {
    Relevance(Query),
    Centrality,
}

/// The ordering a request asks for (`None`: path order, as the spec says).
pub(crate) fn order_of(request: &Request) -> Result<Option<Order>> {
    match (request.query.as_deref(), request.rank) {
        (None, None) => Ok(None),
        (Some(query), None | Some(PackRank::Relevance)) => {
            Ok(Some(Order::Relevance(parse_query(query)?)))
        }
        (None, Some(PackRank::Relevance)) => Err(DpxError::invalid_arguments(
            "rank 'relevance' needs a query; pass query (the task), or rank 'centrality' for a repository map",
        )),
        (None, Some(PackRank::Centrality)) => Ok(Some(Order::Centrality)),
        (None, Some(PackRank::Paths)) if request.paths.is_empty() => {
            Err(DpxError::invalid_arguments(
                "rank 'paths' orders files as paths lists them; pass paths, or drop rank",
            ))
        }
        // not a ranking: the pack takes its files in the order of paths (`Engine::pack`)
        (None, Some(PackRank::Paths)) => Ok(None),
        (Some(_), Some(PackRank::Paths)) => Err(DpxError::invalid_arguments(
            "rank 'paths' keeps the order of paths, without a query; drop query, or drop rank to order by relevance to the query",
        )),
        (Some(_), Some(PackRank::Centrality)) => Err(DpxError::invalid_arguments(
            "rank 'centrality' orders without a query; drop query, or drop rank to order by relevance to the query",
        )),
    }
}

impl Engine {
    /// A pack whose files come best-first (see the module comment).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn pack_ranked<W: Write>(
        &self,
        root: &ProjectRoot,
        request: &Request,
        prepared: &Prepared,
        selection: Arc<Selection>,
        order: Order,
        out: W,
        caches: Option<&Caches>,
        hooks: Hooks<'_>,
    ) -> Result<(PackOutcome, W)> {
        if self.counter().is_some() && request.max_tokens.is_some() {
            return Err(DpxError::invalid_arguments(
                "query and rank fill an estimated budget (characters / 4); this server counts exact tokens (--tokenizer), so pack without query and rank, or without max_tokens",
            ));
        }
        let header = self.header(root);
        let label = |s: &str| self.label(s);
        let mut writer = PackWriter::new(out, request.format, request.view, &header, &label);
        writer.begin(&selection.entries).map_err(output_error)?;
        let files: Vec<&Entry> = selection.files().collect();
        let text: Vec<&Entry> = files.iter().copied().filter(|e| !e.binary).collect();

        // score every text file, then order: scored files best first, the rest in path order
        let mut outcome = super::RelevanceOutcome::default();
        let terms = self.file_terms(root, &text, caches, hooks, &mut outcome)?;
        let (kept, candidates): (Vec<usize>, Vec<Candidate<'_>>) = text
            .iter()
            .zip(&terms)
            .enumerate()
            .filter_map(|(i, (entry, terms))| {
                Some((
                    i,
                    Candidate {
                        path: &entry.relative,
                        terms: terms.as_deref()?,
                    },
                ))
            })
            .unzip();
        let mut scored: Vec<(usize, f64, Vec<String>)> = match &order {
            Order::Relevance(query) => {
                let history = self.history(root, caches);
                devprojex_rank::rank(
                    query,
                    &candidates,
                    history.as_deref(),
                    super::signals(),
                    candidates.len(),
                )
                .into_iter()
                .map(|r| {
                    let reasons = super::render::reasons(&r.evidence, &[], &label);
                    (kept[r.index], r.score, reasons)
                })
                .collect()
            }
            Order::Centrality => {
                let scores = devprojex_rank::centrality(&candidates, super::signals());
                let best = scores.iter().copied().fold(0.0, f64::max);
                let mut scored: Vec<(usize, f64, Vec<String>)> = scores
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| **s > 0.0)
                    .map(|(c, s)| (kept[c], s / best, Vec::new()))
                    .collect();
                scored.sort_by(|a, b| {
                    b.1.total_cmp(&a.1)
                        .then(text[a.0].relative.cmp(&text[b.0].relative))
                });
                scored
            }
        };
        let matched = scored.len();
        let mut in_order: Vec<usize> = scored.iter().map(|s| s.0).collect();
        let mut seen = vec![false; text.len()];
        for &i in &in_order {
            seen[i] = true;
        }
        in_order.extend((0..text.len()).filter(|&i| !seen[i]));
        let ordered: Vec<&Entry> = in_order.iter().map(|&i| text[i]).collect();

        let mut metrics = PackMetrics {
            files: files.len() as u64,
            bytes: files.iter().map(|f| f.size).sum(),
            binary_files: (files.len() - text.len()) as u64,
            basis: "content",
            ..Default::default()
        };
        let mut budget = request.max_tokens.map(BudgetReport::new);
        let mut ranking = RankingReport {
            by: match order {
                Order::Relevance(_) => "relevance",
                Order::Centrality => "centrality",
            },
            ..RankingReport::default()
        };
        let file_cap = request
            .max_tokens
            .map_or(u64::MAX, |m| m.saturating_mul(FULL_FILE_PERCENT) / 100);
        let mut head: Vec<Placed<'_>> = Vec::new();
        let mut head_open = true;
        let pipeline = self.pipeline(prepared.detail, caches);
        let mut position = 0usize;
        let mut misses_in_a_row = 0usize;
        let mut out = Emit {
            writer: &mut writer,
            ranking: &mut ranking,
            budget: &mut budget,
            label: &label,
        };
        self.for_each_loaded(
            root,
            &ordered,
            &pipeline,
            hooks,
            "transformation",
            |_, content| content,
            |entry, content| {
                let rank = position;
                position += 1;
                add_content_metrics(&mut metrics, &content);
                if head_open && rank >= COVERAGE_FILES.min(matched) {
                    head_open = false;
                    fill_head(&mut head, file_cap, &mut out)?;
                }
                let Content::Text(text) = content else {
                    return Ok(());
                };
                let (score, reasons) = if rank < matched {
                    (scored[rank].1, std::mem::take(&mut scored[rank].2))
                } else {
                    (0.0, Vec::new())
                };
                let Some(report) = out.budget.as_mut() else {
                    // no budget: every file in full, best first
                    return out.emit(Placed {
                        entry,
                        ranked: rank < matched,
                        score,
                        reasons,
                        small: None,
                        tokens: text.tokens,
                        whole: Some(text),
                        detail: Some("full"),
                    });
                };
                if rank >= matched {
                    out.ranking.unmatched_files += 1;
                    return Ok(());
                }
                if rank >= COVERAGE_FILES && misses_in_a_row >= SPENT_AFTER_MISSES {
                    return out.emit(Placed::left_out(entry, score, reasons, text.tokens));
                }
                let mut placed =
                    Placed::new(entry, score, reasons, text, prepared.detail, file_cap);
                let room = report.max_tokens - report.included_tokens;
                if let Some((name, small)) = &placed.small
                    && small.tokens <= room
                {
                    report.included_tokens += small.tokens;
                    placed.detail = Some(name);
                    misses_in_a_row = 0;
                } else {
                    misses_in_a_row += 1;
                }
                if rank < COVERAGE_FILES {
                    head.push(placed);
                    Ok(())
                } else {
                    out.emit(placed)
                }
            },
        )?;
        if head_open {
            fill_head(&mut head, file_cap, &mut out)?;
        }
        if let Some(report) = &mut budget {
            report.trim();
            report.ranking = Some(ranking);
        }
        hooks_output(hooks, 0);
        let out = writer
            .finish(&metrics, budget.as_ref())
            .map_err(output_error)?;
        hooks_output(hooks, 1);
        Ok((
            PackOutcome {
                coverage: Coverage {
                    withheld_files: metrics.withheld_files,
                    unreadable_files: metrics.unreadable_files,
                    warnings: selection.warnings.clone(),
                    stopped: None,
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
}

fn hooks_output(hooks: Hooks<'_>, done: u64) {
    if let Some(progress) = hooks.progress {
        progress(crate::engine::ProgressEvent {
            phase: "output",
            done,
            total: 1,
        });
    }
}

/// The signatures of a file's (redacted) text, when that is smaller than what it is.
fn signatures_of(path: &str, text: &TextContent, detail: Detail) -> Option<TextContent> {
    if detail >= Detail::Signatures {
        return None;
    }
    let reduced = devprojex_detail::transform(path, &text.text, Detail::Signatures);
    (reduced.len() < text.text.len())
        .then(|| TextContent::new(reduced.into_owned(), text.redactions))
}

/// A ranked file on its way into the pack: its forms and the detail it got.
struct Placed<'e> {
    entry: &'e Entry,
    /// Whether the ranking scored it (it is listed in the ranking report).
    ranked: bool,
    score: f64,
    reasons: Vec<String>,
    /// The smallest form it may go in at: `signatures` when that is smaller, else the whole
    /// text when it is within the per-file share (or the request's detail already reduced it).
    small: Option<(&'static str, TextContent)>,
    /// The whole text, when it may go in full (within the per-file share).
    whole: Option<TextContent>,
    /// `full` or `signatures` once included; `None` while it is not (names only).
    detail: Option<&'static str>,
    /// Its size as it is (what the budget report says a left-out file would have taken).
    tokens: u64,
}

impl<'e> Placed<'e> {
    fn new(
        entry: &'e Entry,
        score: f64,
        reasons: Vec<String>,
        text: TextContent,
        detail: Detail,
        file_cap: u64,
    ) -> Self {
        let tokens = text.tokens;
        let within_share = tokens <= file_cap;
        let (small, whole) = match signatures_of(&entry.relative, &text, detail) {
            Some(signatures) => (
                Some(("signatures", signatures)),
                within_share.then_some(text),
            ),
            // no smaller form: whole, when within its share or already reduced by the request
            None if within_share || detail >= Detail::Signatures => (Some(("full", text)), None),
            None => (None, None),
        };
        Self {
            entry,
            ranked: true,
            score,
            reasons,
            small,
            whole,
            detail: None,
            tokens,
        }
    }

    /// A ranked file left as a name once the budget is spent (its forms are not computed).
    fn left_out(entry: &'e Entry, score: f64, reasons: Vec<String>, tokens: u64) -> Self {
        Self {
            entry,
            ranked: true,
            score,
            reasons,
            small: None,
            whole: None,
            detail: None,
            tokens,
        }
    }
}

/// The best ranked files ([`COVERAGE_FILES`]), each already in at its smallest form while it
/// fit: the budget left upgrades them to full, best first, when their whole text is within its
/// share; then they are written.
fn fill_head<W: Write>(
    head: &mut Vec<Placed<'_>>,
    file_cap: u64,
    out: &mut Emit<'_, '_, W>,
) -> Result<()> {
    if let Some(report) = out.budget.as_mut() {
        for placed in head.iter_mut() {
            let (Some("signatures"), Some((_, small)), Some(whole)) =
                (placed.detail, &placed.small, &placed.whole)
            else {
                continue;
            };
            let room = report.max_tokens - report.included_tokens;
            if whole.tokens <= file_cap && whole.tokens - small.tokens.min(whole.tokens) <= room {
                report.included_tokens = report.included_tokens - small.tokens + whole.tokens;
                placed.detail = Some("full");
            }
        }
    }
    for placed in head.drain(..) {
        out.emit(placed)?;
    }
    Ok(())
}

/// Where a placed file goes: the pack, the ranking report and the budget report.
struct Emit<'a, 'w, W: Write> {
    writer: &'a mut PackWriter<'w, W>,
    ranking: &'a mut RankingReport,
    budget: &'a mut Option<BudgetReport>,
    label: &'a dyn Fn(&str) -> String,
}

impl<W: Write> Emit<'_, '_, W> {
    fn emit(&mut self, placed: Placed<'_>) -> Result<()> {
        let Placed {
            entry,
            ranked,
            score,
            reasons,
            small,
            whole,
            detail,
            tokens,
        } = placed;
        if ranked && self.ranking.files.len() < RANKED_LISTED {
            self.ranking.files.push(RankedFile {
                path: entry.relative.clone(),
                detail: detail.unwrap_or("names"),
                score: (score * 1000.0).round() / 1000.0,
                reasons,
            });
        }
        let text = match detail {
            Some("signatures") => small.map(|(_, s)| s),
            Some(_) => match small {
                Some(("full", s)) => Some(s),
                _ => whole,
            },
            None => {
                if let Some(report) = self.budget.as_mut() {
                    report.skip(&(self.label)(&entry.relative), tokens);
                    self.ranking.over_budget_files += 1;
                }
                return Ok(());
            }
        };
        let Some(text) = text else {
            return Ok(());
        };
        if detail == Some("full") {
            self.ranking.full_files += 1;
        } else {
            self.ranking.signature_files += 1;
        }
        if let Some(report) = self.budget.as_mut() {
            report.included_files += 1;
        }
        self.writer
            .file(&entry.relative, &text)
            .map_err(output_error)
    }
}
