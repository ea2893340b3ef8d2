"""Abluxxen: how good a world looks to a seat before its end, for the search's play-outs
cut short (ismcts `evaluate`, HORIZON).

A whole game is hundreds of commands; the search plays HORIZON of them and then reads
the score as the rules count it (+1 a card in front or in the scoring pile, -1 a card
in hand): the seat's lead over the best of the others, squashed into a reward from 0
to 1 (0.5 for a tie), as a won or lost game gives 1 or 0.
"""

import math

from shared.games.abluxxen.rules import scores

HORIZON = 40  # commands of a play-out before its world is evaluated
LEAD_SCALE = 6.0  # a lead of this many points is worth about 0.88


def evaluate(state, seat):
    """The seat's expected reward in this world (a full rules state of the search)."""
    points = scores(state)
    lead = points[seat] - max(p for other, p in enumerate(points) if other != seat)
    return 0.5 + 0.5 * math.tanh(lead / LEAD_SCALE)
