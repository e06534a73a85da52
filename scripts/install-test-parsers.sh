#!/usr/bin/env bash
# Installs the languages' own syntax checkers that devprojex-detail's real-parser test runs on
# its corpus outputs (crates/devprojex-detail/tests/real_parsers.rs): gofmt, ruby, php, luac5.4,
# java, node, gcc/g++ and Mono's mcs from Debian's packages, and the `typescript` npm package
# (5.9.3) under target/test-parsers/node. Prints the NODE_PATH to export. Needs root for apt-get
# (Debian) when something is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# command -> Debian package that provides it
declare -A package_for=(
    [gofmt]=golang-go [ruby]=ruby [php]=php-cli [luac5.4]=lua5.4
    [java]=default-jdk-headless [node]=nodejs [npm]=npm [gcc]=gcc [g++]=g++ [mcs]=mono-mcs
)
missing=()
for command in "${!package_for[@]}"; do
    command -v "$command" >/dev/null 2>&1 || missing+=("${package_for[$command]}")
done
scripts/install-debian-packages.sh install-test-parsers "${missing[@]}"

node_dir="$(pwd)/target/test-parsers/node"
if ! NODE_PATH="$node_dir/node_modules" node -e 'require("typescript")' 2>/dev/null; then
    echo "install-test-parsers: installing typescript@5.9.3 into $node_dir" >&2
    mkdir -p "$node_dir"
    npm install --prefix "$node_dir" --no-audit --no-fund --silent typescript@5.9.3 >&2
fi
echo "$node_dir/node_modules"
