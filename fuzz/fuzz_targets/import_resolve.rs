//! The import resolver of `related_files`: a small project's files and configuration
//! (`Cargo.toml`, `go.mod`, `tsconfig.json`, `package.json`, `composer.json`,
//! `compile_commands.json`) read into a `ProjectView`, and every import of every file resolved.
//!
//! Input: UTF-8 text; a line `== PATH` starts a file, the lines up to the next such line are
//! its text (at most 16 files; paths are project-relative, without `.`, `..` or empty parts).
//!
//! Invariants: nothing panics; resolution stays inside the project: every file target is one of
//! the project's files and every folder target holds one of them (however a `-I` flag, a
//! `paths` mapping, a `#[path]` attribute or a `../` spells it); resolving twice gives the same
//! targets.
#![no_main]

use std::collections::BTreeMap;

use devprojex_symbols::imports::try_scan;
use devprojex_symbols::resolve::{ProjectView, Target, ViewInput, dir_of};
use libfuzzer_sys::fuzz_target;

fn clean(path: &str) -> bool {
    !path.is_empty()
        && path.len() <= 100
        && !path.starts_with('/')
        && !path.contains('\\')
        && path.split('/').all(|part| !matches!(part, "" | "." | ".."))
}

fuzz_target!(|data: &[u8]| {
    let Ok(input) = std::str::from_utf8(data) else {
        return;
    };
    let mut files: BTreeMap<String, String> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in input.split_inclusive('\n') {
        if let Some(path) = line.strip_prefix("== ") {
            let path = path.trim_end_matches(['\n', '\r']);
            current = (clean(path) && files.len() < 16).then(|| path.to_string());
            if let Some(path) = &current {
                files.entry(path.clone()).or_default();
            }
        } else if let Some(path) = &current {
            files.get_mut(path).expect("entered").push_str(line);
        }
    }
    let mut declarations = Vec::new();
    let mut imports = Vec::new();
    for (path, text) in &files {
        if let Some(Ok(facts)) = try_scan(path, text) {
            declarations.push((path.clone(), facts.declares.clone()));
            imports.push((path.clone(), facts.imports));
        }
    }
    let read = |path: &str| files.get(path).cloned();
    let view = ProjectView::new(ViewInput {
        files: files.keys().cloned().collect(),
        declarations,
        read: &read,
        root: Some("/work/project".to_string()),
    });
    for (from, found) in &imports {
        for import in found {
            let targets = view.resolve(from, &import.spec);
            for target in &targets {
                match target {
                    Target::File(path) => {
                        assert!(files.contains_key(path), "{from}: {import:?} -> {path:?}")
                    }
                    Target::Folder(dir) => assert!(
                        files
                            .keys()
                            .any(|f| dir_of(f) == dir || f.starts_with(&format!("{dir}/"))),
                        "{from}: {import:?} -> folder {dir:?}"
                    ),
                }
            }
            assert_eq!(
                view.resolve(from, &import.spec),
                targets,
                "not the same twice"
            );
            let _ = view.include_is_ambiguous(from, &import.spec);
        }
    }
});
