"""evolve_in_place (base.py, optional): over whole seeded games, folding each event into
the state itself gives exactly the state evolve gives, and evolve still changes neither
its input state nor the event."""

import random

import pytest

from shared import games
from shared.games.common import clone

SEEDS = range(6)
MAX_STEPS = 3000  # a game takes a few hundred commands; a bug must not hang the test
IN_PLACE = [name for name in games.NAMES if hasattr(games.get(name), "evolve_in_place")]


def test_the_games_this_issue_opted_in_fold_in_place():
    assert {"alebrijes", "abluxxen"} <= set(IN_PLACE)


def _command(rules, state, rng):
    """(seat, command): a random legal command of a seat to act, else a table timer's."""
    acting = rules.to_act(state)
    if acting:
        seat = rng.choice(acting)
        return seat, rng.choice(rules.legal(state, seat))
    timers = rules.table_timers(state) if hasattr(rules, "table_timers") else []
    assert timers, "a game nobody acts in must have a timer to fire"
    return None, timers[0]["command"]


@pytest.mark.parametrize("name", IN_PLACE)
@pytest.mark.parametrize("seed", SEEDS)
def test_folding_in_place_gives_the_state_evolve_gives(name, seed):
    rules = games.get(name)
    rng = random.Random(seed)
    players = rules.PLAYERS.start + seed % len(rules.PLAYERS)
    config = {
        "players": players,
        "seed": f"fold-{seed}",
        "deck": None,
        "options": rules.configure(players, {}),
    }
    state = rules.initial(config)
    mine = clone(state)
    seat, command = None, {"type": "start"}
    for _ in range(MAX_STEPS):
        for event in rules.decide(state, seat, command):
            before, sent = clone(state), clone(event)
            after = rules.evolve(state, event)
            assert state == before and event == sent  # evolve changed neither input
            assert rules.evolve_in_place(mine, event) is mine
            assert mine == after
            assert event == sent  # nor did folding it in place
            state = after
        if rules.result(state) is not None:
            return
        seat, command = _command(rules, state, rng)
    raise AssertionError(f"game {seed} did not end in {MAX_STEPS} steps")
