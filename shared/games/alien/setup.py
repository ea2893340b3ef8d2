"""Before the first turn: options, the deck, the initial state, the deal and the first
table card."""

from .. import common
from ..base import RuleError
from .chronicle import Chronicle
from .facts import CARDS, HAND_SIZE, OPTIONS, PLAYERS, is_clue

MAX_STACK_SECONDS = 60


def _bad_options(message):
    return RuleError("bad_options", message)


def configure(players, options):
    """The options completed with their defaults: `stack_seconds` (a number of seconds,
    1 to 60, default 5) and `no_math` (true or false, default false). Raises
    RuleError("bad_options") for a player count outside 2..8, an unknown option or a bad
    value."""
    common.check_players(players, PLAYERS, "Alien")
    configured = common.check_options(options, OPTIONS)
    seconds = configured["stack_seconds"]
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise _bad_options("stack_seconds must be a number of seconds")
    if not 1 <= seconds <= MAX_STACK_SECONDS:
        raise _bad_options(f"stack_seconds must be between 1 and {MAX_STACK_SECONDS}")
    if not isinstance(configured["no_math"], bool):
        raise _bad_options("no_math must be true or false")
    return configured


def check_deck(deck):
    """Raise RuleError("bad_options") unless `deck` is the 70 Alien cards in some order."""
    common.check_deck(
        deck, CARDS, "deck must hold each of Alien's 70 cards exactly once (H1-H3: 5 each)"
    )


def initial(config):
    """The state before the deal: the whole deck waits as the draw pile (shuffled by the
    start command unless the creator fixed its order)."""
    players, options, deck = common.read_config(config, configure, check_deck)
    common.check_seed(config)
    return {
        "players": players,
        "seed": config["seed"],
        "options": options,
        "custom_deck": deck is not None,
        "phase": "setup",  # then "play", then "over"
        "step": 0,  # events folded so far; part of every random source's name
        "hands": [[] for _ in range(players)],
        "prisons": [[] for _ in range(players)],
        "draw_pile": list(CARDS if deck is None else deck),  # top first
        "table": None,
        "table_claimed": False,  # a CAPTURED! claim was made on this table card
        "played": [],  # CLUE cards under the table card, oldest first
        "hunters": [],  # used bounty hunters
        "turn": None,
        "began_with": 0,  # cards in hand when the turn began
        "acted": False,  # the player whose turn it is chose PLAY
        "took": False,  # the empty-hand take was used this turn
        "window": None,  # the stacking window after a CAPTURED! claim
        "windows": 0,  # how many windows have opened: names each window's timer
        "winner": None,
    }


def start(state):
    """The table's start command: shuffle (unless the deck is fixed), deal 5 cards seat
    by seat, turn over the first CLUE card, and give seat 0 the first turn."""
    if state["phase"] != "setup":
        raise RuleError("illegal_move", "the game has already started")
    chronicle = Chronicle(state)
    deck = list(state["draw_pile"])
    if not state["custom_deck"]:
        chronicle.chance("shuffle").shuffle(deck)
    dealt = HAND_SIZE * state["players"]
    hands = [deck[i : i + HAND_SIZE] for i in range(0, dealt, HAND_SIZE)]
    chronicle.add({"type": "dealt", "hands": hands, "draw_pile": deck[dealt:]})
    _turn_over_first_clue(chronicle)
    chronicle.add({"type": "turn_began", "seat": 0})
    return chronicle.events


def _turn_over_first_clue(chronicle):
    """Turn over cards until one is a CLUE card. Any other card goes back into the draw
    pile at a seeded random place below the top, so the next card turned is another."""
    while True:
        pile = chronicle.state["draw_pile"]
        card = pile[0]
        if is_clue(card):
            chronicle.add({"type": "turned_over", "card": card, "returned_to": None})
            return
        place = chronicle.chance("return").randint(1, len(pile) - 1)
        chronicle.add({"type": "turned_over", "card": card, "returned_to": place})
