//! Directory handles on Windows. Windows has no `openat`, so a handle here is a verified path:
//! every folder is opened with `FILE_FLAG_OPEN_REPARSE_POINT` and checked (a folder, not a
//! reparse point, its final path inside the root) before it is listed, and every file is opened
//! without following a reparse point and checked with `GetFileType` and
//! `GetFileInformationByHandle` before a byte is read.

use std::ffi::{OsStr, OsString};
use std::fs::{File, OpenOptions};
use std::io;
use std::os::windows::fs::{MetadataExt, OpenOptionsExt};
use std::os::windows::io::AsRawHandle;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use windows_sys::Win32::Storage::FileSystem::{
    BY_HANDLE_FILE_INFORMATION, FILE_ATTRIBUTE_DIRECTORY, FILE_ATTRIBUTE_HIDDEN,
    FILE_ATTRIBUTE_OFFLINE, FILE_ATTRIBUTE_RECALL_ON_DATA_ACCESS, FILE_ATTRIBUTE_RECALL_ON_OPEN,
    FILE_ATTRIBUTE_REPARSE_POINT, FILE_FLAG_BACKUP_SEMANTICS, FILE_FLAG_OPEN_REPARSE_POINT,
    FILE_SHARE_DELETE, FILE_SHARE_READ, FILE_SHARE_WRITE, FILE_TYPE_DISK,
    GetFileInformationByHandle, GetFileType,
};

use super::{FileId, NodeKind, NodeMeta, OpenError, RawEntry, SpecialKind};

/// A verified folder path beneath the pinned root.
#[derive(Debug)]
pub struct DirHandle {
    path: PathBuf,
    root: Arc<PathBuf>,
}

const NOT_LOCAL: u32 =
    FILE_ATTRIBUTE_RECALL_ON_DATA_ACCESS | FILE_ATTRIBUTE_RECALL_ON_OPEN | FILE_ATTRIBUTE_OFFLINE;

impl DirHandle {
    pub fn open_root(path: &Path) -> io::Result<Self> {
        let real = crate::project::dunce_canonicalize(path)?;
        if !real.is_dir() {
            return Err(io::Error::from(io::ErrorKind::NotADirectory));
        }
        Ok(Self {
            root: Arc::new(real.clone()),
            path: real,
        })
    }

    pub fn list(&self) -> io::Result<Vec<RawEntry>> {
        self.verify()?;
        let mut out = Vec::new();
        for entry in std::fs::read_dir(&self.path)? {
            let entry = entry?;
            let kind = entry.file_type().ok().map(|t| {
                if t.is_symlink() {
                    NodeKind::Symlink
                } else if t.is_dir() {
                    NodeKind::Dir
                } else if t.is_file() {
                    NodeKind::File
                } else {
                    NodeKind::Special(SpecialKind::Other)
                }
            });
            out.push(RawEntry {
                name: entry.file_name(),
                kind,
            });
        }
        Ok(out)
    }

    pub fn stat(&self, name: &OsStr) -> io::Result<NodeMeta> {
        Ok(meta_of_metadata(&std::fs::symlink_metadata(
            self.path.join(name),
        )?))
    }

    pub fn stat_self(&self) -> io::Result<NodeMeta> {
        Ok(meta_of_metadata(&std::fs::symlink_metadata(&self.path)?))
    }

    pub fn open_dir(&self, name: &OsStr) -> io::Result<Self> {
        let path = self.path.join(name);
        let meta = std::fs::symlink_metadata(&path)?;
        if meta.file_type().is_symlink()
            || meta.file_attributes() & FILE_ATTRIBUTE_REPARSE_POINT != 0
        {
            // ERROR_CANT_RESOLVE_FILENAME: the caller treats it as a link met where none may be.
            return Err(io::Error::from_raw_os_error(1921));
        }
        if !meta.is_dir() {
            return Err(io::Error::from(io::ErrorKind::NotADirectory));
        }
        Ok(Self {
            path,
            root: Arc::clone(&self.root),
        })
    }

    pub fn read_link(&self, name: &OsStr) -> io::Result<OsString> {
        Ok(std::fs::read_link(self.path.join(name))?.into_os_string())
    }

    pub fn open_file(&self, name: &OsStr) -> Result<(File, NodeMeta), OpenError> {
        let file = OpenOptions::new()
            .read(true)
            .share_mode(FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE)
            .custom_flags(FILE_FLAG_OPEN_REPARSE_POINT)
            .open(self.path.join(name))
            .map_err(OpenError::from_io)?;
        // SAFETY: the handle is open for the lifetime of `file`.
        if unsafe { GetFileType(file.as_raw_handle() as _) } != FILE_TYPE_DISK {
            return Err(OpenError::NotRegular(SpecialKind::Other));
        }
        let info = handle_information(&file).map_err(OpenError::Io)?;
        if info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT != 0 {
            // A symlink, junction or other reparse point opened as itself.
            let meta = file.metadata().map_err(OpenError::Io)?;
            if meta.file_type().is_symlink() {
                return Err(OpenError::Symlink);
            }
        }
        if info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY != 0 {
            return Err(OpenError::IsDir);
        }
        if info.dwFileAttributes & NOT_LOCAL != 0 {
            return Err(OpenError::NotLocal);
        }
        if !self.handle_is_inside(&file) {
            return Err(OpenError::Escapes);
        }
        Ok((file, meta_of_information(&info)))
    }

    pub fn open_file_beneath(&self, components: &[&OsStr]) -> Result<(File, NodeMeta), OpenError> {
        let Some((last, folders)) = components.split_last() else {
            return Err(OpenError::IsDir);
        };
        let mut current: Option<DirHandle> = None;
        for folder in folders {
            let parent = current.as_ref().unwrap_or(self);
            current = Some(parent.open_dir(folder).map_err(|err| {
                if err.raw_os_error() == Some(1921) {
                    OpenError::Symlink
                } else {
                    OpenError::from_io(err)
                }
            })?);
        }
        current.as_ref().unwrap_or(self).open_file(last)
    }

    /// The folder is a real folder (not a reparse point) whose final path lies in the root.
    fn verify(&self) -> io::Result<()> {
        let handle = OpenOptions::new()
            .read(true)
            .share_mode(FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE)
            .custom_flags(FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT)
            .open(&self.path)?;
        let info = handle_information(&handle)?;
        if info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT != 0
            || info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY == 0
        {
            return Err(io::Error::from_raw_os_error(1921));
        }
        if !self.handle_is_inside(&handle) {
            return Err(io::Error::from(io::ErrorKind::PermissionDenied));
        }
        Ok(())
    }

    /// The handle's final path lies in the root. When the file system cannot name the handle
    /// (some RAM disks, network and VM shares), the component checks already made on the way
    /// (no reparse point entered) are what holds.
    fn handle_is_inside(&self, file: &File) -> bool {
        match crate::project::real_path_of_handle(file, &self.path) {
            Ok(real) => path_is_inside(&real, &self.root),
            Err(_) => true,
        }
    }
}

/// Prefix check that ignores ASCII case, as NTFS compares names.
fn path_is_inside(candidate: &Path, root: &Path) -> bool {
    let candidate: Vec<_> = candidate.components().collect();
    let root: Vec<_> = root.components().collect();
    candidate.len() >= root.len()
        && root.iter().zip(&candidate).all(|(a, b)| {
            a.as_os_str()
                .to_string_lossy()
                .eq_ignore_ascii_case(&b.as_os_str().to_string_lossy())
        })
}

fn handle_information(file: &File) -> io::Result<BY_HANDLE_FILE_INFORMATION> {
    // SAFETY: all-zero is a valid value of this plain C struct.
    let mut info: BY_HANDLE_FILE_INFORMATION = unsafe { std::mem::zeroed() };
    // SAFETY: the handle is open for the lifetime of `file`; `info` is a valid out pointer.
    if unsafe { GetFileInformationByHandle(file.as_raw_handle() as _, &mut info) } == 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(info)
}

/// 100-ns intervals since 1601 to nanoseconds since 1970.
fn filetime_ns(intervals: u64) -> i64 {
    const EPOCH_DIFFERENCE: i64 = 116_444_736_000_000_000;
    (intervals as i64 - EPOCH_DIFFERENCE).saturating_mul(100)
}

fn meta_of_metadata(meta: &std::fs::Metadata) -> NodeMeta {
    let file_type = meta.file_type();
    let kind = if file_type.is_symlink() {
        NodeKind::Symlink
    } else if file_type.is_dir() {
        NodeKind::Dir
    } else if file_type.is_file() {
        NodeKind::File
    } else {
        NodeKind::Special(SpecialKind::Other)
    };
    NodeMeta {
        kind,
        size: meta.len(),
        id: None,
        modified_ns: filetime_ns(meta.last_write_time()),
        changed_ns: filetime_ns(meta.last_write_time()),
        not_local: meta.file_attributes() & NOT_LOCAL != 0,
        hidden_attribute: meta.file_attributes() & FILE_ATTRIBUTE_HIDDEN != 0,
    }
}

fn meta_of_information(info: &BY_HANDLE_FILE_INFORMATION) -> NodeMeta {
    let write = (u64::from(info.ftLastWriteTime.dwHighDateTime) << 32)
        | u64::from(info.ftLastWriteTime.dwLowDateTime);
    NodeMeta {
        kind: NodeKind::File,
        size: (u64::from(info.nFileSizeHigh) << 32) | u64::from(info.nFileSizeLow),
        id: Some(FileId {
            device: u64::from(info.dwVolumeSerialNumber),
            inode: (u64::from(info.nFileIndexHigh) << 32) | u64::from(info.nFileIndexLow),
        }),
        modified_ns: filetime_ns(write),
        changed_ns: filetime_ns(write),
        not_local: info.dwFileAttributes & NOT_LOCAL != 0,
        hidden_attribute: info.dwFileAttributes & FILE_ATTRIBUTE_HIDDEN != 0,
    }
}
