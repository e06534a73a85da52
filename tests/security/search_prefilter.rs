//! The raw-text prefilter of search (src/prefilter.rs) changes no result: on a corpus full of
//! secrets and of text around them, `Engine::search` gives exactly what redacting every file
//! and then grepping it gives, for many patterns (literal, word-bounded, anchored, classes,
//! patterns touching placeholder text), case-sensitive and not.

use std::path::Path;

use devprojex::content::{Content, ContentPipeline};
use devprojex::engine::{Engine, EngineConfig, Hooks, Request, SearchOptions};
use devprojex::grep::{Grep, render_group, shown_path};
use devprojex::project::ProjectRoot;
use devprojex_redact::{RedactOptions, Redactor};
use proptest::prelude::*;

fn corpus() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let positives =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/devprojex-redact/tests/redaction");
    let mut n = 0;
    for sub in ["positive", "negative"] {
        for entry in std::fs::read_dir(positives.join(sub)).unwrap() {
            let entry = entry.unwrap();
            let text = std::fs::read_to_string(entry.path()).unwrap();
            // Each corpus file whole, and split into small files so secrets sit at file
            // starts and ends too.
            std::fs::write(dir.path().join(format!("whole-{n}.txt")), &text).unwrap();
            for (i, chunk) in text.lines().collect::<Vec<_>>().chunks(7).enumerate() {
                std::fs::write(
                    dir.path().join(format!("part-{n}-{i}.txt")),
                    chunk.join("\n") + "\n",
                )
                .unwrap();
            }
            n += 1;
        }
    }
    // Secrets glued to words (word boundaries at placeholder edges) and around brackets.
    std::fs::write(
        dir.path().join("glued.txt"),
        "xghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5Ax\nkey=AKIAQWERTYUIOPASDFGH;done\n[tag]AKIAQWERTYUIOPASDFGH]\nfoo ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z5A bar\npassword=hunter2hunter2x\n",
    )
    .unwrap();
    dir
}

/// The reference: redact every selected text file, then grep it (no prefilter).
fn reference(root: &ProjectRoot, engine: &Engine, pattern: &str, ignore_case: bool) -> String {
    let (_, selection) = engine.select(root, &Request::default(), None).unwrap();
    let regex = devprojex::engine::compile_search_regex(pattern, ignore_case).unwrap();
    let grep = Grep {
        regex: &regex,
        line_by_line: Grep::needs_line_by_line(pattern),
        context: 1,
        max_matches: 201,
        deadline: None,
        count_only: false,
    };
    let pipeline = ContentPipeline {
        redactor: std::sync::Arc::new(Redactor::new(RedactOptions::default())),
        detail: devprojex_detail::Detail::Full,
        transform_cache: None,
        facts: None,
        measure_only: false,
        overrides: None,
    };
    let mut out = String::new();
    let mut matches = 0;
    'files: for entry in selection.files() {
        let Content::Text(text) = pipeline.load(root, entry) else {
            continue;
        };
        for mut group in grep.file(&text.text).groups {
            let room = 200 - matches;
            if group.matches > room {
                let mut seen = 0;
                let cut = group
                    .lines
                    .iter()
                    .position(|l| {
                        seen += usize::from(l.is_match);
                        seen > room
                    })
                    .unwrap_or(group.lines.len());
                group.lines.truncate(cut);
                group.matches = room;
            }
            if group.matches > 0 {
                render_group(&mut out, &shown_path(&entry.relative), &group.lines, true);
                matches += group.matches;
            }
            if matches >= 200 {
                break 'files;
            }
        }
    }
    out
}

fn search(root: &ProjectRoot, engine: &Engine, pattern: &str, ignore_case: bool) -> String {
    let options = SearchOptions {
        pattern: pattern.into(),
        ignore_case,
        context_lines: 1,
        max_results: 200,
        deadline: None,
        ..SearchOptions::default()
    };
    let outcome = engine
        .search(root, &Request::default(), &options, None, Hooks::default())
        .unwrap();
    devprojex::render::search::grep_lines(&outcome.groups, true)
}

const PATTERNS: &[&str] = &[
    "ghp_",
    "AKIA",
    r"\bkey\b",
    r"\bfoo\b",
    r"foo \w+ bar",
    "REDACTED",
    r"\[",
    "done",
    r";done$",
    r"^key=",
    r"\w+=\w+",
    "password",
    "token",
    "secret",
    r"x\b",
    r"\Bx",
    "aws-access",
    "BEGIN",
    r"[A-Z]{4}",
    "tag",
    "bar$",
    // A word boundary that only exists next to a placeholder: `=` then `[` in the redacted
    // text, `=` then a letter in the raw text.
    r"=\B",
    r"d=\B",
    r"=\[",
];

#[test]
fn search_with_the_prefilter_equals_redact_then_grep() {
    let dir = corpus();
    let root = ProjectRoot::open(dir.path()).unwrap();
    let engine = Engine::new(EngineConfig::default());
    for pattern in PATTERNS {
        for ignore_case in [false, true] {
            assert_eq!(
                search(&root, &engine, pattern, ignore_case),
                reference(&root, &engine, pattern, ignore_case),
                "pattern {pattern:?}, ignore_case {ignore_case}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random patterns built from pieces of secrets, placeholders and plain words.
    #[test]
    fn random_patterns_give_identical_results(
        pieces in prop::collection::vec(
            prop::sample::select(vec![
                "ghp", "_", "AKIA", "key", "=", r"\b", r"\B", r"\w", r"\w+", "foo", "bar",
                " ", "x", "done", "^", "$", "[a-z]", "[0-9]+", "sk", "-", "REDACT", "token",
                "pass", ":", "ED", r"\s",
            ]),
            1..5,
        ),
        ignore_case in any::<bool>(),
    ) {
        let pattern = pieces.concat();
        prop_assume!(devprojex::engine::compile_search_regex(&pattern, ignore_case).is_ok());
        let dir = corpus();
        let root = ProjectRoot::open(dir.path()).unwrap();
        let engine = Engine::new(EngineConfig::default());
        prop_assert_eq!(
            search(&root, &engine, &pattern, ignore_case),
            reference(&root, &engine, &pattern, ignore_case),
            "pattern {:?}", pattern
        );
    }
}
