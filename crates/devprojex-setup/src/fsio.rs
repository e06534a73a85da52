//! Reading and atomically rewriting config files.
//!
//! A write goes to a temporary file in the same folder, is flushed to disk (`fsync`), gets the
//! original file's permissions (and, where allowed, its group), and is renamed over the original,
//! so a crash or a failure at any point leaves either the old or the new file, never a mix. Just
//! before the rename the original is read again: if another program changed it since setup read
//! it, nothing is replaced ([`SetupError::Changed`]), so no update is lost. The bytes replaced are
//! kept as a backup in devprojex's own data folder (never inside a Git work tree). A symlinked
//! config is edited at its target. Temporary files are registered so that SIGINT/SIGTERM remove
//! them ([`install_signal_cleanup`]), and leftovers of killed runs are removed by the next run
//! ([`remove_stale_temp_files`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use crate::env::{Os, UserIds};
use crate::error::{Result, SetupError};
use crate::replace::SwapError;

/// Suffix of the backups older versions of setup kept next to the config.
pub const LEGACY_BACKUP_SUFFIX: &str = ".devprojex.bak";

/// Prefix and suffix of setup's temporary files.
pub const TEMP_PREFIX: &str = ".devprojex-setup-";
/// See [`TEMP_PREFIX`].
pub const TEMP_SUFFIX: &str = ".tmp";

/// How many backups of one config file are kept (the newest).
pub const BACKUPS_KEPT: usize = 5;

/// A config file as read from disk.
#[derive(Debug, Clone)]
pub struct ConfigFile {
    /// The path as configured (may be a symlink).
    pub path: PathBuf,
    /// The path that is actually read and written (the symlink's target, else `path`).
    pub real: PathBuf,
    /// The text, `None` when the file does not exist.
    pub text: Option<String>,
}

impl ConfigFile {
    /// The text, or the empty string for a missing file.
    pub fn text_or_empty(&self) -> &str {
        self.text.as_deref().unwrap_or("")
    }
}

/// Reads `path`, following a symlink to its target.
pub fn load(path: &Path) -> Result<ConfigFile> {
    let real = resolve(path)?;
    let text = match std::fs::read(&real) {
        Ok(bytes) => Some(String::from_utf8(bytes).map_err(|_| SetupError::Encoding {
            path: path.to_path_buf(),
        })?),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(SetupError::io(path, "reading", e)),
    };
    Ok(ConfigFile {
        path: path.to_path_buf(),
        real,
        text,
    })
}

/// The file a write of `path` lands in: the symlink's final target, or `path` itself.
pub fn resolve(path: &Path) -> Result<PathBuf> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => match std::fs::canonicalize(path) {
            Ok(target) => Ok(target),
            Err(_) => Err(SetupError::DanglingSymlink {
                path: path.to_path_buf(),
                target: std::fs::read_link(path).unwrap_or_default(),
            }),
        },
        _ => Ok(path.to_path_buf()),
    }
}

/// What a write may do besides replacing the file.
#[derive(Debug, Clone, Default)]
pub struct WriteOptions {
    /// A file that did not exist is created `0600` (user files) rather than `0644` (unix).
    pub private: bool,
    /// Where to keep the replaced bytes (`None`: no backup).
    pub backup_dir: Option<PathBuf>,
    /// The client's name, the first part of the backup's name (`cursor`).
    pub backup_label: String,
    /// The client's display name, for "close it" hints.
    pub client_display: String,
    /// Who runs setup.
    pub user: UserIds,
    /// The home folder: what setup creates inside it must go into folders the user owns.
    pub home: Option<PathBuf>,
}

/// What a write did.
#[derive(Debug, Clone, Default)]
pub struct WriteReport {
    /// The backup made by this write.
    pub backup: Option<PathBuf>,
    /// Whether the file was created.
    pub created: bool,
    /// Folders the write created, outermost first.
    pub created_dirs: Vec<PathBuf>,
    /// An old `<file>.devprojex.bak` that was moved into the backup folder, and where to.
    pub moved_legacy_backup: Option<(PathBuf, PathBuf)>,
}

/// Refuses files setup must not replace: owned by another user (or, as root, by anyone but
/// root), or read-only. Setup never makes a user's file root-owned, and never silently replaces
/// a file its owner protected.
pub fn check_writable(real: &Path, user: UserIds, client_display: &str) -> Result<()> {
    let Ok(meta) = std::fs::metadata(real) else {
        return Ok(());
    };
    let owner = file_owner(&meta);
    if let (Some(euid), Some(owner)) = (user.euid, owner)
        && owner != euid
    {
        if euid == 0 {
            return Err(SetupError::Ownership {
                message: format!(
                    "{}: the file belongs to user id {owner} and setup runs as root; writing it would leave it root-owned: run setup as that user (without sudo)",
                    real.display()
                ),
            });
        }
        return Err(SetupError::ReadOnly {
            path: real.to_path_buf(),
            why: format!("owned by another user (user id {owner})"),
            hint: "run setup as the file's owner, or add the entry by hand".into(),
        });
    }
    if owner_cannot_write(&meta) {
        return Err(SetupError::ReadOnly {
            path: real.to_path_buf(),
            why: "read-only".into(),
            hint: format!(
                "make it writable if {client_display} should get the entry (chmod u+w, or clear the read-only attribute), or add the entry by hand"
            ),
        });
    }
    Ok(())
}

/// The user id that owns `path` (`None` off unix, or when it cannot be read).
pub fn owner_of(path: &Path) -> Option<u32> {
    std::fs::metadata(path).ok().and_then(|m| file_owner(&m))
}

/// Whether the file's owner took away their own write permission (`0444`, but also `0464`:
/// others may write, the owner protected it from themselves), or the read-only attribute is set.
#[cfg(unix)]
fn owner_cannot_write(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o200 == 0
}

#[cfg(not(unix))]
fn owner_cannot_write(meta: &std::fs::Metadata) -> bool {
    meta.permissions().readonly()
}

#[cfg(unix)]
fn file_owner(meta: &std::fs::Metadata) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    Some(meta.uid())
}

#[cfg(not(unix))]
fn file_owner(_meta: &std::fs::Metadata) -> Option<u32> {
    None
}

/// How many times a write re-applies its edit to a file that other programs keep changing
/// before it gives up ([`SetupError::Changed`]).
pub const MAX_REAPPLY: usize = 20;

/// Writes `text` over `file`, which must still hold `file.text` (else [`SetupError::Changed`],
/// and the file is left as the other program wrote it).
pub fn write(file: &ConfigFile, text: &str, opts: &WriteOptions) -> Result<WriteReport> {
    write_with_hook(file, text, opts, &mut |_, _| Ok(()))
}

/// [`write`] with a hook that runs before each swap (tests inject failures and concurrent
/// writers there).
pub fn write_with_hook(
    file: &ConfigFile,
    text: &str,
    opts: &WriteOptions,
    hook: SwapHook<'_>,
) -> Result<WriteReport> {
    let expected = file.text.clone();
    let mut edit = |current: Option<&str>| {
        if current == expected.as_deref() {
            Ok(text.to_string())
        } else {
            Err(SetupError::Changed {
                path: file.path.clone(),
            })
        }
    };
    // Any other text is refused, so there is nothing to carry over.
    write_edited(file, opts, &mut edit, &|_, _, _| None, hook)
}

/// When a write's hook runs: before setup swaps its text in, and before it undoes a swap that
/// found another program's newer text (tests write the file at both moments, as a running
/// client would).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SwapStep {
    /// Setup's text, complete in the staged file, is about to replace the file.
    Replace,
    /// Setup's text is in place for a moment and about to be swapped out again.
    Undo,
}

/// [`write_edited`]'s hook: the staged file's path and the step.
pub type SwapHook<'a> = &'a mut dyn FnMut(&Path, SwapStep) -> std::io::Result<()>;

/// How a write carries over a save that another program made from setup's text while it was
/// briefly in place: `carry(shown, lost, newer)` ([`crate::carry::carry_over`]).
pub type CarryOver<'a> = &'a dyn Fn(&str, &str, &str) -> Option<String>;

/// Writes `edit(text)` over `file`, with no lost update by construction: the new file is
/// swapped in ([`crate::replace::exchange`]) and what it replaced is compared, at that moment,
/// with the text the edit was computed from. When another program wrote the file in between,
/// the swap is undone at once (its text is back in place, ours was visible for two system
/// calls), the edit is applied again to the newer text, and the swap repeated. A file that did
/// not exist is created only if it still does not ([`crate::replace::create_new`]). The
/// backup of the text to be replaced is written before the swap, never between the compare
/// and the replace.
///
/// While setup's text was in place before an undo, a client may have read it and then saved a
/// text made from it, without the save the undo put back: when a newer text already carries
/// setup's change and the text before it did not, `carry` brings that earlier save's changes
/// into it before the edit is applied again, so neither save is lost.
///
/// `edit` gets the current text (`None`: no file) and returns the new text, or an error that
/// stops the write and leaves the file as it is (the caller's way to say "the change matters,
/// plan again"). `hook` runs before every swap and every undo, with the temporary file complete.
pub fn write_edited(
    file: &ConfigFile,
    opts: &WriteOptions,
    edit: &mut dyn FnMut(Option<&str>) -> Result<String>,
    carry: CarryOver<'_>,
    hook: SwapHook<'_>,
) -> Result<WriteReport> {
    let real = &file.real;
    let dir = match real.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    check_writable(real, opts.user, &opts.client_display)?;
    check_creation_owner(real, opts)?;
    let mut current: Option<String> = file.text.clone();
    let mut text = edit(current.as_deref())?;
    // What `text` was made from: `current`, or a newer text with a lost save carried over.
    let mut base = current.clone();
    // Setup's text of the last attempt whose swap was undone: it was in place for a moment.
    let mut last_shown: Option<String> = None;
    let created_dirs = create_dirs_owned(&dir, opts)?;
    let mut report = WriteReport {
        created: current.is_none(),
        created_dirs,
        ..WriteReport::default()
    };
    let io = |action: &'static str| move |e: std::io::Error| SetupError::io(&file.path, action, e);
    let mut backed_up: Option<String> = None;
    // One staged file for every attempt: after an undone swap it holds setup's text again and
    // is rewritten in place, so a retry neither leaves nor adds a temporary file.
    let mut staged: Option<Staged> = None;
    let result = (|| {
        for _round in 0..MAX_REAPPLY {
            if current.as_deref() == Some(text.as_str()) {
                // Another program already wrote exactly this text: nothing to replace.
                report.created = false;
                return Ok(());
            }
            // The backup of what is about to be replaced, before the compare at the swap.
            if let (Some(original), Some(backup_dir)) = (&current, &opts.backup_dir)
                && backed_up.as_ref() != Some(original)
            {
                check_creation_owner(&backup_dir.join("x"), opts)?;
                report.created_dirs.extend(create_dirs(backup_dir)?);
                report.backup = Some(write_backup(
                    backup_dir,
                    &opts.backup_label,
                    real,
                    original.as_bytes(),
                )?);
                backed_up = Some(original.clone());
            }
            let stage = match staged.as_mut() {
                Some(stage) => stage,
                None => {
                    staged.insert(Staged::create(&dir).map_err(io("creating a temporary file"))?)
                }
            };
            stage
                .fill(&text, real, opts)
                .map_err(io("writing the temporary file"))?;
            hook(&stage.path, SwapStep::Replace).map_err(io("replacing the file"))?;
            // Setup's text was in place for a moment (an exchange that is undone).
            let mut exchanged = false;
            let newer: Option<Option<Vec<String>>> = match &current {
                None => match crate::replace::create_new(&stage.path, real) {
                    Ok(()) => {
                        stage.consumed();
                        None
                    }
                    Err(SwapError::Exists) => {
                        Some(read_optional(real, &file.path)?.map(|t| vec![t]))
                    }
                    Err(SwapError::Unsupported) => {
                        fallback_replace(stage, real, &current, file, opts)?
                            .map(|t| t.map(|t| vec![t]))
                    }
                    Err(SwapError::Io(e)) => return Err(replace_failed(file, e, opts)),
                },
                Some(expected) => match crate::replace::exchange(&stage.path, real) {
                    Ok(old) => {
                        exchanged = true;
                        swapped(stage, old, real, expected, &text, file, hook)?.map(Some)
                    }
                    Err(SwapError::Unsupported) => {
                        fallback_replace(stage, real, &current, file, opts)?
                            .map(|t| t.map(|t| vec![t]))
                    }
                    Err(SwapError::Exists) => {
                        unreachable!("an exchange never reports an existing file")
                    }
                    Err(SwapError::Io(e)) => return Err(replace_failed(file, e, opts)),
                },
            };
            match newer {
                None => {
                    sync_dir(&dir);
                    if let Some(backup_dir) = &opts.backup_dir
                        && legacy_backup_path(real).exists()
                    {
                        report.created_dirs.extend(create_dirs(backup_dir)?);
                        report.moved_legacy_backup =
                            move_legacy_backup(real, backup_dir, &opts.backup_label);
                    }
                    return Ok(());
                }
                Some(None) => {
                    // Deleted meanwhile: setup creates the file.
                    report.created = true;
                    text = edit(None)?;
                    current = None;
                    base = None;
                }
                Some(Some(found)) => {
                    // Other programs wrote the file after setup read it; the newest of their
                    // texts is in place again. Apply the edit to it, with any save that one was
                    // made without carried over: the first text found can be made from a text
                    // setup showed in an earlier attempt, the later ones from this attempt's.
                    report.created = false;
                    let this_shown = exchanged.then(|| text.clone());
                    // `edit(base)` where known, so the edit runs once per text.
                    let mut edited_base = Some(std::mem::take(&mut text));
                    for (i, newer) in found.into_iter().enumerate() {
                        let shown = if i == 0 { &last_shown } else { &this_shown };
                        current = Some(newer.clone());
                        let (Some(shown), Some(lost)) = (shown, &base) else {
                            (base, edited_base) = (Some(newer), None);
                            continue;
                        };
                        // An earlier text the edit refuses is only passed over; the newest
                        // one's refusal comes from the edit below.
                        let Ok(edited) = edit(Some(&newer)) else {
                            (base, edited_base) = (Some(newer), None);
                            continue;
                        };
                        let lost_lacks_edit = match &edited_base {
                            Some(e) => e != lost,
                            None => edit(Some(lost)).ok().as_deref() != Some(lost.as_str()),
                        };
                        let carried = (edited == newer && lost_lacks_edit)
                            .then(|| carry(shown, lost, &newer))
                            .flatten();
                        (base, edited_base) = match carried {
                            Some(carried) => (Some(carried), None),
                            None => (Some(newer), Some(edited)),
                        };
                    }
                    if this_shown.is_some() {
                        last_shown = this_shown;
                    }
                    text = match edited_base {
                        Some(edited) => edited,
                        None => edit(base.as_deref())?,
                    };
                }
            }
        }
        Err(SetupError::Changed {
            path: file.path.clone(),
        })
    })();
    if let Some(stage) = staged {
        stage.remove();
    }
    result.map(|()| report)
}

/// The file setup stages its text in, beside the config, registered for the signal cleanup.
struct Staged {
    path: PathBuf,
    /// Whether a file is at `path` (a swap or rename may have taken it).
    present: bool,
    _registered: Registered,
    /// A second registration while the staged file has another name (Windows' backup name).
    _moved: Option<Registered>,
}

impl Staged {
    fn create(dir: &Path) -> std::io::Result<Staged> {
        let tmp = PendingTemp::create(dir)?;
        let path = tmp.path().to_path_buf();
        Ok(Staged {
            path,
            present: true,
            _registered: tmp.keep(),
            _moved: None,
        })
    }

    /// Writes `text`, with the original's permissions (or, for a new file, `0600`/`0644`) and
    /// group, flushed to disk.
    fn fill(&mut self, text: &str, real: &Path, opts: &WriteOptions) -> std::io::Result<()> {
        let meta = std::fs::metadata(real).ok();
        let perms = meta
            .as_ref()
            .map(|m| m.permissions())
            .or_else(|| new_file_permissions(opts.private));
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .truncate(true)
            .create(true)
            .open(&self.path)?;
        self.present = true;
        f.write_all(text.as_bytes())?;
        f.flush()?;
        if let Some(p) = perms {
            f.set_permissions(p)?;
        }
        if let Some(m) = &meta {
            keep_group(&f, m);
        }
        f.sync_all()
    }

    /// The staged file now lives at `path` (Windows: `ReplaceFileW` moved it).
    fn moved_to(&mut self, path: PathBuf) {
        if path != self.path {
            self._moved = Some(register(path.clone()));
            self.path = path;
        }
    }

    /// The staged file became the config.
    fn consumed(&mut self) {
        self.present = false;
    }

    fn remove(self) {
        if self.present {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// After an exchange: `Ok(None)` when the file replaced held `expected` (done), else the swap is
/// undone at once and the texts other programs wrote are returned, oldest first; the last one is
/// in place. Setup's own text is written to the staged file again by the next attempt.
fn swapped(
    stage: &mut Staged,
    old: PathBuf,
    real: &Path,
    expected: &str,
    ours: &str,
    file: &ConfigFile,
    hook: SwapHook<'_>,
) -> Result<Option<Vec<String>>> {
    let read = |stage: &Staged| {
        std::fs::read(&stage.path).map_err(|e| SetupError::io(&file.path, "reading", e))
    };
    // On Windows the replaced file has a name of its own.
    stage.moved_to(old);
    let replaced = read(stage)?;
    if replaced == expected.as_bytes() {
        return Ok(None);
    }
    let mut found = vec![replaced];
    // Undo at once: the newest text goes back in place, and what comes back must be the text
    // left there. When another program wrote over that text in between, its text is newer
    // still: it goes back in place in turn.
    let mut left = ours.as_bytes().to_vec();
    // A failing hook cannot stop the undo (setup's text must not stay in place): its error is
    // reported once the newest text is back.
    let mut hook_failed = None;
    for _ in 0..MAX_REAPPLY {
        if let Err(e) = hook(&stage.path, SwapStep::Undo) {
            hook_failed.get_or_insert(e);
        }
        let back = crate::replace::exchange(&stage.path, real)
            .map_err(|e| swap_error(file, e, "putting the newer file back"))?;
        stage.moved_to(back);
        let came_back = read(stage)?;
        if came_back == left {
            break;
        }
        left = found.last().expect("one text at least").clone();
        found.push(came_back);
    }
    if let Some(e) = hook_failed {
        return Err(SetupError::io(&file.path, "replacing the file", e));
    }
    found
        .into_iter()
        .map(|bytes| {
            String::from_utf8(bytes).map_err(|_| SetupError::Encoding {
                path: file.path.clone(),
            })
        })
        .collect::<Result<Vec<_>>>()
        .map(Some)
}

/// Compare-then-rename, where the file system has no exchange: the window between the two is
/// as short as reading the file.
fn fallback_replace(
    stage: &mut Staged,
    real: &Path,
    expected: &Option<String>,
    file: &ConfigFile,
    opts: &WriteOptions,
) -> Result<Option<Option<String>>> {
    let now = read_optional(real, &file.path)?;
    if now.as_deref() != expected.as_deref() {
        return Ok(Some(now));
    }
    std::fs::rename(&stage.path, real).map_err(|e| replace_failed(file, e, opts))?;
    stage.consumed();
    Ok(None)
}

fn read_optional(real: &Path, shown: &Path) -> Result<Option<String>> {
    match std::fs::read(real) {
        Ok(b) => String::from_utf8(b)
            .map(Some)
            .map_err(|_| SetupError::Encoding {
                path: shown.to_path_buf(),
            }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(SetupError::io(shown, "reading", e)),
    }
}

fn replace_failed(file: &ConfigFile, e: std::io::Error, opts: &WriteOptions) -> SetupError {
    replace_error(
        &file.path,
        e,
        &opts.client_display,
        crate::env::Os::current(),
    )
}

fn swap_error(file: &ConfigFile, e: SwapError, action: &'static str) -> SetupError {
    let e = match e {
        SwapError::Io(e) => e,
        SwapError::Unsupported | SwapError::Exists => std::io::Error::other("the swap failed"),
    };
    SetupError::io(&file.path, action, e)
}

/// Setup never leaves a file owned by someone else where it writes: a file or folder it
/// creates must go into a folder the running user owns, when that folder is inside the home
/// folder or setup runs as root (root's files in a user's folder lock that user out of them).
fn check_creation_owner(path: &Path, opts: &WriteOptions) -> Result<()> {
    let Some(euid) = opts.user.euid else {
        return Ok(());
    };
    if path.exists() {
        return Ok(());
    }
    let Some(parent) = path.ancestors().skip(1).find(|d| d.exists()) else {
        return Ok(());
    };
    let in_home = opts
        .home
        .as_ref()
        .is_some_and(|h| parent.starts_with(h) || h.starts_with(parent));
    if euid != 0 && !in_home {
        return Ok(());
    }
    let Some(owner) = std::fs::metadata(parent).ok().and_then(|m| file_owner(&m)) else {
        return Ok(());
    };
    if owner == euid {
        return Ok(());
    }
    Err(SetupError::Ownership {
        message: format!(
            "{}: setup would create {} there, owned by user id {euid}, in a folder that belongs to user id {owner}; that user could no longer change it: run setup as user id {owner}",
            parent.display(),
            path.strip_prefix(parent).unwrap_or(path).display(),
        ),
    })
}

/// [`create_dirs`] after [`check_creation_owner`].
fn create_dirs_owned(dir: &Path, opts: &WriteOptions) -> Result<Vec<PathBuf>> {
    check_creation_owner(dir, opts)?;
    create_dirs(dir)
}

/// Creates `dir` and its missing parents; returns the folders created, outermost first.
fn create_dirs(dir: &Path) -> Result<Vec<PathBuf>> {
    let missing: Vec<PathBuf> = dir
        .ancestors()
        .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
        .map(Path::to_path_buf)
        .collect();
    std::fs::create_dir_all(dir).map_err(|e| SetupError::io(dir, "creating the folder", e))?;
    Ok(missing.into_iter().rev().collect())
}

/// The error for a failed rename: a file held open by a running client on Windows (sharing or
/// lock violation, access denied) names the client to close.
fn replace_error(path: &Path, e: std::io::Error, client: &str, os: Os) -> SetupError {
    if let Some(why) = locked_reason(os, e.raw_os_error()) {
        return SetupError::ReadOnly {
            path: path.to_path_buf(),
            why: why.into(),
            hint: format!("close {client} and run setup again"),
        };
    }
    SetupError::io(path, "replacing the file", e)
}

/// Whether an OS error code from replacing a file means another program holds it:
/// Windows `ERROR_ACCESS_DENIED` (5), `ERROR_SHARING_VIOLATION` (32), `ERROR_LOCK_VIOLATION` (33).
pub fn locked_reason(os: Os, raw: Option<i32>) -> Option<&'static str> {
    match (os, raw) {
        (Os::Windows, Some(32 | 33)) => Some("locked by another program"),
        (Os::Windows, Some(5)) => Some("locked or read-only (access denied)"),
        _ => None,
    }
}

#[cfg(unix)]
fn keep_group(tmp: &std::fs::File, original: &std::fs::Metadata) {
    use std::os::unix::fs::MetadataExt;
    // The owner is the user (checked); the group may differ (a shared config). Allowed only when
    // the user is in that group; otherwise the file keeps the user's group.
    let _ = std::os::unix::fs::fchown(tmp, None, Some(original.gid()));
}

#[cfg(not(unix))]
fn keep_group(_tmp: &std::fs::File, _original: &std::fs::Metadata) {}

#[cfg(unix)]
fn new_file_permissions(private: bool) -> Option<std::fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    Some(std::fs::Permissions::from_mode(if private {
        0o600
    } else {
        0o644
    }))
}

#[cfg(not(unix))]
fn new_file_permissions(_private: bool) -> Option<std::fs::Permissions> {
    None
}

#[cfg(unix)]
fn sync_dir(dir: &Path) {
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

#[cfg(not(unix))]
fn sync_dir(_dir: &Path) {}

// ---------- temporary files ----------

static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// A temporary file that is registered for removal on SIGINT/SIGTERM until it is persisted or
/// dropped.
struct PendingTemp {
    file: tempfile::NamedTempFile,
    registered: Registered,
}

/// Unregisters its path when dropped.
struct Registered(PathBuf);

impl Drop for Registered {
    fn drop(&mut self) {
        unregister(&self.0);
    }
}

impl PendingTemp {
    fn create(dir: &Path) -> std::io::Result<PendingTemp> {
        // The process id in the name tells a later run whether the writer is still alive.
        let prefix = format!("{TEMP_PREFIX}{}-", std::process::id());
        // Created and registered under the lock the signal handler holds until the process
        // exits: a signal comes either before the file exists or when it is registered.
        let mut pending = lock_pending();
        let file = tempfile::Builder::new()
            .prefix(&prefix)
            .suffix(TEMP_SUFFIX)
            .tempfile_in(dir)?;
        let path = file.path().to_path_buf();
        pending.push(path.clone());
        drop(pending);
        Ok(PendingTemp {
            file,
            registered: Registered(path),
        })
    }

    fn path(&self) -> &Path {
        self.file.path()
    }

    /// Keeps the file on disk when dropped (it is renamed or swapped away); the path stays
    /// registered for the signal cleanup until the returned guard is dropped.
    fn keep(self) -> Registered {
        let PendingTemp { file, registered } = self;
        let _ = file.into_temp_path().keep();
        registered
    }

    fn persist(self, target: &Path) -> std::io::Result<()> {
        let PendingTemp { file, registered } = self;
        let result = file.persist(target).map(|_| ()).map_err(|e| e.error);
        drop(registered);
        result
    }
}

/// The registry of temporary files; a panic elsewhere never makes it unusable for the cleanup.
fn lock_pending() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    PENDING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Registers `path` for the signal cleanup until the guard is dropped.
fn register(path: PathBuf) -> Registered {
    lock_pending().push(path.clone());
    Registered(path)
}

fn unregister(path: &Path) {
    lock_pending().retain(|p| p != path);
}

/// The temporary files setup is writing right now.
pub fn pending_temp_files() -> Vec<PathBuf> {
    lock_pending().clone()
}

/// Removes the temporary files setup is writing right now (what the signal handler does).
pub fn remove_pending_temp_files() -> usize {
    remove_all(&lock_pending())
}

fn remove_all(paths: &[PathBuf]) -> usize {
    paths
        .iter()
        .filter(|p| std::fs::remove_file(p).is_ok())
        .count()
}

/// Makes SIGINT, SIGTERM and SIGHUP (Ctrl+C, Ctrl+Break and closing the console on Windows)
/// remove setup's temporary files before the process exits with 130. Called once per process
/// by [`crate::run_setup`]; later calls do nothing.
pub fn install_signal_cleanup() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            // Held until the exit, so no temporary file is created after this removal.
            let pending = lock_pending();
            remove_all(&pending);
            std::process::exit(130);
        });
    });
}

/// Whether the setup run that wrote a temporary file of this name may still be running: the
/// file is fresh (a run's temporary files live for milliseconds) and its process (the id in
/// the name) is alive. An old file goes even when a process of that id runs: the id was reused.
/// Without an id (older versions) or a way to ask (not unix), only `old` (its age) decides.
fn writer_may_be_alive(name: &str, old: bool) -> bool {
    let pid = name
        .strip_prefix(TEMP_PREFIX)
        .and_then(|rest| rest.split('-').next())
        .and_then(|p| p.parse::<u32>().ok());
    match pid {
        Some(pid) if pid == std::process::id() => true,
        Some(pid) => !old && process_alive(pid).unwrap_or(true),
        None => !old,
    }
}

#[cfg(unix)]
fn process_alive(pid: u32) -> Option<bool> {
    let pid = rustix::process::Pid::from_raw(i32::try_from(pid).ok()?)?;
    match rustix::process::test_kill_process(pid) {
        Ok(()) => Some(true),
        Err(rustix::io::Errno::SRCH) => Some(false),
        // EPERM: alive, owned by someone else.
        Err(_) => Some(true),
    }
}

#[cfg(not(unix))]
fn process_alive(_pid: u32) -> Option<bool> {
    None
}

/// Removes the leftovers of killed setup runs from `dirs`: temporary files whose writer is no
/// longer running, or, when that cannot be told, that are older than `min_age` (a running
/// setup's files live for milliseconds). Returns the files removed.
pub fn remove_stale_temp_files(dirs: &[PathBuf], min_age: Duration) -> Vec<PathBuf> {
    let now = SystemTime::now();
    let mut removed = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for dir in dirs {
        if !seen.insert(dir.clone()) {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        for entry in entries.filter_map(|e| e.ok()) {
            let name = entry.file_name().to_string_lossy().into_owned();
            if !(name.starts_with(TEMP_PREFIX) && name.ends_with(TEMP_SUFFIX)) {
                continue;
            }
            let Ok(meta) = entry.metadata() else { continue };
            let old = meta
                .modified()
                .ok()
                .and_then(|m| now.duration_since(m).ok())
                .is_some_and(|age| age >= min_age);
            if meta.is_file()
                && !writer_may_be_alive(&name, old)
                && std::fs::remove_file(entry.path()).is_ok()
            {
                removed.push(entry.path());
            }
        }
    }
    removed
}

// ---------- backups ----------

/// `<label>--<the config's path, separators as '_'>--`: the common start of a config's backups.
/// Every character a Windows file name may not hold becomes `_` too: the real path of a config
/// there is `\\?\C:\...` (`canonicalize`), and a `?` or `:` in the name fails the backup.
pub fn backup_prefix(label: &str, real: &Path) -> String {
    let flat: String = real
        .to_string_lossy()
        .chars()
        .map(|c| {
            if matches!(c, '/' | '\\' | ':' | '?' | '*' | '"' | '<' | '>' | '|') || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    let flat = flat.trim_start_matches('_');
    // Keep names well under the 255-byte limit: the end of the path says the most.
    let tail: String = {
        let chars: Vec<char> = flat.chars().collect();
        chars[chars.len().saturating_sub(120)..].iter().collect()
    };
    format!("{label}--{tail}--")
}

/// The backups of one config, oldest first.
pub fn backups_of(backup_dir: &Path, label: &str, real: &Path) -> Vec<PathBuf> {
    let prefix = backup_prefix(label, real);
    let Ok(entries) = std::fs::read_dir(backup_dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .filter(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.starts_with(&prefix) && n.ends_with(".bak")
        })
        .map(|e| e.path())
        .collect();
    found.sort();
    found
}

fn write_backup(backup_dir: &Path, label: &str, real: &Path, bytes: &[u8]) -> Result<PathBuf> {
    std::fs::create_dir_all(backup_dir)
        .map_err(|e| SetupError::io(backup_dir, "creating the backup folder", e))?;
    let stamp = jiff::Timestamp::now()
        .strftime("%Y%m%dT%H%M%SZ")
        .to_string();
    let prefix = backup_prefix(label, real);
    let mut target = backup_dir.join(format!("{prefix}{stamp}.bak"));
    let mut n = 1;
    while target.exists() {
        target = backup_dir.join(format!("{prefix}{stamp}-{n}.bak"));
        n += 1;
    }
    let io = |e| SetupError::io(&target, "writing the backup", e);
    let mut tmp = PendingTemp::create(backup_dir).map_err(io)?;
    tmp.file.write_all(bytes).map_err(io)?;
    if let Some(p) = new_file_permissions(true) {
        tmp.file.as_file().set_permissions(p).map_err(io)?;
    }
    tmp.file.as_file().sync_all().map_err(io)?;
    tmp.persist(&target).map_err(io)?;
    let all = backups_of(backup_dir, label, real);
    for old in all.iter().take(all.len().saturating_sub(BACKUPS_KEPT)) {
        let _ = std::fs::remove_file(old);
    }
    Ok(target)
}

/// Moves an old `<file>.devprojex.bak` (kept next to the config by earlier versions, so inside
/// Git work trees) into the backup folder.
fn move_legacy_backup(real: &Path, backup_dir: &Path, label: &str) -> Option<(PathBuf, PathBuf)> {
    let mut name = real.file_name()?.to_os_string();
    name.push(LEGACY_BACKUP_SUFFIX);
    let legacy = real.with_file_name(name);
    let bytes = std::fs::read(&legacy).ok()?;
    let target = write_backup(backup_dir, label, real, &bytes).ok()?;
    std::fs::remove_file(&legacy).ok()?;
    Some((legacy, target))
}

/// The old `<file>.devprojex.bak` next to `real`.
pub fn legacy_backup_path(real: &Path) -> PathBuf {
    let mut name = real
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    name.push(LEGACY_BACKUP_SUFFIX);
    real.with_file_name(name)
}

// ---------- setup's record ----------

/// What setup created, so that detection ignores it and `--remove` can take it away again.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Record {
    /// Files and folders setup created (absolute).
    pub created: Vec<PathBuf>,
}

/// The record's file in the data folder.
pub fn record_path(data_dir: &Path) -> PathBuf {
    data_dir.join("setup-record.json")
}

impl Record {
    /// Reads the record (an unreadable one counts as empty).
    pub fn load(data_dir: Option<&Path>) -> Record {
        let Some(dir) = data_dir else {
            return Record::default();
        };
        let Ok(text) = std::fs::read_to_string(record_path(dir)) else {
            return Record::default();
        };
        let created = serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .and_then(|v| {
                v.get("created")?.as_array().map(|a| {
                    a.iter()
                        .filter_map(|p| p.as_str().map(PathBuf::from))
                        .collect()
                })
            })
            .unwrap_or_default();
        Record { created }
    }

    /// Writes the record, or removes its file when it is empty. The folders the record's own
    /// file needs are recorded too.
    pub fn save(&mut self, data_dir: &Path) -> Result<()> {
        let path = record_path(data_dir);
        if self.created.is_empty() {
            let _ = std::fs::remove_file(&path);
            let _ = std::fs::remove_dir(data_dir);
            return Ok(());
        }
        let made = create_dirs(data_dir)?;
        self.add(made);
        let value = serde_json::json!({
            "comment": "Files and folders `devprojex setup` created; `devprojex setup --remove` removes them again when they are empty.",
            "created": self.created.iter().map(|p| p.to_string_lossy()).collect::<Vec<_>>(),
        });
        let text = serde_json::to_string_pretty(&value).unwrap_or_default() + "\n";
        std::fs::create_dir_all(data_dir)
            .map_err(|e| SetupError::io(data_dir, "creating the data folder", e))?;
        let file = ConfigFile {
            path: path.clone(),
            real: path.clone(),
            text: std::fs::read_to_string(&path).ok(),
        };
        write(
            &file,
            &text,
            &WriteOptions {
                private: true,
                ..WriteOptions::default()
            },
        )
        .map(|_| ())
    }

    /// After a removal: when setup created nothing but its own data folder (and the folders
    /// above it), removes the record's file and every such folder that is empty.
    pub fn finish_removal(&mut self, data_dir: &Path) {
        let own = |p: &Path| p == data_dir || data_dir.starts_with(p) || p.starts_with(data_dir);
        if !self.created.iter().all(|p| own(p)) {
            return;
        }
        let _ = std::fs::remove_file(record_path(data_dir));
        let mut dirs = std::mem::take(&mut self.created);
        dirs.sort_by_key(|d| std::cmp::Reverse(d.components().count()));
        for d in dirs {
            if std::fs::remove_dir(&d).is_err() && d.exists() {
                self.created.push(d);
            }
        }
    }

    /// Adds paths (once each).
    pub fn add(&mut self, paths: impl IntoIterator<Item = PathBuf>) {
        for p in paths {
            if !self.created.contains(&p) {
                self.created.push(p);
            }
        }
    }

    /// Whether setup created `p`.
    pub fn contains(&self, p: &Path) -> bool {
        self.created.iter().any(|c| c == p)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn backup_names_hold_only_what_every_file_system_accepts() {
        let windows_real = Path::new(r"\\?\C:\Users\ada\AppData\Roaming\Code\User\mcp.json");
        assert_eq!(
            backup_prefix("vscode", windows_real),
            "vscode--C__Users_ada_AppData_Roaming_Code_User_mcp.json--"
        );
        let unc = Path::new(r"\\?\UNC\server\share\ada\.claude.json");
        assert_eq!(
            backup_prefix("claude-code", unc),
            "claude-code--UNC_server_share_ada_.claude.json--"
        );
        assert_eq!(
            backup_prefix("codex", Path::new("/home/ada/.codex/config.toml")),
            "codex--home_ada_.codex_config.toml--"
        );
        let odd = Path::new("/home/a*b/<x>|\"y\"?/\u{7}.json");
        let name = backup_prefix("cursor", odd);
        assert!(
            !name.contains(['<', '>', ':', '"', '/', '\\', '|', '?', '*', '\u{7}']),
            "{name}"
        );
    }

    use super::*;

    /// The registry of temporary files is process-wide: tests that create them take turns.
    static TEMPS: Mutex<()> = Mutex::new(());

    fn turn() -> std::sync::MutexGuard<'static, ()> {
        TEMPS.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn no_carry(_: &str, _: &str, _: &str) -> Option<String> {
        None
    }

    /// Setup's edit of a JSON config: `"ours": 1` added (a text that has it stays as it is).
    fn add_ours(current: Option<&str>) -> Result<String> {
        let mut v: serde_json::Value = serde_json::from_str(current.unwrap_or("{}")).unwrap();
        if v.get("ours").is_some() {
            return Ok(current.unwrap_or_default().to_string());
        }
        v["ours"] = 1.into();
        Ok(serde_json::to_string_pretty(&v).unwrap() + "\n")
    }

    /// A client's save: read the file, set `key`, write a temporary file, rename it over.
    fn client_save(path: &Path, from: &str, key: &str) -> std::io::Result<()> {
        let mut v: serde_json::Value = serde_json::from_str(from).unwrap();
        v[key] = true.into();
        let tmp = path.with_extension("client");
        std::fs::write(&tmp, serde_json::to_string_pretty(&v).unwrap() + "\n")?;
        std::fs::rename(&tmp, path)
    }

    /// A temporary folder with a `.claude.json` holding `text`, loaded.
    fn claude_json(text: &str) -> (tempfile::TempDir, PathBuf, ConfigFile) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".claude.json");
        std::fs::write(&path, text).unwrap();
        let file = load(&path).unwrap();
        (dir, path, file)
    }

    fn carry_json(shown: &str, lost: &str, newer: &str) -> Option<String> {
        crate::carry::carry_over(crate::client::Format::Json, shown, lost, newer)
    }

    fn keys_of(path: &Path) -> Vec<String> {
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        v.as_object().unwrap().keys().cloned().collect()
    }

    #[test]
    fn a_save_made_from_setups_text_in_the_undo_window_keeps_the_save_undone_for() {
        let _turn = turn();
        let (dir, path, file) = claude_json("{\"a\": 1}\n");
        let mut steps = Vec::new();
        write_edited(
            &file,
            &opts(dir.path()),
            &mut add_ours,
            &carry_json,
            &mut |_, step| {
                steps.push(step);
                let now = std::fs::read_to_string(&path)?;
                match steps.len() {
                    // A client saves while setup prepares its copy...
                    1 => client_save(&path, &now, "first"),
                    // ...and another one reads setup's text in the moment it is in place, and
                    // saves from it before setup puts the first save back.
                    2 => {
                        assert!(now.contains("ours"), "setup's text is in place: {now}");
                        client_save(&path, &now, "second")
                    }
                    _ => Ok(()),
                }
            },
        )
        .unwrap();
        assert_eq!(steps[..2], [SwapStep::Replace, SwapStep::Undo]);
        assert_eq!(keys_of(&path), ["a", "first", "ours", "second"]);
    }

    #[test]
    fn a_failure_at_the_undo_still_puts_the_newer_text_back() {
        let _turn = turn();
        let (dir, path, file) = claude_json("{\"a\": 1}\n");
        let err = write_edited(
            &file,
            &opts(dir.path()),
            &mut add_ours,
            &carry_json,
            &mut |_, step| match step {
                SwapStep::Replace => {
                    let now = std::fs::read_to_string(&path)?;
                    client_save(&path, &now, "first")
                }
                SwapStep::Undo => Err(std::io::Error::other("injected fault")),
            },
        )
        .unwrap_err();
        assert_eq!(err.code(), "DPX-SETUP-IO", "{err}");
        assert_eq!(
            keys_of(&path),
            ["a", "first"],
            "the client's save is in place"
        );
        assert!(pending_temp_files().is_empty());
    }

    #[test]
    fn a_save_made_later_from_setups_text_keeps_the_save_undone_for() {
        let _turn = turn();
        let (dir, path, file) = claude_json("{\"a\": 1}\n");
        let mut steps = 0;
        let mut read_in_the_window = None;
        write_edited(
            &file,
            &opts(dir.path()),
            &mut add_ours,
            &carry_json,
            &mut |_, step| {
                steps += 1;
                match (steps, step) {
                    (1, SwapStep::Replace) => {
                        let now = std::fs::read_to_string(&path)?;
                        client_save(&path, &now, "first")
                    }
                    // A client reads setup's text in the moment it is in place...
                    (2, SwapStep::Undo) => {
                        read_in_the_window = Some(std::fs::read_to_string(&path)?);
                        Ok(())
                    }
                    // ...and saves from it once setup has put the first save back.
                    (_, SwapStep::Replace) => match read_in_the_window.take() {
                        Some(text) => client_save(&path, &text, "second"),
                        None => Ok(()),
                    },
                    _ => Ok(()),
                }
            },
        )
        .unwrap();
        assert_eq!(keys_of(&path), ["a", "first", "ours", "second"]);
    }

    fn opts(dir: &Path) -> WriteOptions {
        WriteOptions {
            private: true,
            backup_dir: Some(dir.join("backups")),
            backup_label: "cursor".into(),
            client_display: "Cursor".into(),
            user: UserIds::default(),
            home: None,
        }
    }

    #[test]
    fn failure_before_rename_leaves_the_original_intact() {
        let _turn = turn();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mcp.json");
        std::fs::write(&path, "{ \"keep\": true }\n").unwrap();
        let file = load(&path).unwrap();
        let err = write_with_hook(&file, "{}\n", &opts(dir.path()), &mut |tmp, _| {
            assert!(
                tmp.exists(),
                "the temporary file is complete when the hook runs"
            );
            assert_eq!(pending_temp_files(), [tmp.to_path_buf()]);
            Err(std::io::Error::other("injected fault"))
        })
        .unwrap_err();
        assert_eq!(err.code(), "DPX-SETUP-IO");
        assert!(err.to_string().contains("injected fault"));
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{ \"keep\": true }\n"
        );
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect();
        assert!(
            leftovers.is_empty(),
            "temporary file removed: {leftovers:?}"
        );
        assert!(pending_temp_files().is_empty());
    }

    #[test]
    fn a_file_changed_before_the_rename_is_not_replaced() {
        let _turn = turn();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".claude.json");
        std::fs::write(&path, "{\"numStartups\": 1}\n").unwrap();
        let file = load(&path).unwrap();
        // A running Claude Code writes the file while setup prepares its copy.
        let err = write_with_hook(
            &file,
            "{\"mcpServers\": {}}\n",
            &opts(dir.path()),
            &mut |_, _| std::fs::write(&path, "{\"numStartups\": 2}\n"),
        )
        .unwrap_err();
        assert_eq!(err.code(), "DPX-SETUP-CHANGED", "{err}");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "{\"numStartups\": 2}\n",
            "the other program's write is kept"
        );
        assert!(pending_temp_files().is_empty());
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp") || n.contains(".old"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }

    #[test]
    fn an_edit_is_applied_again_to_a_text_written_before_the_swap() {
        let _turn = turn();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".claude.json");
        std::fs::write(&path, "a=1\n").unwrap();
        let file = load(&path).unwrap();
        let mut seen = Vec::new();
        let mut edit = |current: Option<&str>| {
            seen.push(current.map(String::from));
            Ok(format!("{}ours=1\n", current.unwrap_or("")))
        };
        // A client saves twice while setup prepares its copies.
        let mut saves = 0;
        let report = write_edited(
            &file,
            &opts(dir.path()),
            &mut edit,
            &no_carry,
            &mut |_, step| {
                saves += usize::from(step == SwapStep::Replace);
                if step == SwapStep::Replace && saves <= 2 {
                    let now = std::fs::read_to_string(&path)?;
                    std::fs::write(&path, format!("{now}save{saves}=1\n"))?;
                }
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "a=1\nsave1=1\nsave2=1\nours=1\n",
            "both saves kept, the edit applied to the newest text"
        );
        assert_eq!(
            seen,
            [
                Some("a=1\n".to_string()),
                Some("a=1\nsave1=1\n".into()),
                Some("a=1\nsave1=1\nsave2=1\n".into())
            ]
        );
        // The backup holds the text that was finally replaced.
        let bak = report.backup.unwrap();
        assert_eq!(
            std::fs::read_to_string(bak).unwrap(),
            "a=1\nsave1=1\nsave2=1\n"
        );
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(TEMP_PREFIX))
            .collect();
        assert!(left.is_empty(), "{left:?}");
        assert!(pending_temp_files().is_empty());
    }

    #[test]
    fn a_file_created_meanwhile_is_not_replaced_by_a_new_one() {
        let _turn = turn();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mcp.json");
        let file = load(&path).unwrap();
        assert!(file.text.is_none());
        let mut edit = |current: Option<&str>| Ok(format!("{}+ours", current.unwrap_or("new")));
        let mut once = true;
        let report = write_edited(
            &file,
            &opts(dir.path()),
            &mut edit,
            &no_carry,
            &mut |_, _| {
                if std::mem::take(&mut once) {
                    std::fs::write(&path, "theirs")?;
                }
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "theirs+ours");
        assert!(!report.created, "the file was there when setup wrote it");
    }

    #[test]
    fn the_backup_holds_the_replaced_bytes_outside_the_config_folder() {
        let _turn = turn();
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("repo/.cursor");
        std::fs::create_dir_all(&project).unwrap();
        let path = project.join("mcp.json");
        std::fs::write(&path, "{\"a\": 1}\n").unwrap();
        std::fs::write(legacy_backup_path(&path), "{\"old\": true}\n").unwrap();
        let o = opts(dir.path());
        let report = write(&load(&path).unwrap(), "{\"a\": 2}\n", &o).unwrap();
        let bak = report.backup.unwrap();
        assert!(bak.starts_with(dir.path().join("backups")), "{bak:?}");
        assert_eq!(std::fs::read_to_string(&bak).unwrap(), "{\"a\": 1}\n");
        let (from, to) = report.moved_legacy_backup.unwrap();
        assert_eq!(from, legacy_backup_path(&path));
        assert!(!from.exists());
        assert_eq!(std::fs::read_to_string(to).unwrap(), "{\"old\": true}\n");
        let in_repo: Vec<_> = std::fs::read_dir(&project).unwrap().collect();
        assert_eq!(in_repo.len(), 1, "only the config is left in the work tree");
        // Only the newest BACKUPS_KEPT backups are kept.
        for i in 3..12 {
            write(&load(&path).unwrap(), &format!("{{\"a\": {i}}}\n"), &o).unwrap();
        }
        assert_eq!(
            backups_of(&dir.path().join("backups"), "cursor", &path).len(),
            BACKUPS_KEPT
        );
    }

    #[cfg(unix)]
    #[test]
    fn keeps_permissions_and_follows_symlinks() {
        let _turn = turn();
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real").join("config.toml");
        std::fs::create_dir_all(real.parent().unwrap()).unwrap();
        std::fs::write(&real, "a = 1\n").unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.path().join("link.toml");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let file = load(&link).unwrap();
        write(&file, "a = 2\n", &opts(dir.path())).unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "a = 2\n");
        assert_eq!(
            std::fs::metadata(&real).unwrap().permissions().mode() & 0o777,
            0o640
        );
    }

    #[cfg(unix)]
    #[test]
    fn read_only_and_foreign_files_are_refused() {
        let _turn = turn();
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("claude_desktop_config.json");
        std::fs::write(&path, "{}\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
        let me = std::fs::metadata(&path).unwrap().uid();
        let mut o = opts(dir.path());
        o.user = UserIds {
            euid: Some(me),
            sudo_uid: None,
        };
        let err = write(&load(&path).unwrap(), "{\"x\": 1}\n", &o).unwrap_err();
        assert_eq!(err.code(), "DPX-SETUP-READ-ONLY", "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{}\n");
        // 0464: the group may write, the owner protected the file from themselves.
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o464)).unwrap();
        let err = write(&load(&path).unwrap(), "{\"x\": 1}\n", &o).unwrap_err();
        assert_eq!(err.code(), "DPX-SETUP-READ-ONLY", "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{}\n");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        // Someone else's file, as a normal user and as root.
        o.user.euid = Some(me + 1);
        let err = write(&load(&path).unwrap(), "{\"x\": 1}\n", &o).unwrap_err();
        assert_eq!(err.code(), "DPX-SETUP-READ-ONLY", "{err}");
        if me != 0 {
            o.user.euid = Some(0);
            let err = write(&load(&path).unwrap(), "{\"x\": 1}\n", &o).unwrap_err();
            assert_eq!(err.code(), "DPX-SETUP-OWNERSHIP", "{err}");
        }
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{}\n");
    }

    #[test]
    fn locked_files_name_the_client_to_close() {
        let _turn = turn();
        assert_eq!(
            locked_reason(Os::Windows, Some(32)),
            Some("locked by another program")
        );
        assert!(locked_reason(Os::Windows, Some(5)).is_some());
        assert_eq!(locked_reason(Os::Linux, Some(32)), None);
        assert_eq!(locked_reason(Os::Windows, Some(2)), None);
        let err = replace_error(
            Path::new("C:\\Users\\ada\\.claude.json"),
            std::io::Error::from_raw_os_error(32),
            "Claude Code",
            Os::Windows,
        );
        assert_eq!(err.code(), "DPX-SETUP-READ-ONLY");
        assert!(err.to_string().contains("close Claude Code"), "{err}");
    }

    #[test]
    fn pending_temp_files_are_removed_by_the_signal_cleanup() {
        let _turn = turn();
        let dir = tempfile::tempdir().unwrap();
        let tmp = PendingTemp::create(dir.path()).unwrap();
        let path = tmp.registered.0.clone();
        assert!(pending_temp_files().contains(&path));
        assert!(remove_pending_temp_files() >= 1);
        assert!(!path.exists());
        drop(tmp);
        assert!(!pending_temp_files().contains(&path));
    }

    #[cfg(unix)]
    #[test]
    fn a_killed_writers_temp_file_goes_at_once_a_live_ones_stays() {
        let _turn = turn();
        let dir = tempfile::tempdir().unwrap();
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let killed = dir
            .path()
            .join(format!(".devprojex-setup-{dead}-a1b2c3.tmp"));
        let live = dir.path().join(format!(
            ".devprojex-setup-{}-d4e5f6.tmp",
            std::process::id()
        ));
        std::fs::write(&killed, "x").unwrap();
        std::fs::write(&live, "x").unwrap();
        let removed = remove_stale_temp_files(&[dir.path().to_path_buf()], Duration::from_secs(60));
        assert_eq!(
            removed,
            std::slice::from_ref(&killed),
            "fresh, but its writer is gone"
        );
        assert!(live.exists());
    }

    #[cfg(unix)]
    #[test]
    fn an_old_temp_file_goes_even_when_its_process_id_was_reused() {
        let _turn = turn();
        let dir = tempfile::tempdir().unwrap();
        // Process 1 always runs: the id in the name belongs to someone else now.
        let reused = dir.path().join(".devprojex-setup-1-a1b2c3.tmp");
        std::fs::write(&reused, "x").unwrap();
        let dirs = [dir.path().to_path_buf()];
        assert!(
            remove_stale_temp_files(&dirs, Duration::from_secs(60)).is_empty(),
            "fresh, and a process of that id runs: kept"
        );
        let hour_ago = SystemTime::now() - Duration::from_secs(3600);
        std::fs::File::options()
            .write(true)
            .open(&reused)
            .unwrap()
            .set_modified(hour_ago)
            .unwrap();
        assert_eq!(
            remove_stale_temp_files(&dirs, Duration::from_secs(60)),
            std::slice::from_ref(&reused)
        );
    }

    #[test]
    fn stale_temp_files_are_removed_fresh_ones_and_others_kept() {
        let _turn = turn();
        let dir = tempfile::tempdir().unwrap();
        let stale = dir.path().join(".devprojex-setup-abc123.tmp");
        let other = dir.path().join("notes.tmp");
        std::fs::write(&stale, vec![0u8; 1 << 20]).unwrap();
        std::fs::write(&other, "x").unwrap();
        // Fresh: kept (a running setup may own it).
        assert!(
            remove_stale_temp_files(&[dir.path().to_path_buf()], Duration::from_secs(60))
                .is_empty()
        );
        let removed = remove_stale_temp_files(&[dir.path().to_path_buf()], Duration::ZERO);
        assert_eq!(removed, std::slice::from_ref(&stale));
        assert!(!stale.exists() && other.exists());
    }

    #[cfg(unix)]
    #[test]
    fn dangling_symlink_is_refused() {
        let _turn = turn();
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("mcp.json");
        std::os::unix::fs::symlink(dir.path().join("missing.json"), &link).unwrap();
        assert_eq!(load(&link).unwrap_err().code(), "DPX-SETUP-SYMLINK");
    }

    #[test]
    fn the_record_round_trips_and_disappears_when_empty() {
        let _turn = turn();
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        let mut r = Record::default();
        r.add([
            PathBuf::from("/h/.cursor"),
            PathBuf::from("/h/.cursor/mcp.json"),
        ]);
        r.save(&data).unwrap();
        assert_eq!(Record::load(Some(&data)), r);
        assert!(r.contains(&data), "the data folder setup made is recorded");
        r.created.clear();
        r.save(&data).unwrap();
        assert!(!data.exists());
    }
}
