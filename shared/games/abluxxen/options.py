"""A new game: its options, a fixed deck's check, and the state before the deal."""

from .. import common
from ..base import RuleError
from .facts import CARDS, OPTIONS, PLAYERS


def configure(players, options):
    """The game's options with defaults filled in; RuleError("bad_options") if not acceptable.

    `published` (bool, default false): play the published rules instead of the rulebook's.
    """
    common.check_players(players, PLAYERS, "Abluxxen")
    configured = common.check_options(options, OPTIONS)
    if not isinstance(configured["published"], bool):
        raise RuleError("bad_options", "published must be true or false")
    return configured


def check_deck(deck):
    """Refuse (RuleError("bad_options")) a fixed deck that is not the 109 cards in some order."""
    common.check_deck(
        deck, CARDS, "deck must hold the 109 Abluxxen cards: eight of each 1..13 and five X"
    )


def initial(config):
    """The state of a configured game before the deal (phase "setup").

    config = {"players", "seed", "deck" (109 codes, dealt first, or None), "options"}.
    """
    players, options, deck = common.read_config(config, configure, check_deck)
    common.check_seed(config)
    return {
        "players": players,
        "seed": config["seed"],
        "deck": None if deck is None else list(deck),
        "options": options,
        "shuffles": 0,  # shuffles made so far; names the next one's random stream
        "phase": "setup",
        "turn": None,
        "hands": [[] for _ in range(players)],
        "top_rows": [None] * players,  # the row that may be attacked, or None
        "covered": [[] for _ in range(players)],  # cards lying in front, under the top row
        "scoring_piles": [[] for _ in range(players)],
        "display": [],
        "draw_pile": [],  # top first
        "discard_pile": [],  # published rules only
        "attack": None,  # this turn's row and its attacks, while they last
        "draw": None,  # a draw someone must make now
        "result": None,
    }
