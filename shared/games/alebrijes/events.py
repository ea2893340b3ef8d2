"""Folding events into state. No randomness: every deal and draw is in the events."""

from ..common import fold_event
from .cards import remove_cards


def next_seat(state, seat):
    """Whose turn follows `seat`: the next seat clockwise, skipping passed players.

    In the one-turn variant nobody is skipped: a lap ends before anyone acts twice.
    """
    players, passed = state["players"], state["passed"]
    one_turn = state["options"]["one_turn"]
    for step in range(1, players + 1):
        candidate = (seat + step) % players
        if one_turn or not passed[candidate]:
            return candidate
    return seat


def _dealt(state, event):
    players = state["players"]
    state.update(
        phase="exchange",
        round=event["round"],
        starting_seat=event["starting_seat"],
        turn=event["starting_seat"],
        leader=event["starting_seat"],
        hands=[list(hand) for hand in event["hands"]],  # lists of card codes
        draw_pile=list(event["draw_pile"]),
        laid_aside=[[] for _ in range(players)],
        played=[],
        table=None,
        passed=[False] * players,
    )


def _exchange(state, event):
    """Lay cards aside and draw as many from the top of the draw pile."""
    seat, laid_aside = event["seat"], event["laid_aside"]
    hand = remove_cards(state["hands"][seat], laid_aside)  # a new list: extended below
    hand += event["drawn"]
    state["hands"][seat] = hand
    state["laid_aside"][seat] += laid_aside
    del state["draw_pile"][: event["count"]]  # the state's own list (copy_state)


def _exchanged(state, event):
    _exchange(state, event)
    following = (event["seat"] + 1) % state["players"]
    if following == state["starting_seat"]:  # everyone has exchanged: the starting player leads
        state.update(phase="play", turn=state["starting_seat"], leader=state["starting_seat"])
    else:
        state["turn"] = following


def _passed(state, event):
    _exchange(state, event)
    state["passed"][event["seat"]] = True
    state["turn"] = next_seat(state, event["seat"])


def _played(state, event):
    seat, cards = event["seat"], event["cards"]
    state["hands"][seat] = remove_cards(state["hands"][seat], cards)
    state["played"] += cards
    # The combination on the table: its colour, number and count are a string and ints.
    state["table"] = {
        "seat": seat,
        "cards": list(cards),
        "colour": event["colour"],
        "number": event["number"],
        "count": event["count"],
    }
    state["turn"] = next_seat(state, seat)


def _ollin_draws(state, event):
    for draw in event["draws"]:
        state["hands"][draw["seat"]].append(draw["card"])
    state["draw_pile"] = state["draw_pile"][len(event["draws"]) :]


def _laid_aside(state, event):
    seat = event["seat"]
    state["hands"][seat] = remove_cards(state["hands"][seat], [event["card"]])
    state["laid_aside"][seat].append(event["card"])


def _table_cleared(state, event):
    state["table"] = None
    state["passed"] = [False] * state["players"]
    state["leader"] = state["turn"] = event["leader"]


def _round_ended(state, event):
    state.update(
        phase="over" if event["game_over"] else "round_over",
        turn=None,
        round_winner=event["winner"],
        totals=list(event["totals"]),
        rounds_won=list(event["rounds_won"]),
    )
    state["round_scores"].append(list(event["scores"]))


_FOLDS = {
    "dealt": _dealt,
    "exchanged": _exchanged,
    "passed": _passed,
    "played": _played,
    "ollin_draws": _ollin_draws,
    "laid_aside": _laid_aside,
    "table_cleared": _table_cleared,
    "round_ended": _round_ended,
}


def evolve(state, event):
    """The state after `event`, as a new value; `state` and `event` are left untouched."""
    return evolve_in_place(copy_state(state), event)


def evolve_in_place(state, event):
    """`state` itself after `event`, folded into it, and returned: only for a state its
    caller owns (a search's copy of a world, a decide's own copy; see base.py)."""
    fold = _FOLDS.get(event.get("type"))  # called once an event of a rebuild: no detour
    if fold is None:  # fold_event says what is wrong
        return fold_event(_FOLDS, state, event, "Alebrijes", copy=False)
    fold(state, event)
    return state


def copy_state(state):
    """A deep copy of an Alebrijes rules state (the shape options.initial builds): every
    list and dict is new, the cards (strings) and numbers are shared. Knowing the shape
    makes it several times cheaper than a generic deep copy."""
    new = dict(state)
    if state["deck"] is not None:
        new["deck"] = list(state["deck"])
    new["options"] = dict(state["options"])
    new["hands"] = [list(hand) for hand in state["hands"]]
    new["draw_pile"] = list(state["draw_pile"])
    new["laid_aside"] = [list(cards) for cards in state["laid_aside"]]
    new["played"] = list(state["played"])
    table = state["table"]
    if table is not None:
        new["table"] = {**table, "cards": list(table["cards"])}
    new["passed"] = list(state["passed"])
    new["round_scores"] = [list(scores) for scores in state["round_scores"]]
    new["totals"] = list(state["totals"])
    new["rounds_won"] = list(state["rounds_won"])
    return new
