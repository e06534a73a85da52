#!/usr/bin/env bash
# Type-checks and lints the macOS build on Linux: `cargo clippy --target x86_64-apple-darwin
# --workspace --all-targets -- -D warnings`, so the macOS-only code (`cfg(target_os = "macos")`,
# the Unix code as it compiles there, the tests) is compiled, not only read. Nothing is linked
# or run: that needs a Mac (the GitHub Actions job on macos-latest). Not part of CI.
#
# usage: scripts/check-macos.sh [CARGO-CLIPPY-ARGS...]
#
# The build scripts of ring and the tree-sitter grammars compile C, which for Apple's targets
# needs the macOS SDK's headers. `cargo clippy` never links that C, so here it is compiled for
# Linux (Apple-only flags dropped) by a wrapper this script writes. Installs clang (Debian) and
# the target (rustup) when missing; needs root for apt-get.
set -euo pipefail
cd "$(dirname "$0")/.."

target=x86_64-apple-darwin
command -v clang >/dev/null 2>&1 || scripts/install-debian-packages.sh check-macos clang llvm
rustup target list --installed | grep -qx "$target" || rustup target add "$target" >&2

target_dir="${CARGO_TARGET_DIR:-$(pwd)/target}"
tools="$target_dir/check-macos"
mkdir -p "$tools/sdk/usr/include"
cat >"$tools/cc" <<'EOF'
#!/usr/bin/env bash
# C of build scripts for the macOS check, compiled for Linux: never linked.
args=()
skip=0
for arg in "$@"; do
    if [ "$skip" = 1 ]; then skip=0; continue; fi
    case "$arg" in
        -arch | -isysroot | -target) skip=1 ;;
        -mmacosx-version-min=* | -mmacos-version-min=* | --target=*) ;;
        *) args+=("$arg") ;;
    esac
done
exec clang -Wno-everything "${args[@]}"
EOF
chmod +x "$tools/cc"
ar=$(command -v llvm-ar || command -v ar)

env_target=${target//-/_}
export "CC_$env_target=$tools/cc" "CXX_$env_target=$tools/cc" "AR_$env_target=$ar"
# an empty SDK, so cc-rs does not look for xcrun
export SDKROOT="$tools/sdk" MACOSX_DEPLOYMENT_TARGET=11.0
if [ "$#" -eq 0 ]; then
    set -- --workspace --all-targets -- -D warnings
fi
cargo clippy --locked --target "$target" "$@"
