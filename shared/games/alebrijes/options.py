"""A new game: its options, a fixed deck's check, and the state before the deal."""

from .. import common
from ..base import RuleError
from .cards import CARDS

NAME = "alebrijes"
PLAYERS = range(2, 7)
OPTIONS = {"rounds": 3, "one_turn": False}


def _bad(message):
    return RuleError("bad_options", message)


def configure(players, options):
    """The game's options with defaults filled in; RuleError("bad_options") if not acceptable.

    `rounds`: how many rounds are played (an int, at least 1). `one_turn`: the variant
    where every trick is one lap (a bool).
    """
    common.check_players(players, PLAYERS, "Alebrijes")
    configured = common.check_options(options, OPTIONS)
    if not common.is_int(configured["rounds"]) or configured["rounds"] < 1:
        raise _bad("rounds must be a whole number of at least 1")
    if not isinstance(configured["one_turn"], bool):
        raise _bad("one_turn must be true or false")
    return configured


def check_deck(deck):
    """Refuse (RuleError("bad_options")) a fixed deck that is not the 80 cards in some order."""
    common.check_deck(deck, CARDS, "deck must hold each of the 80 Alebrijes cards exactly once")


def initial(config):
    """The state of a configured game before its first deal (phase "waiting").

    config = {"players", "seed", "deck" (80 codes, top first, or None), "options"}.
    """
    players, options, deck = common.read_config(config, configure, check_deck)
    common.check_seed(config)
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
