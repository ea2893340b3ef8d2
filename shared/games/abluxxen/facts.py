"""Abluxxen's static facts: the 109 card codes, what a card is worth in a row, and the
numbers the rules turn on.

Codes (RULINGS.md): number cards "1".."13", eight of each (their colours are cosmetic),
and five jokers "X". The rulebook's "110 cards" counts a marker card that is not dealt.
"""

from collections import Counter

NAME = "abluxxen"
PLAYERS = range(2, 6)
OPTIONS = {"published": False}
COMMANDS = ("play", "attack", "stop", "answer", "keep", "draw")
TABLE_COMMANDS = ("start",)

HAND_SIZE = 13  # dealt, and (rulebook rules) drawn back up to at the end of a turn
DISPLAY_SIZE = 6  # face-up cards beside the draw pile, refilled after every draw
NUMBERS = range(1, 14)
COPIES = 8  # of every number
JOKER = "X"
JOKERS = 5
JOKERS_ONLY_VALUE = 14  # a row of jokers alone outranks every number

CARDS = [str(number) for number in NUMBERS for _ in range(COPIES)] + [JOKER] * JOKERS
CODES = frozenset(CARDS)


def sort_key(card):
    """Hand order: by number, jokers last."""
    return JOKERS_ONLY_VALUE if card == JOKER else int(card)


def sorted_cards(cards):
    """The cards as a new list in hand order."""
    return sorted(cards, key=sort_key)


def row_value(cards):
    """The value of a row, or None when the cards are no row.

    A row is one or more cards of one number; jokers take that number, and a row of
    jokers alone is worth 14.
    """
    numbers = {card for card in cards if card != JOKER}
    if not cards or len(numbers) > 1:
        return None
    return int(numbers.pop()) if numbers else JOKERS_ONLY_VALUE


def holds(cards, wanted):
    """True when `cards` hold every card of `wanted` (a multiset)."""
    held = Counter(cards)
    return all(held[card] >= count for card, count in Counter(wanted).items())


def remove_cards(cards, gone):
    """`cards` without `gone` (a multiset the caller has checked is held), as a new list."""
    left = Counter(gone)
    rest = []
    for card in cards:
        if left[card]:
            left[card] -= 1
        else:
            rest.append(card)
    return rest
