"""Setting up a table: options, the initial state, the shuffle and the deal."""

import random

from shared.games import common
from shared.games.alakablast.cards import (
    CARDS,
    DISCARD_AT_START,
    HIDDEN_CARDS,
    OPEN_CARDS,
    OPTIONS,
    PLAYERS,
    sorted_spells,
)
from shared.games.base import RuleError


def configure(players, options):
    """The options completed with defaults; RuleError("bad_options") when not acceptable.

    Alakablast has no options of its own, so any key is unknown. Unlike the other games it
    wants an object even when empty: None is refused.
    """
    common.check_players(players, PLAYERS, "Alakablast")
    if options is None:
        raise RuleError("bad_options", "options must be an object")
    return common.check_options(options, OPTIONS)


def check_deck(deck):
    """Raise RuleError("bad_options") unless `deck` holds exactly the 49 spell cards."""
    common.check_deck(deck, CARDS, "deck must hold every one of the 49 spell cards once")


def initial(config):
    """The table before the deal: nothing is dealt until the table's "start" command."""
    players = config["players"]
    common.check_players(players, PLAYERS, "Alakablast")
    if config.get("deck") is not None:
        check_deck(config["deck"])
    common.check_seed(config)
    return {
        "players": players,
        "seed": config["seed"],
        "deck": list(config["deck"]) if config.get("deck") is not None else None,
        "options": dict(config.get("options") or {}),
        "phase": "waiting",
        "turn": None,
        "turn_number": 0,
        "hands": [[] for _ in range(players)],
        "gems": [0] * players,
        "discard_zone": [],
        "draw_pile": [],
        "shuffles": 0,
        "question": None,
        "duel": None,
        "result": None,
    }


def shuffled(state, cards):
    """The cards in a seeded order; each shuffle of a game draws on its own counter."""
    order = list(cards)
    random.Random(f"{state['seed']}/shuffle/{state['shuffles']}").shuffle(order)
    return order


def dealt_event(state):
    """The deal: seat by seat two hidden cards then the open ones, the discard zone, the pile."""
    players = state["players"]
    order = list(state["deck"]) if state["deck"] is not None else shuffled(state, CARDS)
    hands = []
    for _ in range(players):
        hidden, order = order[:HIDDEN_CARDS], order[HIDDEN_CARDS:]
        shown, order = order[: OPEN_CARDS[players]], order[OPEN_CARDS[players] :]
        hands.append({"hidden": hidden, "open": shown})
    discard = DISCARD_AT_START[players]
    return {
        "type": "dealt",
        "hands": hands,
        "discard_zone": sorted_spells(order[:discard]),
        "draw_pile": order[discard:],
    }
