//! Golden outputs: each level's result on each file of `tests/corpus/` is an insta snapshot
//! (`tests/detail/snapshots/`, the exact bytes in the `.snap.<ext>` file beside it), so any change
//! in what agents see is a reviewed diff: `INSTA_UPDATE=always cargo test -p devprojex-detail`,
//! then review with `git diff` (or `cargo insta review`).

use devprojex_detail::{Detail, transform};

#[test]
fn corpus_matches_expected_outputs() {
    insta::glob!("..", "corpus/*", |path| {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let extension = path
            .extension()
            .map_or("txt".into(), |e| e.to_string_lossy());
        let text = std::fs::read_to_string(path).unwrap();
        for level in [Detail::Compact, Detail::Signatures] {
            let got = transform(&name, &text, level);
            insta::assert_binary_snapshot!(
                &format!("{level}.{extension}"),
                got.into_owned().into_bytes()
            );
        }
    });
}
