"""Abluxxen bot knowledge (shared/bots/games/abluxxen.py): greedy always sends a legal
command and beats random play under both rule sets; sample deals a full state the seat
cannot tell from the true one, using the feed to know the covered rows, the piles and the
cards others took into their hands."""

import random
from collections import Counter

import pytest

from shared import table as tables
from shared.bots.games import abluxxen as bot
from shared.bots.games.abluxxen import sampling
from shared.games import abluxxen
from tests.bot_games import BotGames, search_view

CONFIGURATIONS = [(2, {}), (3, {"published": True}), (4, {}), (5, {"published": True})]


GAMES = BotGames("abluxxen", bot)
play, positions = GAMES.play, GAMES.positions


def every_card(state):
    places = state["display"] + state["draw_pile"] + state["discard_pile"]
    for seat in range(state["players"]):
        places += state["hands"][seat] + (state["top_rows"][seat] or [])
        places += state["covered"][seat] + state["scoring_piles"][seat]
    return Counter(places)


@pytest.mark.parametrize(("players", "options"), CONFIGURATIONS)
def test_greedy_always_sends_a_legal_command(players, options):
    calls = 0
    for seed in range(3):
        for _, _, view, feed in positions(players, options, seed, greedy_seats=(seed % 2,)):
            rng = random.Random(calls)
            assert bot.greedy(view, feed, rng) in view["legal"]
            assert bot.greedy(search_view(view), [], rng) in view["legal"]
            assert bot.reflex(view, feed, rng) is None
            calls += 1
    assert calls > 100


def test_greedy_abluxxes_every_row_it_may():
    for _, _, view, feed in positions(3, {}, 4, greedy_seats=(0, 1, 2)):
        if view["state"]["phase"] == "attack" and len(view["legal"]) > 1:
            first = view["state"]["attack"]["targets"][0]
            assert bot.greedy(view, feed, random.Random(0)) == {"type": "attack", "target": first}
            return
    raise AssertionError("no position with a row to abluxx")


@pytest.mark.parametrize(("players", "published"), [(2, False), (3, False), (2, True), (3, True)])
def test_greedy_beats_random(players, published):
    """A bounded check; bench/greedy_vs_random.py measures it over many games."""
    games, wins = 12, 0.0
    for seed in range(games):
        greedy_seat = seed % players
        options = {"published": published}
        winners = play(players, options, 100 + seed, (greedy_seat,))[0]["result"]["winners"]
        wins += 1 / len(winners) if greedy_seat in winners else 0
    assert wins >= games * 0.75


def check_sample(table, seat, view, feed, rng):
    return GAMES.check_sample(seat, view, feed, rng, every_card)


@pytest.mark.parametrize(("players", "options"), CONFIGURATIONS)
def test_sample_is_a_state_the_seat_cannot_tell_from_the_true_one(players, options):
    checked, differs = 0, 0
    for seed in range(2):
        for step, (table, seat, view, feed) in enumerate(positions(players, options, seed)):
            if step % 3:
                continue  # every third position keeps the test fast
            truth = table["rules"]
            for number, known in enumerate((feed, [])):
                sampled = check_sample(table, seat, view, known, random.Random(step * 2 + number))
                others = [sampled["hands"][s] for s in range(players) if s != seat]
                true_others = [truth["hands"][s] for s in range(players) if s != seat]
                if view["state"]["draw_pile_count"] >= 2:  # else little may be left hidden
                    differs += others != true_others
                    checked += 1
            # a decision on the sample is accepted by the rules
            command = bot.greedy(search_view(view), [], random.Random(step))
            assert abluxxen.decide(sampled, seat, command)
    assert checked > 50
    assert differs > checked * 0.9, "the sample should deal the hidden cards anew"


@pytest.mark.parametrize("published", [False, True])
def test_sample_knows_from_the_feed_what_lies_where(published):
    """Covered rows, scoring and discard piles, and the cards others were seen to take
    into their hands (rows taken back or kept, display cards drawn) and still hold."""
    checked = 0
    for step, (table, seat, view, feed) in enumerate(positions(3, {"published": published}, 6)):
        if step % 2:
            continue
        truth = table["rules"]
        sampled = bot.sample(view, feed, random.Random(step))
        assert sampled["covered"] == truth["covered"]
        assert sampled["scoring_piles"] == truth["scoring_piles"]
        assert Counter(sampled["discard_pile"]) == Counter(truth["discard_pile"])
        seen = sampling.seen_in_feed(feed, 3)
        for other in range(3):
            assert not seen.held[other] - Counter(truth["hands"][other])  # what it knows is true
            assert not seen.held[other] - Counter(sampled["hands"][other])  # and is kept
        checked += any(seen.held[other] for other in range(3) if other != seat)
    assert checked > 3


def test_sample_without_a_feed_deals_the_covered_rows_anew():
    for table, seat, view, _ in positions(2, {}, 7):
        if sum(len(covered) for covered in table["rules"]["covered"]) >= 6:
            truth = table["rules"]["covered"]
            dealt = [check_sample(table, seat, view, [], random.Random(n)) for n in range(4)]
            assert any(state["covered"] != truth for state in dealt)
            return
    raise AssertionError("no position with covered rows")


def test_sample_falls_back_to_the_view_when_the_feed_does_not_fit_it():
    for step, (table, seat, view, feed) in enumerate(positions(2, {}, 9)):
        if any(table["rules"]["covered"]):
            stale = [event for event in feed if event["type"] != "played"]
            check_sample(table, seat, view, stale, random.Random(step))
            return
    raise AssertionError("no position with covered rows")


@pytest.mark.parametrize("published", [False, True])
def test_sample_matches_the_view_of_a_finished_game(published):
    for seed in range(3):
        table, feeds = play(3, {"published": published}, 200 + seed, greedy_seats=(0, 1))
        for seat in range(3):
            view = tables.view(table, 0, seat)
            for known in (feeds[seat], []):
                sampled = bot.sample(view, known, random.Random(seed))
                assert abluxxen.view(sampled, seat) == view["state"]
                assert abluxxen.to_act(sampled) == [] and abluxxen.legal(sampled, seat) == []
