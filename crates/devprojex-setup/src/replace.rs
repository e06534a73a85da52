//! Replacing a file while learning exactly what was replaced: the primitives under
//! [`crate::fsio::write_edited`]'s no-lost-update loop.
//!
//! [`exchange`] swaps a complete new file with the config in one step (Linux
//! `renameat2(RENAME_EXCHANGE)`, macOS `renamex_np(RENAME_SWAP)`, Windows `ReplaceFileW` with a
//! backup name), so the bytes that were in place at that very moment can be compared with the
//! bytes the edit was computed from. [`create_new`] puts a new file in place only if no file of
//! that name exists (`RENAME_NOREPLACE`, `RENAME_EXCL`, `MoveFileExW` without replace). Where the
//! file system cannot do either (`Unsupported`), the caller falls back to compare-then-rename.

use std::io;
use std::path::{Path, PathBuf};

/// What a swap or a no-replace rename could not do.
#[derive(Debug)]
pub enum SwapError {
    /// The file system (or OS) has no atomic exchange or no-replace rename.
    Unsupported,
    /// [`create_new`] only: a file of that name exists now.
    Exists,
    /// Any other failure.
    Io(io::Error),
}

impl From<io::Error> for SwapError {
    fn from(e: io::Error) -> Self {
        SwapError::Io(e)
    }
}

/// Swaps `incoming` (a complete file in the target's folder) with `target` in one step.
/// Returns where the file that was at `target` is now: `incoming`'s path on Linux and macOS, a
/// fresh name beside it on Windows (`ReplaceFileW` moves the replaced file to a backup name).
pub fn exchange(incoming: &Path, target: &Path) -> Result<PathBuf, SwapError> {
    sys::exchange(incoming, target)
}

/// Renames `incoming` to `target` unless a file of that name exists ([`SwapError::Exists`]).
pub fn create_new(incoming: &Path, target: &Path) -> Result<(), SwapError> {
    sys::create_new(incoming, target)
}

#[cfg(any(target_os = "linux", target_os = "android", target_vendor = "apple"))]
mod sys {
    //! `renameat2` on Linux; rustix maps the same flags to `renameatx_np` (`RENAME_SWAP`,
    //! `RENAME_EXCL`) on macOS.
    use super::SwapError;
    use rustix::fs::{CWD, RenameFlags, renameat_with};
    use std::path::{Path, PathBuf};

    fn classify(e: rustix::io::Errno) -> SwapError {
        use rustix::io::Errno;
        match e {
            // No support in this kernel or file system (overlayfs, some network file systems,
            // HFS+ for RENAME_SWAP).
            Errno::INVAL | Errno::NOSYS | Errno::NOTSUP => SwapError::Unsupported,
            #[allow(unreachable_patterns)] // EOPNOTSUPP == ENOTSUP on some targets.
            Errno::OPNOTSUPP => SwapError::Unsupported,
            Errno::EXIST => SwapError::Exists,
            other => SwapError::Io(other.into()),
        }
    }

    pub fn exchange(incoming: &Path, target: &Path) -> Result<PathBuf, SwapError> {
        renameat_with(CWD, incoming, CWD, target, RenameFlags::EXCHANGE).map_err(classify)?;
        Ok(incoming.to_path_buf())
    }

    pub fn create_new(incoming: &Path, target: &Path) -> Result<(), SwapError> {
        renameat_with(CWD, incoming, CWD, target, RenameFlags::NOREPLACE).map_err(classify)
    }
}

#[cfg(windows)]
#[allow(unsafe_code)]
mod sys {
    //! `ReplaceFileW` replaces the target and keeps the replaced file under a backup name, in
    //! one call that also carries the target's attributes and access list over to the new file.
    use super::SwapError;
    use std::os::windows::ffi::OsStrExt;
    use std::path::{Path, PathBuf};
    use windows_sys::Win32::Storage::FileSystem::{
        MOVEFILE_WRITE_THROUGH, MoveFileExW, REPLACEFILE_WRITE_THROUGH, ReplaceFileW,
    };

    fn wide(p: &Path) -> Vec<u16> {
        p.as_os_str().encode_wide().chain(Some(0)).collect()
    }

    /// A name beside `incoming` that does not exist yet, for the replaced file; it keeps the
    /// temporary files' prefix and suffix, so a later run cleans it up after a kill.
    fn backup_name(incoming: &Path) -> PathBuf {
        let mut n = 0u32;
        loop {
            let mut name = incoming.as_os_str().to_owned();
            name.push(format!(".old{n}{}", crate::fsio::TEMP_SUFFIX));
            let candidate = PathBuf::from(name);
            if !candidate.exists() {
                return candidate;
            }
            n += 1;
        }
    }

    pub fn exchange(incoming: &Path, target: &Path) -> Result<PathBuf, SwapError> {
        let old = backup_name(incoming);
        let (t, i, o) = (wide(target), wide(incoming), wide(&old));
        // SAFETY: the three paths are NUL-terminated UTF-16 buffers that live across the call;
        // the two reserved pointers are null as the API requires.
        let ok = unsafe {
            ReplaceFileW(
                t.as_ptr(),
                i.as_ptr(),
                o.as_ptr(),
                REPLACEFILE_WRITE_THROUGH,
                std::ptr::null(),
                std::ptr::null(),
            )
        };
        if ok == 0 {
            return Err(SwapError::Io(std::io::Error::last_os_error()));
        }
        Ok(old)
    }

    pub fn create_new(incoming: &Path, target: &Path) -> Result<(), SwapError> {
        let (i, t) = (wide(incoming), wide(target));
        // SAFETY: both paths are NUL-terminated UTF-16 buffers that live across the call.
        // Without MOVEFILE_REPLACE_EXISTING the move fails when the target exists.
        let ok = unsafe { MoveFileExW(i.as_ptr(), t.as_ptr(), MOVEFILE_WRITE_THROUGH) };
        if ok == 0 {
            let e = std::io::Error::last_os_error();
            // ERROR_FILE_EXISTS (80), ERROR_ALREADY_EXISTS (183).
            return Err(match e.raw_os_error() {
                Some(80 | 183) => SwapError::Exists,
                _ => SwapError::Io(e),
            });
        }
        Ok(())
    }
}

#[cfg(not(any(
    target_os = "linux",
    target_os = "android",
    target_vendor = "apple",
    windows
)))]
mod sys {
    //! No atomic exchange here: the caller compares, then renames.
    use super::SwapError;
    use std::path::{Path, PathBuf};

    pub fn exchange(_incoming: &Path, _target: &Path) -> Result<PathBuf, SwapError> {
        Err(SwapError::Unsupported)
    }

    pub fn create_new(_incoming: &Path, _target: &Path) -> Result<(), SwapError> {
        Err(SwapError::Unsupported)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exchange_swaps_both_files_and_create_new_never_replaces() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        let b = dir.path().join("b");
        std::fs::write(&a, "new").unwrap();
        std::fs::write(&b, "old").unwrap();
        match exchange(&a, &b) {
            Ok(old) => {
                assert_eq!(std::fs::read_to_string(&b).unwrap(), "new");
                assert_eq!(std::fs::read_to_string(&old).unwrap(), "old");
            }
            Err(SwapError::Unsupported) => eprintln!("no atomic exchange on this file system"),
            Err(e) => panic!("{e:?}"),
        }
        let c = dir.path().join("c");
        std::fs::write(&c, "c").unwrap();
        match create_new(&c, &b) {
            Err(SwapError::Exists) | Err(SwapError::Unsupported) => {}
            other => panic!("replaced an existing file: {other:?}"),
        }
        assert!(c.exists());
        let d = dir.path().join("d");
        match create_new(&c, &d) {
            Ok(()) => assert_eq!(std::fs::read_to_string(&d).unwrap(), "c"),
            Err(SwapError::Unsupported) => {}
            Err(e) => panic!("{e:?}"),
        }
    }
}
