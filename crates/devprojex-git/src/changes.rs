//! The changes of a git scope file by file, with where each side's content lives, for
//! `pack_context` `view: "diff"`.
//!
//! The sides are those `git diff` compares for the scope:
//! - `staged` (`git diff --staged`): `HEAD` against the index, so the new side is the INDEX blob,
//!   not the working tree;
//! - `changes` (`git diff HEAD`, plus untracked files that are not ignored): `HEAD` against the
//!   working tree;
//! - `diff:<a>..<b>` (`git diff a b`): the two revisions' trees.
//!
//! Renames and copies (as configured, `git diff`'s default) keep their old path. Deleted files
//! are changes like the others (their new side is absent). Initialized submodules contribute
//! their own changes under their folder for `staged` and `changes`, as for [`crate::scope_paths`];
//! a gitlink itself is no file and is left out. Blobs are read only on request
//! ([`ScopeChanges::read`]) and never past the caller's byte limit; working-tree sides are left
//! to the caller, which reads them through its root jail.

use std::collections::BTreeMap;
use std::path::Path;

use crate::error::GitError;
use crate::local::{
    GitScope, StatusSink, locate, map_path, present, resolve_tree, state_err, walk_status,
};

/// Where one side of a changed file is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiffSide {
    /// The file does not exist on this side (added or deleted).
    Absent,
    /// A blob in the repository's object database; `symlink` when it is a link's target path.
    Blob {
        /// The blob's id.
        id: gix::ObjectId,
        /// The entry is a symbolic link: the blob is the link's target path, not file content.
        symlink: bool,
    },
    /// The file in the working tree, at the change's `path`.
    WorkTree,
}

/// One changed file of a scope.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileChange {
    /// Relative to the root, with `/`: the new path (the old one for a deleted file).
    pub path: String,
    /// The path the file was renamed or copied from, when it was (inside the root).
    pub old_path: Option<String>,
    /// The old side (`HEAD`, or the first revision of `diff:`).
    pub old: DiffSide,
    /// The new side (the index, the working tree, or the second revision of `diff:`).
    pub new: DiffSide,
    /// The repository (of [`ScopeChanges`]) its blobs are in.
    repo: usize,
}

/// What [`ScopeChanges::read`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum BlobRead {
    /// The blob's bytes (at most the limit).
    Bytes(Vec<u8>),
    /// Larger than the limit: not read.
    TooLarge,
    /// Not in the object database (a partial or shallow clone), or not a blob.
    Missing,
}

/// The changed files of a scope, sorted by path, and the repositories their blobs are in.
pub struct ScopeChanges {
    /// The changes, sorted by `path`.
    pub files: Vec<FileChange>,
    repos: Vec<gix::Repository>,
}

impl std::fmt::Debug for ScopeChanges {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScopeChanges")
            .field("files", &self.files)
            .finish_non_exhaustive()
    }
}

impl ScopeChanges {
    /// The bytes of `side` of `change` when it is a blob of at most `limit` bytes (the size is
    /// read from the object's header first, so a larger blob is never loaded). `None` for
    /// sides that are not blobs.
    pub fn read(&self, change: &FileChange, side: &DiffSide, limit: u64) -> Option<BlobRead> {
        let DiffSide::Blob { id, .. } = side else {
            return None;
        };
        let repo = self.repos.get(change.repo)?;
        Some(match repo.try_find_header(*id) {
            Ok(Some(header)) if header.kind() != gix::object::Kind::Blob => BlobRead::Missing,
            Ok(Some(header)) if header.size() > limit => BlobRead::TooLarge,
            Ok(Some(_)) => match repo.find_blob(*id) {
                Ok(mut blob) => BlobRead::Bytes(blob.take_data()),
                Err(_) => BlobRead::Missing,
            },
            _ => BlobRead::Missing,
        })
    }
}

/// A change being collected: the old side is known once `HEAD` was compared.
struct Pending {
    old_path: Option<String>,
    old: DiffSide,
    new: DiffSide,
    repo: usize,
}

/// Collects [`Pending`] changes from a status walk.
struct ChangeSink {
    repos: Vec<gix::Repository>,
    in_repo: String,
    out: String,
    /// `changes`: the new side is the working tree, decided at the end.
    worktree: bool,
    pending: BTreeMap<String, Pending>,
}

fn index_blob(id: &gix::oid, mode: gix::index::entry::Mode) -> DiffSide {
    DiffSide::Blob {
        id: id.to_owned(),
        symlink: mode == gix::index::entry::Mode::SYMLINK,
    }
}

fn tree_blob(id: gix::ObjectId, mode: gix::object::tree::EntryMode) -> DiffSide {
    if mode.is_blob_or_symlink() {
        DiffSide::Blob {
            id,
            symlink: mode.is_link(),
        }
    } else {
        DiffSide::Absent
    }
}

/// An index entry that is a file or a link (not a submodule or a sparse folder).
fn is_file(mode: gix::index::entry::Mode) -> bool {
    !mode.is_submodule() && !mode.is_sparse()
}

impl ChangeSink {
    fn map(&self, path: &gix::bstr::BStr) -> Option<String> {
        map_path(path, &self.in_repo, &self.out)
    }

    /// Record `HEAD`'s side of `path` (it wins over a status item's index entry).
    fn record_head(
        &mut self,
        path: String,
        old_path: Option<String>,
        old: DiffSide,
        new: DiffSide,
    ) {
        let repo = self.repos.len() - 1;
        let new = if self.worktree {
            DiffSide::WorkTree
        } else {
            new
        };
        let slot = self.pending.entry(path).or_insert(Pending {
            old_path: None,
            old: DiffSide::Absent,
            new: new.clone(),
            repo,
        });
        slot.old_path = old_path;
        slot.old = old;
        slot.new = new;
        slot.repo = repo;
    }

    /// A working-tree change whose old side is the index entry `old`, unless `HEAD` gave one.
    fn record_worktree(&mut self, path: String, old: DiffSide) {
        let repo = self.repos.len() - 1;
        self.pending.entry(path).or_insert(Pending {
            old_path: None,
            old,
            new: DiffSide::WorkTree,
            repo,
        });
    }
}

impl StatusSink for ChangeSink {
    fn enter(&mut self, repo: &gix::Repository, in_repo: &str, out: &str) {
        self.repos.push(repo.clone());
        self.in_repo = in_repo.to_owned();
        self.out = out.to_owned();
    }

    fn index_change(&mut self, change: &gix::diff::index::ChangeRef<'_, '_>) {
        use gix::diff::index::ChangeRef;
        match change {
            ChangeRef::Addition {
                location,
                entry_mode,
                id,
                ..
            } => {
                if let Some(path) = self.map(location.as_ref()).filter(|_| is_file(*entry_mode)) {
                    self.record_head(path, None, DiffSide::Absent, index_blob(id, *entry_mode));
                }
            }
            ChangeRef::Deletion {
                location,
                entry_mode,
                id,
                ..
            } => {
                if let Some(path) = self.map(location.as_ref()).filter(|_| is_file(*entry_mode)) {
                    self.record_head(path, None, index_blob(id, *entry_mode), DiffSide::Absent);
                }
            }
            ChangeRef::Modification {
                location,
                previous_entry_mode,
                previous_id,
                entry_mode,
                id,
                ..
            } => {
                if let Some(path) = self.map(location.as_ref()).filter(|_| is_file(*entry_mode)) {
                    let old = if is_file(*previous_entry_mode) {
                        index_blob(previous_id, *previous_entry_mode)
                    } else {
                        DiffSide::Absent
                    };
                    self.record_head(path, None, old, index_blob(id, *entry_mode));
                }
            }
            ChangeRef::Rewrite {
                source_location,
                source_entry_mode,
                source_id,
                location,
                entry_mode,
                id,
                ..
            } => {
                if let Some(path) = self.map(location.as_ref()).filter(|_| is_file(*entry_mode)) {
                    // A file moved in from outside the root is an addition here.
                    let source = self
                        .map(source_location.as_ref())
                        .filter(|_| is_file(*source_entry_mode));
                    let old = match source {
                        Some(_) => index_blob(source_id, *source_entry_mode),
                        None => DiffSide::Absent,
                    };
                    self.record_head(path, source, old, index_blob(id, *entry_mode));
                }
            }
        }
    }

    fn status_item(&mut self, item: gix::status::Item) {
        use gix::dir::entry::{Kind, Status};
        use gix::status::index_worktree::Item as Iw;
        use gix::status::plumbing::index_as_worktree::EntryStatus;
        match item {
            gix::status::Item::TreeIndex(change) => self.index_change(&change),
            gix::status::Item::IndexWorktree(Iw::Modification {
                entry,
                rela_path,
                status,
                ..
            }) => {
                if !is_file(entry.mode) || matches!(status, EntryStatus::NeedsUpdate(_)) {
                    return;
                }
                let Some(path) = self.map(rela_path.as_ref()) else {
                    return;
                };
                let old = if matches!(status, EntryStatus::IntentToAdd) {
                    DiffSide::Absent
                } else {
                    index_blob(&entry.id, entry.mode)
                };
                self.record_worktree(path, old);
            }
            gix::status::Item::IndexWorktree(Iw::DirectoryContents { entry, .. }) => {
                if entry.status == Status::Untracked
                    && matches!(entry.disk_kind, Some(Kind::File | Kind::Symlink))
                    && let Some(path) = self.map(entry.rela_path.as_ref())
                {
                    self.record_worktree(path, DiffSide::Absent);
                }
            }
            gix::status::Item::IndexWorktree(Iw::Rewrite { dirwalk_entry, .. }) => {
                if let Some(path) = self.map(dirwalk_entry.rela_path.as_ref()) {
                    self.record_worktree(path, DiffSide::Absent);
                }
            }
        }
    }
}

/// The changed files of `scope` under `root`, each with its old and new side (see the module
/// comment). Root handling and errors are those of [`crate::scope_paths`].
pub fn scope_changes(root: &Path, scope: &GitScope) -> Result<ScopeChanges, GitError> {
    let mut sink = ChangeSink {
        repos: Vec::new(),
        in_repo: String::new(),
        out: String::new(),
        worktree: matches!(scope, GitScope::Changes),
        pending: BTreeMap::new(),
    };
    for loc in locate(root)? {
        match scope {
            GitScope::Staged | GitScope::Changes => {
                walk_status(
                    root,
                    &loc.repo,
                    &loc.in_repo,
                    &loc.out,
                    sink.worktree,
                    &mut sink,
                    0,
                )?;
            }
            GitScope::Diff { from, to } => {
                tree_changes_into(root, &loc.repo, from, to, &loc.in_repo, &loc.out, &mut sink)?;
            }
        }
    }
    let mut files = Vec::with_capacity(sink.pending.len());
    for (path, pending) in sink.pending {
        let new = match pending.new {
            // the working tree decides now: a file or link there, or nothing
            DiffSide::WorkTree if !present(&root.join(&path)) => DiffSide::Absent,
            other => other,
        };
        if pending.old == DiffSide::Absent && new == DiffSide::Absent {
            continue; // added, then deleted again: nothing to show
        }
        files.push(FileChange {
            path,
            old_path: pending.old_path,
            old: pending.old,
            new,
            repo: pending.repo,
        });
    }
    Ok(ScopeChanges {
        files,
        repos: sink.repos,
    })
}

fn tree_changes_into(
    root: &Path,
    repo: &gix::Repository,
    from: &str,
    to: &str,
    in_repo: &str,
    out: &str,
    sink: &mut ChangeSink,
) -> Result<(), GitError> {
    use gix::object::tree::diff::ChangeDetached as Change;
    let old = resolve_tree(repo, from)?;
    let new = resolve_tree(repo, to)?;
    let changes = repo
        .diff_tree_to_tree(&old, &new, None)
        .map_err(|e| state_err(root, "the two revisions cannot be compared", e))?;
    sink.enter(repo, in_repo, out);
    for change in changes {
        let (location, old_path, old, new) = match change {
            Change::Addition {
                location,
                entry_mode,
                id,
                ..
            } => (location, None, DiffSide::Absent, tree_blob(id, entry_mode)),
            Change::Deletion {
                location,
                entry_mode,
                id,
                ..
            } => (location, None, tree_blob(id, entry_mode), DiffSide::Absent),
            Change::Modification {
                location,
                previous_entry_mode,
                previous_id,
                entry_mode,
                id,
            } => (
                location,
                None,
                tree_blob(previous_id, previous_entry_mode),
                tree_blob(id, entry_mode),
            ),
            Change::Rewrite {
                source_location,
                source_entry_mode,
                source_id,
                location,
                entry_mode,
                id,
                ..
            } => {
                let source = sink.map(source_location.as_ref());
                let old = match source {
                    Some(_) => tree_blob(source_id, source_entry_mode),
                    None => DiffSide::Absent,
                };
                (location, source, old, tree_blob(id, entry_mode))
            }
        };
        if old == DiffSide::Absent && new == DiffSide::Absent {
            continue; // folders and submodule pointers are not files
        }
        if let Some(path) = sink.map(location.as_ref()) {
            let old_path = old_path.filter(|_| old != DiffSide::Absent);
            sink.pending.insert(
                path,
                Pending {
                    old_path,
                    old,
                    new,
                    repo: sink.repos.len() - 1,
                },
            );
        }
    }
    Ok(())
}
