"""What a player has been told about their own open cards, and the clues that tell them.

`told` is kept on every open card: {"element": "W" | None, "power": 1..6 | None,
"special": bool}. A clue is a one-key dict: {"element": "F"}, {"power": 3} or
{"special": True}; it is always truthful, so the server computes it from the card and
the dimension the informant (or attacker) picks.
"""

from shared.games.alakablast.cards import CLAIMABLE, DIMENSIONS, element, is_special, power


def untold():
    """The knowledge of a card nobody has said anything about."""
    return {"element": None, "power": None, "special": False}


def knows_nothing(told):
    """True when nothing has been told or recorded about the card."""
    return told == untold()


def fully_known(told):
    """True when no clue can add anything about the card."""
    return told["special"] or (told["element"] is not None and told["power"] is not None)


def clue_about(spell, dimension):
    """The truthful clue about `spell` in `dimension`; light and shadow are only "special"."""
    if is_special(spell):
        return {"special": True}
    if dimension == "element":
        return {"element": element(spell)}
    return {"power": power(spell)}


def matches(spell, clue):
    """True when the clue is true of `spell` (a clue names every card it fits)."""
    if "special" in clue:
        return is_special(spell)
    if "element" in clue:
        return not is_special(spell) and element(spell) == clue["element"]
    return not is_special(spell) and power(spell) == clue["power"]


def adds(told, clue):
    """True when the clue tells the card's owner something new about that card."""
    if "special" in clue:
        return not told["special"]
    (dimension,) = clue
    return not told["special"] and told[dimension] is None


def learn(told, clue):
    """The knowledge after hearing a clue that is true of the card."""
    told = dict(told)
    told.update(clue)
    return told


def dimensions_that_add(told, spell):
    """The dimensions an informant may choose: those whose clue adds knowledge."""
    return [d for d in DIMENSIONS if adds(told, clue_about(spell, d))]


def is_claimable(claim):
    """True when a claim names a plain element (W, F, P) or a power from 1 to 6."""
    ((dimension, value),) = claim.items()
    return value in CLAIMABLE[dimension]


def claim_holds(spell, claim):
    """True when the asker's claim about their card is correct."""
    return matches(spell, claim)


def answer_dimensions(told, spell, claim):
    """The dimensions an informant may answer in: those whose clue adds knowledge, less
    the claimed one when the claim is correct. A claim is never recorded as known: the
    asker learns only the clue, and cannot tell a right claim from a wrong one."""
    dimensions = dimensions_that_add(told, spell)
    if claim and claim_holds(spell, claim):
        dimensions = [d for d in dimensions if d not in claim]
    return dimensions


def tell(hand, clue):
    """A new hand where every open card the clue fits has learnt it; also their positions."""
    new_hand, positions = [], []
    for position, card in enumerate(hand):
        if card["open"] and matches(card["spell"], clue):
            card = {**card, "told": learn(card["told"], clue)}
            positions.append(position)
        new_hand.append(card)
    return new_hand, positions
