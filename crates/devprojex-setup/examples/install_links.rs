//! Prints the VS Code and Cursor install links (`crates/devprojex-setup/src/links.rs`), or with
//! `--write` puts them into README.md and docs/setup.md between the install-links markers.
//! Run through `scripts/generate-install-links.sh`.

use std::path::Path;
use std::process::ExitCode;

use devprojex_setup::links::{markdown_block, replace_block};

fn main() -> ExitCode {
    let block = markdown_block("devprojex");
    if std::env::args().nth(1).as_deref() != Some("--write") {
        println!("{block}");
        return ExitCode::SUCCESS;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for file in ["README.md", "docs/setup.md"] {
        let path = root.join(file);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{file}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let Some(new) = replace_block(&text, &block) else {
            eprintln!("{file}: no install-links markers");
            return ExitCode::FAILURE;
        };
        if new != text {
            if let Err(e) = std::fs::write(&path, new) {
                eprintln!("{file}: {e}");
                return ExitCode::FAILURE;
            }
            println!("updated {file}");
        }
    }
    ExitCode::SUCCESS
}
