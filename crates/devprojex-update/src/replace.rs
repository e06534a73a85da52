//! Putting the verified new binary in place of the installed one, so that a failure at any step
//! leaves a working executable at the install path.
//!
//! The new binary is first staged beside the installed one (same folder, so every rename stays
//! on one file system). Then:
//! - Unix ([`Strategy::RenameOver`]): the staged file takes the old one's permissions (and is
//!   executable by whoever may read it) and is renamed over it, one atomic step; a running
//!   process keeps its (unlinked) image.
//! - Windows ([`Strategy::MoveAside`]): a running `.exe` cannot be replaced or deleted, but it
//!   can be renamed. The old file is renamed aside (`devprojex.exe.old-<unique>`), the staged one
//!   is renamed into its place, and if that fails the old one is renamed back. Copies left aside
//!   by earlier updates are removed best-effort (one still running stays until the next time).
//!
//! The install path is where the running executable's link chain ends: a relative link is
//! resolved against the folder that holds it ([`install_target`]), never the working folder.

use std::ffi::OsString;
use std::io;
use std::path::{Component, Path, PathBuf};

/// How the old binary makes way for the new one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// Rename the new file over the old one (Unix).
    RenameOver,
    /// Rename the old file aside, then the new one into place (Windows).
    MoveAside,
}

impl Strategy {
    pub fn for_this_platform() -> Self {
        if cfg!(windows) {
            Self::MoveAside
        } else {
            Self::RenameOver
        }
    }
}

/// The file operations a replacement uses (a trait so tests can fail any one of them).
pub trait ReplaceFs {
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()>;
    fn remove_file(&self, path: &Path) -> io::Result<()>;
    /// Give `to` the permissions of `from`.
    fn copy_permissions(&self, from: &Path, to: &Path) -> io::Result<()>;
    fn list_dir(&self, dir: &Path) -> io::Result<Vec<OsString>>;
}

/// The real file system.
pub struct RealFs;

impl ReplaceFs for RealFs {
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        std::fs::rename(from, to)
    }

    fn remove_file(&self, path: &Path) -> io::Result<()> {
        std::fs::remove_file(path)
    }

    fn copy_permissions(&self, from: &Path, to: &Path) -> io::Result<()> {
        #[allow(unused_mut)]
        let mut permissions = std::fs::metadata(from)?.permissions();
        #[cfg(unix)]
        {
            // Whoever may read the binary may run the new one.
            use std::os::unix::fs::PermissionsExt;
            let mode = permissions.mode();
            permissions.set_mode(mode | ((mode & 0o444) >> 2));
        }
        std::fs::set_permissions(to, permissions)
    }

    fn list_dir(&self, dir: &Path) -> io::Result<Vec<OsString>> {
        std::fs::read_dir(dir)?
            .map(|entry| entry.map(|e| e.file_name()))
            .collect()
    }
}

/// Why a replacement failed, and what is at the install path now.
#[derive(Debug)]
pub struct ReplaceError {
    pub message: String,
}

impl std::fmt::Display for ReplaceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// The staging path of the new binary beside `target`: hidden, unique to this process.
pub fn staging_path(target: &Path) -> PathBuf {
    let name = file_name(target);
    target.with_file_name(format!(".{name}.update-{}", std::process::id()))
}

/// Where an old binary is moved aside: `<name>.old-<unique>` in the same folder.
pub fn aside_path(target: &Path, unique: u128) -> PathBuf {
    let name = file_name(target);
    target.with_file_name(format!("{name}.old-{unique}"))
}

/// True for a name [`aside_path`] gives to a copy of `target`.
pub fn is_aside_copy(target: &Path, name: &str) -> bool {
    let prefix = format!("{}.old-", file_name(target));
    name.strip_prefix(&prefix)
        .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()))
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "devprojex".into())
}

/// Replace `target` by `staged` (a complete file in the same folder). On error, `target` is
/// still the old, working binary (or, if even the roll-back failed, the message says where the
/// old binary is); `staged` is removed.
pub fn replace_executable(
    target: &Path,
    staged: &Path,
    strategy: Strategy,
    unique: u128,
    fs: &dyn ReplaceFs,
) -> Result<(), ReplaceError> {
    let shown = crate::install_method::display_path(target);
    let fail = |what: &str, err: io::Error| {
        let _ = fs.remove_file(staged);
        ReplaceError {
            message: format!(
                "{what} failed ({err}); {shown} is unchanged and still the installed version"
            ),
        }
    };
    match strategy {
        Strategy::RenameOver => {
            fs.copy_permissions(target, staged)
                .map_err(|err| fail("copying the permissions of the installed binary", err))?;
            fs.rename(staged, target)
                .map_err(|err| fail("renaming the new binary into place", err))?;
        }
        Strategy::MoveAside => {
            let aside = aside_path(target, unique);
            fs.rename(target, &aside)
                .map_err(|err| fail("moving the running binary aside", err))?;
            if let Err(err) = fs.rename(staged, target) {
                let _ = fs.remove_file(staged);
                return Err(match fs.rename(&aside, target) {
                    Ok(()) => ReplaceError {
                        message: format!(
                            "renaming the new binary into place failed ({err}); {shown} is unchanged and still the installed version"
                        ),
                    },
                    Err(back) => ReplaceError {
                        message: format!(
                            "renaming the new binary into place failed ({err}), and moving the previous one back failed too ({back}); the previous binary is {}: rename it to {shown}",
                            crate::install_method::display_path(&aside)
                        ),
                    },
                });
            }
            remove_aside_copies(target, fs);
        }
    }
    Ok(())
}

/// Remove the copies earlier updates moved aside, best-effort: a copy that is still running
/// cannot be removed on Windows and is left for the next time.
pub fn remove_aside_copies(target: &Path, fs: &dyn ReplaceFs) {
    let Some(dir) = target.parent() else {
        return;
    };
    let Ok(names) = fs.list_dir(dir) else {
        return;
    };
    for name in names {
        if name
            .to_str()
            .is_some_and(|name| is_aside_copy(target, name))
        {
            let _ = fs.remove_file(&dir.join(name));
        }
    }
}

/// The file a self-update replaces: `exe` (made absolute against `cwd`) with its chain of
/// symbolic links followed, each relative target resolved against the folder that holds the
/// link (Homebrew's `bin/devprojex -> ../Cellar/...`, a hand-made `~/bin` link).
/// `read_link` gives a link's target, or `None` when the path is not a link.
pub fn install_target(
    exe: &Path,
    cwd: &Path,
    read_link: &dyn Fn(&Path) -> Option<PathBuf>,
) -> PathBuf {
    const MAX_HOPS: usize = 40;
    let mut current = normalize(&cwd.join(exe));
    for _ in 0..MAX_HOPS {
        let Some(target) = read_link(&current) else {
            break;
        };
        let base = current.parent().map(Path::to_path_buf).unwrap_or_default();
        current = normalize(&base.join(target));
    }
    current
}

/// `.` and `..` removed lexically (a link target's `..` is relative to the link's folder).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// The real file system, failing the `fail_at`-th operation (1-based).
    struct FaultyFs {
        calls: Cell<usize>,
        fail_at: usize,
    }

    impl FaultyFs {
        fn step(&self) -> io::Result<()> {
            let n = self.calls.get() + 1;
            self.calls.set(n);
            if n == self.fail_at {
                Err(io::Error::other(format!("injected failure at step {n}")))
            } else {
                Ok(())
            }
        }
    }

    impl ReplaceFs for FaultyFs {
        fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
            self.step()?;
            RealFs.rename(from, to)
        }
        fn remove_file(&self, path: &Path) -> io::Result<()> {
            self.step()?;
            RealFs.remove_file(path)
        }
        fn copy_permissions(&self, from: &Path, to: &Path) -> io::Result<()> {
            self.step()?;
            RealFs.copy_permissions(from, to)
        }
        fn list_dir(&self, dir: &Path) -> io::Result<Vec<OsString>> {
            self.step()?;
            RealFs.list_dir(dir)
        }
    }

    fn setup() -> (tempfile::TempDir, PathBuf, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("devprojex.exe");
        std::fs::write(&target, "old").unwrap();
        let staged = staging_path(&target);
        std::fs::write(&staged, "new").unwrap();
        (dir, target, staged)
    }

    /// Whatever step fails, the install path holds a whole binary: the old one on error, the
    /// new one on success; the staged file never stays behind.
    #[test]
    fn a_failure_at_any_step_leaves_a_working_binary() {
        for strategy in [Strategy::RenameOver, Strategy::MoveAside] {
            for fail_at in 1..=8 {
                let (dir, target, staged) = setup();
                // An earlier update's copy, to be cleaned up.
                std::fs::write(aside_path(&target, 7), "older").unwrap();
                let fs = FaultyFs {
                    calls: Cell::new(0),
                    fail_at,
                };
                let result = replace_executable(&target, &staged, strategy, 42, &fs);
                let content = std::fs::read_to_string(&target)
                    .unwrap_or_else(|_| panic!("{strategy:?} step {fail_at}: no binary left"));
                match &result {
                    Ok(()) => assert_eq!(content, "new", "{strategy:?} step {fail_at}"),
                    Err(err) => {
                        assert_eq!(content, "old", "{strategy:?} step {fail_at}: {err}");
                        assert!(err.message.contains("unchanged"), "{err}");
                    }
                }
                assert!(
                    !staged.exists(),
                    "{strategy:?} step {fail_at}: staged file left"
                );
                drop(dir);
            }
        }
    }

    #[test]
    fn moving_aside_cleans_up_earlier_copies_and_keeps_other_files() {
        let (dir, target, staged) = setup();
        std::fs::write(aside_path(&target, 1), "older").unwrap();
        std::fs::write(dir.path().join("devprojex.exe.old-notes"), "keep").unwrap();
        std::fs::write(dir.path().join("other.exe"), "keep").unwrap();
        replace_executable(&target, &staged, Strategy::MoveAside, 2, &RealFs).unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        // The copy just moved aside is removable here (on Windows it is running and stays).
        assert_eq!(
            names,
            ["devprojex.exe", "devprojex.exe.old-notes", "other.exe"]
        );
    }

    #[test]
    fn a_failed_roll_back_names_where_the_old_binary_is() {
        let (_dir, target, staged) = setup();
        // Rename 1 moves the old binary aside, rename 2 (the new one into place) fails, and
        // rename 3 (the old one back) fails too.
        struct TwoFaults(Cell<usize>);
        impl ReplaceFs for TwoFaults {
            fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
                let n = self.0.get() + 1;
                self.0.set(n);
                if n == 2 || n == 3 {
                    return Err(io::Error::other("injected"));
                }
                RealFs.rename(from, to)
            }
            fn remove_file(&self, path: &Path) -> io::Result<()> {
                RealFs.remove_file(path)
            }
            fn copy_permissions(&self, from: &Path, to: &Path) -> io::Result<()> {
                RealFs.copy_permissions(from, to)
            }
            fn list_dir(&self, dir: &Path) -> io::Result<Vec<OsString>> {
                RealFs.list_dir(dir)
            }
        }
        let err = replace_executable(
            &target,
            &staged,
            Strategy::MoveAside,
            9,
            &TwoFaults(Cell::new(0)),
        )
        .unwrap_err();
        let aside = aside_path(&target, 9);
        assert!(err.message.contains(&aside.display().to_string()), "{err}");
        assert_eq!(std::fs::read_to_string(aside).unwrap(), "old");
    }

    #[test]
    fn aside_names() {
        let target = Path::new("/x/devprojex.exe");
        assert!(is_aside_copy(target, "devprojex.exe.old-123"));
        assert!(!is_aside_copy(target, "devprojex.exe.old-"));
        assert!(!is_aside_copy(target, "devprojex.exe.old-12a"));
        assert!(!is_aside_copy(target, "devprojex.exe"));
        assert!(!is_aside_copy(target, "other.exe.old-1"));
        assert_eq!(
            staging_path(Path::new("/x/devprojex")),
            PathBuf::from(format!("/x/.devprojex.update-{}", std::process::id()))
        );
    }

    /// Not a test of its own: the process a copy of this test binary runs while its file is
    /// replaced (see below).
    #[test]
    #[ignore = "helper: run by a_running_binary_is_replaced"]
    fn sleep_as_a_running_binary() {
        std::thread::sleep(std::time::Duration::from_secs(60));
    }

    /// The real case: the file of a running process is replaced (on Windows its image cannot
    /// be overwritten or deleted, only renamed), and the process keeps running.
    #[test]
    fn a_running_binary_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join(if cfg!(windows) {
            "devprojex.exe"
        } else {
            "devprojex"
        });
        std::fs::copy(std::env::current_exe().unwrap(), &target).unwrap();
        let mut child = std::process::Command::new(&target)
            .args([
                "--ignored",
                "--exact",
                "replace::tests::sleep_as_a_running_binary",
            ])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(500));
        let staged = staging_path(&target);
        std::fs::write(&staged, "new").unwrap();
        let result =
            replace_executable(&target, &staged, Strategy::for_this_platform(), 1, &RealFs);
        let still_running = child.try_wait().unwrap().is_none();
        let _ = child.kill();
        let _ = child.wait();
        result.unwrap();
        assert!(still_running, "the running process was disturbed");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        // Once the old image is no longer running, the next update removes its copy.
        remove_aside_copies(&target, &RealFs);
        assert!(!aside_path(&target, 1).exists());
    }

    fn links<'a>(table: &'a [(&'a str, &'a str)]) -> impl Fn(&Path) -> Option<PathBuf> + 'a {
        move |path| {
            table
                .iter()
                .find(|(link, _)| Path::new(link) == path)
                .map(|(_, target)| PathBuf::from(target))
        }
    }

    #[test]
    fn relative_links_resolve_against_their_own_folder() {
        let cwd = Path::new("/Users/ana/work");
        // Homebrew: bin/devprojex -> ../Cellar/devprojex/0.3.0/bin/devprojex
        let table = [(
            "/opt/homebrew/bin/devprojex",
            "../Cellar/devprojex/0.3.0/bin/devprojex",
        )];
        assert_eq!(
            install_target(
                Path::new("/opt/homebrew/bin/devprojex"),
                cwd,
                &links(&table)
            ),
            PathBuf::from("/opt/homebrew/Cellar/devprojex/0.3.0/bin/devprojex")
        );
        // A chain of links, relative and absolute, started from a relative exe path.
        let table = [
            (
                "/Users/ana/work/bin/devprojex",
                "../../.local/bin/devprojex",
            ),
            (
                "/Users/ana/.local/bin/devprojex",
                "/opt/dpx/current/devprojex",
            ),
            ("/opt/dpx/current/devprojex", "./real/devprojex"),
        ];
        assert_eq!(
            install_target(Path::new("bin/devprojex"), cwd, &links(&table)),
            PathBuf::from("/opt/dpx/current/real/devprojex")
        );
        // Not a link: itself.
        assert_eq!(
            install_target(Path::new("/usr/local/bin/devprojex"), cwd, &links(&[])),
            PathBuf::from("/usr/local/bin/devprojex")
        );
        // A loop ends after a bounded number of hops.
        let table = [("/a/x", "y"), ("/a/y", "x")];
        let end = install_target(Path::new("/a/x"), cwd, &links(&table));
        assert!(end == Path::new("/a/x") || end == Path::new("/a/y"));
    }
}
