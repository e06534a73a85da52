//! `pack_context` with `query` or `rank`: the budget fills best-first with graded detail (the
//! best files in full, then at signatures, then as names in the tree only), and the budget
//! report says which file got which detail and why the rest were left out.

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

/// Share of the budget the full-detail tier may take; the rest goes to signatures, so the
/// files after the first few are still seen.
const FULL_SHARE_PERCENT: u64 = 60;
/// Share of the budget one file may take in full: a bigger one goes in at signatures, so one
/// large file does not crowd out the next ranked ones (and the full tier stays open for them).
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
        let full_cap = request
            .max_tokens
            .map(|m| m.saturating_mul(FULL_SHARE_PERCENT) / 100);
        let file_cap = request
            .max_tokens
            .map_or(u64::MAX, |m| m.saturating_mul(FULL_FILE_PERCENT) / 100);
        let mut full_used = 0u64;
        let mut full_open = true;
        let pipeline = self.pipeline(prepared.detail, caches);
        let mut position = 0usize;
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
                let Content::Text(text) = content else {
                    return Ok(());
                };
                let (score, reasons) = if rank < matched {
                    (scored[rank].1, std::mem::take(&mut scored[rank].2))
                } else {
                    (0.0, Vec::new())
                };
                let detail = if rank >= matched && request.max_tokens.is_some() {
                    ranking.unmatched_files += 1;
                    None
                } else {
                    match &mut budget {
                        None => Some(("full", text)),
                        Some(report) => {
                            let room = report.max_tokens - report.included_tokens;
                            let full_room = full_cap.unwrap_or(u64::MAX).saturating_sub(full_used);
                            // the full tier: the best files while they fit its share (the
                            // best file whenever it fits), none over its own share; once a
                            // file misses the tier's share, it closes
                            let over_share = text.tokens > file_cap;
                            let fits_full = full_open
                                && text.tokens <= room
                                && (text.tokens <= full_room || full_used == 0);
                            if fits_full && !over_share {
                                full_used += text.tokens;
                                Some(("full", text))
                            } else {
                                if !over_share {
                                    full_open = false;
                                }
                                let signatures =
                                    signatures_of(&entry.relative, &text, prepared.detail);
                                match signatures {
                                    Some(s) if s.tokens <= room => Some(("signatures", s)),
                                    // no smaller form: whole, as before, when it fits
                                    None if fits_full => {
                                        full_used += text.tokens;
                                        Some(("full", text))
                                    }
                                    _ => {
                                        report.skip(&self.label(&entry.relative), text.tokens);
                                        ranking.over_budget_files += 1;
                                        None
                                    }
                                }
                            }
                        }
                    }
                };
                let shown = match &detail {
                    Some((name, _)) => name,
                    None => "names",
                };
                if rank < matched && ranking.files.len() < RANKED_LISTED {
                    ranking.files.push(RankedFile {
                        path: entry.relative.clone(),
                        detail: shown,
                        score: (score * 1000.0).round() / 1000.0,
                        reasons,
                    });
                }
                if let Some((name, text)) = detail {
                    if name == "full" {
                        ranking.full_files += 1;
                    } else {
                        ranking.signature_files += 1;
                    }
                    if let Some(report) = &mut budget {
                        report.included_files += 1;
                        report.included_tokens += text.tokens;
                    }
                    writer.file(&entry.relative, &text).map_err(output_error)?;
                }
                Ok(())
            },
        )?;
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
