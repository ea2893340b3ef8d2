"""A new game: its options, a fixed deck's check, and the state before the deal."""

from collections import Counter

from ..base import RuleError
from .facts import CARDS, OPTIONS, PLAYERS


def _bad(message):
    return RuleError("bad_options", message)


def configure(players, options):
    """The game's options with defaults filled in; RuleError("bad_options") if not acceptable.

    `published` (bool, default false): play the published rules instead of the rulebook's.
    """
    if not isinstance(players, int) or isinstance(players, bool) or players not in PLAYERS:
        raise _bad(f"Abluxxen is played by {PLAYERS.start} to {PLAYERS.stop - 1} players")
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise _bad("options must be an object")
    unknown = set(options) - set(OPTIONS)
    if unknown:
        raise _bad(f"unknown option(s): {', '.join(sorted(map(str, unknown)))}")
    configured = {**OPTIONS, **options}
    if not isinstance(configured["published"], bool):
        raise _bad("published must be true or false")
    return configured


def check_deck(deck):
    """Refuse (RuleError("bad_options")) a fixed deck that is not the 109 cards in some order."""
    if not isinstance(deck, list) or not all(isinstance(card, str) for card in deck):
        raise _bad("deck must be a list of card codes")
    if Counter(deck) != Counter(CARDS):
        raise _bad("deck must hold the 109 Abluxxen cards: eight of each 1..13 and five X")


def initial(config):
    """The state of a configured game before the deal (phase "setup").

    config = {"players", "seed", "deck" (109 codes, dealt first, or None), "options"}.
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
