//! The transform itself: parse once, collect edits from the queries, write the output in one
//! pass that also drops blank lines outside strings.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};

use streaming_iterator::StreamingIterator;
use tree_sitter::{InputEdit, Node, Parser, Point, QueryCursor, Tree, TreeCursor};

use crate::languages::{Collapse, Compiled, LangSpec, Tolerance};
use crate::macros::{Group, splits_group};
use crate::splice::Splice;
use crate::{Detail, c_family, summary};

/// A file whose parse has more ERROR/MISSING nodes than this is left unchanged
/// ([`Tolerance::File`]).
pub(crate) const MAX_ERROR_NODES: usize = 3;
/// ... and so is one whose ERROR nodes cover more than 1/this of its bytes.
pub(crate) const MAX_ERROR_BYTES_DIVISOR: usize = 50;

thread_local! {
    static PARSER: RefCell<Parser> = RefCell::new(Parser::new());
    /// Outputs parsed again by this thread's [`run_with`] calls: the work its fallbacks cost.
    pub(crate) static OUTPUT_PARSES: Cell<usize> = const { Cell::new(0) };
}

/// Parses `text` with the thread's parser. C and C++ parse a view of it in which known macros
/// read as what they expand to and conditional groups that split a construct are flattened
/// (`crate::macros`); its bytes have the offsets of `text`'s.
pub(crate) fn parse(compiled: &Compiled, text: &str) -> Option<Tree> {
    parse_view(compiled, text).map(|(tree, _, _)| tree)
}

/// The conditional groups of `text` as [`parse`] sees them.
pub(crate) fn parse_groups(compiled: &Compiled, text: &str) -> Vec<Group> {
    compiled.view(text).groups
}

/// [`parse`], with the conditional groups of the view parsed and the view's text.
pub(crate) fn parse_view<'a>(
    compiled: &Compiled,
    text: &'a str,
) -> Option<(Tree, Vec<Group>, std::borrow::Cow<'a, str>)> {
    let view = compiled.view(text);
    let tree = parse_with(compiled, &view.text, None)?;
    Some((tree, view.groups, view.text))
}

/// Parses a view with the thread's parser; `old`, edited to match, is reused where it can be.
fn parse_with(compiled: &Compiled, view: &str, old: Option<&Tree>) -> Option<Tree> {
    PARSER.with(|p| {
        let mut parser = p.borrow_mut();
        parser.set_language(&compiled.language).ok()?;
        let tree = parser.parse(view.as_bytes(), old);
        parser.reset();
        tree
    })
}

/// Parses `out`, which `splice` made of the text `input` was parsed from, as [`parse`] would.
/// Where the edits replace less than the output holds (`compact`), the input's tree is reused
/// for what the output's view copies unchanged: tree-sitter's incremental parse then re-reads
/// only what is around the edits (`kernel/`'s `compact` check: 0.7 s of parsing instead of
/// 1.2 s). Where they replace more (`signatures`), a fresh parse of the short output is cheaper:
/// marking an edit walks every node of the text it replaces.
fn reparse(compiled: &Compiled, input: &Parsed<'_>, out: &str, splice: &Splice) -> Option<Tree> {
    reparse_with(compiled, input, out, splice, false)
}

/// [`reparse`]; `incremental` reuses the input's tree whatever the edits replace (tests compare
/// the result with a fresh parse).
pub(crate) fn reparse_with(
    compiled: &Compiled,
    input: &Parsed<'_>,
    out: &str,
    splice: &Splice,
    incremental: bool,
) -> Option<Tree> {
    OUTPUT_PARSES.with(|n| n.set(n.get() + 1));
    let out_view = compiled.view(out);
    let changed = changed_ranges(input.view, &out_view.text, splice);
    let replaced: usize = changed.iter().map(|c| c.old.len()).sum();
    let old = if incremental || replaced <= out.len() {
        Some(edited(input, &out_view.text, &changed))
    } else {
        None
    };
    parse_with(compiled, &out_view.text, old.as_ref())
}

/// The input's tree with the `changed` ranges marked as edited into `out_view`'s.
fn edited(input: &Parsed<'_>, out_view: &str, changed: &[Changed]) -> Tree {
    let mut old = input.tree.clone();
    let mut rows = Rows::new(out_view);
    for changed in changed {
        let start_position = rows.point(changed.new.start);
        let new_end_position = rows.point(changed.new.end);
        let replaced = &input.view.as_bytes()[changed.old.clone()];
        let old_end_position = match memchr::memrchr(b'\n', replaced) {
            Some(nl) => Point::new(
                start_position.row + memchr::memchr_iter(b'\n', replaced).count(),
                replaced.len() - nl - 1,
            ),
            None => Point::new(start_position.row, start_position.column + replaced.len()),
        };
        // In order: the tree's offsets before this range are the output's already.
        old.edit(&InputEdit {
            start_byte: changed.new.start,
            old_end_byte: changed.new.start + replaced.len(),
            new_end_byte: changed.new.end,
            start_position,
            old_end_position,
            new_end_position,
        });
    }
    old
}

/// A range of the input's view and the output view's range that replaces it.
#[derive(Debug, PartialEq, Eq)]
struct Changed {
    old: std::ops::Range<usize>,
    new: std::ops::Range<usize>,
}

/// The ranges where the output's view (`new`) differs from the input's (`old`): everything but
/// the pieces `splice` copies whose bytes read the same in both views (a conditional group can
/// be flattened in one and not the other). In order.
fn changed_ranges(old: &str, new: &str, splice: &Splice) -> Vec<Changed> {
    let (old_bytes, new_bytes) = (old.as_bytes(), new.as_bytes());
    let (mut old_at, mut new_at) = (0, 0);
    let mut changed = Vec::new();
    for (out_start, start, end) in splice.kept() {
        let out_end = out_start + (end - start);
        let same = start >= old_at
            && out_start >= new_at
            && matches!(
                (old_bytes.get(start..end), new_bytes.get(out_start..out_end)),
                (Some(a), Some(b)) if a == b
            );
        if !same {
            continue;
        }
        if start != old_at || out_start != new_at {
            changed.push(Changed {
                old: old_at..start,
                new: new_at..out_start,
            });
        }
        (old_at, new_at) = (end, out_end);
    }
    if old_at != old.len() || new_at != new.len() {
        changed.push(Changed {
            old: old_at..old.len(),
            new: new_at..new.len(),
        });
    }
    changed
}

/// Row and column of byte offsets asked for in increasing order.
struct Rows<'a> {
    text: &'a [u8],
    at: usize,
    row: usize,
    line_start: usize,
}

impl<'a> Rows<'a> {
    fn new(text: &'a str) -> Self {
        Rows {
            text: text.as_bytes(),
            at: 0,
            row: 0,
            line_start: 0,
        }
    }

    fn point(&mut self, pos: usize) -> Point {
        for nl in memchr::memchr_iter(b'\n', &self.text[self.at..pos]) {
            self.row += 1;
            self.line_start = self.at + nl + 1;
        }
        self.at = pos;
        Point::new(self.row, pos - self.line_start)
    }
}

/// One replacement of `text[start..end]`.
#[derive(Debug)]
struct Edit {
    start: usize,
    end: usize,
    with: String,
}

/// The bytes no edit may touch around an ERROR or MISSING node: from its previous to its next
/// sibling that is not a comment, or to its parent's edges. tree-sitter's error recovery is not
/// local: with a comment or a body next to the broken region gone, the parser can cut the region
/// differently and report new errors in code the transform left as it was.
fn error_guard(node: Node<'_>) -> (usize, usize) {
    let mut before = node.prev_sibling();
    while let Some(n) = before.filter(|n| n.is_extra()) {
        before = n.prev_sibling();
    }
    let mut after = node.next_sibling();
    while let Some(n) = after.filter(|n| n.is_extra()) {
        after = n.next_sibling();
    }
    let parent = node.parent();
    let start = before
        .or(parent)
        .map_or(node.start_byte(), |n| n.start_byte());
    let end = after.or(parent).map_or(node.end_byte(), |n| n.end_byte());
    (start, end)
}

/// C and C++: the definition holding an error (the function, declaration or member it is in)
/// and the comments and blank lines between it and its neighbours. tree-sitter-c reads a
/// function with an error inside differently once a comment above it is gone (the Linux
/// `hdlcdrv.c` then became one error to the end of the file).
fn definition_guard(node: Node<'_>) -> (usize, usize) {
    let mut definition = node;
    while let Some(parent) = definition.parent() {
        if holds_definitions(parent) && !is_conditional(parent) {
            break;
        }
        definition = parent;
    }
    let mut before = definition.prev_sibling();
    while let Some(n) = before.filter(|n| n.is_extra()) {
        before = n.prev_sibling();
    }
    let mut after = definition.next_sibling();
    while let Some(n) = after.filter(|n| n.is_extra()) {
        after = n.next_sibling();
    }
    (
        before.map_or(definition.start_byte(), |n| n.end_byte()),
        after.map_or(definition.end_byte(), |n| n.start_byte()),
    )
}

/// Whether `node` holds definitions: a file, a namespace, class or `extern "C"` body, or a
/// conditional group among them.
fn holds_definitions(node: Node<'_>) -> bool {
    match node.kind() {
        "translation_unit" | "declaration_list" | "field_declaration_list" => true,
        _ if is_conditional(node) => node.parent().is_none_or(holds_definitions),
        _ => false,
    }
}

/// A conditional group (`#if` ... `#endif`) or one of its branches. The definition around an
/// error in one is the whole group: its directive lines, and the blank lines beside them,
/// decide how tree-sitter recovers (`extern template` in libstdc++'s `codecvt.h`).
fn is_conditional(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "preproc_if" | "preproc_ifdef" | "preproc_else" | "preproc_elif" | "preproc_elifdef"
    )
}

/// Whether an ERROR or MISSING node is the grammar's reading of a known macro idiom, whose
/// shape it did understand (C and C++):
/// - a missing `;` after a macro invocation that is followed by a statement or block: an
///   iterator (`list_for_each_entry(pos, head, member) {`) or a function defined by a macro at
///   file scope (`SYSCALL_DEFINE1(name, int, arg)` then `{ ... }`);
/// - the statement an iterator controls on the next line, which the grammar cannot attach
///   (`for_each_cpu(cpu, mask)` then `total += cpu;`);
/// - type names, keywords and expressions among a macro's arguments
///   (`container_of(p, struct foo, member)`, `min_t(unsigned int, a, b)`), inside parentheses
///   the grammar matched;
/// - a declaration made by a macro, whose declarator the grammar misses
///   (`static DEFINE_PER_CPU(struct x, y);`, `static DECLARE_BITMAP(bits, N + 1);`).
///
/// An ERROR counts only when it holds no quote, brace or `;`: a string the grammar split there
/// could hold what reads as a comment.
pub(crate) fn macro_idiom(node: Node<'_>, text: &str) -> bool {
    let Some(parent) = node.parent() else {
        return false;
    };
    if node.is_missing() {
        return match node.kind() {
            ";" => {
                parent.kind() == "expression_statement"
                    && node.next_sibling().is_none()
                    && parent.named_child(0).is_some_and(macro_call)
                    && parent
                        .next_named_sibling()
                        .is_some_and(|next| !next.is_error() && !next.is_missing())
            }
            "identifier" => {
                declared_by_macro(parent) && node.next_sibling().is_some_and(|n| n.kind() == ";")
            }
            _ => false,
        };
    }
    if node.is_error() && declared_by_macro(parent) && text[node.byte_range()].trim() == ";" {
        return true;
    }
    if !node.is_error() || !plain(&text[node.byte_range()]) {
        return false;
    }
    match parent.kind() {
        "argument_list" => in_matched_parentheses(parent),
        "macro_type_specifier" => macro_call(parent),
        _ => node.prev_sibling().is_some_and(|call| {
            macro_call(call)
                && text[call.end_byte()..node.start_byte()].contains('\n')
                && text[node.byte_range()]
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"_.->*[] \t".contains(&b))
        }),
    }
}

/// Whether `node` is a declaration whose type is a macro invocation (`static DEFINE_MUTEX(m);`).
fn declared_by_macro(node: Node<'_>) -> bool {
    node.kind() == "declaration"
        && node
            .child_by_field_name("type")
            .is_some_and(|t| t.kind() == "macro_type_specifier" && macro_call(t))
}

/// Whether ERROR text holds no quote, brace, `;` or `#`.
fn plain(error: &str) -> bool {
    !error.bytes().any(|b| b"\"'{};#".contains(&b))
}

/// Whether `node` is a macro invocation the grammar read whole: `name(...)` with both
/// parentheses in the text (a call expression, or a macro in type position).
fn macro_call(node: Node<'_>) -> bool {
    let (name, args) = match node.kind() {
        "call_expression" => (
            node.child_by_field_name("function"),
            node.child_by_field_name("arguments"),
        ),
        "macro_type_specifier" => (node.child_by_field_name("name"), Some(node)),
        _ => return false,
    };
    name.is_some_and(|n| n.kind() == "identifier") && args.is_some_and(in_matched_parentheses)
}

/// Whether `node`'s arguments are in a `(` and a `)` that are both in the text (a call's
/// argument list, or a macro type whose name comes first).
fn in_matched_parentheses(node: Node<'_>) -> bool {
    let mut cursor = node.walk();
    let children: Vec<Node<'_>> = node.children(&mut cursor).collect();
    let open = children.iter().position(|c| c.kind() == "(");
    let last = children.last();
    open.is_some_and(|i| !children[i].is_missing() && i + 1 < children.len())
        && last.is_some_and(|l| l.kind() == ")" && !l.is_missing())
}

/// Byte ranges no edit may touch (nor the byte on either side: [`overlaps`]) because of ERROR
/// and MISSING nodes ([`error_guard`]), sorted and disjoint, or `None` when the language's
/// [`Tolerance`] leaves the file unchanged.
pub(crate) fn error_ranges(
    spec: &LangSpec,
    tree: &Tree,
    text: &str,
    wide: bool,
) -> Option<Vec<(usize, usize)>> {
    let root = tree.root_node();
    let mut out = Vec::new();
    if !root.has_error() {
        return Some(out);
    }
    if spec.tolerance == Tolerance::None {
        return None;
    }
    let per_node = spec.tolerance == Tolerance::PerNode;
    let mut bytes = 0usize;
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if node.is_error() || node.is_missing() {
            if per_node && macro_idiom(node, text) {
                continue;
            }
            bytes += without_cr(&text[node.byte_range()]);
            out.push(error_guard(node));
            if wide {
                out.push(definition_guard(node));
            }
            if !per_node && out.len() > MAX_ERROR_NODES {
                return None;
            }
            continue;
        }
        let mut c = node.walk();
        for child in node.children(&mut c) {
            if child.has_error() {
                stack.push(child);
            }
        }
    }
    if !per_node && bytes * MAX_ERROR_BYTES_DIVISOR > without_cr(text).max(1) {
        return None;
    }
    Some(merge(out))
}

/// `ranges` sorted, with overlapping and touching ones joined.
fn merge(mut ranges: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    ranges.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(ranges.len());
    for (s, e) in ranges {
        match merged.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => merged.push((s, e)),
        }
    }
    merged
}

/// Length in bytes without carriage returns, so the share of broken bytes, and with it whether
/// a file is transformed at all, is the same with CRLF line ends as with LF.
fn without_cr(text: &str) -> usize {
    text.len() - text.bytes().filter(|&b| b == b'\r').count()
}

/// Answers "is this newline inside a string, heredoc, kept comment or other verbatim node?" for
/// the newlines that end a blank line. The writer asks in increasing order, so the cursor only
/// moves forward from the previous answer's node instead of descending from the root each time
/// (the root's children are scanned linearly: quadratic on large files).
struct Verbatim<'t> {
    text: &'t str,
    compiled: &'t Compiled,
    root: Node<'t>,
    cursor: RefCell<TreeCursor<'t>>,
    last: Cell<usize>,
    extra: &'t HashSet<usize>,
    /// Comments the output removes, sorted: a newline inside one (some grammars end a line
    /// comment with its newline) goes with it and is not verbatim text.
    removed_comments: &'t [(usize, usize)],
    /// Whitespace that a node owns (`@blank_lines_after`): its newlines stay.
    owned_blank_lines: &'t [(usize, usize)],
    /// Error neighbourhoods, sorted and disjoint: their lines stay as written, and so does
    /// the line right before one ([`holds_newline`]).
    untouched: &'t [(usize, usize)],
    /// What the parse did not see (the hidden parts of flattened conditional groups), sorted
    /// and disjoint: its lines stay as written.
    hidden: &'t [(usize, usize)],
}

impl<'t> Verbatim<'t> {
    fn contains(&self, nl: usize) -> bool {
        let after = self.removed_comments.partition_point(|&(s, _)| s <= nl);
        if after > 0 && nl < self.removed_comments[after - 1].1 {
            return false;
        }
        // Sorted and disjoint: the last range starting at or before `nl` is the only candidate.
        let owned = self.owned_blank_lines.partition_point(|&(s, _)| s <= nl);
        if owned > 0 && nl < self.owned_blank_lines[owned - 1].1 {
            return true;
        }
        if holds_newline(self.untouched, nl) || inside(self.hidden, nl) {
            return true;
        }
        let mut cursor = self.cursor.borrow_mut();
        if nl < self.last.replace(nl) {
            cursor.reset(self.root);
        }
        // Forward to the first node on this level or above that ends after `nl`. Every node the
        // cursor went down through contains `nl` too and was checked below when it was entered.
        while cursor.node().end_byte() <= nl {
            if !cursor.goto_next_sibling() && !cursor.goto_parent() {
                return false;
            }
        }
        if cursor.node().start_byte() > nl {
            return false; // between two siblings: only in their parent, which is not verbatim
        }
        loop {
            let node = cursor.node();
            if node.id() != self.root.id() {
                let kind = node.kind_id() as usize;
                // An unnamed token of whitespace holds no text to keep: C's preprocessor newline
                // takes a following blank line with it when lines end in LF (not CRLF), which
                // kept that blank line only in LF files.
                let leaf_with_text = node.child_count() == 0
                    && (node.is_named()
                        || !self.text.as_bytes()[node.byte_range()]
                            .iter()
                            .all(|&b| is_space(b)));
                if leaf_with_text
                    || self
                        .compiled
                        .verbatim_kind
                        .get(kind)
                        .copied()
                        .unwrap_or(false)
                    || self.extra.contains(&node.id())
                {
                    return true;
                }
            }
            if cursor.goto_first_child_for_byte(nl).is_none() {
                return false;
            }
            // tree-sitter also stops at a child that ends at `nl`, which does not hold it.
            while cursor.node().end_byte() <= nl {
                if !cursor.goto_next_sibling() {
                    return false;
                }
            }
            if cursor.node().start_byte() > nl {
                return false;
            }
        }
    }
}

/// Whether the node at `start..end` lies inside a string-like node (some grammars report
/// comments inside heredocs: those are text and stay).
fn inside_string(compiled: &Compiled, root: Node<'_>, start: usize, end: usize) -> bool {
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        if node.start_byte() == start && node.end_byte() == end {
            return false;
        }
        if compiled
            .string_kind
            .get(node.kind_id() as usize)
            .copied()
            .unwrap_or(false)
        {
            return true;
        }
        match cursor.goto_first_child_for_byte(start) {
            Some(_) if cursor.node().start_byte() <= start => {}
            _ => return false,
        }
    }
}

/// Whether the whitespace after byte `pos` contains a blank line (two or more newlines).
fn blank_line_after(text: &str, pos: usize) -> bool {
    text.as_bytes()[pos..]
        .iter()
        .take_while(|&&b| is_space(b))
        .filter(|&&b| b == b'\n')
        .count()
        >= 2
}

/// Whether only spaces and tabs precede byte `pos` on its line.
fn starts_line(text: &str, pos: usize) -> bool {
    text.as_bytes()[..pos]
        .iter()
        .rev()
        .take_while(|&&b| b != b'\n')
        .all(|&b| b == b' ' || b == b'\t')
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c)
}

/// The edit that removes one comment, or `None` when it must stay.
fn comment_edit(spec: &LangSpec, text: &str, start: usize, mut end: usize) -> Option<Edit> {
    let bytes = text.as_bytes();
    // Some grammars include the line terminator in a line comment: it stays.
    while end > start && matches!(bytes[end - 1], b'\n' | b'\r') {
        end -= 1;
    }
    let body = &text[start..end];
    if start == 0 && body.starts_with("#!") {
        return None; // shebang
    }
    let placeholder = spec.placeholder_comment();
    if !placeholder.is_empty() && body == placeholder
        || spec.c_family && c_family::is_table_placeholder(body)
    {
        return None; // left by a previous `signatures` pass: keeps the transform idempotent
    }
    let mut j = end;
    while j < bytes.len() && matches!(bytes[j], b' ' | b'\t') {
        j += 1;
    }
    let at_eol = j == bytes.len() || matches!(bytes[j], b'\n' | b'\r');
    let mut s = start;
    let with = if at_eol {
        while s > 0 && matches!(bytes[s - 1], b' ' | b'\t') {
            s -= 1;
        }
        // In markup the layout between elements is character data, which keeps its lines: a
        // comment alone on its line takes that line with it.
        if spec.markup && (s == 0 || bytes[s - 1] == b'\n') {
            end = j;
            if bytes[end..].starts_with(b"\r\n") {
                end += 2;
            } else if bytes[end..].starts_with(b"\n") {
                end += 1;
            }
        }
        ""
    } else if spec.markup || s == 0 || is_space(bytes[s - 1]) || is_space(bytes[end]) {
        ""
    } else {
        " " // `a/* c */b` must not become `ab`
    };
    Some(Edit {
        start: s,
        end,
        with: with.to_owned(),
    })
}

fn line_ending(text: &str) -> &'static str {
    match text.find('\n') {
        Some(i) if i > 0 && text.as_bytes()[i - 1] == b'\r' => "\r\n",
        _ => "\n",
    }
}

/// The first and last row of `node`'s children that are not comments, or `None` when it holds
/// nothing else. Whether a body is a one-liner is decided on these: `compact` removes the
/// comments, and `signatures` must decide the same with or without them. (Other extras, such as
/// Ruby's heredoc bodies, are code.)
fn code_rows(compiled: &Compiled, node: Node<'_>) -> Option<(usize, usize)> {
    let mut cursor = node.walk();
    let mut rows = None;
    for child in node.children(&mut cursor) {
        if !compiled.is_comment(child) {
            let first = rows.map_or(child.start_position().row, |(first, _)| first);
            rows = Some((first, child.end_position().row));
        }
    }
    rows
}

/// Where the comments after a body's last statement start (its end when there are none). An
/// indented body (Scala 3) holds them, but they document the next declaration: they stay
/// outside the collapsed part, and the walk still visits them.
fn trailing_comments_start(compiled: &Compiled, body: Node<'_>) -> usize {
    let mut cursor = body.walk();
    body.children(&mut cursor)
        .filter(|n| !(n.is_extra() && compiled.is_comment(*n)))
        .last()
        .map_or(body.end_byte(), |last| last.end_byte())
}

/// What a collapsed brace body becomes.
const BRACE_PLACEHOLDER: &str = "{ /* ... */ }";

/// The characters of `node`'s code that are not blank, comments not counted: what `compact`
/// leaves of it, whatever its spacing, so `signatures` decides the same with or without them.
fn code_chars(compiled: &Compiled, text: &str, node: Node<'_>) -> usize {
    let mut count = 0;
    let mut pos = node.start_byte();
    let mut cursor = node.walk();
    let mut comments = Vec::new();
    // Comments are extras, found at any depth: the ones inside, in order.
    'walk: loop {
        let n = cursor.node();
        if compiled.is_comment(n) {
            comments.push(n.byte_range());
        } else if cursor.goto_first_child() {
            continue;
        }
        while n.id() == node.id() || !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
            if cursor.node().id() == node.id() {
                break 'walk;
            }
        }
    }
    for range in comments {
        count += text[pos..range.start]
            .chars()
            .filter(|c| !c.is_whitespace())
            .count();
        pos = range.end;
    }
    count
        + text[pos..node.end_byte()]
            .chars()
            .filter(|c| !c.is_whitespace())
            .count()
}

/// The edit that collapses one body, or `None` when it stays (one-liners, docstring-only bodies).
/// `view` is the text as the parse read it (C and C++: known macros as spaces).
fn body_edit(
    spec: &LangSpec,
    compiled: &Compiled,
    text: &str,
    view: &str,
    node: Node<'_>,
) -> Option<Edit> {
    let (first_row, last_row) = code_rows(compiled, node)?; // `None`: nothing but comments
    // One-line bodies cost less than they save, except in C and C++ headers, which are full of
    // inline members: there one collapses when even its code alone is longer than the
    // placeholder, so the output is always shorter (and the placeholder itself stays).
    if first_row == last_row
        && !(spec.short_bodies && code_chars(compiled, text, node) > BRACE_PLACEHOLDER.len())
    {
        return None;
    }
    let start = node.start_byte();
    let end = trailing_comments_start(compiled, node);
    // Some grammars end a block after the newline that closes it (Scala's indented blocks).
    let end = start + text[start..end].trim_end().len();
    match spec.collapse {
        Collapse::Braces if spec.c_family && c_family::names_a_type(text, node, end) => None,
        Collapse::Braces if spec.c_family => {
            Some(match c_family::declaration_end(text, view, node) {
                Some(declaration_end) => Edit {
                    start: declaration_end,
                    end,
                    with: ";".to_owned(),
                },
                None => Edit {
                    start,
                    end,
                    with: BRACE_PLACEHOLDER.to_owned(),
                },
            })
        }
        Collapse::Braces => Some(Edit {
            start,
            end,
            with: BRACE_PLACEHOLDER.to_owned(),
        }),
        Collapse::RubyBody => Some(Edit {
            start,
            end,
            with: "# ...".to_owned(),
        }),
        Collapse::PythonBlock => {
            // The block must start its own line: `def f():\n    body`.
            let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
            let indent = &text[line_start..start];
            if !indent.bytes().all(|b| b == b' ' || b == b'\t') {
                return None;
            }
            // Statements: named children that are not extras (comments, line continuations).
            let mut c = node.walk();
            let statements: Vec<Node<'_>> = node
                .named_children(&mut c)
                .filter(|n| !n.is_extra())
                .collect();
            // A line continuation right after the block (`stmt \` into a comment line that
            // `compact` removed) goes with it, as it does when the grammar puts it inside.
            let after = &text[end..];
            let spaces = after.len() - after.trim_start_matches([' ', '\t']).len();
            let end = match after[spaces..].strip_prefix('\\') {
                Some(rest) if rest.starts_with('\n') || rest.starts_with("\r\n") => {
                    end + spaces + 1
                }
                _ => end,
            };
            let first = statements.first().copied();
            let docstring = first.filter(|n| {
                n.kind() == "expression_statement"
                    && n.named_child(0)
                        .is_some_and(|s| matches!(s.kind(), "string" | "concatenated_string"))
            });
            match docstring {
                Some(_) if statements.len() == 1 => None, // only a docstring (and comments)
                Some(doc) => Some(Edit {
                    start: doc.end_byte(),
                    end,
                    with: format!("{}{indent}...", line_ending(text)),
                }),
                None if statements.len() == 1
                    && first.is_some_and(|n| text[n.byte_range()].trim() == "...") =>
                {
                    None
                }
                None => Some(Edit {
                    start,
                    end,
                    with: "...".to_owned(),
                }),
            }
        }
    }
}

/// The edit that keeps only the summary of a triple-quoted docstring (f-strings stay whole).
fn docstring_edit(text: &str, node: Node<'_>) -> Option<Edit> {
    if node.kind() != "string" {
        return None;
    }
    let mut c = node.walk();
    let mut start_token = None;
    for child in node.children(&mut c) {
        match child.kind() {
            "string_start" => start_token = Some(&text[child.byte_range()]),
            "interpolation" => return None,
            _ => {}
        }
    }
    let cut = summary::docstring(&text[node.byte_range()], start_token?)?;
    Some(Edit {
        start: node.start_byte() + cut.start,
        end: node.start_byte() + cut.end,
        with: cut.with.to_owned(),
    })
}

/// Whether `text[from..to]` holds at least one line break and nothing but whitespace and the
/// `removed` comments (sorted by start).
fn only_space_and_removed(text: &str, from: usize, to: usize, removed: &[(usize, usize)]) -> bool {
    if !text[from..to].contains('\n') {
        return false;
    }
    let mut pos = from;
    let first = removed.partition_point(|&(s, _)| s < from);
    for &(s, e) in &removed[first..] {
        if s >= to {
            break;
        }
        if e > to || !text[pos..s].bytes().all(is_space) {
            return false;
        }
        pos = e;
    }
    text[pos..to].bytes().all(is_space)
}

/// `signatures`: each kept doc comment keeps its summary. A run of line doc comments (`///` on
/// lines below each other) loses the comments after its first paragraph; a block doc comment is
/// cut inside, keeping its delimiters. `removed` are the ordinary comments this transform
/// removes, sorted; `tags`: Doxygen block commands end a summary (C, C++). Returns the comments
/// to drop.
fn summarize_comments<'t>(
    text: &str,
    tags: bool,
    mut docs: Vec<Node<'t>>,
    removed: &[(usize, usize)],
    kept_blank_lines: &[(usize, usize)],
    errors: &[(usize, usize)],
    edits: &mut Vec<Edit>,
) -> Vec<Node<'t>> {
    let mut drop = Vec::new();
    docs.sort_by_key(|n| n.start_byte());
    docs.dedup_by_key(|n| n.start_byte());
    // The comment text without a line terminator some grammars include.
    let body = |n: &Node<'_>| text[n.byte_range()].trim_end_matches(['\r', '\n']);
    let mut i = 0;
    while i < docs.len() {
        let first = docs[i];
        let Some(prefix) = summary::line_prefix(body(&first)) else {
            let s = first.start_byte();
            let one_line = if tags && !overlaps(errors, s, first.end_byte()) {
                summary::one_line_block(body(&first), tags)
            } else {
                None
            };
            if let Some(one_line) = one_line {
                edits.push(Edit {
                    start: s,
                    end: s + body(&first).len(),
                    with: one_line,
                });
            } else if !overlaps(errors, s, first.end_byte())
                && let Some(cut) = summary::block_comment(body(&first), tags)
            {
                edits.push(Edit {
                    start: s + cut.start,
                    end: s + cut.end,
                    with: cut.with.to_owned(),
                });
            }
            i += 1;
            continue;
        };
        // The run: same marker, each comment on a line below the previous one with nothing
        // between but what `compact` removes (blank lines, ordinary comments). The summary
        // must not depend on those: `signatures` of the compacted text would differ, and
        // rustdoc joins `///` lines across them too.
        let mut j = i + 1;
        while j < docs.len() {
            let (prev, next) = (docs[j - 1], docs[j]);
            let gap_start = prev.start_byte() + body(&prev).len();
            let same = summary::line_prefix(body(&next)) == Some(prefix);
            // ... but not across a blank line the output keeps (Lua separates doc blocks so).
            let first_after_prev =
                kept_blank_lines.partition_point(|&(s, _)| s <= prev.start_byte());
            let kept_blank = kept_blank_lines
                .get(first_after_prev)
                .is_some_and(|&(s, _)| s < next.start_byte());
            if !same
                || kept_blank
                || !only_space_and_removed(text, gap_start, next.start_byte(), removed)
            {
                break;
            }
            j += 1;
        }
        let run = &docs[i..j];
        let lines = run.iter().map(|n| &body(n)[prefix.len()..]);
        if let Some(cut) = summary::paragraph_end(lines, tags) {
            for n in &run[cut..] {
                let (s, e) = (n.start_byte(), n.end_byte());
                if summary::droppable(prefix, body(n)) && !overlaps(errors, s, e) {
                    drop.push(*n);
                }
            }
        }
        i = j;
    }
    drop
}

/// Whether `s..e` (at least its first byte) meets one of `ranges`, which are sorted and
/// disjoint, or the byte on either side of one: a MISSING node is zero-width, and an edit right
/// against a neighbourhood changes it ([`error_ranges`]).
fn overlaps(ranges: &[(usize, usize)], s: usize, e: usize) -> bool {
    let first = ranges.partition_point(|&(_, b)| b < s);
    ranges
        .get(first)
        .is_some_and(|&(a, _)| a.saturating_sub(1) < e.max(s + 1))
}

/// Whether byte `pos` lies in one of `ranges` (sorted and disjoint).
fn inside(ranges: &[(usize, usize)], pos: usize) -> bool {
    let first = ranges.partition_point(|&(_, b)| b <= pos);
    ranges.get(first).is_some_and(|&(a, _)| a <= pos)
}

/// Whether the newline at `nl` lies in one of `ranges` (sorted and disjoint) or ends the line
/// right before one: tree-sitter-c reads `{` then `#ifdef` differently with a blank line
/// between.
fn holds_newline(ranges: &[(usize, usize)], nl: usize) -> bool {
    let first = ranges.partition_point(|&(_, b)| b <= nl);
    ranges.get(first).is_some_and(|&(a, _)| a <= nl + 1)
}

/// What the `bodies` query captured.
#[derive(Default)]
struct BodyCaptures<'t> {
    bodies: Vec<Node<'t>>,
    keeps: Vec<(usize, usize)>,
    docstrings: Vec<Node<'t>>,
    /// `@open`: bodies that stay while what they hold is reduced (a JavaScript IIFE is a module
    /// scope: an ES5 class, a UMD bundle).
    open: HashSet<usize>,
    /// `@deduced`: bodies whose function takes its result type from them (C++ `auto f()`, a
    /// lambda): they stay when a `return` inside gives a value (`@value_return`), unless the
    /// type is also written out (`@declared`: `auto f() -> int`).
    deduced: HashSet<usize>,
    declared: HashSet<usize>,
}

impl<'t> BodyCaptures<'t> {
    fn add(&mut self, query: &tree_sitter::Query, m: &tree_sitter::QueryMatch<'_, 't>) {
        for cap in m.captures {
            match query.capture_names()[cap.index as usize] {
                "body" => self.bodies.push(cap.node),
                "keep" => self
                    .keeps
                    .push((cap.node.start_byte(), cap.node.end_byte())),
                "doc" => self.docstrings.push(cap.node),
                "open" => {
                    self.open.insert(cap.node.id());
                }
                "deduced" => {
                    self.deduced.insert(cap.node.id());
                }
                "declared" => {
                    self.declared.insert(cap.node.id());
                }
                _ => {}
            }
        }
    }

    /// Whether `body` stays whatever it holds: inside a `@keep` region, `@open`, or a
    /// `@deduced` body that returns a value.
    /// In C and C++ a template's `constexpr` or deduced-type body need not stay: its
    /// declaration is valid without it (`c_family::declarable_template`).
    fn stays(
        &self,
        spec: &LangSpec,
        body: Node<'_>,
        query: &tree_sitter::Query,
        text: &str,
        view: &str,
    ) -> bool {
        let (s, e) = (body.start_byte(), body.end_byte());
        if self.open.contains(&body.id()) {
            return true;
        }
        let kept = self.keeps.iter().any(|&(a, b)| a <= s && e <= b)
            || (self.deduced.contains(&body.id())
                && !self.declared.contains(&body.id())
                && returns_value(query, body, text));
        kept && !(spec.c_family && c_family::declarable_template(text, view, body))
    }
}

/// Whether a `return` inside `body` gives a value (a `@value_return` capture of the `bodies`
/// query; nested functions count too, which only keeps more).
fn returns_value(query: &tree_sitter::Query, body: Node<'_>, text: &str) -> bool {
    let Some(index) = query.capture_index_for_name("value_return") else {
        return false;
    };
    let mut cursor = QueryCursor::new();
    let mut captures = cursor.captures(query, body, text.as_bytes());
    while let Some((m, i)) = captures.next() {
        if m.captures[*i].index == index {
            return true;
        }
    }
    false
}

/// What the `comments` query captured.
#[derive(Default)]
struct CommentCaptures<'t> {
    /// Every comment (start, end); those whose start is in `kept` stay.
    removed: Vec<(usize, usize)>,
    kept: HashSet<usize>,
    kept_nodes: Vec<Node<'t>>,
    /// Nodes whose lines are never dropped.
    verbatim_ids: HashSet<usize>,
    /// `@directive`: kept whole at every level, and never part of a doc comment (a `//go:build`
    /// line or a magic comment above the package doc must not become that doc's summary).
    directives: HashSet<usize>,
    /// `@text`: regions shown as written (HTML `<pre>`, `<textarea>`): no comment inside is
    /// removed and no line dropped.
    text_ranges: Vec<(usize, usize)>,
    /// `@blank_lines_after`: ends of nodes that own the blank lines after them (a YAML `|+`
    /// scalar keeps its trailing blank lines; Go needs the blank line after build constraints).
    blank_lines_after: Vec<usize>,
    /// Children of the parents `@documented` nodes were found under, by parent id.
    children: HashMap<usize, Vec<Node<'t>>>,
}

impl<'t> CommentCaptures<'t> {
    /// `in_string` tells whether a node lies inside a string-like node (its "comments" stay).
    fn add(
        &mut self,
        query: &tree_sitter::Query,
        m: &tree_sitter::QueryMatch<'_, 't>,
        text: &str,
        compiled: &Compiled,
        in_string: impl Fn(Node<'_>) -> bool,
    ) {
        let names = query.capture_names();
        for cap in m.captures {
            let node = cap.node;
            match names[cap.index as usize] {
                "comment" if !in_string(node) => {
                    self.removed.push((node.start_byte(), node.end_byte()))
                }
                "keep" => self.keep(node),
                "directive" => self.directive(node),
                "documented" => {
                    for comment in self.comment_group_above(node, text, compiled) {
                        self.keep(comment);
                    }
                }
                "preambled" => {
                    for comment in self.comment_group_above(node, text, compiled) {
                        self.directive(comment);
                    }
                }
                "directive_block" => {
                    // The directive and the comment lines right below it (Go's `// Output:`).
                    let mut line = node;
                    self.directive(line);
                    while let Some(next) = line.next_sibling().filter(|n| {
                        n.kind_id() == node.kind_id()
                            && !blank_line_after(text, line.end_byte())
                            && starts_line(text, n.start_byte())
                    }) {
                        self.directive(next);
                        line = next;
                    }
                }
                "verbatim" => {
                    self.verbatim_ids.insert(node.id());
                }
                "text" => {
                    self.verbatim_ids.insert(node.id());
                    self.text_ranges.push((node.start_byte(), node.end_byte()));
                }
                "blank_lines_after" => self.blank_lines_after.push(node.end_byte()),
                _ => {}
            }
        }
    }

    /// The comment group right above `node`: its preceding siblings that are comments, each
    /// starting its own line, with no blank line between them and `node`. (Found in code: a
    /// query pattern `(comment)+ . (decl)` costs quadratic time on a long comment run, and Go's
    /// `alldocs.go` is 3,000 comment lines above `package main`.)
    fn comment_group_above(
        &mut self,
        node: Node<'t>,
        text: &str,
        compiled: &Compiled,
    ) -> Vec<Node<'t>> {
        let Some(parent) = node.parent() else {
            return Vec::new();
        };
        let siblings = self.children.entry(parent.id()).or_insert_with(|| {
            let mut cursor = parent.walk();
            parent.children(&mut cursor).collect()
        });
        let mut i = siblings.partition_point(|n| n.start_byte() < node.start_byte());
        let mut group = Vec::new();
        while i > 0 {
            let prev = siblings[i - 1];
            if !compiled.is_comment(prev)
                || !starts_line(text, prev.start_byte())
                || blank_line_after(text, prev.end_byte())
            {
                break;
            }
            group.push(prev);
            i -= 1;
        }
        group
    }

    fn directive(&mut self, node: Node<'t>) {
        self.directives.insert(node.start_byte());
        self.kept.insert(node.start_byte());
        self.verbatim_ids.insert(node.id());
    }

    fn keep(&mut self, node: Node<'t>) {
        self.kept.insert(node.start_byte());
        self.kept_nodes.push(node);
        self.verbatim_ids.insert(node.id());
    }
}

/// Runs the queries only from the nodes where one of their patterns can start (per node kind),
/// walking the tree without entering a body that collapses: most of a file is inside bodies,
/// and a query over the whole tree costs about three tree walks.
struct Walk<'a> {
    spec: &'a LangSpec,
    text: &'a str,
    view: &'a str,
    errors: &'a [(usize, usize)],
    /// Bodies left as they are (their starts): the output read differently with them collapsed.
    left: &'a [usize],
    groups: &'a [Group],
    compiled: &'a Compiled,
    bodies: Option<(&'a tree_sitter::Query, &'a [bool])>,
    comments: Option<(&'a tree_sitter::Query, &'a [bool])>,
}

impl Walk<'_> {
    fn run<'t>(
        &self,
        root: Node<'t>,
        bcaps: &mut BodyCaptures<'t>,
        ccaps: &mut CommentCaptures<'t>,
    ) {
        let of_kind = |kinds: &[bool], node: Node<'_>| {
            kinds.get(node.kind_id() as usize).copied().unwrap_or(false)
        };
        let bytes = self.text.as_bytes();
        let mut qc = QueryCursor::new();
        // Matches start at the node the query runs on, never deeper.
        qc.set_max_start_depth(Some(0));
        // Bodies that collapse: neither searched nor entered.
        // Found at their function's node and entered soon after: a short list.
        let mut collapsed: Vec<usize> = Vec::new();
        // End of the string-like node the walk is in (its descendants start before it).
        let mut string_until = 0usize;
        let mut cursor = root.walk();
        loop {
            let node = cursor.node();
            let enter = match collapsed.iter().position(|&id| id == node.id()) {
                Some(i) => {
                    collapsed.swap_remove(i);
                    false
                }
                None => true,
            };
            if !enter && let Some((q, _)) = self.comments {
                // A collapsed body leaves its trailing comments (Scala 3) outside the
                // placeholder (`trailing_comments_start`): visit them.
                let from = trailing_comments_start(self.compiled, node);
                let mut c = node.walk();
                let trailing: Vec<Node<'t>> = node
                    .children(&mut c)
                    .filter(|n| n.start_byte() >= from)
                    .collect();
                for comment in trailing {
                    let mut matches = qc.matches(q, comment, bytes);
                    while let Some(m) = matches.next() {
                        ccaps.add(q, m, self.text, self.compiled, |_| false);
                    }
                }
            }
            let in_string = node.start_byte() < string_until;
            if !in_string && of_kind(&self.compiled.string_kind, node) {
                string_until = node.end_byte();
            }
            if enter && let Some((q, _)) = self.comments.filter(|(_, r)| of_kind(r, node)) {
                let mut matches = qc.matches(q, node, bytes);
                while let Some(m) = matches.next() {
                    ccaps.add(q, m, self.text, self.compiled, |n| {
                        if n.id() == node.id() {
                            in_string
                        } else {
                            inside_string(self.compiled, root, n.start_byte(), n.end_byte())
                        }
                    });
                }
            }
            if enter && let Some((q, _)) = self.bodies.filter(|(_, r)| of_kind(r, node)) {
                let first = bcaps.bodies.len();
                let mut matches = qc.matches(q, node, bytes);
                while let Some(m) = matches.next() {
                    bcaps.add(q, m);
                }
                for body in &bcaps.bodies[first..] {
                    let (s, e) = (body.start_byte(), body.end_byte());
                    // The same conditions as the edits are made with (`run_with`).
                    if !bcaps.stays(self.spec, *body, q, self.text, self.view)
                        && !overlaps(self.errors, s, e)
                        && !self.left.contains(&s)
                        && !splits_group(self.groups, s, e)
                        && body_edit(self.spec, self.compiled, self.text, self.view, *body)
                            .is_some()
                    {
                        collapsed.push(body.id());
                    }
                }
            }
            if enter && cursor.goto_first_child() {
                continue;
            }
            loop {
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    return;
                }
            }
        }
    }
}

/// The parse failed or has too many errors: the text must stay as it is.
#[derive(Debug)]
pub(crate) struct Declined;

/// A file too broken to collapse bodies, with what `compact` makes of it at `signatures`
/// (`None`: nothing to change, or declined too, or asked at `compact`).
pub(crate) struct DeclinedAt(pub Option<(String, Splice)>);

/// [`run_with`], except that a file declined at `signatures` gets `compact`'s result: the
/// levels include each other, so `signatures` is never larger than `compact`.
pub(crate) fn run_or_compact(
    spec: &LangSpec,
    compiled: &Compiled,
    text: &str,
    detail: Detail,
    walk: bool,
) -> Result<Option<(String, Splice)>, DeclinedAt> {
    run_with(spec, compiled, text, detail, walk, true).map_err(|Declined| {
        DeclinedAt(if detail > Detail::Compact {
            run_with(spec, compiled, text, Detail::Compact, walk, true)
                .ok()
                .flatten()
        } else {
            None
        })
    })
}

/// Runs the transform; `Ok(None)` means there was nothing to change. The result comes as text and
/// as the same text described by pieces of `text`.
pub(crate) fn run(
    spec: &LangSpec,
    compiled: &Compiled,
    text: &str,
    detail: Detail,
) -> Result<Option<(String, Splice)>, Declined> {
    run_with(spec, compiled, text, detail, true, true)
}

/// [`run`]; `walk` false runs the `bodies` query over the whole tree (tests compare the two),
/// `verify` false skips the check of C and C++ outputs for new parse errors (tests show what it
/// catches).
pub(crate) fn run_with(
    spec: &LangSpec,
    compiled: &Compiled,
    text: &str,
    detail: Detail,
    walk: bool,
    verify: bool,
) -> Result<Option<(String, Splice)>, Declined> {
    if detail == Detail::Full || text.is_empty() {
        return Ok(None);
    }
    let (tree, groups, view) = parse_view(compiled, text).ok_or(Declined)?;
    let parsed = Parsed {
        tree: &tree,
        groups: &groups,
        view: &view,
    };
    let errors = error_ranges(spec, &tree, text, false).ok_or(Declined)?;
    if spec.tolerance != Tolerance::PerNode || !verify {
        return reduce(
            spec,
            compiled,
            text,
            detail,
            walk,
            &parsed,
            &errors,
            &Fallback::default(),
            &mut Vec::new(),
        );
    }
    // C and C++: tree-sitter's recovery is not local, and its reading of a collapsed body can
    // differ from the body's (`f() { /* ... */ }` then `__attribute__((...))` in a class reads
    // as a member with a brace initializer), so the output is parsed again and must not hold
    // more ERROR and MISSING nodes than the input. If it does, the collapsed body at or before
    // the first new error away from the input's errors stays, one at a time; when the new
    // errors are beside old ones, the edits keep away from the whole definition around each
    // error of the input; if that still fails, the file is declined.
    let before = error_count(&tree);
    let mut errors = errors;
    let mut fallback = Fallback::default();
    let mut wide = errors.is_empty();
    let mut last_misread: Option<(usize, usize)> = None;
    loop {
        let mut collapsed = Vec::new();
        let result = reduce(
            spec,
            compiled,
            text,
            detail,
            walk,
            &parsed,
            &errors,
            &fallback,
            &mut collapsed,
        )?;
        let Some((out, splice)) = result else {
            return Ok(None);
        };
        let Some(out_tree) = reparse(compiled, &parsed, &out, &splice) else {
            return Err(Declined);
        };
        if error_count(&out_tree) <= before {
            return Ok(Some((out, splice)));
        }
        // A declaration first goes back to the brace placeholder (`BTF_ID(struct, x)` without
        // its `;` then `static int f(void);` read as one declaration), then the body stays.
        if let Some((misread, first_error)) = misread_body(&out_tree, &splice, &errors, &collapsed)
        {
            // In a file with errors, a body changed back without moving the first new error
            // did not cause it, nor would the ones before it, one parse each: tree-sitter's
            // recovery from the input's error reads on into later definitions
            // (`kernel/signal.c`: 51 parses). The next tier then.
            let unmoved = before > 0
                && last_misread
                    .is_some_and(|(error, body)| error == first_error && body != misread.start);
            last_misread = Some((first_error, misread.start));
            if !unmoved {
                if misread.declared && fallback.braced.len() < MAX_LEFT_OUT {
                    fallback.braced.push(misread.start);
                    continue;
                }
                if fallback.left.len() < MAX_LEFT_OUT {
                    fallback.left.push(misread.start);
                    continue;
                }
            }
        }
        last_misread = None;
        // New errors beside the input's: tree-sitter's recovery around them can depend on
        // how the definition before ends (`;` or `}`). Every body then keeps the brace
        // placeholder, as the code it replaces, before the edits keep away from the errors.
        if spec.c_family && !fallback.all_braced && collapsed.iter().any(|c| c.declared) {
            fallback = Fallback {
                all_braced: true,
                ..Fallback::default()
            };
            continue;
        }
        if wide {
            return Err(Declined);
        }
        wide = true;
        errors = error_ranges(spec, &tree, text, true).ok_or(Declined)?;
    }
}

/// How many collapsed bodies [`run_with`] leaves as they are, one at a time, before it declines
/// a C or C++ file whose output parses with new errors.
const MAX_LEFT_OUT: usize = 16;

/// A text's parse as [`reduce`] reads it.
#[derive(Clone, Copy)]
pub(crate) struct Parsed<'a> {
    pub(crate) tree: &'a Tree,
    /// Its conditional groups (C, C++).
    pub(crate) groups: &'a [Group],
    /// The text as the parser read it (C and C++: known macros as spaces), offsets as the
    /// text's.
    pub(crate) view: &'a str,
}

/// What [`run_with`] does differently after an output read with new errors: bodies (by their
/// starts) that collapse with the brace placeholder instead of becoming a declaration, and
/// bodies left as they are.
#[derive(Default)]
struct Fallback {
    braced: Vec<usize>,
    left: Vec<usize>,
    /// No definition becomes a declaration (C, C++).
    all_braced: bool,
}

/// One collapsed body as [`reduce`] reports it.
#[derive(Debug, Clone, Copy)]
struct Collapsed {
    /// The body's start: its key in [`Fallback`].
    start: usize,
    /// Where its edit starts reading differently: the definition's start for a body that became
    /// a declaration (the `;` joins what precedes it), else the body's start.
    anchor: usize,
    /// Written as a declaration (C, C++).
    declared: bool,
}

/// The `collapsed` body (in order) to change so that the output reads as the input does: the
/// last one whose anchor is at or before the first error of `out_tree` not beside one of the
/// input's `errors` (its start; its end for a declaration, which can join the code before it
/// into one construct), and that error's start in the input. `None` when every new error is
/// beside an old one. Only the collapse changes, so the comments and blank lines around and
/// inside go as they do with `compact` first.
fn misread_body(
    out_tree: &Tree,
    splice: &Splice,
    errors: &[(usize, usize)],
    collapsed: &[Collapsed],
) -> Option<(Collapsed, usize)> {
    let mut found = Vec::new();
    let mut stack = vec![out_tree.root_node()];
    while let Some(node) = stack.pop() {
        if node.is_error() || node.is_missing() {
            found.push((node.start_byte(), node.end_byte()));
            continue;
        }
        let mut c = node.walk();
        stack.extend(node.children(&mut c).filter(|n| n.has_error()));
    }
    found.sort_unstable();
    let (first, first_end) = found
        .iter()
        .map(|&(s, e)| (splice.original_offset(s), splice.original_offset(e)))
        .find(|&(pos, _)| !inside(errors, pos))?;
    collapsed
        .iter()
        .rev()
        .copied()
        .find(|c| c.anchor <= if c.declared { first_end } else { first })
        .map(|c| (c, first))
}

/// The ERROR and MISSING nodes of `tree`, nested ones included.
pub(crate) fn error_count(tree: &Tree) -> usize {
    let mut count = 0;
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if node.is_error() || node.is_missing() {
            count += 1;
        }
        let mut c = node.walk();
        stack.extend(node.children(&mut c).filter(|n| n.has_error()));
    }
    count
}

/// The edits of one level on a parsed text, away from the `errors` neighbourhoods.
#[allow(clippy::too_many_arguments)]
fn reduce(
    spec: &LangSpec,
    compiled: &Compiled,
    text: &str,
    detail: Detail,
    walk: bool,
    parsed: &Parsed<'_>,
    errors: &[(usize, usize)],
    fallback: &Fallback,
    collapsed: &mut Vec<Collapsed>,
) -> Result<Option<(String, Splice)>, Declined> {
    let Parsed { tree, groups, view } = *parsed;
    // Whether an edit was left out because of a parse error: a file that gets no edit for that
    // reason is declined (`Outcome::ParseErrors`), one with nothing to remove is unchanged.
    let mut blocked = false;
    let root = tree.root_node();
    let bytes = text.as_bytes();

    // One walk runs both queries from the nodes where their patterns start; a query with a
    // pattern that has no single root node runs over the whole tree instead.
    let bodies_query = compiled
        .bodies
        .as_ref()
        .filter(|_| detail >= Detail::Signatures);
    let body_roots = compiled.body_roots.as_deref().filter(|_| walk);
    let comment_roots = compiled.comment_roots.as_deref().filter(|_| walk);
    let mut bcaps = BodyCaptures::default();
    let mut ccaps = CommentCaptures::default();
    if let Some(bq) = bodies_query
        && body_roots.is_none()
    {
        let mut cursor = QueryCursor::new();
        let mut matches = cursor.matches(bq, root, bytes);
        while let Some(m) = matches.next() {
            bcaps.add(bq, m);
        }
    }
    let walk_bodies = bodies_query.zip(body_roots);
    let walk_comments = comment_roots.map(|r| (&compiled.comments, r));
    if walk_bodies.is_some() || walk_comments.is_some() {
        let queries = Walk {
            spec,
            compiled,
            text,
            view,
            errors,
            left: &fallback.left,
            groups,
            bodies: walk_bodies,
            comments: walk_comments,
        };
        queries.run(root, &mut bcaps, &mut ccaps);
    }

    // Bodies.
    let mut body_edits: Vec<Edit> = Vec::new();
    // Cuts inside kept doc comments and docstrings (`signatures`: their summary stays).
    let mut doc_edits: Vec<Edit> = Vec::new();
    if let Some(bq) = bodies_query {
        let mut bodies = std::mem::take(&mut bcaps.bodies);
        for &node in &bcaps.docstrings {
            let (s, e) = (node.start_byte(), node.end_byte());
            if bcaps.keeps.iter().any(|&(a, b)| a <= s && e <= b) {
                continue;
            }
            if overlaps(errors, s, e) {
                blocked = true;
                continue;
            }
            if let Some(edit) = docstring_edit(text, node) {
                doc_edits.push(edit);
            }
        }
        bodies.sort_by_key(|n| (n.start_byte(), std::cmp::Reverse(n.end_byte())));
        let mut last_end = 0usize;
        for node in bodies {
            let (s, e) = (node.start_byte(), node.end_byte());
            if s < last_end
                || bcaps.stays(spec, node, bq, text, view)
                || splits_group(groups, s, e)
                || fallback.left.contains(&s)
            {
                continue;
            }
            if overlaps(errors, s, e) {
                blocked = true;
                continue;
            }
            if let Some(mut edit) = body_edit(spec, compiled, text, view, node) {
                let mut declared = edit.start < s;
                if declared && (fallback.all_braced || fallback.braced.contains(&s)) {
                    edit = Edit {
                        start: s,
                        end: edit.end,
                        with: BRACE_PLACEHOLDER.to_owned(),
                    };
                    declared = false;
                }
                let anchor = if declared {
                    c_family::definition_start(node)
                } else {
                    s
                };
                last_end = e;
                collapsed.push(Collapsed {
                    start: s,
                    anchor,
                    declared,
                });
                body_edits.push(edit);
            }
        }
    }

    // C and C++ tables of constants keep their head.
    if detail >= Detail::Signatures && spec.c_family {
        let mut tables_added = false;
        let removed: Vec<(usize, usize)> = body_edits.iter().map(|e| (e.start, e.end)).collect();
        for table in c_family::constant_tables(text, &removed) {
            if splits_group(groups, table.start, table.end) {
                continue;
            }
            if overlaps(errors, table.start, table.end) {
                blocked = true;
                continue;
            }
            body_edits.push(Edit {
                start: table.start,
                end: table.end,
                with: c_family::table_placeholder(table.left_out),
            });
            tables_added = true;
        }
        if tables_added {
            body_edits.sort_by_key(|e| e.start);
        }
    }

    // Comments.
    if walk_comments.is_none() {
        // One query over the whole tree: comments inside collapsed bodies are dropped when the
        // edits merge. (Querying only the gaps between bodies costs more: each query walks down
        // from the root, past every earlier top-level sibling.)
        let q = &compiled.comments;
        let mut cursor = QueryCursor::new();
        let mut matches = cursor.matches(q, root, bytes);
        while let Some(m) = matches.next() {
            ccaps.add(q, m, text, compiled, |n| {
                inside_string(compiled, root, n.start_byte(), n.end_byte())
            });
        }
    }
    let CommentCaptures {
        mut removed,
        mut kept,
        mut kept_nodes,
        mut verbatim_ids,
        directives,
        text_ranges,
        blank_lines_after,
        children: _,
    } = ccaps;
    kept_nodes.retain(|n| !directives.contains(&n.start_byte()));
    let blank_line_ranges = owned_blank_lines(text, &blank_lines_after);
    if detail >= Detail::Signatures {
        let mut ordinary: Vec<(usize, usize)> = removed
            .iter()
            .copied()
            .filter(|&(s, e)| !kept.contains(&s) && !overlaps(errors, s, e))
            .collect();
        ordinary.sort_unstable();
        for n in summarize_comments(
            text,
            spec.doc_tags,
            kept_nodes,
            &ordinary,
            &blank_line_ranges,
            errors,
            &mut doc_edits,
        ) {
            kept.remove(&n.start_byte());
            verbatim_ids.remove(&n.id());
            removed.push((n.start_byte(), n.end_byte()));
        }
    }
    removed.sort_unstable();
    removed.dedup();

    // Merge: comment edits outside collapsed bodies and away from parse errors.
    let mut edits: Vec<Edit> = Vec::with_capacity(removed.len() + body_edits.len());
    let mut bi = body_edits.into_iter().peekable();
    let mut last_end = 0usize;
    let mut removed_comments = Vec::with_capacity(removed.len());
    for (s, e) in removed {
        if kept.contains(&s) || text_ranges.iter().any(|&(a, b)| a <= s && e <= b) {
            continue;
        }
        if overlaps(errors, s, e) {
            blocked = true;
            continue;
        }
        while let Some(b) = bi.peek() {
            if b.start < e {
                let b = bi.next().expect("peeked");
                if b.start >= last_end {
                    last_end = b.end;
                    edits.push(b);
                }
            } else {
                break;
            }
        }
        if s < last_end {
            continue; // inside a collapsed body (or overlapping an earlier edit)
        }
        if let Some(mut edit) = comment_edit(spec, text, s, e) {
            removed_comments.push((s, e));
            edit.start = edit.start.max(last_end);
            last_end = edit.end;
            edits.push(edit);
        }
    }
    for b in bi {
        if b.start >= last_end {
            last_end = b.end;
            edits.push(b);
        }
    }
    if !doc_edits.is_empty() {
        // A doc cut inside a collapsed body (a nested function's docstring) goes with the body.
        edits.extend(doc_edits);
        edits.sort_by_key(|e| e.start);
        let mut last_end = 0usize;
        edits.retain(|e| {
            let keep = e.start >= last_end;
            if keep {
                last_end = e.end;
            }
            keep
        });
    }

    let hidden = merge(
        groups
            .iter()
            .filter(|g| g.flattened)
            .flat_map(|g| g.hidden.iter().copied())
            .collect(),
    );
    let verbatim = Verbatim {
        text,
        compiled,
        root,
        cursor: RefCell::new(root.walk()),
        last: Cell::new(0),
        extra: &verbatim_ids,
        removed_comments: &removed_comments,
        owned_blank_lines: &blank_line_ranges,
        untouched: errors,
        hidden: &hidden,
    };
    if edits.is_empty() && blocked {
        return Err(Declined);
    }
    let (out, splice) = write(text, &edits, &verbatim);
    Ok((out != text).then_some((out, splice)))
}

/// The blank lines that nodes ending at `ends` own (`@blank_lines_after`), as sorted, disjoint
/// ranges: from the line after the node's own to the next text. Nodes followed by no blank line
/// own nothing.
fn owned_blank_lines(text: &str, ends: &[usize]) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut ranges: Vec<(usize, usize)> = ends
        .iter()
        .filter(|&&end| blank_line_after(text, end))
        .map(|&end| {
            // Some nodes end with their line's newline (a YAML block scalar).
            let first = if end > 0 && bytes[end - 1] == b'\n' {
                end
            } else {
                bytes[end..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(text.len(), |i| end + i + 1)
            };
            let next = bytes[end..]
                .iter()
                .position(|&b| !is_space(b))
                .map_or(text.len(), |i| end + i);
            (first, next)
        })
        .collect();
    ranges.sort_unstable();
    ranges.dedup();
    ranges
}

/// Writes `text` with `edits` applied, dropping lines left blank outside `verbatim` ranges; the
/// splice describes the same output as pieces of `text`.
fn write(text: &str, edits: &[Edit], verbatim: &Verbatim<'_>) -> (String, Splice) {
    let mut w = Writer {
        out: String::with_capacity(text.len()),
        splice: Splice::default(),
        line_start: 0,
        verbatim,
    };
    let mut pos = 0;
    for edit in edits {
        w.copy(text, pos, edit.start);
        w.generated(&edit.with);
        pos = edit.end;
    }
    w.copy(text, pos, text.len());
    // A whitespace-only last line without terminator goes too.
    if w.out[w.line_start..].bytes().all(is_space) {
        w.truncate(w.line_start);
    }
    (w.out, w.splice)
}

struct Writer<'a, 't> {
    out: String,
    splice: Splice,
    line_start: usize,
    verbatim: &'a Verbatim<'t>,
}

impl Writer<'_, '_> {
    /// Copies `text[from..to]`, deciding at each newline whether the finished line stays.
    fn copy(&mut self, text: &str, mut from: usize, to: usize) {
        while from < to {
            match text[from..to].find('\n') {
                None => {
                    self.out.push_str(&text[from..to]);
                    self.splice.keep(from, to);
                    return;
                }
                Some(i) => {
                    let nl = from + i;
                    self.out.push_str(&text[from..=nl]);
                    self.splice.keep(from, nl + 1);
                    from = nl + 1;
                    let blank = self.out.as_bytes()[self.line_start..]
                        .iter()
                        .all(|&b| is_space(b));
                    if blank && !self.verbatim.contains(nl) && !self.after_continuation() {
                        self.truncate(self.line_start);
                    } else {
                        self.line_start = self.out.len();
                    }
                }
            }
        }
    }

    /// Whether the line before the current one ends with a backslash: a line continuation in
    /// Python, shell, C macros and Ruby, which a blank line ends. Dropping that blank line
    /// would join the next line to the statement.
    fn after_continuation(&self) -> bool {
        let Some(before) = self.out[..self.line_start].strip_suffix('\n') else {
            return false;
        };
        let before = before.strip_suffix('\r').unwrap_or(before);
        before.ends_with('\\')
    }

    fn truncate(&mut self, len: usize) {
        self.out.truncate(len);
        self.splice.truncate(len);
    }

    /// Appends generated text (placeholders), which is never blank.
    fn generated(&mut self, s: &str) {
        self.out.push_str(s);
        self.splice.add(s);
        if let Some(i) = s.rfind('\n') {
            self.line_start = self.out.len() - s.len() + i + 1;
        }
    }
}
