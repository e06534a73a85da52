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

/// One line without its ending, and the ending (`""` only on a last line without one).
#[derive(Clone, Copy)]
struct Line<'a> {
    body: &'a str,
    ending: &'a str,
}

fn split(text: &str) -> Vec<Line<'_>> {
    let bytes = text.as_bytes();
    let mut lines = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
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
pub(crate) fn restore<'a>(original: &'a str, new: &str) -> String {
    if !original.contains('\r') && !new.contains('\r') {
        // Everything is LF already (the common case, also for large files).
        return new.to_string();
    }
    let old = split(original);
    let new = split(new);
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

    #[test]
    fn unchanged_lines_keep_their_own_ending() {
        let old = "a\r\nb\nc\r\n";
        assert_eq!(restore(old, "a\nb\nc\n"), old);
        assert_eq!(restore(old, "a\r\nb\r\nc\r\n"), old);
    }

    #[test]
    fn inserted_lines_follow_the_line_before() {
        assert_eq!(
            restore("a\nb\r\nc\n", "a\nb\nx\ny\nc\n"),
            "a\nb\r\nx\r\ny\r\nc\n"
        );
        assert_eq!(restore("a\r\nb\nc\r\n", "a\nb\nx\nc\n"), "a\r\nb\nx\nc\r\n");
    }

    #[test]
    fn inserted_at_the_start_follow_the_first_break() {
        assert_eq!(restore("a\r\nb\n", "x\na\nb\n"), "x\r\na\r\nb\n");
        assert_eq!(restore("a", "x\na"), "x\na");
    }

    #[test]
    fn an_edited_line_keeps_its_ending_and_lines_split_off_follow_it() {
        assert_eq!(restore("a\nb\r\nc\n", "a\nB\nc\n"), "a\nB\r\nc\n");
        assert_eq!(
            restore("{\n  \"s\": {}\r\n}\n", "{\n  \"s\": {\n    x\n  }\n}\n"),
            "{\n  \"s\": {\r\n    x\r\n  }\r\n}\n"
        );
    }

    #[test]
    fn a_continued_last_line_takes_the_nearest_break_before_it() {
        assert_eq!(
            restore("a\nb\r\nc", "a\nb\nc\n\nx\n"),
            "a\nb\r\nc\r\n\r\nx\r\n"
        );
        assert_eq!(restore("a\r\nb", "a\nb"), "a\r\nb");
    }

    #[test]
    fn without_any_line_break_lf() {
        assert_eq!(restore("{}", "{\r\n  x\r\n}"), "{\n  x\n}");
        assert_eq!(restore("", "x\r\ny\r\n"), "x\ny\n");
    }

    #[test]
    fn lone_carriage_returns_count_as_breaks() {
        // A CST that took a lone CR as the file's line break: the inserted lines still follow
        // their neighbour.
        assert_eq!(
            restore("\r{\n  a\n}\n", "\r{\n  a,\r  b\r}\n"),
            "\r{\n  a,\n  b\n}\n"
        );
    }
}
