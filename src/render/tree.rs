//! The project tree in four formats, with an optional line limit.
//!
//! Text and Markdown over the limit end with a `[Tree truncated ...]` trailer; JSON and XML are
//! never cut (the caller gets `DPX-MCP-PAYLOAD-TRUNCATED` instead of a partial document).
//! JSON and XML write one entry per line, so "lines" means the same thing in every format.

use std::fmt::Write as _;

use super::Format;
use super::escape::{json_string, markdown_inline, text_line, xml_attribute};
use crate::error::{DpxError, Result, codes};
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
}

impl RenderedTree {
    /// The trusted `[Tree truncated ...]` trailer, when the line limit cut the tree.
    pub fn trailer(&self) -> Option<String> {
        self.truncated.then(|| {
            format!(
                "[Tree truncated: showing {} of {} entries. Narrow with paths, include_patterns, exclude_patterns or max_depth to see the rest.]",
                self.shown_entries, self.total_entries
            )
        })
    }
}

/// Render `entries` (already in selection order). `max_depth` counts top-level entries as 1.
/// `line_limit` bounds the entry lines.
pub fn render_tree(
    header: &TreeHeader,
    entries: &[Entry],
    format: Format,
    max_depth: Option<usize>,
    line_limit: Option<usize>,
    label: &dyn Fn(&str) -> String,
) -> Result<RenderedTree> {
    let visible: Vec<&Entry> = entries
        .iter()
        .filter(|e| max_depth.is_none_or(|limit| e.depth() < limit))
        .collect();
    let total = visible.len();
    // The line limit covers the whole document: header and closing lines included.
    let frame_lines = match format {
        Format::Text => 1,
        Format::Markdown | Format::Json => 2,
        Format::Xml => 3,
    };
    let limit = line_limit.map_or(usize::MAX, |lines| lines.saturating_sub(frame_lines).max(1));
    if total > limit && matches!(format, Format::Json | Format::Xml) {
        return Err(DpxError::new(
            codes::PAYLOAD_TRUNCATED,
            format!(
                "the {} tree has {total} entries, more than the {limit}-line limit, and {} trees are never cut; narrow with paths, include_patterns, exclude_patterns or max_depth, or use format markdown or text, which truncate",
                format.as_str(),
                format.as_str()
            ),
        ));
    }
    let shown = &visible[..total.min(limit)];
    let mut out = String::new();
    match format {
        Format::Text => {
            let _ = writeln!(out, "{}", text_line(&header.address));
            write_text_lines(&mut out, shown, label);
        }
        Format::Markdown => {
            let _ = writeln!(out, "Root: {}", markdown_inline(&header.address));
            out.push('\n');
            for entry in shown {
                let indent = "  ".repeat(entry.depth());
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
            for (i, entry) in shown.iter().enumerate() {
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
            for entry in shown {
                out.push_str(&xml_entry(entry, label));
                out.push('\n');
            }
            out.push_str("</tree>\n");
        }
    }
    let truncated = total > shown.len();
    Ok(RenderedTree {
        text: out,
        truncated,
        shown_entries: shown.len(),
        total_entries: total,
    })
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
fn write_text_lines(out: &mut String, entries: &[&Entry], label: &dyn Fn(&str) -> String) {
    // is_last[i]: no later sibling of entries[i] in the list.
    let mut is_last = vec![false; entries.len()];
    let mut seen_parents = std::collections::HashSet::new();
    for (i, entry) in entries.iter().enumerate().rev() {
        let parent = entry
            .relative
            .rfind('/')
            .map(|s| &entry.relative[..s])
            .unwrap_or("");
        is_last[i] = seen_parents.insert(parent);
    }
    let mut open_levels: Vec<bool> = Vec::new(); // per depth: does the ancestor have later siblings?
    for (i, entry) in entries.iter().enumerate() {
        let depth = entry.depth();
        open_levels.truncate(depth);
        let mut line = String::new();
        for &has_more in &open_levels {
            line.push_str(if has_more { "│   " } else { "    " });
        }
        line.push_str(if is_last[i] {
            "└── "
        } else {
            "├── "
        });
        line.push_str(&text_line(&label(entry.name())));
        match (entry.kind, entry.binary) {
            (EntryKind::Dir, _) => line.push('/'),
            (EntryKind::File, true) => line.push_str(" [binary]"),
            (EntryKind::Symlink, _) => {
                line.push_str(" -> ");
                line.push_str(&text_line(&label(entry.target.as_deref().unwrap_or(""))));
            }
            _ => {}
        }
        out.push_str(&line);
        out.push('\n');
        if entry.kind == EntryKind::Dir {
            while open_levels.len() < depth {
                open_levels.push(false);
            }
            open_levels.push(!is_last[i]);
        }
    }
}
