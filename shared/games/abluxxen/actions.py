"""Abluxxen's action space for the environments (shared/envs/actions.py): every command it
can have, enumerated from its command shapes and the rules' bounds: play (a row: copies
of one number with jokers, or jokers alone), attack (a seat), stop, answer (take_back,
give_up, discard), keep (take or not), draw (0 to 6 display cards)."""

from collections import Counter
from itertools import product

from shared.games.abluxxen import facts as abluxxen
from shared.games.abluxxen.commands import CHOICES
from shared.games.common import multisets


def commands():
    """Every command of the game, in the fixed order of its action numbers."""
    copies = Counter(abluxxen.CARDS)
    joker = abluxxen.JOKER
    for number in sorted(set(abluxxen.CARDS) - {joker}, key=int):
        for n, j in product(range(1, copies[number] + 1), range(copies[joker] + 1)):
            yield {"type": "play", "cards": [number] * n + [joker] * j}
    yield from ({"type": "play", "cards": [joker] * j} for j in range(1, copies[joker] + 1))
    yield from ({"type": "attack", "target": t} for t in range(max(abluxxen.PLAYERS)))
    yield {"type": "stop"}
    yield from ({"type": "answer", "choice": c} for c in CHOICES)
    yield from ({"type": "keep", "take": take} for take in (True, False))
    for picks in multisets(copies, abluxxen.DISPLAY_SIZE):
        yield {"type": "draw", "display": picks}
