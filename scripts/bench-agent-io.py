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
  calls.
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


def spot_payload(result):
    """The text inside the first spotlight block of an answer."""
    text = result["content"][0]["text"]
    start = text.index("<untrusted-data-")
    body = text.index(">", start) + 2
    end = text.index("</untrusted-data-", body)
    return text[body:end].removesuffix("\n")


if __name__ == "__main__":
    main()
