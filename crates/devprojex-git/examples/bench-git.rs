//! Benchmark helper for `scripts/bench-git.sh`: times `tracked_paths` and the `changes` scope
//! in-process against `git ls-files -z` and `git status --porcelain` run as processes, alternating
//! runs in one process, and prints medians and ratios.
//!
//! usage: cargo run --release -p devprojex-git --example bench-git -- <repo> [runs]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use devprojex_git::{GitScope, scope_paths, tracked_paths};

fn git(repo: &Path, args: &[&str]) -> usize {
    let out = Command::new("git")
        .current_dir(repo)
        .args(args)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?} failed");
    out.stdout.len()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn compare(
    name: &str,
    runs: usize,
    mut ours: impl FnMut() -> usize,
    mut theirs: impl FnMut() -> usize,
    theirs_name: &str,
) -> f64 {
    // Warm-up, also proves both work.
    let n_ours = ours();
    let n_theirs = theirs();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let t = Instant::now();
        std::hint::black_box(ours());
        a.push(t.elapsed());
        let t = Instant::now();
        std::hint::black_box(theirs());
        b.push(t.elapsed());
    }
    let (ma, mb) = (median(a), median(b));
    let ratio = ma.as_secs_f64() / mb.as_secs_f64();
    println!(
        "{name:<22} {:>10}  vs {theirs_name:<38} {:>10}  ratio {ratio:.2}x  ({n_ours} paths; git printed {n_theirs} bytes)",
        ms(ma),
        ms(mb)
    );
    ratio
}

fn main() {
    let mut args = std::env::args().skip(1);
    let repo = PathBuf::from(args.next().expect("usage: bench-git <repo> [runs]"));
    let runs: usize = args.next().map_or(9, |r| r.parse().expect("runs"));
    println!(
        "repository: {} ({runs} alternating runs each, medians)",
        repo.display()
    );
    let r1 = compare(
        "tracked_paths",
        runs,
        || tracked_paths(&repo).unwrap().len(),
        || git(&repo, &["ls-files", "-z"]),
        "git ls-files -z",
    );
    let r2 = compare(
        "scope changes",
        runs,
        || scope_paths(&repo, &GitScope::Changes).unwrap().paths.len(),
        || git(&repo, &["--no-optional-locks", "status", "--porcelain"]),
        "git status --porcelain",
    );
    compare(
        "scope changes",
        runs,
        || scope_paths(&repo, &GitScope::Changes).unwrap().paths.len(),
        || {
            git(
                &repo,
                &["--no-optional-locks", "status", "--porcelain", "-uall"],
            )
        },
        "git status --porcelain -uall",
    );
    compare(
        "scope staged",
        runs,
        || scope_paths(&repo, &GitScope::Staged).unwrap().paths.len(),
        || git(&repo, &["diff", "--cached", "--name-status", "-z"]),
        "git diff --cached --name-status -z",
    );
    let target = 1.5;
    let ok = r1 <= target && r2 <= target;
    println!(
        "target <= {target}x for tracked_paths and changes: {}",
        if ok { "MET" } else { "NOT MET" }
    );
}
