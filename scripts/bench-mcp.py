#!/usr/bin/env python3
"""MCP latency benchmark (issue 5): start `devprojex mcp --root DIR`, send N sequential calls per
tool through the real stdio transport, print p50/p95/p99 per tool and the server's RSS at rest.

Usage: scripts/bench-mcp.py BINARY DIR [CALLS]
DIR should be a large tree (scripts/bench-select.sh generates a 100,000-file one).
BENCH_MCP_ARGS adds server arguments, e.g. BENCH_MCP_ARGS="--git-mode tracked" on a Git checkout
(scripts/bench-git.sh keeps a 100,000-file repository with BENCH_REPO=DIR).
"""
import os
import statistics
import sys
import time

from mcp_stdio import McpServer


def main() -> int:
    binary, root = sys.argv[1], sys.argv[2]
    calls = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    extra = os.environ.get("BENCH_MCP_ARGS", "").split()
    server = McpServer(binary, root, extra)
    server.initialize()

    # A file to read: the first file the tree lists.
    first_file = None
    for dirpath, _dirs, files in os.walk(os.path.join(root, "src")):
        for name in sorted(files):
            if name.endswith(".rs"):
                first_file = os.path.relpath(os.path.join(dirpath, name), root)
                break
        if first_file:
            break
    if first_file is None:
        # any file of the tree, `.git` excluded
        for dirpath, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d != ".git")
            if files:
                first_file = os.path.relpath(os.path.join(dirpath, sorted(files)[0]), root)
                break
    cases = [
        ("list_projects", {}),
        ("get_file", {"path": first_file or "package.json"}),
        ("get_tree", {"format": "markdown"}),
    ]
    rss_kb = None
    try:
        with open(f"/proc/{server.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    rss_kb = int(line.split()[1])
    except OSError:
        pass
    print(f"calls per tool: {calls}; root: {root}")
    if rss_kb is not None:
        print(f"server RSS at rest (after initialize): {rss_kb / 1024:.1f} MB (target < 30 MB)")
    targets = {"list_projects": 5.0, "get_file": 5.0, "get_tree": 300.0}
    for tool, arguments in cases:
        samples = []
        for _ in range(calls):
            start = time.perf_counter()
            reply = server.call_tool(tool, arguments)
            samples.append((time.perf_counter() - start) * 1000)
            if reply.get("result", {}).get("isError"):
                print(f"{tool}: error: {reply['result']['content'][0]['text'][:200]}")
                return 1
        samples.sort()
        q = statistics.quantiles(samples, n=100)
        print(f"{tool:14s} p50 {q[49]:8.2f} ms  p95 {q[94]:8.2f} ms  p99 {q[98]:8.2f} ms  (target median < {targets[tool]:.0f} ms)")
    server.close(timeout=5)
    return 0


if __name__ == "__main__":
    sys.exit(main())
