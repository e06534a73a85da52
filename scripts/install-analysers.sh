#!/usr/bin/env bash
# Installs the analysers scripts/compare-references.py compares find_references with, into
# target/analysers (never committed): Jedi 0.20.1 from PyPI (target/analysers/python), the
# npm packages typescript 5.9.3 (its language service is tsserver's engine) and pyright
# 1.1.414 (target/analysers/node), Debian's golang-go, gopls and clangd, and rust-analyzer built
# from crates.io (target/analysers/rust-analyzer/bin). Needs root for apt-get when something is
# missing.
set -euo pipefail
cd "$(dirname "$0")/.."

declare -A package_for=([go]=golang-go [gopls]=gopls [clangd]=clangd [node]=nodejs [npm]=npm)
missing=()
for command in "${!package_for[@]}"; do
    command -v "$command" >/dev/null 2>&1 || missing+=("${package_for[$command]}")
done
scripts/install-debian-packages.sh install-analysers "${missing[@]}"

base="$(pwd)/target/analysers"
if ! PYTHONPATH="$base/python" python3 -c 'import jedi' 2>/dev/null; then
    echo "install-analysers: installing jedi==0.20.1 into $base/python" >&2
    python3 -m pip install --quiet --target "$base/python" jedi==0.20.1 >&2
fi
if ! NODE_PATH="$base/node/node_modules" node -e 'require("typescript"); require("pyright/package.json")' 2>/dev/null; then
    echo "install-analysers: installing typescript@5.9.3 and pyright@1.1.414 into $base/node" >&2
    mkdir -p "$base/node"
    npm install --prefix "$base/node" --no-audit --no-fund --silent typescript@5.9.3 pyright@1.1.414 >&2
fi

# rust-analyzer: not in Debian, and rustup cannot fetch it here, but its binary's crate is on
# crates.io as ra_ap_rust-analyzer. 0.0.348 is the newest that builds on stable Rust 1.95
# (0.0.349 says rust-version 1.95 but uses the unstable `assert_matches`). Built once, at
# opt-level 1 (a shorter build than the release profile's 3, and fast enough for a few hundred
# queries), in a throw-away target folder of which only the binary is kept.
rust_analyzer="$base/rust-analyzer/bin/rust-analyzer"
if [[ ! -x "$rust_analyzer" ]]; then
    echo "install-analysers: building rust-analyzer (ra_ap_rust-analyzer 0.0.348) into $base/rust-analyzer" >&2
    build="$(mktemp -d)"
    trap 'rm -rf "$build"' EXIT
    CARGO_TARGET_DIR="$build/target" CARGO_INCREMENTAL=0 CARGO_PROFILE_RELEASE_OPT_LEVEL=1 \
        CARGO_PROFILE_RELEASE_DEBUG=0 CARGO_PROFILE_RELEASE_LTO=off CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
        nice cargo install --locked --quiet ra_ap_rust-analyzer --version 0.0.348 --root "$build/root" >&2
    mkdir -p "$base/rust-analyzer/bin"
    cp "$build/root/bin/rust-analyzer" "$rust_analyzer"
fi
