//! What a result covers of its selection, one shape for every outcome (search, symbols,
//! related files, packs): files withheld over the inspection boundary, files that could not be
//! read, the selection's warnings, and why the work stopped early. The doors turn it into their
//! trailers (`mcp::server::append_trailer`, `cli::commands::print_trailer`); the lines it gives
//! are trusted: codes and counts, never a path.

use crate::error::ErrorKind;
use crate::select::{self, SelectionWarnings};

/// Why a result stopped before the end of its selection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The result limit (`max_results`) was reached.
    MaxResults,
    /// The time limit (MCP) or `--timeout` (CLI) was reached.
    Deadline,
}

/// What a result did not cover.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Coverage {
    /// Selected files over the 16 MiB inspection boundary: never inspected, never returned.
    pub withheld_files: u64,
    /// Selected files that could not be read (permission denied, I/O error, replaced).
    pub unreadable_files: u64,
    /// Selected files the listing showed as text whose content read found binary (a NUL byte
    /// past the first 8 KiB, or in a file the walk does not sniff): left out like every binary
    /// file.
    pub late_binary_files: u64,
    pub warnings: SelectionWarnings,
    pub stopped: Option<Stop>,
}

impl Coverage {
    /// Nothing left out yet, with the selection's warnings.
    pub fn of(warnings: &SelectionWarnings) -> Self {
        Self {
            warnings: warnings.clone(),
            ..Self::default()
        }
    }

    /// The trusted diagnostic lines: the selection's warnings, then the partial-content notice.
    pub fn notices(&self) -> Vec<String> {
        let mut lines = self.warnings.messages();
        lines.extend(partial_content_notice(
            self.withheld_files,
            self.unreadable_files,
        ));
        lines.extend(late_binary_notice(self.late_binary_files));
        lines
    }
}

/// The trusted notice for files found binary only when read: they are binary in every tool
/// (left out of packs and searches, refused by `get_file`); the tree did not mark them.
pub fn late_binary_notice(files: u64) -> Option<String> {
    (files > 0).then(|| {
        format!(
            "{} binary when read (the listing checks only the first 8 KiB) and {} left out like other binary files.",
            select::plural(
                files as usize,
                "selected file listed as text turned out",
                "selected files listed as text turned out"
            ),
            if files == 1 { "is" } else { "are" }
        )
    })
}

/// The trusted notice for selected files whose content is missing from a result: over the
/// inspection boundary (never inspected, so never returned), or unreadable (permission denied,
/// I/O error, replaced while read). Counts only, no paths; `None` when nothing is missing.
pub fn partial_content_notice(withheld: u64, unreadable: u64) -> Option<String> {
    let mut parts = Vec::new();
    if withheld > 0 {
        parts.push(format!(
            "{} the 16 MiB inspection boundary; {} content was not inspected for secrets and is withheld",
            select::plural(withheld as usize, "selected file exceeds", "selected files exceed"),
            if withheld == 1 { "its" } else { "their" }
        ));
    }
    if unreadable > 0 {
        parts.push(format!(
            "{} not be read (permission denied, I/O error, or replaced while read) and {} missing",
            select::plural(
                unreadable as usize,
                "selected file could",
                "selected files could"
            ),
            if unreadable == 1 { "is" } else { "are" }
        ));
    }
    (!parts.is_empty()).then(|| {
        format!(
            "{}: {}.",
            ErrorKind::PayloadTruncated.code(),
            parts.join("; ")
        )
    })
}
