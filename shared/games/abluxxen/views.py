"""What each seat may see: the view of the table and every event as it may see it.

Hands are secret (a player sees only their own), the draw pile's order is secret, and
so is every card drawn from it; rows, the display and the sizes of piles and hands are
public. Once the game is over the hands are shown.
"""

from ..common import check_seat, clone
from .facts import row_value
from .rules import front, scores


def _seat_view(state, seat, points):
    top_row = state["top_rows"][seat]
    return {
        "seat": seat,
        "hand_count": len(state["hands"][seat]),
        "top_row": None if top_row is None else list(top_row),
        "top_row_value": None if top_row is None else row_value(top_row),
        "covered_count": len(state["covered"][seat]),
        "front_count": len(front(state, seat)),
        "scoring_pile_count": len(state["scoring_piles"][seat]),
        "score": points,
    }


def view(state, seat):
    """What `seat` (None: a spectator) may see of the table, as a JSON dict."""
    check_seat(seat, state["players"])
    over = state["phase"] == "over"
    seats = [_seat_view(state, other, points) for other, points in enumerate(scores(state))]
    attack, draw = state["attack"], state["draw"]
    return {
        "published": state["options"]["published"],
        "phase": state["phase"],
        "turn": state["turn"],
        "hand": None if seat is None else list(state["hands"][seat]),
        "seats": seats,
        "display": list(state["display"]),
        "draw_pile_count": len(state["draw_pile"]),
        "discard_pile_count": len(state["discard_pile"]),
        "attack": None
        if attack is None
        else {key: clone(attack[key]) for key in ("seat", "row", "value", "targets", "target")},
        "draw": clone(draw),
        "hands": clone(state["hands"]) if over else None,
        "result": clone(state["result"]),
    }


def redact(event, seat):
    """`event` as `seat` (None: a spectator) may see it: hidden cards become counts."""
    kind = event["type"]
    if kind == "dealt":
        shown = {k: clone(v) for k, v in event.items() if k not in ("hands", "draw_pile")}
        shown["hand"] = None if seat is None else list(event["hands"][seat])
        return shown
    if kind == "drew" and seat != event["seat"]:
        return {k: clone(v) for k, v in event.items() if k != "pile"}
    return clone(event)


def result(state):
    """None until the game is over; then {"winners", "scores", "reason"}."""
    return clone(state["result"])
