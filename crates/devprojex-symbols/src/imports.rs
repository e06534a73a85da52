//! Static imports of one file, and the packages or namespaces it declares.
//!
//! C and C++ `#include` lines are found by a line scan that knows comments, as the preprocessor
//! does (a tree-sitter parse would cost a hundred times more on a tree like the kernel's). Every
//! other language is parsed with its tree-sitter grammar, so an import inside a string or a
//! comment is never one.

use std::rc::Rc;

use devprojex_detail::tree_sitter::Node;

use crate::{Lang, MAX_NESTING, MAX_PARSE_BYTES, Skip};

/// What one file imports and declares.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileFacts {
    pub imports: Vec<Import>,
    /// What the file declares in its language's package system (Java, Kotlin, Scala, C#,
    /// PHP): its packages or namespaces and their top-level types; Rust: the names its
    /// top-level `use` and `extern crate` items bring into its module.
    pub declares: Vec<Declaration>,
    /// Set when the file was not indexed (its imports and declarations are empty).
    pub skipped: Option<Skip>,
}

impl FileFacts {
    /// The facts of a file that [`try_scan`] skipped.
    pub fn skipped(skip: Skip) -> Self {
        Self {
            skipped: Some(skip),
            ..Self::default()
        }
    }
}

/// A name one file declares, qualified with `.` (PHP's `\` written as `.`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Declaration {
    /// A package or namespace: Java/Kotlin/Scala `package a.b`, C# `namespace A.B`, PHP
    /// `namespace A\B`.
    Package(String),
    /// A top-level type (class, interface, object, trait, enum, record, alias) with its
    /// package: `a.b.Client`. A class import leads to the file that defines the class when
    /// no file is named after it (Kotlin and Scala put many in one file).
    Type(String),
    /// Rust: a name a top-level `use`, `extern crate` or `mod x;` item brings into the file's
    /// module, and the path it stands for: `pub use crate::sink::sinks;` is `sinks` ->
    /// `[crate, sink, sinks]`, `pub extern crate grep_printer as printer;` is `printer` ->
    /// `[grep_printer]`, `mod poll_fn;` is `poll_fn` -> `[self, poll_fn]`. A glob
    /// (`pub use a::*;`) is named `*` with the path of its module.
    RustName {
        name: String,
        path: Vec<String>,
        visibility: RustVisibility,
    },
}

/// Who sees a Rust item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RustVisibility {
    /// No `pub` (or `pub(self)`): its module and the modules below it.
    Private,
    /// `pub(crate)`, `pub(super)`, `pub(in path)`: at most its crate.
    Crate,
    /// `pub`: every crate.
    Public,
}

impl Declaration {
    /// The qualified name (Rust: the name brought in).
    pub fn name(&self) -> &str {
        match self {
            Declaration::Package(n) | Declaration::Type(n) => n,
            Declaration::RustName { name, .. } => name,
        }
    }
}

/// One static import.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    /// 1-based line where the import statement starts.
    pub line: usize,
    pub spec: Spec,
}

/// What an import names, per language family.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Spec {
    /// `#include "path"` (`quoted`) or `#include <path>`.
    Include { path: String, quoted: bool },
    /// Rust `mod name;` (a module in another file), with its `#[path = "..."]` if any.
    RustMod {
        name: String,
        path_attr: Option<String>,
    },
    /// Rust `use a::b::c` or `extern crate a`: the path's segments (`crate`, `super`, `self`
    /// included), one `Spec` per leaf of a use tree; a glob ends at its module. `inline` names
    /// the inline modules (`mod tests { ... }`) the `use` sits in, outermost first.
    RustUse {
        segments: Vec<String>,
        inline: Vec<String>,
    },
    /// Python `import a.b` (`level` 0, no names) or `from ..a import x, y` (`level` 2).
    Python {
        level: usize,
        module: String,
        names: Vec<String>,
    },
    /// A JavaScript/TypeScript module specifier (`import`, `export ... from`, `require`,
    /// `import()`, `import x = require()`). `reexports_all`: `export * from "./x"`, which makes
    /// every export of the module the file's own (not `export * as ns from`, a namespace).
    Js {
        specifier: String,
        reexports_all: bool,
    },
    /// A Go import path.
    Go { path: String },
    /// A Java/Kotlin/Scala import of a qualified name; `wildcard` for `a.b.*`.
    Jvm { name: String, wildcard: bool },
    /// A C# `using A.B;` (a namespace) or `using static A.B.C;` / `using X = A.B.C;` (a type).
    CSharp { name: String, type_import: bool },
    /// Ruby `require_relative "x"` (`relative`) or `require "x"`.
    Ruby { path: String, relative: bool },
    /// PHP `use A\B\C` (with `\` written as `.`).
    PhpUse { name: String },
    /// PHP `require`/`include` of a literal path; `dir_relative` when it is written relative to
    /// `__DIR__` or `dirname(__FILE__)`.
    PhpRequire { path: String, dir_relative: bool },
}

/// The imports of a file, or `None` for a language without them or a file that was skipped
/// (see [`try_scan`] for why). C and C++ are scanned at any size.
pub fn scan(path: &str, text: &str) -> Option<FileFacts> {
    try_scan(path, text)?.ok()
}

/// The imports of a file: `None` for a language without them, `Some(Err)` for a file that was
/// skipped (too large to parse, too deeply nested, or the parser failed on it).
pub fn try_scan(path: &str, text: &str) -> Option<Result<FileFacts, Skip>> {
    try_scan_until(path, text, &crate::never)
}

/// [`try_scan`], asking `stop` while it parses and walks the file.
pub fn try_scan_until(
    path: &str,
    text: &str,
    stop: crate::Stop<'_>,
) -> Option<Result<FileFacts, Skip>> {
    if is_include_fragment(path) {
        return Some(Ok(FileFacts {
            imports: scan_includes(text),
            ..FileFacts::default()
        }));
    }
    let lang = Lang::of_file(path, text)?;
    if lang.is_c_family() {
        return Some(Ok(FileFacts {
            imports: scan_includes(text),
            ..FileFacts::default()
        }));
    }
    if !has_import_keyword(lang, text) {
        return Some(Ok(FileFacts::default()));
    }
    if text.len() > MAX_PARSE_BYTES {
        return Some(Err(Skip::TooLarge));
    }
    Some(crate::guarded(|| scan_parsed(lang, text, stop)))
}

fn scan_parsed(lang: Lang, text: &str, stop: crate::Stop<'_>) -> Result<FileFacts, Skip> {
    let tree = crate::parse(lang, text, stop)?;
    let mut facts = FileFacts::default();
    let mut budget = Budget::for_text(text);
    if matches!(
        lang,
        Lang::Java | Lang::Kotlin | Lang::Scala | Lang::CSharp | Lang::Php
    ) {
        declarations(
            lang,
            tree.root_node(),
            text,
            &mut facts.declares,
            &mut budget,
        )?;
        // a Scala or Kotlin class and its companion object share a name
        facts.declares.sort();
        facts.declares.dedup();
    }
    // each node with the inline Rust modules (`mod tests { ... }`) it sits in
    let mut stack = vec![(tree.root_node(), Modules::default())];
    let mut visited = 0u32;
    while let Some((node, modules)) = stack.pop() {
        visited = visited.wrapping_add(1);
        if visited.is_multiple_of(crate::WALK_STOP_CHECK_EVERY) && stop() {
            return Err(Skip::Interrupted);
        }
        if visit(lang, node, text, &modules, &mut facts, &mut budget)? {
            continue;
        }
        let modules = match rust_inline_module(lang, node, text) {
            Some(name) => modules.inside(name)?,
            None => modules,
        };
        for i in (0..node.named_child_count()).rev() {
            if let Some(child) = node.named_child(i as u32) {
                stack.push((child, modules.clone()));
            }
        }
    }
    facts.imports.sort_by_key(|i| i.line);
    Ok(facts)
}

/// What one file's imports and declarations may hold: 64 times its size, at least 1 MiB. A
/// use list or a namespace repeats its prefix in every name inside it, which is how a small
/// file could otherwise ask for gigabytes.
struct Budget {
    left: usize,
}

impl Budget {
    fn for_text(text: &str) -> Self {
        Self {
            left: text
                .len()
                .saturating_mul(crate::defs::DEFINITIONS_BUDGET_FACTOR)
                .max(crate::defs::MIN_DEFINITIONS_BUDGET),
        }
    }

    fn spend(&mut self, bytes: usize) -> Result<(), Skip> {
        self.left = self.left.checked_sub(bytes).ok_or(Skip::OverBudget)?;
        Ok(())
    }
}

/// The inline Rust modules around a node, innermost last; at most [`MAX_NESTING`].
#[derive(Clone, Default)]
struct Modules(Option<Rc<ModuleLink>>);

struct ModuleLink {
    name: String,
    outer: Modules,
    depth: usize,
}

impl Modules {
    fn inside(&self, name: String) -> Result<Modules, Skip> {
        let depth = self.0.as_ref().map_or(0, |l| l.depth) + 1;
        if depth > MAX_NESTING {
            return Err(Skip::TooDeeplyNested);
        }
        Ok(Modules(Some(Rc::new(ModuleLink {
            name,
            outer: self.clone(),
            depth,
        }))))
    }

    /// The names, outermost first.
    fn names(&self) -> Vec<String> {
        let mut names = Vec::new();
        let mut link = self.0.as_deref();
        while let Some(current) = link {
            names.push(current.name.clone());
            link = current.outer.0.as_deref();
        }
        names.reverse();
        names
    }
}

/// The name of an inline Rust module (`mod tests { ... }`) that `node` is.
fn rust_inline_module(lang: Lang, node: Node<'_>, src: &str) -> Option<String> {
    if lang != Lang::Rust || node.kind() != "mod_item" {
        return None;
    }
    node.child_by_field_name("body")?;
    Some(text(node.child_by_field_name("name")?, src).to_string())
}

/// Extensions of C and C++ fragments that are only ever `#include`d (X-macro tables, generated
/// definitions): they take part in include resolution like headers.
pub const INCLUDE_FRAGMENT_EXTENSIONS: [&str; 4] = ["def", "inc", "tbl", "x"];

/// Whether `path` is such a fragment (`commands.def`, `opcodes.inc`).
pub fn is_include_fragment(path: &str) -> bool {
    path.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.ends_with('/')
            && INCLUDE_FRAGMENT_EXTENSIONS
                .iter()
                .any(|e| e.eq_ignore_ascii_case(ext))
    })
}

/// A file without any of its language's import words has no imports and is not parsed.
fn has_import_keyword(lang: Lang, text: &str) -> bool {
    let words: &[&str] = match lang {
        Lang::Rust => &["mod", "use", "extern"],
        Lang::Python => &["import"],
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => &["import", "require", "from"],
        Lang::Go => &["import"],
        Lang::Java | Lang::Kotlin | Lang::Scala => &["import", "package"],
        Lang::CSharp => &["using", "namespace"],
        Lang::Ruby => &["require"],
        Lang::Php => &["use", "require", "include", "namespace"],
        Lang::Swift | Lang::C | Lang::Cpp => return false,
    };
    words
        .iter()
        .any(|w| memchr::memmem::find(text.as_bytes(), w.as_bytes()).is_some())
}

fn text<'s>(node: Node<'_>, src: &'s str) -> &'s str {
    src.get(node.byte_range()).unwrap_or("")
}

fn line_of(node: Node<'_>) -> usize {
    node.start_position().row + 1
}

fn push(facts: &mut FileFacts, node: Node<'_>, spec: Spec) {
    facts.imports.push(Import {
        line: line_of(node),
        spec,
    });
}

/// The value of a string literal node (quotes removed, no escapes interpreted: import paths
/// have none worth interpreting). `None` for a template with substitutions.
fn string_value(node: Node<'_>, src: &str) -> Option<String> {
    let raw = text(node, src).trim();
    if node.kind() == "template_string" && raw.contains("${") {
        return None;
    }
    let inner = raw
        .strip_prefix(['"', '\'', '`'])
        .and_then(|r| r.strip_suffix(['"', '\'', '`']))?;
    Some(inner.to_string())
}

/// Handles `node` if it is an import (or a declaration); returns true when its subtree holds
/// nothing more to find.
fn visit(
    lang: Lang,
    node: Node<'_>,
    src: &str,
    modules: &Modules,
    facts: &mut FileFacts,
    budget: &mut Budget,
) -> Result<bool, Skip> {
    Ok(match lang {
        Lang::Rust => rust(node, src, modules, facts, budget)?,
        Lang::Python => python(node, src, facts),
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => javascript(node, src, facts),
        Lang::Go => go(node, src, facts),
        Lang::Java | Lang::Kotlin | Lang::Scala => jvm(lang, node, src, facts),
        Lang::CSharp => csharp(node, src, facts),
        Lang::Ruby => ruby(node, src, facts),
        Lang::Php => php(node, src, facts),
        _ => true,
    })
}

fn rust(
    node: Node<'_>,
    src: &str,
    modules: &Modules,
    facts: &mut FileFacts,
    budget: &mut Budget,
) -> Result<bool, Skip> {
    match node.kind() {
        "mod_item" => {
            if node.child_by_field_name("body").is_some() {
                return Ok(false);
            }
            let Some(name) = node.child_by_field_name("name") else {
                return Ok(true);
            };
            let path_attr = rust_path_attribute(node, src);
            if rust_top_level(node) {
                let name = text(name, src).to_string();
                budget.spend(2 * name.len() + 48)?;
                facts.declares.push(Declaration::RustName {
                    path: vec!["self".to_string(), name.clone()],
                    name,
                    visibility: rust_visibility(node, src),
                });
            }
            push(
                facts,
                node,
                Spec::RustMod {
                    name: text(name, src).to_string(),
                    path_attr,
                },
            );
            Ok(true)
        }
        "use_declaration" => {
            if let Some(argument) = node.child_by_field_name("argument") {
                let leaves = rust_use_leaves(argument, src, budget)?;
                let inline = modules.names();
                let inline_bytes: usize = inline.iter().map(|n| n.len() + 24).sum();
                let top_level = rust_top_level(node);
                for leaf in leaves {
                    if top_level {
                        let name = match (&leaf.alias, leaf.glob) {
                            (_, true) => Some("*"),
                            (Some(alias), _) => Some(alias.as_str()),
                            (None, _) => leaf.segments.last().map(String::as_str),
                        };
                        // `as _` brings in no name; `self`/`super` alone name no new one
                        if let Some(name) = name.filter(|n| !matches!(*n, "_" | "self" | "super")) {
                            budget.spend(name.len() + 24)?;
                            facts.declares.push(Declaration::RustName {
                                name: name.to_string(),
                                path: leaf.segments.clone(),
                                visibility: rust_visibility(node, src),
                            });
                        }
                    }
                    budget.spend(inline_bytes)?;
                    push(
                        facts,
                        node,
                        Spec::RustUse {
                            segments: leaf.segments,
                            inline: inline.clone(),
                        },
                    );
                }
            }
            Ok(true)
        }
        "extern_crate_declaration" => {
            if let Some(name) = node.child_by_field_name("name") {
                let name = text(name, src).to_string();
                if rust_top_level(node) {
                    let alias = node.child_by_field_name("alias").map(|a| text(a, src));
                    facts.declares.push(Declaration::RustName {
                        name: alias.unwrap_or(&name).to_string(),
                        path: vec![name.clone()],
                        visibility: rust_visibility(node, src),
                    });
                }
                push(
                    facts,
                    node,
                    Spec::RustUse {
                        segments: vec![name],
                        inline: Vec::new(),
                    },
                );
            }
            Ok(true)
        }
        // a function body can hold `use` and `mod` too, so keep walking
        _ => Ok(false),
    }
}

/// `#[path = "x.rs"]` on the attribute lines right above a `mod` item.
fn rust_path_attribute(node: Node<'_>, src: &str) -> Option<String> {
    let mut previous = node.prev_named_sibling();
    while let Some(attribute) = previous.filter(|p| p.kind() == "attribute_item") {
        let body = text(attribute, src);
        if let Some(rest) = body
            .trim_start_matches("#[")
            .trim_start()
            .strip_prefix("path")
        {
            let value = rest.trim_start().strip_prefix('=')?.trim();
            let value = value.trim_end_matches(']').trim();
            return value
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .map(str::to_string);
        }
        previous = attribute.prev_named_sibling();
    }
    None
}

/// Whether an item sits at the top of its file (not in an inline module or a body).
fn rust_top_level(node: Node<'_>) -> bool {
    node.parent().is_some_and(|p| p.kind() == "source_file")
}

/// Who sees an item, by its `pub` (`pub(crate)` and the like are not seen by other crates).
fn rust_visibility(node: Node<'_>, src: &str) -> RustVisibility {
    let modifier = (0..node.child_count())
        .filter_map(|i| node.child(i as u32))
        .find(|c| c.kind() == "visibility_modifier")
        .map(|c| text(c, src).split_whitespace().collect::<String>());
    match modifier.as_deref() {
        None | Some("pub(self)") => RustVisibility::Private,
        Some("pub") => RustVisibility::Public,
        Some(_) => RustVisibility::Crate,
    }
}

fn rust_path_segments(node: Node<'_>, src: &str) -> Vec<String> {
    text(node, src)
        .split("::")
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// One leaf of a use tree: its path, the name it is brought in as when renamed, and whether
/// it is a glob (`a::b::*`, whose path is the module a::b).
struct UseLeaf {
    segments: Vec<String>,
    alias: Option<String>,
    glob: bool,
}

/// The paths a use tree names, one per leaf (`a::{b, c::d}` is `a::b` and `a::c::d`). An
/// explicit stack, not recursion: a use list nested 2,500 deep is 12 KB of text.
fn rust_use_leaves(
    argument: Node<'_>,
    src: &str,
    budget: &mut Budget,
) -> Result<Vec<UseLeaf>, Skip> {
    let mut out = Vec::new();
    // (node, the path before it, the use lists it is in, the name it is renamed to)
    let mut stack: Vec<(Node<'_>, Vec<String>, usize, Option<String>)> =
        vec![(argument, Vec::new(), 0, None)];
    let cost = |segments: &[String]| segments.iter().map(|s| s.len() + 24).sum::<usize>() + 24;
    let leaf = |segments: Vec<String>,
                alias: Option<String>,
                glob: bool,
                out: &mut Vec<UseLeaf>,
                budget: &mut Budget| {
        if !segments.is_empty() {
            budget.spend(cost(&segments))?;
            out.push(UseLeaf {
                segments,
                alias,
                glob,
            });
        }
        Ok::<(), Skip>(())
    };
    while let Some((node, prefix, nesting, alias)) = stack.pop() {
        let joined = |mut base: Vec<String>, more: Vec<String>| {
            base.extend(more);
            base
        };
        match node.kind() {
            "scoped_use_list" => {
                let base = match node.child_by_field_name("path") {
                    Some(path) => joined(prefix, rust_path_segments(path, src)),
                    None => prefix,
                };
                if let Some(list) = node.child_by_field_name("list") {
                    stack.push((list, base, nesting, None));
                }
            }
            "use_list" => {
                if nesting >= MAX_NESTING {
                    return Err(Skip::TooDeeplyNested);
                }
                for i in (0..node.named_child_count()).rev() {
                    if let Some(child) = node.named_child(i as u32) {
                        budget.spend(cost(&prefix))?;
                        stack.push((child, prefix.clone(), nesting + 1, None));
                    }
                }
            }
            "use_as_clause" => {
                if let Some(path) = node.child_by_field_name("path") {
                    let alias = node
                        .child_by_field_name("alias")
                        .map(|a| text(a, src).to_string());
                    stack.push((path, prefix, nesting, alias));
                }
            }
            "use_wildcard" => {
                // `a::b::*`: the module a::b
                let inner = (0..node.named_child_count())
                    .filter_map(|i| node.named_child(i as u32))
                    .next();
                let base = match inner {
                    Some(path) => joined(prefix, rust_path_segments(path, src)),
                    None => prefix,
                };
                leaf(base, None, true, &mut out, budget)?;
            }
            "self" if !prefix.is_empty() => leaf(prefix, alias, false, &mut out, budget)?,
            "attribute_item" | "line_comment" | "block_comment" => {}
            _ => leaf(
                joined(prefix, rust_path_segments(node, src)),
                alias,
                false,
                &mut out,
                budget,
            )?,
        }
    }
    Ok(out)
}

fn dotted(node: Node<'_>, src: &str) -> String {
    text(node, src)
        .split('.')
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(".")
}

fn python(node: Node<'_>, src: &str, facts: &mut FileFacts) -> bool {
    match node.kind() {
        "import_statement" => {
            let mut cursor = node.walk();
            let names: Vec<Node<'_>> = node.children_by_field_name("name", &mut cursor).collect();
            for name in names {
                let module = match name.kind() {
                    "aliased_import" => name.child_by_field_name("name"),
                    _ => Some(name),
                };
                if let Some(module) = module {
                    push(
                        facts,
                        node,
                        Spec::Python {
                            level: 0,
                            module: dotted(module, src),
                            names: Vec::new(),
                        },
                    );
                }
            }
            true
        }
        "future_import_statement" => {
            push(
                facts,
                node,
                Spec::Python {
                    level: 0,
                    module: "__future__".to_string(),
                    names: Vec::new(),
                },
            );
            true
        }
        "import_from_statement" => {
            let Some(module) = node.child_by_field_name("module_name") else {
                return true;
            };
            let (level, module_name) = if module.kind() == "relative_import" {
                let prefix = (0..module.named_child_count())
                    .filter_map(|i| module.named_child(i as u32))
                    .find(|c| c.kind() == "import_prefix")
                    .map_or(0, |p| text(p, src).trim().len());
                let rest = (0..module.named_child_count())
                    .filter_map(|i| module.named_child(i as u32))
                    .find(|c| c.kind() == "dotted_name")
                    .map(|d| dotted(d, src))
                    .unwrap_or_default();
                (prefix, rest)
            } else {
                (0, dotted(module, src))
            };
            let mut cursor = node.walk();
            let names: Vec<String> = node
                .children_by_field_name("name", &mut cursor)
                .filter_map(|n| match n.kind() {
                    "aliased_import" => n.child_by_field_name("name"),
                    _ => Some(n),
                })
                .map(|n| dotted(n, src))
                .collect();
            push(
                facts,
                node,
                Spec::Python {
                    level,
                    module: module_name,
                    names,
                },
            );
            true
        }
        _ => false,
    }
}

fn javascript(node: Node<'_>, src: &str, facts: &mut FileFacts) -> bool {
    match node.kind() {
        "import_statement" | "export_statement" => {
            if let Some(source) = node.child_by_field_name("source")
                && let Some(specifier) = string_value(source, src)
            {
                let reexports_all = node.kind() == "export_statement"
                    && (0..node.child_count())
                        .filter_map(|i| node.child(i as u32))
                        .any(|c| c.kind() == "*")
                    && !(0..node.named_child_count())
                        .filter_map(|i| node.named_child(i as u32))
                        .any(|c| c.kind() == "namespace_export");
                push(
                    facts,
                    node,
                    Spec::Js {
                        specifier,
                        reexports_all,
                    },
                );
                return true;
            }
            // `import fs = require("fs")`
            let clause = (0..node.named_child_count())
                .filter_map(|i| node.named_child(i as u32))
                .find(|c| c.kind() == "import_require_clause");
            if let Some(source) = clause.and_then(|c| c.child_by_field_name("source"))
                && let Some(specifier) = string_value(source, src)
            {
                push(
                    facts,
                    node,
                    Spec::Js {
                        specifier,
                        reexports_all: false,
                    },
                );
                return true;
            }
            // `export function ...` holds code with `require()` calls
            false
        }
        "call_expression" => {
            let function = node.child_by_field_name("function");
            let is_loader = function.is_some_and(|f| {
                matches!(f.kind(), "import")
                    || (f.kind() == "identifier" && text(f, src) == "require")
            });
            if is_loader {
                let argument = node.child_by_field_name("arguments").and_then(|a| {
                    (0..a.named_child_count())
                        .filter_map(|i| a.named_child(i as u32))
                        .next()
                });
                if let Some(argument) =
                    argument.filter(|a| matches!(a.kind(), "string" | "template_string"))
                    && let Some(specifier) = string_value(argument, src)
                {
                    push(
                        facts,
                        node,
                        Spec::Js {
                            specifier,
                            reexports_all: false,
                        },
                    );
                    return true;
                }
            }
            false
        }
        _ => false,
    }
}

fn go(node: Node<'_>, src: &str, facts: &mut FileFacts) -> bool {
    match node.kind() {
        "import_spec" => {
            if let Some(path) = node.child_by_field_name("path")
                && let Some(value) = string_value(path, src)
            {
                push(facts, node, Spec::Go { path: value });
            }
            true
        }
        "import_declaration" | "import_spec_list" | "source_file" => false,
        // imports come before everything else in a Go file
        _ => true,
    }
}

fn jvm(lang: Lang, node: Node<'_>, src: &str, facts: &mut FileFacts) -> bool {
    match (lang, node.kind()) {
        // packages are [`declarations`]; a Scala package body holds imports
        (Lang::Java, "package_declaration") | (Lang::Kotlin, "package_header") => true,
        (Lang::Java, "import_declaration") => {
            let name = (0..node.named_child_count())
                .filter_map(|i| node.named_child(i as u32))
                .find(|c| matches!(c.kind(), "scoped_identifier" | "identifier"));
            let wildcard = (0..node.named_child_count())
                .filter_map(|i| node.named_child(i as u32))
                .any(|c| c.kind() == "asterisk");
            if let Some(name) = name {
                push(
                    facts,
                    node,
                    Spec::Jvm {
                        name: dotted(name, src),
                        wildcard,
                    },
                );
            }
            true
        }
        (Lang::Kotlin, "import") => {
            let name = (0..node.named_child_count())
                .filter_map(|i| node.named_child(i as u32))
                .find(|c| matches!(c.kind(), "qualified_identifier" | "identifier"));
            let wildcard = text(node, src).trim_end().ends_with('*');
            if let Some(name) = name {
                push(
                    facts,
                    node,
                    Spec::Jvm {
                        name: dotted(name, src),
                        wildcard,
                    },
                );
            }
            true
        }
        (Lang::Scala, "import_declaration") => {
            scala_import(node, src, facts);
            true
        }
        _ => false,
    }
}

/// A Scala `import`: one or more import expressions separated by commas (`import a.B, c.D`),
/// each a path ending in a name, a wildcard (`_`, `*`, `given`) or selectors
/// (`{B, C => D, E => _, *}`). A selector that hides a name (`E => _`) imports nothing.
fn scala_import(node: Node<'_>, src: &str, facts: &mut FileFacts) {
    let mut specs: Vec<Spec> = Vec::new();
    let mut path: Vec<&str> = Vec::new();
    let segment = |n: Node<'_>| text(n, src).trim().trim_matches('`');
    let qualified = |path: &[&str]| {
        // `_root_` only anchors the path at the top
        let path = match path.first() {
            Some(&"_root_") => &path[1..],
            _ => path,
        };
        path.join(".")
    };
    let mut cursor = node.walk();
    if cursor.goto_first_child() {
        loop {
            let child = cursor.node();
            match child.kind() {
                _ if cursor.field_name() == Some("path") && child.is_named() => {
                    path.push(segment(child));
                }
                "," => {
                    if !path.is_empty() {
                        specs.push(Spec::Jvm {
                            name: qualified(&path),
                            wildcard: false,
                        });
                    }
                    path.clear();
                }
                "namespace_wildcard" | "wildcard" if !path.is_empty() => {
                    specs.push(Spec::Jvm {
                        name: qualified(&path),
                        wildcard: true,
                    });
                    path.clear();
                }
                "namespace_selectors" if !path.is_empty() => {
                    let base = qualified(&path);
                    for i in 0..child.named_child_count() {
                        let Some(selector) = child.named_child(i as u32) else {
                            continue;
                        };
                        let name = match selector.kind() {
                            "arrow_renamed_identifier" | "as_renamed_identifier" => {
                                let hidden = selector
                                    .child_by_field_name("alias")
                                    .is_some_and(|a| a.kind() == "wildcard");
                                if hidden {
                                    continue;
                                }
                                selector.child_by_field_name("name")
                            }
                            "identifier" => Some(selector),
                            // `*`, `_`, `given`, `given Ordering[?]`: the whole package
                            _ => None,
                        };
                        specs.push(match name {
                            Some(name) => Spec::Jvm {
                                name: format!("{base}.{}", segment(name)),
                                wildcard: false,
                            },
                            None => Spec::Jvm {
                                name: base.clone(),
                                wildcard: true,
                            },
                        });
                    }
                    path.clear();
                }
                _ => {}
            }
            if !cursor.goto_next_sibling() {
                break;
            }
        }
    }
    if !path.is_empty() {
        specs.push(Spec::Jvm {
            name: qualified(&path),
            wildcard: false,
        });
    }
    // `{given, *}` names the package twice
    let mut seen: Vec<Spec> = Vec::new();
    for spec in specs {
        if !seen.contains(&spec) {
            seen.push(spec.clone());
            push(facts, node, spec);
        }
    }
}

/// The packages (or namespaces) a Java, Kotlin, Scala, C# or PHP file declares and its
/// top-level types, from `root` (the file) and the bodies of braced packages or namespaces
/// inside it. A package line without a body (`package a.b`, C# `namespace A.B;`, PHP
/// `namespace A\B;`) applies to what follows it at its level; Scala chains them (`package a.b`
/// then `package c` is `a.b.c`) and nests braced ones, as C# nests namespaces. In no particular
/// order (the caller sorts): braced bodies wait on a work list, not on the call stack, and
/// nesting past [`MAX_NESTING`] or a name past [`crate::MAX_QUALIFIED_BYTES`] skips the file.
fn declarations(
    lang: Lang,
    root: Node<'_>,
    src: &str,
    out: &mut Vec<Declaration>,
    budget: &mut Budget,
) -> Result<(), Skip> {
    let nested = |outer: &str, name: String| match lang {
        Lang::Scala | Lang::CSharp if !outer.is_empty() => format!("{outer}.{name}"),
        _ => name,
    };
    let mut emit = |declaration: Declaration, out: &mut Vec<Declaration>| {
        budget.spend(declaration.name().len() + 32)?;
        out.push(declaration);
        Ok(())
    };
    // (a container, the package it is in, how many braced packages enclose it)
    let mut work: Vec<(Node<'_>, String, usize)> = vec![(root, String::new(), 0)];
    while let Some((container, enclosing, depth)) = work.pop() {
        if depth > MAX_NESTING {
            return Err(Skip::TooDeeplyNested);
        }
        let mut current = enclosing.clone();
        // a package line is declared once the lines chained to it are known
        let mut pending: Option<String> = None;
        for i in 0..container.named_child_count() {
            let Some(child) = container.named_child(i as u32) else {
                continue;
            };
            let package_name = match (lang, child.kind()) {
                (Lang::Java, "package_declaration") | (Lang::Kotlin, "package_header") => (0
                    ..child.named_child_count())
                    .filter_map(|i| child.named_child(i as u32))
                    .find(|c| {
                        matches!(
                            c.kind(),
                            "scoped_identifier" | "identifier" | "qualified_identifier"
                        )
                    })
                    .map(|n| dotted(n, src)),
                (Lang::Scala, "package_clause")
                | (Lang::CSharp, "namespace_declaration" | "file_scoped_namespace_declaration") => {
                    child.child_by_field_name("name").map(|n| dotted(n, src))
                }
                (Lang::Php, "namespace_definition") => {
                    child.child_by_field_name("name").map(|n| php_name(n, src))
                }
                _ => None,
            };
            if let Some(name) = package_name {
                let base = match lang {
                    // a body-less C# or PHP namespace replaces the one before it
                    Lang::Scala => current.as_str(),
                    _ => enclosing.as_str(),
                };
                let full = nested(base, name);
                if full.len() > crate::MAX_QUALIFIED_BYTES {
                    return Err(Skip::TooDeeplyNested);
                }
                match child.child_by_field_name("body") {
                    Some(body) => {
                        if let Some(done) = pending.take() {
                            emit(Declaration::Package(done), out)?;
                        }
                        emit(Declaration::Package(full.clone()), out)?;
                        work.push((body, full, depth + 1));
                    }
                    None => {
                        if lang != Lang::Scala
                            && let Some(done) = pending.take()
                        {
                            emit(Declaration::Package(done), out)?;
                        }
                        pending = Some(full.clone());
                        current = full;
                    }
                }
                continue;
            }
            if let Some(done) = pending.take() {
                emit(Declaration::Package(done), out)?;
            }
            if is_type_declaration(lang, child.kind()) {
                let name_field = if child.kind() == "type_alias" {
                    "type"
                } else {
                    "name"
                };
                if let Some(name) = child.child_by_field_name(name_field) {
                    let name = text(name, src).trim().trim_matches('`');
                    let declared = if current.is_empty() {
                        name.to_string()
                    } else {
                        format!("{current}.{name}")
                    };
                    emit(Declaration::Type(declared), out)?;
                }
            }
        }
        if let Some(done) = pending.take() {
            emit(Declaration::Package(done), out)?;
        }
    }
    Ok(())
}

/// Node kinds of the types a class import can name.
fn is_type_declaration(lang: Lang, kind: &str) -> bool {
    match lang {
        Lang::Java => matches!(
            kind,
            "class_declaration"
                | "interface_declaration"
                | "enum_declaration"
                | "record_declaration"
                | "annotation_type_declaration"
        ),
        Lang::Kotlin => matches!(
            kind,
            "class_declaration" | "object_declaration" | "type_alias"
        ),
        Lang::Scala => matches!(
            kind,
            "class_definition"
                | "object_definition"
                | "trait_definition"
                | "enum_definition"
                | "type_definition"
        ),
        Lang::CSharp => matches!(
            kind,
            "class_declaration"
                | "struct_declaration"
                | "interface_declaration"
                | "enum_declaration"
                | "record_declaration"
                | "record_struct_declaration"
                | "delegate_declaration"
        ),
        Lang::Php => matches!(
            kind,
            "class_declaration"
                | "interface_declaration"
                | "trait_declaration"
                | "enum_declaration"
        ),
        _ => false,
    }
}

fn csharp(node: Node<'_>, src: &str, facts: &mut FileFacts) -> bool {
    match node.kind() {
        "using_directive" => {
            let is_static = (0..node.child_count())
                .filter_map(|i| node.child(i as u32))
                .any(|c| c.kind() == "static");
            let alias = node.child_by_field_name("name");
            let target = (0..node.named_child_count())
                .filter_map(|i| node.named_child(i as u32))
                .filter(|c| Some(*c) != alias)
                .find(|c| matches!(c.kind(), "qualified_name" | "identifier" | "generic_name"));
            if let Some(target) = target {
                let name: String = text(target, src)
                    .split('<')
                    .next()
                    .unwrap_or("")
                    .split('.')
                    .map(str::trim)
                    .collect::<Vec<_>>()
                    .join(".");
                push(
                    facts,
                    node,
                    Spec::CSharp {
                        name: name.trim_start_matches("global::").to_string(),
                        type_import: is_static || alias.is_some(),
                    },
                );
            }
            true
        }
        // namespaces are [`declarations`]; their bodies hold usings
        "namespace_declaration"
        | "file_scoped_namespace_declaration"
        | "compilation_unit"
        | "declaration_list" => false,
        // usings and namespaces sit at the top level or inside namespaces
        _ => true,
    }
}

fn ruby(node: Node<'_>, src: &str, facts: &mut FileFacts) -> bool {
    if node.kind() != "call" {
        return false;
    }
    let method = node.child_by_field_name("method").map(|m| text(m, src));
    let relative = match method {
        Some("require_relative") => true,
        Some("require") | Some("load") => false,
        _ => return false,
    };
    if node.child_by_field_name("receiver").is_some() {
        return false;
    }
    let argument = node.child_by_field_name("arguments").and_then(|a| {
        (0..a.named_child_count())
            .filter_map(|i| a.named_child(i as u32))
            .next()
    });
    if let Some(argument) = argument.filter(|a| a.kind() == "string") {
        let has_interpolation = (0..argument.named_child_count())
            .filter_map(|i| argument.named_child(i as u32))
            .any(|c| c.kind() == "interpolation");
        if !has_interpolation && let Some(path) = string_value(argument, src) {
            push(facts, node, Spec::Ruby { path, relative });
        }
    }
    true
}

fn php_name(node: Node<'_>, src: &str) -> String {
    text(node, src)
        .trim()
        .trim_start_matches('\\')
        .split('\\')
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(".")
}

fn php(node: Node<'_>, src: &str, facts: &mut FileFacts) -> bool {
    match node.kind() {
        "namespace_use_declaration" => {
            // `use A\{B, C as D};` has a prefix and a group
            let prefix = (0..node.named_child_count())
                .filter_map(|i| node.named_child(i as u32))
                .find(|c| c.kind() == "namespace_name")
                .map(|p| php_name(p, src));
            let clauses: Vec<Node<'_>> = match node.child_by_field_name("body") {
                Some(group) => (0..group.named_child_count())
                    .filter_map(|i| group.named_child(i as u32))
                    .collect(),
                None => (0..node.named_child_count())
                    .filter_map(|i| node.named_child(i as u32))
                    .filter(|c| c.kind() == "namespace_use_clause")
                    .collect(),
            };
            for clause in clauses {
                let name = (0..clause.named_child_count())
                    .filter_map(|i| clause.named_child(i as u32))
                    .find(|c| matches!(c.kind(), "qualified_name" | "name" | "namespace_name"));
                let Some(name) = name else { continue };
                let leaf = php_name(name, src);
                let full = match &prefix {
                    Some(p) => format!("{p}.{leaf}"),
                    None => leaf,
                };
                push(facts, node, Spec::PhpUse { name: full });
            }
            true
        }
        "require_expression"
        | "require_once_expression"
        | "include_expression"
        | "include_once_expression" => {
            let argument = (0..node.named_child_count())
                .filter_map(|i| node.named_child(i as u32))
                .next();
            let Some(mut argument) = argument else {
                return true;
            };
            while argument.kind() == "parenthesized_expression" {
                match argument.named_child(0) {
                    Some(inner) => argument = inner,
                    None => return true,
                }
            }
            let (path_node, dir_relative) = if argument.kind() == "binary_expression" {
                let left = argument
                    .child_by_field_name("left")
                    .map(|l| text(l, src).trim());
                let dir = matches!(left, Some("__DIR__") | Some("dirname(__FILE__)"));
                (argument.child_by_field_name("right"), dir)
            } else {
                (Some(argument), false)
            };
            let value = path_node
                .filter(|p| matches!(p.kind(), "string" | "encapsed_string"))
                .and_then(|p| {
                    let has_variables = (0..p.named_child_count())
                        .filter_map(|i| p.named_child(i as u32))
                        .any(|c| c.kind() != "string_content" && c.kind() != "string_value");
                    if has_variables {
                        None
                    } else {
                        string_value(p, src)
                    }
                });
            if let Some(path) = value {
                push(facts, node, Spec::PhpRequire { path, dir_relative });
            }
            true
        }
        _ => false,
    }
}

/// `#include` lines outside comments: `#  include "x"`, `#include <x>`, `#include_next`,
/// `#import`. Includes of a macro (`#include FOO`) are not static and are skipped.
pub fn scan_includes(text: &str) -> Vec<Import> {
    directive_lines(text)
        .filter_map(|(line, text)| {
            include_directive(text.as_bytes()).map(|spec| Import { line, spec })
        })
        .collect()
}

/// The preprocessor directive lines of a C or C++ text (1-based line, text): lines whose
/// first character outside a comment is `#`. Block comments are followed across lines, as
/// the preprocessor does, with string and character literals skipped.
pub(crate) fn directive_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let bytes = text.as_bytes();
    let mut in_comment = false;
    let mut line_start = 0usize;
    let mut line_number = 0usize;
    std::iter::from_fn(move || {
        while line_start < bytes.len() {
            line_number += 1;
            let line_end =
                memchr::memchr(b'\n', &bytes[line_start..]).map_or(bytes.len(), |i| line_start + i);
            let line = &bytes[line_start..line_end];
            let start = line_start;
            line_start = line_end + 1;
            let mut from = 0;
            if in_comment {
                match memchr::memmem::find(line, b"*/") {
                    Some(close) => {
                        in_comment = false;
                        from = close + 2;
                    }
                    None => continue,
                }
            }
            let rest = &line[from..];
            // only a `/*` can leave the line inside a comment
            if memchr::memchr_iter(b'*', rest).any(|i| i > 0 && rest[i - 1] == b'/') {
                in_comment = ends_in_comment(rest);
            }
            let first = rest.iter().position(|b| *b != b' ' && *b != b'\t');
            if from == 0 && first.is_some_and(|i| rest[i] == b'#') {
                // a slice of `text` at line boundaries, so valid UTF-8
                return Some((line_number, &text[start..line_end]));
            }
        }
        None
    })
}

fn include_directive(line: &[u8]) -> Option<Spec> {
    let skip_blank =
        |s: &[u8]| -> usize { s.iter().take_while(|b| **b == b' ' || **b == b'\t').count() };
    let mut i = skip_blank(line);
    if line.get(i) != Some(&b'#') {
        return None;
    }
    i += 1;
    i += skip_blank(&line[i..]);
    let rest = &line[i..];
    let after = rest
        .strip_prefix(b"include_next")
        .or_else(|| rest.strip_prefix(b"include"))
        .or_else(|| rest.strip_prefix(b"import"))?;
    let j = skip_blank(after);
    let after = &after[j..];
    let (close, quoted) = match after.first()? {
        b'"' => (b'"', true),
        b'<' => (b'>', false),
        _ => return None,
    };
    let end = memchr::memchr(close, &after[1..])?;
    let path = std::str::from_utf8(&after[1..1 + end]).ok()?.trim();
    if path.is_empty() {
        return None;
    }
    Some(Spec::Include {
        path: path.to_string(),
        quoted,
    })
}

/// Whether a line (which starts outside a comment) ends inside a block comment: string and
/// character literals and `//` comments are skipped, as the preprocessor does.
fn ends_in_comment(line: &[u8]) -> bool {
    let mut i = 0;
    let mut in_comment = false;
    while i < line.len() {
        let b = line[i];
        if in_comment {
            if b == b'*' && line.get(i + 1) == Some(&b'/') {
                in_comment = false;
                i += 2;
                continue;
            }
            i += 1;
            continue;
        }
        match b {
            b'"' | b'\'' => {
                i += 1;
                while i < line.len() && line[i] != b {
                    if line[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                i += 1;
            }
            b'/' if line.get(i + 1) == Some(&b'/') => return false,
            b'/' if line.get(i + 1) == Some(&b'*') => {
                in_comment = true;
                i += 2;
            }
            _ => i += 1,
        }
    }
    in_comment
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_export_star_reexports_the_whole_module_and_a_namespace_export_does_not() {
        let text = "export * from './a';\nexport * as ns from './b';\nexport { x } from './c';\nimport * as m from './d';\nconst r = require('./e');\n";
        let specs: Vec<(String, bool)> = scan("index.ts", text)
            .unwrap()
            .imports
            .into_iter()
            .map(|i| match i.spec {
                Spec::Js {
                    specifier,
                    reexports_all,
                } => (specifier, reexports_all),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            specs,
            [
                ("./a".to_string(), true),
                ("./b".to_string(), false),
                ("./c".to_string(), false),
                ("./d".to_string(), false),
                ("./e".to_string(), false),
            ]
        );
    }

    fn includes(text: &str) -> Vec<(usize, String, bool)> {
        scan_includes(text)
            .into_iter()
            .map(|i| match i.spec {
                Spec::Include { path, quoted } => (i.line, path, quoted),
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn macros_of_a_file_too_large_to_parse_come_from_a_line_scan() {
        let mut text = String::from(
            "/* #define NOT_THIS 1\n*/\n#define A 1\n  #  define B(x) (x)\n#undef A\n#definex\n",
        );
        text.push_str(&"// padding\n".repeat(crate::MAX_PARSE_BYTES / 11 + 1));
        let defs = crate::definitions("big.h", &text).unwrap();
        let names: Vec<(usize, &str, &str)> = defs
            .iter()
            .map(|d| (d.line, d.name.as_str(), d.signature.as_str()))
            .collect();
        assert_eq!(
            names,
            [(3, "A", "#define A 1"), (4, "B", "#  define B(x) (x)")]
        );
    }

    #[test]
    fn includes_outside_comments_are_found() {
        let text = "#include <linux/sched.h>\n  #  include \"local.h\" // why\n/* a comment\n#include <not/this.h>\n*/\nchar *s = \"/*\"; \n#include_next <next.h>\n#include MACRO\n#import \"objc.h\"\n";
        assert_eq!(
            includes(text),
            [
                (1, "linux/sched.h".to_string(), false),
                (2, "local.h".to_string(), true),
                (7, "next.h".to_string(), false),
                (9, "objc.h".to_string(), true),
            ]
        );
    }
}
