//! Outputs checked with the languages' real parsers: `syn` for Rust, Python's `ast` (via `python3`,
//! skipped with a note when it is missing). `compact` must keep the program (same token stream,
//! same AST); `signatures` must still parse.

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
