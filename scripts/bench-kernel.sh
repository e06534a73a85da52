#!/usr/bin/env bash
# Speed at kernel scale (docs/benchmarks.md, "Kernel"). Every row in one invocation: each
# command is interleaved with its baseline (ripgrep, `git ls-files | xargs cat`), RUNS times each (warm
# cache: one untimed run of everything first), and the medians and ratios are printed.
#
#   scripts/bench-kernel.sh [CORPUS] [RUNS]
#
# CORPUS defaults to /tmp/kernel-corpus (made by scripts/make-kernel-corpus.sh if missing).
# DEVPROJEX_BIN picks the binary (default: target/release/devprojex, built if missing).
set -euo pipefail
cd "$(dirname "$0")/.."

corpus="${1:-/tmp/kernel-corpus}"
runs="${2:-5}"
[ -d "$corpus/.git" ] || scripts/make-kernel-corpus.sh "$corpus"
if ! command -v rg >/dev/null; then
    echo "== installing ripgrep (Debian)" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q ripgrep >&2
fi
bin="${DEVPROJEX_BIN:-$(pwd)/target/release/devprojex}"
[ -x "$bin" ] || cargo build --release --locked >&2
out="$(mktemp -d "${TMPDIR:-/tmp}/bench-kernel.XXXXXX")"
trap 'rm -rf "$out"' EXIT

absent="no_such_identifier_anywhere_42"
# name|command|baseline name|baseline command
rows=(
    "devprojex search ABSENT .|$bin search $absent . >/dev/null 2>&1|rg -n ABSENT .|rg -n $absent . >/dev/null"
    "devprojex tree . --format text|$bin tree . --format text >/dev/null 2>&1|rg --files .|rg --files . >/dev/null"
    "devprojex pack . -o FILE|$bin pack . --quiet -o $out/pack.md 2>/dev/null|git ls-files, xargs cat > FILE|git ls-files -z | xargs -0 cat > $out/cat.txt 2>/dev/null"
    "devprojex analyze .|$bin analyze . >/dev/null 2>&1|devprojex scan .|$bin scan . >/dev/null 2>&1 || true"
)

# Seconds of one run of `$1` (in the corpus).
timed() {
    local start end
    start=$(date +%s.%N)
    (cd "$corpus" && eval "$1") || true
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.4f\n", b - a }'
}

median() { sort -g | awk '{a[NR]=$1} END {if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

echo "corpus: $corpus ($(git -C "$corpus" ls-files | wc -l) tracked files); binary: $bin; $runs runs each; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf '%-34s %9s   %-26s %9s   %s\n' "what" "median" "baseline" "median" "ratio"
for row in "${rows[@]}"; do
    IFS='|' read -r name command base_name base_command <<<"$row"
    timed "$command" >/dev/null
    timed "$base_command" >/dev/null
    mine=() theirs=()
    for _ in $(seq "$runs"); do
        mine+=("$(timed "$command")")
        theirs+=("$(timed "$base_command")")
    done
    m=$(printf '%s\n' "${mine[@]}" | median)
    b=$(printf '%s\n' "${theirs[@]}" | median)
    printf '%-34s %8.3fs   %-26s %8.3fs   %.2fx\n' "$name" "$m" "$base_name" "$b" "$(awk -v a="$m" -v b="$b" 'BEGIN { print a / b }')"
done

# Peak memory of one pack.
rss=$( { cd "$corpus" && /usr/bin/time -f '%M' "$bin" pack . --quiet -o "$out/pack.md"; } 2>&1 | tail -n 1)
echo
echo "devprojex pack . -o FILE peak RSS: $((rss / 1024)) MB"
echo
echo "MCP server, warm (second call onwards), median of $runs calls:"
python3 scripts/bench-kernel-mcp.py "$bin" "$corpus" "$runs" "$absent"
