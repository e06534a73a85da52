#!/usr/bin/env python3
"""The real MCP clients as judges of `devprojex setup` (issue 26, "Real clients in CI").

    scripts/real_clients_check.py DEVPROJEX_BINARY CLIENTS_BIN_DIR

CLIENTS_BIN_DIR holds `claude` (@anthropic-ai/claude-code) and `codex` (@openai/codex), as
scripts/install-test-clients.sh installs them. Everything runs offline, without a login, in an
isolated HOME (a temporary folder) with the binary "installed" as ~/.local/bin/devprojex:

1. `devprojex setup` registers the server for Claude Code and Codex;
   `claude mcp list` shows it ✔ Connected; Codex's app-server starts it
   (`mcpServerStatus/list`), and in a thread opened in the project it serves that project
   (`list_projects` through `mcpServer/tool/call`).
2. The reverse: `setup --remove`, and neither client lists it any more.
3. `claude mcp add` (local scope) and `codex mcp add`, then `setup status` and `doctor` see both
   entries, `setup --remove` removes them, and neither client lists it any more.

Exits 0 when every check passes; prints each check, and the failing command's output.
"""

import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time

TIMEOUT = 120


def fail(message, output=""):
    print(f"FAIL: {message}")
    if output:
        print(output.rstrip())
    sys.exit(1)


def ok(message):
    print(f"ok: {message}")


class Env:
    def __init__(self, binary, clients_bin):
        self.tmp = tempfile.mkdtemp(prefix="devprojex-real-clients-")
        self.home = os.path.join(self.tmp, "home")
        self.project = os.path.join(self.home, "src", "app")
        local_bin = os.path.join(self.home, ".local", "bin")
        os.makedirs(local_bin)
        os.makedirs(self.project)
        self.devprojex = os.path.join(local_bin, "devprojex")
        shutil.copy2(binary, self.devprojex)
        with open(os.path.join(self.project, "README.md"), "w") as f:
            f.write("# app\n")
        subprocess.run(["git", "init", "-q", self.project], check=True)
        self.env = {
            "HOME": self.home,
            "PATH": os.pathsep.join([clients_bin, local_bin, "/usr/local/bin", "/usr/bin", "/bin"]),
            "LANG": "C.UTF-8",
            "TERM": "dumb",
            # No network, no prompts, nothing outside HOME.
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_ERROR_REPORTING": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DEVPROJEX_NO_UPDATE_HINT": "1",
            "TMPDIR": os.path.join(self.tmp, "tmp"),
        }
        os.makedirs(self.env["TMPDIR"])

    def run(self, *argv, check=True):
        proc = subprocess.run(
            list(argv),
            cwd=self.project,
            env=self.env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        out = proc.stdout + proc.stderr
        if check and proc.returncode != 0:
            fail(f"`{' '.join(argv)}` exited {proc.returncode}", out)
        return proc.returncode, out

    def cleanup(self):
        shutil.rmtree(self.tmp, ignore_errors=True)


class AppServer:
    """`codex app-server` over stdio (JSON-RPC lines)."""

    def __init__(self, env):
        self.proc = subprocess.Popen(
            ["codex", "app-server"],
            cwd=env.project,
            env=env.env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self.lines = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, daemon=True).start()
        self.next_id = 1
        self.request("initialize", {"clientInfo": {"name": "devprojex-ci", "version": "0"}})
        self.notify("initialized")

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line)

    def send(self, message):
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def notify(self, method, params=None):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def next_message(self, deadline):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            fail("codex app-server did not answer in time", "\n".join(self.seen[-20:]))
        try:
            line = self.lines.get(timeout=remaining)
        except queue.Empty:
            fail("codex app-server did not answer in time", "\n".join(self.seen[-20:]))
        self.seen.append(line.rstrip()[:2000])
        return json.loads(line)

    def request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        deadline = time.monotonic() + TIMEOUT
        while True:
            message = self.next_message(deadline)
            if message.get("id") == rid and ("result" in message or "error" in message):
                if "error" in message:
                    fail(f"codex app-server {method}: {message['error']}")
                return message["result"]

    def wait_notification(self, predicate):
        deadline = time.monotonic() + TIMEOUT
        while True:
            message = self.next_message(deadline)
            if "id" not in message and predicate(message):
                return message

    def close(self):
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()


def servers_in_status(app):
    result = app.request("mcpServerStatus/list", {"detail": "toolsAndAuthOnly"})
    return {entry["name"]: entry for entry in result.get("data", [])}


def claude_lists(env):
    _, out = env.run("claude", "mcp", "list", check=False)
    return out


def check_registered_by_setup(env):
    code, out = env.run(env.devprojex, "setup", "--yes", "--client", "claude-code", "--client", "codex")
    ok("devprojex setup registered the server for Claude Code and Codex")
    with open(os.path.join(env.home, ".claude.json")) as f:
        entry = json.load(f)["mcpServers"]["devprojex"]
    if entry.get("type") != "stdio" or entry.get("args") != ["mcp"]:
        fail(f"unexpected Claude Code entry: {entry}")

    out = claude_lists(env)
    line = next((l for l in out.splitlines() if l.startswith("devprojex:")), None)
    if not line or "✔ Connected" not in line:
        fail("`claude mcp list` does not show devprojex ✔ Connected", out)
    ok(f"claude mcp list: {line.strip()}")

    app = AppServer(env)
    try:
        status = servers_in_status(app)
        entry = status.get("devprojex")
        if not entry or (entry.get("serverInfo") or {}).get("name") != "devprojex":
            fail("codex app-server mcpServerStatus/list did not start devprojex", json.dumps(status)[:3000])
        if "list_projects" not in (entry.get("tools") or {}):
            fail("codex app-server lists devprojex without its tools", json.dumps(entry)[:3000])
        ok("codex app-server mcpServerStatus/list started devprojex with its tools")

        thread = app.request("thread/start", {"cwd": env.project, "ephemeral": True})["thread"]["id"]
        app.wait_notification(
            lambda m: m.get("method") == "mcpServer/startupStatus/updated"
            and m["params"].get("name") == "devprojex"
            and m["params"].get("status") in ("ready", "failed")
        )
        result = app.request(
            "mcpServer/tool/call",
            {"threadId": thread, "server": "devprojex", "tool": "list_projects", "arguments": {}},
        )
        text = json.dumps(result)
        real_project = os.path.realpath(env.project)
        if real_project not in text:
            fail("devprojex in a Codex thread does not serve the thread's project", text[:3000])
        ok("codex app-server: in a thread opened in the project, devprojex serves that project")
    finally:
        app.close()


def check_not_listed(env, why):
    out = claude_lists(env)
    if any(l.startswith("devprojex:") for l in out.splitlines()):
        fail(f"{why}: `claude mcp list` still lists devprojex", out)
    _, out = env.run("codex", "mcp", "list", check=False)
    if any(l.split()[:1] == ["devprojex"] for l in out.splitlines()):
        fail(f"{why}: `codex mcp list` still lists devprojex", out)
    app = AppServer(env)
    try:
        if "devprojex" in servers_in_status(app):
            fail(f"{why}: codex app-server still starts devprojex")
    finally:
        app.close()
    ok(f"{why}: neither client lists devprojex")


def check_reverse(env):
    env.run(env.devprojex, "setup", "--yes", "--remove", "--client", "claude-code", "--client", "codex")
    check_not_listed(env, "after setup --remove")

    env.run("claude", "mcp", "add", "devprojex", "--", env.devprojex, "mcp")
    env.run("codex", "mcp", "add", "devprojex", "--", env.devprojex, "mcp")
    with open(os.path.join(env.home, ".claude.json")) as f:
        projects = json.load(f).get("projects", {})
    if not any("devprojex" in (p.get("mcpServers") or {}) for p in projects.values()):
        fail("claude mcp add did not write local scope", json.dumps(projects)[:2000])
    ok("claude mcp add (local scope) and codex mcp add registered devprojex")

    _, out = env.run(env.devprojex, "setup", "status", "--client", "claude-code", "--client", "codex")
    if "local scope of" not in out or out.count("present, current") < 2:
        fail("setup status does not see both entries as current", out)
    ok("setup status sees Claude Code's local entry and Codex's entry")

    code, out = env.run(env.devprojex, "doctor", check=False)
    if code != 0 or "local scope of" not in out or "OpenAI Codex: entry present" not in out:
        fail("doctor does not pass with both entries", out)
    ok("doctor passes and sees both entries")

    _, out = env.run(env.devprojex, "setup", "--yes", "--remove", "--client", "claude-code", "--client", "codex")
    if out.count("entry removed") < 2:
        fail("setup --remove did not remove both entries", out)
    check_not_listed(env, "after claude/codex mcp add and setup --remove")


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    binary, clients_bin = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    env = Env(binary, clients_bin)
    try:
        _, version = env.run("claude", "--version")
        _, codex_version = env.run("codex", "--version")
        print(f"judges: Claude Code {version.split()[0]}, {codex_version.strip().splitlines()[-1]}")
        check_registered_by_setup(env)
        check_reverse(env)
    finally:
        env.cleanup()
    print("real clients: all checks passed")


if __name__ == "__main__":
    main()
