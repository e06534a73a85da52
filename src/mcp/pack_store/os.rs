//! The pack store's platform calls: folders private to the current user (created so, and
//! verified on the opened handle before use), the user's identity, and process liveness.
//!
//! Unix: mode exactly 0700, owned by the effective uid, opened with `O_NOFOLLOW`. Windows: owned
//! by the token's user, with an access list that grants access to that user only (set at
//! creation, inherited by everything inside), opened without following reparse points.

use std::fs::Metadata;
use std::io;
use std::path::Path;

/// Why a folder may not be used as a private folder.
#[derive(Debug)]
pub enum Refusal {
    /// The folder exists but is not private to this user; the text says how.
    NotPrivate(String),
    /// The folder could not be created or examined.
    Io(io::Error),
}

/// Use `path` as a private folder: create it (private) when it is missing, and verify it on
/// its handle in every case. A folder that fails the check is left exactly as it is.
pub fn open_or_create_private_dir(path: &Path) -> Result<(), Refusal> {
    for _ in 0..3 {
        match verify_private_dir(path) {
            Err(Refusal::Io(err)) if err.kind() == io::ErrorKind::NotFound => {
                match create_private_dir(path) {
                    // Created here, or by a concurrent server of the same user: verify it.
                    Ok(()) => {}
                    Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {}
                    Err(err) => return Err(Refusal::Io(err)),
                }
            }
            verdict => return verdict,
        }
    }
    verify_private_dir(path)
}

/// Create a new private folder (an error if `path` exists), then verify it.
pub fn create_new_private_dir(path: &Path) -> Result<(), Refusal> {
    create_private_dir(path).map_err(Refusal::Io)?;
    verify_private_dir(path)
}

/// Whether an access entry of the store's folder may name `sid` (in its `S-1-…` text form)
/// besides the user, on Windows: LocalSystem (`S-1-5-18`) and the built-in Administrators
/// (`S-1-5-32-544`). They hold the privileges to read or take any file whatever its access list
/// says (backup, take ownership), as root does on Unix, where mode 0700 does not keep root out
/// either; and Windows gives both to every folder in a user's profile, so a folder the user made
/// there is private in the same sense.
#[cfg(any(windows, test))]
pub fn admitted_besides_the_user(sid: &str) -> bool {
    matches!(sid, "S-1-5-18" | "S-1-5-32-544")
}

/// The seconds elapsed since a file's last modification (0 when unknown or in the future).
pub fn age_seconds(metadata: &Metadata) -> u64 {
    metadata
        .modified()
        .ok()
        .and_then(|modified| std::time::SystemTime::now().duration_since(modified).ok())
        .map_or(0, |age| age.as_secs())
}

#[cfg(unix)]
pub use unix::*;
#[cfg(windows)]
pub use windows::*;

#[cfg(unix)]
#[allow(unsafe_code)]
mod unix {
    use std::fs::{DirBuilder, File, Metadata, OpenOptions, Permissions};
    use std::io;
    use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
    use std::path::Path;

    use super::Refusal;

    /// How to make a folder acceptable, for messages.
    pub const PRIVATE_FOLDER_HINT: &str = "a folder you own with mode 0700 (chmod 700)";

    fn effective_uid() -> u32 {
        // SAFETY: geteuid has no preconditions and cannot fail.
        unsafe { libc::geteuid() }
    }

    /// A stable, unforgeable name for the current user: the effective uid.
    pub fn user_tag() -> io::Result<String> {
        Ok(effective_uid().to_string())
    }

    /// Owner-only permissions for files created in the store.
    pub fn private_file_options(options: &mut OpenOptions) -> &mut OpenOptions {
        options.mode(0o600).custom_flags(libc::O_NOFOLLOW)
    }

    /// Open a file for reading without following a symbolic link in its last component.
    pub fn open_no_follow(path: &Path) -> io::Result<File> {
        OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(path)
    }

    pub fn create_private_dir(path: &Path) -> io::Result<()> {
        DirBuilder::new().mode(0o700).create(path)?;
        // The umask may have cleared owner bits; set the exact mode on the opened handle.
        let dir = open_dir(path)?;
        dir.set_permissions(Permissions::from_mode(0o700))
    }

    fn open_dir(path: &Path) -> io::Result<File> {
        OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(path)
    }

    /// A directory, not a symbolic link, owned by this user, mode exactly 0700: checked with
    /// `fstat` on the handle that `O_NOFOLLOW` opened, so a swapped name cannot pass.
    pub fn verify_private_dir(path: &Path) -> Result<(), Refusal> {
        let dir = match open_dir(path) {
            Ok(dir) => dir,
            Err(err) => {
                return Err(match err.raw_os_error() {
                    // O_NOFOLLOW | O_DIRECTORY refuse a symbolic link (ELOOP, ENOTDIR, or
                    // EMLINK on some BSDs) and anything else that is not a directory.
                    Some(libc::ELOOP) | Some(libc::EMLINK) | Some(libc::ENOTDIR) => {
                        let link = std::fs::symlink_metadata(path)
                            .is_ok_and(|m| m.file_type().is_symlink());
                        Refusal::NotPrivate(
                            if link {
                                "is a symbolic link"
                            } else {
                                "is not a directory"
                            }
                            .into(),
                        )
                    }
                    Some(libc::EACCES) | Some(libc::EPERM) => Refusal::NotPrivate(
                        "cannot be opened by this user (it belongs to someone else)".into(),
                    ),
                    _ => Refusal::Io(err),
                });
            }
        };
        let metadata = dir.metadata().map_err(Refusal::Io)?;
        judge(&metadata, effective_uid())
    }

    fn judge(metadata: &Metadata, uid: u32) -> Result<(), Refusal> {
        if !metadata.is_dir() {
            return Err(Refusal::NotPrivate("is not a directory".into()));
        }
        if metadata.uid() != uid {
            return Err(Refusal::NotPrivate(format!(
                "is owned by uid {}, not by this user (uid {uid})",
                metadata.uid()
            )));
        }
        let mode = metadata.mode() & 0o7777;
        if mode != 0o700 {
            return Err(Refusal::NotPrivate(format!(
                "has mode {mode:04o}, not 0700"
            )));
        }
        Ok(())
    }

    /// The folder that holds the store must not let another user rename the store away and
    /// put their own in its place: owned by root or this user, and not writable by others
    /// unless sticky (as `/tmp` is).
    pub fn check_parent(parent: &Path) -> Result<(), String> {
        let metadata =
            std::fs::metadata(parent).map_err(|err| format!("cannot be read ({err})"))?;
        let uid = effective_uid();
        if metadata.uid() != 0 && metadata.uid() != uid {
            return Err(format!(
                "belongs to uid {}, who could replace the store",
                metadata.uid()
            ));
        }
        let mode = metadata.mode();
        if mode & 0o022 != 0 && mode & 0o1000 == 0 {
            return Err(format!(
                "is writable by other users and has no sticky bit (mode {:04o})",
                mode & 0o7777
            ));
        }
        Ok(())
    }

    /// Whether two metadata describe the same file (device and inode).
    pub fn same_file(a: &Metadata, b: &Metadata) -> bool {
        a.dev() == b.dev() && a.ino() == b.ino()
    }

    #[cfg(target_os = "linux")]
    pub fn process_is_alive(pid: u32) -> Option<bool> {
        Some(Path::new(&format!("/proc/{pid}")).exists())
    }

    #[cfg(not(target_os = "linux"))]
    pub fn process_is_alive(pid: u32) -> Option<bool> {
        let pid = libc::pid_t::try_from(pid).ok()?;
        // SAFETY: signal 0 only checks whether the process exists; nothing is delivered.
        let rc = unsafe { libc::kill(pid, 0) };
        // EPERM: it exists but belongs to someone else.
        Some(rc == 0 || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM))
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn only_an_owned_0700_directory_passes() {
            let tmp = tempfile::tempdir().unwrap();
            let dir = tmp.path().join("store");
            create_private_dir(&dir).unwrap();
            assert!(verify_private_dir(&dir).is_ok());

            std::fs::set_permissions(&dir, Permissions::from_mode(0o755)).unwrap();
            match verify_private_dir(&dir) {
                Err(Refusal::NotPrivate(why)) => assert!(why.contains("0755"), "{why}"),
                other => panic!("{other:?}"),
            }
            std::fs::set_permissions(&dir, Permissions::from_mode(0o700)).unwrap();

            let link = tmp.path().join("link");
            std::os::unix::fs::symlink(&dir, &link).unwrap();
            match verify_private_dir(&link) {
                Err(Refusal::NotPrivate(why)) => assert!(why.contains("symbolic link"), "{why}"),
                other => panic!("{other:?}"),
            }
            let file = tmp.path().join("file");
            std::fs::write(&file, "x").unwrap();
            assert!(matches!(
                verify_private_dir(&file),
                Err(Refusal::NotPrivate(_))
            ));
            let metadata = std::fs::metadata(&dir).unwrap();
            match judge(&metadata, metadata.uid() + 1) {
                Err(Refusal::NotPrivate(why)) => assert!(why.contains("owned by uid"), "{why}"),
                other => panic!("{other:?}"),
            }
        }

        #[test]
        fn a_shared_parent_needs_the_sticky_bit() {
            let tmp = tempfile::tempdir().unwrap();
            let parent = tmp.path().join("parent");
            std::fs::create_dir(&parent).unwrap();
            std::fs::set_permissions(&parent, Permissions::from_mode(0o777)).unwrap();
            assert!(check_parent(&parent).unwrap_err().contains("sticky"));
            std::fs::set_permissions(&parent, Permissions::from_mode(0o1777)).unwrap();
            assert!(check_parent(&parent).is_ok());
            std::fs::set_permissions(&parent, Permissions::from_mode(0o755)).unwrap();
            assert!(check_parent(&parent).is_ok());
        }
    }
}

#[cfg(windows)]
#[allow(unsafe_code)]
mod windows {
    use std::ffi::c_void;
    use std::fs::{File, Metadata, OpenOptions};
    use std::io;
    use std::os::windows::ffi::OsStrExt;
    use std::os::windows::fs::{MetadataExt, OpenOptionsExt};
    use std::os::windows::io::AsRawHandle;
    use std::path::Path;
    use std::ptr::null_mut;

    use windows_sys::Win32::Foundation::{CloseHandle, ERROR_SUCCESS, HANDLE, LocalFree};
    use windows_sys::Win32::Security::Authorization::{
        ConvertSidToStringSidW, ConvertStringSecurityDescriptorToSecurityDescriptorW,
        GetSecurityInfo, SDDL_REVISION_1, SE_FILE_OBJECT,
    };
    use windows_sys::Win32::Security::{
        ACCESS_ALLOWED_ACE, ACE_HEADER, ACL, DACL_SECURITY_INFORMATION, EqualSid, GetAce,
        GetTokenInformation, OWNER_SECURITY_INFORMATION, PSECURITY_DESCRIPTOR, PSID,
        SECURITY_ATTRIBUTES, TOKEN_QUERY, TOKEN_USER, TokenUser,
    };
    use windows_sys::Win32::Storage::FileSystem::{
        CreateDirectoryW, FILE_ATTRIBUTE_REPARSE_POINT, FILE_FLAG_BACKUP_SEMANTICS,
        FILE_FLAG_OPEN_REPARSE_POINT,
    };
    use windows_sys::Win32::System::SystemServices::{
        ACCESS_ALLOWED_ACE_TYPE, ACCESS_DENIED_ACE_TYPE,
    };
    use windows_sys::Win32::System::Threading::{GetCurrentProcess, OpenProcessToken};

    use super::Refusal;

    /// How to make a folder acceptable, for messages.
    pub const PRIVATE_FOLDER_HINT: &str =
        "a folder you own whose access list grants access to you only";

    /// The current user's SID: a `TOKEN_USER` copied out of the process token.
    struct UserSid {
        /// u64 words keep the structure aligned; the SID lives inside the buffer.
        buffer: Vec<u64>,
    }

    impl UserSid {
        fn current() -> io::Result<Self> {
            let mut token: HANDLE = null_mut();
            // SAFETY: GetCurrentProcess returns a pseudo-handle; `token` receives a real handle,
            // closed below.
            if unsafe { OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &mut token) } == 0 {
                return Err(io::Error::last_os_error());
            }
            let mut needed = 0u32;
            // SAFETY: a size query: no buffer, only the needed length is written.
            unsafe { GetTokenInformation(token, TokenUser, null_mut(), 0, &mut needed) };
            let mut buffer = vec![0u64; (needed as usize).div_ceil(8).max(1)];
            // SAFETY: the buffer is writable for the length passed.
            let ok = unsafe {
                GetTokenInformation(
                    token,
                    TokenUser,
                    buffer.as_mut_ptr().cast(),
                    (buffer.len() * 8) as u32,
                    &mut needed,
                )
            };
            let error = io::Error::last_os_error();
            // SAFETY: `token` is the handle OpenProcessToken returned.
            unsafe { CloseHandle(token) };
            if ok == 0 {
                return Err(error);
            }
            Ok(Self { buffer })
        }

        fn sid(&self) -> PSID {
            // SAFETY: the buffer holds the TOKEN_USER GetTokenInformation wrote; its SID
            // pointer points into the same buffer, which lives as long as `self`.
            unsafe { (*(self.buffer.as_ptr() as *const TOKEN_USER)).User.Sid }
        }

        fn to_text(&self) -> io::Result<String> {
            // SAFETY: the SID lives in `self.buffer`.
            unsafe { sid_text(self.sid()) }
        }
    }

    /// The `S-1-…` text of a SID.
    ///
    /// SAFETY: `sid` is a valid SID.
    unsafe fn sid_text(sid: PSID) -> io::Result<String> {
        let mut text: *mut u16 = null_mut();
        // SAFETY: the SID is valid; `text` receives a LocalAlloc'd, NUL-terminated string.
        if unsafe { ConvertSidToStringSidW(sid, &mut text) } == 0 {
            return Err(io::Error::last_os_error());
        }
        let mut len = 0;
        // SAFETY: the string is NUL-terminated; it is freed once, after the copy.
        let copy = unsafe {
            while *text.add(len) != 0 {
                len += 1;
            }
            let copy = String::from_utf16_lossy(std::slice::from_raw_parts(text, len));
            LocalFree(text as *mut c_void);
            copy
        };
        Ok(copy)
    }

    fn wide(path: &Path) -> Vec<u16> {
        path.as_os_str()
            .encode_wide()
            .chain(std::iter::once(0))
            .collect()
    }

    /// A stable, unforgeable name for the current user: the SID (`S-1-5-21-…`).
    pub fn user_tag() -> io::Result<String> {
        UserSid::current()?.to_text()
    }

    /// Files created in the store inherit the folder's access list; nothing to add here.
    pub fn private_file_options(options: &mut OpenOptions) -> &mut OpenOptions {
        options
    }

    /// Open a file for reading without following a reparse point in its last component.
    pub fn open_no_follow(path: &Path) -> io::Result<File> {
        OpenOptions::new()
            .read(true)
            .custom_flags(FILE_FLAG_OPEN_REPARSE_POINT)
            .open(path)
    }

    /// Create a folder owned by the user whose protected access list (no inherited entries)
    /// grants full access to the user only, inherited by files and folders inside.
    pub fn create_private_dir(path: &Path) -> io::Result<()> {
        let sid = UserSid::current()?.to_text()?;
        let sddl: Vec<u16> = format!("O:{sid}D:P(A;OICI;FA;;;{sid})")
            .encode_utf16()
            .chain(std::iter::once(0))
            .collect();
        let mut descriptor: PSECURITY_DESCRIPTOR = null_mut();
        // SAFETY: `sddl` is NUL-terminated; `descriptor` receives a LocalAlloc'd descriptor,
        // freed below.
        let ok = unsafe {
            ConvertStringSecurityDescriptorToSecurityDescriptorW(
                sddl.as_ptr(),
                SDDL_REVISION_1,
                &mut descriptor,
                null_mut(),
            )
        };
        if ok == 0 {
            return Err(io::Error::last_os_error());
        }
        let attributes = SECURITY_ATTRIBUTES {
            nLength: size_of::<SECURITY_ATTRIBUTES>() as u32,
            lpSecurityDescriptor: descriptor,
            bInheritHandle: 0,
        };
        let name = wide(path);
        // SAFETY: `name` is NUL-terminated and `attributes` points to a valid descriptor.
        let created = unsafe { CreateDirectoryW(name.as_ptr(), &attributes) };
        let error = io::Error::last_os_error();
        // SAFETY: the descriptor came from ConvertStringSecurityDescriptorToSecurityDescriptorW.
        unsafe { LocalFree(descriptor) };
        if created == 0 { Err(error) } else { Ok(()) }
    }

    /// A real directory (no reparse point), owned by this user, whose access list allows
    /// nobody else (LocalSystem and Administrators aside, see [`super::admitted_besides_the_user`]):
    /// read from the handle, so a swapped name cannot pass.
    pub fn verify_private_dir(path: &Path) -> Result<(), Refusal> {
        let dir = OpenOptions::new()
            .read(true)
            .custom_flags(FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT)
            .open(path)
            .map_err(|err| match err.kind() {
                io::ErrorKind::PermissionDenied => Refusal::NotPrivate(
                    "cannot be opened by this user (it belongs to someone else)".into(),
                ),
                _ => Refusal::Io(err),
            })?;
        let metadata = dir.metadata().map_err(Refusal::Io)?;
        if metadata.file_attributes() & FILE_ATTRIBUTE_REPARSE_POINT != 0 {
            return Err(Refusal::NotPrivate("is a symbolic link or junction".into()));
        }
        if !metadata.is_dir() {
            return Err(Refusal::NotPrivate("is not a directory".into()));
        }
        let user = UserSid::current().map_err(Refusal::Io)?;
        let mut owner: PSID = null_mut();
        let mut dacl: *mut ACL = null_mut();
        let mut descriptor: PSECURITY_DESCRIPTOR = null_mut();
        // SAFETY: the handle is open (read access includes READ_CONTROL); the out pointers
        // point into `descriptor`, freed below.
        let status = unsafe {
            GetSecurityInfo(
                dir.as_raw_handle() as HANDLE,
                SE_FILE_OBJECT,
                OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION,
                &mut owner,
                null_mut(),
                &mut dacl,
                null_mut(),
                &mut descriptor,
            )
        };
        if status != ERROR_SUCCESS {
            return Err(Refusal::Io(io::Error::from_raw_os_error(status as i32)));
        }
        // SAFETY: owner and dacl point into the descriptor, alive until LocalFree.
        let verdict = unsafe { judge(user.sid(), owner, dacl) };
        // SAFETY: the descriptor came from GetSecurityInfo.
        unsafe { LocalFree(descriptor) };
        verdict
    }

    /// SAFETY: `user` and `owner` are valid SIDs; `dacl` is null or a valid ACL.
    unsafe fn judge(user: PSID, owner: PSID, dacl: *mut ACL) -> Result<(), Refusal> {
        // SAFETY: valid SIDs, as the caller guarantees.
        if unsafe { EqualSid(owner, user) } == 0 {
            return Err(Refusal::NotPrivate("is owned by another account".into()));
        }
        if dacl.is_null() {
            return Err(Refusal::NotPrivate(
                "has no access list, so everyone has full access".into(),
            ));
        }
        // SAFETY: a valid ACL, as the caller guarantees.
        let count = unsafe { (*dacl).AceCount };
        for index in 0..u32::from(count) {
            let mut ace: *mut c_void = null_mut();
            // SAFETY: index < AceCount; `ace` receives a pointer into the ACL.
            if unsafe { GetAce(dacl, index, &mut ace) } == 0 {
                return Err(Refusal::Io(io::Error::last_os_error()));
            }
            // SAFETY: every ACE starts with an ACE_HEADER.
            let kind = u32::from(unsafe { (*(ace as *const ACE_HEADER)).AceType });
            if kind == ACCESS_DENIED_ACE_TYPE {
                continue; // a denial never widens access
            }
            if kind != ACCESS_ALLOWED_ACE_TYPE {
                return Err(Refusal::NotPrivate(
                    "has an access entry of a kind devprojex does not accept".into(),
                ));
            }
            // SAFETY: an ACCESS_ALLOWED_ACE's SID starts at SidStart.
            let sid = unsafe { &raw mut (*(ace as *mut ACCESS_ALLOWED_ACE)).SidStart } as PSID;
            // SAFETY: the ACE's SID and the user's SID are valid.
            if unsafe { EqualSid(sid, user) } != 0 {
                continue;
            }
            // SAFETY: the ACE's SID is valid.
            let text = unsafe { sid_text(sid) }.map_err(Refusal::Io)?;
            if !super::admitted_besides_the_user(&text) {
                return Err(Refusal::NotPrivate(
                    "grants access to other accounts".into(),
                ));
            }
        }
        Ok(())
    }

    /// The store's folder is protected by its own access list; the parent is not examined.
    pub fn check_parent(_parent: &Path) -> Result<(), String> {
        Ok(())
    }

    /// std has no stable file id on Windows; a name that still exists counts as the same file
    /// (a deleted name disappears at once with POSIX delete semantics).
    pub fn same_file(_a: &Metadata, b: &Metadata) -> bool {
        b.is_file()
    }

    /// No cheap liveness check: unknown, so the owner file's lock and its age decide.
    pub fn process_is_alive(_pid: u32) -> Option<bool> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::admitted_besides_the_user;

    #[test]
    fn only_system_and_administrators_are_admitted_besides_the_user() {
        // the accounts a folder in a user's profile lists besides the user
        assert!(admitted_besides_the_user("S-1-5-18"));
        assert!(admitted_besides_the_user("S-1-5-32-544"));
        // everyone else is another account
        for other in [
            "S-1-1-0",                                       // Everyone
            "S-1-5-11",                                      // Authenticated Users
            "S-1-5-32-545",                                  // Users
            "S-1-5-32-5440",                                 // not Administrators, a longer id
            "S-1-5-21-1004336348-1177238915-682003330-512",  // Domain Admins
            "S-1-5-21-1004336348-1177238915-682003330-1001", // another user
            "S-1-3-0",                                       // CREATOR OWNER
            "S-1-5-19",                                      // LocalService
            "s-1-5-18",
            "",
        ] {
            assert!(!admitted_besides_the_user(other), "{other}");
        }
    }
}
