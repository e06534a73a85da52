//! Reading and atomically rewriting config files.
//!
//! A write goes to a temporary file in the same folder, is flushed to disk (`fsync`), gets the
//! original file's permissions, and is renamed over the original, so a crash or a failure at any
//! point leaves either the old or the new file, never a mix. The first write of an existing file
//! keeps a copy next to it (`<file>.devprojex.bak`). A symlinked config is edited at its target.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Result, SetupError};

/// Suffix appended to the file name for the backup copy.
pub const BACKUP_SUFFIX: &str = ".devprojex.bak";

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
fn resolve(path: &Path) -> Result<PathBuf> {
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

/// What a write did.
#[derive(Debug, Clone, Default)]
pub struct WriteReport {
    /// The backup made by this write (only the first write of an existing file makes one).
    pub backup: Option<PathBuf>,
    /// Whether the file was created.
    pub created: bool,
}

/// The backup path of `real`.
pub fn backup_path(real: &Path) -> PathBuf {
    let mut name = real
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    name.push(BACKUP_SUFFIX);
    real.with_file_name(name)
}

/// Writes `text` over `file` atomically, making the backup on the first write.
/// `private` chooses `0600` rather than `0644` for a file that did not exist (unix).
pub fn write(file: &ConfigFile, text: &str, private: bool) -> Result<WriteReport> {
    write_with_hook(file, text, private, &mut |_| Ok(()))
}

/// [`write`] with a hook that runs after the temporary file is complete and before the rename
/// (tests inject failures there).
pub(crate) fn write_with_hook(
    file: &ConfigFile,
    text: &str,
    private: bool,
    before_rename: &mut dyn FnMut(&Path) -> std::io::Result<()>,
) -> Result<WriteReport> {
    let real = &file.real;
    let dir = match real.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(|e| SetupError::io(&dir, "creating the folder", e))?;
    let mut report = WriteReport {
        backup: None,
        created: file.text.is_none(),
    };
    let existing_perms = std::fs::metadata(real).ok().map(|m| m.permissions());

    if let Some(original) = &file.text {
        let bak = backup_path(real);
        if !bak.exists() {
            let bak_file = ConfigFile {
                path: bak.clone(),
                real: bak.clone(),
                text: None,
            };
            write_atomic(
                &bak_file.real,
                original.as_bytes(),
                existing_perms.clone(),
                &dir,
                &mut |_| Ok(()),
            )?;
            report.backup = Some(bak);
        }
    }
    let perms = existing_perms.or_else(|| new_file_permissions(private));
    write_atomic(real, text.as_bytes(), perms, &dir, before_rename).map_err(|e| match e {
        SetupError::Io { action, source, .. } => SetupError::Io {
            path: file.path.clone(),
            action,
            source,
        },
        other => other,
    })?;
    Ok(report)
}

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

fn write_atomic(
    target: &Path,
    bytes: &[u8],
    perms: Option<std::fs::Permissions>,
    dir: &Path,
    before_rename: &mut dyn FnMut(&Path) -> std::io::Result<()>,
) -> Result<()> {
    let io = |action: &'static str| move |e: std::io::Error| SetupError::io(target, action, e);
    let mut tmp = tempfile::Builder::new()
        .prefix(".devprojex-setup-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(io("creating a temporary file"))?;
    tmp.write_all(bytes)
        .map_err(io("writing the temporary file"))?;
    tmp.flush().map_err(io("writing the temporary file"))?;
    if let Some(p) = perms {
        tmp.as_file()
            .set_permissions(p)
            .map_err(io("setting permissions"))?;
    }
    tmp.as_file()
        .sync_all()
        .map_err(io("syncing the temporary file"))?;
    before_rename(tmp.path()).map_err(io("replacing the file"))?;
    tmp.persist(target)
        .map_err(|e| SetupError::io(target, "replacing the file", e.error))?;
    sync_dir(dir);
    Ok(())
}

#[cfg(unix)]
fn sync_dir(dir: &Path) {
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

#[cfg(not(unix))]
fn sync_dir(_dir: &Path) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failure_before_rename_leaves_the_original_intact() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mcp.json");
        std::fs::write(&path, "{ \"keep\": true }\n").unwrap();
        let file = load(&path).unwrap();
        let err = write_with_hook(&file, "{}\n", true, &mut |tmp| {
            assert!(
                tmp.exists(),
                "the temporary file is complete when the hook runs"
            );
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
    }

    #[cfg(unix)]
    #[test]
    fn keeps_permissions_and_follows_symlinks() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real").join("config.toml");
        std::fs::create_dir_all(real.parent().unwrap()).unwrap();
        std::fs::write(&real, "a = 1\n").unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.path().join("link.toml");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let file = load(&link).unwrap();
        let report = write(&file, "a = 2\n", true).unwrap();
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
        let bak = report.backup.unwrap();
        assert_eq!(bak, backup_path(&std::fs::canonicalize(&real).unwrap()));
        assert_eq!(std::fs::read_to_string(&bak).unwrap(), "a = 1\n");
        // A second write keeps the first backup.
        let file = load(&link).unwrap();
        assert!(write(&file, "a = 3\n", true).unwrap().backup.is_none());
        assert_eq!(std::fs::read_to_string(&bak).unwrap(), "a = 1\n");
    }

    #[cfg(unix)]
    #[test]
    fn dangling_symlink_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("mcp.json");
        std::os::unix::fs::symlink(dir.path().join("missing.json"), &link).unwrap();
        assert_eq!(load(&link).unwrap_err().code(), "DPX-SETUP-SYMLINK");
    }
}
