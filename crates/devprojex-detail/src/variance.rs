//! TypeScript's variance annotations (`interface Box<out T, in out U>`, TypeScript 4.7), which
//! tree-sitter-typescript 0.23 does not parse: each one is an ERROR node, and a file with more
//! than a few (zod's `schemas.ts` has 7) would be left unreduced at every level. The parse
//! reads a view of the text in which the modifiers are blanks, byte for byte aligned with it (as
//! C's macros are read, `crate::macros`); the output keeps them, like all of the text.

use std::borrow::Cow;

/// `text` with the `in` and `out` modifiers of type parameters blanked; borrowed when it has
/// none.
///
/// A modifier is `in`, `out` or `in out` right after a type parameter list's `<` or `,`
/// (comments and line breaks between allowed), followed by the parameter's name and then `,`,
/// `>`, `=` or `extends`. Nowhere else in code can these words stand so: an expression
/// `a < out b` or `f(x, out y)` is not valid; inside a string or comment, blanks read as the
/// words did.
pub(crate) fn view(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let mut blanks: Vec<std::ops::Range<usize>> = Vec::new();
    for (at, &b) in bytes.iter().enumerate() {
        if b != b'<' && b != b',' {
            continue;
        }
        let mut i = skip_trivia(bytes, at + 1);
        let start = i;
        let mut modifiers = 0;
        for word in ["in", "out"] {
            if let Some(end) = word_at(bytes, i, word)
                && bytes.get(end).is_some_and(u8::is_ascii_whitespace)
            {
                i = skip_trivia(bytes, end);
                modifiers += 1;
            }
        }
        if modifiers == 0 {
            continue;
        }
        let name_end = identifier_end(bytes, i);
        if name_end == i || is_operator_word(&bytes[i..name_end]) {
            continue;
        }
        let after = skip_trivia(bytes, name_end);
        let parameter = match bytes.get(after) {
            Some(b',' | b'>') => true,
            Some(b'=') => !matches!(bytes.get(after + 1), Some(b'=' | b'>')),
            _ => word_at(bytes, after, "extends").is_some(),
        };
        if parameter {
            blanks.push(start..i);
        }
    }
    if blanks.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = bytes.to_vec();
    for range in blanks {
        // only the modifier words: the comments and line breaks between them stay
        for byte in &mut out[range] {
            if byte.is_ascii_alphabetic() {
                *byte = b' ';
            }
        }
    }
    // ASCII letters became ASCII blanks: still UTF-8
    Cow::Owned(String::from_utf8(out).expect("ASCII letters replaced by blanks"))
}

/// Past blanks, line breaks and comments from `i`.
fn skip_trivia(bytes: &[u8], mut i: usize) -> usize {
    loop {
        while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        match (bytes.get(i), bytes.get(i + 1)) {
            (Some(b'/'), Some(b'/')) => {
                i = memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |n| i + n);
            }
            (Some(b'/'), Some(b'*')) => {
                i = memchr::memmem::find(&bytes[i + 2..], b"*/").map_or(bytes.len(), |n| i + n + 4);
            }
            _ => return i,
        }
    }
}

/// The end of `word` when it stands whole at `i`.
fn word_at(bytes: &[u8], i: usize, word: &str) -> Option<usize> {
    let end = i + word.len();
    (bytes.get(i..end) == Some(word.as_bytes()) && identifier_end(bytes, i) == end).then_some(end)
}

fn identifier_end(bytes: &[u8], mut i: usize) -> usize {
    while bytes
        .get(i)
        .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'$' || *b >= 0x80)
    {
        i += 1;
    }
    i
}

/// Words that follow an operand as operators (`out in obj`, `out instanceof T`): what follows
/// `out` then is an expression, not a type parameter.
fn is_operator_word(word: &[u8]) -> bool {
    matches!(
        word,
        b"in" | b"instanceof" | b"as" | b"satisfies" | b"of" | b"extends"
    )
}

#[cfg(test)]
mod tests {
    use super::view;

    #[test]
    fn modifiers_of_type_parameters_are_blanked_in_place() {
        let text = "interface A<out O = unknown, in out I, in T extends X> {}\n\
                    interface B<\n  /** @ts-ignore */\n  out S extends Z = Z,\n> {}\n";
        let masked = view(text);
        assert_eq!(masked.len(), text.len());
        assert_eq!(
            masked,
            "interface A<    O = unknown,        I,    T extends X> {}\n\
             interface B<\n  /** @ts-ignore */\n      S extends Z = Z,\n> {}\n"
        );
    }

    #[test]
    fn expressions_and_other_words_are_left_as_they_are() {
        for text in [
            "if (a < out) f(x, out);\n",
            "f(a, out in obj, out instanceof T);\n",
            "for (const k in obj) {}\n",
            "const inbox = a < outer;\n",
            "x = a < out == b;\n",
            "type M = { [K in keyof T]: T[K] };\n",
        ] {
            assert!(
                matches!(view(text), std::borrow::Cow::Borrowed(_)),
                "{text}"
            );
        }
    }
}
