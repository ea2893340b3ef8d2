"""The A/B harness: one benchmark run against two (or more) checkouts in turn, so
every side sees the same noise of a shared machine.

    git -C /work/main worktree add --detach /tmp/base <commit>
    .venv/bin/python -m bench.ab /tmp/base . --reps 3 -- human_moves --games 50 --seconds 10

For each rep, each checkout in turn runs `python -m bench.<module> <args>` with that
checkout's `services/` and `shared/` first on the path and this checkout's `bench/`
(so an old tree is measured by today's benchmark, and only the code under test
differs). Each rep starts one checkout further on (A, B, then B, A): on a shared
machine the first run of a rep tends to come out ahead, whichever tree it is.

A benchmark whose output ends with one JSON object on a line (human_moves, projector,
rebuild, request_cpu, projector_rate, ...) gets the median of each numeric field per
checkout, and each field's B/A ratio. A checkout may carry environment settings for
its runs: `/tmp/base:WORKERS=3:RATE_LIMITS=on`.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.stats import load_average, median

BENCH = Path(__file__).resolve().parent


def order(count, rep):
    """The checkouts' indexes in the order rep `rep` runs them: one further on each rep."""
    return [(rep + i) % count for i in range(count)]


def parse_tree(spec):
    """ "/path:NAME=value:NAME=value" -> (the checkout's resolved path, its settings)."""
    path, *settings = spec.split(":")
    return Path(path).resolve(), dict(setting.split("=", 1) for setting in settings)


def run_in_tree(tree, module, args, env=None, timeout=3600):
    """`python -m <module> <args>` with `tree`'s services/ and shared/ and this
    checkout's bench/: the completed process (stdout captured, stderr shown)."""
    with tempfile.TemporaryDirectory(prefix="bench-ab-") as scratch:
        # The child's current directory holds only a link to this bench/, so its
        # `services` and `shared` come from PYTHONPATH: the tree under test (and every
        # process it starts, which inherits PYTHONPATH, runs the same tree).
        (Path(scratch) / "bench").symlink_to(BENCH)
        child_env = {k: v for k, v in os.environ.items() if k not in ("QUEUE_URL", "KEY_PREFIX")}
        child_env.update(env or {}, PYTHONPATH=str(tree))
        return subprocess.run(
            [sys.executable, "-m", module, *args],
            cwd=scratch,
            env=child_env,
            stdout=subprocess.PIPE,
            text=True,
            timeout=timeout,
            check=True,
        )


def last_json(output):
    """The JSON object on the output's last line, or None."""
    lines = output.strip().splitlines()
    try:
        found = json.loads(lines[-1]) if lines else None
    except ValueError:
        return None
    return found if isinstance(found, dict) else None


def medians(rows):
    """The median of each numeric field over a checkout's runs."""
    keys = [k for k, v in rows[0].items() if isinstance(v, int | float) and not isinstance(v, bool)]
    return {k: median(r[k] for r in rows if isinstance(r.get(k), int | float)) for k in keys}


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        usage="python -m bench.ab TREE TREE [...] [--reps N] -- MODULE [ARGS...]",
    )
    parser.add_argument("trees", nargs="+", help="checkouts, A first (PATH[:NAME=VALUE...])")
    parser.add_argument("--reps", type=int, default=3)
    argv = sys.argv[1:]
    if "--" not in argv:
        parser.error("name the benchmark after --, e.g. -- human_moves --seconds 10")
    split = argv.index("--")
    args = parser.parse_args(argv[:split])
    module, *bench_args = argv[split + 1 :] or [None]
    if module is None:
        parser.error("name the benchmark after --")
    trees = [parse_tree(spec) for spec in args.trees]
    labels = "ABCDEFGH"
    print(f"load before: {load_average()}", flush=True)
    rows = {index: [] for index in range(len(trees))}
    for rep in range(args.reps):
        for index in order(len(trees), rep):
            tree, env = trees[index]
            done = run_in_tree(tree, f"bench.{module}", bench_args, env)
            print(
                f"--- {labels[index]} ({tree}) rep {rep + 1}:\n{done.stdout.rstrip()}", flush=True
            )
            found = last_json(done.stdout)
            if found is not None:
                rows[index].append(found)
    print(f"load after: {load_average()}")
    if not all(rows.values()):
        return  # the benchmark prints no JSON summary: its own lines above are the result
    summary = {index: medians(found) for index, found in rows.items()}
    for index, (tree, _) in enumerate(trees):
        shown = {k: round(v, 3) for k, v in summary[index].items() if v is not None}
        print(f"median {labels[index]} ({tree}): {json.dumps(shown)}")
    a = summary[0]
    for index in range(1, len(trees)):
        b = summary[index]
        ratios = {k: round(b[k] / a[k], 3) for k in a if a[k] and b.get(k) is not None}
        print(f"{labels[index]}/A: {json.dumps(ratios)}")


if __name__ == "__main__":
    main()
