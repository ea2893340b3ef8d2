"""Folding events into state. No randomness: the deal and every drawn card are in the
events. A fold also moves the turn on to its next step, which is fully determined by
the state (whose attack is next, who must draw how many).

A fold changes only the state's own keys, an item of its seat lists (hands, top_rows,
covered, scoring_piles) and the keys of its `attack`; it never changes a card list in
place (it puts a new one there). So decide works on `working_copy`, which copies just
those, instead of a deep copy of the whole state."""

from ..common import clone, fold_event
from .facts import HAND_SIZE, remove_cards, sorted_cards
from .rules import published, supply


def _start_draw(state, seat, count, source, reason):
    """Ask `seat` to draw `count` cards from `source`; skipped when nothing can be drawn."""
    if count > 0 and supply(state, source) > 0:
        state["draw"] = {"seat": seat, "count": count, "source": source, "reason": reason}
        state["phase"] = "draw"
    elif reason == "lost_row":
        _continue_attacks(state)
    else:
        state["phase"] = "turn_end"


def _continue_attacks(state):
    """After a play or an attack's outcome: the next attack, or the end of the turn.

    Rulebook rules: the active player then draws back to 13, display first. Published
    rules: nobody else draws, the turn is over.
    """
    attack = state["attack"]
    if attack["targets"]:
        state["phase"] = "attack"
        return
    state["attack"] = None
    seat = state["turn"]
    if published(state):
        state["phase"] = "turn_end"
    else:
        need = HAND_SIZE - len(state["hands"][seat])
        _start_draw(state, seat, need, "display_first", "end_of_turn")


def _lose_top_row(state, seat):
    """The attacked row leaves the table: that player has no top row until they play."""
    row = state["top_rows"][seat]
    state["top_rows"][seat] = None
    state["attack"]["target"] = None
    return row


def _dealt(state, event):
    state.update(
        shuffles=state["shuffles"] + (0 if state["deck"] else 1),
        phase="play",
        turn=event["starting_seat"],
        hands=clone(event["hands"]),
        display=list(event["display"]),
        draw_pile=list(event["draw_pile"]),
    )


def _played(state, event):
    seat, row = event["seat"], event["cards"]
    state["hands"][seat] = remove_cards(state["hands"][seat], row)
    if state["top_rows"][seat]:  # the new row lies on top of the earlier ones
        state["covered"][seat] = state["covered"][seat] + state["top_rows"][seat]
    state["top_rows"][seat] = list(row)
    state["attack"] = {
        "seat": seat,
        "row": list(row),
        "value": event["value"],
        "targets": list(event["targets"]),
        "target": None,
    }
    _continue_attacks(state)


def _attacked(state, event):
    attack, target = state["attack"], event["target"]
    # Attacks go clockwise: a row passed over may not be attacked later this turn.
    attack["targets"] = attack["targets"][attack["targets"].index(target) + 1 :]
    attack["target"] = target
    state["phase"] = "keep" if published(state) else "answer"


def _stopped(state, event):
    state["attack"]["targets"] = []
    _continue_attacks(state)


def _taken_back(state, event):
    seat = event["seat"]
    state["hands"][seat] = sorted_cards(state["hands"][seat] + _lose_top_row(state, seat))
    _continue_attacks(state)


def _given_up(state, event):
    seat = event["seat"]
    row = _lose_top_row(state, seat)
    state["scoring_piles"][event["to"]] = state["scoring_piles"][event["to"]] + row
    _start_draw(state, seat, len(row), "pile", "lost_row")


def _kept(state, event):
    seat, target = event["seat"], event["target"]
    row = _lose_top_row(state, target)
    state["hands"][seat] = sorted_cards(state["hands"][seat] + row)
    _start_draw(state, target, len(row), "any", "lost_row")


def _declined(state, event):
    state["phase"] = "answer"


def _discarded(state, event):
    seat = event["seat"]
    row = _lose_top_row(state, seat)
    state["discard_pile"] = state["discard_pile"] + row
    _start_draw(state, seat, len(row), "any", "lost_row")


def _drew(state, event):
    seat, reason = event["seat"], state["draw"]["reason"]
    taken = len(event["pile"]) + len(event["refill"])
    state["hands"][seat] = sorted_cards(state["hands"][seat] + event["display"] + event["pile"])
    state["display"] = remove_cards(state["display"], event["display"]) + event["refill"]
    state["draw_pile"] = state["draw_pile"][taken:]
    state["draw"] = None
    if reason == "lost_row":
        _continue_attacks(state)
    else:
        state["phase"] = "turn_end"


def _turn(state, event):
    state.update(phase="play", turn=event["seat"], attack=None, draw=None)


def _game_over(state, event):
    state.update(
        phase="over",
        attack=None,
        draw=None,
        result={
            "winners": list(event["winners"]),
            "scores": list(event["scores"]),
            "reason": event["reason"],
        },
    )


_FOLDS = {
    "dealt": _dealt,
    "played": _played,
    "attacked": _attacked,
    "stopped": _stopped,
    "taken_back": _taken_back,
    "given_up": _given_up,
    "kept": _kept,
    "declined": _declined,
    "discarded": _discarded,
    "drew": _drew,
    "turn": _turn,
    "game_over": _game_over,
}


def working_copy(state):
    """A copy of `state` that folding in place does not reach back from: the state's
    dict, its seat lists and its attack copied, the card lists shared (no fold changes a
    card list in place; see the module's docstring)."""
    copy = dict(state)
    for key in ("hands", "top_rows", "covered", "scoring_piles"):
        copy[key] = list(state[key])
    if state["attack"] is not None:
        copy["attack"] = dict(state["attack"])
    return copy


def evolve(state, event):
    """The state after `event`, as a new value; `state` and `event` are left untouched."""
    return fold_event(_FOLDS, state, event, "Abluxxen")


def evolve_in_place(state, event):
    """`state` itself after `event`, folded into it, and returned: only for a state its
    caller owns (a search's copy of a world, a decide's own copy; see base.py)."""
    return fold_event(_FOLDS, state, event, "Abluxxen", copy=False)
