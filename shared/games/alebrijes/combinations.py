"""Single cards and sets: what may be played, and what beats what is on the table.

A combination is described by a dict {"colour", "number", "count"}; the table
holds the last one played, with its cards and seat added.
"""

import functools
from collections import Counter

from ..base import RuleError
from .cards import COLOURS, JOKER, NUMBERS, colour, has_ollin, is_joker, next_colour, number

OLLIN_EFFECTS = ["none", "others_draw", "lay_aside"]
_MOST_CARDS = 7  # of one number in a set: two plain copies, one with Ollin, four jokers


def combination(cards, named_colour):
    """Colour, number and count of a single card or a set; RuleError("illegal_move") if none.

    Every card of a set shows the same number (jokers keep theirs) and the cards that
    are not jokers share one colour. Jokers take that colour; a play of jokers only
    names its colour, and a colour is named for such a play only.
    """
    if not cards:
        raise RuleError("illegal_move", "play at least one card")
    if len({number(card) for card in cards}) > 1:
        raise RuleError(
            "illegal_move", "every card of a set shows the same number (jokers keep their number)"
        )
    colours = {colour(card) for card in cards if not is_joker(card)}
    if len(colours) > 1:
        raise RuleError("illegal_move", "a set is of one colour (jokers fill it)")
    if colours and named_colour is not None:
        raise RuleError("illegal_move", "a colour is named only when every card played is a joker")
    if not colours and named_colour is None:
        raise RuleError("illegal_move", "name the colour your jokers represent")
    return {
        "colour": colours.pop() if colours else named_colour,
        "number": number(cards[0]),
        "count": len(cards),
    }


def beating_error(table, play):
    """Why `play` does not beat the combination on the table, or None when it does.

    Same count and colour with a higher number; or same count in the next colour,
    any number; an orange combination is beaten by colour only with one more blue card.
    """
    if table is None:
        return None
    count, colour_, number_ = table["count"], table["colour"], table["number"]
    if play["colour"] == colour_ and play["count"] == count:
        if play["number"] > number_:
            return None
        return f"to beat it in the same colour, play a higher number than {number_}"
    if colour_ == "O":
        if play["colour"] == "B" and play["count"] == count + 1:
            return None
        return (
            f"orange is beaten by {count} orange card(s) with a higher number "
            f"or by exactly {count + 1} blue card(s)"
        )
    if play["count"] != count:
        return f"play exactly {count} card(s) to beat the table"
    if play["colour"] == next_colour(colour_):
        return None
    return (
        f"colours cannot be skipped: beat {colour_} with a higher {colour_} "
        f"or with {next_colour(colour_)}"
    )


def ollin_effects(cards, hand_after):
    """The Ollin effects a play of `cards` may choose ("none" is always one of them).

    One card with Ollin: others draw. Two cards with at least one Ollin: others draw
    or lay aside one of your cards. Three or more: nothing. A play that empties the
    hand ends the round before any effect.
    """
    if not hand_after or not any(has_ollin(card) for card in cards):
        return ["none"]
    if len(cards) == 1:
        return ["none", "others_draw"]
    if len(cards) == 2:
        return OLLIN_EFFECTS
    return ["none"]


def possible_plays(hand, table):
    """Every distinct play from the hand that may go on the table, as (cards, named colour).

    The named colour is None unless every card is a joker. Cards are in hand order.
    A play's colour, number and count are known before its cards are listed, so only
    the plays that beat the table are built.
    """
    held = Counter(hand).get  # .get: a Counter's own lookup calls __missing__ for a card not held
    beating = None if table is None else _beating(table["colour"], table["number"], table["count"])
    plays = []
    for number_ in NUMBERS:
        joker = _JOKERS[number_]
        jokers = held(joker, 0)
        for colour_ in COLOURS:
            plain, starred = _CODES[colour_, number_]
            plains, starreds = held(plain, 0), held(starred, 0)
            if not (plains or starreds):
                continue  # jokers only: below, once per named colour
            if beating is None:
                counts = None  # any count: the table is empty
            elif (colour_, number_) in beating:
                counts = beating[colour_, number_]
            else:
                continue  # no play of this colour and number beats the table
            for p in range(plains + 1):
                for s in range(starreds + 1):
                    for j in range(jokers + 1):
                        if (p or s) and (counts is None or p + s + j in counts):
                            plays.append(([plain] * p + [starred] * s + [joker] * j, None))
        for j in range(1, jokers + 1):
            for colour_ in COLOURS:
                if beating is None or j in beating.get((colour_, number_), ()):
                    plays.append(([joker] * j, colour_))
    return plays


_CODES = {(c, n): (f"{c}{n}", f"{c}{n}*") for c in COLOURS for n in NUMBERS}  # plain, Ollin
_JOKERS = {n: f"{JOKER}{n}" for n in NUMBERS}


@functools.cache
def _beating(colour_, number_, count):
    """{(colour, number): the counts} of every play that beats that combination on the
    table, as beating_error says (at most 140 tables can be: each is worked out once)."""
    table = {"colour": colour_, "number": number_, "count": count}
    beating = {}
    for c in COLOURS:
        for n in NUMBERS:
            for k in range(1, _MOST_CARDS + 2):  # one more: blue beats orange with one more card
                if beating_error(table, {"colour": c, "number": n, "count": k}) is None:
                    beating.setdefault((c, n), set()).add(k)
    return {pair: frozenset(counts) for pair, counts in beating.items()}
