"""Scripted situations for tutorials, puzzles and tests: a game dealt from chosen hands,
and commands applied one after another."""

from collections import Counter

from .decide import decide
from .evolve import evolve
from .facts import CARDS
from .setup import check_deck, configure, initial


def arrange_deck(hands, table, draw_pile=()):
    """A whole deck that deals `hands` (one list per seat), turns `table` over and then
    draws `draw_pile`, the remaining cards following in their usual order."""
    chosen = [card for hand in hands for card in hand] + [table, *draw_pile]
    rest = Counter(CARDS) - Counter(chosen)  # keeps the order of CARDS
    deck = chosen + list(rest.elements())
    check_deck(deck)
    return deck


def new_game(players, seed="seed", deck=None, **options):
    """The state of a game not yet started."""
    config = {"players": players, "seed": seed, "deck": deck}
    return initial({**config, "options": configure(players, options)})


def replay(state, events):
    """The state after folding `events` one by one."""
    for event in events:
        state = evolve(state, event)
    return state


def started(hands, table, draw_pile=(), seed="seed", **options):
    """A game started on an arranged deck: seat 0's turn, `table` on the table."""
    state = new_game(len(hands), seed, arrange_deck(hands, table, draw_pile), **options)
    return replay(state, decide(state, None, {"type": "start"}))


def apply(state, seat, command):
    """(the state after `command` from `seat`, the events it produced)."""
    events = decide(state, seat, command)
    return replay(state, events), events


def run(state, *moves):
    """The state after applying (seat, command) moves in order."""
    for seat, command in moves:
        state, _ = apply(state, seat, command)
    return state
