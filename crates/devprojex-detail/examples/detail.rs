//! Prints a file transformed at a detail level: `cargo run -p devprojex-detail --example detail -- FILE [full|compact|signatures]`.
use std::io::Write;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: detail FILE [LEVEL]");
    let level = args.next().unwrap_or_else(|| "signatures".into());
    let detail = devprojex_detail::Detail::parse(&level).expect("level: full|compact|signatures");
    let text = std::fs::read_to_string(&path).expect("readable UTF-8 file");
    // DETAIL_UNVERIFIED=1: without the check of C/C++ outputs for new parse errors.
    let out = if std::env::var_os("DETAIL_UNVERIFIED").is_some() {
        devprojex_detail::testing::transform_unverified(&path, &text, detail).into()
    } else {
        devprojex_detail::transform(&path, &text, detail)
    };
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::stdout().write_all(out.as_bytes());
}
