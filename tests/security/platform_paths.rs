//! Paths as users and agents type them on each platform, through the real binary: `project`
//! is matched without touching the file system, a root's other spellings are accepted, network
//! `file://` sources are refused before anything resolves them, and (on the platforms that have
//! them) case-insensitive names, `/private` aliases and Windows device names.

use std::path::Path;
use std::process::Command;

use crate::common::{self, Fixture, Mcp, code_of, git, one_spot};
use serde_json::json;

/// `project` strings that only the file system could match (a link to the root) match nothing;
/// spellings of a root's path match it; network forms are unknown projects, answered at once.
#[test]
fn project_is_matched_lexically() {
    let a = Fixture::named("alpha");
    a.write("a.txt", "a\n");
    let b = Fixture::named("beta");
    b.write("b.txt", "b\n");
    let mut mcp = Mcp::start_with(&["--root", &a.root_str(), "--root", &b.root_str()], &[]);
    let sep = std::path::MAIN_SEPARATOR;
    for spelling in [
        b.root_str(),
        format!("{}{sep}", b.root_str()),
        format!("{}{sep}.", b.root_str()),
        format!("{}{sep}..{sep}beta", b.root_str()),
    ] {
        let text = mcp.call_ok("get_file", json!({"project": spelling, "path": "b.txt"}));
        assert_eq!(one_spot(&text).inner, "b\n", "{spelling}");
    }
    for value in [
        r"\\attacker.invalid\share",
        "//attacker.invalid/share",
        r"\\?\UNC\attacker.invalid\share",
        r"\\.\pipe\devprojex",
        "/net/attacker.invalid/export",
    ] {
        let started = std::time::Instant::now();
        let text = mcp.call_err("get_tree", json!({"project": value}));
        assert_eq!(code_of(&text), "DPX-MCP-UNKNOWN-PROJECT", "{value}: {text}");
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{value} took {:?}",
            started.elapsed()
        );
    }
}

/// A link to a root is not the root: resolving it would be a file-system call on a caller
/// string (and on Windows and macOS, the same call reaches SMB and autofs).
#[cfg(unix)]
#[test]
fn a_link_to_a_root_does_not_name_it() {
    let a = Fixture::named("alpha");
    a.write("a.txt", "a\n");
    let b = Fixture::named("beta");
    b.write("b.txt", "b\n");
    let link = a.base().join("beta-link");
    common::symlink(&b.root, &link);
    let mut mcp = Mcp::start_with(&["--root", &a.root_str(), "--root", &b.root_str()], &[]);
    let text = mcp.call_err(
        "get_file",
        json!({"project": link.to_str().unwrap(), "path": "b.txt"}),
    );
    assert_eq!(code_of(&text), "DPX-MCP-UNKNOWN-PROJECT", "{text}");
}

/// A root given through a link is stored as its real path, and both spellings work for
/// `project` and for absolute paths (on macOS `/tmp/x` is stored as `/private/tmp/x`).
#[cfg(unix)]
#[test]
fn a_root_configured_through_a_link_accepts_that_spelling() {
    let fx = Fixture::named("real");
    fx.write("src/a.txt", "a\n");
    let link = fx.base().join("typed");
    common::symlink(&fx.root, &link);
    let typed = link.to_str().unwrap().to_string();
    let mut mcp = Mcp::start_with(&["--root", &typed], &[]);
    let listed = mcp.call("list_projects", json!({}));
    assert_eq!(
        listed["structuredContent"]["projects"][0]["path"],
        fx.root_str()
    );
    for path in [
        format!("{typed}/src/a.txt"),
        format!("{}/src/a.txt", fx.root_str()),
    ] {
        let text = mcp.call_ok("get_file", json!({"project": typed, "path": path}));
        assert_eq!(one_spot(&text).inner, "a\n", "{path}");
    }
    let text = mcp.call_ok("pack_context", json!({"paths": [format!("{typed}/src")]}));
    assert!(text.contains("src/a.txt"), "{text}");
}

/// `file://` sources on a share or automount are refused before devprojex-git resolves them.
#[test]
fn network_file_urls_are_refused_before_resolution() {
    let fx = Fixture::new();
    fx.write("a.txt", "a\n");
    let mut mcp = Mcp::start_with(&["--root", &fx.root_str(), "--allow-remote"], &[]);
    for url in [
        "file:////attacker.invalid/share/repo",
        "file:///%5C%5Cattacker.invalid%5Cshare",
        "file:///net/attacker.invalid/export/repo",
    ] {
        let text = mcp.call_err("get_tree", json!({"project": url}));
        assert_eq!(code_of(&text), "DPX-MCP-ROOT-VIOLATION", "{url}: {text}");
        assert!(text.contains("network or device path"), "{url}: {text}");
    }
}

/// With `core.ignorecase=true` (Git's setting on macOS and Windows), a file the index spells
/// `src/Main.rs` and the folder lists as `src/main.rs` is the tracked file.
#[test]
fn tracked_files_match_the_index_ignoring_case_like_git() {
    let fx = Fixture::new();
    fx.write("src/Main.rs", "fn main() {}\n")
        .write("other.txt", "o\n");
    git(&fx.root, &["init", "-q"]);
    git(&fx.root, &["config", "core.ignorecase", "true"]);
    git(&fx.root, &["add", "src/Main.rs"]);
    git(&fx.root, &["commit", "-qm", "init"]);
    // Renamed in another case outside Git, as an editor on a case-insensitive volume does.
    std::fs::rename(fx.path("src/Main.rs"), fx.path("src/tmp.rs")).unwrap();
    std::fs::rename(fx.path("src/tmp.rs"), fx.path("src/main.rs")).unwrap();
    let out = common::run(
        &["tree", ".", "--tracked-only", "--format", "text"],
        &fx.root,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("main.rs"), "{stdout}");
    assert!(!stdout.contains("other.txt"), "{stdout}");
    // Without ignorecase, Git (and devprojex) see an untracked file.
    git(&fx.root, &["config", "core.ignorecase", "false"]);
    let out = common::run(
        &["tree", ".", "--tracked-only", "--format", "text"],
        &fx.root,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("main.rs"), "{stdout}");
}

/// Run the CLI in `cwd` with Git's user-level files at `home` (never the machine's own).
fn run_at_home(args: &[&str], cwd: &Path, home: &Path) -> std::process::Output {
    Command::new(common::bin())
        .args(args)
        .current_dir(cwd)
        .envs(home_env(home))
        .env("DEVPROJEX_CONFIG_DIR", home.join("devprojex"))
        .env_remove("DEVPROJEX_ROOT")
        .env_remove("CLAUDE_PROJECT_DIR")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("devprojex runs")
}

fn home_env(home: &Path) -> Vec<(&'static str, std::path::PathBuf)> {
    vec![
        ("HOME", home.to_path_buf()),
        ("XDG_CONFIG_HOME", home.join(".config")),
        ("GIT_CONFIG_GLOBAL", home.join(".gitconfig")),
        ("GIT_CONFIG_NOSYSTEM", "1".into()),
    ]
}

/// The files Git itself lists in `cwd`: untracked ones that no ignore rule excludes.
fn files_git_lists(cwd: &Path, home: &Path) -> std::collections::BTreeSet<String> {
    let out = Command::new("git")
        .args(["ls-files", "--others", "--exclude-standard"])
        .current_dir(cwd)
        .envs(home_env(home))
        .output()
        .expect("git runs");
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The files of `devprojex tree` and of `devprojex pack` in `cwd`.
fn files_devprojex_lists(
    cwd: &Path,
    home: &Path,
) -> (
    std::collections::BTreeSet<String>,
    std::collections::BTreeSet<String>,
) {
    let json_of = |args: &[&str]| -> serde_json::Value {
        let out = run_at_home(args, cwd, home);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{args:?}: {stdout}");
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{args:?} ({e}): {stdout}"))
    };
    let tree = json_of(&["tree", ".", "--format", "json"]);
    let tree_files = tree["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .filter(|e| e["type"] == "file")
        .map(|e| e["path"].as_str().unwrap().to_string())
        .collect();
    let pack = json_of(&["pack", ".", "--format", "json"]);
    let packed = pack["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_string())
        .collect();
    (tree_files, packed)
}

/// Every kind of ignore file (the root's and a nested `.gitignore`, one above the root,
/// `info/exclude` and the global excludes file) matches names in another case exactly when
/// the repository sets `core.ignorecase`, as Git on macOS and Windows does: tree and pack list
/// what `git ls-files --others --exclude-standard` lists, for both settings.
#[test]
fn ignore_rules_match_another_case_with_core_ignorecase_like_git() {
    let fx = Fixture::new();
    let top = fx.base();
    let home = top.join("home");
    common::write_file(&home.join("global-excludes"), "*.BAK\n");
    common::write_file(
        &home.join(".gitconfig"),
        format!(
            "[core]\n\texcludesFile = {}\n",
            // Forward slashes: Git reads a backslash in a config value as an escape.
            home.join("global-excludes")
                .display()
                .to_string()
                .replace('\\', "/")
        ),
    );
    // The repository is the project's parent, so one `.gitignore` lies above the root.
    git(&top, &["init", "-q"]);
    common::write_file(&top.join(".gitignore"), "PARENT-*.txt\nhome/\n");
    common::write_file(&top.join(".git/info/exclude"), "EXCLUDED.md\n");
    fx.write(".gitignore", "*.LOG\nBuild/\nnested/deep/*.TMP\n")
        .write("nested/.gitignore", "SECRET/\n")
        .write("keep.txt", "kept\n")
        .write("debug.log", "log\n")
        .write("build/out.txt", "built\n")
        .write("nested/Deep/cache.tmp", "tmp\n")
        .write("nested/Deep/code.rs", "fn f() {}\n")
        .write("nested/secret/key.txt", "k\n")
        .write("parent-rule.txt", "p\n")
        .write("excluded.md", "e\n")
        .write("notes.bak", "b\n");
    let in_another_case = [
        "debug.log",
        "build/out.txt",
        "nested/Deep/cache.tmp",
        "nested/secret/key.txt",
        "parent-rule.txt",
        "excluded.md",
        "notes.bak",
    ];
    for ignorecase in ["true", "false"] {
        git(&top, &["config", "core.ignorecase", ignorecase]);
        let by_git = files_git_lists(&fx.root, &home);
        for name in in_another_case {
            assert_eq!(
                by_git.contains(name),
                ignorecase == "false",
                "git with ignorecase={ignorecase}: {name} in {by_git:?}"
            );
        }
        assert!(by_git.contains("keep.txt") && by_git.contains("nested/Deep/code.rs"));
        let (tree, pack) = files_devprojex_lists(&fx.root, &home);
        assert_eq!(tree, by_git, "tree with core.ignorecase={ignorecase}");
        assert_eq!(pack, by_git, "pack with core.ignorecase={ignorecase}");
    }
}

/// On the platforms whose volumes ignore case, another case reads the listed file (shown by its
/// listed name), and never opens a door into what the product rules exclude.
#[cfg(any(target_os = "macos", windows))]
#[test]
fn names_in_another_case_read_the_listed_file_and_keep_exclusions() {
    let fx = Fixture::new();
    fx.write("src/main.rs", "fn main() {}\n")
        .write(".git/config", "[core]\n")
        .write("node_modules/x/index.js", "x\n")
        .write("package.json", "{}\n");
    let mut mcp = Mcp::start(&fx.root);
    let text = mcp.call_ok("get_file", json!({"path": "SRC/Main.RS"}));
    assert_eq!(one_spot(&text).inner, "fn main() {}\n", "{text}");
    // messages name the file as the folder lists it
    let text = mcp.call_err("get_file", json!({"path": "SRC/Main.RS", "start_line": 5}));
    assert!(text.contains("'src/main.rs'"), "{text}");
    for path in [".GIT/config", ".Git/CONFIG", "Node_Modules/x/index.js"] {
        let text = mcp.call_err("get_file", json!({"path": path}));
        assert_eq!(code_of(&text), "DPX-MCP-PATH-NOT-FOUND", "{path}: {text}");
    }
    let text = mcp.call_ok("pack_context", json!({"paths": ["SRC"]}));
    assert!(text.contains("fn main"), "{text}");
    let absolute = fx.root_str().to_uppercase();
    let sep = std::path::MAIN_SEPARATOR;
    let text = mcp.call_ok(
        "get_file",
        json!({"path": format!("{absolute}{sep}src{sep}main.rs")}),
    );
    assert_eq!(one_spot(&text).inner, "fn main() {}\n", "{text}");
}

/// macOS stores a root given as `/tmp/...` as `/private/tmp/...`; both forms are accepted.
#[cfg(target_os = "macos")]
#[test]
fn macos_tmp_and_private_tmp_are_one_root() {
    let dir = tempfile::Builder::new()
        .prefix("dpx-private-")
        .tempdir_in("/tmp")
        .unwrap();
    std::fs::write(dir.path().join("a.txt"), "a\n").unwrap();
    let name = dir
        .path()
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    let short = format!("/tmp/{name}");
    let long = format!("/private/tmp/{name}");
    let mut mcp = Mcp::start_with(&["--root", &short], &[]);
    for (project, path) in [
        (&short, format!("{long}/a.txt")),
        (&long, format!("{short}/a.txt")),
    ] {
        let text = mcp.call_ok("get_file", json!({"project": project, "path": path}));
        assert_eq!(one_spot(&text).inner, "a\n", "{project} {path}");
    }
}

/// Windows devices are refused before anything is opened, in any component and with any
/// extension; a name with a trailing dot (which Windows drops) is refused too.
#[cfg(windows)]
#[test]
fn windows_device_names_are_never_opened() {
    let fx = Fixture::new();
    fx.write("src/a.rs", "a\n").write("secret", "s\n");
    let mut mcp = Mcp::start(&fx.root);
    for path in [
        "NUL",
        "con.txt",
        "src/aux.rs",
        "COM1",
        "lpt1.log",
        "src/CONOUT$",
    ] {
        let text = mcp.call_err("get_file", json!({"path": path}));
        assert_eq!(
            code_of(&text),
            "DPX-MCP-NOT-A-REGULAR-FILE",
            "{path}: {text}"
        );
    }
    let text = mcp.call_err("get_file", json!({"path": "secret."}));
    assert_eq!(code_of(&text), "DPX-MCP-INVALID-ARGUMENTS", "{text}");
    let text = mcp.call_err("pack_context", json!({"paths": ["src/nul"]}));
    assert_eq!(code_of(&text), "DPX-MCP-NOT-A-REGULAR-FILE", "{text}");
}
