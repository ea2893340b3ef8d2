"""What each seat may see: the view of the state, redacted events, and the result.

Hands are secret; prisons, the table card, hand sizes and the stacking window are
public. Nobody sees the draw pile's order, the seed, or a card taken blind from
another hand unless they gave or received it.
"""

from ..common import check_seat
from . import claims


def view(state, seat):
    """What `seat` (None: a spectator) may see of the state."""
    check_seat(seat, state["players"])
    return {
        "phase": state["phase"],
        "players": state["players"],
        "options": dict(state["options"]),
        "turn": state["turn"],
        "began_with": state["began_with"],
        "acted": state["acted"],
        "took": state["took"],
        "table": state["table"],
        "table_claimed": state["table_claimed"],
        "hand": None if seat is None else list(state["hands"][seat]),
        "hand_counts": [len(hand) for hand in state["hands"]],
        "prisons": [list(prison) for prison in state["prisons"]],
        "draw_pile_count": len(state["draw_pile"]),
        "played_count": len(state["played"]),
        "used_hunter_count": len(state["hunters"]),
        "window": _window(state),
        "winner": state["winner"],
    }


def _window(state):
    window = state["window"]
    if window is None:
        return None
    return {
        "claimant": window["claimant"],
        "alien": window["alien"],
        "table": window["table"],
        "stacked": list(window["stacked"]),
        "waiting": claims.waiting(state),
        "seconds": state["options"]["stack_seconds"],
    }


def redact(event, seat):
    """`event` as `seat` (None: a spectator) may see it: a hidden list of cards becomes
    its count, a hidden single card or place becomes None."""
    kind = event["type"]
    if kind == "dealt":
        hands = [hand if i == seat else len(hand) for i, hand in enumerate(event["hands"])]
        return {**event, "hands": hands, "draw_pile": len(event["draw_pile"])}
    if kind == "reshuffled":
        return {**event, "draw_pile": len(event["draw_pile"])}
    if kind == "turned_over":
        return {**event, "returned_to": None}  # where it went is the draw pile's order
    if kind == "drew" and seat != event["seat"]:
        return {**event, "cards": len(event["cards"])}
    secret = _BLIND_TAKES.get(kind)
    if secret and seat not in (event["seat"], event[secret[1]]):
        return {**event, secret[0]: None}
    return dict(event)


# A card taken blind is seen only by its giver and its receiver: (card field, other party).
_BLIND_TAKES = {
    "hunted": ("taken", "target"),
    "wrong_claim": ("taken", "taker"),
    "handed_over": ("card", "to"),
}


def result(state):
    """None until a prison holds 4 aliens; then the winner, and each seat's aliens in
    prison as its score."""
    if state["phase"] != "over":
        return None
    return {
        "winners": [state["winner"]],
        "scores": [len(prison) for prison in state["prisons"]],
        "prisons": [list(prison) for prison in state["prisons"]],
    }
