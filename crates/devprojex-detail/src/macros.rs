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
            names,
            raw_strings,
        })
    }

    /// The text the grammar parses: `text` with the listed macros read as they expand (borrowed
    /// when none occurs).
    pub(crate) fn mask<'a>(&self, text: &'a str) -> Cow<'a, str> {
        if self.names.is_empty() {
            return Cow::Borrowed(text);
        }
        let bytes = text.as_bytes();
        let mut out: Option<Vec<u8>> = None;
        let mut i = 0;
        // Only blanks and tabs since the line began (a `#` there starts a directive).
        let mut line_start = true;
        let mut in_directive = false;
        while i < bytes.len() {
            let b = bytes[i];
            match b {
                b'\n' => {
                    // A directive goes on after a backslash at the end of its line.
                    let continued = i > 0
                        && (bytes[i - 1] == b'\\'
                            || (bytes[i - 1] == b'\r' && i > 1 && bytes[i - 2] == b'\\'));
                    in_directive &= continued;
                    line_start = true;
                    i += 1;
                    continue;
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                    i += 1;
                    continue;
                }
                _ => {}
            }
            let at_line_start = std::mem::replace(&mut line_start, false);
            match b {
                b'#' if at_line_start => {
                    in_directive = true;
                    i += 1;
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
                    i = find(bytes, i + 2, b"*/").map_or(bytes.len(), |e| e + 2);
                }
                b'"' => i = quoted_end(bytes, i, b'"'),
                b'\'' => i = quoted_end(bytes, i, b'\''),
                b'0'..=b'9' => i = number_end(bytes, i),
                b'.' if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                    i = number_end(bytes, i)
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
                            }
                        }
                        _ => {}
                    }
                }
                _ => i += 1,
            }
        }
        match out {
            // Only ASCII bytes, or every byte of a run between two ASCII bytes, became spaces.
            Some(out) => Cow::Owned(String::from_utf8(out).expect("spaces keep UTF-8 valid")),
            None => Cow::Borrowed(text),
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
            b'(' if quotes % 2 == 0 => depth += 1,
            b')' if quotes % 2 == 0 => {
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
        assert_eq!(m.mask(text), want);
        assert_eq!(m.mask(text).len(), text.len());
    }

    #[test]
    fn literals_and_numbers_do_not_confuse_the_scanner() {
        let m = macros();
        // A quote in a character literal, a digit separator, a raw string holding `"`.
        let text = "char q = '\"'; int n = 1'000; auto r = R\"x(\" __init)x\"; __init\n";
        let got = m.mask(text);
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
        assert_eq!(m.mask(text), "int f(void)         (1, /* x */ 2);\n");
        let unmatched = "int f(void) __printf(1, 2;\n";
        assert_eq!(m.mask(unmatched), "int f(void)         (1, 2;\n");
    }

    #[test]
    fn nothing_listed_is_borrowed() {
        assert!(matches!(macros().mask("int f(void);\n"), Cow::Borrowed(_)));
    }
}
