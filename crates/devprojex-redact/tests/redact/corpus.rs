//! The labelled corpus under `tests/redaction/`: recall on positives, false-positive rate on
//! negatives. Fails below recall 0.98 or above a false-positive rate of 0.02.
//!
//! A positive counts as caught when the redactor reports a secret AND none of the generated
//! secret pieces (8 characters or more) survives in the output. A negative is a false positive
//! when any secret is reported.

use std::path::{Path, PathBuf};

use devprojex_redact::{RedactOptions, Redactor, testgen};

struct Sample {
    file: String,
    name: String,
    kind: String,
    template: String,
}

fn load(dir: &Path) -> Vec<Sample> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("corpus file is UTF-8");
        let file = f.file_name().unwrap().to_string_lossy().into_owned();
        let mut current: Option<Sample> = None;
        for line in text.lines() {
            if let Some(header) = line.strip_prefix("%%% ") {
                out.extend(current.take());
                let mut parts = header.split_whitespace();
                current = Some(Sample {
                    file: file.clone(),
                    name: parts.next().unwrap_or("?").to_string(),
                    kind: parts.next().unwrap_or("?").to_string(),
                    template: String::new(),
                });
            } else if let Some(s) = current.as_mut() {
                if !s.template.is_empty() {
                    s.template.push('\n');
                }
                s.template.push_str(line);
            }
        }
        out.extend(current.take());
    }
    out
}

#[test]
fn corpus_recall_and_false_positive_rate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/redaction");
    let positives = load(&root.join("positive"));
    let negatives = load(&root.join("negative"));
    assert!(
        positives.len() >= 300,
        "only {} positive samples",
        positives.len()
    );
    assert!(
        negatives.len() >= 300,
        "only {} negative samples",
        negatives.len()
    );
    let redactor = Redactor::new(RedactOptions::default());

    let mut misses = Vec::new();
    for (i, s) in positives.iter().enumerate() {
        let (text, pieces) = testgen::expand_tracked(&s.template, i as u64);
        let out = redactor.redact(&text);
        let leaked: Vec<_> = pieces
            .iter()
            .filter(|p| p.len() >= 8 && out.text.contains(p.as_str()))
            .collect();
        assert_eq!(
            out.text.lines().count(),
            text.lines().count(),
            "line count changed"
        );
        if !out.has_secrets() || !leaked.is_empty() {
            misses.push(format!(
                "MISS {}:{} [{}] {:?} -> {:?}",
                s.file, s.name, s.kind, text, out.text
            ));
        }
    }
    let mut false_positives = Vec::new();
    for (i, s) in negatives.iter().enumerate() {
        let text = testgen::expand(&s.template, 10_000 + i as u64);
        let out = redactor.redact(&text);
        if out.has_secrets() {
            let rules: Vec<_> = out.findings.iter().map(|f| f.rule_id.as_str()).collect();
            false_positives.push(format!(
                "FP {}:{} [{}] {rules:?} {:?} -> {:?}",
                s.file, s.name, s.kind, text, out.text
            ));
        }
    }
    let recall = 1.0 - misses.len() as f64 / positives.len() as f64;
    let fp_rate = false_positives.len() as f64 / negatives.len() as f64;
    for m in misses.iter().chain(&false_positives) {
        println!("{m}");
    }
    println!(
        "redaction corpus: {} positives, {} negatives; recall {:.4} ({} missed), false-positive rate {:.4} ({} flagged)",
        positives.len(),
        negatives.len(),
        recall,
        misses.len(),
        fp_rate,
        false_positives.len()
    );
    assert!(recall >= 0.98, "recall {recall:.4} is below 0.98");
    assert!(
        fp_rate <= 0.02,
        "false-positive rate {fp_rate:.4} is above 0.02"
    );
}
