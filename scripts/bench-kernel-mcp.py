#!/usr/bin/env python3
"""The MCP rows of scripts/bench-kernel.sh: one server on the corpus, a first (cold) call per
tool, then RUNS timed calls; prints the medians (ms) and whether the result was complete.

Usage: scripts/bench-kernel-mcp.py BINARY CORPUS RUNS ABSENT_LITERAL
"""
import statistics
import sys
import time

from mcp_stdio import McpServer


def text_of(reply):
    result = reply.get("result", {})
    return "\n".join(block.get("text", "") for block in result.get("content", []))


def main() -> int:
    binary, corpus, runs, absent = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    server = McpServer(binary, corpus)
    server.initialize()
    cases = [
        ("search_project", {"pattern": absent}, "Search truncated"),
        ("get_tree", {}, None),
        ("analyze", {}, None),
    ]
    for tool, arguments, incomplete_marker in cases:
        started = time.perf_counter()
        first = server.call_tool(tool, arguments)
        cold_ms = (time.perf_counter() - started) * 1000
        samples = []
        complete = True
        for _ in range(runs):
            started = time.perf_counter()
            reply = server.call_tool(tool, arguments)
            samples.append((time.perf_counter() - started) * 1000)
            if incomplete_marker and incomplete_marker in text_of(reply):
                complete = False
        if first.get("result", {}).get("isError"):
            print(f"  {tool}: error: {text_of(first)[:200]}")
            continue
        note = "" if incomplete_marker is None else ("  complete" if complete else "  TRUNCATED")
        print(f"  {tool:<15} first {cold_ms:8.0f} ms   warm median {statistics.median(samples):8.0f} ms{note}")
    server.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
