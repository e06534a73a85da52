//! Prints the definitions devprojex-symbols finds (dev aid and the ctags comparison's input).
//!
//! `--example definitions -- FILE...` prints `path<TAB>line<TAB>kind<TAB>name<TAB>container<TAB>signature`;
//! with no arguments, the file paths are read from stdin, one a line (relative to the current
//! folder), so `git ls-files | ...` works on a whole repository.
use std::io::{BufRead, Write};

fn main() {
    let mut paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        paths = std::io::stdin()
            .lock()
            .lines()
            .map_while(Result::ok)
            .collect();
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for path in paths {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let Some(defs) = devprojex_symbols::definitions(&path, &text) else {
            continue;
        };
        for d in defs {
            let _ = writeln!(
                out,
                "{path}\t{}\t{}\t{}\t{}\t{}",
                d.line,
                d.kind.as_str(),
                d.name,
                d.container.unwrap_or_default(),
                d.signature
            );
        }
    }
}
