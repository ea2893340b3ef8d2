"""Does a nicer projector and workers (`BACKGROUND_NICE`, services/run.py) let API
requests run sooner? Two tablestream stacks, one at each niceness, driven in turn
(A, B, A, B...) at a paced rate; per move, the time the API workers and the projector
spent runnable but waiting for a core (`/proc/<pid>/task/*/schedstat`, Linux), and the
POST p99 and projection lag p99.

    .venv/bin/python bench/background_nice.py --rate 120 --reps 4 --nice 0 5
"""

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import load  # noqa: E402
import systems  # noqa: E402


def waited_s(processes):
    """Seconds these processes' threads spent on a run queue, waiting for a core."""
    total = 0
    for process in processes:
        for task in Path(f"/proc/{process.pid}/task").iterdir():
            total += int((task / "schedstat").read_text().split()[1])
    return total / 1e9


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=120, help="moves/s, total")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--reps", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--nice", nargs=2, default=["0", "5"], help="A's and B's")
    args = parser.parse_args()
    print(f"load before: {os.getloadavg()}", flush=True)
    rows = {nice: [] for nice in args.nice}
    with tempfile.TemporaryDirectory() as directory:
        stacks = {}
        try:
            for nice in args.nice:
                run_dir, log = Path(directory) / nice, Path(directory) / f"{nice}.log"
                stacks[nice] = systems.Tablestream(run_dir, log, env={"BACKGROUND_NICE": nice})
                stacks[nice].start()
            for rep in range(args.reps):
                for nice, stack in stacks.items():
                    rows[nice].append(one_run(stack, args))
                    print(f"nice {nice} #{rep + 1}: {brief(rows[nice][-1])}", flush=True)
        finally:
            for stack in stacks.values():
                stack.stop()
    print(f"load after: {os.getloadavg()}")
    for nice, runs in rows.items():
        medians = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
        print(f"nice {nice}, medians of {len(runs)}: {brief(medians)}")


def one_run(stack, args):
    api, projector = stack.api_workers(), stack.processes()["projector"]
    before = waited_s(api), waited_s(projector)
    summary, _ = load.run("tablestream", stack.base, args.games, args.seconds, rate=args.rate)
    moves = max(1, summary["all_moves"])
    return {
        "api_wait_ms": 1000 * (waited_s(api) - before[0]) / moves,
        "projector_wait_ms": 1000 * (waited_s(projector) - before[1]) / moves,
        "post_p99_ms": summary["post_p99_ms"],
        "lag_p99_ms": summary["lag_p99_ms"],
    }


def brief(run):
    return (
        f"API waited {run['api_wait_ms']:.2f} ms a move for a core, projector "
        f"{run['projector_wait_ms']:.2f} ms; POST p99 {run['post_p99_ms']:.1f} ms, "
        f"lag p99 {run['lag_p99_ms']:.1f} ms"
    )


if __name__ == "__main__":
    main()
