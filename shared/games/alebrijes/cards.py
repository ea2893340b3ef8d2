"""The Alebrijes deck: card codes, what a code shows, and minus points.

A code is colour + number, with a trailing `*` when the card carries the Ollin
symbol: `B3`, `B3*`. Jokers are `J1`..`J5` and never carry the Ollin symbol.
"""

COLOURS = ["B", "G", "P", "O"]  # the colour circle: blue, green, pink, orange, back to blue
JOKER = "J"
NUMBERS = [1, 2, 3, 4, 5]
_SORT_COLOURS = "BGPOJ"  # jokers sort after the four colours, as their own fifth colour


def _deck():
    """Every card once, in a fixed order: three copies per colour and number, then the jokers."""
    cards = []
    for colour_ in COLOURS:
        for number_ in NUMBERS:
            cards += [f"{colour_}{number_}", f"{colour_}{number_}", f"{colour_}{number_}*"]
    for number_ in NUMBERS:
        cards += [f"{JOKER}{number_}"] * 4
    return cards


CARDS = _deck()
CODES = frozenset(CARDS)


def colour(card):
    """The card's colour: "B", "G", "P", "O", or "J" for a joker."""
    return card[0]


def number(card):
    """The number the card shows, 1..5 (a joker keeps its own number)."""
    return int(card[1])


def is_joker(card):
    """True for an Alebrijes Joker."""
    return card[0] == JOKER


def has_ollin(card):
    """True when the card shows the Ollin symbol."""
    return card.endswith("*")


def next_colour(colour_):
    """The colour that beats `colour_` by colour, going round the circle."""
    return COLOURS[(COLOURS.index(colour_) + 1) % len(COLOURS)]


def sort_key(card):
    """Hand order: by colour (jokers last), then number, the Ollin copy after the plain ones."""
    key = _HAND_ORDER.get(card)
    return key if key is not None else _hand_order(card)


def _hand_order(card):
    return (_SORT_COLOURS.index(card[0]), number(card), has_ollin(card))


_HAND_ORDER = {card: _hand_order(card) for card in CODES}  # every code's key, worked out once


def sorted_cards(cards):
    """The cards as a new list in hand order."""
    try:  # every card a code: the key is a lookup, with no Python call a card
        return sorted(cards, key=_HAND_ORDER.__getitem__)
    except KeyError:
        return sorted(cards, key=sort_key)


def remove_cards(hand, cards):
    """The hand without `cards` (a multiset), or None when the hand does not hold them all.

    Each card goes from its first place in the hand; copies of a code are alike, so
    this is the hand in its order less one copy per card named."""
    rest = list(hand)
    for card in cards:
        try:
            rest.remove(card)
        except ValueError:
            return None
    return rest


def minus_points(hand):
    """Minus points for cards left in hand: the highest number of each colour, summed.

    Lower and duplicate cards of a colour do not count; jokers are a fifth colour.
    """
    highest = {}
    for card in hand:
        highest[colour(card)] = max(highest.get(colour(card), 0), number(card))
    return sum(highest.values())


def hand_size(players):
    """Cards dealt to each player: 10, or 8 with five or six players."""
    return 8 if players >= 5 else 10
