//! Redact every file under a directory and print findings per rule (with the matched line when
//! `SHOW=1`). A development aid for checking false positives on real code:
//! `cargo run --release -p devprojex-redact --example scan_dir -- <dir>`

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
    let r = Redactor::new(RedactOptions {
        hide_private_data: private,
    });
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
