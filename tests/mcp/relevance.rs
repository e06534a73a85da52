//! `relevant_files` over MCP stdio: the real binary on fixture projects with Git history.

use crate::common::{self, Fixture, Mcp, code_of, one_spot};
use serde_json::json;

/// The payload of the spotlighted block, and the trusted text after it.
fn split(text: &str) -> (String, String) {
    let spot = one_spot(text);
    (spot.inner, text[spot.end..].to_string())
}

const RUNNER: &str = "\"\"\"Run the hooks a command registered.\"\"\"\n\nfrom .registry import HOOKS\n\n\ndef log(message):\n    print(message)\n\n\ndef execute_hook(name, payload):\n    hook = HOOKS[name]\n    try:\n        return hook(payload)\n    except Exception:\n        return None\n\n\ndef hook_names():\n    return sorted(HOOKS)\n";

/// Six files and four commits: the hooks' two files changed together three times.
fn hooks_project(with_git: bool) -> Fixture {
    let fx = Fixture::new();
    fx.write("src/hooks/runner.py", RUNNER)
        .write(
            "src/hooks/registry.py",
            "HOOKS = {}\n\n\ndef register_hook(name, function):\n    HOOKS[name] = function\n",
        )
        .write(
            "src/cli/main.py",
            "import sys\n\nfrom hooks.runner import execute_hook\n\n\ndef main():\n    execute_hook(sys.argv[1], None)\n",
        )
        .write(
            "src/util/strings.py",
            "def trim(text):\n    return text.strip()\n\n\ndef pad(text, width):\n    return text.ljust(width)\n",
        )
        .write(
            "tests/test_runner.py",
            "from hooks.runner import execute_hook\n\n\ndef test_execute_hook_fails():\n    assert execute_hook('missing', None) is None\n",
        )
        .write(
            "docs/hooks.md",
            "# Hooks\n\nA hook runs when a command starts; a failing hook is reported.\n",
        );
    if with_git {
        common::git(&fx.root, &["init", "-q"]);
        common::git(&fx.root, &["add", "-A"]);
        common::git(&fx.root, &["commit", "-qm", "initial import"]);
        for (message, registry) in [
            ("hooks: retry a hook once", "# retried\n"),
            ("hooks: time each hook", "# timed\n"),
        ] {
            let runner = std::fs::read_to_string(fx.path("src/hooks/runner.py")).unwrap();
            fx.write("src/hooks/runner.py", format!("{runner}\n# {message}\n"));
            let old = std::fs::read_to_string(fx.path("src/hooks/registry.py")).unwrap();
            fx.write("src/hooks/registry.py", format!("{old}{registry}"));
            common::git(&fx.root, &["commit", "-qam", message]);
        }
        fx.write(
            "src/util/strings.py",
            "def trim(text):\n    return text.strip(' ')\n\n\ndef pad(text, width):\n    return text.ljust(width)\n",
        );
        common::git(&fx.root, &["commit", "-qam", "strings: trim spaces only"]);
    }
    fx
}

#[test]
fn the_known_answer_ranks_first_with_its_reasons_and_ranges() {
    let fx = hooks_project(true);
    let mut mcp = Mcp::start(&fx.root);
    let text = mcp.call_ok(
        "relevant_files",
        json!({"query": "execute_hook swallows the error when a hook fails"}),
    );
    let (body, trailer) = split(&text);
    assert!(
        body.starts_with("1. src/hooks/runner.py (score 1.000)\n"),
        "{body}"
    );
    let first: Vec<&str> = body.lines().take(3).collect();
    assert!(first[1].contains("defines execute_hook"), "{body}");
    // the module's docstring and import of HOOKS, execute_hook's definition and the next one
    assert_eq!(first[2], "   lines 1-5, 10-23", "{body}");
    assert!(
        body.contains("changed with src/hooks/runner.py in 3 commits"),
        "the co-changed registry: {body}"
    );
    assert!(
        trailer.contains("ranked from 6 text files and 4 commits of Git history"),
        "{trailer}"
    );
    insta::assert_snapshot!("relevant_files_answer", body);
}

#[test]
fn the_order_is_deterministic() {
    let fx = hooks_project(true);
    let query = json!({"query": "hook names sorted", "max_results": 4});
    let mut mcp = Mcp::start(&fx.root);
    let first = split(&mcp.call_ok("relevant_files", query.clone())).0;
    let warm = split(&mcp.call_ok("relevant_files", query.clone())).0;
    let mut other = Mcp::start(&fx.root);
    let fresh = split(&other.call_ok("relevant_files", query)).0;
    assert_eq!(first, warm);
    assert_eq!(first, fresh);
    assert_eq!(
        first.lines().filter(|l| l.contains(". ")).count(),
        4,
        "{first}"
    );
}

#[test]
fn an_edit_is_seen_by_the_next_call() {
    let fx = hooks_project(false);
    let mut mcp = Mcp::start(&fx.root);
    let query = json!({"query": "frobnicate the widget"});
    let before = mcp.call_ok("relevant_files", query.clone());
    assert!(before.starts_with("No file"), "{before}");
    fx.write(
        "src/util/strings.py",
        "def frobnicate(widget):\n    return widget\n",
    );
    let after = split(&mcp.call_ok("relevant_files", query)).0;
    assert!(after.starts_with("1. src/util/strings.py"), "{after}");
}

#[test]
fn secrets_stay_out_of_reasons_and_ranges() {
    let fx = hooks_project(true);
    fx.write(
        "src/hooks/auth.py",
        "def execute_hook_token():\n    token = \"ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6\"\n    return token\n",
    );
    let mut mcp = Mcp::start(&fx.root);
    let text = mcp.call_ok(
        "relevant_files",
        json!({"query": "execute_hook_token ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6"}),
    );
    let (body, _) = split(&text);
    assert!(body.starts_with("1. src/hooks/auth.py"), "{body}");
    assert!(body.contains("defines execute_hook_token"), "{body}");
    assert!(!body.to_lowercase().contains("ab3de6gh9"), "{body}");
}

/// A secret pasted into a commit message moves no ranking: messages are redacted before they
/// are tokenized, so the right token and a wrong one of the same shape get the same answer.
#[test]
fn a_secret_in_a_commit_message_is_no_oracle() {
    let fx = hooks_project(true);
    fx.write(
        "docs/tokens.md",
        "# Tokens\n\nA GitHub token starts with ghp and is kept in the environment.\n",
    );
    common::git(&fx.root, &["add", "-A"]);
    common::git(&fx.root, &["commit", "-qm", "docs: tokens"]);
    fx.write("src/util/strings.py", "def trim(text):\n    return text\n");
    common::git(
        &fx.root,
        &[
            "commit",
            "-qam",
            "util: use ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6 for the mirror",
        ],
    );
    let mut mcp = Mcp::start(&fx.root);
    let mut answer = |token: &str| {
        let text = mcp.call_ok(
            "relevant_files",
            json!({"query": format!("the {token} token")}),
        );
        split(&text).0
    };
    let right = answer("ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6");
    let wrong = answer("ghp_zY8xW7vU6tS5rQ4pO3nM2lK1jI0hG9fE8dC7");
    assert_eq!(right, wrong);
    assert!(!right.contains("src/util/strings.py"), "{right}");
}

#[test]
fn the_selection_arguments_narrow_the_ranking() {
    let fx = hooks_project(true);
    let mut mcp = Mcp::start(&fx.root);
    let query = "execute_hook fails";
    let only_cli = split(&mcp.call_ok(
        "relevant_files",
        json!({"query": query, "include_patterns": ["src/cli/**"]}),
    ))
    .0;
    assert!(only_cli.starts_with("1. src/cli/main.py"), "{only_cli}");
    assert!(!only_cli.contains("runner.py"), "{only_cli}");
    let without_hooks = split(&mcp.call_ok(
        "relevant_files",
        json!({"query": query, "exclude_patterns": ["src/hooks/**"]}),
    ))
    .0;
    assert!(!without_hooks.contains("src/hooks/"), "{without_hooks}");
    let one = split(&mcp.call_ok("relevant_files", json!({"query": query, "max_results": 1}))).0;
    assert_eq!(one.lines().filter(|l| l.contains(". ")).count(), 1, "{one}");
}

#[test]
fn bad_queries_are_invalid_arguments() {
    let fx = hooks_project(false);
    let mut mcp = Mcp::start(&fx.root);
    for (query, says) in [
        (json!(""), "query is empty"),
        (json!("   \n"), "query is empty"),
        (json!("x".repeat(8001)), "8000"),
        (json!("\u{0}\u{1}ELF\u{2}"), "binary"),
        (json!("the and of"), "no word to rank by"),
        (json!(7), "string"),
    ] {
        let text = mcp.call_err("relevant_files", json!({"query": query}));
        assert_eq!(code_of(&text), "DPX-MCP-INVALID-ARGUMENTS", "{text}");
        assert!(text.contains(says), "{says}: {text}");
    }
    let text = mcp.call_err("relevant_files", json!({}));
    assert_eq!(code_of(&text), "DPX-MCP-INVALID-ARGUMENTS", "{text}");
    let text = mcp.call_err("relevant_files", json!({"query": "x", "max_results": 201}));
    assert_eq!(code_of(&text), "DPX-MCP-INVALID-ARGUMENTS", "{text}");
}

#[test]
fn a_project_without_git_history_still_ranks() {
    let fx = hooks_project(false);
    let mut mcp = Mcp::start(&fx.root);
    let text = mcp.call_ok(
        "relevant_files",
        json!({"query": "execute_hook swallows the error when a hook fails"}),
    );
    let (body, trailer) = split(&text);
    assert!(body.starts_with("1. src/hooks/runner.py"), "{body}");
    assert!(!body.contains("commit"), "{body}");
    assert!(trailer.contains("ranked from 6 text files."), "{trailer}");
}

/// The inline pack document and its budget report (the blocks of a `pack_context` answer).
fn pack_blocks(mcp: &mut Mcp, arguments: serde_json::Value) -> (String, String) {
    let result = mcp.call("pack_context", arguments);
    let texts = common::all_texts(&result);
    let document = one_spot(&texts[0]).inner;
    let report = texts.get(1).map(|t| one_spot(t).inner).unwrap_or_default();
    (document, report)
}

#[test]
fn a_query_pack_fills_its_budget_best_first_with_graded_detail() {
    let fx = hooks_project(true);
    let mut mcp = Mcp::start(&fx.root);
    let (document, report) = pack_blocks(
        &mut mcp,
        json!({"query": "execute_hook swallows the error when a hook fails", "max_tokens": 400}),
    );
    // the best file comes first, in full; the tree still names every file
    let first = document
        .find("### src/hooks/runner.py")
        .expect("the best file");
    for other in ["### src/hooks/registry.py", "### src/cli/main.py"] {
        if let Some(at) = document.find(other) {
            assert!(first < at, "{document}");
        }
    }
    assert!(
        document.contains("util/") && document.contains("strings.py"),
        "{document}"
    );
    assert!(
        !document.contains("### src/util/strings.py"),
        "no match: {document}"
    );
    assert!(
        report.contains("Ranked by relevance to the query: "),
        "{report}"
    );
    assert!(
        report.contains("- src/hooks/runner.py: full (score 1.000"),
        "{report}"
    );
    assert!(report.contains("as names only (no match)"), "{report}");
    // without a budget every file is packed, the ranked ones first
    let (all, _) = pack_blocks(
        &mut mcp,
        json!({"query": "register_hook", "format": "json"}),
    );
    let value: serde_json::Value = serde_json::from_str(&all).unwrap();
    let paths: Vec<&str> = value["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths[0], "src/hooks/registry.py", "{paths:?}");
    assert_eq!(paths.len(), 6, "{paths:?}");
}

#[test]
fn a_file_over_a_quarter_of_the_budget_goes_in_at_signatures() {
    let fx = hooks_project(false);
    // the best file grows to about 800 estimated tokens, most of them function bodies
    let mut runner = RUNNER.to_string();
    for i in 0..30 {
        runner.push_str(&format!(
            "\n\ndef step_{i}(payload):\n    value = payload.get(\"key_{i}\", None)\n    return execute_hook(\"step_{i}\", value)\n"
        ));
    }
    fx.write("src/hooks/runner.py", &runner);
    let mut mcp = Mcp::start(&fx.root);
    let (_, report) = pack_blocks(
        &mut mcp,
        json!({"query": "execute_hook swallows the error when a hook fails", "max_tokens": 1000}),
    );
    // in full it would fit, but leave the next ranked files only their signatures
    assert!(
        report.contains("- src/hooks/runner.py: signatures (score 1.000"),
        "{report}"
    );
    assert!(report.contains(": full (score"), "{report}");
}

/// A Python function `name` of about 410 estimated tokens, about 145 at signatures (a long
/// docstring and a body of retries).
fn handler(name: &str) -> String {
    let doc: Vec<String> = (0..12)
        .map(|j| format!("check field {j} and retry it when missing,"))
        .collect();
    let body: String = (0..10)
        .map(|j| {
            format!(
                "    step_{j} = payload.get('field_{j}', None)\n    if step_{j} is None:\n        return retry_request(payload, {j})\n"
            )
        })
        .collect();
    format!(
        "def {name}(payload):\n    \"\"\"Handle one request: {} then return it.\"\"\"\n{body}    return payload\n",
        doc.join(" ")
    )
}

#[test]
fn a_query_pack_makes_room_for_the_best_files_before_any_goes_in_full() {
    // eleven matching files of about 410 estimated tokens each, about 145 at signatures (a
    // long docstring), in a budget of 2000: the first two in full would leave room for only
    // eight more at signatures, so every one goes in at signatures first, and what is left
    // takes the best one in full
    let fx = Fixture::new();
    for i in 0..11 {
        fx.write(
            &format!("src/handler_{i}.py"),
            handler(&format!("handle_request_{i}")),
        );
    }
    fx.write("src/other.py", "def unrelated():\n    return 1\n");
    let mut mcp = Mcp::start(&fx.root);
    let (document, report) = pack_blocks(
        &mut mcp,
        json!({"query": "handle request retry", "max_tokens": 2000, "format": "json"}),
    );
    let value: serde_json::Value = serde_json::from_str(&document).unwrap();
    let mut packed: Vec<&str> = value["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    packed.sort_unstable();
    let mut handlers: Vec<String> = (0..11).map(|i| format!("src/handler_{i}.py")).collect();
    handlers.sort_unstable();
    assert_eq!(packed, handlers, "{report}");
    assert_eq!(report.matches(": full (score").count(), 1, "{report}");
    assert_eq!(
        report.matches(": signatures (score").count(),
        10,
        "{report}"
    );
    assert!(!report.contains("handler_9.py: names"), "{report}");
    // what the agent reads: which file got which detail
    insta::assert_snapshot!("query_pack_coverage_first_report", report);
}

#[test]
fn a_large_file_gives_way_to_the_smaller_ones_ranked_after_it() {
    // the query names the best two; the third defines seven functions with long signatures
    // (about 840 estimated tokens at signatures), and the six after it about 145 each: in a
    // budget of 1200 the six together are likelier to hold the answer than the third alone
    let fx = Fixture::new();
    for i in 0..8 {
        let name = if i < 2 {
            format!("handle_request_retry_{i}")
        } else {
            format!("process_{i}")
        };
        fx.write(&format!("src/handler_{i}.py"), handler(&name));
    }
    let variants: String = (0..7)
        .map(|k| {
            format!(
                "def handle_request_variant_{k}(payload, retry_count, request_timeout, target_host, target_port):\n    \"\"\"Dispatch a request variant {k}: {}\"\"\"\n    return forward(payload, {k})\n\n",
                (0..12)
                    .map(|j| format!("check field {j} when missing,"))
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        })
        .collect();
    fx.write("src/handler_all.py", &variants);
    let mut mcp = Mcp::start(&fx.root);
    let (_, report) = pack_blocks(
        &mut mcp,
        json!({"query": "handle request retry, as in src/handler_0.py and src/handler_1.py", "max_tokens": 1200}),
    );
    let order: Vec<&str> = report
        .lines()
        .filter_map(|l| l.strip_prefix("- src/"))
        .filter(|l| l.contains("(score"))
        .collect();
    assert!(order[0].starts_with("handler_0.py: signatures"), "{report}");
    assert!(order[1].starts_with("handler_1.py: signatures"), "{report}");
    assert!(order[2].starts_with("handler_all.py: names"), "{report}");
    for (i, line) in order[3..9].iter().enumerate() {
        assert!(
            line.starts_with(&format!("handler_{}.py: signatures", i + 2)),
            "{report}"
        );
    }
}

#[test]
fn a_query_pack_stops_trying_files_once_200_in_a_row_did_not_fit() {
    // 250 files the query matches well, each too big for the budget even at signatures, then
    // one that matches weakly and would fit: after the best 40 (chosen among as a whole) and
    // 200 misses in a row after them the budget counts as
    // spent, so it stays a name (its signatures are not computed: on the kernel, trying every
    // matched file took two minutes)
    let fx = Fixture::new();
    let defs: String = (0..60)
        .map(|k| format!("def alpha_beta_{k}(alpha, beta):\n    return alpha + beta + {k}\n\n"))
        .collect();
    for i in 0..250 {
        fx.write(&format!("src/alpha_beta_{i:03}.py"), &defs);
    }
    fx.write("src/tiny.py", "# beta\n");
    let mut mcp = Mcp::start(&fx.root);
    let (document, report) = pack_blocks(
        &mut mcp,
        json!({"query": "alpha beta", "max_tokens": 300, "format": "json"}),
    );
    let value: serde_json::Value = serde_json::from_str(&document).unwrap();
    let packed: Vec<&str> = value["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert!(packed.is_empty(), "{packed:?}\n{report}");
    assert!(
        report.contains(
            "0 files in full, 0 files at signatures, 251 files as names only (over the budget)"
        ),
        "{report}"
    );
}

#[test]
fn centrality_puts_the_most_used_definitions_first() {
    let fx = hooks_project(false);
    let mut mcp = Mcp::start(&fx.root);
    let (document, report) = pack_blocks(
        &mut mcp,
        json!({"rank": "centrality", "detail": "signatures", "max_tokens": 2000, "format": "json"}),
    );
    let value: serde_json::Value = serde_json::from_str(&document).unwrap();
    assert_eq!(
        value["files"][0]["path"], "src/hooks/runner.py",
        "{document}"
    );
    assert!(report.contains("Ranked by centrality"), "{report}");
    // the request reduced every file to signatures, and the report says so
    assert!(report.contains(" 0 files in full, "), "{report}");
}

#[test]
fn query_and_rank_conflicts_are_invalid_arguments() {
    let fx = hooks_project(false);
    let mut mcp = Mcp::start(&fx.root);
    for (arguments, says) in [
        (json!({"rank": "relevance"}), "needs a query"),
        (
            json!({"query": "hooks", "rank": "centrality"}),
            "drop query",
        ),
        (json!({"query": "\u{0}"}), "binary"),
        (json!({"rank": "popular"}), "rank"),
    ] {
        let text = mcp.call_err("pack_context", arguments);
        assert_eq!(code_of(&text), "DPX-MCP-INVALID-ARGUMENTS", "{text}");
        assert!(text.contains(says), "{says}: {text}");
    }
}
