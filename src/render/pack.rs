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
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BudgetReport {
    pub max_tokens: u64,
    /// With an exact budget (`--tokenizer`): the encoding. Every figure of the report is then
    /// exact tokens of that encoding and the budget covers the complete document.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<&'static str>,
    /// With an exact budget: the complete document's exact count. Reported beside the document
    /// (stderr, the MCP budget block), not inside it, where it would count itself.
    #[serde(skip)]
    pub document_tokens: Option<u64>,
    pub included_files: u64,
    pub included_tokens: u64,
    pub skipped_files: u64,
    pub skipped_tokens: u64,
    /// The largest skipped files (at most 25), largest first.
    pub largest_skipped: Vec<SkippedFile>,
    /// How many skipped files are not listed.
    pub more_skipped: u64,
    /// With `query` or `rank`: the order the budget filled in and the detail each file got.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ranking: Option<RankingReport>,
}

/// How a ranked pack filled its budget (`pack_context` with `query` or `rank`).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RankingReport {
    /// `relevance` (to the query) or `centrality`.
    pub by: &'static str,
    pub full_files: u64,
    pub signature_files: u64,
    /// Ranked files left as names in the tree: the budget was spent.
    pub over_budget_files: u64,
    /// Files the query does not match: names in the tree only.
    pub unmatched_files: u64,
    /// The best files with their detail, best first (at most [`RANKED_LISTED`]).
    pub files: Vec<RankedFile>,
}

/// One ranked file of a pack.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RankedFile {
    pub path: String,
    /// `full`, `signatures` or `names`.
    pub detail: &'static str,
    pub score: f64,
    pub reasons: Vec<String>,
}

/// How many ranked files a report lists.
pub const RANKED_LISTED: usize = 30;

impl RankingReport {
    fn push_text(&self, out: &mut String) {
        use crate::select::plural;
        let by = match self.by {
            "relevance" => "relevance to the query",
            other => other,
        };
        out.push_str(&format!(
            "Ranked by {by}: {} in full, {} at signatures, {} as names only (over the budget)",
            plural(self.full_files as usize, "file", "files"),
            plural(self.signature_files as usize, "file", "files"),
            plural(self.over_budget_files as usize, "file", "files"),
        ));
        if self.unmatched_files > 0 {
            out.push_str(&format!(
                ", {} as names only (no match)",
                plural(self.unmatched_files as usize, "file", "files")
            ));
        }
        out.push_str(".\n");
        for file in &self.files {
            out.push_str(&format!(
                "- {}: {} (score {:.3}",
                text_line(&file.path),
                file.detail,
                file.score
            ));
            if !file.reasons.is_empty() {
                out.push_str("; ");
                out.push_str(&text_line(&file.reasons.join("; ")));
            }
            out.push_str(")\n");
        }
    }
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

    /// An exact budget of `max_tokens` tokens of `encoding` for the complete document.
    pub fn exact(max_tokens: u64, encoding: &'static str) -> Self {
        Self {
            max_tokens,
            encoding: Some(encoding),
            ..Self::default()
        }
    }

    /// The human-readable report (a separate block after the pack).
    pub fn to_text(&self) -> String {
        if let Some(encoding) = self.encoding {
            return self.exact_text(encoding);
        }
        use crate::select::plural;
        let tokens = |n: u64| plural(n as usize, "estimated token", "estimated tokens");
        let mut out = format!(
            "Token budget: {} (one token per four characters of file content).\nIncluded: {}, {}.\nSkipped: {}, {}.\n",
            tokens(self.max_tokens),
            plural(self.included_files as usize, "file", "files"),
            tokens(self.included_tokens),
            plural(self.skipped_files as usize, "file", "files"),
            tokens(self.skipped_tokens)
        );
        self.push_skipped(&mut out);
        if let Some(ranking) = &self.ranking {
            ranking.push_text(&mut out);
        }
        out
    }

    fn exact_text(&self, encoding: &str) -> String {
        use crate::select::plural;
        let tokens = |n: u64| plural(n as usize, "token", "tokens");
        let mut out = format!(
            "Token budget: {} {encoding} tokens for the complete document (exact; tree, headings, markup and report included).\n",
            self.max_tokens
        );
        if let Some(document) = self.document_tokens {
            out.push_str(&format!("Document: {}.\n", tokens(document)));
        }
        out.push_str(&format!(
            "Included: {}, {}.\nSkipped: {}, {}.\n",
            plural(self.included_files as usize, "file", "files"),
            tokens(self.included_tokens),
            plural(self.skipped_files as usize, "file", "files"),
            tokens(self.skipped_tokens)
        ));
        self.push_skipped(&mut out);
        out
    }

    fn push_skipped(&self, out: &mut String) {
        use crate::select::plural;
        if self.skipped_files > 0 {
            if !self.largest_skipped.is_empty() {
                out.push_str("Largest skipped files:\n");
            }
            for file in &self.largest_skipped {
                out.push_str(&format!(
                    "- {} ({})\n",
                    text_line(&file.path),
                    plural(file.tokens as usize, "token", "tokens")
                ));
            }
            if self.more_skipped > 0 {
                out.push_str(&format!("and {} more\n", self.more_skipped));
            }
            out.push_str("To fit more files, use detail=compact or detail=signatures, narrow the selection, or raise max_tokens.\n");
        }
    }

    /// [`BudgetReport::to_text`] in at most `max_chars` characters: the smallest listed skipped
    /// files move into "and X more" until it fits (the counts and totals always stay).
    pub fn to_text_within(&self, max_chars: usize) -> String {
        let mut report = self.clone();
        loop {
            let text = report.to_text();
            if text.chars().count() <= max_chars {
                return text;
            }
            if let Some(ranking) = report.ranking.as_mut().filter(|r| !r.files.is_empty()) {
                ranking.files.pop();
                continue;
            }
            if report.largest_skipped.is_empty() {
                return text;
            }
            report.largest_skipped.pop();
            report.more_skipped += 1;
        }
    }
}

/// Streaming writer of one pack document.
pub struct PackWriter<'a, W: Write> {
    out: W,
    layout: PackLayout<'a>,
    files_written: usize,
}

/// What a pack looks like: format, view, header and how labels are shown. It renders the
/// document's parts to any writer, so a part can be measured before it is written.
#[derive(Clone, Copy)]
pub struct PackLayout<'a> {
    pub format: Format,
    pub view: View,
    pub header: &'a TreeHeader,
    pub label: &'a (dyn Fn(&str) -> String + Sync),
}

impl<'a, W: Write> PackWriter<'a, W> {
    pub fn new(
        out: W,
        format: Format,
        view: View,
        header: &'a TreeHeader,
        label: &'a (dyn Fn(&str) -> String + Sync),
    ) -> Self {
        Self {
            out,
            layout: PackLayout {
                format,
                view,
                header,
                label,
            },
            files_written: 0,
        }
    }

    pub fn layout(&self) -> PackLayout<'a> {
        self.layout
    }

    /// Write everything before the first file: title, root, tree.
    pub fn begin(&mut self, entries: &[Entry]) -> io::Result<()> {
        self.layout.write_begin(&mut self.out, entries)
    }

    /// Write one included file.
    pub fn file(&mut self, relative: &str, content: &TextContent) -> io::Result<()> {
        self.layout
            .write_file(&mut self.out, relative, content, self.files_written == 0)?;
        self.files_written += 1;
        Ok(())
    }

    /// Close the document; JSON and XML carry metrics and, with a budget, `tokenBudget`.
    pub fn finish(mut self, metrics: &PackMetrics, budget: Option<&BudgetReport>) -> io::Result<W> {
        self.layout
            .write_finish(&mut self.out, metrics, budget, self.files_written > 0)?;
        self.out.flush()?;
        Ok(self.out)
    }
}

impl PackLayout<'_> {
    /// Everything before the first file: title, root, tree.
    pub fn write_begin(&self, out: &mut dyn Write, entries: &[Entry]) -> io::Result<()> {
        let label = self.label;
        let address = self.header.address.clone();
        match self.format {
            Format::Markdown => match self.view {
                View::TreeContent => {
                    writeln!(
                        out,
                        "# Project context: {}\n",
                        markdown_heading(&self.header.name)
                    )?;
                    let tree = render_tree(
                        self.header,
                        entries,
                        Format::Markdown,
                        TreeLimits::default(),
                        label,
                    )
                    .map_err(io::Error::other)?;
                    writeln!(out, "## Tree\n")?;
                    out.write_all(tree.text.as_bytes())?;
                    writeln!(out, "\n## Files")?;
                }
                View::Content | View::Diff => {
                    writeln!(out, "Root: {}", markdown_inline(&address))?;
                }
                View::Tree => {
                    let tree = render_tree(
                        self.header,
                        entries,
                        Format::Markdown,
                        TreeLimits::default(),
                        label,
                    )
                    .map_err(io::Error::other)?;
                    out.write_all(tree.text.as_bytes())?;
                }
            },
            Format::Text => match self.view {
                View::TreeContent | View::Tree => {
                    let tree = render_tree(
                        self.header,
                        entries,
                        Format::Text,
                        TreeLimits::default(),
                        label,
                    )
                    .map_err(io::Error::other)?;
                    out.write_all(tree.text.as_bytes())?;
                }
                View::Content | View::Diff => writeln!(out, "Root: {}", text_line(&address))?,
            },
            Format::Json => {
                write!(
                    out,
                    "{{\"format\":\"devprojex-pack\",\"version\":1,\"root\":{},\"name\":{},\"view\":\"{}\"",
                    json_string(&address),
                    json_string(&self.header.name),
                    self.view.as_str()
                )?;
                if !matches!(self.view, View::Content | View::Diff) {
                    out.write_all(b",\n\"tree\":[\n")?;
                    for (i, entry) in entries.iter().enumerate() {
                        out.write_all(json_entry(entry, label).as_bytes())?;
                        out.write_all(if i + 1 < entries.len() { b",\n" } else { b"\n" })?;
                    }
                    out.write_all(b"]")?;
                }
                if self.view != View::Tree {
                    out.write_all(b",\n\"files\":[")?;
                }
            }
            Format::Xml => {
                writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")?;
                writeln!(
                    out,
                    "<pack format=\"devprojex-pack\" version=\"1\" root=\"{}\" name=\"{}\" view=\"{}\">",
                    xml_attribute(&address),
                    xml_attribute(&self.header.name),
                    self.view.as_str()
                )?;
                if !matches!(self.view, View::Content | View::Diff) {
                    writeln!(out, "<tree>")?;
                    for entry in entries {
                        writeln!(out, "{}", xml_entry(entry, label))?;
                    }
                    writeln!(out, "</tree>")?;
                }
                if self.view != View::Tree {
                    writeln!(out, "<files>")?;
                }
            }
        }
        Ok(())
    }

    /// One included file's section; `first` for the first file of the document.
    pub fn write_file(
        &self,
        out: &mut dyn Write,
        relative: &str,
        content: &TextContent,
        first: bool,
    ) -> io::Result<()> {
        let path = (self.label)(relative);
        let text = content.text.as_str();
        let language = if self.view == View::Diff {
            "diff"
        } else {
            language_tag(relative)
        };
        match self.format {
            Format::Markdown => {
                let fence = markdown_fence(text);
                writeln!(out, "\n### {}\n", markdown_heading(&path))?;
                writeln!(out, "{fence}{language}")?;
                out.write_all(text.as_bytes())?;
                if !text.is_empty() && !text.ends_with('\n') {
                    out.write_all(b"\n")?;
                }
                writeln!(out, "{fence}")?;
            }
            Format::Text => {
                let rule = "=".repeat(64);
                writeln!(out, "\n{rule}\nFile: {}\n{rule}", text_line(&path))?;
                out.write_all(text.as_bytes())?;
                if !text.is_empty() && !text.ends_with('\n') {
                    out.write_all(b"\n")?;
                }
            }
            Format::Json => {
                if !first {
                    out.write_all(b",")?;
                }
                write!(
                    out,
                    "\n{{\"path\":{},\"language\":{},\"characters\":{},\"tokens\":{},\"lines\":{},\"content\":{}}}",
                    json_string(&path),
                    json_string(language),
                    content.characters,
                    content.tokens,
                    content.lines,
                    json_string(text)
                )?;
            }
            Format::Xml => {
                writeln!(
                    out,
                    "<file path=\"{}\" language=\"{}\" characters=\"{}\" tokens=\"{}\" lines=\"{}\">{}</file>",
                    xml_attribute(&path),
                    language,
                    content.characters,
                    content.tokens,
                    content.lines,
                    xml_text(text)
                )?;
            }
        }
        Ok(())
    }

    /// Everything after the last file; JSON and XML carry metrics and, with a budget,
    /// `tokenBudget`.
    pub fn write_finish(
        &self,
        out: &mut dyn Write,
        metrics: &PackMetrics,
        budget: Option<&BudgetReport>,
        files_written: bool,
    ) -> io::Result<()> {
        match self.format {
            Format::Markdown | Format::Text => {}
            Format::Json => {
                if self.view != View::Tree {
                    out.write_all(if files_written { b"\n]" } else { b"]" })?;
                }
                write!(
                    out,
                    ",\n\"metrics\":{}",
                    serde_json::to_string(metrics).map_err(io::Error::other)?
                )?;
                if let Some(report) = budget {
                    let labelled = labelled_report(report, self.label);
                    write!(
                        out,
                        ",\n\"tokenBudget\":{}",
                        serde_json::to_string(&labelled).map_err(io::Error::other)?
                    )?;
                }
                out.write_all(b"}\n")?;
            }
            Format::Xml => {
                if self.view != View::Tree {
                    writeln!(out, "</files>")?;
                }
                let m = metrics;
                writeln!(
                    out,
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
                    let encoding = report
                        .encoding
                        .map(|e| format!(" encoding=\"{e}\""))
                        .unwrap_or_default();
                    writeln!(
                        out,
                        "<tokenBudget maxTokens=\"{}\"{encoding} includedFiles=\"{}\" includedTokens=\"{}\" skippedFiles=\"{}\" skippedTokens=\"{}\" moreSkipped=\"{}\">",
                        report.max_tokens,
                        report.included_files,
                        report.included_tokens,
                        report.skipped_files,
                        report.skipped_tokens,
                        report.more_skipped
                    )?;
                    for skipped in &report.largest_skipped {
                        writeln!(
                            out,
                            "<skipped path=\"{}\" tokens=\"{}\"/>",
                            xml_attribute(&(self.label)(&skipped.path)),
                            skipped.tokens
                        )?;
                    }
                    if let Some(ranking) = &report.ranking {
                        writeln!(
                            out,
                            "<ranking by=\"{}\" fullFiles=\"{}\" signatureFiles=\"{}\" overBudgetFiles=\"{}\" unmatchedFiles=\"{}\">",
                            ranking.by,
                            ranking.full_files,
                            ranking.signature_files,
                            ranking.over_budget_files,
                            ranking.unmatched_files
                        )?;
                        for file in &ranking.files {
                            writeln!(
                                out,
                                "<ranked path=\"{}\" detail=\"{}\" score=\"{:.3}\" reasons=\"{}\"/>",
                                xml_attribute(&(self.label)(&file.path)),
                                file.detail,
                                file.score,
                                xml_attribute(&file.reasons.join("; "))
                            )?;
                        }
                        writeln!(out, "</ranking>")?;
                    }
                    writeln!(out, "</tokenBudget>")?;
                }
                writeln!(out, "</pack>")?;
            }
        }
        Ok(())
    }
}

fn labelled_report(report: &BudgetReport, label: &dyn Fn(&str) -> String) -> BudgetReport {
    let mut copy = report.clone();
    for file in &mut copy.largest_skipped {
        file.path = label(&file.path);
    }
    if let Some(ranking) = &mut copy.ranking {
        for file in &mut ranking.files {
            file.path = label(&file.path);
        }
    }
    copy
}
