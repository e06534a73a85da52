//! Golden outputs: `tests/expected/<corpus file>.<level>` is the reviewed result of each level on
//! each corpus file, so any change in what agents see is a visible diff.
//! Regenerate with `DETAIL_BLESS=1 cargo test -p devprojex-detail --test golden` and review.

use std::path::Path;

use devprojex_detail::{Detail, transform};

#[test]
fn corpus_matches_expected_outputs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let bless = std::env::var_os("DETAIL_BLESS").is_some();
    let mut names: Vec<_> = std::fs::read_dir(root.join("corpus"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut mismatches = Vec::new();
    for name in names {
        let text = std::fs::read_to_string(root.join("corpus").join(&name)).unwrap();
        for level in [Detail::Compact, Detail::Signatures] {
            let got = transform(&name, &text, level);
            let file = root.join("expected").join(format!("{name}.{level}"));
            if bless {
                std::fs::create_dir_all(file.parent().unwrap()).unwrap();
                std::fs::write(&file, got.as_bytes()).unwrap();
                continue;
            }
            let want = std::fs::read_to_string(&file).unwrap_or_default();
            if got != want {
                mismatches.push(format!("{}\n--- got\n{got}", file.display()));
            }
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
