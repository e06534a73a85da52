#!/usr/bin/env python3
"""File localisation on real commit history: `devprojex relevant` (and `pack --query`) against
path order, a plain Okapi BM25 over identifiers and Aider's repo map, in the same run.

A task is a commit of a public repository: the query is its message (or, in the issue set,
the text of the issue it says it fixes), the project is a Git checkout of its parent (HEAD is
the parent, so the history the ranker reads stops there), and the answer is the non-test
source files it modified. Merges, reverts, version bumps and commits that add, delete or
rename files are skipped.

    # the task lists (committed: commit ids and gold files only; the repositories named are
    # rebuilt, the others kept)
    scripts/bench-relevance.py make-tasks --mirrors /work/.mirror \\
        pallets/flask psf/requests spf13/cobra gin-gonic/gin sharkdp/fd expressjs/express \\
        colinhacks/zod jqlang/jq google/gson jhy/jsoup BurntSushi/ripgrep
    # the figures (docs/relevance.md has the exact commands; runs can be split over
    # repositories and tasks, and `report` joins their --results files)
    scripts/bench-relevance.py run --mirrors /work/.mirror [--binary target/release/devprojex] \\
        [--limit N] [--offset N] [--aider] [--ablation [--ablation-limit N]] [--budget] \\
        [--ranges] [--issues] [--results FILE] [--features FILE]
    scripts/bench-relevance.py report FILE...
    # speed and memory: warm server and cold CLI on one project, ripgrep over the query's words
    # as the baseline in the same run (serialize kernel runs)
    scripts/bench-relevance.py speed [--binary target/release/devprojex] /tmp/rails
    flock /tmp/kernel.lock scripts/bench-relevance.py speed /tmp/kernel-corpus

Repositories come from `fetch` mirrors (`<mirrors>/<owner>+<name>/repo`), cloned once per
repository into --work; nothing is downloaded by this script except, with --issues, the issue
texts (GitHub's API, or --issue-texts; their numbers are in the task list, their texts never
are). A work folder serves one run at a time (a second run in it stops at once): runs side by
side each need their own, such as a copy.

Metrics per repository and overall: recall@k (share of the gold files in the top k, averaged
over tasks), acc@5 (all gold files in the top 5) and budget recall (share of the gold files a
20,000-token pack holds at full or signatures detail); with --ranges, how often the line ranges
of the gold files listed hold a line the commit changed.
"""
import argparse
import fcntl
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import time
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_tools import read_text  # noqa: E402

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
TASKS = os.path.join(ROOT, "scripts", "relevance-tasks", "commits.json")

SOURCE_EXTENSIONS = {
    "py", "rs", "go", "js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts", "c", "h", "cc",
    "cpp", "cxx", "hpp", "hh", "java", "kt", "kts", "scala", "rb", "php", "cs", "swift",
}
LANGUAGE = {
    "py": "Python", "rs": "Rust", "go": "Go", "js": "JavaScript/TypeScript",
    "ts": "JavaScript/TypeScript", "tsx": "JavaScript/TypeScript", "mjs": "JavaScript/TypeScript",
    "c": "C", "h": "C", "java": "Java", "kt": "Kotlin", "kts": "Kotlin",
}
SKIP_MESSAGE = re.compile(
    r"^(revert|merge|bump|release|prepare|version|v?\d+\.\d+|update (the )?changelog|"
    r"chore\(release\)|chore\(deps\)|changelog)|\bbump(ed)? (the )?version\b|\bversion bump\b|"
    r"^\[maven-release-plugin\]|\bprepare (for )?release\b|"
    # dependency bumps, as bots write them: "Update dependency com.google.guava:guava to
    # v33.4.6-jre", "Update plugin mavenPublish to v0.34.0", "Update to Kotlin 1.9.0"
    r"^((chore|fix|build)(\([^)]*\))?!?:\s*)?(update|upgrade)\s+((the\s+)?(dependency|dependencies"
    r"|deps?|plugin)\s+)?[\w.:/@-]+(\s+[\w.:/@-]+)?\s+(to|from)\s+v?\d+(\.\d+)+|"
    r"^(update|upgrade) to \w+ v?\d+(\.\d+)+",
    re.IGNORECASE,
)
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
ISSUE_REF = re.compile(r"\b(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?)\s*:?\s+#(\d+)", re.IGNORECASE)


def git(repo, *args, check=True):
    return subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True,
                          check=check, errors="replace").stdout


def is_test(path):
    lower = path.lower()
    parts = lower.split("/")
    name = parts[-1]
    stem = name.split(".")[0]
    original_stem = path.split("/")[-1].split(".")[0]
    return (any(p in ("test", "tests", "__tests__", "testing", "testdata", "spec", "specs", "e2e")
                for p in parts[:-1])
            or stem.startswith("test_") or stem.endswith("_test") or stem.endswith("_tests")
            or ".test." in name or ".spec." in name or original_stem.endswith("Test")
            or original_stem.endswith("Tests") or stem in ("conftest", "test", "tests"))


def is_source(path):
    ext = path.rsplit(".", 1)[-1].lower() if "." in path.split("/")[-1] else ""
    lower = path.lower()
    vendored = any(p in ("vendor", "third_party", "node_modules", "dist", "build")
                   for p in lower.split("/")[:-1])
    return ext in SOURCE_EXTENSIONS and not vendored and not lower.endswith(".min.js")


def mirror(mirrors, repo):
    return os.path.join(mirrors, repo.replace("/", "+"), "repo")


def make_tasks(args):
    # the repositories named are (re)built; the others of an existing list are kept
    out = {"repos": {}}
    if os.path.exists(args.out):
        with open(args.out) as f:
            out = json.load(f)
    for repo in args.repos:
        src = mirror(args.mirrors, repo)
        log = git(src, "log", "--first-parent", "--format=%H%x00%P%x00%s", "HEAD")
        tasks = []
        languages = Counter()
        for line in log.splitlines():
            sha, parents, subject = line.split("\0", 2)
            if len(parents.split()) != 1 or SKIP_MESSAGE.search(subject.strip()):
                continue
            status = git(src, "diff-tree", "--no-commit-id", "-r", "--name-status", "-M", sha)
            rows = [r.split("\t") for r in status.splitlines() if r]
            if not rows or any(r[0][0] != "M" for r in rows):
                continue
            gold = sorted(r[1] for r in rows if is_source(r[1]) and not is_test(r[1]))
            if not gold or len(gold) > args.max_gold:
                continue
            message = git(src, "log", "-1", "--format=%B", sha).strip()
            if len(IDENT.findall(message)) < 3:
                continue
            issue = ISSUE_REF.search(message)
            task = {"commit": sha, "gold": gold}
            if issue:
                task["issue"] = int(issue.group(1))
            tasks.append(task)
            for path in gold:
                languages[LANGUAGE.get(path.rsplit(".", 1)[-1], "other")] += 1
            if len(tasks) >= args.per_repo:
                break
        language = languages.most_common(1)[0][0] if languages else "other"
        out["repos"][repo] = {"language": language, "head": git(src, "rev-parse", "HEAD").strip(),
                              "tasks": tasks}
        print(f"{repo}: {len(tasks)} tasks ({language})", file=sys.stderr)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


# ---- baselines ---------------------------------------------------------------------------

def split_identifier(ident):
    parts = []
    for piece in re.split(r"[_$]+", ident):
        parts.extend(re.findall(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+", piece))
    return [p.lower() for p in parts if len(p) >= 2 and not p.isdigit()]


def tokens(text):
    out = []
    for ident in IDENT.findall(text):
        out.extend(split_identifier(ident))
    return out


def source_files(checkout):
    files = [p for p in git(checkout, "ls-files").splitlines()]
    return files


def documents(checkout, files):
    """Each source file's term counts, and each term's document frequency over them."""
    docs = {}
    for path in files:
        text = read_text(checkout, path)
        if text is not None and is_source(path):
            docs[path] = Counter(tokens(text))
    df = Counter()
    for counts in docs.values():
        df.update(counts.keys())
    return docs, df


def bm25_rank(checkout, files, query, k1=1.2, b=0.75):
    """Plain Okapi BM25 over identifiers split at snake_case and camelCase: one field, the
    file's text; no path, no stemming, no history, no priors."""
    docs, df = documents(checkout, files)
    n = len(docs)
    if not n:
        return [], {}
    avg = sum(sum(c.values()) for c in docs.values()) / n
    q = set(tokens(query))
    scores = {}
    for path, counts in docs.items():
        length = sum(counts.values())
        score = 0.0
        for term in q:
            tf = counts.get(term, 0)
            if tf:
                idf = math.log(1 + (n - df[term] + 0.5) / (df[term] + 0.5))
                score += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / avg))
        if score > 0:
            scores[path] = score
    return sorted(scores, key=lambda p: (-scores[p], p)), docs


def path_order(files):
    """The order of today's pack: depth first, folders before files, names by bytes."""
    def key(path):
        parts = path.split("/")
        return [(0, p.encode()) for p in parts[:-1]] + [(1, parts[-1].encode())]
    return sorted(files, key=key)


def budget_hold(checkout, order, gold, budget=20000):
    """The share of gold files a pack filled in this order holds (chars / 4 tokens, full)."""
    used = 0
    held = set()
    for path in order:
        text = read_text(checkout, path)
        if text is None:
            continue
        cost = (len(text) + 3) // 4
        if used + cost <= budget:
            used += cost
            held.add(path)
    return len(held & set(gold)) / len(gold)


class Aider:
    """Aider's repo map (PyPI aider-chat): `RepoMap.get_ranked_tags` with the query's
    identifiers and file mentions, no LLM and no network."""

    def __init__(self):
        from aider.io import InputOutput  # noqa: PLC0415
        from aider.repomap import RepoMap  # noqa: PLC0415
        self.InputOutput = InputOutput
        self.RepoMap = RepoMap

    def rank(self, checkout, files, query):
        # the tags cache (keyed by file and mtime) lives beside the checkout, not in it: the
        # checkout is cleaned between tasks and devprojex must not see it
        self.RepoMap.TAGS_CACHE_DIR = checkout.rstrip("/") + ".aider-tags"
        class Model:
            def token_count(self, text):
                return len(text) // 4
        io = self.InputOutput(pretty=False, yes=True)
        rm = self.RepoMap(root=checkout, main_model=Model(), io=io, verbose=False)
        fnames = [os.path.join(checkout, f) for f in files if is_source(f)]
        idents = set(IDENT.findall(query))
        mentioned = {f for f in files if os.path.basename(f) in query or f in query}
        tags = rm.get_ranked_tags(chat_fnames=[], other_fnames=fnames,
                                  mentioned_fnames=mentioned, mentioned_idents=idents)
        order = []
        for tag in tags:
            rel = tag[0] if isinstance(tag, tuple) else tag.rel_fname
            if rel not in order:
                order.append(rel)
        return order


# ---- runs --------------------------------------------------------------------------------

def devprojex_rank(binary, checkout, query_file, env):
    """The ranked paths, and each one's line ranges as `(start, end)` pairs."""
    out = subprocess.run([binary, "relevant", checkout, "--query-file", query_file,
                          "--max-results", "20", "--format", "json"],
                         capture_output=True, text=True, env=env)
    if out.returncode not in (0, 1):
        raise SystemExit(f"devprojex relevant failed: {out.stderr}")
    files = json.loads(out.stdout)["files"] if out.stdout.strip() else []
    return ([f["path"] for f in files],
            {f["path"]: [(r["start"], r["end"]) for r in f["ranges"]] for f in files})


def devprojex_budget(binary, checkout, query_file, gold):
    out = subprocess.run([binary, "pack", checkout, "--query-file", query_file,
                          "--max-tokens", "20000", "--format", "json", "-q"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"devprojex pack --query failed: {out.stderr}")
    document = json.loads(out.stdout)
    held = {f["path"] for f in document.get("files", [])}
    return len(held & set(gold)) / len(gold)


def changed_lines(checkout, parent, commit, path):
    """The lines of `path` at `parent` that `commit` changed (1-based): a removed or rewritten
    line itself, and for lines added between two lines, both of those."""
    diff = git(checkout, "diff", "-U0", "--no-color", "--no-ext-diff", parent, commit, "--", path)
    lines = set()
    for hunk in re.finditer(r"^@@ -(\d+)(?:,(\d+))? ", diff, re.M):
        start, count = int(hunk.group(1)), int(hunk.group(2) or 1)
        lines.update(range(start, start + count) if count else (start, start + 1))
    return lines


def best_window(line_scores, length):
    """The `length`-line window (1-based, inclusive) whose lines score most: the first best."""
    length = min(length, len(line_scores))
    if length <= 0:
        return None
    total = best = sum(line_scores[:length])
    start = 0
    for i in range(length, len(line_scores)):
        total += line_scores[i] - line_scores[i - length]
        if total > best + 1e-12:
            best, start = total, i - length + 1
    return (start + 1, start + length)


def range_metrics(checkout, parent, commit, gold, ranges, query, files):
    """How well the line ranges of the gold files in the answer point at the lines the commit
    changed, against two baselines that show as many lines of each file: its head, and the
    window of query words weighed by idf (each line's distinct query words, as BM25's idf over
    the checkout's source files). A range hits when it holds a changed line. Averaged over the
    gold files listed (the task has no figure when none is)."""
    listed = [path for path in gold if path in ranges]
    if not listed:
        return {}
    docs, df = documents(checkout, files)
    n = max(len(docs), 1)
    idf = {t: math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in set(tokens(query))}
    hit = {"ranges": [], "head": [], "window": []}
    shown, covered = [], []
    for path in listed:
        changed = changed_lines(checkout, parent, commit, path)
        spans = ranges[path]
        length = sum(end - start + 1 for start, end in spans)
        text = read_text(checkout, path) or ""
        line_scores = [sum(idf.get(t, 0.0) for t in set(tokens(line))) for line in text.split("\n")]
        window = best_window(line_scores, length)
        def holds(span_list):
            return 1.0 if any(s <= line <= e for s, e in span_list for line in changed) else 0.0
        hit["ranges"].append(holds(spans))
        hit["head"].append(holds([(1, length)] if length else []))
        hit["window"].append(holds([window] if window else []))
        shown.append(length)
        covered.append(len({line for line in changed for s, e in spans if s <= line <= e})
                       / max(len(changed), 1))
    return {"ranges hit": mean(hit["ranges"]), "head hit": mean(hit["head"]),
            "window hit": mean(hit["window"]), "changed lines shown": mean(covered),
            "lines shown": mean(shown)}


def metrics(order, gold):
    gold = set(gold)
    def recall(k):
        return len(gold & set(order[:k])) / len(gold)
    return {"r@1": recall(1), "r@5": recall(5), "r@10": recall(10),
            "acc@5": 1.0 if gold <= set(order[:5]) else 0.0}


def fetch_issue(repo, number, cache):
    key = f"{repo}#{number}"
    if key in cache:
        return cache[key]
    import urllib.request  # noqa: PLC0415
    request = urllib.request.Request(f"https://api.github.com/repos/{repo}/issues/{number}",
                                     headers={"Accept": "application/vnd.github+json"})
    try:
        with urllib.request.urlopen(request, timeout=20) as reply:
            issue = json.load(reply)
        text = (issue.get("title") or "") + "\n\n" + (issue.get("body") or "")
    except Exception as err:  # noqa: BLE001
        print(f"  {key}: no issue text ({err})", file=sys.stderr)
        text = None
    cache[key] = text
    return text


def run(args):
    with open(args.tasks) as f:
        task_list = json.load(f)
    os.makedirs(args.work, exist_ok=True)
    # two runs in one work folder check their tasks out in the same clones, and each then
    # measures the other's trees: the folder is this run's alone
    work_lock = open(os.path.join(args.work, ".bench-relevance.lock"), "w")  # noqa: SIM115
    try:
        fcntl.flock(work_lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise SystemExit(f"{args.work} is in use by another run; give each run its own --work "
                         "folder (a copy of this one keeps its clones)") from None
    aider = Aider() if args.aider else None
    variants = {"devprojex": None}
    if args.ablation:
        for signal in ["fields", "definitions", "names", "mentions", "scope", "named_changes",
                       "messages", "graph", "cochange", "feedback", "priors"]:
            variants[f"without {signal}"] = signal
    issue_cache = {}
    issue_cache_file = args.issue_texts or os.path.join(args.work, "issues.json")
    if os.path.exists(issue_cache_file):
        with open(issue_cache_file) as f:
            issue_cache = json.load(f)
    results = defaultdict(lambda: defaultdict(list))  # system -> repo -> [metrics]
    timings = []
    log = open(args.results, "a") if args.results else None

    def record(system, repo, m, commit):
        results[system][repo].append({"commit": commit, **m})
        if log:
            log.write(json.dumps({"system": system, "repo": repo, "commit": commit, **m}) + "\n")
            log.flush()

    for repo, entry in task_list["repos"].items():
        if args.repos and repo not in args.repos:
            continue
        checkout = os.path.join(args.work, repo.replace("/", "+"))
        if not os.path.exists(checkout):
            subprocess.run(["git", "clone", "-q", "--no-checkout", mirror(args.mirrors, repo),
                            checkout], check=True)
        tasks = entry["tasks"][args.offset:]
        tasks = tasks[: args.limit] if args.limit else tasks
        for number, task in enumerate(tasks, start=args.offset):
            sha = task["commit"]
            gold = task["gold"]
            if args.issues:
                if "issue" not in task:
                    continue
                query = fetch_issue(repo, task["issue"], issue_cache)
                if not query:
                    continue
            else:
                query = git(checkout, "log", "-1", "--format=%B", sha).strip()
            parent = git(checkout, "rev-parse", f"{sha}^").strip()
            if not check_out(checkout, parent):
                print(f"  {repo} {sha[:10]}: cannot check out its parent; skipped", file=sys.stderr)
                continue
            # the tools take at most 8,000 characters: a longer message is cut there
            query = query[:8000]
            query_file = os.path.join(args.work, "query.txt")
            with open(query_file, "w") as f:
                f.write(query)
            files = source_files(checkout)
            for name, without in variants.items():
                if without and args.ablation_limit and number >= args.ablation_limit:
                    continue
                env = dict(os.environ)
                if without:
                    env["DEVPROJEX_RANK_WITHOUT"] = without
                features_file = None
                if args.features and without is None:
                    features_file = os.path.join(args.work, "features.jsonl")
                    if os.path.exists(features_file):
                        os.remove(features_file)
                    env["DEVPROJEX_RANK_FEATURES"] = features_file
                started = time.perf_counter()
                order, ranges = devprojex_rank(args.binary, checkout, query_file, env)
                if features_file:
                    save_features(args.features, features_file, repo, sha, gold, order)
                if without is None:
                    timings.append(time.perf_counter() - started)
                m = metrics(order, gold)
                if without is None and args.budget:
                    m["budget"] = devprojex_budget(args.binary, checkout, query_file, gold)
                if without is None and args.ranges:
                    m.update(range_metrics(checkout, parent, sha, gold, ranges, query, files))
                record(name, repo, m, sha)
            if args.no_peers:
                continue
            bm25, _ = bm25_rank(checkout, files, query)
            m = metrics(bm25, gold)
            if args.budget:
                m["budget"] = budget_hold(checkout, bm25, gold)
            record("BM25", repo, m, sha)
            paths = path_order(files)
            m = metrics(paths, gold)
            if args.budget:
                m["budget"] = budget_hold(checkout, paths, gold)
            record("path order", repo, m, sha)
            if aider:
                order = aider.rank(checkout, files, query)
                m = metrics(order, gold)
                if args.budget:
                    m["budget"] = budget_hold(checkout, order, gold)
                record("Aider repo map", repo, m, sha)
        print(f"{repo}: {len(results['devprojex'][repo])} tasks done", file=sys.stderr, flush=True)
    if args.issues:
        with open(issue_cache_file, "w") as f:
            json.dump(issue_cache, f)
    report(results, task_list, timings)


def save_features(out, features_file, repo, commit, gold, order):
    """One task's candidates with their signal components (`DEVPROJEX_RANK_FEATURES`, the
    ranker's best 100), its gold files and the ranker's answer, as a line of `out`."""
    candidates = {"searched_files": 0, "files": []}
    if os.path.exists(features_file):
        with open(features_file) as f:
            candidates = json.loads(f.readline())
    with open(out, "a") as f:
        f.write(json.dumps({"repo": repo, "commit": commit, "gold": gold, "order": order,
                            **candidates}) + "\n")


def check_out(checkout, commit):
    """Check `commit` out; files whose blobs the mirror left out (its largest files) are
    left out of the checkout too, with sparse-checkout patterns."""
    for _ in range(50):
        done = subprocess.run(["git", "-C", checkout, "checkout", "-q", "-f", "--detach", commit],
                              capture_output=True, text=True, errors="replace")
        if done.returncode == 0:
            git(checkout, "clean", "-qfdx")
            return True
        missing = re.findall(r"invalid object \S+ \S+ for '([^']+)'", done.stderr)
        if not missing:
            return False
        patterns = git(checkout, "sparse-checkout", "list", check=False).split() or ["/*"]
        patterns += [f"!/{path}" for path in missing]
        git(checkout, "sparse-checkout", "set", "--no-cone", *patterns)
    return False


def mean(values):
    return sum(values) / len(values) if values else float("nan")


# Repositories never looked at while the ranker was built (its weights and signals were set on
# the others): their figures say how it does on code it was not tuned to. google/gson was held
# out until its misses were read (issue 41's second stop); BurntSushi/ripgrep took its place.
HELD_OUT = ["jqlang/jq", "jhy/jsoup", "BurntSushi/ripgrep"]


def report(results, task_list, timings):
    keys = ["r@1", "r@5", "r@10", "acc@5", "budget"]
    systems = [s for s in results if not s.startswith("without ")]
    repos = [r for r in task_list["repos"] if results["devprojex"].get(r)]
    groups = [("overall", repos)]
    if any(r in HELD_OUT for r in repos) and any(r not in HELD_OUT for r in repos):
        groups += [("tuned on", [r for r in repos if r not in HELD_OUT]),
                   ("held out", [r for r in repos if r in HELD_OUT])]

    def cells(rows):
        return " | ".join(f"{mean([r[k] for r in rows if k in r]):.2f}"
                          if any(k in r for r in rows) else "–" for k in keys)

    print("| system | repository | language | tasks | " + " | ".join(keys) + " |")
    print("|---|---|---|---|" + "---|" * len(keys))
    for system in systems:
        for repo in repos:
            rows = results[system][repo]
            held = " (held out)" if repo in HELD_OUT else ""
            print(f"| {system} | {repo}{held} | {task_list['repos'][repo]['language']} | "
                  f"{len(rows)} | {cells(rows)} |")
        for name, members in groups:
            rows = [r for repo in members for r in results[system][repo]]
            print(f"| **{system}** | **{name}** | | {len(rows)} | {cells(rows)} |")
    ablation_table(results, repos)
    ceiling_table(results, repos)
    ranges_table(results, repos)
    if timings:
        timings.sort()
        print(f"\ndevprojex relevant (cold CLI per task): median {timings[len(timings) // 2]:.2f} s, "
              f"max {timings[-1]:.2f} s")


def ceiling_table(results, repos):
    """How far a combination of the systems measured could go: per task, the best recall@5 of
    any of them (an oracle that picks the right system for each task), and the share of tasks
    none of them finds a gold file for in its top 5. A target above the ceiling needs evidence
    none of the systems uses."""
    systems = [s for s in results if not s.startswith("without ")]
    if len(systems) < 2:
        return
    print("\n| repository | tasks | best system r@5 | best of all, per task | no system in top 5 |")
    print("|---|---|---|---|---|")
    for repo in repos:
        by_commit = defaultdict(list)
        for system in systems:
            for r in results[system][repo]:
                by_commit[r.get("commit")].append(r["r@5"])
        best = [max(v) for v in by_commit.values()]
        best_system = max(mean([r["r@5"] for r in results[s][repo]]) for s in systems)
        print(f"| {repo} | {len(best)} | {best_system:.2f} | {mean(best):.2f} | "
              f"{mean([1.0 if b == 0 else 0.0 for b in best]):.2f} |")


def ranges_table(results, repos):
    """The line ranges of the gold files each answer lists (`run --ranges`): per repository,
    the tasks with such a file, how often a range holds a changed line, against a file's head
    and the window of query words showing as many lines, the share of changed lines shown,
    and the lines shown per file."""
    keys = ["ranges hit", "head hit", "window hit", "changed lines shown", "lines shown"]
    rows_of = {repo: [r for r in results["devprojex"][repo] if "ranges hit" in r] for repo in repos}
    if not any(rows_of.values()):
        return
    print("\n| repository | tasks | " + " | ".join(keys) + " |")
    print("|---|---|" + "---|" * len(keys))
    for name, rows in [*rows_of.items(), ("**overall**", [r for v in rows_of.values() for r in v])]:
        cells = " | ".join(f"{mean([r[k] for r in rows]):.{1 if k == 'lines shown' else 2}f}"
                           for k in keys)
        print(f"| {name} | {len(rows)} | {cells} |")


def ablation_table(results, repos):
    """Each signal's contribution: recall@5 without it against the full ranker on the same
    tasks (the ablation may run on fewer tasks than the main table)."""
    variants = [s for s in results if s.startswith("without ")]
    if not variants:
        return
    full = {(repo, r.get("commit")): r for repo in repos for r in results["devprojex"][repo]}
    print("\n| signal switched off | tasks | r@5 without | r@5 with | change | r@1 change |")
    print("|---|---|---|---|---|---|")
    for variant in variants:
        pairs = [(r, full[(repo, r.get("commit"))]) for repo in repos
                 for r in results[variant][repo] if (repo, r.get("commit")) in full]
        if not pairs:
            continue
        without5 = mean([a["r@5"] for a, _ in pairs])
        with5 = mean([b["r@5"] for _, b in pairs])
        change1 = mean([b["r@1"] - a["r@1"] for a, b in pairs])
        print(f"| {variant[len('without '):]} | {len(pairs)} | {without5:.3f} | {with5:.3f} | "
              f"{with5 - without5:+.3f} | {change1:+.3f} |")


def cpu_seconds(pid):
    ticks = os.sysconf("SC_CLK_TCK")
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / ticks


def peak_rss_mb(pid, field="VmHWM"):
    """The peak resident memory of `pid` (`field="VmRSS"`: the current one)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def speed(args):
    """Warm server and cold CLI times of `relevant_files` on one project, and peak memory:
    queries are the messages of the project's own latest commits."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from mcp_stdio import McpServer  # noqa: PLC0415
    if shutil.which("rg") is None:  # the baseline
        subprocess.run([os.path.join(ROOT, "scripts", "install-debian-packages.sh"),
                        "bench-relevance", "ripgrep"], check=True)
    messages = [m for m in git(args.project, "log", f"-{args.queries * 3}", "--format=%s%x00")
                .split("\0") if len(IDENT.findall(m)) >= 3][: args.queries]
    # a corpus committed in one go (the kernel's) has too few messages: task-like queries
    # written here make up the count
    fallback = [
        "fix the memory leak in the page allocator when a task exits",
        "race between the timer callback and device removal",
        "wrong error code returned when the socket buffer is full",
        "add a config option to disable the cache for small files",
        "null pointer dereference in the parser on an empty input",
        "use after free in the network driver reset path",
        "the scheduler ignores the priority of a woken task",
        "support reading the firmware version from the device",
        "integer overflow when computing the buffer size",
        "deadlock between the inode lock and the journal commit",
    ]
    # past these, a longer session: generated from a subject and two places, the same every run
    rng = random.Random(7)
    subjects = ["memory leak", "race", "wrong error code", "config option",
                "null pointer dereference", "use after free", "deadlock", "integer overflow",
                "missing lock", "stale pointer", "refcount underflow", "timeout"]
    places = ["page allocator", "timer callback", "socket buffer", "network driver reset",
              "scheduler wakeup", "firmware loader", "inode lock", "journal commit", "usb hub",
              "pci probe", "block layer queue", "ext4 extent tree", "bluetooth hci",
              "sound codec", "gpu fence", "tty line discipline", "nfs client", "btrfs balance",
              "kvm mmu", "io_uring submission"]
    while len(fallback) < args.queries:
        fallback.append(f"{rng.choice(subjects)} in the {rng.choice(places)} when "
                        f"{rng.choice(places)} is busy")
    messages += fallback[: max(0, args.queries - len(messages))]
    files = len(git(args.project, "ls-files", check=False).splitlines())
    print(f"{args.project}: {files} tracked files, {len(messages)} queries", flush=True)
    # the baseline, timed in the same run: ripgrep listing the files that hold any word of the
    # query (case-insensitive) - one plain lexical pass over the same tree, without a ranking
    def rg_run(query):
        words = sorted({w.lower() for w in IDENT.findall(query) if len(w) >= 3})
        command = ["rg", "-l", "-i", "-F", "--no-messages"]
        for word in words:
            command += ["-e", word]
        started = time.perf_counter()
        child = subprocess.Popen(command + ["--", args.project], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(child.pid, 0)
        return time.perf_counter() - started, usage.ru_utime + usage.ru_stime

    server = McpServer(args.binary, args.project)
    server.initialize()
    walls, cpus, rss = [], [], []
    for i, query in enumerate([messages[0]] + messages):
        cpu = cpu_seconds(server.pid)
        started = time.perf_counter()
        reply = server.call_tool("relevant_files", {"query": query})
        wall = time.perf_counter() - started
        if reply.get("result", {}).get("isError"):
            raise SystemExit(f"relevant_files failed: {reply}")
        if i == 0:
            print(f"server, first call (cold):  wall {wall:7.3f} s  cpu {cpu_seconds(server.pid) - cpu:7.3f} s",
                  flush=True)
        else:
            walls.append(wall)
            cpus.append(cpu_seconds(server.pid) - cpu)
        rss.append(f"{peak_rss_mb(server.pid, 'VmRSS'):.0f}")
    walls.sort()
    cpus.sort()
    print(f"server, warm ({len(walls)} queries): median wall {walls[len(walls) // 2] * 1000:7.0f} ms, "
          f"max {walls[-1] * 1000:.0f} ms; median cpu {cpus[len(cpus) // 2] * 1000:.0f} ms")
    print(f"server peak RSS: {peak_rss_mb(server.pid):.0f} MB; RSS after each call: "
          f"{' '.join(rss)} MB")
    server.close()
    rg_runs = [rg_run(query) for query in messages]
    rg_median = sorted(w for w, _ in rg_runs)[len(rg_runs) // 2]
    rg_cpu = sorted(c for _, c in rg_runs)[len(rg_runs) // 2]
    print(f"baseline, rg -l -i of the query's words ({len(rg_runs)} queries): median wall "
          f"{rg_median * 1000:.0f} ms, cpu {rg_cpu * 1000:.0f} ms; server warm median = "
          f"{walls[len(walls) // 2] / rg_median:.2f}x rg (wall), "
          f"{cpus[len(cpus) // 2] / max(rg_cpu, 1e-3):.2f}x rg (cpu)")
    cli_walls, cli_cpus, cli_rss, cli_rg, cli_rg_cpu = [], [], [], [], []
    for query in messages[: args.cli_runs]:
        wall, cpu = rg_run(query)
        cli_rg.append(wall)
        cli_rg_cpu.append(cpu)
        started = time.perf_counter()
        child = subprocess.Popen([args.binary, "relevant", args.project, "--query", query],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(child.pid, 0)
        cli_walls.append(time.perf_counter() - started)
        cli_cpus.append(usage.ru_utime + usage.ru_stime)
        cli_rss.append(usage.ru_maxrss / 1024)
    ratios = sorted(w / r for w, r in zip(cli_walls, cli_rg))
    cli_walls.sort()
    cli_rg.sort()
    print(f"CLI, cold ({len(cli_walls)} runs): median wall {cli_walls[len(cli_walls) // 2]:.2f} s, "
          f"median cpu {sorted(cli_cpus)[len(cli_cpus) // 2]:.2f} s, peak RSS {max(cli_rss):.0f} MB; "
          f"rg before each: median wall {cli_rg[len(cli_rg) // 2]:.2f} s, cpu "
          f"{sorted(cli_rg_cpu)[len(cli_rg_cpu) // 2]:.2f} s; "
          f"median ratio {ratios[len(ratios) // 2]:.2f}x rg (wall)")


def report_files(args):
    """The table of one or more --results files (runs split over repositories)."""
    with open(args.tasks) as f:
        task_list = json.load(f)
    results = defaultdict(lambda: defaultdict(list))
    for name in args.files:
        with open(name) as f:
            for line in f:
                row = json.loads(line)
                system, repo = row.pop("system"), row.pop("repo")
                results[system][repo].append(row)
    report(results, task_list, [])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    make = sub.add_parser("make-tasks")
    make.add_argument("--mirrors", default="/work/.mirror")
    make.add_argument("--per-repo", type=int, default=60)
    make.add_argument("--max-gold", type=int, default=8)
    make.add_argument("--out", default=TASKS)
    make.add_argument("repos", nargs="+")
    bench = sub.add_parser("run")
    bench.add_argument("--mirrors", default="/work/.mirror")
    bench.add_argument("--tasks", default=TASKS)
    bench.add_argument("--work", default="/tmp/bench-relevance")
    bench.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "devprojex"))
    bench.add_argument("--limit", type=int, default=0, help="tasks per repository (0: all)")
    bench.add_argument("--offset", type=int, default=0,
                       help="skip the first N tasks of each repository (runs split over tasks)")
    bench.add_argument("--repos", nargs="*", default=[])
    bench.add_argument("--aider", action="store_true")
    bench.add_argument("--ablation", action="store_true")
    bench.add_argument("--ablation-limit", type=int, default=0,
                       help="the ablation on the first N tasks of each repository only (0: all)")
    bench.add_argument("--budget", action="store_true", help="also build 20k-token packs")
    bench.add_argument("--ranges", action="store_true",
                       help="also measure the line ranges of the gold files listed: do they "
                       "hold the lines the commit changed (against a file's head and the "
                       "window of query words, as many lines each)")
    bench.add_argument("--no-peers", action="store_true",
                       help="devprojex only: no BM25, path order or Aider (to measure a change "
                       "of the ranker against peers measured on the same tasks before)")
    bench.add_argument("--issues", action="store_true", help="the issue-text set")
    bench.add_argument("--issue-texts", help="a JSON file {\"owner/name#N\": \"title\\n\\nbody\"} "
                       "read before GitHub's API (kept outside the repository)")
    bench.add_argument("--results", help="append each task's figures to this JSONL file")
    bench.add_argument("--features", help="append each task's candidates with their signal "
                       "components (DEVPROJEX_RANK_FEATURES) to this JSONL file, for fitting "
                       "the ranker's weights")
    tables = sub.add_parser("report")
    tables.add_argument("--tasks", default=TASKS)
    tables.add_argument("files", nargs="+")
    timing = sub.add_parser("speed")
    timing.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "devprojex"))
    timing.add_argument("--queries", type=int, default=20,
                        help="queries asked of one server: the project's latest commit "
                             "messages, then 10 fixed task-like ones, then generated ones "
                             "(a longer session)")
    timing.add_argument("--cli-runs", type=int, default=3)
    timing.add_argument("project")
    args = parser.parse_args()
    if args.command == "make-tasks":
        make_tasks(args)
    elif args.command == "speed":
        speed(args)
    elif args.command == "report":
        report_files(args)
    else:
        run(args)


if __name__ == "__main__":
    main()
