"""Research environments (shared/envs): steps per second of random play per game on
one core, beside RLCard's card games (when rlcard is installed: the bench extra), and
what the flat encoding costs beside the structured observation.

    .venv/bin/python -m bench.envs [--seconds 3] [--reps 5] [--positions 300]

Time is this thread's CPU time (time.thread_time), not the wall clock: on a shared
machine the wall clock also counts the time the process waits for a core, which falls
at random on whichever side of a comparison was running. The process is pinned to one
core. Reps are interleaved (every game, then again); the figures are medians.

Random play: each step the agent to act takes an action drawn uniformly from its
action mask, observing as an agent does (`last()`: the flat observation and the mask).
RLCard's loop is the same: reset, then a uniformly random legal action until the game
is over. Steps per CPU-second.

The encoding's cost, per observation at the same positions of random play, as the
environment charges each kind of agent: the structured observation is the seat's view
(table.view, what the API gives) with its action mask (observations.action_mask: any
agent needs it to act, and the env's infos hold both); the flat one is that view, its
mask and its vector (observe(), observations.observation_of), since a flat observation
is made from the view. The view alone is timed too: flat / view is the ratio with the
mask counted on the flat side only. Each is made afresh at each position, the same
way, pass after pass (the order rotates by rep), after one pass over other positions
that is not timed (a process meets each path of the views once; that is not a step's
cost). Each rep times positions no earlier pass has met: the encoder and the mask
remember values they have seen, and a position met twice would find all of it
remembered, as play does not. The ratio is taken within each rep and its median
quoted. Goal: the flat one at most 2x the structured one.
"""

import argparse
import multiprocessing
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from bench.stats import load_average, median
from shared import games, table
from shared.envs import env as make_env
from shared.envs.actions import actions
from shared.envs.observations import Encoder, action_mask, observation_of

SHORT = {"alebrijes": {"rounds": 1}}
CLOCK = time.thread_time
RLCARD_GAMES = ("leduc-holdem", "uno", "gin-rummy")


def steps_per_second(game, players, seconds, seed):
    """Env steps a second of masked random play, over whole games, for `seconds`."""
    rng = np.random.default_rng(seed)
    steps, start, n = 0, CLOCK(), 0
    while CLOCK() - start < seconds:
        env = make_env(game, players, options=SHORT.get(game))
        env.reset(seed=seed + n)
        n += 1
        for _ in env.agent_iter(max_iter=50_000):
            observation, _, done, cut, _ = env.last()
            if done or cut:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
    return steps / (CLOCK() - start)


def rlcard_steps_per_second(name, seconds, seed):
    import rlcard

    env = rlcard.make(name, config={"seed": seed})
    rng = random.Random(seed)
    steps, start = 0, CLOCK()
    while CLOCK() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            steps += 1
    return steps / (CLOCK() - start)


def positions(game, players, count, seed):
    """(table, version, seat) of `count` moments of random play where a seat acts."""
    env = make_env(game, players, options=SHORT.get(game))
    env.reset(seed=seed)
    rng, found = np.random.default_rng(seed), []
    for agent in env.agent_iter(max_iter=50_000):
        observation, _, done, cut, _ = env.last()
        if done or cut:
            if len(found) >= count:
                break
            env.step(None)
            env.reset(seed=seed + len(found))
            continue
        found.append((env.table, env.version, env.seat(agent)))
        if len(found) >= count:
            break
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return found[:count]


KINDS = ("view", "structured", "flat")


def observations(kind, points, encoder, encoding):
    """Make `kind` of observation at each of `points`."""
    for current, version, seat in points:
        view = table.view(current, version, seat)
        if kind == "structured":
            action_mask(view, encoding)
        elif kind == "flat":
            observation_of(view, encoder, encoding)


def encoding_cost(points, game, rep):
    """{kind: microseconds per observation} over `points`, pass after pass, the order
    rotating with `rep`."""
    encoder, encoding = Encoder(), actions(game)
    spent = {}
    for kind in KINDS[rep % 3 :] + KINDS[: rep % 3]:
        start = CLOCK()
        observations(kind, points, encoder, encoding)
        spent[kind] = (CLOCK() - start) / len(points) * 1e6
    return spent


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.envs", description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="per game and rep (3)")
    parser.add_argument("--reps", type=int, default=5, help="reps, interleaved (5)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--positions", type=int, default=300, help="for the encoding's cost")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--encoding-only", action="store_true", help="no random play")
    args = parser.parse_args(argv)
    os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    names = args.game or list(games.NAMES)
    for name in names:
        actions(name)  # the encodings are built once per process: not a step's cost
    try:
        import rlcard  # noqa: F401

        others = RLCARD_GAMES
    except ImportError:
        others = ()
        print("rlcard is not installed (the bench extra): no RLCard figures")
    print(f"load average before: {load_average()}")
    runs = {name: [] for name in [*names, *others]} if not args.encoding_only else {}
    for rep in range(args.reps if runs else 0):
        for name in names:
            runs[name].append(steps_per_second(name, args.players, args.seconds, 100 * rep))
        for name in others:
            runs[name].append(rlcard_steps_per_second(name, args.seconds, rep))
    if runs:
        print(f"\nrandom play, steps per CPU-second on one core, median of {args.reps}:")
    for name, values in runs.items():
        where = "rlcard" if name in others else "tablestream"
        low, high = min(values), max(values)
        print(f"  {where:11} {name:13} {median(values):9.0f}  ({low:.0f}-{high:.0f})")
    # One set of positions a pass: the untimed first, then one for each rep; found in
    # a child process, whose environment observes every position it plays through.
    count = args.positions
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as child:
        found = {
            name: child.submit(positions, name, args.players, count * (args.reps + 1), 1)
            for name in names
        }
        points = {name: future.result() for name, future in found.items()}
    for name in names:  # untimed: each path of the views is met once per process
        encoding_cost(points[name][:count], name, 0)
    costs = {name: [] for name in names}
    for rep in range(1, args.reps + 1):
        for name in names:
            chunk = points[name][rep * count : (rep + 1) * count]
            costs[name].append(encoding_cost(chunk, name, rep))
    print(
        f"\nobservation cost, us of CPU each, over {args.positions} positions, median of"
        f" {args.reps} interleaved reps (structured: view and action mask; flat: view,"
        " mask and vector; goal: flat <= 2x structured):"
    )
    for name in names:
        times = "  ".join(f"{kind} {median(c[kind] for c in costs[name]):6.1f}" for kind in KINDS)
        ratios = [c["flat"] / c["structured"] for c in costs[name]]
        alone = median(c["flat"] / c["view"] for c in costs[name])
        spread = f"{min(ratios):.2f}-{max(ratios):.2f}"
        print(f"  {name:11} {times}  x{median(ratios):.2f} ({spread})  flat / view x{alone:.2f}")
    print(f"\nload average after: {load_average()}")


if __name__ == "__main__":
    main()
