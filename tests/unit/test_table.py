"""shared/table: a hosted game's lifecycle around its rules, pure (no IO)."""

import pytest

from shared import table
from shared.games.alien.scenarios import arrange_deck
from shared.games.base import RuleError

HANDS = [
    ["C12", "C38", "A5", "H1", "C57"],
    ["A6", "A7", "C02", "C03", "C04"],
    ["A4", "A9", "C06", "C07", "C08"],
]
SUM = {"type": "claim", "card": "A6", "table": "C15"}


def opened(game="alebrijes", seats=3, at=1000, **options):
    specs = [{"name": f"p{i}"} for i in range(seats)]
    events = table.create("g1", game, specs, {"seed": "s", **options}, "s", "salt")
    return table.fold((e, at) for e in events)


def then(current, events, at):
    return table.fold(((e, at) for e in events), current)


def alien(**options):
    return opened("alien", deck=arrange_deck(HANDS, "C15"), **options)


@pytest.mark.parametrize("value", [0, -3, 2.5, True, "10"])
def test_turn_seconds_and_zombie_after_are_whole_numbers_from_one(value):
    for name in ("turn_seconds", "zombie_after"):
        with pytest.raises(RuleError) as refused:
            opened(**{name: value})
        assert refused.value.code == "bad_options"


def test_a_variant_switches_on_one_of_the_games_own_options():
    assert opened(variant="one_turn")["options"]["one_turn"] is True
    with pytest.raises(RuleError):
        opened(variant="rounds")  # not an on/off option


def test_the_created_event_hides_seed_and_deck_until_the_game_is_over():
    events = table.create(
        "g1", "alebrijes", [{"name": "a"}, {"name": "b"}], {"seed": "x"}, "x", "salt"
    )
    current = table.fold((e, 1) for e in events)
    public = table.redact(current, events[0], 0)
    assert "seed" not in public and "deck" not in public and public["seed_sha256"]


def test_a_deadline_runs_from_when_the_seat_first_had_to_act():
    current = alien(turn_seconds=10, at=1000)
    assert table.deadlines(current) == [11_000, None, None]
    current = then(current, table.play(current, 1, SUM), at=4000)  # a window opens
    # Seats 0 and 2 must stack; seat 0 had to act all along, so its clock runs on.
    assert table.deadlines(current) == [11_000, None, 14_000]
    current = then(current, table.play(current, 2, {"type": "stack"}), at=6000)
    assert table.deadlines(current) == [11_000, None, None]  # others acting moves nothing


def test_the_rules_timers_are_dated_from_when_they_appear_and_then_fire():
    current = then(alien(at=0), table.play(alien(at=0), 1, SUM), at=2000)
    assert table.table_timers(current) == [
        {"key": "window-1", "command": {"type": "close_window"}, "deadline": 7000}
    ]
    later = then(current, table.play(current, 2, {"type": "stack"}), at=3000)
    assert table.table_timers(later)[0]["deadline"] == 7000
    closed = then(later, table.fire(later, "window-1"), at=7000)
    assert table.table_timers(closed) == []
    assert table.fire(closed, "window-1") == []  # a timer that is gone does nothing


def test_bot_chances_separate_a_turn_from_the_reflexes():
    current = alien()
    assert table.bot_chances(current, 0) == (True, [])  # seat 0's turn, nothing to claim
    assert table.bot_chances(current, 2) == (
        False,
        [{"type": "claim", "card": "A4", "table": "C15"}],
    )
    windowed = then(current, table.play(current, 1, SUM), at=1)
    assert table.bot_chances(windowed, 2) == (False, [{"type": "stack"}])


def test_a_game_without_reflexes_gives_its_bots_turns_only():
    current = opened()
    assert table.bot_chances(current, 0) == (True, [])
    assert table.bot_chances(current, 1) == (False, [])


def test_a_timeout_counts_and_the_seat_is_taken_over_at_zombie_after():
    current = opened(seats=2, zombie_after=1)
    events = table.time_out(current, 0)
    assert [e["type"] for e in events[:2]] == ["timed_out", "seat_taken_over"]
    current = then(current, events, at=1)
    assert current["seats"][0]["away"] and current["timeouts"] == [1, 0]


def test_a_seat_that_need_not_act_cannot_time_out():
    with pytest.raises(RuleError) as refused:
        table.time_out(opened(), 1)
    assert refused.value.code == "not_your_turn"


def test_folding_without_times_gives_no_deadlines():
    events = table.create(
        "g1",
        "alebrijes",
        [{"name": "a"}, {"name": "b"}],
        {"seed": "x", "turn_seconds": 5},
        "x",
        "salt",
    )
    assert table.deadlines(table.fold(events)) == [None, None]


@pytest.mark.parametrize("game", ["alebrijes", "alien", "alakablast", "abluxxen"])
def test_play_folded_answers_plays_events_and_the_table_they_fold_to(game):
    import random

    from shared import games

    rng = random.Random(7)
    current, at, checked = opened(game, seats=3, at=1000), 1000, 0
    current = then(current, [table.resign(current, 2)[0]], at)  # a bot plays seat 2
    while current["status"] == "active" and checked < 400:
        at += 250
        seat = table.to_act(current)[0]
        command = rng.choice(games.get(game).legal(current["rules"], seat))
        by = "bot" if current["seats"][seat]["bot"] else "holder"
        events, after = table.play_folded(current, seat, command, by, at)
        assert events == table.play(current, seat, command, by)
        assert after == then(current, events, at)
        current, checked = after, checked + 1
    assert current["status"] == "finished"  # the game-ending move was checked too


@pytest.mark.parametrize("game", ["alebrijes", "alien", "alakablast", "abluxxen"])
def test_views_are_each_seats_view_through_whole_games(game):
    import random

    from shared import games, jsonutil

    rng = random.Random(11)
    current, at, checked = opened(game, seats=3, at=1000, turn_seconds=30), 1000, 0
    seats = [None, 0, 1, 2]
    while current["status"] == "active" and checked < 400:
        expected = {seat: jsonutil.dumps(table.view(current, checked, seat)) for seat in seats}
        made = table.views(current, checked, seats)
        assert {seat: jsonutil.dumps(v) for seat, v in made.items()} == expected
        at += 250
        seat = table.to_act(current)[0]
        command = rng.choice(games.get(game).legal(current["rules"], seat))
        current = table.play_folded(current, seat, command, "holder", at)[1]
        checked += 1
    assert current["status"] == "finished"
    final = table.views(current, checked, seats)
    assert final == {seat: table.view(current, checked, seat) for seat in seats}
