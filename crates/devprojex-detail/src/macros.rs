//! Macros the C and C++ grammars cannot read (`static int __init f(void)`, `char __user *p`,
//! `size() const _GLIBCXX_NOEXCEPT`), read as what they expand to for the parse only.
//!
//! The grammar parses a copy of the text in which each listed macro, outside comments, strings,
//! character literals and preprocessor directives, is replaced by spaces (or by a shorter word
//! padded with spaces): the bytes keep their offsets, so the tree describes the original text,
//! which is what the output is made of. The list is data: `queries/c/macros.txt`.
//!
//! Only identifier characters are replaced (by spaces, a word, or an empty string literal `""`),
//! except inside the argument list of a macro listed with `()`, and that argument list is
//! replaced only when it holds no comment marker, backslash or character literal and an even
//! number of `"`. The scanner knows comments, strings, character literals, raw strings and
//! directives, and a string it misreads ends at the line's end as the compiler's does.

use std::borrow::Cow;
use std::collections::HashMap;

/// How one listed macro is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// Spaces (an annotation that expands to attributes or nothing).
    Blank,
    /// Spaces, and so is the argument list after it (`__printf(1, 2)`).
    BlankWithArguments,
    /// A keyword no longer than the name (`__try` is `try`), or `""` for a macro that expands
    /// to a string literal (`KERN_ERR`, so `printk(KERN_ERR PFX "...")` reads as strings and a
    /// name), padded with spaces.
    Word(&'static str),
}

/// The parsed `macros.txt` of a language.
#[derive(Debug, Default)]
pub(crate) struct Macros {
    names: HashMap<&'static str, Reading>,
    shortest: usize,
    longest: usize,
    /// C++: `R"delim( ... )delim"` raw strings.
    raw_strings: bool,
    /// A C-preprocessed language (the lists are not empty): otherwise the text is parsed as it
    /// is.
    preprocessed: bool,
}

impl Macros {
    /// Parses lists of one macro a line: `name`, `name()` (with its argument list) or
    /// `name=word`; `#` starts a comment.
    pub(crate) fn parse(lists: &[&'static str], raw_strings: bool) -> Result<Macros, String> {
        let mut names = HashMap::new();
        for (i, line) in lists.iter().flat_map(|l| l.lines()).enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let (name, reading) = if let Some(name) = line.strip_suffix("()") {
                (name, Reading::BlankWithArguments)
            } else if let Some((name, word)) = line.split_once('=') {
                if word.len() > name.len() || !(is_identifier(word) || word == "\"\"") {
                    return Err(format!(
                        "line {}: `{word}` must be a word or `\"\"`, no longer than `{name}`",
                        i + 1
                    ));
                }
                (name, Reading::Word(word))
            } else {
                (line, Reading::Blank)
            };
            if !is_identifier(name) {
                return Err(format!("line {}: `{name}` is not an identifier", i + 1));
            }
            names.insert(name, reading);
        }
        Ok(Macros {
            shortest: names.keys().map(|n| n.len()).min().unwrap_or(0),
            longest: names.keys().map(|n| n.len()).max().unwrap_or(0),
            preprocessed: !names.is_empty(),
            names,
            raw_strings,
        })
    }

    /// The text the grammar parses: `text` with the listed macros read as they expand and the
    /// conditional groups that split a construct flattened ([`View`]).
    pub(crate) fn view<'a>(&self, text: &'a str) -> View<'a> {
        if !self.preprocessed {
            return View {
                text: Cow::Borrowed(text),
                groups: Vec::new(),
            };
        }
        let bytes = text.as_bytes();
        let mut out: Option<Vec<u8>> = None;
        let mut i = 0;
        // Only blanks and tabs since the line began (a `#` there starts a directive).
        let mut line_start = true;
        let mut line_begin = 0usize;
        let mut in_directive = false;
        // The conditional directive being read: its kind and where its line begins.
        let mut directive: Option<(Conditional, usize)> = None;
        let mut open: Vec<OpenGroup> = Vec::new();
        let mut groups: Vec<Group> = Vec::new();
        // The last byte of code (not a directive or comment) seen.
        let mut last_code: Option<u8> = None;
        while i <= bytes.len() {
            let b = bytes.get(i).copied().unwrap_or(b'\n');
            if b == b'\n' {
                // A directive goes on after a backslash at the end of its line.
                let continued = i > 0
                    && i < bytes.len()
                    && (bytes[i - 1] == b'\\'
                        || (bytes[i - 1] == b'\r' && i > 1 && bytes[i - 2] == b'\\'));
                if in_directive && !continued {
                    in_directive = false;
                    if let Some((kind, begin)) = directive.take() {
                        conditional(&mut open, &mut groups, kind, (begin, i), last_code);
                    }
                }
                line_start = true;
                i += 1;
                line_begin = i;
                continue;
            }
            if matches!(b, b' ' | b'\t' | b'\r' | 0x0b | 0x0c) {
                i += 1;
                continue;
            }
            let at_line_start = std::mem::replace(&mut line_start, false);
            let token_start = i;
            let mut read_as_space = false;
            match b {
                b'#' if at_line_start => {
                    in_directive = true;
                    i += 1;
                    while i < bytes.len() && matches!(bytes[i], b' ' | b'\t') {
                        i += 1;
                    }
                    let name_start = i;
                    while i < bytes.len() && is_identifier_byte(bytes[i]) {
                        i += 1;
                    }
                    directive = Conditional::of(&text[name_start..i]).map(|k| (k, line_begin));
                }
                b'/' if bytes.get(i + 1) == Some(&b'/') => {
                    // To the end of the line (a backslash before it continues the comment).
                    i += 2;
                    while i < bytes.len() {
                        if bytes[i] == b'\n' {
                            let before = &bytes[..i];
                            let continued = before.ends_with(b"\\") || before.ends_with(b"\\\r");
                            if !continued {
                                break;
                            }
                        }
                        i += 1;
                    }
                }
                b'/' if bytes.get(i + 1) == Some(&b'*') => {
                    let start = i;
                    i = find(bytes, i + 2, b"*/").map_or(bytes.len(), |e| e + 2);
                    // Inside a macro body with more of it after: the grammar would end the
                    // directive at the comment and read the rest as code (`"user", /* U */ \`
                    // then the next line). Read as spaces, the body is one piece and the
                    // comment stays in the output.
                    if in_directive && !ends_line(bytes, i) {
                        blank(out.get_or_insert_with(|| bytes.to_vec()), start, i);
                    }
                }
                b'"' => i = quoted_end(bytes, i, b'"'),
                b'\'' => i = quoted_end(bytes, i, b'\''),
                b'0'..=b'9' => i = number_end(bytes, i),
                b'.' if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                    i = number_end(bytes, i)
                }
                b'(' | b')' | b'[' | b']' | b'{' | b'}' => {
                    if !in_directive {
                        let (kind, step) = match b {
                            b'(' => (0, 1),
                            b')' => (0, -1),
                            b'[' => (1, 1),
                            b']' => (1, -1),
                            b'{' => (2, 1),
                            _ => (2, -1),
                        };
                        if let Some(group) = open.last_mut() {
                            group.current.bracket(kind, step);
                        }
                    }
                    i += 1;
                }
                _ if is_identifier_start(b) => {
                    let start = i;
                    while i < bytes.len() && is_identifier_byte(bytes[i]) {
                        i += 1;
                    }
                    let word = &text[start..i];
                    match bytes.get(i) {
                        // An encoding prefix: the literal follows.
                        Some(b'\'') if matches!(word, "L" | "u" | "U" | "u8") => {
                            i = quoted_end(bytes, i, b'\'')
                        }
                        Some(b'"') if matches!(word, "L" | "u" | "U" | "u8") => {
                            i = quoted_end(bytes, i, b'"')
                        }
                        Some(b'"')
                            if self.raw_strings
                                && matches!(word, "R" | "LR" | "uR" | "UR" | "u8R") =>
                        {
                            i = raw_string_end(bytes, i)
                        }
                        _ if !in_directive
                            && (self.shortest..=self.longest).contains(&word.len()) =>
                        {
                            if let Some(&reading) = self.names.get(word) {
                                let out = out.get_or_insert_with(|| bytes.to_vec());
                                i = apply(bytes, out, start, i, reading);
                                // What reads as spaces is no code to end a construct with.
                                read_as_space = !matches!(reading, Reading::Word(_));
                            }
                        }
                        _ => {}
                    }
                }
                _ => i += 1,
            }
            let is_comment = b == b'/' && matches!(bytes.get(token_start + 1), Some(b'/' | b'*'));
            if !in_directive && !is_comment && !read_as_space && i > token_start {
                last_code = Some(bytes[i - 1]);
                if let Some(group) = open.last_mut().filter(|g| g.current.depth[2] <= 0) {
                    group.current.code += i - token_start;
                }
            }
        }
        // A group left open at the end of the file ends there.
        while !open.is_empty() {
            let end = (text.len(), text.len());
            conditional(&mut open, &mut groups, Conditional::End, end, last_code);
        }
        groups.sort_by_key(|g| g.extent);
        if groups.iter().any(|g| g.flattened) {
            let out = out.get_or_insert_with(|| bytes.to_vec());
            for &(s, e) in groups
                .iter()
                .filter(|g| g.flattened)
                .flat_map(|g| &g.hidden)
            {
                blank(out, s, e);
            }
        }
        let text = match out {
            // Only ASCII bytes, or every byte of a run between two ASCII bytes, became spaces.
            Some(out) => Cow::Owned(String::from_utf8(out).expect("spaces keep UTF-8 valid")),
            None => Cow::Borrowed(text),
        };
        View { text, groups }
    }
}

/// What the grammar parses, and what of the original text it does not see.
pub(crate) struct View<'a> {
    /// The text with macros read as they expand and flattened groups blanked, byte for byte
    /// aligned with the original.
    pub text: Cow<'a, str>,
    /// The conditional groups, sorted; some flattened for the parse.
    pub groups: Vec<Group>,
}

/// A conditional group (`#if` ... `#endif`). One that splits a construct is flattened: a branch
/// does not close what it opens (`} namespace std {` inside `#if __cplusplus >= 201103L`,
/// `if (a) {` in one branch and `if (b) {` in the other), or the group starts or a branch ends
/// in the middle of a declaration or statement (a return type or `noexcept` chosen by `#if`).
/// tree-sitter reads such code as errors, often one covering the whole file. The parse then
/// reads only the largest branch, without the directives, as the compiler sees one
/// configuration; the output keeps all of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Group {
    /// From the start of the `#if` line to the end of the `#endif` line.
    pub extent: (usize, usize),
    /// What the parse does not see when flattened: the directive lines and the other branches.
    pub hidden: Vec<(usize, usize)>,
    pub flattened: bool,
}

/// Whether an edit of `s..e` would cut into a flattened group: it touches what the parse did not
/// see without taking the whole group.
pub(crate) fn splits_group(groups: &[Group], s: usize, e: usize) -> bool {
    groups.iter().filter(|g| g.flattened).any(|g| {
        let (a, b) = g.extent;
        a < e && s < b && !(s <= a && b <= e) && g.hidden.iter().any(|&(hs, he)| hs < e && s < he)
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Conditional {
    If,
    Else,
    End,
}

impl Conditional {
    fn of(name: &str) -> Option<Conditional> {
        match name {
            "if" | "ifdef" | "ifndef" => Some(Conditional::If),
            "elif" | "elifdef" | "elifndef" | "else" => Some(Conditional::Else),
            "endif" => Some(Conditional::End),
            _ => None,
        }
    }
}

/// An `#if` group being read.
struct OpenGroup {
    start: usize,
    directives: Vec<(usize, usize)>,
    branches: Vec<Branch>,
    branch_start: usize,
    /// The branch being read.
    current: Branch,
    /// The group splits a construct: a branch does not close what it opens, or the group
    /// starts or a branch ends in the middle of a declaration or statement.
    splits: bool,
}

/// What one branch of a conditional group holds.
#[derive(Clone, Copy, Default)]
struct Branch {
    range: (usize, usize),
    /// Per bracket kind (`()`, `[]`, `{}`): the depth at its end and its lowest point, counting
    /// of each nested group the branch the parse reads.
    depth: [i32; 3],
    low: [i32; 3],
    /// Bytes of code (outside directives and comments) outside the blocks the branch opens:
    /// `signatures` leaves them as they are (a collapsed body keeps its braces), so the parse of
    /// its output reads the same branch.
    code: usize,
}

impl Branch {
    fn bracket(&mut self, kind: usize, step: i32) {
        self.depth[kind] += step;
        self.low[kind] = self.low[kind].min(self.depth[kind]);
    }

    /// Takes in the branch a nested group's parse reads.
    fn nest(&mut self, inner: &Branch) {
        for kind in 0..3 {
            self.low[kind] = self.low[kind].min(self.depth[kind] + inner.low[kind]);
            self.depth[kind] += inner.depth[kind];
        }
        if self.depth[2] <= 0 {
            self.code += inner.code;
        }
    }
}

/// Whether `last`, the last code byte before a point, ends a declaration, statement or block
/// (or there is none): a conditional group there holds whole constructs.
fn at_boundary(last: Option<u8>) -> bool {
    matches!(last, None | Some(b';' | b'{' | b'}' | b':'))
}

impl OpenGroup {
    /// Ends the current branch at `end`; `last` is the last code byte before it.
    fn close_branch(&mut self, end: usize, last: Option<u8>) {
        let mut branch = std::mem::take(&mut self.current);
        self.splits |= branch.depth != [0; 3]
            || branch.low.iter().any(|&l| l < 0)
            || (branch.code > 0 && !at_boundary(last));
        branch.range = (self.branch_start, end);
        self.branches.push(branch);
    }
}

/// Takes a conditional directive whose line is `begin..end` into the open groups; `last` is the
/// last code byte before it.
fn conditional(
    open: &mut Vec<OpenGroup>,
    groups: &mut Vec<Group>,
    kind: Conditional,
    (begin, end): (usize, usize),
    last: Option<u8>,
) {
    match kind {
        Conditional::If => open.push(OpenGroup {
            start: begin,
            directives: vec![(begin, end)],
            branches: Vec::new(),
            branch_start: end,
            current: Branch::default(),
            splits: !at_boundary(last),
        }),
        Conditional::Else => {
            if let Some(group) = open.last_mut() {
                group.close_branch(begin, last);
                group.directives.push((begin, end));
                group.branch_start = end;
            }
        }
        Conditional::End => {
            let Some(mut group) = open.pop() else {
                return;
            };
            group.close_branch(begin, last);
            group.directives.push((begin, end));
            // The parse reads the branch with the most code (`#if !ABI`, a one-line `#include`,
            // `#else` and the whole implementation), the first of equals. Comments and the
            // insides of blocks do not count: the outputs must read the same branch.
            let read = (0..group.branches.len())
                .max_by_key(|&i| (group.branches[i].code, usize::MAX - i))
                .unwrap_or(0);
            if let Some(outer) = open.last_mut() {
                outer.current.nest(&group.branches[read]);
            }
            let mut hidden = group.directives;
            hidden.extend(
                group
                    .branches
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i != read)
                    .map(|(_, b)| b.range),
            );
            hidden.sort_unstable();
            groups.push(Group {
                extent: (group.start, end),
                hidden,
                flattened: group.splits,
            });
        }
    }
}

/// Replaces `out[start..end]` by spaces, keeping line ends.
fn blank(out: &mut [u8], start: usize, end: usize) {
    for b in &mut out[start..end] {
        if !matches!(*b, b'\n' | b'\r') {
            *b = b' ';
        }
    }
}

/// Whether only blanks and comments follow `pos` up to the end of its line (or of the text):
/// `#define X 1 /* one */ /* note */` ends with two comments, each a node of its own.
fn ends_line(bytes: &[u8], mut pos: usize) -> bool {
    loop {
        while pos < bytes.len() && matches!(bytes[pos], b' ' | b'\t') {
            pos += 1;
        }
        match bytes.get(pos..pos + 2) {
            None => return bytes.get(pos).is_none_or(|&b| matches!(b, b'\n' | b'\r')),
            Some(b"//") => return true,
            Some(b"/*") => match find(bytes, pos + 2, b"*/") {
                Some(end) if !bytes[pos..end].contains(&b'\n') => pos = end + 2,
                _ => return false,
            },
            Some(two) => return matches!(two[0], b'\n' | b'\r'),
        }
    }
}

/// Writes the reading of the macro at `start..end` into `out`; returns where scanning resumes.
fn apply(bytes: &[u8], out: &mut [u8], start: usize, end: usize, reading: Reading) -> usize {
    match reading {
        Reading::Blank => out[start..end].fill(b' '),
        Reading::Word(word) => {
            out[start..end].fill(b' ');
            out[start..start + word.len()].copy_from_slice(word.as_bytes());
        }
        Reading::BlankWithArguments => {
            out[start..end].fill(b' ');
            let mut open = end;
            while open < bytes.len() && matches!(bytes[open], b' ' | b'\t') {
                open += 1;
            }
            if bytes.get(open) == Some(&b'(')
                && let Some(close) = arguments_end(bytes, open)
            {
                for b in &mut out[open..close] {
                    if !matches!(*b, b'\n' | b'\r') {
                        *b = b' ';
                    }
                }
                return close;
            }
        }
    }
    end
}

/// The end (after the `)`) of the argument list opening at `open`, when it can be read as
/// spaces without moving a string or comment: parentheses balanced, an even number of `"`, no
/// comment marker, backslash, character literal or directive.
fn arguments_end(bytes: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut quotes = 0usize;
    let mut i = open;
    while i < bytes.len() {
        match bytes[i] {
            b'(' if quotes.is_multiple_of(2) => depth += 1,
            b')' if quotes.is_multiple_of(2) => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b'"' => quotes += 1,
            b'\\' | b'\'' | b'#' => return None,
            b'/' if matches!(bytes.get(i + 1), Some(b'/' | b'*')) => return None,
            b'*' if bytes.get(i + 1) == Some(&b'/') => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

/// The end of a string or character literal starting at `start` (its quote): after the closing
/// quote, or at the end of the line when there is none.
fn quoted_end(bytes: &[u8], start: usize, quote: u8) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            // An escape, or a line continuation (`\` before LF or CRLF).
            b'\\' if bytes[i + 1..].starts_with(b"\r\n") => i += 3,
            b'\\' => i += 2,
            b'\n' => return i,
            b if b == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// The end of a C++ raw string `"delim( ... )delim"` whose `"` is at `quote`.
fn raw_string_end(bytes: &[u8], quote: usize) -> usize {
    let Some(open) = bytes[quote + 1..]
        .iter()
        .take(17)
        .position(|&b| b == b'(')
        .map(|p| quote + 1 + p)
    else {
        return quoted_end(bytes, quote, b'"');
    };
    let mut close = Vec::with_capacity(open - quote + 1);
    close.push(b')');
    close.extend_from_slice(&bytes[quote + 1..open]);
    close.push(b'"');
    find(bytes, open + 1, &close).map_or(bytes.len(), |e| e + close.len())
}

/// The end of a preprocessing number at `start`: `0x1p-3`, `1'000'000` (C++14 and C23 digit
/// separators), `1.5e+10f`.
fn number_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        let b = bytes[i];
        if matches!(b, b'+' | b'-') && matches!(bytes[i - 1], b'e' | b'E' | b'p' | b'P') {
            i += 1;
        } else if b == b'\'' && bytes.get(i + 1).is_some_and(u8::is_ascii_alphanumeric) {
            i += 2;
        } else if is_identifier_byte(b) || b == b'.' {
            i += 1;
        } else {
            break;
        }
    }
    i
}

fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    bytes
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| from + p)
}

fn is_identifier_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_identifier_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn is_identifier(s: &str) -> bool {
    s.bytes().next().is_some_and(is_identifier_start) && s.bytes().all(is_identifier_byte)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn macros() -> Macros {
        Macros::parse(
            &["__init\n__user # comment\n", "__printf()\n__try=try\n"],
            true,
        )
        .unwrap()
    }

    #[test]
    fn listed_macros_become_spaces_outside_comments_strings_and_directives() {
        let m = macros();
        let text = "static int __init f(char __user *p) __printf(1, 2);\n\
                    /* __init */ char *s = \"__init\"; // __init\n\
                    #define X __init \\\n  __init\n__try { } __init_x\n";
        let want = "static int        f(char        *p)               ;\n\
                    /* __init */ char *s = \"__init\"; // __init\n\
                    #define X __init \\\n  __init\ntry   { } __init_x\n";
        assert_eq!(m.view(text).text, want);
        assert_eq!(m.view(text).text.len(), text.len());
    }

    #[test]
    fn literals_and_numbers_do_not_confuse_the_scanner() {
        let m = macros();
        // A quote in a character literal, a digit separator, a raw string holding `"`.
        let text = "char q = '\"'; int n = 1'000; auto r = R\"x(\" __init)x\"; __init\n";
        let got = m.view(text).text;
        assert!(
            got.ends_with("; \n") || got.ends_with(";       \n"),
            "{got}"
        );
        assert!(got.contains("R\"x(\" __init)x\""), "{got}");
        assert!(got.contains("1'000"), "{got}");
    }

    #[test]
    fn an_argument_list_holding_a_comment_or_backslash_stays() {
        let m = macros();
        let text = "int f(void) __printf(1, /* x */ 2);\n";
        assert_eq!(m.view(text).text, "int f(void)         (1, /* x */ 2);\n");
        let unmatched = "int f(void) __printf(1, 2;\n";
        assert_eq!(m.view(unmatched).text, "int f(void)         (1, 2;\n");
    }

    #[test]
    fn nothing_listed_is_borrowed() {
        assert!(matches!(
            macros().view("int f(void);\n").text,
            Cow::Borrowed(_)
        ));
    }
}
