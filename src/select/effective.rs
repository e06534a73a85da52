//! Is one named file part of the effective selection? Used by `get_file`, which must not walk
//! the whole project: it applies the same product exclusions and Git ignore rules to a single
//! path by checking each of its ancestors.

use std::path::Path;

use ignore::gitignore::{Gitignore, GitignoreBuilder};

use super::{GitMode, rules};

/// Why a path is not effective, if it is not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exclusion {
    ProductRule,
    GitIgnored,
}

/// Check the product exclusions and (for `gitignore`/`tracked` modes) the ignore files for
/// `relative` (a file) inside `root`.
pub fn check_path(root: &Path, relative: &str, git_mode: GitMode) -> Option<Exclusion> {
    let parts: Vec<&str> = relative.split('/').filter(|p| !p.is_empty()).collect();
    // An empty path names the root itself, which no rule excludes.
    let (file_name, dirs) = parts.split_last()?;
    if rules::OS_LITTER_FILES.contains(file_name) {
        return Some(Exclusion::ProductRule);
    }
    let mut current = root.to_path_buf();
    for dir in dirs {
        if rules::VCS_DIRS.contains(dir) || rules::is_smart_ignored_dir(dir, &current, root) {
            return Some(Exclusion::ProductRule);
        }
        current.push(dir);
    }
    if git_mode == GitMode::None {
        return None;
    }
    let matchers = collect_matchers(root, dirs);
    let mut path = root.to_path_buf();
    for (index, part) in parts.iter().enumerate() {
        path.push(part);
        let is_dir = index + 1 < parts.len();
        for matcher in matchers.iter().rev() {
            let verdict = matcher.matched(&path, is_dir);
            if verdict.is_ignore() {
                return Some(Exclusion::GitIgnored);
            }
            if verdict.is_whitelist() {
                break;
            }
        }
    }
    None
}

/// Matchers from the least to the most specific: global excludes, `info/exclude`, then every
/// `.gitignore` from the repository top (or the root) down to the file's folder.
fn collect_matchers(root: &Path, dirs: &[&str]) -> Vec<Gitignore> {
    let mut matchers = Vec::new();
    let (global, _) = Gitignore::global();
    if !global.is_empty() {
        matchers.push(global);
    }
    // Ancestors above the root up to the repository top.
    let mut above: Vec<&Path> = Vec::new();
    let mut cursor = root.parent();
    let repo_top = find_repo_top(root);
    if let Some(top) = &repo_top {
        while let Some(dir) = cursor {
            if !dir.starts_with(top) {
                break;
            }
            above.push(dir);
            cursor = dir.parent();
        }
        let exclude = top.join(".git").join("info").join("exclude");
        if exclude.is_file() {
            let mut builder = GitignoreBuilder::new(top);
            builder.add(exclude);
            if let Ok(matcher) = builder.build() {
                matchers.push(matcher);
            }
        }
    }
    for dir in above.iter().rev() {
        push_gitignore(&mut matchers, dir);
    }
    let mut current = root.to_path_buf();
    push_gitignore(&mut matchers, &current);
    for dir in dirs {
        current.push(dir);
        push_gitignore(&mut matchers, &current);
    }
    matchers
}

fn push_gitignore(matchers: &mut Vec<Gitignore>, dir: &Path) {
    let file = dir.join(".gitignore");
    if file.is_file() {
        let mut builder = GitignoreBuilder::new(dir);
        builder.add(file);
        if let Ok(matcher) = builder.build() {
            matchers.push(matcher);
        }
    }
}

fn find_repo_top(root: &Path) -> Option<std::path::PathBuf> {
    root.ancestors()
        .find(|dir| dir.join(".git").exists())
        .map(Path::to_path_buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ignored_and_excluded_paths() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join(".gitignore"), "*.log\nsecret/\n!keep.log\n").unwrap();
        std::fs::write(root.join("Cargo.toml"), "").unwrap();
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(root.join("sub/.gitignore"), "local.txt\n").unwrap();
        assert_eq!(
            check_path(root, "a.log", GitMode::Gitignore),
            Some(Exclusion::GitIgnored)
        );
        assert_eq!(check_path(root, "keep.log", GitMode::Gitignore), None);
        assert_eq!(
            check_path(root, "secret/x.txt", GitMode::Gitignore),
            Some(Exclusion::GitIgnored)
        );
        assert_eq!(
            check_path(root, "sub/local.txt", GitMode::Gitignore),
            Some(Exclusion::GitIgnored)
        );
        assert_eq!(check_path(root, "local.txt", GitMode::Gitignore), None);
        assert_eq!(check_path(root, "a.log", GitMode::None), None);
        assert_eq!(
            check_path(root, "target/debug/x", GitMode::None),
            Some(Exclusion::ProductRule)
        );
        assert_eq!(
            check_path(root, ".git/config", GitMode::None),
            Some(Exclusion::ProductRule)
        );
        assert_eq!(check_path(root, "sub/target/x", GitMode::None), None);
    }
}
