//! The project tree in four formats, with an optional line limit.
//!
//! Text and Markdown over the limit end with a `[Tree truncated ...]` trailer; JSON and XML are
//! never cut (the caller gets `DPX-MCP-PAYLOAD-TRUNCATED` instead of a partial document). With
//! `fit_depth`, a text or Markdown tree too large for the limits shows its deepest complete
//! levels instead.
//! JSON and XML write one entry per line, so "lines" means the same thing in every format.

use std::fmt::Write as _;

use super::Format;
use super::escape::{json_string, markdown_inline, push_text_line, text_line, xml_attribute};
use crate::error::{DpxError, ErrorKind, Result};
use crate::select::{Entry, EntryKind};

/// The header values of a tree: the project address (possibly private-data redacted) and name.
#[derive(Debug, Clone, Default)]
pub struct TreeHeader {
    pub address: String,
    pub name: String,
}

/// A rendered tree and whether it was cut.
#[derive(Debug, Clone)]
pub struct RenderedTree {
    /// The tree document itself (project data).
    pub text: String,
    pub truncated: bool,
    pub shown_entries: usize,
    pub total_entries: usize,
    /// Set when the tree was chosen to show fewer levels than it has: (shown, total).
    pub depth_limited: Option<(usize, usize)>,
    /// What bounded a cut tree.
    pub cut_by: Option<TreeLimit>,
}

/// Which limit cut a tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TreeLimit {
    Lines,
    Characters,
}

/// How much of a tree may be shown.
#[derive(Debug, Clone, Copy, Default)]
pub struct TreeLimits {
    /// Levels to show (top-level entries are level 1).
    pub max_depth: Option<usize>,
    /// Lines of the whole document, header and closing lines included.
    pub max_lines: Option<usize>,
    /// Characters of the whole document.
    pub max_chars: Option<usize>,
    /// Without `max_depth`, text and Markdown: show the deepest levels whose whole tree fits the
    /// limits, instead of the first entries depth-first (the MCP default: an overview of any
    /// repository). JSON and XML are whole or an error.
    pub fit_depth: bool,
}

impl RenderedTree {
    /// The trusted `[Tree truncated ...]` trailer, when a limit cut the tree.
    pub fn trailer(&self) -> Option<String> {
        if let Some((shown, total)) = self.depth_limited {
            return Some(format!(
                "[Tree truncated: showing depth {shown} of {total}; pass max_depth, paths or include_patterns to go deeper.]"
            ));
        }
        self.truncated.then(|| {
            let limit = match self.cut_by {
                Some(TreeLimit::Characters) => " at the 50,000-character limit",
                _ => "",
            };
            format!(
                "[Tree truncated{limit}: showing {} of {} entries. Narrow with paths, include_patterns, exclude_patterns or max_depth to see the rest.]",
                self.shown_entries, self.total_entries
            )
        })
    }
}

/// Render `entries` (already in selection order) within `limits`.
pub fn render_tree(
    header: &TreeHeader,
    entries: &[Entry],
    format: Format,
    limits: TreeLimits,
    label: &dyn Fn(&str) -> String,
) -> Result<RenderedTree> {
    // The line limit covers the whole document: header and closing lines included.
    let frame_lines = match format {
        Format::Text => 1,
        Format::Markdown | Format::Json => 2,
        Format::Xml => 3,
    };
    let line_room = limits
        .max_lines
        .map_or(usize::MAX, |lines| lines.saturating_sub(frame_lines).max(1));
    // Each entry's depth, counted once (a kernel tree has 83,000 entries).
    let depths: Vec<usize> = entries.iter().map(Entry::depth).collect();
    let levels = depths.iter().map(|d| d + 1).max().unwrap_or(0);
    // A JSON or XML tree is whole or an error: fewer levels would be a partial document
    // without a mark inside it (folders listed without their files).
    let fits_depth = limits.fit_depth && matches!(format, Format::Text | Format::Markdown);
    if fits_depth && limits.max_depth.is_none() && levels > 1 {
        // The deepest level whose whole tree fits the line and character limits.
        let mut per_level = vec![0usize; levels + 1];
        for depth in &depths {
            per_level[depth + 1] += 1;
        }
        let mut fitting = None;
        let mut visible = 0;
        for (depth, count) in per_level.iter().enumerate().skip(1) {
            visible += count;
            if visible > line_room {
                break;
            }
            fitting = Some(depth);
        }
        // Fewer levels never make a document longer: search the deepest that fits the
        // characters too.
        if let Some(fitting) = fitting {
            let fits = |tree: &RenderedTree| {
                limits
                    .max_chars
                    .is_none_or(|max| tree.text.chars().count() <= max)
            };
            let (mut low, mut high) = (0usize, fitting);
            let mut best = None;
            while low < high {
                let middle = (low + high).div_ceil(2);
                let tree = render_within(
                    header,
                    (entries, &depths),
                    format,
                    Some(middle),
                    usize::MAX,
                    label,
                );
                if fits(&tree) {
                    low = middle;
                    best = Some(tree);
                } else {
                    high = middle - 1;
                }
            }
            if low > 0 {
                let tree = match best {
                    Some(tree) if tree.shown_entries == visible_at(&depths, low) => tree,
                    _ => render_within(
                        header,
                        (entries, &depths),
                        format,
                        Some(low),
                        usize::MAX,
                        label,
                    ),
                };
                return Ok(RenderedTree {
                    depth_limited: (low < levels).then_some((low, levels)),
                    ..tree
                });
            }
        }
        // Not even the top level fits: cut it like any tree.
    }
    let visible_total = depths
        .iter()
        .filter(|&&d| limits.max_depth.is_none_or(|limit| d < limit))
        .count();
    if visible_total > line_room && matches!(format, Format::Json | Format::Xml) {
        return Err(whole_document_error(
            format,
            visible_total,
            line_room,
            "line",
        ));
    }
    let listed = (entries, depths.as_slice());
    let mut tree = render_within(header, listed, format, limits.max_depth, line_room, label);
    if tree.truncated {
        tree.cut_by = Some(TreeLimit::Lines);
    }
    if let Some(max_chars) = limits.max_chars
        && tree.text.chars().count() > max_chars
    {
        if matches!(format, Format::Json | Format::Xml) {
            return Err(whole_document_error(
                format,
                visible_total,
                max_chars,
                "character",
            ));
        }
        // Fewer entries until the document fits (the trailer lives outside the document).
        let (mut low, mut high) = (0usize, tree.shown_entries);
        while low < high {
            let middle = (low + high).div_ceil(2);
            let candidate = render_within(header, listed, format, limits.max_depth, middle, label);
            if candidate.text.chars().count() <= max_chars {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
        tree = render_within(header, listed, format, limits.max_depth, low, label);
        tree.truncated = true;
        tree.cut_by = Some(TreeLimit::Characters);
    }
    Ok(tree)
}

fn visible_at(depths: &[usize], depth: usize) -> usize {
    depths.iter().filter(|&&d| d < depth).count()
}

fn whole_document_error(format: Format, entries: usize, limit: usize, unit: &str) -> DpxError {
    DpxError::new(
        ErrorKind::PayloadTruncated,
        format!(
            "the {} tree of {} is longer than the {}-{unit} limit, and {} trees are never cut; narrow with paths, include_patterns, exclude_patterns or max_depth, or use format markdown or text, which truncate",
            format.as_str(),
            crate::select::plural(entries, "entry", "entries"),
            group_thousands(
                limit
                    + if unit == "line" {
                        frame_lines_of(format)
                    } else {
                        0
                    }
            ),
            format.as_str()
        ),
    )
}

fn frame_lines_of(format: Format) -> usize {
    match format {
        Format::Text => 1,
        Format::Markdown | Format::Json => 2,
        Format::Xml => 3,
    }
}

/// `2000` -> `2,000`.
pub fn group_thousands(value: usize) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Render the entries visible at `max_depth`, at most `max_entries` of them (`depths` holds
/// each entry's depth).
fn render_within(
    header: &TreeHeader,
    (entries, depths): (&[Entry], &[usize]),
    format: Format,
    max_depth: Option<usize>,
    max_entries: usize,
    label: &dyn Fn(&str) -> String,
) -> RenderedTree {
    let visible: Vec<(&Entry, usize)> = entries
        .iter()
        .zip(depths.iter().copied())
        .filter(|&(_, d)| max_depth.is_none_or(|limit| d < limit))
        .collect();
    let total = visible.len();
    let shown = &visible[..total.min(max_entries)];
    let mut out = String::with_capacity(shown.len() * 32);
    match format {
        Format::Text => {
            let _ = writeln!(out, "{}", text_line(&header.address));
            write_text_lines(&mut out, shown, label);
        }
        Format::Markdown => {
            let _ = writeln!(out, "Root: {}", markdown_inline(&header.address));
            out.push('\n');
            for &(entry, depth) in shown {
                let indent = "  ".repeat(depth);
                let name = markdown_inline(&label(entry.name()));
                let suffix = match (entry.kind, entry.binary) {
                    (EntryKind::Dir, _) => "/".to_string(),
                    (EntryKind::File, true) => " (binary)".to_string(),
                    (EntryKind::Symlink, _) => format!(
                        " -> {}",
                        markdown_inline(&label(entry.target.as_deref().unwrap_or("")))
                    ),
                    _ => String::new(),
                };
                let _ = writeln!(out, "{indent}- {name}{suffix}");
            }
        }
        Format::Json => {
            let _ = writeln!(
                out,
                "{{\"root\":{},\"name\":{},\"entries\":[",
                json_string(&header.address),
                json_string(&header.name)
            );
            for (i, (entry, _)) in shown.iter().enumerate() {
                out.push_str(&json_entry(entry, label));
                out.push_str(if i + 1 < shown.len() { ",\n" } else { "\n" });
            }
            out.push_str("]}\n");
        }
        Format::Xml => {
            out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
            let _ = writeln!(
                out,
                "<tree root=\"{}\" name=\"{}\">",
                xml_attribute(&header.address),
                xml_attribute(&header.name)
            );
            for (entry, _) in shown {
                out.push_str(&xml_entry(entry, label));
                out.push('\n');
            }
            out.push_str("</tree>\n");
        }
    }
    RenderedTree {
        text: out,
        truncated: total > shown.len(),
        shown_entries: shown.len(),
        total_entries: total,
        depth_limited: None,
        cut_by: None,
    }
}

/// One JSON tree entry (used by trees and JSON packs).
pub fn json_entry(entry: &Entry, label: &dyn Fn(&str) -> String) -> String {
    match entry.kind {
        EntryKind::Dir => format!(
            "{{\"path\":{},\"type\":\"dir\"}}",
            json_string(&label(&entry.relative))
        ),
        EntryKind::File => format!(
            "{{\"path\":{},\"type\":\"file\",\"size\":{},\"binary\":{}}}",
            json_string(&label(&entry.relative)),
            entry.size,
            entry.binary
        ),
        EntryKind::Symlink => format!(
            "{{\"path\":{},\"type\":\"symlink\",\"target\":{}}}",
            json_string(&label(&entry.relative)),
            json_string(&label(entry.target.as_deref().unwrap_or("")))
        ),
    }
}

/// One XML tree entry (used by trees and XML packs).
pub fn xml_entry(entry: &Entry, label: &dyn Fn(&str) -> String) -> String {
    match entry.kind {
        EntryKind::Dir => format!("<dir path=\"{}\"/>", xml_attribute(&label(&entry.relative))),
        EntryKind::File => format!(
            "<file path=\"{}\" size=\"{}\" binary=\"{}\"/>",
            xml_attribute(&label(&entry.relative)),
            entry.size,
            entry.binary
        ),
        EntryKind::Symlink => format!(
            "<symlink path=\"{}\" target=\"{}\"/>",
            xml_attribute(&label(&entry.relative)),
            xml_attribute(&label(entry.target.as_deref().unwrap_or("")))
        ),
    }
}

/// Box-drawing lines for the text tree (no synthetic root node).
fn write_text_lines(out: &mut String, entries: &[(&Entry, usize)], label: &dyn Fn(&str) -> String) {
    // is_last[i]: no later sibling of entries[i] in the list. Entries are in tree order with
    // their folders, so a later sibling is the next entry at the same depth before the list
    // goes back above it: walking backwards, `later[d]` holds the parent of the entry last
    // seen at depth d, forgotten whenever a shallower entry ends its subtree.
    let parent_of = |entry: &Entry| -> usize { entry.relative.rfind('/').unwrap_or(0) };
    let mut is_last = vec![false; entries.len()];
    let mut later: Vec<Option<&str>> = Vec::new();
    for (i, &(entry, depth)) in entries.iter().enumerate().rev() {
        let parent = &entry.relative[..parent_of(entry)];
        if later.len() <= depth {
            later.resize(depth + 1, None);
        }
        is_last[i] = later[depth] != Some(parent);
        later[depth] = Some(parent);
        later.truncate(depth + 1);
    }
    let mut open_levels: Vec<bool> = Vec::new(); // per depth: does the ancestor have later siblings?
    for (i, &(entry, depth)) in entries.iter().enumerate() {
        open_levels.truncate(depth);
        for &has_more in &open_levels {
            out.push_str(if has_more { "│   " } else { "    " });
        }
        out.push_str(if is_last[i] {
            "└── "
        } else {
            "├── "
        });
        push_text_line(out, &label(entry.name()));
        match (entry.kind, entry.binary) {
            (EntryKind::Dir, _) => out.push('/'),
            (EntryKind::File, true) => out.push_str(" [binary]"),
            (EntryKind::Symlink, _) => {
                out.push_str(" -> ");
                push_text_line(out, &label(entry.target.as_deref().unwrap_or("")));
            }
            _ => {}
        }
        out.push('\n');
        if entry.kind == EntryKind::Dir {
            while open_levels.len() < depth {
                open_levels.push(false);
            }
            open_levels.push(!is_last[i]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(paths: &[&str]) -> Vec<Entry> {
        paths
            .iter()
            .map(|p| Entry {
                relative: p.trim_end_matches('/').to_string(),
                kind: if p.ends_with('/') {
                    EntryKind::Dir
                } else {
                    EntryKind::File
                },
                ..Entry::default()
            })
            .collect()
    }

    /// The connectors: a folder's last child closes its branch, deeper subtrees between
    /// siblings keep the sibling's branch open, and a later folder at the same depth under
    /// another parent is not a sibling.
    #[test]
    fn text_tree_lines_close_each_branch_at_its_last_sibling() {
        let list = entries(&[
            "a/",
            "a/b/",
            "a/b/c.rs",
            "a/b/d/",
            "a/b/d/e.rs",
            "a/f.rs",
            "g/",
            "g/h/",
            "g/h/i.rs",
            "j.rs",
        ]);
        let shown: Vec<(&Entry, usize)> = list.iter().map(|e| (e, e.depth())).collect();
        let mut out = String::new();
        write_text_lines(&mut out, &shown, &|s| s.to_string());
        let expected = "\
├── a/
│   ├── b/
│   │   ├── c.rs
│   │   └── d/
│   │       └── e.rs
│   └── f.rs
├── g/
│   └── h/
│       └── i.rs
└── j.rs
";
        assert_eq!(out, expected);
    }
}
