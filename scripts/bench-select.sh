#!/usr/bin/env bash
# Selection benchmark (issue 2): a synthetic 100,000-file tree with nested .gitignore files and a
# node_modules of 20,000 files; prints the time of `devprojex tree --format text` and
# `devprojex analyze` as ratios of the floor `find DIR -type f | xargs cat > /dev/null`, all with
# a warm cache and in one run, plus peak RSS.
# Usage: scripts/bench-select.sh [FILES] [RUNS]   (needs a release build: cargo build --release)
set -euo pipefail
cd "$(dirname "$0")/.."
files=${1:-100000}
runs=${2:-3}
bin=${DEVPROJEX_BIN:-target/release/devprojex}
[ -x "$bin" ] || cargo build --release --locked
dir=${BENCH_DIR:-$(mktemp -d)}/tree
if [ ! -f "$dir/.generated-$files" ]; then
  rm -rf "$dir"
  python3 - "$dir" "$files" <<'PY'
import os, random, sys
root, total = sys.argv[1], int(sys.argv[2])
random.seed(7)
node = total // 5
os.makedirs(root, exist_ok=True)
open(os.path.join(root, "package.json"), "w").write('{"name":"bench"}\n')
open(os.path.join(root, ".gitignore"), "w").write("*.log\nignored/\n")
def write(path, size):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    line = "let value = compute(alpha, beta) + 42; // benchmark line\n"
    with open(path, "w") as f:
        f.write((line * (size // len(line) + 1))[:size])
for i in range(node):
    write(os.path.join(root, "node_modules", f"pkg{i % 400}", f"f{i}.js"), random.choice([200, 800, 3000]))
rest = total - node
for i in range(rest):
    a, b, c = i % 50, (i // 50) % 40, i % 7
    folder = os.path.join(root, "src", f"m{a}", f"d{b}")
    if i % 2000 == 0:
        os.makedirs(folder, exist_ok=True)
        open(os.path.join(folder, ".gitignore"), "w").write("*.tmp\n")
    ext = [".rs", ".py", ".ts", ".md", ".log", ".tmp", ".json"][c]
    write(os.path.join(folder, f"file{i}{ext}"), random.choice([100, 1000, 4000, 16000]))
PY
  touch "$dir/.generated-$files"
fi

measure() { # prints seconds (best of $runs) and peak RSS in KiB of the last run
  local best=999999 rss=0
  for _ in $(seq "$runs"); do
    local out
    local stats
    stats=$(mktemp)
    /usr/bin/time -o "$stats" -f '%e %M' bash -c "$1" >/dev/null 2>&1 || true  # grep and search exit 1 on no match
    out=$(tail -1 "$stats")
    rm -f "$stats"
    local t=${out% *}; rss=${out#* }
    best=$(python3 -c "print(min($best, $t))")
  done
  echo "$best $rss"
}
# Warm the cache.
find "$dir" -type f -print0 | xargs -0 cat >/dev/null
read -r floor _ < <(measure "find '$dir' -type f -print0 | xargs -0 cat > /dev/null")
read -r tree tree_rss < <(measure "'$bin' tree '$dir' --format text")
read -r analyze analyze_rss < <(measure "'$bin' analyze '$dir'")
out=$(mktemp)
read -r pack pack_rss < <(measure "'$bin' pack '$dir' --quiet -o '$out'")
rm -f "$out"
# Search for a literal that occurs nowhere, so both tools read the whole selection, against
# grep -rn over the same files (node_modules and ignored files excluded for grep as well).
read -r search _ < <(measure "'$bin' search no_such_literal_42 '$dir'")
read -r grep_time _ < <(measure "grep -rn --exclude-dir=node_modules --exclude='*.log' --exclude='*.tmp' no_such_literal_42 '$dir'")
python3 - "$floor" "$tree" "$analyze" "$tree_rss" "$analyze_rss" "$files" "$pack" "$pack_rss" "$search" "$grep_time" <<'PY'
import sys
floor, tree, analyze = map(float, sys.argv[1:4])
tree_rss, analyze_rss, files = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
pack, pack_rss, search, grep = float(sys.argv[7]), int(sys.argv[8]), float(sys.argv[9]), float(sys.argv[10])
floor = max(floor, 0.001)
print(f"files: {files}")
print(f"floor (find | xargs cat): {floor:.3f} s")
print(f"devprojex tree --format text: {tree:.3f} s  ratio {tree/floor:.2f}x (target <= 0.5)  peak RSS {tree_rss/1024:.1f} MB")
print(f"devprojex analyze:            {analyze:.3f} s  ratio {analyze/floor:.2f}x (target <= 1.5)  peak RSS {analyze_rss/1024:.1f} MB (target < 150)")
print(f"devprojex pack (markdown):    {pack:.3f} s  ratio {pack/floor:.2f}x (target <= 2.0)  peak RSS {pack_rss/1024:.1f} MB (target < 300)")
print(f"devprojex search (absent literal): {search:.3f} s vs grep -rn {grep:.3f} s: ratio {search/max(grep, 0.001):.2f}x (target <= 3)")
PY
