"""shared/envs: one PettingZoo AEC environment per game. Each passes PettingZoo's own
api_test and seed_test; its action encoding numbers every command the rules make
legal and gives it back; an agent observes exactly its seat's view (the API's), and a
policy of the environment is a bot level."""

import random
import zlib

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from services.tournament import Game
from shared import bots, games, table
from shared.envs import abluxxen, alakablast, alebrijes, alien, example
from shared.envs.actions import WAIT, actions, key
from shared.envs.observations import SIZE, Encoder, observation_of
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


def test_an_agent_that_reads_the_view_does_not_pay_for_the_flat_vector(monkeypatch):
    """infos hold the view and the action mask: playing from them, the env never makes
    a vector; observe() makes it once per version, with the same mask."""
    env = make("alien")
    made = []
    encode = env.encoder.encode
    monkeypatch.setattr(env.encoder, "encode", lambda view: made.append(1) or encode(view))
    env.reset(seed=3)
    rng = random.Random(3)
    for steps, agent in enumerate(env.agent_iter(max_iter=200)):
        info = env.infos[agent]
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        encoding = actions("alien")
        legal = {encoding.encode(c) for c in info["view"]["legal"]}
        assert legal <= set(np.flatnonzero(info["action_mask"])) <= legal | {WAIT}
        if steps == 20:
            observed = env.observe(agent)
            assert observed is env.observe(agent) and len(made) == 1
            assert (observed["action_mask"] == info["action_mask"]).all()
        env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    assert steps > 40 and len(made) == 1


@pytest.mark.parametrize("game", games.NAMES)
def test_the_flat_observation_reads_the_view_only(game):
    """Two tables that differ only in what the seat cannot see (others' cards, the
    draw pile, hidden choices, the seed) give it the same vector and action mask."""
    from services.fairness import decision_points, other_world

    encoder, encoding, compared = Encoder(), actions(game), 0
    options = SHORT.get(game)
    for current, version, seat, view, feed in decision_points(game, "flat", 4, 3, options):
        other = other_world(current, version, seat, view, feed, "flat")
        if other is None:
            continue
        mine, _ = observation_of(view, encoder, encoding)
        theirs, _ = observation_of(table.view(other, version, seat), encoder, encoding)
        assert np.array_equal(mine["observation"], theirs["observation"])
        assert np.array_equal(mine["action_mask"], theirs["action_mask"])
        neighbour = table.view(current, version, (seat + 1) % 3)
        assert not np.array_equal(mine["observation"], encoder.encode(neighbour))
        compared += 1
    assert compared >= 2


def reference_encoding(view, size=SIZE):
    """The flat vector as observations.py's docstring defines it, written plainly."""
    vector = np.zeros(size)

    def add(name, weight=1.0):
        vector[zlib.crc32(name.encode()) % size] += weight

    def walk(name, value):
        if isinstance(value, dict):
            for inner_key, inner in value.items():
                walk(f"{name}.{inner_key}", inner)
        elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            for item in value:
                add(f"{name}[]={item}")
        elif isinstance(value, list):
            for i, inner in enumerate(value):
                walk(f"{name}[{i}]", inner)
        elif isinstance(value, (bool, int, float)):
            add(name, float(value))
        else:
            add(f"{name}={value}")

    for root in ("state", "to_act", "version"):
        walk(root, view[root])
    return vector.astype(np.float32)


@pytest.mark.parametrize("game", games.NAMES)
def test_the_flat_vector_is_the_documented_encoding(game):
    """The fast walk (leaves looked up, dicts by their last shape, nested values
    remembered) gives what the plain definition gives, over random play."""
    env, encoder, checked = make(game, 3), Encoder(), 0
    env.reset(seed=11)
    for steps, _agent in enumerate(env.agent_iter(max_iter=1500)):
        observation, _, done, cut, info = env.last()
        if done or cut:
            env.step(None)
            env.reset(seed=11 + steps)
            continue
        view = info["view"]
        assert np.array_equal(observation["observation"], reference_encoding(view))
        assert np.array_equal(encoder.encode(view), reference_encoding(view))
        checked += 1
        env.step(int(random.Random(steps).choice(np.flatnonzero(observation["action_mask"]))))
    assert checked > 300


def test_the_flat_vector_follows_views_that_change_shape():
    """What the fast paths assume (a dict's keys, which of its values are scalars, a
    list of strings, a path's values repeating) may stop holding: the vector is still
    the definition's."""
    cards = [{"open": i % 2 == 0, "told": None if i % 3 else {"power": i % 4}} for i in range(6)]
    states = [
        {"a": 1, "b": "x", "c": [1, 2], "d": {"e": True}},
        {"a": 2, "b": "y", "c": [3, 4], "d": {"e": False}},
        {"a": [1], "b": {"z": None}, "c": [1, {"q": 2}], "d": {"e": 1}},  # scalars to containers
        {"a": 3, "b": "x", "c": ["s", 2, "t"], "d": {"f": 2.5}},  # a mixed list, other keys
        {"b": "x", "c": [], "d": None, "g": 10**9},  # a key gone, an empty list, a big int
        *({"hand": [cards[(n + k) % 6] for k in range(3)], "n": n} for n in range(700)),
        {"hand": ["A", "B", "A"], "n": True},  # the remembered path holds strings now
    ]
    encoder = Encoder()
    for version, state in enumerate(states):
        view = {"state": state, "to_act": [version % 3], "version": version}
        assert np.array_equal(encoder.encode(view), reference_encoding(view)), state


def test_a_legal_command_has_its_action_however_it_is_written():
    """The mask remembers commands as the rules write them; the same command written
    in another order (fields, cards) is still the same action, and one the encoding
    lacks is an error."""
    encoding = actions("abluxxen")
    play = {"type": "play", "cards": ["3", "3", "X"]}
    written_otherwise = {"cards": ["X", "3", "3"], "type": "play"}
    first, again = encoding.legal([play]), encoding.legal([written_otherwise])
    assert list(first) == list(again) == [encoding.encode(play)]
    assert first[encoding.encode(play)] is play
    with pytest.raises(KeyError):
        encoding.legal([{"type": "play", "cards": ["3"] * 9}])


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


def test_a_policy_answering_outside_its_mask_is_replaced_for_that_decision(monkeypatch, caplog):
    """An environment policy as a level fails as any plugin does: an action its mask
    does not allow is an illegal answer, logged, and the fallback decides instead."""
    from shared.bots import registry

    def unmasked(observation, rng):
        return int(np.flatnonzero(observation["action_mask"] == 0)[-1])

    levels = {**registry.levels(), "unmasked": as_level(unmasked, games=["alien"])}
    monkeypatch.setattr(registry, "_loaded", (levels, {}))
    played = Game("alien", ["random", "random"], "unmasked")
    while played.turn_seat() is None:
        played.step()
    view = played.view(played.turn_seat())
    greedy = registry.decide("greedy", view, [], random.Random(5))
    assert registry.decide("unmasked", view, [], random.Random(5), fallback="greedy") == greedy
    assert "bot unmasked answered" in caplog.text and "greedy decides instead" in caplog.text


def test_the_example_evaluates_a_policy_against_greedy():
    score = example.evaluate(example.eager, "alien", games=2)
    assert 0.0 <= score <= 1.0
    alone = bots.registry.levels()  # the example's LEVEL is not installed: no side effect
    assert "example" not in alone
