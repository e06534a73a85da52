//! `signatures` keeps the summary (first paragraph) of each doc comment and docstring; `compact`
//! keeps them whole. One case per doc style; every output must also re-parse and be stable.

use devprojex_detail::{Detail, testing, transform};

/// Asserts the `signatures` output, that `compact` keeps the input's docs whole, and that the
/// output re-parses without errors, is idempotent and is what `signatures` gives after `compact`.
fn check(path: &str, input: &str, want: &str) {
    let sigs = transform(path, input, Detail::Signatures);
    assert_eq!(sigs, want, "{path}");
    let compact = transform(path, input, Detail::Compact);
    assert_eq!(compact, input, "{path}: compact must keep docs whole");
    assert_eq!(testing::tokens(path, &sigs).unwrap().0, 0, "{path}: {sigs}");
    assert_eq!(transform(path, &sigs, Detail::Signatures), sigs, "{path}");
    assert_eq!(transform(path, &sigs, Detail::Compact), sigs, "{path}");
    assert_eq!(
        transform(path, &compact, Detail::Signatures),
        sigs,
        "{path}"
    );
    let crlf = input.replace('\n', "\r\n");
    assert_eq!(
        transform(path, &crlf, Detail::Signatures),
        want.replace('\n', "\r\n"),
        "{path}: CRLF"
    );
}

#[test]
fn rust_line_docs() {
    check(
        "a.rs",
        "/// Summary\n/// continued.\n///\n/// Details.\n///\n/// More.\npub struct A;\n",
        "/// Summary\n/// continued.\npub struct A;\n",
    );
    check(
        "a.rs",
        "//! Crate summary.\n//!\n//! Details.\npub struct A;\n",
        "//! Crate summary.\npub struct A;\n",
    );
}

#[test]
fn rust_fences_are_never_cut() {
    check(
        "a.rs",
        "/// Summary:\n/// ```\n/// let a = 1;\n///\n/// let b = 2;\n/// ```\n///\n/// Details.\npub struct A;\n",
        "/// Summary:\n/// ```\n/// let a = 1;\n///\n/// let b = 2;\n/// ```\npub struct A;\n",
    );
}

#[test]
fn block_docs() {
    for path in ["a.rs", "A.java", "a.c", "a.ts", "a.php"] {
        let input = if path == "a.php" {
            "<?php\n/**\n * Summary.\n *\n * @param int $a\n */\nfunction f($a) {}\n"
        } else if path == "a.rs" {
            "/**\n * Summary.\n *\n * Details.\n */\nstruct A;\n"
        } else if path == "A.java" {
            "/**\n * Summary.\n *\n * @since 1\n */\nclass A {}\n"
        } else if path == "a.c" {
            "/**\n * Summary.\n *\n * Details.\n */\nint a;\n"
        } else {
            "/**\n * Summary.\n *\n * @param a x\n */\nfunction f(a: number) {}\n"
        };
        let cut = if path == "a.c" {
            // C and C++ write the summary on one line (`one_line_c_doc_summaries`).
            "/** Summary. */\nint a;\n".to_owned()
        } else {
            input.replacen(
                &input[input.find(" *\n").unwrap()..input.find(" */").unwrap()],
                "",
                1,
            )
        };
        check(path, input, &cut);
    }
    // The closing delimiter on a text line moves up to the summary.
    check(
        "A.java",
        "class A {\n    /** Summary.\n     *\n     * @return x */\n    int f();\n}\n",
        "class A {\n    /** Summary. */\n    int f();\n}\n",
    );
}

#[test]
fn go_and_ruby_comment_docs() {
    check(
        "a.go",
        "package p\n// F does.\n//\n// Details.\n//\n//go:noinline\nfunc F() {}\n",
        "package p\n// F does.\n//go:noinline\nfunc F() {}\n",
    );
    check(
        "a.rb",
        "# Summary.\n#\n# @return [Integer]\ndef f\n  1\nend\n",
        "# Summary.\ndef f\n  1\nend\n",
    );
    check(
        "a.lua",
        "--- Summary.\n---\n--- @return number\nlocal function f()\n  return 1\nend\n",
        "--- Summary.\nlocal function f()\n  return 1\nend\n",
    );
}

#[test]
fn python_docstrings() {
    check(
        "a.py",
        "\"\"\"Module summary.\n\nDetails.\n\"\"\"\n",
        "\"\"\"Module summary.\n\"\"\"\n",
    );
    check(
        "a.py",
        "class A:\n    '''Summary.\n\n    Details.'''\n",
        "class A:\n    '''Summary.'''\n",
    );
    check(
        "a.py",
        "def f():\n    r\"\"\"Raw \\d summary.\n\n    Details.\n    \"\"\"\n    return 1\n",
        "def f():\n    r\"\"\"Raw \\d summary.\n    \"\"\"\n    ...\n",
    );
    // One-quote strings cannot hold a blank line; f-strings are not docstrings.
    check(
        "a.py",
        "def f():\n    \"Summary.\"\n    return 1\n",
        "def f():\n    \"Summary.\"\n    ...\n",
    );
    check(
        "a.py",
        "def f():\n    f\"\"\"{x}\n\n    y\"\"\"\n    return 1\n",
        "def f():\n    f\"\"\"{x}\n\n    y\"\"\"\n    ...\n",
    );
    // `__init__` stays whole, docstring included.
    let init = "class A:\n    def __init__(self):\n        \"\"\"Summary.\n\n        Details.\n        \"\"\"\n        self.a = 1\n";
    check("a.py", init, init);
}

#[test]
fn rust_test_modules_collapse() {
    check(
        "a.rs",
        "pub fn f() {}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn t() {}\n}\n",
        "pub fn f() {}\n#[cfg(test)]\nmod tests { /* ... */ }\n",
    );
    let other = "#[cfg(not(test))]\nmod m {\n    pub struct A;\n}\n";
    check("a.rs", other, other);
}

#[test]
fn rust_trait_implementations_collapse_unless_they_set_associated_items() {
    // the methods are the trait's: the whole body collapses, as rustdoc folds them
    check(
        "a.rs",
        "impl fmt::Display for A {\n    /// Writes it.\n    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n        write!(f, \"a\")\n    }\n}\n",
        "impl fmt::Display for A { /* ... */ }\n",
    );
    // an associated type or constant says what the implementation chose: it stays, and the
    // methods' bodies collapse as any function's
    check(
        "a.rs",
        "impl Iterator for A {\n    type Item = u8;\n    fn next(&mut self) -> Option<u8> {\n        None\n    }\n}\n",
        "impl Iterator for A {\n    type Item = u8;\n    fn next(&mut self) -> Option<u8> { /* ... */ }\n}\n",
    );
    check(
        "a.rs",
        "impl Bits for A {\n    const N: u32 = 8;\n    fn get(&self) -> u32 {\n        Self::N\n    }\n}\n",
        "impl Bits for A {\n    const N: u32 = 8;\n    fn get(&self) -> u32 { /* ... */ }\n}\n",
    );
    // a `type` or `const` inside a method's body does not keep the implementation open
    check(
        "a.rs",
        "impl Tr for A {\n    fn f(&self) {\n        type T = u8;\n        const C: T = 1;\n    }\n}\n",
        "impl Tr for A { /* ... */ }\n",
    );
    // an inherent implementation is the type's own API: its methods stay
    check(
        "a.rs",
        "impl A {\n    pub fn new() -> Self {\n        A\n    }\n}\n",
        "impl A {\n    pub fn new() -> Self { /* ... */ }\n}\n",
    );
}

#[test]
fn rust_macro_arms_keep_their_matchers() {
    // the matcher is what a caller writes; the transcriber is the arm's body, whatever its
    // delimiters
    check(
        "a.rs",
        "/// Makes a thing.\nmacro_rules! thing {\n    ($name:ident) => {\n        pub struct $name;\n    };\n    ($name:ident, $($f:ident: $t:ty),*) => (\n        pub struct $name { $($f: $t),* }\n    );\n}\n",
        "/// Makes a thing.\nmacro_rules! thing {\n    ($name:ident) => { /* ... */ };\n    ($name:ident, $($f:ident: $t:ty),*) => { /* ... */ };\n}\n",
    );
}

#[test]
fn doxygen_and_kernel_doc_tags_end_a_c_summary() {
    // libstdc++: `@brief` and its `@param` lines as one paragraph.
    check(
        "a.h",
        "/**\n *  @brief  Creates an empty ring.\n *  @param  __a  An allocator.\n */\nint f(int __a);\n",
        "/** @brief Creates an empty ring. */\nint f(int __a);\n",
    );
    // Linux's kernel-doc: the summary line, then `@name:` lines for the parameters.
    check(
        "a.c",
        "/**\n * f() - Add one.\n * @a: the number\n *\n * Details.\n */\nint f(int a);\n",
        "/** f() - Add one. */\nint f(int a);\n",
    );
    check(
        "a.c",
        "/// \\brief Adds one.\n/// \\param a the number\n/// \\return a + 1\nint f(int a);\n",
        "/// \\brief Adds one.\nint f(int a);\n",
    );
    // A tag word inside a sentence does not cut, nor an inline command at a line start.
    check(
        "a.c",
        "/**\n * Calls g() with @a a as the\n * @c size argument.\n */\nint f(int a);\n",
        "/**\n * Calls g() with @a a as the\n * @c size argument.\n */\nint f(int a);\n",
    );
}

#[test]
fn one_line_c_doc_summaries() {
    // A prose summary over several lines becomes one line, its words as they were.
    check(
        "a.h",
        "  /**\n   *  Returns a read/write iterator that points to the first\n   *  element in the %vector.\n   *\n   *  More.\n   */\n  int begin();\n",
        "  /** Returns a read/write iterator that points to the first element in the %vector. */\n  int begin();\n",
    );
    // A member's trailing doc keeps its marker; `/*!` too.
    check(
        "a.c",
        "struct s {\n\tint a; /**< the first\n\t\t   value */\n};\n/*!\n * Qt style.\n */\nint b;\n",
        "struct s {\n\tint a; /**< the first value */\n};\n/*! Qt style. */\nint b;\n",
    );
    // A summary holding code or a list keeps its lines (only cut to its first paragraph).
    for (input, want) in [
        (
            "/**\n * Use as:\n * @code\n *   f(1);\n * @endcode\n */\nint f(int a);\n",
            "/**\n * Use as:\n * @code\n *   f(1);\n * @endcode\n */\nint f(int a);\n",
        ),
        (
            "/**\n * Modes:\n * - fast\n * - safe\n *\n * More.\n */\nint f(int a);\n",
            "/**\n * Modes:\n * - fast\n * - safe\n */\nint f(int a);\n",
        ),
    ] {
        check("a.c", input, want);
    }
    // Other languages keep the layout of their summaries.
    check(
        "A.java",
        "/**\n * Summary on\n * two lines.\n */\nclass A {}\n",
        "/**\n * Summary on\n * two lines.\n */\nclass A {}\n",
    );
}

#[test]
fn block_tags_do_not_end_summaries_outside_c() {
    // LuaLS and JSDoc put the parameter types in their `@param` lines: they stay.
    check(
        "a.lua",
        "--- Adds.\n---@param a number\nlocal function f(a) return a end\n",
        "--- Adds.\n---@param a number\nlocal function f(a) return a end\n",
    );
}
