//! What HEAD's history says about a query: files whose past commit messages match it, and
//! files that changed together with the strong hits (co-change, as in Zimmermann et al.,
//! "Mining version histories to guide software changes", ICSE 2004).
//!
//! Built once per HEAD from the commits the caller read (newest first); pure data after that.

use std::collections::HashMap;

use crate::terms::{self, Term};

/// One commit as read from Git: its message and the files it modified, project-relative.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Commit {
    pub message: String,
    pub files: Vec<String>,
}

struct CommitTerms {
    /// Sorted, unique.
    terms: Vec<Term>,
    files: Vec<u32>,
}

/// The history index of one HEAD.
#[derive(Default)]
pub struct History {
    commits: Vec<CommitTerms>,
    paths: Vec<String>,
    ids: HashMap<String, u32>,
    /// The commits of each path id, ascending.
    by_file: Vec<Vec<u32>>,
    df: HashMap<Term, u32>,
    avg_terms: f64,
}

impl std::fmt::Debug for History {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("History")
            .field("commits", &self.commits.len())
            .field("files", &self.paths.len())
            .finish()
    }
}

/// Commits touching more files than this are sweeping changes (renames, formatting, license
/// headers): they say nothing about which files belong together.
pub const MAX_FILES_PER_COMMIT: usize = 40;

impl History {
    pub fn build(commits: impl IntoIterator<Item = Commit>) -> Self {
        let mut history = Self::default();
        let mut total_terms = 0usize;
        for commit in commits {
            if commit.files.is_empty() || commit.files.len() > MAX_FILES_PER_COMMIT {
                continue;
            }
            let mut commit_terms = Vec::new();
            terms::identifiers(&commit.message, |_, ident| {
                terms::identifier_terms(ident, |term, _| commit_terms.push(term));
            });
            commit_terms.sort_unstable();
            commit_terms.dedup();
            total_terms += commit_terms.len();
            for &term in &commit_terms {
                *history.df.entry(term).or_default() += 1;
            }
            let index = history.commits.len() as u32;
            let mut files = Vec::with_capacity(commit.files.len());
            for file in commit.files {
                let next = history.paths.len() as u32;
                let id = *history.ids.entry(file.clone()).or_insert(next);
                if id == next {
                    history.paths.push(file);
                    history.by_file.push(Vec::new());
                }
                history.by_file[id as usize].push(index);
                files.push(id);
            }
            files.sort_unstable();
            files.dedup();
            history.commits.push(CommitTerms {
                terms: commit_terms,
                files,
            });
        }
        history.avg_terms = total_terms as f64 / history.commits.len().max(1) as f64;
        history
    }

    /// Commits indexed.
    pub fn len(&self) -> usize {
        self.commits.len()
    }

    pub fn is_empty(&self) -> bool {
        self.commits.is_empty()
    }

    /// How many indexed commits changed `path`.
    pub fn changes_of(&self, path: &str) -> usize {
        self.ids
            .get(path)
            .map_or(0, |&id| self.by_file[id as usize].len())
    }

    /// How many indexed commits are newer than the newest one that changed `path` (commits are
    /// indexed newest first); `None` when none changed it.
    pub fn newest_change_of(&self, path: &str) -> Option<usize> {
        let id = *self.ids.get(path)?;
        self.by_file[id as usize].first().map(|&c| c as usize)
    }

    /// Per path: the summed BM25 score of the best-matching commit messages (each commit's
    /// score shared by the files it changed) and how many of those commits changed it.
    pub fn message_scores(&self, query: &[(Term, f64)]) -> HashMap<&str, (f64, u32)> {
        const K1: f64 = 1.2;
        const B: f64 = 0.5;
        const TOP_COMMITS: usize = 50;
        let n = self.commits.len() as f64;
        let weights: Vec<(Term, f64)> = query
            .iter()
            .filter_map(|&(term, weight)| {
                let df = f64::from(*self.df.get(&term)?);
                Some((term, weight * (1.0 + (n - df + 0.5) / (df + 0.5)).ln()))
            })
            .collect();
        let mut out = HashMap::new();
        if weights.is_empty() {
            return out;
        }
        let mut scored: Vec<(f64, u32)> = self
            .commits
            .iter()
            .enumerate()
            .filter_map(|(i, commit)| {
                let norm = 1.0 - B + B * commit.terms.len() as f64 / self.avg_terms.max(1.0);
                let mut score = 0.0;
                for &(term, weight) in &weights {
                    if commit.terms.binary_search(&term).is_ok() {
                        score += weight * (K1 + 1.0) / (1.0 + K1 * norm);
                    }
                }
                (score > 0.0).then_some((score, i as u32))
            })
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.truncate(TOP_COMMITS);
        for (score, i) in scored {
            let commit = &self.commits[i as usize];
            let share = score / (commit.files.len() as f64).sqrt();
            for &file in &commit.files {
                let slot = out
                    .entry(self.paths[file as usize].as_str())
                    .or_insert((0.0, 0));
                slot.0 += share;
                slot.1 += 1;
            }
        }
        out
    }

    /// The files changed together with `seed`, with the number of shared commits.
    pub fn changed_with(&self, seed: &str) -> HashMap<&str, u32> {
        let mut out = HashMap::new();
        let Some(&id) = self.ids.get(seed) else {
            return out;
        };
        for &commit in &self.by_file[id as usize] {
            for &file in &self.commits[commit as usize].files {
                if file != id {
                    *out.entry(self.paths[file as usize].as_str()).or_default() += 1;
                }
            }
        }
        out
    }

    /// Bytes held, roughly.
    pub fn cost(&self) -> usize {
        self.commits
            .iter()
            .map(|c| 48 + c.terms.len() * 4 + c.files.len() * 4)
            .sum::<usize>()
            + self.paths.iter().map(|p| 64 + p.len() * 2).sum::<usize>()
            + self.df.len() * 16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commit(message: &str, files: &[&str]) -> Commit {
        Commit {
            message: message.into(),
            files: files.iter().map(|f| f.to_string()).collect(),
        }
    }

    #[test]
    fn messages_and_co_changes() {
        let history = History::build([
            commit(
                "parser: handle nested quotes",
                &["src/parser.rs", "src/lexer.rs"],
            ),
            commit(
                "parser: speed up tokens",
                &["src/parser.rs", "src/lexer.rs"],
            ),
            commit("docs: readme", &["README.md"]),
        ]);
        let query: Vec<(Term, f64)> = vec![(terms::hash("quote"), 1.0)];
        let scores = history.message_scores(&query);
        assert!(scores.contains_key("src/parser.rs"));
        assert!(!scores.contains_key("README.md"));
        assert_eq!(history.changed_with("src/parser.rs")["src/lexer.rs"], 2);
        assert_eq!(history.changes_of("src/lexer.rs"), 2);
        assert_eq!(history.newest_change_of("src/lexer.rs"), Some(0));
        assert_eq!(history.newest_change_of("README.md"), Some(2));
        assert_eq!(history.newest_change_of("src/other.rs"), None);
    }
}
