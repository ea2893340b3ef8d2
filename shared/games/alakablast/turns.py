"""Who must act now, every command they may send, and what is sent when they run out of time."""

import random

from shared.games.alakablast.cards import CLAIMABLE, DUEL_KINDS
from shared.games.alakablast.knowledge import knows_nothing
from shared.games.alakablast.table import (
    answer_dimensions,
    askable_cards,
    choosing_seats,
    duel_clues,
    others_clockwise,
)
from shared.games.common import check_seat


def to_act(state):
    """The seats that must act now: the turn's player, the informant, or the duelists.

    Also defined on the states between the events of one command (the table folds them
    one by one): once the question is answered or the duel resolved, nobody acts until
    the next turn begins.
    """
    phase = state["phase"]
    if phase == "turn":
        return [state["turn"]]
    if phase == "answer" and state["question"] is not None:
        return [state["question"]["informant"]]
    if phase == "duel" and state["duel"] is not None:
        return choosing_seats(state)
    return []


def _claims(card):
    # A claim is only allowed about a card nothing is known of (see decide._ask).
    if not knows_nothing(card["told"]):
        return [None]
    return [None] + [{dim: value} for dim, values in CLAIMABLE.items() for value in values]


def _asks(state, seat):
    hand = state["hands"][seat]
    asks = []
    for position in askable_cards(hand):
        for informant in others_clockwise(state, seat):
            for claim in _claims(hand[position]):
                ask = {"type": "ask", "card": position, "informant": informant}
                if claim:
                    ask["claim"] = claim
                asks.append(ask)
    return asks


def _duels(state, seat):
    duels = []
    for rival in others_clockwise(state, seat):
        clues = duel_clues(state, rival)
        for kind in DUEL_KINDS:
            duel = {"type": "duel", "rival": rival, "kind": kind}
            if not clues:
                duels.append(duel)
            duels.extend({**duel, "card": card, "dimension": dim} for card, dim in clues)
    return duels


def legal(state, seat):
    """Every command `seat` may send now, exactly as it can be sent; [] when it may do nothing.

    The turn's player: asks (by card, informant clockwise from the next seat, then claim:
    none, W, F, P, 1..6), then duels (by rival clockwise, kind, clue). The informant: the
    dimensions that add knowledge. A duelist who has not chosen: every card of the hand.
    """
    check_seat(seat, state["players"])
    if seat not in to_act(state):
        return []
    phase = state["phase"]
    if phase == "turn":
        return _asks(state, seat) + _duels(state, seat)
    if phase == "answer":
        return [{"type": "inform", "dimension": d} for d in answer_dimensions(state)]
    return [{"type": "choose", "card": i} for i in range(len(state["hands"][seat]))]


def timeout(state, seat):
    """The command sent for `seat` when its time runs out; None when it need not act.

    The turn's player asks the next seat about their first open card still to learn about
    (or, with none, makes the first legal duel); the informant answers in the dimension a
    claim did not name, or without a claim gives the first legal answer; a duelist plays a
    random card of their hand, drawn from the game's seed.
    """
    commands = legal(state, seat)
    if not commands:
        return None
    if state["phase"] == "answer" and state["question"]["claim"]:
        # The dimension the claim did not name: legal whether the claim is right or wrong,
        # so a timed-out answer does not tell the asker which it was.
        (claimed,) = state["question"]["claim"]
        return {"type": "inform", "dimension": "power" if claimed == "element" else "element"}
    if state["phase"] != "duel":
        return commands[0]
    duel = state["duel"]
    showdowns = len(duel["played"]["attacker"])
    rng = random.Random(f"{state['seed']}/timeout/{state['turn_number']}/{showdowns}/{seat}")
    return rng.choice(commands)
