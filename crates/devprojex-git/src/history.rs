//! HEAD's history for relevance ranking: each commit's message and the files it modified,
//! newest first, following first parents only. Read in-process, bounded in commits; a shallow
//! clone gives what it holds.

use std::path::Path;

use crate::error::GitError;
use crate::local::{locate, map_path, state_err};

/// One commit: its message and the root-relative files it added, modified or deleted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommitFiles {
    /// The commit id, hex.
    pub id: String,
    /// The message, decoded lossily.
    pub message: String,
    /// Root-relative paths with `/`.
    pub files: Vec<String>,
    /// A merge whose message names a pull request or issue (`Merge pull request #1273 from
    /// ...`): its files are what the merged branch changed (against the first parent).
    pub merge: bool,
}

/// Whether a merge's message names a number (`#1273`, `pull request 1124`): the merges a
/// query can name. Other merges (`Merge tag 'x' of git://...`, the kernel's many) are skipped
/// without their trees being compared.
fn names_a_number(message: &[u8]) -> bool {
    message
        .windows(2)
        .any(|w| w[0] == b'#' && w[1].is_ascii_digit())
        || message
            .windows(14)
            .any(|w| w[..13].eq_ignore_ascii_case(b"pull request ") && w[13].is_ascii_digit())
}

/// The commit HEAD points at in the repository holding `root` (hex), or `None` when the
/// repository has no commit yet. A project that is not a Git checkout is an error.
pub fn head_commit(root: &Path) -> Result<Option<String>, GitError> {
    let located = locate(root)?;
    let mut ids = Vec::new();
    for loc in &located {
        if let Ok(id) = loc.repo.head_id() {
            ids.push(id.to_string());
        }
    }
    Ok((!ids.is_empty()).then(|| ids.join("+")))
}

/// Up to `max_commits` commits reachable from HEAD by first parents, newest first, with the
/// files each changed under `root`. Merges are skipped (their changes are their parents'),
/// except those whose message names a pull request or issue ([`CommitFiles::merge`]).
/// Commits whose objects are missing (a shallow clone's edge) end the walk.
pub fn head_history(root: &Path, max_commits: usize) -> Result<Vec<CommitFiles>, GitError> {
    let mut out = Vec::new();
    for loc in locate(root)? {
        let repo = &loc.repo;
        let Ok(head) = repo.head_id() else { continue };
        let walk = head
            .ancestors()
            .first_parent_only()
            .all()
            .map_err(|e| state_err(root, "HEAD's history cannot be walked", e))?;
        let options = gix::diff::Options::default();
        for info in walk.take(max_commits) {
            let Ok(info) = info else { break };
            let Ok(commit) = info.object() else { break };
            let mut parents = commit.parent_ids();
            let parent = parents.next();
            let merge = parents.next().is_some();
            if merge && !names_a_number(commit.message_raw_sloppy()) {
                continue;
            }
            let Ok(tree) = commit.tree() else { break };
            let parent_tree = match parent {
                Some(parent) => match parent.object().ok().and_then(|o| o.peel_to_tree().ok()) {
                    Some(tree) => Some(tree),
                    None => break,
                },
                None => None,
            };
            let Ok(changes) = repo.diff_tree_to_tree(parent_tree.as_ref(), &tree, options) else {
                continue;
            };
            let files: Vec<String> = changes
                .iter()
                .filter(|c| c.entry_mode().is_blob_or_symlink())
                .filter_map(|c| map_path(c.location(), &loc.in_repo, &loc.out))
                .collect();
            if files.is_empty() {
                continue;
            }
            out.push(CommitFiles {
                id: commit.id.to_string(),
                message: String::from_utf8_lossy(commit.message_raw_sloppy()).into_owned(),
                files,
                merge,
            });
        }
    }
    Ok(out)
}
