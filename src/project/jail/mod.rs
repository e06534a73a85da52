//! The root jail as capabilities: every read and every listing goes through a directory handle
//! that descends from the root pinned at start-up, never through a path string.
//!
//! - The root is opened once ([`DirHandle::open_root`]). Replacing the root folder by a symlink
//!   later changes nothing: the handle still names the folder that was configured.
//! - The walk opens each child folder relative to its parent's handle, refusing symlinks
//!   (`O_NOFOLLOW`), so a folder flipped to a link mid-walk is never entered.
//! - Files are opened without blocking (`O_NONBLOCK`), without following a final symlink, and
//!   the opened handle is checked (`fstat`, `GetFileType`): only regular files are read, so a
//!   FIFO, socket or device can neither block a call nor be read.
//! - Caller paths that may pass through in-root symlinks (`get_file`, `paths`) are resolved one
//!   component at a time ([`resolve_beneath`]): each link target is judged lexically against the
//!   root, so a link can never lead outside, whatever exists there.
//!
//! The jail is path-based like Git's and ripgrep's: a hard link inside the root to a file
//! elsewhere is a file of the project (see `docs/selection.md`).

mod placeholder;
#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub use unix::DirHandle;

#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub use windows::DirHandle;

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io;

use super::lexical::{self, NameRules, RootSpellings};

/// What a name refers to, without following a final symbolic link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    File,
    Dir,
    Symlink,
    /// A FIFO, socket or device: never listed, never read.
    Special(SpecialKind),
}

/// The special file kinds, named in errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpecialKind {
    Fifo,
    Socket,
    CharDevice,
    BlockDevice,
    Other,
}

impl SpecialKind {
    pub fn describe(self) -> &'static str {
        match self {
            Self::Fifo => "a FIFO (named pipe)",
            Self::Socket => "a socket",
            Self::CharDevice => "a character device",
            Self::BlockDevice => "a block device",
            Self::Other => "not a regular file",
        }
    }
}

/// The identity of a file system object: device and inode (Unix). Two opens that give the same
/// identity opened the same file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId {
    pub device: u64,
    pub inode: u64,
}

/// What `stat` tells about one object, enough for listing, caching and identity checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeMeta {
    pub kind: NodeKind,
    pub size: u64,
    /// `None` where the platform gives no cheap identity (Windows without a handle).
    pub id: Option<FileId>,
    /// Modification and status-change times in nanoseconds since the epoch (0 when unknown).
    pub modified_ns: i64,
    pub changed_ns: i64,
    /// The content is not on this machine (an iCloud dataless file, a OneDrive placeholder):
    /// reading it would download it, so it is never read.
    pub not_local: bool,
    /// Windows' hidden attribute (Unix hides by a leading dot, judged by name).
    pub hidden_attribute: bool,
}

impl NodeMeta {
    /// Only a kind, as a listing tells it: no size, identity or times.
    pub fn of_kind(kind: NodeKind) -> Self {
        Self {
            kind,
            size: 0,
            id: None,
            modified_ns: 0,
            changed_ns: 0,
            not_local: false,
            hidden_attribute: false,
        }
    }
}

/// Whether the kind a listing gives is all a names-only walk needs of a file. Not on macOS,
/// whose stat alone carries iCloud's dataless flag, nor on Windows (placeholder and hidden
/// attributes).
pub const LISTING_KIND_SUFFICES: bool = cfg!(all(unix, not(target_os = "macos")));

/// One name in a directory listing, with the kind the listing gave (if any).
#[derive(Debug, Clone)]
pub struct RawEntry {
    pub name: OsString,
    /// `None` when the file system does not report types in listings (then `stat` tells).
    pub kind: Option<NodeKind>,
}

/// Why a file could not be opened for reading.
#[derive(Debug)]
pub enum OpenError {
    NotFound,
    PermissionDenied,
    /// A FIFO, socket or device (possibly reached through a link).
    NotRegular(SpecialKind),
    IsDir,
    /// A symbolic link where none may be (the tree changed since it was listed).
    Symlink,
    /// A chain of symbolic links that does not end (or is longer than 40 links).
    Loop,
    /// The file opened is not the one that was listed (it was replaced in between).
    Changed,
    /// A link or path that leads outside the root.
    Escapes,
    /// The content is not on this machine (cloud placeholder); reading would download it.
    NotLocal,
    Io(io::Error),
}

impl OpenError {
    pub fn from_io(err: io::Error) -> Self {
        match err.kind() {
            // A name too long for the file system cannot exist.
            io::ErrorKind::NotFound | io::ErrorKind::InvalidFilename => Self::NotFound,
            io::ErrorKind::PermissionDenied => Self::PermissionDenied,
            io::ErrorKind::IsADirectory => Self::IsDir,
            _ if is_loop_error(&err) => Self::Loop,
            _ => Self::Io(err),
        }
    }
}

#[cfg(unix)]
fn is_loop_error(err: &io::Error) -> bool {
    err.raw_os_error() == Some(libc::ELOOP)
}

#[cfg(not(unix))]
fn is_loop_error(err: &io::Error) -> bool {
    // ERROR_CANT_RESOLVE_FILENAME: too many reparse points.
    err.raw_os_error() == Some(1921)
}

/// The most symbolic links one resolution follows (Linux's own limit).
pub const MAX_LINK_HOPS: usize = 40;

/// A caller path resolved beneath the root.
#[derive(Debug)]
pub struct Resolved {
    /// The real project-relative path (no symlinks, no `.`/`..`), `/`-separated; empty for the root.
    pub relative: Vec<OsString>,
    pub meta: NodeMeta,
    /// True when the path named went through at least one symbolic link.
    pub through_link: bool,
}

impl Resolved {
    pub fn relative_string(&self) -> String {
        join_lossy(&self.relative)
    }
}

/// `/`-joined, non-UTF-8 bytes as U+FFFD.
pub fn join_lossy(parts: &[OsString]) -> String {
    let mut out = String::new();
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        out.push_str(&part.to_string_lossy());
    }
    out
}

/// Resolve `components` (already lexically clean: no `.`, `..` or empty parts) beneath `root`,
/// following symbolic links whose targets stay inside the root. `spellings` are the root's
/// absolute spellings: an absolute link target is inside exactly when it lies under one.
///
/// Every link target is resolved lexically against the folder that holds the link, so a link
/// that points outside is refused with [`OpenError::Escapes`] whether or not its target exists.
///
/// On a volume that ignores case or Unicode form, each name is replaced by the one its folder
/// lists (`.GIT` is `.git`, and is judged as such); a name the folder does not list under the
/// volume's rules (an 8.3 short name, for one) is not found.
pub fn resolve_beneath(
    root: &DirHandle,
    spellings: &RootSpellings,
    components: &[OsString],
) -> Result<Resolved, OpenError> {
    let names = spellings.names();
    // The remaining path as a stack (last component on top), and the real path so far.
    let mut pending: Vec<OsString> = components.iter().rev().cloned().collect();
    let mut real: Vec<OsString> = Vec::new();
    let mut handles: Vec<DirHandle> = Vec::new();
    let mut hops = 0usize;
    let mut through_link = false;
    let mut meta = root.stat_self().map_err(OpenError::from_io)?;
    while let Some(mut part) = pending.pop() {
        let parent = handles.last().unwrap_or(root);
        let node = parent.stat(&part).map_err(OpenError::from_io)?;
        if !names.is_exact() {
            part = listed_spelling(parent, &part, names)?;
        }
        match node.kind {
            NodeKind::Symlink => {
                hops += 1;
                if hops > MAX_LINK_HOPS {
                    return Err(OpenError::Loop);
                }
                through_link = true;
                let target = parent.read_link(&part).map_err(OpenError::from_io)?;
                let target_parts = link_target_parts(&target, spellings, &real)?;
                // Restart from the root with the target followed by what was left.
                for piece in target_parts.into_iter().rev() {
                    pending.push(piece);
                }
                real.clear();
                handles.clear();
                meta = root.stat_self().map_err(OpenError::from_io)?;
            }
            NodeKind::Dir => {
                if !pending.is_empty() {
                    let child = parent.open_dir(&part).map_err(OpenError::from_io)?;
                    handles.push(child);
                }
                real.push(part);
                meta = node;
            }
            NodeKind::File | NodeKind::Special(_) => {
                if !pending.is_empty() {
                    return Err(OpenError::NotFound);
                }
                real.push(part);
                meta = node;
            }
        }
    }
    Ok(Resolved {
        relative: real,
        meta,
        through_link,
    })
}

/// The name `dir` lists for `part` under `names` (see [`lexical::listed_name`]).
fn listed_spelling(dir: &DirHandle, part: &OsStr, names: NameRules) -> Result<OsString, OpenError> {
    let listing = dir.list().map_err(OpenError::from_io)?;
    let Some(requested) = part.to_str() else {
        // Only an exact name can match bytes that are not UTF-8.
        return listing
            .iter()
            .any(|entry| entry.name == part)
            .then(|| part.to_os_string())
            .ok_or(OpenError::NotFound);
    };
    let listed: Vec<&str> = listing.iter().filter_map(|e| e.name.to_str()).collect();
    lexical::listed_name(requested, listed.iter().copied(), names)
        .map(OsString::from)
        .ok_or(OpenError::NotFound)
}

/// The root-relative components a link target names, judged lexically. `link_dir` is the real
/// path of the folder holding the link.
fn link_target_parts(
    target: &OsStr,
    spellings: &RootSpellings,
    link_dir: &[OsString],
) -> Result<Vec<OsString>, OpenError> {
    use std::path::{Component, Path};
    let target_path = Path::new(target);
    if target_path.is_absolute() || target_path.has_root() {
        let text = target.to_str().ok_or(OpenError::Escapes)?;
        return lexical::strip_root(text, spellings)
            .map(|parts| parts.into_iter().map(OsString::from).collect())
            .ok_or(OpenError::Escapes);
    }
    let mut out = link_dir.to_vec();
    for component in target_path.components() {
        match component {
            Component::Normal(part) => out.push(part.to_os_string()),
            Component::CurDir => {}
            Component::ParentDir => {
                if out.pop().is_none() {
                    return Err(OpenError::Escapes);
                }
            }
            // A drive or root inside a relative target (Windows `C:x`) cannot be judged.
            Component::Prefix(_) | Component::RootDir => return Err(OpenError::Escapes),
        }
    }
    Ok(out)
}

/// Open the regular file at `components` beneath `root` for reading, refusing any symbolic link
/// on the way (the walk never lists through one), and check it is the file that was listed
/// when `expected` is known.
pub fn open_listed_file(
    root: &DirHandle,
    components: &[&OsStr],
    expected: Option<FileId>,
) -> Result<(File, NodeMeta), OpenError> {
    let (file, meta) = root.open_file_beneath(components)?;
    if let (Some(expected), Some(actual)) = (expected, meta.id)
        && expected != actual
    {
        return Err(OpenError::Changed);
    }
    Ok((file, meta))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project::Platform;
    use std::path::Path;

    fn parts(items: &[&str]) -> Vec<OsString> {
        items.iter().map(OsString::from).collect()
    }

    #[test]
    fn link_targets_are_judged_lexically() {
        // Absolute link targets follow the host's rules; relative ones are portable.
        let (root, inside, outside, sibling) = if cfg!(windows) {
            (
                r"C:\r\proj",
                r"C:\r\proj\src\lib.rs",
                r"C:\etc\passwd",
                r"C:\r\proj2\x",
            )
        } else {
            ("/r/proj", "/r/proj/src/lib.rs", "/etc/passwd", "/r/proj2/x")
        };
        let root = RootSpellings::new(Path::new(root), &[], Platform::current(), NameRules::EXACT);
        assert_eq!(
            link_target_parts(OsStr::new("../b/c"), &root, &parts(&["a", "x"])).unwrap(),
            parts(&["a", "b", "c"])
        );
        assert_eq!(
            link_target_parts(OsStr::new(inside), &root, &parts(&["a"])).unwrap(),
            parts(&["src", "lib.rs"])
        );
        assert!(matches!(
            link_target_parts(OsStr::new("../../etc"), &root, &parts(&["a"])),
            Err(OpenError::Escapes)
        ));
        assert!(matches!(
            link_target_parts(OsStr::new(outside), &root, &[]),
            Err(OpenError::Escapes)
        ));
        // A sibling whose name starts with the root's name is outside.
        assert!(matches!(
            link_target_parts(OsStr::new(sibling), &root, &[]),
            Err(OpenError::Escapes)
        ));
        assert_eq!(
            link_target_parts(OsStr::new("./x/./y"), &root, &[]).unwrap(),
            parts(&["x", "y"])
        );
    }

    #[cfg(target_os = "macos")]
    #[test]
    fn absolute_link_targets_through_the_short_tmp_form_are_inside() {
        let root = RootSpellings::new(
            Path::new("/private/tmp/proj"),
            &[],
            Platform::MacOs,
            Platform::MacOs.default_names(),
        );
        assert_eq!(
            link_target_parts(OsStr::new("/tmp/proj/src/a.rs"), &root, &[]).unwrap(),
            parts(&["src", "a.rs"])
        );
    }
}
