//! The public API contract the main crate codes against.

use devprojex_detail::{
    Detail, Outcome, collapses_bodies, language_name, supported_languages, transform_with_outcome,
};

#[test]
fn detail_levels_parse_print_and_order() {
    for d in Detail::ALL {
        assert_eq!(Detail::parse(d.as_str()), Some(d));
        assert_eq!(d.to_string(), d.as_str());
    }
    assert_eq!(Detail::parse("Full"), None);
    assert_eq!(Detail::parse(""), None);
    assert!(Detail::Full < Detail::Compact && Detail::Compact < Detail::Signatures);
    assert_eq!(Detail::Compact.max(Detail::Signatures), Detail::Signatures);
    assert_eq!(Detail::default(), Detail::Full);
}

#[test]
fn languages_from_paths() {
    let cases = [
        ("src/lib.rs", Some("rust")),
        ("a/b/main.go", Some("go")),
        ("pkg/mod.py", Some("python")),
        ("types.pyi", Some("python")),
        ("web/app.mjs", Some("javascript")),
        ("web/App.jsx", Some("javascript")),
        ("web/app.ts", Some("typescript")),
        ("web/App.tsx", Some("tsx")),
        ("Main.java", Some("java")),
        ("build.gradle.kts", Some("kotlin")),
        ("Program.cs", Some("csharp")),
        ("main.c", Some("c")),
        ("include/x.h", Some("cpp")),
        ("x.HPP", Some("cpp")),
        ("index.php", Some("php")),
        ("Rakefile", Some("ruby")),
        ("lib/a.rb", Some("ruby")),
        ("A.scala", Some("scala")),
        ("A.swift", Some("swift")),
        ("run.sh", Some("bash")),
        ("index.html", Some("html")),
        ("a.css", Some("css")),
        ("a.scss", Some("scss")),
        ("Cargo.toml", Some("toml")),
        ("Cargo.lock", Some("toml")),
        (".github/workflows/ci.yml", Some("yaml")),
        ("pom.xml", Some("xml")),
        ("schema.sql", Some("sql")),
        ("init.lua", Some("lua")),
        ("README.md", None),
        ("Makefile", None),
        ("noext", None),
        ("dir.rs/file", None),
    ];
    for (path, want) in cases {
        assert_eq!(language_name(path), want, "{path}");
    }
    let all: Vec<_> = supported_languages().collect();
    assert_eq!(all.len(), 24);
    assert!(collapses_bodies("a.rs") && collapses_bodies("a.rb") && collapses_bodies("a.py"));
    assert!(!collapses_bodies("a.toml") && !collapses_bodies("a.md"));
}

#[test]
fn outcomes() {
    let t = |p, s, d| transform_with_outcome(p, s, d).1;
    assert_eq!(t("a.rs", "// c\nfn f() {}\n", Detail::Full), Outcome::Full);
    assert_eq!(t("a.md", "# x\n", Detail::Compact), Outcome::Unsupported);
    assert_eq!(
        t("a.rs", "fn f() {}\n", Detail::Compact),
        Outcome::Unchanged
    );
    assert_eq!(
        t("a.rs", "// c\nfn f() {}\n", Detail::Compact),
        Outcome::Transformed
    );
    let broken =
        "// c\nfn main( {{{{ let x = ;; ]]] }\nfn g( {\n// d\n) -> {\nstruct {\nimpl <<<\n";
    assert_eq!(t("a.rs", broken, Detail::Signatures), Outcome::ParseErrors);
}

#[test]
fn texts_over_the_size_cap_are_not_parsed_and_come_back_unchanged() {
    use devprojex_detail::MAX_TRANSFORM_BYTES;
    let item = "/// Doc.\npub fn f(x: u32) -> u32 {\n    // step\n    x + 1\n}\n";
    let under = item.repeat(MAX_TRANSFORM_BYTES / item.len());
    assert!(under.len() <= MAX_TRANSFORM_BYTES);
    let (out, outcome) = transform_with_outcome("gen.rs", &under, Detail::Signatures);
    assert_eq!(outcome, Outcome::Transformed);
    assert!(!out.contains("x + 1") && out.len() < under.len());
    let over = format!("{under}{}", item.repeat(2));
    assert!(over.len() > MAX_TRANSFORM_BYTES);
    let (out, outcome) = transform_with_outcome("gen.rs", &over, Detail::Signatures);
    assert_eq!(outcome, Outcome::TooLarge);
    assert!(matches!(out, std::borrow::Cow::Borrowed(_)));
}

#[test]
fn the_neighbourhood_of_a_tolerated_parse_error_is_left_as_it_is() {
    use devprojex_detail::{testing, transform};
    // One broken declaration (from Go's own type-checker test data): tree-sitter reports an
    // ERROR for `[ ... int]`, below the decline threshold, so the rest of the file is reduced.
    // (Other functions around it keep the error under 2% of the bytes.)
    let others: String = (0..40)
        .map(|i| format!("func f{i}() int {{\n\treturn {i}\n}}\n\n"))
        .collect();
    let text = format!(
        "package p\n\n{others}func a() int {{\n\t// Far away: removed.\n\treturn 1\n}}\n\n\
         var _ (T /* next to the error: kept */ )[ /* inside it */ int]\n\n\
         // Between the error and the next declaration: kept.\n\
         type I1[T any] interface{{\n\tm1(T)\n}}\n\n\
         func b() int {{\n\t// Far away again.\n\treturn 2\n}}\n{others}"
    );
    let text = text.as_str();
    let (errors, _) = testing::tokens("t.go", text).unwrap();
    assert!(errors > 0 && !testing::declined("t.go", text));
    let compact = transform("t.go", text, Detail::Compact);
    assert!(!compact.contains("Far away"), "{compact}");
    // Without the comment beside it, the parser recovers differently and reports new errors.
    assert!(compact.contains("var _ (T /* next to the error: kept */ )[ /* inside it */ int]"));
    assert!(compact.contains("// Between the error and the next declaration: kept."));
    assert!(testing::tokens("t.go", &compact).unwrap().0 <= errors);
    let sigs = transform("t.go", text, Detail::Signatures);
    assert!(
        sigs.contains("func a() int { /* ... */ }") && sigs.contains("func b() int { /* ... */ }")
    );
    assert!(testing::tokens("t.go", &sigs).unwrap().0 <= errors);
}

#[test]
fn line_ends_do_not_change_whether_a_broken_file_is_transformed() {
    use devprojex_detail::testing;
    // The same broken declaration in files of growing size: small ones are declined (errors
    // over 2% of the bytes), large ones transformed. CRLF adds a byte per line, which must not
    // move the boundary.
    let mut declined = Vec::new();
    for fillers in 0..60 {
        let others: String = (0..fillers)
            .map(|i| format!("func f{i}() int {{\n\t// step\n\treturn {i}\n}}\n\n"))
            .collect();
        let lf = format!("package p\n\n{others}var _ (T /* c */ )[ /* c */ int]\n");
        let crlf = lf.replace('\n', "\r\n");
        assert_eq!(
            testing::declined("t.go", &lf),
            testing::declined("t.go", &crlf),
            "{fillers} functions"
        );
        declined.push(testing::declined("t.go", &lf));
    }
    // The range crosses the threshold, so the comparison above saw both sides of it.
    assert!(declined.first() == Some(&true) && declined.last() == Some(&false));
}

#[test]
fn a_shell_script_with_any_parse_error_is_left_as_it_is() {
    use devprojex_detail::{testing, transform};
    // Two heredocs on one line: tree-sitter-bash reports one small error and reads the second
    // heredoc's text as a command and a comment. Reducing that would change what `cat` prints.
    let padding: String = (0..40).map(|i| format!("echo \"line {i}\"\n")).collect();
    let text = format!("#!/bin/sh\n# note\ncat <<A <<B\na #1\n\nA\nb #2\n\nB\n{padding}");
    let (errors, _) = testing::tokens("t.sh", &text).unwrap();
    assert!(errors > 0, "the grammar must still misread this");
    assert!(testing::declined("t.sh", &text));
    for detail in [Detail::Compact, Detail::Signatures] {
        assert_eq!(transform("t.sh", &text, detail), text.as_str());
    }
}

#[test]
fn a_nested_sql_comment_is_kept_whole() {
    use devprojex_detail::transform;
    // PostgreSQL nests comments; the grammar ends this one at the first `*/`. Removing what it
    // calls a comment would turn `SELECT 99;` into live code.
    let filler: String = (0..30).map(|i| format!("SELECT {i} FROM t;\n")).collect();
    let text = format!("-- drop me\n{filler}/* a /* b */ SELECT 99; */\nSELECT 1;\n");
    let out = transform("q.sql", &text, Detail::Compact);
    assert!(!out.contains("drop me"), "{out}");
    assert!(out.contains("/* a /* b */ SELECT 99; */"), "{out}");
}
