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
    /// The folders of `PATH`, in order.
    pub path: Vec<PathBuf>,
    /// The current directory.
    pub cwd: PathBuf,
    /// The running executable, if known.
    pub current_exe: Option<PathBuf>,
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
            path,
            cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
            current_exe: std::env::current_exe().ok(),
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
            path: Vec::new(),
            cwd: home.join("project"),
            current_exe: Some(
                home.join("bin")
                    .join(format!("devprojex{}", os.exe_suffix())),
            ),
        }
    }

    /// Finds an executable named `name` on `PATH` (on Windows with the suffixes `.exe`, `.cmd`,
    /// `.bat`, `.com`, as npm installs `claude.cmd` and `codex.cmd`).
    pub fn which(&self, name: &str) -> Option<PathBuf> {
        let suffixes: &[&str] = match self.os {
            Os::Windows => &[".exe", ".cmd", ".bat", ".com"],
            _ => &[""],
        };
        self.path.iter().find_map(|dir| {
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
