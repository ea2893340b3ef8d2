"""Research environments (shared/envs): steps per second of random play per game on
one core, beside RLCard's card games (when rlcard is installed: the bench extra), and
what the flat encoding costs beside the structured observation.

    .venv/bin/python -m bench.envs [--seconds 3] [--reps 3] [--players 2]

Random play: each step the agent to act takes an action drawn uniformly from its
action mask, observing as an agent does (`last()`: the flat observation and the mask).
RLCard's loop is the same: reset, then a uniformly random legal action until the game
is over. The process is pinned to one core.

The encoding's cost, per observation at the same positions: the structured one is the
seat's view (table.view, what the API gives); the flat one is that view, its
feature-hashed vector and the action mask (observations.observation_of), the least
of the reps (a micro cost: the least is the one with the least noise of a shared
machine in it). Goal: the flat one at most 2x the structured one.
"""

import argparse
import os
import random
import time

import numpy as np

from bench.stats import load_average, median
from shared import games, table
from shared.envs import env as make_env
from shared.envs.actions import actions
from shared.envs.observations import Encoder, observation_of

SHORT = {"alebrijes": {"rounds": 1}}
RLCARD_GAMES = ("leduc-holdem", "uno", "gin-rummy")


def steps_per_second(game, players, seconds, seed):
    """Env steps a second of masked random play, over whole games, for `seconds`."""
    rng = np.random.default_rng(seed)
    steps, start, n = 0, time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
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
    return steps / (time.perf_counter() - start)


def rlcard_steps_per_second(name, seconds, seed):
    import rlcard

    env = rlcard.make(name, config={"seed": seed})
    rng = random.Random(seed)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            steps += 1
    return steps / (time.perf_counter() - start)


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


def encoding_cost(game, players, count, seed):
    """(structured, flat) microseconds per observation, over the same positions."""
    points = positions(game, players, count, seed)
    encoder, encoding = Encoder(), actions(game)
    start = time.perf_counter()
    for current, version, seat in points:
        table.view(current, version, seat)
    structured = time.perf_counter() - start
    start = time.perf_counter()
    for current, version, seat in points:
        observation_of(table.view(current, version, seat), encoder, encoding)
    flat = time.perf_counter() - start
    return structured / len(points) * 1e6, flat / len(points) * 1e6


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.envs", description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="per game and rep (3)")
    parser.add_argument("--reps", type=int, default=3, help="reps, interleaved (3)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--positions", type=int, default=2000, help="for the encoding's cost")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
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
    runs = {name: [] for name in [*names, *others]}
    for rep in range(args.reps):
        for name in names:
            runs[name].append(steps_per_second(name, args.players, args.seconds, 100 * rep))
        for name in others:
            runs[name].append(rlcard_steps_per_second(name, args.seconds, rep))
    print(f"\nrandom play, steps/s on one core, median of {args.reps} ({args.players} players):")
    for name, values in runs.items():
        where = "rlcard" if name in others else "tablestream"
        low, high = min(values), max(values)
        print(f"  {where:11} {name:13} {median(values):9.0f}  ({low:.0f}-{high:.0f})")
    print(
        f"\nobservation cost, us each, over {args.positions} positions, the least of"
        f" {args.reps} interleaved reps (goal: flat <= 2x structured):"
    )
    for name in names:
        costs = [encoding_cost(name, args.players, args.positions, 1) for _ in range(args.reps)]
        structured = min(c[0] for c in costs)
        flat = min(c[1] for c in costs)
        times = f"structured {structured:7.1f}  flat {flat:7.1f}"
        print(f"  {name:11} {times}  x{flat / structured:.2f}")
    print(f"\nload average after: {load_average()}")


if __name__ == "__main__":
    main()
