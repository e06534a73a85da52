//! Outputs checked with the languages' real parsers: `syn` for Rust, Python's `ast` (via `python3`,
//! skipped with a note when it is missing). `compact` must keep the program (same token stream,
//! same AST); `signatures` must still parse. The other languages' corpus outputs go through their
//! own syntax checkers (javac's parser, TypeScript's, Mono's C# parser, gofmt, gcc, ruby, php,
//! luac, bash, ...).

use std::path::{Path, PathBuf};
use std::process::Command;

use devprojex_detail::{Detail, transform};

fn walk(root: &Path, ext: &str, limit: usize, skip: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<_> = rd.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        entries.sort();
        for p in entries.into_iter().rev() {
            let name = p
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            if skip.iter().any(|s| name == *s) {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == ext)
                && p.metadata().is_ok_and(|m| m.len() < 300_000)
            {
                out.push(p);
                if out.len() >= limit {
                    return out;
                }
            }
        }
    }
    out
}

fn corpus_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(name)
}

fn strip_shebang(s: &str) -> &str {
    if s.starts_with("#!") && !s.starts_with("#![") {
        s.find('\n').map_or("", |i| &s[i..])
    } else {
        s
    }
}

fn token_string(s: &str) -> Option<String> {
    strip_shebang(s)
        .parse::<proc_macro2::TokenStream>()
        .ok()
        .map(|t| t.to_string())
}

#[test]
fn rust_outputs_parse_with_syn() {
    let mut files = vec![corpus_file("rust.rs")];
    if let Some(home) = std::env::var_os("HOME") {
        let src = PathBuf::from(home).join(".cargo/registry/src");
        files.extend(walk(&src, "rs", 150, &["tests", "ui", "fixtures"]));
    }
    let mut checked = 0;
    let mut failures = Vec::new();
    for p in &files {
        let Ok(text) = std::fs::read_to_string(p) else {
            continue;
        };
        if syn::parse_file(&text).is_err() {
            continue; // not valid Rust for syn to begin with
        }
        checked += 1;
        let name = p.to_string_lossy();
        let compact = transform(&name, &text, Detail::Compact);
        let sigs = transform(&name, &text, Detail::Signatures);
        if let Err(e) = syn::parse_file(&compact) {
            failures.push(format!("{name}: compact does not parse: {e}"));
        }
        if token_string(&text) != token_string(&compact) {
            failures.push(format!("{name}: compact changed the token stream"));
        }
        if let Err(e) = syn::parse_file(&sigs) {
            failures.push(format!("{name}: signatures does not parse: {e}"));
        }
    }
    assert!(checked > 0);
    assert!(
        failures.is_empty(),
        "{} of {checked}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

const PY_CHECK: &str = r#"
import ast, sys, pathlib
root = pathlib.Path(sys.argv[1])
bad = checked = 0
for full in sorted(root.glob("*.full.py")):
    stem = full.name[: -len(".full.py")]
    try:
        want = ast.dump(ast.parse(full.read_text(encoding="utf-8")))
    except (SyntaxError, ValueError):
        continue
    checked += 1
    compact = (root / (stem + ".compact.py")).read_text(encoding="utf-8")
    sigs = (root / (stem + ".signatures.py")).read_text(encoding="utf-8")
    try:
        if ast.dump(ast.parse(compact)) != want:
            print(f"{stem}: compact changed the AST"); bad += 1
    except SyntaxError as e:
        print(f"{stem}: compact does not parse: {e}"); bad += 1
    try:
        ast.parse(sigs)
    except SyntaxError as e:
        print(f"{stem}: signatures does not parse: {e}"); bad += 1
print(f"checked {checked}")
sys.exit(1 if bad or not checked else 0)
"#;

#[test]
fn python_outputs_parse_with_ast() {
    let Ok(out) = Command::new("python3")
        .args([
            "-c",
            "import sysconfig;print(sysconfig.get_paths()['stdlib'])",
        ])
        .output()
    else {
        eprintln!("python3 not found: skipping the Python ast check");
        return;
    };
    let stdlib = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    let mut files = vec![corpus_file("python.py")];
    files.extend(walk(
        &stdlib,
        "py",
        200,
        &["site-packages", "lib2to3", "test", "tests"],
    ));
    let dir = std::env::temp_dir().join(format!("devprojex-detail-ast-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (i, p) in files.iter().enumerate() {
        let Ok(text) = std::fs::read_to_string(p) else {
            continue;
        };
        let name = p.to_string_lossy();
        let stem = format!("{i:04}_{}", p.file_stem().unwrap().to_string_lossy());
        std::fs::write(dir.join(format!("{stem}.full.py")), &text).unwrap();
        for level in [Detail::Compact, Detail::Signatures] {
            let out = transform(&name, &text, level);
            std::fs::write(dir.join(format!("{stem}.{level}.py")), out.as_bytes()).unwrap();
        }
    }
    let result = Command::new("python3")
        .arg("-c")
        .arg(PY_CHECK)
        .arg(&dir)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let report = String::from_utf8_lossy(&result.stdout);
    assert!(
        result.status.success(),
        "{report}{}",
        String::from_utf8_lossy(&result.stderr)
    );
    eprintln!("{}", report.trim());
}

/// A language's own syntax checker, run on the corpus file and on its `compact` and
/// `signatures` outputs: the command plus the files, success meaning "parses".
struct Checker {
    corpus: &'static [&'static str],
    program: &'static str,
    args: &'static [&'static str],
    /// Takes several files in one run (otherwise one run per file; Debian's `luac5.4 -p` with
    /// two files aborts with a double free).
    many_files: bool,
}

/// Exit code of `tests/tools/ts-syntax.js` when node cannot load the `typescript` package.
const TS_MISSING: i32 = 3;

const TOML_CHECK: &str =
    "import sys, tomllib\nfor f in sys.argv[1:]:\n    tomllib.load(open(f, 'rb'))";
const XML_CHECK: &str =
    "import sys, xml.etree.ElementTree as E\nfor f in sys.argv[1:]:\n    E.parse(f)";

const CHECKERS: &[Checker] = &[
    Checker {
        corpus: &["bash.sh"],
        program: "bash",
        args: &["-n"],
        many_files: false,
    },
    Checker {
        corpus: &["c.c", "kernel.c"],
        program: "gcc",
        args: &["-fsyntax-only", "-w"],
        many_files: false,
    },
    // `-x c++`: `ring` has no extension (and includes `libstdcxx.h`, checked first).
    Checker {
        corpus: &["cpp.cpp", "stl.cpp", "libstdcxx.h", "ring"],
        program: "g++",
        args: &["-fsyntax-only", "-w", "-x", "c++"],
        many_files: false,
    },
    Checker {
        corpus: &["csharp.cs"],
        program: "mcs",
        args: &["--parse"],
        many_files: false,
    },
    Checker {
        corpus: &["go.go"],
        program: "gofmt",
        args: &["-e", "-l"],
        many_files: true,
    },
    Checker {
        corpus: &["java.java"],
        program: "java",
        args: &["tests/tools/JavaSyntax.java"],
        many_files: true,
    },
    Checker {
        corpus: &["javascript.js", "jsx.jsx", "typescript.ts", "tsx.tsx"],
        program: "node",
        args: &["tests/tools/ts-syntax.js"],
        many_files: true,
    },
    Checker {
        corpus: &["lua.lua"],
        program: "luac5.4",
        args: &["-p"],
        many_files: false,
    },
    Checker {
        corpus: &["php.php"],
        program: "php",
        args: &["-l"],
        many_files: false,
    },
    Checker {
        corpus: &["ruby.rb"],
        program: "ruby",
        args: &["-c"],
        many_files: false,
    },
    Checker {
        corpus: &["toml.toml"],
        program: "python3",
        args: &["-c", TOML_CHECK],
        many_files: true,
    },
    Checker {
        corpus: &["xml.xml"],
        program: "python3",
        args: &["-c", XML_CHECK],
        many_files: true,
    },
    Checker {
        corpus: &["yaml.yaml"],
        program: "ruby",
        args: &["-ryaml", "-e", "ARGV.each { |f| YAML.parse_file(f) }"],
        many_files: true,
    },
];

/// Runs `checker` on `files`; `None` when its program (or node's `typescript`) is missing.
fn run_checker(checker: &Checker, files: &[PathBuf]) -> Option<Result<(), String>> {
    let groups: Vec<&[PathBuf]> = if checker.many_files {
        vec![files]
    } else {
        files.chunks(1).collect()
    };
    for group in groups {
        let result = Command::new(checker.program)
            .args(checker.args)
            .args(group)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output();
        let output = match result {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
            Err(e) => return Some(Err(format!("{}: {e}", checker.program))),
            Ok(output) => output,
        };
        if checker.program == "node" && output.status.code() == Some(TS_MISSING) {
            return None;
        }
        // gofmt reports syntax errors on stderr; the other checkers fail with a status.
        if !output.status.success() || (checker.program == "gofmt" && !output.stderr.is_empty()) {
            return Some(Err(format!(
                "{} {}: {}{}",
                checker.program,
                checker.args.join(" "),
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            )));
        }
    }
    Some(Ok(()))
}

/// The corpus's tricky inputs and their outputs, checked with each language's own parser where
/// it is installed (`scripts/install-test-parsers.sh`; `scripts/test.sh` runs it and sets
/// `DEVPROJEX_REQUIRE_REAL_PARSERS=1`, which turns a missing checker into a failure).
#[test]
fn corpus_outputs_parse_with_the_languages_own_tools() {
    let required = std::env::var_os("DEVPROJEX_REQUIRE_REAL_PARSERS").is_some();
    let dir = std::env::temp_dir().join(format!("devprojex-detail-tools-{}", std::process::id()));
    let mut failures = Vec::new();
    let mut missing = Vec::new();
    for checker in CHECKERS {
        for name in checker.corpus {
            let text = std::fs::read_to_string(corpus_file(name)).unwrap();
            let level_dir = |level: &str| dir.join(level);
            let mut files = Vec::new();
            for level in [Detail::Full, Detail::Compact, Detail::Signatures] {
                let path = level_dir(level.as_str()).join(name);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, transform(name, &text, level).as_bytes()).unwrap();
                files.push(path);
            }
            // The input first: a checker that rejects it would make the outputs' check vacuous.
            match run_checker(checker, &files[..1]) {
                None => {
                    missing.push(checker.program);
                    continue;
                }
                Some(Err(e)) => {
                    failures.push(format!("{name}: the corpus input itself fails: {e}"));
                    continue;
                }
                Some(Ok(())) => {}
            }
            if let Some(Err(e)) = run_checker(checker, &files[1..]) {
                failures.push(format!("{name}: {e}"));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    missing.sort_unstable();
    missing.dedup();
    if !missing.is_empty() {
        let note = format!(
            "not installed, so not checked: {} (scripts/install-test-parsers.sh)",
            missing.join(", ")
        );
        assert!(!required, "{note}");
        eprintln!("{note}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The include directories a C or C++ file under `root` may need to compile alone: its own
/// directory, and each `include/` beside one of its ancestors (a project's `include/`, the
/// Linux `tools/include/`).
fn include_flags(file: &Path, root: &Path) -> Vec<String> {
    let mut flags = Vec::new();
    let mut dir = file.parent();
    while let Some(d) = dir {
        if flags.is_empty() {
            flags.push(format!("-I{}", d.display()));
        }
        let include = d.join("include");
        if include.is_dir() {
            flags.push(format!("-I{}", include.display()));
        }
        if d == root {
            break;
        }
        dir = d.parent();
    }
    flags
}

/// `DETAIL_GCC_ROOT=DIR`: every `.c` (gcc) and `.cc`/`.cpp`/`.cxx` (g++) file under DIR that
/// `-fsyntax-only` accepts as it is (with the include directories of [`include_flags`]) must be
/// accepted after `compact` and after `signatures` too. Run on the vendored C of the cargo
/// registry and the Linux `tools/` userland (`docs/benchmarks.md`); without the variable the
/// test checks nothing.
#[test]
fn real_c_outputs_compile_where_their_inputs_do() {
    let Some(root) = std::env::var_os("DETAIL_GCC_ROOT").map(PathBuf::from) else {
        return;
    };
    let mut files = Vec::new();
    for ext in ["c", "cc", "cpp", "cxx"] {
        files.extend(walk(&root, ext, usize::MAX, &[".git"]));
    }
    files.sort();
    let dir = std::env::temp_dir().join(format!("devprojex-detail-gcc-{}", std::process::id()));
    let accepts = |file: &Path, flags: &[String]| {
        let cpp = file.extension().is_none_or(|e| e != "c");
        Command::new(if cpp { "g++" } else { "gcc" })
            .args(["-fsyntax-only", "-w"])
            .args(flags)
            .arg(file)
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<(usize, usize, Vec<String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let (files, next, dir, root) = (&files, &next, &dir, &root);
                s.spawn(move || {
                    let (mut checked, mut skipped, mut failures) = (0, 0, Vec::new());
                    let work = dir.join(w.to_string());
                    std::fs::create_dir_all(&work).unwrap();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(file) = files.get(i) else { break };
                        let Ok(text) = std::fs::read_to_string(file) else {
                            skipped += 1;
                            continue;
                        };
                        let flags = include_flags(file, root);
                        if !accepts(file, &flags) {
                            skipped += 1;
                            continue;
                        }
                        checked += 1;
                        let name = file.file_name().unwrap();
                        for level in [Detail::Compact, Detail::Signatures] {
                            let out = work.join(level.as_str()).join(name);
                            std::fs::create_dir_all(out.parent().unwrap()).unwrap();
                            let path = file.to_string_lossy();
                            std::fs::write(&out, transform(&path, &text, level).as_bytes())
                                .unwrap();
                            if !accepts(&out, &flags) {
                                failures.push(format!("{}: {level}", file.display()));
                            }
                        }
                    }
                    (checked, skipped, failures)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let _ = std::fs::remove_dir_all(&dir);
    let checked: usize = results.iter().map(|r| r.0).sum();
    let skipped: usize = results.iter().map(|r| r.1).sum();
    let failures: Vec<String> = results.into_iter().flat_map(|r| r.2).collect();
    eprintln!(
        "{}: {checked} files checked, {skipped} skipped (not UTF-8, or not accepted as they are)",
        root.display()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
