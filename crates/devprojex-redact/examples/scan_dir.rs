//! Redact every file under a directory and print findings per rule (with the matched line when
//! `SHOW=1`). A development aid for checking false positives on real code:
//! `cargo run --release -p devprojex-redact --example scan_dir -- <dir>`
//!
//! With `SPEED=1` it prints the time the rule set takes to compile, then reads the text files
//! into memory and prints the single-thread throughput of the keyword pass alone and of
//! `Redactor::redact`, called once per file as the content stage calls them (best of two).

use std::collections::BTreeMap;
use std::path::Path;

use devprojex_redact::{RedactOptions, Redactor, decode_lossy};

fn walk(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        let Ok(ft) = e.file_type() else { continue };
        if ft.is_dir() {
            if p.file_name().is_some_and(|n| n == ".git" || n == "target") {
                continue;
            }
            walk(&p, files);
        } else if ft.is_file() {
            files.push(p);
        }
    }
}

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| ".".into());
    let private = std::env::var("PRIVATE").is_ok();
    let show = std::env::var("SHOW").ok();
    let built = std::time::Instant::now();
    // the first `Redactor` compiles the rule set (once per process)
    let r = Redactor::new(RedactOptions {
        hide_private_data: private,
    });
    let built = built.elapsed();
    if dir == "-" {
        let mut input = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut input).expect("stdin");
        let out = r.redact(&input);
        print!("{}", out.text);
        for f in out.findings {
            eprintln!("line {} {}", f.line, f.rule_id);
        }
        return;
    }
    let mut files = Vec::new();
    walk(Path::new(&dir), &mut files);
    if std::env::var_os("SPEED").is_some() {
        println!("rule set compiled in {:.1} ms", built.as_secs_f64() * 1e3);
        speed(&r, &files);
        return;
    }
    let mut per_rule: BTreeMap<String, usize> = BTreeMap::new();
    let mut bytes = 0usize;
    let start = std::time::Instant::now();
    for f in &files {
        let Ok(data) = std::fs::read(f) else { continue };
        if data.len() > 16 << 20 || data.contains(&0) {
            continue;
        }
        bytes += data.len();
        let text = decode_lossy(&data);
        let out = r.redact(&text);
        for fi in &out.findings {
            *per_rule.entry(fi.rule_id.clone()).or_default() += 1;
            if show.as_deref().is_some_and(|s| s == "1" || s == fi.rule_id) {
                let orig = text.lines().nth(fi.line - 1).unwrap_or("");
                let orig: String = orig.chars().take(200).collect();
                println!(
                    "{}:{} {} | {}",
                    f.display(),
                    fi.line,
                    fi.rule_id,
                    orig.trim()
                );
            }
        }
    }
    let el = start.elapsed();
    println!(
        "{} files, {:.1} MB in {:.2?} ({:.0} MB/s)",
        files.len(),
        bytes as f64 / 1e6,
        el,
        bytes as f64 / 1e6 / el.as_secs_f64()
    );
    for (k, v) in per_rule {
        println!("{v:6} {k}");
    }
}

/// Per-file throughput over texts already in memory.
fn speed(redactor: &Redactor, files: &[std::path::PathBuf]) {
    let texts: Vec<String> = files
        .iter()
        .filter_map(|f| std::fs::read(f).ok())
        .filter(|data| data.len() <= 16 << 20 && !data.contains(&0))
        .map(|data| decode_lossy(&data).into_owned())
        .collect();
    let bytes: usize = texts.iter().map(String::len).sum();
    let best = |run: &dyn Fn(&str)| {
        (0..2)
            .map(|_| {
                let start = std::time::Instant::now();
                texts.iter().for_each(|t| run(t));
                start.elapsed().as_secs_f64()
            })
            .fold(f64::MAX, f64::min)
    };
    let keywords = best(&|t| {
        std::hint::black_box(devprojex_redact::keyword_hit_counts(t));
    });
    let redact = best(&|t| {
        std::hint::black_box(redactor.redact(t).findings.len());
    });
    println!(
        "{} text files, {:.1} MB: keyword pass {:.0} MB/s, redact {:.0} MB/s (one thread)",
        texts.len(),
        bytes as f64 / 1e6,
        bytes as f64 / 1e6 / keywords,
        bytes as f64 / 1e6 / redact
    );
}
