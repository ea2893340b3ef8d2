"""What each seat may see: the view of the state, events redacted, and the result.

A seat sees its own hand and its own laid-aside cards; of everyone else only counts.
Nobody sees the draw pile's order or the seed. Hidden values in a redacted event are
replaced by null; counts stay.
"""

from ..common import check_seat, clone
from .cards import sorted_cards
from .options import NAME
from .rounds import standings
from .rules import to_act


def result(state):
    """None until the game is over; then winners, scores (negative), rounds won, round scores."""
    return standings(state) if state["phase"] == "over" else None


def view(state, seat):
    """What `seat` (None: a spectator) may see of the state, as a JSON-ready dict."""
    check_seat(seat, state["players"])
    own = seat is not None
    return {
        "game": NAME,
        "seat": seat,
        "players": state["players"],
        "options": dict(state["options"]),
        "phase": state["phase"],
        "round": state["round"],
        "rounds": state["options"]["rounds"],
        "starting_seat": state["starting_seat"],
        "turn": state["turn"],
        "to_act": to_act(state),
        "leader": state["leader"] if state["phase"] == "play" else None,
        "hand": sorted_cards(state["hands"][seat]) if own else None,
        "laid_aside": sorted_cards(state["laid_aside"][seat]) if own else None,
        "hand_sizes": [len(hand) for hand in state["hands"]],
        "laid_aside_counts": [len(cards) for cards in state["laid_aside"]],
        "draw_pile_size": len(state["draw_pile"]),
        "table": _table(state["table"]),
        "passed": list(state["passed"]),
        "round_scores": [list(scores) for scores in state["round_scores"]],
        "totals": list(state["totals"]),
        "rounds_won": list(state["rounds_won"]),
        "round_winner": state["round_winner"],
        "result": result(state),
    }


def _table(table):
    """A copy of the combination on the table (its cards a list, the rest numbers and a
    colour), or None."""
    return None if table is None else {**table, "cards": list(table["cards"])}


def redact(event, seat):
    """`event` as `seat` (None: a spectator) may see it, as a new value."""
    event = clone(event)
    kind = event["type"]
    if kind == "dealt":
        hands = event["hands"]
        event["hands"] = [hand if owner == seat else None for owner, hand in enumerate(hands)]
        event["draw_pile"] = None
    elif kind in ("exchanged", "passed") and event["seat"] != seat:
        event.update(laid_aside=None, drawn=None)
    elif kind == "laid_aside" and event["seat"] != seat:
        event["card"] = None
    elif kind == "ollin_draws":
        for draw in event["draws"]:
            if draw["seat"] != seat:
                draw["card"] = None
    return event
