//! What HEAD's history says about a query: files whose past commit messages match it, and
//! files that changed together with the strong hits (co-change, as in Zimmermann et al.,
//! "Mining version histories to guide software changes", ICSE 2004).
//!
//! Built once per HEAD from the commits the caller read (newest first); pure data after that.

use rustc_hash::FxHashMap;

use crate::terms::{self, Term};

/// One commit as read from Git: its id, its message and the files it modified,
/// project-relative.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Commit {
    /// Hex; empty when unknown.
    pub id: String,
    pub message: String,
    pub files: Vec<String>,
    /// A merge that names a pull request: indexed only for the queries that name it (its
    /// branch's commits would count twice in the other signals).
    pub merge: bool,
}

/// A change that a query names, by number (`#1273`, `PR 1273`, a `/pull/1273` link) or by
/// commit id (`b6a052f`, a `/commit/...` link).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum ChangeRef {
    Number(u32),
    /// A lowercase hex prefix of 7 to 40 digits.
    Commit(String),
}

impl std::fmt::Display for ChangeRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Number(n) => write!(f, "#{n}"),
            Self::Commit(id) => write!(f, "commit {}", &id[..id.len().min(10)]),
        }
    }
}

/// A change named by a number or an id names none in particular when more commits than this
/// bear it (`#1` in old commits of many repositories, `Fixes #3` in a list of steps).
pub const NAMED_CHANGE_COMMITS: usize = 3;

/// Changes read from one text, at most: a query's first ones (a stack trace's hex addresses
/// look like commit ids), and a bound on the work a commit message of megabytes of `#1 #2 ...`
/// could make.
pub const MAX_CHANGE_REFS: usize = 16;

/// The changes `text` names: `#N`, `PR N`/`PR #N`, `pull request N`/`#N`, links to `/pull/N`,
/// `/issues/N` or `/commit/<id>`, and commit ids (7–40 hex digits with a letter and a digit).
/// The first [`MAX_CHANGE_REFS`] distinct ones, sorted.
pub fn change_refs(text: &str) -> Vec<ChangeRef> {
    let mut out = Vec::new();
    let mut add = |found: Option<ChangeRef>| {
        if let Some(found) = found
            && out.len() < MAX_CHANGE_REFS
            && !out.contains(&found)
        {
            out.push(found);
        }
    };
    let mut previous: [&str; 2] = ["", ""];
    for raw in text.split_whitespace() {
        let word = raw.trim_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '#'));
        let after_pr = previous[1].eq_ignore_ascii_case("pr")
            || previous[0].eq_ignore_ascii_case("pull")
                && previous[1].eq_ignore_ascii_case("request");
        previous = [previous[1], word];
        if let Some(at) = raw.find("://") {
            let mut segments = raw[at + 3..].split(['/', '#', '?']);
            while let Some(segment) = segments.next() {
                let Some(next) = segments.clone().next() else {
                    break;
                };
                match segment {
                    "pull" | "issues" => add(number(next).map(ChangeRef::Number)),
                    "commit" => add(commit_id(next).map(ChangeRef::Commit)),
                    _ => {}
                }
            }
            continue;
        }
        let mut rest = raw;
        while let Some(at) = rest.find('#') {
            let before = rest[..at].chars().next_back();
            rest = &rest[at + 1..];
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '&') {
                continue;
            }
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            add(number(&rest[..digits]).map(ChangeRef::Number));
        }
        if after_pr {
            add(number(word.trim_start_matches('#')).map(ChangeRef::Number));
        }
        add(commit_id(word).map(ChangeRef::Commit));
    }
    out.sort();
    out
}

fn number(digits: &str) -> Option<u32> {
    (!digits.is_empty() && digits.len() <= 7 && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().ok())
        .flatten()
}

fn commit_id(word: &str) -> Option<String> {
    ((7..=40).contains(&word.len())
        && word.bytes().all(|b| b.is_ascii_hexdigit())
        && word.bytes().any(|b| b.is_ascii_digit())
        && word.bytes().any(|b| b.is_ascii_alphabetic()))
    .then(|| word.to_ascii_lowercase())
}

/// A commit as the queries that name it see it.
struct NamedChange {
    id: String,
    /// The numbers its message names, sorted.
    numbers: Vec<u32>,
    files: Vec<u32>,
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
    /// Every indexed commit and merge, for the queries that name one.
    changes: Vec<NamedChange>,
    paths: Vec<String>,
    ids: FxHashMap<String, u32>,
    /// The commits of each path id, ascending.
    by_file: Vec<Vec<u32>>,
    df: FxHashMap<Term, u32>,
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
            let numbers: Vec<u32> = change_refs(&commit.message)
                .into_iter()
                .filter_map(|r| match r {
                    ChangeRef::Number(n) => Some(n),
                    ChangeRef::Commit(_) => None,
                })
                .collect();
            let mut files: Vec<u32> = commit.files.iter().map(|f| history.path_id(f)).collect();
            files.sort_unstable();
            files.dedup();
            history.changes.push(NamedChange {
                id: commit.id.to_ascii_lowercase(),
                numbers,
                files: files.clone(),
            });
            if commit.merge {
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
            for &id in &files {
                history.by_file[id as usize].push(index);
            }
            history.commits.push(CommitTerms {
                terms: commit_terms,
                files,
            });
        }
        history.avg_terms = total_terms as f64 / history.commits.len().max(1) as f64;
        history
    }

    fn path_id(&mut self, file: &str) -> u32 {
        if let Some(&id) = self.ids.get(file) {
            return id;
        }
        let id = self.paths.len() as u32;
        self.ids.insert(file.to_string(), id);
        self.paths.push(file.to_string());
        self.by_file.push(Vec::new());
        id
    }

    /// The files of the changes `refs` name, each with the first reference naming it. A
    /// reference that more than [`NAMED_CHANGE_COMMITS`] commits bear names none.
    pub fn named_changes<'q>(&self, refs: &'q [ChangeRef]) -> Vec<(&str, &'q ChangeRef)> {
        let mut out: Vec<(&str, &'q ChangeRef)> = Vec::new();
        for reference in refs {
            let named: Vec<&NamedChange> = self
                .changes
                .iter()
                .filter(|c| match reference {
                    ChangeRef::Number(n) => c.numbers.binary_search(n).is_ok(),
                    ChangeRef::Commit(prefix) => c.id.starts_with(prefix.as_str()),
                })
                .take(NAMED_CHANGE_COMMITS + 1)
                .collect();
            if named.len() > NAMED_CHANGE_COMMITS {
                continue;
            }
            for change in named {
                for &file in &change.files {
                    let path = self.paths[file as usize].as_str();
                    if !out.iter().any(|(p, _)| *p == path) {
                        out.push((path, reference));
                    }
                }
            }
        }
        out
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
    pub fn message_scores(&self, query: &[(Term, f64)]) -> FxHashMap<&str, (f64, u32)> {
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
        let mut out = FxHashMap::default();
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
    pub fn changed_with(&self, seed: &str) -> FxHashMap<&str, u32> {
        let mut out = FxHashMap::default();
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
            + self
                .changes
                .iter()
                .map(|c| 80 + c.id.len() + c.numbers.len() * 4 + c.files.len() * 4)
                .sum::<usize>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commit(message: &str, files: &[&str]) -> Commit {
        Commit {
            message: message.into(),
            files: files.iter().map(|f| f.to_string()).collect(),
            ..Commit::default()
        }
    }

    #[test]
    fn the_changes_a_text_names() {
        use ChangeRef::{Commit as Id, Number};
        assert_eq!(change_refs("Touch up PR 1273"), [Number(1273)]);
        assert_eq!(
            change_refs("Merge pull request #1127 from edwardycl/hash"),
            [Number(1127)]
        );
        assert_eq!(
            change_refs("Merge pull request 1124 from a/b"),
            [Number(1124)]
        );
        assert_eq!(
            change_refs("Fix a typo in b6a052f. (#1190), see PR #7 and &#39;"),
            [Number(7), Number(1190), Id("b6a052f".into())]
        );
        assert_eq!(
            change_refs(
                "since https://github.com/o/r/pull/42 and https://github.com/o/r/commit/45e5e141b1a39926e6b43c6eacd3dc0280321f71"
            ),
            [
                Number(42),
                Id("45e5e141b1a39926e6b43c6eacd3dc0280321f71".into())
            ]
        );
        // the first ones of a long text, not its smallest numbers
        let many: String = (1..=40).rev().map(|n| format!("#{n} #{n} ")).collect();
        let first = change_refs(&many);
        assert_eq!(first.len(), MAX_CHANGE_REFS);
        assert_eq!(first[0], Number(25));
        // words, numbers and names that only look like them
        assert!(change_refs("issue#12 deadbeef 1234567 a1b2c3 prefix #abc C# v1.2").is_empty());
    }

    #[test]
    fn a_change_is_found_by_number_or_id_and_a_common_number_names_none() {
        let merge = Commit {
            id: "623d9b4aa".into(),
            message: "Merge pull request #1273 from c/escaping".into(),
            files: vec!["src/ser.rs".into()],
            merge: true,
        };
        let mut history = vec![merge, commit("Fix a typo (#1190)", &["src/net.c"])];
        history[1].id = "b6a052fe09".into();
        for _ in 0..4 {
            history.push(commit("Fixes #1", &["src/old.rs"]));
        }
        let history = History::build(history);
        let named = |text: &str| -> Vec<String> {
            let refs = change_refs(text);
            let named = history.named_changes(&refs);
            named.iter().map(|(p, r)| format!("{p} {r}")).collect()
        };
        assert_eq!(named("Touch up PR 1273"), ["src/ser.rs #1273"]);
        assert_eq!(
            named("Fix a typo in B6A052F."),
            ["src/net.c commit b6a052f"]
        );
        assert_eq!(named("regressed in #1190"), ["src/net.c #1190"]);
        assert!(named("the #1 bug").is_empty(), "four commits bear #1");
        // a merge counts only for the queries that name it
        assert_eq!(history.len(), 5);
        assert_eq!(history.changes_of("src/ser.rs"), 0);
        assert!(
            history
                .message_scores(&[(terms::hash("escap"), 1.0)])
                .is_empty()
        );
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
