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

/// What an identifier can name, by where it stands. Rust's syntax says it (other languages:
/// always `Any`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Names {
    /// Whatever is defined under the name.
    #[default]
    Any,
    /// A macro: `name!(…)`, `crate::name!(…)`.
    Macro,
    /// A module, type, trait or enum: a path's qualifier (`name::x`, `name::y::x`,
    /// `use name::{…}`), never a function.
    Namespace,
    /// A field: `x.name` not called, `Foo { name: … }`, a field pattern; never a function or
    /// a method.
    Field,
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
    /// What it can name, by where it stands.
    pub names: Names,
    /// For a member use whose receiver's type the file alone does not settle, because it is
    /// what a function or method defined elsewhere returns (`c, _ := CreateTestContext(w)`,
    /// `router.Group("/v1").GET`, `program.command('x').option`): how to find it from the
    /// other files' [`result_types`].
    pub receiver_result: Option<TypeOf>,
    /// TypeScript: for the name of a member signature in an interface or an object type
    /// alias (`extend: (o: Options) => KyInstance;` in `type KyInstance = {…}`), that
    /// interface's or alias's name: the type the member is declared by.
    pub signature_of: Option<String>,
}

/// A value's type as far as one file tells it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TypeOf {
    /// A type's last name; empty when the file's sources disagree (unknown).
    Named(String),
    /// What a free function returns: `make_parser()`, or with the module its qualifier names
    /// (a Go package `gin.New()`, a module an import binds `utils.make()`).
    Result {
        function: String,
        module: Option<String>,
    },
    /// What the method `method` returns when called on a `receiver`: `router.Group("/v1")`.
    MethodResult {
        receiver: Box<TypeOf>,
        method: String,
    },
    /// The one base of a class: Python's `super()` in its methods.
    BaseOf(String),
    /// What the attribute or field `field` of a `receiver` holds: `c.engine`, `self.app`.
    FieldOf {
        receiver: Box<TypeOf>,
        field: String,
    },
}

impl TypeOf {
    fn unknown() -> TypeOf {
        TypeOf::Named(String::new())
    }

    /// The type's name, when it is settled.
    pub fn named(&self) -> Option<&str> {
        match self {
            TypeOf::Named(name) if !name.is_empty() => Some(name),
            _ => None,
        }
    }

    /// The names of the functions and methods the type waits on.
    pub fn functions(&self) -> Vec<&str> {
        let mut out = Vec::new();
        let mut current = self;
        loop {
            match current {
                TypeOf::Named(_) => return out,
                TypeOf::BaseOf(class) => {
                    out.push(class.as_str());
                    return out;
                }
                TypeOf::Result { function, .. } => {
                    out.push(function.as_str());
                    return out;
                }
                TypeOf::MethodResult {
                    receiver,
                    method: member,
                }
                | TypeOf::FieldOf {
                    receiver,
                    field: member,
                } => {
                    out.push(member.as_str());
                    current = receiver;
                }
            }
        }
    }
}

/// What a file tells of its functions' results and its classes' bases.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileTypes {
    pub results: Vec<ResultType>,
    /// What the attributes and fields of the file's classes hold (`Class.field`).
    pub fields: Vec<ResultType>,
    /// Each class and what it extends (Python bases, `extends`, Go's embedded struct fields):
    /// a method it does not define is looked up there.
    pub bases: Vec<(String, Vec<String>)>,
}

/// What one function or method of a file returns: `key` is the function's name, or
/// `Class.method` for a method (Go: `Receiver.Method`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultType {
    pub key: String,
    pub result: TypeOf,
}

/// The occurrences of `name` in a file, in source order. `None` for a language without a
/// grammar, a file too large to parse, or a deadline reached.
pub fn occurrences(
    path: &str,
    text: &str,
    name: &str,
    deadline: Option<Instant>,
) -> Option<Vec<Occurrence>> {
    occurrences_and_supertypes(path, text, name, deadline).map(|(found, _)| found)
}

/// A class or interface and the names of what it extends and implements.
pub type Supertypes = (String, Vec<String>);

/// What a JavaScript or TypeScript file tells of its classes and interfaces.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Heritage {
    /// Each class and interface with what it extends and implements.
    pub supertypes: Vec<Supertypes>,
    /// Class, interface and type alias names the file declares more than once (local classes
    /// of test callbacks, one per test): no one of them is meant by the name.
    pub repeated: Vec<String>,
}

/// [`occurrences`], with what each class and interface of the file extends or implements
/// (JavaScript and TypeScript: `class A extends B implements C`, `interface I extends J`),
/// which tells the methods one method overrides or implements.
pub fn occurrences_and_supertypes(
    path: &str,
    text: &str,
    name: &str,
    deadline: Option<Instant>,
) -> Option<(Vec<Occurrence>, Heritage)> {
    let lang = Lang::of_file(path, text)?;
    if name.is_empty() || memchr::memmem::find(text.as_bytes(), name.as_bytes()).is_none() {
        return Some((Vec::new(), Heritage::default()));
    }
    // the parse itself stops at the deadline too
    let stop = || deadline.is_some_and(|d| Instant::now() >= d);
    let tree = crate::parse(lang, text, &stop).ok()?;
    walk(
        lang,
        tree.root_node(),
        text,
        crate::resolve::dir_of(path),
        Some(name),
        deadline,
    )
    .map(|w| {
        let mut supertypes: Vec<Supertypes> = w.supertypes.into_iter().collect();
        supertypes.sort();
        let mut repeated: Vec<String> = w
            .declared
            .into_iter()
            .filter(|(_, count)| *count > 1)
            .map(|(name, _)| name)
            .collect();
        repeated.sort();
        (
            w.occurrences,
            Heritage {
                supertypes,
                repeated,
            },
        )
    })
}

/// What the functions and methods of a file return, as far as the file tells it: a declared
/// result (`-> T`, `): T`, Go's first result, JSDoc's `@return {T}`), `this`/`self` or a
/// `this` result type (the class), a constructor, a typed local, or another function's or
/// method's result, to be looked up further. Functions whose returns disagree, or say
/// nothing, are listed with an unknown type: another file's function of the same name is
/// not them. `None` for a language without a grammar, a file too large, a deadline reached.
pub fn result_types(path: &str, text: &str, deadline: Option<Instant>) -> Option<FileTypes> {
    let lang = Lang::of_file(path, text)?;
    let stop = || deadline.is_some_and(|d| Instant::now() >= d);
    let tree = crate::parse(lang, text, &stop).ok()?;
    let walked = walk(
        lang,
        tree.root_node(),
        text,
        crate::resolve::dir_of(path),
        None,
        deadline,
    )?;
    let file = Settled {
        returns: &walked.returns,
        functions: &walked.functions,
        fields: &walked.fields,
        constraints: &walked.constraints,
    };
    let mut out: Vec<ResultType> = walked
        .returns
        .iter()
        .map(|(key, result)| ResultType {
            key: key.clone(),
            result: settle_type(result, &file, 0),
        })
        .collect();
    out.extend(
        walked
            .functions
            .iter()
            .filter(|f| !walked.returns.contains_key(*f))
            .map(|f| ResultType {
                key: f.clone(),
                result: TypeOf::unknown(),
            }),
    );
    out.sort_by(|a, b| a.key.cmp(&b.key));
    let mut bases: Vec<(String, Vec<String>)> = walked.bases.clone().into_iter().collect();
    bases.sort();
    let mut fields: Vec<ResultType> = walked
        .fields
        .iter()
        .map(|(key, held)| ResultType {
            key: key.clone(),
            result: settle_type(held, &file, 0),
        })
        .collect();
    fields.sort_by(|a, b| a.key.cmp(&b.key));
    Some(FileTypes {
        results: out,
        fields,
        bases,
    })
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
    /// Where the occurrence starts (a byte offset).
    at: usize,
    /// A binding: where it starts to be seen. A Rust `let` binds after its statement (`let
    /// dirname = dirname(path);` calls the outer `dirname`); other bindings from the start
    /// of their function (as Python decides).
    seen_from: usize,
    /// A member use's receiver type, before the file's functions' results are known.
    receiver: Option<TypeOf>,
}

const DEADLINE_CHECK_NODES: usize = 4096;

/// Uses kept per file: a generated file with a million uses of one name gives this many (the
/// answer shows at most a thousand a page anyway), and memory stays bounded.
pub const MAX_OCCURRENCES_PER_FILE: usize = 100_000;

/// What a walk gives: the name's occurrences (none when no name is asked), and what the
/// file's functions return.
struct Walked {
    occurrences: Vec<Occurrence>,
    /// Return key (`f`, `Class.m`) -> what it returns (unknown when its returns disagree).
    returns: HashMap<String, TypeOf>,
    /// The return keys of every function and method the file defines.
    functions: std::collections::HashSet<String>,
    /// Class -> what it extends.
    bases: HashMap<String, Vec<String>>,
    /// `Class.field` -> what the attribute or field holds.
    fields: HashMap<String, TypeOf>,
    /// JavaScript and TypeScript: class or interface -> what it extends and implements.
    supertypes: HashMap<String, Vec<String>>,
    /// JavaScript and TypeScript: class, interface or type alias name -> its declarations.
    declared: HashMap<String, usize>,
    /// TypeScript: type parameter -> its constraint's type (see [`Settled::constraints`]).
    constraints: HashMap<String, String>,
}

/// Links of a receiver chain followed (`a.b().c().d()`): more says nothing useful and would
/// let a generated chain cost its length squared.
const MAX_CHAIN: usize = 12;

/// Names longer than this are not kept in a type (generated code).
const MAX_TYPE_NAME_CHARS: usize = 200;

/// What the walk knows where it stands, to type an expression.
struct Known<'a> {
    lang: Lang,
    src: &'a str,
    frames: &'a [Frame],
    types: &'a HashMap<(usize, String), TypeOf>,
    modules: &'a HashMap<String, String>,
    /// The default imports among `modules`.
    defaults: &'a HashMap<String, String>,
}

impl Known<'_> {
    /// A variable's type in the innermost scope that types it.
    fn variable(&self, name: &str) -> Option<&TypeOf> {
        self.frames
            .iter()
            .rev()
            .filter(|f| f.function)
            .map(|f| f.start_byte)
            .chain(std::iter::once(FILE_LEVEL))
            .find_map(|scope| self.types.get(&(scope, name.to_string())))
    }

    /// The class of the innermost method (what `this`/`self` is).
    fn own_class(&self) -> Option<String> {
        let at = self.frames.iter().rposition(|f| f.function)?;
        class_of_method(&self.frames[..at], &self.frames[at].name)
    }

    /// The type of the expression `value`: a constructor, a typed variable, `this`/`self`,
    /// what a call of a function or method returns (`make()`, `pkg.New()`, `x.m()`), `x as T`.
    fn type_of(&self, value: Node<'_>, depth: usize) -> Option<TypeOf> {
        if depth > MAX_CHAIN {
            return None;
        }
        let text_of = |n: Node<'_>| {
            let text = self.src.get(n.byte_range()).unwrap_or("").trim();
            (!text.is_empty() && text.chars().count() <= MAX_TYPE_NAME_CHARS)
                .then(|| text.to_string())
        };
        // Go calls are never constructors (`NewParser()`, `CreateTestContext()` are
        // functions; Go builds values with literals: `&Parser{}`)
        let go_call = self.lang == Lang::Go && value.kind() == "call_expression";
        if !go_call && let Some(constructed) = constructed_type(value, self.src) {
            // Rust's `Self::new()`, `Self { … }`: the type of the `impl` around
            if constructed == "Self" {
                return self.own_class().map(TypeOf::Named);
            }
            return Some(TypeOf::Named(constructed));
        }
        match value.kind() {
            "await" | "await_expression" | "parenthesized_expression" | "non_null_expression" => {
                self.type_of(value.named_child(0)?, depth + 1)
            }
            "as_expression" | "satisfies_expression" => {
                type_name(self.src.get(value.named_child(1)?.byte_range())?).map(TypeOf::Named)
            }
            // Rust: `make()?` has the type `make` is declared to give after its `Result` or
            // `Option` (see `declared_result`); `&x`, `&mut x` the type of `x`
            "try_expression" => self.type_of(value.named_child(0)?, depth + 1),
            "reference_expression" => self.type_of(value.child_by_field_name("value")?, depth + 1),
            "this" => self.own_class().map(TypeOf::Named),
            "self" if self.lang == Lang::Rust => self.own_class().map(TypeOf::Named),
            "identifier" if self.lang == Lang::Python && text_of(value)? == "self" => {
                self.own_class().map(TypeOf::Named)
            }
            "identifier" => {
                let name = text_of(value)?;
                self.variable(&name).cloned().or_else(|| {
                    // a default import is what the module exports as its default
                    self.defaults.get(&name).map(|module| TypeOf::Result {
                        function: DEFAULT_EXPORT.to_string(),
                        module: Some(module.clone()),
                    })
                })
            }
            // `self.parser` typed in the file, or the field of a typed value: `c.engine`
            "attribute" | "member_expression" | "selector_expression" | "field_expression" => {
                // (two classes of the file that type `self.x` differently: the class's own)
                if let Some(known) = self
                    .variable(&text_of(value)?)
                    .filter(|k| !matches!(k, TypeOf::Named(n) if n.is_empty()))
                {
                    return Some(known.clone());
                }
                let object = value
                    .child_by_field_name("object")
                    .or_else(|| value.child_by_field_name("operand"))
                    .or_else(|| value.child_by_field_name("value"))?;
                let field = value
                    .child_by_field_name("property")
                    .or_else(|| value.child_by_field_name("attribute"))
                    .or_else(|| value.child_by_field_name("field"))?;
                let receiver = self.type_of(object, depth + 1)?;
                if matches!(&receiver, TypeOf::Named(n) if n.is_empty()) {
                    return None;
                }
                Some(TypeOf::FieldOf {
                    receiver: Box::new(receiver),
                    field: text_of(field)?,
                })
            }
            "call" | "call_expression" => {
                let function = value.child_by_field_name("function")?;
                match function.kind() {
                    "identifier" if self.lang == Lang::Python && text_of(function)? == "super" => {
                        self.own_class().map(TypeOf::BaseOf)
                    }
                    "identifier" => Some(TypeOf::Result {
                        function: text_of(function)?,
                        module: None,
                    }),
                    "member_expression"
                    | "attribute"
                    | "selector_expression"
                    | "field_expression" => {
                        let object = function
                            .child_by_field_name("object")
                            .or_else(|| function.child_by_field_name("operand"))
                            .or_else(|| function.child_by_field_name("value"))?;
                        let method = function
                            .child_by_field_name("property")
                            .or_else(|| function.child_by_field_name("attribute"))
                            .or_else(|| function.child_by_field_name("field"))?;
                        let method = text_of(method)?;
                        if object.kind() == "identifier" {
                            let name = text_of(object)?;
                            // `ky.create()` with `import ky from './index.js'`: a method
                            // of the module's default export (or, when that is not
                            // typed, a function of the module: `export default { make }`)
                            if let Some(module) = self.defaults.get(&name)
                                && self.variable(&name).is_none()
                            {
                                return Some(TypeOf::MethodResult {
                                    receiver: Box::new(TypeOf::Result {
                                        function: DEFAULT_EXPORT.to_string(),
                                        module: Some(module.clone()),
                                    }),
                                    method,
                                });
                            }
                            // `utils.make()`: a function of a module an import binds
                            if let Some(module) = self.modules.get(&name) {
                                return Some(TypeOf::Result {
                                    function: method,
                                    module: Some(module.clone()),
                                });
                            }
                            // Go: `gin.New()`, a package's function (no variable is named so)
                            if self.lang == Lang::Go && self.variable(&name).is_none() {
                                return Some(TypeOf::Result {
                                    function: method,
                                    module: Some(name),
                                });
                            }
                        }
                        let receiver = self.type_of(object, depth + 1)?;
                        if matches!(&receiver, TypeOf::Named(n) if n.is_empty()) {
                            return None;
                        }
                        // Rust: a declared `Result<T, E>`/`Option<T>` is typed as T already, and
                        // a clone is of the same type
                        if self.lang == Lang::Rust
                            && matches!(
                                method.as_str(),
                                "unwrap" | "expect" | "unwrap_or_default" | "clone"
                            )
                        {
                            return Some(receiver);
                        }
                        Some(TypeOf::MethodResult {
                            receiver: Box::new(receiver),
                            method,
                        })
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// A class and what it extends: Python's bases, JavaScript's and TypeScript's `extends`, a
/// Go struct's embedded fields (`type Engine struct { RouterGroup; … }`).
fn class_bases<'t>(node: Node<'t>, src: &str) -> Option<(String, Vec<String>)> {
    let text_of = |n: Node<'_>| src.get(n.byte_range()).unwrap_or("");
    fn children<'t>(n: Node<'t>) -> Vec<Node<'t>> {
        (0..n.named_child_count())
            .filter_map(|i| n.named_child(i as u32))
            .collect()
    }
    let mut out = Vec::new();
    match node.kind() {
        "class_definition" => {
            for base in node
                .child_by_field_name("superclasses")
                .map(children)
                .unwrap_or_default()
            {
                if matches!(base.kind(), "identifier" | "attribute") {
                    out.extend(type_name(text_of(base)));
                }
            }
        }
        "class_declaration" | "class" | "abstract_class_declaration" => {
            for heritage in children(node)
                .into_iter()
                .filter(|c| c.kind() == "class_heritage")
            {
                for clause in children(heritage) {
                    match clause.kind() {
                        "extends_clause" => out.extend(
                            children(clause)
                                .into_iter()
                                .filter(|v| v.kind() != "type_arguments")
                                .filter_map(|v| type_name(text_of(v))),
                        ),
                        "implements_clause" => {}
                        _ => out.extend(type_name(text_of(clause))),
                    }
                }
            }
        }
        "type_spec" => {
            let fields = node
                .child_by_field_name("type")
                .filter(|t| t.kind() == "struct_type")
                .map(children)
                .unwrap_or_default();
            for list in fields
                .into_iter()
                .filter(|c| c.kind() == "field_declaration_list")
            {
                for field in children(list) {
                    if field.kind() == "field_declaration"
                        && field.child_by_field_name("name").is_none()
                        && let Some(embedded) = field.child_by_field_name("type")
                    {
                        out.extend(type_name(text_of(embedded)));
                    }
                }
            }
        }
        _ => return None,
    }
    let name = type_name(text_of(node.child_by_field_name("name")?))?;
    (!out.is_empty()).then_some((name, out))
}

/// JavaScript and TypeScript: a class and what it extends and implements (`class A extends
/// B<T> implements C, D`), or an interface and the interfaces it extends.
fn supertypes_of(node: Node<'_>, src: &str) -> Option<(String, Vec<String>)> {
    let text_of = |n: Node<'_>| src.get(n.byte_range()).unwrap_or("");
    fn children<'t>(n: Node<'t>) -> Vec<Node<'t>> {
        (0..n.named_child_count())
            .filter_map(|i| n.named_child(i as u32))
            .collect()
    }
    let clauses: Vec<Node<'_>> = match node.kind() {
        "class_declaration" | "class" | "abstract_class_declaration" => children(node)
            .into_iter()
            .filter(|c| c.kind() == "class_heritage")
            .flat_map(children)
            .collect(),
        "interface_declaration" => children(node)
            .into_iter()
            .filter(|c| c.kind() == "extends_type_clause")
            .collect(),
        _ => return None,
    };
    let mut out = Vec::new();
    for clause in clauses {
        match clause.kind() {
            "extends_clause" | "implements_clause" | "extends_type_clause" => out.extend(
                children(clause)
                    .into_iter()
                    .filter(|v| v.kind() != "type_arguments")
                    .filter_map(|v| type_name(text_of(v))),
            ),
            // JavaScript's `class A extends B`: the expression itself
            _ => out.extend(type_name(text_of(clause))),
        }
    }
    let name = type_name(text_of(node.child_by_field_name("name")?))?;
    (!out.is_empty()).then_some((name, out))
}

/// A JSDoc comment's `@param {T} name` pairs (`[name]`, `name=default`, `options.x` skipped).
fn jsdoc_params(doc: &str) -> Vec<(&str, &str)> {
    doc.match_indices("@param")
        .filter_map(|(at, _)| {
            let rest = doc[at + "@param".len()..].trim_start();
            let (type_text, rest) = rest.strip_prefix('{')?.split_once('}')?;
            let name = rest
                .trim_start()
                .trim_start_matches('[')
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                .next()?;
            let after = rest
                .trim_start()
                .trim_start_matches('[')
                .get(name.len()..)?;
            (!name.is_empty() && !after.starts_with('.')).then_some((name, type_text.trim()))
        })
        .collect()
}

/// The key a function's results are noted under (given the frames around it): its name for
/// a free function, `Class.method` for a method directly in a class; `None` for a function
/// nested in a method or a lambda in a class body.
fn return_key(outer: &[Frame], name: &str) -> Option<String> {
    if name.is_empty() {
        return None;
    }
    if outer.iter().all(Frame::not_a_class) {
        return Some(name.to_string());
    }
    class_of_method(outer, name).map(|class| format!("{class}.{name}"))
}

/// The class a method `name` (with the frames around it) belongs to: the frame just around
/// it, when that is a named class; a Go method's receiver type.
fn class_of_method(outer: &[Frame], name: &str) -> Option<String> {
    match outer.last() {
        Some(class) if !class.function && !class.name.is_empty() => Some(class.name.clone()),
        _ if outer.iter().all(Frame::not_a_class) => name
            .split_once('.')
            .map(|(receiver, _)| receiver.to_string()),
        _ => None,
    }
}

/// A function's declared result: `-> T`, `): T` (`this`/`Self`: the class), Go's result (the
/// first of several), or, in JavaScript and TypeScript, a JSDoc `@return {T}` just before it.
fn declared_result(
    node: Node<'_>,
    src: &str,
    class: Option<&str>,
    jsdoc: Option<&str>,
) -> Option<String> {
    let declared = node
        .child_by_field_name("return_type")
        .or_else(|| node.child_by_field_name("result"))
        .and_then(|t| {
            // Go `(c *Context, r *Engine)`: the first result's type
            let t = if t.kind() == "parameter_list" {
                let first = t.named_child(0)?;
                first.child_by_field_name("type").unwrap_or(first)
            } else {
                t
            };
            src.get(t.byte_range())
        })
        .map(|t| {
            t.trim_start_matches(':')
                .trim()
                .trim_matches(['"', '\''])
                .to_string()
        })
        .or_else(|| {
            let doc = jsdoc?;
            let at = doc.find("@returns").or_else(|| doc.find("@return"))?;
            let rest = doc[at..].split_once('{')?.1;
            Some(rest.split_once('}')?.0.trim().to_string())
        })?;
    match declared.as_str() {
        "this" | "Self" | "Self@" => class.map(str::to_string),
        _ => match type_name(&declared)?.as_str() {
            // Rust `-> &mut Self`
            "Self" => class.map(str::to_string),
            // Rust `-> Result<T, E>`, `-> Option<T>`, `-> io::Result<T>`: a caller reaches T
            // through `?` (or `unwrap`), which is how a receiver is made from it
            "Result" | "Option" if declared.contains('<') => {
                let inner = declared.split_once('<')?.1;
                let inner = inner.split(',').next()?.trim_end_matches('>').trim();
                match type_name(inner)?.as_str() {
                    "Self" => class.map(str::to_string),
                    other => Some(other.to_string()),
                }
            }
            other => Some(other.to_string()),
        },
    }
}

fn walk(
    lang: Lang,
    root: Node<'_>,
    src: &str,
    dir: &str,
    name: Option<&str>,
    deadline: Option<Instant>,
) -> Option<Walked> {
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', src.as_bytes()).map(|i| i + 1))
        .collect();
    let mut frames: Vec<Frame> = Vec::new();
    // import statements the cursor is inside: (node id, 1-based start line)
    let mut imports: Vec<(usize, usize)> = Vec::new();
    let mut pending: Vec<Pending> = Vec::new();
    // (function start byte or FILE_LEVEL, variable) -> its type
    let mut types: HashMap<(usize, String), TypeOf> = HashMap::new();
    // return key (`f`, `Class.m`) -> what it returns (unknown when its returns disagree)
    let mut returns: HashMap<String, TypeOf> = HashMap::new();
    let mut functions: std::collections::HashSet<String> = std::collections::HashSet::new();
    // the functions with a declared result: what their bodies return does not overrule it
    let mut declared_keys: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut bases: HashMap<String, Vec<String>> = HashMap::new();
    let mut supertypes: HashMap<String, Vec<String>> = HashMap::new();
    let mut declared: HashMap<String, usize> = HashMap::new();
    let mut with_heritage: HashMap<String, usize> = HashMap::new();
    let mut constraints: HashMap<String, String> = HashMap::new();
    let mut fields: HashMap<String, TypeOf> = HashMap::new();
    // variables typed by a node, set when the walk leaves it: (node id, key, type)
    let mut deferred_types: Vec<(usize, (usize, String), TypeOf)> = Vec::new();
    // names bound to a module of the project by an import or a `require` -> the module's name
    let mut modules: HashMap<String, String> = HashMap::new();
    // of those, the default imports (`import ky from './index.js'`): the module's default
    // export, not the module
    let mut defaults: HashMap<String, String> = HashMap::new();
    // TypeScript: (scope, variable) -> the type a one-argument wrapper annotation wraps
    // (`const ky: Partial<Mutable<KyInstance>>` -> `KyInstance`): whose members an
    // assignment `ky.extend = …` defines
    let mut owners: HashMap<(usize, String), String> = HashMap::new();
    // the end byte of the last JSDoc comment (`/** … */`) and its text
    let mut last_doc: Option<(usize, Node<'_>)> = None;
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
            if matches!(lang, Lang::JavaScript | Lang::TypeScript | Lang::Tsx) {
                // a name declared again (a local class per test) keeps one list when every
                // declaration says the same, else none
                if let Some((class, above)) = supertypes_of(node, src) {
                    *with_heritage.entry(class.clone()).or_default() += 1;
                    match supertypes.get(&class) {
                        Some(before) if *before != above => {
                            supertypes.insert(class, Vec::new());
                        }
                        Some(_) => {}
                        None => {
                            supertypes.insert(class, above);
                        }
                    }
                }
                if matches!(
                    kind,
                    "class_declaration"
                        | "class"
                        | "abstract_class_declaration"
                        | "interface_declaration"
                        | "type_alias_declaration"
                ) && let Some(class) = node
                    .child_by_field_name("name")
                    .and_then(|n| src.get(n.byte_range()))
                {
                    *declared.entry(class.to_string()).or_default() += 1;
                }
            }
            if let Some((class, extends)) = class_bases(node, src) {
                bases.insert(class, extends);
            }
            if kind == "comment"
                && matches!(lang, Lang::JavaScript | Lang::TypeScript | Lang::Tsx)
                && src
                    .get(node.byte_range())
                    .is_some_and(|c| c.starts_with("/**"))
            {
                last_doc = Some((node.end_byte(), node));
            }
            // a Rust trait's method without a body (`fn visit(&mut self) -> WalkState;`): what
            // a call through the trait (`dyn Trait`, `impl Trait`) gives
            if kind == "function_signature_item"
                && let Some(method) = node
                    .child_by_field_name("name")
                    .and_then(|n| src.get(n.byte_range()))
                && let Some(key) = return_key(&frames, method)
            {
                let class = class_of_method(&frames, method);
                if let Some(declared) = declared_result(node, src, class.as_deref(), None) {
                    note_return(&mut returns, &key, TypeOf::Named(declared));
                    declared_keys.insert(key.clone());
                }
                functions.insert(key);
            }
            if let Some((function, frame_name)) = frame_of(lang, node, src, &ancestors) {
                // a JSDoc comment just before the function (or the statement binding it:
                // `const f = function`, `X.prototype.y = function`)
                let jsdoc = last_doc
                    .filter(|(end, _)| {
                        function
                            && src.get(*end..node.start_byte()).is_some_and(|between| {
                                between.len() < 200 && !between.contains([';', '{', '}', '(', ')'])
                            })
                    })
                    .and_then(|(_, doc)| src.get(doc.byte_range()));
                let key = if function {
                    return_key(&frames, &frame_name)
                } else {
                    None
                };
                if let Some(key) = &key {
                    let class = class_of_method(&frames, &frame_name);
                    if let Some(declared) = declared_result(node, src, class.as_deref(), jsdoc) {
                        note_return(&mut returns, key, TypeOf::Named(declared));
                        declared_keys.insert(key.clone());
                    }
                    functions.insert(key.clone());
                }
                // JSDoc `@param {Help} helper`: the parameter's type
                for (parameter, type_text) in jsdoc.map(jsdoc_params).unwrap_or_default() {
                    if let Some(found) = type_name(type_text) {
                        types.insert(
                            (node.start_byte(), parameter.to_string()),
                            TypeOf::Named(found),
                        );
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
                // `(x) => make(x)`: an arrow's expression body is what it returns
                if let Some(key) = key
                    && !declared_keys.contains(&key)
                    && node.kind() == "arrow_function"
                    && let Some(body) = node
                        .child_by_field_name("body")
                        .filter(|b| b.kind() != "statement_block")
                {
                    let known = Known {
                        lang,
                        src,
                        frames: &frames,
                        types: &types,
                        modules: &modules,
                        defaults: &defaults,
                    };
                    if let Some(returned) = known.type_of(body, 0) {
                        note_return(&mut returns, &key, returned);
                    }
                }
            }
            let known = Known {
                lang,
                src,
                frames: &frames,
                types: &types,
                modules: &modules,
                defaults: &defaults,
            };
            // `return Parser(...)`, `return new Parser()`, `return this`, `return make()`: what
            // the function around returns (or a local typed so: `p = Parser(); …; return p`)
            if matches!(kind, "return_statement" | "return_expression")
                && let Some(value) = node.named_child(0)
                && let Some(at) = frames.iter().rposition(|f| f.function)
                && let Some(key) = return_key(&frames[..at], &frames[at].name)
                && !declared_keys.contains(&key)
                && let Some(returned) = known.type_of(value, 0)
            {
                note_return(&mut returns, &key, returned);
            }
            // a class's own attributes, for the files that reach them (`c.engine`, `app.json`)
            let class_here = known.own_class().or_else(|| {
                frames
                    .last()
                    .filter(|f| !f.not_a_class())
                    .map(|f| f.name.clone())
            });
            for (variable, found) in note_type(node, &known) {
                if variable.0 == FILE_LEVEL
                    && let Some(class) = &class_here
                    && let Some(field) = variable
                        .1
                        .strip_prefix("self.")
                        .or_else(|| variable.1.strip_prefix("this."))
                {
                    note_return(&mut fields, &format!("{class}.{field}"), found.clone());
                }
                // an assignment types its variable once its value is walked: `r = s.send(
                // r.prepare())` reads the `r` from before
                deferred_types.push((node.id(), variable, found));
            }
            // Go struct fields: `type Context struct { engine *Engine }`
            if kind == "field_declaration"
                && lang == Lang::Go
                && let [.., spec, _, _] = ancestors.as_slice()
                && spec.kind() == "type_spec"
                && let Some(class) = spec
                    .child_by_field_name("name")
                    .and_then(|n| src.get(n.byte_range()))
                && let Some(held) = node
                    .child_by_field_name("type")
                    .and_then(|t| type_name(src.get(t.byte_range())?))
            {
                for i in 0..node.named_child_count() {
                    if let Some(name) = node.named_child(i as u32)
                        && name.kind() == "field_identifier"
                        && let Some(field) = src.get(name.byte_range())
                    {
                        note_return(
                            &mut fields,
                            &format!("{class}.{field}"),
                            TypeOf::Named(held.clone()),
                        );
                    }
                }
            }
            if matches!(lang, Lang::TypeScript | Lang::Tsx) {
                // `class PQueue<QueueType extends Queue<…>>`: a value of the type parameter has
                // the constraint's members
                if kind == "type_parameter"
                    && let Some(parameter) = node
                        .child_by_field_name("name")
                        .and_then(|n| src.get(n.byte_range()))
                    && let Some(bound) = node
                        .child_by_field_name("constraint")
                        .and_then(|c| c.named_child(0))
                        .and_then(|t| src.get(t.byte_range()))
                        .and_then(type_name)
                {
                    match constraints.get(parameter) {
                        Some(before) if *before != bound => {
                            constraints.insert(parameter.to_string(), String::new());
                        }
                        Some(_) => {}
                        None => {
                            constraints.insert(parameter.to_string(), bound);
                        }
                    }
                }
                // an interface's or object type alias's members: `create: (o?: Options) =>
                // KyInstance;`, `get(): T;` return; `response: KyResponse;` holds
                if matches!(kind, "property_signature" | "method_signature")
                    && let Some(owner) = type_of_members(&ancestors, src)
                    && let Some(member) = node
                        .child_by_field_name("name")
                        .and_then(|n| src.get(n.byte_range()))
                {
                    let key = format!("{owner}.{member}");
                    let declared = node
                        .child_by_field_name("type")
                        .and_then(|t| t.named_child(0));
                    match declared {
                        Some(function_type) if function_type.kind() == "function_type" => {
                            if let Some(result) =
                                declared_result(function_type, src, Some(&owner), None)
                            {
                                note_return(&mut returns, &key, TypeOf::Named(result));
                                declared_keys.insert(key.clone());
                            }
                            functions.insert(key);
                        }
                        Some(held) => {
                            if let Some(held) = src.get(held.byte_range()).and_then(type_name) {
                                note_return(&mut fields, &key, TypeOf::Named(held));
                            }
                        }
                        None if kind == "method_signature" => {
                            if let Some(result) = declared_result(node, src, Some(&owner), None) {
                                note_return(&mut returns, &key, TypeOf::Named(result));
                                declared_keys.insert(key.clone());
                            }
                            functions.insert(key);
                        }
                        None => {}
                    }
                }
                // `const ky: Partial<Mutable<KyInstance>> = …`, `(x: Readonly<T>)`
                if matches!(
                    kind,
                    "variable_declarator" | "required_parameter" | "optional_parameter"
                ) && let Some(variable) = node
                    .child_by_field_name("name")
                    .or_else(|| node.child_by_field_name("pattern"))
                    .filter(|n| n.kind() == "identifier")
                    .and_then(|n| src.get(n.byte_range()))
                    && let Some(owner) = node
                        .child_by_field_name("type")
                        .and_then(|t| src.get(t.byte_range()))
                        .and_then(wrapped_type)
                {
                    let scope = frames
                        .iter()
                        .rev()
                        .find(|f| f.function)
                        .map_or(FILE_LEVEL, |f| f.start_byte);
                    owners.insert((scope, variable.to_string()), owner);
                }
            }
            // `export default ky;`: the type of what the module exports as its default
            if kind == "export_statement"
                && matches!(lang, Lang::JavaScript | Lang::TypeScript | Lang::Tsx)
                && let Some(value) = node.child_by_field_name("value")
                && let Some(exported) = known.type_of(value, 0)
            {
                note_return(&mut returns, DEFAULT_EXPORT, exported);
                functions.insert(DEFAULT_EXPORT.to_string());
            }
            note_module(node, src, dir, &mut modules, &mut defaults);
            if node.child_count() == 0
                && is_identifier(kind)
                && name.is_some()
                && src.get(node.byte_range()) == name
                && pending.len() < MAX_OCCURRENCES_PER_FILE
            {
                let mut found = occurrence(
                    lang,
                    node,
                    src,
                    &line_starts,
                    &mut last_column,
                    &frames,
                    &ancestors,
                    imports.last().map(|(_, line)| *line),
                );
                if let Access::Member { receiver } = &found.occurrence.access {
                    let known = Known {
                        lang,
                        src,
                        frames: &frames,
                        types: &types,
                        modules: &modules,
                        defaults: &defaults,
                    };
                    found.receiver = known.variable(receiver).cloned().or_else(|| {
                        // `Parser(...).parse()`, `make_parser().parse()`, `x.m().parse()`
                        receiver_node(node, &ancestors).and_then(|r| known.type_of(r, 0))
                    });
                    found.occurrence.receiver_module = modules.get(receiver).cloned();
                    // `ky.extend = …` on `const ky: Partial<Mutable<KyInstance>>`: the member
                    // is the wrapped type's
                    let assigned = matches!(ancestors.as_slice(), [.., assignment, member]
                        if assignment.kind() == "assignment_expression"
                            && field_is(*assignment, "left", *member));
                    if assigned
                        && let Some(owner) = frames
                            .iter()
                            .rev()
                            .filter(|f| f.function)
                            .map(|f| f.start_byte)
                            .chain(std::iter::once(FILE_LEVEL))
                            .find_map(|scope| owners.get(&(scope, receiver.clone())))
                    {
                        found.receiver = Some(TypeOf::Named(owner.clone()));
                    }
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
            while deferred_types
                .last()
                .is_some_and(|(id, _, _)| *id == leaving)
            {
                if let Some((_, variable, found)) = deferred_types.pop() {
                    types.insert(variable, found);
                }
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                // a name declared more often than with an `extends`/`implements`: unknown
                for (class, above) in supertypes.iter_mut() {
                    let declarations = declared.get(class).copied().unwrap_or(1);
                    if declarations > 1
                        && with_heritage.get(class).copied().unwrap_or(0) != declarations
                    {
                        above.clear();
                    }
                }
                supertypes.retain(|_, above| !above.is_empty());
                let occurrences = settle(
                    pending,
                    &Settled {
                        returns: &returns,
                        functions: &functions,
                        fields: &fields,
                        constraints: &constraints,
                    },
                );
                return Some(Walked {
                    occurrences,
                    returns,
                    functions,
                    bases,
                    fields,
                    supertypes,
                    declared,
                    constraints,
                });
            }
            ancestors.pop();
        }
    }
}

/// `found` with what the file's own functions return put in: a call of a function the file
/// defines becomes its result; a call of another file's function stays to be looked up.
fn settle_type(found: &TypeOf, file: &Settled<'_>, depth: usize) -> TypeOf {
    if depth > MAX_CHAIN {
        return TypeOf::unknown();
    }
    let local = |map: &HashMap<String, TypeOf>, key: &str, defined: bool| -> Option<TypeOf> {
        match map.get(key) {
            Some(result) => Some(settle_type(result, file, depth + 1)),
            // defined here without a known result: not another file's function
            None if defined => Some(TypeOf::unknown()),
            None => None,
        }
    };
    match found {
        TypeOf::Named(name) => match file.constraints.get(name) {
            Some(bound) if !bound.is_empty() => TypeOf::Named(bound.clone()),
            _ => found.clone(),
        },
        TypeOf::BaseOf(_) => found.clone(),
        TypeOf::Result {
            function,
            module: None,
        } => local(file.returns, function, file.functions.contains(function))
            .unwrap_or_else(|| found.clone()),
        TypeOf::Result { .. } => found.clone(),
        TypeOf::MethodResult { receiver, method } => match settle_type(receiver, file, depth + 1) {
            TypeOf::Named(class) if class.is_empty() => TypeOf::unknown(),
            TypeOf::Named(class) => {
                let key = format!("{class}.{method}");
                local(file.returns, &key, file.functions.contains(&key)).unwrap_or_else(|| {
                    TypeOf::MethodResult {
                        receiver: Box::new(TypeOf::Named(class)),
                        method: method.clone(),
                    }
                })
            }
            other => TypeOf::MethodResult {
                receiver: Box::new(other),
                method: method.clone(),
            },
        },
        TypeOf::FieldOf { receiver, field } => match settle_type(receiver, file, depth + 1) {
            TypeOf::Named(class) if class.is_empty() => TypeOf::unknown(),
            TypeOf::Named(class) => local(file.fields, &format!("{class}.{field}"), false)
                .unwrap_or_else(|| TypeOf::FieldOf {
                    receiver: Box::new(TypeOf::Named(class)),
                    field: field.clone(),
                }),
            other => TypeOf::FieldOf {
                receiver: Box::new(other),
                field: field.clone(),
            },
        },
    }
}

/// What a file says of its functions and attributes, to settle types with.
struct Settled<'a> {
    returns: &'a HashMap<String, TypeOf>,
    functions: &'a std::collections::HashSet<String>,
    fields: &'a HashMap<String, TypeOf>,
    /// TypeScript: a type parameter -> the type its constraint names (`QueueType extends
    /// Queue<…>`); empty when two type parameters of the name are bound differently.
    constraints: &'a HashMap<String, String>,
}

/// Each bare use's scope: the innermost function around it that binds the name before it
/// (anywhere in its body, as Python decides; in Rust after a `let`'s statement; a use before
/// a `let` in JavaScript is rare enough). Each member use's receiver type, with what the
/// file's functions return.
fn settle(pending: Vec<Pending>, file: &Settled<'_>) -> Vec<Occurrence> {
    // function -> where its bindings of the name start to be seen, the earliest
    let mut binding: HashMap<usize, usize> = HashMap::new();
    for p in pending.iter().filter(|p| p.binds) {
        if let Some(function) = p.functions.last() {
            let from = binding.entry(*function).or_insert(p.seen_from);
            *from = (*from).min(p.seen_from);
        }
    }
    pending
        .into_iter()
        .map(|p| {
            let mut occurrence = p.occurrence;
            if let Some(receiver) = &p.receiver {
                match settle_type(receiver, file, 0) {
                    TypeOf::Named(name) => {
                        occurrence.receiver_type = (!name.is_empty()).then_some(name);
                    }
                    other => occurrence.receiver_result = Some(other),
                }
            }
            if occurrence.access == Access::Bare || occurrence.definition {
                occurrence.scope = p
                    .functions
                    .iter()
                    .rev()
                    .find(|f| {
                        binding
                            .get(f)
                            .is_some_and(|from| occurrence.definition || *from <= p.at)
                    })
                    .copied();
            }
            occurrence
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn occurrence(
    lang: Lang,
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
            names: if lang == Lang::Rust {
                rust_names(node, ancestors)
            } else {
                Names::Any
            },
            receiver_result: None,
            signature_of: signature_owner(node, ancestors, src),
        },
        functions,
        binds: binding,
        at: node.start_byte(),
        seen_from: if binding && lang == Lang::Rust {
            rust_let_end(ancestors).unwrap_or(0)
        } else {
            0
        },
        receiver: None,
    }
}

/// TypeScript: the interface or object type alias whose member signature `node` names
/// (`extend` in `type KyInstance = { extend: (…) => KyInstance }`, `run` in `interface
/// Internals { run(): void }`).
fn signature_owner<'t>(node: Node<'t>, ancestors: &[Node<'t>], src: &str) -> Option<String> {
    let (signature, above) = ancestors.split_last()?;
    if !matches!(signature.kind(), "property_signature" | "method_signature")
        || !field_is(*signature, "name", node)
    {
        return None;
    }
    type_of_members(above, src)
}

/// The interface or object type alias a member signature sits directly in, given the nodes
/// above the signature (root first): `type A = { … }`, `type A = B & { … }`, `interface A {
/// … }`. A type literal elsewhere (a parameter's `{ x: number }`) is no named type.
fn type_of_members(above: &[Node<'_>], src: &str) -> Option<String> {
    for holder in above.iter().rev() {
        match holder.kind() {
            "object_type" | "interface_body" | "intersection_type" | "parenthesized_type" => {}
            "type_alias_declaration" | "interface_declaration" => {
                return holder
                    .child_by_field_name("name")
                    .and_then(|n| src.get(n.byte_range()))
                    .map(str::to_string);
            }
            _ => return None,
        }
    }
    None
}

/// The end of the `let` statement a Rust pattern's name is bound by (its scope starts
/// there); `None` for other bindings (parameters, closures' parameters, `match` arms).
fn rust_let_end(ancestors: &[Node<'_>]) -> Option<usize> {
    for ancestor in ancestors.iter().rev() {
        match ancestor.kind() {
            "let_declaration" => return Some(ancestor.end_byte()),
            "closure_expression" | "closure_parameters" | "function_item" | "block"
            | "match_arm" | "parameters" => return None,
            _ => {}
        }
    }
    None
}

/// What a Rust identifier can name, by its place in the tree.
fn rust_names<'t>(node: Node<'t>, ancestors: &[Node<'t>]) -> Names {
    let scoped = |n: Node<'_>| {
        matches!(
            n.kind(),
            "scoped_identifier" | "scoped_type_identifier" | "scoped_use_list"
        )
    };
    let Some(parent) = parent_of(ancestors, node) else {
        return Names::Any;
    };
    let grandparent = parent_of(ancestors, parent);
    if parent.kind() == "macro_invocation" && field_is(parent, "macro", node) {
        return Names::Macro;
    }
    if scoped(parent) && field_is(parent, "path", node) {
        return Names::Namespace;
    }
    if scoped(parent) && field_is(parent, "name", node) {
        return match grandparent {
            Some(g) if g.kind() == "macro_invocation" && field_is(g, "macro", parent) => {
                Names::Macro
            }
            Some(g) if scoped(g) && field_is(g, "path", parent) => Names::Namespace,
            _ => Names::Any,
        };
    }
    // macro arguments are tokens: what comes after the name tells
    if parent.kind() == "token_tree" {
        let next = node.next_sibling();
        let called = next.is_some_and(|n| {
            n.kind() == "token_tree" && n.child(0).is_some_and(|open| open.kind() == "(")
        });
        return match next.map(|n| n.kind()) {
            Some("!") => Names::Macro,
            Some("::") => Names::Namespace,
            _ if token_before(node) == Some(".") && !called => Names::Field,
            _ => Names::Any,
        };
    }
    if node.kind() == "field_identifier" {
        // `x.name()`, `x.name::<T>()`
        let called = grandparent.is_some_and(|g| {
            matches!(g.kind(), "call_expression" | "generic_function")
                && field_is(g, "function", parent)
        });
        let field = match parent.kind() {
            "field_expression" => field_is(parent, "field", node) && !called,
            "field_initializer" | "field_pattern" | "base_field_initializer" => true,
            _ => false,
        };
        if field {
            return Names::Field;
        }
    }
    Names::Any
}

/// The scope key of what is bound outside any function.
const FILE_LEVEL: usize = usize::MAX;

/// The scope key of the attributes with a declared type (`self.x: T = …`, a field `x: T`),
/// which assignments without one do not change.
const DECLARED: usize = usize::MAX - 1;

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
    // Rust calls the pointee's methods through a `Box`, `Rc` or `Arc`
    if matches!(last, "Box" | "Rc" | "Arc")
        && let Some(inner) = text
            .split_once('<')
            .and_then(|(_, rest)| rest.rsplit_once('>'))
            .map(|(inner, _)| inner)
    {
        return type_name(inner);
    }
    (last.chars().next()?.is_alphabetic() || last.starts_with('_'))
        .then(|| last.to_string())
        .filter(|l| l.chars().all(|c| c.is_alphanumeric() || c == '_'))
}

/// The type a TypeScript annotation of one-argument wrappers wraps: `Partial<Mutable<
/// KyInstance>>` -> `KyInstance` (mapped types such as `Partial` keep the wrapped type's
/// members, and a container's own members are not what an assignment through it defines);
/// `None` for an annotation that wraps nothing, or more than one type.
fn wrapped_type(annotation: &str) -> Option<String> {
    let mut text = annotation.trim().trim_start_matches(':').trim();
    let mut wrapped = false;
    while let Some(inner) = text
        .strip_suffix('>')
        .and_then(|t| t.split_once('<'))
        .map(|(outer, inner)| (outer.trim(), inner.trim()))
        .filter(|(outer, _)| {
            outer
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
        })
        .map(|(_, inner)| inner)
    {
        // one type argument (no comma outside nested brackets)
        let mut depth = 0i32;
        let top_comma = inner.chars().any(|c| {
            match c {
                '<' | '(' | '[' | '{' => depth += 1,
                '>' | ')' | ']' | '}' => depth -= 1,
                _ => {}
            }
            c == ',' && depth == 0
        });
        if top_comma || inner.contains(['|', '&', '{', '(']) {
            return None;
        }
        text = inner;
        wrapped = true;
    }
    if wrapped { type_name(text) } else { None }
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
/// or `__init__` gives the folder (`'../lib/index.js'` -> `lib`), and so does a JavaScript
/// folder spelled by `.` or `..` (`require('..')` in `test/a.js` -> the name of `test`'s
/// parent), found from `dir`, the importing file's folder: the project's root folder is
/// [`ROOT_MODULE`]. `None` above the root, or for a package (no `./` or `../` start in
/// JavaScript: not a file of the project).
fn module_of_specifier(specifier: &str, python: bool, dir: &str) -> Option<String> {
    let specifier = specifier.trim().trim_matches(['"', '\'', '`']);
    if !python && !specifier.starts_with('.') {
        return None;
    }
    if python {
        let mut parts = specifier.split('.').filter(|p| !p.is_empty()).rev();
        let last = parts.next()?;
        let name = if last == "__init__" {
            parts.next()?
        } else {
            last
        };
        return Some(name.to_string());
    }
    // the folder or file it names, from the project's root
    let target = crate::resolve::join(dir, specifier)?;
    let (folder, file) = match target.rsplit_once('/') {
        Some((folder, file)) => (folder, file),
        None => ("", target.as_str()),
    };
    let stem = file.split('.').next().unwrap_or(file);
    let name = if matches!(stem, "index" | "__init__") {
        crate::resolve::file_name(folder)
    } else {
        stem
    };
    Some(if name.is_empty() { ROOT_MODULE } else { name }.to_string())
}

/// The key a file's default export is noted under among its functions' results: the type
/// of the value `export default x` exports. It is the statement's own text, which a search
/// for the files that may have one screens for, and no function or method is named so.
pub const DEFAULT_EXPORT: &str = "export default";

/// The module name of the project's root folder (`require('..')` from `test/`, the root's
/// `index.js`); no identifier spells it.
pub const ROOT_MODULE: &str = "/";

/// Records a name bound to a module: `import * as m from './m'`, `import m from './m'`,
/// `const m = require('./m')` (JavaScript); `import a.b as m`, `from . import m as n`
/// (Python).
fn note_module(
    node: Node<'_>,
    src: &str,
    dir: &str,
    modules: &mut HashMap<String, String>,
    defaults: &mut HashMap<String, String>,
) {
    let text_of = |n: Node<'_>| src.get(n.byte_range()).unwrap_or("").trim();
    match node.kind() {
        // JavaScript: `import * as m from './m'`, `import m from './m'`
        "import_statement" if node.child_by_field_name("source").is_some() => {
            let Some(module) = node
                .child_by_field_name("source")
                .and_then(|s| module_of_specifier(text_of(s), false, dir))
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
                    if part.kind() == "identifier" {
                        defaults.insert(text_of(binding).to_string(), module.clone());
                    }
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
            if let Some(module) =
                specifier.and_then(|s| module_of_specifier(text_of(s), false, dir))
            {
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
            if let Some(module) = module_of_specifier(text_of(name), true, dir) {
                modules.insert(text_of(alias).to_string(), module);
            }
        }
        _ => {}
    }
}

/// What `function` returns, noted; two different types make it unknown.
fn note_return(returns: &mut HashMap<String, TypeOf>, function: &str, found: TypeOf) {
    match returns.get(function) {
        Some(known) if *known != found => {
            returns.insert(function.to_string(), TypeOf::unknown());
        }
        Some(_) => {}
        None => {
            returns.insert(function.to_string(), found);
        }
    }
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

/// What a binding says of a variable's type: annotated parameters and locals, locals assigned
/// from a constructor or a call, each with the scope key it is known under (an attribute of
/// the instance at file level, a parameter property both ways).
fn note_type(node: Node<'_>, known: &Known<'_>) -> Vec<((usize, String), TypeOf)> {
    let src = known.src;
    let frames = known.frames;
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
        // a Rust (or Go) struct's field `parser: Parser`
        "field_declaration" => (
            node.child_by_field_name("name")
                .filter(|n| n.kind() == "field_identifier"),
            node.child_by_field_name("type"),
            None,
        ),
        "let_declaration" => (
            node.child_by_field_name("pattern")
                .filter(|n| n.kind() == "identifier"),
            node.child_by_field_name("type"),
            node.child_by_field_name("value"),
        ),
        // Go `c := f()`, `c, err := f()` (the first result), `var c = f()`, `var c T`
        "short_var_declaration" | "var_spec" => (
            node.child_by_field_name("left")
                .and_then(|l| l.named_child(0))
                .or_else(|| node.child_by_field_name("name"))
                .filter(|n| n.kind() == "identifier"),
            node.child_by_field_name("type"),
            node.child_by_field_name("right")
                .or_else(|| node.child_by_field_name("value"))
                .and_then(|r| {
                    if r.kind() == "expression_list" {
                        r.named_child(0)
                    } else {
                        Some(r)
                    }
                }),
        ),
        _ => return Vec::new(),
    };
    let Some(variable) = variable else {
        return Vec::new();
    };
    let declared = type_text
        .and_then(|t| type_name(&text_of(t)))
        .map(TypeOf::Named);
    let annotated = declared.is_some();
    let found = declared.or_else(|| value.and_then(|v| known.type_of(v, 0)));
    let Some(found) = found.map(|t| own_type(t, frames)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // An attribute of the instance (`self.parser = Parser()`, `this.parser = new Parser()`,
    // a field `parser: Parser` in the class body, a TypeScript parameter property) is known
    // in every method of the file, under its receiver text `self.parser`/`this.parser`;
    // two classes of the file that type it differently leave it unknown.
    let attribute = attribute_of_self(variable, src).or_else(|| {
        let field = matches!(
            node.kind(),
            "public_field_definition" | "field_definition" | "field_declaration"
        ) || in_class_body && matches!(node.kind(), "assignment");
        let own = if matches!(node.kind(), "assignment" | "field_declaration") {
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
        // an annotated attribute (`self.type: ParamType = …`) keeps its declared type
        if annotated {
            out.push(((DECLARED, attribute.clone()), found.clone()));
            out.push(((FILE_LEVEL, attribute), found.clone()));
        } else if !known.types.contains_key(&(DECLARED, attribute.clone())) {
            let key = (FILE_LEVEL, attribute);
            match known.types.get(&key) {
                Some(before) if *before != found => out.push((key, TypeOf::unknown())),
                Some(_) => {}
                None => out.push((key, found.clone())),
            }
        }
        if node.kind() != "required_parameter" {
            return out;
        }
    }
    // a parameter belongs to the function it is a parameter of (the innermost frame open)
    let scope = frames
        .iter()
        .rev()
        .find(|f| f.function)
        .map_or(FILE_LEVEL, |f| f.start_byte);
    out.push(((scope, text_of(variable)), found));
    out
}

/// `Self` (Rust, Python's `typing.Self`) means the type whose `impl` or class is around.
fn own_type(found: TypeOf, frames: &[Frame]) -> TypeOf {
    if found.named() != Some("Self") {
        return found;
    }
    frames
        .iter()
        .rev()
        .find(|f| !f.function && !f.name.is_empty())
        .map_or(found, |class| TypeOf::Named(class.name.clone()))
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
        // Rust macro arguments are tokens: `x.name`, `a::b::name` read from the ones before
        "token_tree" => match token_before(node) {
            Some(".") => Access::Member {
                receiver: short(&token_chain(node, src)),
            },
            Some("::") => Access::Path {
                qualifier: short(&token_chain(node, src)),
            },
            _ => Access::Bare,
        },
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

/// The kind of the token before `node` among its siblings (`.`, `::`, an identifier).
fn token_before<'t>(node: Node<'t>) -> Option<&'t str> {
    node.prev_sibling().map(|p| p.kind())
}

/// The text of the tokens before a `.` or `::` that precedes `node` in a macro's token tree,
/// as far back as they chain: `self.a` for `self.a.run`, `x::y` for `x::y::z`, `f(1)` for
/// `f(1).run` (a parenthesised group goes with the name before it).
fn token_chain(node: Node<'_>, src: &str) -> String {
    let name_like = |n: &Node<'_>| is_identifier(n.kind()) || n.kind() == "self";
    let Some(separator) = node.prev_sibling() else {
        return String::new();
    };
    let end = separator.start_byte();
    let mut start = end;
    let mut current = separator.prev_sibling();
    // backwards: a term (a name, a group, or a name and its group), then `.` or `::`, again
    while let Some(token) = current {
        if token.kind() == "token_tree" {
            start = token.start_byte();
            current = token.prev_sibling();
            match current {
                Some(name) if name_like(&name) => {
                    start = name.start_byte();
                    current = name.prev_sibling();
                }
                _ => break,
            }
        } else if name_like(&token) {
            start = token.start_byte();
            current = token.prev_sibling();
        } else {
            break;
        }
        match current {
            Some(sep) if matches!(sep.kind(), "." | "::") => current = sep.prev_sibling(),
            _ => break,
        }
    }
    src.get(start..end).unwrap_or("").trim().to_string()
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
    const YES: [&str; 22] = [
        "definition",
        // Rust: a trait's `type Captures: Captures;`
        "associated_type",
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

    #[test]
    fn rust_places_say_what_a_name_can_be() {
        let text = "use std::path::{Path, path};\n\nfn f(s: &S) {\n    path!(x);\n    crate::path!(x);\n    s.path;\n    s.path();\n    S { path: 1 };\n    path::join();\n    a::path::b();\n    path();\n    assert!(path!(), path::x, s.path, s.path());\n}\n";
        let names: Vec<(usize, Names)> = occurrences("src/a.rs", text, "path", None)
            .unwrap()
            .into_iter()
            .map(|o| (o.line, o.names))
            .collect();
        assert_eq!(
            names,
            [
                (1, Names::Namespace),
                (1, Names::Any),
                (4, Names::Macro),
                (5, Names::Macro),
                (6, Names::Field),
                (7, Names::Any),
                (8, Names::Field),
                (9, Names::Namespace),
                (10, Names::Namespace),
                (11, Names::Any),
                (12, Names::Macro),
                (12, Names::Namespace),
                (12, Names::Field),
                (12, Names::Any),
            ]
        );
        // macro arguments are tokens: the receiver or qualifier is read from those before
        let tokens = "fn f() {\n    assert_eq!(self.a.run(), x::y::run(c.f(1).run()));\n}\n";
        let access: Vec<Access> = occurrences("src/a.rs", tokens, "run", None)
            .unwrap()
            .into_iter()
            .map(|o| o.access)
            .collect();
        assert_eq!(
            access,
            [
                Access::Member {
                    receiver: "self.a".to_string()
                },
                Access::Path {
                    qualifier: "x::y".to_string()
                },
                Access::Member {
                    receiver: "c.f(1)".to_string()
                },
            ]
        );
        // `Self` is the type of the `impl` around; a field's type types `self.field`; a
        // `Box`/`Rc`/`Arc` calls its pointee's methods
        let typed = "struct C {\n    t: Box<T>,\n}\n\nimpl C {\n    fn f(&self, o: &Self) {\n        o.run();\n        self.t.run();\n    }\n}\n";
        assert_eq!(
            receiver_types("src/a.rs", typed, "run"),
            [(7, Some("C".to_string())), (8, Some("T".to_string()))]
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
    fn typescript_members_assigned_through_wrappers_and_declared_by_types() {
        assert_eq!(
            wrapped_type(": Partial<Mutable<KyInstance>>").as_deref(),
            Some("KyInstance")
        );
        assert_eq!(
            wrapped_type("Readonly<x.Options>").as_deref(),
            Some("Options")
        );
        for unwrapped in [
            "Client",
            "Map<string, Client>",
            "Partial<A | B>",
            "Array<{a: 1}>",
        ] {
            assert_eq!(wrapped_type(unwrapped), None, "{unwrapped}");
        }
        let ts = "type Client = {\n\textend: (o: Options) => Client;\n};\ninterface Api extends Base {\n\textend(): Api;\n}\nfunction f(o: { extend: number }) {\n\tconst c: Partial<Client> = {};\n\tc.extend = () => c;\n\tc.extend();\n}\n";
        let found = occurrences("a.ts", ts, "extend", None).unwrap();
        let owners: Vec<(usize, Option<&str>)> = found
            .iter()
            .map(|o| (o.line, o.signature_of.as_deref()))
            .collect();
        assert_eq!(
            owners,
            [
                (2, Some("Client")),
                (5, Some("Api")),
                (7, None),
                (9, None),
                (10, None)
            ]
        );
        // the assignment's receiver is the wrapped type; a use keeps the annotation's type
        let receivers: Vec<(usize, Option<&str>)> = found
            .iter()
            .filter(|o| matches!(o.access, Access::Member { .. }))
            .map(|o| (o.line, o.receiver_type.as_deref()))
            .collect();
        assert_eq!(receivers, [(9, Some("Client")), (10, Some("Partial"))]);
        let types = result_types("a.ts", ts, None).unwrap();
        let results: Vec<(&str, Option<&str>)> = types
            .results
            .iter()
            .map(|r| (r.key.as_str(), r.result.named()))
            .collect();
        assert!(
            results.contains(&("Client.extend", Some("Client"))),
            "{results:?}"
        );
        assert!(
            results.contains(&("Api.extend", Some("Api"))),
            "{results:?}"
        );
        let exported = result_types(
            "index.ts",
            "const make = (): Client => ({});\nconst client = make();\nexport default client;\n",
            None,
        )
        .unwrap();
        assert!(
            exported
                .results
                .iter()
                .any(|r| r.key == DEFAULT_EXPORT && r.result.named() == Some("Client")),
            "{exported:?}"
        );
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

    fn waiting(path: &str, text: &str, name: &str) -> Vec<(usize, Option<String>, Option<TypeOf>)> {
        occurrences(path, text, name, None)
            .unwrap()
            .into_iter()
            .filter(|o| matches!(o.access, Access::Member { .. }))
            .map(|o| (o.line, o.receiver_type, o.receiver_result))
            .collect()
    }

    fn result(function: &str, module: Option<&str>) -> TypeOf {
        TypeOf::Result {
            function: function.to_string(),
            module: module.map(str::to_string),
        }
    }

    fn method_result(receiver: TypeOf, method: &str) -> TypeOf {
        TypeOf::MethodResult {
            receiver: Box::new(receiver),
            method: method.to_string(),
        }
    }

    /// A receiver made by a function or method the file does not define keeps how to find
    /// its type in the files that do: a Go package function (`c, _ := CreateTestContext(w)`,
    /// the first result), a package-qualified one (`gin.New()`), a method of a typed receiver
    /// (`g.Group("/v1")`), a chain (`program.command('x').option()`), a module's function.
    #[test]
    fn receivers_made_by_other_files_functions_wait_on_their_results() {
        let go = "package gin\n\nfunc TestX() {\n\tc, _ := CreateTestContext()\n\tc.Handle(\"x\")\n\tvar g RouterGroup\n\tv1 := g.Group(\"/v1\")\n\tv1.Handle(\"y\")\n\tg.Group(\"/v2\").Handle(\"z\")\n\tr := gin.New()\n\tr.Handle(\"w\")\n}\n";
        assert_eq!(
            waiting("gin/a_test.go", go, "Handle"),
            [
                (5, None, Some(result("CreateTestContext", None))),
                (
                    8,
                    None,
                    Some(method_result(TypeOf::Named("RouterGroup".into()), "Group"))
                ),
                (
                    9,
                    None,
                    Some(method_result(TypeOf::Named("RouterGroup".into()), "Group"))
                ),
                (11, None, Some(result("New", Some("gin")))),
            ]
        );
        // a reassignment types its variable after its value: the `r` in the value is the old one
        let python = "def f():\n    s = Session()\n    r = requests.Request()\n    r = s.send(r.prepare())\n    r.prepare()\n";
        assert_eq!(
            waiting("a.py", python, "prepare"),
            [
                (4, Some("Request".to_string()), None),
                (
                    5,
                    None,
                    Some(method_result(TypeOf::Named("Session".into()), "send"))
                )
            ]
        );
        let python =
            "class Option(Parameter):\n    def hint(self):\n        return super().hint()\n";
        assert_eq!(
            waiting("core.py", python, "hint"),
            [(3, None, Some(TypeOf::BaseOf("Option".into())))]
        );
        let js = "const commander = require('../');\nconst u = require('./utils');\nconst program = new commander.Command();\nprogram.command('x').option('-a');\nconst made = u.make();\nmade.option('-b');\n";
        assert_eq!(
            waiting("tests/a.test.js", js, "option"),
            [
                (
                    4,
                    None,
                    Some(method_result(TypeOf::Named("Command".into()), "command"))
                ),
                (6, None, Some(result("make", Some("utils")))),
            ]
        );
    }

    /// Classes list what they extend: Python bases, `extends`, Go's embedded fields.
    #[test]
    fn classes_list_their_bases() {
        let bases = |path: &str, text: &str| result_types(path, text, None).unwrap().bases;
        let one = |class: &str, extends: &[&str]| {
            (
                class.to_string(),
                extends.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
            )
        };
        assert_eq!(
            bases(
                "a.py",
                "class Flask(App, metaclass=M):\n    pass\nclass Plain:\n    pass\n"
            ),
            [one("Flask", &["App"])]
        );
        assert_eq!(
            bases("a.js", "class Command extends EventEmitter {}\n"),
            [one("Command", &["EventEmitter"])]
        );
        assert_eq!(
            bases("a.ts", "class Ky<T> extends Base<T> implements I {}\n"),
            [one("Ky", &["Base"])]
        );
        assert_eq!(
            bases(
                "a.go",
                "package gin\n\ntype Engine struct {\n\tRouterGroup\n\t*Other\n\tname string\n}\n"
            ),
            [one("Engine", &["RouterGroup", "Other"])]
        );
    }

    /// Attributes and fields of a class are listed with what they hold; a receiver that is
    /// the field of a typed value waits on it (`c.engine.Handle()`).
    #[test]
    fn fields_are_listed_and_waited_on() {
        let go = "package gin\n\ntype Context struct {\n\tengine *Engine\n\ta, b int\n}\n\nfunc (c *Context) Run() {\n\tc.engine.Handle()\n\tc.other.Handle()\n}\n";
        let fields: Vec<(String, TypeOf)> = result_types("gin/context.go", go, None)
            .unwrap()
            .fields
            .into_iter()
            .map(|r| (r.key, r.result))
            .collect();
        assert_eq!(
            fields,
            [
                ("Context.a".to_string(), TypeOf::Named("int".into())),
                ("Context.b".to_string(), TypeOf::Named("int".into())),
                ("Context.engine".to_string(), TypeOf::Named("Engine".into())),
            ]
        );
        assert_eq!(
            waiting("gin/context.go", go, "Handle"),
            [
                (9, Some("Engine".to_string()), None),
                (
                    10,
                    None,
                    Some(TypeOf::FieldOf {
                        receiver: Box::new(TypeOf::Named("Context".into())),
                        field: "other".into()
                    })
                ),
            ]
        );
        let python = "class App:\n    def __init__(self):\n        self.json = Provider()\n";
        let fields: Vec<(String, TypeOf)> = result_types("app.py", python, None)
            .unwrap()
            .fields
            .into_iter()
            .map(|r| (r.key, r.result))
            .collect();
        assert_eq!(
            fields,
            [("App.json".to_string(), TypeOf::Named("Provider".into()))]
        );
    }

    /// JSDoc `@param {Help} helper` types the parameter in the function it documents; an
    /// arrow function's expression body is what it returns.
    #[test]
    fn jsdoc_parameters_and_arrow_bodies_are_typed() {
        let js = "class Help {\n  /**\n   * @param {Command} cmd\n   * @param {Help} helper\n   * @param {object} [options.x]\n   */\n  formatHelp(cmd, helper) {\n    helper.padWidth(cmd);\n    cmd.padWidth();\n  }\n}\nfunction other(helper) {\n  helper.padWidth();\n}\n";
        assert_eq!(
            receiver_types("lib/help.js", js, "padWidth"),
            [
                (8, Some("Help".to_string())),
                (9, Some("Command".to_string())),
                (13, None)
            ]
        );
        let ts = "function createInstance(): KyInstance {\n  const ky = {};\n  ky.create = (d) => createInstance();\n  return ky as KyInstance;\n}\n";
        let results: Vec<(String, TypeOf)> = result_types("source/index.ts", ts, None)
            .unwrap()
            .results
            .into_iter()
            .map(|r| (r.key, r.result))
            .collect();
        assert_eq!(
            results,
            [
                ("create".to_string(), TypeOf::Named("KyInstance".into())),
                (
                    "createInstance".to_string(),
                    TypeOf::Named("KyInstance".into())
                ),
            ]
        );
    }

    /// What a file's functions and methods return: declared results (Go's first one), JSDoc
    /// `@return {T}`, `return this`, `): this`, a constructor; a method of the file called on
    /// its class settles in the file; two returns that disagree are unknown.
    #[test]
    fn result_types_of_functions_and_methods() {
        let js = "class Command {\n  /**\n   * @return {Command} the new command\n   */\n  command(name) {\n    return make(name);\n  }\n  option(flags) {\n    return this;\n  }\n  either() {\n    if (a) return this;\n    return new Option();\n  }\n}\nfunction create() {\n  return new Command().option('x');\n}\n";
        let results: Vec<(String, TypeOf)> = result_types("lib/command.js", js, None)
            .unwrap()
            .results
            .into_iter()
            .map(|r| (r.key, r.result))
            .collect();
        assert_eq!(
            results,
            [
                (
                    "Command.command".to_string(),
                    TypeOf::Named("Command".into())
                ),
                ("Command.either".to_string(), TypeOf::unknown()),
                (
                    "Command.option".to_string(),
                    TypeOf::Named("Command".into())
                ),
                ("create".to_string(), TypeOf::Named("Command".into())),
            ]
        );
        let go = "package gin\n\nfunc (group *RouterGroup) Group(path string) *RouterGroup {\n\treturn nil\n}\n\nfunc CreateTestContext(w int) (c *Context, r *Engine) {\n\treturn\n}\n\nfunc helper() {}\n";
        let results: Vec<(String, TypeOf)> = result_types("gin/a.go", go, None)
            .unwrap()
            .results
            .into_iter()
            .map(|r| (r.key, r.result))
            .collect();
        assert_eq!(
            results,
            [
                (
                    "CreateTestContext".to_string(),
                    TypeOf::Named("Context".into())
                ),
                (
                    "RouterGroup.Group".to_string(),
                    TypeOf::Named("RouterGroup".into())
                ),
                ("helper".to_string(), TypeOf::unknown()),
            ]
        );
        let ts =
            "export class Ky {\n  extend(options: Options): this {\n    return this;\n  }\n}\n";
        let results: Vec<(String, TypeOf)> = result_types("source/ky.ts", ts, None)
            .unwrap()
            .results
            .into_iter()
            .map(|r| (r.key, r.result))
            .collect();
        assert_eq!(
            results,
            [("Ky.extend".to_string(), TypeOf::Named("Ky".into()))]
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
        let js = "const u = require('./lib/utils');\nimport * as ns from '../src/index.js';\nconst pkg = require('utils');\nconst up = require('..');\nimport * as top from '../../index.js';\nu.f();\nns.f();\npkg.f();\nother.f();\nup.f();\ntop.f();\n";
        assert_eq!(
            modules("test/unit/a.js", js, "f"),
            [
                (6, Some("utils".to_string())),
                (7, Some("src".to_string())),
                (8, None),
                (9, None),
                (10, Some("test".to_string())),
                (11, Some(ROOT_MODULE.to_string()))
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
        // a declared type stays whatever is assigned without one
        let declared = "class A:\n    def __init__(self):\n        self.x: Parser = make()\n\nclass B(A):\n    def __init__(self):\n        self.x = self.pick()\n\n    def run(self):\n        self.x.parse()\n";
        assert_eq!(
            receiver_types("a.py", declared, "parse"),
            [(10, Some("Parser".to_string()))]
        );
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
