//! `find_symbol` and `related_files` over MCP stdio: the real binary, raw JSON-RPC.

use crate::common::{Fixture, Mcp, code_of, one_spot};
use serde_json::json;

/// The payload of a tool's spotlighted block, and the trusted text after it.
fn split(text: &str) -> (String, String) {
    let spot = one_spot(text);
    (spot.inner, text[spot.end..].to_string())
}

fn definitions_project() -> Fixture {
    let fx = Fixture::new();
    fx.write(
        "src/lib.rs",
        "pub mod shapes;\n\npub struct Point {\n    x: i32,\n}\n\nimpl Point {\n    pub fn area(&self) -> i32 {\n        0\n    }\n}\n\nimpl std::fmt::Display for Point {\n    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {\n        Ok(())\n    }\n}\n\npub const MAX_POINTS: usize = 8;\n\nmacro_rules! square {\n    ($x:expr) => {\n        $x * $x\n    };\n}\n",
    )
    .write(
        "shapes.py",
        "class Circle:\n    def area(self):\n        return 3\n\n\ndef area(shape):\n    return shape.area()\n",
    )
    .write(
        "web/api.ts",
        "export interface Shape {\n  area(): number;\n}\n\nexport class Square implements Shape {\n  area(): number {\n    return 4;\n  }\n}\n\nexport function makeSquare(): Square {\n  return new Square();\n}\n",
    )
    .write(
        "go/shapes.go",
        "package shapes\n\ntype Rect struct{}\n\nfunc (r *Rect) Area() int { return 1 }\n",
    )
    .write(
        "c/geom.c",
        "#define AREA_MAX 100\n\nstatic int\narea_of(int w, int h)\n{\n\treturn w * h;\n}\n",
    )
    .write(
        "java/Shapes.java",
        "package demo;\n\npublic class Shapes {\n    public static final int SIDES = 4;\n\n    int area() {\n        return 0;\n    }\n}\n",
    )
    .write(".gitignore", "ignored/\n")
    .write("ignored/hidden.py", "def area():\n    return 0\n")
    .write("README.md", "def area(): this is prose, not code\n");
    fx
}

#[test]
fn find_symbol_lists_definitions_with_kind_line_container_and_signature() {
    let fx = definitions_project();
    let mut mcp = Mcp::start(&fx.root);
    let text = mcp.call_ok("find_symbol", json!({"name": "area"}));
    let (body, trailer) = split(&text);
    assert_eq!(
        body,
        "java/Shapes.java:6: method area (in class Shapes)\n    int area() {\n\
         src/lib.rs:8: method area (in impl Point)\n    pub fn area(&self) -> i32 {\n\
         web/api.ts:2: method area (in interface Shape)\n    area(): number;\n\
         web/api.ts:6: method area (in class Square)\n    area(): number {\n\
         shapes.py:2: method area (in class Circle)\n    def area(self):\n\
         shapes.py:6: function area\n    def area(shape):\n"
    );
    // gitignored files, prose and other case are not definitions of `area`
    assert!(trailer.trim().is_empty(), "{trailer}");
}

#[test]
fn find_symbol_filters_by_kind_match_and_qualifier() {
    let fx = definitions_project();
    let mut mcp = Mcp::start(&fx.root);
    let function = mcp.call_ok("find_symbol", json!({"name": "area", "kind": "function"}));
    assert_eq!(
        split(&function).0,
        "shapes.py:6: function area\n    def area(shape):\n"
    );

    let qualified = mcp.call_ok("find_symbol", json!({"name": "Point::area"}));
    assert_eq!(
        split(&qualified).0,
        "src/lib.rs:8: method area (in impl Point)\n    pub fn area(&self) -> i32 {\n"
    );
    let dotted = mcp.call_ok("find_symbol", json!({"name": "Circle.area"}));
    assert_eq!(
        split(&dotted).0,
        "shapes.py:2: method area (in class Circle)\n    def area(self):\n"
    );
    // Go's method on a pointer receiver is named by its type
    let go = mcp.call_ok("find_symbol", json!({"name": "Rect.Area"}));
    assert_eq!(
        split(&go).0,
        "go/shapes.go:5: method Area (in Rect)\n    func (r *Rect) Area() int { return 1 }\n"
    );

    // a C function whose return type is on the line above: the signature holds both
    let prefix = mcp.call_ok("find_symbol", json!({"name": "area_", "match": "prefix"}));
    assert_eq!(
        split(&prefix).0,
        "c/geom.c:4: function area_of\n    static int area_of(int w, int h)\n"
    );
    let substring = mcp.call_ok(
        "find_symbol",
        json!({"name": "AREA", "match": "substring", "kind": "macro"}),
    );
    assert_eq!(
        split(&substring).0,
        "c/geom.c:1: macro AREA_MAX\n    #define AREA_MAX 100\n"
    );
    let rust_macro = mcp.call_ok("find_symbol", json!({"name": "square"}));
    assert_eq!(
        split(&rust_macro).0,
        "src/lib.rs:21: macro square\n    macro_rules! square {\n"
    );
    let constants = mcp.call_ok(
        "find_symbol",
        json!({"name": "S", "match": "prefix", "kind": "constant"}),
    );
    assert_eq!(
        split(&constants).0,
        "java/Shapes.java:4: constant SIDES (in class Shapes)\n    public static final int SIDES = 4;\n"
    );
    let interface = mcp.call_ok("find_symbol", json!({"name": "Shape", "kind": "trait"}));
    assert_eq!(
        split(&interface).0,
        "web/api.ts:1: interface Shape\n    export interface Shape {\n"
    );
}

#[test]
fn find_symbol_respects_the_selection_and_stops_at_max_results() {
    let fx = definitions_project();
    let mut mcp = Mcp::start(&fx.root);
    let python_only = mcp.call_ok(
        "find_symbol",
        json!({"name": "area", "include_patterns": ["**/*.py"]}),
    );
    assert_eq!(
        split(&python_only).0,
        "shapes.py:2: method area (in class Circle)\n    def area(self):\n\
         shapes.py:6: function area\n    def area(shape):\n"
    );
    let no_web = mcp.call_ok(
        "find_symbol",
        json!({"name": "area", "exclude_patterns": ["web/**", "java/**"]}),
    );
    assert!(!split(&no_web).0.contains("web/"), "{no_web}");
    assert!(split(&no_web).0.contains("src/lib.rs:8"), "{no_web}");

    let cut = mcp.call_ok("find_symbol", json!({"name": "area", "max_results": 2}));
    let (body, trailer) = split(&cut);
    assert_eq!(
        body.lines().filter(|l| !l.starts_with(' ')).count(),
        2,
        "{body}"
    );
    assert!(
        trailer.contains("[Definitions truncated: stopped at max_results=2."),
        "{trailer}"
    );

    let none = mcp.call_ok("find_symbol", json!({"name": "no_such_definition"}));
    assert!(
        none.starts_with("No definitions found in ") && !none.contains("untrusted-data"),
        "{none}"
    );
    // the ignored file's definition is not found even by its unique prefix
    let hidden = mcp.call_ok(
        "find_symbol",
        json!({"name": "area", "include_patterns": ["ignored/**"]}),
    );
    assert!(
        hidden.starts_with("No definitions found in 0 searched"),
        "{hidden}"
    );
}

#[test]
fn find_symbol_signatures_are_redacted() {
    let fx = Fixture::new();
    fx.write(
        "auth.py",
        "def login(token=\"ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6\"):\n    return token\n",
    );
    let mut mcp = Mcp::start(&fx.root);
    let text = mcp.call_ok("find_symbol", json!({"name": "login"}));
    assert_eq!(
        split(&text).0,
        "auth.py:1: function login\n    def login(token=\"[REDACTED:github-pat]\"):\n"
    );
    assert!(!text.contains("ghp_aB3d"), "{text}");
}

/// `include_body`: each definition's redacted lines, numbered, inside the untrusted block; a
/// body over 400 lines is cut there and the trailer says how to read the rest.
#[test]
fn find_symbol_include_body_gives_redacted_numbered_bodies_up_to_400_lines() {
    let fx = Fixture::new();
    let long: String = (0..450).map(|i| format!("    x{i} = {i}\n")).collect();
    fx.write(
        "auth.py",
        format!(
            "import os\n\ndef login(user):\n    token = \"ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6\"\n    return user, token\n\n\ndef huge():\n{long}    return 0\n"
        ),
    );
    let mut mcp = Mcp::start(&fx.root);
    let text = mcp.call_ok(
        "find_symbol",
        json!({"name": "login", "include_body": true}),
    );
    let (body, trailer) = split(&text);
    assert_eq!(
        body,
        "auth.py:3: function login\n     3\tdef login(user):\n     4\t    token = \"[REDACTED:github-pat]\"\n     5\t    return user, token\n"
    );
    assert!(trailer.trim().is_empty(), "{trailer}");
    assert!(!text.contains("ghp_aB3d"), "{text}");
    // without the argument, the answer is the one it always was
    let text = mcp.call_ok("find_symbol", json!({"name": "login"}));
    assert_eq!(
        split(&text).0,
        "auth.py:3: function login\n    def login(user):\n"
    );

    let text = mcp.call_ok("find_symbol", json!({"name": "huge", "include_body": true}));
    let (body, trailer) = split(&text);
    let lines: Vec<&str> = body.lines().collect();
    assert_eq!(lines.len(), 1 + 400, "{body}");
    assert_eq!(lines[1], "     8\tdef huge():");
    assert_eq!(lines[400], "   407\t    x398 = 398");
    assert!(
        trailer.contains("[1 body cut at 400 lines or 50,000 characters; read the rest with get_file start_line/end_line.]"),
        "{trailer}"
    );
}

/// `outline`: one file's definitions in order with their line ranges, narrowed by `kind`;
/// a file outside the selection gets the answer a missing one gets.
#[test]
fn find_symbol_outline_lists_one_files_definitions_in_order() {
    let fx = definitions_project();
    let mut mcp = Mcp::start(&fx.root);
    let text = mcp.call_ok("find_symbol", json!({"outline": "src/lib.rs"}));
    let (body, trailer) = split(&text);
    assert_eq!(
        body,
        "1-1: module shapes\n3-5: struct Point\n8-10: method area (in impl Point)\n14-16: method fmt (in impl std::fmt::Display for Point)\n19-19: constant MAX_POINTS\n21-25: macro square\n"
    );
    assert!(trailer.trim().is_empty(), "{trailer}");
    let text = mcp.call_ok(
        "find_symbol",
        json!({"outline": "./shapes.py", "kind": "function"}),
    );
    assert_eq!(split(&text).0, "6-7: function area\n");
    let hidden = mcp.call_err("find_symbol", json!({"outline": "ignored/hidden.py"}));
    let missing = mcp.call_err("find_symbol", json!({"outline": "ignored/nothing.py"}));
    assert_eq!(code_of(&hidden), "DPX-MCP-PATH-NOT-FOUND", "{hidden}");
    assert_eq!(
        hidden.replace("hidden", "nothing"),
        missing,
        "an excluded file reads like a missing one"
    );
    let text = mcp.call_err("find_symbol", json!({"outline": "README.md"}));
    assert!(text.contains("not a source file"), "{text}");
}

/// Issue 39 item 5: a 10 MB one-line bundle holding a million uses of the name is screened,
/// counted as not parsed and named in the trailer; the small file's uses and definition are
/// answered, memory stays a few times the file, and the outline of the bundle is a clear error.
#[cfg(target_os = "linux")]
#[test]
fn a_ten_megabyte_line_is_counted_not_parsed_and_memory_stays_bounded() {
    let fx = Fixture::new();
    let calls = "parse(a);".repeat(1_120_000);
    fx.write("dist/bundle.js", format!("var a=1;{calls}\n"))
        .write(
            "lib.js",
            "function parse(x) {\n  return x;\n}\nmodule.exports = { parse };\nparse(1);\n",
        );
    assert!(calls.len() > 10_000_000);
    let mut mcp = Mcp::start(&fx.root);
    let peak_kb = |pid: u32| -> u64 {
        std::fs::read_to_string(format!("/proc/{pid}/status"))
            .unwrap()
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap()
    };
    let before = peak_kb(mcp.child.id());
    let text = mcp.call_ok("find_references", json!({"name": "parse"}));
    let (body, trailer) = split(&text);
    assert!(body.contains("lib.js:5:1: resolved: parse(1);"), "{body}");
    assert!(!body.contains("bundle.js"), "{body}");
    assert!(
        trailer.contains("[1 file that contains the name was not parsed (larger than 4 MiB).]"),
        "{trailer}"
    );
    let text = mcp.call_ok("find_symbol", json!({"name": "parse"}));
    let (body, trailer) = split(&text);
    assert_eq!(body, "lib.js:1: function parse\n    function parse(x) {\n");
    assert!(
        trailer.contains("[1 file that contains the name is larger than 4 MiB and not parsed.]"),
        "{trailer}"
    );
    let text = mcp.call_err("find_symbol", json!({"outline": "dist/bundle.js"}));
    assert!(text.contains("larger than 4 MiB"), "{text}");
    let grown_mb = peak_kb(mcp.child.id()).saturating_sub(before) / 1024;
    assert!(grown_mb <= 10 * 10, "peak memory grew by {grown_mb} MB");
}

#[test]
fn find_symbol_rejects_bad_arguments_with_codes() {
    let fx = definitions_project();
    let mut mcp = Mcp::start(&fx.root);
    for (args, needle) in [
        (json!({}), "needs name"),
        (json!({"name": "x", "outline": "shapes.py"}), "not both"),
        (
            json!({"outline": "shapes.py", "include_body": true}),
            "include_body needs a name",
        ),
        (json!({"name": ""}), "name is empty"),
        (
            json!({"name": "x", "kind": "variable"}),
            "kind is 'variable'",
        ),
        (json!({"name": "x", "match": "regex"}), "match is 'regex'"),
        (json!({"name": "x", "max_results": 201}), "max_results"),
        (json!({"name": "x", "max_results": 0}), "max_results"),
        (json!({"name": "a".repeat(257)}), "at most 256"),
        (json!({"name": "x", "pattern": "y"}), "'pattern'"),
    ] {
        let text = mcp.call_err("find_symbol", args.clone());
        assert_eq!(
            code_of(&text),
            "DPX-MCP-INVALID-ARGUMENTS",
            "{args}: {text}"
        );
        assert!(text.contains(needle), "{args}: {text}");
    }
    let text = mcp.call_err(
        "find_symbol",
        json!({"name": "x", "include_patterns": ["[z-a]"]}),
    );
    assert_eq!(code_of(&text), "DPX-MCP-INVALID-PATTERN", "{text}");
}

#[test]
fn an_edit_is_seen_by_the_next_call() {
    let fx = definitions_project();
    fx.write("app/main.py", "import helpers\n")
        .write("app/helpers.py", "X = 1\n")
        .write("app/another.py", "Y = 2\n");
    let mut mcp = Mcp::start(&fx.root);
    let before = mcp.call_ok("find_symbol", json!({"name": "area", "kind": "function"}));
    assert!(split(&before).0.contains("shapes.py:6"), "{before}");
    let related = mcp.call_ok("related_files", json!({"path": "app/main.py"}));
    assert!(split(&related).0.contains("app/helpers.py\n"), "{related}");

    // same size, same inode: only the content changed
    let old = std::fs::read_to_string(fx.path("shapes.py")).unwrap();
    let new = old.replace("def area(shape)", "def aria(shape)");
    assert_eq!(old.len(), new.len());
    fx.write("shapes.py", &new);
    fx.write("app/main.py", "import another\n");
    let after = mcp.call_ok("find_symbol", json!({"name": "area", "kind": "function"}));
    assert!(after.starts_with("No definitions found"), "{after}");
    let renamed = mcp.call_ok("find_symbol", json!({"name": "aria"}));
    assert_eq!(
        split(&renamed).0,
        "shapes.py:6: function aria\n    def aria(shape):\n"
    );
    let related = mcp.call_ok("related_files", json!({"path": "app/main.py"}));
    let body = split(&related).0;
    assert!(
        body.contains("app/another.py\n") && !body.contains("app/helpers.py"),
        "{body}"
    );

    // an edit that puts the modification time back is still seen
    let modified = std::fs::metadata(fx.path("app/main.py"))
        .unwrap()
        .modified()
        .unwrap();
    fx.write("app/main.py", "import helpers\n");
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(fx.path("app/main.py"))
        .unwrap();
    file.set_modified(modified).unwrap();
    drop(file);
    let related = mcp.call_ok(
        "related_files",
        json!({"path": "app/main.py", "direction": "imports"}),
    );
    let body = split(&related).0;
    assert!(
        body.contains("app/helpers.py\n") && !body.contains("app/another.py"),
        "{body}"
    );

    // a new file is seen, a deleted one is gone
    fx.write("app/late.py", "import helpers\n");
    std::fs::remove_file(fx.path("app/another.py")).unwrap();
    let importers = mcp.call_ok(
        "related_files",
        json!({"path": "app/helpers.py", "direction": "importers"}),
    );
    let body = split(&importers).0;
    assert_eq!(
        body,
        "importers of app/helpers.py: 2 files\napp/late.py\n    app/late.py:1: import helpers\napp/main.py\n    app/main.py:1: import helpers\n"
    );
    let text = mcp.call_err("related_files", json!({"path": "app/another.py"}));
    assert_eq!(code_of(&text), "DPX-MCP-PATH-NOT-FOUND", "{text}");
}

fn imports_project() -> Fixture {
    let fx = Fixture::new();
    // Rust: mod, use crate::, use super::
    fx.write("Cargo.toml", "[package]\nname = \"demo\"\nversion = \"0.1.0\"\n")
        .write(
            "src/main.rs",
            "mod config;\nmod net;\n\nuse crate::config::Settings;\n\nfn main() {}\n",
        )
        .write("src/config.rs", "pub struct Settings;\n")
        .write(
            "src/net/mod.rs",
            "pub mod http;\nuse super::config::Settings;\n",
        )
        .write("src/net/http.rs", "use crate::config;\n")
        // Python: relative and package imports
        .write("pkg/__init__.py", "")
        .write(
            "pkg/core.py",
            "from . import helpers\nfrom .models import User\nimport os\n",
        )
        .write("pkg/helpers.py", "def help():\n    pass\n")
        .write("pkg/models.py", "class User:\n    pass\n")
        .write("app.py", "import pkg.core\nfrom pkg import helpers\n")
        // TypeScript: extensions, index files, .js for .ts, tsconfig paths (with comments)
        .write(
            "web/tsconfig.json",
            "{\n  // paths for the app\n  \"compilerOptions\": {\n    \"baseUrl\": \".\",\n    \"paths\": { \"@lib/*\": [\"src/lib/*\"] },\n  },\n}\n",
        )
        .write(
            "web/src/index.ts",
            "import { a } from \"./util\";\nimport b from \"@lib/b\";\nimport c from \"./comp\";\nconst d = require(\"./d.js\");\nimport React from \"react\";\n",
        )
        .write("web/src/util.ts", "export const a = 1;\n")
        .write("web/src/lib/b.ts", "export default 2;\n")
        .write("web/src/comp/index.tsx", "export default 3;\n")
        .write("web/src/d.ts", "module.exports = 4;\n")
        // Go: packages inside the module
        .write("go.mod", "module example.com/demo\n\ngo 1.22\n")
        .write(
            "cmd/app/main.go",
            "package main\n\nimport (\n\t\"fmt\"\n\t\"example.com/demo/internal/store\"\n)\n\nfunc main() { fmt.Println(store.Get()) }\n",
        )
        .write("internal/store/store.go", "package store\n\nfunc Get() int { return 1 }\n")
        .write("internal/store/cache.go", "package store\n")
        // Java packages
        .write(
            "java/src/com/ex/App.java",
            "package com.ex;\n\nimport com.ex.util.Strings;\nimport java.util.List;\n\nclass App {}\n",
        )
        .write(
            "java/src/com/ex/util/Strings.java",
            "package com.ex.util;\n\npublic class Strings {}\n",
        )
        // C: quoted, <include/...>, an ambiguous arch header, the standard library
        .write("include/linux/list.h", "struct list_head;\n")
        .write(
            "kernel/fork.c",
            "#include <linux/list.h>\n#include \"fork_internal.h\"\n#include <asm/page.h>\n#include <stdio.h>\n/* #include <linux/not_this.h> */\n",
        )
        .write("kernel/fork_internal.h", "int fork_helper(void);\n")
        .write("arch/x86/include/asm/page.h", "\n")
        .write("arch/arm/include/asm/page.h", "\n")
        // C#: using a namespace of the project
        .write(
            "cs/Models/User.cs",
            "namespace Demo.Models\n{\n    public class User {}\n}\n",
        )
        .write("cs/App.cs", "using System;\nusing Demo.Models;\n\nclass App {}\n")
        // Ruby require_relative
        .write("rb/app.rb", "require_relative \"lib/tool\"\nrequire \"json\"\n")
        .write("rb/lib/tool.rb", "module Tool; end\n")
        // PHP: use through composer's PSR-4 map, require with __DIR__
        .write(
            "composer.json",
            "{\"autoload\": {\"psr-4\": {\"App\\\\\": \"php/src/\"}}}\n",
        )
        .write(
            "php/src/Models/User.php",
            "<?php\nnamespace App\\Models;\n\nclass User {}\n",
        )
        .write(
            "php/index.php",
            "<?php\nuse App\\Models\\User;\nrequire __DIR__ . '/helpers.php';\n",
        )
        .write("php/helpers.php", "<?php\nfunction h() {}\n");
    fx
}

fn related(mcp: &mut Mcp, args: serde_json::Value) -> (String, String) {
    split(&mcp.call_ok("related_files", args))
}

#[test]
fn related_files_resolves_rust_python_and_typescript_imports() {
    let fx = imports_project();
    let mut mcp = Mcp::start(&fx.root);
    let (body, _) = related(&mut mcp, json!({"path": "src/config.rs"}));
    assert_eq!(
        body,
        "imports of src/config.rs: none\n\nimporters of src/config.rs: 3 files\n\
         src/net/http.rs\n    src/net/http.rs:1: use crate::config;\n\
         src/net/mod.rs\n    src/net/mod.rs:2: use super::config::Settings;\n\
         src/main.rs\n    src/main.rs:1: mod config;\n"
    );
    let (body, _) = related(
        &mut mcp,
        json!({"path": "src/main.rs", "direction": "imports"}),
    );
    assert_eq!(
        body,
        "imports of src/main.rs: 2 files\nsrc/config.rs\n    src/main.rs:1: mod config;\nsrc/net/mod.rs\n    src/main.rs:2: mod net;\n"
    );
    let (body, trailer) = related(
        &mut mcp,
        json!({"path": "pkg/core.py", "direction": "imports"}),
    );
    assert_eq!(
        body,
        "imports of pkg/core.py: 2 files\npkg/helpers.py\n    pkg/core.py:1: from . import helpers\npkg/models.py\n    pkg/core.py:2: from .models import User\n"
    );
    assert!(
        trailer.contains("[1 import leads to no project file"),
        "{trailer}"
    );
    let (body, _) = related(
        &mut mcp,
        json!({"path": "pkg/helpers.py", "direction": "importers"}),
    );
    assert_eq!(
        body,
        "importers of pkg/helpers.py: 2 files\npkg/core.py\n    pkg/core.py:1: from . import helpers\napp.py\n    app.py:2: from pkg import helpers\n"
    );
    let (body, trailer) = related(
        &mut mcp,
        json!({"path": "web/src/index.ts", "direction": "imports"}),
    );
    assert_eq!(
        body,
        "imports of web/src/index.ts: 4 files\n\
         web/src/util.ts\n    web/src/index.ts:1: import { a } from \"./util\";\n\
         web/src/lib/b.ts\n    web/src/index.ts:2: import b from \"@lib/b\";\n\
         web/src/comp/index.tsx\n    web/src/index.ts:3: import c from \"./comp\";\n\
         web/src/d.ts\n    web/src/index.ts:4: const d = require(\"./d.js\");\n"
    );
    assert!(
        trailer.contains("[1 import leads to no project file"),
        "{trailer}"
    );
}

#[test]
fn related_files_resolves_go_java_c_csharp_ruby_and_php_imports() {
    let fx = imports_project();
    let mut mcp = Mcp::start(&fx.root);
    let (body, _) = related(
        &mut mcp,
        json!({"path": "cmd/app/main.go", "direction": "imports"}),
    );
    assert_eq!(
        body,
        "imports of cmd/app/main.go: 1 file\ninternal/store/ (package folder)\n    cmd/app/main.go:5: \"example.com/demo/internal/store\"\n"
    );
    // importers of any file of the package
    let (body, _) = related(
        &mut mcp,
        json!({"path": "internal/store/cache.go", "direction": "importers"}),
    );
    assert_eq!(
        body,
        "importers of internal/store/cache.go: 1 file\ncmd/app/main.go\n    cmd/app/main.go:5: \"example.com/demo/internal/store\"\n"
    );
    let (body, _) = related(
        &mut mcp,
        json!({"path": "java/src/com/ex/util/Strings.java"}),
    );
    assert!(
        body.ends_with("importers of java/src/com/ex/util/Strings.java: 1 file\njava/src/com/ex/App.java\n    java/src/com/ex/App.java:3: import com.ex.util.Strings;\n"),
        "{body}"
    );
    let (body, trailer) = related(
        &mut mcp,
        json!({"path": "kernel/fork.c", "direction": "imports"}),
    );
    assert_eq!(
        body,
        "imports of kernel/fork.c: 2 files\ninclude/linux/list.h\n    kernel/fork.c:1: #include <linux/list.h>\nkernel/fork_internal.h\n    kernel/fork.c:2: #include \"fork_internal.h\"\n"
    );
    assert!(
        trailer.contains("[2 imports lead to no project file")
            && trailer.contains("1 of them found in several include folders"),
        "{trailer}"
    );
    let (body, _) = related(
        &mut mcp,
        json!({"path": "cs/App.cs", "direction": "imports"}),
    );
    assert_eq!(
        body,
        "imports of cs/App.cs: 1 file\ncs/Models/ (package folder)\n    cs/App.cs:2: using Demo.Models;\n"
    );
    let (body, _) = related(
        &mut mcp,
        json!({"path": "rb/app.rb", "direction": "imports"}),
    );
    assert_eq!(
        body,
        "imports of rb/app.rb: 1 file\nrb/lib/tool.rb\n    rb/app.rb:1: require_relative \"lib/tool\"\n"
    );
    let (body, _) = related(
        &mut mcp,
        json!({"path": "php/index.php", "direction": "imports"}),
    );
    assert_eq!(
        body,
        "imports of php/index.php: 2 files\nphp/src/Models/User.php\n    php/index.php:2: use App\\Models\\User;\nphp/helpers.php\n    php/index.php:3: require __DIR__ . '/helpers.php';\n"
    );
}

#[test]
fn related_files_follows_depth_and_cuts_at_max_results() {
    let fx = imports_project();
    let mut mcp = Mcp::start(&fx.root);
    let (body, _) = related(
        &mut mcp,
        json!({"path": "src/net/http.rs", "direction": "importers", "depth": 3}),
    );
    assert_eq!(
        body,
        "importers of src/net/http.rs (depth up to 3): 2 files\nsrc/net/mod.rs\n    src/net/mod.rs:1: pub mod http;\nsrc/main.rs (depth 2)\n    src/main.rs:2: mod net;\n"
    );
    let (body, trailer) = related(&mut mcp, json!({"path": "src/config.rs", "max_results": 1}));
    assert_eq!(
        body,
        "imports of src/config.rs: none\n\nimporters of src/config.rs: 1 file\nsrc/net/http.rs\n    src/net/http.rs:1: use crate::config;\n"
    );
    assert!(
        trailer.contains("[Related files truncated: 2 more beyond max_results=1"),
        "{trailer}"
    );
}

#[test]
fn related_files_shows_redacted_lines_and_respects_the_selection() {
    let fx = Fixture::new();
    fx.write(
        "web/main.ts",
        "import { key } from \"./keys\"; // ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6\nimport { gone } from \"./ignored/gone\";\n",
    )
    .write("web/keys.ts", "export const key = 1;\n")
    .write("web/ignored/gone.ts", "export const gone = 1;\n")
    .write("web/ignored/user.ts", "import { key } from \"../keys\";\n")
    .write(".gitignore", "ignored/\n");
    let mut mcp = Mcp::start(&fx.root);
    let text = mcp.call_ok("related_files", json!({"path": "web/keys.ts"}));
    assert!(!text.contains("ghp_aB3d"), "{text}");
    assert_eq!(
        split(&text).0,
        "imports of web/keys.ts: none\n\nimporters of web/keys.ts: 1 file\nweb/main.ts\n    web/main.ts:1: import { key } from \"./keys\"; // [REDACTED:github-pat]\n"
    );
    let (body, trailer) = related(
        &mut mcp,
        json!({"path": "web/main.ts", "direction": "imports"}),
    );
    assert_eq!(
        body,
        "imports of web/main.ts: 1 file\nweb/keys.ts\n    web/main.ts:1: import { key } from \"./keys\"; // [REDACTED:github-pat]\n"
    );
    assert!(
        trailer.contains("[1 import leads to no project file"),
        "{trailer}"
    );
    // a gitignored file is not a target
    let text = mcp.call_err("related_files", json!({"path": "web/ignored/user.ts"}));
    assert_eq!(code_of(&text), "DPX-MCP-PATH-NOT-FOUND", "{text}");
}

#[test]
fn related_files_rejects_paths_outside_and_bad_arguments() {
    let fx = imports_project();
    let outside = Fixture::named("outside");
    outside.write("secret.h", "int secret;\n");
    #[cfg(unix)]
    crate::common::symlink(outside.path("secret.h"), fx.path("include/linux/secret.h"));
    fx.write("kernel/leak.c", "#include <linux/secret.h>\n");
    let mut mcp = Mcp::start(&fx.root);
    for (args, code) in [
        (
            json!({"path": "../outside/secret.h"}),
            "DPX-MCP-ROOT-VIOLATION",
        ),
        (json!({"path": "/etc/passwd"}), "DPX-MCP-ROOT-VIOLATION"),
        (json!({"path": "src"}), "DPX-MCP-INVALID-ARGUMENTS"),
        (json!({"path": "no/such.rs"}), "DPX-MCP-PATH-NOT-FOUND"),
        (json!({"path": "composer.json"}), "DPX-MCP-PATH-NOT-FOUND"),
        (
            json!({"path": "src/main.rs", "depth": 4}),
            "DPX-MCP-INVALID-ARGUMENTS",
        ),
        (
            json!({"path": "src/main.rs", "direction": "up"}),
            "DPX-MCP-INVALID-ARGUMENTS",
        ),
        (
            json!({"path": "src/main.rs", "max_results": 500}),
            "DPX-MCP-INVALID-ARGUMENTS",
        ),
        (json!({}), "DPX-MCP-INVALID-ARGUMENTS"),
    ] {
        let text = mcp.call_err("related_files", args.clone());
        assert_eq!(code_of(&text), code, "{args}: {text}");
    }
    // a link out of the root is never a resolved include
    let (body, trailer) = related(
        &mut mcp,
        json!({"path": "kernel/leak.c", "direction": "imports"}),
    );
    assert_eq!(body, "imports of kernel/leak.c: none\n");
    assert!(
        trailer.contains("[1 import leads to no project file"),
        "{trailer}"
    );
}

#[test]
fn compile_commands_include_folders_are_used() {
    let fx = Fixture::new();
    fx.write("src/a.c", "#include <dep.h>\n")
        .write("vendor/inc/dep.h", "\n");
    let mut mcp = Mcp::start(&fx.root);
    let (body, _) = related(&mut mcp, json!({"path": "src/a.c", "direction": "imports"}));
    assert_eq!(body, "imports of src/a.c: none\n");
    drop(mcp);
    let commands = json!([{
        "directory": fx.root_str(),
        "file": "src/a.c",
        "command": "cc -Ivendor/inc -c src/a.c -o a.o"
    }]);
    fx.write("compile_commands.json", commands.to_string());
    let mut mcp = Mcp::start(&fx.root);
    let (body, _) = related(&mut mcp, json!({"path": "src/a.c", "direction": "imports"}));
    assert_eq!(
        body,
        "imports of src/a.c: 1 file\nvendor/inc/dep.h\n    src/a.c:1: #include <dep.h>\n"
    );
}

#[test]
fn the_new_tools_are_text_tools_after_get_file() {
    let fx = definitions_project();
    let mut mcp = Mcp::start(&fx.root);
    let listed = mcp.request("tools/list", json!({}));
    let tools = listed["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        &names[..7],
        [
            "list_projects",
            "get_tree",
            "analyze",
            "pack_context",
            "read_pack",
            "search_project",
            "get_file"
        ]
    );
    assert_eq!(
        &names[7..],
        [
            "find_symbol",
            "related_files",
            "find_references",
            "relevant_files"
        ]
    );
    for tool in &tools[7..] {
        assert!(tool.get("outputSchema").is_none(), "{tool}");
        assert_eq!(tool["annotations"]["readOnlyHint"], true);
        assert_eq!(tool["annotations"]["openWorldHint"], false);
        assert_eq!(tool["inputSchema"]["additionalProperties"], false);
    }
    // name or outline: one of the two, checked by the handler
    assert_eq!(tools[7]["inputSchema"]["required"], json!([]));
    assert_eq!(tools[8]["inputSchema"]["required"], json!(["path"]));
    let result = mcp.call("find_symbol", json!({"name": "area"}));
    assert!(result.get("structuredContent").is_none(), "{result}");
    let init_text = mcp.call_ok("related_files", json!({"path": "src/lib.rs"}));
    assert!(init_text.contains("<untrusted-data-"), "{init_text}");
}

/// The server reuses its last walk only while every folder, `.gitignore` and file stats the
/// same, and only for paths that had been still for 3 seconds before the walk: age four
/// projects past that, let the server walk them, change each one in a way a reused walk would
/// miss, and ask again.
#[test]
fn a_kept_selection_never_hides_an_edit() {
    let edited = Fixture::named("edited");
    edited
        .write("main.py", "import helpers\n")
        .write("helpers.py", "X = 1\n")
        .write("another.py", "Y = 1\n");
    let added = Fixture::named("added");
    added
        .write("main.py", "import helpers\n")
        .write("helpers.py", "X = 1\n");
    let ignored = Fixture::named("ignored");
    ignored
        .write(".gitignore", "build/\n")
        .write("main.py", "import helpers\n")
        .write("helpers.py", "X = 1\n");
    let removed = Fixture::named("removed");
    removed
        .write("main.py", "import helpers\n")
        .write("helpers.py", "X = 1\n")
        .write("user.py", "import helpers\n");
    std::thread::sleep(std::time::Duration::from_millis(3_500));
    let roots = [&edited, &added, &ignored, &removed];
    let mut args = Vec::new();
    for fx in roots {
        args.push("--root".to_string());
        args.push(fx.root_str());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut mcp = Mcp::start_with(&args, &[]);
    let importers = |mcp: &mut Mcp, fx: &Fixture| {
        split(&mcp.call_ok(
            "related_files",
            json!({"project": fx.root_str(), "path": "helpers.py", "direction": "importers"}),
        ))
        .0
    };
    for fx in roots {
        importers(&mut mcp, fx);
        importers(&mut mcp, fx);
    }
    edited.write("main.py", "import another\n");
    added.write("late.py", "import helpers\n");
    ignored.write(".gitignore", "main.py\n");
    std::fs::remove_file(removed.path("user.py")).unwrap();
    assert_eq!(
        importers(&mut mcp, &edited),
        "importers of helpers.py: none\n"
    );
    assert!(importers(&mut mcp, &added).contains("late.py\n    late.py:1: import helpers\n"));
    assert_eq!(
        importers(&mut mcp, &ignored),
        "importers of helpers.py: none\n"
    );
    assert_eq!(
        importers(&mut mcp, &removed),
        "importers of helpers.py: 1 file\nmain.py\n    main.py:1: import helpers\n"
    );
}

/// A facade crate's `pub extern crate x as y;` leads `use facade::y::Item` to x's root, and
/// an edit of that line in the facade's root (the importer unchanged, its edges kept) is seen
/// by the next call, in both directions.
#[test]
fn a_facade_crates_reexport_is_followed_and_an_edit_of_it_is_seen() {
    let fx = Fixture::new();
    fx.write("Cargo.toml", "[package]\nname = \"app\"\n")
        .write(
            "src/main.rs",
            "use facade::printer::Printer;\n\nfn main() {}\n",
        )
        .write("facade/Cargo.toml", "[package]\nname = \"facade\"\n")
        .write(
            "facade/src/lib.rs",
            "pub extern crate fast_print as printer;\n",
        )
        .write("fast/Cargo.toml", "[package]\nname = \"fast-print\"\n")
        .write("fast/src/lib.rs", "pub struct Printer;\n")
        .write("slow/Cargo.toml", "[package]\nname = \"slow-print\"\n")
        .write("slow/src/lib.rs", "pub struct Printer;\n");
    // files still for 3 s are trusted by their stats: the second round is answered from the
    // kept facts and edges
    std::thread::sleep(std::time::Duration::from_millis(3_300));
    let mut mcp = Mcp::start(&fx.root);
    let imports =
        |mcp: &mut Mcp| related(mcp, json!({"path": "src/main.rs", "direction": "imports"})).0;
    let importers =
        |mcp: &mut Mcp, path: &str| related(mcp, json!({"path": path, "direction": "importers"})).0;
    let through_fast = "imports of src/main.rs: 1 file\nfast/src/lib.rs\n    src/main.rs:1: use facade::printer::Printer;\n";
    for _ in 0..2 {
        assert_eq!(imports(&mut mcp), through_fast);
        assert!(
            importers(&mut mcp, "fast/src/lib.rs").contains("src/main.rs\n"),
            "the importer map agrees"
        );
    }
    fx.write(
        "facade/src/lib.rs",
        "pub extern crate slow_print as printer;\n",
    );
    assert_eq!(
        imports(&mut mcp),
        "imports of src/main.rs: 1 file\nslow/src/lib.rs\n    src/main.rs:1: use facade::printer::Printer;\n"
    );
    assert!(!importers(&mut mcp, "fast/src/lib.rs").contains("src/main.rs"));
    assert!(importers(&mut mcp, "slow/src/lib.rs").contains("src/main.rs\n"));
}

/// A minified bundle: one line of `pairs` methods of an object (1.8 MB for 60,000).
#[cfg(target_os = "linux")]
fn one_line_bundle(pairs: usize) -> String {
    let body: Vec<String> = (0..pairs)
        .map(|i| format!("k{i}:function(){{return {i}}}"))
        .collect();
    format!("var o={{{}}};", body.join(","))
}

/// The CPU time a process has used, its exited threads included (Linux: user and system
/// time from /proc/PID/stat, in the kernel ABI's 100 ticks per second).
#[cfg(target_os = "linux")]
fn cpu_time(pid: u32) -> std::time::Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // the command name, in parentheses, may hold spaces: count fields after it
    let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    std::time::Duration::from_millis(ticks * 10)
}

/// Issue 35: after `notifications/cancelled`, a `find_symbol` busy parsing one large file
/// burnt 6.8 s of CPU in the next 8 s. The parse and the walk now ask for cancellation as
/// they go.
#[cfg(target_os = "linux")]
#[test]
fn a_cancelled_find_symbol_stops_burning_cpu_within_100_ms() {
    use std::time::Duration;
    let fx = Fixture::new();
    fx.write("dist/bundle.js", one_line_bundle(60_000));
    let mut mcp = Mcp::start(&fx.root);
    let pid = mcp.child.id();
    mcp.send(&json!({"jsonrpc": "2.0", "id": 901, "method": "tools/call",
        "params": {"name": "find_symbol", "arguments": {"name": "k1"}}}));
    // reading and redacting take a fraction of this; parsing the line takes seconds
    std::thread::sleep(Duration::from_millis(700));
    let busy = cpu_time(pid);
    mcp.notify(
        "notifications/cancelled",
        json!({"requestId": 901, "reason": "test"}),
    );
    std::thread::sleep(Duration::from_millis(100));
    let settled = cpu_time(pid);
    std::thread::sleep(Duration::from_millis(1_000));
    let after = cpu_time(pid);
    assert!(
        busy > Duration::from_millis(100),
        "the server was not busy yet: {busy:?} of CPU"
    );
    assert!(
        after.saturating_sub(settled) < Duration::from_millis(100),
        "{:?} of CPU in the second after a cancel (100 ms after it)",
        after.saturating_sub(settled)
    );
    // and it still serves
    mcp.call_ok("find_symbol", json!({"name": "area"}));
}
