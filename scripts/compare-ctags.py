#!/usr/bin/env python3
"""Recall of devprojex-symbols' definitions against Universal Ctags (Debian's `universal-ctags`).

    scripts/compare-ctags.py [--definitions BIN] [--examples N] DIR...
    scripts/compare-ctags.py --outline target/debug/devprojex [--files N] DIR...

For each DIR (a checkout), the files of the 13 languages both tools parse (ctags has no Scala or
Swift parser) are listed with `git ls-files` (or a walk when DIR is not a Git checkout), given
to `ctags --output-format=json` and to devprojex-symbols' `definitions` example (built with
`cargo build --release --locked -p devprojex-symbols --example definitions` unless --definitions
names a binary), and every ctags tag of a compared kind counts as recalled when devprojex names
the same definition in the same file. "Same line" is reported beside it. Kinds are the
function, type and class kinds of each language (macros are reported on their own line); see
COMPARED below and, for the figures and the kinds where devprojex deliberately differs,
docs/symbols.md.

With --outline, each file (or N files spread over each DIR) is outlined by the real command,
`devprojex outline FILE --project DIR --format json` (find_symbol's `outline` shares its engine),
and the script also prints how many files reach recall 0.95 on their own, and the worst ones.

Universal Ctags is installed from Debian (`universal-ctags`, needs root) when `ctags` is missing
or is another ctags. Exit status 1 when the overall recall is below 0.95.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_tools import ROOT, cargo_release, ensure_command  # noqa: E402

# ctags language -> compared kinds (function, type and class kinds)
COMPARED = {
    "C": {"function", "struct", "union", "enum", "typedef"},
    "C++": {"function", "class", "struct", "union", "enum", "typedef"},
    "Rust": {"function", "method", "struct", "enum", "interface", "typedef"},
    "Go": {"func", "struct", "interface", "type", "talias", "methodSpec"},
    "Python": {"class", "function", "member"},
    "JavaScript": {"class", "function", "method", "generator", "getter", "setter"},
    "TypeScript": {"class", "function", "method", "interface", "enum", "generator", "alias"},
    "Java": {"class", "interface", "enum", "method", "annotation"},
    "Kotlin": {"class", "interface", "object", "method", "typealias"},
    "C#": {"class", "struct", "interface", "enum", "method", "typedef"},
    "PHP": {"class", "interface", "trait", "function"},
    "Ruby": {"class", "module", "method", "singletonMethod"},
}
MACRO_KINDS = {"macro", "define"}
KOTLIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
JS_KEYWORDS = {"if", "else", "for", "while", "switch", "case", "return", "new", "as", "instanceof", "typeof",
               "keyof", "in", "of", "extends", "implements", "satisfies", "delete", "void", "await", "yield"}
EXTENSIONS = {
    ".c": "C", ".h": "C", ".cc": "C++", ".cpp": "C++", ".cxx": "C++", ".hpp": "C++", ".hh": "C++",
    ".hxx": "C++", ".rs": "Rust", ".go": "Go", ".py": "Python", ".js": "JavaScript",
    ".mjs": "JavaScript", ".cjs": "JavaScript", ".jsx": "JavaScript", ".ts": "TypeScript",
    ".tsx": "TypeScript", ".mts": "TypeScript", ".cts": "TypeScript", ".java": "Java",
    ".kt": "Kotlin", ".kts": "Kotlin", ".cs": "C#", ".php": "PHP", ".rb": "Ruby",
}


def is_anonymous(name):
    """ctags' names for unnamed definitions (C's `__anon...`, JavaScript's
    `AnonymousFunction...`): devprojex lists named definitions only."""
    return name.startswith("__anon") or name.startswith("AnonymousFunction") or name == "<lambda>"


def comparable(name):
    """ctags writes `operator ==`, devprojex `operator==`; ctags names a C# explicit interface
    implementation `IEnumerable.GetEnumerator`, devprojex `GetEnumerator`; ctags writes JavaScript's
    private `#name` as `name`."""
    name = "".join(name.split())
    # JavaScript's private `#name`: ctags drops the `#`
    name = name.lstrip("#")
    if "." in name and not name.startswith("operator"):
        name = name.rsplit(".", 1)[1]
    return name


def source_line(root, path, line, cache):
    if path not in cache:
        try:
            with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                cache[path] = f.read().split("\n")
        except OSError:
            cache[path] = []
    lines = cache[path]
    return lines[line - 1] if line and 0 < line <= len(lines) else ""


def is_import(root, path, line, cache):
    """A name in `import { X }` / `export { X } from` (on one line or in a multi-line list):
    brought in, not defined."""
    for back in range(0, 200):
        text = source_line(root, path, line - back, cache).strip() if line - back > 0 else ""
        if text.startswith("import") or text.startswith("export {") or text.startswith("export type {"):
            return True
        if back > 0 and (text.endswith(";") or text.endswith("}") or text == ""):
            return False
        if line - back <= 1:
            return False
    return False


def is_object_literal(root, path, line, cache):
    """ctags' JavaScript parser calls an object literal bound to a name (and every object
    nested in it) a class; devprojex calls only `class` declarations and expressions classes."""
    text = source_line(root, path, line, cache)
    return "class" not in text and "function" not in text


def names_a_macro(tag, root, lines_of):
    """C and C++ tags that name a macro where devprojex names the definition (on the same line):
    `SYSCALL_DEFINE3(read, ...) { }`, which ctags calls function `SYSCALL_DEFINE3` and
    devprojex function `read`; `} psw_t __aligned(8);`, which ctags calls typedef `__aligned`
    and devprojex type `psw_t`."""
    if tag.get("language") not in ("C", "C++"):
        return False
    name, kind = tag.get("name"), tag.get("kind")
    text = source_line(root, tag.get("path"), tag.get("line"), lines_of)
    if kind == "function":
        return name.isupper() and text.startswith(name + "(")
    if kind == "typedef":
        return (name + "(") in text and (text.lstrip().startswith("}") or "typedef" in text)
    return False


CPP_KEYWORD_TYPEDEF = re.compile(r"\btypedef\b.*\s(bool|wchar_t|char8_t|char16_t|char32_t)\s*;")


def names_the_type_of_a_cpp_keyword(tag, root, lines_of):
    """`typedef _Bool bool;` in a C header: ctags parses .h as C++, where `bool` is a keyword,
    and names the typedef `_Bool`; devprojex reads the header as C and names it `bool`."""
    if tag.get("language") != "C++" or tag.get("kind") != "typedef":
        return None
    match = CPP_KEYWORD_TYPEDEF.search(source_line(root, tag.get("path"), tag.get("line"), lines_of))
    return match.group(1) if match else None


def list_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, check=True).stdout
        files = [f for f in out.decode("utf-8", "replace").split("\0") if f]
    except (subprocess.CalledProcessError, FileNotFoundError):
        files = []
        for folder, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if d != ".git"]
            for name in names:
                files.append(os.path.relpath(os.path.join(folder, name), root))
    return sorted(f for f in files if os.path.splitext(f)[1].lower() in EXTENSIONS
                  and os.path.isfile(os.path.join(root, f)) and not os.path.islink(os.path.join(root, f)))


def ctags_tags(root, files):
    listing = "\n".join(files) + "\n"
    # .h is C for both tools unless devprojex sees C++ constructs; ctags maps it to C++ by
    # default, which only changes kind names.
    proc = subprocess.run(
        ["ctags", "--output-format=json", "--fields=+nKzl", "--extras=-F", "--sort=no",
         "-L", "-", "-f", "-"],
        cwd=root, input=listing.encode(), capture_output=True, check=True)
    for line in proc.stdout.decode("utf-8", "replace").splitlines():
        try:
            tag = json.loads(line)
        except json.JSONDecodeError:
            continue
        if tag.get("_type") == "tag":
            yield tag


def our_definitions(binary, root, files):
    listing = "\n".join(files) + "\n"
    proc = subprocess.run([binary], cwd=root, input=listing.encode(), capture_output=True, check=True)
    for line in proc.stdout.decode("utf-8", "replace").splitlines():
        parts = line.split("\t")
        if len(parts) >= 4:
            yield parts[0], int(parts[1]), parts[2], parts[3]


def outline_definitions(binary, root, files, unselected):
    """The definitions `devprojex outline FILE --format json` lists, file by file (the command
    an agent runs, or `find_symbol` `outline` over MCP, which shares its engine). Files outside
    devprojex's default selection (DPX-MCP-PATH-NOT-FOUND) go to `unselected`."""
    for path in files:
        proc = subprocess.run([binary, "outline", path, "--project", ".", "--format", "json"],
                              cwd=root, capture_output=True)
        if proc.returncode != 0:
            error = proc.stderr.decode(errors="replace").strip()
            if "DPX-MCP-PATH-NOT-FOUND" in error:
                unselected.add(path)
            else:
                print(f"  outline {path}: exit {proc.returncode}: {error[:200]}")
            continue
        for entry in json.loads(proc.stdout)["definitions"]:
            yield path, entry["line"], entry["kind"], entry["name"]


def sample(files, count):
    """`count` files spread evenly over the sorted list (deterministic, every folder's share)."""
    if count <= 0 or count >= len(files):
        return files
    step = len(files) / count
    return [files[int(i * step)] for i in range(count)]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--definitions", help="the definitions example (default: built in target/release)")
    parser.add_argument("--outline", metavar="DEVPROJEX",
                        help="compare `DEVPROJEX outline FILE` file by file instead of the example")
    parser.add_argument("--files", type=int, default=0,
                        help="with --outline: files sampled per directory (default all)")
    parser.add_argument("--examples", type=int, default=5, help="missed tags shown per kind")
    parser.add_argument("dirs", nargs="+")
    args = parser.parse_args()
    ensure_command("ctags", "universal-ctags", ["ctags", "--output-format=json", "--version"])
    if args.outline:
        args.outline = os.path.abspath(args.outline)
    elif args.definitions is None:
        cargo_release("-p", "devprojex-symbols", "--example", "definitions")
        args.definitions = os.path.join(ROOT, "target", "release", "examples", "definitions")
    if args.definitions:
        args.definitions = os.path.abspath(args.definitions)
    total_tags = total_found = total_line = 0
    all_tags, all_found, all_line = collections.Counter(), collections.Counter(), collections.Counter()
    # with --outline: (directory, file) -> [tags compared, found]
    per_file = collections.defaultdict(lambda: [0, 0])
    for root in args.dirs:
        files = list_files(root)
        unselected = set()
        if args.outline:
            files = sample(files, args.files)
            definitions = outline_definitions(args.outline, root, files, unselected)
        else:
            definitions = our_definitions(args.definitions, root, files)
        ours = collections.defaultdict(set)
        ours_lines = set()
        ours_at = set()
        count = 0
        for path, line, kind, name in definitions:
            ours[(path, comparable(name))].add(kind)
            ours_lines.add((path, comparable(name), line))
            ours_at.add((path, line, kind))
            count += 1
        per_lang = collections.Counter()
        found_lang = collections.Counter()
        line_lang = collections.Counter()
        missed = collections.defaultdict(list)
        macros = found_macros = object_literals = imported = lambda_parameters = 0
        backtick_names = backtick_found = keywords = exports = exports_found = garbage = 0
        cpp_keywords = found_cpp_keywords = 0
        macro_named = collections.Counter()
        macro_named_found = collections.Counter()
        lines_of = {}
        for tag in ctags_tags(root, files):
            language, kind, name, path = tag.get("language"), tag.get("kind"), tag.get("name"), tag.get("path")
            if name is None or path is None or is_anonymous(name) or path in unselected:
                continue
            if kind in MACRO_KINDS and language in ("C", "C++", "C#", "PHP"):
                macros += 1
                found_macros += (path, comparable(name)) in ours
                continue
            if kind not in COMPARED.get(language, ()):
                continue
            keyword = names_the_type_of_a_cpp_keyword(tag, root, lines_of)
            if keyword:
                cpp_keywords += 1
                found_cpp_keywords += (path, keyword) in ours
                continue
            if names_a_macro(tag, root, lines_of):
                ours_kind = "function" if kind == "function" else "type"
                macro_named[kind] += 1
                if (path, tag.get("line"), ours_kind) in ours_at:
                    macro_named_found[kind] += 1
                else:
                    missed[(language, f"{kind} named by its macro")].append(f"{path}:{tag.get('line')} {name}")
                continue
            if kind == "class" and language in ("JavaScript", "TypeScript") and \
                    is_object_literal(root, path, tag.get("line"), lines_of):
                object_literals += 1
                continue
            if kind == "method" and language == "Kotlin" and (name == "_" or \
                    "fun " not in source_line(root, path, tag.get("line"), lines_of)):
                lambda_parameters += 1
                continue
            if language == "Kotlin" and "/" not in name and not KOTLIN_NAME.fullmatch(name):
                # ctags' Kotlin parser now and then emits names of stray bytes (`IS^`), a
                # different set on each run
                garbage += 1
                continue
            if kind == "method" and language == "Kotlin" and "/" in name:
                # fun `a name with spaces`(): ctags names it by the file's path
                backtick_names += 1
                backtick_found += (path, tag.get("line"), "method") in ours_at or \
                    (path, tag.get("line"), "function") in ours_at
                continue
            if language in ("JavaScript", "TypeScript") and name == "exports" and \
                    "module.exports" in source_line(root, path, tag.get("line"), lines_of):
                # `module.exports = class Agent ...`: ctags names it `exports`, devprojex `Agent`
                exports += 1
                exports_found += any((path, tag.get("line"), k) in ours_at for k in ("class", "function"))
                continue
            if language in ("JavaScript", "TypeScript") and name in JS_KEYWORDS:
                # `if (a instanceof B)`, `(x as any)`, an interface's `new (...)` construct
                # signature: ctags' tag carries a keyword, not a defined name
                keywords += 1
                continue
            if kind == "alias" and language == "TypeScript" and \
                    is_import(root, path, tag.get("line"), lines_of):
                imported += 1
                continue
            per_lang[language] += 1
            per_file[(root, path)][0] += 1
            if (path, comparable(name)) in ours:
                found_lang[language] += 1
                per_file[(root, path)][1] += 1
                if (path, comparable(name), tag.get("line")) in ours_lines:
                    line_lang[language] += 1
            else:
                missed[(language, kind)].append(f"{path}:{tag.get('line')} {name}")
        tags = sum(per_lang.values())
        found = sum(found_lang.values())
        lines = sum(line_lang.values())
        total_tags += tags
        total_found += found
        total_line += lines
        all_tags.update(per_lang)
        all_found.update(found_lang)
        all_line.update(line_lang)
        print(f"== {root}: {len(files)} files, {count} devprojex definitions, {tags} ctags tags compared")
        for language in sorted(per_lang):
            n = per_lang[language]
            print(f"  {language:<11} {found_lang[language]:>7}/{n:<7} recall {found_lang[language] / n:.4f}"
                  f"  same line {line_lang[language] / n:.4f}")
        if tags:
            print(f"  all         {found:>7}/{tags:<7} recall {found / tags:.4f}  same line {lines / tags:.4f}")
        if unselected:
            print(f"  not compared: {len(unselected)} files outside devprojex's default selection "
                  "(built-in exclusions such as vendored test folders)")
        if object_literals:
            print(f"  not compared: {object_literals} JavaScript/TypeScript object literals ctags calls classes")
        if lambda_parameters:
            print(f"  not compared: {lambda_parameters} Kotlin lambda parameters ctags calls methods")
        if garbage:
            print(f"  not compared: {garbage} Kotlin tags whose name is no identifier (stray bytes from ctags' "
                  "Kotlin parser, which change from run to run)")
        if backtick_names:
            print(f"  not compared: {backtick_names} Kotlin functions with `quoted names` ctags names by the file's "
                  f"path; devprojex lists {backtick_found} of them on the same line")
        if exports:
            print(f"  not compared: {exports} `module.exports = class X` / `= function f` ctags names `exports`; "
                  f"devprojex lists {exports_found} of them by their own name on the same line")
        if keywords:
            print(f"  not compared: {keywords} JavaScript/TypeScript tags ctags names by a keyword "
                  "(instanceof, as, if, new (...) construct signatures)")
        if imported:
            print(f"  not compared: {imported} TypeScript import and export names ctags calls aliases")
        for kind in sorted(macro_named):
            what = {"function": "functions a macro defines (ctags: the macro, devprojex: its argument)",
                    "typedef": "typedefs before an attribute macro (ctags: the macro, devprojex: the typedef)"}[kind]
            print(f"  not compared: {macro_named[kind]} {what}; devprojex lists "
                  f"{macro_named_found[kind]} of them on the same line")
        if cpp_keywords:
            print(f"  not compared: {cpp_keywords} C typedefs of a name C++ reserves (`typedef _Bool bool;`: ctags "
                  f"names the type, devprojex the typedef); devprojex lists {found_cpp_keywords} of them")
        if macros:
            print(f"  macros      {found_macros:>7}/{macros:<7} recall {found_macros / macros:.4f}")
        for (language, kind), items in sorted(missed.items(), key=lambda kv: -len(kv[1])):
            shown = "; ".join(items[:args.examples])
            print(f"  missed {language} {kind}: {len(items)} (e.g. {shown})")
    if total_tags:
        if len(args.dirs) > 1:
            print("== per language, all directories")
            for language in sorted(all_tags):
                n = all_tags[language]
                print(f"  {language:<11} {all_found[language]:>7}/{n:<7} recall {all_found[language] / n:.4f}"
                      f"  same line {all_line[language] / n:.4f}")
        recall = total_found / total_tags
        print(f"== overall: {total_found}/{total_tags} recall {recall:.4f}, same line {total_line / total_tags:.4f}")
        if args.outline:
            good = sum(1 for tags, found in per_file.values() if found >= 0.95 * tags)
            print(f"== outline: {good}/{len(per_file)} files with ctags tags have recall >= 0.95")
            worst = sorted(per_file.items(), key=lambda kv: kv[1][1] / kv[1][0])[:args.examples]
            for (root, path), (tags, found) in worst:
                if found < tags:
                    print(f"  {os.path.basename(root)}/{path}: {found}/{tags}")
        return 0 if recall >= 0.95 else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
