"""Alien: many seeded games of random legal moves for every player count, checking at
every step that all 70 cards are accounted for, that nothing hidden leaks, and that
every game ends as the rules say; plus determinism, replay and purity."""

import copy
import json
import random
from collections import Counter

import pytest

from shared.games import alien
from shared.games.alien.scenarios import new_game, replay
from shared.games.base import RuleError

GAMES_PER_COUNT = 30
MAX_STEPS = 4000  # random games end in a few hundred steps; this only stops a hang
START = {"type": "start"}
CLOSE = {"type": "close_window"}
# Event fields everyone may see the card of; any other card shown must be the seat's own.
PUBLIC_CARDS = {
    "turned_over": ("card",),
    "played": ("card",),
    "captured": ("card",),
    "hunted": ("card",),
    "claimed": ("card", "table"),
    "wrong_claim": ("card", "table"),
}


def codes_in(value):
    """Every card code anywhere in a JSON value."""
    text = json.dumps(value)
    return {code for code in alien.CARDS if f'"{code}"' in text}


def cards_in(state):
    """Every card in the game, wherever it lies."""
    table = [state["table"]] if state["table"] else []
    zones = [*state["hands"], *state["prisons"], state["draw_pile"], state["played"]]
    return Counter(sum(zones, table) + state["hunters"])


def choose(state, rng):
    """A (seat, command): uniform among every seat's legal commands; now and then the
    table closes an open window, or a seat shouts a claim of its own (often wrong)."""
    players = state["players"]
    if state["window"] is not None and rng.random() < 0.15:
        return None, CLOSE
    if rng.random() < 0.03:
        table = state["table"] if rng.random() < 0.8 else rng.choice(alien.CARDS[:45])
        card = f"A{rng.randrange(10)}"
        return rng.randrange(players), {"type": "claim", "card": card, "table": table}
    return rng.choice([(s, c) for s in range(players) for c in alien.legal(state, s)])


def play(players, seed, check_step=None):
    """A random game: (the start state, every event, the final state)."""
    rng = random.Random(f"{players}/{seed}")
    first = new_game(players, seed=f"game-{seed}")
    events = alien.decide(first, None, START)
    state = replay(first, events)
    for _ in range(MAX_STEPS):
        if alien.result(state) is not None:
            break
        seat, command = choose(state, rng)
        try:
            new = alien.decide(state, seat, command)
        except RuleError as error:  # only a shouted claim may be refused (stale, duplicate)
            assert command["type"] == "claim", error.message
            continue
        if check_step:
            check_step(state, seat, command, new)
        events += new
        state = replay(state, new)
    return first, events, state


def check_cards_and_turns(state, seat, command, events):
    for event in events:
        state = alien.evolve(state, event)
        assert cards_in(state) == Counter(alien.CARDS)
    if alien.result(state) is None:
        assert alien.to_act(state), "nobody may act in an unfinished game"
        for waiting in alien.to_act(state):
            assert alien.timeout(state, waiting) in alien.legal(state, waiting)


def check_result(state):
    result = alien.result(state)
    assert result is not None, "the game did not end"
    scores = [len(prison) for prison in state["prisons"]]
    assert result["scores"] == scores
    (winner,) = result["winners"]
    assert scores[winner] == 4 and all(s < 4 for i, s in enumerate(scores) if i != winner)
    assert alien.to_act(state) == []
    assert all(alien.legal(state, seat) == [] for seat in range(state["players"]))


@pytest.mark.parametrize("players", range(2, 9))
def test_random_games_keep_all_70_cards_and_end_with_a_winner(players):
    for seed in range(GAMES_PER_COUNT):
        _, _, state = play(players, seed, check_cards_and_turns)
        check_result(state)


def test_random_play_reaches_every_kind_of_event():
    seen = Counter()
    for seed in range(30):
        seen.update(event["type"] for event in play(4, seed)[1])
    kinds = {"dealt", "turned_over", "turn_began", "played", "captured", "hunted"}
    kinds |= {"took_alien", "ended_turn", "passed", "drew", "reshuffled", "claimed"}
    kinds |= {"wrong_claim", "stacked", "handed_over", "window_closed"}
    assert set(seen) == kinds


def check_every_legal_command(state, seat, command, events):
    for s in range(state["players"]):
        for legal_command in alien.legal(state, s):
            alien.decide(state, s, legal_command)  # raises if refused


@pytest.mark.parametrize("players", [2, 4, 8])
def test_every_legal_command_is_accepted(players):
    for seed in range(3):
        play(players, seed, check_every_legal_command)


def check_hidden_information(state, seat, command, events):
    for seen_by in [None, *range(state["players"])]:
        view = alien.view(state, seen_by)
        own = state["hands"][seen_by] if seen_by is not None else []
        public = {state["table"], *sum(state["prisons"], [])}
        assert codes_in(view) <= public | set(own)
        assert state["seed"] not in json.dumps(view)
    for event in events:
        after = alien.evolve(state, event)
        public = {event[field] for field in PUBLIC_CARDS.get(event["type"], ())}
        for seen_by in [None, *range(state["players"])]:
            own = set()
            if seen_by is not None:
                own = set(state["hands"][seen_by]) | set(after["hands"][seen_by])
            assert codes_in(alien.redact(event, seen_by)) <= public | own, event
        state = after


@pytest.mark.parametrize("players", [2, 5, 8])
def test_views_and_redacted_events_never_show_a_hidden_card(players):
    for seed in range(3):
        play(players, seed, check_hidden_information)


def test_the_deal_shows_no_hidden_card_either():
    state = new_game(4, seed="deal")
    for event in alien.decide(state, None, START):
        for seat in (None, 0, 1, 2, 3):
            after = alien.evolve(state, event)
            own = set(after["hands"][seat]) if seat is not None else set()
            public = {event["card"]} if event["type"] == "turned_over" else set()
            assert codes_in(alien.redact(event, seat)) <= public | own
        state = after


def test_the_same_seed_and_commands_give_the_same_events():
    for players in (2, 6):
        first = json.dumps(play(players, 7)[1])
        assert json.dumps(play(players, 7)[1]) == first


def test_folding_the_logged_events_rebuilds_the_same_state():
    for players in (3, 7):
        first, events, state = play(players, 3)
        logged = json.loads(json.dumps(events))  # as read back from the event store
        assert replay(first, logged) == state


def check_purity(state, seat, command, events):
    before = copy.deepcopy((state, command))
    assert alien.decide(state, seat, command) == events
    assert (state, command) == before
    for event in events:
        frozen = copy.deepcopy((state, event))
        after = alien.evolve(state, event)
        assert (state, event) == frozen
        assert json.loads(json.dumps(after)) == after  # plain JSON: no tuples, no sets
        assert json.loads(json.dumps(event)) == event
        state = after


def test_decide_and_evolve_never_change_their_inputs_and_speak_plain_json():
    for players in (2, 5):
        play(players, 11, check_purity)
