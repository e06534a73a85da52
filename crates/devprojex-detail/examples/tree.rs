//! Prints the syntax tree devprojex-detail sees for a file (dev aid): `--example tree -- FILE`.
fn main() {
    let path = std::env::args().nth(1).expect("usage: tree FILE");
    let text = std::fs::read_to_string(&path).expect("readable UTF-8 file");
    print!(
        "{}",
        devprojex_detail::testing::sexp(&path, &text).unwrap_or_default()
    );
}
