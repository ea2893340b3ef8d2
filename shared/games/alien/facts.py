"""Alien's static facts: the 70 card codes, what each card shows, and the numbers the
rules turn on.

Codes (RULINGS.md): CLUE cards `C` + the two aliens in rising order (`C07`, `C38`), one
for each pair of aliens 0..9; CAPTURED cards `A0`..`A9`, one per alien; BOUNTY HUNTER
cards `H1`, `H2`, `H3`, five of each type.
"""

NAME = "alien"
PLAYERS = range(2, 9)
OPTIONS = {"stack_seconds": 5, "no_math": False}
COMMANDS = ("play", "capture", "hunt", "take", "end_turn", "pass", "claim", "stack")
TABLE_COMMANDS = ("start", "close_window")
# Commands a bot sends after its reaction delay, so a quick human can beat it.
REFLEXES = ("claim", "stack")

ALIENS = range(10)
HAND_SIZE = 5  # dealt, and drawn back up to at the end of a turn
WIN_ALIENS = 4  # aliens in prison that win at once
TAKE_MIN_HAND = 4  # the empty-hand take needs a turn begun with this many cards
PROTECTED_ALIEN = 0  # the joker: once in a prison it never leaves
HUNTER_TYPES = ("H1", "H2", "H3")
HUNTER_COPIES = 5

CLUE_CARDS = [f"C{a}{b}" for a in ALIENS for b in ALIENS if a < b]
CAPTURED_CARDS = [f"A{k}" for k in ALIENS]
HUNTER_CARDS = [kind for kind in HUNTER_TYPES for _ in range(HUNTER_COPIES)]
CARDS = CLUE_CARDS + CAPTURED_CARDS + HUNTER_CARDS
CODES = frozenset(CARDS)


def is_clue(card):
    """True for a CLUE card (`C38`)."""
    return card[0] == "C"


def is_captured(card):
    """True for a CAPTURED card (`A3`)."""
    return card[0] == "A"


def is_hunter(card):
    """True for a BOUNTY HUNTER card (`H1`, `H2`, `H3`)."""
    return card[0] == "H"


def aliens_on(clue):
    """The two aliens a CLUE card shows, lower first: `C38` -> (3, 8)."""
    return _ALIENS_ON[clue]


def alien_of(captured):
    """The alien a CAPTURED card shows: `A3` -> 3."""
    return int(captured[1])


def captured_card(alien):
    """The CAPTURED card of an alien: 3 -> `A3`."""
    return f"A{alien}"


def shares_alien(clue, other):
    """True when two CLUE cards show a common alien, so one may be laid on the other."""
    return other in _SHARING[clue]


def claimable_aliens(clue):
    """The aliens a CAPTURED! claim may name on this table card: the sum and the
    difference of its two numbers, when they are aliens (0..9), lower first."""
    return _CLAIMABLE[clue]


# What each CLUE card shows, shares and lets claim, worked out once: the rules and the
# bots ask these at every step of a search's play-outs.
_ALIENS_ON = {clue: (int(clue[1]), int(clue[2])) for clue in CLUE_CARDS}
_SHARING = {
    clue: frozenset(other for other in CLUE_CARDS if set(_ALIENS_ON[clue]) & set(_ALIENS_ON[other]))
    for clue in CLUE_CARDS
}
_CLAIMABLE = {
    clue: tuple(sorted({k for k in (low + high, high - low) if k in ALIENS}))
    for clue, (low, high) in _ALIENS_ON.items()
}
