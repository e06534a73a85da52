#!/usr/bin/env python3
"""What devprojex costs an agent per session and per small answer (issue 40).

Usage: scripts/bench-agent-io.py [BINARY]      (default target/debug/devprojex)

Tokenizer: OpenAI's tiktoken from PyPI (tiktoken==0.14.0), encoding o200k_base, in a venv of its
own ($BENCH_VENV, default /tmp/bench-agent-io/venv; created on first run). tiktoken downloads its
vocabulary at run time, which this machine cannot; the script rebuilds the official
o200k_base.tiktoken file from the copy compiled into the Rust `tiktoken` crate (cargo registry)
and puts it in TIKTOKEN_CACHE_DIR under the name of tiktoken's download cache. tiktoken checks
the SHA-256 pinned in its own source before using a cached file, so the counts are the official
vocabulary's or the run fails.

It starts `BINARY mcp --root FIXTURE` on a small fixture project it writes to a temporary folder
and prints:
- the `tools/list` result: o200k tokens of the compact JSON of its `tools` array (what the server
  sends and a client loads into every session), in total and per tool;
- the `initialize` instructions: characters;
- small answers: characters of the whole answer, of the project data inside the spotlight block,
  and of everything around it (wrapper plus trailer), for a 3-line `get_file` and a few other
  calls;
- a one-line change in a 10 KB file: `git diff --staged` against `pack_context` `view: "diff"`
  and `view: "content"`, in characters;
- packs of 10k to 50k o200k tokens: how many calls read each whole (pack_context, then read_pack
  as its trailers say), beside the fewest the spec's limits allow.
"""
import base64
import glob
import hashlib
import json
import os
import subprocess
import sys
import tempfile

VENV = os.environ.get("BENCH_VENV", "/tmp/bench-agent-io/venv")
O200K_URL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"
O200K_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"


def ensure_venv():
    """Re-run this script in the venv that has tiktoken (creating it on first use)."""
    try:
        import tiktoken  # noqa: F401
        import zstandard  # noqa: F401
        return
    except ImportError:
        pass
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    "tiktoken==0.14.0", "zstandard"], check=True)
    os.execv(python, [python, *sys.argv])


def o200k():
    """tiktoken's o200k_base, its vocabulary rebuilt from the Rust crate's compiled-in copy."""
    import tiktoken
    import zstandard
    cache = os.path.join(os.path.dirname(VENV), "tiktoken-cache")
    os.makedirs(cache, exist_ok=True)
    cached = os.path.join(cache, hashlib.sha1(O200K_URL.encode()).hexdigest())
    if not os.path.exists(cached):
        sources = glob.glob(os.path.expanduser(
            "~/.cargo/registry/src/*/tiktoken-*/src/encodings/o200k_base.tkv.zst"))
        if not sources:
            sys.exit("no o200k_base.tkv.zst in ~/.cargo/registry (run a cargo build first)")
        with open(sources[0], "rb") as f:
            data = zstandard.ZstdDecompressor().stream_reader(f).read()
        text = tkv_to_tiktoken(data)
        if hashlib.sha256(text).hexdigest() != O200K_SHA256:
            sys.exit("the rebuilt o200k_base vocabulary is not the official one")
        with open(cached, "wb") as f:
            f.write(text)
    os.environ["TIKTOKEN_CACHE_DIR"] = cache
    return tiktoken.get_encoding("o200k_base")


def tkv_to_tiktoken(data):
    """The Rust crate's TKV1 frame (token lengths as LEB128, then the token bytes grouped by
    length) as tiktoken's text format: `base64(token) rank` per line, in rank order."""
    assert data[:4] == b"TKV1", "not a TKV1 frame"
    count = int.from_bytes(data[4:8], "little")
    rank0 = int.from_bytes(data[8:12], "little")
    pos, lengths = 12, []
    for _ in range(count):
        length = shift = 0
        while True:
            byte = data[pos]
            pos += 1
            length |= (byte & 0x7F) << shift
            if byte & 0x80 == 0:
                break
            shift += 7
        lengths.append(length)
    cursors = [0] * (max(lengths) + 1)
    for length in lengths:
        cursors[length] += 1
    at = pos
    for length, n in enumerate(cursors):
        cursors[length] = at
        at += length * n
    assert at == len(data), "TKV1 body length mismatch"
    lines = []
    for i, length in enumerate(lengths):
        start = cursors[length]
        cursors[length] = start + length
        lines.append(f"{base64.b64encode(data[start:start + length]).decode()} {rank0 + i}\n")
    return "".join(lines).encode()


FIXTURE = {
    "src/lib.rs": "pub mod config;\n\npub fn greet(name: &str) -> String {\n    format!(\"hello {name}\")\n}\n",
    "src/config.rs": "pub struct Config {\n    pub retries: u32,\n}\n",
    "src/three.rs": "fn one() {}\nfn two() {}\nfn three() {}\n",
    "README.md": "# demo\n\nA demo project.\n",
}


def write_fixture(root):
    for path, text in FIXTURE.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)


def answer_sizes(result, payload):
    """(whole answer, project data, everything else) in characters."""
    texts = [block["text"] for block in result["content"] if block.get("type") == "text"]
    whole = sum(len(t) for t in texts)
    return whole, len(payload), whole - len(payload)


def main():
    ensure_venv()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from mcp_stdio import McpServer
    encoding = o200k()
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/debug/devprojex"
    with tempfile.TemporaryDirectory() as root:
        write_fixture(root)
        server = McpServer(binary, root)
        init = server.request("initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "bench-agent-io", "version": "1"}})["result"]
        server._send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        tools = server.request("tools/list")["result"]["tools"]

        def tokens(value):
            return len(encoding.encode(json.dumps(value, separators=(",", ":"), ensure_ascii=False)))

        print("tokenizer: tiktoken", __import__("tiktoken").__version__, "o200k_base")
        print(f"binary: {binary}")
        print(f"tools/list: {len(tools)} tools, {tokens(tools)} tokens "
              f"({len(json.dumps(tools, separators=(',', ':')))} characters of compact JSON)")
        for tool in tools:
            print(f"  {tool['name']:<16} {tokens(tool):>5} tokens"
                  f"  (description {tokens(tool.get('description', ''))},"
                  f" inputSchema {tokens(tool['inputSchema'])},"
                  f" outputSchema {tokens(tool.get('outputSchema', {})) if 'outputSchema' in tool else 0})")
        instructions = init.get("instructions", "")
        print(f"initialize instructions: {len(instructions)} characters, "
              f"{len(encoding.encode(instructions))} tokens")

        print("small answers (characters: whole answer / project data / wrapper and trailer):")
        calls = [
            ("get_file, 3 lines", "get_file", {"path": "src/three.rs"}, FIXTURE["src/three.rs"]),
            ("get_file, lines 1-2", "get_file", {"path": "src/three.rs", "end_line": 2}, "fn one() {}\nfn two() {}\n"),
            ("search_project, 1 match", "search_project", {"pattern": "retries", "context_lines": 0},
             "src/config.rs:2:    pub retries: u32,"),
            ("find_symbol, 1 definition", "find_symbol", {"name": "greet"}, None),
        ]
        for label, tool, arguments, payload in calls:
            result = server.call_tool(tool, arguments)["result"]
            if payload is None:
                payload = spot_payload(result)
            whole, data, around = answer_sizes(result, payload)
            print(f"  {label:<28} {whole:>4} / {data:>4} / {around:>4}")
        server.close()
    diff_cost(binary)
    pack_calls(binary, encoding)


def diff_cost(binary):
    """Characters of a staged one-line change in a 10 KB file: `git diff --staged`, the whole
    `pack_context` answer with `view: "diff"`, and with `view: "content"` (the file whole)."""
    from mcp_stdio import McpServer
    with tempfile.TemporaryDirectory() as root:
        def git(*args):
            return subprocess.run(["git", "-c", "user.name=b", "-c", "user.email=b@b.invalid",
                                   "-c", "commit.gpgsign=false", *args], cwd=root, check=True,
                                  capture_output=True, text=True).stdout
        body = "".join(f"    let field_{n:03} = source.read_field({n});\n" for n in range(230))
        os.makedirs(os.path.join(root, "src"))
        path = os.path.join(root, "src", "big.rs")
        with open(path, "w") as f:
            f.write(f"fn load() {{\n{body}}}\n")
        git("init", "-q")
        git("add", ".")
        git("commit", "-qm", "init")
        with open(path, "w") as f:
            f.write(f"fn load() {{\n{body.replace('read_field(115)', 'read_field(115).trim()')}}}\n")
        git("add", ".")
        git_diff = git("diff", "--staged")
        server = McpServer(binary, root)
        server.request("initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "bench-agent-io", "version": "1"}})
        server._send({"jsonrpc": "2.0", "method": "notifications/initialized"})

        def answer(view):
            result = server.call_tool("pack_context", {"git_scope": "staged", "view": view})["result"]
            return sum(len(b["text"]) for b in result["content"] if b.get("type") == "text")
        diff, content = answer("diff"), answer("content")
        server.close()
        print(f"one changed line in a {os.path.getsize(path):,}-byte file (characters): git diff --staged "
              f"{len(git_diff):,}; pack_context view diff {diff:,}; view content {content:,}")


def pack_calls(binary, encoding):
    """Calls an agent makes to read a whole pack (pack_context, then read_pack as the answers
    say), for packs of 10k to 50k o200k tokens, against the fewest the spec allows: one call
    inline through 50,000 characters; else the stored answer, then at most 1,000 lines or
    50,000 characters per read_pack call."""
    import math
    print("packs (default view and format): tokens (o200k) and characters read, lines of the pack,")
    print("tree lines not read again (the stored answer showed them), calls, and the fewest calls")
    print("the spec's limits allow for reading every line:")
    for shape, per_file, folders in (("200-line files, one folder", 200, 1),
                                      ("40-line files, 20 folders", 40, 20)):
        print(f"  {shape}:")
        print("    tokens  characters  lines  skipped  calls  fewest")
        for target in (10_000, 12_500, 20_000, 30_000, 40_000, 50_000):
            with tempfile.TemporaryDirectory() as root:
                write_code(root, target * 3, per_file, folders)  # about 3 characters a token
                document, skipped, calls = read_whole_pack(binary, root)
            characters = len(document)
            lines = document.count("\n") + skipped
            fewest = 1 if characters <= 50_000 else \
                1 + max(math.ceil(lines / 1000), math.ceil(characters / 50_000))
            print(f"    {len(encoding.encode(document)):>6}  {characters:>10}  {lines:>5}"
                  f"  {skipped:>7}  {calls:>5}  {fewest:>5}")


def write_code(root, characters, per_file, folders):
    """Rust-like files of `per_file` lines of about 40 characters, spread over `folders`."""
    line_no, written, files = 0, 0, 0
    while written < characters:
        lines = []
        for _ in range(per_file):
            line_no += 1
            lines.append(f"    let value_{line_no} = compute({line_no}, &ctx);\n")
        text = f"fn part_{files}() {{\n" + "".join(lines) + "}\n"
        full = os.path.join(root, "src", f"module_{files % folders:02}", f"part_{files:04}.rs")
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)
        written += len(text)
        files += 1


def read_whole_pack(binary, root):
    """(the pack document as read, lines the stored answer said to skip, calls)."""
    import re
    from mcp_stdio import McpServer
    server = McpServer(binary, root)
    server.request("initialize", {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "bench-agent-io", "version": "1"}})
    server._send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    result = server.call_tool("pack_context", {})["result"]
    calls, text = 1, result["content"][0]["text"]
    stored = re.search(r"Pack stored as '([^']+)'", text)
    if not stored:
        server.close()
        return spot_payload(result), 0, calls
    # the stored answer may say where the files start (its preview was the whole tree)
    skip = re.search(r"start_line=(\d+)", text)
    start = int(skip.group(1)) if skip else 1
    skipped, parts = start - 1, []
    while True:
        result = server.call_tool("read_pack", {"pack_id": stored.group(1), "start_line": start})["result"]
        calls += 1
        text = result["content"][0]["text"]
        parts.append(spot_payload(result) + "\n")
        following = re.search(r"start_line=(\d+)", text.rsplit("[Showing lines", 1)[-1])
        if not following:
            break
        start = int(following.group(1))
    server.close()
    return "".join(parts), skipped, calls


def spot_payload(result):
    """The text inside the first spotlight block of an answer."""
    text = result["content"][0]["text"]
    start = text.index("<untrusted-data-")
    body = text.index(">", start) + 2
    end = text.index("</untrusted-data-", body)
    return text[body:end].removesuffix("\n")


if __name__ == "__main__":
    main()
