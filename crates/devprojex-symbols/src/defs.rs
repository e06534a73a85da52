//! Definitions: one walk over a file's syntax tree, a per-language table of which nodes define
//! what, and a stack of the containers (impl, class, module, function) the walk is inside.

use std::sync::Arc;

use devprojex_detail::tree_sitter::{Node, Tree};

use crate::{Lang, MAX_NESTING, Skip};

/// What a definition defines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "args",
    derive(clap::ValueEnum, serde::Deserialize, schemars::JsonSchema),
    serde(rename_all = "lowercase")
)]
pub enum Kind {
    /// A free function (also a nested or local one).
    Function,
    /// A function inside a class, struct, impl, trait, interface, object or extension.
    Method,
    /// A type alias or typedef, a Go named type that is not a struct or interface, a delegate.
    Type,
    /// A class, record, object (Scala, Kotlin), actor (Swift).
    Class,
    /// A struct or union.
    Struct,
    /// An enumeration.
    Enum,
    /// A trait (Rust, PHP, Scala).
    Trait,
    /// An interface (Java, Kotlin, C#, Go, TypeScript), protocol (Swift), annotation type.
    Interface,
    /// A constant: Rust `const`/`static`, Go `const`, enumerators and enum constants, Java
    /// `static final` and C# `const` fields, Kotlin `const val`, PHP `const`, Ruby constants,
    /// and upper-case module-level `const`/assignments in JavaScript, TypeScript and Python.
    Constant,
    /// A C/C++ `#define` or a Rust `macro_rules!`.
    Macro,
    /// A module or namespace: Rust `mod`, C++/C#/PHP `namespace`, Ruby `module`, TypeScript
    /// `namespace`/`module`.
    Module,
}

impl Kind {
    /// Every kind, in a stable order.
    pub const ALL: [Kind; 11] = [
        Kind::Function,
        Kind::Method,
        Kind::Type,
        Kind::Class,
        Kind::Struct,
        Kind::Enum,
        Kind::Trait,
        Kind::Interface,
        Kind::Constant,
        Kind::Macro,
        Kind::Module,
    ];

    /// The lowercase name used in results and accepted by [`Kind::parse`].
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Function => "function",
            Kind::Method => "method",
            Kind::Type => "type",
            Kind::Class => "class",
            Kind::Struct => "struct",
            Kind::Enum => "enum",
            Kind::Trait => "trait",
            Kind::Interface => "interface",
            Kind::Constant => "constant",
            Kind::Macro => "macro",
            Kind::Module => "module",
        }
    }

    /// Parses a name from [`Kind::as_str`].
    pub fn parse(value: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == value)
    }
}

/// One definition in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    /// The defined name, without qualifiers (`m` for `ns::C::m`).
    pub name: String,
    pub kind: Kind,
    /// 1-based line of the name.
    pub line: usize,
    /// 1-based last line of the definition (its body's closing line; `line` for a `#define`
    /// found by the line scan).
    pub end_line: usize,
    /// The definition's head: its lines from where it starts to the line of the name (at most
    /// four), trimmed and joined with spaces, at most [`MAX_SIGNATURE_CHARS`] characters.
    pub signature: String,
    /// The innermost enclosing container with its kind, such as `impl Display for Point`,
    /// `class Parser`, `namespace net.http`, `fn main`; `None` at the top level.
    pub container: Option<String>,
    /// The names of the enclosing containers, outermost first (`["net", "Parser"]`), for
    /// qualified lookups such as `Parser.parse` or `net::Parser::parse`.
    pub scope: Scope,
}

/// Signatures (and container labels) longer than this are cut (with `…`).
pub const MAX_SIGNATURE_CHARS: usize = 240;

/// The names of the containers around a definition. Shared: the definitions of one container
/// point at the same links, so a scope costs one link per container, never a copy per
/// definition (a class with a 100,000-character name and 40,000 methods holds the name once).
#[derive(Clone, Default)]
pub struct Scope(Option<Arc<ScopeLink>>);

struct ScopeLink {
    name: Arc<str>,
    outer: Scope,
}

impl Scope {
    /// The scope `names` (outermost first) spell.
    pub fn from_names<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> Self {
        names.into_iter().fold(Scope::default(), |scope, name| {
            scope.inside(name.as_ref().into())
        })
    }

    fn inside(&self, name: Arc<str>) -> Scope {
        Scope(Some(Arc::new(ScopeLink {
            name,
            outer: self.clone(),
        })))
    }

    /// The names, outermost first.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        let mut names = Vec::new();
        let mut link = self.0.as_deref();
        while let Some(current) = link {
            names.push(&*current.name);
            link = current.outer.0.as_deref();
        }
        names.into_iter().rev()
    }

    pub fn len(&self) -> usize {
        self.iter().count()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }
}

impl PartialEq for Scope {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Scope {}

impl<S: AsRef<str>> PartialEq<[S]> for Scope {
    fn eq(&self, other: &[S]) -> bool {
        self.iter().eq(other.iter().map(AsRef::as_ref))
    }
}

impl<S: AsRef<str>, const N: usize> PartialEq<[S; N]> for Scope {
    fn eq(&self, other: &[S; N]) -> bool {
        *self == other[..]
    }
}

impl std::fmt::Debug for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A file's definitions may take this many times its size (and at least
/// [`MIN_DEFINITIONS_BUDGET`]); a file over it is skipped ([`Skip::OverBudget`]).
pub const DEFINITIONS_BUDGET_FACTOR: usize = 64;
pub const MIN_DEFINITIONS_BUDGET: usize = 1024 * 1024;

/// The bytes one definition holds, for the budget (the scope is shared, not counted).
fn definition_bytes(d: &Definition) -> usize {
    std::mem::size_of::<Definition>()
        + d.name.len()
        + d.signature.len()
        + d.container.as_ref().map_or(0, String::len)
}

/// A container the walk is inside.
struct Frame {
    /// The node that opened the frame (popped when the walk leaves it).
    node_id: usize,
    /// Cut to [`MAX_SIGNATURE_CHARS`]: it is shown, and copied into every definition inside.
    label: String,
    /// The scope inside this container (its own name included).
    scope: Scope,
    /// A function inside is a method.
    class_like: bool,
}

/// What one node contributes.
#[derive(Default)]
struct Found<'t> {
    defs: Vec<(Kind, Node<'t>)>,
    /// The name of the (single) definition when no node spells it (`companion object`,
    /// `operator ==`).
    rename: Option<String>,
    /// (label, scope name, class-like): a container opened by this node.
    container: Option<(String, String, bool)>,
    /// For a qualified C++ definition (`void ns::C::m()`): the qualifier as the container.
    qualifier: Option<String>,
    /// The rest of the parent applies to this container (C# file-scoped namespace, PHP
    /// `namespace X;`).
    until_parent_end: bool,
}

/// The definitions of a parsed file; [`Skip::TooDeeplyNested`] past [`MAX_NESTING`]
/// containers, [`Skip::OverBudget`] when they would exceed the file's budget.
pub(crate) fn extract(
    lang: Lang,
    tree: &Tree,
    src: &str,
    stop: crate::Stop<'_>,
) -> Result<Vec<Definition>, Skip> {
    let budget = (src.len().saturating_mul(DEFINITIONS_BUDGET_FACTOR)).max(MIN_DEFINITIONS_BUDGET);
    let mut held = 0usize;
    let line_starts = line_starts(src);
    let mut out = Vec::new();
    let mut frames: Vec<Frame> = Vec::new();
    let mut cursor = tree.walk();
    let mut visited = 0u32;
    // per ancestor of the current node: whether it is a function (what `inside_function`
    // asks, without walking up: a parent step costs the node's depth in tree-sitter)
    let mut ancestors_function: Vec<bool> = Vec::new();
    // the nodes above the cursor, root first (`Node::parent` searches down from the root,
    // which costs the width of every level: a bundle's object of 100,000 entries per call)
    let mut ancestors: Vec<Node<'_>> = Vec::new();
    let mut functions_above = 0usize;
    loop {
        visited = visited.wrapping_add(1);
        if visited.is_multiple_of(crate::WALK_STOP_CHECK_EVERY) && stop() {
            return Err(Skip::Interrupted);
        }
        let node = cursor.node();
        if node.is_named() {
            let found = classify(lang, node, src, functions_above > 0, &ancestors);
            for (kind, name_node) in &found.defs {
                let name = match &found.rename {
                    Some(name) => name.clone(),
                    None => name_text(lang, *name_node, src),
                };
                if name.is_empty() {
                    continue;
                }
                let innermost = frames.last();
                // a qualifier (`a::b::c::f`) deepens the scope as nesting does, and as far
                if let Some(q) = &found.qualifier
                    && innermost.map_or(0, |f| f.scope.len()) + q.split("::").count() > MAX_NESTING
                {
                    return Err(Skip::TooDeeplyNested);
                }
                let (container, scope) = match &found.qualifier {
                    // `int Parser::parse()` inside `namespace net`: net, then the qualifier
                    Some(q) => (
                        Some(shorten(q.clone())),
                        Scope::from_names(
                            innermost
                                .map(|f| f.scope.iter().collect::<Vec<_>>())
                                .unwrap_or_default()
                                .into_iter()
                                .chain(q.split("::")),
                        ),
                    ),
                    None => (
                        innermost.map(|f| f.label.clone()),
                        innermost.map(|f| f.scope.clone()).unwrap_or_default(),
                    ),
                };
                let kind = match kind {
                    Kind::Function
                        if found.qualifier.is_some() || innermost.is_some_and(|f| f.class_like) =>
                    {
                        Kind::Method
                    }
                    other => *other,
                };
                let line = name_node.start_position().row;
                // a node that ends with its line break (a `#define`) ends on the line before
                let end = node.end_position();
                let end_line = if end.column == 0 && end.row > line {
                    end.row
                } else {
                    end.row + 1
                };
                let definition = Definition {
                    name,
                    kind,
                    line: line + 1,
                    end_line: end_line.max(line + 1),
                    signature: signature(src, &line_starts, node.start_position().row, line),
                    container,
                    scope,
                };
                held += definition_bytes(&definition);
                if held > budget {
                    return Err(Skip::OverBudget);
                }
                out.push(definition);
            }
            if let Some((label, name, class_like)) = found.container {
                if frames.len() >= MAX_NESTING {
                    return Err(Skip::TooDeeplyNested);
                }
                let owner = if found.until_parent_end {
                    ancestors.last().map_or(node.id(), |p| p.id())
                } else {
                    node.id()
                };
                let scope = match frames.last() {
                    Some(outer) => outer.scope.inside(name.into()),
                    None => Scope::default().inside(name.into()),
                };
                frames.push(Frame {
                    node_id: owner,
                    label: shorten(label),
                    scope,
                    class_like,
                });
            }
        }
        // what lies deeper is an expression chain, never a definition: not visited
        if ancestors_function.len() < crate::MAX_SYNTAX_DEPTH && cursor.goto_first_child() {
            let function = is_function_like(node.kind());
            ancestors_function.push(function);
            ancestors.push(node);
            functions_above += usize::from(function);
            continue;
        }
        loop {
            let leaving = cursor.node().id();
            while frames.last().is_some_and(|f| f.node_id == leaving) {
                frames.pop();
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return Ok(out);
            }
            ancestors.pop();
            if ancestors_function.pop() == Some(true) {
                functions_above -= 1;
            }
        }
    }
}

/// `text` cut to [`MAX_SIGNATURE_CHARS`] characters (with `…`).
fn shorten(text: String) -> String {
    if text.len() <= MAX_SIGNATURE_CHARS || text.chars().count() <= MAX_SIGNATURE_CHARS {
        return text;
    }
    let mut out = prefix_chars(&text, MAX_SIGNATURE_CHARS - 1).to_string();
    out.push('…');
    out
}

/// `#define NAME` lines outside comments, for C and C++ files too large to parse.
pub(crate) fn scan_macros(src: &str) -> Vec<Definition> {
    let mut out = Vec::new();
    for (line, text) in crate::imports::directive_lines(src) {
        let rest = text.trim_start().trim_start_matches('#').trim_start();
        let Some(rest) = rest.strip_prefix("define") else {
            continue;
        };
        if !rest.starts_with([' ', '\t']) {
            continue;
        }
        let name: String = rest
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            continue;
        }
        let signature = shorten(prefix_chars(text.trim(), MAX_SIGNATURE_CHARS).to_string());
        out.push(Definition {
            name,
            kind: Kind::Macro,
            line,
            end_line: line,
            signature,
            container: None,
            scope: Scope::default(),
        });
    }
    out
}

/// Byte offsets where each line starts.
fn line_starts(src: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', src.as_bytes()).map(|i| i + 1))
        .collect()
}

fn line_text<'s>(src: &'s str, starts: &[usize], row: usize) -> &'s str {
    let start = starts.get(row).copied().unwrap_or(src.len());
    let end = starts.get(row + 1).map_or(src.len(), |e| e - 1);
    src.get(start..end.max(start))
        .unwrap_or("")
        .trim_end_matches('\r')
}

fn signature(src: &str, starts: &[usize], start_row: usize, name_row: usize) -> String {
    let first = if name_row >= start_row && name_row - start_row <= 3 {
        start_row
    } else {
        name_row
    };
    let mut out = String::new();
    for row in first..=name_row {
        let text = line_text(src, starts, row).trim();
        if text.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        // never more than is shown: a minified file's one line is megabytes long, and every
        // definition on it would copy it
        out.push_str(prefix_chars(text, MAX_SIGNATURE_CHARS));
        if out.len() > MAX_SIGNATURE_CHARS * 4 {
            break;
        }
    }
    shorten(out)
}

/// The first `n` characters of `text`, in time linear in `n`.
fn prefix_chars(text: &str, n: usize) -> &str {
    match text.char_indices().nth(n) {
        Some((end, _)) => &text[..end],
        None => text,
    }
}

fn text<'s>(node: Node<'_>, src: &'s str) -> &'s str {
    src.get(node.byte_range()).unwrap_or("")
}

/// The name a name node spells: the last segment of a qualified name, without quotes.
fn name_text(lang: Lang, node: Node<'_>, src: &str) -> String {
    let mut node = node;
    // qualified names: the last `name` child
    while matches!(
        node.kind(),
        "scope_resolution"
            | "qualified_identifier"
            | "qualified_name"
            | "scoped_identifier"
            | "template_type"
            | "template_function"
            | "generic_name"
    ) {
        match node.child_by_field_name("name") {
            Some(inner) => node = inner,
            None => break,
        }
    }
    let raw = text(node, src).trim();
    if node.kind() == "operator_name" {
        // `operator ==` and `operator==` are one name
        return raw.split_whitespace().collect();
    }
    if node.kind() == "operator_cast" {
        // `operator bool() const`: the conversion's type names it
        let ty = node
            .child_by_field_name("type")
            .map(|t| collapse_spaces(text(t, src)))
            .unwrap_or_default();
        let pointer: String = raw
            .trim_start_matches("operator")
            .split('(')
            .next()
            .unwrap_or("")
            .chars()
            .filter(|c| matches!(c, '*' | '&'))
            .collect();
        return format!("operator {ty}{pointer}");
    }
    let raw = match lang {
        Lang::TypeScript | Lang::Tsx | Lang::JavaScript => {
            raw.trim_matches(|c| c == '"' || c == '\'')
        }
        _ => raw,
    };
    collapse_spaces(raw)
}

fn collapse_spaces(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn field<'t>(node: Node<'t>, name: &str) -> Option<Node<'t>> {
    node.child_by_field_name(name)
}

fn named_children<'t>(node: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    (0..node.named_child_count()).filter_map(move |i| node.named_child(i as u32))
}

fn children<'t>(node: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    (0..node.child_count()).filter_map(move |i| node.child(i as u32))
}

fn is_upper_constant(name: &str) -> bool {
    name.len() >= 2
        && name.bytes().any(|b| b.is_ascii_uppercase())
        && name
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        && !name.starts_with(|c: char| c.is_ascii_digit())
}

/// Node kinds of functions: a constant inside one is a local.
fn is_function_like(kind: &str) -> bool {
    matches!(
        kind,
        "function_definition"
            | "function_declaration"
            | "function_item"
            | "method_definition"
            | "method_declaration"
            | "arrow_function"
            | "function_expression"
            | "function"
            | "generator_function_declaration"
            | "lambda"
            | "method"
    )
}

fn container(
    label: impl Into<String>,
    name: impl Into<String>,
    class_like: bool,
) -> Option<(String, String, bool)> {
    Some((label.into(), name.into(), class_like))
}

/// What `node` defines; `inside_function`: one of its ancestors is a function.
fn classify<'t>(
    lang: Lang,
    node: Node<'t>,
    src: &str,
    inside_function: bool,
    ancestors: &[Node<'t>],
) -> Found<'t> {
    let parent = ancestors.last().copied();
    match lang {
        Lang::Rust => rust(node, src),
        Lang::Go => go(node, src),
        Lang::Python => python(node, src, inside_function, parent),
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => {
            javascript(node, src, inside_function, ancestors)
        }
        Lang::Java => java(node, src, parent),
        Lang::Kotlin => kotlin(node, src),
        Lang::CSharp => csharp(node, src),
        Lang::C | Lang::Cpp => c_family(lang, node, src, inside_function, parent),
        Lang::Php => php(node, src),
        Lang::Ruby => ruby(node, src, inside_function),
        Lang::Scala => scala(node, src),
        Lang::Swift => swift(node, src),
    }
}

fn one<'t>(kind: Kind, name: Option<Node<'t>>) -> Found<'t> {
    Found {
        defs: name.map(|n| vec![(kind, n)]).unwrap_or_default(),
        ..Found::default()
    }
}

/// A definition that is also a container (a class, a module, a function).
fn def_container<'t>(
    kind: Kind,
    name: Option<Node<'t>>,
    keyword: &str,
    class_like: bool,
    src: &str,
) -> Found<'t> {
    let Some(name) = name else {
        return Found::default();
    };
    let shown = collapse_spaces(text(name, src));
    Found {
        defs: vec![(kind, name)],
        container: container(format!("{keyword} {shown}"), shown, class_like),
        ..Found::default()
    }
}

fn rust<'t>(node: Node<'t>, src: &str) -> Found<'t> {
    let name = field(node, "name");
    match node.kind() {
        "function_item" => def_container(Kind::Function, name, "fn", false, src),
        "function_signature_item" => one(Kind::Function, name),
        "struct_item" => def_container(Kind::Struct, name, "struct", true, src),
        "union_item" => def_container(Kind::Struct, name, "union", true, src),
        "enum_item" => def_container(Kind::Enum, name, "enum", true, src),
        "trait_item" => def_container(Kind::Trait, name, "trait", true, src),
        "type_item" | "associated_type" => one(Kind::Type, name),
        "const_item" | "static_item" => one(Kind::Constant, name),
        "mod_item" => def_container(Kind::Module, name, "mod", false, src),
        "macro_definition" => one(Kind::Macro, name),
        "impl_item" => {
            let ty = field(node, "type").map(|t| collapse_spaces(text(t, src)));
            let Some(ty) = ty else {
                return Found::default();
            };
            let label = match field(node, "trait") {
                Some(t) => format!("impl {} for {ty}", collapse_spaces(text(t, src))),
                None => format!("impl {ty}"),
            };
            // the scope name is the type without its generic arguments
            let bare = ty.split('<').next().unwrap_or(&ty).trim().to_string();
            Found {
                container: container(label, bare, true),
                ..Found::default()
            }
        }
        _ => Found::default(),
    }
}

fn go<'t>(node: Node<'t>, src: &str) -> Found<'t> {
    let name = field(node, "name");
    match node.kind() {
        "function_declaration" => def_container(Kind::Function, name, "func", false, src),
        "method_declaration" => {
            let receiver = field(node, "receiver")
                .and_then(|r| named_children(r).next())
                .and_then(|p| field(p, "type"))
                .map(|t| {
                    let t = text(t, src).trim_start_matches('*');
                    t.split('[').next().unwrap_or(t).trim().to_string()
                });
            let mut found = one(Kind::Method, name);
            found.qualifier = receiver.clone();
            found
        }
        "type_spec" => {
            let kind = match field(node, "type").map(|t| t.kind()) {
                Some("struct_type") => Kind::Struct,
                Some("interface_type") => Kind::Interface,
                _ => Kind::Type,
            };
            let class_like = kind != Kind::Type;
            def_container(kind, name, "type", class_like, src)
        }
        "type_alias" => one(Kind::Type, name),
        "method_elem" => one(Kind::Function, name),
        "const_spec" => {
            let mut cursor = node.walk();
            let names: Vec<Node<'t>> = node
                .children_by_field_name("name", &mut cursor)
                .filter(|n| n.is_named())
                .collect();
            Found {
                defs: names.into_iter().map(|n| (Kind::Constant, n)).collect(),
                ..Found::default()
            }
        }
        _ => Found::default(),
    }
}

fn python<'t>(
    node: Node<'t>,
    src: &str,
    inside_function: bool,
    parent: Option<Node<'t>>,
) -> Found<'t> {
    let name = field(node, "name");
    match node.kind() {
        "function_definition" => def_container(Kind::Function, name, "def", false, src),
        "class_definition" => def_container(Kind::Class, name, "class", true, src),
        "assignment" => {
            // `NAME = ...` at module or class level
            let in_statement = parent.is_some_and(|p| p.kind() == "expression_statement");
            let left = field(node, "left").filter(|l| l.kind() == "identifier");
            match left {
                Some(left)
                    if in_statement && is_upper_constant(text(left, src)) && !inside_function =>
                {
                    one(Kind::Constant, Some(left))
                }
                _ => Found::default(),
            }
        }
        _ => Found::default(),
    }
}

fn javascript<'t>(
    node: Node<'t>,
    src: &str,
    inside_function: bool,
    ancestors: &[Node<'t>],
) -> Found<'t> {
    let parent = ancestors.last().copied();
    // the object's own parent, one level further up
    let owner = |object: Node<'t>| {
        let above = ancestors.len().checked_sub(2).map(|i| ancestors[i]);
        object_owner(object, above, src)
    };
    let name = field(node, "name");
    match node.kind() {
        "function_declaration" | "generator_function_declaration" => {
            def_container(Kind::Function, name, "function", false, src)
        }
        "function_signature" => one(Kind::Function, name),
        "class_declaration" | "abstract_class_declaration" | "class" => {
            def_container(Kind::Class, name, "class", true, src)
        }
        "method_definition" => {
            if parent.is_some_and(|p| p.kind() == "class_body") {
                return def_container(Kind::Method, name, "method", false, src);
            }
            // `const api = { get() {} }`: a method of the object a name is bound to
            match parent.and_then(owner) {
                Some(owner) => {
                    let mut found = def_container(Kind::Method, name, "method", false, src);
                    found.qualifier = Some(owner);
                    found
                }
                None => Found::default(),
            }
        }
        "pair" => {
            let value = field(node, "value");
            if !value.is_some_and(|v| {
                matches!(
                    v.kind(),
                    "function_expression" | "arrow_function" | "function" | "generator_function"
                )
            }) {
                return Found::default();
            }
            let key = field(node, "key")
                .filter(|k| matches!(k.kind(), "property_identifier" | "string" | "identifier"));
            match parent.and_then(owner) {
                Some(owner) if key.is_some() => {
                    let mut found = one(Kind::Method, key);
                    found.qualifier = Some(owner);
                    found
                }
                _ => Found::default(),
            }
        }
        "function_expression" | "function" | "generator_function" => {
            // a named function expression where no binding names it (`defineGetter(req,
            // 'host', function host() {})`)
            let bound = parent.is_some_and(|p| match p.kind() {
                "variable_declarator" => true,
                "assignment_expression" => !is_module_exports(field(p, "left"), src),
                "pair" => {
                    let object = ancestors.len().checked_sub(2).map(|i| ancestors[i]);
                    let above = ancestors.len().checked_sub(3).map(|i| ancestors[i]);
                    object.and_then(|o| object_owner(o, above, src)).is_some()
                }
                _ => false,
            });
            if bound || name.is_none() {
                Found::default()
            } else {
                def_container(Kind::Function, name, "function", false, src)
            }
        }
        "method_signature" | "abstract_method_signature" => one(Kind::Method, name),
        "interface_declaration" => def_container(Kind::Interface, name, "interface", true, src),
        "type_alias_declaration" => one(Kind::Type, name),
        "enum_declaration" => def_container(Kind::Enum, name, "enum", true, src),
        "internal_module" | "module" => def_container(Kind::Module, name, "namespace", false, src),
        "public_field_definition" | "field_definition" => {
            let value = field(node, "value");
            match value.map(|v| v.kind()) {
                Some("arrow_function" | "function_expression" | "function") => {
                    one(Kind::Method, name.or_else(|| field(node, "property")))
                }
                _ => Found::default(),
            }
        }
        "variable_declarator" => {
            let Some(name) = name.filter(|n| n.kind() == "identifier") else {
                return Found::default();
            };
            match field(node, "value").map(|v| v.kind()) {
                Some(
                    "arrow_function" | "function_expression" | "function" | "generator_function",
                ) => def_container(Kind::Function, Some(name), "function", false, src),
                Some("class") => def_container(Kind::Class, Some(name), "class", true, src),
                _ => {
                    let is_const = parent.is_some_and(|p| {
                        p.kind() == "lexical_declaration"
                            && p.child(0).is_some_and(|k| k.kind() == "const")
                    });
                    if is_const && is_upper_constant(text(name, src)) && !inside_function {
                        one(Kind::Constant, Some(name))
                    } else {
                        Found::default()
                    }
                }
            }
        }
        "assignment_expression" => {
            // `exports.f = function`, `module.exports.f = () =>`, `Foo.prototype.m = function`
            let (Some(left), Some(right)) = (field(node, "left"), field(node, "right")) else {
                return Found::default();
            };
            if left.kind() != "member_expression"
                || !matches!(
                    right.kind(),
                    "function_expression" | "arrow_function" | "function" | "generator_function"
                )
            {
                return Found::default();
            }
            if is_module_exports(Some(left), src) {
                // `module.exports = function name() {}` is named by the function
                return Found::default();
            }
            let property = field(left, "property");
            let object = field(left, "object").map(|o| text(o, src)).unwrap_or("");
            let mut found = one(Kind::Function, property);
            // the object is the container: `Foo.prototype.m` -> Foo, `app.render` -> app,
            // `exports.x` -> exports (issue 39: `find_symbol app.render` found nothing)
            let owner = object.strip_suffix(".prototype").unwrap_or(object);
            if !owner.is_empty() && owner.len() <= MAX_OWNER_BYTES {
                found.qualifier = Some(collapse_spaces(owner));
            }
            found
        }
        _ => Found::default(),
    }
}

fn is_module_exports(node: Option<Node<'_>>, src: &str) -> bool {
    node.is_some_and(|n| matches!(text(n, src), "module.exports" | "exports"))
}

/// Object names longer than this own no methods ([`object_owner`]).
const MAX_OWNER_BYTES: usize = 1024;

/// The name an object literal is bound to: `const api = {...}`, `api = {...}`,
/// `module.exports = {...}` (`module.exports`).
fn object_owner(object: Node<'_>, parent: Option<Node<'_>>, src: &str) -> Option<String> {
    if object.kind() != "object" {
        return None;
    }
    let parent = parent?;
    let owner = match parent.kind() {
        "variable_declarator" => field(parent, "name").filter(|n| n.kind() == "identifier"),
        "assignment_expression" => field(parent, "left"),
        _ => None,
    }?;
    // every method of the object carries a copy: a name longer than any query is no owner
    if owner.byte_range().len() > MAX_OWNER_BYTES {
        return None;
    }
    Some(collapse_spaces(text(owner, src)))
}

fn has_modifier(node: Node<'_>, src: &str, word: &str) -> bool {
    children(node).any(|c| {
        matches!(c.kind(), "modifiers" | "modifier")
            && text(c, src).split_whitespace().any(|w| w == word)
    })
}

fn java<'t>(node: Node<'t>, src: &str, parent: Option<Node<'t>>) -> Found<'t> {
    let name = field(node, "name");
    match node.kind() {
        "class_declaration" | "record_declaration" => {
            def_container(Kind::Class, name, "class", true, src)
        }
        "interface_declaration" => def_container(Kind::Interface, name, "interface", true, src),
        "annotation_type_declaration" => {
            def_container(Kind::Interface, name, "@interface", true, src)
        }
        "enum_declaration" => def_container(Kind::Enum, name, "enum", true, src),
        "method_declaration" | "constructor_declaration" | "compact_constructor_declaration" => {
            def_container(Kind::Method, name, "method", false, src)
        }
        "annotation_type_element_declaration" => one(Kind::Method, name),
        "enum_constant" => one(Kind::Constant, name),
        "field_declaration" | "constant_declaration" => {
            let in_interface = parent.is_some_and(|p| p.kind() == "interface_body");
            let constant = node.kind() == "constant_declaration"
                || in_interface
                || (has_modifier(node, src, "static") && has_modifier(node, src, "final"));
            if !constant {
                return Found::default();
            }
            let mut cursor = node.walk();
            let names: Vec<Node<'t>> = node
                .children_by_field_name("declarator", &mut cursor)
                .filter_map(|d| field(d, "name"))
                .collect();
            Found {
                defs: names.into_iter().map(|n| (Kind::Constant, n)).collect(),
                ..Found::default()
            }
        }
        _ => Found::default(),
    }
}

fn kotlin<'t>(node: Node<'t>, src: &str) -> Found<'t> {
    let name = field(node, "name");
    match node.kind() {
        "class_declaration" => {
            let is_interface = children(node).any(|c| c.kind() == "interface");
            let is_enum = children(node)
                .filter(|c| c.kind() == "modifiers")
                .any(|m| text(m, src).split_whitespace().any(|w| w == "enum"));
            if is_interface {
                def_container(Kind::Interface, name, "interface", true, src)
            } else if is_enum {
                def_container(Kind::Enum, name, "enum class", true, src)
            } else {
                def_container(Kind::Class, name, "class", true, src)
            }
        }
        "object_declaration" => def_container(Kind::Class, name, "object", true, src),
        "companion_object" => {
            let shown = name
                .map(|n| text(n, src))
                .unwrap_or("Companion")
                .to_string();
            Found {
                defs: vec![(Kind::Class, name.unwrap_or(node))],
                rename: Some(shown.clone()),
                container: container(format!("companion object {shown}"), shown, true),
                ..Found::default()
            }
        }
        "function_declaration" => def_container(Kind::Function, name, "fun", false, src),
        "type_alias" => one(Kind::Type, field(node, "type").or(name)),
        "enum_entry" => one(
            Kind::Constant,
            named_children(node).find(|c| c.kind() == "identifier"),
        ),
        "property_declaration" => {
            if !children(node)
                .filter(|c| c.kind() == "modifiers")
                .any(|m| text(m, src).split_whitespace().any(|w| w == "const"))
            {
                return Found::default();
            }
            let name = named_children(node)
                .find(|c| c.kind() == "variable_declaration")
                .and_then(|v| named_children(v).find(|c| c.kind() == "identifier"));
            one(Kind::Constant, name)
        }
        _ => Found::default(),
    }
}

fn csharp<'t>(node: Node<'t>, src: &str) -> Found<'t> {
    let name = field(node, "name");
    match node.kind() {
        "class_declaration" => def_container(Kind::Class, name, "class", true, src),
        "record_declaration" => {
            let is_struct = children(node).any(|c| c.kind() == "struct");
            if is_struct {
                def_container(Kind::Struct, name, "record struct", true, src)
            } else {
                def_container(Kind::Class, name, "record", true, src)
            }
        }
        "record_struct_declaration" => {
            def_container(Kind::Struct, name, "record struct", true, src)
        }
        "struct_declaration" => def_container(Kind::Struct, name, "struct", true, src),
        "interface_declaration" => def_container(Kind::Interface, name, "interface", true, src),
        "enum_declaration" => def_container(Kind::Enum, name, "enum", true, src),
        "delegate_declaration" => one(Kind::Type, name),
        "method_declaration" | "constructor_declaration" | "local_function_statement" => {
            def_container(Kind::Method, name, "method", false, src)
        }
        "operator_declaration" | "conversion_operator_declaration" => {
            let operator = if node.kind() == "operator_declaration" {
                children(node)
                    .skip_while(|c| c.kind() != "operator")
                    .nth(1)
                    .map(|o| text(o, src).to_string())
            } else {
                field(node, "type").map(|t| collapse_spaces(text(t, src)))
            };
            let keyword = children(node).find(|c| c.kind() == "operator");
            match (operator, keyword) {
                (Some(operator), Some(keyword)) => Found {
                    defs: vec![(Kind::Method, keyword)],
                    rename: Some(format!("operator {operator}")),
                    ..Found::default()
                },
                _ => Found::default(),
            }
        }
        "enum_member_declaration" => one(Kind::Constant, name),
        "field_declaration" => {
            if !has_modifier(node, src, "const") {
                return Found::default();
            }
            let names: Vec<Node<'t>> = named_children(node)
                .filter(|c| c.kind() == "variable_declaration")
                .flat_map(named_children)
                .filter(|c| c.kind() == "variable_declarator")
                .filter_map(|d| field(d, "name"))
                .collect();
            Found {
                defs: names.into_iter().map(|n| (Kind::Constant, n)).collect(),
                ..Found::default()
            }
        }
        "namespace_declaration" => def_container(Kind::Module, name, "namespace", false, src),
        "file_scoped_namespace_declaration" => {
            let mut found = def_container(Kind::Module, name, "namespace", false, src);
            found.until_parent_end = true;
            found
        }
        _ => Found::default(),
    }
}

/// The identifier a C declarator declares: through pointers, arrays, parentheses, attributes
/// and function declarators; `None` for an abstract declarator.
fn c_declarator_name(mut node: Node<'_>) -> Option<Node<'_>> {
    for _ in 0..32 {
        match node.kind() {
            "identifier"
            | "type_identifier"
            | "field_identifier"
            | "qualified_identifier"
            | "operator_name"
            | "destructor_name"
            | "primitive_type"
            | "operator_cast" => {
                return Some(node);
            }
            "parenthesized_declarator" | "attributed_declarator" => {
                node = named_children(node).find(|c| !c.kind().starts_with("attribute"))?;
            }
            _ => node = field(node, "declarator")?,
        }
    }
    None
}

/// `typedef struct { ... } ____cacheline_aligned irq_cpustat_t;`: the grammar takes the
/// attribute macro for the declarator and leaves the name behind, in an error node of the
/// typedef or, after an inserted `;`, as the next statement. Returns that name.
fn name_after_attribute_macro<'t>(
    node: Node<'t>,
    src: &str,
    declared: &[Node<'t>],
) -> Option<Node<'t>> {
    let [attribute] = declared else {
        return None;
    };
    // `typedef __signed__ char __s8;` has the same shape, with a keyword where the macro was
    if attribute.kind() != "type_identifier" && !is_type_keyword(*attribute, src) {
        return None;
    }
    let lone_identifier = |n: Node<'t>| {
        let mut inner = named_children(n);
        match (inner.next(), inner.next()) {
            (Some(id), None) if id.kind() == "identifier" => Some(id),
            _ => None,
        }
    };
    let last = node.child(node.child_count().checked_sub(1)? as u32)?;
    let before_last = last.prev_sibling().filter(|n| n.kind() == "ERROR");
    let name = if let Some(error) = before_last.filter(|_| last.kind() == ";") {
        lone_identifier(error)?
    } else if last.kind() == "ERROR" {
        lone_identifier(last)?
    } else if last.is_missing() {
        let next = node.next_named_sibling()?;
        if next.kind() != "expression_statement" {
            return None;
        }
        lone_identifier(next)?
    } else {
        return None;
    };
    (name.start_position().row == attribute.end_position().row).then_some(name)
}

/// A C type keyword (`char`, `long`), which the grammar calls a primitive type as it does
/// `bool` and the standard library's `uint8_t` or `size_t`, which a typedef may well define.
fn is_type_keyword(node: Node<'_>, src: &str) -> bool {
    node.kind() == "primitive_type"
        && matches!(
            text(node, src),
            "char"
                | "short"
                | "int"
                | "long"
                | "float"
                | "double"
                | "void"
                | "signed"
                | "unsigned"
                | "_Bool"
                | "_Complex"
        )
}

/// `typedef unsigned char (read_t)(void *, int);`: the grammar reads `char (read_t)` as a
/// function declarator named `char` whose one parameter is the type `read_t`. Returns that.
fn misread_function_type_name(mut declarator: Node<'_>) -> Option<Node<'_>> {
    for _ in 0..8 {
        let inner = field(declarator, "declarator")?;
        if declarator.kind() == "function_declarator" && inner.kind() == "primitive_type" {
            let mut params = named_children(field(declarator, "parameters")?);
            let (Some(only), None) = (params.next(), params.next()) else {
                return None;
            };
            let mut parts = named_children(only);
            return match (parts.next(), parts.next()) {
                (Some(t), None) if t.kind() == "type_identifier" => Some(t),
                _ => None,
            };
        }
        declarator = inner;
    }
    None
}

/// `SYSCALL_DEFINE3(read, unsigned int, fd, ...) { ... }` at the top level of a C file: the
/// grammar sees a macro call (missing its `;`) and then a bare block. The macro expands to a
/// function; its first argument is the name the source spells and a reader searches for.
fn macro_defined_function<'t>(
    node: Node<'t>,
    parent: Option<Node<'t>>,
    src: &str,
) -> Option<Node<'t>> {
    if !parent.is_some_and(|p| p.kind() == "translation_unit" || p.kind().starts_with("preproc_")) {
        return None;
    }
    let last = node.child(node.child_count().checked_sub(1)? as u32)?;
    if !last.is_missing() || node.next_named_sibling()?.kind() != "compound_statement" {
        return None;
    }
    let call = named_children(node).next()?;
    let macro_name = field(call, "function")?;
    if call.kind() != "call_expression"
        || macro_name.kind() != "identifier"
        || !is_upper_constant(text(macro_name, src))
    {
        return None;
    }
    named_children(field(call, "arguments")?)
        .next()
        .filter(|a| a.kind() == "identifier")
}

/// Whether a declarator declares a function (its innermost non-name part is a function
/// declarator, not a pointer to one).
fn declares_function(mut node: Node<'_>) -> bool {
    for _ in 0..32 {
        match node.kind() {
            "operator_cast" => return true,
            "function_declarator" => {
                // `(*fp)(int)` declares a pointer to a function
                return field(node, "declarator").is_some_and(|d| {
                    !(d.kind() == "parenthesized_declarator"
                        && named_children(d).any(|c| c.kind() == "pointer_declarator"))
                });
            }
            "pointer_declarator" | "reference_declarator" | "attributed_declarator" => {
                node = match field(node, "declarator").or_else(|| named_children(node).last()) {
                    Some(n) => n,
                    None => return false,
                };
            }
            _ => return false,
        }
    }
    false
}

fn c_family<'t>(
    lang: Lang,
    node: Node<'t>,
    src: &str,
    inside_function: bool,
    parent: Option<Node<'t>>,
) -> Found<'t> {
    let name = field(node, "name");
    let has_body = field(node, "body").is_some();
    match node.kind() {
        "function_definition" => {
            let declarator = field(node, "declarator");
            let name_node = match declarator {
                Some(d) if d.kind() == "parenthesized_declarator" => {
                    // The grammar's reading of two shapes the preprocessor makes sense of:
                    // `SYSCALL_DEFINE0(fork) { ... }`, a macro that expands to a function,
                    // named by its argument as `SYSCALL_DEFINE1(brk, ...)` below; and
                    // `int __maybe_unused name(void) { ... }`, where the attribute macro ends
                    // a declaration and `name` is taken for the type. Inside a function the
                    // shape is a macro call before a block.
                    let type_name = field(node, "type").filter(|t| t.kind() == "type_identifier");
                    match type_name {
                        _ if inside_function => None,
                        Some(t) if is_upper_constant(text(t, src)) => named_children(d)
                            .find(|c| c.kind() == "identifier" && text(*c, src) != "void"),
                        other => other,
                    }
                }
                Some(d) => c_declarator_name(d),
                None => None,
            };
            let Some(name_node) = name_node else {
                return Found::default();
            };
            let mut found = def_container(Kind::Function, Some(name_node), "function", false, src);
            if name_node.kind() == "qualified_identifier" {
                let full = collapse_spaces(text(name_node, src));
                if let Some((scope, _)) = full.rsplit_once("::")
                    && !scope.is_empty()
                {
                    found.qualifier = Some(scope.to_string());
                }
            }
            found
        }
        "struct_specifier" if has_body => def_container(Kind::Struct, name, "struct", true, src),
        "union_specifier" if has_body => def_container(Kind::Struct, name, "union", true, src),
        "enum_specifier" if has_body => def_container(Kind::Enum, name, "enum", true, src),
        "class_specifier" if has_body => def_container(Kind::Class, name, "class", true, src),
        "enumerator" => one(Kind::Constant, name),
        "preproc_def" | "preproc_function_def" => one(Kind::Macro, name),
        "type_definition" => {
            let mut cursor = node.walk();
            let mut names: Vec<Node<'t>> = node
                .children_by_field_name("declarator", &mut cursor)
                .filter_map(|d| match c_declarator_name(d)? {
                    // a keyword is never the name: the grammar split `unsigned long` and
                    // `typedef unsigned long (name)(args)` reads as `long` taking `name`
                    n if is_type_keyword(n, src) => misread_function_type_name(d).or(Some(n)),
                    n => Some(n),
                })
                .collect();
            if let Some(name) = name_after_attribute_macro(node, src, &names) {
                names = vec![name];
            }
            names.retain(|n| !is_type_keyword(*n, src));
            Found {
                defs: names.into_iter().map(|n| (Kind::Type, n)).collect(),
                ..Found::default()
            }
        }
        "alias_declaration" => one(Kind::Type, name),
        "expression_statement" if lang == Lang::C => {
            one(Kind::Function, macro_defined_function(node, parent, src))
        }
        "namespace_definition" => match name {
            Some(_) => def_container(Kind::Module, name, "namespace", false, src),
            None => Found::default(),
        },
        // member function declarations inside a class body: the place an agent looks first
        "field_declaration" | "declaration"
            if lang == Lang::Cpp
                && parent.is_some_and(|p| p.kind() == "field_declaration_list") =>
        {
            let mut cursor = node.walk();
            let names: Vec<Node<'t>> = node
                .children_by_field_name("declarator", &mut cursor)
                .filter(|d| declares_function(*d))
                .filter_map(c_declarator_name)
                .collect();
            Found {
                defs: names.into_iter().map(|n| (Kind::Method, n)).collect(),
                ..Found::default()
            }
        }
        _ => Found::default(),
    }
}

fn php<'t>(node: Node<'t>, src: &str) -> Found<'t> {
    let name = field(node, "name");
    match node.kind() {
        "function_definition" => def_container(Kind::Function, name, "function", false, src),
        "class_declaration" => def_container(Kind::Class, name, "class", true, src),
        "interface_declaration" => def_container(Kind::Interface, name, "interface", true, src),
        "trait_declaration" => def_container(Kind::Trait, name, "trait", true, src),
        "enum_declaration" => def_container(Kind::Enum, name, "enum", true, src),
        "method_declaration" => def_container(Kind::Method, name, "function", false, src),
        "const_element" => one(
            Kind::Constant,
            named_children(node).find(|c| c.kind() == "name"),
        ),
        "enum_case" => one(Kind::Constant, name),
        "namespace_definition" => {
            let Some(name) = name else {
                return Found::default();
            };
            let mut found = def_container(Kind::Module, Some(name), "namespace", false, src);
            // `namespace A;` covers the rest of the file, `namespace A { }` its body
            found.until_parent_end = field(node, "body").is_none();
            found
        }
        _ => Found::default(),
    }
}

fn ruby<'t>(node: Node<'t>, src: &str, inside_function: bool) -> Found<'t> {
    let name = field(node, "name");
    match node.kind() {
        "method" | "singleton_method" => def_container(Kind::Function, name, "def", false, src),
        "class" | "module" => {
            let (kind, keyword) = if node.kind() == "class" {
                (Kind::Class, "class")
            } else {
                (Kind::Module, "module")
            };
            let mut found = def_container(kind, name, keyword, true, src);
            // `class A::B::C`: defined inside A::B
            if let Some(scope) = name
                .filter(|n| n.kind() == "scope_resolution")
                .and_then(|n| field(n, "scope"))
            {
                found.qualifier = Some(collapse_spaces(text(scope, src)));
            }
            found
        }
        "singleton_class" => Found {
            container: container("class << self", "self", true),
            ..Found::default()
        },
        "assignment" => {
            let left = field(node, "left").filter(|l| l.kind() == "constant");
            if left.is_some() && !inside_function {
                one(Kind::Constant, left)
            } else {
                Found::default()
            }
        }
        _ => Found::default(),
    }
}

fn scala<'t>(node: Node<'t>, src: &str) -> Found<'t> {
    let name = field(node, "name");
    match node.kind() {
        "class_definition" => def_container(Kind::Class, name, "class", true, src),
        "object_definition" => def_container(Kind::Class, name, "object", true, src),
        "trait_definition" => def_container(Kind::Trait, name, "trait", true, src),
        "enum_definition" => def_container(Kind::Enum, name, "enum", true, src),
        "function_definition" => def_container(Kind::Function, name, "def", false, src),
        "function_declaration" => one(Kind::Function, name),
        "type_definition" => one(Kind::Type, name),
        _ => Found::default(),
    }
}

fn swift<'t>(node: Node<'t>, src: &str) -> Found<'t> {
    let name = field(node, "name");
    match node.kind() {
        "class_declaration" => {
            let keyword = children(node)
                .find(|c| !c.is_named() || c.kind() == "declaration_kind")
                .map(|c| text(c, src))
                .unwrap_or("class");
            match keyword {
                "extension" => {
                    let shown = name
                        .map(|n| collapse_spaces(text(n, src)))
                        .unwrap_or_default();
                    Found {
                        container: container(format!("extension {shown}"), shown, true),
                        ..Found::default()
                    }
                }
                "struct" => def_container(Kind::Struct, name, "struct", true, src),
                "enum" => def_container(Kind::Enum, name, "enum", true, src),
                "actor" => def_container(Kind::Class, name, "actor", true, src),
                _ => def_container(Kind::Class, name, "class", true, src),
            }
        }
        "protocol_declaration" => def_container(Kind::Interface, name, "protocol", true, src),
        "function_declaration" => def_container(Kind::Function, name, "func", false, src),
        "protocol_function_declaration" => one(Kind::Method, name),
        "init_declaration" => {
            let keyword = children(node).find(|c| c.kind() == "init");
            one(Kind::Method, keyword)
        }
        "typealias_declaration" => one(Kind::Type, name),
        _ => Found::default(),
    }
}
