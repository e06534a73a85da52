//! Entry points for the fuzz targets in `fuzz/` (not an API: hidden from the docs, may change
//! with the code it exposes): the search's per-file grep, which is private to the engine.

pub use super::compile_search_regex;

/// One line of a search result group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrepLine {
    /// 1-based line number.
    pub number: usize,
    pub is_match: bool,
    /// The line without its line break.
    pub text: String,
}

/// Whether `Engine::search` lets `grep` skip a text whose whole does not match.
pub fn whole_text_prefilter(pattern: &str) -> bool {
    super::whole_text_prefilter(pattern)
}

/// A group of consecutive match and context lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrepGroup {
    /// How many of `lines` match (what `max_results` counts).
    pub matches: usize,
    pub lines: Vec<GrepLine>,
}

/// `grep_file`: the groups of match and context lines of one text.
pub fn grep(
    text: &str,
    regex: &regex::Regex,
    context: usize,
    whole_text_check: bool,
) -> Vec<GrepGroup> {
    super::grep_file(text, regex, context, whole_text_check)
        .into_iter()
        .map(|group| GrepGroup {
            matches: group.matches,
            lines: group
                .lines
                .into_iter()
                .map(|line| GrepLine {
                    number: line.number,
                    is_match: line.is_match,
                    text: line.text,
                })
                .collect(),
        })
        .collect()
}
