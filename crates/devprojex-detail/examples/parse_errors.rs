//! Prints the ERROR and MISSING nodes of each file's parse with their line (dev aid):
//! `--example parse_errors -- [--summary] FILE...`. `--summary` prints per file the errors that
//! count (not macro idioms) and their bytes.
fn main() {
    let mut summary = false;
    for path in std::env::args().skip(1) {
        if path == "--summary" {
            summary = true;
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Some(errors) = devprojex_detail::testing::parse_errors(&path, &text) else {
            continue;
        };
        if summary {
            let counted: Vec<_> = errors.iter().filter(|e| e.0 != "idiom").collect();
            let bytes: usize = counted.iter().map(|e| e.1.len()).sum();
            println!("{}\t{}\t{}", counted.len(), bytes, path);
            continue;
        }
        for group in devprojex_detail::testing::flattened_groups(&path, &text) {
            let line = text[..group.start].matches('\n').count() + 1;
            let lines = text[group.clone()].matches('\n').count() + 1;
            println!("{path}:{line}: flattened conditional group ({lines} lines)");
        }
        for (kind, range, parent) in errors {
            let line = text[..range.start].matches('\n').count() + 1;
            let line_start = text[..range.start].rfind('\n').map_or(0, |i| i + 1);
            let line_end = text[range.start..]
                .find('\n')
                .map_or(text.len(), |i| range.start + i);
            let inner: String = text[range.clone()].chars().take(40).collect();
            println!(
                "{path}:{line}: {kind} in {parent} ({} bytes) [{}]: {}",
                range.len(),
                inner.replace('\n', " "),
                text[line_start..line_end].trim()
            );
        }
    }
}
