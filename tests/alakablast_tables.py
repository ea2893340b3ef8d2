"""Alakablast tables for its tests: dealt from a fixed deck, moves folded in, and
what they hold. Not a test module."""

import json
from collections import Counter

import pytest

import shared.games.alakablast as game
from shared.games.alakablast.cards import DISCARD_AT_START
from shared.games.base import RuleError


def fixed_deck(players, hands, discard=None, pile=()):
    """A full 49-card deck that deals `hands` ([(hidden, open), ...] per seat).

    The discard zone starts with `discard` and the draw pile with `pile`; every card not
    named fills the rest, in CARDS order.
    """
    named = [spell for hidden, shown in hands for spell in hidden + shown]
    named += list(discard or []) + list(pile)
    rest = Counter(game.CARDS)
    rest.subtract(named)
    assert min(rest.values()) >= 0, "a test names more copies of a card than exist"
    leftovers = []
    for spell in game.CARDS:
        if rest[spell] > 0:
            leftovers.append(spell)
            rest[spell] -= 1
    missing = DISCARD_AT_START[players] - len(discard or [])
    assert missing >= 0, "a test names more discard-zone cards than the deal places"
    dealt = [spell for hidden, shown in hands for spell in hidden + shown]
    return dealt + list(discard or []) + leftovers[:missing] + list(pile) + leftovers[missing:]


def new_table(players, deck=None, seed="test-seed"):
    """A table not yet started."""
    options = game.configure(players, {})
    return game.initial({"players": players, "seed": seed, "deck": deck, "options": options})


def fold(state, events):
    """The state after the events."""
    for event in events:
        state = game.evolve(state, event)
    return state


def started(players, hands=None, discard=None, pile=(), seed="test-seed"):
    """A table dealt from a fixed deck (or from the seed when `hands` is None)."""
    deck = fixed_deck(players, hands, discard, pile) if hands is not None else None
    state = new_table(players, deck, seed)
    return fold(state, game.decide(state, None, {"type": "start"}))


def given(players, events, seed="test-seed"):
    """A table built by folding handmade events."""
    return fold(new_table(players, seed=seed), events)


def play(state, *moves):
    """The state after each (seat, command) in turn, and every event they caused."""
    log = []
    for seat, command in moves:
        events = game.decide(state, seat, command)
        log += events
        state = fold(state, events)
    return state, log


def after(state, *moves):
    """The state after the moves."""
    return play(state, *moves)[0]


def refused(state, seat, command):
    """The RuleError code decide gives for a command it refuses (failing if it accepts it)."""
    with pytest.raises(RuleError) as refusal:
        game.decide(state, seat, command)
    return refusal.value.code


def spells(state, seat):
    """The spells in a seat's hand, in order."""
    return [card["spell"] for card in state["hands"][seat]]


def types(events):
    """The event types, in order."""
    return [event["type"] for event in events]


def as_json(value):
    """The value after a trip through JSON."""
    return json.loads(json.dumps(value))


def cards_on_table(state):
    """Every card in hands, discard zone, draw pile and on the duel table, as a Counter."""
    cards = Counter(state["discard_zone"]) + Counter(state["draw_pile"])
    for hand in state["hands"]:
        cards += Counter(card["spell"] for card in hand)
    if state["duel"]:
        cards += Counter(state["duel"]["played"]["attacker"] + state["duel"]["played"]["rival"])
    return cards
