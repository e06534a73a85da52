"""A minimal MCP client over stdio for the benchmark scripts: start `devprojex mcp`, send
requests, wait for the reply with the same id (notifications in between are skipped)."""
import json
import subprocess


class McpServer:
    def __init__(self, binary, root, extra_args=()):
        self.proc = subprocess.Popen([binary, "mcp", "--root", root, *extra_args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.pid = self.proc.pid
        self._next_id = 0

    def request(self, method, params=None):
        self._next_id += 1
        message = {"jsonrpc": "2.0", "id": self._next_id, "method": method}
        if params is not None:
            message["params"] = params
        self._send(message)
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("server closed stdout")
            reply = json.loads(line)
            if reply.get("id") == self._next_id:
                return reply

    def initialize(self):
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "bench", "version": "1"}})
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def call_tool(self, name, arguments):
        return self.request("tools/call", {"name": name, "arguments": arguments})

    def close(self, timeout=30):
        self.proc.stdin.close()
        self.proc.wait(timeout=timeout)

    def _send(self, message):
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()
