#!/usr/bin/env bash
# The project's one test command (README "Testing"); .ci/run calls exactly this.
# Formatting, lints, the whole workspace's tests, then the external MCP client check.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings

echo "== the languages' own syntax checkers (for devprojex-detail's real-parser test)"
# As root (CI) they must install; elsewhere the test notes what it could not check.
if node_path="$(scripts/install-test-parsers.sh)"; then
    export NODE_PATH="$node_path" DEVPROJEX_REQUIRE_REAL_PARSERS=1
elif [ "$(id -u)" = 0 ]; then
    exit 1
else
    echo "warning: syntax checkers not installed; the real-parser test skips what is missing" >&2
fi

echo "== cargo test"
cargo test --workspace --locked --no-fail-fast

echo "== official Python MCP SDK against the built server"
venv="${DEVPROJEX_CI_VENV:-.venv-ci}"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -c 'import mcp' 2>/dev/null || "$venv/bin/pip" install --quiet --disable-pip-version-check 'mcp>=1.9,<2'
cargo build --locked --bin devprojex
"$venv/bin/python" scripts/mcp_sdk_check.py "$(pwd)/target/debug/devprojex"

echo "== distribution checks (packaging, installers, self-update, cargo-dist plan, .deb)"
# The binary this run just built, never a stale release build left in target/.
DEVPROJEX_BIN="$(pwd)/target/debug/devprojex" tests/distribution/run-all.sh

echo "== fuzzing (scripts/fuzz.sh: build, replay kept crash inputs, 30 s per target)"
# A fixed seed from an empty corpus (a fresh clone): each run tries the same inputs in the same
# order, so a failure reproduces with the same command; longer or other-seed rounds run on demand
# (scripts/fuzz.sh 300 TARGET), and what they find is fixed and kept under fuzz/regressions/,
# which every run replays. DEVPROJEX_FUZZ_SECONDS=0 only replays the kept inputs and the seeds.
DEVPROJEX_FUZZ_SEED="${DEVPROJEX_FUZZ_SEED:-1}" scripts/fuzz.sh "${DEVPROJEX_FUZZ_SECONDS:-30}"

echo "== real MCP clients as judges of setup (Claude Code, Codex, Gemini CLI, Copilot CLI from npm, isolated HOME, offline)"
# scripts/install-test-clients.sh pins all four; the check registers, lists, starts and removes the
# server through the clients themselves, runs a Claude Code session against a loopback stand-in
# for the model API, and runs `claude mcp add` beside setup (docs/setup.md, "Real clients as judges").
clients_bin="$(scripts/install-test-clients.sh)"
cargo build --locked --bin devprojex
python3 scripts/real_clients_check.py "$(pwd)/target/debug/devprojex" "$clients_bin"
