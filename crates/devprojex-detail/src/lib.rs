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

mod c_family;
mod cache;
mod engine;
mod languages;
mod macros;
mod splice;
mod summary;
mod variance;

pub use cache::{CacheStats, TransformCache};

/// How much code reduction to apply. Ordered: a larger value reduces more, and includes every
/// reduction of the smaller ones.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(
    feature = "args",
    derive(clap::ValueEnum, serde::Deserialize, schemars::JsonSchema),
    serde(rename_all = "lowercase")
)]
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
/// nothing was removed. At `signatures`, a file with too many errors to collapse bodies is
/// still reduced as `compact` reduces it, when its errors allow that.
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
    /// The file's parse has more errors than the threshold at this level: the text is not
    /// reduced, or at `signatures` reduced only as `compact` reduces it.
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
    let Some(id) = lang_for(path, text) else {
        return unchanged(Outcome::Unsupported);
    };
    let Some(compiled) = languages::compiled(id) else {
        return unchanged(Outcome::Unsupported);
    };
    let spec = &languages::LANGS[id];
    if text.len() > MAX_TRANSFORM_BYTES {
        // Not parsed; C and C++ tables of constants are found line by line, and such files
        // are mostly tables (generated register maps).
        if spec.c_family && detail >= Detail::Signatures {
            let tables = c_family::constant_tables(text, &[]);
            if !tables.is_empty() {
                let (out, splice) = c_family::shorten_tables(text, &tables);
                return (Cow::Owned(out), Outcome::Transformed, Some(splice));
            }
        }
        return unchanged(Outcome::TooLarge);
    }
    let (bom, body) = match text.strip_prefix(BOM) {
        Some(rest) => (BOM, rest),
        None => ("", text),
    };
    let reduced = |(out, splice): (String, splice::Splice), outcome| {
        let out = if bom.is_empty() {
            out
        } else {
            format!("{bom}{out}")
        };
        let splice = splice.after_prefix(bom.len());
        debug_assert_eq!(splice.render(text).as_deref(), Some(out.as_str()));
        (Cow::Owned(out), outcome, Some(splice))
    };
    match engine::run_or_compact(spec, compiled, body, detail, true) {
        Ok(Some(result)) => reduced(result, Outcome::Transformed),
        Ok(None) => unchanged(Outcome::Unchanged),
        Err(engine::DeclinedAt(Some(compact))) => reduced(compact, Outcome::ParseErrors),
        Err(engine::DeclinedAt(None)) => unchanged(Outcome::ParseErrors),
    }
}

/// The language devprojex would use for this path, if supported (e.g. `"rust"`, `"tsx"`, `"cpp"`).
/// A file without extension can also be recognised from its text ([`language_of`]).
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
/// The language [`transform`] uses for this file: [`language_name`] of the path, or for a file
/// name without extension, the C or C++ of an Emacs mode line on its first line
/// (`// <vector> -*- C++ -*-`).
pub fn language_of(path: &str, text: &str) -> Option<&'static str> {
    lang_for(path, text).map(|id| languages::LANGS[id].name)
}

fn lang_for(path: &str, text: &str) -> Option<usize> {
    let text = text.strip_prefix(BOM).unwrap_or(text);
    languages::lang_for_path(path).or_else(|| languages::lang_for_mode_line(path, text))
}

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

    /// The language id and the syntax tree of `text`, parsed as `transform` parses it.
    fn parsed(path: &str, text: &str) -> Option<(usize, tree_sitter::Tree)> {
        let id = crate::lang_for(path, text)?;
        let compiled = languages::compiled(id)?;
        Some((id, engine::parse(compiled, text)?))
    }

    /// The conditional groups (`#if` ... `#endif`) the parse of `text` flattens, as byte ranges
    /// (C, C++), for debugging.
    pub fn flattened_groups(path: &str, text: &str) -> Vec<std::ops::Range<usize>> {
        let Some(id) = crate::lang_for(path, text) else {
            return Vec::new();
        };
        let Some(compiled) = languages::compiled(id) else {
            return Vec::new();
        };
        engine::parse_groups(compiled, text)
            .into_iter()
            .filter(|g| g.flattened)
            .map(|g| g.extent.0..g.extent.1)
            .collect()
    }

    /// The syntax tree of `text` as an indented outline (kind and byte range), for debugging.
    pub fn sexp(path: &str, text: &str) -> Option<String> {
        let (_, tree) = parsed(path, text)?;
        let mut out = String::new();
        let mut cursor = tree.walk();
        let mut depth = 0usize;
        loop {
            let n = cursor.node();
            out.push_str(&format!(
                "{}{}{} {:?}\n",
                "  ".repeat(depth),
                if n.is_missing() { "MISSING " } else { "" },
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
        let Some(id) = crate::lang_for(path, text) else {
            return text.to_owned();
        };
        let Some(compiled) = languages::compiled(id) else {
            return text.to_owned();
        };
        let (bom, body) = match text.strip_prefix(crate::BOM) {
            Some(rest) => (crate::BOM, rest),
            None => ("", text),
        };
        let spec = &languages::LANGS[id];
        match engine::run_or_compact(spec, compiled, body, detail, false) {
            Ok(Some((out, _))) | Err(engine::DeclinedAt(Some((out, _)))) => format!("{bom}{out}"),
            _ => text.to_owned(),
        }
    }

    /// The ERROR and MISSING nodes of `text`'s parse as (`"ERROR"`, `"MISSING"` or `"idiom"`
    /// for one read as a known macro idiom, byte range, parent kind), for debugging; `None` for
    /// unsupported paths.
    pub fn parse_errors(
        path: &str,
        text: &str,
    ) -> Option<Vec<(&'static str, std::ops::Range<usize>, &'static str)>> {
        let (id, tree) = parsed(path, text)?;
        let per_node = languages::LANGS[id].tolerance == languages::Tolerance::PerNode;
        let mut out = Vec::new();
        let mut stack = vec![tree.root_node()];
        while let Some(node) = stack.pop() {
            if node.is_error() || node.is_missing() {
                let parent = node.parent().map_or("", |p| p.kind());
                let label = if per_node && engine::macro_idiom(node, text) {
                    "idiom"
                } else if node.is_missing() {
                    "MISSING"
                } else {
                    "ERROR"
                };
                out.push((label, node.byte_range(), parent));
                continue;
            }
            let mut cursor = node.walk();
            stack.extend(node.children(&mut cursor).filter(|c| c.has_error()));
        }
        out.sort_by_key(|e| e.1.start);
        Some(out)
    }

    /// The S-expressions of `transform`'s output (`None` when it changes nothing) as parsed
    /// again from scratch and as parsed reusing the input's tree (the output check's
    /// incremental parse): they must agree.
    pub fn output_parses_fresh_and_incremental(
        path: &str,
        text: &str,
        detail: crate::Detail,
    ) -> Option<(String, String)> {
        let id = crate::lang_for(path, text)?;
        let compiled = languages::compiled(id)?;
        let text = text.strip_prefix(crate::BOM).unwrap_or(text);
        let (out, splice) = engine::run(&languages::LANGS[id], compiled, text, detail).ok()??;
        let (tree, groups, view) = engine::parse_view(compiled, text)?;
        let input = engine::Parsed {
            tree: &tree,
            groups: &groups,
            view: &view,
        };
        let fresh = engine::parse(compiled, &out)?;
        let incremental = engine::reparse_with(compiled, &input, &out, &splice, true)?;
        Some((
            fresh.root_node().to_sexp(),
            incremental.root_node().to_sexp(),
        ))
    }

    /// How many times `transform` parses its output of `text` (C, C++: the check for new
    /// errors, once more for each fallback it takes).
    pub fn output_parses(path: &str, text: &str, detail: crate::Detail) -> usize {
        let before = engine::OUTPUT_PARSES.with(|n| n.get());
        crate::transform(path, text, detail);
        engine::OUTPUT_PARSES.with(|n| n.get()) - before
    }

    /// [`crate::transform`] without checking that a C or C++ output parses with no more errors
    /// than its input: what the edits away from error neighbourhoods alone give.
    pub fn transform_unverified(path: &str, text: &str, detail: crate::Detail) -> String {
        let Some(id) = crate::lang_for(path, text) else {
            return text.to_owned();
        };
        let Some(compiled) = languages::compiled(id) else {
            return text.to_owned();
        };
        match engine::run_with(&languages::LANGS[id], compiled, text, detail, true, false) {
            Ok(Some((out, _))) => out,
            _ => text.to_owned(),
        }
    }

    /// Whether `transform` at `signatures` collapses nothing because of `text`'s parse errors
    /// (too many for its language, or next to everything it would remove): the result is then
    /// `compact`'s.
    pub fn declined(path: &str, text: &str) -> bool {
        let Some(id) = crate::lang_for(path, text) else {
            return false;
        };
        let Some(compiled) = languages::compiled(id) else {
            return false;
        };
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let spec = &languages::LANGS[id];
        matches!(
            engine::run(spec, compiled, text, crate::Detail::Signatures),
            Err(engine::Declined)
        )
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
        parsed(path, text).is_some()
    }

    /// The words of `text` once every comment node is replaced by a space, or `None` for
    /// unsupported paths. Unlike [`tokens`], it does not depend on where the grammar cuts tokens.
    pub fn words_outside_comments(path: &str, text: &str) -> Option<Vec<String>> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let (_, tree) = parsed(path, text)?;
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
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let (_, tree) = parsed(path, text)?;
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
