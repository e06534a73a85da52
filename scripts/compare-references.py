#!/usr/bin/env python3
"""find_references against each language's own analyser.

    scripts/compare-references.py LANG DIR [--binary BIN] [--sample N] [--seed S]

LANG is python (pyright's language server, or Jedi with --python jedi), typescript or javascript (the TypeScript language service, the engine
of tsserver, `findReferences`), or go (`gopls references`, in GOPATH mode on a copy, so the
module's requirements need no download), or c (clangd over LSP, with a compile_commands.json
that gives every .c file the folders of all headers, after its background index is built), or
rust (rust-analyzer over LSP, built from crates.io's ra_ap_rust-analyzer; imports count on both
sides, as it lists `use` lines). The analysers come from
scripts/install-analysers.sh (into target/analysers, never committed).

Definitions (functions, methods, classes, types) are sampled from devprojex-symbols'
`definitions` example over the files Git tracks, at most N (default 40) with a fixed seed; for
each one both tools list the uses of that definition, and the two sets of `(path, line)` are
compared, the definition's own line left out of both. Ours is `devprojex references NAME DIR
--at PATH:LINE --format json`; "resolved" counts only the uses we label resolved.

Prints precision and recall per repository for all our references and for the resolved ones.
Without --binary, `cargo build --release --locked --bin devprojex` runs first.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_tools import ROOT, cargo_release  # noqa: E402

ANALYSERS = os.path.join(ROOT, "target", "analysers")
EXTENSIONS = {
    "python": (".py",),
    "typescript": (".ts", ".tsx", ".mts", ".cts"),
    "javascript": (".js", ".mjs", ".cjs", ".jsx"),
    "go": (".go",),
    "c": (".c", ".h"),
    "rust": (".rs",),
}
KINDS = {"function", "method", "class", "struct", "interface", "type", "enum", "trait"}


def tracked(root, language):
    """The language's files Git tracks that no ignore rule matches: what devprojex's default
    selection sees (a tracked file a `.gitignore` matches, such as cJSON's `tests/unity/test/`
    under its `test` rule, is hidden from it, so neither side is compared there)."""
    def git(*args):
        return set(subprocess.run(["git", *args], cwd=root, capture_output=True, text=True,
                                  check=True).stdout.splitlines())
    files = git("ls-files") - git("ls-files", "--cached", "--ignored", "--exclude-standard")
    return sorted(f for f in files if f.endswith(EXTENSIONS[language]) and not f.endswith(".d.ts"))


def definitions(root, files, binary=None):
    if binary is None:
        subprocess.run(["cargo", "build", "--quiet", "--locked", "-p", "devprojex-symbols", "--example",
                        "definitions"], cwd=ROOT, check=True)
        binary = os.path.join(ROOT, "target", "debug", "examples", "definitions")
    out = subprocess.run([binary], cwd=root, input="\n".join(files), capture_output=True, text=True,
                         check=True).stdout
    rows = []
    for line in out.splitlines():
        parts = line.split("\t")
        # constructors are used through their class's name (`new X()`), which the class's
        # own references cover
        if len(parts) >= 4 and parts[2] in KINDS and len(parts[3]) >= 3 and not parts[3].startswith("__") \
                and parts[3] not in ("constructor", "new"):
            rows.append((parts[0], int(parts[1]), parts[2], parts[3]))
    return rows


def name_column(root, path, line, name):
    """1-based column of `name` on its definition line."""
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        text = f.read().splitlines()[line - 1]
    at = -1
    for keyword in ("def ", "class ", "function ", "func ", "interface ", "type ", "enum ", "struct ", "fn ",
                    "trait "):
        k = text.find(keyword + name)
        if k >= 0:
            at = k + len(keyword)
            break
    if at < 0:
        # the first whole-word match (`(w *responseWriter) Write`: not inside responseWriter)
        match = re.search(r"(?<![\w$])" + re.escape(name) + r"(?![\w$])", text)
        at = match.start() if match else -1
    return at + 1 if at >= 0 else None


def ours(binary, root, path, line, name, include_imports=False):
    # every page: a popular class (commander.js' `Command`) has more than 1,000 uses
    references = []
    while True:
        proc = subprocess.run([binary, "references", name, root, "--at", f"{path}:{line}", "--format", "json",
                               "--max-results", "1000", "--offset", str(len(references)),
                               *(["--include-imports", "true"] if include_imports else [])],
                              capture_output=True, text=True)
        if proc.returncode not in (0, 1) or not proc.stdout.strip():
            return None, None
        page = json.loads(proc.stdout)["references"]
        references.extend(page)
        if len(page) < 1000:
            break
    every = {(r["path"], r["line"]) for r in references}
    resolved = {(r["path"], r["line"]) for r in references if r["confidence"] == "resolved"}
    TEXTS.update({(r["path"], r["line"]): r["text"].strip() for r in references})
    for r in references:
        COLUMNS.setdefault((name, r["path"], r["line"]), r["column"])
    return every, resolved


# (path, line) -> our redacted line, for --show
TEXTS = {}
# (name, path, line) -> the column of our first use of name on that line
COLUMNS = {}


# ---- Python: Jedi ------------------------------------------------------------------------------

def jedi_references(root, samples):
    sys.path.insert(0, os.path.join(ANALYSERS, "python"))
    import jedi  # noqa: E402
    project = jedi.Project(root)
    out = []
    for path, line, column, name in samples:
        script = jedi.Script(path=os.path.join(root, path), project=project)
        try:
            names = script.get_references(line, column - 1, scope="project")
        except Exception:
            out.append(None)
            continue
        found = set()
        for n in names:
            if n.module_path is None or n.line is None:
                continue
            rel = os.path.relpath(str(n.module_path), root)
            if rel.startswith(".."):
                continue
            found.add((rel.replace(os.sep, "/"), n.line))
        out.append(found)
    return out


# ---- Python: pyright, over the language server protocol -------------------------------------------

class Lsp:
    """A minimal LSP client over a server's stdio."""

    def __init__(self, command, root, options=None, capabilities=None, env=None):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, cwd=root, env=env)
        self.next_id = 0
        uri = "file://" + root
        self.request("initialize", {"processId": os.getpid(), "rootUri": uri,
                                    "workspaceFolders": [{"uri": uri, "name": "root"}],
                                    "capabilities": capabilities or {},
                                    "initializationOptions": options})
        self.notify("initialized", {})

    def send(self, message):
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.read_until(lambda message: message.get("id") == self.next_id and "method" not in message,
                               lambda message: message.get("result"))

    def wait_for(self, method, accept):
        """Reads until the server sends the notification `method` with params `accept` likes."""
        return self.read_until(lambda m: m.get("method") == method and "id" not in m and accept(m["params"]),
                               lambda m: m["params"])

    def read_until(self, wanted, value):
        while True:
            length = 0
            while True:
                line = self.process.stdout.readline()
                if not line:
                    raise RuntimeError("the language server exited")
                if line in (b"\r\n", b"\n"):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            message = json.loads(self.process.stdout.read(length))
            if wanted(message):
                return value(message)
            if "method" in message and "id" in message:
                # a request of the server's (configuration, progress): answer it empty
                result = None
                if message["method"] == "workspace/configuration":
                    result = [{} for _ in message["params"]["items"]]
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": result})

    def references(self, root, path, line, column):
        """The `(path, line)` of each use the server lists for the name at `line:column` of
        `path` (1-based), the definition left out; paths relative to `root`, outside it dropped."""
        result = self.request("textDocument/references", {
            "textDocument": {"uri": "file://" + os.path.join(root, path)},
            "position": {"line": line - 1, "character": column - 1},
            "context": {"includeDeclaration": False}})
        found = set()
        for location in result or []:
            target = urllib.parse.unquote(location["uri"][len("file://"):])
            rel = os.path.relpath(target, root).replace(os.sep, "/")
            if not rel.startswith(".."):
                found.add((rel, location["range"]["start"]["line"] + 1))
        return found

    def close(self):
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
        except Exception:
            pass
        self.process.kill()


def pyright_references(root, samples):
    server = os.path.join(ANALYSERS, "node", "node_modules", ".bin", "pyright-langserver")
    lsp = Lsp([server, "--stdio"], root)
    out = []
    try:
        for path, line, column, _ in samples:
            uri = "file://" + os.path.join(root, path)
            with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                lsp.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python",
                                                                     "version": 1, "text": f.read()}})
            out.append(lsp.references(root, path, line, column))
    finally:
        lsp.close()
    return out


# ---- Rust: rust-analyzer, over the language server protocol ------------------------------------

RUST_ANALYZER = os.path.join(ANALYSERS, "rust-analyzer", "bin", "rust-analyzer")


def rust_src_from_docs(out):
    """The standard library's source, rebuilt from the toolchain's rust-docs component into
    `out`/library: no rust-src component can be installed here, but rustdoc's source pages
    (share/doc/rust/html/src/CRATE/PATH.rs.html) hold every documented file's text, line by
    line. Returns the library folder, or None without those pages."""
    import html
    sysroot = subprocess.run(["rustc", "--print", "sysroot"], capture_output=True, text=True).stdout.strip()
    docs = os.path.join(sysroot, "share", "doc", "rust", "html", "src")
    if not os.path.isdir(os.path.join(docs, "core")):
        return None
    anchor = re.compile(r"<a href=#\d+ id=\d+ data-nosnippet>\d+</a>")
    tag = re.compile(r"<[^>]*>")
    opening, closing = '<pre class="rust"><code>', "</code></pre>"
    library = os.path.join(out, "library")
    for crate in os.listdir(docs):
        for folder, _, names in os.walk(os.path.join(docs, crate)):
            for name in names:
                if not name.endswith(".rs.html"):
                    continue
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    page = f.read()
                start, end = page.find(opening), page.rfind(closing)
                if start < 0 or end < 0:
                    continue
                code = html.unescape(tag.sub("", anchor.sub("", page[start + len(opening):end])))
                rel = os.path.relpath(os.path.join(folder, name[:-len(".html")]), os.path.join(docs, crate))
                target = os.path.join(library, crate, "src", rel)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target, "w", encoding="utf-8") as f:
                    f.write(code)
    return library


def rust_analyzer_references(root, samples):
    """rust-analyzer over LSP on the repository's Cargo workspace, once it reports itself
    quiescent (workspace loaded). Its dependencies must be in Cargo's cache (`cargo fetch`
    once; the server runs with CARGO_NET_OFFLINE). Build scripts and procedural macros are
    not run (nothing is compiled). The standard library's source comes from
    rust_src_from_docs (no rust-src component here): without it, std's macros (`assert_eq!`,
    `vec!`, `format!`) hide every use in their arguments, and impls of std's traits (`Ord`,
    `Display`) and what std's methods return are unknown to it."""
    import shutil
    import tempfile
    env = {**os.environ, "CARGO_NET_OFFLINE": "true"}
    options = {"cargo": {"buildScripts": {"enable": False}, "allTargets": True},
               "procMacro": {"enable": False}, "checkOnSave": False,
               "cachePriming": {"enable": False}}
    scratch = tempfile.mkdtemp(prefix="compare-references-rust-src-")
    library = rust_src_from_docs(scratch)
    if library:
        options["cargo"]["sysrootSrc"] = library
    else:
        print("compare-references: no rust-docs pages; rust-analyzer runs without std", file=sys.stderr)
    lsp = Lsp([RUST_ANALYZER], root, options, {"experimental": {"serverStatusNotification": True}}, env)
    out = []
    try:
        lsp.wait_for("experimental/serverStatus", lambda status: status.get("quiescent"))
        for path, line, column, _ in samples:
            out.append(lsp.references(root, path, line, column))
    finally:
        lsp.close()
        shutil.rmtree(scratch, ignore_errors=True)
    return out


# ---- C: clangd ---------------------------------------------------------------------------------

def clangd_references(root, samples, files):
    """clangd over LSP on a copy of the tracked C files, with a compile_commands.json that
    gives every .c file the folders of all headers (-I), and its background index built
    before the first question (the wait ends when clangd reports the index done)."""
    import shutil
    import tempfile
    import time
    copy = tempfile.mkdtemp(prefix="compare-references-c-")
    try:
        for rel in files:
            os.makedirs(os.path.dirname(os.path.join(copy, rel)), exist_ok=True)
            shutil.copyfile(os.path.join(root, rel), os.path.join(copy, rel))
        include = sorted({os.path.dirname(f) or "." for f in files if f.endswith(".h")})
        with open(os.path.join(copy, "compile_commands.json"), "w") as f:
            json.dump([{"directory": copy, "file": rel,
                        "arguments": ["cc", "-c", rel, *[f"-I{d}" for d in include]]}
                       for rel in files if rel.endswith(".c")], f)
        lsp = Lsp(["clangd", "--background-index", "--log=error"], copy)
        # open every .c file once, so the index has them all, then let it settle
        for rel in files:
            if rel.endswith(".c"):
                with open(os.path.join(copy, rel), encoding="utf-8", errors="replace") as f:
                    lsp.notify("textDocument/didOpen", {"textDocument": {
                        "uri": "file://" + os.path.join(copy, rel), "languageId": "c", "version": 1,
                        "text": f.read()}})
        time.sleep(min(60, 5 + len(files) // 4))
        out = []
        opened = {rel for rel in files if rel.endswith(".c")}
        for path, line, column, _ in samples:
            # clangd answers only for open documents: a header asked about is opened first
            # (unopened, its references came back empty)
            if path not in opened:
                opened.add(path)
                with open(os.path.join(copy, path), encoding="utf-8", errors="replace") as f:
                    lsp.notify("textDocument/didOpen", {"textDocument": {
                        "uri": "file://" + os.path.join(copy, path), "languageId": "c", "version": 1,
                        "text": f.read()}})
            out.append(lsp.references(copy, path, line, column))
        lsp.close()
    finally:
        shutil.rmtree(copy, ignore_errors=True)
    return out


# ---- TypeScript and JavaScript: the language service --------------------------------------------

TS_HELPER = r'''
const ts = require(process.argv[1]);
const path = require("path");
const fs = require("fs");
const root = path.resolve(process.argv[2]);
const input = JSON.parse(fs.readFileSync(0, "utf8"));
const files = input.files.map(f => path.join(root, f));
// without a tsconfig.json (plain JavaScript): CommonJS and Node's resolution, as Node runs it
let options = { allowJs: true, checkJs: false, module: ts.ModuleKind.CommonJS,
                moduleResolution: ts.ModuleResolutionKind.Node10, target: ts.ScriptTarget.ESNext,
                jsx: ts.JsxEmit.Preserve, noEmit: true };
const config = ts.findConfigFile(root, ts.sys.fileExists, "tsconfig.json");
if (config && config.startsWith(root)) {
  const read = ts.readConfigFile(config, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(read.config || {}, ts.sys, path.dirname(config));
  options = { ...parsed.options, allowJs: true, noEmit: true };
}
const versions = new Map(files.map(f => [f, "1"]));
const host = {
  getScriptFileNames: () => files,
  getScriptVersion: f => versions.get(f) || "1",
  getScriptSnapshot: f => fs.existsSync(f) ? ts.ScriptSnapshot.fromString(fs.readFileSync(f, "utf8")) : undefined,
  getCurrentDirectory: () => root,
  getCompilationSettings: () => options,
  getDefaultLibFileName: o => ts.getDefaultLibFilePath(o),
  fileExists: ts.sys.fileExists, readFile: ts.sys.readFile, readDirectory: ts.sys.readDirectory,
  directoryExists: ts.sys.directoryExists, getDirectories: ts.sys.getDirectories,
};
const service = ts.createLanguageService(host, ts.createDocumentRegistry());
const out = [];
if (input.definitions) {
  // go-to-definition at each position: where the service says the name there is defined
  for (const [rel, line, column] of input.definitions) {
    const file = path.join(root, rel);
    const source = service.getProgram().getSourceFile(file);
    if (!source) { out.push([]); continue; }
    const position = ts.getPositionOfLineAndCharacter(source, line - 1, column - 1);
    out.push((service.getDefinitionAtPosition(file, position) || []).map(d => {
      const target = service.getProgram().getSourceFile(d.fileName);
      const at = target ? ts.getLineAndCharacterOfPosition(target, d.textSpan.start) : { line: -1 };
      return [path.relative(root, d.fileName).split(path.sep).join("/"), at.line + 1];
    }));
  }
  process.stdout.write(JSON.stringify(out));
  process.exit(0);
}
for (const [rel, line, column] of input.samples) {
  const file = path.join(root, rel);
  const source = service.getProgram().getSourceFile(file);
  if (!source) { out.push(null); continue; }
  const position = ts.getPositionOfLineAndCharacter(source, line - 1, column - 1);
  const found = [];
  for (const symbol of service.findReferences(file, position) || []) {
    for (const ref of symbol.references) {
      const target = service.getProgram().getSourceFile(ref.fileName);
      if (!target) continue;
      const relative = path.relative(root, ref.fileName).split(path.sep).join("/");
      if (relative.startsWith("..") || relative.includes("node_modules")) continue;
      const at = ts.getLineAndCharacterOfPosition(target, ref.textSpan.start);
      found.push([relative, at.line + 1]);
    }
  }
  out.push(found);
}
process.stdout.write(JSON.stringify(out));
'''


def ts_references(root, samples, files):
    module = os.path.join(ANALYSERS, "node", "node_modules", "typescript")
    proc = subprocess.run(["node", "-e", TS_HELPER, "--", module, root],
                          input=json.dumps({"files": files, "samples": [[p, l, c] for p, l, c, _ in samples]}),
                          capture_output=True, text=True, check=True)
    return [None if found is None else {(p, l) for p, l in found} for found in json.loads(proc.stdout)]


def ts_definitions(root, files, positions):
    """The language service's go-to-definition at each `(path, line, column)`: sets of
    `(path, line)`. findReferences does not follow CommonJS (`exports.f = f` read through
    `require('./m').f`: from the use it lists the export line only, and from the function not
    the use), while go-to-definition from such a use lands on the function."""
    module = os.path.join(ANALYSERS, "node", "node_modules", "typescript")
    proc = subprocess.run(["node", "-e", TS_HELPER, "--", module, root],
                          input=json.dumps({"files": files, "samples": [], "definitions": positions}),
                          capture_output=True, text=True, check=True)
    return [{(p, l) for p, l in found} for found in json.loads(proc.stdout)]


# ---- Go: gopls ---------------------------------------------------------------------------------

def gopls_references(root, samples, files):
    """gopls in GOPATH mode on a copy of the tracked .go files under GOPATH/src/MODULE: the
    module's requirements are not downloaded (imports from outside are type errors, which
    do not hide the module's own uses)."""
    import shutil
    import tempfile
    with open(os.path.join(root, "go.mod")) as f:
        module = next(line.split()[1] for line in f if line.startswith("module "))
    gopath = tempfile.mkdtemp(prefix="compare-references-go-")
    copy = os.path.join(gopath, "src", *module.split("/"))
    env = {**os.environ, "GOPATH": gopath, "GO111MODULE": "off", "GOPROXY": "off"}
    out = []
    try:
        for rel in files:
            os.makedirs(os.path.dirname(os.path.join(copy, rel)), exist_ok=True)
            shutil.copyfile(os.path.join(root, rel), os.path.join(copy, rel))
        for path, line, column, _ in samples:
            proc = subprocess.run(["gopls", "references", f"{path}:{line}:{column}"], cwd=copy, env=env,
                                  capture_output=True, text=True, timeout=300)
            if proc.returncode != 0:
                out.append(None)
                continue
            found = set()
            for entry in proc.stdout.splitlines():
                location = entry.split(":")
                if len(location) < 2:
                    continue
                rel = os.path.relpath(location[0], copy).replace(os.sep, "/")
                if not rel.startswith(".."):
                    found.add((rel, int(location[1])))
            out.append(found)
    finally:
        shutil.rmtree(gopath, ignore_errors=True)
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("language", choices=sorted(EXTENSIONS))
    parser.add_argument("dir")
    parser.add_argument("--binary")
    parser.add_argument("--definitions", help="devprojex-symbols' definitions example, for the sample "
                        "(default: built in target/debug)")
    parser.add_argument("--sample", type=int, default=40)
    parser.add_argument("--seed", type=int, default=39)
    parser.add_argument("--python", choices=["pyright", "jedi"], default="pyright",
                        help="the Python analyser (default pyright, over its language server)")
    parser.add_argument("--show", type=int, default=0, metavar="N",
                        help="also print N of the analyser's references we list as name-only, with their lines")
    args = parser.parse_args()
    if args.binary is None:
        cargo_release("--bin", "devprojex")
        args.binary = os.path.join(ROOT, "target", "release", "devprojex")
    binary = os.path.abspath(args.binary)
    root = os.path.realpath(args.dir)
    files = tracked(root, args.language)
    rows = definitions(root, files, args.definitions and os.path.abspath(args.definitions))
    random.Random(args.seed).shuffle(rows)
    samples = []
    for path, line, _kind, name in rows:
        column = name_column(root, path, line, name)
        if column:
            samples.append((path, line, column, name))
        if len(samples) >= args.sample:
            break
    if args.language == "python" and args.python == "jedi":
        theirs = jedi_references(root, samples)
    elif args.language == "python":
        theirs = pyright_references(root, samples)
    elif args.language == "c":
        theirs = clangd_references(root, samples, files)
    elif args.language == "go":
        theirs = gopls_references(root, samples, files)
    elif args.language == "rust":
        theirs = rust_analyzer_references(root, samples)
    else:
        theirs = ts_references(root, samples, files)
    totals = {"hits": 0, "ours": 0, "theirs": 0, "resolved_hits": 0, "resolved": 0, "compared": 0}
    misses, extras, unproved = [], [], []
    # (definition path, line, name, use path, line): our resolved uses the analyser's references lack
    extra_uses = []
    compared_files = set(files)
    for (path, line, _column, name), reference in zip(samples, theirs):
        if reference is None:
            continue
        # rust-analyzer lists `use` lines among the references (pyright's includeDeclaration:
        # false leaves import aliases out, being declarations): ours lists imports for Rust too
        every, resolved = ours(binary, root, path, line, name, include_imports=args.language == "rust")
        if every is None:
            continue
        reference = {r for r in reference if r[0] in compared_files} - {(path, line)}
        # the analyser saw the language's files only (a JavaScript run gives it no .ts file)
        every = {r for r in every if r[0] in compared_files} - {(path, line)}
        resolved = {r for r in resolved if r[0] in compared_files} - {(path, line)}
        totals["compared"] += 1
        totals["hits"] += len(every & reference)
        totals["ours"] += len(every)
        totals["theirs"] += len(reference)
        totals["resolved_hits"] += len(resolved & reference)
        totals["resolved"] += len(resolved)
        misses += [f"{name}: {p}:{l}" for p, l in sorted(reference - every)]
        extras += [f"{name}: {p}:{l}" for p, l in sorted(resolved - reference)]
        extra_uses += [(path, line, name, p, l) for p, l in sorted(resolved - reference)]
        unproved += [f"{name}: {p}:{l}: {TEXTS.get((p, l), '')}" for p, l in sorted((reference & every) - resolved)]

    def ratio(a, b):
        return a / b if b else 1.0

    print(f"== {args.language} on {root}: {totals['compared']} definitions, {totals['theirs']} analyser references")
    print(f"  all:      precision {totals['hits']}/{totals['ours']} = {ratio(totals['hits'], totals['ours']):.2f}, "
          f"recall {totals['hits']}/{totals['theirs']} = {ratio(totals['hits'], totals['theirs']):.2f}")
    print(f"  resolved: precision {totals['resolved_hits']}/{totals['resolved']} = "
          f"{ratio(totals['resolved_hits'], totals['resolved']):.2f}, recall {totals['resolved_hits']}/"
          f"{totals['theirs']} = {ratio(totals['resolved_hits'], totals['theirs']):.2f}")
    if args.language in ("typescript", "javascript") and extra_uses:
        # the analyser's own go-to-definition from each of our resolved uses its references lack
        landed = ts_definitions(root, files, [[p, l, COLUMNS[(name, p, l)]] for _, _, name, p, l in extra_uses])
        confirmed = [u for u, found in zip(extra_uses, landed) if (u[0], u[1]) in found]
        hits = totals["resolved_hits"] + len(confirmed)
        print(f"  resolved, with the analyser's go-to-definition from our other uses: precision {hits}/"
              f"{totals['resolved']} = {ratio(hits, totals['resolved']):.2f} ({len(confirmed)} of "
              f"{len(extra_uses)} land on the definition)")
    if misses:
        print("  missed, e.g.: " + "; ".join(misses[:8]))
    if extras:
        print("  resolved, only ours, e.g.: " + "; ".join(extras[:8]))
    if args.show:
        print(f"  name-only, the analyser's too ({len(unproved)}):")
        for item in unproved[:args.show]:
            print("    " + item)
        print(f"  resolved, only ours ({len(extras)}):")
        for item in extras[:args.show]:
            path, line = item.split(": ", 1)[1].rsplit(":", 1)
            print(f"    {item}: {TEXTS.get((path, int(line)), '')}")
        print(f"  missed, the analyser's only ({len(misses)}):")
        for item in misses[:args.show]:
            path, line = item.split(": ", 1)[1].rsplit(":", 1)
            with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                text = f.read().splitlines()[int(line) - 1].strip()
            print(f"    {item}: {text[:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
