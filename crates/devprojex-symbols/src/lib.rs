//! Definitions and static import edges for devprojex's `find_symbol` and `related_files`,
//! without a language server: the tree-sitter grammars `devprojex-detail` ships, and small
//! per-language resolvers for imports.
//!
//! - [`definitions`] lists the definitions of one file (functions, methods, types, classes,
//!   structs, enums, traits and interfaces, constants, macros, modules) with their line, the
//!   signature line and the enclosing container.
//! - [`imports::scan`] lists one file's static imports (and the packages or namespaces it
//!   declares); [`resolve::ProjectView`] resolves them to files of the project.
//!
//! Nothing here reads a file: the caller (the engine, which owns the root jail and redaction)
//! hands in text and the list of project files. The caller parses redacted text for anything it
//! returns; see `ARCHITECTURE.md`.
//!
//! Hostile input costs one file, never the process: every walk over a syntax tree or a use
//! tree is iterative (a tree-sitter cursor or an explicit stack), nesting that would make the
//! answer grow with its square is refused with [`Skip::TooDeeplyNested`], enclosing scopes are
//! shared rather than copied per definition (memory stays linear in the file), and a panic
//! while parsing one file is caught and reported as [`Skip::Failed`].

#![deny(unsafe_code)]

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::OnceLock;

use devprojex_detail::tree_sitter::{Parser, Tree};

mod defs;
pub mod imports;
pub mod references;
pub mod resolve;

pub use defs::{Definition, Kind, Scope};

/// Files larger than this are not parsed: a tree-sitter tree takes about 25 times its source in
/// memory, and files this large are generated (register tables, bindings).
pub const MAX_PARSE_BYTES: usize = 4 * 1024 * 1024;

/// Nesting deeper than this (a Rust use list, braced packages or namespaces) makes a file
/// [`Skip::TooDeeplyNested`]; real code nests a few levels.
pub const MAX_NESTING: usize = 64;

/// A qualified package or namespace name (with its enclosing ones) longer than
/// this makes a file [`Skip::TooDeeplyNested`]: every name declared inside carries a copy of
/// it, so its length times their number is what it would cost.
pub const MAX_QUALIFIED_BYTES: usize = 1024;

/// Why a file of a known language gave no definitions or imports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Skip {
    /// Larger than [`MAX_PARSE_BYTES`].
    TooLarge,
    /// Its definitions, or its imports and declarations, would take more than
    /// 64 times its size, at least 1 MiB (a long prefix repeated in every name
    /// of a use list or namespace, say).
    OverBudget,
    /// Nested deeper than [`MAX_NESTING`], or a qualified name over [`MAX_QUALIFIED_BYTES`].
    TooDeeplyNested,
    /// The parser gave no tree, or panicked on this file.
    Failed,
    /// The parser's error recovery went over the steps a file of its size may take (a few
    /// kilobytes of nested garbage can keep it busy for minutes).
    ParseOverBudget,
    /// The caller's [`Stop`] said so (a deadline or a cancellation) before the file was done.
    Interrupted,
}

/// Runs one file's work, turning a panic into [`Skip::Failed`] for that file. The thread's
/// parsers are dropped after a panic: one may have been left mid-parse.
fn guarded<T>(work: impl FnOnce() -> Result<T, Skip>) -> Result<T, Skip> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)) {
        Ok(result) => result,
        Err(_) => {
            PARSERS.with(|parsers| {
                if let Ok(mut parsers) = parsers.try_borrow_mut() {
                    parsers.clear();
                }
            });
            Err(Skip::Failed)
        }
    }
}

/// A language with definitions (the 15 languages whose bodies `signatures` collapses).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    Rust,
    Go,
    Python,
    JavaScript,
    TypeScript,
    Tsx,
    Java,
    Kotlin,
    CSharp,
    C,
    Cpp,
    Php,
    Ruby,
    Scala,
    Swift,
}

impl Lang {
    /// Every language, in a stable order.
    pub const ALL: [Lang; 15] = [
        Lang::Rust,
        Lang::Go,
        Lang::Python,
        Lang::JavaScript,
        Lang::TypeScript,
        Lang::Tsx,
        Lang::Java,
        Lang::Kotlin,
        Lang::CSharp,
        Lang::C,
        Lang::Cpp,
        Lang::Php,
        Lang::Ruby,
        Lang::Scala,
        Lang::Swift,
    ];

    /// The file extensions (lowercase, without the dot) of the 15 languages: what a caller
    /// narrows a walk to.
    pub const EXTENSIONS: [&'static str; 40] = [
        "rs", "go", "py", "pyi", "pyw", "js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx",
        "java", "kt", "kts", "cs", "c", "h", "cc", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "h++",
        "ipp", "inl", "tpp", "php", "phtml", "rb", "rake", "gemspec", "ru", "scala", "sc", "sbt",
        "swift",
    ];

    /// The language of a project-relative path, from its name alone. A `.h` file is C here;
    /// [`Lang::of_file`] looks at its text.
    pub fn of_path(path: &str) -> Option<Lang> {
        // called for every file of a walk, several times: no allocation
        let name = path.rsplit('/').next().unwrap_or(path);
        let Some((_, ext)) = name.rsplit_once('.') else {
            return match name {
                "Rakefile" | "Gemfile" | "Guardfile" | "Podfile" | "Vagrantfile" | "Brewfile"
                | "Fastfile" => Some(Lang::Ruby),
                _ => None,
            };
        };
        const TABLE: [(&str, Lang); 40] = [
            ("rs", Lang::Rust),
            ("go", Lang::Go),
            ("py", Lang::Python),
            ("pyi", Lang::Python),
            ("pyw", Lang::Python),
            ("js", Lang::JavaScript),
            ("mjs", Lang::JavaScript),
            ("cjs", Lang::JavaScript),
            ("jsx", Lang::JavaScript),
            ("ts", Lang::TypeScript),
            ("mts", Lang::TypeScript),
            ("cts", Lang::TypeScript),
            ("tsx", Lang::Tsx),
            ("java", Lang::Java),
            ("kt", Lang::Kotlin),
            ("kts", Lang::Kotlin),
            ("cs", Lang::CSharp),
            ("c", Lang::C),
            ("h", Lang::C),
            ("cc", Lang::Cpp),
            ("cpp", Lang::Cpp),
            ("cxx", Lang::Cpp),
            ("c++", Lang::Cpp),
            ("hh", Lang::Cpp),
            ("hpp", Lang::Cpp),
            ("hxx", Lang::Cpp),
            ("h++", Lang::Cpp),
            ("ipp", Lang::Cpp),
            ("inl", Lang::Cpp),
            ("tpp", Lang::Cpp),
            ("php", Lang::Php),
            ("phtml", Lang::Php),
            ("rb", Lang::Ruby),
            ("rake", Lang::Ruby),
            ("gemspec", Lang::Ruby),
            ("ru", Lang::Ruby),
            ("scala", Lang::Scala),
            ("sc", Lang::Scala),
            ("sbt", Lang::Scala),
            ("swift", Lang::Swift),
        ];
        TABLE
            .iter()
            .find(|(e, _)| e.eq_ignore_ascii_case(ext))
            .map(|(_, lang)| *lang)
    }

    /// The language of a file: [`Lang::of_path`], except that a `.h` header with C++ constructs
    /// (a namespace or class body, a template, an access label) is C++. C is the default because
    /// C code is full of names that are C++ keywords (`new`, `class`, `this`), which break a C++
    /// parse, while C++ headers almost always show one of those constructs.
    pub fn of_file(path: &str, text: &str) -> Option<Lang> {
        match Lang::of_path(path)? {
            Lang::C if path.ends_with(".h") || path.ends_with(".H") => {
                if looks_like_cpp(text) {
                    Some(Lang::Cpp)
                } else {
                    Some(Lang::C)
                }
            }
            other => Some(other),
        }
    }

    /// The stable lowercase name (`"rust"`, `"tsx"`, `"cpp"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Lang::Rust => "rust",
            Lang::Go => "go",
            Lang::Python => "python",
            Lang::JavaScript => "javascript",
            Lang::TypeScript => "typescript",
            Lang::Tsx => "tsx",
            Lang::Java => "java",
            Lang::Kotlin => "kotlin",
            Lang::CSharp => "csharp",
            Lang::C => "c",
            Lang::Cpp => "cpp",
            Lang::Php => "php",
            Lang::Ruby => "ruby",
            Lang::Scala => "scala",
            Lang::Swift => "swift",
        }
    }

    /// C and C++ share the preprocessor and its `#include` lines.
    pub fn is_c_family(self) -> bool {
        matches!(self, Lang::C | Lang::Cpp)
    }
}

fn looks_like_cpp(text: &str) -> bool {
    static MARKERS: OnceLock<regex::Regex> = OnceLock::new();
    let markers = MARKERS.get_or_init(|| {
        regex::Regex::new(
            r#"(?m)^[ \t]*(?:namespace(?:[ \t]+[A-Za-z_]\w*(?:::\w+)*)?[ \t]*\{|template[ \t]*<|(?:class|struct)[ \t]+[A-Za-z_]\w*[ \t]*(?:final[ \t]*)?:[ \t]*(?:public|private|protected)\b|(?:public|private|protected)[ \t]*:|using[ \t]+namespace\b|extern[ \t]+"C\+\+")"#,
        )
        .expect("valid marker pattern")
    });
    markers.is_match(text)
}

thread_local! {
    static PARSERS: RefCell<HashMap<Lang, Parser>> = RefCell::new(HashMap::new());
}

/// Parse `text` as `lang` with this thread's parser. [`Skip::Interrupted`] when `stop` said so
/// during the parse (it is asked every few thousand parser steps), [`Skip::Failed`] when the
/// grammar is missing or the parser gave up.
pub(crate) fn parse(lang: Lang, text: &str, stop: Stop<'_>) -> Result<Tree, Skip> {
    if text.len() > MAX_PARSE_BYTES {
        return Err(Skip::TooLarge);
    }
    PARSERS.with(|parsers| {
        let mut parsers = parsers.borrow_mut();
        if let std::collections::hash_map::Entry::Vacant(slot) = parsers.entry(lang) {
            let mut parser = Parser::new();
            let grammar = devprojex_detail::grammar(lang.name()).ok_or(Skip::Failed)?;
            parser.set_language(&grammar).map_err(|_| Skip::Failed)?;
            slot.insert(parser);
        }
        let parser = parsers.get_mut(&lang).ok_or(Skip::Failed)?;
        let bytes = text.as_bytes();
        let mut stopped = false;
        let over_budget = std::cell::Cell::new(false);
        let budget = parse_step_budget(bytes.len());
        let steps = std::cell::Cell::new(0u32);
        let mut progress = |_: &devprojex_detail::tree_sitter::ParseState| {
            let steps = steps.replace(steps.get().wrapping_add(1)) + 1;
            if steps > budget || over_budget.get() {
                over_budget.set(true);
                return std::ops::ControlFlow::Break(());
            }
            if steps.is_multiple_of(STOP_CHECK_EVERY) && stop() {
                stopped = true;
                return std::ops::ControlFlow::Break(());
            }
            std::ops::ControlFlow::Continue(())
        };
        let options =
            devprojex_detail::tree_sitter::ParseOptions::new().progress_callback(&mut progress);
        // The text goes to the lexer in short chunks, and every chunk it asks for counts: a
        // grammar's external scanner can rescan the same kilobytes at each step of an error
        // recovery (Kotlin's, on 1.5 KB of fuzzed garbage, lexed for seconds within the step
        // budget). Past the read budget the lexer sees the end of the text, and the parse is
        // given up.
        let read_budget = parse_read_budget(bytes.len());
        let mut served = 0usize;
        let tree = parser.parse_with_options(
            &mut |at, _| {
                let chunk = bytes
                    .get(at..bytes.len().min(at.saturating_add(READ_CHUNK)))
                    .unwrap_or_default();
                served += chunk.len();
                if served > read_budget {
                    over_budget.set(true);
                    return &[][..];
                }
                chunk
            },
            None,
            Some(options),
        );
        #[cfg(test)]
        LAST_PARSE_STEPS.set(steps.get());
        match tree {
            Some(_) if over_budget.get() => {
                parser.reset();
                Err(Skip::ParseOverBudget)
            }
            Some(tree) => Ok(tree),
            None => {
                // A parser that stopped keeps its state; start clean next time.
                parser.reset();
                Err(if over_budget.get() {
                    Skip::ParseOverBudget
                } else if stopped {
                    Skip::Interrupted
                } else {
                    Skip::Failed
                })
            }
        }
    })
}

#[cfg(test)]
thread_local! {
    /// The parser progress calls the last [`parse`] on this thread took (for tests).
    static LAST_PARSE_STEPS: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// Asked between steps of long work on one file (parsing, walking its tree): true stops it
/// with [`Skip::Interrupted`]. A deadline or a cancellation, from the caller.
pub type Stop<'a> = &'a (dyn Fn() -> bool + Sync);

/// How often (in parser progress calls) [`Stop`] is asked.
const STOP_CHECK_EVERY: u32 = 256;

/// The parser progress calls a file may take: real source takes about one per 140 bytes (zod's
/// 160 KB `schemas.ts` 1,155, a 173 KB kernel file 964), but tree-sitter's error recovery can
/// go on for minutes on a few kilobytes of nested garbage (found by fuzzing). The budget leaves
/// real files 30 times their need, and gives up the rest as [`Skip::ParseOverBudget`].
fn parse_step_budget(bytes: usize) -> u32 {
    u32::try_from(10_000 + bytes / 4).unwrap_or(u32::MAX)
}

/// The bytes the lexer is handed at a time (see [`parse_read_budget`]).
const READ_CHUNK: usize = 256;

/// The bytes the lexer may be handed, in [`READ_CHUNK`]s, for a text of `bytes`: real source is
/// read about once (each chunk once, a few twice where the parser looks back), and the budget
/// leaves it 32 times that and 64 KiB more.
fn parse_read_budget(bytes: usize) -> usize {
    bytes.saturating_mul(32).saturating_add(64 * 1024)
}

/// How often (in tree nodes) the walks ask [`Stop`]: a node can cost a few steps up the tree,
/// each as long as its depth.
const WALK_STOP_CHECK_EVERY: u32 = 64;

/// The definition walk does not go below this depth of the syntax tree: generated expression
/// chains reach a few thousand levels, real definitions a few dozen, and each step up from a
/// node costs its depth (20,000 nested blocks around ten constants took minutes).
pub const MAX_SYNTAX_DEPTH: usize = 10_000;

/// A [`Stop`] that never stops.
pub fn never() -> bool {
    false
}

/// The definitions in one file, in source order; `None` for a language without definitions or
/// a file that was skipped (see [`try_definitions`] for why).
/// `path` is project-relative with `/` (it picks the language).
pub fn definitions(path: &str, text: &str) -> Option<Vec<Definition>> {
    try_definitions(path, text)?.ok()
}

/// The definitions in one file, in source order; `None` for a language without definitions,
/// `Some(Err)` for a file that was skipped. C and C++ files over [`MAX_PARSE_BYTES`]
/// (generated register tables, a hundred thousand `#define`s each) still give their macros,
/// from a line scan.
pub fn try_definitions(path: &str, text: &str) -> Option<Result<Vec<Definition>, Skip>> {
    try_definitions_until(path, text, &never)
}

/// [`try_definitions`], asking `stop` while it parses and walks the file.
pub fn try_definitions_until(
    path: &str,
    text: &str,
    stop: Stop<'_>,
) -> Option<Result<Vec<Definition>, Skip>> {
    let lang = Lang::of_file(path, text)?;
    if lang.is_c_family() && text.len() > MAX_PARSE_BYTES {
        return Some(Ok(defs::scan_macros(text)));
    }
    if text.len() > MAX_PARSE_BYTES {
        return Some(Err(Skip::TooLarge));
    }
    Some(guarded(|| {
        let tree = parse(lang, text, stop)?;
        defs::extract(lang, &tree, text, stop)
    }))
}

/// Dev and test aids: not part of the stable API.
#[doc(hidden)]
pub mod testing {
    use super::*;

    /// The syntax tree as an indented outline with field names, kinds and first lines.
    pub fn outline(path: &str, text: &str) -> String {
        let Some(lang) = Lang::of_file(path, text) else {
            return String::new();
        };
        let Ok(tree) = parse(lang, text, &never) else {
            return String::new();
        };
        let mut out = String::new();
        let mut cursor = tree.walk();
        let mut depth = 0usize;
        loop {
            let node = cursor.node();
            if !node.is_named() {
                if node.is_missing() {
                    // what error recovery inserted: the clue to a misparse
                    out.push_str(&format!(
                        "{}MISSING {:?} [{}]\n",
                        "  ".repeat(depth),
                        node.kind(),
                        node.start_position().row + 1
                    ));
                }
                if cursor.goto_next_sibling() {
                    continue;
                }
                loop {
                    if !cursor.goto_parent() {
                        return out;
                    }
                    depth -= 1;
                    if cursor.goto_next_sibling() {
                        break;
                    }
                }
                continue;
            }
            let field = cursor
                .field_name()
                .map(|f| format!("{f}: "))
                .unwrap_or_default();
            let snippet: String = text[node.byte_range()]
                .lines()
                .next()
                .unwrap_or("")
                .chars()
                .take(60)
                .collect();
            out.push_str(&format!(
                "{}{field}{} [{}] {snippet:?}\n",
                "  ".repeat(depth),
                node.kind(),
                node.start_position().row + 1
            ));
            if cursor.goto_first_child() {
                depth += 1;
                continue;
            }
            loop {
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    return out;
                }
                depth -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts that the definitions and the imports of a kept fuzz input (`fuzz/regressions/
    /// symbols/NAME`: its path, a line break, its text) are given up over budget; returns the
    /// parser progress calls the definitions' parse took, and the text's length.
    fn assert_given_up_over_budget(name: &str) -> (u32, usize) {
        let input = std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../fuzz/regressions/symbols")
                .join(name),
        )
        .unwrap();
        let input = std::str::from_utf8(&input).unwrap();
        let (path, text) = input.split_once('\n').unwrap();
        assert_eq!(
            try_definitions(path, text),
            Some(Err(Skip::ParseOverBudget))
        );
        let steps = LAST_PARSE_STEPS.get();
        assert_eq!(
            imports::try_scan(path, text).map(|r| r.map(|_| ())),
            Some(Err(Skip::ParseOverBudget))
        );
        (steps, text.len())
    }

    #[test]
    fn a_parse_lost_in_error_recovery_is_given_up_over_budget() {
        // Found by fuzz/fuzz_targets/symbols.rs (kept as fuzz/regressions/symbols/
        // typescript-error-recovery-on-nested-braces): 3 KB of nested `{a::` braces and NULs
        // kept tree-sitter's TypeScript error recovery busy for minutes.
        assert_given_up_over_budget("typescript-error-recovery-on-nested-braces");
        // real source stays far inside the budget: a few hundred definitions in 50 KB
        let real: String = (0..600)
            .map(|i| format!("export function f{i}(a: number): number {{ return a + {i}; }}\n"))
            .collect();
        assert_eq!(try_definitions("a.ts", &real).unwrap().unwrap().len(), 600);
    }

    #[test]
    fn a_scanner_rescanning_its_input_is_given_up_over_budget() {
        // Found by fuzz/fuzz_targets/symbols.rs (kept as fuzz/regressions/symbols/
        // kotlin-scanner-rescanning): on 1.5 KB of fuzzed Kotlin, tree-sitter-kotlin's external
        // scanner lexed the same bytes again at every step of the error recovery, about 4 s per
        // parse within the step budget.
        let (steps, len) = assert_given_up_over_budget("kotlin-scanner-rescanning");
        // given up by the read budget, long before the step budget ran out (as it did before)
        assert!(steps < parse_step_budget(len) / 10, "{steps} steps");
        // real Kotlin stays far inside the read budget: 60 KB, every class found
        let real: String = (0..600)
            .map(|i| {
                format!(
                    "/** Doc {i}. */\nclass C{i}(val a: Int) {{\n    fun f(b: String): Int = a + b.length\n}}\n"
                )
            })
            .collect();
        assert!(real.len() > 50_000);
        let found = try_definitions("a/B.kt", &real).unwrap().unwrap();
        assert_eq!(
            found.iter().filter(|d| d.name.starts_with('C')).count(),
            600
        );
    }

    #[test]
    fn every_extension_names_a_language_and_back() {
        for ext in Lang::EXTENSIONS {
            let path = format!("a/b.{ext}");
            let lang = Lang::of_path(&path).unwrap_or_else(|| panic!("{ext}"));
            // the language the detail levels use for the path (a .h is C++ there)
            let detail = devprojex_detail::language_name(&path).unwrap();
            if ext != "h" {
                assert_eq!(lang.name(), detail, "{ext}");
            }
            assert_eq!(Lang::of_path(&path.to_uppercase()), Some(lang), "{ext}");
        }
        assert_eq!(Lang::of_path("lib/Rakefile"), Some(Lang::Ruby));
        // and the detail crate's languages with bodies are all covered
        for name in [
            "x.rs", "x.go", "x.py", "x.js", "x.ts", "x.tsx", "x.java", "x.kt", "x.cs", "x.c",
            "x.cpp", "x.php", "x.rb", "x.scala", "x.swift",
        ] {
            let ext = name.rsplit('.').next().unwrap();
            assert!(Lang::EXTENSIONS.contains(&ext), "{name}");
        }
        assert_eq!(Lang::of_path("README.md"), None);
    }

    #[test]
    fn a_panic_in_one_file_costs_that_file_and_the_next_parse_works() {
        let text = "fn f() {}\n";
        assert_eq!(definitions("a.rs", text).map(|d| d.len()), Some(1));
        let failed: Result<(), Skip> = guarded(|| {
            // a panic while this thread's parser is borrowed
            PARSERS.with(|parsers| {
                let _held = parsers.borrow_mut();
                panic!("a grammar bug");
            })
        });
        assert_eq!(failed, Err(Skip::Failed));
        assert_eq!(definitions("a.rs", text).map(|d| d.len()), Some(1));
    }

    #[test]
    fn a_stop_interrupts_the_parse() {
        let text = "fn f() {}\n".repeat(10_000);
        assert_eq!(
            try_definitions_until("a.rs", &text, &|| true),
            Some(Err(Skip::Interrupted))
        );
        assert_eq!(
            try_definitions("a.rs", &text).map(|d| d.map(|d| d.len())),
            Some(Ok(10_000))
        );
    }

    #[test]
    fn headers_are_c_unless_they_show_cpp() {
        assert_eq!(
            Lang::of_file("a.h", "struct list_head *new;\n"),
            Some(Lang::C)
        );
        assert_eq!(
            Lang::of_file("a.h", "namespace fmt {\n}\n"),
            Some(Lang::Cpp)
        );
        assert_eq!(
            Lang::of_file("a.h", "template <typename T> class X {};\n"),
            Some(Lang::Cpp)
        );
        assert_eq!(
            Lang::of_file("a.h", "/* the pid namespace of a task */\n"),
            Some(Lang::C)
        );
    }
}
