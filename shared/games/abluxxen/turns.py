"""Who must act now, what they may send, and what is sent for them when time runs out."""

from collections import Counter

from ..common import check_seat
from .facts import JOKER, sort_key
from .rules import draw_choices, published

EXPECTED = {  # the command types the seat to act may send, by phase
    "play": ("play",),
    "attack": ("attack", "stop"),
    "answer": ("answer",),
    "keep": ("keep",),
    "draw": ("draw",),
}


def to_act(state):
    """The seats that must act now: [] before the deal and once the game is over."""
    phase = state["phase"]
    if phase == "play":
        return [state["turn"]]
    if phase in ("attack", "keep"):
        return [state["attack"]["seat"]]
    if phase == "answer":
        return [state["attack"]["target"]]
    if phase == "draw":
        return [state["draw"]["seat"]]
    return []


def _rows(hand):
    """Every distinct row the hand can play: by value, then number cards, then jokers."""
    held = Counter(hand)
    jokers = held.pop(JOKER, 0)
    rows = []
    for card in sorted(held, key=sort_key):
        for count in range(1, held[card] + 1):
            rows += [[card] * count + [JOKER] * extra for extra in range(jokers + 1)]
    rows += [[JOKER] * count for count in range(1, jokers + 1)]
    return rows


def legal(state, seat):
    """Every command `seat` (None: the table) may send now, each as it can be sent."""
    check_seat(seat, state["players"])
    if seat is None:
        return [{"type": "start"}] if state["phase"] == "setup" else []
    if seat not in to_act(state):
        return []
    phase = state["phase"]
    if phase == "play":
        return [{"type": "play", "cards": row} for row in _rows(state["hands"][seat])]
    if phase == "attack":
        attacks = [{"type": "attack", "target": t} for t in state["attack"]["targets"]]
        return [*attacks, {"type": "stop"}]
    if phase == "answer":
        other = "discard" if published(state) else "give_up"
        return [{"type": "answer", "choice": choice} for choice in ("take_back", other)]
    if phase == "keep":
        return [{"type": "keep", "take": True}, {"type": "keep", "take": False}]
    return [{"type": "draw", "display": picks} for picks in draw_choices(state)]


def timeout(state, seat):
    """The command sent for `seat` when its time runs out, or None when it need not act.

    The turn: play the lowest single card. Attacks: stop. Keeping a stolen row: no.
    The answer: take the row back. A draw: as few display cards as the rules allow
    (none under the published rules; the lowest ones when the display must come first).
    """
    if seat is None or seat not in to_act(state):
        return None
    phase = state["phase"]
    if phase == "play":
        return {"type": "play", "cards": [min(state["hands"][seat], key=sort_key)]}
    if phase == "attack":
        return {"type": "stop"}
    if phase == "answer":
        return {"type": "answer", "choice": "take_back"}
    if phase == "keep":
        return {"type": "keep", "take": False}
    return {"type": "draw", "display": draw_choices(state)[0]}
