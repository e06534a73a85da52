//! `devprojex relevant`: the ranked files as text and JSON, and its two ways to pass a query.

use crate::common::{self, Fixture};
use serde_json::Value;

fn project() -> Fixture {
    let fx = Fixture::new();
    fx.write(
        "src/parser.rs",
        "/// Parse the arguments.\npub fn parse_args(args: &[String]) -> Config {\n    Config::default()\n}\n",
    )
    .write("src/main.rs", "fn main() {\n    println!(\"hi\");\n}\n")
    .write("README.md", "# demo\n");
    common::git(&fx.root, &["init", "-q"]);
    common::git(&fx.root, &["add", "-A"]);
    common::git(&fx.root, &["commit", "-qm", "parser: read the arguments"]);
    fx
}

/// Runs `devprojex ARGS` in `root`; its stdout, once it succeeded.
fn run_ok(args: &[&str], root: &std::path::Path) -> Vec<u8> {
    let out = common::run(args, root);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn json_lists_files_with_score_reasons_and_ranges_in_order() {
    let fx = project();
    let out = run_ok(
        &[
            "relevant",
            ".",
            "--query",
            "parse_args crashes on empty input",
            "--format",
            "json",
        ],
        &fx.root,
    );
    let text = String::from_utf8(out).unwrap();
    let keys: Vec<usize> = [
        "\"query\"",
        "\"files\"",
        "\"path\"",
        "\"score\"",
        "\"reasons\"",
        "\"ranges\"",
    ]
    .iter()
    .map(|k| text.find(k).unwrap())
    .collect();
    assert!(keys.windows(2).all(|w| w[0] < w[1]), "field order: {text}");
    let value: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["query"], "parse_args crashes on empty input");
    let first = &value["files"][0];
    assert_eq!(first["path"], "src/parser.rs");
    assert_eq!(first["score"], 1.0);
    assert!(
        first["reasons"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r == "defines parse_args"),
        "{first}"
    );
    assert_eq!(first["ranges"][0]["start"], 1, "{first}");
}

#[test]
fn the_query_comes_from_a_flag_or_a_file_and_one_is_required() {
    let fx = project();
    fx.write(".task.txt", "parse_args crashes on empty input\n");
    let by_file = run_ok(
        &[
            "relevant",
            ".",
            "--query-file",
            ".task.txt",
            "--max-results",
            "1",
        ],
        &fx.root,
    );
    let text = String::from_utf8(by_file).unwrap();
    assert!(
        text.starts_with("1. src/parser.rs (score 1.000)\n"),
        "{text}"
    );
    assert!(!text.contains("2. "), "{text}");

    let neither = common::run(&["relevant", "."], &fx.root);
    assert_eq!(neither.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&neither.stderr).contains("--query"));
    let both = common::run(
        &["relevant", ".", "--query", "x", "--query-file", ".task.txt"],
        &fx.root,
    );
    assert_eq!(both.status.code(), Some(2));
    fx.write(".binary", b"\x00\x01\x02ELF");
    let binary = common::run(&["relevant", ".", "--query-file", ".binary"], &fx.root);
    assert_eq!(binary.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&binary.stderr).contains("binary"));
    let nothing = common::run(&["relevant", ".", "--query", "zebra"], &fx.root);
    assert_eq!(nothing.status.code(), Some(1));
}

/// `DEVPROJEX_RANK_FEATURES` (the benchmark's knob for fitting the weights) writes each
/// candidate's signal components to its file and leaves the answer as it is.
#[test]
fn the_features_knob_dumps_signal_components_and_changes_no_answer() {
    let fx = project();
    let dump_dir = tempfile::tempdir().unwrap();
    let dump = dump_dir.path().join("features.jsonl");
    let args = [
        "relevant",
        ".",
        "--query",
        "parse_args crashes on empty input",
        "--format",
        "json",
    ];
    let plain = common::run(&args, &fx.root);
    let dumped = std::process::Command::new(common::bin())
        .args(args)
        .current_dir(&fx.root)
        .env("DEVPROJEX_CONFIG_DIR", fx.root.join(".no-config"))
        .env_remove("DEVPROJEX_ROOT")
        .env("DEVPROJEX_RANK_FEATURES", &dump)
        .output()
        .unwrap();
    assert!(dumped.status.success());
    assert_eq!(plain.stdout, dumped.stdout, "the answer does not change");
    let text = std::fs::read_to_string(&dump).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    let line: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(line["searched_files"], 3, "{line}");
    let first = &line["files"][0];
    assert_eq!(first["path"], "src/parser.rs", "{line}");
    assert_eq!(first["fields"], 1.0, "{first}");
    assert!(first["definitions"].as_f64().unwrap() >= 1.0, "{first}");
    assert_eq!(first["class"], "source", "{first}");
    assert_eq!(
        (first["prior"].clone(), first["bonus"].clone()),
        (1.0.into(), 0.5.into())
    );
    assert_eq!(first["history_commits"], 1, "{first}");
    assert_eq!(first["changes"], 1, "{first}");
    assert_eq!(first["since_change"], 0, "{first}");
    assert!(
        !text.contains("Config::default"),
        "paths and numbers, no file text"
    );
}

/// `DEVPROJEX_RANK_WITHOUT` (the benchmark's ablation knob) with a name that is not a signal
/// fails, for `relevant` and `pack --query` alike, and says which names there are: before, a
/// misspelled signal was ignored and the ablation measured the whole ranker under its label.
#[test]
fn a_misspelled_signal_to_switch_off_fails_and_lists_the_signals() {
    let fx = project();
    let with_knob = |args: &[&str], without: &str| {
        std::process::Command::new(common::bin())
            .args(args)
            .current_dir(&fx.root)
            .env("DEVPROJEX_CONFIG_DIR", fx.root.join(".no-config"))
            .env_remove("DEVPROJEX_ROOT")
            .env("DEVPROJEX_RANK_WITHOUT", without)
            .output()
            .unwrap()
    };
    let relevant = ["relevant", ".", "--query", "parse_args crashes"];
    let pack = ["pack", ".", "--query", "parse_args crashes", "-q"];
    for args in [&relevant[..], &pack[..]] {
        let out = with_knob(args, "graph,grpah");
        assert!(!out.status.success(), "{args:?}");
        assert!(
            out.stdout.is_empty(),
            "{args:?}: nothing is written before the error"
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("DPX-MCP-INVALID-ARGUMENTS"), "{stderr}");
        assert!(
            stderr.contains("'grpah', which is not a signal"),
            "{stderr}"
        );
        assert!(
            stderr.contains("fields, definitions, names, graph, mentions"),
            "{stderr}"
        );
        let out = with_knob(args, "graph, messages");
        assert!(out.status.success(), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("src/parser.rs"),
            "{args:?}"
        );
    }
}

#[test]
fn a_panic_location_in_an_issue_names_the_file_that_panicked() {
    let fx = project();
    fx.write(
        "src/config.rs",
        "/// Read the walker options from the config: depth, hidden.\npub fn read_options(path: &Path) -> Options {\n    Options::default()\n}\n",
    )
    .write(
        "src/walk.rs",
        "pub fn visit(dir: &Path) {\n    for entry in dir.read_dir().unwrap() {\n        let _ = entry;\n    }\n}\n",
    )
    .write(
        ".issue.txt",
        "Crash with the walker options\n\nWith `depth = 2` in the config the walker crashes:\n\n```\nthread 'main' panicked at /home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/demo-1.2.0/src/walk.rs:88:5:\ncalled `Option::unwrap()` on a `None` value\n```\n",
    );
    let out = run_ok(
        &[
            "relevant",
            ".",
            "--query-file",
            ".issue.txt",
            "--format",
            "json",
        ],
        &fx.root,
    );
    let value: Value = serde_json::from_slice(&out).unwrap();
    let first = &value["files"][0];
    assert_eq!(first["path"], "src/walk.rs", "{value}");
    assert!(
        first["reasons"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r == "named in the query"),
        "{first}"
    );
}

#[test]
fn a_commit_style_scope_ranks_the_folder_it_names_first_and_says_so() {
    // both crates speak of attribute paths, `tracing/` more (without the scope it ranks first);
    // the title's scope `attributes` names the other
    let fx = Fixture::new();
    fx.write(
        "tracing/src/lib.rs",
        "pub fn span() {}\n// globally qualify the attribute paths\n",
    )
    .write(
        "tracing-attributes/src/attr.rs",
        "/// Expands an attribute.\npub fn expand() {}\n// paths\n",
    )
    .write("tracing-core/src/lib.rs", "pub fn other() {}\n");
    let text = String::from_utf8(run_ok(
        &[
            "relevant",
            ".",
            "--query",
            "attributes: globally qualify attribute paths",
        ],
        &fx.root,
    ))
    .unwrap();
    insta::assert_snapshot!("relevant_scope_reason", text);
    let first = text.lines().next().unwrap();
    assert!(first.contains("tracing-attributes/src/attr.rs"), "{text}");
}

#[test]
fn a_file_found_through_the_best_hits_words_says_so() {
    // `tokens.py` has no word of the query and shares no name the graph follows; it uses the
    // words the hit uses most (`serializer`, `signing_salt`), so the feedback step ranks it
    let fx = Fixture::new();
    fx.write(
        "src/sessions.py",
        "def open_session(request):\n    cookie = request.cookies.get(name)\n    \
         return serializer.loads(cookie, salt=signing_salt)\n\n\
         def save_session(response):\n    \
         response.set_cookie(serializer.dumps(data, salt=signing_salt))\n",
    )
    .write(
        "src/tokens.py",
        "def make_token(data):\n    return serializer.dumps(data, salt=signing_salt)\n\n\
         def read_token(value):\n    return serializer.loads(value, salt=signing_salt)\n",
    );
    for i in 0..8 {
        fx.write(
            &format!("src/other{i}.py"),
            format!("def other{i}():\n    return value{i} + total{i}\n"),
        );
    }
    let text = String::from_utf8(run_ok(
        &[
            "relevant",
            ".",
            "--query",
            "The session cookie expires too early",
        ],
        &fx.root,
    ))
    .unwrap();
    insta::assert_snapshot!("relevant_feedback_reason", text);
    assert!(text.contains("\n2. src/tokens.py "), "{text}");
}

/// A file over 1 MiB is shown by windows around its densest lines, not by its definitions:
/// parsing one takes many times its size, and the kernel's generated register headers set the
/// server's peak memory. A smaller file with the same function is shown by that function.
#[test]
fn a_file_over_one_mib_is_shown_by_its_densest_lines_not_its_definitions() {
    let function = "static int drain(struct q *q)\n{\n".to_string()
        + &"    q->count += 1;\n".repeat(20)
        + "    wake_busy_queue_on_wakeup(q); /* drain the busy queue */\n"
        + &"    q->count -= 1;\n".repeat(20)
        + "    return 0;\n}\n";
    let first_line_of = |text: &str| text.lines().count() + 1;
    let range_around_the_dense_line = |filler_lines: usize| {
        let fx = Fixture::new();
        let filler: String = (0..filler_lines)
            .map(|i| format!("/* table entry {i:06} */\n"))
            .collect();
        // a blank line: the filler is not the function's doc comment
        let filler = filler + "\n";
        let start = first_line_of(&filler);
        fx.write("src/queue.c", filler + &function);
        fx.write("src/other.c", "int other(void) { return 1; }\n");
        let out = run_ok(
            &[
                "relevant",
                ".",
                "--query",
                "drain the busy queue on wakeup",
                "--format",
                "json",
            ],
            &fx.root,
        );
        let value: Value = serde_json::from_slice(&out).unwrap();
        let file = &value["files"][0];
        assert_eq!(file["path"], "src/queue.c");
        let dense = (start + 22) as u64;
        let range = file["ranges"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["start"].as_u64().unwrap(), r["end"].as_u64().unwrap()))
            .find(|&(s, e)| s <= dense && dense <= e)
            .unwrap_or_else(|| panic!("no range holds line {dense}: {file}"));
        (range, start as u64)
    };
    // 50,000 lines of 25 bytes: over 1 MiB
    let ((start, end), function_start) = range_around_the_dense_line(50_000);
    assert!(
        end - start < 13 && start > function_start,
        "a window around the dense line, not the function: {start}-{end}"
    );
    let ((start, end), function_start) = range_around_the_dense_line(10);
    assert_eq!((start, end), (function_start, function_start + 44));
}

#[test]
fn a_change_the_query_names_ranks_the_files_it_changed_and_says_so() {
    // both files speak of escaping the same way; the merged pull request changed `ser.rs` only
    let fx = Fixture::new();
    fx.write("src/ser.rs", "pub fn escape_str() {}\n// escape\n")
        .write("src/de.rs", "pub fn escape_str() {}\n// escape\n");
    common::git(&fx.root, &["init", "-q"]);
    common::git(&fx.root, &["add", "-A"]);
    common::git(&fx.root, &["commit", "-qm", "initial"]);
    common::git(&fx.root, &["checkout", "-qb", "escaping"]);
    fx.write("src/ser.rs", "pub fn escape_str() {}\n// escape faster\n");
    common::git(&fx.root, &["commit", "-qam", "optimise string escaping"]);
    common::git(&fx.root, &["checkout", "-q", "-"]);
    common::git(
        &fx.root,
        &[
            "merge",
            "-q",
            "--no-ff",
            "-m",
            "Merge pull request #12 from a/escaping",
            "escaping",
        ],
    );
    fx.write("src/de.rs", "pub fn escape_str() {}\n// escape less\n");
    common::git(&fx.root, &["commit", "-qam", "Fix a typo (#13)"]);
    let ser = |query: &str| -> String {
        let out = run_ok(
            &["relevant", ".", "--query", query, "--format", "json"],
            &fx.root,
        );
        let json: Value = serde_json::from_slice(&out).unwrap();
        let first = &json["files"][0];
        assert_eq!(first["path"], "src/ser.rs", "{query}: {json}");
        first["reasons"][0].as_str().unwrap().to_string()
    };
    assert_eq!(
        ser("Touch up PR 12: escape"),
        "changed in #12, which the query names"
    );
    // the whole id: a short one may be all digits, which reads as a number
    let merge = String::from_utf8(
        std::process::Command::new("git")
            .args(["rev-parse", "HEAD^"])
            .current_dir(&fx.root)
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert_eq!(
        ser(&format!("escape: follow-up to {}", merge.trim())),
        format!("changed in commit {}, which the query names", &merge[..10])
    );
}
