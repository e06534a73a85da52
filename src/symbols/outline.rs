//! `devprojex outline FILE`: one file's definitions in source order, with their start and end
//! lines, parsed from its redacted text.

use std::time::{Duration, Instant};

use devprojex_detail::Detail;
use serde::Serialize;

use devprojex_symbols::{Kind, Lang, Skip};

use crate::content::Content;
use crate::engine::{Engine, Request};
use crate::error::{DpxError, ErrorKind, Result};
use crate::limits;
use crate::project::ProjectRoot;
use crate::select::Entry;

/// One definition of the outline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OutlineEntry {
    pub name: String,
    pub kind: &'static str,
    pub line: usize,
    #[serde(rename = "endLine")]
    pub end_line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub container: Option<String>,
}

impl Engine {
    /// The definitions of the project file `path` (of `kind` when given), in order: `find_symbol`
    /// `outline` and `devprojex outline`.
    pub fn outline(
        &self,
        root: &ProjectRoot,
        request: &Request,
        path: &str,
        kind: Option<Kind>,
    ) -> Result<Vec<OutlineEntry>> {
        let chars = path.chars().count();
        if chars > limits::MAX_PATH_CHARS {
            return Err(DpxError::invalid_arguments(format!(
                "outline has {chars} characters; at most {} are allowed",
                limits::MAX_PATH_CHARS
            )));
        }
        // judged by its name alone, before anything is opened
        if Lang::of_path(path).is_none() {
            return Err(DpxError::invalid_arguments(format!(
                "'{}' is not a source file of the 15 languages find_symbol reads (by its extension); pass a file such as src/main.rs, or read it with get_file",
                crate::render::escape::text_line(path)
            )));
        }
        let selection = self.select_sources(root, request, false, false, None)?;
        let files: Vec<&Entry> = selection.files().collect();
        // excluded and missing files get one answer (issue 35)
        let (path, entry) = crate::engine::selected_file(root, path, &files, "outline")?;
        let text = match self.pipeline(Detail::Full, None).load(root, entry) {
            Content::Text(text) => text.text,
            _ => {
                return Err(DpxError::new(
                    ErrorKind::PathNotFound,
                    format!(
                        "'{path}' could not be read as text (binary, unreadable or over the 16 MiB inspection limit)"
                    ),
                ));
            }
        };
        // one file: bounded by the parse limit, and by the lookups' deadline
        let started = Instant::now();
        let stop = || started.elapsed() >= Duration::from_secs(limits::SYMBOL_DEADLINE_SECS);
        let definitions = match devprojex_symbols::try_definitions_until(&path, &text, &stop) {
            Some(Ok(found)) => found,
            Some(Err(skip)) => {
                let why = match skip {
                    Skip::TooLarge => "it is larger than 4 MiB",
                    Skip::OverBudget => "its definitions would take more than 64 times its size",
                    Skip::TooDeeplyNested => "it is nested too deeply (over 64 levels)",
                    Skip::Failed => "the parser failed on it",
                    Skip::ParseOverBudget => {
                        "the parser's error recovery on it went over its budget"
                    }
                    Skip::Interrupted => "parsing it took longer than the time limit",
                };
                return Err(DpxError::invalid_arguments(format!(
                    "'{path}' was not outlined: {why}; read it with get_file, or look names up with find_symbol"
                )));
            }
            None => Vec::new(),
        };
        Ok(definitions
            .iter()
            .filter(|d| super::kind_matches(kind, d.kind))
            .map(|d| OutlineEntry {
                name: d.name.clone(),
                kind: d.kind.as_str(),
                line: d.line,
                end_line: d.end_line,
                container: d.container.clone(),
            })
            .collect())
    }
}

/// The outline as text: `line-endLine kind name (in container)` per definition.
pub fn outline_text(entries: &[OutlineEntry]) -> String {
    use crate::render::escape::text_line;
    let mut out = String::new();
    for entry in entries {
        out.push_str(&format!(
            "{}-{}: {} {}",
            entry.line,
            entry.end_line,
            entry.kind,
            text_line(&entry.name)
        ));
        if let Some(container) = &entry.container {
            out.push_str(&format!(" (in {})", text_line(container)));
        }
        out.push('\n');
    }
    out
}
