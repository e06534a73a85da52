//! Every rule compiles, has a unique id, keywords that occur in its examples, and catches each of
//! its positive examples (and none of its negative ones).

use devprojex_redact::{
    RedactOptions, Redactor, rule_catalog, rule_match_count, testgen, validate_rules,
};
use std::collections::HashSet;

#[test]
fn rules_compile_with_unique_ids() {
    let n = validate_rules().expect("rules.toml compiles");
    let catalog = rule_catalog();
    assert_eq!(n, catalog.len());
    let ids: HashSet<_> = catalog.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids.len(), catalog.len(), "duplicate rule ids");
    let providers = catalog.iter().filter(|r| r.provider != "generic").count();
    assert!(providers >= 100, "only {providers} provider rules");
    println!("{} rules, {providers} provider-specific", catalog.len());
}

#[test]
fn every_rule_catches_its_examples() {
    let redactor = Redactor::new(RedactOptions::default());
    let mut failures = Vec::new();
    for rule in rule_catalog() {
        assert!(!rule.examples.is_empty(), "{} has no example", rule.id);
        for (i, template) in rule.examples.iter().enumerate() {
            for seed in 0..4u64 {
                let (text, pieces) = testgen::expand_tracked(template, seed * 31 + i as u64);
                let lower = text.to_ascii_lowercase();
                // a rule without keywords (a key file) is checked on every text
                if !rule.keywords.is_empty()
                    && !rule
                        .keywords
                        .iter()
                        .any(|k| lower.contains(&k.to_ascii_lowercase()))
                {
                    failures.push(format!("{}: no keyword in example {text:?}", rule.id));
                }
                if rule_match_count(&rule.id, &text).unwrap_or(0) == 0 {
                    failures.push(format!("{}: misses its example {text:?}", rule.id));
                }
                let out = redactor.redact(&text);
                for p in pieces.iter().filter(|p| p.len() >= 8) {
                    if out.text.contains(p.as_str()) {
                        failures.push(format!("{}: leaks {p:?} in {:?}", rule.id, out.text));
                    }
                }
                assert_eq!(out.text.lines().count(), text.lines().count());
            }
        }
        for template in &rule.negatives {
            let text = testgen::expand(template, 7);
            if rule_match_count(&rule.id, &text).unwrap_or(0) != 0 {
                failures.push(format!("{}: catches its negative {text:?}", rule.id));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Whole-file rules (a key file holds nothing but its key) catch their examples as whole files
/// and never the same text inside other lines, where 32 hex digits are a checksum or an id; the
/// catalog says which rules they are, so callers (the fuzzer) do not expect more of them.
#[test]
fn whole_file_rules_catch_their_examples_only_as_whole_files() {
    let redactor = Redactor::new(RedactOptions::default());
    let whole: Vec<_> = rule_catalog()
        .into_iter()
        .filter(|r| r.whole_file)
        .collect();
    let ids: Vec<&str> = whole.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["rails-master-key"]);
    for rule in &whole {
        assert!(
            rule.keywords.is_empty(),
            "{}: a whole-file rule needs no keyword",
            rule.id
        );
        for (i, template) in rule.examples.iter().enumerate() {
            let text = testgen::expand(template, i as u64);
            let alone = redactor.redact(&text);
            assert!(
                alone.findings.iter().any(|f| f.rule_id == rule.id),
                "{}: misses {text:?} as a whole file",
                rule.id
            );
            let inside = format!("checksums:\n{text}\nend\n");
            let out = redactor.redact(&inside);
            assert!(
                out.findings.iter().all(|f| f.rule_id != rule.id),
                "{}: caught inside other text: {:?}",
                rule.id,
                out.findings
            );
        }
    }
}
