#!/usr/bin/env python3
"""Talk to `devprojex mcp` with the official Python MCP SDK (PyPI package `mcp`).

Usage: python scripts/mcp_sdk_check.py /path/to/devprojex

Creates a fixture project in a temporary directory (large enough that pack_context stores
its pack), starts `devprojex mcp --root <dir>` over stdio, initializes, lists the tools
(checking their order) and calls each of the nine tools once, plus two error cases.
The last line printed is `N passed, N failed`; the exit code is non-zero on any failure.
Works with the SDK's v1 (camelCase) and v2 (snake_case) result models.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import traceback

EXPECTED_ORDER = [
    "list_projects",
    "get_tree",
    "analyze",
    "pack_context",
    "read_pack",
    "search_project",
    "get_file",
    "find_symbol",
    "related_files",
    "find_references",
]
TIMEOUT_SECONDS = 120

passed = 0
failed = 0


def check(name: str, condition: bool, detail: str = "") -> bool:
    global passed, failed
    if condition:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name}{': ' + detail if detail else ''}")
    return condition


def field(obj, snake: str, camel: str, default=None):
    """Read a model field under its v2 (snake_case) or v1 (camelCase) name."""
    if hasattr(obj, snake):
        return getattr(obj, snake)
    return getattr(obj, camel, default)


def first_text(result) -> str:
    for block in result.content or []:
        text = getattr(block, "text", None)
        if text is not None:
            return text
    return ""


def make_fixture(base: str) -> str:
    root = os.path.join(base, "proj")
    os.makedirs(os.path.join(root, "src"))
    os.makedirs(os.path.join(root, "data"))
    with open(os.path.join(root, "src", "main.rs"), "w") as f:
        f.write('mod util;\n\nfn main() {\n    println!("hello");\n}\n')
    with open(os.path.join(root, "src", "util.rs"), "w") as f:
        f.write('pub fn helper() -> u32 {\n    7\n}\n')
    with open(os.path.join(root, "README.md"), "w") as f:
        f.write("# Demo\nA fixture for the MCP SDK check.\n")
    # About 80,000 characters of content: the pack is stored, not inline.
    for i in range(120):
        with open(os.path.join(root, "data", f"file_{i:03}.txt"), "w") as f:
            f.write((f"row {i} " * 90) + "\n")
    return os.path.realpath(root)


async def run(binary: str, root: str, pack_dir: str) -> None:
    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(
        command=binary,
        args=["mcp", "--root", root],
        env={"DEVPROJEX_PACK_DIR": pack_dir},
    )
    with anyio.fail_after(TIMEOUT_SECONDS):
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                server_info = field(init, "server_info", "serverInfo")
                check("initialize: server name", getattr(server_info, "name", None) == "devprojex",
                      repr(server_info))

                listed = await session.list_tools()
                names = [tool.name for tool in listed.tools]
                check("tools/list: stable order", names == EXPECTED_ORDER, repr(names))
                for tool in listed.tools:
                    annotations = tool.annotations
                    read_only = field(annotations, "read_only_hint", "readOnlyHint") if annotations else None
                    check(f"tools/list: {tool.name} read-only", read_only is True, repr(annotations))
                    has_schema = field(tool, "output_schema", "outputSchema") is not None
                    check(f"tools/list: {tool.name} outputSchema",
                          has_schema == (tool.name in ("list_projects", "analyze")))

                async def call(name: str, arguments: dict, expect_error: bool = False, **kwargs):
                    result = await session.call_tool(name, arguments, **kwargs)
                    is_error = bool(field(result, "is_error", "isError", False))
                    check(f"{name}: isError {str(expect_error).lower()}", is_error == expect_error,
                          first_text(result)[:300])
                    return result

                result = await call("list_projects", {})
                structured = field(result, "structured_content", "structuredContent")
                projects = (structured or {}).get("projects") or []
                check("list_projects: the root is listed",
                      any(p.get("path") == root for p in projects), repr(structured))

                result = await call("get_tree", {"format": "text"})
                text = first_text(result)
                check("get_tree: lists files", "main.rs" in text and "file_119.txt" in text, text[:300])
                check("get_tree: spotlighted",
                      re.search(r"<untrusted-data-[0-9a-f]{24}>", text) is not None)

                result = await call("analyze", {"top_files": 3})
                structured = field(result, "structured_content", "structuredContent") or {}
                check("analyze: file count", structured.get("files") == 123, repr(structured)[:300])
                check("analyze: top files", len(structured.get("largestFiles") or []) == 3)

                progress: list[float] = []

                async def on_progress(value, total, message):
                    progress.append(value)

                result = await call("pack_context", {}, progress_callback=on_progress)
                text = first_text(result)
                match = re.match(r"Pack stored as '([^']+)' \((\d+) characters\)\. Call read_pack", text)
                check("pack_context: pack stored", match is not None, text[:200])
                check("pack_context: response within 50,000 characters",
                      sum(len(getattr(b, "text", "")) for b in result.content) <= 50_000)
                check("pack_context: progress reported and monotonic",
                      len(progress) >= 1 and all(b > a for a, b in zip(progress, progress[1:])),
                      repr(progress))
                if match:
                    result = await call("read_pack", {"pack_id": match.group(1), "start_line": 1,
                                                      "end_line": 10})
                    text = first_text(result)
                    check("read_pack: first lines", "# Project context: proj" in text, text[:300])
                    check("read_pack: range trailer", "[Showing lines 1-10 of " in text, text[-200:])
                else:
                    check("read_pack: skipped because the pack was inline", False)

                result = await call("search_project", {"pattern": "println", "context_lines": 0})
                check("search_project: grep-style match", "src/main.rs:4:" in first_text(result),
                      first_text(result)[:300])

                result = await call("get_file", {"path": "README.md", "start_line": 1, "end_line": 1})
                text = first_text(result)
                check("get_file: content", "# Demo" in text and "fixture for" not in text, text[:300])
                check("get_file: trailer", "[Showing lines 1-1 of 2." in text, text[-200:])

                result = await call("find_symbol", {"name": "helper"})
                text = first_text(result)
                check("find_symbol: definition with kind and line",
                      "src/util.rs:1: function helper" in text, text[:300])
                check("find_symbol: spotlighted",
                      re.search(r"<untrusted-data-[0-9a-f]{24}>", text) is not None)

                result = await call("related_files", {"path": "src/util.rs"})
                text = first_text(result)
                check("related_files: importer with its import line",
                      "src/main.rs:1: mod util;" in text, text[:300])

                result = await call("get_file", {"path": "../outside.txt"}, expect_error=True)
                check("get_file: root violation code",
                      first_text(result).startswith("DPX-MCP-ROOT-VIOLATION"), first_text(result))

                try:
                    await session.call_tool("no_such_tool", {})
                    check("unknown tool: protocol error", False, "no error raised")
                except Exception as err:  # McpError in v1 and v2
                    check("unknown tool: protocol error", True, repr(err))


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: python scripts/mcp_sdk_check.py /path/to/devprojex", file=sys.stderr)
        print("0 passed, 1 failed")
        return 2
    binary = os.path.abspath(sys.argv[1])
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        print(f"not an executable: {binary}", file=sys.stderr)
        print("0 passed, 1 failed")
        return 2
    try:
        import anyio
        import mcp  # noqa: F401
    except ImportError as err:
        print(f"the Python MCP SDK is not installed (pip install mcp): {err}", file=sys.stderr)
        print("0 passed, 1 failed")
        return 2

    global failed
    with tempfile.TemporaryDirectory(prefix="dpx-sdk-") as base:
        root = make_fixture(base)
        pack_dir = os.path.join(base, "packs")
        try:
            anyio.run(run, binary, root, pack_dir)
        except BaseException as err:  # timeouts, transport failures, exception groups
            traceback.print_exception(err)
            check("session completed", False, repr(err))
        else:
            check("session completed", True)
        sessions = os.listdir(pack_dir) if os.path.isdir(pack_dir) else []
        check("pack session directory removed after the client closed", sessions == [], repr(sessions))

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
