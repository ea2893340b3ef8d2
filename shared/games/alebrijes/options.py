"""A new game: its options, a fixed deck's check, and the state before the deal."""

from collections import Counter

from ..base import RuleError
from .cards import CARDS

NAME = "alebrijes"
PLAYERS = range(2, 7)
OPTIONS = {"rounds": 3, "one_turn": False}


def _bad(message):
    return RuleError("bad_options", message)


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def configure(players, options):
    """The game's options with defaults filled in; RuleError("bad_options") if not acceptable.

    `rounds`: how many rounds are played (an int, at least 1). `one_turn`: the variant
    where every trick is one lap (a bool).
    """
    if not _is_int(players) or players not in PLAYERS:
        raise _bad(f"Alebrijes is played by {PLAYERS.start} to {PLAYERS.stop - 1} players")
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise _bad("options must be an object")
    unknown = set(options) - set(OPTIONS)
    if unknown:
        raise _bad(f"unknown option(s): {', '.join(sorted(map(str, unknown)))}")
    configured = {**OPTIONS, **options}
    if not _is_int(configured["rounds"]) or configured["rounds"] < 1:
        raise _bad("rounds must be a whole number of at least 1")
    if not isinstance(configured["one_turn"], bool):
        raise _bad("one_turn must be true or false")
    return configured


def check_deck(deck):
    """Refuse (RuleError("bad_options")) a fixed deck that is not the 80 cards in some order."""
    if not isinstance(deck, list) or not all(isinstance(card, str) for card in deck):
        raise _bad("deck must be a list of card codes")
    if Counter(deck) != Counter(CARDS):
        raise _bad("deck must hold each of the 80 Alebrijes cards exactly once")


def initial(config):
    """The state of a configured game before its first deal (phase "waiting").

    config = {"players", "seed", "deck" (80 codes, top first, or None), "options"}.
    """
    players = config["players"]
    options = configure(players, config.get("options"))
    deck = config.get("deck")
    if deck is not None:
        check_deck(deck)
    if not isinstance(config.get("seed"), str):
        raise _bad("seed must be a string")
    return {
        "players": players,
        "seed": config["seed"],
        "deck": None if deck is None else list(deck),
        "options": options,
        "phase": "waiting",
        "round": 0,
        "starting_seat": None,
        "turn": None,
        "leader": None,
        "hands": [[] for _ in range(players)],
        "draw_pile": [],
        "laid_aside": [[] for _ in range(players)],
        "played": [],
        "table": None,
        "passed": [False] * players,
        "round_winner": None,
        "round_scores": [],
        "totals": [0] * players,
        "rounds_won": [0] * players,
    }
