#!/usr/bin/env bash
# Detail levels on real C and C++: the Linux kernel and libstdc++'s headers, next to
# `repomix --compress` (npm repomix@1.18.1) on the same folders.
#
#   scripts/bench-detail-c.sh [KERNEL_DIR]
#
# KERNEL_DIR is the kernel corpus (default $KERNEL_CORPUS, else /tmp/kernel-corpus), made by
# scripts/make-kernel-corpus.sh when missing. libstdc++'s headers are the newest
# /usr/include/c++/<ver>; when there is none, Debian's newest libstdc++-<ver>-dev is installed
# (needs root). repomix is installed with npm under target/bench-detail-c/ (never committed).
#
# 1. Tokens kept (ceil(chars / 4) per file, as devprojex estimates them) by compact and
#    signatures, files declined for parse errors and files over the 2 MiB transform cap, per
#    folder: `cargo bench --bench corpus` (one thread; MB/s per core by CPU time).
# 2. The whole kernel as devprojex counts a project: `devprojex analyze --detail LEVEL`.
# 3. kernel/ and libstdc++'s bits/: wall and CPU time of `devprojex pack --detail signatures`
#    against `repomix --compress`, and each tool's reduced output against its own full output.
#
# BENCH_DETAIL_C_SKIP_WHOLE=1 skips the whole kernel (steps 1 and 2: about 20 minutes of CPU).
# BENCH_DETAIL_C_ROUNDS=N (default 5): step 3 runs the two tools alternately N times each and
# reports the medians, so that one run slowed by other work on the machine does not decide.
# Results: docs/benchmarks.md, "C and C++: the Linux kernel and libstdc++".
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

kernel="${1:-${KERNEL_CORPUS:-/tmp/kernel-corpus}}"
if [ ! -d "$kernel/kernel" ]; then
    scripts/make-kernel-corpus.sh "$kernel"
fi

newest_libstdcxx() {
    ls -d /usr/include/c++/*/bits 2>/dev/null | sed 's|/bits$||' | sort -V | tail -n 1
}
libstdcxx="$(newest_libstdcxx)"
if [ -z "$libstdcxx" ]; then
    package="$(apt-cache search --names-only '^libstdc\+\+-[0-9]+-dev$' | cut -d' ' -f1 | sort -V | tail -n 1)"
    if [ -z "$package" ] || [ "$(id -u)" != 0 ]; then
        echo "bench-detail-c: no /usr/include/c++/<ver>; install libstdc++-<ver>-dev (as root)" >&2
        exit 1
    fi
    echo "== apt-get install $package" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$package" >/dev/null
    libstdcxx="$(newest_libstdcxx)"
fi

for command in node npm; do
    if ! command -v "$command" >/dev/null 2>&1; then
        echo "bench-detail-c: $command is needed for repomix (Debian: nodejs, npm)" >&2
        exit 1
    fi
done
work="$root/target/bench-detail-c"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/devprojex-bench-detail-c.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
repomix="$work/repomix/node_modules/.bin/repomix"
if [ ! -x "$repomix" ] || [ "$("$repomix" --version)" != "1.18.1" ]; then
    echo "== npm install repomix@1.18.1 into $work/repomix" >&2
    mkdir -p "$work/repomix"
    npm install --prefix "$work/repomix" --no-audit --no-fund --silent repomix@1.18.1 >&2
fi

echo "== cargo build --release (devprojex, the corpus bench)" >&2
cargo build -q --release --locked --bin devprojex
cargo bench -q --locked -p devprojex-detail --bench corpus --no-run 2>/dev/null
devprojex="${CARGO_TARGET_DIR:-$root/target}/release/devprojex"

echo "kernel corpus: $kernel ($(git -C "$kernel" rev-parse --short HEAD 2>/dev/null || echo 'not a git repository'))"
echo "libstdc++ headers: $libstdcxx"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

# Every file counts, however large: the ones over the transform cap count whole.
export DETAIL_BENCH_MAX_FILE=4000000000
rounds="${BENCH_DETAIL_C_ROUNDS:-5}"
bench() {
    echo
    echo "## tokens kept: $*"
    cargo bench -q --locked -p devprojex-detail --bench corpus -- "$@"
}
bench "$kernel/kernel"
bench "$libstdcxx/bits"
bench "$libstdcxx"
if [ -z "${BENCH_DETAIL_C_SKIP_WHOLE:-}" ]; then
    bench "$kernel"
    echo
    echo "## the whole kernel as devprojex counts a project (every text file)"
    for level in full compact signatures; do
        /usr/bin/time -f "$level: %e s wall, %U s user, %S s system" \
            "$devprojex" analyze "$kernel" --detail "$level" --format json \
            >"$work/analyze-$level.json"
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[2] + ": " + json.dumps({k: v for k, v in d.items() if isinstance(v, (int, float))}))' \
            "$work/analyze-$level.json" "$level"
    done
fi

# Output size in tokens, estimated as devprojex does: ceil(chars / 4).
tokens() {
    python3 -c 'import sys; print(-(-len(open(sys.argv[1], encoding="utf-8", errors="replace").read()) // 4))' "$1"
}
# "<wall> <cpu>" seconds of a command (CPU: user + system, children included).
timed() {
    local log="$work/time.log"
    /usr/bin/time -f "%e %U %S" -o "$log" "$@" >/dev/null 2>"$work/stderr.log" ||
        { cat "$work/stderr.log" >&2; return 1; }
    awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }' "$log"
}
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { python3 -c 'import sys; print(f"{float(sys.argv[1]) / float(sys.argv[2]):.2f}")' "$1" "$2"; }
share() { python3 -c 'import sys; print(f"{100 * int(sys.argv[1]) / int(sys.argv[2]):.0f}%")' "$1" "$2"; }

compare() {
    local name="$1" dir="$2"
    # A copy outside any git repository, so both tools see the same files (repomix reads the
    # enclosing repository's ignore rules otherwise, and this checkout ignores target/).
    local copy="$scratch/$name"
    rm -rf "$copy"
    cp -r "$dir" "$copy"
    echo
    echo "## $name ($dir): devprojex pack against repomix, $rounds rounds interleaved"
    local d_walls=() d_cpus=() r_walls=() r_cpus=() round d_wall d_cpu r_wall r_cpu
    for round in $(seq "$rounds"); do
        read -r d_wall d_cpu < <(timed "$devprojex" pack "$copy" --detail signatures --quiet -o "$work/$name-dx-signatures.md")
        read -r r_wall r_cpu < <(cd "$copy" && timed "$repomix" --compress --quiet -o "$work/$name-rx-compress.xml" .)
        echo "round $round: devprojex $d_wall s wall, $d_cpu s CPU; repomix $r_wall s wall, $r_cpu s CPU"
        d_walls+=("$d_wall") d_cpus+=("$d_cpu") r_walls+=("$r_wall") r_cpus+=("$r_cpu")
    done
    d_wall="$(median "${d_walls[@]}")" d_cpu="$(median "${d_cpus[@]}")"
    r_wall="$(median "${r_walls[@]}")" r_cpu="$(median "${r_cpus[@]}")"
    timed "$devprojex" pack "$copy" --detail full --quiet -o "$work/$name-dx-full.md" >/dev/null
    (cd "$copy" && timed "$repomix" --quiet -o "$work/$name-rx-full.xml" . >/dev/null)
    local dx_full dx_sig rx_full rx_comp
    dx_full="$(tokens "$work/$name-dx-full.md")"
    dx_sig="$(tokens "$work/$name-dx-signatures.md")"
    rx_full="$(tokens "$work/$name-rx-full.xml")"
    rx_comp="$(tokens "$work/$name-rx-compress.xml")"
    echo "| tool | command | wall (median) | CPU (median) | output tokens | of its full output |"
    echo "|---|---|---:|---:|---:|---:|"
    echo "| devprojex | pack --detail signatures | $d_wall s | $d_cpu s | $dx_sig | $(share "$dx_sig" "$dx_full") |"
    echo "| repomix 1.18.1 | --compress | $r_wall s | $r_cpu s | $rx_comp | $(share "$rx_comp" "$rx_full") |"
    echo "devprojex is $(ratio "$r_wall" "$d_wall")x faster by wall time, $(ratio "$r_cpu" "$d_cpu")x by CPU time (medians)"
}
compare kernel "$kernel/kernel"
compare libstdcxx-bits "$libstdcxx/bits"
