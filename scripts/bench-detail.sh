#!/usr/bin/env bash
# Detail-level benchmark: tokens kept by compact/signatures per language and transform throughput
# (MB/s per core, measured on one thread by CPU time) over a real multi-language corpus.
#
#   scripts/bench-detail.sh            # cargo registry sources + Python's standard library
#   scripts/bench-detail.sh DIR...     # any directories
#
# DETAIL_BENCH_MAX_FILE=BYTES skips larger files (default 4 MiB). Results: docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo bench -q -p devprojex-detail --bench corpus -- "$@"
