#!/usr/bin/env bash
# Installs the analysers scripts/compare-references.py compares find_references with, into
# target/analysers (never committed): Jedi 0.20.1 from PyPI (target/analysers/python), the
# npm packages typescript 5.9.3 (its language service is tsserver's engine) and pyright
# 1.1.414 (target/analysers/node), and Debian's golang-go, gopls and clangd. Needs root for apt-get when something is
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
