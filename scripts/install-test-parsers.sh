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
if [ "${#missing[@]}" -gt 0 ]; then
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        echo "install-test-parsers: needs root and apt-get to install: ${missing[*]}" >&2
        exit 1
    fi
    echo "install-test-parsers: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q "${missing[@]}" >/dev/null ||
        { apt-get update -q >/dev/null && apt-get install -y -q "${missing[@]}" >/dev/null; }
fi

node_dir="$(pwd)/target/test-parsers/node"
if ! NODE_PATH="$node_dir/node_modules" node -e 'require("typescript")' 2>/dev/null; then
    echo "install-test-parsers: installing typescript@5.9.3 into $node_dir" >&2
    mkdir -p "$node_dir"
    npm install --prefix "$node_dir" --no-audit --no-fund --silent typescript@5.9.3 >&2
fi
echo "$node_dir/node_modules"
