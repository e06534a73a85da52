//! Line endings for text that an editor re-printed: `toml_edit` writes every line break as LF,
//! and the JSONC CST writes the breaks it adds in the kind of the first break it meets. Files
//! can mix LF and CRLF line by line (a config edited on Windows and on Linux), so
//! [`restore`] gives each line of the new text the ending it had in the original instead:
//!
//! - a line that is there in both (same text) keeps its own ending;
//! - a line the edit changed keeps the ending of the line it replaces;
//! - an inserted line takes the ending of the line it is inserted after (at the very start,
//!   that of the first line break after it);
//! - a file without any line break gets LF, whatever the platform: every client reads both,
//!   and the same input gives the same bytes everywhere.
//!
//! The original's last line may lack an ending; when the new text goes on after it, it takes
//! the ending of the line before it like an inserted line. A new text that ends without a line
//! break keeps that. A line break is LF, CRLF, or a lone CR (which JSON counts as whitespace
//! and the JSONC CST as a line break; TOML has none).
//!
//! A line break inside a string literal (a raw one in a JSONC string, one in a TOML multi-line
//! string) is part of the value, not a line ending: it stays in its line's text, as it is.

use std::ops::Range;

use jsonc_parser::tokens::Token;

use crate::client::Format;

/// One line without its ending, and the ending (`""` only on a last line without one).
#[derive(Clone, Copy)]
struct Line<'a> {
    body: &'a str,
    ending: &'a str,
}

/// The byte ranges of the string literals of `text` that can hold a line break: every JSON/JSONC
/// string (from the parser's tokens), TOML multi-line strings. Empty when `text` does not parse.
fn literals(text: &str, format: Format) -> Vec<Range<usize>> {
    match format {
        Format::Json | Format::Jsonc => {
            let collect = jsonc_parser::CollectOptions {
                comments: jsonc_parser::CommentCollectionStrategy::Off,
                tokens: true,
            };
            jsonc_parser::parse_to_ast(text, &collect, &Default::default())
                .ok()
                .and_then(|parsed| parsed.tokens)
                .map(|tokens| {
                    tokens
                        .into_iter()
                        .filter(|t| matches!(t.token, Token::String(_)))
                        .map(|t| t.range.start..t.range.end)
                        .collect()
                })
                .unwrap_or_default()
        }
        Format::Toml => toml_multiline_strings(text),
    }
}

/// The ranges of TOML's multi-line strings (`"""…"""`, `'''…'''`), skipping comments and
/// one-line strings, where a quote does not open anything.
fn toml_multiline_strings(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            quote @ (b'"' | b'\'') => {
                let start = i;
                let delimiter = [quote; 3];
                let multi = bytes[i..].starts_with(&delimiter);
                i += if multi { 3 } else { 1 };
                while i < bytes.len() {
                    if quote == b'"' && bytes[i] == b'\\' {
                        i += 2;
                    } else if multi && bytes[i..].starts_with(&delimiter) {
                        // Up to two quotes just before the delimiter belong to the value.
                        let run = bytes[i..].iter().take_while(|&&b| b == quote).count();
                        i += run.min(5);
                        break;
                    } else if !multi && (bytes[i] == quote || bytes[i] == b'\n') {
                        i += 1;
                        break;
                    } else {
                        i += 1;
                    }
                }
                if multi {
                    found.push(start..i.min(bytes.len()));
                }
            }
            _ => i += 1,
        }
    }
    found
}

/// The lines of `text`; a line break inside one of `literals` (sorted) stays in the line's body.
fn split<'a>(text: &'a str, literals: &[Range<usize>]) -> Vec<Line<'a>> {
    let bytes = text.as_bytes();
    let mut lines = Vec::new();
    let mut start = 0;
    let mut i = 0;
    let mut literal = literals.iter().peekable();
    while i < bytes.len() {
        while literal.next_if(|r| r.end <= i).is_some() {}
        if let Some(r) = literal.peek()
            && r.contains(&i)
        {
            i = r.end;
            continue;
        }
        let width = match bytes[i] {
            b'\n' => 1,
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => 2,
            b'\r' => 1,
            _ => {
                i += 1;
                continue;
            }
        };
        lines.push(Line {
            body: &text[start..i],
            ending: &text[i..i + width],
        });
        i += width;
        start = i;
    }
    if start < text.len() {
        lines.push(Line {
            body: &text[start..],
            ending: "",
        });
    }
    lines
}

/// `new` with each line break set as the module documentation says; its text is unchanged.
pub(crate) fn restore<'a>(original: &'a str, new: &str, format: Format) -> String {
    if !original.contains('\r') && !new.contains('\r') {
        // Everything is LF already (the common case, also for large files).
        return new.to_string();
    }
    let old = split(original, &literals(original, format));
    let new = split(new, &literals(new, format));
    let old_bodies: Vec<&str> = old.iter().map(|l| l.body).collect();
    let new_bodies: Vec<&str> = new.iter().map(|l| l.body).collect();
    // Myers takes the common prefix and suffix first, so the lines around the edit always
    // pair with themselves, and setup followed by `--remove` pairs the same lines both ways.
    let ops = similar::capture_diff_slices(similar::Algorithm::Myers, &old_bodies, &new_bodies);

    // The ending of a line with none of its own to keep: that of the line before it in the
    // output, else the first of the original from `at` on, else LF.
    let neighbour = |last: Option<&'a str>, at: usize| -> &'a str {
        last.or_else(|| {
            old[at.min(old.len())..]
                .iter()
                .map(|l| l.ending)
                .find(|e| !e.is_empty())
        })
        .unwrap_or("\n")
    };
    let mut out = String::with_capacity(new.iter().map(|l| l.body.len() + 2).sum());
    let mut last: Option<&'a str> = None;
    for op in ops {
        let (tag, old_range, new_range) = op.as_tag_tuple();
        for (k, line) in new[new_range].iter().enumerate() {
            out.push_str(line.body);
            if line.ending.is_empty() {
                continue;
            }
            // Equal and replaced lines pair up in order; the rest of a replacement is inserted.
            let own = match tag {
                similar::DiffTag::Equal | similar::DiffTag::Replace if k < old_range.len() => {
                    old[old_range.start + k].ending
                }
                _ => "",
            };
            let ending = if own.is_empty() {
                neighbour(last, old_range.start + k.min(old_range.len()))
            } else {
                own
            };
            out.push_str(ending);
            last = Some(ending);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::restore;
    use crate::client::Format;

    const J: Format = Format::Jsonc;

    #[test]
    fn unchanged_lines_keep_their_own_ending() {
        let old = "a\r\nb\nc\r\n";
        assert_eq!(restore(old, "a\nb\nc\n", J), old);
        assert_eq!(restore(old, "a\r\nb\r\nc\r\n", J), old);
    }

    #[test]
    fn inserted_lines_follow_the_line_before() {
        assert_eq!(
            restore("a\nb\r\nc\n", "a\nb\nx\ny\nc\n", J),
            "a\nb\r\nx\r\ny\r\nc\n"
        );
        assert_eq!(
            restore("a\r\nb\nc\r\n", "a\nb\nx\nc\n", J),
            "a\r\nb\nx\nc\r\n"
        );
    }

    #[test]
    fn inserted_at_the_start_follow_the_first_break() {
        assert_eq!(restore("a\r\nb\n", "x\na\nb\n", J), "x\r\na\r\nb\n");
        assert_eq!(restore("a", "x\na", J), "x\na");
    }

    #[test]
    fn an_edited_line_keeps_its_ending_and_lines_split_off_follow_it() {
        assert_eq!(restore("a\nb\r\nc\n", "a\nB\nc\n", J), "a\nB\r\nc\n");
        assert_eq!(
            restore("{\n  \"s\": {}\r\n}\n", "{\n  \"s\": {\n    x\n  }\n}\n", J),
            "{\n  \"s\": {\r\n    x\r\n  }\r\n}\n"
        );
    }

    #[test]
    fn a_continued_last_line_takes_the_nearest_break_before_it() {
        assert_eq!(
            restore("a\nb\r\nc", "a\nb\nc\n\nx\n", J),
            "a\nb\r\nc\r\n\r\nx\r\n"
        );
        assert_eq!(restore("a\r\nb", "a\nb", J), "a\r\nb");
    }

    #[test]
    fn without_any_line_break_lf() {
        assert_eq!(restore("{}", "{\r\n  x\r\n}", J), "{\n  x\n}");
        assert_eq!(restore("", "x\r\ny\r\n", J), "x\ny\n");
    }

    #[test]
    fn lone_carriage_returns_count_as_breaks() {
        // A CST that took a lone CR as the file's line break: the inserted lines still follow
        // their neighbour.
        assert_eq!(
            restore("\r{\n  a\n}\n", "\r{\n  a,\r  b\r}\n", J),
            "\r{\n  a,\n  b\n}\n"
        );
    }

    #[test]
    fn line_breaks_inside_strings_are_content() {
        // A raw CRLF in a JSONC string, in a file whose CST print breaks lines with a lone CR.
        let old = "{\"a\":\"x\r\ny\",\r\"b\":1}";
        let new = "{\r  \"a\":\"x\r\ny\",\r  \"b\":1,\r  \"s\": {}\r}";
        assert_eq!(restore(old, new, J), new);
        // A TOML multi-line string keeps its LF in a CRLF file; a `'''` in a comment or a
        // one-line string opens nothing.
        let old = "a = \"\"\"x\ny\"\"\"\r\n# '''\r\nb = \"'''\"\r\n";
        let new = "a = \"\"\"x\ny\"\"\"\n# '''\nb = \"'''\"\n[s]\nc = 1\n";
        assert_eq!(
            restore(old, new, Format::Toml),
            "a = \"\"\"x\ny\"\"\"\r\n# '''\r\nb = \"'''\"\r\n[s]\r\nc = 1\r\n"
        );
        assert_eq!(
            super::toml_multiline_strings("a = '''x''''\n# \"\"\"\nb = \"\"\"\n\\\"\"\"\"\"\""),
            vec![4..12, 23..34]
        );
    }
}
