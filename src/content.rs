//! Reading one file's content: open inside the root jail, decode, redact, reduce.
//!
//! Order matters: redaction runs on the original text, before any detail transform, so a
//! secret inside a comment is never exposed by a transform and finding lines stay meaningful.

use std::io::Read;
use std::sync::Arc;

use devprojex_detail::Detail;
use devprojex_redact::{INSPECTION_LIMIT_BYTES, Redactor, SNIFF_BYTES, decode_lossy};

use crate::error::{DpxError, ErrorKind, Result};
use crate::facts::{FactsCache, Known, Stamp, TextMetrics};
use crate::project::{ProjectRoot, ResolvedPath};
use crate::select::Entry;

/// What happened to a file's content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    /// Redacted (and possibly reduced) text.
    Text(TextContent),
    /// Binary files are listed but never shown.
    Binary,
    /// Larger than the 16 MiB inspection boundary: not inspected, so never returned.
    Withheld,
    /// Could not be opened or read (or failed the handle check); counted in the notices.
    Unreadable,
    /// Text whose metrics a warm server already knew: nothing was read (only with
    /// [`ContentPipeline::measure_only`]).
    Measured(TextMetrics),
}

/// Redacted text and what it costs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextContent {
    pub text: String,
    pub characters: u64,
    pub tokens: u64,
    pub lines: u64,
    /// Secrets (and private data, when hidden) replaced in this file.
    pub redactions: usize,
}

impl TextContent {
    pub fn metrics(&self) -> TextMetrics {
        TextMetrics {
            characters: self.characters,
            tokens: self.tokens,
            lines: self.lines,
            redactions: self.redactions,
        }
    }

    pub fn new(text: String, redactions: usize) -> Self {
        let characters = text.chars().count() as u64;
        Self {
            characters,
            tokens: crate::tokens::estimate_chars(characters),
            lines: count_lines(&text),
            text,
            redactions,
        }
    }
}

/// Lines as a reader counts them: a trailing newline does not start a new line.
pub fn count_lines(text: &str) -> u64 {
    if text.is_empty() {
        return 0;
    }
    let newlines = memchr::memchr_iter(b'\n', text.as_bytes()).count() as u64;
    if text.ends_with('\n') {
        newlines
    } else {
        newlines + 1
    }
}

/// The content stage: shared across threads.
#[derive(Debug, Clone)]
pub struct ContentPipeline {
    pub redactor: Arc<Redactor>,
    pub detail: Detail,
    pub transform_cache: Option<Arc<devprojex_detail::TransformCache>>,
    /// What a long-lived server knows about files (none in one-shot CLI runs).
    pub facts: Option<Arc<FactsCache>>,
    /// The caller needs metrics only: known metrics are returned without reading the file.
    pub measure_only: bool,
    /// Files whose detail differs from `detail` (a pack's `detail_overrides`).
    pub overrides: Option<Arc<DetailOverrides>>,
}

/// A pack's `detail_overrides`, compiled: one glob set per detail level. A file matching
/// globs of several levels takes the fullest, so "keep these files full" always holds.
#[derive(Debug)]
pub struct DetailOverrides {
    sets: Vec<(Detail, crate::select::globs::PatternSet)>,
}

impl DetailOverrides {
    /// Compile `(glob, detail)` pairs; `None` when there are none. Errors name the argument.
    pub fn compile(overrides: &[(String, Detail)]) -> Result<Option<Self>> {
        if overrides.is_empty() {
            return Ok(None);
        }
        let max = crate::limits::MAX_DETAIL_OVERRIDES;
        if overrides.len() > max {
            return Err(DpxError::invalid_arguments(format!(
                "detail_overrides has {} globs; at most {max} are allowed. Combine globs with '{{a,b}}'",
                overrides.len()
            )));
        }
        let mut sets = Vec::new();
        for level in Detail::ALL {
            let globs: Vec<String> = overrides
                .iter()
                .filter(|(_, detail)| *detail == level)
                .map(|(glob, _)| glob.clone())
                .collect();
            if !globs.is_empty() {
                // a bad glob is a bad argument here (no search pattern is involved)
                let set = crate::select::globs::PatternSet::compile("detail_overrides", &globs)
                    .map_err(|err| DpxError::invalid_arguments(err.message))?;
                sets.push((level, set));
            }
        }
        Ok(Some(Self { sets }))
    }

    /// The detail of the file at `relative`, if a glob names it.
    fn detail_of(&self, relative: &str) -> Option<Detail> {
        self.sets
            .iter()
            .find(|(_, set)| set.matches_path_or_ancestor(relative))
            .map(|(detail, _)| *detail)
    }
}

impl ContentPipeline {
    /// Load, redact and transform one selected file.
    pub fn load(&self, root: &ProjectRoot, entry: &Entry) -> Content {
        self.load_unless(root, entry, |_| false)
            .expect("nothing is skipped")
    }

    /// [`ContentPipeline::load`], but `None` without redacting when `skip(raw text)` says the
    /// caller has no use for this file (search's sound raw prefilter, `prefilter.rs`).
    pub fn load_unless(
        &self,
        root: &ProjectRoot,
        entry: &Entry,
        skip: impl FnOnce(&str) -> bool,
    ) -> Option<Content> {
        if entry.binary {
            return Some(Content::Binary);
        }
        let detail = self
            .overrides
            .as_deref()
            .and_then(|o| o.detail_of(&entry.relative))
            .unwrap_or(self.detail);
        let facts = self.facts.as_deref();
        if self.measure_only
            && let Some(facts) = facts
        {
            let listed = Stamp {
                size: entry.size,
                modified_ns: entry.modified_ns,
                changed_ns: entry.changed_ns,
                id: entry.id,
            };
            if let Some(metrics) = facts.metrics(&entry.absolute, &listed, detail) {
                return Some(Content::Measured(metrics));
            }
        }
        let Ok((file, meta)) = root.open_listed(entry.content_path(), entry.id) else {
            return Some(Content::Unreadable);
        };
        let stamp = Stamp::of(&meta);
        let known = facts.and_then(|f| f.get(&entry.absolute, &stamp));
        if known == Some(Known::Binary) {
            return Some(Content::Binary);
        }
        let raw = read_inspectable(file, meta.size);
        match raw {
            Ok(Raw::Bytes(bytes)) => {
                let decoded = decode_owned(bytes);
                if skip(&decoded) {
                    return None;
                }
                // Redaction is skipped only where it is known to change nothing in exactly this
                // version of the file (same stamp): the output is the same text either way.
                let known_clean = matches!(known, Some(Known::Text { clean: true, .. }));
                let redacted = if known_clean {
                    devprojex_redact::Redacted {
                        text: std::borrow::Cow::Borrowed(&decoded),
                        findings: Vec::new(),
                    }
                } else {
                    self.redactor.redact(&decoded)
                };
                let redactions = redacted.findings.len();
                let reduced = match &self.transform_cache {
                    Some(cache) => cache.transform(&entry.relative, &redacted.text, detail),
                    None => devprojex_detail::transform(&entry.relative, &redacted.text, detail),
                };
                // Most files come through unchanged: keep the buffer that was read instead of
                // copying it once more.
                let text = match reduced {
                    std::borrow::Cow::Borrowed(_)
                        if matches!(redacted.text, std::borrow::Cow::Borrowed(_)) =>
                    {
                        drop(reduced);
                        drop(redacted);
                        decoded
                    }
                    other => other.into_owned(),
                };
                let content = TextContent::new(text, redactions);
                if let Some(facts) = facts {
                    facts.record_text(
                        &entry.absolute,
                        stamp,
                        redactions == 0,
                        detail,
                        content.metrics(),
                    );
                }
                Some(Content::Text(content))
            }
            Ok(Raw::Binary) => {
                if let Some(facts) = facts {
                    facts.record_binary(&entry.absolute, stamp);
                }
                Some(Content::Binary)
            }
            Ok(Raw::TooLarge) => Some(Content::Withheld),
            Err(_) => Some(Content::Unreadable),
        }
    }

    /// [`ContentPipeline::load`], kept only when the REDACTED text contains `needle`; `None`
    /// for the other text files (`find_symbol`'s literal screen).
    ///
    /// Every file is redacted before it is screened (a file known clean in exactly this
    /// version is not redacted again: its text is its redacted text), so neither the answer
    /// nor the time it takes depends on whether the raw bytes hold the needle: a screen of
    /// raw bytes answered, and took 400 times longer, when a secret started with the name
    /// asked for (issue 35).
    pub fn load_matching(
        &self,
        root: &ProjectRoot,
        entry: &Entry,
        needle: &memchr::memmem::Finder<'_>,
    ) -> Option<Content> {
        match self.load(root, entry) {
            Content::Text(text) => {
                needle.find(text.text.as_bytes())?;
                Some(Content::Text(text))
            }
            other => Some(other),
        }
    }

    /// The decoded text of one selected file, NOT redacted, for indexes that return only
    /// project paths and line numbers (the import index behind `related_files`). Never return
    /// this text or any part of it: lines that are shown come from [`ContentPipeline::load`].
    pub fn load_unredacted_for_index(&self, root: &ProjectRoot, entry: &Entry) -> Unredacted {
        if entry.binary {
            return Unredacted::Binary;
        }
        let raw = root
            .open_listed(entry.content_path(), entry.id)
            .and_then(|(file, meta)| read_inspectable(file, meta.size));
        match raw {
            Ok(Raw::Bytes(bytes)) => Unredacted::Text(decode_owned(bytes)),
            Ok(Raw::Binary) => Unredacted::Binary,
            Ok(Raw::TooLarge) => Unredacted::Withheld,
            Err(_) => Unredacted::Unreadable,
        }
    }

    /// Like [`ContentPipeline::load_unredacted_for_index`], but the text is decoded only when
    /// the raw bytes contain `needle` (`None`: never, the file is only classified). The
    /// importer prefilter of `related_files`: a file without the needle cannot import the
    /// target, and costs one read and one `memmem` scan.
    pub fn screen_unredacted_for_index(
        &self,
        root: &ProjectRoot,
        entry: &Entry,
        needle: Option<&memchr::memmem::Finder<'_>>,
    ) -> Screened {
        if entry.binary {
            return Screened::Binary;
        }
        let raw = root
            .open_listed(entry.content_path(), entry.id)
            .and_then(|(file, meta)| read_inspectable(file, meta.size));
        match raw {
            Ok(Raw::Bytes(bytes)) => {
                let utf16 = devprojex_redact::decode_utf16(&bytes);
                let raw = utf16.as_ref().map_or(&bytes[..], |text| text.as_bytes());
                match needle {
                    Some(needle) if needle.find(raw).is_some() => {
                        Screened::Text(utf16.unwrap_or_else(|| decode_owned(bytes)))
                    }
                    _ => Screened::Absent,
                }
            }
            Ok(Raw::Binary) => Screened::Binary,
            Ok(Raw::TooLarge) => Screened::Withheld,
            Err(_) => Screened::Unreadable,
        }
    }

    /// Redact only (no detail transform): what `get_file` sees.
    pub fn load_redacted(
        &self,
        root: &ProjectRoot,
        resolved: &ResolvedPath,
        shown_as: &str,
    ) -> Result<String> {
        let (file, meta) = root.open_resolved(resolved)?;
        let raw = read_inspectable(file, meta.size)?;
        match raw {
            Raw::Bytes(bytes) => {
                let decoded = decode_lossy(&bytes);
                Ok(self.redactor.redact(&decoded).text.into_owned())
            }
            Raw::Binary => Err(DpxError::invalid_arguments(format!(
                "'{shown_as}' is a binary file; binary content is never returned. Use get_tree or analyze to see its size"
            ))),
            Raw::TooLarge => Err(DpxError::new(
                ErrorKind::PayloadTruncated,
                format!(
                    "'{shown_as}' is larger than the 16 MiB inspection boundary; its content is not inspected for secrets and is never returned"
                ),
            )),
        }
    }
}

/// A file's text before redaction ([`ContentPipeline::load_unredacted_for_index`]). Its own
/// type, so it cannot be mistaken for [`Content`], which is safe to return.
pub enum Unredacted {
    Text(String),
    Binary,
    Withheld,
    Unreadable,
}

/// What [`ContentPipeline::screen_unredacted_for_index`] found: [`Unredacted`], or a text
/// file without the needle (not decoded).
pub enum Screened {
    Text(String),
    Absent,
    Binary,
    Withheld,
    Unreadable,
}

/// Bytes read from Git (a blob within the inspection boundary) as text, or `None` when they are
/// binary: a NUL byte in text that is not UTF-16, the rule files read from disk follow.
pub fn decode_blob(bytes: Vec<u8>) -> Option<String> {
    if memchr::memchr(0, &bytes).is_some() && devprojex_redact::decode_utf16(&bytes).is_none() {
        return None;
    }
    Some(decode_owned(bytes))
}

/// [`decode_lossy`] into an owned string, reusing the buffer when the bytes are valid UTF-8.
fn decode_owned(bytes: Vec<u8>) -> String {
    // UTF-16 text holds NUL bytes, which are valid UTF-8: it is recognised first
    if let Some(text) = devprojex_redact::decode_utf16(&bytes) {
        return text;
    }
    match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(invalid) => decode_lossy(invalid.as_bytes()).into_owned(),
    }
}

enum Raw {
    Bytes(Vec<u8>),
    /// A NUL byte (in text that is not UTF-16): never decoded or shown.
    Binary,
    TooLarge,
}

/// Read an opened, verified file, refusing anything over the inspection boundary without reading
/// it (`size` comes from the opened handle, not from an earlier listing). The first 8 KiB are read
/// first: a NUL byte there ends the read (unless the text is UTF-16, whose ASCII characters
/// each carry one), so a binary file costs one small read, as the walk's sniff would.
fn read_inspectable(file: std::fs::File, size: u64) -> Result<Raw> {
    if size > INSPECTION_LIMIT_BYTES {
        return Ok(Raw::TooLarge);
    }
    let read_error = |err: std::io::Error| {
        DpxError::new(ErrorKind::Unreadable, format!("cannot read file: {err}")).with_source(err)
    };
    // One byte past the expected size shows growth; a file that grows is still cut at the boundary.
    let mut bytes = Vec::with_capacity(size as usize + 1);
    let mut handle = file.take(INSPECTION_LIMIT_BYTES + 1);
    (&mut handle)
        .take(SNIFF_BYTES as u64)
        .read_to_end(&mut bytes)
        .map_err(read_error)?;
    if devprojex_redact::looks_binary(&bytes) {
        return Ok(Raw::Binary);
    }
    let utf16 = memchr::memchr(0, &bytes).is_some();
    handle.read_to_end(&mut bytes).map_err(read_error)?;
    if bytes.len() as u64 > INSPECTION_LIMIT_BYTES {
        return Ok(Raw::TooLarge);
    }
    let binary = if utf16 {
        // a NUL character further on: binary after all
        devprojex_redact::decode_utf16(&bytes).is_none()
    } else {
        memchr::memchr(0, &bytes[SNIFF_BYTES.min(bytes.len())..]).is_some()
    };
    if binary {
        return Ok(Raw::Binary);
    }
    Ok(Raw::Bytes(bytes))
}

#[cfg(test)]
mod tests {
    #[test]
    fn line_counting() {
        assert_eq!(super::count_lines(""), 0);
        assert_eq!(super::count_lines("a"), 1);
        assert_eq!(super::count_lines("a\n"), 1);
        assert_eq!(super::count_lines("a\nb"), 2);
        assert_eq!(super::count_lines("\n\n"), 2);
    }
}
