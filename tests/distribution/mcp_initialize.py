#!/usr/bin/env python3
"""MCP `initialize` round trip over stdio: mcp_initialize.py BINARY [ROOT].

Starts `BINARY mcp --root ROOT`, writes one JSON-RPC initialize request line to its stdin, reads
one line from its stdout (10 s limit) and checks that it answers id 1 with result.serverInfo.
Prints the serverInfo and exits 0 on success, 1 otherwise.
"""
import json
import subprocess
import sys
import tempfile
import threading


def main() -> int:
    if len(sys.argv) < 2:
        print("usage: mcp_initialize.py BINARY [ROOT]", file=sys.stderr)
        return 2
    binary = sys.argv[1]
    root = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="devprojex-mcp-root-")
    request = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "devprojex-distribution-check", "version": "0"},
        },
    }
    try:
        proc = subprocess.Popen(
            [binary, "mcp", "--root", root],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    except OSError as e:
        print(f"cannot start {binary}: {e}", file=sys.stderr)
        return 1
    line = []

    def read_one() -> None:
        line.append(proc.stdout.readline())

    proc.stdin.write((json.dumps(request) + "\n").encode())
    proc.stdin.flush()
    reader = threading.Thread(target=read_one, daemon=True)
    reader.start()
    reader.join(10)
    try:
        proc.stdin.close()
    except OSError:
        pass
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    stderr = proc.stderr.read().decode(errors="replace").strip()
    if not line or not line[0]:
        print(f"no reply to initialize from {binary} (stderr: {stderr[:500]!r})", file=sys.stderr)
        return 1
    try:
        reply = json.loads(line[0])
    except ValueError:
        print(f"reply is not JSON: {line[0][:300]!r}", file=sys.stderr)
        return 1
    info = (reply.get("result") or {}).get("serverInfo") if isinstance(reply, dict) else None
    if reply.get("id") != 1 or not isinstance(info, dict) or not info.get("name"):
        print(f"unexpected initialize reply: {json.dumps(reply)[:500]}", file=sys.stderr)
        return 1
    print(json.dumps(info))
    return 0


if __name__ == "__main__":
    sys.exit(main())
