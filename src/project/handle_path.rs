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

#[cfg(windows)]
pub fn real_path_of_handle(file: &File, _opened_as: &Path) -> io::Result<PathBuf> {
    use std::os::windows::ffi::OsStringExt;
    use std::os::windows::io::AsRawHandle;
    use windows_sys::Win32::Storage::FileSystem::{
        FILE_NAME_NORMALIZED, GetFinalPathNameByHandleW,
    };
    let handle = file.as_raw_handle();
    let mut buffer = vec![0u16; 1024];
    loop {
        // SAFETY: the handle is open for the lifetime of `file`; the buffer length is passed.
        let len = unsafe {
            GetFinalPathNameByHandleW(
                handle as _,
                buffer.as_mut_ptr(),
                buffer.len() as u32,
                FILE_NAME_NORMALIZED,
            )
        } as usize;
        if len == 0 {
            return Err(io::Error::last_os_error());
        }
        if len < buffer.len() {
            let path = PathBuf::from(std::ffi::OsString::from_wide(&buffer[..len]));
            return Ok(super::strip_verbatim(path));
        }
        buffer.resize(len + 1, 0);
    }
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
