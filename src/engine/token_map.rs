//! `analyze --tree [DEPTH]`: tokens per folder, in the order of the tree.

use std::collections::HashMap;

use serde::Serialize;

use super::FileMetrics;
use crate::select::{Entry, EntryKind};

/// One folder of the token map (`.` is the whole selection).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FolderMetrics {
    pub path: String,
    /// 0 for `.`, 1 for a top-level folder (as `tree --max-depth` counts).
    pub depth: usize,
    /// Selected files under the folder, at any depth.
    pub files: u64,
    /// Estimated tokens (the spec's estimate) of those files.
    pub tokens: u64,
    /// Exact tokens, with `--tokenizer`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_tokens: Option<u64>,
    /// The folder's part of the selection's tokens (exact ones when there are), 0..=1.
    pub share: f64,
}

#[derive(Default, Clone, Copy)]
struct Totals {
    files: u64,
    tokens: u64,
    exact: Option<u64>,
}

/// Folders down to `depth` (top level = 1) in tree order, preceded by `.`; `exact` when the
/// files carry exact counts.
pub fn folder_metrics(
    entries: &[Entry],
    files: &[FileMetrics],
    depth: usize,
    exact: bool,
) -> Vec<FolderMetrics> {
    let by_path: HashMap<&str, &FileMetrics> = files.iter().map(|f| (f.path.as_str(), f)).collect();
    let mut folders: HashMap<&str, Totals> = HashMap::new();
    let mut whole = Totals {
        exact: exact.then_some(0),
        ..Totals::default()
    };
    for entry in entries.iter().filter(|e| e.kind == EntryKind::File) {
        let (tokens, exact_tokens) = by_path
            .get(entry.relative.as_str())
            .map(|f| (f.tokens, f.exact_tokens))
            .unwrap_or((0, None)); // binary or unreadable: listed, no content
        let add = |totals: &mut Totals| {
            totals.files += 1;
            totals.tokens += tokens;
            if exact {
                *totals.exact.get_or_insert(0) += exact_tokens.unwrap_or(0);
            }
        };
        add(&mut whole);
        let mut end = 0;
        while let Some(slash) = entry.relative[end..].find('/') {
            end += slash;
            add(folders.entry(&entry.relative[..end]).or_default());
            end += 1;
        }
    }
    let size = |t: &Totals| t.exact.unwrap_or(t.tokens);
    let share = |t: &Totals| {
        let all = size(&whole);
        if all == 0 {
            0.0
        } else {
            (size(t) as f64 / all as f64 * 10_000.0).round() / 10_000.0
        }
    };
    let row = |path: &str, depth: usize, totals: &Totals| FolderMetrics {
        path: path.to_string(),
        depth,
        files: totals.files,
        tokens: totals.tokens,
        exact_tokens: totals.exact,
        share: share(totals),
    };
    let mut rows = vec![row(".", 0, &whole)];
    for entry in entries.iter().filter(|e| e.kind == EntryKind::Dir) {
        let level = entry.depth() + 1;
        if level > depth {
            continue;
        }
        let totals = folders
            .get(entry.relative.as_str())
            .copied()
            .unwrap_or(Totals {
                exact: exact.then_some(0),
                ..Totals::default()
            });
        rows.push(row(&entry.relative, level, &totals));
    }
    rows
}
