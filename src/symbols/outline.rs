//! `devprojex outline FILE`: one file's definitions in source order, with their start and end
//! lines, parsed from its redacted text.

use std::sync::Arc;

use devprojex_detail::Detail;
use serde::Serialize;

use crate::content::Content;
use crate::engine::{Engine, Request};
use crate::error::{DpxError, ErrorKind, Result};
use crate::project::ProjectRoot;

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
    /// The definitions of the project file `path`, in order.
    pub fn outline(
        &self,
        root: &ProjectRoot,
        request: &Request,
        path: &str,
    ) -> Result<Vec<OutlineEntry>> {
        let selection = self.select_sources(root, request, false, false, None)?;
        let Some(entry) = selection.files().find(|e| e.relative == path) else {
            return Err(DpxError::new(
                ErrorKind::PathNotFound,
                format!(
                    "'{path}' is not a source file of the effective selection (one of the 15 languages find_symbol reads, not excluded by .gitignore or the built-in rules); use get_tree to list the project's files"
                ),
            ));
        };
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
        let definitions = match devprojex_symbols::try_definitions(path, &text) {
            Some(Ok(found)) => Arc::new(found),
            Some(Err(skip)) => {
                return Err(DpxError::invalid_arguments(format!(
                    "'{path}' was not parsed: {skip:?}; pick another file or read it with get_file"
                )));
            }
            None => Arc::new(Vec::new()),
        };
        Ok(definitions
            .iter()
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
