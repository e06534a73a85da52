#!/usr/bin/env python3
"""related_files' import resolution against the languages' own resolvers.

    scripts/compare-imports.py python     [--binary BIN] [--git-mode M] [--python PY] [DIR]
    scripts/compare-imports.py typescript [--binary BIN] [--git-mode M] DIR
    scripts/compare-imports.py c          [--binary BIN] [--git-mode M] [--flags FLAGS] [--limit N] DIR [FILE...]
    scripts/compare-imports.py go         [--binary BIN] [--git-mode M] DIR
    scripts/compare-imports.py rust       [--binary BIN] [--git-mode M] [--examples N] DIR

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

- go: the Go toolchain (Debian's golang-go): `go list -e -json ./...` maps import paths to
  package folders, `go/parser` lists each file's imports; on a copy of the tracked .go files
  whose go.mod keeps its module line only, so nothing is downloaded.
- rust: rust-analyzer (scripts/install-analysers.sh) over LSP, started as
  compare-references.py starts it (offline: DIR's dependencies must be `cargo fetch`ed), all
  features on; go-to-definition on the segments of each `use` leaf, `mod x;` and
  `extern crate x` of every tracked .rs file (see compare_rust).

Prints recall (reference edges related_files also finds), precision (our edges the reference
also has) and the edges only we report; the figures are in docs/symbols.md. Without --binary,
`cargo build --release --locked --bin devprojex` runs first, so the current checkout is
measured. Exit status 1 below precision 0.98 or recall 0.95.
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
        reported = hits + extra_count
        precision = hits / reported if reported else 1.0
        print(f"  recall {hits}/{ref_edges} = {hits / ref_edges:.4f}; precision {hits}/{reported} = {precision:.4f}"
              f" ({extra_count} edges only related_files reports)")
    shown = [f"{f} -> {t}" for f, ts in sorted(missed.items()) for t in sorted(ts)][:examples]
    if shown:
        print("  missed, e.g.: " + "; ".join(shown))
    shown = [f"{f} -> {t}" for f, ts in sorted(extra.items()) for t in sorted(ts)][:examples]
    if shown:
        print("  only ours, e.g.: " + "; ".join(shown))
    reported = hits + extra_count
    return (hits / reported if reported else 1.0, hits / ref_edges if ref_edges else 1.0)


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
    project = args.dir or subprocess.run([args.python, "-c", "import os; print(os.path.dirname(os.__file__))"],
                                         capture_output=True, text=True, check=True).stdout.strip()
    project = os.path.realpath(project)
    # --source-root src: the folder on the path (src layouts); the server still serves DIR
    root = os.path.join(project, args.source_root) if args.source_root else project
    prefix = args.source_root.strip("/") + "/" if args.source_root else ""
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
    server = McpServer(args.binary, project, server_args(args))
    server.initialize()
    reference, ours = {}, {}
    for rel, sets in found.items():
        mine = our_imports(server, prefix + rel)
        if mine is None:
            continue
        mine = {m[len(prefix):] for m in mine if m.startswith(prefix)}
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
            if re.search(r"\.(ts|tsx|mts|cts)$" if not args.js else r"\.(js|jsx|mjs|cjs)$", n) \
                    and not n.endswith(".d.ts"):
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


GO_HELPER = r"""
package main

import (
	"encoding/json"
	"go/parser"
	"go/token"
	"os"
	"strconv"
)

func main() {
	var files []string
	json.NewDecoder(os.Stdin).Decode(&files)
	out := map[string][]string{}
	for _, f := range files {
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			continue
		}
		paths := []string{}
		for _, spec := range parsed.Imports {
			if p, err := strconv.Unquote(spec.Path.Value); err == nil {
				paths = append(paths, p)
			}
		}
		out[f] = paths
	}
	json.NewEncoder(os.Stdout).Encode(out)
}
"""


def go_packages(workdir, patterns=("./...",)):
    """`go list -e -json PATTERNS` in workdir: the packages, one JSON object each."""
    proc = subprocess.run(["go", "list", "-e", "-json", *patterns], cwd=workdir, capture_output=True, text=True,
                          env={**os.environ, "GOPROXY": "off", "GOFLAGS": "-mod=mod", "GOWORK": "off"})
    decoder, text, at, packages = json.JSONDecoder(), proc.stdout, 0, []
    while True:
        rest = text[at:].lstrip()
        if not rest:
            return packages
        value, end = decoder.raw_decode(rest)
        packages.append(value)
        at = len(text) - len(rest) + end


def compare_go(args):
    """The Go toolchain: `go list` maps each import path to its package folder, the standard
    go/parser lists each file's imports. Run on a copy whose go.mod keeps only its module line,
    so go list needs no module download (imports outside the module do not count anyway)."""
    import shutil
    import tempfile
    ensure_command("go", "golang-go")
    root = os.path.realpath(args.dir)
    tracked = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True).stdout.split()
    work = tempfile.mkdtemp(prefix="compare-imports-go-")
    try:
        for rel in tracked:
            if rel.endswith(".go") or os.path.basename(rel) == "go.mod":
                dest = os.path.join(work, rel)
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                if os.path.basename(rel) == "go.mod":
                    with open(os.path.join(root, rel)) as f:
                        # the module line alone: no requirement to download, no go version this
                        # toolchain might not parse (Debian 12 has Go 1.19)
                        lines = [line for line in f.read().splitlines() if line.startswith("module ")]
                    with open(dest, "w") as f:
                        f.write("\n".join(lines) + "\n")
                else:
                    shutil.copyfile(os.path.join(root, rel), dest)
        packages = []
        for mod in sorted(r for r in tracked if os.path.basename(r) == "go.mod"):
            packages += go_packages(os.path.join(work, os.path.dirname(mod)))
        folders = {}
        for package in packages:
            if package.get("Dir") and package.get("ImportPath"):
                rel = os.path.relpath(package["Dir"], work).replace(os.sep, "/")
                folders[package["ImportPath"]] = "./" if rel == "." else rel + "/"
        files = sorted({os.path.relpath(os.path.join(p["Dir"], f), work).replace(os.sep, "/")
                        for p in packages if p.get("Dir")
                        for key in ("GoFiles", "CgoFiles", "TestGoFiles", "XTestGoFiles", "IgnoredGoFiles")
                        for f in p.get(key) or []})
        helper = os.path.join(work, "_helper", "main.go")
        os.makedirs(os.path.dirname(helper))
        with open(helper, "w") as f:
            f.write(GO_HELPER)
        proc = subprocess.run(["go", "run", helper], cwd=work, input=json.dumps(files), capture_output=True,
                              text=True, check=True, env={**os.environ, "GOWORK": "off", "GO111MODULE": "off"})
        imports = json.loads(proc.stdout)
        # `./...` leaves out testdata/ and _folders, which an explicit import still reaches
        modules = {p["Module"]["Path"]: p["Module"]["Dir"] for p in packages if p.get("Module")}
        for module, mod_dir in modules.items():
            wanted = sorted({i for paths in imports.values() for i in paths
                             if i not in folders and (i == module or i.startswith(module + "/"))})
            for package in go_packages(mod_dir, wanted) if wanted else []:
                if package.get("Dir") and package.get("GoFiles") and not package.get("Error"):
                    rel = os.path.relpath(package["Dir"], work).replace(os.sep, "/")
                    folders[package["ImportPath"]] = "./" if rel == "." else rel + "/"
    finally:
        shutil.rmtree(work, ignore_errors=True)
    server = McpServer(args.binary, root, server_args(args))
    server.initialize()
    reference, ours = {}, {}
    for rel in files:
        mine = our_imports(server, rel)
        if mine is None:
            continue
        # (an external test package, `package doc_test`, imports its own folder)
        reference[rel] = {folders[p] for p in imports.get(rel, []) if p in folders}
        ours[rel] = mine
    server.close()
    return report(f"go list + go/parser on {root}", reference, ours)


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
    failed = unselected = 0
    for rel in files:
        # a file outside the server's selection (product rules, .gitignore) is not compared,
        # as in the other modes
        if our_imports(server, rel) is None:
            unselected += 1
            continue
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
    if unselected:
        print(f"  ({unselected} of {len(files)} files left out: not in the server's selection)")
    return recall


# ---- Rust: rust-analyzer, over the language server protocol ------------------------------------

RUST_TOKEN = re.compile(r'''
    (?P<space>\s+)
  | (?P<comment>//[^\n]*)
  | (?P<block>/\*)
  | (?P<raw>b?r(?P<hashes>\#*)")
  | (?P<string>b?"(?:\\.|[^"\\])*")
  | (?P<char>b?'(?:\\.|[^'\\])')
  | (?P<lifetime>'\w+)
  | (?P<ident>(?:r\#)?[A-Za-z_]\w*)
  | (?P<path>::)
  | (?P<other>.)
''', re.X | re.S)


def rust_tokens(text):
    """(kind, text, offset) of the significant tokens: comments and literals skipped."""
    at = 0
    while at < len(text):
        match = RUST_TOKEN.match(text, at)
        kind = match.lastgroup
        if match.group("block"):
            depth, at = 1, match.end()
            while depth and at < len(text):
                if text.startswith("/*", at):
                    depth, at = depth + 1, at + 2
                elif text.startswith("*/", at):
                    depth, at = depth - 1, at + 2
                else:
                    at += 1
            continue
        if match.group("raw"):
            end = text.find('"' + match.group("hashes"), match.end())
            at = len(text) if end < 0 else end + 1 + len(match.group("hashes"))
            continue
        at = match.end()
        if kind in ("ident", "path", "other"):
            yield kind, match.group(), match.start()


def rust_use_leaves(text):
    """What a file's `use` items, `mod x;` and `extern crate x` declarations name, as lists of
    segment offsets: one list per use-tree leaf (`a::b::{c, d::E}` -> [a, b, c], [a, b, d, E];
    a glob `a::b::*` and `a::b::{self}` end at b), and [x] for each `mod x;` and `extern crate x`."""
    tokens = list(rust_tokens(text))
    leaves = []

    def tree(at, prefix):
        # a use tree from tokens[at]; returns the index after it
        path = list(prefix)
        while at < len(tokens):
            kind, word, offset = tokens[at]
            if kind == "ident" and word != "as":
                if word == "self" and path and tokens[at - 1][1] in "{,":
                    leaves.append(list(path))  # `{self, ...}`: the prefix's module itself
                    at += 1
                    if at + 1 < len(tokens) and tokens[at][1] == "as":  # `{self as io}`
                        at += 2
                    break
                path.append(offset)
                at += 1
                if at < len(tokens) and tokens[at][1] == "::":
                    at += 1
                    continue
                leaves.append(path)
                if at + 1 < len(tokens) and tokens[at][1] == "as":
                    at += 2
                break
            if word == "*":
                if path:
                    leaves.append(path)
                at += 1
                break
            if word == "{":
                at += 1
                while at < len(tokens) and tokens[at][1] != "}":
                    # a token no tree starts with is skipped, never looped on
                    at = max(tree(at, path), at + 1)
                    if at < len(tokens) and tokens[at][1] == ",":
                        at += 1
                at += 1
                break
            if word == "::":
                at += 1
                continue
            break
        return at

    for i, (kind, word, offset) in enumerate(tokens):
        before = tokens[i - 1][1] if i else ";"
        if kind != "ident" or before not in (";", "}", "{", "]", "pub", ")"):
            continue
        if word == "use":
            tree(i + 1, [])
        elif word == "extern" and i + 2 < len(tokens) and tokens[i + 1][1] == "crate":
            leaves.append([tokens[i + 2][2]])
        elif word == "mod" and i + 2 < len(tokens) and tokens[i + 1][0] == "ident" and tokens[i + 2][1] == ";":
            leaves.append([tokens[i + 1][2]])
    return leaves


def lsp_position(text, offset):
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    # LSP columns count UTF-16 code units
    return {"line": line, "character": len(text[start:offset].encode("utf-16-le")) // 2}


def rust_analyzer_edges(references, root, workspace, members, files, library, env):
    """The import edges of `members` (files of the Cargo workspace at `workspace`, relative to
    `root`) by one rust-analyzer session over that workspace."""
    import urllib.parse
    # every feature on: related_files reads `#[cfg(feature = ...)] mod x;` whatever the features
    options = {"cargo": {"buildScripts": {"enable": False}, "allTargets": True, "features": "all"},
               "procMacro": {"enable": False}, "checkOnSave": False, "cachePriming": {"enable": False}}
    manifest = os.path.join(root, workspace, "Cargo.toml")
    if os.path.exists(manifest):
        options["linkedProjects"] = [manifest]
    if library:
        options["cargo"]["sysrootSrc"] = library
    lsp = references.Lsp([references.RUST_ANALYZER], root, options,
                         {"experimental": {"serverStatusNotification": True}}, env)
    reference = {}
    try:
        lsp.wait_for("experimental/serverStatus", lambda status: status.get("quiescent"))
        for rel in members:
            with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
                text = f.read()
            uri = "file://" + os.path.join(root, rel)
            targets = {}

            def definition(offset):
                if offset not in targets:
                    found = lsp.request("textDocument/definition", {
                        "textDocument": {"uri": uri}, "position": lsp_position(text, offset)}) or []
                    if isinstance(found, dict):
                        found = [found]
                    targets[offset] = [(urllib.parse.unquote(t.get("targetUri", t.get("uri", ""))[len("file://"):]),
                                        t.get("targetSelectionRange", t.get("range"))) for t in found]
                return targets[offset]

            edges = set()
            for leaf in rust_use_leaves(text):
                found = definition(leaf[-1])
                is_module = found and all(r["start"] == {"line": 0, "character": 0} for _, r in found)
                if not is_module and len(leaf) > 1:
                    found = definition(leaf[-2])
                for path, _ in found:
                    target = os.path.relpath(path, root).replace(os.sep, "/")
                    if not target.startswith("..") and target != rel and target in files:
                        edges.add(target)
            reference[rel] = edges
    finally:
        lsp.close()
    return reference


def compare_rust(args):
    """rust-analyzer (scripts/install-analysers.sh) over LSP, as compare-references.py runs it:
    the workspace loaded offline from Cargo's cache, std's source rebuilt from rust-docs. For
    each `use` leaf, go-to-definition on its segments: the imported file is the leaf's when
    the leaf is a module (the target is a whole file: a module file or a crate root), else
    that of the segment before it (the module the item is taken from: `crate::a::B` -> a's
    file, where related_files points too). `mod x;` leads to x's file. Only targets inside
    DIR count, and a file's edges to itself on neither side."""
    import importlib.util
    import shutil
    import tempfile
    spec = importlib.util.spec_from_file_location(
        "compare_references", os.path.join(os.path.dirname(os.path.abspath(__file__)), "compare-references.py"))
    references = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(references)
    root = os.path.realpath(args.dir)
    files = references.tracked(root, "rust")
    env = {**os.environ, "CARGO_NET_OFFLINE": "true"}
    # A Cargo workspace of its own below DIR (ripgrep's fuzz/, tracing's test crates) gets a
    # rust-analyzer of its own: linked into one session with the top workspace, it takes over
    # the crates both use by path, and rust-analyzer then answers nothing for the top
    # workspace's test and example targets. Each file goes to its deepest workspace.
    manifests = [m for m in subprocess.run(["git", "ls-files", "*Cargo.toml"], cwd=root, capture_output=True,
                                           text=True).stdout.split()
                 if m == "Cargo.toml" or re.search(r"(?m)^\[workspace\]", open(os.path.join(root, m)).read())]
    # "" is DIR itself: its Cargo.toml, or what rust-analyzer discovers below it
    workspaces = sorted({os.path.dirname(m) for m in manifests} | {""}, key=len, reverse=True)

    def workspace_of(rel):
        return next((w for w in workspaces if w == "" or rel.startswith(w + "/")), "")

    scratch = tempfile.mkdtemp(prefix="compare-imports-rust-src-")
    library = references.rust_src_from_docs(scratch)
    reference = {}
    try:
        for workspace in workspaces:
            members = [rel for rel in files if workspace_of(rel) == workspace]
            if members:
                reference.update(rust_analyzer_edges(references, root, workspace, members, files, library, env))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    server = McpServer(args.binary, root, server_args(args))
    server.initialize()
    ours = {}
    for rel in list(reference):
        mine = our_imports(server, rel)
        if mine is None:
            del reference[rel]
            continue
        ours[rel] = {t for t in mine if t != rel}
    server.close()
    return report(f"rust-analyzer go-to-definition on {root}", reference, ours, examples=args.examples)


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="language", required=True)
    python = sub.add_parser("python")
    python.add_argument("--python", default="python3")
    python.add_argument("--source-root", help="the folder below DIR that is on the path (src layouts)")
    python.add_argument("dir", nargs="?")
    go = sub.add_parser("go")
    go.add_argument("dir")
    ts = sub.add_parser("typescript")
    ts.add_argument("--js", action="store_true", help="compare the JavaScript files (require and import)")
    ts.add_argument("dir")
    c = sub.add_parser("c")
    c.add_argument("--flags", default="")
    c.add_argument("--limit", type=int, default=200)
    c.add_argument("dir")
    c.add_argument("files", nargs="*")
    rust = sub.add_parser("rust")
    rust.add_argument("--examples", type=int, default=8, help="how many differing edges to print")
    rust.add_argument("dir")
    for p in (python, ts, c, go, rust):
        p.add_argument("--binary", help="devprojex (default: built in target/release)")
        p.add_argument("--git-mode", choices=["none", "gitignore", "tracked"],
                       help="the server's --git-mode (default: its own, gitignore)")
    args = parser.parse_args()
    if args.binary is None:
        cargo_release("--bin", "devprojex")
        args.binary = os.path.join(ROOT, "target", "release", "devprojex")
    args.binary = os.path.abspath(args.binary)
    compare = {"python": compare_python, "typescript": compare_typescript, "c": compare_c, "go": compare_go,
               "rust": compare_rust}
    precision, recall = compare[args.language](args)
    return 0 if precision >= 0.98 and recall >= 0.95 else 1


if __name__ == "__main__":
    sys.exit(main())
