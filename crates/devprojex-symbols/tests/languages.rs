//! Definitions and imports in each language, on small real-shaped files.

#[path = "languages/hostile.rs"]
mod hostile;

use devprojex_symbols::imports::{self, Spec};
use devprojex_symbols::resolve::{ProjectView, Target, ViewInput};
use devprojex_symbols::{Kind, definitions};

/// (line, kind, name, container) of every definition.
fn defs(path: &str, text: &str) -> Vec<(usize, &'static str, String, String)> {
    definitions(path, text)
        .unwrap_or_else(|| panic!("{path} has no definitions"))
        .into_iter()
        .map(|d| {
            (
                d.line,
                d.kind.as_str(),
                d.name,
                d.container.unwrap_or_default(),
            )
        })
        .collect()
}

fn row(
    line: usize,
    kind: &'static str,
    name: &str,
    container: &str,
) -> (usize, &'static str, String, String) {
    (line, kind, name.to_string(), container.to_string())
}

#[test]
fn kotlin_definitions() {
    let text = "package demo\n\nclass Box(val a: Int) {\n  fun open() {}\n  companion object {\n    const val SIZE = 1\n  }\n}\n\ninterface Shape {\n  fun area(): Int\n}\n\nobject Registry {\n  fun add() = 1\n}\n\nenum class Color { RED }\n\ntypealias Id = Int\n\nfun top(): Int = 1\n";
    assert_eq!(
        defs("a.kt", text),
        [
            row(3, "class", "Box", ""),
            row(4, "method", "open", "class Box"),
            row(5, "class", "Companion", "class Box"),
            row(6, "constant", "SIZE", "companion object Companion"),
            row(10, "interface", "Shape", ""),
            row(11, "method", "area", "interface Shape"),
            row(14, "class", "Registry", ""),
            row(15, "method", "add", "object Registry"),
            row(18, "enum", "Color", ""),
            row(18, "constant", "RED", "enum class Color"),
            row(20, "type", "Id", ""),
            row(22, "function", "top", ""),
        ]
    );
}

#[test]
fn csharp_definitions() {
    let text = "namespace Demo.Models\n{\n    public class User\n    {\n        public const int Max = 3;\n        public User() {}\n        public void Save() {}\n        public static bool operator ==(User a, User b) => true;\n    }\n    public interface IRepo { void Add(); }\n    public struct Point {}\n    public enum Role { Admin }\n    public record Entry(int Id);\n    public delegate void Handler();\n}\n";
    assert_eq!(
        defs("a.cs", text),
        [
            row(1, "module", "Models", ""),
            row(3, "class", "User", "namespace Demo.Models"),
            row(5, "constant", "Max", "class User"),
            row(6, "method", "User", "class User"),
            row(7, "method", "Save", "class User"),
            row(8, "method", "operator ==", "class User"),
            row(10, "interface", "IRepo", "namespace Demo.Models"),
            row(10, "method", "Add", "interface IRepo"),
            row(11, "struct", "Point", "namespace Demo.Models"),
            row(12, "enum", "Role", "namespace Demo.Models"),
            row(12, "constant", "Admin", "enum Role"),
            row(13, "class", "Entry", "namespace Demo.Models"),
            row(14, "type", "Handler", "namespace Demo.Models"),
        ]
    );
}

#[test]
fn cpp_definitions() {
    let text = "namespace ns {\nclass Widget : public Base {\n public:\n  Widget();\n  void draw() const;\n  operator bool() const;\n  int size() { return 0; }\n};\ntemplate <typename T> struct formatter<Widget, T> {};\n}\nvoid ns::Widget::draw() const {}\nusing Alias = int;\nenum class Mode { On };\n#define WIDGET_MAX 4\n";
    assert_eq!(
        defs("a.cpp", text),
        [
            row(1, "module", "ns", ""),
            row(2, "class", "Widget", "namespace ns"),
            row(4, "method", "Widget", "class Widget"),
            row(5, "method", "draw", "class Widget"),
            row(6, "method", "operator bool", "class Widget"),
            row(7, "method", "size", "class Widget"),
            row(9, "struct", "formatter", "namespace ns"),
            row(11, "method", "draw", "ns::Widget"),
            row(12, "type", "Alias", ""),
            row(13, "enum", "Mode", ""),
            row(13, "constant", "On", "enum Mode"),
            row(14, "macro", "WIDGET_MAX", ""),
        ]
    );
}

#[test]
fn c_kernel_idioms() {
    // functions a macro defines are named by the macro's argument; a typedef name after an
    // attribute macro is the typedef's, not the macro's
    let text = "#define NR_IPI 2\n\
        SYSCALL_DEFINE0(fork)\n{\n\treturn 0;\n}\n\
        SYSCALL_DEFINE2(clone3, struct clone_args __user *, uargs, size_t, size)\n{\n\treturn 1;\n}\n\
        typedef struct {\n\tunsigned int ipi_irqs[NR_IPI];\n} ____cacheline_aligned irq_cpustat_t;\n\
        typedef struct { int b; } __packed pk_t;\n\
        typedef struct { int m; } psw_t __aligned(8);\n\
        static int helper(void)\n{\n\tCALL(x)\n\t{ }\n\treturn 2;\n}\n\
        DEFINE_SPINLOCK(lock);\n\
        int __maybe_unused nop_init(void)\n{\n\treturn 0;\n}\n\
        typedef __signed__ char __s8;\n\
        typedef unsigned char (read_t)(void *private_data, unsigned char addr);\n\
        typedef unsigned long (*check_t)(unsigned long);\n\
        typedef unsigned char uint8_t;\n\
        typedef long intptr_t;\n\
        typedef _Bool bool;\n";
    assert_eq!(
        defs("kernel/fork.c", text),
        [
            row(1, "macro", "NR_IPI", ""),
            row(2, "function", "fork", ""),
            row(6, "function", "clone3", ""),
            row(12, "type", "irq_cpustat_t", ""),
            row(13, "type", "pk_t", ""),
            row(14, "type", "psw_t", ""),
            row(15, "function", "helper", ""),
            row(22, "function", "nop_init", ""),
            row(26, "type", "__s8", ""),
            row(27, "type", "read_t", ""),
            row(28, "type", "check_t", ""),
            row(29, "type", "uint8_t", ""),
            row(30, "type", "intptr_t", ""),
            row(31, "type", "bool", ""),
        ]
    );
}

#[test]
fn php_ruby_scala_and_swift_definitions() {
    let php = "<?php\nnamespace App\\Models;\n\nconst LIMIT = 1;\nfunction helper() {}\nclass User extends Model {\n    const TABLE = 'users';\n    public function save() {}\n}\ninterface Repo {}\ntrait Loggable {}\nenum Status { case Active; }\n";
    assert_eq!(
        defs("a.php", php),
        [
            row(2, "module", "App\\Models", ""),
            row(4, "constant", "LIMIT", "namespace App\\Models"),
            row(5, "function", "helper", "namespace App\\Models"),
            row(6, "class", "User", "namespace App\\Models"),
            row(7, "constant", "TABLE", "class User"),
            row(8, "method", "save", "class User"),
            row(10, "interface", "Repo", "namespace App\\Models"),
            row(11, "trait", "Loggable", "namespace App\\Models"),
            row(12, "enum", "Status", "namespace App\\Models"),
            row(12, "constant", "Active", "enum Status"),
        ]
    );
    let ruby = "module Shop\n  class Cart < Base\n    LIMIT = 3\n    def add(item); end\n    def self.build; end\n  end\nend\nclass Shop::Order; end\ndef helper; end\n";
    assert_eq!(
        defs("a.rb", ruby),
        [
            row(1, "module", "Shop", ""),
            row(2, "class", "Cart", "module Shop"),
            row(3, "constant", "LIMIT", "class Cart"),
            row(4, "method", "add", "class Cart"),
            row(5, "method", "build", "class Cart"),
            row(8, "class", "Order", "Shop"),
            row(9, "function", "helper", ""),
        ]
    );
    let scala = "package demo\n\nclass Cart(items: Int) {\n  def total(): Int = items\n  type Id = Int\n}\nobject Cart {\n  def empty(): Cart = new Cart(0)\n}\ntrait Priced {\n  def price(): Int\n}\nenum Size {\n  case Small\n}\ndef top(): Int = 1\n";
    assert_eq!(
        defs("a.scala", scala),
        [
            row(3, "class", "Cart", ""),
            row(4, "method", "total", "class Cart"),
            row(5, "type", "Id", "class Cart"),
            row(7, "class", "Cart", ""),
            row(8, "method", "empty", "object Cart"),
            row(10, "trait", "Priced", ""),
            row(11, "method", "price", "trait Priced"),
            row(13, "enum", "Size", ""),
            row(16, "function", "top", ""),
        ]
    );
    let swift = "import Foundation\n\nclass Cart {\n  init() {}\n  func add() {}\n}\nstruct Item {}\nenum Size { case small }\nprotocol Priced {\n  func price() -> Int\n}\nextension Cart {\n  func clear() {}\n}\nfunc top() {}\ntypealias Id = Int\n";
    assert_eq!(
        defs("a.swift", swift),
        [
            row(3, "class", "Cart", ""),
            row(4, "method", "init", "class Cart"),
            row(5, "method", "add", "class Cart"),
            row(7, "struct", "Item", ""),
            row(8, "enum", "Size", ""),
            row(9, "interface", "Priced", ""),
            row(10, "method", "price", "protocol Priced"),
            row(13, "method", "clear", "extension Cart"),
            row(15, "function", "top", ""),
            row(16, "type", "Id", ""),
        ]
    );
}

#[test]
fn rust_scopes_name_impls_and_modules() {
    let text = "mod net {\n    pub struct Client;\n    impl Client {\n        pub fn get(&self) {}\n    }\n}\n";
    let all = definitions("src/lib.rs", text).unwrap();
    let get = all.iter().find(|d| d.name == "get").unwrap();
    assert_eq!(get.kind, Kind::Method);
    assert_eq!(get.container.as_deref(), Some("impl Client"));
    assert_eq!(get.scope, ["net", "Client"]);
}

fn view(files: &[&str], configs: &[(&str, &str)]) -> ProjectView {
    let configs: Vec<(String, String)> = configs
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    let mut declarations = Vec::new();
    let mut all: Vec<String> = files.iter().map(|f| f.to_string()).collect();
    for (path, text) in &configs {
        all.push(path.clone());
        if let Some(facts) = imports::scan(path, text)
            && !facts.declares.is_empty()
        {
            declarations.push((path.clone(), facts.declares));
        }
    }
    let read = |path: &str| {
        configs
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, t)| t.clone())
    };
    ProjectView::new(ViewInput {
        files: all,
        declarations,
        read: &read,
        root: Some("/work/project".to_string()),
    })
}

fn resolve_all(view: &ProjectView, from: &str, text: &str) -> Vec<Vec<Target>> {
    imports::scan(from, text)
        .unwrap()
        .imports
        .iter()
        .map(|i| view.resolve(from, &i.spec))
        .collect()
}

fn file(path: &str) -> Target {
    Target::File(path.to_string())
}

#[test]
fn kotlin_and_scala_imports_resolve_through_declared_packages() {
    let view = view(
        &["app/src/Main.kt"],
        &[
            (
                "lib/src/net/Client.kt",
                "package com.ex.net\n\nclass Client\n",
            ),
            (
                "lib/src/net/util.kt",
                "package com.ex.net\n\nfun helper() = 1\n",
            ),
            (
                "lib/src/model/Cart.scala",
                "package com.ex.model\n\nclass Cart\n",
            ),
        ],
    );
    let kotlin = resolve_all(
        &view,
        "app/src/Main.kt",
        "import com.ex.net.Client\nimport com.ex.net.helper\nimport com.ex.model.*\nimport kotlin.io.println\n",
    );
    assert_eq!(
        kotlin,
        [
            vec![file("lib/src/net/Client.kt")],
            // a top-level function: its package
            vec![Target::Folder("lib/src/net".to_string())],
            vec![Target::Folder("lib/src/model".to_string())],
            vec![],
        ]
    );
    let scala = resolve_all(
        &view,
        "app/src/App.scala",
        "import com.ex.model.Cart\nimport com.ex.net.{Client, helper => h}\n",
    );
    assert_eq!(
        scala,
        [
            vec![file("lib/src/model/Cart.scala")],
            vec![file("lib/src/net/Client.kt")],
            vec![Target::Folder("lib/src/net".to_string())],
        ]
    );
}

#[test]
fn rust_workspace_crates_and_inline_modules() {
    let view = view(
        &[
            "crates/core/src/lib.rs",
            "crates/core/src/parse.rs",
            "app/src/main.rs",
            "app/src/cli.rs",
        ],
        &[
            (
                "crates/core/Cargo.toml",
                "[package]\nname = \"demo-core\"\n",
            ),
            ("app/Cargo.toml", "[package]\nname = \"app\"\n"),
        ],
    );
    let found = resolve_all(
        &view,
        "app/src/cli.rs",
        "use demo_core::parse::Parser;\nuse std::fmt;\nuse super::cli;\nmod tests {\n    use super::*;\n    use crate::cli::run;\n}\n",
    );
    assert_eq!(
        found,
        [
            vec![file("crates/core/src/parse.rs")],
            vec![],
            // `super` of app/src/cli.rs is the crate root
            vec![file("app/src/main.rs")],
            // inside `mod tests`, `super` is cli.rs itself: no edge
            vec![],
            vec![],
        ]
    );
}

#[test]
fn js_workspace_packages_resolve_through_exports() {
    let view = view(
        &[
            "packages/core/src/index.ts",
            "packages/core/src/v3/index.ts",
            "apps/web/main.ts",
        ],
        &[(
            "packages/core/package.json",
            "{\"name\": \"@demo/core\", \"exports\": {\".\": {\"source\": \"./src/index.ts\", \"import\": \"./dist/index.js\"}, \"./v3\": {\"source\": \"./src/v3/index.ts\"}}}",
        )],
    );
    let found = resolve_all(
        &view,
        "apps/web/main.ts",
        "import a from \"@demo/core\";\nimport b from \"@demo/core/v3\";\nimport c from \"@demo/other\";\n",
    );
    assert_eq!(
        found,
        [
            vec![file("packages/core/src/index.ts")],
            vec![file("packages/core/src/v3/index.ts")],
            vec![],
        ]
    );
}

#[test]
fn go_replace_directives_point_at_local_modules() {
    let view = view(
        &["svc/main.go", "shared/log/log.go"],
        &[
            (
                "svc/go.mod",
                "module example.com/svc\n\nreplace example.com/shared => ../shared\n",
            ),
            ("shared/go.mod", "module example.com/shared\n"),
        ],
    );
    let found = resolve_all(
        &view,
        "svc/main.go",
        "package main\n\nimport \"example.com/shared/log\"\n",
    );
    assert_eq!(found, [vec![Target::Folder("shared/log".to_string())]]);
}

#[test]
fn python_imports_inside_functions_and_future_imports_are_found() {
    let facts = imports::scan(
        "pkg/a.py",
        "from __future__ import annotations\n\ndef f():\n    import json\n    from .b import c\n",
    )
    .unwrap();
    let specs: Vec<&Spec> = facts.imports.iter().map(|i| &i.spec).collect();
    assert_eq!(specs.len(), 3, "{specs:?}");
    assert!(matches!(specs[1], Spec::Python { module, .. } if module == "json"));
    assert!(matches!(specs[2], Spec::Python { level: 1, module, .. } if module == "b"));
}

#[test]
fn class_imports_lead_to_the_file_that_defines_the_class() {
    let view = view(
        &["app/src/Main.kt"],
        &[
            (
                "lib/src/net/Client.kt",
                "package com.ex.net\n\nclass Client {\n  companion object\n}\n",
            ),
            (
                "lib/src/net/util.kt",
                "package com.ex.net\n\nclass Helper\nfun helper() = 1\n",
            ),
            // chained package clauses: the package is com.ex.model
            (
                "lib/src/model/Shapes.scala",
                "package com.ex\npackage model\n\ntrait Shape\nclass Circle extends Shape\nobject Circle\n",
            ),
            (
                "src/main/java/com/ex/util/Util.java",
                "package com.ex.util;\n\npublic class Util {\n  public static int max;\n}\n",
            ),
            (
                "Demo/Models/Helpers.cs",
                "namespace Demo.Models;\n\npublic static class Util {}\npublic record Entry(int Id);\n",
            ),
            (
                "src/Models/Contracts.php",
                "<?php\nnamespace App\\Models;\n\ninterface Repo {}\ntrait Loggable {}\n",
            ),
        ],
    );
    let kotlin = resolve_all(
        &view,
        "app/src/Main.kt",
        "import com.ex.net.Helper\nimport com.ex.model.Circle\nimport com.ex.net.Client.Companion\nimport com.ex.model.Missing\n",
    );
    assert_eq!(
        kotlin,
        [
            vec![file("lib/src/net/util.kt")],
            vec![file("lib/src/model/Shapes.scala")],
            vec![file("lib/src/net/Client.kt")],
            // not a declared type: the package
            vec![Target::Folder("lib/src/model".to_string())],
        ]
    );
    // a static import on demand names a class
    let java = resolve_all(
        &view,
        "app/Main.java",
        "import static com.ex.util.Util.*;\n",
    );
    assert_eq!(java, [vec![file("src/main/java/com/ex/util/Util.java")]]);
    // two import expressions in one statement, a hidden name, a `_root_` path
    let scala = resolve_all(
        &view,
        "app/App.scala",
        "import com.ex.net.{Helper => H, Client => _}, com.ex.model.Shape\nimport _root_.com.ex.model.Circle\n",
    );
    assert_eq!(
        scala,
        [
            vec![file("lib/src/net/util.kt")],
            vec![file("lib/src/model/Shapes.scala")],
            vec![file("lib/src/model/Shapes.scala")],
        ]
    );
    let csharp = resolve_all(
        &view,
        "App/Program.cs",
        "using static Demo.Models.Util;\nusing E = Demo.Models.Entry;\nusing Demo.Models;\n",
    );
    assert_eq!(
        csharp,
        [
            vec![file("Demo/Models/Helpers.cs")],
            vec![file("Demo/Models/Helpers.cs")],
            vec![Target::Folder("Demo/Models".to_string())],
        ]
    );
    let php = resolve_all(
        &view,
        "src/App.php",
        "<?php\nuse App\\Models\\Repo;\nuse App\\Models\\{Loggable, Missing};\n",
    );
    assert_eq!(
        php,
        [
            vec![file("src/Models/Contracts.php")],
            vec![file("src/Models/Contracts.php")],
            vec![]
        ]
    );
}

#[test]
fn scala_package_blocks_and_declared_names() {
    let facts = imports::scan(
        "a.scala",
        "package a {\n  package b {\n    class X\n  }\n  import c.D\n  trait Y\n}\n",
    )
    .unwrap();
    use devprojex_symbols::imports::Declaration::{Package, Type};
    assert_eq!(
        facts.declares,
        [
            Package("a".to_string()),
            Package("a.b".to_string()),
            Type("a.Y".to_string()),
            Type("a.b.X".to_string()),
        ]
    );
    assert_eq!(facts.imports.len(), 1);
}

#[test]
fn rust_use_of_the_own_module_by_its_name_goes_through_the_parent() {
    let view = view(
        &["src/lib.rs", "src/net.rs", "src/net/http.rs"],
        &[("Cargo.toml", "[package]\nname = \"demo\"\n")],
    );
    let found = resolve_all(
        &view,
        "src/net/http.rs",
        "mod tests {\n    use crate::net::http;\n    use super::*;\n    use super::super::Client;\n}\n",
    );
    assert_eq!(
        found,
        [
            // `http` is declared by net.rs
            vec![file("src/net.rs")],
            vec![],
            vec![file("src/net.rs")],
        ]
    );
}

#[test]
fn python_absolute_imports_never_reach_a_sibling_inside_a_package() {
    let view = view(
        &[
            "src/flask/__init__.py",
            "src/flask/app.py",
            "src/flask/typing.py",
            "src/flask/json/__init__.py",
            "scripts/typing.py",
            "scripts/run.py",
        ],
        &[],
    );
    let found = resolve_all(
        &view,
        "src/flask/app.py",
        "import typing\nimport typing as t\nfrom typing import Any\nfrom . import typing as ft\nfrom .typing import ResponseReturnValue\nimport flask.json\n",
    );
    assert_eq!(
        found,
        [
            // the standard library's typing, not the package's sibling
            vec![],
            vec![],
            vec![],
            vec![file("src/flask/typing.py")],
            vec![file("src/flask/typing.py")],
            vec![file("src/flask/json/__init__.py")],
        ]
    );
    // a script outside any package has its own folder on the path
    let found = resolve_all(&view, "scripts/run.py", "import typing\n");
    assert_eq!(found, [vec![file("scripts/typing.py")]]);
}

#[test]
fn rust_modules_of_a_binary_crate_placed_by_its_manifest() {
    // ripgrep: the package at the root, its binary at crates/core/main.rs
    let view = view(
        &[
            "crates/core/main.rs",
            "crates/core/flags/mod.rs",
            "crates/core/flags/hiargs.rs",
            "crates/core/flags/lowargs.rs",
            "crates/core/haystack.rs",
            "crates/core/search.rs",
        ],
        &[(
            "Cargo.toml",
            "[package]\nname = \"ripgrep\"\n\n[[bin]]\nbench = false\npath = \"crates/core/main.rs\"\nname = \"rg\"\n",
        )],
    );
    let found = resolve_all(
        &view,
        "crates/core/flags/hiargs.rs",
        "use crate::{\n    flags::lowargs::{LowArgs, Mode},\n    haystack::{Haystack, HaystackBuilder},\n    search::SearchWorker,\n};\nuse super::lowargs::ContextMode;\n",
    );
    assert_eq!(
        found,
        [
            vec![file("crates/core/flags/lowargs.rs")],
            vec![file("crates/core/flags/lowargs.rs")],
            vec![file("crates/core/haystack.rs")],
            vec![file("crates/core/haystack.rs")],
            vec![file("crates/core/search.rs")],
            vec![file("crates/core/flags/lowargs.rs")],
        ]
    );
    let found = resolve_all(&view, "crates/core/main.rs", "mod flags;\nmod search;\n");
    assert_eq!(
        found,
        [
            vec![file("crates/core/flags/mod.rs")],
            vec![file("crates/core/search.rs")],
        ]
    );
}

#[test]
fn rust_modules_in_a_folder_of_tests_below_a_declared_test_root() {
    // ripgrep: `[[test]] path = "tests/tests.rs"` declares `mod index;` and `mod util;`;
    // tests/index/ has no index.rs or main.rs of its own beside it
    let view = view(
        &[
            "tests/tests.rs",
            "tests/util.rs",
            "tests/index/mod.rs",
            "tests/index/basic.rs",
        ],
        &[(
            "Cargo.toml",
            "[package]\nname = \"ripgrep\"\n\n[[test]]\nname = \"integration\"\npath = \"tests/tests.rs\"\n",
        )],
    );
    let found = resolve_all(
        &view,
        "tests/index/basic.rs",
        "use crate::util::{Dir, TestCommand};\nuse super::helper;\n",
    );
    assert_eq!(
        found,
        [
            vec![file("tests/util.rs")],
            vec![file("tests/util.rs")],
            vec![file("tests/index/mod.rs")],
        ]
    );
    let found = resolve_all(&view, "tests/index/mod.rs", "mod basic;\n");
    assert_eq!(found, [vec![file("tests/index/basic.rs")]]);
}

#[test]
fn rust_paths_through_the_names_a_crate_root_brings_in() {
    // ripgrep: the facade crate `grep` re-exports its sister crates; grep-searcher's lib.rs
    // re-exports `sinks`, an inline module of sink.rs
    let grep = "pub extern crate grep_printer as printer;\npub extern crate grep_searcher as searcher;\npub use crate::parts::*;\nmod parts;\n";
    let printer =
        "mod color;\npub use crate::color::ColorSpecs;\npub(crate) use crate::color as palette;\n";
    let searcher = "pub use crate::sink::{sinks, Sink};\nmod sink;\n";
    let view = view(
        &[
            "crates/core/main.rs",
            "crates/core/flags/hiargs.rs",
            "crates/grep/src/parts/mod.rs",
            "crates/grep/src/parts/extra.rs",
            "crates/printer/src/color.rs",
            "crates/printer/src/standard.rs",
            "crates/searcher/src/sink.rs",
        ],
        &[
            (
                "Cargo.toml",
                "[package]\nname = \"ripgrep\"\n\n[[bin]]\npath = \"crates/core/main.rs\"\nname = \"rg\"\n",
            ),
            ("crates/grep/Cargo.toml", "[package]\nname = \"grep\"\n"),
            (
                "crates/printer/Cargo.toml",
                "[package]\nname = \"grep-printer\"\n",
            ),
            (
                "crates/searcher/Cargo.toml",
                "[package]\nname = \"grep-searcher\"\n",
            ),
            ("crates/grep/src/lib.rs", grep),
            ("crates/printer/src/lib.rs", printer),
            ("crates/searcher/src/lib.rs", searcher),
        ],
    );
    let found = resolve_all(
        &view,
        "crates/core/flags/hiargs.rs",
        "use grep::printer::{ColorSpecs, standard::Standard};\nuse grep::searcher::sinks::UTF8;\nuse grep::printer;\nuse grep::Unknown;\nuse grep::extra::Thing;\nuse grep_printer::palette::Color;\n",
    );
    assert_eq!(
        found,
        [
            // an item re-exported by printer's root is taken from that root
            vec![file("crates/printer/src/lib.rs")],
            vec![file("crates/printer/src/standard.rs")],
            // a segment before the last goes wherever the name leads, inline modules too
            vec![file("crates/searcher/src/sink.rs")],
            // the name itself, a crate
            vec![file("crates/printer/src/lib.rs")],
            vec![file("crates/grep/src/lib.rs")],
            // a module below a glob
            vec![file("crates/grep/src/parts/extra.rs")],
            // `pub(crate)`: not seen from another crate
            vec![file("crates/printer/src/lib.rs")],
        ]
    );
    // printer's own modules see its `pub(crate)` names
    let found = resolve_all(
        &view,
        "crates/printer/src/standard.rs",
        "use crate::palette::Color;\nuse crate::ColorSpecs;\n",
    );
    assert_eq!(
        found,
        [
            vec![file("crates/printer/src/color.rs")],
            vec![file("crates/printer/src/lib.rs")],
        ]
    );
}

#[test]
fn rust_a_module_file_the_importer_cannot_see_is_the_item_of_its_parent() {
    // futures: `mod poll_fn;` is private to `future`, which re-exports the function
    // `poll_fn`; the facade re-exports `future`
    let view = view(
        &[
            "futures-util/src/future/poll_fn.rs",
            "futures-util/src/future/ready.rs",
            "futures-util/src/future/join.rs",
            "futures-util/src/stream.rs",
            "futures/tests/basic.rs",
        ],
        &[
            (
                "futures-util/Cargo.toml",
                "[package]\nname = \"futures-util\"\n",
            ),
            ("futures/Cargo.toml", "[package]\nname = \"futures\"\n"),
            ("futures-util/src/lib.rs", "pub mod future;\nmod stream;\n"),
            (
                "futures-util/src/future/mod.rs",
                "mod poll_fn;\npub use self::poll_fn::{poll_fn, PollFn};\npub(crate) mod ready;\npub mod join;\n",
            ),
            ("futures/src/lib.rs", "pub use futures_util::future;\n"),
        ],
    );
    let found = resolve_all(
        &view,
        "futures/tests/basic.rs",
        "use futures::future::poll_fn;\nuse futures::future::ready;\nuse futures::future::join;\n",
    );
    assert_eq!(
        found,
        [
            vec![file("futures-util/src/future/mod.rs")],
            // `pub(crate)`: seen in its crate only
            vec![file("futures-util/src/future/mod.rs")],
            vec![file("futures-util/src/future/join.rs")],
        ]
    );
    let found = resolve_all(
        &view,
        "futures-util/src/stream.rs",
        "use crate::future::ready;\nuse crate::future::poll_fn;\n",
    );
    assert_eq!(
        found,
        [
            vec![file("futures-util/src/future/ready.rs")],
            vec![file("futures-util/src/future/mod.rs")],
        ]
    );
    // below its parent, a private module is seen
    let found = resolve_all(
        &view,
        "futures-util/src/future/join.rs",
        "use super::poll_fn;\n",
    );
    assert_eq!(found, [vec![file("futures-util/src/future/poll_fn.rs")]]);
    assert_eq!(
        view.rust_name_files(),
        [
            "futures-util/src/future/mod.rs",
            "futures-util/src/lib.rs",
            "futures/src/lib.rs",
        ]
    );
}

#[test]
fn rust_a_dependency_renamed_in_the_manifest_leads_to_its_package() {
    // futures' macro-reexport test crate: `futures04 = { path = "../..", package = "futures" }`
    let view = view(
        &[
            "futures/src/lib.rs",
            "futures/tests/macro-reexport/src/lib.rs",
        ],
        &[
            ("futures/Cargo.toml", "[package]\nname = \"futures\"\n"),
            (
                "futures/tests/macro-reexport/Cargo.toml",
                "[package]\nname = \"macro-reexport\"\n\n[dependencies]\nfutures04 = { path = \"../..\", package = \"futures\" }\n\n[target.'cfg(unix)'.dev-dependencies]\nold-futures = { package = \"futures\", path = \"../..\" }\nfutures-01 = { version = \"0.1\", package = \"futures\" }\n",
            ),
        ],
    );
    let found = resolve_all(
        &view,
        "futures/tests/macro-reexport/src/lib.rs",
        "pub use futures04::{join, select};\nuse old_futures::join as j;\nuse futures_01::Future;\n",
    );
    let futures = vec![file("futures/src/lib.rs")];
    // futures 0.1 from the registry is not the workspace's futures
    assert_eq!(
        found,
        [futures.clone(), futures.clone(), futures, Vec::new()]
    );
}

#[test]
fn rust_a_dependency_the_workspace_renames_leads_to_its_package() {
    // a virtual workspace manifest renames a member; the other member inherits the rename
    let view = view(
        &["crates/matcher/src/lib.rs", "crates/cli/src/main.rs"],
        &[
            (
                "Cargo.toml",
                "[workspace]\nmembers = [\"crates/*\"]\n\n[workspace.dependencies]\nmatch-core = { path = \"crates/matcher\", package = \"grep-matcher\" }\nserde = { version = \"1\", package = \"serde\" }\n",
            ),
            (
                "crates/matcher/Cargo.toml",
                "[package]\nname = \"grep-matcher\"\n",
            ),
            (
                "crates/cli/Cargo.toml",
                "[package]\nname = \"cli\"\n\n[dependencies]\nmatch-core = { workspace = true }\n",
            ),
        ],
    );
    let found = resolve_all(
        &view,
        "crates/cli/src/main.rs",
        "use match_core::Matcher;\nuse grep_matcher::Captures;\n",
    );
    let matcher = vec![file("crates/matcher/src/lib.rs")];
    // the package's own name also still leads to it (a crate of that name)
    assert_eq!(found, [matcher.clone(), matcher]);
}

#[test]
fn rust_a_crate_root_of_many_globs_costs_a_path_a_few_walks() {
    // 20,000 globs that lead nowhere, 20,000 imports of a name none of them has
    let globs: String = (0..20_000)
        .map(|i| format!("pub use crate::m{i}::*;\n"))
        .collect();
    let uses: String = (0..20_000)
        .map(|i| format!("use demo::missing{i}::X;\n"))
        .collect();
    let view = view(
        &["src/user.rs", "app/main.rs"],
        &[
            ("Cargo.toml", "[package]\nname = \"demo\"\n"),
            ("src/lib.rs", &globs),
        ],
    );
    let started = std::time::Instant::now();
    let found = resolve_all(&view, "app/main.rs", &uses);
    assert!(found.iter().all(|targets| targets == &[file("src/lib.rs")]));
    // without the bound: 400 million walks
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
}

#[test]
fn rust_names_that_lead_to_each_other_end() {
    let lib = "pub use crate::b as a;\npub use crate::a as b;\npub use crate::c::*;\npub use crate::d::*;\n";
    let view = view(
        &["src/c.rs", "src/d.rs", "src/user.rs"],
        &[
            ("Cargo.toml", "[package]\nname = \"demo\"\n"),
            ("src/lib.rs", lib),
        ],
    );
    let found = resolve_all(&view, "src/user.rs", "use crate::a::X;\nuse crate::e::Y;\n");
    assert_eq!(found, [vec![file("src/lib.rs")], vec![file("src/lib.rs")]]);
}

#[test]
fn go_imports_of_the_module_root_package_lead_to_the_root_folder() {
    // cobra: package cobra at the module root, imported by its subpackages
    let view = view(
        &["command.go", "args.go", "doc/man_docs.go"],
        &[("go.mod", "module github.com/spf13/cobra\n\ngo 1.15\n")],
    );
    let found = resolve_all(
        &view,
        "doc/man_docs.go",
        "package doc\n\nimport (\n\t\"fmt\"\n\t\"github.com/spf13/cobra\"\n)\n",
    );
    assert_eq!(found, [vec![], vec![Target::Folder(String::new())]]);
}

#[test]
fn javascript_member_assignments_are_definitions_in_their_object() {
    // express' shapes (issue 39: `app.render` and `res.json` were not found by container)
    let text = "var app = exports = module.exports = {};\napp.render = function render(name) {};\nres.json = function json(obj) {};\nexports.helper = () => 1;\nView.prototype.lookup = function lookup(name) {};\n";
    assert_eq!(
        defs("lib/app.js", text),
        [
            row(2, "method", "render", "app"),
            row(3, "method", "json", "res"),
            row(4, "method", "helper", "exports"),
            row(5, "method", "lookup", "View"),
        ]
    );
}

/// `extends` naming its parents several times, in a chain and in a cycle: each configuration is
/// read once (following every name anew grew as names^levels and hung the resolver), and the
/// inherited `paths` still apply.
#[test]
fn a_tsconfig_extends_chain_is_read_once_per_file_even_with_repeats_and_cycles() {
    let mut configs: Vec<(String, String)> = vec![(
        "tsconfig.json".to_string(),
        r#"{"extends": ["./c/t1.json", "./c/t1.json", "./c/t1.json"]}"#.to_string(),
    )];
    for level in 1..=7 {
        let next = if level == 7 {
            // back to the start: a cycle tsc refuses, skipped
            r#"["../tsconfig.json", "./t1.json"]"#.to_string()
        } else {
            let name = format!("./t{}.json", level + 1);
            format!(r#"["{name}", "{name}", "{name}"]"#)
        };
        let options = if level == 3 {
            r#", "compilerOptions": {"baseUrl": "..", "paths": {"@app/*": ["src/*"]}}"#
        } else {
            ""
        };
        configs.push((
            format!("c/t{level}.json"),
            format!(r#"{{"extends": {next}{options}}}"#),
        ));
    }
    let reads = std::cell::Cell::new(0usize);
    let read = |path: &str| {
        reads.set(reads.get() + 1);
        configs
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, t)| t.clone())
    };
    let mut files: Vec<String> = configs.iter().map(|(p, _)| p.clone()).collect();
    files.extend(["src/main.ts".to_string(), "src/util/strings.ts".to_string()]);
    let view = ProjectView::new(ViewInput {
        files,
        declarations: Vec::new(),
        read: &read,
        root: None,
    });
    assert_eq!(reads.get(), configs.len(), "each configuration read once");
    assert_eq!(
        resolve_all(
            &view,
            "src/main.ts",
            "import { pad } from '@app/util/strings';\n"
        ),
        [vec![file("src/util/strings.ts")]]
    );
}
