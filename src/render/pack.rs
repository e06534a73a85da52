//! Pack documents, written as they are produced (streaming): the header and tree first, then
//! one file at a time, then (JSON/XML) the metrics and token budget. Memory stays bounded by
//! the largest file. Schema: `docs/pack-format.md`.

use std::io::{self, Write};

use serde::Serialize;

use super::escape::{
    json_string, language_tag, markdown_fence, markdown_heading, markdown_inline, text_line,
    xml_attribute, xml_text,
};
use super::tree::{TreeHeader, TreeLimits, json_entry, render_tree, xml_entry};
use super::{Format, View};
use crate::content::TextContent;
use crate::select::Entry;

/// Metrics of a pack: the complete effective selection after detail and redaction, before the
/// budget (a tree-only pack reads no content: characters and tokens then come from file sizes).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PackMetrics {
    pub files: u64,
    pub text_files: u64,
    pub binary_files: u64,
    /// Files over the 16 MiB inspection boundary: not inspected, never included.
    pub withheld_files: u64,
    pub unreadable_files: u64,
    pub bytes: u64,
    pub characters: u64,
    pub tokens: u64,
    pub lines: u64,
    pub redactions: u64,
    /// `content` (measured after detail and redaction) or `source-bytes` (tree-only pack).
    pub basis: &'static str,
}

/// One file the budget could not admit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SkippedFile {
    pub path: String,
    pub tokens: u64,
}

/// The token-budget outcome.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BudgetReport {
    pub max_tokens: u64,
    pub included_files: u64,
    pub included_tokens: u64,
    pub skipped_files: u64,
    pub skipped_tokens: u64,
    /// The largest skipped files (at most 25), largest first.
    pub largest_skipped: Vec<SkippedFile>,
    /// How many skipped files are not listed.
    pub more_skipped: u64,
}

/// How many skipped files a report lists.
pub const SKIPPED_LISTED: usize = 25;

impl BudgetReport {
    pub fn new(max_tokens: u64) -> Self {
        Self {
            max_tokens,
            ..Self::default()
        }
    }

    /// Track a skipped file, keeping only the largest few.
    pub fn skip(&mut self, path: &str, tokens: u64) {
        self.skipped_files += 1;
        self.skipped_tokens += tokens;
        self.largest_skipped.push(SkippedFile {
            path: path.to_string(),
            tokens,
        });
        if self.largest_skipped.len() > SKIPPED_LISTED * 4 {
            self.trim();
        }
    }

    /// Sort by size (then path) and keep the top entries.
    pub fn trim(&mut self) {
        self.largest_skipped
            .sort_by(|a, b| b.tokens.cmp(&a.tokens).then_with(|| a.path.cmp(&b.path)));
        self.largest_skipped.truncate(SKIPPED_LISTED);
        self.more_skipped = self.skipped_files - self.largest_skipped.len() as u64;
    }

    /// The human-readable report (a separate block after the pack).
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "Token budget: {} estimated tokens (one token per four characters of file content).\nIncluded: {} files, {} estimated tokens.\nSkipped: {} files, {} estimated tokens.\n",
            self.max_tokens,
            self.included_files,
            self.included_tokens,
            self.skipped_files,
            self.skipped_tokens
        );
        if !self.largest_skipped.is_empty() {
            out.push_str("Largest skipped files:\n");
            for file in &self.largest_skipped {
                out.push_str(&format!(
                    "- {} ({} tokens)\n",
                    text_line(&file.path),
                    file.tokens
                ));
            }
            if self.more_skipped > 0 {
                out.push_str(&format!("and {} more\n", self.more_skipped));
            }
            out.push_str("To fit more files, use detail=compact or detail=signatures, narrow the selection, or raise max_tokens.\n");
        }
        out
    }
}

/// Streaming writer of one pack document.
pub struct PackWriter<'a, W: Write> {
    out: W,
    format: Format,
    view: View,
    header: TreeHeader,
    label: &'a dyn Fn(&str) -> String,
    files_written: usize,
}

impl<'a, W: Write> PackWriter<'a, W> {
    pub fn new(
        out: W,
        format: Format,
        view: View,
        header: TreeHeader,
        label: &'a dyn Fn(&str) -> String,
    ) -> Self {
        Self {
            out,
            format,
            view,
            header,
            label,
            files_written: 0,
        }
    }

    /// Write everything before the first file: title, root, tree.
    pub fn begin(&mut self, entries: &[Entry]) -> io::Result<()> {
        let label = self.label;
        let address = self.header.address.clone();
        match self.format {
            Format::Markdown => match self.view {
                View::TreeContent => {
                    writeln!(
                        self.out,
                        "# Project context: {}\n",
                        markdown_heading(&self.header.name)
                    )?;
                    let tree = render_tree(
                        &self.header,
                        entries,
                        Format::Markdown,
                        TreeLimits::default(),
                        label,
                    )
                    .map_err(io::Error::other)?;
                    writeln!(self.out, "## Tree\n")?;
                    self.out.write_all(tree.text.as_bytes())?;
                    writeln!(self.out, "\n## Files")?;
                }
                View::Content => {
                    writeln!(self.out, "Root: {}", markdown_inline(&address))?;
                }
                View::Tree => {
                    let tree = render_tree(
                        &self.header,
                        entries,
                        Format::Markdown,
                        TreeLimits::default(),
                        label,
                    )
                    .map_err(io::Error::other)?;
                    self.out.write_all(tree.text.as_bytes())?;
                }
            },
            Format::Text => match self.view {
                View::TreeContent | View::Tree => {
                    let tree = render_tree(
                        &self.header,
                        entries,
                        Format::Text,
                        TreeLimits::default(),
                        label,
                    )
                    .map_err(io::Error::other)?;
                    self.out.write_all(tree.text.as_bytes())?;
                }
                View::Content => writeln!(self.out, "Root: {}", text_line(&address))?,
            },
            Format::Json => {
                write!(
                    self.out,
                    "{{\"format\":\"devprojex-pack\",\"version\":1,\"root\":{},\"name\":{},\"view\":\"{}\"",
                    json_string(&address),
                    json_string(&self.header.name),
                    self.view.as_str()
                )?;
                if self.view != View::Content {
                    self.out.write_all(b",\n\"tree\":[\n")?;
                    for (i, entry) in entries.iter().enumerate() {
                        self.out.write_all(json_entry(entry, label).as_bytes())?;
                        self.out
                            .write_all(if i + 1 < entries.len() { b",\n" } else { b"\n" })?;
                    }
                    self.out.write_all(b"]")?;
                }
                if self.view != View::Tree {
                    self.out.write_all(b",\n\"files\":[")?;
                }
            }
            Format::Xml => {
                writeln!(self.out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")?;
                writeln!(
                    self.out,
                    "<pack format=\"devprojex-pack\" version=\"1\" root=\"{}\" name=\"{}\" view=\"{}\">",
                    xml_attribute(&address),
                    xml_attribute(&self.header.name),
                    self.view.as_str()
                )?;
                if self.view != View::Content {
                    writeln!(self.out, "<tree>")?;
                    for entry in entries {
                        writeln!(self.out, "{}", xml_entry(entry, label))?;
                    }
                    writeln!(self.out, "</tree>")?;
                }
                if self.view != View::Tree {
                    writeln!(self.out, "<files>")?;
                }
            }
        }
        Ok(())
    }

    /// Write one included file.
    pub fn file(&mut self, relative: &str, content: &TextContent) -> io::Result<()> {
        let path = (self.label)(relative);
        let text = content.text.as_str();
        match self.format {
            Format::Markdown => {
                let fence = markdown_fence(text);
                writeln!(self.out, "\n### {}\n", markdown_heading(&path))?;
                writeln!(self.out, "{fence}{}", language_tag(relative))?;
                self.out.write_all(text.as_bytes())?;
                if !text.is_empty() && !text.ends_with('\n') {
                    self.out.write_all(b"\n")?;
                }
                writeln!(self.out, "{fence}")?;
            }
            Format::Text => {
                let rule = "=".repeat(64);
                writeln!(self.out, "\n{rule}\nFile: {}\n{rule}", text_line(&path))?;
                self.out.write_all(text.as_bytes())?;
                if !text.is_empty() && !text.ends_with('\n') {
                    self.out.write_all(b"\n")?;
                }
            }
            Format::Json => {
                if self.files_written > 0 {
                    self.out.write_all(b",")?;
                }
                write!(
                    self.out,
                    "\n{{\"path\":{},\"language\":{},\"characters\":{},\"tokens\":{},\"lines\":{},\"content\":{}}}",
                    json_string(&path),
                    json_string(language_tag(relative)),
                    content.characters,
                    content.tokens,
                    content.lines,
                    json_string(text)
                )?;
            }
            Format::Xml => {
                writeln!(
                    self.out,
                    "<file path=\"{}\" language=\"{}\" characters=\"{}\" tokens=\"{}\" lines=\"{}\">{}</file>",
                    xml_attribute(&path),
                    language_tag(relative),
                    content.characters,
                    content.tokens,
                    content.lines,
                    xml_text(text)
                )?;
            }
        }
        self.files_written += 1;
        Ok(())
    }

    /// Close the document; JSON and XML carry metrics and, with a budget, `tokenBudget`.
    pub fn finish(mut self, metrics: &PackMetrics, budget: Option<&BudgetReport>) -> io::Result<W> {
        match self.format {
            Format::Markdown | Format::Text => {}
            Format::Json => {
                if self.view != View::Tree {
                    self.out
                        .write_all(if self.files_written > 0 { b"\n]" } else { b"]" })?;
                }
                write!(
                    self.out,
                    ",\n\"metrics\":{}",
                    serde_json::to_string(metrics).map_err(io::Error::other)?
                )?;
                if let Some(report) = budget {
                    let labelled = labelled_report(report, self.label);
                    write!(
                        self.out,
                        ",\n\"tokenBudget\":{}",
                        serde_json::to_string(&labelled).map_err(io::Error::other)?
                    )?;
                }
                self.out.write_all(b"}\n")?;
            }
            Format::Xml => {
                if self.view != View::Tree {
                    writeln!(self.out, "</files>")?;
                }
                let m = metrics;
                writeln!(
                    self.out,
                    "<metrics basis=\"{}\" files=\"{}\" textFiles=\"{}\" binaryFiles=\"{}\" withheldFiles=\"{}\" unreadableFiles=\"{}\" bytes=\"{}\" characters=\"{}\" tokens=\"{}\" lines=\"{}\" redactions=\"{}\"/>",
                    m.basis,
                    m.files,
                    m.text_files,
                    m.binary_files,
                    m.withheld_files,
                    m.unreadable_files,
                    m.bytes,
                    m.characters,
                    m.tokens,
                    m.lines,
                    m.redactions
                )?;
                if let Some(report) = budget {
                    writeln!(
                        self.out,
                        "<tokenBudget maxTokens=\"{}\" includedFiles=\"{}\" includedTokens=\"{}\" skippedFiles=\"{}\" skippedTokens=\"{}\" moreSkipped=\"{}\">",
                        report.max_tokens,
                        report.included_files,
                        report.included_tokens,
                        report.skipped_files,
                        report.skipped_tokens,
                        report.more_skipped
                    )?;
                    for skipped in &report.largest_skipped {
                        writeln!(
                            self.out,
                            "<skipped path=\"{}\" tokens=\"{}\"/>",
                            xml_attribute(&(self.label)(&skipped.path)),
                            skipped.tokens
                        )?;
                    }
                    writeln!(self.out, "</tokenBudget>")?;
                }
                writeln!(self.out, "</pack>")?;
            }
        }
        self.out.flush()?;
        Ok(self.out)
    }
}

fn labelled_report(report: &BudgetReport, label: &dyn Fn(&str) -> String) -> BudgetReport {
    let mut copy = report.clone();
    for file in &mut copy.largest_skipped {
        file.path = label(&file.path);
    }
    copy
}
