//! The environment setup works in: every path derives from a [`SetupEnv`], so tests can point
//! each client at a temporary folder and lay out linux, macOS and Windows paths on any host.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The operating system whose folder layout is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Os {
    /// Linux and other XDG systems.
    Linux,
    /// macOS.
    Macos,
    /// Windows.
    Windows,
}

impl Os {
    /// The OS this binary was compiled for.
    pub fn current() -> Os {
        if cfg!(windows) {
            Os::Windows
        } else if cfg!(target_os = "macos") {
            Os::Macos
        } else {
            Os::Linux
        }
    }

    /// Suffix of executables (`.exe` on Windows).
    pub fn exe_suffix(self) -> &'static str {
        match self {
            Os::Windows => ".exe",
            _ => "",
        }
    }
}

/// Everything setup reads from the process environment, as plain data.
///
/// [`SetupEnv::from_process`] fills it from the real process; tests build it by hand.
#[derive(Debug, Clone)]
pub struct SetupEnv {
    /// Which folder layout to use.
    pub os: Os,
    /// The home folder (`HOME`, or `USERPROFILE` on Windows).
    pub home: Option<PathBuf>,
    /// `APPDATA` (Windows roaming app data).
    pub appdata: Option<PathBuf>,
    /// `LOCALAPPDATA` (Windows local app data).
    pub localappdata: Option<PathBuf>,
    /// `XDG_CONFIG_HOME`.
    pub xdg_config_home: Option<PathBuf>,
    /// `CODEX_HOME`.
    pub codex_home: Option<PathBuf>,
    /// `CLAUDE_CONFIG_DIR`.
    pub claude_config_dir: Option<PathBuf>,
    /// `GEMINI_CLI_HOME`: Gemini CLI's stand-in for the home folder (`$GEMINI_CLI_HOME/.gemini`).
    pub gemini_cli_home: Option<PathBuf>,
    /// `COPILOT_HOME`: Copilot CLI's folder (default `~/.copilot`).
    pub copilot_home: Option<PathBuf>,
    /// The folders of `PATH`, in order.
    pub path: Vec<PathBuf>,
    /// The current directory.
    pub cwd: PathBuf,
    /// The running executable, if known.
    pub current_exe: Option<PathBuf>,
    /// `XDG_DATA_HOME` (Linux data folder, where setup keeps backups and its record).
    pub xdg_data_home: Option<PathBuf>,
    /// `DEVPROJEX_DATA_DIR`: overrides devprojex's own data folder.
    pub data_dir: Option<PathBuf>,
    /// `HOMEBREW_PREFIX`, when Homebrew set it.
    pub homebrew_prefix: Option<PathBuf>,
    /// Who runs setup (unix user ids), for the ownership checks.
    pub user: UserIds,
}

/// The effective user and, under `sudo`, the user who called it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UserIds {
    /// The effective user id (`None` off unix).
    pub euid: Option<u32>,
    /// `SUDO_UID`: the user who ran `sudo`.
    pub sudo_uid: Option<u32>,
}

#[cfg(unix)]
fn process_user_ids() -> UserIds {
    UserIds {
        euid: Some(rustix::process::geteuid().as_raw()),
        sudo_uid: std::env::var("SUDO_UID").ok().and_then(|v| v.parse().ok()),
    }
}

#[cfg(not(unix))]
fn process_user_ids() -> UserIds {
    UserIds::default()
}

fn var_path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

impl SetupEnv {
    /// Reads the environment of the running process.
    pub fn from_process() -> SetupEnv {
        let os = Os::current();
        let home = match os {
            Os::Windows => var_path("USERPROFILE").or_else(|| var_path("HOME")),
            _ => var_path("HOME"),
        };
        let path = std::env::var_os("PATH")
            .map(|p: OsString| {
                std::env::split_paths(&p)
                    .filter(|p| !p.as_os_str().is_empty())
                    .collect()
            })
            .unwrap_or_default();
        SetupEnv {
            os,
            home,
            appdata: var_path("APPDATA"),
            localappdata: var_path("LOCALAPPDATA"),
            xdg_config_home: var_path("XDG_CONFIG_HOME"),
            codex_home: var_path("CODEX_HOME"),
            claude_config_dir: var_path("CLAUDE_CONFIG_DIR"),
            gemini_cli_home: var_path("GEMINI_CLI_HOME"),
            copilot_home: var_path("COPILOT_HOME"),
            path,
            cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
            current_exe: std::env::current_exe().ok(),
            xdg_data_home: var_path("XDG_DATA_HOME"),
            data_dir: var_path("DEVPROJEX_DATA_DIR"),
            homebrew_prefix: var_path("HOMEBREW_PREFIX"),
            user: process_user_ids(),
        }
    }

    /// An environment for tests: the given OS layout, everything under `home`, empty `PATH`.
    pub fn for_tests(os: Os, home: &Path) -> SetupEnv {
        SetupEnv {
            os,
            home: Some(home.to_path_buf()),
            appdata: None,
            localappdata: None,
            xdg_config_home: None,
            codex_home: None,
            claude_config_dir: None,
            gemini_cli_home: None,
            copilot_home: None,
            path: Vec::new(),
            cwd: home.join("project"),
            current_exe: Some(
                home.join("bin")
                    .join(format!("devprojex{}", os.exe_suffix())),
            ),
            xdg_data_home: None,
            data_dir: None,
            homebrew_prefix: None,
            user: UserIds::default(),
        }
    }

    /// Finds an executable named `name` on `PATH` (on Windows with the suffixes `.exe`, `.cmd`,
    /// `.bat`, `.com`, as npm installs `claude.cmd` and `codex.cmd`).
    pub fn which(&self, name: &str) -> Option<PathBuf> {
        self.which_in(&self.path, name)
    }

    /// [`SetupEnv::which`] through the folders `path` instead of this process's `PATH`.
    pub fn which_in(&self, path: &[PathBuf], name: &str) -> Option<PathBuf> {
        let suffixes: &[&str] = match self.os {
            Os::Windows => &[".exe", ".cmd", ".bat", ".com"],
            _ => &[""],
        };
        path.iter().find_map(|dir| {
            suffixes
                .iter()
                .map(|s| dir.join(format!("{name}{s}")))
                .find(|p| p.is_file())
        })
    }

    /// Makes `p` absolute against the current directory (lexically; nothing is resolved).
    pub fn absolute(&self, p: &Path) -> PathBuf {
        if is_absolute_for(self.os, p) {
            p.to_path_buf()
        } else {
            self.cwd.join(p)
        }
    }

    /// The project folder for project scope: the nearest ancestor of the current directory
    /// holding `.git`, else the current directory.
    pub fn project_root(&self) -> PathBuf {
        self.cwd
            .ancestors()
            .find(|d| d.join(".git").exists())
            .map(Path::to_path_buf)
            .unwrap_or_else(|| self.cwd.clone())
    }

    /// Whether the project folder is the home folder itself (run from `~`, or a dotfiles
    /// repository in `~`): its "project" files would then be user files.
    pub fn project_is_home(&self) -> bool {
        let Some(home) = &self.home else {
            return false;
        };
        let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        canon(&self.project_root()) == canon(home)
    }

    /// devprojex's own data folder (backups, setup's record): `DEVPROJEX_DATA_DIR`, else
    /// `$XDG_DATA_HOME/devprojex` (`~/.local/share/devprojex`) on Linux,
    /// `~/Library/Application Support/dev.devprojex.devprojex` on macOS and
    /// `%APPDATA%\devprojex\devprojex\data` on Windows (the folders the rest of devprojex uses).
    pub fn data_dir(&self) -> Option<PathBuf> {
        if let Some(d) = &self.data_dir {
            return Some(d.clone());
        }
        let home = self.home.as_ref();
        match self.os {
            Os::Linux => self
                .xdg_data_home
                .clone()
                .or_else(|| home.map(|h| h.join(".local").join("share")))
                .map(|d| d.join("devprojex")),
            Os::Macos => home.map(|h| {
                h.join("Library")
                    .join("Application Support")
                    .join("dev.devprojex.devprojex")
            }),
            Os::Windows => self
                .appdata
                .clone()
                .or_else(|| home.map(|h| h.join("AppData").join("Roaming")))
                .map(|d| d.join("devprojex").join("devprojex").join("data")),
        }
    }

    /// Expands a leading `~` (`~`, `~/x`, `~\x` on Windows) to the home folder, then makes the
    /// path absolute. Shells expand `~` on unix; PowerShell and `cmd` pass it through.
    pub fn expand_user_path(&self, p: &Path) -> PathBuf {
        let s = p.to_string_lossy();
        if let Some(home) = &self.home {
            if s == "~" {
                return home.clone();
            }
            let rest = s.strip_prefix("~/").or_else(|| {
                (self.os == Os::Windows)
                    .then(|| s.strip_prefix("~\\"))
                    .flatten()
            });
            if let Some(rest) = rest {
                return home.join(rest);
            }
        }
        self.absolute(p)
    }
}

/// Whether `p` is absolute for the given OS (so Windows paths can be judged on a unix host).
pub(crate) fn is_absolute_for(os: Os, p: &Path) -> bool {
    if p.is_absolute() {
        return true;
    }
    if os == Os::Windows {
        let s = p.to_string_lossy();
        let b = s.as_bytes();
        return (b.len() >= 3
            && b[0].is_ascii_alphabetic()
            && b[1] == b':'
            && (b[2] == b'\\' || b[2] == b'/'))
            || s.starts_with("\\\\");
    }
    false
}
