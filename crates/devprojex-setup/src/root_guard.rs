//! The one rule for folders too broad to serve: a filesystem root (`/`, `C:\`, a UNC share),
//! the home folder, or a folder that contains it (`/home`, `/Users`, `C:\Users`).
//!
//! The server applies it to every root that reaches it from the environment or the client
//! (`DEVPROJEX_ROOT`, `CLAUDE_PROJECT_DIR`, MCP roots, the working directory); setup applies it
//! to the `--root` folders it writes. Only a `--root` on the server's own command line serves
//! such a folder (setup writes one only with `--allow-broad-root`).

use std::path::Path;

/// Why serving `dir` would expose too much, or `None` when it is an ordinary folder. Pure: both
/// paths are compared as written (pass canonical paths); `windows` selects Windows rules
/// (drive letters, UNC shares, `\\?\` prefixes, case-insensitive names).
pub fn too_broad(dir: &Path, home: Option<&Path>, windows: bool) -> Option<&'static str> {
    let dir = normalized(dir, windows);
    if is_filesystem_root(&dir, windows) {
        return Some("a filesystem root");
    }
    let home = home.map(|h| normalized(h, windows))?;
    if dir == home {
        return Some("your home folder");
    }
    let below = home
        .strip_prefix(&dir)
        .is_some_and(|rest| rest.starts_with('/'));
    below.then_some("a folder that contains your home folder")
}

/// `/`-separated, no trailing `/`, no `\\?\` prefix; Windows paths lower-cased.
fn normalized(p: &Path, windows: bool) -> String {
    let mut s = p.to_string_lossy().into_owned();
    if windows {
        s = s.replace('\\', "/");
        if let Some(rest) = s.strip_prefix("//?/UNC/") {
            s = format!("//{rest}");
        } else if let Some(rest) = s.strip_prefix("//?/") {
            s = rest.to_string();
        }
        s = s.to_lowercase();
    }
    while s.len() > 1 && s.ends_with('/') {
        s.pop();
    }
    s
}

fn is_filesystem_root(s: &str, windows: bool) -> bool {
    if !windows {
        return s == "/";
    }
    let b = s.as_bytes();
    let drive = b.len() == 2 && b[0].is_ascii_alphabetic() && b[1] == b':';
    let unc_share = s
        .strip_prefix("//")
        .is_some_and(|rest| rest.split('/').filter(|p| !p.is_empty()).count() <= 2);
    drive || unc_share || s == "/"
}
