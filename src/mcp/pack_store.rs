//! The session pack store: large packs live for the life of one server process in a session
//! folder inside a per-user store folder. Ids are random (128 bits) and valid only in this
//! process; the session folder is removed at exit.
//!
//! The store folder is private to its user (`os` creates and verifies it on the handle) and is
//! never used when the check fails. Each session holds a lock on its owner file for its whole
//! life, so the scavenger at startup removes exactly the sessions whose server is gone (a
//! SIGKILL included) and never a running one. A session folder that vanishes (macOS purges
//! `$TMPDIR` items unused for 3 days; a person may delete it) is recreated on the next pack.

mod os;

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use fs4::fs_std::FileExt;

use crate::error::{DpxError, ErrorKind, Result};

pub const MAX_PACK_BYTES: u64 = 200 * 1024 * 1024;
pub const MAX_SESSION_BYTES: u64 = 1024 * 1024 * 1024;
/// Where file locks are not supported, a session is stale after this long with its owner gone.
const STALE_AFTER: Duration = Duration::from_secs(24 * 60 * 60);
/// A session whose owner file is not locked yet may be one being set up right now: it is kept
/// this long unless its owner pid is known to be dead. Fallback folders get the same grace.
const SETUP_GRACE: Duration = Duration::from_secs(60);
/// The file in each session folder that names the owner pid and carries the session's lock.
const OWNER_FILE: &str = "owner.pid";
/// One line offset is kept per this many lines (a sparse index keeps memory small).
const INDEX_STRIDE: u64 = 256;
/// A physical line longer than this many characters counts as several pack lines, so every
/// part of a stored pack can be read back in calls of at most 50,000 characters, and the
/// concatenation of all read_pack slices is exactly the document.
pub const SEGMENT_CHARS: usize = 50_000;

/// Where the store lives.
#[derive(Debug, Clone)]
pub struct StoreLocation {
    pub path: PathBuf,
    /// Set by `DEVPROJEX_PACK_DIR`: a folder that fails the check is refused, not replaced.
    pub configured: bool,
}

impl StoreLocation {
    /// `DEVPROJEX_PACK_DIR`, else `devprojex-packs-<user>` in the temp folder (`<user>` is the
    /// uid on Unix, the SID on Windows).
    pub fn from_env() -> Result<Self> {
        if let Some(path) = std::env::var_os("DEVPROJEX_PACK_DIR").filter(|v| !v.is_empty()) {
            return Ok(Self {
                path: PathBuf::from(path),
                configured: true,
            });
        }
        let user = os::user_tag().map_err(|err| {
            DpxError::new(
                ErrorKind::PackStoreUnavailable,
                format!("cannot tell the current user for the pack store ({err}); set DEVPROJEX_PACK_DIR to a private folder"),
            )
        })?;
        Ok(Self {
            path: std::env::temp_dir().join(format!("devprojex-packs-{user}")),
            configured: false,
        })
    }
}

struct StoredPack {
    path: PathBuf,
    bytes: u64,
    lines: u64,
    /// Byte offset of line `i * INDEX_STRIDE + 1`.
    index: Vec<u64>,
}

/// One server's session folder and the locked owner file that marks it as alive.
struct Session {
    /// The verified store folder the session lives in.
    store: PathBuf,
    /// A fresh private folder used because the usual one failed the check: removed at exit.
    fallback: bool,
    dir: PathBuf,
    /// Open (and locked) for the session's life; closing it releases the lock.
    owner: Option<File>,
}

impl Session {
    fn create(store: PathBuf, fallback: bool) -> Result<Self> {
        let dir = store.join(format!(
            "session-{}-{}",
            std::process::id(),
            super::spotlight::random_hex(8)
        ));
        os::create_new_private_dir(&dir).map_err(|refusal| {
            let why = match refusal {
                os::Refusal::Io(err) => err.to_string(),
                os::Refusal::NotPrivate(why) => why,
            };
            session_unavailable(&dir, "create the session folder", &why)
        })?;
        let owner = claim(&dir)?;
        Ok(Self {
            store,
            fallback,
            dir,
            owner: Some(owner),
        })
    }

    /// A new owner file for a session folder that lost its own (a temp cleaner removes files
    /// unused for days); the packs in the folder stay valid.
    fn renew_owner(&mut self) -> Result<()> {
        drop(self.owner.take());
        let _ = std::fs::remove_file(self.dir.join(OWNER_FILE));
        self.owner = Some(claim(&self.dir)?);
        Ok(())
    }

    /// The owner file is still in place (not deleted or replaced from outside).
    fn intact(&self) -> bool {
        let Some(owner) = &self.owner else {
            return false;
        };
        match (
            std::fs::symlink_metadata(self.dir.join(OWNER_FILE)),
            owner.metadata(),
        ) {
            (Ok(on_disk), Ok(held)) => os::same_file(&held, &on_disk),
            _ => false,
        }
    }

    /// Keep the owner file recent: temp cleaners remove files unused for days.
    fn touch(&self) {
        if let Some(owner) = &self.owner {
            let _ = owner.set_modified(SystemTime::now());
        }
    }

    fn remove(&mut self) {
        // Closed first: Windows cannot remove a folder holding an open file.
        drop(self.owner.take());
        let _ = std::fs::remove_dir_all(&self.dir);
        if self.fallback {
            let _ = std::fs::remove_dir(&self.store);
        }
    }
}

fn session_unavailable(dir: &Path, what: &str, why: &str) -> DpxError {
    DpxError::new(
        ErrorKind::PackStoreUnavailable,
        format!(
            "cannot {what} '{}' ({why}); free disk space or set DEVPROJEX_PACK_DIR to a writable private folder",
            dir.display()
        ),
    )
}

/// What to do about a store that cannot take a pack (the remedy of `docs/errors.md`).
const STORE_REMEDY: &str = "free disk space, or set DEVPROJEX_PACK_DIR to a writable private folder and restart the server; then call pack_context again";

/// A pack the store could not take during a call. The client gets the OS's reason and the
/// remedy, never a path of the store (tempfile's errors carry the temp file's); the server's
/// log gets the error as it was.
fn store_failed(what: &str, err: &io::Error) -> DpxError {
    eprintln!("devprojex mcp: the pack store failed: the pack could not be {what}: {err}");
    store_failed_because(what, &os_reason(err))
}

fn store_failed_because(what: &str, why: &str) -> DpxError {
    DpxError::new(
        ErrorKind::PackStoreUnavailable,
        format!("the pack could not be {what} in the pack store ({why}); {STORE_REMEDY}"),
    )
}

/// An I/O error in the OS's words, or its kind's, never with the path a wrapper adds
/// (tempfile's errors end in `at path "…"` and hide the OS error behind a private type).
fn os_reason(err: &io::Error) -> String {
    let mut next: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(current) = next {
        if let Some(code) = current
            .downcast_ref::<io::Error>()
            .and_then(io::Error::raw_os_error)
        {
            return io::Error::from_raw_os_error(code).to_string();
        }
        next = current.source();
    }
    err.kind().to_string()
}

/// A store error met during a call (the session folder recreated after a temp cleaner took
/// it): the code and remedy for the client, the detail with its paths for the server's log.
fn for_a_call(err: DpxError) -> DpxError {
    eprintln!("devprojex mcp: {}", err.message);
    let message = match err.kind {
        ErrorKind::PackStoreUnsafe => "the pack store folder failed the privacy check (the server's log says why); set DEVPROJEX_PACK_DIR to a private folder you own (mode 0700) and restart the server; then call pack_context again".to_string(),
        _ => format!("the pack store could not recreate its session folder; {STORE_REMEDY}"),
    };
    DpxError::new(err.kind, message)
}

/// Create a session's owner file, lock it, and write the pid into it.
fn claim(dir: &Path) -> Result<File> {
    let path = dir.join(OWNER_FILE);
    let failed = |what: &str, err: io::Error| session_unavailable(&path, what, &err.to_string());
    let mut options = OpenOptions::new();
    options.read(true).write(true).create_new(true);
    let mut owner = os::private_file_options(&mut options)
        .open(&path)
        .map_err(|err| failed("create the session's owner file", err))?;
    // Held until the process ends, however it ends: scavengers skip a locked session.
    // A file system without locks leaves the pid and the 24-hour rule.
    let _ = FileExt::try_lock_exclusive(&owner);
    owner
        .write_all(std::process::id().to_string().as_bytes())
        .map_err(|err| failed("write the session's owner file", err))?;
    Ok(owner)
}

/// The store of one server process.
pub struct PackStore {
    location: StoreLocation,
    session: Mutex<Session>,
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
    /// Open this user's store (see `StoreLocation::from_env`), scavenge the sessions of
    /// servers that are gone, and create this process's session.
    pub fn create() -> Result<Self> {
        Self::open(StoreLocation::from_env()?)
    }

    pub fn open(location: StoreLocation) -> Result<Self> {
        let (store, fallback) = open_store(&location)?;
        scavenge(&store);
        if !location.configured {
            scavenge_fallbacks(&location.path, &store);
        }
        let session = Session::create(store, fallback)?;
        Ok(Self {
            location,
            session: Mutex::new(session),
            packs: Mutex::new(HashMap::new()),
        })
    }

    /// The session folder, recreated (store folder included) when it vanished from outside.
    fn session_dir(&self) -> Result<PathBuf> {
        let mut session = self.session.lock().unwrap_or_else(|p| p.into_inner());
        if !session.intact() {
            self.recover(&mut session).map_err(for_a_call)?;
        }
        session.touch();
        Ok(session.dir.clone())
    }

    /// Make the session usable again after something outside removed part of it.
    fn recover(&self, session: &mut Session) -> Result<()> {
        if os::verify_private_dir(&session.dir).is_ok() && session.renew_owner().is_ok() {
            eprintln!(
                "devprojex mcp: the owner file of the pack store session '{}' was removed from outside (by a temp cleaner or by hand); recreated it",
                session.dir.display()
            );
            return Ok(());
        }
        let (store, fallback) = open_store(&self.location)?;
        let fresh = Session::create(store, fallback)?;
        eprintln!(
            "devprojex mcp: the pack store session folder '{}' was removed from outside (by a temp cleaner or by hand); recreated it as '{}'. Packs stored before are gone: call pack_context again for them",
            session.dir.display(),
            fresh.dir.display()
        );
        let mut gone = std::mem::replace(session, fresh);
        if gone.store == session.store {
            gone.fallback = false;
        }
        gone.remove();
        self.packs
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .retain(|_, pack| pack.path.exists());
        Ok(())
    }

    /// A writer for a new pack; it enforces the size limits while the pack is written.
    pub fn writer(&self) -> Result<PackFileWriter> {
        let dir = self.session_dir()?;
        let used: u64 = self
            .packs
            .lock()
            .map(|p| p.values().map(|s| s.bytes).sum())
            .unwrap_or(0);
        // Created 0600 on Unix (tempfile's default); inherits the folder's ACL on Windows.
        let temp =
            tempfile::NamedTempFile::new_in(&dir).map_err(|err| store_failed("created", &err))?;
        let session_room = MAX_SESSION_BYTES.saturating_sub(used);
        Ok(PackFileWriter {
            file: io::BufWriter::with_capacity(256 * 1024, temp),
            bytes: 0,
            characters: 0,
            lines: 0,
            at_line_start: true,
            line_chars: 0,
            index: Vec::new(),
            limit: MAX_PACK_BYTES.min(session_room),
            binding_limit: if session_room < MAX_PACK_BYTES {
                StoreLimit::Session
            } else {
                StoreLimit::Pack
            },
            exceeded: None,
            failed: None,
        })
    }

    /// Keep a finished pack; returns its id.
    pub fn keep(&self, finished: FinishedPack) -> Result<String> {
        let id = format!("pack_{}", super::spotlight::random_hex(16));
        let dir = finished
            .temp
            .path()
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let path = dir.join(format!("{id}.pack"));
        finished
            .temp
            .persist(&path)
            .map_err(|err| store_failed("kept", &err.error))?;
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
                    ErrorKind::PackExpired,
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
        self.session
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .touch();
        if start_line == 0 || start_line > total_lines.max(1) {
            return Err(DpxError::new(
                ErrorKind::InvalidRange,
                format!(
                    "start_line {start_line} is outside the pack, which has {total_lines} lines; pass a start_line between 1 and {total_lines}"
                ),
            ));
        }
        if let Some(end) = end_line
            && end < start_line
        {
            return Err(DpxError::new(
                ErrorKind::InvalidRange,
                format!("end_line {end} is before start_line {start_line}"),
            ));
        }
        let last_allowed = (start_line + max_lines - 1).min(total_lines);
        let end = end_line.unwrap_or(last_allowed).min(last_allowed);
        let slot = ((start_line - 1) / INDEX_STRIDE) as usize;
        let mut line_no = slot as u64 * INDEX_STRIDE + 1;
        let mut file = File::open(&path).map_err(|err| {
            let why = if err.kind() == io::ErrorKind::NotFound {
                // It no longer counts toward the session limit either.
                self.packs
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .remove(id);
                "its file was removed from outside (by a temp cleaner or by hand)".to_string()
            } else {
                format!("it cannot be read ({err})")
            };
            DpxError::new(
                ErrorKind::PackExpired,
                format!("pack_id '{id}' is gone: {why}; call pack_context again"),
            )
        })?;
        file.seek(SeekFrom::Start(index.get(slot).copied().unwrap_or(0)))
            .map_err(|err| DpxError::new(ErrorKind::PackExpired, err.to_string()))?;
        let mut lines = SegmentedLines::new(BufReader::new(file));
        let mut text = String::new();
        let mut chars = 0usize;
        let mut last = start_line - 1;
        while line_no <= end {
            let Some(line) = lines
                .next_line()
                .map_err(|err| DpxError::new(ErrorKind::PackExpired, err.to_string()))?
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

    /// Count `bytes` as already stored in this session (tests of the session limit).
    #[cfg(test)]
    pub(crate) fn pretend_stored(&self, bytes: u64) {
        self.packs.lock().unwrap().insert(
            format!("pack_pretend_{}", super::spotlight::random_hex(4)),
            StoredPack {
                path: PathBuf::new(),
                bytes,
                lines: 1,
                index: vec![0],
            },
        );
    }

    /// Remove the session folder (at exit), and a fallback store folder with it.
    pub fn remove_all(&self) {
        self.session
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove();
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
    /// The limit that `limit` comes from.
    binding_limit: StoreLimit,
    /// Set when a write was refused for passing `limit`.
    exceeded: Option<StoreLimit>,
    /// Set when the store could not take a write (disk full, read-only): why, without a path.
    failed: Option<String>,
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
    pub fn read_all(&self) -> Result<String> {
        std::fs::read_to_string(self.temp.path()).map_err(|err| store_failed("read back", &err))
    }
}

/// A store limit a pack would pass. It travels inside the `io::Error` the writer returns, and
/// the writer remembers it, so the handler matches on the kind, never on message text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreLimit {
    /// 200 MiB for one stored pack.
    Pack,
    /// 1 GiB for all packs of one server session.
    Session,
}

impl StoreLimit {
    /// The coded refusal for a pack that passes this limit.
    pub fn error(self) -> DpxError {
        let what = match self {
            StoreLimit::Session => {
                "all packs of this server session would exceed the 1 GiB session limit"
            }
            StoreLimit::Pack => "the pack would exceed the 200 MiB limit of one stored pack",
        };
        DpxError::new(
            ErrorKind::PackTooLarge,
            format!(
                "{what}; nothing was evicted. Narrow the request with paths, include_patterns or exclude_patterns, set max_tokens, use detail=compact or detail=signatures, or restart the server to free the session's packs"
            ),
        )
    }
}

impl std::fmt::Display for StoreLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.error().message)
    }
}

impl std::error::Error for StoreLimit {}

impl PackFileWriter {
    pub fn finish(self) -> Result<FinishedPack> {
        let temp = self
            .file
            .into_inner()
            .map_err(|err| store_failed("written", err.error()))?;
        Ok(FinishedPack {
            temp,
            bytes: self.bytes,
            characters: self.characters,
            lines: self.lines,
            index: self.index,
        })
    }

    /// The store limit a write was refused for, if any.
    pub fn exceeded(&self) -> Option<StoreLimit> {
        self.exceeded
    }

    /// The first failed write: its reason for the client, the whole error for the log.
    fn note_failure(&mut self, err: &io::Error) {
        if self.failed.is_none() {
            eprintln!("devprojex mcp: the pack store failed: the pack could not be written: {err}");
            self.failed = Some(os_reason(err));
        }
    }

    /// Why a write failed, when the store refused it (a limit) or could not take it (disk
    /// full): the coded answer that replaces the engine's "writing failed".
    pub fn refusal(&self) -> Option<DpxError> {
        match (&self.exceeded, &self.failed) {
            (Some(limit), _) => Some(limit.error()),
            (None, Some(why)) => Some(store_failed_because("written", why)),
            (None, None) => None,
        }
    }
}

impl Write for PackFileWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.bytes + buf.len() as u64 > self.limit {
            self.exceeded = Some(self.binding_limit);
            return Err(io::Error::other(self.binding_limit));
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
        if let Err(err) = self.file.write_all(buf) {
            self.note_failure(&err);
            return Err(err);
        }
        self.bytes += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush().inspect_err(|err| self.note_failure(err))
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

/// Open the store folder, or, when the usual one fails the privacy check, a fresh private
/// folder beside it (never the failing one). Returns the folder and whether it is a fallback.
fn open_store(location: &StoreLocation) -> Result<(PathBuf, bool)> {
    let path = &location.path;
    let unavailable = |err: &dyn std::fmt::Display| {
        DpxError::new(
            ErrorKind::PackStoreUnavailable,
            format!(
                "cannot create the pack store folder '{}' ({err}); set DEVPROJEX_PACK_DIR to a writable folder",
                path.display()
            ),
        )
    };
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        if location.configured {
            std::fs::create_dir_all(parent).map_err(|err| unavailable(&err))?;
        }
        os::check_parent(parent).map_err(|why| {
            DpxError::new(
                ErrorKind::PackStoreUnsafe,
                format!(
                    "the folder '{}' that holds the pack store {why}; point {} at {}",
                    parent.display(),
                    if location.configured {
                        "DEVPROJEX_PACK_DIR"
                    } else {
                        "TMPDIR (TMP on Windows) or DEVPROJEX_PACK_DIR"
                    },
                    os::PRIVATE_FOLDER_HINT
                ),
            )
        })?;
    }
    let why = match os::open_or_create_private_dir(path) {
        Ok(()) => return Ok((path.clone(), false)),
        Err(os::Refusal::Io(err)) => return Err(unavailable(&err)),
        Err(os::Refusal::NotPrivate(why)) => why,
    };
    if location.configured {
        return Err(DpxError::new(
            ErrorKind::PackStoreUnsafe,
            format!(
                "DEVPROJEX_PACK_DIR '{}' {why}, so other users could read or replace stored packs; it is not used. Point DEVPROJEX_PACK_DIR at {}, or unset it",
                path.display(),
                os::PRIVATE_FOLDER_HINT
            ),
        ));
    }
    // Someone else may have created the usual name first: never reuse it, and stay available.
    let mut last_error = None;
    for _ in 0..8 {
        let mut name = path.as_os_str().to_owned();
        name.push(format!("-{}", super::spotlight::random_hex(6)));
        let fresh = PathBuf::from(name);
        match os::create_new_private_dir(&fresh) {
            Ok(()) => {
                eprintln!(
                    "devprojex mcp: warning: {}: the pack store folder '{}' {why}; it is not used. This session keeps its packs in '{}', removed at exit. Remove '{}', or make it {}, to use the usual folder again",
                    ErrorKind::PackStoreUnsafe.code(),
                    path.display(),
                    fresh.display(),
                    path.display(),
                    os::PRIVATE_FOLDER_HINT
                );
                return Ok((fresh, true));
            }
            Err(os::Refusal::Io(err)) if err.kind() == io::ErrorKind::AlreadyExists => {
                last_error = Some(err.to_string());
            }
            Err(os::Refusal::Io(err)) => return Err(unavailable(&err)),
            Err(os::Refusal::NotPrivate(why)) => last_error = Some(why),
        }
    }
    Err(unavailable(&last_error.unwrap_or_default()))
}

/// Remove the session folders of servers that are gone.
fn scavenge(store: &Path) {
    let Ok(entries) = std::fs::read_dir(store) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if name.starts_with("session-") && is_dir && session_is_abandoned(&entry.path()) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// A session is abandoned when nobody holds the lock on its owner file, unless it may still be
/// being set up (young, and its owner not known to be dead). Without file locks, the owner pid
/// and the 24-hour rule decide.
fn session_is_abandoned(dir: &Path) -> bool {
    let owner = match os::open_no_follow(&dir.join(OWNER_FILE)) {
        Ok(owner) => owner,
        Err(err) if err.kind() == io::ErrorKind::NotFound => {
            return std::fs::symlink_metadata(dir)
                .is_ok_and(|m| os::age_seconds(&m) >= SETUP_GRACE.as_secs());
        }
        Err(_) => return false,
    };
    let age = owner.metadata().map_or(0, |m| os::age_seconds(&m));
    let locked = FileExt::try_lock_exclusive(&owner);
    // Read through the handle: on Windows a locked range is unreadable to other handles.
    let mut text = String::new();
    let pid = (&owner)
        .read_to_string(&mut text)
        .ok()
        .and_then(|_| text.trim().parse::<u32>().ok());
    abandoned(locked, pid.and_then(os::process_is_alive), age)
}

/// The scavenger's rule. `locked`: whether taking the owner file's lock succeeded (`Err`: the
/// file system has no locks); `alive`: the owner pid's liveness, `None` where unknown (Windows);
/// `age`: seconds since the owner file was last touched.
fn abandoned(locked: io::Result<bool>, alive: Option<bool>, age: u64) -> bool {
    match locked {
        Ok(false) => false,
        Ok(true) => alive == Some(false) || age >= SETUP_GRACE.as_secs(),
        Err(_) => alive != Some(true) && age >= STALE_AFTER.as_secs(),
    }
}

/// Fallback folders (`<store>-<random>`) of servers that are gone: their sessions are
/// scavenged, and the folder removed once empty. Only folders that pass the privacy check.
fn scavenge_fallbacks(usual: &Path, current: &Path) {
    let (Some(parent), Some(base)) = (usual.parent(), usual.file_name()) else {
        return;
    };
    let prefix = format!("{}-", base.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let young = entry
            .metadata()
            .map_or(true, |m| os::age_seconds(&m) < SETUP_GRACE.as_secs());
        if !name.starts_with(&prefix)
            || path == current
            || young
            || !entry.file_type().is_ok_and(|t| t.is_dir())
            || os::verify_private_dir(&path).is_err()
        {
            continue;
        }
        scavenge(&path);
        let _ = std::fs::remove_dir(&path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store_in(tmp: &tempfile::TempDir) -> PackStore {
        PackStore::open(StoreLocation {
            path: tmp.path().join("store"),
            configured: true,
        })
        .expect("store")
    }

    #[test]
    fn a_store_failure_shows_the_os_reason_and_the_remedy_never_a_path() {
        let tmp = tempfile::tempdir().unwrap();
        let missing = tmp.path().join("no-such-folder");
        // tempfile's error names the temp file's path.
        let err = tempfile::NamedTempFile::new_in(&missing).unwrap_err();
        assert!(err.to_string().contains("no-such-folder"), "{err}");
        let refused = store_failed("created", &err);
        assert_eq!(refused.kind, ErrorKind::PackStoreUnavailable);
        assert!(
            !refused.message.contains("no-such-folder"),
            "{}",
            refused.message
        );
        assert!(
            refused.message.contains("(entity not found)"),
            "{}",
            refused.message
        );
        assert!(
            refused.message.contains(STORE_REMEDY),
            "{}",
            refused.message
        );
        let recovered = for_a_call(session_unavailable(
            &missing,
            "create the session folder",
            "denied",
        ));
        assert_eq!(recovered.kind, ErrorKind::PackStoreUnavailable);
        assert!(
            !recovered.message.contains("no-such-folder"),
            "{}",
            recovered.message
        );
    }

    #[test]
    fn a_refused_write_names_the_limit_it_passed() {
        let tmp = tempfile::tempdir().unwrap();
        let store = store_in(&tmp);

        // Room for one more pack of 200 MiB: the per-pack limit binds.
        let mut writer = store.writer().unwrap();
        writer.limit = 10;
        assert!(writer.write_all(b"0123456789").is_ok());
        let err = writer.write_all(b"x").unwrap_err();
        assert_eq!(writer.exceeded(), Some(StoreLimit::Pack));
        assert!(err.to_string().contains("200 MiB"), "{err}");
        assert!(
            err.get_ref()
                .and_then(|e| e.downcast_ref::<StoreLimit>())
                .is_some(),
            "the io::Error carries the typed limit"
        );

        // Less than 200 MiB left in the session: the session limit binds.
        store.pretend_stored(MAX_SESSION_BYTES - 5);
        let mut writer = store.writer().unwrap();
        assert!(writer.write_all(b"12345").is_ok());
        assert!(writer.write_all(b"6").is_err());
        assert_eq!(writer.exceeded(), Some(StoreLimit::Session));
        let message = StoreLimit::Session.error().to_string();
        assert!(
            message.starts_with("DPX-MCP-PACK-TOO-LARGE:") && message.contains("1 GiB session"),
            "{message}"
        );
        assert!(!message.contains("200 MiB"), "{message}");
    }

    #[test]
    fn the_lock_decides_whether_a_session_is_abandoned_on_every_platform() {
        let day = 25 * 60 * 60;
        let unsupported = || Err(io::Error::from(io::ErrorKind::Unsupported));
        // Lock held: a running server, however old and whatever its pid says (Windows has no
        // liveness check: `None`).
        for alive in [Some(true), Some(false), None] {
            assert!(!abandoned(Ok(false), alive, day), "{alive:?}");
        }
        // Lock free: gone at once when the pid is dead (a SIGKILL), after the set-up grace
        // otherwise (Windows, or a reused pid).
        assert!(abandoned(Ok(true), Some(false), 0));
        assert!(!abandoned(Ok(true), None, 5));
        assert!(!abandoned(Ok(true), Some(true), 5));
        assert!(abandoned(Ok(true), None, 61));
        assert!(abandoned(Ok(true), Some(true), 61));
        // No locks on this file system: the owner's pid and 24 hours.
        assert!(!abandoned(unsupported(), Some(true), day));
        assert!(!abandoned(unsupported(), Some(false), 3600));
        assert!(abandoned(unsupported(), Some(false), day));
        assert!(abandoned(unsupported(), None, day));
    }

    #[test]
    fn a_vanished_session_folder_is_recreated_for_the_next_pack() {
        let tmp = tempfile::tempdir().unwrap();
        let store = store_in(&tmp);
        let first = store.session_dir().unwrap();
        std::fs::remove_dir_all(tmp.path().join("store")).unwrap();
        let mut writer = store.writer().unwrap();
        writer.write_all(b"line\n").unwrap();
        let id = store.keep(writer.finish().unwrap()).unwrap();
        let second = store.session_dir().unwrap();
        assert_ne!(first, second);
        assert!(second.join(OWNER_FILE).is_file());
        assert_eq!(store.read(&id, 1, None, 10, 100).unwrap().text, "line\n");
    }
}
