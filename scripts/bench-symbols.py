#!/usr/bin/env python3
"""find_symbol, find_references and related_files on a large tree (the kernel corpus), cold and
warm.

    cargo build --release --locked
    scripts/bench-symbols.py [--binary target/release/devprojex] [--runs 3] \
        [--name copy_process] [--path kernel/fork.c] /work/kernel

Each cold figure is a fresh `devprojex mcp --root DIR` (its first tool call: nothing indexed,
nothing cached in the process; the page cache is warm, as it is for the baselines). Warm
figures repeat the call on the same server. Baselines run in the same invocation:
`grep -rlw NAME` over the C sources (what a lookup without an index must at least read) and
`cat` of the same files. CPU is the server's user+system time for the call (both cores);
wall time moves with the load of a shared machine, CPU much less.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mcp_stdio import McpServer  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def timed_call(server, tool, arguments):
    cpu = cpu_seconds(server.pid)
    started = time.perf_counter()
    reply = server.call_tool(tool, arguments)
    wall = time.perf_counter() - started
    result = reply.get("result", {})
    if result.get("isError"):
        raise SystemExit(f"{tool} failed: {result}")
    return wall, cpu_seconds(server.pid) - cpu, result["content"][0]["text"]


def shell_seconds(command, cwd):
    started = time.perf_counter()
    subprocess.run(command, shell=True, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def describe(label, walls, cpus=None, baseline=None):
    best = min(walls)
    line = f"{label:<58} wall {best:7.3f} s (median {statistics.median(walls):.3f})"
    if cpus:
        line += f"  cpu {min(cpus):6.3f} s"
    if baseline:
        line += f"  {best / baseline:5.2f}x grep"
    print(line, flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "devprojex"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--name", default="copy_process")
    parser.add_argument("--path", default="kernel/fork.c")
    parser.add_argument("root")
    args = parser.parse_args()
    root = os.path.realpath(args.root)
    print(f"load average {os.getloadavg()[0]:.1f}; {args.runs} runs each", flush=True)

    sources = "find . -path ./.git -prune -o -type f \\( -name '*.c' -o -name '*.h' \\) -print0"
    grep = [shell_seconds(f"{sources} | xargs -0 grep -lw {args.name}", root) for _ in range(args.runs)]
    cat = [shell_seconds(f"{sources} | xargs -0 cat > /dev/null", root) for _ in range(args.runs)]
    base = min(grep)
    describe(f"baseline: grep -lw {args.name} (C sources)", grep)
    describe("floor: cat (C sources)", cat, baseline=base)

    walls, cpus, text = [], [], ""
    for _ in range(args.runs):
        server = McpServer(args.binary, root)
        server.initialize()
        wall, cpu, text = timed_call(server, "find_symbol", {"name": args.name})
        walls.append(wall)
        cpus.append(cpu)
        server.close()
    describe(f"find_symbol {args.name}, cold server", walls, cpus, base)
    print("  " + " | ".join(line for line in text.splitlines() if ": function " in line or ": method " in line)[:300])

    walls, cpus = [], []
    for _ in range(args.runs):
        server = McpServer(args.binary, root)
        server.initialize()
        wall, cpu, text = timed_call(server, "find_references", {"name": args.name})
        walls.append(wall)
        cpus.append(cpu)
        server.close()
    describe(f"find_references {args.name}, cold server", walls, cpus, base)
    print("  " + (text.splitlines()[0] if text else "")[:300])

    cold, cold_cpu, warm, warm_cpu = [], [], [], []
    imports_cold, text = [], ""
    for _ in range(args.runs):
        server = McpServer(args.binary, root)
        server.initialize()
        wall, cpu, text = timed_call(server, "related_files", {"path": args.path, "direction": "importers"})
        cold.append(wall)
        cold_cpu.append(cpu)
        for _ in range(5):
            wall, cpu, _ = timed_call(server, "related_files", {"path": args.path, "direction": "importers"})
            warm.append(wall)
            warm_cpu.append(cpu)
        server.close()
        server = McpServer(args.binary, root)
        server.initialize()
        wall, _, _ = timed_call(server, "related_files", {"path": args.path, "direction": "imports"})
        imports_cold.append(wall)
        server.close()
    describe(f"related_files {args.path} importers depth 1, cold server", cold, cold_cpu, base)
    describe(f"related_files {args.path} importers depth 1, warm", warm, warm_cpu)
    describe(f"related_files {args.path} imports depth 1, cold server", imports_cold, None, base)
    print("  " + text.splitlines()[2] if len(text.splitlines()) > 2 else text[:200])

    server = McpServer(args.binary, root)
    server.initialize()
    timed_call(server, "related_files", {"path": args.path, "direction": "importers"})
    header = os.path.join("include", "linux", "sched.h")
    if os.path.exists(os.path.join(root, header)):
        walls = [timed_call(server, "related_files", {"path": header, "direction": "importers",
                                                      "max_results": 200})[0] for _ in range(3)]
        describe(f"related_files {header} importers (200 of them), warm", walls)
    server.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
