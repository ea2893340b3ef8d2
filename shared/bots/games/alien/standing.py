"""Alien: how a world stands for a seat part-way through a game (`evaluate`).

The search (ismcts) cuts its play-outs short after HORIZON commands and reads the world
with `evaluate`: each seat's chance to win, from a conditional logit over what each
seat has: aliens in prison (and whether it is one away from winning), aliens a steal can
take from it, CAPTURED cards and bounty hunters in hand, and how far its turn is. The
weights were fitted on greedy-against-greedy games (2 and 3 players, the search's own
play-outs from the deal, a conditional logit of who won): Alien's whole
play-outs are so luck-heavy that two candidates' play-outs, from the same world, end
as if drawn at random; cut after a turn or two and read this way, they differ by what
the candidate did.
"""

import math

from shared.games.alien.facts import (
    PROTECTED_ALIEN,
    WIN_ALIENS,
    alien_of,
    aliens_on,
    is_captured,
)

HORIZON = 60  # commands at most before a play-out's world is read (a round takes fewer)


def cut(state, seat):
    """Whether a play-out has reached the point its world is read at: the seat's next
    turn begins (every other seat has played once since), as in the games the weights
    were fitted on."""
    return state["window"] is None and state["turn"] == seat and not state["acted"]


# What each feature of a seat adds to its log-odds of winning (the fit above).
WEIGHTS = {
    "prison": 0.67,  # aliens in its prison
    "one_away": 0.42,  # WIN_ALIENS - 1 of them
    "stealable": -0.27,  # aliens in its prison a hunter or a take may take (not alien 0)
    "captured": 0.34,  # CAPTURED cards in hand
    "H1": 0.18,
    "H2": 0.58,
    "H3": 0.57,
    "hand": 0.01,  # cards in hand
    "on_turn": -0.06,
    "match_now": 0.06,  # on its turn: CAPTURED cards in hand the table card shows
    "idle_hunters": -0.33,  # H2 and H3 in hand while no other prison has an alien to take
    "distance": -0.56,  # seats until its turn, over the players
}


def features(state, seat):
    """What the standing reads of `seat` in `state` (a whole rules state)."""
    players = state["players"]
    prison, hand = state["prisons"][seat], state["hands"][seat]
    distance = (seat - state["turn"]) % players
    shown = aliens_on(state["table"]) if state["table"] is not None else ()
    takeable = any(
        alien_of(card) != PROTECTED_ALIEN
        for other, cards in enumerate(state["prisons"])
        if other != seat
        for card in cards
    )
    return {
        "prison": len(prison),
        "one_away": len(prison) == WIN_ALIENS - 1,
        "stealable": sum(1 for card in prison if alien_of(card) != PROTECTED_ALIEN),
        "captured": sum(1 for card in hand if is_captured(card)),
        "H1": hand.count("H1"),
        "H2": hand.count("H2"),
        "H3": hand.count("H3"),
        "hand": len(hand),
        "on_turn": distance == 0,
        "match_now": distance == 0
        and sum(1 for card in hand if is_captured(card) and alien_of(card) in shown),
        "idle_hunters": 0 if takeable else hand.count("H2") + hand.count("H3"),
        "distance": distance / players,
    }


def strength(state, seat):
    """`seat`'s log-odds score: the weighted sum of its features."""
    return sum(WEIGHTS[name] * value for name, value in features(state, seat).items())


def evaluate(state, seat):
    """`seat`'s chance to win from `state` (0 to 1): its share of the seats' strengths,
    exp(strength) over their sum. A finished game is read by its result."""
    if state["winner"] is not None:
        return 1.0 if state["winner"] == seat else 0.0
    strengths = [strength(state, s) for s in range(state["players"])]
    top = max(strengths)
    odds = [math.exp(s - top) for s in strengths]
    return odds[seat] / sum(odds)
