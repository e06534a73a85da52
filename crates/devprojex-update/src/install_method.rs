//! How was this binary installed? A pure function over (exe path, environment, file-exists), so
//! every rule is unit-tested without touching the machine.
//!
//! `self-update` only replaces binaries that it (or the one-line installers) put in place. A
//! binary owned by a package manager is updated by that package manager, otherwise the manager's
//! records and the file on disk disagree.

use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};

/// Who owns the binary at a given path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InstallMethod {
    /// A standalone binary (one-line installer, release archive, copied by hand): self-update may
    /// replace it.
    Standalone,
    /// Homebrew (a formula in a tap): its files live in a Cellar.
    Homebrew,
    /// winget (portable package): under `WinGet\Packages` or linked from `WinGet\Links`.
    Winget,
    /// The Debian package: `/usr/bin/devprojex` recorded by dpkg.
    Deb,
    /// `cargo install`: in `$CARGO_HOME/bin` (default `~/.cargo/bin`).
    Cargo,
    /// The Windows .msi: `%ProgramFiles%\devprojex\bin\devprojex.exe`.
    Msi,
}

impl InstallMethod {
    /// The command that updates a binary installed this way, or `None` for a standalone binary
    /// (which `devprojex self-update` updates).
    pub fn update_command(self) -> Option<&'static str> {
        match self {
            InstallMethod::Standalone => None,
            InstallMethod::Homebrew => Some("brew upgrade devprojex"),
            InstallMethod::Winget => Some("winget upgrade --id devprojex.devprojex"),
            InstallMethod::Deb => Some("sudo apt install --only-upgrade devprojex"),
            InstallMethod::Cargo => Some("cargo install --locked devprojex"),
            InstallMethod::Msi => Some(
                "run the latest devprojex-<arch>-pc-windows-msvc.msi from https://github.com/devprojex/devprojex/releases/latest",
            ),
        }
    }

    /// A human name for the installer, as used in messages.
    pub fn name(self) -> &'static str {
        match self {
            InstallMethod::Standalone => "a standalone installer",
            InstallMethod::Homebrew => "Homebrew",
            InstallMethod::Winget => "winget",
            InstallMethod::Deb => "the Debian package (dpkg/apt)",
            InstallMethod::Cargo => "cargo install",
            InstallMethod::Msi => "the Windows installer (.msi)",
        }
    }
}

impl fmt::Display for InstallMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The dpkg file lists that, when present, mean the `devprojex` package is installed. A
/// multi-arch installation names the list `PACKAGE:ARCH.list`.
pub const DPKG_LISTS: &[&str] = &[
    "/var/lib/dpkg/info/devprojex.list",
    "/var/lib/dpkg/info/devprojex:amd64.list",
    "/var/lib/dpkg/info/devprojex:arm64.list",
];

/// Where the .deb puts the binary.
pub const DEB_BINARY: &str = "/usr/bin/devprojex";

/// Homebrew prefixes used when `HOMEBREW_PREFIX` / `HOMEBREW_CELLAR` are not set
/// (`brew --prefix` on Apple silicon, Intel macOS, and Linux).
const DEFAULT_BREW_PREFIXES: &[&str] =
    &["/opt/homebrew", "/usr/local", "/home/linuxbrew/.linuxbrew"];

/// Decide who installed the binary at `exe`.
///
/// `exe` should be the canonical path of the running executable (symlinks resolved: Homebrew's
/// `bin/devprojex` is a link into the Cellar, winget's `Links\devprojex.exe` one into
/// `Packages`), but the rules also recognise the unresolved link locations. `env` reads an
/// environment variable; `exists` tells whether a file exists. Checks run in this order:
/// Homebrew, winget, Debian package, cargo, Windows .msi; anything else is standalone.
pub fn detect_install_method(
    exe: &Path,
    env: &dyn Fn(&str) -> Option<OsString>,
    exists: &dyn Fn(&Path) -> bool,
) -> InstallMethod {
    // Compare with forward slashes and, for Windows paths, case-insensitively.
    let norm = normalize(exe);

    if is_homebrew(&norm, env) {
        return InstallMethod::Homebrew;
    }
    if is_winget(&norm) {
        return InstallMethod::Winget;
    }
    if norm == DEB_BINARY && DPKG_LISTS.iter().any(|list| exists(Path::new(list))) {
        return InstallMethod::Deb;
    }
    if is_cargo(&norm, env) {
        return InstallMethod::Cargo;
    }
    if is_msi(&norm) {
        return InstallMethod::Msi;
    }
    InstallMethod::Standalone
}

/// `path` as users write it: without the `\\?\` prefix Windows' `canonicalize` adds
/// (`\\?\C:\x` is `C:\x`, `\\?\UNC\host\share` is `\\host\share`). For comparisons and
/// messages.
pub fn display_path(path: &Path) -> String {
    without_verbatim_prefix(&path.to_string_lossy())
}

fn without_verbatim_prefix(text: &str) -> String {
    if let Some(rest) = text.strip_prefix(r"\\?\UNC\") {
        return format!(r"\\{rest}");
    }
    match text.strip_prefix(r"\\?\") {
        Some(rest) if rest.as_bytes().get(1) == Some(&b':') => rest.to_string(),
        _ => text.to_string(),
    }
}

/// Forward slashes, no trailing slash, no `\\?\` prefix; lower-cased when the path looks like
/// a Windows path (a drive letter or a backslash), because Windows paths compare
/// case-insensitively.
fn normalize(path: &Path) -> String {
    let raw = display_path(path);
    let windowsish = raw.contains('\\') || raw.as_bytes().get(1) == Some(&b':');
    let mut s = raw.replace('\\', "/");
    if windowsish {
        s = s.to_lowercase();
    }
    while s.len() > 1 && s.ends_with('/') {
        s.pop();
    }
    s
}

fn env_path(env: &dyn Fn(&str) -> Option<OsString>, name: &str) -> Option<String> {
    env(name)
        .filter(|v| !v.is_empty())
        .map(|v| normalize(&PathBuf::from(v)))
}

/// `exe` lies strictly inside directory `dir` (both normalised).
fn is_under(exe: &str, dir: &str) -> bool {
    let dir = dir.trim_end_matches('/');
    !dir.is_empty()
        && exe.len() > dir.len() + 1
        && exe.starts_with(dir)
        && exe.as_bytes()[dir.len()] == b'/'
}

fn is_homebrew(exe: &str, env: &dyn Fn(&str) -> Option<OsString>) -> bool {
    // Any Cellar: `<prefix>/Cellar/devprojex/<version>/bin/devprojex`.
    if exe.contains("/Cellar/devprojex/") {
        return true;
    }
    if let Some(cellar) = env_path(env, "HOMEBREW_CELLAR")
        && is_under(exe, &cellar)
    {
        return true;
    }
    // The link `<prefix>/bin/devprojex` (when the caller could not resolve it) and the
    // `<prefix>/opt/devprojex/...` keg link.
    let mut prefixes: Vec<String> = DEFAULT_BREW_PREFIXES
        .iter()
        .map(|p| p.to_string())
        .collect();
    if let Some(prefix) = env_path(env, "HOMEBREW_PREFIX") {
        prefixes.push(prefix);
    }
    prefixes.iter().any(|prefix| {
        let prefix = prefix.trim_end_matches('/');
        // `/usr/local/bin` is shared with hand-installed binaries: only the Cellar and the
        // `opt` keg link are Homebrew's for sure there.
        is_under(exe, &format!("{prefix}/Cellar"))
            || is_under(exe, &format!("{prefix}/opt/devprojex"))
            || (prefix != "/usr/local" && exe == format!("{prefix}/bin/devprojex"))
    })
}

fn is_winget(exe: &str) -> bool {
    // User scope: %LOCALAPPDATA%\Microsoft\WinGet\{Packages,Links}; machine scope:
    // %ProgramFiles%\WinGet\{Packages,Links}. winget always names these two folders so.
    let lower = exe.to_lowercase();
    lower.contains("/winget/packages/") || lower.contains("/winget/links/")
}

fn is_msi(exe: &str) -> bool {
    // wix/main.wxs installs to <ProgramFiles>\devprojex\bin\devprojex.exe (per machine).
    let lower = exe.to_lowercase();
    lower.ends_with("/devprojex/bin/devprojex.exe")
        && (lower.contains("/program files/") || lower.contains("/program files (x86)/"))
}

fn is_cargo(exe: &str, env: &dyn Fn(&str) -> Option<OsString>) -> bool {
    let mut bins = Vec::new();
    if let Some(cargo_home) = env_path(env, "CARGO_HOME") {
        bins.push(format!("{cargo_home}/bin"));
    }
    for home_var in ["HOME", "USERPROFILE"] {
        if let Some(home) = env_path(env, home_var) {
            bins.push(format!("{}/.cargo/bin", home.trim_end_matches('/')));
        }
    }
    let lower = exe.to_lowercase();
    bins.iter().any(|bin| {
        // Windows-looking paths were lower-cased by `normalize`; compare both forms.
        is_under(exe, bin) || is_under(&lower, &bin.to_lowercase())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn detect(exe: &str, env: &[(&str, &str)], existing: &[&str]) -> InstallMethod {
        let env: HashMap<String, OsString> = env
            .iter()
            .map(|(k, v)| (k.to_string(), OsString::from(v)))
            .collect();
        let existing: Vec<PathBuf> = existing.iter().map(PathBuf::from).collect();
        detect_install_method(Path::new(exe), &|name| env.get(name).cloned(), &|path| {
            existing.iter().any(|p| p == path)
        })
    }

    #[test]
    fn homebrew_cellar_paths() {
        for exe in [
            "/opt/homebrew/Cellar/devprojex/0.3.0/bin/devprojex",
            "/usr/local/Cellar/devprojex/0.3.0/bin/devprojex",
            "/home/linuxbrew/.linuxbrew/Cellar/devprojex/0.3.0/bin/devprojex",
            "/custom/brew/Cellar/devprojex/1.0.0/bin/devprojex",
            "/opt/homebrew/opt/devprojex/bin/devprojex",
            "/opt/homebrew/bin/devprojex",
        ] {
            assert_eq!(detect(exe, &[], &[]), InstallMethod::Homebrew, "{exe}");
        }
        assert_eq!(
            detect(
                "/srv/brew/Cellar/x/bin/devprojex",
                &[("HOMEBREW_CELLAR", "/srv/brew/Cellar")],
                &[]
            ),
            InstallMethod::Homebrew
        );
        assert_eq!(
            detect(
                "/srv/brew/bin/devprojex",
                &[("HOMEBREW_PREFIX", "/srv/brew")],
                &[]
            ),
            InstallMethod::Homebrew
        );
    }

    #[test]
    fn usr_local_bin_is_not_homebrew_by_itself() {
        assert_eq!(
            detect("/usr/local/bin/devprojex", &[], &[]),
            InstallMethod::Standalone
        );
    }

    #[test]
    fn winget_paths() {
        for exe in [
            r"C:\Users\ada\AppData\Local\Microsoft\WinGet\Packages\devprojex.devprojex_Microsoft.Winget.Source_8wekyb3d8bbwe\devprojex.exe",
            r"C:\Users\ada\AppData\Local\Microsoft\WinGet\Links\devprojex.exe",
            r"c:\users\ada\appdata\local\microsoft\winget\packages\x\devprojex.exe",
        ] {
            assert_eq!(detect(exe, &[], &[]), InstallMethod::Winget, "{exe}");
        }
        assert_eq!(
            detect(
                r"C:\Program Files\WinGet\Packages\devprojex.devprojex_x\devprojex.exe",
                &[("ProgramFiles", r"C:\Program Files")],
                &[]
            ),
            InstallMethod::Winget
        );
        assert_eq!(
            detect(
                r"D:\LocalData\Microsoft\WinGet\Links\devprojex.exe",
                &[("LOCALAPPDATA", r"D:\LocalData")],
                &[]
            ),
            InstallMethod::Winget
        );
    }

    #[test]
    fn deb_needs_the_dpkg_list() {
        assert_eq!(
            detect(
                "/usr/bin/devprojex",
                &[],
                &["/var/lib/dpkg/info/devprojex.list"]
            ),
            InstallMethod::Deb
        );
        assert_eq!(
            detect(
                "/usr/bin/devprojex",
                &[],
                &["/var/lib/dpkg/info/devprojex:arm64.list"]
            ),
            InstallMethod::Deb
        );
        // Copied by hand into /usr/bin: not dpkg's.
        assert_eq!(
            detect("/usr/bin/devprojex", &[], &[]),
            InstallMethod::Standalone
        );
        // dpkg knows the package, but this binary is elsewhere.
        assert_eq!(
            detect(
                "/home/ada/.local/bin/devprojex",
                &[("HOME", "/home/ada")],
                &["/var/lib/dpkg/info/devprojex.list"]
            ),
            InstallMethod::Standalone
        );
    }

    #[test]
    fn cargo_bin() {
        assert_eq!(
            detect(
                "/home/ada/.cargo/bin/devprojex",
                &[("HOME", "/home/ada")],
                &[]
            ),
            InstallMethod::Cargo
        );
        assert_eq!(
            detect(
                "/home/ada/.cargo/bin/devprojex",
                &[("HOME", "/home/ada/")],
                &[]
            ),
            InstallMethod::Cargo
        );
        assert_eq!(
            detect(
                "/opt/rust/cargo/bin/devprojex",
                &[("CARGO_HOME", "/opt/rust/cargo")],
                &[]
            ),
            InstallMethod::Cargo
        );
        assert_eq!(
            detect(
                r"C:\Users\Ada\.cargo\bin\devprojex.exe",
                &[("USERPROFILE", r"C:\Users\Ada")],
                &[]
            ),
            InstallMethod::Cargo
        );
        // Without HOME/CARGO_HOME we cannot tell: standalone.
        assert_eq!(
            detect("/home/ada/.cargo/bin/devprojex", &[], &[]),
            InstallMethod::Standalone
        );
        // A sibling directory is not inside.
        assert_eq!(
            detect(
                "/home/ada/.cargo/binaries/devprojex",
                &[("HOME", "/home/ada")],
                &[]
            ),
            InstallMethod::Standalone
        );
    }

    /// `canonicalize` on Windows returns `\\?\C:\...`: every rule must see through it.
    #[test]
    fn verbatim_prefixes_do_not_hide_the_install_method() {
        let profile = [("USERPROFILE", r"C:\Users\Ada")];
        assert_eq!(
            detect(r"\\?\C:\Users\Ada\.cargo\bin\devprojex.exe", &profile, &[]),
            InstallMethod::Cargo
        );
        assert_eq!(
            detect(
                r"\\?\D:\rust\cargo\bin\devprojex.exe",
                &[("CARGO_HOME", r"\\?\D:\rust\cargo")],
                &[]
            ),
            InstallMethod::Cargo
        );
        assert_eq!(
            detect(
                r"\\?\UNC\server\home\ada\.cargo\bin\devprojex.exe",
                &[("USERPROFILE", r"\\server\home\ada")],
                &[]
            ),
            InstallMethod::Cargo
        );
        assert_eq!(
            detect(
                r"\\?\C:\Program Files\devprojex\bin\devprojex.exe",
                &[],
                &[]
            ),
            InstallMethod::Msi
        );
        assert_eq!(
            detect(r"\\?\C:\Users\Ada\.local\bin\devprojex.exe", &profile, &[]),
            InstallMethod::Standalone
        );
        assert_eq!(
            display_path(Path::new(r"\\?\C:\Users\Ada\.local\bin\devprojex.exe")),
            r"C:\Users\Ada\.local\bin\devprojex.exe"
        );
        assert_eq!(
            display_path(Path::new(r"\\?\UNC\server\share\devprojex.exe")),
            r"\\server\share\devprojex.exe"
        );
        assert_eq!(
            display_path(Path::new("/usr/bin/devprojex")),
            "/usr/bin/devprojex"
        );
    }

    #[test]
    fn msi_install_dir() {
        assert_eq!(
            detect(r"C:\Program Files\devprojex\bin\devprojex.exe", &[], &[]),
            InstallMethod::Msi
        );
        assert_eq!(
            detect(r"C:\Program Files\tools\devprojex.exe", &[], &[]),
            InstallMethod::Standalone
        );
        assert!(
            InstallMethod::Msi
                .update_command()
                .unwrap()
                .contains(".msi")
        );
    }

    #[test]
    fn standalone_locations() {
        for exe in [
            "/home/ada/.local/bin/devprojex",
            "/usr/local/bin/devprojex",
            "/tmp/x/devprojex",
            r"C:\Users\ada\.local\bin\devprojex.exe",
        ] {
            assert_eq!(
                detect(
                    exe,
                    &[("HOME", "/home/ada"), ("USERPROFILE", r"C:\Users\ada")],
                    &[]
                ),
                InstallMethod::Standalone,
                "{exe}"
            );
        }
    }

    #[test]
    fn each_managed_method_names_its_command() {
        assert_eq!(InstallMethod::Standalone.update_command(), None);
        assert_eq!(
            InstallMethod::Homebrew.update_command(),
            Some("brew upgrade devprojex")
        );
        assert!(
            InstallMethod::Winget
                .update_command()
                .unwrap()
                .starts_with("winget upgrade")
        );
        assert!(InstallMethod::Deb.update_command().unwrap().contains("apt"));
        assert!(
            InstallMethod::Cargo
                .update_command()
                .unwrap()
                .starts_with("cargo install")
        );
    }
}
