//! `pack_context` with `query` or `rank`: the budget fills best-first with graded detail, and
//! the budget report says which file got which detail and why the rest were left out. Of the
//! best [`CONSIDERED_FILES`], the first [`FIRST_FILES`] go in at their smallest form
//! (signatures), then the others by likely answer per token; the budget left then takes the
//! best [`COVERAGE_FILES`] in full, and the next files come at signatures while they fit; the
//! rest are names in the tree only.

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

/// The best ranked files that may go in full once every chosen file is in at its smallest
/// form: as many as `relevant_files` lists by default. A few large files in full would crowd
/// out the next ranked ones, so none goes in full before the choice below is made.
const COVERAGE_FILES: usize = crate::limits::DEFAULT_RELEVANT_RESULTS;
/// The best ranked files the budget chooses among at their smallest form, by likely answer
/// per token ([`answer_per_token`]): twice the default list, since an answer ranked 21–40 in a
/// small file is worth more than one large file ranked 3rd whose signatures fill the budget.
const CONSIDERED_FILES: usize = 2 * COVERAGE_FILES;
/// The best ranked files that go in first at their smallest form whenever they fit, whatever
/// their size: the ranking is most often right there, and an agent expects the top files.
const FIRST_FILES: usize = 2;
/// After this many ranked files in a row whose smallest form did not fit, the budget counts as
/// spent: the files after them are names, without their signatures being computed. On the
/// kernel a query matches most of its 78,000 files, and reducing each one only to find that
/// it does not fit took two minutes.
const SPENT_AFTER_MISSES: usize = 200;
/// The best ranked files whose evidence and reasons are kept: the budget report lists the
/// reasons of [`RANKED_LISTED`]; the kernel's 60,000 matching files' took tens of MB.
const EXPLAINED_FILES: usize = 2 * RANKED_LISTED;
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
        let signals = super::signals()?;
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
                // every matching file is ordered, and the report lists the reasons of the
                // first [`RANKED_LISTED`] that go out: the files before them that do not (too
                // large to inspect, unreadable) are few, so twice as many get their reasons
                devprojex_rank::rank_explaining(
                    query,
                    &candidates,
                    history.as_deref(),
                    signals,
                    candidates.len(),
                    EXPLAINED_FILES,
                )
                .into_iter()
                .enumerate()
                .map(|(place, r)| {
                    let reasons = if place < EXPLAINED_FILES {
                        super::render::reasons(&r.evidence, &[], &label)
                    } else {
                        Vec::new()
                    };
                    (kept[r.index], r.score, reasons)
                })
                .collect()
            }
            Order::Centrality => {
                let scores = devprojex_rank::centrality(&candidates, signals);
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
        // the files' terms (about 180 MB on the kernel when no server cache holds them) are done
        // with: free them before the files are read again for the pack
        drop(candidates);
        drop(terms);
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
                if head_open && rank >= CONSIDERED_FILES.min(matched) {
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
                if rank >= CONSIDERED_FILES && misses_in_a_row >= SPENT_AFTER_MISSES {
                    return out.emit(Placed::left_out(entry, score, reasons, text.tokens));
                }
                let mut placed =
                    Placed::new(entry, score, reasons, text, prepared.detail, file_cap);
                if rank < CONSIDERED_FILES {
                    // chosen with the others of the head (`fill_head`)
                    head.push(placed);
                    return Ok(());
                }
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
                out.emit(placed)
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
    /// The smallest form it may go in at: `signatures` when that is smaller or the request's
    /// detail already reduced it, else the whole text when it is within the per-file share.
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
            // no smaller form: the request already reduced it to signatures (reported so), or
            // the whole text when within its share
            None if detail >= Detail::Signatures => (Some(("signatures", text)), None),
            None if within_share => (Some(("full", text)), None),
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

/// The best ranked files ([`CONSIDERED_FILES`], in rank order): which go in at their
/// smallest form ([`choose_smallest`]), then the budget left upgrades the best
/// [`COVERAGE_FILES`] to full, best first, when their whole text is within its share; then
/// they are written, in rank order.
fn fill_head<W: Write>(
    head: &mut Vec<Placed<'_>>,
    file_cap: u64,
    out: &mut Emit<'_, '_, W>,
) -> Result<()> {
    if let Some(report) = out.budget.as_mut() {
        let sizes: Vec<Option<u64>> = head
            .iter()
            .map(|p| p.small.as_ref().map(|(_, s)| s.tokens))
            .collect();
        let room = report.max_tokens - report.included_tokens;
        for (placed, chosen) in head.iter_mut().zip(choose_smallest(&sizes, room)) {
            if chosen && let Some((name, small)) = &placed.small {
                report.included_tokens += small.tokens;
                placed.detail = Some(name);
            }
        }
        for placed in head.iter_mut().take(COVERAGE_FILES) {
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

/// Which of the best ranked files (their smallest form's tokens, in rank order; `None`: no
/// form may go in) go in within `room` tokens: the first [`FIRST_FILES`] whenever they fit,
/// then the others by [`answer_per_token`], best first, while they fit.
fn choose_smallest(sizes: &[Option<u64>], mut room: u64) -> Vec<bool> {
    let mut chosen = vec![false; sizes.len()];
    let mut take = |rank: usize, chosen: &mut Vec<bool>| {
        if let Some(tokens) = sizes[rank]
            && tokens <= room
        {
            room -= tokens;
            chosen[rank] = true;
        }
    };
    let first = FIRST_FILES.min(sizes.len());
    for rank in 0..first {
        take(rank, &mut chosen);
    }
    let mut rest: Vec<usize> = (first..sizes.len()).collect();
    rest.sort_by(|&a, &b| {
        let value = |rank: usize| answer_per_token(rank, sizes[rank].unwrap_or(u64::MAX));
        value(b).total_cmp(&value(a)).then(a.cmp(&b))
    });
    for rank in rest {
        take(rank, &mut chosen);
    }
    chosen
}

/// How likely the file at `rank` (0 for the best) holds an answer, per token it costs. The
/// share of answers found at rank r falls about as 1/r² (0.56, 0.14, 0.08, 0.06 at ranks 1–4
/// over the benchmark's commit tasks; the exponent fitted on the tuning repositories alone is
/// 2.05), so a file ranked 4th that costs a quarter of the 2nd's tokens is worth as much.
fn answer_per_token(rank: usize, tokens: u64) -> f64 {
    let place = (rank + 1) as f64;
    1.0 / (place * place * tokens.max(1) as f64)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_third_file_gives_way_to_the_smaller_ones_after_it() {
        // the signatures of the third file would take the budget the next four need
        let sizes = [
            Some(100),
            Some(100),
            Some(700),
            Some(100),
            Some(100),
            Some(100),
            Some(100),
        ];
        assert_eq!(
            choose_smallest(&sizes, 1000),
            [true, true, false, true, true, true, true]
        );
        // with room for all, all go in
        assert_eq!(choose_smallest(&sizes, 1300), [true; 7]);
    }

    #[test]
    fn the_first_files_go_in_whatever_their_size() {
        let sizes = [Some(50), Some(800), Some(60), Some(60), Some(60)];
        assert_eq!(
            choose_smallest(&sizes, 1000),
            [true, true, true, true, false]
        );
        // the best file takes what is left when the second does not fit
        assert_eq!(
            choose_smallest(&[Some(900), Some(200), Some(100)], 1000),
            [true, false, true]
        );
    }

    #[test]
    fn a_file_with_no_form_that_may_go_in_stays_out() {
        assert_eq!(
            choose_smallest(&[None, Some(10), None, Some(10)], 100),
            [false, true, false, true]
        );
        assert_eq!(choose_smallest(&[], 100), Vec::<bool>::new());
        // an empty file costs nothing and goes in
        assert_eq!(choose_smallest(&[Some(0), Some(0), Some(0)], 0), [true; 3]);
    }

    #[test]
    fn of_two_files_of_one_size_the_better_ranked_goes_in() {
        assert_eq!(
            choose_smallest(&[Some(10), Some(10), Some(400), Some(400)], 430),
            [true, true, true, false]
        );
        assert!(answer_per_token(3, 100) > answer_per_token(2, 400));
        assert!(answer_per_token(2, 100) > answer_per_token(3, 100));
    }
}
