#!/usr/bin/env python3
"""Checks devprojex-detail's `compact` and `signatures` outputs of real code with each language's
own syntax checker (the ones `scripts/install-test-parsers.sh` installs).

    scripts/detail-real-parsers.py DIR [EXT ...]      (default: every extension it can check)

Every file under DIR with a checked extension and under 200 KB is checked first as it is; a file
the checker rejects, or that is not UTF-8, is skipped (counted). Then both outputs must pass.
Prints each failure and a summary per extension; exits 1 if any output failed. Results:
docs/benchmarks.md.
"""
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLS = os.path.join(ROOT, "crates/devprojex-detail/tests/tools")
NODE_PATH = os.path.join(ROOT, "target/test-parsers/node/node_modules")
# extension -> (command before the files, takes many files at once)
CHECKERS = {
    "go": (["gofmt", "-e", "-l"], True),
    "java": (["java", os.path.join(TOOLS, "JavaSyntax.java")], True),
    "js": (["node", os.path.join(TOOLS, "ts-syntax.js")], True),
    "mjs": (["node", os.path.join(TOOLS, "ts-syntax.js")], True),
    "cjs": (["node", os.path.join(TOOLS, "ts-syntax.js")], True),
    "jsx": (["node", os.path.join(TOOLS, "ts-syntax.js")], True),
    "ts": (["node", os.path.join(TOOLS, "ts-syntax.js")], True),
    "tsx": (["node", os.path.join(TOOLS, "ts-syntax.js")], True),
    "rb": (["ruby", "-c"], False),
    "php": (["php", "-l"], False),
    "lua": (["luac5.4", "-p"], False),  # Debian's luac5.4 aborts when given two files
    "sh": (["bash", "-n"], False),
    "cs": (["mcs", "--parse"], False),
    "py": (["python3", "-c", "import ast, sys\nfor f in sys.argv[1:]:\n"
            "    ast.parse(open(f, 'rb').read(), f)"], True),
}
BATCH = 200


def run(ext, paths):
    """The paths the checker rejects (a batch that fails is split down to single files)."""
    command, many = CHECKERS[ext]
    if not many and len(paths) > 1:
        return [p for path in paths for p in run(ext, [path])]
    result = subprocess.run(command + paths, capture_output=True, text=True,
                            env=dict(os.environ, NODE_PATH=NODE_PATH), cwd=ROOT)
    failed = result.returncode != 0 or (command[0] == "gofmt" and result.stderr)
    if not failed:
        return []
    if len(paths) == 1:
        return paths
    half = len(paths) // 2
    return run(ext, paths[:half]) + run(ext, paths[half:])


def is_utf8(path):
    try:
        with open(path, encoding="utf-8") as fh:
            fh.read()
        return True
    except UnicodeDecodeError:
        return False


def check_batch(ext, batch, detail, work):
    # devprojex reads text as UTF-8 and leaves other files out of packs, so they are skipped too.
    originals_bad = {p for p in batch if not is_utf8(p)}
    originals_bad |= set(run(ext, [p for p in batch if p not in originals_bad]))
    outputs = []
    for i, path in enumerate(batch):
        if path in originals_bad:
            continue
        for level in ("compact", "signatures"):
            out = os.path.join(work, level, f"{abs(hash(path))}_{i}.{ext}")
            os.makedirs(os.path.dirname(out), exist_ok=True)
            with open(out, "wb") as fh:
                fh.write(subprocess.run([detail, path, level], capture_output=True,
                                        check=True).stdout)
            outputs.append((path, level, out))
    bad_outputs = set(run(ext, [o for _, _, o in outputs]))
    return len(originals_bad), [(p, level) for p, level, o in outputs if o in bad_outputs]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    root, exts = sys.argv[1], sys.argv[2:] or sorted(CHECKERS)
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "devprojex-detail",
                    "--example", "detail"], cwd=ROOT, check=True)
    detail = os.path.join(ROOT, "target/release/examples/detail")
    work = tempfile.mkdtemp(prefix="devprojex-real-parsers-")
    failures = 0
    try:
        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
            for ext in exts:
                files = sorted(os.path.join(d, f) for d, _, names in os.walk(root)
                               for f in names if f.endswith("." + ext)
                               # isfile: a dangling symlink (Debian's rdoc ships some) is skipped
                               and os.path.isfile(os.path.join(d, f))
                               and os.path.getsize(os.path.join(d, f)) < 200_000)
                batches = [files[i:i + BATCH] for i in range(0, len(files), BATCH)]
                results = list(pool.map(
                    lambda b: check_batch(ext, b, detail, os.path.join(work, ext)), batches))
                skipped = sum(r[0] for r in results)
                bad = [f for r in results for f in r[1]]
                for path, level in bad:
                    print(f"{path}: {level} output does not parse")
                failures += len(bad)
                print(f"{ext}: {len(files)} files, {skipped} skipped (the original does not "
                      f"parse or is not UTF-8), {len(bad)} outputs failed", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
