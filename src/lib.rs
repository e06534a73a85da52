//! devprojex: read-only project inspection and context packing for coding agents.
//!
//! The library is the engine shared by the CLI (`cli`) and the MCP server (`mcp`); see
//! `ARCHITECTURE.md` for the pipeline and where to change what.
#![deny(unsafe_code)]

pub mod args;
pub mod caches;
pub mod cli;
pub mod content;
pub mod coverage;
pub mod engine;
pub mod error;
pub mod facts;
pub mod gitstate;
pub mod grep;
pub mod limits;
pub mod mcp;
pub mod ordered;
pub mod prefilter;
pub mod profile;
pub mod project;
pub mod relevance;
pub mod render;
pub mod select;
pub mod symbols;
pub mod tokens;
pub mod update_hint;

#[cfg(test)]
mod tests {
    /// `ARCHITECTURE.md`'s code map has a row for every file of `src/`.
    #[test]
    fn the_code_map_names_every_module() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let map = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
        let mut pending = vec![root.join("src")];
        let mut missing = Vec::new();
        while let Some(dir) = pending.pop() {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    pending.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let relative = path
                        .strip_prefix(root)
                        .unwrap()
                        .to_string_lossy()
                        .replace('\\', "/");
                    if !map.contains(&format!("`{relative}`")) {
                        missing.push(relative);
                    }
                }
            }
        }
        missing.sort();
        assert!(
            missing.is_empty(),
            "ARCHITECTURE.md has no row for {missing:?}"
        );
    }
}
