//! The Gitleaks-derived corpus under `tests/redaction/gitleaks/` (written by its `generate.py`):
//! true positives and near-miss negatives for every rule of the Gitleaks v8.30.1 default
//! configuration, plus the shapes real repositories hold (escaped boundaries, encoded keys,
//! long lines, credential files and command lines).
//!
//! A positive counts as caught when the redactor reports a secret AND none of the generated
//! secret pieces (8 characters or more) survives in the output. A negative is a false positive
//! when any secret is reported. Fails below recall 0.99 or above a false-positive rate of 0.01,
//! overall. Prints the table of `docs/redaction.md`:
//!
//! `cargo test -p devprojex-redact --test redact gitleaks_corpus -- --nocapture`

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use devprojex_redact::{RedactOptions, Redactor, rule_catalog, testgen};

struct Sample {
    name: String,
    kind: String,
    template: String,
}

fn load(path: &Path) -> Vec<Sample> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out: Vec<Sample> = Vec::new();
    for line in text.split('\n') {
        if let Some(header) = line.strip_prefix("%%% ") {
            let mut parts = header.split_whitespace();
            out.push(Sample {
                name: parts.next().unwrap_or("?").to_string(),
                kind: parts.next().unwrap_or("?").to_string(),
                template: String::new(),
            });
        } else if let Some(s) = out.last_mut() {
            if !s.template.is_empty() {
                s.template.push('\n');
            }
            s.template.push_str(line);
        }
    }
    // the file ends with a newline: the last sample does not
    if let Some(s) = out.last_mut()
        && s.template.ends_with('\n')
    {
        s.template.pop();
    }
    out
}

fn root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/redaction/gitleaks")
}

#[derive(Default)]
struct Tally {
    positives: usize,
    missed: usize,
    negatives: usize,
    flagged: usize,
}

#[test]
fn gitleaks_derived_corpus_recall_and_false_positive_rate() {
    let positives = load(&root().join("positive.txt"));
    let negatives = load(&root().join("negative.txt"));
    assert!(
        positives.len() >= 5000,
        "only {} positives",
        positives.len()
    );
    assert!(negatives.len() >= 600, "only {} negatives", negatives.len());
    let providers: HashMap<String, String> = rule_catalog()
        .into_iter()
        .map(|r| (r.id, r.provider))
        .collect();
    // a sample's family: the provider of the rule it was written for, or the shape it exercises
    let family = |kind: &str| {
        providers
            .get(kind)
            .cloned()
            .unwrap_or_else(|| kind.to_string())
    };
    let redactor = Redactor::new(RedactOptions::default());
    let mut tally: BTreeMap<String, Tally> = BTreeMap::new();
    let mut report = Vec::new();
    for (i, s) in positives.iter().enumerate() {
        let (text, pieces) = testgen::expand_tracked(&s.template, i as u64);
        let out = redactor.redact(&text);
        assert_eq!(
            out.text.split('\n').count(),
            text.split('\n').count(),
            "{}: line count changed",
            s.name
        );
        let t = tally.entry(family(&s.kind)).or_default();
        t.positives += 1;
        let leaked = pieces
            .iter()
            .any(|p| p.len() >= 8 && out.text.contains(p.as_str()));
        if !out.has_secrets() || leaked {
            t.missed += 1;
            report.push(format!(
                "MISS {} [{}] {:?} -> {:?}",
                s.name,
                s.kind,
                clip(&text),
                clip(&out.text)
            ));
        }
    }
    for (i, s) in negatives.iter().enumerate() {
        let text = testgen::expand(&s.template, 50_000 + i as u64);
        let out = redactor.redact(&text);
        let t = tally.entry(family(&s.kind)).or_default();
        t.negatives += 1;
        if out.has_secrets() {
            t.flagged += 1;
            let rules: Vec<_> = out.findings.iter().map(|f| f.rule_id.as_str()).collect();
            report.push(format!(
                "FP {} [{}] {rules:?} {:?} -> {:?}",
                s.name,
                s.kind,
                clip(&text),
                clip(&out.text)
            ));
        }
    }
    for line in &report {
        println!("{line}");
    }
    let total = tally.values().fold(Tally::default(), |mut a, t| {
        a.positives += t.positives;
        a.missed += t.missed;
        a.negatives += t.negatives;
        a.flagged += t.flagged;
        a
    });
    println!("| family | positives | recall | negatives | false-positive rate |");
    println!("|---|---:|---:|---:|---:|");
    for (name, t) in tally
        .iter()
        .chain(std::iter::once((&"**all**".to_string(), &total)))
    {
        println!(
            "| {name} | {} | {} | {} | {} |",
            t.positives,
            ratio(t.positives - t.missed, t.positives),
            t.negatives,
            ratio(t.flagged, t.negatives)
        );
    }
    let recall = (total.positives - total.missed) as f64 / total.positives as f64;
    let fp_rate = total.flagged as f64 / total.negatives as f64;
    println!(
        "gitleaks-derived corpus: {} positives, {} negatives; recall {recall:.4} ({} missed), false-positive rate {fp_rate:.4} ({} flagged)",
        total.positives, total.negatives, total.missed, total.flagged
    );
    assert!(recall >= 0.99, "recall {recall:.4} is below 0.99");
    assert!(
        fp_rate <= 0.01,
        "false-positive rate {fp_rate:.4} is above 0.01"
    );
}

fn ratio(n: usize, d: usize) -> String {
    if d == 0 {
        "–".to_string()
    } else {
        format!("{:.3}", n as f64 / d as f64)
    }
}

fn clip(s: &str) -> String {
    if s.len() <= 300 {
        return s.to_string();
    }
    let mut end = 300;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &s[..end], s.len())
}

/// Every Gitleaks rule id has a counterpart that exists, or a reason; the docs table lists them.
#[test]
fn every_gitleaks_rule_id_is_mapped_and_documented() {
    let tsv = std::fs::read_to_string(root().join("mapping.tsv")).expect("mapping.tsv");
    let ours: HashSet<String> = rule_catalog().into_iter().map(|r| r.id).collect();
    let docs = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/redaction.md"),
    )
    .expect("docs/redaction.md");
    let mut ids = 0;
    let mut mapped = 0;
    for line in tsv.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 3, "{line}");
        ids += 1;
        if cols[1].is_empty() {
            assert!(
                !cols[2].is_empty(),
                "{}: no counterpart and no reason",
                cols[0]
            );
        } else {
            mapped += 1;
            for id in cols[1].split(',') {
                assert!(ours.contains(id), "{}: rule `{id}` does not exist", cols[0]);
            }
        }
        assert!(
            docs.contains(&format!("| `{}` |", cols[0])),
            "docs/redaction.md does not list `{}`",
            cols[0]
        );
    }
    assert_eq!(ids, 222, "Gitleaks v8.30.1 has 222 rule ids");
    assert!(mapped >= 220, "only {mapped} ids mapped");
}

/// Every Gitleaks rule id with a counterpart has near-miss negatives as well as positives.
#[test]
fn every_mapped_gitleaks_rule_id_has_positives_and_near_misses() {
    let tsv = std::fs::read_to_string(root().join("mapping.tsv")).expect("mapping.tsv");
    let ids_of = |samples: &[Sample]| -> HashSet<String> {
        samples
            .iter()
            .filter_map(|s| s.name.split_once('#').map(|(id, _)| id.to_string()))
            .collect()
    };
    let with_positives = ids_of(&load(&root().join("positive.txt")));
    let with_negatives = ids_of(&load(&root().join("negative.txt")));
    let mut lacking = Vec::new();
    for line in tsv.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() == 3 && !cols[1].is_empty() {
            for (set, what) in [
                (&with_positives, "positives"),
                (&with_negatives, "near misses"),
            ] {
                if !set.contains(cols[0]) {
                    lacking.push(format!("{} has no {what}", cols[0]));
                }
            }
        }
    }
    assert!(lacking.is_empty(), "{}", lacking.join("\n"));
}
