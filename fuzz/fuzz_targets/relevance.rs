//! The relevance ranker of `relevant_files` and `pack --query` (`devprojex_rank`): a query
//! parsed from any text, ranked over files and a history made from the same input.
//!
//! Input: UTF-8 text. The first line is the query; the rest is split at lines that start with
//! `@@ ` into files (the rest of that line is the file's path, the lines after it its text).
//! Each file's first line is also the message of a commit that changed it and the next file,
//! its second line that commit's id; every other commit is a merge (found only by queries that
//! name it: `#12`, `PR 12`, an id).
//!
//! A file's definitions, for its line ranges, are its lines that start with `fn ` (the next
//! word is the name), and two outside its text (line 0 and past its end).
//!
//! Invariants: nothing panics; at most `max_results` files, each index once and in range,
//! scores finite and in (0, 1], best first; the same answer twice; one finite, positive idf
//! per query term; every line range lies within its file, start before end, apart from the
//! others; the centrality has one finite score per file.
#![no_main]

use devprojex_rank::{
    Candidate, Commit, Definition, FileTerms, History, Query, Signals, centrality, ranges, rank,
    rank_weighing,
};
use libfuzzer_sys::fuzz_target;

const MAX_RESULTS: usize = 5;

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else {
        return;
    };
    let (query_text, rest) = input.split_once('\n').unwrap_or((input, ""));
    let mut files: Vec<(String, String)> = Vec::new();
    for section in rest.split("\n@@ ").skip(1).take(16) {
        let (path, text) = section.split_once('\n').unwrap_or((section, ""));
        files.push((path.to_string(), text.to_string()));
    }
    let commits: Vec<Commit> = files
        .iter()
        .enumerate()
        .map(|(i, (path, text))| Commit {
            id: text.lines().nth(1).unwrap_or_default().to_string(),
            merge: i % 2 == 1,
            message: text.lines().next().unwrap_or_default().to_string(),
            files: files[i..files.len().min(i + 2)]
                .iter()
                .map(|(p, _)| p.clone())
                .chain(std::iter::once(path.clone()))
                .collect(),
        })
        .collect();
    let history = History::build(commits);
    let terms: Vec<FileTerms> = files.iter().map(|(p, t)| FileTerms::of(p, t)).collect();
    let candidates: Vec<Candidate<'_>> = files
        .iter()
        .zip(&terms)
        .map(|((path, _), terms)| Candidate { path, terms })
        .collect();
    let query = Query::parse(query_text);

    let (ranked, idf) = rank_weighing(
        &query,
        &candidates,
        Some(&history),
        Signals::default(),
        MAX_RESULTS,
    );
    assert!(ranked.len() <= MAX_RESULTS);
    assert_eq!(idf.len(), query.terms.len());
    assert!(
        candidates.is_empty() || idf.iter().all(|w| w.is_finite() && *w > 0.0),
        "{idf:?}"
    );
    let mut seen = std::collections::HashSet::new();
    for (i, r) in ranked.iter().enumerate() {
        assert!(r.index < candidates.len(), "{r:?}");
        assert!(seen.insert(r.index), "{} twice", r.index);
        assert!(
            r.score.is_finite() && r.score > 0.0 && r.score <= 1.0,
            "{r:?}"
        );
        if i > 0 {
            assert!(ranked[i - 1].score >= r.score, "not best first");
        }
    }
    let again = rank(
        &query,
        &candidates,
        Some(&history),
        Signals::default(),
        MAX_RESULTS,
    );
    assert_eq!(ranked, again, "not the same twice");

    for r in &ranked {
        let text = &files[r.index].1;
        let lines = text.lines().count();
        let mut definitions: Vec<Definition<'_>> = text
            .lines()
            .enumerate()
            .filter_map(|(i, line)| {
                let name = line.strip_prefix("fn ")?.split_whitespace().next()?;
                Some(Definition {
                    line: i + 1,
                    name,
                    qualified: name.to_string(),
                })
            })
            .collect();
        for line in [0, lines + 5] {
            definitions.push(Definition {
                line,
                name: "outside",
                qualified: "outside".into(),
            });
        }
        let (found, _) = ranges(text, &query, &idf, &definitions, 3);
        assert!(found.len() <= 3);
        for (k, &(start, end)) in found.iter().enumerate() {
            assert!(
                1 <= start && start <= end && end <= lines.max(1),
                "{start}-{end} of {lines}"
            );
            assert!(k == 0 || found[k - 1].1 < start, "{found:?}");
        }
    }

    let central = centrality(&candidates, Signals::default());
    assert_eq!(central.len(), candidates.len());
    assert!(central.iter().all(|c| c.is_finite()));
});
