//! Shapes an attacker writes (issue 35): nesting thousands deep and names of 100,000
//! characters cost one file (skipped, with a reason), never the process, and memory stays
//! linear in the file.

use devprojex_symbols::imports::try_scan;
use devprojex_symbols::{MAX_NESTING, Skip, try_definitions};

/// `open` `depth` times, then `middle`, then `close` `depth` times.
fn nest(open: &str, middle: &str, close: &str, depth: usize) -> String {
    let mut text = open.repeat(depth);
    text.push_str(middle);
    text.push_str(&close.repeat(depth));
    text
}

fn skipped_definitions(path: &str, text: &str) -> Skip {
    match try_definitions(path, text) {
        Some(Err(skip)) => skip,
        Some(Ok(found)) => panic!("{path}: {} definitions, not skipped", found.len()),
        None => panic!("{path}: no language"),
    }
}

fn skipped_imports(path: &str, text: &str) -> Skip {
    match try_scan(path, text) {
        Some(Err(skip)) => skip,
        Some(Ok(facts)) => panic!("{path}: {} imports, not skipped", facts.imports.len()),
        None => panic!("{path}: no language"),
    }
}

#[test]
fn a_rust_use_list_nested_ten_thousand_deep_is_skipped() {
    let text = format!(
        "use crate::{};\nfn main() {{}}\n",
        nest("{a::", "b", "}", 10_000)
    );
    assert_eq!(skipped_imports("src/g.rs", &text), Skip::TooDeeplyNested);
    // its definitions are unaffected
    let defs = try_definitions("src/g.rs", &text).unwrap().unwrap();
    assert_eq!(defs.len(), 1);
    // nesting up to the limit still resolves every leaf
    let text = format!("use crate::{};\n", nest("{a::", "b", "}", MAX_NESTING));
    let facts = try_scan("src/g.rs", &text).unwrap().unwrap();
    assert_eq!(facts.imports.len(), 1);
}

#[test]
fn csharp_namespaces_nested_five_thousand_deep_are_skipped() {
    let text = nest("namespace a {\n", "class C { void M() {} }\n", "}\n", 5_000);
    assert_eq!(skipped_imports("x.cs", &text), Skip::TooDeeplyNested);
    assert_eq!(skipped_definitions("x.cs", &text), Skip::TooDeeplyNested);
}

#[test]
fn scala_packages_nested_five_thousand_deep_are_skipped() {
    let text = nest("package a {\n", "class C\n", "}\n", 5_000);
    assert_eq!(skipped_imports("x.scala", &text), Skip::TooDeeplyNested);
    // body-less package lines chain into one long name
    let text = format!("{}class C\n", "package abcdefgh\n".repeat(5_000));
    assert_eq!(skipped_imports("y.scala", &text), Skip::TooDeeplyNested);
}

#[test]
fn nested_classes_in_python_and_java_are_skipped() {
    let mut python = String::new();
    for depth in 0..1_000 {
        python.push_str(&" ".repeat(depth));
        python.push_str("class a:\n");
    }
    python.push_str(&" ".repeat(1_000));
    python.push_str("pass\n");
    assert_eq!(skipped_definitions("x.py", &python), Skip::TooDeeplyNested);
    let java = nest("class a {\n", "void m() {}\n", "}\n", 15_000);
    assert_eq!(skipped_definitions("A.java", &java), Skip::TooDeeplyNested);
}

#[test]
fn rust_modules_and_cpp_namespaces_nested_fifteen_thousand_deep_are_skipped() {
    let rust = nest("mod a {\n", "use b::c;\nfn f() {}\n", "}\n", 15_000);
    assert_eq!(
        skipped_definitions("src/lib.rs", &rust),
        Skip::TooDeeplyNested
    );
    assert_eq!(skipped_imports("src/lib.rs", &rust), Skip::TooDeeplyNested);
    let cpp = nest("namespace a {\n", "void f() {}\n", "}\n", 15_000);
    assert_eq!(skipped_definitions("x.cpp", &cpp), Skip::TooDeeplyNested);
}

/// A qualified definition's scope is its namespaces and then its qualifier's parts
/// (`a::b::f` in `namespace n`: n, a, b): a qualifier of thousands of parts nests as deep
/// (found by the `symbols` fuzz target, kept in `fuzz/regressions/symbols/`).
#[test]
fn a_qualifier_deeper_than_the_nesting_limit_is_skipped() {
    let qualifier = |parts: usize| "a::".repeat(parts);
    let deep = format!(
        "namespace n {{
void {}f() {{}}
}}
",
        qualifier(MAX_NESTING)
    );
    assert_eq!(skipped_definitions("x.cpp", &deep), Skip::TooDeeplyNested);
    let within = format!(
        "namespace n {{
void {}f() {{}}
}}
",
        qualifier(MAX_NESTING - 2)
    );
    let defs = try_definitions("x.cpp", &within).unwrap().unwrap();
    let f = defs.iter().find(|d| d.name == "f").unwrap();
    assert_eq!(f.scope.len(), MAX_NESTING - 1);
}

#[test]
fn nesting_within_the_limit_keeps_every_scope() {
    let rust = nest("mod a {\n", "fn f() {}\n", "}\n", MAX_NESTING - 1);
    let defs = try_definitions("src/lib.rs", &rust).unwrap().unwrap();
    let f = defs.iter().find(|d| d.name == "f").unwrap();
    assert_eq!(f.scope.len(), MAX_NESTING - 1);
    assert!(f.scope.iter().all(|name| name == "a"));
}

#[test]
fn a_class_with_a_hundred_thousand_character_name_is_held_once() {
    let name = "N".repeat(100_000);
    for (path, head, method, tail) in [
        (
            "x.py",
            format!("class {name}:\n"),
            "  def m(self): pass\n",
            "",
        ),
        (
            "X.java",
            format!("class {name} {{\n"),
            "void m() {}\n",
            "}\n",
        ),
        ("x.cs", format!("class {name} {{\n"), "void m() {}\n", "}\n"),
        ("x.cpp", format!("class {name} {{\n"), "void m();\n", "};\n"),
        (
            "x.scala",
            format!("class {name} {{\n"),
            "def m() = 1\n",
            "}\n",
        ),
        (
            "src/x.rs",
            format!("impl {name} {{\n"),
            "fn m() {}\n",
            "}\n",
        ),
    ] {
        // 20,000 methods: one copy of the name each would be 2 GB
        let text = format!("{head}{}{tail}", method.repeat(20_000));
        let defs = try_definitions(path, &text).unwrap().unwrap();
        let methods: Vec<_> = defs.iter().filter(|d| d.name == "m").collect();
        assert_eq!(methods.len(), 20_000, "{path}");
        for m in &methods {
            // the label is cut like a signature; the scope holds the whole name, shared
            let label = m.container.as_deref().unwrap();
            assert!(label.chars().count() <= 240, "{path}: {}", label.len());
            assert_eq!(m.scope.iter().next().map(str::len), Some(100_000), "{path}");
        }
    }
}

#[test]
fn a_use_list_repeating_a_long_prefix_stays_within_its_budget() {
    // every leaf repeats the 1,000-segment prefix: 20,000 leaves would be 20 million segments
    let prefix = vec!["a"; 1_000].join("::");
    let leaves = vec!["b"; 20_000].join(", ");
    let text = format!("use {prefix}::{{{leaves}}};\n");
    assert_eq!(skipped_imports("src/x.rs", &text), Skip::OverBudget);
}

#[test]
fn a_minified_line_gives_short_signatures_in_linear_time() {
    // one line of 40,000 functions: each definition's signature is cut, not the whole line
    let text = "function f(){}".repeat(40_000);
    let defs = try_definitions("x.js", &text).unwrap().unwrap();
    assert_eq!(defs.len(), 40_000);
    assert!(defs.iter().all(|d| d.signature.chars().count() <= 240));
}

/// The configuration files resolution reads are project files too: nesting 100,000 deep in a
/// tsconfig.json (JSON with comments), a package.json, a composer.json, a
/// compile_commands.json or a Cargo.toml is refused by their parsers or read, never a crash.
#[test]
fn deeply_nested_configuration_files_do_not_crash_resolution() {
    use devprojex_symbols::resolve::{ProjectView, ViewInput};
    let deep_json = format!(
        "{{\"compilerOptions\": {}1{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let deep_toml = format!(
        "[package]\nname = \"x\"\nmeta = {}1{}\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let configs = [
        ("tsconfig.json", deep_json.clone()),
        ("web/jsconfig.json", deep_json.clone()),
        ("package.json", deep_json.clone()),
        ("composer.json", deep_json.clone()),
        ("compile_commands.json", deep_json.clone()),
        ("Cargo.toml", deep_toml),
    ];
    let read = |path: &str| {
        configs
            .iter()
            .find(|(p, _)| *p == path)
            .map(|(_, text)| text.clone())
    };
    let mut files: Vec<String> = configs.iter().map(|(p, _)| p.to_string()).collect();
    files.push("src/main.rs".to_string());
    let view = ProjectView::new(ViewInput {
        files,
        declarations: Vec::new(),
        read: &read,
        root: Some("/project".to_string()),
    });
    assert!(view.has_file("src/main.rs"));
}

/// Asking whether a constant sits in a function walked up the tree, one parent step costing
/// the node's depth: 20,000 nested blocks around ten constants took minutes. The walk now
/// knows its ancestors, and does not go below `MAX_SYNTAX_DEPTH`.
#[test]
fn constants_under_deep_blocks_cost_linear_time() {
    use devprojex_symbols::MAX_SYNTAX_DEPTH;
    let deep = format!(
        "function top() {{}}\n{}",
        nest("{", &"const AA = 1;".repeat(10), "}", 20_000)
    );
    let defs = try_definitions("x.js", &deep).unwrap().unwrap();
    assert_eq!(defs.len(), 1, "only top: nothing is defined that deep");
    // just under the limit: answered, every constant a local of no function
    let depth = MAX_SYNTAX_DEPTH / 4;
    let text = nest("{", &"const AA = 1;".repeat(1_000), "}", depth);
    let started = std::time::Instant::now();
    let defs = try_definitions("x.js", &text).unwrap().unwrap();
    assert_eq!(defs.len(), 1_000);
    // minutes before; well under a second here (generous for a loaded debug run)
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    let in_function = format!("function f() {{ {text} }}");
    let defs = try_definitions("x.js", &in_function).unwrap().unwrap();
    assert_eq!(defs.len(), 1, "only f: the constants are locals");
}
