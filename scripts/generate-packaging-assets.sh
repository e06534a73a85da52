#!/bin/sh
# Regenerate the shell completions and the man page shipped in the release archives, the .deb
# and the Homebrew formula, from the CLI definition of a built devprojex binary:
#
#   scripts/generate-packaging-assets.sh [BINARY]     (default: target/release, else target/debug)
#
# They are committed, so a CLI change shows up as a reviewed diff and local `dist build` /
# cargo-deb runs have them; the release workflow regenerates them before every build
# (.github/workflows/dist-build-setup.steps). tests/distribution/check-packaging.sh reports stale
# copies (and fails on them with DEVPROJEX_STRICT_ASSETS=1).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-}
if [ -z "$bin" ]; then
    for candidate in "$root/target/release/devprojex" "$root/target/debug/devprojex" \
        "$root/target/release/devprojex.exe" "$root/target/debug/devprojex.exe"; do
        if [ -x "$candidate" ]; then bin=$candidate; break; fi
    done
fi
[ -n "$bin" ] && [ -x "$bin" ] || { echo "no devprojex binary: run 'cargo build' or pass its path" >&2; exit 1; }
out=${PACKAGING_ASSETS_OUT:-$root/packaging}
mkdir -p "$out/completions" "$out/man"
"$bin" completion bash >"$out/completions/devprojex.bash"
"$bin" completion zsh >"$out/completions/_devprojex"
"$bin" completion fish >"$out/completions/devprojex.fish"
"$bin" completion powershell >"$out/completions/_devprojex.ps1"
"$bin" man >"$out/man/devprojex.1"
echo "generated completions and man page in $out from $bin"
