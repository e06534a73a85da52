#!/usr/bin/env python3
"""Fit the ranker's weights on the benchmark, with leave-one-repository-out cross-validation.

Reads what `scripts/bench-relevance.py run --features FILE` collected (each task's best 100
candidates with their signal components, `DEVPROJEX_RANK_FEATURES`) and compares, per
repository, the ranker's weights (as in rank.rs: the signals' weights, the class priors and
bonuses) with models fitted on the other repositories; the first line checks that the dump
recombined with those weights gives the CLI's answers:
- coordinate ascent on recall@5 (+ 0.1 recall@1 + 0.1 recall@10 to break ties) over the
  signals' weights, the class priors and two history features (how often a file changed,
  log-scaled, and how recently, from HEAD's history);
- pairwise logistic regression (each gold file against each non-gold file of the ranker's
  best 30, each task weighing the same, L2), linear over the components times the prior,
  optionally with those history features and a term per class;
- gradient-boosted trees (LightGBM's lambdarank, when it is installed) over the same
  components, history features, prior and class: a nonlinear combination.

The held-out repositories (jq, jsoup, ripgrep) never enter a fit: a tuning repository is scored
by a model fitted on the other 7 tuning repositories, a held-out one by a model fitted on all 8.
Components of the graph and co-change steps are those of the ranker as it ran (their seeds
come from its scores), so a refit is checked end to end with the benchmark afterwards.

    python3 -m venv /tmp/fit-venv && /tmp/fit-venv/bin/pip install numpy
    /tmp/fit-venv/bin/pip install lightgbm scikit-learn   # optional: the boosted-trees families
    /tmp/fit-venv/bin/python scripts/fit-relevance-weights.py FEATURES.jsonl [FRESH.jsonl]

FRESH.jsonl: the same for repositories used by no choice (`make-tasks --out` into another
list, `run --tasks` it), scored by the models fitted on the 8 tuning repositories.
"""
import importlib.util
import json
import math
import sys

import numpy as np

HELD_OUT = ["jqlang/jq", "jhy/jsoup", "BurntSushi/ripgrep"]
SIGNALS = ["fields", "definitions", "names", "mentions", "scope", "named_changes", "messages",
           "graph", "cochange", "feedback"]
# the ranker's weights, priors and class bonuses (crates/devprojex-rank/src/rank.rs): the
# baseline, and the starting point of coordinate ascent
TODAY = {"fields": 1.0, "definitions": 0.3, "names": 0.4, "mentions": 1.0, "scope": 0.5,
         "named_changes": 0.5, "messages": 0.5, "graph": 0.3, "cochange": 0.1, "feedback": 0.2}
CLASSES = ["source", "example", "data", "test", "docs", "vendored", "generated"]
TODAY_PRIOR = {"source": 1.0, "example": 0.6, "data": 0.4, "test": 0.4, "docs": 0.3,
               "vendored": 0.2, "generated": 0.2}
TODAY_BONUS = {"source": 0.5, "example": 0.55, "data": 0.15, "test": 0.0, "docs": 0.0,
               "vendored": 0.0, "generated": 0.0}
K = 100


def load(path):
    tasks = []
    for line in open(path):
        d = json.loads(line)
        files = d["files"][:K]
        n = len(files)
        X = np.zeros((K, len(SIGNALS)))
        cls = np.zeros(K, dtype=int)
        changes = np.zeros(K)
        since = np.full(K, np.nan)
        hist = 0
        gold = np.zeros(K, dtype=bool)
        valid = np.zeros(K, dtype=bool)
        paths = []
        for i, f in enumerate(files):
            X[i] = [f.get(s, 0.0) for s in SIGNALS]
            cls[i] = CLASSES.index(f["class"])
            changes[i] = f["changes"]
            if f["since_change"] is not None:
                since[i] = f["since_change"]
            hist = max(hist, f["history_commits"])
            gold[i] = f["path"] in d["gold"]
            valid[i] = True
            paths.append(f["path"])
        paths += [""] * (K - n)
        # path rank for deterministic ties (ascending path)
        order = sorted(range(K), key=lambda i: (paths[i] == "", paths[i]))
        pathrank = np.empty(K)
        pathrank[order] = np.arange(K)
        tasks.append(dict(repo=d["repo"], commit=d["commit"], X=X, cls=cls, changes=changes,
                          since=since, hist=hist, gold=gold, ngold=len(d["gold"]), valid=valid,
                          pathrank=pathrank, order=d["order"], goldlist=d["gold"],
                          paths=paths))
    return tasks


def extra_features(t):
    """New history features, each in [0, 1]."""
    ch = t["changes"]
    freq = np.log1p(ch)
    m = freq[t["valid"]].max() if t["valid"].any() else 0
    freq = freq / m if m > 0 else freq * 0
    h = max(t["hist"], 1)
    rec = np.where(np.isnan(t["since"]), 0.0, 1.0 - np.log1p(np.nan_to_num(t["since"])) / math.log1p(h))
    return np.stack([freq, rec], axis=1)


EXTRA = ["frequency", "recency"]


def stack(tasks):
    X = np.stack([np.concatenate([t["X"], extra_features(t)], axis=1) for t in tasks])  # T,K,F
    cls = np.stack([t["cls"] for t in tasks])
    gold = np.stack([t["gold"] for t in tasks])
    valid = np.stack([t["valid"] for t in tasks])
    pathrank = np.stack([t["pathrank"] for t in tasks])
    ngold = np.array([t["ngold"] for t in tasks], dtype=float)
    return X, cls, gold, valid, pathrank, ngold


FEATURES = SIGNALS + EXTRA


def scores(params, data):
    X, cls, gold, valid, pathrank, ngold = data
    w = np.array([params.get(f, 0.0) for f in FEATURES])
    base = X @ w
    prior = np.array([params["p_" + c] for c in CLASSES])[cls]
    mult = 1.0 + params.get("m_frequency", 0.0) * X[:, :, len(SIGNALS)] \
        + params.get("m_recency", 0.0) * X[:, :, len(SIGNALS) + 1]
    bonus = np.array([params.get("b_" + c, 0.0) for c in CLASSES])[cls]
    s = base * prior * mult + bonus
    s = np.where(valid & (X[:, :, 0] + X[:, :, 1:len(SIGNALS)].sum(-1) > 0), s, -np.inf)
    return s


def metrics(params, data, ks=(1, 5, 10)):
    X, cls, gold, valid, pathrank, ngold = data
    s = scores(params, data)
    # sort by -score then path
    idx = np.lexsort((pathrank, -s), axis=-1)
    g = np.take_along_axis(gold, idx, axis=1)
    out = {}
    for k in ks:
        out[k] = g[:, :k].sum(1) / ngold
    ranks = np.argmax(g, axis=1)
    out["mrr"] = np.where(g.any(1), 1.0 / (ranks + 1), 0.0)
    return out


def objective(params, data):
    m = metrics(params, data)
    # each task weighs the same (40 per repository); recall@5 first, recall@1 and @10 to break ties
    return m[5].mean() + 0.1 * m[1].mean() + 0.1 * m[10].mean()


def today_params():
    p = dict(TODAY)
    p.update({"p_" + c: v for c, v in TODAY_PRIOR.items()})
    p.update({"b_" + c: v for c, v in TODAY_BONUS.items()})
    return p


GRID = [0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6, 0.7, 0.8, 1.0, 1.2, 1.5, 2.0]
PRIOR_GRID = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]


def fit(data, free, start=None, passes=3):
    p = dict(start or today_params())
    for f in free:
        p.setdefault(f, 0.0)
    best = objective(p, data)
    for _ in range(passes):
        moved = False
        for f in free:
            grid = PRIOR_GRID if f.startswith("p_") else GRID
            cur = p[f]
            for v in grid:
                p[f] = v
                o = objective(p, data)
                if o > best + 1e-9:
                    best, cur, moved = o, v, True
            p[f] = cur
        if not moved:
            break
    return p


def subset(data, mask):
    return tuple(a[mask] for a in data)



FEATS = SIGNALS + EXTRA


def design(data, use, classes):
    X, cls, gold, valid, pathrank, ngold = data
    prior = np.array([TODAY_PRIOR[c] for c in CLASSES])[cls]
    cols = [X[:, :, FEATS.index(f)] * prior for f in use]
    if classes:
        for c in ["example", "data", "test", "docs"]:
            cols.append((cls == CLASSES.index(c)).astype(float))
    return np.stack(cols, axis=-1)


def train(data, use, classes, l2=1e-2, head=30, iters=400):
    X, cls, gold, valid, pathrank, ngold = data
    Z = design(data, use, classes)
    today = sum(TODAY.get(f, 0) * Z[:, :, i] for i, f in enumerate(use))
    diffs = []
    for t in range(Z.shape[0]):
        # pairs: each gold file against the non-gold files of today's head
        order = np.argsort(-np.where(valid[t], today[t], -np.inf), kind="stable")[:head]
        neg = [j for j in order if not gold[t, j] and valid[t, j]]
        pos = [j for j in range(Z.shape[1]) if gold[t, j]]
        if not pos or not neg:
            continue
        d = (Z[t, pos][:, None, :] - Z[t, neg][None, :, :]).reshape(-1, Z.shape[-1])
        # each task weighs the same
        diffs.append((d, np.full(len(d), 1.0 / len(d))))
    D = np.concatenate([d for d, _ in diffs])
    W = np.concatenate([w for _, w in diffs])
    W = W / W.sum()
    w = np.array([TODAY.get(f, 0.0) for f in use] + [0.0] * (Z.shape[-1] - len(use))) * 5
    lr = 1.0
    for _ in range(iters):
        m = D @ w
        p = 1 / (1 + np.exp(np.clip(m, -30, 30)))
        grad = -(D * (W * p)[:, None]).sum(0) + l2 * w
        w -= lr * grad * 10
    return w


def evaluate(w, data, use, classes):
    X, cls, gold, valid, pathrank, ngold = data
    Z = design(data, use, classes)
    s = Z @ w
    s = np.where(valid & (X[:, :, :len(SIGNALS)].sum(-1) > 0), s, -np.inf)
    idx = np.lexsort((pathrank, -s), axis=-1)
    g = np.take_along_axis(gold, idx, axis=1)
    return {k: g[:, :k].sum(1) / ngold for k in (1, 5, 10)}


def tree_features(data):
    """Every candidate's components, history features, prior and class, for the trees."""
    X, cls, gold, valid, pathrank, ngold = data
    prior = np.array([TODAY_PRIOR[c] for c in CLASSES])[cls]
    onehot = np.eye(len(CLASSES))[cls]
    return np.concatenate([X, prior[:, :, None], onehot], axis=-1)


def boosted(data, trees, leaves):
    """Gradient-boosted trees (LightGBM's lambdarank) over the same features: does a nonlinear
    combination find what the linear weights cannot?"""
    import lightgbm  # noqa: PLC0415 (only this family needs it)
    X, cls, gold, valid, pathrank, ngold = data
    Z = tree_features(data)
    model = lightgbm.LGBMRanker(n_estimators=trees, num_leaves=leaves, learning_rate=0.05,
                                min_child_samples=20, verbose=-1, deterministic=True,
                                force_row_wise=True, lambdarank_truncation_level=10)
    groups = valid.sum(1)
    keep = groups > 0
    model.fit(Z[valid], gold[valid].astype(int), group=groups[keep])
    return model


def evaluate_boosted(model, data):
    X, cls, gold, valid, pathrank, ngold = data
    Z = tree_features(data)
    s = np.full(valid.shape, -np.inf)
    if valid.any():
        s[valid] = model.predict(Z[valid])
    s = np.where(valid & (X[:, :, :len(SIGNALS)].sum(-1) > 0), s, -np.inf)
    idx = np.lexsort((pathrank, -s), axis=-1)
    g = np.take_along_axis(gold, idx, axis=1)
    return {k: g[:, :k].sum(1) / ngold for k in (1, 5, 10)}


BASE = ["definitions", "names", "mentions", "scope", "messages", "graph", "cochange", "feedback"]
PRIORS = ["p_" + c for c in ["example", "data", "test", "docs", "vendored", "generated"]]
FAMILIES = {
    "coordinate ascent: the weights": (
        lambda d: fit(d, BASE), lambda p, d: metrics(p, d)),
    "coordinate ascent: weights and the priors": (
        lambda d: fit(d, BASE + PRIORS), lambda p, d: metrics(p, d)),
    "coordinate ascent: weights, priors, frequency, recency": (
        lambda d: fit(d, BASE + PRIORS + EXTRA), lambda p, d: metrics(p, d)),
    "pairwise LR: signals × prior (L2 0.01)": (
        lambda d: train(d, SIGNALS, False, 1e-2), lambda w, d: evaluate(w, d, SIGNALS, False)),
    "pairwise LR: + frequency, recency (L2 0.01)": (
        lambda d: train(d, FEATS, False, 1e-2), lambda w, d: evaluate(w, d, FEATS, False)),
    "pairwise LR: + class terms, frequency, recency (L2 0.001)": (
        lambda d: train(d, FEATS, True, 1e-3), lambda w, d: evaluate(w, d, FEATS, True)),
    "pairwise LR: + class terms, frequency, recency (L2 0.01)": (
        lambda d: train(d, FEATS, True, 1e-2), lambda w, d: evaluate(w, d, FEATS, True)),
    "pairwise LR: signals × prior + class terms (L2 0.01)": (
        lambda d: train(d, SIGNALS, True, 1e-2), lambda w, d: evaluate(w, d, SIGNALS, True)),
}
if importlib.util.find_spec("lightgbm"):
    for trees, leaves in [(50, 4), (100, 8), (300, 8)]:
        FAMILIES[f"boosted trees: lambdarank, {trees} trees of {leaves} leaves"] = (
            lambda d, t=trees, l=leaves: boosted(d, t, l), evaluate_boosted)
# the family rank.rs's weights were first fitted with (docs/relevance.md, "Fitted weights")
CHOSEN = "pairwise LR: signals × prior + class terms (L2 0.01)"


def main():
    tasks = load(sys.argv[1])
    repos = list(dict.fromkeys(t["repo"] for t in tasks))
    repo_of = np.array([t["repo"] for t in tasks])
    data = stack(tasks)
    today = today_params()
    m = metrics(today, data)
    cli = np.array([len(set(t["order"][:5]) & set(t["goldlist"])) / t["ngold"] for t in tasks])
    print(f"the ranker's weights recombined from the dump: r@5 {m[5].mean():.4f}; the CLI's answers "
          f"{cli.mean():.4f}; tasks that differ: {int(np.sum(np.abs(m[5] - cli) > 1e-9))}")
    tuning = [r for r in repos if r not in HELD_OUT]

    def cv(fitter, scorer):
        out = {}
        for r in repos:
            model = fitter(subset(data, np.isin(repo_of, [x for x in tuning if x != r])))
            out[r] = scorer(model, subset(data, repo_of == r))
        return out

    def group(res, members, k):
        return np.concatenate([res[r][k] for r in members]).mean()

    results = {name: cv(*f) for name, f in FAMILIES.items()}
    todays = {r: metrics(today, subset(data, repo_of == r)) for r in repos}
    print(f"\n{CHOSEN}, leave one repository out:\n")
    print("| repository | tasks | ranker's r@5 | fitted r@5 (CV) | ranker's r@1 | fitted r@1 (CV) |")
    print("|---|---|---|---|---|---|")
    for r in repos:
        b, c = todays[r], results[CHOSEN][r]
        held = " (held out)" if r in HELD_OUT else ""
        print(f"| {r}{held} | {len(b[5])} | {b[5].mean():.3f} | {c[5].mean():.3f} | "
              f"{b[1].mean():.3f} | {c[1].mean():.3f} |")
    for label, members in [("tuned on", tuning), ("held out", HELD_OUT), ("overall", repos)]:
        print(f"| **{label}** | {sum(len(todays[r][5]) for r in members)} | "
              f"{group(todays, members, 5):.3f} | {group(results[CHOSEN], members, 5):.3f} | "
              f"{group(todays, members, 1):.3f} | {group(results[CHOSEN], members, 1):.3f} |")
    print("\n| model (fitted on the tuning repositories) | tuned on r@5 (CV) | held out r@5 | overall |")
    print("|---|---|---|---|")
    print(f"| ranker's weights | {group(todays, tuning, 5):.3f} | {group(todays, HELD_OUT, 5):.3f} | "
          f"{group(todays, repos, 5):.3f} |")
    for name, res in results.items():
        print(f"| {name} | {group(res, tuning, 5):.3f} | {group(res, HELD_OUT, 5):.3f} | "
              f"{group(res, repos, 5):.3f} |")
    train_data = subset(data, np.isin(repo_of, tuning))
    w = train(train_data, SIGNALS, True, 1e-2)
    names = SIGNALS + ["class example", "class data", "class test", "class docs"]
    print("\nthe chosen model fitted on the 8 tuning repositories (÷ the fields weight):",
          {n: round(float(v), 3) for n, v in zip(names, w / w[0])})
    if len(sys.argv) > 2:
        fresh = load(sys.argv[2])
        fdata = stack(fresh)
        frepo = np.array([t["repo"] for t in fresh])
        frepos = list(dict.fromkeys(frepo))
        print("\nfresh repositories, models fitted on the 8 tuning repositories:\n")
        print("| model | " + " | ".join(frepos) + " | r@5 | r@1 |")
        print("|---|" + "---|" * (len(frepos) + 2))
        rows = {"ranker's weights": lambda d: metrics(today, d)}
        for name, (fitter, scorer) in FAMILIES.items():
            model = fitter(train_data)
            rows[name] = lambda d, model=model, scorer=scorer: scorer(model, d)
        for name, score in rows.items():
            cells = [f"{score(subset(fdata, frepo == r))[5].mean():.3f}" for r in frepos]
            all_ = score(fdata)
            print(f"| {name} | " + " | ".join(cells) + f" | {all_[5].mean():.3f} | {all_[1].mean():.3f} |")


if __name__ == "__main__":
    main()
