#!/usr/bin/env python3
"""related_files' import resolution against the languages' own resolvers.

    scripts/compare-imports.py python     [--binary BIN] [--git-mode M] [--python PY] [DIR]
    scripts/compare-imports.py typescript [--binary BIN] [--git-mode M] DIR
    scripts/compare-imports.py c          [--binary BIN] [--git-mode M] [--flags FLAGS] [--limit N] DIR [FILE...]

Our side is the real server: one `devprojex mcp --root DIR`, one `related_files` call
(`direction: imports`) per file. The reference:

- python: the standard library's `modulefinder`, with DIR (default: the standard library of
  PY) as its only path. For each module, the modules its code imports (directly; the finder
  does not recurse), minus the packages that are only loaded as parents of another one (for
  `import a.b.c`, related_files names `a/b/c.py`, modulefinder also loads `a` and `a.b`).
- typescript: the TypeScript compiler API (npm `typescript@5.9.3`, installed on first use
  into target/compare-imports/node, never committed; Debian's nodejs and npm are installed
  when missing): `ts.preProcessFile` for the
  specifiers and `ts.resolveModuleName` with the nearest tsconfig.json's options; only
  resolutions to files of DIR outside node_modules count.
- c: `gcc -MM -MG FLAGS FILE` (all headers a file pulls in, transitively) against the closure
  of related_files' imports; only headers inside DIR count.

Prints recall (reference edges related_files also finds) and the edges only we report; the
figures are in docs/symbols.md. Without --binary, `cargo build --release --locked --bin
devprojex` runs first, so the current checkout is measured. Exit status 1 below 0.95.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mcp_stdio import McpServer  # noqa: E402
from script_tools import ROOT, cargo_release, ensure_command  # noqa: E402

TYPESCRIPT = "typescript@5.9.3"


def server_args(args):
    return ["--git-mode", args.git_mode] if args.git_mode else []


def our_imports(server, path):
    """The files (and package folders, with a trailing /) related_files lists as imports."""
    reply = server.call_tool("related_files", {"path": path, "direction": "imports", "max_results": 200})
    result = reply.get("result", {})
    if result.get("isError"):
        return None
    text = result["content"][0]["text"]
    match = re.search(r"<(untrusted-data-[0-9a-f]{24})>\n(.*)\n</\1>", text, re.S)
    if not match:
        return set()
    found = set()
    for line in match.group(2).splitlines()[1:]:
        if not line or line.startswith(" "):
            continue
        line = re.sub(r" \(depth \d+\)$", "", line)
        if line.endswith("/ (package folder)"):
            line = line[: -len(" (package folder)")]
        found.add(line)
    return found


def report(name, reference, ours, examples=8):
    ref_edges = sum(len(v) for v in reference.values())
    hits = sum(len(reference[f] & ours.get(f, set())) for f in reference)
    extra = {f: ours.get(f, set()) - reference[f] for f in reference}
    missed = {f: reference[f] - ours.get(f, set()) for f in reference}
    extra_count = sum(len(v) for v in extra.values())
    print(f"== {name}: {len(reference)} files, {ref_edges} reference edges")
    if ref_edges:
        print(f"  recall {hits}/{ref_edges} = {hits / ref_edges:.4f}; {extra_count} edges only related_files reports")
    shown = [f"{f} -> {t}" for f, ts in sorted(missed.items()) for t in sorted(ts)][:examples]
    if shown:
        print("  missed, e.g.: " + "; ".join(shown))
    shown = [f"{f} -> {t}" for f, ts in sorted(extra.items()) for t in sorted(ts)][:examples]
    if shown:
        print("  only ours, e.g.: " + "; ".join(shown))
    return hits / ref_edges if ref_edges else 1.0


PYTHON_HELPER = r'''
import json, modulefinder, os, sys
root = sys.argv[1]
files = json.loads(sys.stdin.read())
out = {}
class Direct(modulefinder.ModuleFinder):
    target = None
    found = None
    depth = 0
    def scan_code(self, co, m):
        # other modules are loaded, not scanned: direct imports only (the target's nested code
        # objects, its functions and classes, are scanned through this same method)
        if m.__name__ != self.target:
            return
        if self.depth == 0:
            before = set(self.modules)
        self.depth += 1
        try:
            super().scan_code(co, m)
        finally:
            self.depth -= 1
        if self.depth == 0:
            self.found = set(self.modules) - before
for rel in files:
    name = rel[:-3].replace("/", ".")
    if name.endswith(".__init__"):
        name = name[: -len(".__init__")]
    finder = Direct(path=[root])
    finder.target = name
    try:
        finder.import_hook(name)
    except Exception:
        continue
    if finder.found is None:
        continue
    paths = set()
    for mod in finder.found:
        module = finder.modules[mod]
        path = getattr(module, "__file__", None)
        if path and os.path.abspath(path).startswith(os.path.abspath(root) + os.sep):
            paths.add(os.path.relpath(path, root).replace(os.sep, "/"))
    # packages loaded only as the parents of another found module
    names = set(finder.found)
    parents = {n for n in names if any(o.startswith(n + ".") for o in names)}
    explicit = set()
    for n in parents:
        module = finder.modules[n]
        path = getattr(module, "__file__", None)
        if path:
            explicit.add(os.path.relpath(path, root).replace(os.sep, "/"))
    out[rel] = {"all": sorted(paths), "parents": sorted(explicit)}
print(json.dumps(out))
'''


def compare_python(args):
    root = args.dir or subprocess.run([args.python, "-c", "import os; print(os.path.dirname(os.__file__))"],
                                      capture_output=True, text=True, check=True).stdout.strip()
    root = os.path.realpath(root)
    files = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "site-packages", "dist-packages")
                         and not d.startswith("."))
        for n in sorted(names):
            if n.endswith(".py"):
                files.append(os.path.relpath(os.path.join(folder, n), root).replace(os.sep, "/"))
    proc = subprocess.run([args.python, "-c", PYTHON_HELPER, root], input=json.dumps(files),
                          capture_output=True, text=True, check=True)
    found = json.loads(proc.stdout)
    server = McpServer(args.binary, root, server_args(args))
    server.initialize()
    reference, ours = {}, {}
    for rel, sets in found.items():
        mine = our_imports(server, rel)
        if mine is None:
            continue
        # the module's own packages are loaded before its code runs, so the finder cannot show
        # an import of them (`from ctypes import *` in ctypes/_endian.py): left out of both
        own = set()
        folder = os.path.dirname(rel)
        while folder:
            own.add(f"{folder}/__init__.py")
            folder = os.path.dirname(folder)
        parents = set(sets["parents"]) | own
        reference[rel] = set(sets["all"]) - parents
        # an import of a parent package itself is right whether or not the finder needed it
        ours[rel] = {m for m in mine if m not in parents}
    server.close()
    return report(f"python modulefinder on {root}", reference, ours)


TS_HELPER = r'''
const ts = require(process.argv[1]);
const path = require("path");
const root = path.resolve(process.argv[2]);
const files = JSON.parse(require("fs").readFileSync(0, "utf8"));
const configs = new Map();
function optionsFor(file) {
  const configPath = ts.findConfigFile(path.dirname(file), ts.sys.fileExists, "tsconfig.json");
  if (!configPath || !configPath.startsWith(root)) return {};
  if (!configs.has(configPath)) {
    const read = ts.readConfigFile(configPath, ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(read.config || {}, ts.sys, path.dirname(configPath));
    configs.set(configPath, parsed.options);
  }
  return configs.get(configPath);
}
const out = {};
for (const rel of files) {
  const file = path.join(root, rel);
  const text = ts.sys.readFile(file);
  if (text === undefined) continue;
  const info = ts.preProcessFile(text, true, true);
  const options = optionsFor(file);
  const found = new Set();
  for (const imported of info.importedFiles) {
    const resolved = ts.resolveModuleName(imported.fileName, file, options, ts.sys).resolvedModule;
    if (!resolved) continue;
    const real = ts.sys.realpath ? ts.sys.realpath(resolved.resolvedFileName) : resolved.resolvedFileName;
    const relative = path.relative(root, real).split(path.sep).join("/");
    if (relative.startsWith("..") || relative.split("/").includes("node_modules")) continue;
    if (relative !== rel) found.add(relative);
  }
  out[rel] = [...found].sort();
}
process.stdout.write(JSON.stringify(out));
'''


def typescript_module():
    ensure_command("node", "nodejs")
    ensure_command("npm", "npm")
    base = os.path.join(ROOT, "target", "compare-imports", "node")
    module = os.path.join(base, "node_modules", "typescript")
    version = TYPESCRIPT.split("@", 1)[1]
    try:
        with open(os.path.join(module, "package.json")) as f:
            installed = json.load(f).get("version")
    except OSError:
        installed = None
    if installed != version:
        print(f"== npm install {TYPESCRIPT} into {base}", file=sys.stderr)
        os.makedirs(base, exist_ok=True)
        subprocess.run(["npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix", base, TYPESCRIPT],
                       check=True)
    return module


def compare_typescript(args):
    root = os.path.realpath(args.dir)
    files = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in ("node_modules", "dist") and not d.startswith("."))
        for n in sorted(names):
            if re.search(r"\.(ts|tsx|mts|cts)$", n) and not n.endswith(".d.ts"):
                files.append(os.path.relpath(os.path.join(folder, n), root).replace(os.sep, "/"))
    proc = subprocess.run(["node", "-e", TS_HELPER, "--", typescript_module(), root], input=json.dumps(files),
                          capture_output=True, text=True, check=True)
    found = json.loads(proc.stdout)
    server = McpServer(args.binary, root, server_args(args))
    server.initialize()
    reference, ours = {}, {}
    for rel, targets in found.items():
        mine = our_imports(server, rel)
        if mine is None:
            continue
        reference[rel] = set(targets)
        ours[rel] = mine
    server.close()
    return report(f"typescript resolveModuleName on {root}", reference, ours)


def compare_c(args):
    ensure_command("gcc", "gcc")
    root = os.path.realpath(args.dir)
    files = args.files
    if not files:
        for folder, dirs, names in os.walk(root):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for n in sorted(names):
                if n.endswith(".c"):
                    files.append(os.path.relpath(os.path.join(folder, n), root).replace(os.sep, "/"))
        files = files[: args.limit]
    server = McpServer(args.binary, root, server_args(args))
    server.initialize()
    direct = {}

    def closure(start, forced):
        seen, todo = set(forced), [start, *forced]
        while todo:
            f = todo.pop()
            if f not in direct:
                direct[f] = our_imports(server, f) or set()
            for t in direct[f]:
                if t not in seen and t != start:
                    seen.add(t)
                    todo.append(t)
        return seen

    reference, ours = {}, {}
    flags = args.flags.split()
    # `-include H`: the build reads H first, so the file's closure starts from it too
    forced = [flags[i + 1] for i, f in enumerate(flags[:-1]) if f == "-include"
              and os.path.isfile(os.path.join(root, flags[i + 1]))]
    failed = 0
    for rel in files:
        proc = subprocess.run(["gcc", "-MM", "-MG", *flags, rel], cwd=root, capture_output=True, text=True)
        if proc.returncode != 0:
            failed += 1
            continue
        deps = proc.stdout.replace("\\\n", " ").split(":", 1)[1].split()
        headers = set()
        for dep in deps[1:]:
            full = os.path.realpath(os.path.join(root, dep))
            if full.startswith(root + os.sep) and os.path.isfile(full):
                headers.add(os.path.relpath(full, root).replace(os.sep, "/"))
        reference[rel] = headers
        ours[rel] = closure(rel, forced)
    server.close()
    recall = report(f"gcc -MM {args.flags} on {root}", reference, ours)
    if failed:
        print(f"  ({failed} of {len(files)} files left out: gcc -MM failed on them with these flags)")
    return recall


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="language", required=True)
    python = sub.add_parser("python")
    python.add_argument("--python", default="python3")
    python.add_argument("dir", nargs="?")
    ts = sub.add_parser("typescript")
    ts.add_argument("dir")
    c = sub.add_parser("c")
    c.add_argument("--flags", default="")
    c.add_argument("--limit", type=int, default=200)
    c.add_argument("dir")
    c.add_argument("files", nargs="*")
    for p in (python, ts, c):
        p.add_argument("--binary", help="devprojex (default: built in target/release)")
        p.add_argument("--git-mode", choices=["none", "gitignore", "tracked"],
                       help="the server's --git-mode (default: its own, gitignore)")
    args = parser.parse_args()
    if args.binary is None:
        cargo_release("--bin", "devprojex")
        args.binary = os.path.join(ROOT, "target", "release", "devprojex")
    args.binary = os.path.abspath(args.binary)
    recall = {"python": compare_python, "typescript": compare_typescript, "c": compare_c}[args.language](args)
    return 0 if recall >= 0.95 else 1


if __name__ == "__main__":
    sys.exit(main())
