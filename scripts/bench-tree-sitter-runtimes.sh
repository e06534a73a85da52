#!/usr/bin/env bash
# How fast tree-sitter itself parses, per runtime version and C compiler flags: the floor under
# every detail transform. Builds one throwaway crate per variant outside the repository, then
# runs them in turns over the same files (parse only, one thread, CPU time), so a loaded host
# shifts every variant alike. Results: docs/benchmarks.md ("Detail levels").
#
#   scripts/bench-tree-sitter-runtimes.sh FILE_LIST [ROUNDS]
#
# FILE_LIST holds one path per line (.rs, .py or .java). Variants: VERSIONS (default
# "0.25.10 0.26.13 0.27.1") with the release profile's C flags, plus the project's version
# (0.26.13) with CFLAGS="-O2" and with CFLAGS="-O3 -march=native" (the latter only shows the
# headroom of this CPU; a release binary cannot assume it).
set -euo pipefail
list=$(realpath "${1:?usage: $0 FILE_LIST [ROUNDS]}")
rounds=${2:-3}
versions=${VERSIONS:-0.25.10 0.26.13 0.27.1}
work=$(mktemp -d /tmp/dpx-ts-runtimes.XXXXXX)
trap 'rm -rf "$work"' EXIT

make_crate() { # name tree-sitter-version
    mkdir -p "$work/$1/src"
    cat >"$work/$1/Cargo.toml" <<EOF
[package]
name = "$1"
version = "0.1.0"
edition = "2021"
[dependencies]
tree-sitter = "=$2"
tree-sitter-rust = "=0.24.2"
tree-sitter-python = "=0.25.0"
tree-sitter-java = "=0.23.5"
[profile.release]
lto = "thin"
codegen-units = 4
EOF
    cat >"$work/$1/src/main.rs" <<'EOF'
fn thread_cpu_seconds() -> f64 {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    s.split_whitespace().next().and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0) / 1e9
}
fn main() {
    let list = std::env::args().nth(1).expect("file list");
    let files: Vec<(String, String)> = std::fs::read_to_string(list)
        .expect("readable file list")
        .lines()
        .filter_map(|p| std::fs::read_to_string(p).ok().map(|t| (p.to_string(), t)))
        .collect();
    let bytes: usize = files.iter().map(|f| f.1.len()).sum();
    let mut parser = tree_sitter::Parser::new();
    let mut best = 0f64;
    for _ in 0..2 {
        let start = thread_cpu_seconds();
        for (path, text) in &files {
            let language: tree_sitter::Language = if path.ends_with(".rs") {
                tree_sitter_rust::LANGUAGE.into()
            } else if path.ends_with(".py") {
                tree_sitter_python::LANGUAGE.into()
            } else {
                tree_sitter_java::LANGUAGE.into()
            };
            parser.set_language(&language).expect("compatible grammar");
            // The tree is dropped here: freeing it is part of what a transform pays.
            drop(parser.parse(text, None).expect("a tree"));
        }
        let rate = bytes as f64 / 1e6 / (thread_cpu_seconds() - start);
        best = best.max(rate);
    }
    println!("{:.1} MB, {} files: {best:.2} MB/s per core", bytes as f64 / 1e6, files.len());
}
EOF
}

variants=()
for v in $versions; do
    name="ts_${v//./_}"
    make_crate "$name" "$v"
    (cd "$work/$name" && CARGO_TARGET_DIR="$work/target" cargo build -q --release)
    variants+=("$name:$work/target/release/$name")
done
for flags in "-O2" "-O3 -march=native"; do
    name="ts_0_26_13_${flags//[^a-zA-Z0-9]/_}"
    make_crate "$name" 0.26.13
    (cd "$work/$name" && CFLAGS="$flags" CARGO_TARGET_DIR="$work/target-$name" cargo build -q --release)
    variants+=("0.26.13 CFLAGS='$flags':$work/target-$name/release/$name")
done

for round in $(seq "$rounds"); do
    for variant in "${variants[@]}"; do
        printf 'round %s  %-36s %s\n' "$round" "${variant%%:*}" "$("${variant#*:}" "$list")"
    done
done
