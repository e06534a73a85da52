//! Prints a file transformed at a detail level: `cargo run -p devprojex-detail --example detail -- FILE [full|compact|signatures]`.
fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: detail FILE [LEVEL]");
    let level = args.next().unwrap_or_else(|| "signatures".into());
    let detail = devprojex_detail::Detail::parse(&level).expect("level: full|compact|signatures");
    let text = std::fs::read_to_string(&path).expect("readable UTF-8 file");
    print!("{}", devprojex_detail::transform(&path, &text, detail));
}
