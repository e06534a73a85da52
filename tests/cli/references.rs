//! `devprojex references` and the `find_references` tool: the same engine call.

use crate::common::{Fixture, Mcp, one_spot, run};
use serde_json::{Value, json};

fn project() -> Fixture {
    let fx = Fixture::new();
    fx.write("pkg/__init__.py", "")
        .write(
            "pkg/parser.py",
            "class Parser:\n    def parse(self, text):\n        return self.tokens(text)\n\n    def tokens(self, text):\n        return text.split()\n\n\ndef parse_all(texts):\n    # parse_all is recursive in spirit\n    return [Parser().parse(t) for t in texts]\n",
        )
        .write(
            "pkg/app.py",
            "from .parser import Parser, parse_all\n\n\ndef run(p: Parser, items):\n    p.parse(\"x\")\n    message = \"call parse_all here\"\n    return parse_all(items)\n\n\ndef shadow(parse_all):\n    return parse_all\n",
        )
        .write(
            "other/unrelated.py",
            "def parse(x):\n    return x\n\n\ndef use(thing):\n    return thing.parse() + parse(1)\n",
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
fn references_skip_comments_strings_and_shadowing_locals_and_label_what_is_proved() {
    let fx = project();
    let output = run(&["references", "parse_all", "."], &fx.root);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "references of parse_all: 2 (2 resolved, 0 name-only), 1 definition\n\
         definition pkg/parser.py:9: function parse_all\n\
         pkg/app.py:1:29: resolved import: from .parser import Parser, parse_all\n\
         pkg/app.py:7:12: resolved (in run): return parse_all(items)\n"
    );
    // a method: self and an annotated parameter prove it, an unknown receiver does not
    let output = run(
        &["references", "Parser.parse", ".", "--format", "json"],
        &fx.root,
    );
    let value: Value = serde_json::from_slice(&output.stdout).unwrap();
    let found: Vec<(String, u64, String)> = value["references"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                format!("{}:{}", r["path"].as_str().unwrap(), r["line"]),
                r["column"].as_u64().unwrap(),
                r["confidence"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (
                "other/unrelated.py:6".to_string(),
                18,
                "name-only".to_string()
            ),
            ("pkg/app.py:5".to_string(), 7, "resolved".to_string()),
            ("pkg/parser.py:11".to_string(), 22, "resolved".to_string()),
        ]
    );
    // `parse(1)` in other/ means its own parse, not the method
    assert!(!stdout(&output).contains("\"line\": 6,\n      \"column\": 27"));
}

#[test]
fn references_page_with_offset_and_match_the_tool() {
    let fx = project();
    let first = run(
        &["references", "parse_all", ".", "--max-results", "1"],
        &fx.root,
    );
    assert_eq!(
        stdout(&first),
        "references of parse_all: 2 (2 resolved, 0 name-only), 1 definition\n\
         definition pkg/parser.py:9: function parse_all\n\
         pkg/app.py:1:29: resolved import: from .parser import Parser, parse_all\n"
    );
    assert!(
        stderr(&first).contains("Call again with --offset=1 for the next page"),
        "{}",
        stderr(&first)
    );
    let second = run(
        &[
            "references",
            "parse_all",
            ".",
            "--max-results",
            "1",
            "--offset",
            "1",
        ],
        &fx.root,
    );
    assert!(
        stdout(&second).ends_with("pkg/app.py:7:12: resolved (in run): return parse_all(items)\n")
    );
    let imports_left_out = run(
        &["references", "parse_all", ".", "--include-imports", "false"],
        &fx.root,
    );
    assert!(!stdout(&imports_left_out).contains("import:"));
    // byte-identical to the tool's payload
    let cli = run(&["references", "parse_all", "."], &fx.root);
    let mut mcp = Mcp::start(&fx.root);
    let text = mcp.call_ok("find_references", json!({"name": "parse_all"}));
    assert_eq!(one_spot(&text).inner, stdout(&cli));
}

#[test]
fn bad_names_and_positions_get_clear_errors() {
    let fx = project();
    // an unknown name: exit 1 and near names, a case mistake first
    let unknown = run(&["references", "PARSE_ALL", "."], &fx.root);
    assert_eq!(unknown.status.code(), Some(1), "{}", stderr(&unknown));
    assert_eq!(stdout(&unknown), "");
    assert!(
        stderr(&unknown).contains("Near names: parse_all"),
        "{}",
        stderr(&unknown)
    );
    // a slip near the start is found by the end of the name
    let slip = run(&["references", "prse_all", "."], &fx.root);
    assert_eq!(slip.status.code(), Some(1), "{}", stderr(&slip));
    assert!(
        stderr(&slip).contains("Near names: parse_all"),
        "{}",
        stderr(&slip)
    );
    // an `at` that is not a definition names the ones there are
    let not_a_definition = run(
        &["references", "parse_all", ".", "--at", "pkg/app.py:7"],
        &fx.root,
    );
    assert_eq!(not_a_definition.status.code(), Some(2));
    assert!(
        stderr(&not_a_definition)
            .contains("is not a definition of 'parse_all'; its definitions are at pkg/parser.py:9"),
        "{}",
        stderr(&not_a_definition)
    );
    let malformed = run(
        &["references", "parse_all", ".", "--at", "pkg/app.py"],
        &fx.root,
    );
    assert_eq!(malformed.status.code(), Some(2));
    assert!(
        stderr(&malformed).contains("'path:line'"),
        "{}",
        stderr(&malformed)
    );
}

#[test]
fn outline_lists_one_files_definitions_with_their_end_lines() {
    let fx = project();
    std::fs::create_dir(fx.path(".git")).unwrap();
    let output = run(&["outline", "parser.py"], &fx.path("pkg"));
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stdout(&output),
        "1-6: class Parser\n2-3: method parse (in class Parser)\n5-6: method tokens (in class Parser)\n9-11: function parse_all\n"
    );
    let json = run(
        &[
            "outline",
            "pkg/app.py",
            "--project",
            ".",
            "--format",
            "json",
        ],
        &fx.root,
    );
    let value: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(
        value["definitions"],
        json!([
            {"name": "run", "kind": "function", "line": 4, "endLine": 7},
            {"name": "shadow", "kind": "function", "line": 10, "endLine": 11}
        ])
    );
    let missing = run(&["outline", "pkg/none.py", "--project", "."], &fx.root);
    assert_eq!(missing.status.code(), Some(1), "{}", stderr(&missing));
}

/// A member assigned to an object (`response.json = …`) has a value for container, not a
/// type: another file's `response.json()` means that file's own `response` (name-only); in
/// its own file the object is the one meant (resolved). Another such assignment of the name
/// is another definition, not a use.
#[test]
fn a_member_of_an_object_is_proved_only_in_its_own_file() {
    let fx = Fixture::new();
    fx.write(
        "lib/client.js",
        "function decorate(response) {\n  response.json = async () => 1;\n  return response.json();\n}\nmodule.exports = decorate;\nfunction again(other) {\n  other.json = () => 2;\n}\n",
    )
    .write(
        "test/server.js",
        "function handler(request, response) {\n  response.json({ok: true});\n}\n",
    );
    let output = run(
        &["references", "json", ".", "--at", "lib/client.js:2"],
        &fx.root,
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("lib/client.js:3:19: resolved (in decorate): return response.json();"),
        "{text}"
    );
    assert!(
        text.contains("test/server.js:2:12: name-only (in handler): response.json({ok: true});"),
        "{text}"
    );
    // `other.json = …` defines another `json`; it is no use of this one
    assert!(!text.contains("other.json"), "{text}");
}

/// A package that re-exports a function (`from .helpers import f as f` in `__init__.py`)
/// passes it on: `flask.f()` in a file importing the package is resolved, another receiver
/// is not.
#[test]
fn a_reexport_proves_the_uses_through_the_package() {
    let fx = Fixture::new();
    fx.write(
        "flask/__init__.py",
        "from .helpers import get_flashed_messages as get_flashed_messages\n",
    )
    .write(
        "flask/helpers.py",
        "def get_flashed_messages():\n    return []\n",
    )
    .write(
        "test_basic.py",
        "import flask\n\n\ndef test():\n    flask.get_flashed_messages()\n    other.get_flashed_messages()\n",
    );
    let output = run(&["references", "get_flashed_messages", "."], &fx.root);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("test_basic.py:5:11: resolved (in test): flask.get_flashed_messages()"),
        "{text}"
    );
    assert!(
        text.contains("test_basic.py:6:11: name-only (in test): other.get_flashed_messages()"),
        "{text}"
    );
}

/// A package whose root `index.js` re-exports a class (`export { Command }` after importing it
/// from `lib/command.js`) passes it on to the tests that bind the root to a name:
/// `import * as commander from '../index.js'` and `require('..')` make `commander.Command`
/// resolved (commander.js' tests); another receiver stays name-only.
#[test]
fn a_root_index_passes_its_reexports_to_modules_bound_to_the_root() {
    let fx = Fixture::new();
    fx.write(
        "package.json",
        "{\"name\": \"commander\", \"main\": \"./index.js\"}\n",
    )
    .write(
        "index.js",
        "import { Command } from './lib/command.js';\n\nexport const program = new Command();\n\nexport { Command };\n",
    )
    .write("lib/command.js", "export class Command {\n  run() {}\n}\n")
    .write(
        "tests/esm.test.js",
        "import * as commander from '../index.js';\n\nconst program = new commander.Command();\nconst other = new others.Command();\n",
    )
    .write(
        "tests/cjs.test.cjs",
        "const commander = require('..');\n\nconst program = new commander.Command();\n",
    );
    let output = run(
        &["references", "Command", ".", "--at", "lib/command.js:1"],
        &fx.root,
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    for line in [
        "tests/esm.test.js:3:31: resolved: const program = new commander.Command();",
        "tests/esm.test.js:4:26: name-only: const other = new others.Command();",
        "tests/cjs.test.cjs:3:31: resolved: const program = new commander.Command();",
    ] {
        assert!(text.contains(line), "{line} in {text}");
    }
}

/// A CommonJS package root passes on what it requires and exports (`exports.Command =
/// Command`, `module.exports.Helper = …`): `commander.Command` through `require('..')` is
/// resolved, as through an ES re-export.
#[test]
fn a_commonjs_export_passes_the_required_name_on() {
    let fx = Fixture::new();
    fx.write("package.json", "{\"main\": \"index.js\"}\n")
        .write(
            "index.js",
            "const { Command } = require('./lib/command.js');\nconst helper = require('./lib/helper.js');\nexports.Command = Command;\nmodule.exports.Helper = helper.Helper;\n",
        )
        .write("lib/command.js", "class Command {}\nexports.Command = Command;\n")
        .write("lib/helper.js", "class Helper {}\nexports.Helper = Helper;\n")
        .write(
            "test/a.js",
            "const commander = require('..');\nnew commander.Command();\nnew commander.Helper();\n",
        );
    for (name, at, line) in [
        (
            "Command",
            "lib/command.js:1",
            "test/a.js:2:15: resolved: new commander.Command();",
        ),
        (
            "Helper",
            "lib/helper.js:1",
            "test/a.js:3:15: resolved: new commander.Helper();",
        ),
    ] {
        let output = run(&["references", name, ".", "--at", at], &fx.root);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let text = stdout(&output);
        assert!(text.contains(line), "{line} in {text}");
    }
}

/// Rust says by a name's place what it can mean: a macro (`format!`), a path's module
/// (`std::path::…`) and a field (`self.exit_code`) are no uses of a function or method of the
/// same name; `self.template` is typed by its struct's field, `other: &Self` by the `impl`
/// around, `c.run()` inside `println!` is read from the macro's tokens, and
/// `crate::exec::job::helper()` reaches `src/exec/job.rs` by its path alone.
#[test]
fn rust_paths_fields_macros_and_self_decide_what_a_name_means() {
    let fx = Fixture::new();
    fx.write(
        "Cargo.toml",
        "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    )
    .write(
        "src/main.rs",
        "mod exec;\n\nfn main() {\n    let c = exec::job::Command::new();\n    println!(\"{}\", c.run());\n    crate::exec::job::helper();\n    let s = format!(\"{}\", 1);\n    let p = std::path::Path::new(&s);\n}\n",
    )
    .write("src/exec/mod.rs", "pub mod job;\n")
    .write(
        "src/exec/job.rs",
        "pub struct Command {\n    exit_code: i32,\n    template: Box<Template>,\n}\n\npub struct Template;\n\nimpl Template {\n    pub fn generate(&self) -> String {\n        String::new()\n    }\n}\n\nimpl Command {\n    pub fn new() -> Self {\n        Command { exit_code: 0, template: Box::new(Template) }\n    }\n\n    pub fn exit_code(&self) -> i32 {\n        self.exit_code\n    }\n\n    pub fn run(&self) -> String {\n        self.template.generate()\n    }\n}\n\nimpl PartialEq for Command {\n    fn eq(&self, other: &Self) -> bool {\n        self.exit_code() == other.exit_code()\n    }\n}\n\npub fn helper() {}\n\npub fn format() {}\n\npub fn path() {}\n",
    );
    let references = |name: &str| {
        let output = run(&["references", name, "."], &fx.root);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        stdout(&output)
    };
    let text = references("generate");
    assert!(
        text.contains("src/exec/job.rs:24:23: resolved (in Command.run): self.template.generate()"),
        "{text}"
    );
    let text = references("exit_code");
    assert!(
        text.contains("exit_code: 2 (2 resolved, 0 name-only)"),
        "{text}"
    );
    assert!(text.contains("src/exec/job.rs:30:35: resolved"), "{text}");
    // a macro's arguments are tokens; the receiver is read from them
    let text = references("run");
    assert!(
        text.contains("src/main.rs:5:22: resolved (in main): println!(\"{}\", c.run());"),
        "{text}"
    );
    let text = references("helper");
    assert!(
        text.contains("src/main.rs:6:23: resolved (in main): crate::exec::job::helper();"),
        "{text}"
    );
    for name in ["format", "path"] {
        let text = references(name);
        assert!(text.contains(&format!("{name}: 0 (")), "{text}");
    }
}

/// A receiver made by a function or method of another file is typed by what that one
/// returns: a Go function of the same package (its first result), a method's declared result
/// (`router.Group("/v1")`), a JSDoc `@return {T}` or `return this` in a chain, a Python
/// function the file imports; a method the receiver's class gets from a base (a Go embedded
/// struct). Two definitions that return different types prove nothing.
#[test]
fn receivers_made_by_other_files_functions_are_typed_by_their_results() {
    let fx = Fixture::new();
    fx.write("go.mod", "module example.com/gin\n\ngo 1.21\n")
        .write(
            "gin/routergroup.go",
            "package gin\n\ntype RouterGroup struct{}\n\nfunc (group *RouterGroup) Group(path string) *RouterGroup {\n\treturn &RouterGroup{}\n}\n\nfunc (group *RouterGroup) Handle(path string) {}\n",
        )
        .write(
            "gin/context.go",
            "package gin\n\ntype Context struct{}\n\nfunc (c *Context) Handle(path string) {}\n\nfunc CreateTestContext() (c *Context, r *RouterGroup) {\n\treturn &Context{}, &RouterGroup{}\n}\n",
        )
        .write(
            "gin/use_test.go",
            "package gin\n\nfunc TestX() {\n\tc, _ := CreateTestContext()\n\tc.Handle(\"x\")\n\tvar g RouterGroup\n\tv1 := g.Group(\"/v1\")\n\tv1.Handle(\"y\")\n\tg.Group(\"/v2\").Handle(\"z\")\n}\n\nfunc TestY() {\n\trouter := New()\n\trouter.Handle(\"a\")\n\trouter.Group(\"/x\").Handle(\"b\")\n}\n",
        )
        .write(
            "gin/engine.go",
            "package gin\n\ntype Engine struct {\n\tRouterGroup\n\tname string\n}\n\nfunc New() *Engine {\n\treturn &Engine{}\n}\n",
        )
        .write(
            "lib/command.js",
            "class Command {\n  /**\n   * @return {Command} the new command\n   */\n  command(name) {\n    return build(name);\n  }\n\n  option(flags) {\n    return this;\n  }\n\n  action(fn) {}\n}\nexports.Command = Command;\n",
        )
        .write(
            "lib/other.js",
            "class Other {\n  option() {\n    return new Other();\n  }\n  action(fn) {}\n}\nexports.Other = Other;\n",
        )
        .write(
            "tests/program.test.js",
            "const commander = require('../lib/command.js');\nconst program = new commander.Command();\nprogram.command('run').option('-a').action(() => {});\nunknown.option('-b').action(() => {});\n",
        )
        .write("app/__init__.py", "")
        .write(
            "app/factory.py",
            "from .parser import Parser\n\n\ndef make_parser() -> Parser:\n    return Parser()\n",
        )
        .write(
            "app/parser.py",
            "class Parser:\n    def parse(self):\n        return 1\n",
        )
        .write(
            "app/use.py",
            "from .factory import make_parser\n\n\ndef run():\n    p = make_parser()\n    p.parse()\n",
        );
    let uses = |name: &str, at: &str| {
        let output = run(&["references", name, ".", "--at", at], &fx.root);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        stdout(&output)
    };
    let group = uses("Handle", "gin/routergroup.go:9");
    assert!(group.contains("gin/use_test.go:8:5: resolved"), "{group}");
    assert!(group.contains("gin/use_test.go:9:17: resolved"), "{group}");
    assert!(group.contains("gin/use_test.go:5:4: name-only"), "{group}");
    // the Engine embeds RouterGroup: its Handle is RouterGroup's
    assert!(group.contains("gin/use_test.go:14:9: resolved"), "{group}");
    assert!(group.contains("gin/use_test.go:15:21: resolved"), "{group}");
    let context = uses("Handle", "gin/context.go:5");
    assert!(
        context.contains("gin/use_test.go:5:4: resolved"),
        "{context}"
    );
    assert!(
        context.contains("gin/use_test.go:8:5: name-only"),
        "{context}"
    );
    let action = uses("action", "lib/command.js:13");
    assert!(
        action.contains("tests/program.test.js:3:37: resolved"),
        "{action}"
    );
    assert!(
        action.contains("tests/program.test.js:4:22: name-only"),
        "{action}"
    );
    let parse = uses("parse", "app/parser.py:2");
    assert!(
        parse.contains("app/use.py:6:7: resolved (in run): p.parse()"),
        "{parse}"
    );
}

/// A name declared again in the same scope (Python `@overload` signatures, TypeScript
/// overload signatures and accessor pairs) is one symbol: the other declarations are its
/// references; another class's method of the name is not.
#[test]
fn python_overloads_are_references_of_each_other() {
    let fx = Fixture::new();
    fx.write(
        "app.py",
        "import typing as t\n\n\nclass App:\n    @t.overload\n    def get(self, name: str) -> str: ...\n    @t.overload\n    def get(self, name: int) -> int: ...\n    def get(self, name):\n        return name\n\n\nclass Other:\n    def get(self):\n        return 1\n",
    );
    let output = run(&["references", "get", ".", "--at", "app.py:9"], &fx.root);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("app.py:6:9: resolved"), "{text}");
    assert!(text.contains("app.py:8:9: resolved"), "{text}");
    assert!(!text.contains("app.py:14:"), "{text}");
    // TypeScript: overload signatures and a get/set pair
    fx.write(
        "queue.ts",
        "export class Queue {\n  remove(run: Run): void;\n  remove(id: string): void;\n  remove(x: unknown): void {}\n  get size(): number { return 1; }\n  set size(n: number) {}\n}\nexport class Other {\n  remove(): void {}\n}\n",
    );
    let output = run(
        &["references", "remove", ".", "--at", "queue.ts:4"],
        &fx.root,
    );
    let text = stdout(&output);
    assert!(text.contains("queue.ts:2:3: resolved"), "{text}");
    assert!(text.contains("queue.ts:3:3: resolved"), "{text}");
    assert!(!text.contains("queue.ts:9:"), "{text}");
    let output = run(&["references", "size", ".", "--at", "queue.ts:5"], &fx.root);
    let text = stdout(&output);
    assert!(text.contains("queue.ts:6:7: resolved"), "{text}");
}

/// Rust receivers made by calls: a builder chain of methods declared `-> &mut Self` or
/// `-> &mut Builder` in another file, a trait's method without a body (`fn visit(&mut self)
/// -> State;`) called on a `Box<dyn Trait>`, and `make()?` of a function declared
/// `-> Result<T, E>`. A trait's method that an inherent one of the type hides is no `x.f()`.
#[test]
fn rust_receivers_made_by_builder_chains_trait_methods_and_results() {
    let fx = Fixture::new();
    fx.write(
        "Cargo.toml",
        "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    )
    .write(
        "src/builder.rs",
        "pub struct Builder;\npub struct Searcher;\n\nimpl Builder {\n    pub fn new() -> Builder {\n        Builder\n    }\n    pub fn line_number(&mut self, yes: bool) -> &mut Builder {\n        self\n    }\n    pub fn heap(&mut self) -> &mut Self {\n        self\n    }\n    pub fn build(&self) -> Searcher {\n        Searcher\n    }\n}\n\npub enum State {\n    Quit,\n}\n\nimpl State {\n    pub fn is_quit(&self) -> bool {\n        true\n    }\n}\n\npub trait Visitor {\n    fn visit(&mut self) -> State;\n}\n\npub trait VisitorBuilder {\n    fn build(&mut self) -> Box<dyn Visitor>;\n}\n\npub fn make() -> Result<Builder, String> {\n    Ok(Builder)\n}\n\npub trait Heap {\n    fn heap(&mut self) -> &mut Self;\n}\n\nimpl Heap for Builder {\n    fn heap(&mut self) -> &mut Self {\n        self\n    }\n}\n",
    )
    .write(
        "src/main.rs",
        "mod builder;\nuse builder::{make, Builder, VisitorBuilder};\n\nfn main() {\n    let searcher = Builder::new()\n        .line_number(false)\n        .heap()\n        .build();\n}\n\nfn walk(b: &mut dyn VisitorBuilder) -> Result<(), String> {\n    let mut visitor = b.build();\n    if visitor.visit().is_quit() {\n        return Ok(());\n    }\n    make()?.heap();\n    Ok(())\n}\n",
    );
    let references = |name: &str, at: &str| {
        let output = run(&["references", name, ".", "--at", at], &fx.root);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        stdout(&output)
    };
    let text = references("build", "src/builder.rs:14");
    assert!(
        text.contains("src/main.rs:8:10: resolved (in main): .build();"),
        "{text}"
    );
    // the trait's `build` is another method: `b.build()` is not proved to be this one
    assert!(text.contains("src/main.rs:12:25: name-only"), "{text}");
    let text = references("is_quit", "src/builder.rs:24");
    assert!(
        text.contains("src/main.rs:13:24: resolved (in walk): if visitor.visit().is_quit() {"),
        "{text}"
    );
    let text = references("heap", "src/builder.rs:11");
    assert!(
        text.contains("src/main.rs:16:13: resolved (in walk): make()?.heap();"),
        "{text}"
    );
    // the trait's `heap` for Builder: the inherent `heap` hides it from `x.heap()`
    let text = references("heap", "src/builder.rs:46");
    assert!(text.contains("heap: 0 ("), "{text}");
}

/// Rust: a file's own type hides another of the same name (`Glob::unmatched()` in a file with
/// its own `impl Glob`), and an associated type is named only through a path
/// (`Self::Captures`), never bare (a bare `Captures` is the type of that name).
#[test]
fn rust_own_types_hide_others_and_associated_types_need_a_path() {
    let fx = Fixture::new();
    fx.write(
        "Cargo.toml",
        "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    )
    .write(
        "src/a.rs",
        "pub struct Glob;\n\nimpl Glob {\n    pub fn unmatched() -> Glob {\n        Glob\n    }\n}\n\npub trait Named {\n    fn unmatched() -> Self;\n}\n\nimpl Named for Glob {\n    fn unmatched() -> Glob {\n        Glob::unmatched()\n    }\n}\n",
    )
    .write(
        "src/b.rs",
        "pub struct Glob;\n\nimpl Glob {\n    pub fn unmatched() -> Glob {\n        Glob\n    }\n}\n\nfn f() -> Glob {\n    Glob::unmatched()\n}\n",
    )
    .write(
        "src/m.rs",
        "pub trait Matcher {\n    type Captures;\n    fn new_captures(&self) -> Self::Captures;\n}\n\npub struct Captures;\npub struct R;\n\nimpl Matcher for R {\n    type Captures = Captures;\n    fn new_captures(&self) -> Self::Captures {\n        Captures\n    }\n}\n",
    );
    let output = run(
        &["references", "unmatched", ".", "--at", "src/a.rs:4"],
        &fx.root,
    );
    let text = stdout(&output);
    // b.rs's `Glob` is its own; another `impl` block of the target's type is no other type
    assert!(
        text.contains("unmatched: 1 (1 resolved, 0 name-only)")
            && text.contains("src/a.rs:15:15: resolved"),
        "{text}"
    );
    let output = run(
        &["references", "Captures", ".", "--at", "src/m.rs:10"],
        &fx.root,
    );
    let text = stdout(&output);
    assert!(
        text.contains("src/m.rs:11:37: resolved (in R.new_captures): fn new_captures(&self) -> Self::Captures {"),
        "{text}"
    );
    assert!(!text.contains("src/m.rs:12:"), "{text}");
    assert!(!text.contains("src/m.rs:10:21"), "{text}");
}

/// An associated type of a trait's `impl` is the trait's item (as rust-analyzer answers): its
/// uses through the trait (`Self::Captures` in the trait and in other impls, `M::Captures`
/// with `M: Matcher`) and the other impls' definitions of it are its references; a `use` of
/// a trait named like it is not, a module's type of the name (`regex::Captures`) is unproved.
#[test]
fn a_trait_impls_associated_type_is_the_traits_item() {
    let fx = Fixture::new();
    fx.write(
        "Cargo.toml",
        "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    )
    .write(
        "src/matcher.rs",
        "pub trait Captures {}\n\npub trait Matcher {\n    type Captures: Captures;\n    fn new_captures(&self) -> Self::Captures;\n}\n\nimpl<'a, M: Matcher> Matcher for &'a M {\n    type Captures = M::Captures;\n    fn new_captures(&self) -> Self::Captures {\n        (*self).new_captures()\n    }\n}\n",
    )
    .write(
        "src/regex.rs",
        "use crate::matcher::{Captures, Matcher};\n\npub struct Caps;\nimpl Captures for Caps {}\npub struct RegexMatcher;\n\nimpl Matcher for RegexMatcher {\n    type Captures = Caps;\n    fn new_captures(&self) -> Caps {\n        Caps\n    }\n}\n",
    )
    .write(
        "src/printer.rs",
        "use crate::matcher::Matcher;\n\npub struct Space<M: Matcher> {\n    caps: M::Captures,\n    other: regex::Captures,\n}\n",
    );
    let output = run(
        &[
            "references",
            "Captures",
            ".",
            "--at",
            "src/regex.rs:8",
            "--include-imports",
            "true",
        ],
        &fx.root,
    );
    let text = stdout(&output);
    for expected in [
        "src/matcher.rs:4:10: resolved (in Matcher): type Captures: Captures;",
        "src/matcher.rs:5:37: resolved (in Matcher): fn new_captures(&self) -> Self::Captures;",
        "src/matcher.rs:9:10: resolved",
        "src/matcher.rs:9:24: resolved",
        "src/matcher.rs:10:37: resolved",
        "src/printer.rs:4:14: resolved (in Space): caps: M::Captures,",
    ] {
        assert!(text.contains(expected), "{expected}\n{text}");
    }
    // the trait `Captures` imported is another thing of the name; `regex::Captures` is
    // another crate's, not proved either way
    assert!(!text.contains("src/regex.rs:1:"), "{text}");
    assert!(text.contains("src/printer.rs:5:19: name-only"), "{text}");
    assert!(
        text.contains("Captures: 7 (6 resolved, 1 name-only)"),
        "{text}"
    );
}

/// A Rust `let` binds after its statement: in `let dirname = dirname(path);` the call means
/// the file's function, the later `dirname` the local.
#[test]
fn a_rust_let_binds_after_its_statement() {
    let fx = Fixture::new();
    fx.write(
        "src/input.rs",
        "pub fn dirname(path: &str) -> String {\n    path.to_string()\n}\n\npub fn strip(path: &str) -> usize {\n    let dirname = dirname(path);\n    dirname.len()\n}\n",
    );
    let output = run(
        &["references", "dirname", ".", "--at", "src/input.rs:1"],
        &fx.root,
    );
    let text = stdout(&output);
    assert!(
        text.contains("dirname: 1 (1 resolved, 0 name-only)")
            && text
                .contains("src/input.rs:6:19: resolved (in strip): let dirname = dirname(path);"),
        "{text}"
    );
}

/// `export * from` barrels pass a module on whole, barrel after barrel, without spelling the
/// name: `core.parse()` through `import * as core from "../core/index.js"` is resolved, and so
/// is a bare `parse` imported from the outer barrel; a bare `parse` the file takes from another
/// module is not.
#[test]
fn export_star_barrels_pass_the_module_on() {
    let fx = Fixture::new();
    fx.write(
        "src/core/api.ts",
        "export function parse(text: string) {\n  return text;\n}\nexport type ParseOptions = { strict: boolean };\n",
    )
    .write(
        "src/core/index.ts",
        "export * from \"./api.js\";\nexport * as util from \"./util.js\";\n",
    )
    .write("src/core/util.ts", "export const x = 1;\n")
    .write("src/index.ts", "export * from \"./core/index.js\";\n")
    .write(
        "src/classic/schemas.ts",
        "import * as core from \"../core/index.js\";\n\nexport function run(options?: core.ParseOptions) {\n  return core.parse(\"a\");\n}\n",
    )
    .write(
        "src/app.ts",
        "import { parse } from \"./index.js\";\n\nparse(\"b\");\n",
    )
    .write(
        "src/other.ts",
        "import \"./index.js\";\nimport { parse } from \"./elsewhere.js\";\n\nparse(\"c\");\n",
    )
    .write(
        "src/elsewhere.ts",
        "export function parse(text: string) {\n  return text.length;\n}\n",
    );
    let output = run(
        &["references", "parse", ".", "--at", "src/core/api.ts:1"],
        &fx.root,
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("src/classic/schemas.ts:4:15: resolved (in run): return core.parse(\"a\");"),
        "{text}"
    );
    assert!(
        text.contains("src/app.ts:3:1: resolved: parse(\"b\");"),
        "{text}"
    );
    assert!(
        text.contains("src/other.ts:4:1: name-only: parse(\"c\");"),
        "{text}"
    );
    // a type through the module's name
    let output = run(
        &[
            "references",
            "ParseOptions",
            ".",
            "--at",
            "src/core/api.ts:4",
        ],
        &fx.root,
    );
    let text = stdout(&output);
    assert!(
        text.contains(
            "src/classic/schemas.ts:3:36: resolved (in run): export function run(options?: core.ParseOptions) {"
        ),
        "{text}"
    );
}

/// C: a function defined in `list.c` and declared in `list.h` is proved in a file that
/// includes the header through another header, and so is the expansion of a macro whose body
/// calls it (where a compiler sees the call); `struct list` is the tag, `list` the typedef,
/// each with its own uses.
#[test]
fn c_includes_pass_declarations_on_and_tags_are_apart_from_typedefs() {
    let fx = Fixture::new();
    fx.write(
        "list.h",
        "typedef struct list {\n  int n;\n} list;\n\nint list_len(const list *l);\n#ifndef LIST_EMPTY\n#define LIST_EMPTY(l) \\\n  (list_len(l) == 0)\n#endif\n",
    )
    .write(
        "list.c",
        "#include \"list.h\"\n\nint list_len(const list *l) {\n  return l->n;\n}\n",
    )
    .write("tests/common.h", "#include \"../list.h\"\n")
    .write(
        "tests/test_list.c",
        "#include \"common.h\"\n\nint main(void) {\n  struct list a = {0};\n  list b = {1};\n  if (LIST_EMPTY(&a)) return 1;\n  return list_len(&a) + list_len(&b);\n}\n",
    )
    .write(
        "other.c",
        "static int list_len(int x) {\n  return x;\n}\nint f(void) {\n  return list_len(1);\n}\n",
    );
    let output = run(
        &["references", "list_len", ".", "--at", "list.c:3"],
        &fx.root,
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains(
            "tests/test_list.c:7:10: resolved (in main): return list_len(&a) + list_len(&b);"
        ),
        "{text}"
    );
    assert!(
        text.contains("tests/test_list.c:6:7: resolved (in main): if (LIST_EMPTY(&a)) return 1;"),
        "{text}"
    );
    assert!(!text.contains("#ifndef"), "{text}");
    assert!(!text.contains("other.c"), "{text}");
    // the tag: `struct list` only
    let output = run(&["references", "list", ".", "--at", "list.h:1"], &fx.root);
    let text = stdout(&output);
    assert!(
        text.contains("tests/test_list.c:4:10: resolved (in main): struct list a = {0};"),
        "{text}"
    );
    assert!(!text.contains("list b = {1}"), "{text}");
    assert!(!text.contains("const list *l"), "{text}");
    // the typedef: the other uses
    let output = run(&["references", "list", ".", "--at", "list.h:3"], &fx.root);
    let text = stdout(&output);
    assert!(
        text.contains("tests/test_list.c:5:3: resolved (in main): list b = {1};"),
        "{text}"
    );
    assert!(text.contains("list.c:3:20: resolved"), "{text}");
    assert!(!text.contains("struct list a"), "{text}");
}

/// Two structs of a file with a field of one name and different types: `self.visitor` in
/// `Worker`'s methods is `Worker`'s field (`Box<dyn ParallelVisitor>`), whose trait method
/// gives the receiver of `is_quit`.
#[test]
fn a_field_two_structs_type_differently_is_each_structs_own() {
    let fx = Fixture::new();
    fx.write(
        "src/lib.rs",
        "pub enum WalkState {\n    Quit,\n}\nimpl WalkState {\n    fn is_quit(&self) -> bool {\n        true\n    }\n}\npub trait ParallelVisitor {\n    fn visit(&mut self, e: u8) -> WalkState;\n}\nstruct FnVisitorImp {\n    visitor: u8,\n}\nstruct Worker<'s> {\n    visitor: Box<dyn ParallelVisitor + 's>,\n}\nimpl<'s> Worker<'s> {\n    fn run_one(&mut self, work: u8) -> WalkState {\n        let state = self.visitor.visit(work);\n        if state.is_quit() {\n            return state;\n        }\n        WalkState::Quit\n    }\n}\n",
    );
    let output = run(&["references", "is_quit", "."], &fx.root);
    let text = stdout(&output);
    assert!(
        text.contains("src/lib.rs:21:18: resolved (in Worker.run_one): if state.is_quit() {"),
        "{text}"
    );
}

/// Rust reaches a module's items by `m::f`, never `m.f`: `dent.path()` with a variable named
/// like the module `dent.rs` is not proved by the module.
#[test]
fn a_rust_variable_named_like_a_module_is_no_module() {
    let fx = Fixture::new();
    fx.write(
        "Cargo.toml",
        "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    )
    .write(
        "src/lib.rs",
        "mod dent;\nuse crate::dent::DirEntry;\n\nfn f(dent: Other, e: DirEntry) {\n    dent.path();\n    e.path();\n}\n",
    )
    .write(
        "src/dent.rs",
        "pub struct DirEntry;\n\nimpl DirEntry {\n    pub fn path(&self) {}\n}\n",
    );
    let output = run(&["references", "path", "."], &fx.root);
    let text = stdout(&output);
    assert!(text.contains("src/lib.rs:6:7: resolved"), "{text}");
    assert!(text.contains("src/lib.rs:5:10: name-only"), "{text}");
}

/// A member assigned through a value of a declared type (`const client: Partial<Mutable<
/// Client>>`, `response: Response`) is that type's member: the type's own signature of it is
/// a reference, and so is a use on any receiver of the type, such as the value a default
/// import binds (`export default client`) or what the type's methods return
/// (`client.create({}).extend({})`). A default export that is not typed proves nothing.
#[test]
fn a_member_assigned_through_a_typed_value_is_the_types() {
    let fx = Fixture::new();
    fx.write(
        "source/types/client.ts",
        "export type Client = {\n\tget: (url: string) => string;\n\textend: (options: Options) => Client;\n\tcreate: (options?: Options) => Client;\n};\n\nexport type Options = {prefix?: string};\n",
    )
    .write(
        "source/utils/types.ts",
        "export type Mutable<T> = {-readonly [P in keyof T]: T[P]};\n",
    )
    .write(
        "source/index.ts",
        "import type {Client, Options} from './types/client.js';\nimport {type Mutable} from './utils/types.js';\n\nconst createInstance = (defaults?: Options): Client => {\n\tconst client: Partial<Mutable<Client>> = {};\n\tclient.create = (options?: Options) => createInstance(options);\n\tclient.extend = (options: Options) => createInstance({...defaults, ...options});\n\treturn client as Client;\n};\n\nconst client = createInstance();\n\nexport default client;\n",
    )
    .write(
        "source/decorate.ts",
        "export function decorate(response: Response): Response {\n\tresponse.json = async () => 1;\n\treturn response;\n}\n",
    )
    .write(
        "test/main.ts",
        "import client from '../source/index.js';\nimport other from './other.js';\n\nconst api = client.create({prefix: '/api'});\nconst child = api.extend({prefix: '/v1'}).extend({});\nclient.create({}).extend({});\nother.extend({});\n\nexport async function read(response: Response, body: Blob) {\n\tawait response.json();\n\tawait body.json();\n}\n",
    )
    .write(
        "test/other.ts",
        "const other = {extend(options: object) { return options; }};\nexport default other;\n",
    );
    let uses = |name: &str, at: &str| {
        let output = run(&["references", name, ".", "--at", at], &fx.root);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        stdout(&output)
    };
    let extend = uses("extend", "source/index.ts:7");
    for resolved in [
        "source/types/client.ts:3:2: resolved: extend: (options: Options) => Client;",
        "test/main.ts:5:19: resolved: const child",
        "test/main.ts:5:43: resolved: const child",
        "test/main.ts:6:19: resolved: client.create({}).extend({});",
    ] {
        assert!(extend.contains(resolved), "{resolved}\n{extend}");
    }
    assert!(
        extend.contains("test/main.ts:7:7: name-only: other.extend({});"),
        "{extend}"
    );
    let json = uses("json", "source/decorate.ts:2");
    assert!(
        json.contains("test/main.ts:10:17: resolved (in read): await response.json();"),
        "{json}"
    );
    assert!(
        json.contains("test/main.ts:11:13: name-only (in read): await body.json();"),
        "{json}"
    );
}

/// A TypeScript method is one with the method it overrides or implements (up `extends` and
/// `implements`, an object type alias's signature too) and with the other overrides of
/// that one, as the TypeScript service answers: their declarations are its references, and
/// so are the uses through a receiver of any of those types, a type parameter constrained by
/// one included. Another class's method of the name is not, nor is another local class's of
/// the same name in the same file.
#[test]
fn a_typescript_method_is_one_with_what_it_overrides_and_implements() {
    let fx = Fixture::new();
    fx.write(
        "src/base.ts",
        "export abstract class Schema {\n\tabstract parse(input: unknown): unknown;\n\tsafe(input: unknown) { return this.parse(input); }\n}\n",
    )
    .write(
        "src/string.ts",
        "import {Schema} from './base.js';\nexport class StringSchema extends Schema {\n\tparse(input: unknown) { return String(input); }\n}\n",
    )
    .write(
        "src/number.ts",
        "import {Schema} from './base.js';\nexport class NumberSchema extends Schema {\n\tparse(input: unknown) { return Number(input); }\n}\n",
    )
    .write(
        "src/other.ts",
        "export class Parser {\n\tparse(input: string) { return input; }\n}\n",
    )
    .write(
        "src/queue.ts",
        "export type Queue<E> = {\n\tremove: (id: string) => void;\n\tsize: number;\n};\n",
    )
    .write(
        "src/priority.ts",
        "import type {Queue} from './queue.js';\nexport class PriorityQueue implements Queue<string> {\n\tsize = 0;\n\tremove(id: string): void {}\n}\n",
    )
    .write(
        "test/local.test.ts",
        "describe('a', () => {\n\tclass Katana { hit() { return 1; } }\n});\ndescribe('b', () => {\n\tclass Katana { hit() { return 2; } }\n});\n",
    )
    .write(
        "src/weapon.ts",
        "export interface Weapon {\n\tslash(): number;\n}\n",
    )
    .write(
        "test/blade.test.ts",
        "import type {Weapon} from '../src/weapon.js';\ndescribe('a', () => {\n\tclass Blade implements Weapon { slash() { return 1; } }\n});\ndescribe('b', () => {\n\tclass Blade implements Weapon { slash() { return 2; } }\n});\n",
    )
    .write(
        "src/runner.ts",
        "import type {Queue} from './queue.js';\nexport class Runner<Q extends Queue<string>> {\n\t#queue: Q;\n\tconstructor(queue: Q) { this.#queue = queue; }\n\tclear(id: string) { this.#queue.remove(id); }\n}\n",
    )
    .write(
        "test/use.ts",
        "import {Schema} from '../src/base.js';\nimport {Parser} from '../src/other.js';\nexport function run(schema: Schema, parser: Parser) {\n\tschema.parse(1);\n\tparser.parse('x');\n}\n",
    );
    let uses = |name: &str, at: &str| {
        let output = run(&["references", name, ".", "--at", at], &fx.root);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        stdout(&output)
    };
    let parse = uses("parse", "src/string.ts:3");
    for resolved in [
        "src/base.ts:2:11: resolved (in Schema): abstract parse",
        "src/base.ts:3:37: resolved (in Schema.safe): safe(input: unknown) { return this.parse(input); }",
        "src/number.ts:3:2: resolved (in NumberSchema): parse(input: unknown)",
        "test/use.ts:4:9: resolved (in run): schema.parse(1);",
    ] {
        assert!(parse.contains(resolved), "{resolved}\n{parse}");
    }
    assert!(
        parse.contains("test/use.ts:5:9: name-only (in run): parser.parse('x');"),
        "{parse}"
    );
    assert!(!parse.contains("src/other.ts"), "{parse}");
    let remove = uses("remove", "src/priority.ts:4");
    assert!(
        remove.contains("src/queue.ts:2:2: resolved: remove: (id: string) => void;"),
        "{remove}"
    );
    // two local classes of one name in a file (one per test) are two classes
    let hit = uses("hit", "test/local.test.ts:2");
    assert!(!hit.contains("test/local.test.ts:5"), "{hit}");
    // but what they all implement is still the method's
    let slash = uses("slash", "test/blade.test.ts:3");
    assert!(
        slash.contains("src/weapon.ts:2:2: resolved (in Weapon): slash(): number;"),
        "{slash}"
    );
    // a value of a type parameter has its constraint's members
    assert!(
        remove.contains("src/runner.ts:5:34: resolved (in Runner.clear)"),
        "{remove}"
    );
}
