//! The uses of one name in one file: every identifier spelled like it, outside comments and
//! strings (tree-sitter puts those in nodes of their own, so an identifier is always code), with
//! what the syntax tells about it:
//!
//! - whether it sits in an import (`use`, `import`, `#include` has no identifiers) or is the
//!   name of a definition;
//! - how it is reached: bare (`parse()`), as a member (`p.parse()`, `self.parse`) with the
//!   receiver's text, or through a path (`Parser::parse`, `pkg.Parse`) with the qualifier;
//! - the enclosing function or method, and the class-like container around it (`self`/`this`);
//! - for a bare name, the innermost function whose body binds the same name (a parameter, a
//!   local variable, a nested function): the use means that local, not a definition outside.
//!
//! The walk is iterative (a cursor, no recursion), so deep nesting costs memory in proportion
//! to the depth only, and it checks a deadline every few thousand nodes.

use std::collections::HashMap;
use std::time::Instant;

use devprojex_detail::tree_sitter::Node;

use crate::Lang;

/// How an occurrence is reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Access {
    /// `name` alone.
    Bare,
    /// `receiver.name`, `receiver->name`, `receiver?.name`: the receiver's text (cut).
    Member { receiver: String },
    /// `Qualifier::name`, Go's `pkg.Type` in a type, Ruby's `A::B`: the qualifier's text.
    Path { qualifier: String },
}

/// One identifier spelled like the name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Occurrence {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// Inside an import statement (or a re-export with a source).
    pub import: bool,
    /// For an occurrence inside an import statement: the line where that statement starts
    /// (the line its import edge carries), which tells which import brought the name.
    pub import_line: Option<usize>,
    /// C and C++: the name follows `struct`, `union` or `enum` (a tag, which C keeps apart
    /// from typedef names, functions and variables).
    pub tag: bool,
    /// The name of a definition or a binding (a function, a class, a variable, a parameter).
    pub definition: bool,
    pub access: Access,
    /// The enclosing function or method (`Parser.parse`, `main`), if any.
    pub container: Option<String>,
    /// The names of the enclosing class-like containers, outermost first.
    pub classes: Vec<String>,
    /// For a bare name (or a definition): the function whose body binds the name, by the
    /// byte offset where that function starts; `None` when the name is bound at file level.
    pub scope: Option<usize>,
    /// For a member use, the receiver's type when the file says it: a parameter or local with
    /// a type annotation, a local assigned from a constructor (`p = Parser()`, `new Parser()`,
    /// `&Parser{}`, `Parser::new()`), a Go method's receiver. The type's last name, without
    /// pointers or generic arguments.
    pub receiver_type: Option<String>,
    /// For a member use (or a qualified name) whose receiver is a module bound by an import
    /// of the file
    /// (`import * as commander from '../index.js'`, `const utils = require('./utils')`,
    /// `from . import _types as _t`): the module's name, as its file or folder spells it.
    pub receiver_module: Option<String>,
}

/// The occurrences of `name` in a file, in source order. `None` for a language without a
/// grammar, a file too large to parse, or a deadline reached.
pub fn occurrences(
    path: &str,
    text: &str,
    name: &str,
    deadline: Option<Instant>,
) -> Option<Vec<Occurrence>> {
    let lang = Lang::of_file(path, text)?;
    if name.is_empty() || memchr::memmem::find(text.as_bytes(), name.as_bytes()).is_none() {
        return Some(Vec::new());
    }
    // the parse itself stops at the deadline too
    let stop = || deadline.is_some_and(|d| Instant::now() >= d);
    let tree = crate::parse(lang, text, &stop).ok()?;
    walk(lang, tree.root_node(), text, name, deadline)
}

#[derive(Debug)]
struct Frame {
    /// The node that opened the frame.
    node_id: usize,
    start_byte: usize,
    /// Where its body starts (what comes before is its head: name, parameters).
    body_start: usize,
    function: bool,
    name: String,
}

impl Frame {
    /// A function, or a nameless frame (the root `module` of a Python file).
    fn not_a_class(&self) -> bool {
        self.function || self.name.is_empty()
    }
}

/// An occurrence before its scope is known: the byte offsets of the functions around it,
/// innermost last.
struct Pending {
    occurrence: Occurrence,
    functions: Vec<usize>,
    /// A binding (a definition or a local) of the name, in `functions.last()`.
    binds: bool,
}

const DEADLINE_CHECK_NODES: usize = 4096;

/// Uses kept per file: a generated file with a million uses of one name gives this many (the
/// answer shows at most a thousand a page anyway), and memory stays bounded.
pub const MAX_OCCURRENCES_PER_FILE: usize = 100_000;

fn walk(
    lang: Lang,
    root: Node<'_>,
    src: &str,
    name: &str,
    deadline: Option<Instant>,
) -> Option<Vec<Occurrence>> {
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', src.as_bytes()).map(|i| i + 1))
        .collect();
    let mut frames: Vec<Frame> = Vec::new();
    // import statements the cursor is inside: (node id, 1-based start line)
    let mut imports: Vec<(usize, usize)> = Vec::new();
    let mut pending: Vec<Pending> = Vec::new();
    // (function start byte or FILE_LEVEL, variable) -> type name
    let mut types: HashMap<(usize, String), String> = HashMap::new();
    // free function name -> the type it returns ("" when its returns disagree)
    let mut returns: HashMap<String, String> = HashMap::new();
    // names bound to a module of the project by an import or a `require` -> the module's name
    let mut modules: HashMap<String, String> = HashMap::new();
    let mut visited = 0usize;
    // (byte, column) of the last occurrence: uses come in source order, so the columns of a
    // long line are counted once in all, not from the line's start for every use
    let mut last_column: (usize, usize) = (0, 1);
    // the nodes above the cursor, root first: `Node::parent` searches down from the root,
    // which costs the width of every level (a bundle's object of 100,000 entries) per call
    let mut ancestors: Vec<Node<'_>> = Vec::new();
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        visited += 1;
        if visited.is_multiple_of(DEADLINE_CHECK_NODES)
            && deadline.is_some_and(|d| Instant::now() >= d)
        {
            return None;
        }
        if node.is_named() {
            let kind = node.kind();
            if is_import(kind, node) {
                imports.push((node.id(), node.start_position().row + 1));
            }
            if let Some((function, frame_name)) = frame_of(lang, node, src, &ancestors) {
                // a free function's declared result (`-> Parser`, `): Parser`, Go's result)
                if function && frames.iter().all(Frame::not_a_class) {
                    let declared = node
                        .child_by_field_name("return_type")
                        .or_else(|| node.child_by_field_name("result"))
                        .and_then(|t| type_name(src.get(t.byte_range()).unwrap_or("")));
                    if let Some(declared) = declared {
                        note_return(&mut returns, &frame_name, declared);
                    }
                }
                frames.push(Frame {
                    node_id: node.id(),
                    start_byte: node.start_byte(),
                    body_start: node
                        .child_by_field_name("body")
                        .map_or(node.end_byte(), |b| b.start_byte()),
                    function,
                    name: frame_name,
                });
            }
            note_type(node, src, &frames, &mut types);
            note_module(node, src, &mut modules);
            // `return Parser(...)`, `return new Parser()`: the free function around returns one
            // (or a local typed so: `const p = new Parser(); …; return p;`)
            if matches!(kind, "return_statement" | "return_expression")
                && let Some(value) = node.named_child(0)
                && let Some(at) = frames.iter().rposition(|f| f.function)
                && frames[..at].iter().all(Frame::not_a_class)
                && let Some(returned) = constructed_type(value, src).or_else(|| {
                    let local = (
                        frames[at].start_byte,
                        src.get(value.byte_range())?.to_string(),
                    );
                    types.get(&local).filter(|t| !t.is_empty()).cloned()
                })
            {
                note_return(&mut returns, &frames[at].name, returned);
            }
            if node.child_count() == 0
                && is_identifier(kind)
                && src.get(node.byte_range()) == Some(name)
                && pending.len() < MAX_OCCURRENCES_PER_FILE
            {
                let mut found = occurrence(
                    node,
                    src,
                    &line_starts,
                    &mut last_column,
                    &frames,
                    &ancestors,
                    imports.last().map(|(_, line)| *line),
                );
                if let Access::Member { receiver } = &found.occurrence.access {
                    let scopes = frames
                        .iter()
                        .rev()
                        .filter(|f| f.function)
                        .map(|f| f.start_byte)
                        .chain(std::iter::once(FILE_LEVEL));
                    found.occurrence.receiver_type = scopes
                        .into_iter()
                        .find_map(|scope| types.get(&(scope, receiver.clone())))
                        .filter(|t| !t.is_empty())
                        .cloned()
                        // `Parser(...).parse()`, `make_parser().parse()`
                        .or_else(|| {
                            receiver_node(node, &ancestors).and_then(|r| call_type(r, src))
                        });
                    found.occurrence.receiver_module = modules.get(receiver).cloned();
                }
                // `core.Params` in a type: the qualifier may be a module binding too
                if let Access::Path { qualifier } = &found.occurrence.access {
                    found.occurrence.receiver_module = modules.get(qualifier).cloned();
                }
                pending.push(found);
            }
        }
        if cursor.goto_first_child() {
            ancestors.push(node);
            continue;
        }
        loop {
            let leaving = cursor.node().id();
            while frames.last().is_some_and(|f| f.node_id == leaving) {
                frames.pop();
            }
            if imports.last().is_some_and(|(id, _)| *id == leaving) {
                imports.pop();
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return Some(settle(pending, &returns));
            }
            ancestors.pop();
        }
    }
}

/// Each bare use's scope: the innermost function around it that binds the name (anywhere in
/// its body, as Python decides; a use before a `let` in Rust or JavaScript is rare enough).
fn settle(pending: Vec<Pending>, returns: &HashMap<String, String>) -> Vec<Occurrence> {
    let binding: std::collections::HashSet<usize> = pending
        .iter()
        .filter(|p| p.binds)
        .filter_map(|p| p.functions.last().copied())
        .collect();
    pending
        .into_iter()
        .map(|p| {
            let mut occurrence = p.occurrence;
            // a receiver assigned from a call of a file's function: what that function returns
            if let Some(function) = occurrence
                .receiver_type
                .as_deref()
                .and_then(|t| t.strip_prefix(RETURN_OF))
            {
                occurrence.receiver_type = returns.get(function).filter(|t| !t.is_empty()).cloned();
            }
            if occurrence.access == Access::Bare || occurrence.definition {
                occurrence.scope = p
                    .functions
                    .iter()
                    .rev()
                    .find(|f| binding.contains(f))
                    .copied();
            }
            occurrence
        })
        .collect()
}

fn occurrence(
    node: Node<'_>,
    src: &str,
    line_starts: &[usize],
    last_column: &mut (usize, usize),
    frames: &[Frame],
    ancestors: &[Node<'_>],
    import_line: Option<usize>,
) -> Pending {
    let import = import_line.is_some();
    let row = node.start_position().row;
    let line_start = line_starts.get(row).copied().unwrap_or(0);
    let (from, counted) = if last_column.0 >= line_start && last_column.0 <= node.start_byte() {
        *last_column
    } else {
        (line_start, 1)
    };
    let column = src
        .get(from..node.start_byte())
        .map_or(1, |before| counted + before.chars().count());
    *last_column = (node.start_byte(), column);
    let access = access_of(node, src, ancestors);
    let binding = !import && is_binding(node, ancestors);
    // a named function or class expression names itself (`route.all(function handle() {})`):
    // a definition, not a use, but bound only inside itself, not in the scope around it
    let names_itself = !binding
        && ancestors.last().is_some_and(|p| {
            field_is(*p, "name", node)
                && matches!(
                    p.kind(),
                    "function_expression" | "function" | "generator_function" | "class"
                )
        });
    let mut functions: Vec<usize> = frames
        .iter()
        .filter(|f| f.function)
        .map(|f| f.start_byte)
        .collect();
    // the name of a function binds in the scope around it, not in its own body
    // (C and C++ put the name inside a declarator in the head: the head's name is the frame's)
    let own_frame = frames.last().filter(|f| {
        ancestors.last().is_some_and(|p| p.id() == f.node_id)
            || f.function
                && node.start_byte() < f.body_start
                && src.get(node.byte_range()) == Some(f.name.as_str())
    });
    let mut frames_shown: Vec<&Frame> = frames.iter().collect();
    if let Some(own) = own_frame {
        if own.function {
            functions.pop();
        }
        frames_shown.pop();
    }
    let container = frames_shown
        .iter()
        .rposition(|f| f.function)
        .map(|at| {
            let function = &frames_shown[at].name;
            match frames_shown[..at].iter().rev().find(|f| !f.function) {
                Some(class) if !class.name.is_empty() => format!("{}.{function}", class.name),
                _ => function.clone(),
            }
        })
        .or_else(|| frames_shown.last().map(|f| f.name.clone()))
        .filter(|c| !c.is_empty());
    let classes = frames_shown
        .iter()
        .filter(|f| !f.function && !f.name.is_empty())
        .map(|f| f.name.clone())
        .collect();
    Pending {
        occurrence: Occurrence {
            line: row + 1,
            column,
            import,
            import_line,
            tag: ancestors.last().is_some_and(|p| {
                matches!(
                    p.kind(),
                    "struct_specifier" | "union_specifier" | "enum_specifier"
                ) && field_is(*p, "name", node)
            }),
            definition: binding || names_itself,
            access,
            container,
            classes,
            scope: None,
            receiver_type: None,
            receiver_module: None,
        },
        functions,
        binds: binding,
    }
}

/// The scope key of what is bound outside any function.
const FILE_LEVEL: usize = usize::MAX;

/// A type's last name: `*pkg.Parser` -> `Parser`, `Vec<T>` -> `Vec`, `Parser[int]` -> `Parser`.
fn type_name(text: &str) -> Option<String> {
    let text = text
        .trim()
        .trim_start_matches(['*', '&', ':'])
        .trim_start_matches("mut ")
        .trim_start_matches("dyn ")
        .trim_start_matches("impl ")
        .trim();
    let base = text.split(['<', '[', '(', '{', '|', ' ']).next()?.trim();
    let last = base.rsplit(['.', ':', '\\']).find(|s| !s.is_empty())?;
    (last.chars().next()?.is_alphabetic() || last.starts_with('_'))
        .then(|| last.to_string())
        .filter(|l| l.chars().all(|c| c.is_alphanumeric() || c == '_'))
}

/// A constructor's type: `Parser(...)`, `mod.Parser(...)`, `new Parser(...)`, `&Parser{...}`,
/// `Parser{...}`, `Parser::new(...)` (an upper-case first letter: a class or a type).
fn constructed_type(value: Node<'_>, src: &str) -> Option<String> {
    let text_of = |n: Node<'_>| src.get(n.byte_range()).unwrap_or("");
    let upper = |name: String| {
        name.chars()
            .next()
            .is_some_and(char::is_uppercase)
            .then_some(name)
    };
    match value.kind() {
        "call" | "call_expression" => {
            let function = value.child_by_field_name("function")?;
            if function.kind() == "scoped_identifier" {
                // `Parser::new()`: the path names the type
                return upper(type_name(text_of(function.child_by_field_name("path")?))?);
            }
            upper(type_name(text_of(function))?)
        }
        "new_expression" | "object_creation_expression" => upper(type_name(text_of(
            value
                .child_by_field_name("constructor")
                .or_else(|| value.child_by_field_name("type"))?,
        ))?),
        "composite_literal" | "struct_expression" => upper(type_name(text_of(
            value
                .child_by_field_name("type")
                .or_else(|| value.child_by_field_name("name"))?,
        ))?),
        "unary_expression" | "reference_expression" | "await" | "await_expression" => {
            let inner = value
                .child_by_field_name("operand")
                .or_else(|| value.child_by_field_name("value"))
                .or_else(|| value.named_child(0))?;
            constructed_type(inner, src)
        }
        "expression_list" | "parenthesized_expression" if value.named_child_count() == 1 => {
            constructed_type(value.named_child(0)?, src)
        }
        _ => None,
    }
}

/// A module's name from an import's specifier: `'../lib/command.js'` -> `command`,
/// `'./utils'` -> `utils`, `._types` (Python) -> `_types`, `a.b.c` -> `c`; a folder's `index`
/// or `__init__` gives the folder (`'../lib/index.js'` -> `lib`). `None` for `..`, `.`, a
/// package (no `./` or `../` start in JavaScript: not a file of the project).
fn module_of_specifier(specifier: &str, python: bool) -> Option<String> {
    let specifier = specifier.trim().trim_matches(['"', '\'', '`']);
    if !python && !specifier.starts_with('.') {
        return None;
    }
    let parts: Vec<&str> = if python {
        specifier.split('.').filter(|p| !p.is_empty()).collect()
    } else {
        specifier
            .split('/')
            .filter(|p| !p.is_empty() && *p != ".")
            .collect()
    };
    let mut parts = parts.into_iter().rev();
    let last = parts.next()?;
    let stem = if python {
        last
    } else {
        last.split('.').next().unwrap_or(last)
    };
    let name = if matches!(stem, "index" | "__init__") {
        parts.next()?
    } else {
        stem
    };
    (!name.is_empty() && name != "..").then(|| name.to_string())
}

/// Records a name bound to a module: `import * as m from './m'`, `import m from './m'`,
/// `const m = require('./m')` (JavaScript); `import a.b as m`, `from . import m as n`
/// (Python).
fn note_module(node: Node<'_>, src: &str, modules: &mut HashMap<String, String>) {
    let text_of = |n: Node<'_>| src.get(n.byte_range()).unwrap_or("").trim();
    match node.kind() {
        // JavaScript: `import * as m from './m'`, `import m from './m'`
        "import_statement" if node.child_by_field_name("source").is_some() => {
            let Some(module) = node
                .child_by_field_name("source")
                .and_then(|s| module_of_specifier(text_of(s), false))
            else {
                return;
            };
            let clause = (0..node.named_child_count())
                .filter_map(|i| node.named_child(i as u32))
                .find(|c| c.kind() == "import_clause");
            for part in clause.into_iter().flat_map(|c| {
                (0..c.named_child_count()).filter_map(move |i| c.named_child(i as u32))
            }) {
                let binding = match part.kind() {
                    "identifier" => Some(part),
                    "namespace_import" => part.named_child(0),
                    _ => None,
                };
                if let Some(binding) = binding {
                    modules.insert(text_of(binding).to_string(), module.clone());
                }
            }
        }
        // `const m = require('./m')`
        "variable_declarator" => {
            let (Some(name), Some(value)) = (
                node.child_by_field_name("name")
                    .filter(|n| n.kind() == "identifier"),
                node.child_by_field_name("value"),
            ) else {
                return;
            };
            if value.kind() != "call_expression"
                || value
                    .child_by_field_name("function")
                    .is_none_or(|f| text_of(f) != "require")
            {
                return;
            }
            let specifier = value
                .child_by_field_name("arguments")
                .and_then(|a| a.named_child(0))
                .filter(|a| a.kind() == "string");
            if let Some(module) = specifier.and_then(|s| module_of_specifier(text_of(s), false)) {
                modules.insert(text_of(name).to_string(), module);
            }
        }
        // Python: `import a.b as m`, `from . import m as n`, `from .pkg import m as n`
        "aliased_import" => {
            let (Some(name), Some(alias)) = (
                node.child_by_field_name("name"),
                node.child_by_field_name("alias"),
            ) else {
                return;
            };
            if let Some(module) = module_of_specifier(text_of(name), true) {
                modules.insert(text_of(alias).to_string(), module);
            }
        }
        _ => {}
    }
}

/// The mark of a type still to be read from a function's returns (a control character, which
/// no type name holds), followed by the function's name.
const RETURN_OF: &str = "\u{1}";

/// What `function` returns, noted; two different types make it unknown.
fn note_return(returns: &mut HashMap<String, String>, function: &str, found: String) {
    match returns.get(function) {
        Some(known) if *known != found => {
            returns.insert(function.to_string(), String::new());
        }
        Some(_) => {}
        None => {
            returns.insert(function.to_string(), found);
        }
    }
}

/// The type a call gives: a constructor's (`Parser(…)`, `new Parser()`), or, for a bare call
/// of a function (`make_parser()`), the mark of that function's returns, settled once the
/// whole file is read.
fn call_type(value: Node<'_>, src: &str) -> Option<String> {
    constructed_type(value, src).or_else(|| {
        let value = match value.kind() {
            "await" | "await_expression" => value.named_child(0)?,
            _ => value,
        };
        if !matches!(value.kind(), "call" | "call_expression") {
            return None;
        }
        let function = value.child_by_field_name("function")?;
        (function.kind() == "identifier").then(|| {
            format!(
                "{RETURN_OF}{}",
                src.get(function.byte_range()).unwrap_or("")
            )
        })
    })
}

/// The receiver of the member `node`: its parent's object (the node before it).
fn receiver_node<'t>(node: Node<'t>, ancestors: &[Node<'t>]) -> Option<Node<'t>> {
    let parent = *ancestors.last()?;
    [
        "value",
        "object",
        "operand",
        "argument",
        "expression",
        "receiver",
    ]
    .iter()
    .find_map(|f| parent.child_by_field_name(f))
    .filter(|c| c.id() != node.id() && c.start_byte() < node.start_byte())
}

/// Records what a binding says of a variable's type: annotated parameters and locals, locals
/// assigned from a constructor.
fn note_type(
    node: Node<'_>,
    src: &str,
    frames: &[Frame],
    types: &mut HashMap<(usize, String), String>,
) {
    let text_of = |n: Node<'_>| src.get(n.byte_range()).unwrap_or("").trim().to_string();
    // directly in a class body (no function between): a field declaration
    let in_class_body = frames.last().is_some_and(|f| !f.not_a_class());
    let (variable, type_text, value) = match node.kind() {
        // Python `x: T`, `x: T = ...`; TS `(x: T)`; Rust `x: T`; Go `x *T`; Java `T x`
        "typed_parameter" | "typed_default_parameter" => (
            node.named_child(0).filter(|n| n.kind() == "identifier"),
            node.child_by_field_name("type"),
            None,
        ),
        "required_parameter" | "optional_parameter" | "parameter" => (
            node.child_by_field_name("pattern")
                .filter(|n| n.kind() == "identifier"),
            node.child_by_field_name("type"),
            None,
        ),
        "parameter_declaration" | "formal_parameter" => (
            node.child_by_field_name("name")
                .filter(|n| n.kind() == "identifier"),
            node.child_by_field_name("type"),
            None,
        ),
        "assignment" | "assignment_expression" => (
            node.child_by_field_name("left")
                .filter(|n| n.kind() == "identifier" || attribute_of_self(*n, src).is_some()),
            node.child_by_field_name("type"),
            node.child_by_field_name("right"),
        ),
        // TypeScript `private parser: Parser;`, `parser = new Parser()` in a class body
        "public_field_definition" | "field_definition" => (
            node.child_by_field_name("name")
                .or_else(|| node.child_by_field_name("property"))
                .filter(|n| {
                    matches!(
                        n.kind(),
                        "property_identifier" | "private_property_identifier"
                    )
                }),
            node.child_by_field_name("type"),
            node.child_by_field_name("value"),
        ),
        "variable_declarator" => (
            node.child_by_field_name("name")
                .filter(|n| n.kind() == "identifier"),
            node.child_by_field_name("type"),
            node.child_by_field_name("value"),
        ),
        "let_declaration" => (
            node.child_by_field_name("pattern")
                .filter(|n| n.kind() == "identifier"),
            node.child_by_field_name("type"),
            node.child_by_field_name("value"),
        ),
        "short_var_declaration" => (
            node.child_by_field_name("left")
                .filter(|l| l.named_child_count() == 1)
                .and_then(|l| l.named_child(0))
                .filter(|n| n.kind() == "identifier"),
            None,
            node.child_by_field_name("right"),
        ),
        _ => return,
    };
    let Some(variable) = variable else { return };
    let found = type_text
        .and_then(|t| type_name(&text_of(t)))
        .or_else(|| value.and_then(|v| call_type(v, src)));
    let Some(found) = found else { return };
    // An attribute of the instance (`self.parser = Parser()`, `this.parser = new Parser()`,
    // a field `parser: Parser` in the class body, a TypeScript parameter property) is known
    // in every method of the file, under its receiver text `self.parser`/`this.parser`;
    // two classes of the file that type it differently leave it unknown.
    let attribute = attribute_of_self(variable, src).or_else(|| {
        let field = matches!(node.kind(), "public_field_definition" | "field_definition")
            || in_class_body && matches!(node.kind(), "assignment");
        let own = if node.kind() == "assignment" {
            "self"
        } else {
            "this"
        };
        let parameter_property = node.kind() == "required_parameter"
            && (0..node.named_child_count())
                .filter_map(|i| node.named_child(i as u32))
                .any(|c| c.kind() == "accessibility_modifier" || c.kind() == "readonly");
        (field || parameter_property).then(|| format!("{own}.{}", text_of(variable)))
    });
    if let Some(attribute) = attribute {
        let key = (FILE_LEVEL, attribute);
        match types.get(&key) {
            Some(known) if *known != found => {
                types.insert(key, String::new());
            }
            Some(_) => {}
            None => {
                types.insert(key, found.clone());
            }
        }
        if node.kind() != "required_parameter" {
            return;
        }
    }
    // a parameter belongs to the function it is a parameter of (the innermost frame open)
    let scope = frames
        .iter()
        .rev()
        .find(|f| f.function)
        .map_or(FILE_LEVEL, |f| f.start_byte);
    types.insert((scope, text_of(variable)), found);
}

/// `self.x`, `this.x` (a Python attribute or a JavaScript member of the instance): its text.
fn attribute_of_self(node: Node<'_>, src: &str) -> Option<String> {
    if !matches!(node.kind(), "attribute" | "member_expression") {
        return None;
    }
    let object = node.child_by_field_name("object")?;
    let own = src.get(object.byte_range())?;
    matches!(own, "self" | "this").then(|| src.get(node.byte_range()).unwrap_or("").to_string())
}

/// Leaf kinds that spell a name in the 15 grammars.
fn is_identifier(kind: &str) -> bool {
    kind.ends_with("identifier") || matches!(kind, "name" | "constant" | "word")
}

fn is_import(kind: &str, node: Node<'_>) -> bool {
    match kind {
        "import_statement"
        | "import_from_statement"
        | "future_import_statement"
        | "import_declaration"
        | "import_spec"
        | "use_declaration"
        | "extern_crate_declaration"
        | "namespace_use_declaration"
        | "using_directive"
        | "import_header"
        | "import_list" => true,
        // `export { x } from "./y"`: a re-export names its source like an import
        "export_statement" => node.child_by_field_name("source").is_some(),
        _ => false,
    }
}

const MAX_RECEIVER_CHARS: usize = 80;

fn short(text: &str) -> String {
    let text = text.trim();
    if text.chars().count() <= MAX_RECEIVER_CHARS {
        text.to_string()
    } else {
        text.chars().take(MAX_RECEIVER_CHARS).collect()
    }
}

/// How `node` is reached, from its parent.
fn access_of<'t>(node: Node<'t>, src: &str, ancestors: &[Node<'t>]) -> Access {
    let Some(parent) = parent_of(ancestors, node) else {
        return Access::Bare;
    };
    let text_of = |n: Node<'_>| short(src.get(n.byte_range()).unwrap_or(""));
    let first_other = |p: Node<'t>| -> Option<Node<'t>> {
        (0..p.named_child_count())
            .filter_map(|i| p.named_child(i as u32))
            .find(|c| c.id() != node.id())
    };
    // the object or qualifier field of the parent, when `node` is not it
    let other_field = |p: Node<'t>, fields: &[&str]| -> Option<Node<'t>> {
        fields
            .iter()
            .find_map(|f| p.child_by_field_name(f))
            .filter(|c| c.id() != node.id() && c.start_byte() < node.start_byte())
    };
    match parent.kind() {
        // value.field, object.property, object.attribute, operand.field, object->name
        "field_expression"
        | "member_expression"
        | "attribute"
        | "selector_expression"
        | "field_access"
        | "method_invocation"
        | "member_access_expression"
        | "member_call_expression"
        | "nullsafe_member_access_expression"
        | "nullsafe_member_call_expression"
        | "navigation_expression"
        | "navigation_suffix"
        | "conditional_access_expression"
        | "call" => {
            let receiver = other_field(
                parent,
                &[
                    "value",
                    "object",
                    "operand",
                    "argument",
                    "expression",
                    "receiver",
                ],
            )
            .or_else(|| {
                // Kotlin's navigation_suffix: the receiver is the parent's first child
                (parent.kind() == "navigation_suffix")
                    .then(|| parent_of(ancestors, parent).and_then(|g| g.named_child(0)))
                    .flatten()
            });
            match receiver {
                Some(receiver) => Access::Member {
                    receiver: text_of(receiver),
                },
                None => Access::Bare,
            }
        }
        "scoped_identifier"
        | "scoped_type_identifier"
        | "qualified_identifier"
        | "qualified_type"
        | "nested_type_identifier"
        | "scoped_call_expression"
        | "class_constant_access_expression"
        | "scope_resolution"
        | "qualified_name"
        | "generic_type"
        | "user_type" => match other_field(parent, &["path", "scope", "package", "module"])
            .or_else(|| first_other(parent).filter(|c| c.start_byte() < node.start_byte()))
        {
            Some(qualifier) => Access::Path {
                qualifier: text_of(qualifier),
            },
            None => Access::Bare,
        },
        _ => Access::Bare,
    }
}

/// Kinds whose `name` field is the name of what they define (or bind).
fn defines_by_name(kind: &str) -> bool {
    const NOT: [&str; 15] = [
        "call",
        "invocation",
        "expression",
        "scoped",
        "qualified",
        "access",
        "selector",
        "member",
        "reference",
        "argument",
        "nested",
        "path",
        "generic",
        "import",
        "keyword",
    ];
    const YES: [&str; 21] = [
        "definition",
        "declaration",
        "declarator",
        "_item",
        "_spec",
        "signature",
        "method",
        "class",
        "function",
        "variant",
        "field",
        "parameter",
        "alias",
        "struct",
        "enum",
        "trait",
        "interface",
        "module",
        "namespace",
        "constant",
        "property",
    ];
    !NOT.iter().any(|n| kind.contains(n)) && YES.iter().any(|y| kind.contains(y))
}

/// Nodes that only group the names of a pattern (`a, b = ...`, `let (a, b)`, `{a, b}`).
fn is_pattern_group(kind: &str) -> bool {
    matches!(
        kind,
        "pattern_list"
            | "tuple_pattern"
            | "list_pattern"
            | "tuple"
            | "expression_list"
            | "object_pattern"
            | "array_pattern"
            | "list_splat_pattern"
            | "dictionary_splat_pattern"
            | "as_pattern_target"
            | "reference_pattern"
            | "mut_pattern"
            | "slice_pattern"
            | "tuple_struct_pattern"
            | "struct_pattern"
            | "field_pattern"
            | "rest_pattern"
            | "pair_pattern"
    )
}

/// The parent of `node`, which is the cursor's node (its parent is the last of `ancestors`) or
/// one of `ancestors`.
fn parent_of<'t>(ancestors: &[Node<'t>], node: Node<'t>) -> Option<Node<'t>> {
    match ancestors.iter().rposition(|a| a.id() == node.id()) {
        Some(at) => at.checked_sub(1).map(|i| ancestors[i]),
        None => ancestors.last().copied(),
    }
}

fn field_is(parent: Node<'_>, field: &str, node: Node<'_>) -> bool {
    parent
        .child_by_field_name(field)
        .is_some_and(|c| c.id() == node.id())
}

/// Whether the identifier `node` names what it defines or binds: a definition's name, a
/// declarator, a pattern of `let`/`for`/parameters, the target of a Python assignment, a
/// parameter.
fn is_binding<'t>(node: Node<'t>, ancestors: &[Node<'t>]) -> bool {
    let Some(parent) = parent_of(ancestors, node) else {
        return false;
    };
    // C: `RUN_TEST(name);` in a body reads as a declaration of `name` in parentheses; it is
    // a macro call (a real declarator in parentheses, `int (x);`, is rare)
    if parent.kind() == "parenthesized_declarator" {
        return false;
    }
    // `struct abuf ab;`: a struct, union or enum named without its body is a use of the type
    if matches!(
        parent.kind(),
        "struct_specifier" | "union_specifier" | "enum_specifier" | "class_specifier"
    ) && parent.child_by_field_name("body").is_none()
    {
        return false;
    }
    if field_is(parent, "name", node) && defines_by_name(parent.kind()) {
        return true;
    }

    // C and C++ declarators: `int x`, `*p`, `f(void)` (not a qualified `ns::f`)
    // (`typedef unsigned long u64;` too: a second typedef in another `#if` branch defines)
    if field_is(parent, "declarator", node)
        && (parent.kind().contains("declarator")
            || parent.kind().contains("declaration")
            || matches!(parent.kind(), "function_definition" | "type_definition"))
    {
        return true;
    }
    // shorthand destructuring (`const { a } = x`, `({ a }) =>`)
    if node.kind() == "shorthand_property_identifier_pattern" {
        return true;
    }
    // climb out of pattern groups, then look at the field the pattern fills
    let mut child = node;
    let mut holder = parent;
    while is_pattern_group(holder.kind()) {
        // a struct pattern's type, a tuple struct's path: not bindings
        if matches!(holder.kind(), "tuple_struct_pattern" | "struct_pattern")
            && field_is(holder, "type", child)
        {
            return false;
        }
        child = holder;
        match parent_of(ancestors, holder) {
            Some(p) => holder = p,
            None => return false,
        }
    }
    let kind = holder.kind();
    if field_is(holder, "pattern", child) {
        return true;
    }
    if field_is(holder, "left", child)
        && matches!(
            kind,
            "assignment"
                | "augmented_assignment"
                | "for_statement"
                | "for_in_statement"
                | "short_var_declaration"
                | "range_clause"
                | "for_in_clause"
        )
    {
        return true;
    }
    if field_is(holder, "alias", child) && matches!(kind, "as_pattern" | "with_item") {
        return true;
    }
    matches!(
        kind,
        "parameters"
            | "formal_parameters"
            | "lambda_parameters"
            | "closure_parameters"
            | "typed_parameter"
            | "block_parameters"
            | "method_parameters"
            | "lambda_parameter"
    ) || (kind == "default_parameter" || kind == "typed_default_parameter")
        && field_is(holder, "name", child)
        || kind == "assignment_pattern" && field_is(holder, "left", child)
}

/// Whether `node` opens a frame: `(is a function, its name)`. Classes, impls, traits,
/// modules and namespaces are frames too, named for `self`/`this` and qualified labels.
fn frame_of<'t>(
    lang: Lang,
    node: Node<'t>,
    src: &str,
    ancestors: &[Node<'t>],
) -> Option<(bool, String)> {
    let kind = node.kind();
    let text_of = |n: Node<'_>| src.get(n.byte_range()).unwrap_or("").trim().to_string();
    let name_field = || node.child_by_field_name("name").map(text_of);
    let function = matches!(
        kind,
        "function_item"
            | "function_definition"
            | "function_declaration"
            | "generator_function_declaration"
            | "function_expression"
            | "generator_function"
            | "function"
            | "arrow_function"
            | "method_definition"
            | "method_declaration"
            | "constructor_declaration"
            | "lambda"
            | "lambda_expression"
            | "lambda_literal"
            | "closure_expression"
            | "func_literal"
            | "method"
            | "singleton_method"
            | "anonymous_function"
            | "anonymous_function_creation_expression"
            | "local_function_statement"
            | "secondary_constructor"
            | "init_declaration"
            | "function_literal"
    );
    if function {
        let name = match kind {
            // C and C++: the declarator chain ends at the name
            "function_definition" if lang.is_c_family() => {
                let mut current = node.child_by_field_name("declarator");
                while let Some(d) = current {
                    match d.child_by_field_name("declarator") {
                        Some(inner) => current = Some(inner),
                        None => break,
                    }
                }
                current.map(|d| {
                    let full = text_of(d);
                    full.rsplit("::").next().unwrap_or(&full).to_string()
                })
            }
            "method_declaration" if lang == Lang::Go => {
                let receiver = node
                    .child_by_field_name("receiver")
                    .and_then(|r| r.named_child(0))
                    .and_then(|p| p.child_by_field_name("type"))
                    .map(|t| {
                        let t = text_of(t);
                        t.trim_start_matches('*')
                            .split('[')
                            .next()
                            .unwrap_or("")
                            .to_string()
                    });
                name_field().map(|n| match receiver {
                    Some(r) if !r.is_empty() => format!("{r}.{n}"),
                    _ => n,
                })
            }
            _ => name_field(),
        }
        .or_else(|| bound_name(node, src, ancestors))
        .unwrap_or_default();
        return Some((true, name));
    }
    let class_like = matches!(
        kind,
        "class_definition"
            | "class_declaration"
            | "abstract_class_declaration"
            | "class"
            | "struct_item"
            | "enum_item"
            | "trait_item"
            | "impl_item"
            | "interface_declaration"
            | "struct_specifier"
            | "class_specifier"
            | "object_declaration"
            | "object_definition"
            | "trait_definition"
            | "module"
            | "mod_item"
            | "namespace_definition"
            | "namespace_declaration"
            | "struct_declaration"
            | "enum_declaration"
            | "record_declaration"
            | "trait_declaration"
            | "protocol_declaration"
    );
    if !class_like {
        return None;
    }
    let name = if kind == "impl_item" {
        node.child_by_field_name("type").map(|t| {
            let t = text_of(t);
            t.split('<').next().unwrap_or("").trim().to_string()
        })
    } else {
        name_field()
    };
    // a C struct without a body is a use of the type, not a container
    if matches!(kind, "struct_specifier" | "class_specifier")
        && node.child_by_field_name("body").is_none()
    {
        return None;
    }
    Some((false, name.unwrap_or_default()))
}

/// The name an anonymous function is bound to: `const f = () => {}`, `f: function () {}`,
/// `obj.f = function () {}`.
fn bound_name<'t>(node: Node<'t>, src: &str, ancestors: &[Node<'t>]) -> Option<String> {
    let parent = parent_of(ancestors, node)?;
    let target = match parent.kind() {
        "variable_declarator" => parent.child_by_field_name("name"),
        "pair" => parent.child_by_field_name("key"),
        "assignment_expression" | "assignment" => parent.child_by_field_name("left"),
        _ => None,
    }?;
    let text = src.get(target.byte_range())?.trim();
    let last = text.rsplit(['.', ':']).next().unwrap_or(text);
    (!last.is_empty()).then(|| last.trim_matches(['"', '\'']).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(path: &str, text: &str, name: &str) -> Vec<(usize, usize, String)> {
        occurrences(path, text, name, None)
            .unwrap()
            .into_iter()
            .map(|o| {
                let mut tags = Vec::new();
                if o.import {
                    tags.push("import".to_string());
                }
                if o.definition {
                    tags.push("def".to_string());
                }
                match &o.access {
                    Access::Bare => {}
                    Access::Member { receiver } => tags.push(format!("member {receiver}")),
                    Access::Path { qualifier } => tags.push(format!("path {qualifier}")),
                }
                if let Some(c) = &o.container {
                    tags.push(format!("in {c}"));
                }
                if o.scope.is_some() {
                    tags.push("local".to_string());
                }
                (o.line, o.column, tags.join(", "))
            })
            .collect()
    }

    #[test]
    fn python_uses_skip_comments_and_strings_and_see_locals() {
        let text = "from .app import parse\n\n# parse is mentioned here\ndef run(x):\n    s = \"parse\"\n    return parse(x)\n\ndef other(parse):\n    return parse\n\nclass P:\n    def parse(self):\n        return self.parse()\n";
        assert_eq!(
            found("pkg/m.py", text, "parse"),
            [
                (1, 18, "import".to_string()),
                (6, 12, "in run".to_string()),
                (8, 11, "def, in other, local".to_string()),
                (9, 12, "in other, local".to_string()),
                (12, 9, "def, in P".to_string()),
                (13, 21, "member self, in P.parse".to_string()),
            ]
        );
    }

    #[test]
    fn rust_paths_members_and_definitions() {
        let text = "use crate::parser::Parser;\n\nfn main() {\n    let p = Parser::new();\n    p.parse();\n}\n\nimpl Parser {\n    fn new() -> Self { Parser }\n}\n";
        let uses = found("src/main.rs", text, "Parser");
        assert_eq!(
            uses,
            [
                (1, 20, "import, path crate::parser".to_string()),
                (4, 13, "in main".to_string()),
                (8, 6, String::new()),
                (9, 24, "in Parser.new".to_string()),
            ]
        );
        let news = found("src/main.rs", text, "new");
        assert_eq!(
            news,
            [
                (4, 21, "path Parser, in main".to_string()),
                (9, 8, "def, in Parser".to_string()),
            ]
        );
    }

    #[test]
    fn go_selectors_name_their_package() {
        let text = "package doc\n\nimport \"example.com/cobra\"\n\nfunc Gen(cmd *cobra.Command) {\n\tc := cobra.Command{}\n\t_ = c\n}\n";
        assert_eq!(
            found("doc/a.go", text, "Command"),
            [
                (5, 21, "path cobra, in Gen".to_string()),
                (6, 13, "path cobra, in Gen".to_string()),
            ]
        );
    }

    fn receiver_types(path: &str, text: &str, name: &str) -> Vec<(usize, Option<String>)> {
        occurrences(path, text, name, None)
            .unwrap()
            .into_iter()
            .filter(|o| matches!(o.access, Access::Member { .. }))
            .map(|o| (o.line, o.receiver_type))
            .collect()
    }

    #[test]
    fn receivers_are_typed_by_annotations_constructors_and_go_receivers() {
        let python = "def f(p: Parser, q):\n    p.parse()\n    q.parse()\n    r = mod.Parser()\n    r.parse()\n";
        assert_eq!(
            receiver_types("a.py", python, "parse"),
            [
                (2, Some("Parser".to_string())),
                (3, None),
                (5, Some("Parser".to_string())),
            ]
        );
        let go = "package a\n\nfunc (c *Command) Run() {\n\tc.Execute()\n\td := &Other{}\n\td.Execute()\n}\n";
        assert_eq!(
            receiver_types("a.go", go, "Execute"),
            [
                (4, Some("Command".to_string())),
                (6, Some("Other".to_string()))
            ]
        );
        let ts = "function f() {\n  const k = new Ky(input);\n  return k.fetch();\n}\n";
        assert_eq!(
            receiver_types("a.ts", ts, "fetch"),
            [(3, Some("Ky".to_string()))]
        );
        let rust = "fn f() {\n    let p = Parser::new();\n    p.parse();\n}\n";
        assert_eq!(
            receiver_types("a.rs", rust, "parse"),
            [(3, Some("Parser".to_string()))]
        );
    }

    /// A receiver made by a call: a constructor with its module (`requests.Request(…)`), or a
    /// free function of the file whose declared result or returned constructor says the type,
    /// wherever the function stands in the file; functions returning two types say nothing.
    #[test]
    fn receivers_are_typed_through_calls_and_the_files_functions() {
        let python = "def run():\n    p = make()\n    p.parse()\n    make().parse()\n    mod.Parser(1,\n        2).parse()\n    either().parse()\n\ndef make() -> Parser:\n    return load()\n\ndef either():\n    if x:\n        return Parser()\n    return Lexer()\n";
        assert_eq!(
            receiver_types("a.py", python, "parse"),
            [
                (3, Some("Parser".to_string())),
                (4, Some("Parser".to_string())),
                (6, Some("Parser".to_string())),
                (7, None),
            ]
        );
        let ts = "(new PQueue()).concurrency = 1;\n";
        assert_eq!(
            receiver_types("a.ts", ts, "concurrency"),
            [(1, Some("PQueue".to_string()))]
        );
        let js = "function createProgram() {\n  const p = new commander.Command();\n  return p;\n}\nconst program = createProgram();\nprogram.parseOptions([]);\ncreateProgram().parseOptions([]);\n";
        assert_eq!(
            receiver_types("a.js", js, "parseOptions"),
            [
                (6, Some("Command".to_string())),
                (7, Some("Command".to_string()))
            ]
        );
    }

    /// A named function expression's name is its own definition, not a use.
    #[test]
    fn a_named_function_expression_names_itself() {
        let js = "function handle() {}\nfunction f() {\n  route.all(function handle(req) {});\n  handle();\n}\n";
        let found: Vec<(usize, bool, Option<usize>)> = occurrences("a.js", js, "handle", None)
            .unwrap()
            .into_iter()
            .map(|o| (o.line, o.definition, o.scope))
            .collect();
        // the call in f still means the file's `handle` (no scope binds it)
        assert_eq!(found, [(1, true, None), (3, true, None), (4, false, None)]);
    }

    /// A member whose receiver an import binds to a module of the project carries that
    /// module's name; a package (no `./`) or an unknown receiver carries none.
    #[test]
    fn receivers_bound_to_modules_name_the_module() {
        let modules = |path: &str, text: &str, name: &str| -> Vec<(usize, Option<String>)> {
            occurrences(path, text, name, None)
                .unwrap()
                .into_iter()
                .filter(|o| matches!(o.access, Access::Member { .. }))
                .map(|o| (o.line, o.receiver_module))
                .collect()
        };
        let js = "const u = require('./lib/utils');\nimport * as ns from '../src/index.js';\nconst pkg = require('utils');\nu.f();\nns.f();\npkg.f();\nother.f();\n";
        assert_eq!(
            modules("a.js", js, "f"),
            [
                (4, Some("utils".to_string())),
                (5, Some("src".to_string())),
                (6, None),
                (7, None)
            ]
        );
        let python = "from . import _types as _t\nimport a.b.models as m\n\n_t.f()\nm.f()\n";
        assert_eq!(
            modules("a.py", python, "f"),
            [
                (4, Some("_types".to_string())),
                (5, Some("models".to_string()))
            ]
        );
    }

    /// Attributes of the instance are typed in every method of the file: `self.x = T()`, a
    /// class-level `x: T`, TypeScript fields and parameter properties; two classes typing one
    /// attribute differently leave it unknown.
    #[test]
    fn attributes_of_the_instance_are_typed_across_methods() {
        let python = "class App:\n    parser: Parser\n\n    def __init__(self):\n        self.other = Parser()\n\n    def run(self):\n        self.parser.parse()\n        self.other.parse()\n        self.unknown.parse()\n";
        assert_eq!(
            receiver_types("a.py", python, "parse"),
            [
                (8, Some("Parser".to_string())),
                (9, Some("Parser".to_string())),
                (10, None),
            ]
        );
        let private =
            "class Q {\n  #queue = new Heap();\n  run() {\n    this.#queue.remove(1);\n  }\n}\n";
        assert_eq!(
            receiver_types("a.ts", private, "remove"),
            [(4, Some("Heap".to_string()))]
        );
        let ts = "class Api {\n  private client: Client;\n  other = new Client();\n  constructor(private readonly third: Client, plain: Client) {}\n  go() {\n    this.client.send();\n    this.other.send();\n    this.third.send();\n    this.plain.send();\n  }\n}\n";
        assert_eq!(
            receiver_types("a.ts", ts, "send"),
            [
                (6, Some("Client".to_string())),
                (7, Some("Client".to_string())),
                (8, Some("Client".to_string())),
                (9, None),
            ]
        );
        let module = "p: Parser = load()\n\ndef f():\n    p.parse()\n";
        assert_eq!(
            receiver_types("a.py", module, "parse"),
            [(4, Some("Parser".to_string()))]
        );
        let two = "class A:\n    def __init__(self):\n        self.x = Parser()\n\nclass B:\n    def __init__(self):\n        self.x = Lexer()\n\n    def run(self):\n        self.x.parse()\n";
        assert_eq!(receiver_types("a.py", two, "parse"), [(10, None)]);
    }

    #[test]
    fn a_macro_call_statement_in_c_is_a_use() {
        let text = "static void t(void) {}\nint main(void) {\n    RUN_TEST(t);\n    return 0;\n}\n";
        assert_eq!(
            found("a.c", text, "t"),
            [(1, 13, "def".to_string()), (3, 14, "in main".to_string())]
        );
        let text = "struct abuf { int len; };\nvoid f(void) { struct abuf ab; }\n";
        assert_eq!(
            found("a.c", text, "abuf"),
            [(1, 8, "def".to_string()), (2, 23, "in f".to_string())]
        );
    }

    #[test]
    fn uses_in_one_file_are_capped() {
        let text = "x\n".repeat(MAX_OCCURRENCES_PER_FILE + 10);
        let uses = occurrences("gen.py", &text, "x", None).unwrap();
        assert_eq!(uses.len(), MAX_OCCURRENCES_PER_FILE);
        // a deadline already past stops the walk
        let past = Instant::now();
        assert!(occurrences("gen.py", &text, "x", Some(past)).is_none());
    }

    #[test]
    fn a_deep_file_is_walked_without_recursion() {
        let depth = 20_000;
        let text = format!("x = {}parse{}\n", "[".repeat(depth), "]".repeat(depth));
        let uses = occurrences("deep.py", &text, "parse", None).unwrap();
        assert!(uses.len() <= 1);
    }
}
