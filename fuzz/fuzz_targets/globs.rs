//! Glob compilation (`PatternSet::compile`, used for `include_patterns`, `exclude_patterns` and
//! profile patterns) and matching (`matches_path_or_ancestor`).
//!
//! Input: UTF-8 text; the lines before a line `--` are the patterns, the lines after it are
//! project-relative paths to match.
//!
//! Invariants: compiling never panics and refuses with DPX-MCP-INVALID-ARGUMENTS or
//! DPX-MCP-INVALID-PATTERN naming the field; a compiled set matches a path exactly when one of
//! its patterns compiled alone does; a pattern without glob syntax matches itself, everything
//! under it, and (without `/`) the same name at any depth; `./x`, `x/` and `x` match alike.
#![no_main]

use devprojex::error::ErrorKind;
use devprojex::select::globs::PatternSet;
use libfuzzer_sys::fuzz_target;

const FIELD: &str = "include_patterns";

fn compile(patterns: &[String]) -> Option<PatternSet> {
    match PatternSet::compile(FIELD, patterns) {
        Ok(set) => Some(set),
        Err(err) => {
            assert!(
                err.kind == ErrorKind::InvalidArguments || err.kind == ErrorKind::InvalidPattern,
                "unexpected code {}",
                err.code()
            );
            assert!(err.message.contains(FIELD), "{}", err.message);
            None
        }
    }
}

fn is_literal(pattern: &str) -> bool {
    !pattern.contains(['*', '?', '[', ']', '{', '}', '\\'])
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let patterns: Vec<String> = lines
        .by_ref()
        .take_while(|l| *l != "--")
        .map(str::to_string)
        .collect();
    let mut paths: Vec<String> = lines.map(str::to_string).collect();

    let Some(set) = compile(&patterns) else {
        return;
    };
    assert_eq!(set.is_empty(), patterns.is_empty());
    let singles: Vec<PatternSet> = patterns
        .iter()
        .map(|p| compile(std::slice::from_ref(p)).expect("a pattern of a valid set is valid"))
        .collect();

    for pattern in &patterns {
        let normalised = pattern.trim_start_matches("./").trim_end_matches('/');
        // `.` is no prefix of itself: `./` normalises to the empty pattern.
        if !is_literal(pattern) || normalised.is_empty() || normalised == "." {
            continue;
        }
        let single = compile(std::slice::from_ref(pattern)).expect("valid");
        let under = format!("{normalised}/child.txt");
        assert!(
            single.matches_path_or_ancestor(normalised),
            "{pattern:?} misses itself"
        );
        assert!(
            single.matches_path_or_ancestor(&under),
            "{pattern:?} misses {under:?}"
        );
        if !normalised.contains('/') {
            let deep = format!("some/deep/{normalised}");
            assert!(
                single.matches_path_or_ancestor(&deep),
                "{pattern:?} misses {deep:?}"
            );
        }
        for variant in [format!("./{normalised}"), format!("{normalised}/")] {
            let other = compile(&[variant.clone()]).expect("a variant of a valid literal");
            for path in [normalised, under.as_str()] {
                assert_eq!(
                    other.matches_path_or_ancestor(path),
                    single.matches_path_or_ancestor(path),
                    "{variant:?} and {pattern:?} differ on {path:?}"
                );
            }
        }
        paths.push(normalised.to_string());
        paths.push(under);
    }

    for path in &paths {
        let whole = set.matches_path_or_ancestor(path);
        let any = singles.iter().any(|s| s.matches_path_or_ancestor(path));
        assert_eq!(whole, any, "the set and its patterns disagree on {path:?}");
    }
});
