//! Redact every file under the given paths and print, per file, a digest of the redacted text
//! and its findings: two builds give the same output exactly when they redact alike. A check
//! for changes that must not change answers (speed work):
//!
//! `cargo run --release -p devprojex-redact --example redact_digest -- [--private-data] PATH... > a`
//!
//! then the same with the other build, and `diff a b`. With `--lines` it prints each redacted
//! line instead (`path:line: text`, markers in place, cut at 300 characters): what a reader of
//! the findings needs to tell a secret from a false positive. The last line (on stderr) counts
//! files, bytes, files with findings and findings, and the findings per 10,000 files. Files are read as the content stage reads
//! them (`decode_lossy`) and taken in sorted order; `.git` and `target` directories are skipped,
//! so are files larger than `INSPECTION_LIMIT_BYTES`.

use std::path::{Path, PathBuf};

use devprojex_redact::{INSPECTION_LIMIT_BYTES, RedactOptions, Redactor, decode_lossy};

fn walk(path: &Path, files: &mut Vec<PathBuf>) {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return;
    };
    if meta.is_file() {
        files.push(path.to_path_buf());
        return;
    }
    if !meta.is_dir() {
        return;
    }
    let Ok(rd) = std::fs::read_dir(path) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.file_name().is_some_and(|n| n == ".git" || n == "target") {
            continue;
        }
        walk(&p, files);
    }
}

/// FNV-1a, 64 bits: enough to tell two outputs apart.
fn digest(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn main() {
    let mut private = false;
    let mut lines = false;
    let mut files = Vec::new();
    for arg in std::env::args().skip(1) {
        if arg == "--private-data" {
            private = true;
        } else if arg == "--lines" {
            lines = true;
        } else {
            walk(Path::new(&arg), &mut files);
        }
    }
    let redactor = Redactor::new(RedactOptions {
        hide_private_data: private,
    });
    let (mut count, mut bytes, mut redacted, mut found) = (0usize, 0usize, 0usize, 0usize);
    for path in &files {
        let Ok(content) = std::fs::read(path) else {
            continue;
        };
        if content.len() as u64 > INSPECTION_LIMIT_BYTES {
            continue;
        }
        let text = decode_lossy(&content);
        let out = redactor.redact(&text);
        count += 1;
        bytes += content.len();
        if out.findings.is_empty() {
            continue;
        }
        redacted += 1;
        found += out.findings.len();
        if lines {
            let shown: Vec<&str> = out.text.split('\n').collect();
            let mut last = 0;
            for f in &out.findings {
                if f.line == last {
                    continue;
                }
                last = f.line;
                let line: String = shown[f.line - 1].trim().chars().take(300).collect();
                println!("{}:{}: {line}", path.display(), f.line);
            }
            continue;
        }
        let findings: Vec<String> = out
            .findings
            .iter()
            .map(|f| format!("{}:{}", f.line, f.rule_id))
            .collect();
        println!(
            "{} {:016x} {}",
            path.display(),
            digest(out.text.as_bytes()),
            findings.join(" ")
        );
    }
    let per_10k = found as f64 * 10_000.0 / count.max(1) as f64;
    eprintln!(
        "{count} files, {bytes} bytes, {redacted} with findings, {found} findings, {per_10k:.1} findings per 10,000 files"
    );
}
