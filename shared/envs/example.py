"""A tiny example: a policy written for the environments, evaluated against `greedy`,
and the same policy as a bot level (`LEVEL`) a server can seat.

    python -m shared.envs.example --game alien --games 20

The policy plays a legal action at random, but takes a capture or a claim when the
mask offers one (the action encoding's numbers name the commands).
"""

import argparse
import random

import numpy as np

from shared import bots
from shared import games as rules
from shared.envs import env as make_env
from shared.envs.actions import WAIT, actions
from shared.envs.policy import as_level

EAGER = ("capture", "claim", "take")  # commands the policy takes whenever it may


def eager(game):
    """The policy for `game`: a legal action, an eager one (a capture, a claim, a take)
    when there is one, else any other but waiting, else waiting."""

    def policy(observation, rng):
        commands = actions(game).commands  # action number -> command
        allowed = [int(a) for a in np.flatnonzero(observation["action_mask"])]
        moves = [a for a in allowed if a != WAIT]
        keen = [a for a in moves if commands[a]["type"] in EAGER]
        return rng.choice(keen or moves or allowed)

    return policy


def evaluate(policy, game, games=20, players=2, seed=0):
    """The mean reward of `policy(game)` in seat 0 over `games` games, every other seat `greedy`
    (its share of the victory: 1/players is fair)."""
    total = 0.0
    for n in range(games):
        table = make_env(game, players, options={"rounds": 1} if game == "alebrijes" else {})
        table.reset(seed=seed + n)
        rng = random.Random(seed + n)
        for agent in table.agent_iter(max_iter=100_000):
            observation, reward, done, cut, _ = table.last()
            if agent == "seat_0":
                total += reward if done or cut else 0.0
            if done or cut:
                table.step(None)
            elif agent == "seat_0":
                table.step(policy(game)(observation, rng))
            else:
                table.step(_greedy(table, agent, rng))
    return total / games


def _greedy(table, agent, rng):
    """The action `greedy` takes from the agent's view and feed (WAIT: no reflex)."""
    view, feed = table.view(agent), table.feed(agent)
    encoding = actions(view["game"])
    if view["seat"] in view["to_act"] and not table.infos[agent]["action_mask"][WAIT]:
        return encoding.encode(bots.choose("greedy", view, feed, rng))
    command = bots.react("greedy", view, feed, rng)
    return WAIT if command is None else encoding.encode(command)


LEVEL = as_level(
    {game: eager(game) for game in rules.NAMES},
    description="the example's eager policy (shared/envs/example.py)",
)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m shared.envs.example", description=__doc__)
    parser.add_argument("--game", default="alien")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args(argv)
    score = evaluate(eager, args.game, args.games, args.players)
    fair = 1 / args.players
    print(f"eager vs greedy, {args.game}, {args.games} games: {score:.3f} (fair {fair:.3f})")


if __name__ == "__main__":
    main()
