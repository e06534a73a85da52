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
import subprocess
import sys
import time


def main() -> int:
    binary, root = sys.argv[1], sys.argv[2]
    level = sys.argv[3] if len(sys.argv) > 3 else "signatures"
    calls = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    proc = subprocess.Popen([binary, "mcp", "--root", root], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
    next_id = [0]

    def request(method, params=None):
        next_id[0] += 1
        message = {"jsonrpc": "2.0", "id": next_id[0], "method": method}
        if params is not None:
            message["params"] = params
        proc.stdin.write(json.dumps(message) + "\n")
        proc.stdin.flush()
        while True:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError("server closed stdout")
            reply = json.loads(line)
            if reply.get("id") == next_id[0]:
                return reply

    def timed_pack(detail):
        start = time.perf_counter()
        arguments = {"detail": detail, **json.loads(os.environ.get("BENCH_PACK_ARGS", "{}"))}
        reply = request("tools/call", {"name": "pack_context", "arguments": arguments})
        elapsed = time.perf_counter() - start
        result = reply.get("result", {})
        if result.get("isError"):
            raise RuntimeError(f"pack_context failed: {result}")
        return elapsed

    request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                           "clientInfo": {"name": "bench", "version": "1"}})
    proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
    proc.stdin.flush()
    timed_pack("full")  # warm the page cache and the walk
    full = min(timed_pack("full") for _ in range(2))
    print(f"detail=full: {full:.2f} s")
    for call in range(1, calls + 1):
        elapsed = timed_pack(level)
        print(f"detail={level} call {call}: {elapsed:.2f} s = {elapsed / full:.1f}x full")
    proc.stdin.close()
    proc.wait(timeout=30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
