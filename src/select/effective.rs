//! Is one named path part of the effective selection? Used by `get_file`, which must not walk
//! the whole project: it descends from the root's handle to the path, judging each component
//! with the walk's own [`Rules`] (product exclusions, smart ignore, `.gitignore` files read
//! through each folder's handle), so the answer is the walk's.

use std::sync::Arc;

use super::walk::{DirState, Rules, Verdict, join};
use super::{ExclusionKind, Exclusions, GitMode, rules};
use crate::project::ProjectRoot;
use crate::project::jail::{DirHandle, NodeKind, RawEntry};

/// Why a path is not effective, if it is not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exclusion {
    ProductRule,
    GitIgnored,
}

/// Check the product exclusions and (for `gitignore`/`tracked` modes) the ignore files for
/// `relative` inside `root`; `is_dir` tells whether the last component is a folder.
pub fn check_path(
    root: &ProjectRoot,
    relative: &str,
    git_mode: GitMode,
    is_dir: bool,
) -> Option<Exclusion> {
    check_with(
        &Rules::new(root, git_mode, Exclusions::default()),
        root,
        relative,
        is_dir,
    )
}

/// [`check_path`] under a profile's `exclusions` (hidden files and folders it may admit).
pub fn check_path_under(
    root: &ProjectRoot,
    relative: &str,
    git_mode: GitMode,
    exclusions: Exclusions,
    is_dir: bool,
) -> Option<Exclusion> {
    check_with(
        &Rules::new(root, git_mode, exclusions),
        root,
        relative,
        is_dir,
    )
}

/// The rest of a path below a folder that does not exist (`state`, a missing folder's state),
/// judged by name with the rules of the folders above it.
fn judge_missing(
    rules: &Rules,
    mut state: DirState,
    parts: &[&str],
    is_dir: bool,
) -> Option<Exclusion> {
    for (index, part) in parts.iter().enumerate() {
        let kind = if index + 1 == parts.len() && !is_dir {
            NodeKind::File
        } else {
            NodeKind::Dir
        };
        let rel = join(&state.rel, part);
        if let Verdict::Excluded(why) = rules.judge(&state, 0, (part, &rel), kind) {
            return Some(match why {
                ExclusionKind::GitIgnore => Exclusion::GitIgnored,
                _ => Exclusion::ProductRule,
            });
        }
        state = state.missing_child(rel);
    }
    None
}

pub(super) fn check_with(
    rules: &Rules,
    root: &ProjectRoot,
    relative: &str,
    is_dir: bool,
) -> Option<Exclusion> {
    let parts: Vec<&str> = relative.split('/').filter(|p| !p.is_empty()).collect();
    // An empty path names the root itself, which no rule excludes.
    let last_index = parts.len().checked_sub(1)?;
    let mut dir: Arc<DirHandle> = Arc::clone(root.dir_handle());
    let mut listing = dir.list().ok()?;
    let mut state: DirState = rules.root_state(&dir, &listing);
    for (index, part) in parts.iter().enumerate() {
        let last = index == last_index;
        let here = markers(&listing);
        let kind = if last && !is_dir {
            NodeKind::File
        } else {
            NodeKind::Dir
        };
        let rel = join(&state.rel, part);
        if let Verdict::Excluded(why) = rules.judge(&state, here, (part, &rel), kind) {
            return Some(match why {
                ExclusionKind::GitIgnore => Exclusion::GitIgnored,
                _ => Exclusion::ProductRule,
            });
        }
        if last {
            break;
        }
        // A folder that is not there (that of a deleted file, which a diff shows) adds no ignore
        // file or markers: the rules above it judge the rest of the path by name. Anything
        // else that cannot be listed is not excluded by a rule; the caller's own open reports
        // what it is.
        let Ok(child) = dir.open_dir(std::ffi::OsStr::new(part)) else {
            let missing = state.missing_child(rel);
            return judge_missing(rules, missing, &parts[index + 1..], is_dir);
        };
        let child_listing = child.list().ok()?;
        let id = child.stat_self().ok().and_then(|m| m.id);
        state = rules.child_state(
            &state,
            here,
            (rel, parts[..=index].iter().collect()),
            &child,
            id,
            &child_listing,
        );
        listing = child_listing;
        dir = Arc::new(child);
    }
    None
}

fn markers(listing: &[RawEntry]) -> u64 {
    let names: Vec<String> = listing
        .iter()
        .map(|e| e.name.to_string_lossy().into_owned())
        .collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    rules::markers_present(&refs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ignored_and_excluded_paths() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path();
        std::fs::write(path.join(".gitignore"), "*.log\nsecret/\n!keep.log\n").unwrap();
        std::fs::write(path.join("Cargo.toml"), "").unwrap();
        std::fs::create_dir_all(path.join("sub")).unwrap();
        std::fs::create_dir_all(path.join("secret")).unwrap();
        std::fs::create_dir_all(path.join("target/debug")).unwrap();
        std::fs::create_dir_all(path.join("sub/target")).unwrap();
        std::fs::create_dir_all(path.join(".git")).unwrap();
        std::fs::write(path.join("sub/.gitignore"), "local.txt\n").unwrap();
        let root = ProjectRoot::open(path).unwrap();
        let check = |rel: &str, mode| check_path(&root, rel, mode, false);
        assert_eq!(
            check("a.log", GitMode::Gitignore),
            Some(Exclusion::GitIgnored)
        );
        assert_eq!(check("keep.log", GitMode::Gitignore), None);
        assert_eq!(
            check("secret/x.txt", GitMode::Gitignore),
            Some(Exclusion::GitIgnored)
        );
        assert_eq!(
            check("sub/local.txt", GitMode::Gitignore),
            Some(Exclusion::GitIgnored)
        );
        assert_eq!(check("local.txt", GitMode::Gitignore), None);
        assert_eq!(check("a.log", GitMode::None), None);
        assert_eq!(
            check("target/debug/x", GitMode::None),
            Some(Exclusion::ProductRule)
        );
        assert_eq!(
            check(".git/config", GitMode::None),
            Some(Exclusion::ProductRule)
        );
        assert_eq!(check("sub/target/x", GitMode::None), None);
        assert_eq!(
            check_path(&root, "secret", GitMode::Gitignore, true),
            Some(Exclusion::GitIgnored)
        );
    }
}
