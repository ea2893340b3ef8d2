"""Alien's action space for the environments (shared/envs/actions.py): every command it can
have, enumerated from its command shapes and the rules' bounds: play (a CLUE card),
capture (a CAPTURED card), hunt (H1 on a seat; H2 or H3 on a seat and an alien), take (a
seat and an alien), claim (a CAPTURED card on a CLUE card), end_turn, pass, stack."""

from itertools import product

from shared.games.alien import facts as alien

MAX_SEATS = max(alien.PLAYERS)  # a target seat, at the largest table


def commands():
    """Every command of the game, in the fixed order of its action numbers."""
    seats = range(MAX_SEATS)
    yield from ({"type": "play", "card": c} for c in alien.CLUE_CARDS)
    yield from ({"type": "capture", "card": c} for c in alien.CAPTURED_CARDS)
    yield from ({"type": "hunt", "card": "H1", "target": t} for t in seats)
    for card, target, which in product(("H2", "H3"), seats, alien.ALIENS):
        yield {"type": "hunt", "card": card, "target": target, "alien": which}
    for target, which in product(seats, alien.ALIENS):
        yield {"type": "take", "target": target, "alien": which}
    for card, on in product(alien.CAPTURED_CARDS, alien.CLUE_CARDS):
        yield {"type": "claim", "card": card, "table": on}
    yield from ({"type": kind} for kind in ("end_turn", "pass", "stack"))
