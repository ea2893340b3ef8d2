"""Instructions a move costs in the API's own code, counted (not timed) under
valgrind: a figure the machine's noise and drift cannot move, for an A/B of a change
too small for the timed benchmarks to see.

    .venv/bin/python -m bench.instructions [--moves 100 500]
    .venv/bin/python -m bench.ab /tmp/base . --reps 1 -- instructions   # B/A

bench.request_cpu (the app in-process on a private Redis, the projector run by hand
between moves, the floor's two requests after each move) runs under valgrind's
cachegrind twice, for the two --moves counts; the difference of the two totals over
the difference of the counts is one move's instructions (a GET long-poll, a POST
command, the projector's fold of it and the floor's pair, which is the same code in
every tree), with the start-up (imports, the warm-up) subtracted out. The Redis server
is another process and not counted. PYTHONHASHSEED is fixed: three runs of one tree
gave per-move counts within 0.03% of each other. An instruction count is not a time (a
cache miss costs more than an add); it answers "does this tree run more code a move".

Needs valgrind (Debian's `valgrind` package).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys

from bench.stats import load_average


def instructions(moves):
    """Instructions valgrind counted in bench.request_cpu's process for `moves` moves."""
    command = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
        sys.executable,
        "-m",
        "bench.request_cpu",
        "--rounds",
        "1",
        "--moves",
        str(moves),
    ]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"valgrind printed no instruction count:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, nargs=2, default=[100, 500], metavar=("FEW", "MANY"))
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    few, many = sorted(args.moves)
    print(f"load before: {load_average()}", flush=True)
    counts = {moves: instructions(moves) for moves in (few, many)}
    per_move = (counts[many] - counts[few]) / (many - few)
    start_up = counts[few] - few * per_move
    print(f"instructions a move: {per_move:,.0f}; start-up and warm-up: {start_up:,.0f}")
    print(f"load after: {load_average()}")
    print(json.dumps({"instructions_per_move": per_move, "start_up": start_up}))


if __name__ == "__main__":
    main()
