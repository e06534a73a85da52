#!/usr/bin/env python3
"""Pack-store benchmark (issue 6): `pack_context` of a large selection through the real stdio
transport against `devprojex pack` to a file for the same selection, the server's peak RSS
meanwhile, and `read_pack` latency for 1,000-line ranges spread over the stored pack.

Usage: scripts/bench-pack-store.py BINARY DIR [GLOB]
"""
import random
import re
import subprocess
import sys
import tempfile
import time

from mcp_stdio import McpServer


def main() -> int:
    binary, root = sys.argv[1], sys.argv[2]
    glob = sys.argv[3] if len(sys.argv) > 3 else "src/**"
    with tempfile.NamedTemporaryFile(suffix=".md") as out:
        start = time.perf_counter()
        subprocess.run([binary, "pack", root, "--include-patterns", glob, "--quiet", "-o", out.name], check=True)
        cli = time.perf_counter() - start
    server = McpServer(binary, root)
    server.initialize()
    start = time.perf_counter()
    reply = server.call_tool("pack_context", {"include_patterns": [glob]})
    mcp = time.perf_counter() - start
    text = reply["result"]["content"][0]["text"]
    match = re.match(r"Pack stored as '([^']+)' \((\d+) characters\)", text)
    if not match:
        print("the pack was not stored; use a larger selection")
        return 1
    pack_id, characters = match.group(1), int(match.group(2))
    lines = int(re.search(r"(\d+) lines", text).group(1))
    peak_kb = 0
    with open(f"/proc/{server.pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                peak_kb = int(line.split()[1])
    samples = []
    random.seed(1)
    for _ in range(50):
        first = random.randint(1, max(1, lines - 1000))
        start = time.perf_counter()
        server.call_tool("read_pack", {"pack_id": pack_id, "start_line": first, "end_line": first + 999})
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    server.close(timeout=5)
    print(f"selection {glob!r}: stored pack of {characters / 1e6:.1f} M characters, {lines} lines")
    print(f"devprojex pack -o FILE: {cli:.2f} s; pack_context (stored): {mcp:.2f} s; ratio {mcp / cli:.2f}x (target <= 1.2)")
    print(f"server peak RSS: {peak_kb / 1024:.1f} MB (target < 300 MB)")
    print(f"read_pack of 1,000-line ranges: p50 {samples[24]:.2f} ms, max {samples[-1]:.2f} ms (target < 20 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
