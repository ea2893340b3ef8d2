"""Folding events into the state. No rule is checked and no chance is drawn here:
`decide` already did both, and the events carry every outcome.

`evolve` folds into a copy (`copy_state`, which knows the state's shape, so it is many
times cheaper than a generic deep copy); `evolve_in_place` folds into the state itself,
for a caller that owns it: decide's working copy, a search's play-out. Folds never keep
a reference to an event's lists, so an event may be reused after it is folded.
"""

from ..common import fold_event
from .facts import WIN_ALIENS, captured_card, is_clue


def evolve(state, event):
    """The state after `event`; neither input is changed."""
    return evolve_in_place(copy_state(state), event)


def evolve_in_place(state, event):
    """Fold `event` into `state` itself and return it: the same state as `evolve` gives,
    for a caller that owns `state`. Raises ValueError for an event Alien does not have."""
    fold_event(_FOLDS, state, event, "Alien", copy=False)
    state["step"] += 1
    _settle_win(state)
    return state


def copy_state(state):
    """A deep copy of an Alien rules state (the shape setup.initial builds): every list
    and dict is new, the cards (strings) and numbers are shared."""
    new = dict(state)
    new["options"] = dict(state["options"])
    new["hands"] = [list(hand) for hand in state["hands"]]
    new["prisons"] = [list(prison) for prison in state["prisons"]]
    new["draw_pile"] = list(state["draw_pile"])
    new["played"] = list(state["played"])
    new["hunters"] = list(state["hunters"])
    window = state["window"]
    if window is not None:
        new["window"] = {**window, "stacked": list(window["stacked"])}
    return new


def _settle_win(state):
    """The game ends the moment a prison holds 4 aliens, whatever put the 4th there."""
    if state["phase"] != "play":
        return
    for seat, prison in enumerate(state["prisons"]):
        if len(prison) >= WIN_ALIENS:
            state["phase"], state["winner"], state["window"] = "over", seat, None
            return


def _move(source, target, card):
    source.remove(card)
    target.append(card)


def _dealt(state, event):
    state["hands"] = [list(hand) for hand in event["hands"]]
    state["draw_pile"] = list(event["draw_pile"])


def _turned_over(state, event):
    card = state["draw_pile"].pop(0)
    if is_clue(card):
        state["table"], state["table_claimed"] = card, False
    else:
        state["draw_pile"].insert(event["returned_to"], card)


def _turn_began(state, event):
    seat = event["seat"]
    state["phase"], state["turn"] = "play", seat
    state["began_with"] = len(state["hands"][seat])
    state["acted"] = state["took"] = False


def _played(state, event):
    state["hands"][event["seat"]].remove(event["card"])
    state["played"].append(state["table"])  # the old table card stays under the new one
    state["table"], state["table_claimed"] = event["card"], False
    state["acted"] = True


def _captured(state, event):
    seat = event["seat"]
    _move(state["hands"][seat], state["prisons"][seat], event["card"])
    state["acted"] = True


def _hunted(state, event):
    seat, target, card = event["seat"], event["target"], event["card"]
    _move(state["hands"][seat], state["hunters"], card)
    state["acted"] = True
    if card == "H1":
        if event["taken"] is not None:
            _move(state["hands"][target], state["hands"][seat], event["taken"])
        return
    into = state["hands"][seat] if card == "H2" else state["prisons"][seat]
    _move(state["prisons"][target], into, captured_card(event["alien"]))


def _took_alien(state, event):
    prisons = state["prisons"]
    _move(prisons[event["target"]], prisons[event["seat"]], captured_card(event["alien"]))
    state["took"] = state["acted"] = True


def _drew(state, event):
    cards = event["cards"]
    del state["draw_pile"][: len(cards)]
    state["hands"][event["seat"]].extend(cards)


def _reshuffled(state, event):
    state["draw_pile"] = list(event["draw_pile"])
    state["played"], state["hunters"] = [], []


def _claimed(state, event):
    seat = event["seat"]
    _move(state["hands"][seat], state["prisons"][seat], event["card"])
    state["table_claimed"] = True
    state["windows"] += 1
    state["window"] = {
        "number": state["windows"],
        "claimant": seat,
        "alien": event["card"],
        "table": event["table"],
        "stacked": [],
    }


def _wrong_claim(state, event):
    if event["taken"] is not None:
        hands = state["hands"]
        _move(hands[event["seat"]], hands[event["taker"]], event["taken"])


def _stacked(state, event):
    state["window"]["stacked"].append(event["seat"])


def _handed_over(state, event):
    hands = state["hands"]
    _move(hands[event["seat"]], hands[event["to"]], event["card"])


def _window_closed(state, event):
    state["window"] = None


def _nothing(state, event):
    """Events that mark a moment in the log without changing any card."""


_FOLDS = {
    "dealt": _dealt,
    "turned_over": _turned_over,
    "turn_began": _turn_began,
    "played": _played,
    "captured": _captured,
    "hunted": _hunted,
    "took_alien": _took_alien,
    "ended_turn": _nothing,
    "passed": _nothing,
    "drew": _drew,
    "reshuffled": _reshuffled,
    "claimed": _claimed,
    "wrong_claim": _wrong_claim,
    "stacked": _stacked,
    "handed_over": _handed_over,
    "window_closed": _window_closed,
}
