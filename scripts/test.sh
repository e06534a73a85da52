#!/usr/bin/env bash
# The project's one test command (README "Testing"); .ci/run calls exactly this.
# Formatting, lints, the whole workspace's tests, then the external checks. Each phase prints
# how long it took, and a summary closes the run.
#
# Dependencies are compiled as few times as the phases allow: clippy does not get a build of its
# own. clippy-driver is the compiler of the workspace's crates (RUSTC_WORKSPACE_WRAPPER, what
# `cargo clippy` itself sets), so one debug build of every target both lints (-D warnings) and
# produces the test binaries; the later `cargo build`/`cargo test` calls find it done. Only the
# fuzz build (nightly, sanitizers) compiles the dependencies again, in its own target folder.
set -euo pipefail
cd "$(dirname "$0")/.."

summary=()
run_started=$SECONDS
phase() {
    local name="$1"
    shift
    echo "== $name"
    local started=$SECONDS
    "$@"
    local took=$((SECONDS - started))
    summary+=("$(printf '%5d s  %s' "$took" "$name")")
    echo "== $name: ${took} s"
}
print_summary() {
    echo "== phase durations"
    printf '%s\n' "${summary[@]}"
    printf '%5d s  total\n' "$((SECONDS - run_started))"
}
trap print_summary EXIT

phase "cargo fmt --check" cargo fmt --all -- --check
# the fuzz targets are their own workspace (nightly builds them), outside --all
phase "cargo fmt --check (fuzz targets)" cargo fmt --manifest-path fuzz/Cargo.toml -- --check

export RUSTC_WORKSPACE_WRAPPER="${RUSTC_WORKSPACE_WRAPPER:-$(rustup which clippy-driver 2>/dev/null || command -v clippy-driver)}"
export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
phase "build and lint every target (clippy-driver, -D warnings)" \
    cargo test --workspace --all-targets --locked --no-run

syntax_checkers() {
    # As root (CI) they must install; elsewhere the test notes what it could not check.
    if node_path="$(scripts/install-test-parsers.sh)"; then
        export NODE_PATH="$node_path" DEVPROJEX_REQUIRE_REAL_PARSERS=1
    elif [ "$(id -u)" = 0 ]; then
        return 1
    else
        echo "warning: syntax checkers not installed; the real-parser test skips what is missing" >&2
    fi
}
# Not in a subshell: the exports reach the tests.
echo "== the languages' own syntax checkers (for devprojex-detail's real-parser test)"
started=$SECONDS
syntax_checkers
summary+=("$(printf '%5d s  %s' "$((SECONDS - started))" "syntax checkers")")

# Property tests draw their cases from a seed fixed by the tree under test: a run can be
# reproduced (the same tree draws the same cases here and in CI), and each change of the code
# draws new ones. A PROPTEST_RNG_SEED set by the caller wins.
if [ -z "${PROPTEST_RNG_SEED:-}" ] && tree="$(git rev-parse 'HEAD^{tree}' 2>/dev/null)"; then
    export PROPTEST_RNG_SEED="$((16#${tree:0:15}))"
    echo "== property tests seeded from the tree: PROPTEST_RNG_SEED=$PROPTEST_RNG_SEED"
fi
phase "cargo test" cargo test --workspace --locked --no-fail-fast
# The binary the tests ran (cargo test builds it with the workspace's features): the checks below
# use it as it is. A `cargo build --bin devprojex` here compiled the workspace's crates again,
# since a build of one package unifies other features than the workspace's tests do.
test -x target/debug/devprojex || { echo "no target/debug/devprojex after cargo test" >&2; exit 1; }

sdk_check() {
    local venv="${DEVPROJEX_CI_VENV:-.venv-ci}"
    if [ ! -x "$venv/bin/python" ]; then
        python3 -m venv "$venv"
    fi
    "$venv/bin/python" -c 'import mcp' 2>/dev/null || "$venv/bin/pip" install --quiet --disable-pip-version-check 'mcp>=1.9,<2'
    "$venv/bin/python" scripts/mcp_sdk_check.py "$(pwd)/target/debug/devprojex"
}
phase "official Python MCP SDK against the built server" sdk_check

# The binary this run just built, never a stale release build left in target/.
phase "distribution checks (packaging, installers, self-update, cargo-dist plan, .deb)" \
    env DEVPROJEX_BIN="$(pwd)/target/debug/devprojex" tests/distribution/run-all.sh

# A fixed seed from an empty corpus (a fresh clone): each run tries the same inputs in the same
# order, so a failure reproduces with the same command; longer or other-seed rounds run on demand
# (scripts/fuzz.sh 300 TARGET), and what they find is fixed and kept under fuzz/regressions/,
# which every run replays. DEVPROJEX_FUZZ_SECONDS=0 only replays the kept inputs and the seeds.
# The fuzz crate is built by nightly with its own flags: the wrappers above are not for it.
phase "fuzzing (scripts/fuzz.sh: build, replay kept crash inputs, 30 s per target)" \
    env -u RUSTC_WORKSPACE_WRAPPER -u CLIPPY_ARGS DEVPROJEX_FUZZ_SEED="${DEVPROJEX_FUZZ_SEED:-1}" \
    scripts/fuzz.sh "${DEVPROJEX_FUZZ_SECONDS:-30}"

# scripts/install-test-clients.sh pins all four; the check registers, lists, starts and removes the
# server through the clients themselves, runs a Claude Code session against a loopback stand-in
# for the model API, and runs `claude mcp add` beside setup (docs/setup.md, "Real clients as judges").
real_clients() {
    local clients_bin
    clients_bin="$(scripts/install-test-clients.sh)"
    python3 scripts/real_clients_check.py "$(pwd)/target/debug/devprojex" "$clients_bin"
}
phase "real MCP clients as judges of setup (Claude Code, Codex, Gemini CLI, Copilot CLI from npm, isolated HOME, offline)" \
    real_clients
