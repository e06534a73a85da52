//! The symbol parser of `find_symbol` and `related_files` (`devprojex_symbols`): definitions
//! (`try_definitions`) and static imports (`imports::try_scan`) of one file.
//!
//! Input: UTF-8 text; the first line is the file's project-relative path (its extension picks
//! the language: `x.rs`, `a/B.java`, `x.h`, ...), the rest is the file.
//!
//! Invariants: neither panics (a panic would be caught per file and reported as
//! `Skip::Failed`, so a `Failed` without a stop is a bug found); a file is skipped only as too
//! deeply nested or over its budget; every definition has a name, a line within the file, a
//! signature and container label of at most 240 characters and at most 64 enclosing scopes;
//! every import's line is within the file; the answer is the same when asked twice (the
//! per-thread parser is reused).
#![no_main]

use devprojex_symbols::imports::try_scan;
use devprojex_symbols::{MAX_NESTING, Skip, try_definitions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else {
        return;
    };
    let (path, text) = input.split_once('\n').unwrap_or((input, ""));
    if path.len() > 200 {
        return;
    }
    let lines = text.split('\n').count();
    if let Some(found) = try_definitions(path, text) {
        match &found {
            Ok(definitions) => {
                for d in definitions {
                    assert!(!d.name.is_empty(), "{d:?}");
                    assert!(d.line >= 1 && d.line <= lines, "{d:?}");
                    assert!(d.signature.chars().count() <= 240, "{d:?}");
                    assert!(
                        d.container
                            .as_ref()
                            .is_none_or(|c| c.chars().count() <= 240),
                        "{d:?}"
                    );
                    assert!(d.scope.len() <= MAX_NESTING, "{d:?}");
                }
            }
            Err(skip) => assert!(
                matches!(
                    skip,
                    Skip::TooDeeplyNested
                        | Skip::TooLarge
                        | Skip::OverBudget
                        | Skip::ParseOverBudget
                ),
                "{path}: skipped as {skip:?}"
            ),
        }
        assert_eq!(
            try_definitions(path, text),
            Some(found),
            "not the same twice"
        );
    }
    if let Some(found) = try_scan(path, text) {
        match &found {
            Ok(facts) => {
                assert!(facts.skipped.is_none());
                for import in &facts.imports {
                    assert!(import.line >= 1 && import.line <= lines, "{import:?}");
                }
            }
            Err(skip) => assert!(
                matches!(
                    skip,
                    Skip::TooDeeplyNested
                        | Skip::TooLarge
                        | Skip::OverBudget
                        | Skip::ParseOverBudget
                ),
                "{path}: skipped as {skip:?}"
            ),
        }
        assert_eq!(try_scan(path, text), Some(found), "not the same twice");
    }
});
