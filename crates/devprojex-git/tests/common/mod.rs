//! Shared helpers: real repositories built with the `git` CLI, and Git itself as the oracle.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use devprojex_git::ScopeSelection;

/// A sandbox with its own HOME so no user or system Git configuration leaks into tests.
pub struct Sandbox {
    pub dir: tempfile::TempDir,
}

impl Sandbox {
    pub fn new() -> Sandbox {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("home")).unwrap();
        Sandbox { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    pub fn git_cmd(&self, cwd: &Path) -> Command {
        let mut cmd = Command::new("git");
        cmd.current_dir(cwd)
            .env("HOME", self.home())
            .env("XDG_CONFIG_HOME", self.home().join(".config"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "Test")
            .env("GIT_AUTHOR_EMAIL", "test@example.com")
            .env("GIT_COMMITTER_NAME", "Test")
            .env("GIT_COMMITTER_EMAIL", "test@example.com")
            .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
            .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_INDEX_FILE")
            .args([
                "-c",
                "init.defaultBranch=main",
                "-c",
                "core.autocrlf=false",
                "-c",
                "protocol.file.allow=always",
                "-c",
                "core.quotepath=false",
            ]);
        cmd
    }

    /// Run git in `cwd`, panic on failure, return stdout.
    pub fn git(&self, cwd: &Path, args: &[&str]) -> Vec<u8> {
        let out = self.git_cmd(cwd).args(args).output().unwrap();
        assert!(
            out.status.success(),
            "git {args:?} in {}: {}",
            cwd.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    }

    pub fn init(&self, rel: &str) -> PathBuf {
        let dir = self.path().join(rel);
        std::fs::create_dir_all(&dir).unwrap();
        self.git(&dir, &["init", "-q"]);
        dir
    }
}

pub fn write(root: &Path, rel: &str, content: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, content).unwrap();
}

/// Split NUL-separated git output.
pub fn z(bytes: &[u8]) -> Vec<String> {
    bytes
        .split(|b| *b == 0)
        .filter(|s| !s.is_empty())
        .map(|s| String::from_utf8(s.to_vec()).unwrap())
        .collect()
}

/// `git ls-files -z <extra>` as a set.
pub fn ls_files(sb: &Sandbox, cwd: &Path, extra: &[&str]) -> BTreeSet<String> {
    let mut args = vec!["ls-files", "-z"];
    args.extend_from_slice(extra);
    z(&sb.git(cwd, &args)).into_iter().collect()
}

/// Parse `git diff --name-status -z` output into `(path, live)` where `live` is false for
/// deletions. Renames and copies report their new path.
pub fn name_status(bytes: &[u8]) -> Vec<(String, bool)> {
    let fields = z(bytes);
    let mut out = Vec::new();
    let mut i = 0;
    while i < fields.len() {
        let status = &fields[i];
        match status.chars().next().unwrap() {
            'R' | 'C' => {
                out.push((fields[i + 2].clone(), true));
                i += 3;
            }
            'D' => {
                out.push((fields[i + 1].clone(), false));
                i += 2;
            }
            _ => {
                out.push((fields[i + 1].clone(), true));
                i += 2;
            }
        }
    }
    out
}

/// Collects `(path, live)` observations the way the crate documents scope semantics.
#[derive(Default)]
pub struct Oracle {
    seen: BTreeMap<String, bool>,
}

impl Oracle {
    pub fn add(&mut self, prefix: &str, entries: impl IntoIterator<Item = (String, bool)>) {
        for (p, live) in entries {
            *self.seen.entry(format!("{prefix}{p}")).or_insert(false) |= live;
        }
    }

    pub fn remove(&mut self, path: &str) {
        self.seen.remove(path);
    }

    pub fn selection(&self, root: &Path) -> ScopeSelection {
        let mut sel = ScopeSelection::default();
        for (p, live) in &self.seen {
            let present = std::fs::symlink_metadata(root.join(p)).is_ok_and(|m| !m.is_dir());
            if *live && present {
                sel.paths.insert(p.clone());
            } else {
                sel.deleted += 1;
            }
        }
        sel
    }
}

/// Staged changes of the repository at `cwd` per Git (`--relative` to `cwd`).
pub fn git_staged(sb: &Sandbox, cwd: &Path) -> Vec<(String, bool)> {
    name_status(&sb.git(
        cwd,
        &["diff", "--cached", "--name-status", "-z", "--relative"],
    ))
}

/// Unstaged changes plus untracked, non-ignored files per Git.
pub fn git_unstaged_untracked(sb: &Sandbox, cwd: &Path) -> Vec<(String, bool)> {
    let mut v = name_status(&sb.git(cwd, &["diff", "--name-status", "-z", "--relative"]));
    for p in z(&sb.git(cwd, &["ls-files", "--others", "--exclude-standard", "-z"])) {
        if !p.ends_with('/') {
            v.push((p, true));
        }
    }
    v
}
