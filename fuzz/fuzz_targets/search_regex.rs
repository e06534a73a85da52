//! `search_project`'s regex: `compile_search_regex` (size, nesting and length limits), then the
//! compiled regex run over a bounded text by the search's own per-file grep (`grep::Grep`),
//! with 0 and 2 context lines, with or without case folding (a parity bit of the input
//! chooses), line by line and whole text first, with and without a match limit.
//!
//! Input: UTF-8 text; the first line is the pattern, the rest is the file text searched.
//!
//! Invariants: compiling never panics and refuses only with DPX-MCP-INVALID-PATTERN; searching
//! the whole text first never changes a result; every line (cut at `\n`, without its `\r`)
//! that `is_match` is reported once as a match, with its number and its text (or a window of
//! it, for long lines), and every other reported line is context within `context` lines of a
//! match; groups are in order, contiguous, and never touch; a match limit keeps the first
//! matches.
#![no_main]

use devprojex::engine::compile_search_regex;
use devprojex::error::ErrorKind;
use devprojex::grep::{Grep, HitGroup, MAX_SHOWN_LINE_CHARS};
use devprojex::limits::MAX_REGEX_CHARS;
use libfuzzer_sys::fuzz_target;

/// The lines `Grep` searches: the text cut at `\n`, one trailing `\r` dropped from each.
fn lines_of(text: &str) -> Vec<&str> {
    let body = text.strip_suffix('\n').unwrap_or(text);
    if text.is_empty() {
        return Vec::new();
    }
    body.split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect()
}

fn check_groups(lines: &[&str], matched: &[bool], context: usize, groups: &[HitGroup]) {
    let mut reported = vec![false; lines.len()];
    let mut previous_last: Option<usize> = None;
    for group in groups {
        assert!(!group.lines.is_empty(), "an empty group");
        assert_eq!(
            group.matches,
            group.lines.iter().filter(|l| l.is_match).count()
        );
        assert!(group.matches > 0, "a group without a match");
        let first = group.lines[0].number;
        if let Some(last) = previous_last {
            assert!(
                first > last + 1,
                "groups touch or overlap: {last} then {first}"
            );
        }
        for (offset, line) in group.lines.iter().enumerate() {
            assert_eq!(line.number, first + offset, "a group is not contiguous");
            let index = line.number - 1;
            assert!(
                index < lines.len(),
                "line {} of {}",
                line.number,
                lines.len()
            );
            assert_eq!(line.is_match, matched[index], "line {}", line.number);
            let original = lines[index];
            if original.chars().count() <= MAX_SHOWN_LINE_CHARS {
                assert_eq!(line.text, original);
            } else {
                let window = line.text.trim_matches('…');
                assert!(window.chars().count() <= MAX_SHOWN_LINE_CHARS);
                assert!(
                    original.contains(window),
                    "a shown window is not of its line"
                );
            }
            reported[index] = true;
            if !line.is_match {
                let near = index.saturating_sub(context)..=(index + context).min(lines.len() - 1);
                assert!(
                    near.into_iter().any(|i| matched[i]),
                    "context line {} is not within {context} lines of a match",
                    line.number
                );
            }
        }
        previous_last = group.lines.last().map(|l| l.number);
    }
    for (index, is_match) in matched.iter().enumerate() {
        assert!(
            !is_match || reported[index],
            "match on line {} missed",
            index + 1
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else {
        return;
    };
    let (pattern, text) = input.split_once('\n').unwrap_or((input, ""));
    // Compiling costs most of a run, so case folding is chosen by the input, not tried both ways.
    let ignore_case = data.iter().fold(0u8, |acc, &b| acc ^ b) & 1 == 1;
    let regex = match compile_search_regex(pattern, ignore_case) {
        Ok(regex) => regex,
        Err(err) => {
            assert_eq!(err.kind, ErrorKind::InvalidPattern, "{}", err.message);
            return;
        }
    };
    assert!(!pattern.is_empty() && pattern.chars().count() <= MAX_REGEX_CHARS);
    let lines = lines_of(text);
    let matched: Vec<bool> = lines.iter().map(|line| regex.is_match(line)).collect();
    let whole_text_first = !Grep::needs_line_by_line(pattern);
    for context in [0, 2] {
        let grep = |line_by_line: bool, max_matches: usize| {
            let result = Grep {
                regex: &regex,
                line_by_line,
                context,
                max_matches,
                deadline: None,
                count_only: false,
            }
            .file(text);
            assert!(!result.timed_out);
            result.groups
        };
        let groups = grep(true, usize::MAX);
        check_groups(&lines, &matched, context, &groups);
        if whole_text_first {
            assert_eq!(
                grep(false, usize::MAX),
                groups,
                "searching the whole text first changed the result of {pattern:?}"
            );
        }
        // A match limit keeps the first matches, with their groups.
        let limited = grep(!whole_text_first, 2);
        let first_two: Vec<usize> = matched
            .iter()
            .enumerate()
            .filter(|(_, m)| **m)
            .map(|(i, _)| i + 1)
            .take(2)
            .collect();
        let got: Vec<usize> = limited
            .iter()
            .flat_map(|g| g.lines.iter().filter(|l| l.is_match).map(|l| l.number))
            .collect();
        assert_eq!(got, first_two, "the match limit kept other matches");
    }
});
