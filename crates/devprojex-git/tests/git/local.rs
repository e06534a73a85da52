//! Tracked paths and git scopes against Git itself, on real repositories built with the CLI.

use std::path::Path;

use crate::common::{
    Oracle, Sandbox, git_staged, git_unstaged_untracked, ls_files, name_status, write,
};
use devprojex_git::{GitErrorKind, GitScope, scope_paths, tracked_paths};

const RENAME_BODY: &str = "this file is long enough for rename detection\nline 2\nline 3\nline 4\n";

/// A repository with every kind of state: staged, unstaged, untracked, ignored, renamed, deleted,
/// a submodule with its own changes, CRLF, unicode and space-containing paths, a nested repo.
fn kitchen_sink(sb: &Sandbox) -> std::path::PathBuf {
    // The submodule's upstream.
    let upstream = sb.init("upstream");
    write(&upstream, "lib.rs", "pub fn lib() {}\n");
    write(&upstream, "inner/deep.rs", "// deep\n");
    sb.git(&upstream, &["add", "-A"]);
    sb.git(&upstream, &["commit", "-qm", "lib"]);

    let repo = sb.init("repo");
    write(&repo, ".gitignore", "*.log\nbuild/\n");
    write(&repo, ".gitattributes", "crlf.txt text eol=crlf\n");
    write(&repo, "a.txt", "a\n");
    write(&repo, "dir/b.txt", "b\n");
    write(&repo, "dir/deep/c.txt", "c\n");
    write(&repo, "with space.txt", "space\n");
    write(&repo, "ünïcode/файл.txt", "unicode\n");
    write(&repo, "crlf.txt", "one\r\ntwo\r\n");
    write(&repo, "to_delete.txt", "bye\n");
    write(&repo, "worktree_deleted.txt", "gone soon\n");
    write(&repo, "to_rename.txt", RENAME_BODY);
    write(&repo, "staged_mod.txt", "v1\n");
    write(&repo, "unstaged_mod.txt", "v1\n");
    write(&repo, "both.txt", "v1\n");
    sb.git(&repo, &["add", "-A"]);
    sb.git(
        &repo,
        &[
            "submodule",
            "add",
            "-q",
            upstream.to_str().unwrap(),
            "libs/sub",
        ],
    );
    sb.git(&repo, &["commit", "-qm", "initial"]);

    // Staged.
    write(&repo, "staged_mod.txt", "v2\n");
    write(&repo, "new_staged.txt", "new\n");
    write(&repo, "both.txt", "v2\n");
    sb.git(
        &repo,
        &["add", "staged_mod.txt", "new_staged.txt", "both.txt"],
    );
    sb.git(&repo, &["rm", "-q", "to_delete.txt"]);
    std::fs::create_dir_all(repo.join("renamed dir")).unwrap();
    sb.git(&repo, &["mv", "to_rename.txt", "renamed dir/renamed ü.txt"]);
    // Unstaged.
    write(&repo, "unstaged_mod.txt", "v2\n");
    write(&repo, "both.txt", "v3\n");
    std::fs::remove_file(repo.join("worktree_deleted.txt")).unwrap();
    // CRLF file touched but unchanged in content (must not count as modified).
    write(&repo, "crlf.txt", "one\r\ntwo\r\n");
    // Untracked and ignored.
    write(&repo, "untracked.txt", "u\n");
    write(&repo, "new dir/with space ü.txt", "u\n");
    write(&repo, "ignored.log", "i\n");
    write(&repo, "build/out.o", "o\n");
    write(&repo, "dir/also.log", "i\n");
    // A nested, independent repository (untracked as a whole by the outer one).
    let nested = sb.init("repo/nestedrepo");
    write(&nested, "inside.txt", "n\n");
    sb.git(&nested, &["add", "-A"]);
    sb.git(&nested, &["commit", "-qm", "n"]);
    // Changes inside the submodule.
    let sub = repo.join("libs/sub");
    write(&sub, "lib.rs", "pub fn lib() { changed }\n");
    write(&sub, "staged_in_sub.rs", "// staged\n");
    sb.git(&sub, &["add", "staged_in_sub.rs"]);
    write(&sub, "untracked_in_sub.rs", "// untracked\n");
    repo
}

fn oracle_for(sb: &Sandbox, root: &Path, scope: &GitScope, subs: &[&str]) -> Oracle {
    let mut oracle = Oracle::default();
    let mut repos = vec![(root.to_path_buf(), String::new())];
    for s in subs {
        repos.push((root.join(s), format!("{s}/")));
    }
    for (dir, prefix) in &repos {
        oracle.add(prefix, git_staged(sb, dir));
        if *scope == GitScope::Changes {
            oracle.add(prefix, git_unstaged_untracked(sb, dir));
        }
    }
    for s in subs {
        oracle.remove(s); // the gitlink itself is not a file
    }
    oracle
}

#[test]
fn tracked_paths_match_ls_files_with_submodules() {
    let sb = Sandbox::new();
    let repo = kitchen_sink(&sb);
    let ours = tracked_paths(&repo).unwrap();
    let git = ls_files(&sb, &repo, &["--recurse-submodules"]);
    assert_eq!(ours, git);
    assert!(ours.contains("ünïcode/файл.txt"));
    assert!(ours.contains("renamed dir/renamed ü.txt"));
    assert!(ours.contains("libs/sub/inner/deep.rs"));
    assert!(!ours.contains("libs/sub"));
    assert!(!ours.contains("untracked.txt"));
    assert!(!ours.iter().any(|p| p.starts_with("nestedrepo")));
}

#[test]
fn staged_and_changes_match_git() {
    let sb = Sandbox::new();
    let repo = kitchen_sink(&sb);
    for scope in [GitScope::Staged, GitScope::Changes] {
        let ours = scope_paths(&repo, &scope).unwrap();
        let expected = oracle_for(&sb, &repo, &scope, &["libs/sub"]).selection(&repo);
        assert_eq!(ours, expected, "{scope}");
    }
    let staged = scope_paths(&repo, &GitScope::Staged).unwrap();
    assert!(staged.paths.contains("renamed dir/renamed ü.txt"));
    assert!(!staged.paths.contains("to_rename.txt"));
    assert!(staged.paths.contains("libs/sub/staged_in_sub.rs"));
    assert_eq!(staged.deleted, 1, "to_delete.txt");
    let changes = scope_paths(&repo, &GitScope::Changes).unwrap();
    for p in [
        "unstaged_mod.txt",
        "both.txt",
        "untracked.txt",
        "new dir/with space ü.txt",
        "libs/sub/lib.rs",
        "libs/sub/untracked_in_sub.rs",
    ] {
        assert!(changes.paths.contains(p), "{p}");
    }
    for p in [
        "ignored.log",
        "build/out.o",
        "dir/also.log",
        "crlf.txt",
        "a.txt",
    ] {
        assert!(!changes.paths.contains(p), "{p}");
    }
    assert_eq!(changes.deleted, 2, "to_delete.txt and worktree_deleted.txt");
}

#[test]
fn subfolder_root_is_relative_and_narrowed() {
    let sb = Sandbox::new();
    let repo = kitchen_sink(&sb);
    write(&repo, "dir/deep/untracked sub.txt", "x\n");
    write(&repo, "dir/deep/c.txt", "changed\n");
    let root = repo.join("dir");
    assert_eq!(tracked_paths(&root).unwrap(), ls_files(&sb, &root, &[]));
    for scope in [GitScope::Staged, GitScope::Changes] {
        let ours = scope_paths(&root, &scope).unwrap();
        let expected = oracle_for(&sb, &root, &scope, &[]).selection(&root);
        assert_eq!(ours, expected, "{scope}");
    }
    let changes = scope_paths(&root, &GitScope::Changes).unwrap();
    assert!(changes.paths.contains("deep/untracked sub.txt"));
    assert!(changes.paths.contains("deep/c.txt"));
    assert!(!changes.paths.iter().any(|p| p.contains("also.log")));
}

#[test]
fn diff_scope_matches_git_diff() {
    let sb = Sandbox::new();
    let repo = sb.init("repo");
    write(&repo, "keep.txt", "k\n");
    write(&repo, "mod.txt", "v1\n");
    write(&repo, "del.txt", "d\n");
    write(&repo, "old name.txt", RENAME_BODY);
    sb.git(&repo, &["add", "-A"]);
    sb.git(&repo, &["commit", "-qm", "one"]);
    sb.git(&repo, &["tag", "v1"]);
    let first = String::from_utf8(sb.git(&repo, &["rev-parse", "HEAD"])).unwrap();
    let first = first.trim();
    write(&repo, "mod.txt", "v2\n");
    sb.git(&repo, &["rm", "-q", "del.txt"]);
    std::fs::create_dir_all(repo.join("new")).unwrap();
    sb.git(&repo, &["mv", "old name.txt", "new/näme.txt"]);
    write(&repo, "added.txt", "a\n");
    write(&repo, "added_then_gone.txt", "a\n");
    sb.git(&repo, &["add", "-A"]);
    sb.git(&repo, &["commit", "-qm", "two"]);
    sb.git(&repo, &["checkout", "-q", "-b", "feature"]);
    write(&repo, "feature.txt", "f\n");
    sb.git(&repo, &["add", "-A"]);
    sb.git(&repo, &["commit", "-qm", "three"]);
    std::fs::remove_file(repo.join("added_then_gone.txt")).unwrap();

    let short = &first[..10];
    for (a, b) in [
        ("v1", "HEAD"),
        ("HEAD~2", "HEAD"),
        (first, "main"),
        (short, "feature"),
        ("main", "feature"),
        ("HEAD", "v1"),
    ] {
        let scope = GitScope::parse(&format!("diff:{a}..{b}")).unwrap();
        let ours = scope_paths(&repo, &scope).unwrap();
        let mut oracle = Oracle::default();
        oracle.add(
            "",
            name_status(&sb.git(&repo, &["diff", "--name-status", "-z", a, b])),
        );
        assert_eq!(ours, oracle.selection(&repo), "{scope}");
    }
    let sel = scope_paths(&repo, &GitScope::parse("diff:v1..HEAD").unwrap()).unwrap();
    assert!(sel.paths.contains("new/näme.txt"));
    assert!(!sel.paths.contains("old name.txt"));
    assert_eq!(sel.deleted, 2, "del.txt and added_then_gone.txt");

    let err = scope_paths(&repo, &GitScope::parse("diff:nope..HEAD").unwrap()).unwrap_err();
    assert_eq!(err.kind(), GitErrorKind::InvalidRef);
    assert!(err.to_string().contains("nope"));
    assert!(err.to_string().contains("HEAD~3"), "{err}");
}

#[test]
fn unborn_head() {
    let sb = Sandbox::new();
    let repo = sb.init("repo");
    write(&repo, "a.txt", "a\n");
    write(&repo, "b/c.txt", "c\n");
    write(&repo, "untracked.txt", "u\n");
    sb.git(&repo, &["add", "a.txt", "b/c.txt"]);
    let staged = scope_paths(&repo, &GitScope::Staged).unwrap();
    let expected: Vec<String> = vec!["a.txt".into(), "b/c.txt".into()];
    assert_eq!(staged.paths.into_iter().collect::<Vec<_>>(), expected);
    let changes = scope_paths(&repo, &GitScope::Changes).unwrap();
    assert!(changes.paths.contains("untracked.txt"));
    assert_eq!(changes.paths.len(), 3);
    let err = scope_paths(&repo, &GitScope::parse("diff:HEAD~1..HEAD").unwrap()).unwrap_err();
    assert_eq!(err.kind(), GitErrorKind::InvalidRef);
    assert!(err.to_string().contains("unborn"), "{err}");
    assert_eq!(tracked_paths(&repo).unwrap().len(), 2);
}

#[test]
fn non_git_project_is_an_error_not_empty() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.txt", "a\n");
    write(
        dir.path(),
        "one/two/three/four/.git/HEAD",
        "deeper than the search\n",
    );
    let err = tracked_paths(dir.path()).unwrap_err();
    assert_eq!(err.kind(), GitErrorKind::NotARepository);
    assert!(err.to_string().contains("tracked_only"), "{err}");
    let err = scope_paths(dir.path(), &GitScope::Changes).unwrap_err();
    assert_eq!(err.kind(), GitErrorKind::NotARepository);
}

#[test]
fn folder_of_repositories() {
    let sb = Sandbox::new();
    let a = sb.init("projects/a");
    write(&a, "x.txt", "x\n");
    sb.git(&a, &["add", "-A"]);
    sb.git(&a, &["commit", "-qm", "x"]);
    write(&a, "new.txt", "n\n");
    let b = sb.init("projects/group/b");
    write(&b, "y.txt", "y\n");
    sb.git(&b, &["add", "-A"]);
    write(
        &sb.path().join("projects"),
        "loose.txt",
        "not in any repo\n",
    );
    let root = sb.path().join("projects");
    let tracked: Vec<String> = tracked_paths(&root).unwrap().into_iter().collect();
    assert_eq!(
        tracked,
        vec!["a/x.txt".to_string(), "group/b/y.txt".to_string()]
    );
    let changes = scope_paths(&root, &GitScope::Changes).unwrap();
    let changed: Vec<&str> = changes.paths.iter().map(String::as_str).collect();
    assert_eq!(changed, vec!["a/new.txt", "group/b/y.txt"]);
}

#[test]
fn linked_worktree_uses_its_own_index() {
    let sb = Sandbox::new();
    let repo = sb.init("repo");
    write(&repo, "a.txt", "a\n");
    sb.git(&repo, &["add", "-A"]);
    sb.git(&repo, &["commit", "-qm", "a"]);
    let wt = sb.path().join("wt");
    sb.git(
        &repo,
        &["worktree", "add", "-q", "-b", "other", wt.to_str().unwrap()],
    );
    write(&wt, "only_in_wt.txt", "w\n");
    sb.git(&wt, &["add", "only_in_wt.txt"]);
    assert_eq!(tracked_paths(&wt).unwrap(), ls_files(&sb, &wt, &[]));
    assert!(!tracked_paths(&repo).unwrap().contains("only_in_wt.txt"));
    let staged = scope_paths(&wt, &GitScope::Staged).unwrap();
    assert!(staged.paths.contains("only_in_wt.txt"));
}

#[test]
fn scope_parsing() {
    assert_eq!(GitScope::parse("staged").unwrap(), GitScope::Staged);
    assert_eq!(GitScope::parse("changes").unwrap(), GitScope::Changes);
    assert_eq!(
        GitScope::parse("diff:main..HEAD~3").unwrap(),
        GitScope::Diff {
            from: "main".into(),
            to: "HEAD~3".into()
        }
    );
    for bad in [
        "",
        "Staged",
        " staged",
        "diff:",
        "diff:main",
        "diff:..HEAD",
        "diff:main..",
        "diff:a...b",
        "diff:-x..HEAD",
        "diff:a b..HEAD",
        "unstaged",
    ] {
        let err = GitScope::parse(bad).unwrap_err();
        assert_eq!(err.kind(), GitErrorKind::InvalidScope, "{bad:?}");
        assert!(err.to_string().contains("diff:<ref>..<ref>"), "{err}");
    }
    // 4,096 Unicode scalar values is the limit, counted as characters, not bytes.
    let at_limit = format!("diff:{}..b", "é".repeat(4096 - 8));
    assert_eq!(at_limit.chars().count(), 4096);
    assert!(GitScope::parse(&at_limit).is_ok());
    let over = format!("diff:{}..b", "é".repeat(4096 - 7));
    assert_eq!(
        GitScope::parse(&over).unwrap_err().kind(),
        GitErrorKind::InvalidScope
    );
    assert_eq!(
        GitScope::parse("diff:v1.0..HEAD").unwrap().to_string(),
        "diff:v1.0..HEAD"
    );
}

#[test]
fn untracked_listing_ignores_show_untracked_files_config() {
    let sb = Sandbox::new();
    let repo = sb.init("repo");
    write(&repo, "a.txt", "a\n");
    sb.git(&repo, &["add", "-A"]);
    sb.git(&repo, &["commit", "-qm", "a"]);
    sb.git(&repo, &["config", "status.showUntrackedFiles", "no"]);
    write(&repo, "new/deeper/file.txt", "n\n");
    let changes = scope_paths(&repo, &GitScope::Changes).unwrap();
    assert_eq!(
        changes.paths.into_iter().collect::<Vec<_>>(),
        vec!["new/deeper/file.txt".to_string()]
    );
}

#[test]
fn bare_repository_and_git_dir_are_unavailable() {
    let sb = Sandbox::new();
    let repo = sb.init("repo");
    write(&repo, "a.txt", "a\n");
    sb.git(&repo, &["add", "-A"]);
    sb.git(&repo, &["commit", "-qm", "a"]);
    let bare = sb.path().join("bare.git");
    sb.git(
        sb.path(),
        &[
            "clone",
            "-q",
            "--bare",
            repo.to_str().unwrap(),
            bare.to_str().unwrap(),
        ],
    );
    for root in [bare, repo.join(".git")] {
        let err = tracked_paths(&root).unwrap_err();
        assert_eq!(
            err.kind(),
            GitErrorKind::StateUnavailable,
            "{}: {err}",
            root.display()
        );
        assert!(err.to_string().contains("working tree"), "{err}");
    }
    let err = tracked_paths(&sb.path().join("missing")).unwrap_err();
    assert_eq!(err.kind(), GitErrorKind::StateUnavailable);
}

/// A history with a merge, tags, a remote-tracking branch and a hex-named branch.
fn revision_repo(sb: &Sandbox) -> std::path::PathBuf {
    let repo = sb.init("revs");
    write(&repo, "a.txt", "1\n");
    write(&repo, "dir/b.txt", "1\n");
    sb.git(&repo, &["add", "-A"]);
    sb.git(&repo, &["commit", "-qm", "first: the secret plan"]);
    sb.git(&repo, &["tag", "light"]);
    sb.git(&repo, &["tag", "-a", "-m", "annotated", "v1.0"]);
    sb.git(&repo, &["checkout", "-q", "-b", "side"]);
    write(&repo, "side.txt", "s\n");
    sb.git(&repo, &["add", "-A"]);
    sb.git(&repo, &["commit", "-qm", "side"]);
    sb.git(&repo, &["checkout", "-q", "main"]);
    write(&repo, "a.txt", "2\n");
    sb.git(&repo, &["commit", "-qam", "second"]);
    sb.git(&repo, &["merge", "-q", "--no-ff", "-m", "merge", "side"]);
    write(&repo, "dir/b.txt", "3\n");
    sb.git(&repo, &["commit", "-qam", "third"]);
    let first = rev(sb, &repo, "main~2^1");
    sb.git(&repo, &["update-ref", "refs/remotes/origin/main", &first]);
    sb.git(&repo, &["branch", "cafe", "side"]);
    repo
}

fn rev(sb: &Sandbox, repo: &Path, spec: &str) -> String {
    String::from_utf8(sb.git(repo, &["rev-parse", "--verify", "-q", spec]))
        .unwrap()
        .trim()
        .to_owned()
}

#[test]
fn diff_scope_accepts_names_ids_and_steps_like_git() {
    let sb = Sandbox::new();
    let repo = revision_repo(&sb);
    let head = rev(&sb, &repo, "HEAD");
    let side = rev(&sb, &repo, "side");
    let upper_short = side[..8].to_ascii_uppercase();
    for (a, b) in [
        ("light", "HEAD"),
        ("v1.0", "main"),
        ("refs/tags/v1.0", "refs/heads/main"),
        ("heads/side", "tags/light"),
        ("origin/main", "HEAD"),
        (head.as_str(), "light"),
        (&head[..7], "side"),
        (upper_short.as_str(), "HEAD"),
        ("cafe", "HEAD"), // a branch wins over a commit id prefix, as in Git
        ("HEAD~1", "HEAD"),
        ("HEAD~", "HEAD^"),
        ("HEAD~1^2", "HEAD"),
        ("main^1^1", "HEAD~1^2"),
        ("HEAD~3", "HEAD^0"),
        ("v1.0^0", "side~1"),
    ] {
        let scope =
            GitScope::parse(&format!("diff:{a}..{b}")).unwrap_or_else(|e| panic!("{a}..{b}: {e}"));
        let ours = scope_paths(&repo, &scope).unwrap_or_else(|e| panic!("{scope}: {e}"));
        let mut oracle = Oracle::default();
        oracle.add(
            "",
            name_status(&sb.git(&repo, &["diff", "--name-status", "-z", a, b])),
        );
        assert_eq!(ours, oracle.selection(&repo), "{scope}");
    }
}

#[test]
fn diff_scope_refuses_other_revision_syntax() {
    let sb = Sandbox::new();
    let repo = revision_repo(&sb);
    // Each of these is a valid Git revision here (checked below), and reveals something the
    // scope must not: commit messages, paths and blob ids, reflogs, or more than two trees.
    let refused = [
        (":/secret plan", "commit messages"),
        ("HEAD^{/secret}", "commit messages"),
        ("HEAD:dir", "REV:path"),
        ("HEAD:a.txt", "REV:path"),
        (":a.txt", "REV:path"),
        (":0:a.txt", "REV:path"),
        ("HEAD@{0}", "reflog"),
        ("@{-1}", "reflog"),
        ("main@{1}", "reflog"),
        ("HEAD^{tree}", "peel"),
        ("v1.0^{}", "peel"),
        ("HEAD^{commit}", "peel"),
        ("@", "`@`"),
        ("@~1", "`@`"),
        ("HEAD^!", "range"),
        ("HEAD^@", "range"),
        ("HEAD^-1", "range"),
        ("^HEAD", "does not start"),
        ("~1", "does not start"),
    ];
    for (spec, why) in refused {
        let git_accepts = sb
            .git_cmd(&repo)
            .args(["rev-parse", spec])
            .output()
            .unwrap()
            .status
            .success();
        assert!(
            git_accepts || spec == "~1",
            "{spec} is a revision Git accepts here"
        );
        for scope in [format!("diff:{spec}..HEAD"), format!("diff:HEAD..{spec}")] {
            let err = GitScope::parse(&scope).unwrap_err();
            assert_eq!(err.kind(), GitErrorKind::InvalidScope, "{scope}");
            let msg = err.to_string();
            assert!(msg.contains(why), "{scope}: {msg}");
            assert!(msg.contains("~N") && msg.contains("abbreviated"), "{msg}");
        }
    }
    // ranges inside a side, and junk after the steps
    for scope in [
        "diff:HEAD..main..side",
        "diff:HEAD~1x..HEAD",
        "diff:HEAD~999999999..HEAD",
    ] {
        let err = GitScope::parse(scope).unwrap_err();
        assert_eq!(err.kind(), GitErrorKind::InvalidScope, "{scope}");
    }
    // pseudo-refs other than HEAD are not names, even when they exist
    sb.git(&repo, &["reset", "-q", "--hard", "HEAD"]);
    assert!(!rev(&sb, &repo, "ORIG_HEAD").is_empty());
    let scope = GitScope::parse("diff:ORIG_HEAD..HEAD").unwrap();
    assert_eq!(
        scope_paths(&repo, &scope).unwrap_err().kind(),
        GitErrorKind::InvalidRef
    );
}

#[test]
fn diff_scope_errors_say_what_exists() {
    let sb = Sandbox::new();
    let repo = revision_repo(&sb);
    let cases = [
        ("diff:HEAD~9..HEAD", "only 3 commits precede `HEAD`"),
        ("diff:HEAD~1^3..HEAD", "`HEAD~1` has 2 parents"),
        ("diff:light^2..HEAD", "`light` is a root commit"),
        (
            "diff:light~1..HEAD",
            "`light` is a root commit (nothing precedes it)",
        ),
        ("diff:side^2..HEAD", "`side` has 1 parent"),
        ("diff:nope..HEAD", "names no branch, tag or commit"),
        ("diff:ffff..HEAD", "names no branch, tag or commit"),
    ];
    for (scope, expected) in cases {
        let err = scope_paths(&repo, &GitScope::parse(scope).unwrap()).unwrap_err();
        assert_eq!(err.kind(), GitErrorKind::InvalidRef, "{scope}");
        let msg = err.to_string();
        assert!(msg.contains(expected), "{scope}: {msg}");
        for internal in ["delegate", "NthAncestor", "traverse", "Traversal"] {
            assert!(!msg.contains(internal), "{scope}: {msg}");
        }
    }
    // A shallow clone names its missing history as such.
    let shallow = sb.path().join("shallow");
    sb.git(
        sb.path(),
        &[
            "clone",
            "-q",
            "--depth=1",
            &format!("file://{}", repo.display()),
            shallow.to_str().unwrap(),
        ],
    );
    let err = scope_paths(&shallow, &GitScope::parse("diff:HEAD~1..HEAD").unwrap()).unwrap_err();
    assert_eq!(err.kind(), GitErrorKind::InvalidRef);
    assert!(err.to_string().contains("shallow clone"), "{err}");
}
