"""shared/envs: one PettingZoo AEC environment per game. Each passes PettingZoo's own
api_test and seed_test; its action encoding numbers every command the rules make
legal and gives it back; an agent observes exactly its seat's view (the API's), and a
policy of the environment is a bot level."""

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from services.tournament import Game
from shared import bots, games, table
from shared.envs import abluxxen, alakablast, alebrijes, alien, example
from shared.envs.actions import WAIT, actions, key
from shared.envs.observations import Encoder
from shared.envs.policy import as_level

MODULES = {"alebrijes": alebrijes, "alien": alien, "alakablast": alakablast, "abluxxen": abluxxen}
SHORT = {"alebrijes": {"rounds": 1}}


def make(game, players=2):
    return MODULES[game].env(players=players, options=SHORT.get(game))


@pytest.mark.parametrize("game", games.NAMES)
def test_each_environment_passes_pettingzoos_api_and_seed_tests(game):
    api_test(make(game), num_cycles=100, verbose_progress=False)
    seed_test(lambda: make(game, 3), num_cycles=50)


@pytest.mark.parametrize("game", games.NAMES)
def test_the_action_encoding_numbers_every_legal_command_and_gives_it_back(game):
    encoding = actions(game)
    assert encoding.commands[WAIT] is None and len(set(map(key, encoding.commands[1:]))) > 100
    for n in range(3):
        played = Game(game, ["random"] * (2 + n % 2), f"actions-{n}", options=SHORT.get(game))
        while played.step():
            for seat in range(len(played.levels)):
                for command in played.view(seat)["legal"]:
                    assert key(encoding.commands[encoding.encode(command)]) == key(command)


@pytest.mark.parametrize("game", games.NAMES)
def test_an_agent_observes_its_seats_view_and_nothing_else(game):
    env = make(game, 3)
    env.reset(seed=4)
    for steps, agent in enumerate(env.agent_iter(max_iter=300)):
        observation, _, done, cut, info = env.last()
        if done or cut:
            env.step(None)
            continue
        seat = env.seat(agent)
        view = table.view(env.table, env.version, seat)
        assert info["view"] == view and view["seat"] == seat  # what GET .../view gives
        mask = observation["action_mask"]
        legal = {actions(game).encode(c) for c in view["legal"]}
        assert legal <= set(np.flatnonzero(mask)) <= legal | {WAIT}
        assert np.array_equal(observation["observation"], Encoder().encode(view))
        allowed = np.flatnonzero(mask)
        env.step(int(random.Random(steps).choice(allowed)))


def test_the_flat_encoding_reads_the_view_only():
    """Two tables that differ only in what seat 0 cannot see encode alike for it."""
    from services.fairness import decision_points, other_world

    for current, version, seat, view, feed in decision_points("alien", "flat", count=3):
        other = other_world(current, version, seat, view, feed, "flat")
        if other is None:
            continue
        theirs = table.view(other, version, seat)
        assert np.array_equal(Encoder().encode(view), Encoder().encode(theirs))
        assert not np.array_equal(
            Encoder().encode(view), Encoder().encode(table.view(current, version, (seat + 1) % 3))
        )


def test_a_policy_of_the_environment_is_a_level_that_plays_from_the_view():
    level = as_level(example.eager("alien"), games=["alien"])
    played = Game("alien", ["random", "random"], "as level")
    checked = 0
    while played.step() and checked < 20:
        seat = played.turn_seat()
        if seat is None:
            continue
        view = played.view(seat)
        command = level.plays["alien"](view, [], random.Random(checked), 300)
        assert command in view["legal"]
        checked += 1
    assert checked == 20


def test_the_example_evaluates_a_policy_against_greedy():
    score = example.evaluate(example.eager, "alien", games=2)
    assert 0.0 <= score <= 1.0
    alone = bots.registry.levels()  # the example's LEVEL is not installed: no side effect
    assert "example" not in alone
