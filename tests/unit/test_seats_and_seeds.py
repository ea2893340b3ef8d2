"""Every game's rules: a seat that is not at the table is refused by decide, legal and view
with a RuleError (never a TypeError or another seat's cards), and a seed must be a string."""

import pytest

from shared import games
from shared.games.base import RuleError

PLAYERS = 3
# Not seats: bools and floats compare equal to seats 0 and 1, the others are plainly wrong.
NOT_SEATS = [True, False, 0.0, 1.0, "0", -1, PLAYERS, [0], {"seat": 0}]


def configured(rules, seed="seats"):
    options = rules.configure(PLAYERS, {})
    return {"players": PLAYERS, "seed": seed, "deck": None, "options": options}


def started(rules):
    state = rules.initial(configured(rules))
    for event in rules.decide(state, None, {"type": "start"}):
        state = rules.evolve(state, event)
    return state


def refused(call, *args):
    with pytest.raises(RuleError) as caught:
        call(*args)
    return caught.value.code


@pytest.mark.parametrize("name", games.NAMES)
@pytest.mark.parametrize("seat", NOT_SEATS, ids=repr)
def test_ruling_a_seat_that_is_not_a_whole_number_at_the_table_is_refused(name, seat):
    rules = games.get(name)
    state = started(rules)
    acting = rules.to_act(state)[0]
    command = rules.legal(state, acting)[0]  # legal for the seat that 1.0 or True mimics
    assert refused(rules.decide, state, seat, command) == "not_your_turn"
    assert refused(rules.legal, state, seat) == "not_your_turn"
    assert refused(rules.view, state, seat) == "not_your_turn"
    assert rules.decide(state, acting, command)  # the real seat is still served
    assert rules.view(state, acting) != rules.view(state, None)  # its own cards


@pytest.mark.parametrize("name", games.NAMES)
@pytest.mark.parametrize("seed", [None, 7, 7.5, b"seed", ["seed"]], ids=repr)
def test_ruling_a_seed_that_is_not_a_string_is_refused(name, seed):
    rules = games.get(name)
    assert refused(rules.initial, configured(rules, seed)) == "bad_options"
    assert rules.initial(configured(rules, "seed"))["players"] == PLAYERS
