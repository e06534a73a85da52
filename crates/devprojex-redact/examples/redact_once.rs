//! Redact a file `N` times after one warm-up redaction (which compiles the rules and fills the
//! regexes' lazy caches), for instruction counts that do not depend on the machine's load: the
//! difference between the counts of `--times 2` and `--times 1` under valgrind is one warm
//! redaction. `scripts/bench-redact-baseline.py --instructions` runs it for each benchmark input.
//!
//! `cargo run --release -p devprojex-redact --example redact_once -- FILE [--private-data] [--times N]`

use devprojex_redact::{RedactOptions, Redactor};

fn main() {
    let mut path = None;
    let mut private = false;
    let mut times = 1usize;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--private-data" => private = true,
            "--times" => {
                times = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--times takes a number")
            }
            _ => path = Some(arg),
        }
    }
    let path = path.expect("usage: redact_once FILE [--private-data] [--times N]");
    let text = std::fs::read_to_string(&path).expect("a readable UTF-8 file");
    let redactor = Redactor::new(RedactOptions {
        hide_private_data: private,
    });
    std::hint::black_box(redactor.redact(&text));
    let mut findings = 0;
    for _ in 0..times {
        findings = redactor.redact(std::hint::black_box(&text)).findings.len();
    }
    println!("{findings} findings");
}
