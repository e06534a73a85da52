//! The public API contract the main crate codes against.

use devprojex_detail::{
    Detail, Outcome, collapses_bodies, language_name, language_of, supported_languages,
    transform_with_outcome,
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
        ("bits/vector.tcc", Some("cpp")),
        // The C++ standard library's headers have no extension.
        ("usr/include/c++/12/vector", Some("cpp")),
        ("include/c++/v1/__algorithm/sort", Some("cpp")),
        ("include/c/vector", None),
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

#[test]
fn extension_less_headers_are_cpp_by_their_mode_line() {
    let header = "// <vector> -*- C++ -*-\n#include <bits/stl_vector.h>\n";
    assert_eq!(language_name("vector"), None);
    assert_eq!(language_of("vector", header), Some("cpp"));
    assert_eq!(
        language_of(
            "tool",
            "/* -*- mode: c; indent-tabs-mode: t -*- */\nint x;\n"
        ),
        Some("c")
    );
    assert_eq!(language_of("notes", "-*- org -*-\n"), None);
    assert_eq!(language_of("README", "A readme.\n"), None);
    // An extension decides first: no mode line makes a Markdown file C++.
    assert_eq!(language_of("a.md", header), None);
    // The mode line is an instruction to editors (and to devprojex): it stays.
    let text = "// <ring> -*- C++ -*-\n// Copyright.\ninline int f()\n{\n  return 1;\n}\n";
    let out = devprojex_detail::transform("ring", text, Detail::Signatures);
    assert_eq!(out, "// <ring> -*- C++ -*-\ninline int f();\n");
    assert_eq!(
        devprojex_detail::transform("ring", &out, Detail::Signatures),
        out
    );
}

/// `n` functions whose bodies use GNU case ranges, which tree-sitter-c cannot read.
fn broken_functions(n: usize) -> String {
    (0..n)
        .map(|i| {
            format!(
                "/* Broken {i}. */\nint broken{i}(int c)\n{{\n\t// inside an error's function\n\tswitch (c) {{\n\tcase 1 ... 3:\n\t\treturn 1;\n\t}}\n\treturn 0;\n}}\n\n"
            )
        })
        .collect()
}

#[test]
fn c_files_with_many_parse_errors_are_reduced_away_from_them() {
    use devprojex_detail::testing;
    let text = format!(
        "{}/* Fine. */\nint fine(int a)\n{{\n\t/* step */\n\treturn a + 1;\n}}\n",
        broken_functions(6)
    );
    let errors: Vec<_> = testing::parse_errors("t.c", &text)
        .unwrap()
        .into_iter()
        .filter(|e| e.0 != "idiom")
        .collect();
    // Six errors: the whole-file threshold (3) of other languages would leave it unchanged.
    assert_eq!(errors.len(), 6, "{errors:?}");
    let (out, outcome) = transform_with_outcome("t.c", &text, Detail::Signatures);
    assert_eq!(outcome, Outcome::Transformed);
    assert!(out.contains("int fine(int a);\n"), "{out}");
    assert!(
        !out.contains("/* Fine. */") && !out.contains("/* Broken 0. */"),
        "{out}"
    );
    // A body holding an error is not collapsed.
    for i in 0..6 {
        assert!(
            out.contains(&format!("int broken{i}(int c)\n{{\n")),
            "{out}"
        );
    }
    assert!(testing::tokens("t.c", &out).unwrap().0 <= testing::tokens("t.c", &text).unwrap().0);
    // The same file as Go-like whole-file tolerance would decline: only C and C++ tolerate per node.
    let go = format!("package p\n\n{}", "var _ (T)[ int]\n\n".repeat(6));
    assert_eq!(
        transform_with_outcome("t.go", &go, Detail::Compact).1,
        Outcome::ParseErrors
    );
}

#[test]
fn a_c_file_is_declined_only_when_nothing_error_free_remains() {
    // The only comment and the only body hold an error.
    let text = "int f(int c) {\n\tswitch (c) { case 1 ... /* a */ 3: return 1; }\n\treturn 0;\n}\n";
    let (out, outcome) = transform_with_outcome("t.c", text, Detail::Signatures);
    assert_eq!(outcome, Outcome::ParseErrors);
    assert_eq!(out, text);
    assert!(devprojex_detail::testing::declined("t.c", text));
    // Nothing to remove at all: unchanged, not declined.
    let plain = "int f(int c) {\n\tswitch (c) { case 1 ... 3: return 1; }\n\treturn 0;\n}\n";
    assert_eq!(
        transform_with_outcome("t.c", plain, Detail::Compact).1,
        Outcome::Unchanged
    );
}

#[test]
fn linux_kernel_idioms_are_understood() {
    use devprojex_detail::testing;
    let text = "\
static int __init demo_init(void)
{
\treturn 0;
}
SYSCALL_DEFINE3(read, unsigned int, fd, char __user *, buf, size_t, count)
{
\treturn ksys_read(fd, buf, count);
}
EXPORT_SYMBOL(demo_init);
static DEFINE_PER_CPU(struct counter, counters);
static DEFINE_MUTEX(lock);
static void walk(struct list_head *head)
{
\tstruct item *pos;
\tint cpu;
\tlist_for_each_entry(pos, head, node) {
\t\tpos->x = 1;
\t}
\tfor_each_cpu(cpu, mask)
\t\ttotal += cpu;
\tprintk(KERN_ERR PFX \"walked\\n\");
\tx = container_of(pos, struct item, node);
\ty = min_t(unsigned int, a, b);
}
";
    let errors = testing::parse_errors("t.c", text).unwrap();
    let counted: Vec<_> = errors.iter().filter(|e| e.0 != "idiom").collect();
    assert!(counted.is_empty(), "{counted:?}");
    assert!(
        errors.len() >= 5,
        "the grammar alone reads these as errors: {errors:?}"
    );
    let out = devprojex_detail::transform("t.c", text, Detail::Signatures);
    assert_eq!(
        out,
        "\
static int __init demo_init(void);
SYSCALL_DEFINE3(read, unsigned int, fd, char __user *, buf, size_t, count)
{ /* ... */ }
EXPORT_SYMBOL(demo_init);
static DEFINE_PER_CPU(struct counter, counters);
static DEFINE_MUTEX(lock);
static void walk(struct list_head *head);
"
    );
}

#[test]
fn c_and_cpp_one_line_bodies_collapse_when_their_code_is_longer_than_the_placeholder() {
    use devprojex_detail::transform;
    let text = "\
struct S {
  int size() const { return _M_size; }
  int zero() const { return 0; }
  S() { }
  int noted() const { return /* the cached one */ _M_size; }
  constexpr int cap() const { return _M_cap * 2; }
  auto half() const { return _M_size / 2; }
  auto twice() const -> int { return _M_size * 2; }
};
";
    let out = transform("s.h", text, Detail::Signatures);
    assert_eq!(
        out,
        "\
struct S {
  int size() const;
  int zero() const { return 0; }
  S() { }
  int noted() const;
  constexpr int cap() const { return _M_cap * 2; }
  auto half() const { return _M_size / 2; }
  auto twice() const -> int;
};
",
        "code of 13 characters or fewer (`{{return0;}}`) stays: the placeholder is no shorter; \
         constexpr and deduced bodies outside templates stay as they do on several lines"
    );
    // Judged without comments: the same with `compact` first, and idempotent.
    let compact = transform("s.h", text, Detail::Compact);
    assert_eq!(transform("s.h", &compact, Detail::Signatures), out);
    assert_eq!(transform("s.h", &out, Detail::Signatures), out);
    // C too; other languages keep their one-line bodies.
    let c = "static int get(void) { return counter_value; }\n";
    assert_eq!(
        transform("t.c", c, Detail::Signatures),
        "static int get(void);\n"
    );
    let rust = "fn get(&self) -> u32 { self.counter_value }\n";
    assert_eq!(transform("t.rs", rust, Detail::Signatures), rust);
}

#[test]
fn a_cpp_member_before_an_attribute_reads_right_once_collapsed() {
    use devprojex_detail::testing;
    // `f() const { /* ... */ }` then a GNU attribute in a class reads, to tree-sitter-cpp, as a
    // member with a brace initializer missing its `;` (libstdc++'s `basic_string.h`); the
    // declaration a member becomes reads as it is, and the output check finds no new error.
    let text = "\
struct S {
  int get() const
  {
    return value_ + 1;
  }
  // Inlined.
  __attribute__((always_inline))
  int put();
  int size() const
  {
    return size_;
  }
};
";
    assert_eq!(testing::parse_errors("s.h", text).unwrap(), vec![]);
    let out = devprojex_detail::transform("s.h", text, Detail::Signatures);
    assert_eq!(
        out,
        "\
struct S {
  int get() const;
  __attribute__((always_inline))
  int put();
  int size() const;
};
"
    );
    assert_eq!(testing::parse_errors("s.h", &out).unwrap(), vec![]);
    assert_eq!(
        testing::transform_unverified("s.h", text, Detail::Signatures),
        out
    );
    let compact = devprojex_detail::transform("s.h", text, Detail::Compact);
    assert_eq!(
        devprojex_detail::transform("s.h", &compact, Detail::Signatures),
        out
    );
}

#[test]
fn listed_macros_are_read_as_they_expand_only_for_the_parse() {
    use devprojex_detail::testing;
    let text = "static int __init f(char __user *p) __printf(1, 2);\n\
                const char *s = \"__init /* not a comment */\";\n\
                /* __init in a comment */\n";
    assert_eq!(testing::parse_errors("t.c", text).unwrap(), vec![]);
    let out = devprojex_detail::transform("t.c", text, Detail::Compact);
    assert_eq!(
        out,
        "static int __init f(char __user *p) __printf(1, 2);\n\
         const char *s = \"__init /* not a comment */\";\n"
    );
}

#[test]
fn conditional_groups_that_split_a_construct_are_parsed_flattened() {
    use devprojex_detail::testing;
    // A namespace closed and opened again inside `#if` (libstdc++'s `move.h`), and a return type
    // chosen by `#if`: tree-sitter-cpp reads the file as one error without flattening.
    let text = "\
namespace std {
inline int a()
{
  // step
  return 1;
}
#if __cplusplus >= 201103L
} // namespace std
#include <type_traits>
namespace std {
#endif
template<typename T>
  inline
#if __cplusplus > 201402L
  typename enable_if<is_swappable<T>::value>::type
#else
  void
#endif
  swap(T& a, T& b)
  {
    T t = a;
    a = b;
  }
} // namespace std
";
    assert_eq!(testing::flattened_groups("t.h", text).len(), 2);
    let out = devprojex_detail::transform("t.h", text, Detail::Signatures);
    assert_eq!(
        out,
        "\
namespace std {
inline int a();
#if __cplusplus >= 201103L
}
#include <type_traits>
namespace std {
#endif
template<typename T>
  inline
#if __cplusplus > 201402L
  typename enable_if<is_swappable<T>::value>::type
#else
  void
#endif
  swap(T& a, T& b);
}
"
    );
}

#[test]
fn a_c_output_never_holds_more_parse_errors_than_its_input() {
    use devprojex_detail::testing;
    // tree-sitter-cpp cannot read `extern template`: without the blank line after the first
    // `#endif` it recovers differently and reports one error more. The edits away from each
    // error's neighbourhood alone drop that line; the check of the output keeps it.
    let text = "
  extern template
    bool
    has_part<widget<char, char, state> >(const place&);

#ifdef WITH_WIDE
  extern template class widget_named<wchar_t, char, state>;

  extern template
    const widget<wchar_t, char, state>&
    use_part<widget<wchar_t, char, state> >(const place&);

  extern template
    bool
    has_part<widget<wchar_t, char, state> >(const place&);
#endif

#if __cplusplus >= 201103L
  extern template class widget_named<char16_t, char, state>;
  extern template class widget_named<char32_t, char, state>;

#if defined(WITH_CHAR8)
  extern template class widget_named<char16_t, char8_t, state>;
  extern template class widget_named<char32_t, char8_t, state>;
#endif
";
    let errors = |t: &str| testing::tokens("t.h", t).unwrap().0;
    let unverified = testing::transform_unverified("t.h", text, Detail::Compact);
    assert!(
        errors(&unverified) > errors(text),
        "the grammar changed: {unverified}"
    );
    let out = devprojex_detail::transform("t.h", text, Detail::Compact);
    assert!(errors(&out) <= errors(text), "{out}");
    assert!(out.contains("#endif\n\n#if __cplusplus"), "{out}");
    assert_ne!(out, text, "the rest is still reduced");
}

/// C++ `extern "C" { … }` blocks and GNU `__attribute__((…))` on definitions: the bodies inside
/// collapse like any other, and the linkage block and the attributes stay as written.
#[test]
fn extern_c_blocks_and_attributes_on_definitions_are_reduced_inside() {
    let cpp = "\
extern \"C\" {
int add(int a, int b)
{
    return a + b;
}
void declared_only(void);
}
";
    let out = devprojex_detail::transform("api.cpp", cpp, Detail::Signatures);
    assert_eq!(
        out,
        "\
extern \"C\" {
int add(int a, int b);
void declared_only(void);
}
"
    );
    let c = "\
__attribute__((noinline)) static int twice(int x)
{
    return x * 2;
}
static int __attribute__((unused)) one(void)
{
    return 1;
}
int three(void) __attribute__((cold));
";
    let out = devprojex_detail::transform("attr.c", c, Detail::Signatures);
    assert_eq!(
        out,
        "\
__attribute__((noinline)) static int twice(int x);
static int __attribute__((unused)) one(void);
int three(void) __attribute__((cold));
"
    );
}

/// `signatures` writes a C or C++ definition whose name is not qualified as its declaration;
/// where a declaration cannot stand for it, the brace placeholder stays.
#[test]
fn c_and_cpp_definitions_become_declarations_where_the_language_allows() {
    use devprojex_detail::transform;
    let text = "\
template<typename T>
  struct box
  {
    box(const T& v) noexcept
    : value(v), count(1)
    { check_all_values(); }
    constexpr const T& get() const _GLIBCXX_NOEXCEPT // the value
    {
      return value;
    }
    auto twice() const
    {
      return value + value;
    }
    T value;
    int count;
  };
template<typename T>
  void box_check(box<T>& b)
  {
    b.count++;
  }
constexpr int square(int x)
{
  return x * x;
}
int table[square(3)];
void box_print::show() const
{
  print(value);
}
int old_style(a, b)
  int a; char b;
{
  return a + b;
}
TEST(Box, Holds)
{
  expect(1);
}
FIXTURE_VARIANT(box)
{
  const char *name;
};
FIXTURE(box) {
  int size;
};
BTF_ID_LIST(box_ids)
BTF_ID(struct, box)
static int box_register(void)
{
  return 0;
}
int chosen()
#if defined(FAST)
  noexcept
#endif
{
  return 1;
}
";
    let out = transform("box.h", text, Detail::Signatures);
    assert_eq!(
        out,
        "\
template<typename T>
  struct box
  {
    box(const T& v) noexcept;
    constexpr const T& get() const _GLIBCXX_NOEXCEPT;
    auto twice() const;
    T value;
    int count;
  };
template<typename T>
  void box_check(box<T>& b);
constexpr int square(int x)
{
  return x * x;
}
int table[square(3)];
void box_print::show() const
{ /* ... */ }
int old_style(a, b)
  int a; char b;
{ /* ... */ }
TEST(Box, Holds)
{ /* ... */ }
FIXTURE_VARIANT(box)
{
  const char *name;
};
FIXTURE(box) {
  int size;
};
BTF_ID_LIST(box_ids)
BTF_ID(struct, box)
static int box_register(void)
{ /* ... */ }
int chosen()
#if defined(FAST)
  noexcept
#endif
{ /* ... */ }
",
        "member initializers go with the body, a macro the parse reads as spaces stays; a \
         template's constexpr and deduced bodies go, a plain constexpr one stays (`table` needs \
         it); qualified, K&R, macro-written and directive-split definitions keep the placeholder; \
         a block a macro names followed by `;` is a type (kselftest's fixtures) and stays; after \
         macros without their `;` a declaration would read as one with them"
    );
    let compact = transform("box.h", text, Detail::Compact);
    assert_eq!(transform("box.h", &compact, Detail::Signatures), out);
    assert_eq!(transform("box.h", &out, Detail::Signatures), out);
}

/// A table of constant `#define`s (a register map) keeps its head and a count; a table whose
/// names the code uses, a short list, and `#define`s of anything but numbers stay whole.
#[test]
fn c_tables_of_constants_keep_their_head() {
    use devprojex_detail::{testing, transform};
    let table: String = (0..300)
        .map(|i| format!("#define mmREG_{i}                                        0x{i:04x}\n#define mmREG_{i}_BASE_IDX 0 /* block {i} */\n"))
        .collect();
    let text = format!("/* Registers. */\n#ifndef REGS_H\n#define REGS_H\n\n{table}\n#endif\n");
    let out = transform("regs.h", &text, Detail::Signatures);
    let head: String = table
        .lines()
        .take(8)
        .map(|l| {
            let l = l.split(" /*").next().unwrap();
            format!("{l}\n")
        })
        .collect();
    assert_eq!(
        out,
        format!("#ifndef REGS_H\n#define REGS_H\n{head}/* ... 592 more constants */\n#endif\n")
    );
    assert_eq!(testing::parse_errors("regs.h", &out).unwrap(), vec![]);
    assert_eq!(transform("regs.h", &out, Detail::Signatures), out);
    assert_eq!(transform("regs.h", &out, Detail::Compact), out);
    let compact = transform("regs.h", &text, Detail::Compact);
    assert_eq!(transform("regs.h", &compact, Detail::Signatures), out);
    // `compact` keeps every constant.
    assert_eq!(compact.matches("#define mmREG_").count(), 600);
    // A left-out name the code uses keeps the whole table, whatever the comments say.
    let used = format!("{text}/* mmREG_1 */\nint base = mmREG_299_BASE_IDX;\n");
    let out_used = transform("regs.h", &used, Detail::Signatures);
    assert_eq!(out_used.matches("#define mmREG_").count(), 600);
    // A use inside a body that collapses is gone from the output: the table is shortened, and
    // a second pass decides alike.
    let in_body = format!("{text}static int base(void)\n{{\n\treturn mmREG_299_BASE_IDX;\n}}\n");
    let out_body = transform("regs.h", &in_body, Detail::Signatures);
    assert!(
        out_body.ends_with("/* ... 592 more constants */\n#endif\nstatic int base(void);\n"),
        "{out_body}"
    );
    assert_eq!(transform("regs.h", &out_body, Detail::Signatures), out_body);
    let in_comment = format!("{text}/* mmREG_299 */\nchar s[] = \"mmREG_298\";\n");
    assert!(transform("regs.h", &in_comment, Detail::Signatures).contains("592 more constants"));
    // Short lists (errno codes) and macros of code stay.
    let short: String = (0..255).map(|i| format!("#define E{i} {i}\n")).collect();
    assert_eq!(transform("errno.h", &short, Detail::Signatures), short);
    let code: String = (0..300)
        .map(|i| format!("#define F{i} BIT({i})\n"))
        .collect();
    assert_eq!(transform("bits.h", &code, Detail::Signatures), code);
}

/// A text too large to parse (a generated register map of several MB) still has its tables of
/// constants shortened at `signatures`, found line by line; `compact` leaves it as it is.
#[test]
fn tables_in_texts_too_large_to_parse_are_shortened() {
    use devprojex_detail::{MAX_TRANSFORM_BYTES, transform_with_outcome};
    let table: String = (0..24_000)
        .map(|i| {
            format!(
                "#define REG_{i:05}__FIELD_MASK{:>80}\n",
                format!("0x{i:08x}L")
            )
        })
        .collect();
    let text = format!(
        "/*\n * Generated.\n#define NOT_A_CONSTANT 1\n */\n// block\n{table}#define LAST REG_00001__FIELD_MASK\n"
    );
    assert!(text.len() > MAX_TRANSFORM_BYTES);
    let (out, outcome) = transform_with_outcome("big.h", &text, Detail::Signatures);
    assert_eq!(outcome, Outcome::Transformed);
    let head: String = table.lines().take(8).map(|l| format!("{l}\n")).collect();
    assert_eq!(
        out,
        format!(
            "/*\n * Generated.\n#define NOT_A_CONSTANT 1\n */\n// block\n{head}/* ... 23992 more constants */\n#define LAST REG_00001__FIELD_MASK\n"
        )
    );
    assert_eq!(
        transform_with_outcome("big.h", &text, Detail::Compact).1,
        Outcome::TooLarge
    );
    // The name `LAST` uses is left out only while nothing uses it.
    let used = text.replace("#define LAST REG_00001", "#define LAST REG_23999");
    assert_eq!(
        transform_with_outcome("big.h", &used, Detail::Signatures).1,
        Outcome::TooLarge
    );
}

/// tree-sitter's recovery from an error of the input can read on into the definitions after it
/// once their bodies are gone. Changing those back one at a time, a parse each, walked back
/// through every definition before the new error (`kernel/signal.c`: 51 parses, a third of
/// `kernel/`'s time): a body changed back that leaves the first new error where it was sends
/// the check to its next tier. The input is a fragment of `kernel/signal.c` (Linux 6.1).
#[test]
fn a_fallback_that_moves_no_new_error_is_not_walked_back_body_by_body() {
    use devprojex_detail::{testing, transform};
    let path = "signal-fragment.c";
    let text = include_str!("../inputs/signal-fragment.c");
    let parses = testing::output_parses(path, text, Detail::Signatures);
    assert!(parses <= 4, "{parses} parses of the output");
    let out = transform(path, text, Detail::Signatures);
    assert!(
        out.contains("{ /* ... */ }") && out.len() < text.len(),
        "{out}"
    );
    let errors = |t: &str| testing::tokens(path, t).unwrap().0;
    assert!(errors(&out) <= errors(text), "{out}");
}

/// The output check parses an output again reusing the input's tree (`compact`); that parse
/// must read every output as a fresh parse does.
#[test]
fn the_output_check_reads_outputs_as_a_fresh_parse_does() {
    use devprojex_detail::testing;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut compared = 0;
    for name in [
        "c.c",
        "cpp.cpp",
        "kernel.c",
        "libstdcxx.h",
        "ring",
        "stl.cpp",
    ] {
        let text = std::fs::read_to_string(root.join(name)).unwrap();
        for level in [Detail::Compact, Detail::Signatures] {
            let (fresh, incremental) =
                testing::output_parses_fresh_and_incremental(name, &text, level)
                    .unwrap_or_else(|| panic!("{name} {level}: unchanged"));
            assert_eq!(fresh, incremental, "{name} {level}");
            compared += 1;
        }
    }
    assert_eq!(compared, 12);
}

#[test]
fn typescript_variance_annotations_do_not_stop_the_reduction() {
    use devprojex_detail::testing;
    // TypeScript 4.7's `in`/`out` modifiers, which tree-sitter-typescript 0.23 reads as ERROR
    // nodes: zod's `schemas.ts` has 7, which left the whole file unreduced.
    let text = "export interface Box<out O = unknown, in out I = unknown> {\n  value: O;\n}\n\
                export interface Obj<\n  /** @ts-ignore Cast variance */\n  out Shape extends Base = Base,\n  out Config,\n> extends Box<Shape> {}\n\
                type Fn<in T> = (value: T) => void;\n\
                interface Pair<out A, out B> {}\n\
                export function parse(input: string): number {\n  const n = input.length;\n  return n < out ? n : 0;\n}\n";
    for path in ["schemas.ts", "schemas.tsx"] {
        assert_eq!(testing::parse_errors(path, text).unwrap(), vec![], "{path}");
        let (out, outcome) =
            devprojex_detail::transform_with_outcome(path, text, Detail::Signatures);
        assert_eq!(outcome, Outcome::Transformed, "{path}");
        assert_eq!(
            out,
            "export interface Box<out O = unknown, in out I = unknown> {\n  value: O;\n}\n\
             export interface Obj<\n  /** @ts-ignore Cast variance */\n  out Shape extends Base = Base,\n  out Config,\n> extends Box<Shape> {}\n\
             type Fn<in T> = (value: T) => void;\n\
             interface Pair<out A, out B> {}\n\
             export function parse(input: string): number { /* ... */ }\n",
            "{path}"
        );
    }
}

#[test]
fn signatures_of_a_file_too_broken_to_collapse_is_what_compact_gives() {
    // serde_json's tests/ui/parse_expr.rs: the error is in the only body, so nothing collapses,
    // but the blank line goes as it goes at `compact`
    let text = "use serde_json::json;\n\nfn main() {\n    json!({ \"a\" : ~ });\n}\n";
    let (sigs, outcome) = transform_with_outcome("t.rs", text, Detail::Signatures);
    assert_eq!(outcome, Outcome::ParseErrors);
    let compact = devprojex_detail::transform("t.rs", text, Detail::Compact);
    assert_eq!(sigs, compact);
    assert_eq!(
        sigs,
        "use serde_json::json;\nfn main() {\n    json!({ \"a\" : ~ });\n}\n"
    );
}
