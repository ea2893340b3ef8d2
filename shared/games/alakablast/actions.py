"""Alakablast's action space for the environments (shared/envs/actions.py): every command
it can have, enumerated from its command shapes and the rules' bounds: ask (a card of
the hand, an informant, no claim or one element or power), inform (a dimension), duel (a
rival and a kind, with or without a clue: a card and a dimension), choose (a card of the
hand)."""

from itertools import product

from shared.games.alakablast import cards as alakablast

HAND_INDEXES = 8  # the positions in a hand a command may name


def commands():
    """Every command of the game, in the fixed order of its action numbers."""
    hand, seats = range(HAND_INDEXES), range(max(alakablast.PLAYERS))
    claims = [None]
    claims += [{"element": e} for e in alakablast.ELEMENTS]
    claims += [{"power": p} for p in range(8)]
    for card, informant, claim in product(hand, seats, claims):
        ask = {"type": "ask", "card": card, "informant": informant}
        yield ask if claim is None else {**ask, "claim": claim}
    yield from ({"type": "inform", "dimension": d} for d in alakablast.DIMENSIONS)
    for rival, kind in product(seats, alakablast.DUEL_KINDS):
        yield {"type": "duel", "rival": rival, "kind": kind}
        for card, dimension in product(hand, alakablast.DIMENSIONS):
            yield {
                "type": "duel",
                "rival": rival,
                "kind": kind,
                "card": card,
                "dimension": dimension,
            }
    yield from ({"type": "choose", "card": card} for card in hand)
