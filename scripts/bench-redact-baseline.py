#!/usr/bin/env python3
"""Redaction throughput of this checkout against a baseline commit, timed interleaved.

Runs the `redact` criterion benchmark (`crates/devprojex-redact/benches/redact.rs`) alternately
in a worktree of BASE and in this checkout, ROUNDS times each, with

- `DPX_BENCH_CPU_TIME=1`: the time is the benchmark thread's CPU time, so the figure is MiB/s
  per core, whatever else the machine runs;
- `DPX_BENCH_INPUTS`: the same input bytes in both (two of the inputs are made from the build's
  own sources and rules, which differ between commits);
- this checkout's benchmark file in both, so both run the same harness.

It prints, per input, the mean MiB/s of each run (criterion's printed figure), then the median
and the best of each build and their ratios (this checkout over BASE). On a machine shared with
other work one build's figure moves by a quarter from run to run: compare the medians and the
bests of interleaved runs, not two single runs. With `--instructions` (valgrind installed) it
also counts the instructions of one warm `Redactor::redact` of each input in both builds
(`examples/redact_once.rs` under `valgrind --tool=callgrind`), which the load does not change.

usage: scripts/bench-redact-baseline.py [--base COMMIT] [--rounds N] [--measurement-time S]
                                       [--base-target DIR] [--instructions]

The baseline worktree is built in release mode (minutes on two cores; `--base-target DIR` keeps
its build for the next run) and removed afterwards. This checkout builds in `CARGO_TARGET_DIR`
when it is set, else in its `target`. Not part of CI.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path("crates/devprojex-redact/benches/redact.rs")
ONCE = Path("crates/devprojex-redact/examples/redact_once.rs")


def run(cmd, cwd, env=None, quiet=True):
    out = subprocess.run(cmd, cwd=cwd, env=env, text=True,
                         stdout=subprocess.PIPE if quiet else None,
                         stderr=subprocess.STDOUT if quiet else None)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed in {cwd}:\n{out.stdout or ''}")
    return out.stdout or ""


def throughputs(target):
    """MiB/s per benchmark of the last run built in `target`, from criterion's estimates."""
    root = target / "criterion" / "redact"
    result = {}
    for bench in sorted(p for p in root.iterdir() if (p / "new" / "estimates.json").exists()):
        est = json.loads((bench / "new" / "estimates.json").read_text())
        meta = json.loads((bench / "new" / "benchmark.json").read_text())
        nanos = est["mean"]["point_estimate"]
        result[bench.name] = meta["throughput"]["Bytes"] / (nanos * 1e-9) / (1 << 20)
    return result


def instructions(binary, args, times):
    """Instructions valgrind counts for the whole run of `binary`."""
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          str(binary), *args, "--times", str(times)],
                         text=True, capture_output=True)
    for line in out.stderr.splitlines():
        if "Collected :" in line:
            return int(line.rsplit(":", 1)[1])
    sys.exit(f"valgrind gave no count for {binary}:\n{out.stderr}")


def instruction_table(targets, trees, envs, inputs):
    """One warm redaction of each input, in instructions, both builds."""
    cases = [(p.stem, [str(p)]) for p in sorted(inputs.glob("*.txt"))]
    cases.append(("private-data", [str(inputs / "ordinary-source.txt"), "--private-data"]))
    counts = {}
    for name in ("base", "ours"):
        run(["cargo", "build", "--locked", "--release", "-p", "devprojex-redact", "--example",
             "redact_once"], trees[name], envs[name])
        binary = targets[name] / "release" / "examples" / "redact_once"
        for case, args in cases:
            counts[(name, case)] = instructions(binary, args, 2) - instructions(binary, args, 1)
    print("\nInstructions of one warm Redactor::redact (valgrind callgrind)")
    print("| input | base | ours | ratio |")
    print("|---|---:|---:|---:|")
    for case, _ in cases:
        b, o = counts[("base", case)], counts[("ours", case)]
        print(f"| {case} | {b:,} | {o:,} | {o / b:.2f} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", default="main", help="baseline commit (default: main)")
    ap.add_argument("--rounds", type=int, default=3, help="timing rounds (0: none)")
    ap.add_argument("--measurement-time", default="3")
    ap.add_argument("--base-target", type=Path, help="cargo target directory of the baseline")
    ap.add_argument("--instructions", action="store_true",
                    help="also count instructions with valgrind")
    args = ap.parse_args()

    ours = Path(run(["git", "rev-parse", "--show-toplevel"], Path.cwd()).strip())
    base_rev = run(["git", "rev-parse", "--short", args.base], ours).strip()
    scratch = Path(tempfile.mkdtemp(prefix="dpx-bench-redact-"))
    base = scratch / "base"
    inputs = scratch / "inputs"
    env = dict(os.environ, DPX_BENCH_CPU_TIME="1", DPX_BENCH_INPUTS=str(inputs))
    # this checkout builds where CARGO_TARGET_DIR says (a worktree with its own target
    # directory), else in its `target`
    own_target = env.pop("CARGO_TARGET_DIR", None)
    targets = {"ours": Path(own_target) if own_target else ours / "target",
               "base": args.base_target or base / "target"}
    envs = {"ours": dict(env, CARGO_TARGET_DIR=str(targets["ours"].resolve())),
            "base": dict(env, CARGO_TARGET_DIR=str(targets["base"].resolve()))}
    cargo = ["cargo", "bench", "--locked", "-p", "devprojex-redact", "--bench", "redact", "--"]
    criterion = ["--warm-up-time", "1", "--measurement-time", args.measurement_time]
    try:
        run(["git", "worktree", "add", "--detach", str(base), base_rev], ours)
        shutil.copy(ours / BENCH, base / BENCH)
        shutil.copy(ours / ONCE, base / ONCE)
        # this checkout writes the inputs; the baseline reads them
        print(f"building this checkout and {base_rev} (release)", file=sys.stderr)
        run(cargo + ["--list"], ours, envs["ours"])
        run(cargo + ["--list"], base, envs["base"])
        runs = {"base": [], "ours": []}
        for r in range(args.rounds):
            for name, tree in (("base", base), ("ours", ours)):
                run(cargo + criterion, tree, envs[name])
                runs[name].append(throughputs(targets[name]))
                print(f"round {r + 1}: {name} done", file=sys.stderr)
        table = None
        if args.instructions:
            import contextlib
            import io
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                instruction_table(targets, {"base": base, "ours": ours}, envs, inputs)
            table = buf.getvalue()
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ours,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(scratch, ignore_errors=True)

    print(f"MiB/s per core (thread CPU time), {base_rev} = base, this checkout = ours, "
          f"{args.rounds} interleaved rounds")
    print("| input | runs (base / ours) | base median | ours median | ratio | base best | "
          "ours best | ratio |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for bench in runs["ours"][0] if runs["ours"] else []:
        b = [r[bench] for r in runs["base"] if bench in r]
        o = [r[bench] for r in runs["ours"]]
        if not b:
            continue
        each = " ".join(f"{x:.0f}/{y:.0f}" for x, y in zip(b, o))
        bm, om, bb, ob = statistics.median(b), statistics.median(o), max(b), max(o)
        print(f"| {bench} | {each} | {bm:.1f} | {om:.1f} | {om / bm:.2f} | {bb:.1f} | "
              f"{ob:.1f} | {ob / bb:.2f} |")
    if table:
        print(table, end="")


if __name__ == "__main__":
    main()
