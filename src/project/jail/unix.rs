//! Directory handles on Linux and macOS: `openat`/`fstatat`/`readlinkat` relative to a pinned
//! descriptor, through `rustix`.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStringExt;
use std::path::Path;

use rustix::fs::{AtFlags, FileType, Mode, OFlags, Stat};

use super::{FileId, NodeKind, NodeMeta, OpenError, RawEntry, SpecialKind};

/// An open directory. Every operation is relative to it; none follows a final symlink.
#[derive(Debug)]
pub struct DirHandle {
    fd: OwnedFd,
}

const DIR_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::DIRECTORY)
    .union(OFlags::CLOEXEC)
    .union(OFlags::NOCTTY);

/// Never block on a FIFO or device, never follow a final link, never become a terminal.
const FILE_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::NONBLOCK)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC)
    .union(OFlags::NOCTTY);

impl DirHandle {
    /// Pin the folder at `path` (symlinks in `path` itself are resolved once, here).
    pub fn open_root(path: &Path) -> io::Result<Self> {
        let fd = rustix::fs::open(path, DIR_FLAGS, Mode::empty())?;
        Ok(Self { fd })
    }

    /// The names in this folder (without `.` and `..`).
    pub fn list(&self) -> io::Result<Vec<RawEntry>> {
        let mut dir = rustix::fs::Dir::read_from(&self.fd)?;
        let mut out = Vec::new();
        while let Some(entry) = dir.read() {
            let entry = entry?;
            let name = entry.file_name().to_bytes();
            if name == b"." || name == b".." {
                continue;
            }
            let kind = match entry.file_type() {
                FileType::Unknown => None,
                other => Some(kind_of(other)),
            };
            out.push(RawEntry {
                name: OsString::from_vec(name.to_vec()),
                kind,
            });
        }
        Ok(out)
    }

    /// `fstatat` without following a final link.
    pub fn stat(&self, name: &OsStr) -> io::Result<NodeMeta> {
        let stat = rustix::fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW)?;
        Ok(meta_of(&stat))
    }

    /// `fstat` of this folder.
    pub fn stat_self(&self) -> io::Result<NodeMeta> {
        Ok(meta_of(&rustix::fs::fstat(&self.fd)?))
    }

    /// Open the child folder `name`, refusing a symlink.
    pub fn open_dir(&self, name: &OsStr) -> io::Result<Self> {
        let fd = rustix::fs::openat(&self.fd, name, DIR_FLAGS | OFlags::NOFOLLOW, Mode::empty())?;
        Ok(Self { fd })
    }

    /// The target of the symlink `name`, as stored.
    pub fn read_link(&self, name: &OsStr) -> io::Result<OsString> {
        let target = rustix::fs::readlinkat(&self.fd, name, Vec::new())?;
        Ok(OsString::from_vec(target.into_bytes()))
    }

    /// Open the regular file `name` for reading.
    pub fn open_file(&self, name: &OsStr) -> Result<(File, NodeMeta), OpenError> {
        let fd = rustix::fs::openat(&self.fd, name, FILE_FLAGS, Mode::empty())
            .map_err(|err| open_error(err.into()))?;
        checked_file(fd)
    }

    /// Open the regular file at `components` beneath this folder, refusing any symlink on the
    /// way. Linux uses one `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS)`; elsewhere (or where
    /// `openat2` is unavailable) each folder is opened in turn with `O_NOFOLLOW`.
    pub fn open_file_beneath(&self, components: &[&OsStr]) -> Result<(File, NodeMeta), OpenError> {
        let Some((last, folders)) = components.split_last() else {
            return Err(OpenError::IsDir);
        };
        #[cfg(any(target_os = "linux", target_os = "android"))]
        {
            use rustix::fs::ResolveFlags;
            use std::os::unix::ffi::OsStrExt;
            let mut joined = Vec::new();
            for (i, part) in components.iter().enumerate() {
                if i > 0 {
                    joined.push(b'/');
                }
                joined.extend_from_slice(part.as_bytes());
            }
            let resolve =
                ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
            match rustix::fs::openat2(
                &self.fd,
                OsStr::from_bytes(&joined),
                FILE_FLAGS,
                Mode::empty(),
                resolve,
            ) {
                Ok(fd) => return checked_file(fd),
                // Old kernels and some sandboxes have no openat2: take the portable route.
                Err(rustix::io::Errno::NOSYS) | Err(rustix::io::Errno::PERM)
                    if openat2_missing() => {}
                // Deeper than PATH_MAX: one folder at a time has no length limit.
                Err(rustix::io::Errno::NAMETOOLONG) => {}
                Err(err) => return Err(open_error(err.into())),
            }
        }
        let mut current: Option<DirHandle> = None;
        for folder in folders {
            let parent = current.as_ref().unwrap_or(self);
            let next = parent.open_dir(folder).map_err(open_error)?;
            current = Some(next);
        }
        current.as_ref().unwrap_or(self).open_file(last)
    }

    /// The descriptor, for platform code that needs it.
    pub fn as_fd(&self) -> std::os::fd::BorrowedFd<'_> {
        self.fd.as_fd()
    }
}

#[cfg(any(target_os = "linux", target_os = "android"))]
fn openat2_missing() -> bool {
    use std::sync::OnceLock;
    static MISSING: OnceLock<bool> = OnceLock::new();
    *MISSING.get_or_init(|| {
        matches!(
            rustix::fs::openat2(
                rustix::fs::CWD,
                ".",
                DIR_FLAGS,
                Mode::empty(),
                rustix::fs::ResolveFlags::BENEATH
            ),
            Err(rustix::io::Errno::NOSYS) | Err(rustix::io::Errno::PERM)
        )
    })
}

/// A symlink met with `O_NOFOLLOW` is `ELOOP` (Linux, macOS) or `EMLINK` (FreeBSD); with
/// `RESOLVE_NO_SYMLINKS` it is `ELOOP` too. `ENOTDIR` on a folder component means it is now
/// a link or a file.
fn open_error(err: io::Error) -> OpenError {
    match err.raw_os_error() {
        Some(libc::ELOOP) | Some(libc::EMLINK) => OpenError::Symlink,
        Some(libc::ENOTDIR) => OpenError::Changed,
        Some(libc::EXDEV) => OpenError::Escapes,
        _ => OpenError::from_io(err),
    }
}

fn checked_file(fd: OwnedFd) -> Result<(File, NodeMeta), OpenError> {
    let stat = rustix::fs::fstat(&fd).map_err(|err| OpenError::Io(err.into()))?;
    let meta = meta_of(&stat);
    match meta.kind {
        NodeKind::File if meta.not_local => Err(OpenError::NotLocal),
        NodeKind::File => Ok((File::from(fd), meta)),
        NodeKind::Dir => Err(OpenError::IsDir),
        NodeKind::Special(kind) => Err(OpenError::NotRegular(kind)),
        NodeKind::Symlink => Err(OpenError::Symlink),
    }
}

fn kind_of(file_type: FileType) -> NodeKind {
    match file_type {
        FileType::RegularFile => NodeKind::File,
        FileType::Directory => NodeKind::Dir,
        FileType::Symlink => NodeKind::Symlink,
        FileType::Fifo => NodeKind::Special(SpecialKind::Fifo),
        FileType::Socket => NodeKind::Special(SpecialKind::Socket),
        FileType::CharacterDevice => NodeKind::Special(SpecialKind::CharDevice),
        FileType::BlockDevice => NodeKind::Special(SpecialKind::BlockDevice),
        FileType::Unknown => NodeKind::Special(SpecialKind::Other),
    }
}

#[allow(clippy::unnecessary_cast)] // field widths differ between Linux and macOS
fn meta_of(stat: &Stat) -> NodeMeta {
    let nanos = |secs: i64, nsec: i64| secs.saturating_mul(1_000_000_000).saturating_add(nsec);
    NodeMeta {
        kind: kind_of(FileType::from_raw_mode(stat.st_mode as _)),
        size: stat.st_size as u64,
        id: Some(FileId {
            device: stat.st_dev as u64,
            inode: stat.st_ino as u64,
        }),
        modified_ns: nanos(stat.st_mtime as i64, stat.st_mtime_nsec as i64),
        changed_ns: nanos(stat.st_ctime as i64, stat.st_ctime_nsec as i64),
        not_local: not_local(stat),
        hidden_attribute: false,
    }
}

/// iCloud's evicted files carry `SF_DATALESS`; reading one downloads it.
#[cfg(target_os = "macos")]
fn not_local(stat: &Stat) -> bool {
    super::placeholder::dataless_on_macos(stat.st_flags)
}

#[cfg(not(target_os = "macos"))]
fn not_local(_stat: &Stat) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        // the `mkfifo` tool: rustix has no `mkfifoat` on Apple's systems
        let made = std::process::Command::new("mkfifo")
            .arg(dir.path().join("pipe"))
            .status()
            .unwrap();
        assert!(made.success());
        std::fs::write(dir.path().join("plain"), "x").unwrap();
        std::os::unix::fs::symlink("pipe", dir.path().join("link")).unwrap();
        let root = DirHandle::open_root(dir.path()).unwrap();
        assert!(matches!(
            root.open_file(OsStr::new("pipe")),
            Err(OpenError::NotRegular(SpecialKind::Fifo))
        ));
        assert!(matches!(
            root.open_file(OsStr::new("link")),
            Err(OpenError::Symlink)
        ));
        assert!(root.open_file(OsStr::new("plain")).is_ok());
        assert!(matches!(
            root.open_file_beneath(&[OsStr::new("pipe")]),
            Err(OpenError::NotRegular(SpecialKind::Fifo))
        ));
    }

    #[test]
    fn a_folder_swapped_for_a_link_is_not_entered() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.txt"), "x").unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("sub")).unwrap();
        let root = DirHandle::open_root(dir.path()).unwrap();
        assert!(root.open_dir(OsStr::new("sub")).is_err());
        assert!(matches!(
            root.open_file_beneath(&[OsStr::new("sub"), OsStr::new("secret.txt")]),
            Err(OpenError::Symlink)
        ));
    }
}
