"""table.fold copies the rules' state once for a whole fold, not once an event, and makes
no table between two events: it must give what folding one event at a time gives, and
change neither its table nor its events (unless given them), for every game."""

import copy
import random

import pytest

from shared import games
from shared import table as tables
from tests.helpers import legal_choices


def random_game(game, players, seed, steps=400):
    """The events of a game of random legal commands (and the table's timers when nobody
    can act), up to `steps` commands."""
    rng = random.Random(seed)
    seats = [{"name": f"p{seat}"} for seat in range(players)]
    events = list(tables.create("g", game, seats, {"seed": str(seed)}, str(seed)))
    current = None
    for event in events:
        current = tables.evolve(current, event)
    for _ in range(steps):
        if current["status"] != "active":
            break
        choices = legal_choices(current)
        if choices:
            new = tables.play(current, *rng.choice(choices))
        elif tables.rules_timers(current):
            new = tables.fire(current, tables.rules_timers(current)[0]["key"])
        else:
            break
        for event in new:
            current = tables.evolve(current, event)
        events += new
    return events


@pytest.mark.parametrize("game", games.NAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_fold_is_one_event_at_a_time_and_changes_nothing_it_is_given(game, seed):
    events = random_game(game, 3 if game != "alien" else 4, seed)
    assert len(events) > 20
    one_by_one, states = None, []
    for event in events:
        one_by_one = tables.evolve(one_by_one, event)
        states.append(one_by_one)
    assert tables.fold(events) == one_by_one
    # From a table half-way, with the times of the events: neither input changes.
    half = len(events) // 2
    before, tail = states[half - 1], [(event, 1000 + i) for i, event in enumerate(events[half:])]
    kept_before, kept_tail = copy.deepcopy(before), copy.deepcopy(tail)
    expected = before
    for event, at in tail:
        expected = tables.evolve(expected, event, at)
    assert tables.fold(tail, before) == expected
    assert before == kept_before and tail == kept_tail
    assert states[half - 1] == kept_before  # the states one by one were not touched either
    # Events given away (a projector's, just read) may be kept uncopied: the same table.
    assert tables.fold(copy.deepcopy(tail), before, copy_events=False) == expected
    assert before == kept_before


@pytest.mark.parametrize("game", games.NAMES)
def test_a_fold_in_short_runs_gives_every_table_one_event_at_a_time_gives(game):
    """As a projector folds a game a few events at a time: each run's table, the seats'
    clocks and the table's timers included, is the one of folding event by event."""
    events = random_game(game, 3 if game != "alien" else 4, 3)
    timed = [(event, 1000 + i) for i, event in enumerate(events)]
    rng, start, folded, expected = random.Random(3), 0, None, None
    while start < len(timed):
        run = timed[start : start + rng.randint(1, 6)]
        for event, at in run:
            expected = tables.evolve(expected, event, at)
        folded = tables.fold(copy.deepcopy(run), folded, copy_events=False)
        assert folded == expected, f"after event {start + len(run)}"
        start += len(run)
