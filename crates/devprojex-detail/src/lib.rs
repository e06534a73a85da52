//! Detail levels (`full`, `compact`, `signatures`) for devprojex, with tree-sitter.
//!
//! CONTRACT (the main crate codes against exactly this API; keep it stable):
//! - `Detail` enum, ordered `Full < Compact < Signatures`; `Detail::parse("full"|"compact"|"signatures")`.
//! - `transform(path: &str, text: &str, detail: Detail) -> Cow<str>`: `path` is the project-relative
//!   path with `/` (language chosen from the file name/extension). Unsupported languages and files
//!   whose parse has too many errors come back unchanged (borrowed).
//! - `language_name(path) -> Option<&'static str>`.
//!
//! Additions: `Detail::ALL`, `Display for Detail`, `transform_with_outcome` and `Outcome` (tells
//! files left unreduced because of parse errors), `supported_languages()`, `collapses_bodies(path)`,
//! `grammar(name)` and the re-exported `tree_sitter` (for `devprojex-symbols`, which parses with
//! the same grammars).
//!
//! # What each level does
//!
//! - [`Detail::Full`] does nothing.
//! - [`Detail::Compact`] removes ordinary comments and blank lines. Doc comments (`///`, `/** */`,
//!   Go and Ruby comments directly above a declaration, ...), shebangs and semantic comments
//!   (`//go:build`, encoding and magic comments) stay, and so does every line inside a string,
//!   heredoc or kept comment.
//! - [`Detail::Signatures`] does what `compact` does, and function and method bodies collapse to a placeholder:
//!   `{ /* ... */ }` in brace languages, `...` in Python (a docstring stays, `__init__` and
//!   `__post_init__` stay whole), `# ...` inside `def ... end` in Ruby. One-line bodies stay.
//!   Rust `#[cfg(test)]` modules collapse too. Doc comments and docstrings keep their summary:
//!   the first paragraph, up to the first blank doc line outside a fenced code block.
//!
//! Each level includes the one below: `transform(p, &transform(p, t, a), b) == transform(p, t, max(a, b))`,
//! so the caller unions a profile's level with a request's level with `max`.
//!
//! # How
//!
//! One tree-sitter parse per file; what to remove is data, in `queries/<lang>/comments.scm`
//! (captures `@comment`, `@keep`, `@documented`, `@directive`, `@verbatim`, ...) and
//! `queries/<lang>/bodies.scm` (captures `@body`, `@keep`, `@open`, `@doc`). A file whose parse
//! has errors beyond a small threshold is returned unchanged, and no edit is made next to a
//! tolerated error. Line endings (LF or CRLF), a UTF-8 BOM and tabs are
//! preserved. Thread-safe: parsers are thread-local, compiled queries are shared.

#![deny(unsafe_code)]

use std::borrow::Cow;

mod cache;
mod engine;
mod languages;
mod splice;
mod summary;

pub use cache::{CacheStats, TransformCache};

/// How much code reduction to apply. Ordered: a larger value reduces more, and includes every
/// reduction of the smaller ones.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Detail {
    /// No reduction: the text as it is.
    #[default]
    Full,
    /// Ordinary comments and blank lines removed.
    Compact,
    /// `Compact` plus function and method bodies collapsed to a placeholder.
    Signatures,
}

impl Detail {
    /// Every level, from least to most reduction.
    pub const ALL: [Detail; 3] = [Detail::Full, Detail::Compact, Detail::Signatures];

    /// Parses `"full"`, `"compact"` or `"signatures"` (exact, lowercase).
    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "full" => Some(Self::Full),
            "compact" => Some(Self::Compact),
            "signatures" => Some(Self::Signatures),
            _ => None,
        }
    }

    /// The level's name as accepted by [`Detail::parse`].
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Full => "full",
            Self::Compact => "compact",
            Self::Signatures => "signatures",
        }
    }
}

impl std::fmt::Display for Detail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

const BOM: &str = "\u{feff}";

/// Larger texts are not parsed and come back unchanged ([`Outcome::TooLarge`]). A tree-sitter
/// tree takes about 25 times its source in memory (a 4 MiB Rust file peaks at 118 MB), and
/// several files are transformed at once, so without a cap a few generated files could take
/// gigabytes. Hand-written source files are far smaller; files this large are generated
/// (bindings, tables).
pub const MAX_TRANSFORM_BYTES: usize = 2 * 1024 * 1024;

/// Applies `detail` to the content of the file at `path` (project-relative, `/`-separated).
///
/// Returns the text unchanged (borrowed) for [`Detail::Full`], for unsupported languages, for
/// files whose parse has too many errors, for texts over [`MAX_TRANSFORM_BYTES`], and when
/// nothing was removed.
pub fn transform<'a>(path: &str, text: &'a str, detail: Detail) -> Cow<'a, str> {
    transform_with_outcome(path, text, detail).0
}

/// What [`transform_with_outcome`] did with a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `full` was asked: nothing to do.
    Full,
    /// The path's language is not supported: the text is unchanged.
    Unsupported,
    /// The file's parse has more errors than the threshold: the text is unchanged, not reduced.
    ParseErrors,
    /// The text is larger than [`MAX_TRANSFORM_BYTES`]: unchanged, not parsed.
    TooLarge,
    /// Parsed, but nothing at this level to remove.
    Unchanged,
    /// Reduced.
    Transformed,
}

/// [`transform`], also telling what happened, so a caller can report files left unreduced
/// because of parse errors (for example in `analyze` metrics).
pub fn transform_with_outcome<'a>(
    path: &str,
    text: &'a str,
    detail: Detail,
) -> (Cow<'a, str>, Outcome) {
    let (out, outcome, _) = transform_spliced(path, text, detail);
    (out, outcome)
}

/// [`transform_with_outcome`], with a reduced result also described as pieces of `text` (what
/// the transform cache keeps).
pub(crate) fn transform_spliced<'a>(
    path: &str,
    text: &'a str,
    detail: Detail,
) -> (Cow<'a, str>, Outcome, Option<splice::Splice>) {
    let unchanged = |outcome| (Cow::Borrowed(text), outcome, None);
    if detail == Detail::Full {
        return unchanged(Outcome::Full);
    }
    let Some(id) = languages::lang_for_path(path) else {
        return unchanged(Outcome::Unsupported);
    };
    let Some(compiled) = languages::compiled(id) else {
        return unchanged(Outcome::Unsupported);
    };
    if text.len() > MAX_TRANSFORM_BYTES {
        return unchanged(Outcome::TooLarge);
    }
    let spec = &languages::LANGS[id];
    let (bom, body) = match text.strip_prefix(BOM) {
        Some(rest) => (BOM, rest),
        None => ("", text),
    };
    match engine::run(spec, compiled, body, detail) {
        Ok(Some((out, splice))) => {
            let out = if bom.is_empty() {
                out
            } else {
                format!("{bom}{out}")
            };
            let splice = splice.after_prefix(bom.len());
            debug_assert_eq!(splice.render(text).as_deref(), Some(out.as_str()));
            (Cow::Owned(out), Outcome::Transformed, Some(splice))
        }
        Ok(None) => unchanged(Outcome::Unchanged),
        Err(engine::Declined) => unchanged(Outcome::ParseErrors),
    }
}

/// The language devprojex would use for this path, if supported (e.g. `"rust"`, `"tsx"`, `"cpp"`).
pub fn language_name(path: &str) -> Option<&'static str> {
    languages::lang_for_path(path).map(|id| languages::LANGS[id].name)
}

/// The tree-sitter grammar of a supported language, by the name [`language_name`] returns
/// (`"c"` is the C grammar, which [`language_name`] never picks for a `.h` file). For crates that
/// parse with the grammars this one ships, so the binary carries each grammar once.
pub fn grammar(language: &str) -> Option<tree_sitter::Language> {
    languages::LANGS
        .iter()
        .find(|l| l.name == language)
        .map(|l| (l.language)())
}

/// The tree-sitter runtime the grammars of [`grammar`] are built for.
pub use tree_sitter;

/// Every supported language name, as returned by [`language_name`].
pub fn supported_languages() -> impl Iterator<Item = &'static str> {
    languages::LANGS.iter().map(|l| l.name)
}

/// Whether `signatures` collapses function bodies for this path's language (`compact` applies to
/// every supported language).
pub fn collapses_bodies(path: &str) -> bool {
    languages::lang_for_path(path).is_some_and(|id| {
        languages::LANGS[id].bodies.lines().any(|l| {
            let l = l.trim();
            !l.is_empty() && !l.starts_with(';')
        })
    })
}

/// Test support: not part of the stable API.
#[doc(hidden)]
pub mod testing {
    use crate::{engine, languages};

    /// Compiles every language's queries; returns the errors (`queries/<lang>/<file>: message`).
    pub fn compile_all() -> Vec<String> {
        languages::LANGS
            .iter()
            .filter_map(|l| languages::compile(l).err())
            .collect()
    }

    /// The syntax tree of `text` as an indented outline (kind and byte range), for debugging.
    pub fn sexp(path: &str, text: &str) -> Option<String> {
        let compiled = languages::compiled(languages::lang_for_path(path)?)?;
        let tree = engine::parse(compiled, text)?;
        let mut out = String::new();
        let mut cursor = tree.walk();
        let mut depth = 0usize;
        loop {
            let n = cursor.node();
            out.push_str(&format!(
                "{}{} {:?}\n",
                "  ".repeat(depth),
                n.kind(),
                n.byte_range()
            ));
            if cursor.goto_first_child() {
                depth += 1;
                continue;
            }
            loop {
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    return Some(out);
                }
                depth -= 1;
            }
        }
    }

    /// `queries/<lang>/<file>` whose patterns do not all have a single root node, so the query
    /// runs over the whole tree instead of from the nodes its patterns start at: slower.
    pub fn queries_without_roots() -> Vec<String> {
        let mut out = Vec::new();
        for (id, lang) in languages::LANGS.iter().enumerate() {
            let Some(c) = languages::compiled(id) else {
                continue;
            };
            if c.bodies.is_some() && c.body_roots.is_none() {
                out.push(format!("queries/{}/bodies.scm", lang.name));
            }
            if c.comment_roots.is_none() {
                out.push(format!("queries/{}/comments.scm", lang.name));
            }
        }
        out
    }

    /// [`crate::transform`] with each query run over the whole tree instead of from its
    /// patterns' root nodes: the two must agree.
    pub fn transform_by_full_queries(path: &str, text: &str, detail: crate::Detail) -> String {
        let Some(id) = languages::lang_for_path(path) else {
            return text.to_owned();
        };
        let Some(compiled) = languages::compiled(id) else {
            return text.to_owned();
        };
        let (bom, body) = match text.strip_prefix(crate::BOM) {
            Some(rest) => (crate::BOM, rest),
            None => ("", text),
        };
        match engine::run_with(&languages::LANGS[id], compiled, body, detail, false) {
            Ok(Some((out, _))) => format!("{bom}{out}"),
            _ => text.to_owned(),
        }
    }

    /// Whether `transform` leaves `text` unchanged because its parse has too many errors.
    pub fn declined(path: &str, text: &str) -> bool {
        let Some(id) = languages::lang_for_path(path) else {
            return false;
        };
        let Some(compiled) = languages::compiled(id) else {
            return false;
        };
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        engine::parse(compiled, text)
            .is_none_or(|t| engine::tolerated_errors(&languages::LANGS[id], &t, text).is_none())
    }

    /// Bytes the transform cache is charged for this result's pieces (0 when unchanged).
    pub fn cached_bytes(path: &str, text: &str, detail: crate::Detail) -> usize {
        crate::transform_spliced(path, text, detail)
            .2
            .map_or(0, |mut splice| {
                splice.shrink_to_fit();
                splice.heap_bytes()
            })
    }

    /// Parses `text` as the language of `path` and returns whether it parsed (for benchmarks).
    pub fn parse_only(path: &str, text: &str) -> bool {
        languages::lang_for_path(path)
            .and_then(languages::compiled)
            .and_then(|c| engine::parse(c, text))
            .is_some()
    }

    /// The words of `text` once every comment node is replaced by a space, or `None` for
    /// unsupported paths. Unlike [`tokens`], it does not depend on where the grammar cuts tokens.
    pub fn words_outside_comments(path: &str, text: &str) -> Option<Vec<String>> {
        let compiled = languages::lang_for_path(path).and_then(languages::compiled)?;
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let tree = engine::parse(compiled, text)?;
        let mut comments = Vec::new();
        let mut stack = vec![tree.root_node()];
        while let Some(node) = stack.pop() {
            if is_comment_kind(node.kind()) {
                comments.push(node.byte_range());
                continue;
            }
            let mut cursor = node.walk();
            stack.extend(node.children(&mut cursor));
        }
        comments.sort_by_key(|r| r.start);
        let mut kept = String::with_capacity(text.len());
        let mut pos = 0;
        for range in comments {
            if range.start >= pos {
                kept.push_str(&text[pos..range.start]);
                kept.push(' ');
                pos = range.end;
            }
        }
        kept.push_str(&text[pos..]);
        Some(kept.split_whitespace().map(str::to_owned).collect())
    }

    fn is_comment_kind(kind: &str) -> bool {
        kind.to_ascii_lowercase().contains("comment") || kind == "marginalia"
    }

    /// Parses `text` as the language of `path` and returns (error node count, leaf tokens that are
    /// not comments, as text), or `None` for unsupported paths.
    pub fn tokens(path: &str, text: &str) -> Option<(usize, Vec<String>)> {
        let id = languages::lang_for_path(path)?;
        let compiled = languages::compiled(id)?;
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let tree = engine::parse(compiled, text)?;
        let mut errors = 0;
        let mut tokens = Vec::new();
        let mut cursor = tree.walk();
        'walk: loop {
            let node = cursor.node();
            if node.is_error() || node.is_missing() {
                errors += 1;
            }
            if !is_comment_kind(node.kind()) {
                if node.child_count() == 0 {
                    let t = &text[node.byte_range()];
                    if node.kind() == "preproc_arg" {
                        // A macro body is one opaque token, which a comment inside it splits
                        // in two and whose edges hold the spaces around that comment: its
                        // words are what must survive.
                        tokens.extend(t.split_whitespace().map(str::to_owned));
                    } else if !t.trim().is_empty() {
                        tokens.push(t.to_owned());
                    }
                } else if cursor.goto_first_child() {
                    continue;
                }
            }
            loop {
                if cursor.goto_next_sibling() {
                    continue 'walk;
                }
                if !cursor.goto_parent() {
                    break 'walk;
                }
            }
        }
        Some((errors, tokens))
    }
}
