//! C and C++ `signatures`: what a declaration-based language lets the level say with less.
//!
//! - A function definition whose name is not qualified (a free function, an in-class member)
//!   becomes its declaration: `T f() const;` is the signature a C or C++ reader knows, it is
//!   valid wherever the definition was (a `constexpr` definition without its `return` is not),
//!   and it costs a token where `{ /* ... */ }` costs six and, in GNU and kernel style, a line.
//!   A qualified definition (`void S::f() { ... }`, libstdc++'s `.tcc` files) keeps the brace
//!   placeholder: declaring a member outside its class is an error.
//! - A table of constants, 256 or more `#define NAME <number>` in a row (a generated register
//!   map such as the kernel's `asic_reg/` headers, an ID list such as `pci_ids.h`), keeps its
//!   first eight and says how many follow. None of the left-out names may be used elsewhere in
//!   the file, so the output means what the input meant to everything that stays.

use tree_sitter::Node;

use crate::splice::Splice;

/// The shortest run of constant `#define`s that [`constant_tables`] shortens.
pub(crate) const TABLE_MIN_RUN: usize = 256;
/// How many `#define`s at the head of a table stay, to show the names' pattern.
pub(crate) const TABLE_HEAD: usize = 8;

/// Where the declaration of the function whose body is `body` ends, when the definition can
/// become that declaration (`;` replaces the text from there to the body's end): the end of
/// its declarator or of the specifiers after it, before a constructor's member initializers.
/// `view` is the text as the parse read it (known macros as spaces).
pub(crate) fn declaration_end(text: &str, view: &str, body: Node<'_>) -> Option<usize> {
    let definition = body
        .parent()
        .filter(|p| p.kind() == "function_definition")?;
    if definition.child_by_field_name("body").map(|b| b.id()) != Some(body.id()) {
        return None;
    }
    let declarator = definition.child_by_field_name("declarator")?;
    if !unqualified_function(declarator) {
        return None;
    }
    // Without a result type, only a constructor, destructor or conversion in a class is a
    // function: at file or namespace scope such a "definition" is a macro writing the header
    // (`TEST(Suite, Name) { ... }`), whose expansion may not be declarable.
    if definition.child_by_field_name("type").is_none() && !in_class(definition) {
        return None;
    }
    if !after_complete_construct(view, definition) || misread_header(definition, declarator) {
        return None;
    }
    // The declaration is everything before the member initializers (or the body) but the
    // comments and blanks at its end. Not only nodes: a macro the parse reads as spaces
    // (`_GLIBCXX_NOEXCEPT`, `__attribute_const__`) is part of it.
    let mut boundary = body.start_byte();
    let mut comments: Vec<(usize, usize)> = Vec::new();
    let mut cursor = definition.walk();
    for child in definition.children(&mut cursor) {
        if child.start_byte() < declarator.end_byte() || child.start_byte() >= body.start_byte() {
            continue;
        }
        match child.kind() {
            "field_initializer_list" => {
                boundary = child.start_byte();
                break;
            }
            "comment" => comments.push((child.start_byte(), child.end_byte())),
            // K&R parameter declarations (`int f(a) int a; { ... }`) cannot stand alone.
            "declaration" => return None,
            _ => {}
        }
    }
    let mut end = boundary;
    loop {
        let trimmed = declarator.end_byte().max(text[..end].trim_end().len());
        match comments.iter().find(|&&(s, e)| s < trimmed && trimmed <= e) {
            Some(&(s, _)) => end = s,
            None => {
                end = trimmed;
                break;
            }
        }
    }
    // A directive between the header and the body (`#if` around a `noexcept`) stays with its
    // group: no edit cuts into it.
    let between = &text[declarator.end_byte()..body.start_byte()];
    if between
        .lines()
        .skip(1)
        .any(|line| line.trim_start().starts_with('#'))
    {
        return None;
    }
    Some(end)
}

/// Whether a block after a macro at file scope, ending at `end`, is followed by `;`: the body
/// of a type the macro names (kselftest's `FIXTURE(name) { ... };`), whose fields the code
/// after it uses, not the body of a function whose header a macro writes. It stays. (A `;`
/// after a real function's or member's body is an empty declaration: those still collapse.)
pub(crate) fn names_a_type(text: &str, body: Node<'_>, end: usize) -> bool {
    let after_macro = match body.parent() {
        Some(p) if p.kind() == "lambda_expression" => false,
        // `FIXTURE_VARIANT(file) { ... };` reads as a type and a parenthesized name.
        Some(p) if p.kind() == "function_definition" => {
            p.child_by_field_name("type").is_none() && !in_class(p)
                || p.child_by_field_name("declarator")
                    .is_some_and(|d| function_declarator(d).is_none())
        }
        _ => true,
    };
    after_macro && text[end..].trim_start().starts_with(';')
}

/// Whether `body` belongs to a function template or a member of a class template that can
/// become its declaration. Such a `constexpr` function or one whose result type is deduced
/// (`auto f()`) may lose its body there: g++ needs the body of a template only where it is
/// instantiated, and a declaration says all a reader of signatures needs. Elsewhere those
/// bodies stay (`constexpr int f() { /* ... */ }` is an error, and so is a use of `auto f();`
/// before its body).
pub(crate) fn declarable_template(text: &str, view: &str, body: Node<'_>) -> bool {
    let mut current = body.parent();
    let mut in_template = false;
    while let Some(n) = current {
        if n.kind() == "template_declaration" {
            in_template = true;
            break;
        }
        current = n.parent();
    }
    in_template && declaration_end(text, view, body).is_some()
}

/// Whether the code before a definition (its template header included) ends a construct:
/// `;`, `}`, `{`, a label or access specifier's `:`, a directive. After a macro invocation
/// without its `;` (`BTF_ID(struct, kallsym_iter)`), a declaration ending in `;` would read as
/// one construct with it, where a body in braces still reads as a function. Read from the text,
/// comments skipped, so that `compact` first decides alike (the parse around a comment can
/// differ). `text` is the view the parse read (known macros as spaces).
fn after_complete_construct(text: &str, definition: Node<'_>) -> bool {
    let mut outer = definition;
    while let Some(parent) = outer
        .parent()
        .filter(|p| matches!(p.kind(), "template_declaration" | "friend_declaration"))
    {
        outer = parent;
    }
    // `extern "C" int f(void)`: the linkage before it is the definition's own.
    if outer
        .parent()
        .is_some_and(|p| p.kind() == "linkage_specification")
    {
        return true;
    }
    let mut end = outer.start_byte();
    loop {
        let before = text[..end].trim_end();
        if before.is_empty() {
            return true;
        }
        if let Some(open) = before.strip_suffix("*/").and_then(|b| b.rfind("/*")) {
            end = open;
            continue;
        }
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let line = &before[line_start..];
        let code = line.trim_start();
        if code.starts_with("//") {
            end = line_start;
            continue;
        }
        if code.starts_with('#') {
            return true; // a directive, or the condition of the `#if` it follows
        }
        // A trailing `// note` (a line with no string or character literal to hide one).
        let code = match code.find("//") {
            Some(i) if !code[..i].contains(['"', '\'']) => code[..i].trim_end(),
            _ => code,
        };
        if code.is_empty() {
            end = line_start;
            continue;
        }
        return code.ends_with([';', '}', '{', ':']);
    }
}

/// Whether the grammar read macros around a definition's header as parts of it: a result
/// type written by a macro (`BTF_ID_LIST(ids) BTF_ID(struct, x) static int f(void)` reads as
/// the type `BTF_ID_LIST(ids)` and the function `BTF_ID(...)`), or names and calls after the
/// parameter list. Such a header written as a declaration can read as something else again.
fn misread_header(definition: Node<'_>, declarator: Node<'_>) -> bool {
    if definition
        .child_by_field_name("type")
        .is_some_and(|t| t.kind() == "macro_type_specifier")
    {
        return true;
    }
    // An error among the header's parts (`STATIC void f(...)`: an unknown macro read as the
    // type, `void` as an error): the grammar's reading of it depends on what surrounds it,
    // even on comments.
    let body_start = definition
        .child_by_field_name("body")
        .map_or(definition.end_byte(), |b| b.start_byte());
    let mut cursor = definition.walk();
    if definition
        .children(&mut cursor)
        .take_while(|c| c.start_byte() < body_start)
        .any(|c| c.is_error() || c.is_missing())
    {
        return true;
    }
    let Some(function) = function_declarator(declarator) else {
        return false;
    };
    let parameters_end = function
        .child_by_field_name("parameters")
        .map_or(0, |p| p.end_byte());
    let mut cursor = function.walk();
    function
        .named_children(&mut cursor)
        .filter(|c| c.start_byte() >= parameters_end)
        .any(|c| matches!(c.kind(), "identifier" | "call_expression" | "ERROR"))
}

/// Where the definition around `body` starts, its template header included: what a
/// declaration in its place can join to the code before it.
pub(crate) fn definition_start(body: Node<'_>) -> usize {
    let mut start = body.start_byte();
    let mut current = body.parent();
    while let Some(n) = current {
        match n.kind() {
            "function_definition" | "template_declaration" | "friend_declaration" => {
                start = n.start_byte()
            }
            _ => break,
        }
        current = n.parent();
    }
    start
}

/// Whether a definition's declarator names a function without a qualifier (`f(...)`, not
/// `S::f(...)`): only such a declaration may stand where the definition was.
fn unqualified_function(declarator: Node<'_>) -> bool {
    // `operator bool() const` in a class; a qualified one is a qualified_identifier.
    if declarator.kind() == "operator_cast" {
        return true;
    }
    function_declarator(declarator).is_some_and(|function| {
        function
            .child_by_field_name("declarator")
            .is_some_and(|name| {
                matches!(
                    name.kind(),
                    "identifier"
                        | "field_identifier"
                        | "operator_name"
                        | "destructor_name"
                        | "template_function"
                )
            })
    })
}

/// The function declarator inside a definition's declarator (through pointers, references,
/// attributes and parentheses), if there is one.
fn function_declarator(declarator: Node<'_>) -> Option<Node<'_>> {
    let mut node = declarator;
    loop {
        match node.kind() {
            "function_declarator" => return Some(node),
            "pointer_declarator"
            | "reference_declarator"
            | "attributed_declarator"
            | "parenthesized_declarator" => {
                let mut cursor = node.walk();
                let inner = node.named_children(&mut cursor).find(|c| {
                    !matches!(
                        c.kind(),
                        "attribute_declaration"
                            | "ms_call_modifier"
                            | "ms_based_modifier"
                            | "ms_pointer_modifier"
                            | "type_qualifier"
                    )
                });
                node = inner?;
            }
            _ => return None,
        }
    }
}

/// Whether `node` is a member of a class, struct or union (its nearest enclosing scope).
fn in_class(node: Node<'_>) -> bool {
    let mut current = node.parent();
    while let Some(n) = current {
        match n.kind() {
            "field_declaration_list" => return true,
            "translation_unit"
            | "declaration_list"
            | "compound_statement"
            | "linkage_specification" => return false,
            _ => current = n.parent(),
        }
    }
    false
}

/// One table of constants to shorten: the bytes from its first left-out `#define` to the end
/// of its last, and how many `#define`s that is.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Table {
    pub start: usize,
    pub end: usize,
    pub left_out: usize,
    /// Where the left-out names are.
    names: Vec<std::ops::Range<usize>>,
}

/// One `#define` of a run: where its `#` is, where its line's text ends, where its name is.
struct Member {
    hash: usize,
    end: usize,
    name: std::ops::Range<usize>,
}

/// `text` with its `tables` (sorted, apart) shortened, and the same output as pieces of
/// `text`: what a text too large to parse gets at `signatures`.
pub(crate) fn shorten_tables(text: &str, tables: &[Table]) -> (String, Splice) {
    let mut out = String::with_capacity(text.len());
    let mut splice = Splice::default();
    let mut pos = 0;
    for table in tables {
        out.push_str(&text[pos..table.start]);
        splice.keep(pos, table.start);
        let placeholder = table_placeholder(table.left_out);
        out.push_str(&placeholder);
        splice.add(&placeholder);
        pos = table.end;
    }
    out.push_str(&text[pos..]);
    splice.keep(pos, text.len());
    (out, splice)
}

/// The comment that stands for a table's left-out `#define`s. Compact keeps it (it is never an
/// ordinary comment), so the transforms stay idempotent.
pub(crate) fn table_placeholder(left_out: usize) -> String {
    format!("/* ... {left_out} more constants */")
}

/// Whether a comment is one [`table_placeholder`] wrote.
pub(crate) fn is_table_placeholder(comment: &str) -> bool {
    comment
        .strip_prefix("/* ... ")
        .and_then(|rest| rest.strip_suffix(" more constants */"))
        .is_some_and(|count| !count.is_empty() && count.bytes().all(|b| b.is_ascii_digit()))
}

/// The tables of constants in a C or C++ text: runs of at least [`TABLE_MIN_RUN`] lines
/// `#define NAME <number>` with nothing but comments and blank lines between them, whose
/// left-out names appear nowhere else in the code. Found line by line, without a parse, so
/// the texts too large to parse have their tables shortened too (the kernel's largest
/// register maps are 4 to 14 MB); a parsed text also keeps its tables away from parse errors
/// and from conditional groups read flattened (`engine::reduce`).
///
/// `removed` are the ranges the other edits remove (sorted, apart): the collapsed bodies. A
/// name used only there is not used in the output, and a second pass must decide alike.
pub(crate) fn constant_tables(text: &str, removed: &[(usize, usize)]) -> Vec<Table> {
    // Cheap test first: most files hold far fewer `#define`s than a table. A C++ raw string
    // could hide a comment marker from the line scan: such a file is left alone.
    let bytes = text.as_bytes();
    if memchr::memmem::find_iter(bytes, b"define")
        .nth(TABLE_MIN_RUN - 1)
        .is_none()
        || memchr::memmem::find(bytes, b"R\"").is_some()
    {
        return Vec::new();
    }
    let mut tables = Vec::new();
    // Each member of the current run: where its `#` is and where its line's text ends.
    let mut run: Vec<Member> = Vec::new();
    let mut state = Scan::default();
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        let start = pos;
        pos += line.len();
        let content = line.trim_end_matches(['\n', '\r']);
        let kind = scan_line(content, &mut state);
        match kind {
            Line::Neutral => {}
            Line::Define(hash) => {
                let name = define_name(&content[hash..]).expect("a constant #define has a name");
                run.push(Member {
                    hash: start + hash,
                    end: start + content.len(),
                    name: start + hash + name.start..start + hash + name.end,
                });
            }
            Line::Other => close_run(&mut run, &mut tables),
        }
    }
    close_run(&mut run, &mut tables);
    // A name the rest of the code uses stays defined: such a table stays whole.
    tables.retain(|table| !names_used_elsewhere(text, table, removed));
    tables
}

fn close_run(run: &mut Vec<Member>, tables: &mut Vec<Table>) {
    if run.len() >= TABLE_MIN_RUN {
        tables.push(Table {
            start: run[TABLE_HEAD].hash,
            end: run[run.len() - 1].end,
            left_out: run.len() - TABLE_HEAD,
            names: run[TABLE_HEAD..].iter().map(|m| m.name.clone()).collect(),
        });
    }
    run.clear();
}

/// What one line is to a table.
#[derive(Debug, PartialEq, Eq)]
enum Line {
    /// Blank, or only comments.
    Neutral,
    /// `#define NAME <number>`, perhaps with a comment; the `#` at this offset.
    Define(usize),
    /// Anything else ends a table.
    Other,
}

/// What the line scan carries from one line to the next.
#[derive(Debug, Default)]
struct Scan {
    /// A block comment is open.
    in_comment: bool,
    /// A `//` comment goes on: its line ended with a backslash.
    line_comment_continues: bool,
    /// A line of code ended with a backslash: the next line belongs to it.
    code_continues: bool,
}

/// Classifies one line and carries the comment and continuation state to the next. A
/// backslash at the end of a comment's line is comment text (`/* *** *\`), or continues a
/// `//` comment: only after code does it join the next line to this one.
fn scan_line(line: &str, state: &mut Scan) -> Line {
    let continued_code = std::mem::take(&mut state.code_continues);
    let ends_with_backslash = line.ends_with('\\');
    if std::mem::take(&mut state.line_comment_continues) {
        state.line_comment_continues = ends_with_backslash;
        return if continued_code {
            Line::Other
        } else {
            Line::Neutral
        };
    }
    let kind = scan_code(line, state);
    if ends_with_backslash && !state.in_comment && !state.line_comment_continues {
        state.code_continues = true;
    }
    // A line that a backslash joined to the one before is part of that line's construct.
    if continued_code { Line::Other } else { kind }
}

/// [`scan_line`] for a line that does not continue a `//` comment.
fn scan_code(line: &str, state: &mut Scan) -> Line {
    let bytes = line.as_bytes();
    let mut i = 0;
    let mut kind = Line::Neutral;
    while i < bytes.len() {
        if state.in_comment {
            match memchr::memmem::find(&bytes[i..], b"*/") {
                Some(e) => {
                    i += e + 2;
                    state.in_comment = false;
                }
                None => return kind,
            }
            continue;
        }
        match bytes[i] {
            b' ' | b'\t' | b'\x0b' | b'\x0c' => i += 1,
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                state.line_comment_continues = line.ends_with('\\');
                return kind;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                state.in_comment = true;
                i += 2;
            }
            b'#' if kind == Line::Neutral => match constant_define(&line[i..]) {
                Some(value_end) => {
                    kind = Line::Define(i);
                    i += value_end;
                }
                None => {
                    kind = Line::Other;
                    i += 1;
                }
            },
            b'"' | b'\'' => {
                kind = Line::Other;
                let quote = bytes[i];
                i += 1;
                while i < bytes.len() && bytes[i] != quote {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            _ => {
                kind = Line::Other;
                i += 1;
            }
        }
    }
    kind
}

/// `#define NAME value` at the start of `directive`, its value a constant and nothing after
/// it but a comment: the length up to the value's end.
fn constant_define(directive: &str) -> Option<usize> {
    let name = define_name(directive)?;
    let after_name = &directive[name.end..];
    if !after_name.starts_with([' ', '\t']) {
        return None; // `#define F(x) ...` is a function-like macro
    }
    let value_len = [after_name.find("/*"), after_name.find("//")]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(after_name.len());
    if !is_constant_value(&after_name[..value_len]) {
        return None;
    }
    Some(directive.len() - after_name.len() + value_len)
}

/// Where the name of `#define NAME ...` at the start of `directive` is.
fn define_name(directive: &str) -> Option<std::ops::Range<usize>> {
    let rest = directive.strip_prefix('#')?;
    let rest = rest
        .trim_start_matches([' ', '\t'])
        .strip_prefix("define")?;
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let name = rest.trim_start_matches([' ', '\t']);
    let start = directive.len() - name.len();
    let len = name
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    (len > 0).then_some(start..start + len)
}

/// Number literals (with their suffixes), arithmetic and bitwise operators, parentheses and
/// blanks, with at least one number.
fn is_constant_value(value: &str) -> bool {
    let bytes = value.trim().as_bytes();
    let mut saw_number = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_digit() {
            saw_number = true;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.') {
                i += 1;
            }
            continue;
        }
        match b {
            b' ' | b'\t' | b'(' | b')' | b'+' | b'-' | b'~' | b'<' | b'>' | b'|' | b'&' | b'^'
            | b'*' | b'%' => i += 1,
            // Division, not the start of a comment.
            b'/' if !matches!(bytes.get(i + 1), Some(b'/' | b'*')) => i += 1,
            _ => return false,
        }
    }
    saw_number
}

/// Whether a name the table leaves out occurs as an identifier in the text outside the part
/// left out, comments, strings and character literals aside (compact removes comments, and
/// both levels must decide alike).
fn names_used_elsewhere(text: &str, table: &Table, removed: &[(usize, usize)]) -> bool {
    let names: std::collections::HashSet<&str> =
        table.names.iter().map(|r| &text[r.clone()]).collect();
    // The code that stays: outside the table and the removed ranges.
    let mut gaps: Vec<(usize, usize)> = removed.to_vec();
    gaps.push((table.start, table.end));
    gaps.sort_unstable();
    let mut pos = 0;
    for (start, end) in gaps.into_iter().chain([(text.len(), text.len())]) {
        if start > pos && identifiers(&text[pos..start]).any(|id| names.contains(id)) {
            return true;
        }
        pos = pos.max(end);
    }
    false
}

/// The identifiers of C or C++ code, skipping comments, strings and character literals.
fn identifiers(code: &str) -> impl Iterator<Item = &str> {
    let bytes = code.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            let b = bytes[i];
            match b {
                b'/' if bytes.get(i + 1) == Some(&b'*') => {
                    i = memchr::memmem::find(&bytes[i + 2..], b"*/")
                        .map_or(bytes.len(), |e| i + 2 + e + 2);
                }
                b'/' if bytes.get(i + 1) == Some(&b'/') => {
                    i = memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |e| i + e);
                }
                b'"' | b'\'' => {
                    i += 1;
                    while i < bytes.len() && bytes[i] != b && bytes[i] != b'\n' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                    i += 1;
                }
                b'0'..=b'9' => {
                    while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_')
                    {
                        i += 1;
                    }
                }
                _ if b.is_ascii_alphabetic() || b == b'_' => {
                    let start = i;
                    while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_')
                    {
                        i += 1;
                    }
                    return Some(&code[start..i]);
                }
                _ => i += 1,
            }
        }
        None
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_values_are_numbers_and_operators() {
        for value in [
            "0x0309",
            "0",
            "0x000000FFL",
            "(1 << 5)",
            "(0x3 | 0x4)",
            "-1",
            "~0UL",
            "4/2",
        ] {
            assert!(is_constant_value(value), "{value}");
        }
        for value in [
            "FOO",
            "BIT(3)",
            "\"x\"",
            "1 /* one */",
            "(FOO + 1)",
            "",
            "()",
            "'a'",
        ] {
            assert!(!is_constant_value(value), "{value}");
        }
    }

    #[test]
    fn identifiers_skip_comments_strings_and_numbers() {
        let code = "int a = B; /* C */ // D\n x(\"E\\\" F\", 'G', 0xHH, i_2);";
        let found: Vec<&str> = identifiers(code).collect();
        assert_eq!(found, ["int", "a", "B", "x", "i_2"]);
    }

    #[test]
    fn lines_are_classified_with_the_comments_around_them() {
        let mut state = Scan::default();
        let mut scan = |line: &str| scan_line(line, &mut state);
        assert_eq!(scan("#define A 0x1 /* one */"), Line::Define(0));
        assert_eq!(scan("  # define B_C (1 << 2) // two"), Line::Define(2));
        assert_eq!(scan("#define F(x) 1"), Line::Other);
        assert_eq!(scan("#define G BIT(1)"), Line::Other);
        assert_eq!(scan("#define H"), Line::Other);
        assert_eq!(scan("// note"), Line::Neutral);
        assert_eq!(scan(""), Line::Neutral);
        assert_eq!(scan("#define I 1 /* opens"), Line::Define(0));
        assert_eq!(scan("#define J 2"), Line::Neutral, "inside the comment");
        assert_eq!(scan("closes */ int x;"), Line::Other);
        assert_eq!(scan("char *s = \"/*\";"), Line::Other);
        assert_eq!(
            scan("#define K 3"),
            Line::Define(0),
            "a marker in a string opens nothing"
        );
        // A backslash ending a comment's line is comment text; after code it joins lines.
        assert_eq!(scan("/* ***** *\\"), Line::Neutral);
        assert_eq!(scan("text \\* ***** */"), Line::Neutral);
        assert_eq!(scan("#define L 4"), Line::Define(0));
        assert_eq!(scan("// continued \\"), Line::Neutral);
        assert_eq!(scan("#define M 5"), Line::Neutral, "the comment goes on");
        assert_eq!(scan("#define N (1 | \\"), Line::Other);
        assert_eq!(scan("  2)"), Line::Other);
        assert_eq!(scan("#define O 6"), Line::Define(0));
    }

    #[test]
    fn table_placeholders_are_recognised_exactly() {
        assert!(is_table_placeholder(&table_placeholder(248)));
        assert!(!is_table_placeholder("/* ... more constants */"));
        assert!(!is_table_placeholder("/* ... 2x more constants */"));
        assert!(!is_table_placeholder("/* ... */"));
    }
}
