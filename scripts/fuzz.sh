#!/usr/bin/env bash
# Fuzz the parsers that take untrusted input (fuzz/, cargo-fuzz with libFuzzer on nightly).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Installs what is missing (the nightly toolchain, cargo-fuzz into a cache folder), builds every
# target, replays the kept crash inputs (fuzz/regressions/<target>/), then runs each target for
# SECONDS (default 45) on its seed corpus (fuzz/corpus/<target>/), two at a time on two cores.
# Any crash, failed assertion, timeout (10 s per input) or out-of-memory fails the run; the
# crashing input is left in fuzz/target/artifacts/<target>/ and the command to replay it is
# printed. New corpus entries go to fuzz/target/corpus-run/<target>/ (kept between runs on one
# machine, never committed). DEVPROJEX_FUZZ_SEED=N fixes libFuzzer's random seed: from an empty
# fuzz/target/corpus-run/ (a fresh clone) the same build then tries the same inputs in the same
# order, so a run is reproducible and a machine only gets as far as its speed allows.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-45}"
shift || true
case "$seconds" in
'' | *[!0-9]*)
    echo "usage: scripts/fuzz.sh [SECONDS] [TARGET...]" >&2
    exit 2
    ;;
esac

toolchain="${DEVPROJEX_FUZZ_TOOLCHAIN:-nightly}"
cargo_fuzz_version=0.13.2
tools="${DEVPROJEX_FUZZ_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/devprojex/cargo-fuzz-$cargo_fuzz_version}"
jobs="${DEVPROJEX_FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}"
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
[ "$jobs" -le 2 ] || jobs=2

if ! rustup run "$toolchain" rustc --version >/dev/null 2>&1; then
    echo "== installing the $toolchain toolchain (fuzzing only)"
    rustup toolchain install "$toolchain" --profile minimal
fi
if ! "$tools/bin/cargo-fuzz" --version 2>/dev/null | grep -qx "cargo-fuzz $cargo_fuzz_version"; then
    echo "== installing cargo-fuzz $cargo_fuzz_version into $tools"
    cargo install --locked --quiet cargo-fuzz --version "$cargo_fuzz_version" --root "$tools"
fi
export PATH="$tools/bin:$PATH"

# The fuzz crate is its own workspace with its own Cargo.lock; cargo-fuzz has no --locked, so
# check the lock first.
if ! cargo "+$toolchain" metadata --locked --format-version 1 --manifest-path fuzz/Cargo.toml >/dev/null; then
    cat >&2 <<'EOF'
fuzz/Cargo.lock is out of date (a dependency of the workspace changed). Refresh it from the
workspace's lock, so the fuzzers build the versions that ship, and commit it:
    cp Cargo.lock fuzz/Cargo.lock && cargo +nightly metadata --format-version 1 --manifest-path fuzz/Cargo.toml >/dev/null
EOF
    exit 1
fi

mapfile -t all_targets < <(sed -n 's/^name = "\([a-z_]*\)"$/\1/p' fuzz/Cargo.toml | grep -v '^devprojex')
if [ "$#" -gt 0 ]; then
    targets=("$@")
else
    targets=("${all_targets[@]}")
fi

# No sanitizer: the code under test is safe Rust (its crates deny unsafe code), so
# AddressSanitizer would mostly halve the executions; debug assertions and overflow checks stay on.
fuzz=(cargo "+$toolchain" fuzz)
# 16 codegen units: the build of the whole dependency tree takes minutes less on two cores (CI),
# for somewhat slower runs than cargo-fuzz's default of one.
build_flags=(--fuzz-dir fuzz --sanitizer none --codegen-units 16)

echo "== cargo fuzz build (${#targets[@]} targets)"
build_start=$SECONDS
if [ "$#" -gt 0 ]; then
    for target in "${targets[@]}"; do
        "${fuzz[@]}" build "${build_flags[@]}" "$target"
    done
else
    "${fuzz[@]}" build "${build_flags[@]}"
fi
echo "built in $((SECONDS - build_start)) s"

host="$(rustc "+$toolchain" -vV | sed -n 's/^host: //p')"
bin_dir="fuzz/target/$host/release"
work="fuzz/target"
failed=()

echo "== replaying kept crash inputs (fuzz/regressions/)"
for target in "${targets[@]}"; do
    cases=(fuzz/regressions/"$target"/*)
    [ -e "${cases[0]}" ] || continue
    if "$bin_dir/$target" -timeout=10 -rss_limit_mb=2048 "${cases[@]}" >"$work/replay-$target.log" 2>&1; then
        echo "$target: ${#cases[@]} kept inputs pass"
    else
        echo "$target: a kept crash input fails again:" >&2
        tail -n 30 "$work/replay-$target.log" >&2
        failed+=("$target (regression)")
    fi
done

fuzz_one() {
    local target="$1"
    local corpus="$work/corpus-run/$target" artifacts="$work/artifacts/$target/"
    local log="$work/fuzz-$target.log"
    rm -rf "$artifacts"
    mkdir -p "$corpus" "$artifacts"
    local options=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048
        -artifact_prefix="$artifacts" -print_final_stats=1)
    [ -f "fuzz/dict/$target.dict" ] && options+=(-dict="fuzz/dict/$target.dict")
    [ -n "${DEVPROJEX_FUZZ_SEED:-}" ] && options+=(-seed="$DEVPROJEX_FUZZ_SEED")
    if "$bin_dir/$target" "${options[@]}" "$corpus" "fuzz/corpus/$target" >"$log" 2>&1; then
        local runs
        runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
        echo "$target: ${seconds} s, ${runs:-?} inputs, no crash"
    else
        {
            echo "$target: CRASH (log: $log)"
            grep -v '^#' "$log" | tail -n 40
            for artifact in "$artifacts"*; do
                [ -e "$artifact" ] || continue
                echo "replay: $bin_dir/$target $artifact"
                echo "then keep it: cp $artifact fuzz/regressions/$target/"
            done
        } >&2
        return 1
    fi
}

if [ "$seconds" -eq 0 ]; then
    # Deterministic: every seed input once (-runs=0 runs the corpus and nothing more).
    for target in "${targets[@]}"; do
        if ! "$bin_dir/$target" -runs=0 -timeout=10 -rss_limit_mb=2048 "fuzz/corpus/$target" \
            >"$work/seeds-$target.log" 2>&1; then
            echo "$target: a seed input fails:" >&2
            tail -n 30 "$work/seeds-$target.log" >&2
            failed+=("$target (seed corpus)")
        fi
    done
    [ "${#failed[@]}" -eq 0 ] || {
        echo "fuzzing failed: ${failed[*]}" >&2
        exit 1
    }
    echo "fuzz targets built, kept inputs and seed corpora replayed (0 s of fuzzing asked)"
    exit 0
fi

echo "== fuzzing each target for $seconds s, $jobs at a time"
run_start=$SECONDS
for target in "${targets[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
        wait -n || true
    done
    rm -f "$work/status-$target"
    (fuzz_one "$target" && touch "$work/status-$target") &
done
wait
for target in "${targets[@]}"; do
    [ -e "$work/status-$target" ] || failed+=("$target")
done
echo "fuzzed in $((SECONDS - run_start)) s"

if [ "${#failed[@]}" -gt 0 ]; then
    echo "fuzzing failed: ${failed[*]}" >&2
    exit 1
fi
echo "fuzzing: ${#targets[@]} targets, no crash"
