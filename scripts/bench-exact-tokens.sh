#!/usr/bin/env bash
# Exact token counting (`--tokenizer`): speed on a real corpus, the MCP server's count cache,
# and the estimate-versus-exact difference per language (docs/benchmarks.md, docs/pack-format.md).
#
#   cargo build --release --locked && scripts/bench-exact-tokens.sh [DIR] [RUNS]
#
# DIR defaults to the cargo registry sources (~/.cargo/registry/src), RUNS to 3. It prints:
#   - `analyze` without and with each tokenizer: wall time, CPU time and peak RSS (best of RUNS;
#     the machine is shared, so CPU time is what the counting costs), and the counting speed:
#     text bytes / (CPU with - CPU without), i.e. MB/s per core, and bytes / wall on all cores;
#   - the MCP server with --tokenizer o200k: the first analyze and a repeated one, against the
#     same two calls without --tokenizer (the repeat should cost hashing only);
#   - per extension (at least 20 files): estimated tokens, exact o200k and cl100k tokens, and the
#     estimate's error against each.
set -euo pipefail
cd "$(dirname "$0")/.."

dir="${1:-${CARGO_HOME:-$HOME/.cargo}/registry/src}"
runs="${2:-3}"
bin="$(pwd)/target/release/devprojex"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
[ -x "$bin" ] || { echo "build first: cargo build --release --locked" >&2; exit 1; }

echo "== corpus: $dir ($(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg))"
best() { # NAME ARGS...: best of $runs by wall time; prints "wall cpu rss"
    local name="$1"; shift
    local best_line=""
    for _ in $(seq "$runs"); do
        /usr/bin/time -f "%e %U %S %M" -o "$out/time" "$bin" analyze "$dir" --format json "$@" > "$out/$name.json" 2> /dev/null
        read -r wall user sys rss < "$out/time"
        line="$wall $(echo "$user + $sys" | bc) $rss"
        if [ -z "$best_line" ] || [ "$(echo "$wall < ${best_line%% *}" | bc)" = 1 ]; then
            best_line="$line"
        fi
    done
    echo "$best_line"
}
read -r wall0 cpu0 rss0 <<< "$(best estimate)"
bytes=$(python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); print(a["bytes"])' "$out/estimate.json")
text_files=$(python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); print(a["textFiles"])' "$out/estimate.json")
echo "selection: $bytes bytes, $text_files text files"
printf '%-22s %8s %8s %9s %14s %16s\n' "analyze" "wall s" "CPU s" "RSS MB" "MB/s (wall)" "count MB/s/core"
printf '%-22s %8s %8s %9s %14.1f %16s\n' "estimate only" "$wall0" "$cpu0" "$((rss0 / 1024))" "$(echo "$bytes / $wall0 / 1000000" | bc -l)" "-"
for enc in o200k cl100k; do
    read -r wall cpu rss <<< "$(best "$enc" --tokenizer "$enc")"
    printf '%-22s %8s %8s %9s %14.1f %16.1f\n' "--tokenizer $enc" "$wall" "$cpu" "$((rss / 1024))" \
        "$(echo "$bytes / $wall / 1000000" | bc -l)" "$(echo "$bytes / ($cpu - $cpu0) / 1000000" | bc -l)"
done

echo "== MCP server: analyze twice (the second from the count cache)"
python3 - "$bin" "$dir" <<'EOF'
import os, sys, time
sys.path.insert(0, os.path.join(os.getcwd(), "scripts"))
from mcp_stdio import McpServer

def cpu_of(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

binary, root = sys.argv[1], sys.argv[2]
for label, extra in (("without --tokenizer", []), ("--tokenizer o200k", ["--tokenizer", "o200k"])):
    server = McpServer(binary, root, extra)
    server.initialize()
    figures = []
    for _ in range(2):
        wall, cpu = time.perf_counter(), cpu_of(server.pid)
        reply = server.call_tool("analyze", {})
        assert not reply["result"].get("isError"), reply
        figures.append((time.perf_counter() - wall, cpu_of(server.pid) - cpu))
        exact = reply["result"]["structuredContent"].get("exactTokens")
    server.close()
    print(f"{label:22} first {figures[0][0]:6.2f} s wall {figures[0][1]:6.2f} s CPU; repeated {figures[1][0]:6.2f} s wall {figures[1][1]:6.2f} s CPU; exactTokens {exact}")
EOF

echo "== estimate versus exact, per extension (at least 20 files)"
python3 - "$out/o200k.json" "$out/cl100k.json" <<'EOF'
import json, sys
o200k, cl100k = (json.load(open(p)) for p in sys.argv[1:3])
cl = {e["extension"]: e for e in cl100k["extensions"]}
print(f"{'extension':12} {'files':>7} {'estimate':>12} {'o200k':>12} {'cl100k':>12} {'est/o200k':>10} {'est/cl100k':>11}")
rows = [e for e in o200k["extensions"] if e["files"] >= 20]
rows.append({"extension": "(all)", "files": o200k["textFiles"], "tokens": o200k["tokens"], "exactTokens": o200k["exactTokens"]})
cl["(all)"] = {"exactTokens": cl100k["exactTokens"]}
for e in rows:
    c = cl[e["extension"]]["exactTokens"]
    print(f"{e['extension']:12} {e['files']:>7} {e['tokens']:>12} {e['exactTokens']:>12} {c:>12} "
          f"{e['tokens'] / max(e['exactTokens'], 1):>10.2f} {e['tokens'] / max(c, 1):>11.2f}")
EOF
