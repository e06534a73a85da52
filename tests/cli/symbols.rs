//! `devprojex symbols` and `devprojex related`: the same engine as the MCP tools.

use crate::common::{Fixture, Mcp, one_spot, run};
use serde_json::{Value, json};

fn project() -> Fixture {
    let fx = Fixture::new();
    fx.write(
        "Cargo.toml",
        "[package]\nname = \"demo\"\nversion = \"0.1.0\"\n",
    )
    .write(
        "src/main.rs",
        "mod parser;\n\nuse crate::parser::Parser;\n\nfn main() {\n    Parser::new().parse();\n}\n",
    )
    .write(
        "src/parser.rs",
        "pub struct Parser;\n\nimpl Parser {\n    pub fn new() -> Self {\n        Parser\n    }\n\n    pub fn parse(&self) {}\n}\n\npub fn parse_all() {}\n",
    );
    fx
}

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn symbols_prints_definitions_and_exits_by_what_it_found() {
    let fx = project();
    let found = run(&["symbols", "parse", "."], &fx.root);
    assert_eq!(found.status.code(), Some(0), "{}", stderr(&found));
    assert_eq!(
        stdout(&found),
        "src/parser.rs:8: method parse (in impl Parser)\n    pub fn parse(&self) {}\n"
    );
    let prefix = run(
        &[
            "symbols", "parse", ".", "--match", "prefix", "--kind", "function",
        ],
        &fx.root,
    );
    assert_eq!(
        stdout(&prefix),
        "src/parser.rs:11: function parse_all\n    pub fn parse_all() {}\n"
    );
    let none = run(&["symbols", "no_such_name", "."], &fx.root);
    assert_eq!(none.status.code(), Some(1));
    assert_eq!(stdout(&none), "");
    let bad = run(&["symbols", "parse", ".", "--kind", "variable"], &fx.root);
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
    let cut = run(
        &[
            "symbols",
            "p",
            ".",
            "--match",
            "prefix",
            "--max-results",
            "1",
        ],
        &fx.root,
    );
    assert_eq!(cut.status.code(), Some(0));
    assert!(
        stderr(&cut).contains("[Definitions truncated: stopped at --max-results=1."),
        "{}",
        stderr(&cut)
    );
}

#[test]
fn symbols_json_lists_the_same_definitions() {
    let fx = project();
    let output = run(&["symbols", "Parser", ".", "--format", "json"], &fx.root);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let value: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        value["definitions"],
        json!([{
            "path": "src/parser.rs",
            "line": 1,
            "endLine": 1,
            "kind": "struct",
            "name": "Parser",
            "signature": "pub struct Parser;"
        }])
    );
    assert_eq!(value["truncated"], false);
    // a definition with a body ends where its body does
    let output = run(
        &["symbols", "Parser.parse", ".", "--format", "json"],
        &fx.root,
    );
    let value: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        (
            &value["definitions"][0]["line"],
            &value["definitions"][0]["endLine"]
        ),
        (&json!(8), &json!(8))
    );
    let output = run(&["symbols", "main", ".", "--format", "json"], &fx.root);
    let value: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        (
            &value["definitions"][0]["line"],
            &value["definitions"][0]["endLine"]
        ),
        (&json!(5), &json!(7))
    );
}

#[test]
fn related_finds_the_project_from_git_and_matches_the_mcp_tool() {
    let fx = project();
    std::fs::create_dir(fx.path(".git")).unwrap();
    // from inside a subfolder, PATH relative to it: the project is the checkout above
    let output = run(&["related", "parser.rs"], &fx.path("src"));
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let cli = stdout(&output);
    assert_eq!(
        cli,
        "imports of src/parser.rs: none\n\nimporters of src/parser.rs: 1 file\nsrc/main.rs\n    src/main.rs:1: mod parser;\n"
    );
    // byte-identical to the tool's payload
    let mut mcp = Mcp::start(&fx.root);
    let text = mcp.call_ok("related_files", json!({"path": "src/parser.rs"}));
    assert_eq!(one_spot(&text).inner, cli);

    let imports = run(
        &[
            "related",
            "src/main.rs",
            "--project",
            ".",
            "--direction",
            "imports",
            "--format",
            "json",
        ],
        &fx.root,
    );
    let value: Value = serde_json::from_slice(&imports.stdout).unwrap();
    assert_eq!(
        value["imports"],
        json!([{
            "path": "src/parser.rs",
            "folder": false,
            "depth": 1,
            "via": "src/main.rs",
            "line": 1,
            "text": "mod parser;"
        }])
    );
    assert_eq!(value["importers"], json!([]));
    let outside = Fixture::named("elsewhere");
    outside.write("x.rs", "fn x() {}\n");
    let refused = run(
        &[
            "related",
            &outside.path("x.rs").to_string_lossy(),
            "--project",
            ".",
        ],
        &fx.root,
    );
    assert_eq!(refused.status.code(), Some(1), "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains("DPX-MCP-ROOT-VIOLATION"),
        "{}",
        stderr(&refused)
    );
}

#[test]
fn symbols_output_is_the_tools_payload() {
    let fx = project();
    let output = run(&["symbols", "new", "."], &fx.root);
    let mut mcp = Mcp::start(&fx.root);
    let text = mcp.call_ok("find_symbol", json!({"name": "new"}));
    assert_eq!(one_spot(&text).inner, stdout(&output));
}

/// `--include-body` and `--outline` print what the tool's `include_body` and `outline` answer;
/// the JSON carries the body.
#[test]
fn include_body_and_outline_are_the_tools_payloads() {
    let fx = project();
    let mut mcp = Mcp::start(&fx.root);
    for (argv, args) in [
        (
            vec!["symbols", "new", ".", "--include-body"],
            json!({"name": "new", "include_body": true}),
        ),
        (
            vec!["symbols", "--outline", "src/parser.rs"],
            json!({"outline": "src/parser.rs"}),
        ),
    ] {
        let output = run(&argv, &fx.root);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let text = mcp.call_ok("find_symbol", args);
        assert_eq!(one_spot(&text).inner, stdout(&output), "{argv:?}");
    }
    let json = run(
        &["symbols", "new", "--include-body", "--format", "json"],
        &fx.root,
    );
    let value: Value = serde_json::from_slice(&json.stdout).unwrap();
    let first = &value["definitions"][0];
    let lines = first["endLine"].as_u64().unwrap() - first["line"].as_u64().unwrap() + 1;
    assert_eq!(
        first["body"].as_str().unwrap().lines().count() as u64,
        lines,
        "{value}"
    );
    assert!(first.get("bodyTruncated").is_none(), "{value}");
}

#[test]
fn related_follows_imports_of_the_go_package_at_the_module_root() {
    // cobra's shape: `package cobra` at the module root, imported by doc/
    let fx = Fixture::new();
    fx.write("go.mod", "module example.com/cobra\n\ngo 1.15\n")
        .write("command.go", "package cobra\n\ntype Command struct{}\n")
        .write(
            "doc/man_docs.go",
            "package doc\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/cobra\"\n)\n\nvar _ = fmt.Sprint\nvar _ cobra.Command\n",
        );
    let importers = run(
        &[
            "related",
            "command.go",
            "--project",
            ".",
            "--direction",
            "importers",
        ],
        &fx.root,
    );
    assert_eq!(importers.status.code(), Some(0), "{}", stderr(&importers));
    assert_eq!(
        stdout(&importers),
        "importers of command.go: 1 file\ndoc/man_docs.go\n    doc/man_docs.go:6: \"example.com/cobra\"\n"
    );
    let imports = run(
        &[
            "related",
            "doc/man_docs.go",
            "--project",
            ".",
            "--direction",
            "imports",
        ],
        &fx.root,
    );
    assert_eq!(
        stdout(&imports),
        "imports of doc/man_docs.go: 1 file\n./ (package folder)\n    doc/man_docs.go:6: \"example.com/cobra\"\n"
    );
}

/// Issue 35: a 12 KB Rust file with a use list nested 2,500 deep (and its kin in C# and
/// Scala) overflowed the stack and took the process down for every call on the project.
#[test]
fn hostile_nesting_costs_one_file_and_says_so() {
    let fx = Fixture::new();
    let depth = 2_500;
    fx.write(
        "Cargo.toml",
        "[package]\nname = \"x\"\nversion = \"0.1.0\"\n",
    )
    .write("src/main.rs", "mod g;\nfn main() {}\n")
    .write(
        "src/g.rs",
        format!(
            "use crate::{}b{};\npub fn deep_one() {{}}\n",
            "{a::".repeat(depth),
            "}".repeat(depth)
        ),
    )
    .write(
        "src/N.cs",
        format!(
            "{}class C {{ void deep_one() {{}} }}\n{}",
            "namespace a {\n".repeat(5_000),
            "}\n".repeat(5_000)
        ),
    )
    .write(
        "src/p.scala",
        format!(
            "{}class C\n{}",
            "package a {\n".repeat(5_000),
            "}\n".repeat(5_000)
        ),
    );
    let related = run(&["related", "src/main.rs", "--project", "."], &fx.root);
    assert_eq!(related.status.code(), Some(0), "{}", stderr(&related));
    assert!(
        stdout(&related).contains("src/g.rs\n    src/main.rs:1: mod g;"),
        "{}",
        stdout(&related)
    );
    let own = run(&["related", "src/g.rs", "--project", "."], &fx.root);
    assert_eq!(own.status.code(), Some(0), "{}", stderr(&own));
    assert!(
        stderr(&own).contains("[The imports of src/g.rs were not read: it is too deeply nested"),
        "{}",
        stderr(&own)
    );
    let found = run(&["symbols", "deep_one", "."], &fx.root);
    assert_eq!(found.status.code(), Some(0), "{}", stderr(&found));
    assert_eq!(
        stdout(&found),
        "src/g.rs:2: function deep_one\n    pub fn deep_one() {}\n"
    );
    assert!(
        stderr(&found)
            .contains("[1 file that contains the name was skipped: too deeply nested to index"),
        "{}",
        stderr(&found)
    );
}

/// Issue 35: `find_symbol` on a 1.7 MB one-line file took 22-28 s against its 10 s deadline:
/// each definition's signature copied the whole line, and the deadline was asked between
/// files only. Now the line is never copied, and the parse asks for the deadline as it goes.
#[test]
fn a_timeout_stops_the_parse_of_one_huge_line() {
    let fx = Fixture::new();
    let body: Vec<String> = (0..60_000)
        .map(|i| format!("k{i}:function(){{return {i}}}"))
        .collect();
    fx.write("dist/bundle.js", format!("var o={{{}}};", body.join(",")));
    let started = std::time::Instant::now();
    let output = run(&["symbols", "k1", ".", "--timeout", "1"], &fx.root);
    let took = started.elapsed();
    assert!(
        stderr(&output).contains("[Definitions truncated: the --timeout was reached"),
        "{}",
        stderr(&output)
    );
    // generous for a loaded debug run: before, the parse ran to its end (50 s in debug)
    assert!(took < std::time::Duration::from_secs(6), "{took:?}");
}

/// Issue 39: the README's `net::Parser::parse` finds the Rust method in `net.rs` (the file is
/// the module) and C++'s out-of-class definition inside `namespace net`.
#[test]
fn qualified_names_count_file_modules_and_enclosing_namespaces() {
    let fx = Fixture::new();
    fx.write(
        "Cargo.toml",
        "[package]\nname = \"demo\"\nversion = \"0.1.0\"\n",
    )
    .write("src/lib.rs", "pub mod net;\n")
    .write(
        "src/net.rs",
        "pub struct Parser;\n\nimpl Parser {\n    pub fn parse(&self) {}\n}\n",
    )
    .write(
        "cpp/parser.hpp",
        "namespace net {\nclass Parser {\n public:\n  int parse();\n};\n}\n",
    )
    .write(
        "cpp/parser.cpp",
        "#include \"parser.hpp\"\nnamespace net {\nint Parser::parse() { return 0; }\n}\n",
    );
    let output = run(&["symbols", "net::Parser::parse", "."], &fx.root);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    let found: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with(' '))
        .map(|l| l.split(':').next().unwrap())
        .collect();
    assert_eq!(
        found,
        ["cpp/parser.cpp", "cpp/parser.hpp", "src/net.rs"],
        "{}",
        stdout(&output)
    );
}
