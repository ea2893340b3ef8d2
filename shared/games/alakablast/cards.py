"""Static facts of Alakablast: the spell cards, hand sizes, gem targets, who beats whom.

A spell's code is its element letter and its power: water `W`, fire `F`, plant `P`,
each 1,1,1,2,2,2,3,3,4,4,5,5,6; light `L0` and shadow `S7`, five of each (49 cards).
"""

NAME = "alakablast"
PLAYERS = range(2, 6)
OPTIONS = {}
COMMANDS = ("ask", "inform", "duel", "choose")

ELEMENTS = ("W", "F", "P", "L", "S")  # the discard zone's sorting order
ELEMENT_POWERS = (1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 5, 6)
SPECIAL_SPELLS = ("L0", "S7")
SPECIAL_COPIES = 5
CARDS = [f"{element}{power}" for element in "WFP" for power in ELEMENT_POWERS] + [
    spell for spell in SPECIAL_SPELLS for _ in range(SPECIAL_COPIES)
]

# A claim names what the asker believes of a plain spell; light and shadow are only
# ever told as "special", so naming them would be claiming everything at once.
CLAIMABLE = {"element": ("W", "F", "P"), "power": (1, 2, 3, 4, 5, 6)}
DIMENSIONS = ("element", "power")  # what a clue is about
DUEL_KINDS = ("element", "power")

HIDDEN_CARDS = 2
OPEN_CARDS = {2: 3, 3: 2, 4: 2, 5: 2}
DISCARD_AT_START = {2: 10, 3: 6, 4: 0, 5: 0}
GEM_TARGET = {2: 7, 3: 6, 4: 5, 5: 4}

BEATS = {"W": "F", "F": "P", "P": "W"}  # water beats fire, fire plant, plant water


def hand_size(players):
    """How many cards each hand holds after the deal and after every refill."""
    return HIDDEN_CARDS + OPEN_CARDS[players]


def element(spell):
    """The element letter of a spell code: "W3" -> "W"."""
    return spell[0]


def power(spell):
    """The power level of a spell code: "W3" -> 3."""
    return int(spell[1:])


def is_special(spell):
    """Light and shadow spells are the special ones."""
    return spell in SPECIAL_SPELLS


def discard_order(spell):
    """Sort key keeping the discard zone sorted by type, then power."""
    return (ELEMENTS.index(element(spell)), power(spell))


_DISCARD_ORDER = {spell: discard_order(spell) for spell in set(CARDS)}


def sorted_spells(spells):
    """A new list of the spells in discard-zone order."""
    return sorted(spells, key=_DISCARD_ORDER.__getitem__)


def _element_beats(mine, theirs):
    if mine == theirs:
        return False
    if "L" in (mine, theirs):
        return mine == "L"  # light beats all but light
    if "S" in (mine, theirs):
        return theirs == "S"  # shadow loses to all but shadow
    return BEATS[mine] == theirs


def duel_outcome(kind, attacker_spell, rival_spell):
    """ "attacker", "rival" or None (a tie) for one showdown of a duel of that kind."""
    if kind == "power":
        mine, theirs = power(attacker_spell), power(rival_spell)
        attacker_wins, rival_wins = mine > theirs, theirs > mine
    else:
        mine, theirs = element(attacker_spell), element(rival_spell)
        attacker_wins, rival_wins = _element_beats(mine, theirs), _element_beats(theirs, mine)
    if attacker_wins:
        return "attacker"
    if rival_wins:
        return "rival"
    return None
