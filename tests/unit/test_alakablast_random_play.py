"""Alakablast: many seeded games of uniformly random legal moves, checked at every step."""

import json
import random
from collections import Counter

import pytest

import shared.games.alakablast as game
from shared.games.alakablast.cards import GEM_TARGET, element, is_special, power, sorted_spells
from tests.alakablast_tables import cards_on_table, fold, new_table

GAMES_PER_COUNT = 40
STEP_BOUND = 1500  # far above any real game; a bug cannot hang the suite


def check_knowledge_is_true(state):
    """Everything recorded as told is true of the card."""
    for hand in state["hands"]:
        for card in hand:
            told, spell = card["told"], card["spell"]
            if not card["open"]:
                assert told is None
                continue
            assert told["special"] in (False, is_special(spell))
            assert told["element"] in (None, element(spell))
            assert told["power"] in (None, power(spell))


def check_views(state):
    """Own open cards show only what was told; others' hidden cards and the seed never show."""
    over = state["phase"] == "over"
    for seat in [*range(state["players"]), None]:
        view = game.view(state, seat)
        assert json.loads(json.dumps(view)) == view
        assert state["seed"] not in json.dumps(view)
        for owner, hand in enumerate(view["hands"]):
            for shown, card in zip(hand, state["hands"][owner], strict=True):
                assert shown["told"] == card["told"]
                visible = seat is not None and (owner != seat) == card["open"]
                assert shown["spell"] == (card["spell"] if visible or over else None)
        if state["duel"]:
            # A seat sees only its own choice, and not what the other duelist chose.
            duel = state["duel"]
            mine = [duel["chosen"][role] for role in ("attacker", "rival") if duel[role] == seat]
            assert view["duel"]["choice"] == (mine[0] if mine else None)


def check_redacted(event, players):
    """No redacted event shows a seat its own open cards, or a hidden card to another."""
    for seat in [*range(players), None]:
        seen = game.redact(event, seat)
        assert seen["type"] == event["type"]
        if event["type"] == "dealt":
            for owner, hand in enumerate(seen["hands"]):
                assert isinstance(hand["open"], int) == (owner == seat or seat is None)
                assert isinstance(hand["hidden"], int) == (owner != seat)
            assert isinstance(seen["draw_pile"], int)
        if event["type"] == "cards_drawn":
            own_open = event["open"] == (event["seat"] == seat)
            assert isinstance(seen["cards"], int) == (own_open or seat is None)
        if event["type"] == "card_chosen":
            assert "spell" not in seen
            assert ("card" in seen) == (seat == event["seat"])


def check_result(state, log):
    """The game ended by the rules: the target reached by one, or a shared victory."""
    result = game.result(state)
    players = state["players"]
    won = Counter()
    for event in log:
        if event["type"] == "duel_won":
            won[event["winner"]] += event["gems"]
    assert result["scores"] == state["gems"] == [won[seat] for seat in range(players)]
    if result["reason"] == "gem_target":
        (winner,) = result["winners"]
        assert state["gems"][winner] >= GEM_TARGET[players]
        others = [gems for seat, gems in enumerate(state["gems"]) if seat != winner]
        assert max(others) < GEM_TARGET[players]
    else:
        assert result["reason"] == "shared_victory"
        assert result["winners"] == list(range(players))
        assert max(state["gems"]) < GEM_TARGET[players]


def with_short_draw_pile(log):
    """The deal with all but two draw-pile cards moved to the discard zone."""
    dealt = dict(log[0])
    dealt["discard_zone"] = sorted_spells(dealt["discard_zone"] + dealt["draw_pile"][2:])
    dealt["draw_pile"] = dealt["draw_pile"][:2]
    return [dealt, *log[1:]]


def random_game(players, seed, check_every_legal=False, short_pile=False, checked=True):
    """Play one game of random legal moves; return the final state and the whole log.

    With `short_pile` the draw pile starts with two cards, so it is rebuilt again and again;
    `checked=False` skips the per-step checks (for tests about what games reach).
    """
    rng = random.Random(f"moves/{players}/{seed}")
    state = new_table(players, seed=f"game/{players}/{seed}")
    log = game.decide(state, None, {"type": "start"})
    if short_pile:
        log = with_short_draw_pile(log)
    state = fold(state, log)
    for _ in range(STEP_BOUND):
        if checked:
            assert cards_on_table(state) == Counter(game.CARDS)
            # Ruling: the pile is rebuilt the moment it runs out, so never stays empty.
            assert state["draw_pile"] or not state["discard_zone"]
            check_knowledge_is_true(state)
            check_views(state)
        if game.result(state) is not None:
            return state, log
        seats = game.to_act(state)
        assert seats, "a game that is not over always has someone to act"
        seat = rng.choice(seats)
        commands = game.legal(state, seat)
        assert commands
        if check_every_legal:
            for command in commands:
                game.decide(state, seat, command)
        events = game.decide(state, seat, rng.choice(commands))
        for event in events if checked else ():
            check_redacted(event, players)
        log += events
        state = fold(state, events)
    raise AssertionError(f"game {players}/{seed} did not end within {STEP_BOUND} moves")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_all_49_cards_hide_what_they_must_and_end_by_the_rules(players):
    for seed in range(GAMES_PER_COUNT):
        state, log = random_game(players, seed, check_every_legal=seed < 5)
        assert cards_on_table(state) == Counter(game.CARDS)
        check_result(state, log)
        assert fold(new_table(players, seed=f"game/{players}/{seed}"), log) == state


def test_a_random_game_replays_to_the_same_events():
    first = random_game(4, 7)[1]
    second = random_game(4, 7)[1]
    assert json.dumps(first) == json.dumps(second)


def test_random_games_reach_ties_and_both_endings():
    seen = Counter()
    for players in game.PLAYERS:
        for seed in range(GAMES_PER_COUNT):
            state, log = random_game(players, seed, checked=False)
            seen.update(event["type"] for event in log)
            seen[game.result(state)["reason"]] += 1
    assert seen["duel_tied"] and seen["gem_target"] and seen["shared_victory"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_with_a_short_draw_pile_rebuild_it_and_keep_all_49_cards(players):
    rebuilt = 0
    for seed in range(GAMES_PER_COUNT // 4):
        state, log = random_game(players, seed, short_pile=True)
        check_result(state, log)
        rebuilt += sum(1 for event in log if event["type"] == "draw_pile_rebuilt")
    assert rebuilt > 0
