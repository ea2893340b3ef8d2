"""Small builders the tests share."""

from shared.games import alebrijes


def humans(*names):
    return [{"name": n} for n in names]


def alebrijes_deck_for(hands, rest=None):
    """A complete deck whose first cards deal `hands` (seat 0's first) and whose draw
    pile starts with `rest`; the other cards follow in a fixed order."""
    wanted = [c for hand in hands for c in hand] + list(rest or [])
    remaining = list(alebrijes.CARDS)
    for card in wanted:
        remaining.remove(card)
    return wanted + remaining
