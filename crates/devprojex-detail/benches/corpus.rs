//! Corpus benchmark for the detail levels: tokens kept per language and single-thread throughput.
//!
//! ```text
//! cargo bench -p devprojex-detail --bench corpus -- [ROOT...]
//! ```
//!
//! Default roots: the cargo registry sources (`$CARGO_HOME/registry/src`) and Python's standard
//! library (`python3 -c 'import sysconfig;print(sysconfig.get_paths()["stdlib"])'`). Every file
//! in a supported language, valid UTF-8 and at most `DETAIL_BENCH_MAX_FILE` bytes (default
//! 4 MiB) is read into memory first; then each level runs over all of them on one thread, so
//! MB/s is per core. Tokens are `ceil(chars / 4)` per file, as devprojex estimates them.
//! "parse errors" are the files `signatures` declines (`Outcome::ParseErrors`), "too large" those
//! over `MAX_TRANSFORM_BYTES`, which are not parsed and count whole.
//! With `DETAIL_BENCH_CACHE=1` it also prints how many bytes the MCP server's transform cache is
//! charged for the reduced files, against the reduced texts themselves.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use devprojex_detail::{
    Detail, Outcome, language_name, language_of, transform, transform_with_outcome,
};

fn default_roots() -> Vec<PathBuf> {
    let mut roots = Vec::new();
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    if let Some(h) = cargo_home {
        roots.push(h.join("registry/src"));
    }
    if let Ok(out) = std::process::Command::new("python3")
        .args([
            "-c",
            "import sysconfig;print(sysconfig.get_paths()['stdlib'])",
        ])
        .output()
    {
        let p = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        if !p.is_empty() {
            roots.push(PathBuf::from(p));
        }
    }
    roots
}

fn collect(root: &Path, max_file: u64, out: &mut Vec<(String, String)>) {
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<_> = rd.filter_map(|e| e.ok()).collect();
        entries.sort_by_key(|e| e.path());
        for e in entries {
            let p = e.path();
            let Ok(ft) = e.file_type() else { continue };
            if ft.is_dir() {
                stack.push(p);
            } else if ft.is_file() {
                let rel = p.to_string_lossy().replace('\\', "/");
                // A file without extension may still be C or C++ (its mode line).
                let named = language_name(&rel).is_some();
                let bare = !e.file_name().to_string_lossy().contains('.');
                if !(named || bare) || e.metadata().map_or(true, |m| m.len() > max_file) {
                    continue;
                }
                if let Ok(text) = std::fs::read_to_string(&p)
                    && (named || language_of(&rel, &text).is_some())
                {
                    out.push((rel, text));
                }
            }
        }
    }
}

/// CPU time of this thread in seconds (Linux), so a busy machine does not skew MB/s; wall time elsewhere.
fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(s.split_whitespace().next()?.parse::<f64>().ok()? / 1e9)
}

fn tokens(s: &str) -> u64 {
    (s.chars().count() as u64).div_ceil(4)
}

#[derive(Default)]
struct Row {
    files: u64,
    bytes: u64,
    tokens: [u64; 3],
    unchanged: [u64; 3],
    /// Files left unchanged at `signatures` because of parse errors (`Outcome::ParseErrors`).
    declined: u64,
    /// Files over `MAX_TRANSFORM_BYTES`, not parsed (`Outcome::TooLarge`).
    too_large: u64,
    time: [Duration; 3],
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let roots: Vec<PathBuf> = if args.is_empty() {
        default_roots()
    } else {
        args.iter().map(PathBuf::from).collect()
    };
    let max_file = std::env::var("DETAIL_BENCH_MAX_FILE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4 << 20);
    let mut files = Vec::new();
    for r in &roots {
        collect(r, max_file, &mut files);
    }
    let total_bytes: u64 = files.iter().map(|(_, t)| t.len() as u64).sum();
    println!(
        "corpus: {} files, {:.1} MB in supported languages, from {}",
        files.len(),
        total_bytes as f64 / 1e6,
        roots
            .iter()
            .map(|r| r.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );

    let mut rows: BTreeMap<&'static str, Row> = BTreeMap::new();
    for (path, text) in &files {
        let row = rows.entry(language_of(path, text).unwrap()).or_default();
        row.files += 1;
        row.bytes += text.len() as u64;
        row.tokens[0] += tokens(text);
    }
    for (li, level) in [(1, Detail::Compact), (2, Detail::Signatures)] {
        let start = Instant::now();
        let cpu_start = cpu_seconds();
        for (path, text) in &files {
            let t0 = Instant::now();
            let c0 = cpu_seconds();
            let (out, outcome) = transform_with_outcome(path, text, level);
            let dt = match (c0, cpu_seconds()) {
                (Some(a), Some(b)) => Duration::from_secs_f64((b - a).max(0.0)),
                _ => t0.elapsed(),
            };
            let row = rows.get_mut(language_of(path, text).unwrap()).unwrap();
            if level == Detail::Signatures {
                row.declined += u64::from(outcome == Outcome::ParseErrors);
                row.too_large += u64::from(outcome == Outcome::TooLarge);
            }
            row.time[li] += dt;
            row.tokens[li] += tokens(&out);
            if out.len() == text.len() {
                row.unchanged[li] += 1;
            }
        }
        let wall = start.elapsed().as_secs_f64();
        let cpu = match (cpu_start, cpu_seconds()) {
            (Some(a), Some(b)) => b - a,
            _ => wall,
        };
        println!(
            "{level}: {wall:.1} s wall, {cpu:.1} s CPU: {:.1} MB/s per core (CPU time), {:.1} MB/s wall",
            total_bytes as f64 / 1e6 / cpu,
            total_bytes as f64 / 1e6 / wall
        );
        if std::env::var_os("DETAIL_BENCH_CACHE").is_none() {
            continue;
        }
        // Outside the timing (a second transform per file): what the server's transform cache
        // holds for these results.
        let (mut cached, mut reduced) = (0usize, 0usize);
        for (path, text) in &files {
            if let Cow::Owned(out) = transform(path, text, level) {
                reduced += out.len();
                cached += devprojex_detail::testing::cached_bytes(path, text, level);
            }
        }
        println!(
            "{level}: the transform cache holds the reduced texts ({:.1} MB) as {:.1} MB of pieces ({:.1}%)",
            reduced as f64 / 1e6,
            cached as f64 / 1e6,
            100.0 * cached as f64 / reduced.max(1) as f64
        );
    }

    println!();
    println!(
        "| language | files | MB | full tokens | compact | signatures | unchanged (sig) | parse errors | too large | MB/s compact | MB/s signatures |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut total = Row::default();
    for (lang, r) in &rows {
        print_row(lang, r);
        total.files += r.files;
        total.declined += r.declined;
        total.too_large += r.too_large;
        total.bytes += r.bytes;
        for i in 0..3 {
            total.tokens[i] += r.tokens[i];
            total.unchanged[i] += r.unchanged[i];
            total.time[i] += r.time[i];
        }
    }
    print_row("**all**", &total);
}

fn print_row(lang: &str, r: &Row) {
    let pct = |i: usize| 100.0 * r.tokens[i] as f64 / r.tokens[0].max(1) as f64;
    // Under 50 ms of CPU the clock's granularity makes MB/s meaningless.
    let mbs = |i: usize| {
        let t = r.time[i].as_secs_f64();
        if t < 0.05 {
            "n/a".to_owned()
        } else {
            format!("{:.1}", r.bytes as f64 / 1e6 / t)
        }
    };
    println!(
        "| {lang} | {} | {:.1} | {} | {} ({:.0}%) | {} ({:.0}%) | {} | {} ({:.1}%) | {} | {} | {} |",
        r.files,
        r.bytes as f64 / 1e6,
        r.tokens[0],
        r.tokens[1],
        pct(1),
        r.tokens[2],
        pct(2),
        r.unchanged[2],
        r.declined,
        100.0 * r.declined as f64 / r.files.max(1) as f64,
        r.too_large,
        mbs(1),
        mbs(2),
    );
}
