"""Alebrijes bot knowledge (shared/bots/games/alebrijes.py): greedy always sends a legal
command and beats random play; sample deals a full state the seat cannot tell from the
true one, using the feed to know the cards played this round."""

import random
from collections import Counter

import pytest

from shared import table as tables
from shared.bots.games import alebrijes as bot
from shared.games import alebrijes
from tests.bot_games import BotGames, search_view

CONFIGURATIONS = [(2, {}), (3, {}), (4, {"one_turn": True}), (6, {})]


GAMES = BotGames("alebrijes", bot)
play, positions = GAMES.play, GAMES.positions


def every_card(state):
    places = state["draw_pile"] + state["played"]
    for seat in range(state["players"]):
        places += state["hands"][seat] + state["laid_aside"][seat]
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


def test_greedy_empties_its_hand_when_it_can():
    for _, _, view, feed in positions(3, {}, 11):
        hand = view["state"]["hand"]
        wins = [c for c in view["legal"] if c["type"] == "play" and len(c["cards"]) == len(hand)]
        if wins:
            command = bot.greedy(view, feed, random.Random(0))
            assert len(command["cards"]) == len(hand)
            return
    raise AssertionError("no position where a play empties the hand")


@pytest.mark.parametrize("players", [2, 3])
def test_greedy_beats_random(players):
    """A bounded check; bench/greedy_vs_random.py measures it over many games."""
    games, wins = 12, 0.0
    for seed in range(games):
        greedy_seat = seed % players
        winners = play(players, {"rounds": 1}, 100 + seed, (greedy_seat,))[0]["result"]["winners"]
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
                differs += Counter(map(tuple, others)) != Counter(map(tuple, true_others))
                checked += 1
            # a decision on the sample is accepted by the rules
            command = bot.greedy(search_view(view), [], random.Random(step))
            assert alebrijes.decide(sampled, seat, command)
    assert checked > 50
    assert differs > checked * 0.9, "the sample should deal the hidden cards anew"


def test_sample_knows_the_cards_played_this_round_from_the_feed():
    for step, (table, _, view, feed) in enumerate(positions(3, {}, 5)):
        truth = table["rules"]
        if len(truth["played"]) < 6 or step % 5:
            continue
        with_feed = bot.sample(view, feed, random.Random(step))
        assert Counter(with_feed["played"]) == Counter(truth["played"])
        without = [Counter(bot.sample(view, [], random.Random(n))["played"]) for n in range(5)]
        assert any(played != Counter(truth["played"]) for played in without)
        return
    raise AssertionError("no position with cards played")


def test_sample_draws_anew_with_each_rng_and_not_from_the_seed():
    table, seat, view, feed = positions(3, {}, 8)[0]
    hands = {tuple(bot.sample(view, feed, random.Random(n))["hands"][1]) for n in range(6)}
    assert len(hands) > 1
    seeds = {bot.sample(view, feed, random.Random(n))["seed"] for n in range(6)}
    assert table["seed"] not in seeds and len(seeds) == 6


def test_sample_falls_back_to_the_view_when_the_feed_does_not_fit_it():
    for step, (table, seat, view, feed) in enumerate(positions(2, {}, 9)):
        if table["rules"]["played"] and view["state"]["table"] is not None:
            stale = [event for event in feed if event["type"] != "played"]
            check_sample(table, seat, view, stale, random.Random(step))
            return
    raise AssertionError("no position with a combination on the table")


def test_sample_matches_the_view_of_a_finished_game():
    for seed in range(3):
        table, feeds = play(3, {"rounds": 1}, 200 + seed, greedy_seats=(0, 1))
        for seat in range(3):
            view = tables.view(table, 0, seat)
            for known in (feeds[seat], []):
                sampled = bot.sample(view, known, random.Random(seed))
                assert alebrijes.view(sampled, seat) == view["state"]
                assert alebrijes.to_act(sampled) == [] and alebrijes.legal(sampled, seat) == []
