//! A raw-text prefilter for search: skip the redaction pass for files where the pattern cannot
//! match the redacted text, decided from the raw text alone.
//!
//! Search must match redacted text, so a match never shows or depends on a secret. Redaction
//! replaces secret spans (and private data, with `--hide-private-data`) by placeholders
//! `[REDACTED:<rule-id>]` and changes nothing else. So a match in the redacted text R that is
//! not also a match in the raw text T must overlap a placeholder, or depend on one through a
//! zero-width assertion at its edge. From the pattern P we build P′: P with its word-boundary
//! assertions (`\b`, `\B` and the like) removed, so P′ matches wherever P does. The prefilter is
//! used only when
//! 1. P′ cannot match `[` or `]` (no literal or class of it contains them), so no match of P′
//!    contains a placeholder's first or last character; and
//! 2. P′ matches no placeholder string `[REDACTED:<id>]` of any rule, so no match lies inside one.
//!
//! Then every match of P′ in R lies in text that redaction left unchanged and that is
//! contiguous in T as well; its line and text anchors can only be weaker in T (a placeholder
//! character is never a line break, so an anchor that holds next to one in R is false there,
//! and next to unchanged text it reads the same in T). So P′ matches T there too. Hence:
//! **no match of P′ in T ⇒ no match of P′ in R ⇒ no match of P in R**, and such a file has no
//! result whatever redaction would do: it is skipped without redacting it. A file where P′
//! matches T is redacted and searched as always, so output is identical. The property test
//! `tests/search_prefilter.rs` checks the identity on a corpus with secrets.
//!
//! Patterns matched line by line (`\A`, `\z`, inline flags; see `grep::Grep`) get no prefilter.
//!
//! **Timing.** The argument above covers results, not time. A file whose raw text matches P′
//! is redacted and searched; one that does not is skipped, which is much faster. Raw text
//! matches P′ where the redacted text does (public) *or* where a match overlaps a secret, so
//! the time of a search tells whether the pattern matches inside a secret: a caller who
//! cannot read raw bytes could recover a key one character at a time, as `find_symbol`'s raw
//! screen allowed (issue 35). So the prefilter is used only where the caller can read every
//! file anyway: the one-shot CLI, run by the user on their own files. The MCP server never
//! consults it (`Engine::search` with the server's caches): there every file is redacted
//! unless the facts cache knows that exactly this version is clean, and whether a file is
//! clean does not depend on the pattern. What the server's time can then depend on is the
//! redacted text and the pattern, both of which its caller already sees.

use regex_syntax::hir::{Class, Hir, HirKind, Look};

/// A sound raw-text prefilter for one search pattern.
#[derive(Debug, Clone)]
pub struct RawPrefilter {
    regex: regex::Regex,
}

impl RawPrefilter {
    /// The prefilter for `pattern`, when one is sound (see the module docs).
    pub fn for_pattern(pattern: &str, ignore_case: bool) -> Option<Self> {
        if crate::grep::Grep::needs_line_by_line(pattern) {
            return None;
        }
        let hir = regex_syntax::ParserBuilder::new()
            .case_insensitive(ignore_case)
            .multi_line(true)
            .crlf(true)
            .nest_limit(64)
            .build()
            .parse(pattern)
            .ok()?;
        let widened = without_word_assertions(hir);
        if can_match_bracket(&widened) {
            return None;
        }
        let regex = regex::RegexBuilder::new(&widened.to_string())
            .size_limit(8 * 1024 * 1024)
            .dfa_size_limit(8 * 1024 * 1024)
            .build()
            .ok()?;
        if placeholder_ids().any(|id| regex.is_match(&devprojex_redact::replacement(id))) {
            return None;
        }
        Some(Self { regex })
    }

    /// False when the redacted version of `raw` certainly has no match.
    pub fn may_match(&self, raw: &str) -> bool {
        self.regex.is_match(raw)
    }
}

/// Every rule id the redactor can write into a placeholder (`base64:<id>` of a base64 blob
/// included).
fn placeholder_ids() -> impl Iterator<Item = &'static str> {
    use std::sync::OnceLock;
    static IDS: OnceLock<Vec<String>> = OnceLock::new();
    IDS.get_or_init(devprojex_redact::marker_ids)
        .iter()
        .map(String::as_str)
}

/// `hir` with every word-boundary assertion replaced by the empty expression: it matches
/// wherever `hir` does (and maybe elsewhere).
fn without_word_assertions(hir: Hir) -> Hir {
    match hir.into_kind() {
        HirKind::Look(look) => match look {
            Look::Start
            | Look::End
            | Look::StartLF
            | Look::EndLF
            | Look::StartCRLF
            | Look::EndCRLF => Hir::look(look),
            _ => Hir::empty(),
        },
        HirKind::Repetition(mut repetition) => {
            repetition.sub = Box::new(without_word_assertions(*repetition.sub));
            Hir::repetition(repetition)
        }
        HirKind::Capture(mut capture) => {
            capture.sub = Box::new(without_word_assertions(*capture.sub));
            Hir::capture(capture)
        }
        HirKind::Concat(subs) => {
            Hir::concat(subs.into_iter().map(without_word_assertions).collect())
        }
        HirKind::Alternation(subs) => {
            Hir::alternation(subs.into_iter().map(without_word_assertions).collect())
        }
        HirKind::Empty => Hir::empty(),
        HirKind::Literal(literal) => Hir::literal(literal.0),
        HirKind::Class(class) => Hir::class(class),
    }
}

/// True when some match of `hir` can contain `[` or `]`.
fn can_match_bracket(hir: &Hir) -> bool {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => false,
        HirKind::Literal(literal) => literal.0.iter().any(|&b| b == b'[' || b == b']'),
        HirKind::Class(Class::Unicode(class)) => class
            .ranges()
            .iter()
            .any(|r| (r.start()..=r.end()).contains(&'[') || (r.start()..=r.end()).contains(&']')),
        HirKind::Class(Class::Bytes(class)) => class.ranges().iter().any(|r| {
            (r.start()..=r.end()).contains(&b'[') || (r.start()..=r.end()).contains(&b']')
        }),
        HirKind::Repetition(repetition) => {
            repetition.max != Some(0) && can_match_bracket(&repetition.sub)
        }
        HirKind::Capture(capture) => can_match_bracket(&capture.sub),
        HirKind::Concat(subs) | HirKind::Alternation(subs) => subs.iter().any(can_match_bracket),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn which_patterns_get_a_prefilter() {
        let has = |p: &str| RawPrefilter::for_pattern(p, true).is_some();
        assert!(has("no_such_identifier_anywhere_42"));
        assert!(has(r"\bfn\s+main\b"));
        assert!(has(r"^#include <linux/"));
        assert!(has(r"copy_process\("));
        // Could match a placeholder's bracket or text.
        assert!(!has(r"\["));
        assert!(!has("fo.o"));
        assert!(!has(r"[^x]+"));
        assert!(!has("REDACTED"));
        assert!(!has("redacted"));
        assert!(!has("aws"));
        // Matched line by line: no prefilter.
        assert!(!has(r"\Afoo"));
        assert!(!has("(?i)foo"));
    }

    #[test]
    fn word_assertions_are_widened_away() {
        let prefilter = RawPrefilter::for_pattern(r"\bfoo\b", false).unwrap();
        assert!(prefilter.may_match("xfoox"));
        assert!(prefilter.may_match("a foo b"));
        assert!(!prefilter.may_match("fo o"));
    }
}
