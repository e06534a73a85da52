//! The real path of an open file handle, per OS. This is the one place with platform calls.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

/// Return the real path of the file behind `file`, as the OS reports it for the handle.
/// `_opened_as` is only used on platforms without a handle query.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub fn real_path_of_handle(file: &File, _opened_as: &Path) -> io::Result<PathBuf> {
    use std::os::fd::AsRawFd;
    std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd()))
}

#[cfg(target_os = "macos")]
#[allow(unsafe_code)] // the platform call; its SAFETY note is at the block
pub fn real_path_of_handle(file: &File, _opened_as: &Path) -> io::Result<PathBuf> {
    use std::ffi::CStr;
    use std::os::fd::AsRawFd;
    let mut buffer = vec![0u8; libc::PATH_MAX as usize + 1];
    // SAFETY: F_GETPATH writes at most PATH_MAX bytes plus a NUL into the buffer we own.
    let rc = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_GETPATH, buffer.as_mut_ptr()) };
    if rc == -1 {
        return Err(io::Error::last_os_error());
    }
    let c_path = CStr::from_bytes_until_nul(&buffer)
        .map_err(|_| io::Error::other("F_GETPATH returned no terminator"))?;
    use std::os::unix::ffi::OsStrExt;
    Ok(PathBuf::from(std::ffi::OsStr::from_bytes(
        c_path.to_bytes(),
    )))
}

/// On Windows: the handle's normalised final path (long names, real case), or where the file
/// system cannot normalise names (some RAM disks, network and virtual-machine shares) the name
/// it was opened by.
#[cfg(windows)]
pub fn real_path_of_handle(file: &File, _opened_as: &Path) -> io::Result<PathBuf> {
    use windows_sys::Win32::Storage::FileSystem::{FILE_NAME_NORMALIZED, FILE_NAME_OPENED};
    final_path_name(file, FILE_NAME_NORMALIZED)
        .or_else(|_| final_path_name(file, FILE_NAME_OPENED))
        .map(|text| PathBuf::from(super::lexical::without_verbatim_prefix(&text).into_owned()))
}

/// `GetFinalPathNameByHandleW` with `flags` (`FILE_NAME_NORMALIZED` or `FILE_NAME_OPENED`, DOS
/// volume names), as the OS gives it (with its `\\?\` prefix).
#[cfg(windows)]
#[allow(unsafe_code)] // the platform call; its SAFETY note is at the block
pub(crate) fn final_path_name(file: &File, flags: u32) -> io::Result<String> {
    use std::os::windows::io::AsRawHandle;
    use windows_sys::Win32::Storage::FileSystem::GetFinalPathNameByHandleW;
    let handle = file.as_raw_handle();
    let mut buffer = vec![0u16; 1024];
    loop {
        // SAFETY: the handle is open for the lifetime of `file`; the buffer length is passed.
        let len = unsafe {
            GetFinalPathNameByHandleW(handle as _, buffer.as_mut_ptr(), buffer.len() as u32, flags)
        } as usize;
        if len == 0 {
            return Err(io::Error::last_os_error());
        }
        if len < buffer.len() {
            return String::from_utf16(&buffer[..len])
                .map_err(|_| io::Error::other("the final path is not valid UTF-16"));
        }
        buffer.resize(len + 1, 0);
    }
}

/// Where the names the OS gave for a handle place it, relative to a root.
#[cfg(any(windows, test))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    Inside,
    Outside,
    /// No name could be had (or none that names a path): the caller compares file ids.
    Unnamed,
}

/// Judge a handle by the first name the OS could give for it (`names` in order of preference:
/// the normalised final path, then the opened name), each as `GetFinalPathNameByHandleW`
/// returns it (`\\?\C:\...`, `\\?\UNC\server\share\...`). A name that is not a drive or
/// UNC path (a volume GUID path of a folder-mounted volume) does not count as a name.
#[cfg(any(windows, test))]
pub fn placement_of_names(names: &[Option<&str>], root: &super::RootSpellings) -> Placement {
    for name in names.iter().flatten() {
        let plain = super::lexical::without_verbatim_prefix(name);
        if super::lexical::is_device_namespace(&plain) {
            continue;
        }
        return if super::lexical::strip_root(&plain, root).is_some() {
            Placement::Inside
        } else {
            Placement::Outside
        };
    }
    Placement::Unnamed
}

#[cfg(not(any(
    target_os = "linux",
    target_os = "android",
    target_os = "macos",
    windows
)))]
pub fn real_path_of_handle(_file: &File, opened_as: &Path) -> io::Result<PathBuf> {
    // No handle query here: fall back to resolving the name (weaker against swaps).
    std::fs::canonicalize(opened_as)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project::{Platform, RootSpellings};

    fn windows_root(path: &str) -> RootSpellings {
        RootSpellings::new(
            Path::new(path),
            &[],
            Platform::Windows,
            Platform::Windows.default_names(),
        )
    }

    #[test]
    fn handles_are_placed_by_the_first_name_the_os_gives() {
        let root = windows_root(r"C:\Users\dev\project");
        let inside = r"\\?\C:\Users\dev\project\src\a.rs";
        let outside = r"\\?\C:\Users\dev\.ssh\id_ed25519";
        assert_eq!(
            placement_of_names(&[Some(inside)], &root),
            Placement::Inside
        );
        assert_eq!(
            placement_of_names(&[Some(outside)], &root),
            Placement::Outside
        );
        // NTFS names ignore case; the normalised name may differ in case from the root.
        assert_eq!(
            placement_of_names(&[Some(r"\\?\c:\users\DEV\Project\a")], &root),
            Placement::Inside
        );
        // FILE_NAME_NORMALIZED failed (RAM disk, VM share): the opened name decides.
        assert_eq!(
            placement_of_names(&[None, Some(inside)], &root),
            Placement::Inside
        );
        assert_eq!(
            placement_of_names(&[None, Some(outside)], &root),
            Placement::Outside
        );
        // Neither: file ids decide, never "unreadable".
        assert_eq!(placement_of_names(&[None, None], &root), Placement::Unnamed);
        // A volume mounted in a folder has no DOS name: not a name to judge by.
        assert_eq!(
            placement_of_names(
                &[Some(r"\\?\Volume{0b1c7a3e-0000-0000-0000-100000000000}\a")],
                &root
            ),
            Placement::Unnamed
        );
        let share = windows_root(r"\\fileserver\team\project");
        assert_eq!(
            placement_of_names(&[Some(r"\\?\UNC\fileserver\team\project\a.rs")], &share),
            Placement::Inside
        );
        assert_eq!(
            placement_of_names(&[Some(r"\\?\UNC\attacker\x\a.rs")], &share),
            Placement::Outside
        );
    }
}
