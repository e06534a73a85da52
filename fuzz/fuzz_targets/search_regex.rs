//! `search_project`'s regex: `compile_search_regex` (size, nesting and length limits), then the
//! compiled regex run over a bounded text by the search's own per-file grep, with 0 and 2
//! context lines, with or without case folding (a parity bit of the input chooses).
//!
//! Input: UTF-8 text; the first line is the pattern, the rest is the file text searched.
//!
//! Invariants: compiling never panics and refuses only with DPX-MCP-INVALID-PATTERN; the
//! whole-text prefilter never changes a result (a pattern it applies to that matches a line
//! also matches the whole text); every matching line is reported once as a match, with its
//! number and text, and every other reported line is context within `context` lines of a
//! match; groups are in order, contiguous, and never touch.
#![no_main]

use devprojex::engine::fuzzing::{GrepGroup, compile_search_regex, grep, whole_text_prefilter};
use devprojex::engine::limits::MAX_REGEX_CHARS;
use devprojex::error::codes;
use libfuzzer_sys::fuzz_target;

fn check_groups(lines: &[&str], matched: &[bool], context: usize, groups: &[GrepGroup]) {
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
            assert_eq!(line.text, lines[index].trim_end_matches('\r'));
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
            assert_eq!(err.code, codes::INVALID_PATTERN, "{}", err.message);
            return;
        }
    };
    assert!(!pattern.is_empty() && pattern.chars().count() <= MAX_REGEX_CHARS);
    let lines: Vec<&str> = text.lines().collect();
    let matched: Vec<bool> = lines.iter().map(|line| regex.is_match(line)).collect();
    let prefilter = whole_text_prefilter(pattern);
    if prefilter && matched.contains(&true) {
        assert!(
            regex.is_match(text),
            "{pattern:?} matches a line but not the whole text"
        );
    }
    for context in [0, 2] {
        let groups = grep(text, &regex, context, false);
        check_groups(&lines, &matched, context, &groups);
        if prefilter {
            assert_eq!(
                grep(text, &regex, context, true),
                groups,
                "the whole-text prefilter changed the result of {pattern:?}"
            );
        }
    }
});
