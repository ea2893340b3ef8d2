"""Helpers for the Abluxxen tests: tiny tables dealt from handmade events or fixed decks,
and commands chained through decide and evolve. (No tests here.)"""

import random
from collections import Counter

import pytest

from shared.games import abluxxen
from shared.games.base import RuleError


def new_game(players=2, published=False, deck=None, seed="seed"):
    """A configured game before the deal."""
    options = abluxxen.configure(players, {"published": published})
    return abluxxen.initial({"players": players, "seed": seed, "deck": deck, "options": options})


def table(hands, display=(), draw_pile=(), published=False):
    """A game dealt by a handmade "dealt" event: any hands, display and draw pile (top
    first), so a test shows only the cards it is about. Seat 0 is to play."""
    state = new_game(len(hands), published)
    dealt = {
        "type": "dealt",
        "starting_seat": 0,
        "hands": [list(hand) for hand in hands],
        "hand_counts": [len(hand) for hand in hands],
        "display": list(display),
        "draw_pile": list(draw_pile),
        "draw_pile_count": len(draw_pile),
    }
    return abluxxen.evolve(state, dealt)


def full_deck(hands, display=(), draw_pile=()):
    """A fixed 109-card deck that deals `hands` (each filled up to 13), then `display`
    (filled up to 6), then `draw_pile` on top of the rest, in the order the rules deal."""
    rest = Counter(abluxxen.CARDS) - Counter(
        [c for hand in hands for c in hand] + list(display) + list(draw_pile)
    )
    filler = sorted(rest.elements(), key=lambda c: (c == "X", -int(c) if c != "X" else 0))

    def take(cards, size):
        cards = list(cards)
        while len(cards) < size:
            cards.append(filler.pop(0))
        return cards

    dealt = [card for hand in hands for card in take(hand, 13)]
    shown = take(display, 6)
    deck = dealt + shown + list(draw_pile) + filler
    assert Counter(deck) == Counter(abluxxen.CARDS)
    return deck


def padded(*cards, size=20):
    """A hand of `cards` filled up with 13s: over 13 cards, so no draw ends the turn."""
    return list(cards) + ["13"] * (size - len(cards))


def act(state, seat, command):
    """(state after, events) of one command."""
    events = abluxxen.decide(state, seat, command)
    for event in events:
        state = abluxxen.evolve(state, event)
    return state, events


def refused(state, seat, command):
    """The RuleError code decide gives for a command it refuses (failing if it accepts it)."""
    with pytest.raises(RuleError) as refusal:
        abluxxen.decide(state, seat, command)
    return refusal.value.code


def run(state, *steps):
    """Chain (seat, command) steps; (state after, every event)."""
    log = []
    for seat, command in steps:
        state, events = act(state, seat, command)
        log += events
    return state, log


def play(*cards):
    return {"type": "play", "cards": list(cards)}


def attack(target):
    return {"type": "attack", "target": target}


STOP = {"type": "stop"}
TAKE_BACK = {"type": "answer", "choice": "take_back"}
GIVE_UP = {"type": "answer", "choice": "give_up"}
DISCARD = {"type": "answer", "choice": "discard"}
KEEP = {"type": "keep", "take": True}
DECLINE = {"type": "keep", "take": False}


def draw(*display):
    return {"type": "draw", "display": list(display)}


def types(events):
    """The events' types, in order."""
    return [event["type"] for event in events]


def all_cards(state):
    """Every card of the game, wherever it lies (the conservation invariant)."""
    cards = list(state["display"]) + state["draw_pile"] + state["discard_pile"]
    for seat in range(state["players"]):
        cards += state["hands"][seat] + state["covered"][seat] + state["scoring_piles"][seat]
        cards += state["top_rows"][seat] or []
    return Counter(cards)


def random_game(players, published, seed, max_steps=3000, on_step=None):
    """Play a seeded game with uniformly random choices from `legal`, over all seats
    that must act. Returns (final state, every event, every (seat, command)).

    `on_step(state, seat, command, events, after)` is called after every command.
    """
    rng = random.Random(f"test/{seed}")
    state = new_game(players, published, seed=f"game/{seed}")
    state, log = act(state, None, {"type": "start"})
    commands = []
    for _ in range(max_steps):
        if abluxxen.result(state) is not None:
            break
        seat = rng.choice(abluxxen.to_act(state))
        command = rng.choice(abluxxen.legal(state, seat))
        after, events = act(state, seat, command)
        if on_step is not None:
            on_step(state, seat, command, events, after)
        state = after
        log += events
        commands.append((seat, command))
    return state, log, commands
