//! `file://` sources never expand the root jail: every link a local repository has to somewhere
//! else (`.git` files and symbolic links, `commondir`, alternates, worktree links, config
//! includes, links inside the Git directory) is resolved before cloning, and a repository that
//! reaches outside the configured roots is refused without naming the outside target.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::common::{Sandbox, write};
use devprojex_git::{GitError, GitErrorKind, PinnedCheckout, RemoteSession, RepoCache};

const SECRET: &str = "TOP SECRET outside the root\n";

/// A sandbox with a configured root `<sb>/root` and a repository outside it, `<sb>/outside/sec`,
/// whose only file is `secret.txt`.
struct Layout {
    sb: Sandbox,
    root: PathBuf,
    outside: PathBuf,
    secret_commit: String,
}

fn layout() -> Layout {
    let sb = Sandbox::new();
    let root = sb.path().join("root");
    std::fs::create_dir_all(&root).unwrap();
    let outside = sb.init("outside/sec");
    write(&outside, "secret.txt", SECRET);
    sb.git(&outside, &["add", "-A"]);
    sb.git(&outside, &["commit", "-qm", "the secret message"]);
    let secret_commit = String::from_utf8(sb.git(&outside, &["rev-parse", "HEAD"]))
        .unwrap()
        .trim()
        .to_owned();
    Layout {
        sb,
        root,
        outside,
        secret_commit,
    }
}

impl Layout {
    fn session(&self) -> RemoteSession {
        let cache = RepoCache::new(self.cache_dir()).with_timeout(Duration::from_secs(60));
        RemoteSession::new(cache, true)
    }

    fn cache_dir(&self) -> PathBuf {
        self.sb.path().join("cache/repos")
    }

    fn resolve(&self, dir: &Path) -> Result<PinnedCheckout, GitError> {
        self.session()
            .resolve(&url(dir), None, std::slice::from_ref(&self.root))
            .map(|c| c.expect("a file:// URL is a remote source"))
    }

    /// The repository at `dir` must be refused as reaching outside, naming `what`, without a
    /// clone and without naming anything outside the root.
    fn assert_refused(&self, dir: &Path, what: &str) {
        let err = match self.resolve(dir) {
            Ok(checkout) => panic!(
                "{} was cloned (secret.txt present: {})",
                dir.display(),
                checkout.path.join("secret.txt").exists()
            ),
            Err(err) => err,
        };
        assert_eq!(err.kind(), GitErrorKind::OutsideRoots, "{err}");
        let msg = err.to_string();
        assert!(msg.contains(what), "names `{what}`: {msg}");
        assert!(
            !msg.contains("outside/sec") && !msg.contains(&*self.outside.to_string_lossy()),
            "never names the outside target: {msg}"
        );
        assert!(msg.contains("root jail"), "{msg}");
        assert_eq!(self.checkouts(), 0, "nothing was cloned");
    }

    fn checkouts(&self) -> usize {
        let mut n = 0;
        for entry in std::fs::read_dir(self.cache_dir().join("v1"))
            .into_iter()
            .flatten()
        {
            for co in std::fs::read_dir(entry.unwrap().path()).unwrap() {
                let name = co.unwrap().file_name();
                let name = name.to_string_lossy();
                if name.starts_with("co-") && !name.ends_with(".lock") {
                    n += 1;
                }
            }
        }
        n
    }

    /// A repository inside the root with one commit of `inside.txt`.
    fn inside_repo(&self, rel: &str) -> PathBuf {
        let dir = self.root.join(rel);
        std::fs::create_dir_all(&dir).unwrap();
        self.sb.git(&dir, &["init", "-q"]);
        write(&dir, "inside.txt", "inside\n");
        self.sb.git(&dir, &["add", "-A"]);
        self.sb.git(&dir, &["commit", "-qm", "inside"]);
        dir
    }

    /// An empty repository inside the root whose `main` points at the outside commit, for
    /// layouts that borrow the outside objects.
    fn borrowing_repo(&self, rel: &str, link_objects: impl FnOnce(&Path)) -> PathBuf {
        let dir = self.root.join(rel);
        std::fs::create_dir_all(&dir).unwrap();
        self.sb.git(&dir, &["init", "-q"]);
        link_objects(&dir.join(".git/objects"));
        write(
            &dir,
            ".git/refs/heads/main",
            &format!("{}\n", self.secret_commit),
        );
        write(&dir, ".git/HEAD", "ref: refs/heads/main\n");
        dir
    }

    fn outside_objects(&self) -> PathBuf {
        self.outside.join(".git/objects")
    }
}

fn url(dir: &Path) -> String {
    format!("file://{}", dir.display())
}

#[test]
fn dot_git_file_pointing_outside() {
    let l = layout();
    let absolute = l.root.join("abs");
    write(
        &absolute,
        ".git",
        &format!("gitdir: {}\n", l.outside.join(".git").display()),
    );
    l.assert_refused(&absolute, "`.git` file");
    // relative to the folder of the `.git` file, as Git reads it
    let relative = l.root.join("rel");
    write(&relative, ".git", "gitdir: ../../outside/sec/.git\n");
    l.assert_refused(&relative, "`.git` file");
}

#[cfg(unix)]
#[test]
fn dot_git_symlink_pointing_outside() {
    let l = layout();
    let dir = l.root.join("linked");
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(l.outside.join(".git"), dir.join(".git")).unwrap();
    l.assert_refused(&dir, "symbolic link `.git`");
}

#[test]
fn commondir_pointing_outside() {
    let l = layout();
    let dir = l.root.join("common");
    write(&dir, ".git/HEAD", "ref: refs/heads/main\n");
    write(
        &dir,
        ".git/commondir",
        &format!("{}\n", l.outside.join(".git").display()),
    );
    l.assert_refused(&dir, "`.git/commondir`");
}

#[test]
fn alternates_pointing_outside() {
    let l = layout();
    let objects = l.outside_objects();
    let absolute = l.borrowing_repo("abs", |o| {
        write(o, "info/alternates", &format!("{}\n", objects.display()));
    });
    l.assert_refused(&absolute, "line 1 of `.git/objects/info/alternates`");
    // relative to the object folder, after a comment and a blank line
    let relative = l.borrowing_repo("rel", |o| {
        write(
            o,
            "info/alternates",
            "# borrowed\n\n../../../../outside/sec/.git/objects\n",
        );
    });
    l.assert_refused(&relative, "line 3 of `.git/objects/info/alternates`");
    // C-quoted, as Git writes paths with special characters
    let quoted = l.borrowing_repo("quoted", |o| {
        write(
            o,
            "info/alternates",
            &format!("\"{}\"\n", objects.display()),
        );
    });
    l.assert_refused(&quoted, "`.git/objects/info/alternates`");
}

#[test]
fn nested_alternates_pointing_outside() {
    let l = layout();
    let middle = l.inside_repo("middle");
    write(
        &middle,
        ".git/objects/info/alternates",
        &format!("{}\n", l.outside_objects().display()),
    );
    let middle_objects = middle.join(".git/objects");
    let dir = l.borrowing_repo("top", |o| {
        write(
            o,
            "info/alternates",
            &format!("{}\n", middle_objects.display()),
        );
    });
    l.assert_refused(&dir, "middle/.git/objects/info/alternates");
}

#[test]
fn http_alternates_pointing_outside() {
    let l = layout();
    let dir = l.inside_repo("http");
    write(
        &dir,
        ".git/objects/info/http-alternates",
        &format!("{}\n", l.outside_objects().display()),
    );
    l.assert_refused(&dir, "`.git/objects/info/http-alternates`");
    let other_host = l.inside_repo("http-host");
    write(
        &other_host,
        ".git/objects/info/http-alternates",
        "https://elsewhere.example/r.git/objects\n",
    );
    l.assert_refused(&other_host, "http-alternates");
}

#[test]
fn worktree_link_pointing_outside() {
    let l = layout();
    let dir = l.inside_repo("with-worktree");
    let elsewhere = l.sb.path().join("outside/wt");
    l.sb.git(
        &dir,
        &["worktree", "add", "-q", elsewhere.to_str().unwrap()],
    );
    l.assert_refused(&dir, "worktree link");
}

#[cfg(unix)]
#[test]
fn symlinked_objects_pointing_outside() {
    let l = layout();
    let objects = l.outside_objects();
    let whole = l.borrowing_repo("whole", |o| {
        std::fs::remove_dir_all(o).unwrap();
        std::os::unix::fs::symlink(&objects, o).unwrap();
    });
    l.assert_refused(&whole, "`.git/objects`");
    // one fan-out folder at a time
    let fanout = l.borrowing_repo("fanout", |o| {
        for entry in std::fs::read_dir(&objects).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name();
            if name.len() == 2 {
                std::os::unix::fs::symlink(entry.path(), o.join(&name)).unwrap();
            }
        }
    });
    l.assert_refused(&fanout, "symbolic link `.git/objects/");
}

#[cfg(unix)]
#[test]
fn symlinked_ref_pointing_outside() {
    let l = layout();
    let dir = l.inside_repo("ref-link");
    std::os::unix::fs::symlink(
        l.outside.join(".git/refs/heads/main"),
        dir.join(".git/refs/heads/stolen"),
    )
    .unwrap();
    l.assert_refused(&dir, "symbolic link `.git/refs/heads/stolen`");
}

#[test]
fn config_include_pointing_outside() {
    let l = layout();
    let dir = l.inside_repo("include");
    let outside_config = l.sb.path().join("outside/extra.config");
    std::fs::write(&outside_config, "[core]\n\tbigFileThreshold = 1m\n").unwrap();
    l.sb.git(
        &dir,
        &["config", "include.path", outside_config.to_str().unwrap()],
    );
    l.assert_refused(&dir, "`include.path` in `.git/config`");
}

#[test]
fn missing_repository_never_falls_back_to_a_sibling() {
    // Git's own lookup tries `<dir>.git` when `<dir>` is no repository: for a root `proj`, that
    // is `proj.git` beside it, outside the root.
    let l = layout();
    let proj = l.sb.path().join("proj");
    write(&proj, "readme.txt", "not a repository\n");
    l.sb.git(
        l.sb.path(),
        &[
            "clone",
            "-q",
            "--bare",
            l.outside.to_str().unwrap(),
            l.sb.path().join("proj.git").to_str().unwrap(),
        ],
    );
    let err = l
        .session()
        .resolve(&url(&proj), None, std::slice::from_ref(&proj))
        .expect_err("a folder without a repository is refused");
    assert_eq!(err.kind(), GitErrorKind::InvalidArguments, "{err}");
    assert!(err.to_string().contains("not a Git repository"), "{err}");
    assert_eq!(l.checkouts(), 0);
}

#[test]
fn folder_names_with_percent_signs_are_not_decoded_twice() {
    // `..%2Foutside%2Fsec` is one folder name inside the root; Git decodes `%2F` in file URLs,
    // so handed over as it is, the clone would read `<root>/../outside/sec`.
    let l = layout();
    let name = "..%2Foutside%2Fsec";
    let dir = l.inside_repo(name);
    let given = format!("file://{}/..%252Foutside%252Fsec", l.root.display());
    let checkout = l
        .session()
        .resolve(&given, None, std::slice::from_ref(&l.root))
        .unwrap()
        .unwrap();
    assert!(checkout.path.join("inside.txt").is_file());
    assert!(
        !checkout.path.join("secret.txt").exists(),
        "read {dir:?} only"
    );
}

#[cfg(unix)]
#[test]
fn special_files_in_the_git_directory_are_refused_without_hanging() {
    let l = layout();
    let dir = l.inside_repo("fifo");
    let fifo = dir.join(".git/refs/heads/blocked");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    let start = std::time::Instant::now();
    let err = l.resolve(&dir).expect_err("refused");
    assert!(start.elapsed() < Duration::from_secs(10), "no hang");
    assert_eq!(err.kind(), GitErrorKind::RemoteFailed, "{err}");
    assert!(err.to_string().contains("special file"), "{err}");
    assert_eq!(l.checkouts(), 0);
}

#[test]
fn links_inside_the_roots_are_accepted() {
    let l = layout();
    // a linked worktree inside the root: `.git` file, `commondir`, worktree link
    let main = l.inside_repo("main");
    let worktree = l.root.join("feature-wt");
    l.sb.git(
        &main,
        &[
            "worktree",
            "add",
            "-q",
            "-b",
            "feature",
            worktree.to_str().unwrap(),
        ],
    );
    write(&worktree, "feature.txt", "feature\n");
    l.sb.git(&worktree, &["add", "-A"]);
    l.sb.git(&worktree, &["commit", "-qm", "feature"]);
    let checkout = l.resolve(&worktree).unwrap();
    assert!(checkout.path.join("feature.txt").is_file());
    assert!(checkout.path.join("inside.txt").is_file());
    let checkout = l.resolve(&main).unwrap();
    assert!(!checkout.path.join("feature.txt").exists());

    // alternates inside the root (absolute and relative)
    let lender = l.inside_repo("lender");
    let lender_head = String::from_utf8(l.sb.git(&lender, &["rev-parse", "HEAD"])).unwrap();
    let borrower = l.root.join("borrower");
    std::fs::create_dir_all(&borrower).unwrap();
    l.sb.git(&borrower, &["init", "-q"]);
    write(
        &borrower,
        ".git/objects/info/alternates",
        "../../../lender/.git/objects\n",
    );
    write(&borrower, ".git/refs/heads/main", &lender_head);
    write(&borrower, ".git/HEAD", "ref: refs/heads/main\n");
    let checkout = l.resolve(&borrower).unwrap();
    assert_eq!(
        std::fs::read_to_string(checkout.path.join("inside.txt")).unwrap(),
        "inside\n"
    );

    // a bare repository inside the root
    let bare = l.root.join("bare.git");
    l.sb.git(
        &l.root,
        &[
            "clone",
            "-q",
            "--bare",
            main.to_str().unwrap(),
            bare.to_str().unwrap(),
        ],
    );
    assert!(l.resolve(&bare).unwrap().path.join("inside.txt").is_file());
}

#[test]
fn file_checkouts_are_not_reused_by_a_later_session() {
    // Each session checks the repository against its own roots before its clone.
    let l = layout();
    let dir = l.inside_repo("repo");
    let first = l.resolve(&dir).unwrap();
    let second = l.resolve(&dir).unwrap();
    assert_ne!(first.path, second.path);
    // and a repository changed in between to reach outside is refused the next time
    write(
        &dir,
        ".git/objects/info/alternates",
        &format!("{}\n", l.outside_objects().display()),
    );
    assert_eq!(
        l.resolve(&dir).unwrap_err().kind(),
        GitErrorKind::OutsideRoots
    );
}
