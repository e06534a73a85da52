//! Remote sources and Git scopes attacked through the real binary (MCP over stdio):
//! - `file://` sources never expand the root jail (`.git` files and links, alternates, a sibling
//!   `<root>.git`, the server's own `GIT_*` environment), and a checkout's symbolic link out of
//!   the root is not readable;
//! - no error shows the RepoCache path;
//! - SCP-style `user:password@host:path` is refused and never dialled;
//! - `git_scope` takes only plain revisions, and every Git error has a `DPX-MCP-*` code.
//!
//! The Git layouts one by one are tested in `crates/devprojex-git/tests/file_jail.rs`.

use std::path::{Path, PathBuf};
use std::process::Command;

#[cfg(unix)]
use crate::common;
use crate::common::{Fixture, Mcp, one_spot};
use serde_json::{Value, json};

const SECRET: &str = "TOP SECRET outside the root";

/// `<tmp>/proj` is the configured root; `<tmp>/outside/sec` a repository beside it holding the
/// secret; `<tmp>/cache` the RepoCache; `<tmp>/home` an empty home for Git.
struct Setup {
    fx: Fixture,
    outside: PathBuf,
    cache: PathBuf,
    home: PathBuf,
}

fn setup() -> Setup {
    let fx = Fixture::new();
    let base = fx.base();
    let home = base.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let cache = base.join("cache");
    let outside = base.join("outside/sec");
    std::fs::create_dir_all(&outside).unwrap();
    let s = Setup {
        fx,
        outside,
        cache,
        home,
    };
    s.git(&s.outside, &["init", "-q"]);
    std::fs::write(s.outside.join("secret.txt"), format!("{SECRET}\n")).unwrap();
    s.git(&s.outside, &["add", "-A"]);
    s.git(&s.outside, &["commit", "-qm", "secret"]);
    s
}

impl Setup {
    fn git(&self, cwd: &Path, args: &[&str]) -> String {
        let out = Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t.invalid",
                "-c",
                "commit.gpgsign=false",
                "-c",
                "init.defaultBranch=main",
            ])
            .args(args)
            .current_dir(cwd)
            .env("HOME", &self.home)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .output()
            .expect("git runs");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    }

    /// A repository `<root>/<rel>` with `inside.txt` committed.
    fn inside_repo(&self, rel: &str) -> PathBuf {
        let dir = self.fx.path(rel);
        std::fs::create_dir_all(&dir).unwrap();
        self.git(&dir, &["init", "-q"]);
        std::fs::write(dir.join("inside.txt"), "inside\n").unwrap();
        self.git(&dir, &["add", "-A"]);
        self.git(&dir, &["commit", "-qm", "inside"]);
        dir
    }

    fn server(&self, extra_env: &[(&str, &str)]) -> Mcp {
        self.server_for(&self.fx.root, extra_env)
    }

    fn server_for(&self, root: &Path, extra_env: &[(&str, &str)]) -> Mcp {
        let mut env: Vec<(&str, &str)> = vec![
            ("DEVPROJEX_CACHE_DIR", self.cache.to_str().unwrap()),
            ("HOME", self.home.to_str().unwrap()),
            ("GIT_CONFIG_NOSYSTEM", "1"),
        ];
        env.extend_from_slice(extra_env);
        Mcp::start_with(&["--root", root.to_str().unwrap(), "--allow-remote"], &env)
    }
}

fn url(dir: &Path) -> String {
    format!("file://{}", dir.display())
}

/// A refusal that reveals nothing from outside the root.
fn assert_jailed(s: &Setup, text: &str) {
    assert!(
        text.starts_with("DPX-MCP-ROOT-VIOLATION:"),
        "refused as a root violation: {text}"
    );
    assert!(!text.contains(SECRET), "{text}");
    assert!(!text.contains("outside/sec"), "no outside path: {text}");
    assert!(!text.contains(&*s.cache.to_string_lossy()), "{text}");
}

#[test]
fn file_sources_whose_git_data_lies_outside_are_refused() {
    let s = setup();
    // an in-root folder whose `.git` file names the outside repository
    let gitfile = s.fx.path("gitfile");
    std::fs::create_dir_all(&gitfile).unwrap();
    std::fs::write(
        gitfile.join(".git"),
        format!("gitdir: {}\n", s.outside.join(".git").display()),
    )
    .unwrap();
    // an in-root repository that borrows every object from outside
    let borrower = s.fx.path("borrower");
    std::fs::create_dir_all(&borrower).unwrap();
    s.git(&borrower, &["init", "-q"]);
    std::fs::write(
        borrower.join(".git/objects/info/alternates"),
        format!("{}\n", s.outside.join(".git/objects").display()),
    )
    .unwrap();
    let secret_commit = s.git(&s.outside, &["rev-parse", "HEAD"]);
    s.git(
        &borrower,
        &["update-ref", "refs/heads/main", &secret_commit],
    );
    #[cfg_attr(not(unix), allow(unused_mut))]
    let mut layouts = vec![gitfile, borrower];
    #[cfg(unix)]
    {
        let linked = s.fx.path("linked");
        std::fs::create_dir_all(&linked).unwrap();
        common::symlink(s.outside.join(".git"), linked.join(".git"));
        layouts.push(linked);
    }

    let mut mcp = s.server(&[]);
    for dir in &layouts {
        for (tool, args) in [
            (
                "get_file",
                json!({"project": url(dir), "path": "secret.txt"}),
            ),
            ("get_tree", json!({"project": url(dir)})),
            (
                "search_project",
                json!({"project": url(dir), "pattern": "TOP SECRET"}),
            ),
        ] {
            let text = mcp.call_err(tool, args);
            assert_jailed(&s, &text);
        }
    }
}

#[test]
fn a_root_without_a_repository_never_falls_back_to_its_sibling() {
    // Git's lookup of `<dir>` tries `<dir>.git` next: beside the root, outside it.
    let s = setup();
    s.fx.write("readme.txt", "no repository here\n");
    let sibling = s.fx.base().join("proj.git");
    s.git(
        &s.fx.base(),
        &[
            "clone",
            "-q",
            "--bare",
            s.outside.to_str().unwrap(),
            sibling.to_str().unwrap(),
        ],
    );
    let mut mcp = s.server(&[]);
    let text = mcp.call_err(
        "get_file",
        json!({"project": url(&s.fx.root), "path": "secret.txt"}),
    );
    assert!(
        text.starts_with("DPX-MCP-INVALID-ARGUMENTS:") && text.contains("not a Git repository"),
        "{text}"
    );
    assert!(!text.contains(SECRET), "{text}");
}

#[test]
fn the_servers_git_environment_never_reaches_the_clone() {
    let s = setup();
    let repo = s.inside_repo("repo");
    let outside_git = s.outside.join(".git");
    let config_before = std::fs::read(outside_git.join("config")).unwrap();
    let objects_before = count_files(&outside_git.join("objects"));
    let git_dir = outside_git.to_str().unwrap().to_owned();
    let objects = outside_git.join("objects").to_str().unwrap().to_owned();
    let mut mcp = s.server(&[
        ("GIT_COMMON_DIR", &git_dir),
        ("GIT_DIR", &git_dir),
        ("GIT_OBJECT_DIRECTORY", &objects),
        ("GIT_ALTERNATE_OBJECT_DIRECTORIES", &objects),
        ("GIT_INDEX_FILE", "/dev/null"),
    ]);
    let text = mcp.call_ok(
        "get_file",
        json!({"project": url(&repo), "path": "inside.txt"}),
    );
    assert_eq!(one_spot(&text).inner.trim_end(), "inside");
    // nothing was written into the repository the variables name
    assert_eq!(
        std::fs::read(outside_git.join("config")).unwrap(),
        config_before,
        "the outside repository's config is untouched"
    );
    assert_eq!(count_files(&outside_git.join("objects")), objects_before);
}

fn count_files(dir: &Path) -> usize {
    let mut n = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            } else {
                n += 1;
            }
        }
    }
    n
}

/// A repository in the root whose tree has `leak -> <outside>/secret.txt`, `ok.txt`, and a
/// `dir/` folder.
#[cfg(unix)]
fn repo_with_outside_link(s: &Setup) -> PathBuf {
    let repo = s.fx.path("linkrepo");
    std::fs::create_dir_all(repo.join("dir")).unwrap();
    s.git(&repo, &["init", "-q"]);
    std::fs::write(repo.join("ok.txt"), "fine\n").unwrap();
    std::fs::write(repo.join("dir/a.txt"), "a\n").unwrap();
    common::symlink(s.outside.join("secret.txt"), repo.join("leak"));
    s.git(&repo, &["add", "-A"]);
    s.git(&repo, &["commit", "-qm", "with a link out"]);
    repo
}

#[cfg(unix)]
#[test]
fn a_checkouts_link_out_of_the_root_is_not_readable() {
    let s = setup();
    let repo = repo_with_outside_link(&s);
    let project = url(&repo);
    let mut mcp = s.server(&[]);
    let text = mcp.call_err("get_file", json!({"project": project, "path": "leak"}));
    assert_jailed(&s, &text);
    assert!(
        text.contains(&project),
        "names the project by its URL: {text}"
    );
    let result = mcp.call(
        "search_project",
        json!({"project": project, "pattern": "TOP SECRET"}),
    );
    assert!(
        !result.to_string().contains(SECRET),
        "search never reads it: {result}"
    );
    let result = mcp.call(
        "pack_context",
        json!({"project": project, "paths": ["leak", "ok.txt"]}),
    );
    assert!(!result.to_string().contains(SECRET), "{result}");
}

#[cfg(unix)]
#[test]
fn remote_errors_never_show_the_cache_path() {
    let s = setup();
    let repo = repo_with_outside_link(&s);
    let project = url(&repo);
    let mut mcp = s.server(&[]);
    let calls = [
        ("get_file", json!({"path": "../escape.txt"})),
        ("get_file", json!({"path": "/etc/hostname"})),
        ("get_file", json!({"path": "leak"})),
        ("get_file", json!({"path": "missing.txt"})),
        ("get_file", json!({"path": "dir"})),
        ("get_file", json!({"path": "."})),
        ("get_file", json!({"path": "ok.txt", "start_line": 9})),
        ("pack_context", json!({"paths": ["../escape.txt"]})),
        ("pack_context", json!({"paths": ["missing.txt"]})),
        ("analyze", json!({"paths": ["dir/../../x"]})),
        ("analyze", json!({"profile": "../profile.json"})),
        ("analyze", json!({"profile": "missing.json"})),
        ("get_tree", json!({"git_scope": "diff:HEAD~3..HEAD"})),
        ("get_tree", json!({"git_scope": "diff:nope..HEAD"})),
        ("get_tree", json!({"tracked_only": true})),
        ("get_tree", json!({"include_patterns": ["[z-a]"]})),
        ("search_project", json!({"pattern": "("})),
        (
            "get_file",
            json!({"path": "ok.txt", "branch": "no-such-branch"}),
        ),
    ];
    let cache = s.cache.to_string_lossy().into_owned();
    let mut errors = 0;
    for (tool, mut args) in calls {
        args["project"] = json!(project);
        let result = mcp.call(tool, args.clone());
        let text = result.to_string();
        if result["isError"] == json!(true) {
            errors += 1;
        }
        for local in [cache.as_str(), "/repos/v1/", "/co-", "clone-"] {
            assert!(
                !text.contains(local),
                "{tool} {args}: shows `{local}`: {text}"
            );
        }
    }
    assert!(errors >= 14, "the calls above fail: {errors}");
    // and the tree's root line is the URL
    let text = mcp.call_ok("get_tree", json!({"project": project, "format": "text"}));
    assert!(text.contains(&project), "{text}");
    assert!(!text.contains(&cache), "{text}");
}

#[test]
fn scp_style_credentials_are_refused_and_never_dialled() {
    let s = setup();
    let log = s.fx.base().join("ssh.log");
    let ssh = s.fx.base().join("fake-ssh.sh");
    std::fs::write(
        &ssh,
        format!("#!/bin/sh\necho \"$@\" >> '{}'\nexit 1\n", log.display()),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&ssh, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let input = "alice:hunter2@git.example.invalid:org/repo.git";
    let mut mcp = s.server(&[("GIT_SSH_COMMAND", ssh.to_str().unwrap())]);
    let text = mcp.call_err("get_tree", json!({"project": input}));
    assert!(text.starts_with("DPX-MCP-INVALID-ARGUMENTS:"), "{text}");
    assert!(text.contains("password"), "{text}");
    assert!(
        !text.contains("hunter2") && !text.contains("alice"),
        "no credential part: {text}"
    );
    assert!(text.contains("git.example.invalid:org/repo.git"), "{text}");
    assert!(
        !log.exists(),
        "ssh was started: {:?}",
        std::fs::read_to_string(&log)
    );
    drop(mcp);

    // without --allow-remote the refusal shows the credential-free form too
    let mut plain = Mcp::start(&s.fx.root);
    let text = plain.call_err("get_tree", json!({"project": input}));
    assert!(text.starts_with("DPX-MCP-REMOTE-DISABLED:"), "{text}");
    assert!(
        !text.contains("hunter2") && !text.contains("alice"),
        "{text}"
    );
}

/// A local repository with three commits; the first one's message is a secret.
fn history(s: &Setup) -> PathBuf {
    let root = &s.fx.root;
    s.git(root, &["init", "-q"]);
    std::fs::create_dir_all(root.join("dir")).unwrap();
    std::fs::write(root.join("dir/a.txt"), "1\n").unwrap();
    s.git(root, &["add", "-A"]);
    s.git(root, &["commit", "-qm", "password is swordfish"]);
    std::fs::write(root.join("b.txt"), "2\n").unwrap();
    s.git(root, &["add", "-A"]);
    s.git(root, &["commit", "-qm", "second"]);
    std::fs::write(root.join("c.txt"), "3\n").unwrap();
    s.git(root, &["add", "-A"]);
    s.git(root, &["commit", "-qm", "third"]);
    root.clone()
}

fn tree_files(text: &str) -> Vec<String> {
    let value: Value = serde_json::from_str(&one_spot(text).inner).unwrap();
    value["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "file")
        .map(|e| e["path"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn git_scope_takes_plain_revisions_only_and_git_errors_have_mcp_codes() {
    let s = setup();
    let root = history(&s);
    let head = s.git(&root, &["rev-parse", "HEAD"]);
    let mut mcp = Mcp::start(&root);
    // accepted: names, ids, HEAD, ~N and ^N
    for (scope, expected) in [
        ("diff:HEAD~1..HEAD", vec!["c.txt"]),
        ("diff:HEAD^^..HEAD", vec!["b.txt", "c.txt"]),
        (&format!("diff:{}..main", &head[..7]), vec![]),
        ("diff:main~2..HEAD^", vec!["b.txt"]),
    ] {
        let text = mcp.call_ok("get_tree", json!({"git_scope": scope, "format": "json"}));
        assert_eq!(tree_files(&text), expected, "{scope}");
    }
    // refused before any repository access, with the MCP code
    for scope in [
        "diff:HEAD~2..:/swordfish",
        "diff:HEAD~2..HEAD^{/swordfish}",
        "diff:HEAD~2..HEAD:dir",
        "diff:HEAD@{1}..HEAD",
        "diff:HEAD^{tree}..HEAD",
        "diff:HEAD..main..HEAD",
        "diff:@..HEAD",
    ] {
        let text = mcp.call_err("get_tree", json!({"git_scope": scope}));
        assert!(
            text.starts_with("DPX-MCP-INVALID-ARGUMENTS: invalid git_scope:"),
            "{scope}: {text}"
        );
        assert!(text.contains("~N"), "says what is valid: {text}");
    }
    // a revision that names nothing, or a walk past the root commit
    let text = mcp.call_err(
        "search_project",
        json!({"pattern": "x", "git_scope": "diff:nope..HEAD"}),
    );
    assert!(text.starts_with("DPX-MCP-INVALID-ARGUMENTS:"), "{text}");
    assert!(text.contains("names no branch, tag or commit"), "{text}");
    let text = mcp.call_err("analyze", json!({"git_scope": "diff:HEAD~5..HEAD"}));
    assert!(text.starts_with("DPX-MCP-INVALID-ARGUMENTS:"), "{text}");
    assert!(text.contains("only 2 commits precede `HEAD`"), "{text}");
    assert!(
        !text.contains("delegate") && !text.contains("NthAncestor"),
        "{text}"
    );
    drop(mcp);

    // a project without Git (`tracked_only` there is tests/git_engine.rs)
    let plain = Fixture::new();
    plain.write("a.txt", "a\n");
    let mut mcp = Mcp::start(&plain.root);
    let text = mcp.call_err("get_tree", json!({"git_scope": "diff:a..b"}));
    assert!(text.contains("not inside a Git working tree"), "{text}");
    assert!(text.starts_with("DPX-MCP-INVALID-ARGUMENTS:"), "{text}");
}
