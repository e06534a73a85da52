//! The session pack store: large packs live in an application-owned temporary directory for
//! the life of one server process. Ids are random (128 bits), valid only in this process, and
//! the directory is removed at exit. Stale session directories (older than 24 hours, owner
//! not running) are scavenged at startup.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use crate::error::{DpxError, Result, codes};

pub const MAX_PACK_BYTES: u64 = 200 * 1024 * 1024;
pub const MAX_SESSION_BYTES: u64 = 1024 * 1024 * 1024;
const STALE_AFTER: Duration = Duration::from_secs(24 * 60 * 60);
/// One line offset is kept per this many lines (a sparse index keeps memory small).
const INDEX_STRIDE: u64 = 256;
/// A physical line longer than this many characters counts as several pack lines, so every
/// part of a stored pack can be read back in calls of at most 50,000 characters, and the
/// concatenation of all read_pack slices is exactly the document.
pub const SEGMENT_CHARS: usize = 50_000;

/// Where every server keeps its session directories.
pub fn store_parent() -> PathBuf {
    std::env::var_os("DEVPROJEX_PACK_DIR")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("devprojex-packs"))
}

struct StoredPack {
    path: PathBuf,
    bytes: u64,
    lines: u64,
    /// Byte offset of line `i * INDEX_STRIDE + 1`.
    index: Vec<u64>,
}

/// The store of one server process.
pub struct PackStore {
    dir: PathBuf,
    packs: Mutex<HashMap<String, StoredPack>>,
}

/// A slice read back from a stored pack.
#[derive(Debug, Clone)]
pub struct PackSlice {
    pub text: String,
    pub start_line: u64,
    pub end_line: u64,
    pub total_lines: u64,
    pub total_characters: u64,
}

impl PackStore {
    /// Create this process's session directory (after scavenging stale ones).
    pub fn create() -> io::Result<Self> {
        let parent = store_parent();
        std::fs::create_dir_all(&parent)?;
        scavenge(&parent);
        let dir = parent.join(format!(
            "session-{}-{}",
            std::process::id(),
            super::spotlight::random_hex(8)
        ));
        std::fs::create_dir(&dir)?;
        std::fs::write(dir.join("owner.pid"), std::process::id().to_string())?;
        Ok(Self {
            dir,
            packs: Mutex::new(HashMap::new()),
        })
    }

    /// A writer for a new pack; it enforces the size limits while the pack is written.
    pub fn writer(&self) -> io::Result<PackFileWriter> {
        let used: u64 = self
            .packs
            .lock()
            .map(|p| p.values().map(|s| s.bytes).sum())
            .unwrap_or(0);
        let temp = tempfile::NamedTempFile::new_in(&self.dir)?;
        Ok(PackFileWriter {
            file: io::BufWriter::with_capacity(256 * 1024, temp),
            bytes: 0,
            characters: 0,
            lines: 0,
            at_line_start: true,
            line_chars: 0,
            index: Vec::new(),
            limit: MAX_PACK_BYTES.min(MAX_SESSION_BYTES.saturating_sub(used)),
            session_limited: MAX_SESSION_BYTES.saturating_sub(used) < MAX_PACK_BYTES,
        })
    }

    /// Keep a finished pack; returns its id.
    pub fn keep(&self, finished: FinishedPack) -> Result<String> {
        let id = format!("pack_{}", super::spotlight::random_hex(16));
        let path = self.dir.join(format!("{id}.pack"));
        finished.temp.persist(&path).map_err(|err| {
            DpxError::new(
                codes::PACK_TOO_LARGE,
                format!("storing the pack failed: {}", err.error),
            )
        })?;
        let mut packs = self.packs.lock().expect("pack store poisoned");
        packs.insert(
            id.clone(),
            StoredPack {
                path,
                bytes: finished.bytes,
                lines: finished.lines,
                index: finished.index,
            },
        );
        Ok(id)
    }

    /// Read an inclusive, 1-based line range, bounded by `max_lines` and `max_chars`.
    pub fn read(
        &self,
        id: &str,
        start_line: u64,
        end_line: Option<u64>,
        max_lines: u64,
        max_chars: usize,
    ) -> Result<PackSlice> {
        let (path, total_lines, index, bytes) = {
            let packs = self.packs.lock().expect("pack store poisoned");
            let pack = packs.get(id).ok_or_else(|| {
                DpxError::new(
                    codes::PACK_EXPIRED,
                    format!(
                        "pack_id '{}' is unknown or expired; pack ids are valid only in the server process that created them. Call pack_context again to create a new pack",
                        id.chars().take(80).collect::<String>()
                    ),
                )
            })?;
            (
                pack.path.clone(),
                pack.lines,
                pack.index.clone(),
                pack.bytes,
            )
        };
        if start_line == 0 || start_line > total_lines.max(1) {
            return Err(DpxError::new(
                codes::INVALID_RANGE,
                format!(
                    "start_line {start_line} is outside the pack, which has {total_lines} lines; pass a start_line between 1 and {total_lines}"
                ),
            ));
        }
        if let Some(end) = end_line
            && end < start_line
        {
            return Err(DpxError::new(
                codes::INVALID_RANGE,
                format!("end_line {end} is before start_line {start_line}"),
            ));
        }
        let last_allowed = (start_line + max_lines - 1).min(total_lines);
        let end = end_line.unwrap_or(last_allowed).min(last_allowed);
        let slot = ((start_line - 1) / INDEX_STRIDE) as usize;
        let mut line_no = slot as u64 * INDEX_STRIDE + 1;
        let mut file = File::open(&path).map_err(|err| {
            DpxError::new(
                codes::PACK_EXPIRED,
                format!("the stored pack cannot be read ({err}); call pack_context again"),
            )
        })?;
        file.seek(SeekFrom::Start(index.get(slot).copied().unwrap_or(0)))
            .map_err(|err| DpxError::new(codes::PACK_EXPIRED, err.to_string()))?;
        let mut lines = SegmentedLines::new(BufReader::new(file));
        let mut text = String::new();
        let mut chars = 0usize;
        let mut last = start_line - 1;
        while line_no <= end {
            let Some(line) = lines
                .next_line()
                .map_err(|err| DpxError::new(codes::PACK_EXPIRED, err.to_string()))?
            else {
                break;
            };
            if line_no >= start_line {
                let line_chars = line.chars().count();
                if chars + line_chars > max_chars {
                    break;
                }
                chars += line_chars;
                text.push_str(&line);
                last = line_no;
            }
            line_no += 1;
        }
        Ok(PackSlice {
            text,
            start_line,
            end_line: last,
            total_lines,
            total_characters: bytes,
        })
    }

    /// Remove the session directory (at exit).
    pub fn remove_all(&self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Drop for PackStore {
    fn drop(&mut self) {
        self.remove_all();
    }
}

/// A pack being written: counts characters and lines and indexes line offsets as it goes.
pub struct PackFileWriter {
    file: io::BufWriter<tempfile::NamedTempFile>,
    bytes: u64,
    characters: u64,
    lines: u64,
    at_line_start: bool,
    line_chars: usize,
    index: Vec<u64>,
    limit: u64,
    session_limited: bool,
}

/// A completed pack file, not yet kept.
pub struct FinishedPack {
    temp: tempfile::NamedTempFile,
    pub bytes: u64,
    pub characters: u64,
    pub lines: u64,
    index: Vec<u64>,
}

impl FinishedPack {
    /// The whole document (for inline results; only called for small packs).
    pub fn read_all(&self) -> io::Result<String> {
        std::fs::read_to_string(self.temp.path())
    }
}

/// The marker error text used when a pack passes a store limit.
pub const TOO_LARGE_MARKER: &str = "devprojex pack store limit";

impl PackFileWriter {
    pub fn finish(self) -> io::Result<FinishedPack> {
        let temp = self.file.into_inner().map_err(|err| err.into_error())?;
        Ok(FinishedPack {
            temp,
            bytes: self.bytes,
            characters: self.characters,
            lines: self.lines,
            index: self.index,
        })
    }

    pub fn too_large_error(&self) -> DpxError {
        too_large(self.session_limited)
    }
}

pub fn too_large(session_limited: bool) -> DpxError {
    let what = if session_limited {
        "all packs of this server session would exceed 1 GiB"
    } else {
        "the pack would exceed the 200 MiB limit of one stored pack"
    };
    DpxError::new(
        codes::PACK_TOO_LARGE,
        format!(
            "{what}; nothing was evicted. Narrow the request with paths, include_patterns or exclude_patterns, set max_tokens, use detail=compact or detail=signatures, or restart the server to free the session's packs"
        ),
    )
}

impl Write for PackFileWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.bytes + buf.len() as u64 > self.limit {
            return Err(io::Error::other(TOO_LARGE_MARKER));
        }
        for (i, &byte) in buf.iter().enumerate() {
            // Count UTF-8 scalar values: every byte that is not a continuation byte.
            let starts_char = byte & 0xC0 != 0x80;
            if self.at_line_start || (starts_char && self.line_chars == SEGMENT_CHARS) {
                if self.lines.is_multiple_of(INDEX_STRIDE) {
                    self.index.push(self.bytes + i as u64);
                }
                self.lines += 1;
                self.at_line_start = false;
                self.line_chars = 0;
            }
            if starts_char {
                self.characters += 1;
                self.line_chars += 1;
            }
            if byte == b'\n' {
                self.at_line_start = true;
            }
        }
        self.file.write_all(buf)?;
        self.bytes += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// Pack lines: physical lines, with lines over `SEGMENT_CHARS` characters split into segments.
struct SegmentedLines<R> {
    reader: R,
    pending: std::collections::VecDeque<String>,
}

impl<R: BufRead> SegmentedLines<R> {
    fn new(reader: R) -> Self {
        Self {
            reader,
            pending: std::collections::VecDeque::new(),
        }
    }

    fn next_line(&mut self) -> io::Result<Option<String>> {
        if let Some(line) = self.pending.pop_front() {
            return Ok(Some(line));
        }
        let mut line = String::new();
        if self.reader.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        if line.len() <= SEGMENT_CHARS {
            return Ok(Some(line));
        }
        let mut segment = String::new();
        let mut count = 0;
        for c in line.chars() {
            if count == SEGMENT_CHARS {
                self.pending.push_back(std::mem::take(&mut segment));
                count = 0;
            }
            segment.push(c);
            count += 1;
        }
        self.pending.push_back(segment);
        Ok(self.pending.pop_front())
    }
}

/// Remove session directories older than 24 hours whose owner process is gone.
fn scavenge(parent: &Path) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with("session-") || !path.is_dir() {
            continue;
        }
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|modified| SystemTime::now().duration_since(modified).ok())
            .is_some_and(|age| age > STALE_AFTER);
        let owner = std::fs::read_to_string(path.join("owner.pid"))
            .ok()
            .and_then(|t| t.trim().parse::<u32>().ok());
        if old && !owner.is_some_and(process_is_alive) {
            let _ = std::fs::remove_dir_all(&path);
        }
    }
}

#[cfg(target_os = "linux")]
fn process_is_alive(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

#[cfg(all(unix, not(target_os = "linux")))]
#[allow(unsafe_code)]
fn process_is_alive(pid: u32) -> bool {
    // SAFETY: signal 0 only checks whether the process exists; nothing is delivered.
    unsafe { libc::kill(pid as libc::pid_t, 0) == 0 }
}

#[cfg(not(unix))]
fn process_is_alive(_pid: u32) -> bool {
    // Without a cheap liveness check, age alone decides (24 hours).
    false
}
