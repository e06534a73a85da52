//! Measures parse-only vs full-transform time over files given on the command line (dev aid).
use std::time::Instant;
fn cpu() -> f64 {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    s.split_whitespace()
        .next()
        .and_then(|v| v.parse::<f64>().ok())
        .unwrap_or(0.0)
        / 1e9
}
fn main() {
    let files: Vec<(String, String)> = std::env::args()
        .skip(1)
        .filter_map(|p| std::fs::read_to_string(&p).ok().map(|t| (p, t)))
        .collect();
    let bytes: usize = files.iter().map(|f| f.1.len()).sum();
    for _ in 0..2 {
        let (t, c) = (Instant::now(), cpu());
        for (p, text) in &files {
            let _ = devprojex_detail::testing::parse_only(p, text);
        }
        let parse = cpu() - c;
        let wall = t.elapsed().as_secs_f64();
        println!("wall parse {:.1} MB/s", bytes as f64 / 1e6 / wall);
        let c = cpu();
        for (p, text) in &files {
            let _ = devprojex_detail::transform(p, text, devprojex_detail::Detail::Signatures);
        }
        let all = cpu() - c;
        println!(
            "{:.2} MB: parse {:.1} MB/s, signatures {:.1} MB/s",
            bytes as f64 / 1e6,
            bytes as f64 / 1e6 / parse,
            bytes as f64 / 1e6 / all
        );
    }
}
