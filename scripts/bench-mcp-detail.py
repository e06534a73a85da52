#!/usr/bin/env python3
"""Repeated `pack_context` calls at a detail level through one MCP server (issue 8): the first
call parses every file; later calls find unchanged files in the server's transform cache.
Prints each call's wall time and its ratio to a `detail=full` call of the same server.

Usage: scripts/bench-mcp-detail.py BINARY DIR [LEVEL] [CALLS]   (LEVEL: signatures or compact)
BENCH_PACK_ARGS adds pack_context arguments as JSON, e.g. '{"max_tokens": 1000000}' for a project
whose whole pack would exceed the 200 MiB limit of a stored pack (every file is still read,
redacted and transformed for the metrics).
"""
import json
import os
import sys
import time

from mcp_stdio import McpServer


def main() -> int:
    binary, root = sys.argv[1], sys.argv[2]
    level = sys.argv[3] if len(sys.argv) > 3 else "signatures"
    calls = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    server = McpServer(binary, root)

    def timed_pack(detail):
        start = time.perf_counter()
        arguments = {"detail": detail, **json.loads(os.environ.get("BENCH_PACK_ARGS", "{}"))}
        reply = server.call_tool("pack_context", arguments)
        elapsed = time.perf_counter() - start
        result = reply.get("result", {})
        if result.get("isError"):
            raise RuntimeError(f"pack_context failed: {result}")
        return elapsed

    server.initialize()
    timed_pack("full")  # warm the page cache and the walk
    full = min(timed_pack("full") for _ in range(2))
    print(f"detail=full: {full:.2f} s")
    for call in range(1, calls + 1):
        elapsed = timed_pack(level)
        print(f"detail={level} call {call}: {elapsed:.2f} s = {elapsed / full:.1f}x full")
    server.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
