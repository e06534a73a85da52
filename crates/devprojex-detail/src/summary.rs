//! `signatures` keeps the summary of each doc comment and docstring: its first paragraph, up to
//! the first blank doc line outside a fenced code block. Pure text helpers; the engine decides
//! which comments and strings are docs.

/// The doc marker a kept line comment starts with (`///`, `//!`, Lua `---`, Go `//`, Ruby `#`),
/// or `None` for block comments and anything else.
pub(crate) fn line_prefix(comment: &str) -> Option<&'static str> {
    ["///", "//!", "---", "//", "#"]
        .into_iter()
        .find(|p| comment.starts_with(p))
        .filter(|_| !comment.starts_with("/*"))
}

/// Whether a comment after the cut may go: for plain `//` and `#` runs (Go, Ruby), only prose
/// lines (`// text`, `//`): `//go:generate` and other directives stay.
pub(crate) fn droppable(prefix: &str, comment: &str) -> bool {
    let rest = &comment[prefix.len()..];
    !matches!(prefix, "//" | "#") || rest.trim().is_empty() || rest.starts_with([' ', '\t'])
}

fn is_fence(content: &str) -> bool {
    let t = content.trim_start();
    t.starts_with("```") || t.starts_with("~~~")
}

/// Index of the first blank line that ends the first paragraph of `lines` (doc text with the
/// markers already stripped): leading blank lines do not count, nor do blank lines inside a
/// fenced code block. With `tags`, a line starting a block tag ends it too
/// ([`starts_block_tag`]).
pub(crate) fn paragraph_end<'a>(
    lines: impl IntoIterator<Item = &'a str>,
    tags: bool,
) -> Option<usize> {
    let mut seen_text = false;
    let mut in_fence = false;
    // C#'s XML doc comments: the summary is the `<summary>` element, blank lines and all.
    let mut in_summary_element = false;
    let mut in_pre = false;
    for (i, line) in lines.into_iter().enumerate() {
        let trimmed = line.trim();
        if !seen_text && trimmed.starts_with("<summary>") {
            in_summary_element = true;
        }
        if in_summary_element {
            seen_text = true;
            if trimmed.contains("</summary>") {
                return Some(i + 1);
            }
            continue;
        }
        if is_fence(line) {
            in_fence = !in_fence;
        }
        // Javadoc's preformatted blocks hold blank lines of their own, as fences do.
        if ["<pre>", "<pre ", "<PRE>", "<PRE "]
            .iter()
            .any(|tag| trimmed.contains(tag))
        {
            in_pre = true;
        }
        if trimmed.contains("</pre>") || trimmed.contains("</PRE>") {
            in_pre = false;
        }
        if (trimmed.is_empty() || (tags && starts_block_tag(trimmed)))
            && seen_text
            && !in_fence
            && !in_pre
        {
            return Some(i);
        }
        if !trimmed.is_empty() {
            seen_text = true;
        }
    }
    None
}

/// Whether a doc line starts a block tag (`@param x`, `@return`, Doxygen's `\param`): in
/// Javadoc, JSDoc, PHPDoc, KDoc and Doxygen the description ends where the tags begin, so the
/// summary ends there even without a blank line (libstdc++ writes `@brief ...` and its `@param`
/// lines as one paragraph). A tag on the first line (`@brief Summary.`) is the summary itself.
fn starts_block_tag(line: &str) -> bool {
    const TAGS: [&str; 21] = [
        "param",
        "tparam",
        "return",
        "returns",
        "retval",
        "throw",
        "throws",
        "exception",
        "pre",
        "post",
        "note",
        "see",
        "sa",
        "since",
        "deprecated",
        "author",
        "version",
        "example",
        "details",
        "warning",
        "todo",
    ];
    let Some(rest) = line.strip_prefix('@').or_else(|| line.strip_prefix('\\')) else {
        return false;
    };
    let name_end = rest
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(rest.len());
    let after = &rest[name_end..];
    // Linux's kernel-doc: `@name: description` for each parameter.
    let kernel_doc = line.starts_with('@') && name_end > 0 && after.starts_with(':');
    kernel_doc
        || (TAGS.contains(&&rest[..name_end])
            && (after.is_empty() || after.starts_with([' ', '\t', '[', '{', ':'])))
}

/// One replacement of `text[start..end]` relative to the start of the trimmed node.
pub(crate) struct Cut {
    pub start: usize,
    pub end: usize,
    pub with: &'static str,
}

/// Byte offset where each line of `s` starts.
fn line_starts(s: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(s.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// Trims a multi-line doc text delimited by `open` and `close` bytes at both ends of `node`
/// (`/**` .. `*/`, `"""` .. `"""`). `strip` removes a line's decoration (` * `) before the blank
/// test. Returns the cut relative to `node`, or `None` when the first paragraph is all of it.
fn trim_delimited(
    node: &str,
    open: usize,
    close: usize,
    strip: fn(&str) -> &str,
    joiner: &'static str,
    tags: bool,
) -> Option<Cut> {
    if node.len() < open + close {
        return None;
    }
    let inner_end = node.len() - close;
    let starts = line_starts(&node[..inner_end]);
    if starts.len() < 2 {
        return None;
    }
    let line = |i: usize| {
        let s = if i == 0 { open } else { starts[i] };
        let e = starts.get(i + 1).map_or(inner_end, |&n| n - 1);
        &node[s..e]
    };
    let cut = paragraph_end((0..starts.len()).map(|i| strip(line(i))), tags)?;
    let last = starts.len() - 1;
    if cut == 0 || cut > last {
        return None;
    }
    if line(last).trim().is_empty() {
        // The closing delimiter has its own line: drop whole lines up to it.
        if cut == last {
            return None;
        }
        return Some(Cut {
            start: starts[cut],
            end: starts[last],
            with: "",
        });
    }
    // The closing delimiter ends a text line: it moves up to the end of the summary.
    let kept = node[..starts[cut]].trim_end();
    if kept.len() <= open || kept.bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 1 {
        return None; // a trailing backslash would escape the closing quote
    }
    if joiner.is_empty() && kept.as_bytes().last() == node.as_bytes().get(inner_end) {
        return None; // `"quoted"` then `"""` would read as four quotes: a broken string
    }
    Some(Cut {
        start: kept.len(),
        end: inner_end,
        with: joiner,
    })
}

/// The cut that keeps the summary of a multi-line block doc comment (`/** ... */`, `/*! ... */`);
/// `tags` as in [`paragraph_end`].
pub(crate) fn block_comment(comment: &str, tags: bool) -> Option<Cut> {
    if !comment.starts_with("/*") || !comment.ends_with("*/") || !comment.contains('\n') {
        return None;
    }
    // Nested comments (Rust, Swift, Kotlin, Scala) make a cut unsafe to reason about: kept.
    if comment[2..comment.len() - 2].contains("/*") {
        return None;
    }
    let open = if comment.starts_with("/**") || comment.starts_with("/*!") {
        3
    } else {
        2
    };
    trim_delimited(
        comment,
        open,
        2,
        |l| l.trim_start().trim_start_matches('*'),
        " ",
        tags,
    )
}

/// C and C++ `signatures`: a multi-line block doc comment (`/** ... */`, `/*! ... */`,
/// `/**< ... */`) written as its summary on one line, `/** Summary text. */`. The decoration
/// (` * ` margins, the delimiter lines) is most of a short comment's bytes in libstdc++ and
/// kernel style. `None` keeps the comment to [`block_comment`]'s cut: a summary holding code,
/// a list or a table, whose lines mean something, or nothing to gain.
pub(crate) fn one_line_block(comment: &str, tags: bool) -> Option<String> {
    if !comment.starts_with("/*") || !comment.ends_with("*/") || !comment.contains('\n') {
        return None;
    }
    let inner_end = comment.len() - 2;
    let mut open = if comment.starts_with("/**") || comment.starts_with("/*!") {
        3
    } else {
        return None;
    };
    if comment[open..].starts_with('<') {
        open += 1;
    }
    if open > inner_end || comment[open..inner_end].contains("/*") {
        return None;
    }
    let lines: Vec<&str> = comment[open..inner_end]
        .split('\n')
        .map(|l| l.trim().trim_start_matches('*').trim())
        .collect();
    let cut = paragraph_end(lines.iter().copied(), tags).unwrap_or(lines.len());
    let summary = &lines[..cut];
    let structured = |line: &&str| {
        line.starts_with(['-', '+', '#', '|', '<', '>', '@', '\\', '`', '~'])
            && !(line.starts_with("@brief") || line.starts_with("\\brief"))
            || line.contains("@code")
            || line.contains("\\code")
            || line
                .split_once(". ")
                .is_some_and(|(n, _)| n.bytes().all(|b| b.is_ascii_digit()))
    };
    if summary.iter().any(structured) {
        return None;
    }
    let words: Vec<&str> = summary.iter().flat_map(|l| l.split_whitespace()).collect();
    if words.is_empty() {
        return None;
    }
    let one_line = format!("{} {} */", &comment[..open], words.join(" "));
    // Judged without carriage returns, so CRLF and LF files are written alike.
    let carriage_returns = comment.bytes().filter(|&b| b == b'\r').count();
    (one_line.len() < comment.len() - carriage_returns).then_some(one_line)
}

/// The cut that keeps the summary of a triple-quoted Python docstring whose opening token is
/// `string_start` (prefix and quotes, e.g. `r"""`).
pub(crate) fn docstring(string: &str, string_start: &str) -> Option<Cut> {
    if !(string_start.ends_with("\"\"\"") || string_start.ends_with("'''")) {
        return None;
    }
    trim_delimited(string, string_start.len(), 3, |l| l, "", false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(s: &str, cut: Option<Cut>) -> String {
        match cut {
            Some(c) => format!("{}{}{}", &s[..c.start], c.with, &s[c.end..]),
            None => s.to_owned(),
        }
    }

    #[test]
    fn paragraphs() {
        assert_eq!(paragraph_end(["a", "b", "", "c"], false), Some(2));
        assert_eq!(paragraph_end(["", "a", "", "c"], false), Some(2));
        assert_eq!(
            paragraph_end(["a", "```", "x", "", "```", "", "c"], false),
            Some(5)
        );
        assert_eq!(paragraph_end(["a", "```", "", "c"], false), None);
        assert_eq!(paragraph_end(["a", "b"], false), None);
    }

    #[test]
    fn block_comments() {
        let c = "/**\n     * Summary\n     * more.\n     *\n     * Details.\n     */";
        assert_eq!(
            apply(c, block_comment(c, false)),
            "/**\n     * Summary\n     * more.\n     */"
        );
        let c = "/** Summary.\n\n   Details. */";
        assert_eq!(apply(c, block_comment(c, false)), "/** Summary. */");
        let c = "/*! Summary.\r\n *\r\n * Details.\r\n */";
        assert_eq!(apply(c, block_comment(c, false)), "/*! Summary.\r\n */");
        for keep in [
            "/** One line. */",
            "/**\n * Only a summary.\n */",
            "/**\n * a /* nested */\n *\n * b\n */",
        ] {
            assert!(block_comment(keep, false).is_none(), "{keep}");
        }
    }

    #[test]
    fn docstrings() {
        let d = "\"\"\"Summary.\n\n    Details.\n    \"\"\"";
        assert_eq!(
            apply(d, docstring(d, "\"\"\"")),
            "\"\"\"Summary.\n    \"\"\""
        );
        let d = "r'''Summary.\n\n    Details.'''";
        assert_eq!(apply(d, docstring(d, "r'''")), "r'''Summary.'''");
        let d = "\"\"\"Ends in a backslash \\\n\n    Details.\"\"\"";
        assert!(docstring(d, "\"\"\"").is_none());
        let d = "\"\"\"f('a') => \"quoted\"\n\n    Details.\"\"\"";
        assert!(
            docstring(d, "\"\"\"").is_none(),
            "a summary ending in the quote stays whole"
        );
        let d = "'''Ends in 'quote'\n\n    Details.'''";
        assert!(docstring(d, "'''").is_none());
        assert!(docstring("'a\\\n\\\nb'", "'").is_none());
        let d = "\"\"\"\n    Summary.\n    \"\"\"";
        assert!(docstring(d, "\"\"\"").is_none());
    }

    #[test]
    fn line_prefixes() {
        assert_eq!(line_prefix("/// a"), Some("///"));
        assert_eq!(line_prefix("//! a"), Some("//!"));
        assert_eq!(line_prefix("// a"), Some("//"));
        assert_eq!(line_prefix("# a"), Some("#"));
        assert_eq!(line_prefix("/** a */"), None);
        assert!(droppable("//", "// text") && droppable("//", "//"));
        assert!(!droppable("//", "//go:generate x") && droppable("///", "///x"));
    }
}
