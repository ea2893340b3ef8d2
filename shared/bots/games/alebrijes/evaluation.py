"""Alebrijes: how good a world looks to a seat before the game's end, for the search's
play-outs cut short (ismcts `evaluate`, HORIZON).

After HORIZON commands the search compares the hands as greedy costs them (the minus
points they would lose plus the plays they still need, shared.bots.games.alebrijes.
play): the seat's hand against the cheapest of the others', its total against the best
of theirs, squashed into a reward from 0 to 1 (0.5 for a tie), as a won or lost game
gives 1 or 0.
"""

import math

from shared.bots.games.alebrijes.play import hand_cost

HORIZON = 24  # commands of a play-out before its world is evaluated
LEAD_SCALE = 12.0  # a lead of one play (GROUP_COST) is worth about 0.88


def evaluate(state, seat):
    """The seat's expected reward in this world (a full rules state of the search)."""
    worth = [
        total - hand_cost(hand) for total, hand in zip(state["totals"], state["hands"], strict=True)
    ]
    lead = worth[seat] - max(w for other, w in enumerate(worth) if other != seat)
    return 0.5 + 0.5 * math.tanh(lead / LEAD_SCALE)
