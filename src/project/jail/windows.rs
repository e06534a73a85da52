//! Directory handles on Windows. Windows has no `openat`, so a handle here is a verified path:
//! every folder is opened with `FILE_FLAG_OPEN_REPARSE_POINT` and checked (a folder, not a
//! reparse point, its final path inside the root) before it is listed, and every file is opened
//! without following a reparse point and checked with `GetFileType` and
//! `GetFileInformationByHandle` before a byte is read.
//!
//! Where the file system cannot name a handle (`GetFinalPathNameByHandleW` fails for both the
//! normalised and the opened name: some RAM disks, network and virtual-machine shares), the
//! handle's file id is compared with that of the object at the same path reopened through a
//! chain of folders held open from the root without delete sharing, so none of them can be
//! renamed or replaced while it is compared.
//!
//! Names Windows opens as devices (`NUL`, `COM1.txt`) or as another name (a trailing dot or
//! space is dropped) are never opened: a listing reports them as special files.

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
use crate::project::handle_path::{Placement, final_path_name, placement_of_names};
use crate::project::{Platform, RootSpellings, windows_device_name};

/// A verified folder path beneath the pinned root.
#[derive(Debug)]
pub struct DirHandle {
    path: PathBuf,
    root: Arc<RootFolder>,
}

/// The root as opened: its path, its spellings, and its file id (volume serial, file index).
#[derive(Debug)]
struct RootFolder {
    path: PathBuf,
    spellings: RootSpellings,
    id: Option<(u32, u64)>,
}

/// A name Windows would open as a device, or as another name.
fn is_aliasing_name(name: &OsStr) -> bool {
    name.to_str()
        .is_some_and(|name| windows_device_name(name).is_some() || name.ends_with(['.', ' ']))
}

/// The error for an aliasing name: it is treated as a device, never opened.
fn device_error() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        "the name is a Windows device name or ends with a dot or a space; it is never opened",
    )
}

// The placeholder rule is written with the SDK's values so that it is tested on every platform.
const _: () = assert!(
    super::placeholder::WINDOWS_NOT_LOCAL
        == FILE_ATTRIBUTE_RECALL_ON_DATA_ACCESS
            | FILE_ATTRIBUTE_RECALL_ON_OPEN
            | FILE_ATTRIBUTE_OFFLINE
);

impl DirHandle {
    pub fn open_root(path: &Path) -> io::Result<Self> {
        let real = crate::project::dunce_canonicalize(path)?;
        if !real.is_dir() {
            return Err(io::Error::from(io::ErrorKind::NotADirectory));
        }
        let id = open_pinned(&real)
            .and_then(|pin| handle_information(&pin))
            .ok()
            .map(|info| identity(&info));
        Ok(Self {
            root: Arc::new(RootFolder {
                spellings: RootSpellings::new(
                    &real,
                    &[],
                    Platform::Windows,
                    Platform::Windows.default_names(),
                ),
                path: real.clone(),
                id,
            }),
            path: real,
        })
    }

    /// `self.path` joined with `name`, unless `name` aliases something else.
    fn child(&self, name: &OsStr) -> io::Result<PathBuf> {
        if is_aliasing_name(name) {
            return Err(device_error());
        }
        Ok(self.path.join(name))
    }

    pub fn list(&self) -> io::Result<Vec<RawEntry>> {
        self.verify()?;
        let mut out = Vec::new();
        for entry in std::fs::read_dir(&self.path)? {
            let entry = entry?;
            if is_aliasing_name(&entry.file_name()) {
                out.push(RawEntry {
                    name: entry.file_name(),
                    kind: Some(NodeKind::Special(SpecialKind::CharDevice)),
                });
                continue;
            }
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
            self.child(name)?,
        )?))
    }

    pub fn stat_self(&self) -> io::Result<NodeMeta> {
        Ok(meta_of_metadata(&std::fs::symlink_metadata(&self.path)?))
    }

    pub fn open_dir(&self, name: &OsStr) -> io::Result<Self> {
        let path = self.child(name)?;
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
        Ok(std::fs::read_link(self.child(name)?)?.into_os_string())
    }

    #[allow(unsafe_code)] // the platform call; its SAFETY note is at the block
    pub fn open_file(&self, name: &OsStr) -> Result<(File, NodeMeta), OpenError> {
        if is_aliasing_name(name) {
            return Err(OpenError::NotRegular(SpecialKind::CharDevice));
        }
        let path = self.path.join(name);
        let file = OpenOptions::new()
            .read(true)
            .share_mode(FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE)
            .custom_flags(FILE_FLAG_OPEN_REPARSE_POINT)
            .open(&path)
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
        if super::placeholder::not_local_on_windows(info.dwFileAttributes) {
            return Err(OpenError::NotLocal);
        }
        if !self.handle_is_inside(&file, &path) {
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
        if !self.handle_is_inside(&handle, &self.path) {
            return Err(io::Error::from(io::ErrorKind::PermissionDenied));
        }
        Ok(())
    }

    /// The handle (opened as `opened_as`) lies in the root: judged by its normalised final
    /// path, else by the name it was opened by, else by its file id (see the module comment).
    fn handle_is_inside(&self, file: &File, opened_as: &Path) -> bool {
        use windows_sys::Win32::Storage::FileSystem::{FILE_NAME_NORMALIZED, FILE_NAME_OPENED};
        let normalized = final_path_name(file, FILE_NAME_NORMALIZED).ok();
        let opened = match normalized {
            Some(_) => None,
            None => final_path_name(file, FILE_NAME_OPENED).ok(),
        };
        match placement_of_names(
            &[normalized.as_deref(), opened.as_deref()],
            &self.root.spellings,
        ) {
            Placement::Inside => true,
            Placement::Outside => false,
            // When even the chain cannot be held (a sharing violation), the checks made on the
            // way (no reparse point entered) are what holds.
            Placement::Unnamed => self.same_object_by_id(file, opened_as).unwrap_or(true),
        }
    }

    /// The object `file` holds is the one at `opened_as` reached through the root's real
    /// folders: each folder from the root down is held open (no delete sharing, so it cannot be
    /// renamed or replaced meanwhile) and checked to be a folder and no reparse point, the root
    /// by its recorded id; then the path is reopened and the file ids compared.
    fn same_object_by_id(&self, file: &File, opened_as: &Path) -> io::Result<bool> {
        let wanted = identity(&handle_information(file)?);
        let Ok(relative) = opened_as.strip_prefix(&self.root.path) else {
            return Ok(false);
        };
        let root_pin = open_pinned(&self.root.path)?;
        let root_info = handle_information(&root_pin)?;
        if !is_plain_folder(&root_info) || self.root.id.is_some_and(|id| id != identity(&root_info))
        {
            return Ok(false);
        }
        let parts: Vec<_> = relative.components().collect();
        let mut pins = vec![root_pin];
        let mut current = self.root.path.clone();
        let mut last_info = root_info;
        for (index, part) in parts.iter().enumerate() {
            current.push(part);
            let pin = open_pinned(&current)?;
            last_info = handle_information(&pin)?;
            let is_last = index + 1 == parts.len();
            if !is_last && !is_plain_folder(&last_info) {
                return Ok(false);
            }
            pins.push(pin);
        }
        Ok(
            last_info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT == 0
                && identity(&last_info) == wanted,
        )
    }
}

/// Open `path` as itself (no reparse point followed; folders too) for its attributes, sharing
/// read and write but not delete: while held it can be neither renamed nor replaced.
fn open_pinned(path: &Path) -> io::Result<File> {
    use windows_sys::Win32::Storage::FileSystem::FILE_READ_ATTRIBUTES;
    OpenOptions::new()
        .access_mode(FILE_READ_ATTRIBUTES)
        .share_mode(FILE_SHARE_READ | FILE_SHARE_WRITE)
        .custom_flags(FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT)
        .open(path)
}

fn is_plain_folder(info: &BY_HANDLE_FILE_INFORMATION) -> bool {
    info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY != 0
        && info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT == 0
}

/// Volume serial number and file index: the object's identity.
fn identity(info: &BY_HANDLE_FILE_INFORMATION) -> (u32, u64) {
    (
        info.dwVolumeSerialNumber,
        (u64::from(info.nFileIndexHigh) << 32) | u64::from(info.nFileIndexLow),
    )
}

#[allow(unsafe_code)] // the platform call; its SAFETY note is at the block
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
        not_local: super::placeholder::not_local_on_windows(meta.file_attributes()),
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
        not_local: super::placeholder::not_local_on_windows(info.dwFileAttributes),
        hidden_attribute: info.dwFileAttributes & FILE_ATTRIBUTE_HIDDEN != 0,
    }
}
