//! Grep one file's (redacted) text: match lines and context lines, grep-style.
//!
//! Memory and time stay bounded inside one file, however it is shaped:
//! - nothing is kept per line: matches are found with the regex's own search over the text
//!   (its literal prefilters skip most of it), then each candidate line is checked alone, so a
//!   line matches exactly when `regex.is_match(line)` (the line-based meaning every caller gets);
//! - the text is searched in line-aligned chunks, and the deadline is checked between chunks
//!   and between candidate lines, so one slow pattern on one large file stops on time;
//! - at most `max_matches` match lines are collected per file (no caller needs more), and a
//!   shown line is cut to a window around its first match.

use std::time::Instant;

/// A shown line longer than this many characters is cut to a window around the match.
pub const MAX_SHOWN_LINE_CHARS: usize = 2000;

/// Search in chunks of about this many bytes (cut at line ends; one longer line is one chunk).
const CHUNK_BYTES: usize = 64 * 1024;

/// One line of search output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HitLine {
    pub number: usize,
    pub is_match: bool,
    pub text: String,
}

/// Consecutive match and context lines of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HitGroup {
    pub matches: usize,
    pub lines: Vec<HitLine>,
}

/// What the search of one file found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileGrep {
    /// Match and context lines (none when only counting).
    pub groups: Vec<HitGroup>,
    /// Match lines found (at most `max_matches`).
    pub matches: usize,
    /// The deadline passed before the whole file was searched.
    pub timed_out: bool,
    /// Bytes of the text searched (all of it unless `timed_out`).
    pub searched_bytes: usize,
    /// Bytes of the text.
    pub length: usize,
}

impl FileGrep {
    /// The share of the text searched, in whole percent (rounded down: 100 only when done).
    pub fn searched_percent(&self) -> u8 {
        if self.length == 0 || !self.timed_out {
            return 100;
        }
        (self.searched_bytes * 100 / self.length).min(99) as u8
    }
}

/// How one file is searched.
pub struct Grep<'a> {
    pub regex: &'a regex::Regex,
    /// Patterns that anchor to the text's ends (`\A`, `\z`) or change flags inline are matched
    /// line by line only; others are searched over the whole text first.
    pub line_by_line: bool,
    pub context: usize,
    /// Collect at most this many match lines. The caller cuts its output at its own limit, so
    /// give one more than it shows: the extra match marks where the last shown group ends.
    pub max_matches: usize,
    pub deadline: Option<Instant>,
    /// Count the match lines only (no lines are kept).
    pub count_only: bool,
}

impl Grep<'_> {
    /// True when `pattern` must be matched line by line (see [`Grep::line_by_line`]).
    pub fn needs_line_by_line(pattern: &str) -> bool {
        ["\\A", "\\z", "\\Z", "(?"]
            .iter()
            .any(|marker| pattern.contains(marker))
    }

    fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Search `text`.
    pub fn file(&self, text: &str) -> FileGrep {
        let mut hits: Vec<Hit> = Vec::new();
        let mut timed_out = false;
        let mut lines = LineCounter::default();
        let bytes = text.as_bytes();
        let mut chunk_start = 0;
        'chunks: while chunk_start < text.len() && hits.len() < self.max_matches {
            if self.past_deadline() {
                timed_out = true;
                break;
            }
            let chunk_end = line_aligned_end(bytes, chunk_start, CHUNK_BYTES);
            let chunk = &text[chunk_start..chunk_end];
            if self.line_by_line {
                let mut at = 0;
                while at < chunk.len() {
                    let end = memchr::memchr(b'\n', &chunk.as_bytes()[at..])
                        .map_or(chunk.len(), |i| at + i);
                    let line = strip_cr(&chunk[at..end]);
                    if self.regex.is_match(line) {
                        let start = chunk_start + at;
                        hits.push(Hit {
                            number: lines.number_at(bytes, start),
                            start,
                        });
                        if hits.len() >= self.max_matches {
                            break 'chunks;
                        }
                    }
                    at = end + 1;
                }
            } else {
                let mut at = 0;
                // A line match is always a match of the chunk (multi-line, CRLF-aware anchors;
                // chunks start at line starts), so the regex's own search finds every candidate.
                while let Some(found) = self.regex.find_at(chunk, at) {
                    // An empty match at the chunk's end belongs to the next chunk, or is past
                    // the last line, unless the text ends here without a line break: then it
                    // is the end of the last line (`$` on `a\nb` matches both lines).
                    if found.start() >= chunk.len()
                        && (chunk_end < text.len() || chunk.ends_with('\n'))
                    {
                        break;
                    }
                    let line_start = memchr::memrchr(b'\n', &chunk.as_bytes()[..found.start()])
                        .map_or(0, |i| i + 1);
                    let line_end = memchr::memchr(b'\n', &chunk.as_bytes()[found.start()..])
                        .map_or(chunk.len(), |i| found.start() + i);
                    if self.regex.is_match(strip_cr(&chunk[line_start..line_end])) {
                        let start = chunk_start + line_start;
                        hits.push(Hit {
                            number: lines.number_at(bytes, start),
                            start,
                        });
                        if hits.len() >= self.max_matches {
                            break 'chunks;
                        }
                    }
                    if line_end >= chunk.len() {
                        break;
                    }
                    at = line_end + 1;
                    if self.past_deadline() {
                        timed_out = true;
                        break 'chunks;
                    }
                }
            }
            chunk_start = chunk_end;
        }
        FileGrep {
            groups: if self.count_only {
                Vec::new()
            } else {
                self.groups(text, &hits)
            },
            matches: hits.len(),
            timed_out,
            searched_bytes: if timed_out { chunk_start } else { text.len() },
            length: text.len(),
        }
    }

    /// Group hits with their context lines; groups whose context would touch merge.
    fn groups(&self, text: &str, hits: &[Hit]) -> Vec<HitGroup> {
        let bytes = text.as_bytes();
        let mut groups = Vec::new();
        let mut index = 0;
        while index < hits.len() {
            let first = index;
            while index + 1 < hits.len()
                && hits[index + 1].number <= hits[index].number + 2 * self.context + 1
            {
                index += 1;
            }
            let group_hits = &hits[first..=index];
            // Back up `context` lines from the first hit.
            let mut start = group_hits[0].start;
            let mut number = group_hits[0].number;
            for _ in 0..self.context {
                if start == 0 {
                    break;
                }
                start = memchr::memrchr(b'\n', &bytes[..start - 1]).map_or(0, |i| i + 1);
                number -= 1;
            }
            let last_number = group_hits[group_hits.len() - 1].number + self.context;
            let mut lines = Vec::new();
            let mut next_hit = 0;
            let mut at = start;
            while number <= last_number && at < text.len() {
                let end = memchr::memchr(b'\n', &bytes[at..]).map_or(text.len(), |i| at + i);
                let is_match = next_hit < group_hits.len() && group_hits[next_hit].start == at;
                if is_match {
                    next_hit += 1;
                }
                let line = strip_cr(&text[at..end]);
                lines.push(HitLine {
                    number,
                    is_match,
                    text: self.shown(line, is_match),
                });
                number += 1;
                at = end + 1;
            }
            groups.push(HitGroup {
                matches: group_hits.len(),
                lines,
            });
            index += 1;
        }
        groups
    }

    /// A line as shown: whole, or a window of [`MAX_SHOWN_LINE_CHARS`] around its first match
    /// (the start, for context lines) with `…` where it was cut.
    fn shown(&self, line: &str, is_match: bool) -> String {
        if line.len() <= MAX_SHOWN_LINE_CHARS {
            return line.to_string();
        }
        let total = line.chars().count();
        if total <= MAX_SHOWN_LINE_CHARS {
            return line.to_string();
        }
        let anchor = if is_match {
            self.regex
                .find(line)
                .map_or(0, |m| line[..m.start()].chars().count())
        } else {
            0
        };
        let from = anchor
            .saturating_sub(MAX_SHOWN_LINE_CHARS / 4)
            .min(total - MAX_SHOWN_LINE_CHARS);
        let to = from + MAX_SHOWN_LINE_CHARS;
        let mut out = String::with_capacity(MAX_SHOWN_LINE_CHARS * 2 + 8);
        if from > 0 {
            out.push('…');
        }
        out.extend(line.chars().skip(from).take(MAX_SHOWN_LINE_CHARS));
        if to < total {
            out.push('…');
        }
        out
    }
}

#[derive(Debug, Clone, Copy)]
struct Hit {
    number: usize,
    /// Byte offset of the line's start.
    start: usize,
}

/// Line numbers by counting newlines once, front to back.
#[derive(Default)]
struct LineCounter {
    counted_to: usize,
    line: usize,
}

impl LineCounter {
    /// The 1-based number of the line starting at byte `at` (calls come in increasing order).
    fn number_at(&mut self, bytes: &[u8], at: usize) -> usize {
        self.line += memchr::memchr_iter(b'\n', &bytes[self.counted_to..at]).count();
        self.counted_to = at;
        self.line + 1
    }
}

fn strip_cr(line: &str) -> &str {
    line.strip_suffix('\r').unwrap_or(line)
}

/// The end of a chunk that starts at `start`: just after the first newline at or past
/// `start + size`, or the end of the text.
fn line_aligned_end(bytes: &[u8], start: usize, size: usize) -> usize {
    let target = start + size;
    if target >= bytes.len() {
        return bytes.len();
    }
    memchr::memchr(b'\n', &bytes[target..]).map_or(bytes.len(), |i| target + i + 1)
}

/// Where a path is ambiguous in `path:N:text` / `path-N-text` lines, it is quoted.
///
/// A path is written as a double-quoted string (with `\"` and `\\` escaped) when it contains a
/// `:`, a `"` or a `\`, or a `-` followed by digits and `-`, or starts or ends with a space;
/// otherwise as it is. So `path`, line number and text always separate unambiguously: an
/// unquoted path ends at the first `:` or `-N-`, a quoted one at its closing quote.
pub fn shown_path(path: &str) -> String {
    let bytes = path.as_bytes();
    let dash_digits_dash = bytes.iter().enumerate().any(|(i, &b)| {
        b == b'-' && {
            let digits = bytes[i + 1..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
            digits > 0 && bytes.get(i + 1 + digits) == Some(&b'-')
        }
    });
    let needs_quotes = path.contains([':', '"', '\\'])
        || dash_digits_dash
        || path.starts_with(' ')
        || path.ends_with(' ')
        || path.starts_with("--");
    if !needs_quotes {
        return path.to_string();
    }
    let mut out = String::with_capacity(path.len() + 2);
    out.push('"');
    for c in path.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// Grep-style lines: `path:N:text` for matches, `path-N-text` for context, and `--` between
/// groups when context lines are shown (`separated`; every line names its file and number).
pub fn render_group(out: &mut String, path: &str, lines: &[HitLine], separated: bool) {
    use std::fmt::Write as _;
    if separated && !out.is_empty() {
        out.push_str("--\n");
    }
    for line in lines {
        let separator = if line.is_match { ':' } else { '-' };
        let _ = writeln!(
            out,
            "{path}{separator}{}{separator}{}",
            line.number, line.text
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grep(pattern: &str, text: &str, context: usize) -> Vec<String> {
        let regex = crate::engine::compile_search_regex(pattern, false).unwrap();
        let grep = Grep {
            regex: &regex,
            line_by_line: Grep::needs_line_by_line(pattern),
            context,
            max_matches: 200,
            deadline: None,
            count_only: false,
        };
        let mut out = String::new();
        for group in grep.file(text).groups {
            render_group(&mut out, "f", &group.lines, context > 0);
        }
        out.lines().map(str::to_string).collect()
    }

    /// The reference meaning: a line matches when the regex matches it alone.
    fn reference(pattern: &str, text: &str) -> Vec<String> {
        let regex = crate::engine::compile_search_regex(pattern, false).unwrap();
        text.lines()
            .enumerate()
            .filter(|(_, line)| regex.is_match(line))
            .map(|(i, line)| format!("f:{}:{line}", i + 1))
            .collect()
    }

    #[test]
    fn whole_text_search_never_hides_or_invents_a_line_match() {
        assert_eq!(grep("foo$", "x\r\nfoo\r\ny\r\n", 0), ["f:2:foo"]);
        assert_eq!(grep("^b", "a\nb\n", 0), ["f:2:b"]);
        assert_eq!(grep("(?-m)^b", "a\nb\n", 0), ["f:2:b"]);
        assert_eq!(grep(r"\Ab", "a\nb\n", 0), ["f:2:b"]);
        assert_eq!(grep(r"\bword\b", "a word\n", 0), ["f:1:a word"]);
        assert!(grep("absent", "a\nb\n", 0).is_empty());
        // A match that only exists across a line break is not a line match.
        assert!(grep(r"a\nb", "a\nb\n", 0).is_empty());
        // Without context lines there are no `--` separators: every line names its file and number.
        assert_eq!(grep(r"a\s*$", "a\n\nb a\n", 0), ["f:1:a", "f:3:b a"]);
        assert_eq!(grep("^$", "a\n\nb\n", 0), ["f:2:"]);
        // An empty match at the end of a last line without a line break (a fuzz input).
        assert_eq!(grep("$", "a\r\nb\nc", 0), ["f:1:a", "f:2:b", "f:3:c"]);
        assert_eq!(grep("$", "a\nb\n", 0), ["f:1:a", "f:2:b"]);
        assert_eq!(grep(r"\z", "a\nb", 0), reference(r"\z", "a\nb"));
    }

    #[test]
    fn context_and_groups_like_grep() {
        let text = "1\nhit\n3\n4\n5\n6\nhit\n8\n";
        assert_eq!(
            grep("hit", text, 1),
            [
                "f-1-1", "f:2:hit", "f-3-3", "--", "f-6-6", "f:7:hit", "f-8-8"
            ]
        );
        // Close hits share one group.
        assert_eq!(
            grep("hit", "hit\nx\nhit\n", 1),
            ["f:1:hit", "f-2-x", "f:3:hit"]
        );
        // The last line without a newline.
        assert_eq!(grep("end", "a\nend", 2), ["f-1-a", "f:2:end"]);
    }

    #[test]
    fn chunked_search_agrees_with_the_line_by_line_reference() {
        // Long enough for several chunks, with matches at chunk edges and CRLF lines.
        let mut text = String::new();
        for i in 0..60_000 {
            match i % 7 {
                0 => text.push_str(&format!("needle {i}\r\n")),
                3 => text.push_str("x\n"),
                _ => text.push_str(&format!("plain line number {i} with some words\n")),
            }
        }
        for pattern in [
            r"needle \d+$",
            r"^x$",
            r"words$",
            r"\bnumber 59\d{3}\b",
            r"\Aneedle",
        ] {
            let regex = crate::engine::compile_search_regex(pattern, false).unwrap();
            let grep = Grep {
                regex: &regex,
                line_by_line: Grep::needs_line_by_line(pattern),
                context: 0,
                max_matches: usize::MAX,
                deadline: None,
                count_only: false,
            };
            let mut got = String::new();
            for group in grep.file(&text).groups {
                render_group(&mut got, "f", &group.lines, false);
            }
            let got: Vec<String> = got
                .lines()
                .filter(|l| *l != "--")
                .map(str::to_string)
                .collect();
            assert_eq!(got, reference(pattern, &text), "{pattern}");
        }
    }

    #[test]
    fn a_passed_deadline_stops_inside_the_file() {
        let text = "line\n".repeat(2_000_000);
        let regex = crate::engine::compile_search_regex("absent", false).unwrap();
        let grep = Grep {
            regex: &regex,
            line_by_line: false,
            context: 0,
            max_matches: 10,
            deadline: Some(Instant::now()),
            count_only: false,
        };
        let found = grep.file(&text);
        assert!(found.timed_out);
        assert!(found.groups.is_empty());
        assert_eq!(found.searched_bytes, 0, "it says how far it got");
    }

    #[test]
    fn long_lines_show_a_window_around_the_match() {
        let line = format!("{}NEEDLE{}", "a".repeat(30_000), "b".repeat(30_000));
        let out = grep("NEEDLE", &line, 0);
        assert_eq!(out.len(), 1);
        let shown = &out[0];
        assert!(shown.contains("NEEDLE"), "{shown}");
        assert!(
            shown.starts_with("f:1:…") && shown.ends_with('…'),
            "{shown}"
        );
        assert!(shown.chars().count() < MAX_SHOWN_LINE_CHARS + 20);
    }

    #[test]
    fn ambiguous_paths_are_quoted() {
        assert_eq!(shown_path("src/main.rs"), "src/main.rs");
        assert_eq!(shown_path("a-b.txt"), "a-b.txt");
        assert_eq!(shown_path("a.txt:99:x"), r#""a.txt:99:x""#);
        assert_eq!(shown_path("a-1-b"), r#""a-1-b""#);
        assert_eq!(shown_path(r#"q"\"#), r#""q\"\\""#);
    }
}
