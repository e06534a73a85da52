#!/usr/bin/env bash
# Benchmark devprojex-git against Git on a repository with 100,000 tracked files.
#
#   scripts/bench-git.sh [files] [runs]
#
# Builds the `bench-git` example in release mode, creates the repository in a temp dir (1,000
# folders x 100 files, committed, then 100 modified, 100 staged and 100 untracked files), and
# prints the medians of `tracked_paths` vs `git ls-files -z` and of the `changes` scope vs
# `git status --porcelain`, alternating runs in one process. Target: ratio <= 1.5x.
set -euo pipefail
FILES=${1:-100000}
RUNS=${2:-9}
cd "$(dirname "$0")/.."
cargo build --release -q -p devprojex-git --example bench-git
BIN=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/release/examples/bench-git
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export GIT_CONFIG_NOSYSTEM=1 HOME="$WORK" GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com \
  GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
# BENCH_REPO=/some/dir keeps the generated repository there and reuses it on the next run.
REPO=${BENCH_REPO:-$WORK/repo}
if [ -d "$REPO/.git" ]; then
  echo "reusing $REPO"
else
git init -q -b main "$REPO"
python3 - "$REPO" "$FILES" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
per = 100
for i in range(n):
    d = os.path.join(root, f"pkg{i // per:04d}")
    if i % per == 0:
        os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, f"file{i % per:03d}.rs"), "w") as f:
        f.write(f"// file {i}\npub fn f{i}() -> u32 {{ {i} }}\n")
PY
echo "*.log" > "$REPO/.gitignore"
(cd "$REPO" && git add -A && git commit -qm "bench: $FILES files")
python3 - "$REPO" <<'PY'
import os, sys
root = sys.argv[1]
for i in range(100):
    with open(os.path.join(root, f"pkg{i:04d}", "file000.rs"), "a") as f: f.write("// modified\n")
    with open(os.path.join(root, f"pkg{i:04d}", "file001.rs"), "a") as f: f.write("// staged\n")
    with open(os.path.join(root, f"pkg{i:04d}", "untracked.rs"), "w") as f: f.write("// new\n")
    with open(os.path.join(root, f"pkg{i:04d}", "ignored.log"), "w") as f: f.write("log\n")
PY
(cd "$REPO" && git add pkg*/file001.rs && git status --porcelain >/dev/null)
fi
echo "git $(git --version | cut -d' ' -f3), $(nproc) cores, $(git -C "$REPO" ls-files | wc -l) tracked files"
"$BIN" "$REPO" "$RUNS"
