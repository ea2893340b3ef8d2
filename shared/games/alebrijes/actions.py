"""Alebrijes's action space for the environments (shared/envs/actions.py): every command it
can have, enumerated from its command shapes and the rules' bounds: exchange (0 to 2
cards), pass (with 0 to 2 cards to exchange), play (a set of one number: cards of one
colour with jokers, or jokers alone naming a colour; with an Ollin card, its effect:
none, others_draw, or lay_aside with the card laid aside)."""

from collections import Counter
from itertools import product

from shared.games.alebrijes import cards as alebrijes
from shared.games.common import multisets


def commands():
    """Every command of the game, in the fixed order of its action numbers."""
    copies = Counter(alebrijes.CARDS)
    hands = list(multisets(copies, 2))
    yield from ({"type": "exchange", "cards": cards} for cards in hands)
    yield from ({"type": "pass", "exchange": cards} for cards in hands)
    for n in alebrijes.NUMBERS:
        joker = f"{alebrijes.JOKER}{n}"
        for colour in alebrijes.COLOURS:
            plain, ollin = f"{colour}{n}", f"{colour}{n}*"
            for p, o, j in product(range(3), range(2), range(copies[joker] + 1)):
                if p + o == 0:
                    continue
                cards = [plain] * p + [ollin] * o + [joker] * j
                yield {"type": "play", "cards": cards, "ollin": "none"}
                if o:
                    yield {"type": "play", "cards": cards, "ollin": "others_draw"}
                    for aside in sorted(copies):
                        yield {
                            "type": "play",
                            "cards": cards,
                            "ollin": "lay_aside",
                            "lay_aside": aside,
                        }
        for j, colour in product(range(1, copies[joker] + 1), alebrijes.COLOURS):
            yield {"type": "play", "cards": [joker] * j, "colour": colour, "ollin": "none"}
