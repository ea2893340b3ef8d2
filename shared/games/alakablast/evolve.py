"""Folding events into the state. Needs no randomness: every shuffle is in the events.

`evolve` folds into a copy (`copy_state`, which knows the state's shape, so it is many
times cheaper than a generic deep copy); `evolve_in_place` folds into the state itself,
for a caller that owns it: the referee's look-ahead (`emit`), a search's play-out. Folds
never keep a reference to an event's lists or dicts, and never change a card's dict (they
replace it), so an event may be reused after it is folded.
"""

from shared.games.alakablast.cards import sorted_spells
from shared.games.alakablast.knowledge import tell, untold
from shared.games.common import clone, fold_event


def _card(spell, is_open):
    return {"spell": spell, "open": is_open, "told": untold() if is_open else None}


def _dealt(state, event):
    state["hands"] = [
        [_card(spell, False) for spell in hand["hidden"]]
        + [_card(spell, True) for spell in hand["open"]]
        for hand in event["hands"]
    ]
    state["discard_zone"] = sorted_spells(event["discard_zone"])
    state["draw_pile"] = list(event["draw_pile"])
    state["shuffles"] += 1


def _turn_began(state, event):
    state["phase"] = "turn"
    state["turn"] = event["turn"]
    state["turn_number"] += 1


def _asked(state, event):
    state["phase"] = "answer"
    state["question"] = {
        "asker": event["seat"],
        "informant": event["informant"],
        "card": event["card"],
        "claim": clone(event["claim"]),
    }


def _informed(state, event):
    # Only the clue is recorded: a claim, right or wrong, never becomes known.
    state["hands"][event["target"]], _ = tell(state["hands"][event["target"]], event["clue"])
    state["question"] = None


def _duel_declared(state, event):
    state["phase"] = "duel"
    state["duel"] = {
        "attacker": event["seat"],
        "rival": event["rival"],
        "kind": event["kind"],
        "stake": 1,
        "chosen": {"attacker": None, "rival": None},
        "played": {"attacker": [], "rival": []},
    }


def _card_chosen(state, event):
    duel = state["duel"]
    role = "attacker" if event["seat"] == duel["attacker"] else "rival"
    duel["chosen"][role] = event["card"]


def _duel_revealed(state, event):
    # The chosen cards leave the hands and lie face up on the table until the duel ends.
    duel = state["duel"]
    for role in ("attacker", "rival"):
        hand = state["hands"][duel[role]]
        card = hand.pop(duel["chosen"][role])
        duel["played"][role].append(card["spell"])
        duel["chosen"][role] = None


def _duel_tied(state, event):
    state["duel"]["stake"] = event["stake"]


def _duel_won(state, event):
    state["gems"][event["winner"]] += event["gems"]


def _cards_discarded(state, event):
    state["discard_zone"] = sorted_spells(state["discard_zone"] + event["cards"])
    state["duel"] = None


def _cards_drawn(state, event):
    count = len(event["cards"])
    state["draw_pile"] = state["draw_pile"][count:]
    hand = state["hands"][event["seat"]]
    new_cards = [_card(spell, event["open"]) for spell in event["cards"]]
    if event["open"]:
        hand.extend(new_cards)
    else:
        # A hand keeps its hidden cards first, so new hidden cards go after the old ones.
        hidden = sum(1 for card in hand if not card["open"])
        hand[hidden:hidden] = new_cards


def _draw_pile_rebuilt(state, event):
    state["draw_pile"] = list(event["draw_pile"])
    state["discard_zone"] = []
    state["shuffles"] += 1


def _game_over(state, event):
    state["phase"] = "over"
    state["turn"] = None
    state["result"] = {
        "winners": list(event["winners"]),
        "scores": list(event["scores"]),
        "reason": event["reason"],
    }


FOLDS = {
    "dealt": _dealt,
    "turn_began": _turn_began,
    "asked": _asked,
    "informed": _informed,
    "duel_declared": _duel_declared,
    "card_chosen": _card_chosen,
    "duel_revealed": _duel_revealed,
    "duel_tied": _duel_tied,
    "duel_won": _duel_won,
    "cards_discarded": _cards_discarded,
    "cards_drawn": _cards_drawn,
    "draw_pile_rebuilt": _draw_pile_rebuilt,
    "game_over": _game_over,
}


def evolve(state, event):
    """The state after one event; the input state is left untouched."""
    return evolve_in_place(copy_state(state), event)


def evolve_in_place(state, event):
    """Fold `event` into `state` itself and return it: the same state as `evolve` gives,
    for a caller that owns `state`. Raises ValueError for an event Alakablast does not have."""
    return fold_event(FOLDS, state, event, "Alakablast", copy=False)


def copy_state(state):
    """A deep copy of an Alakablast rules state (the shape deal.initial builds): every
    list and dict is new, the spells (strings) and numbers are shared."""
    new = dict(state)
    if state["deck"] is not None:
        new["deck"] = list(state["deck"])
    new["options"] = clone(state["options"])
    new["hands"] = [[_copy_card(card) for card in hand] for hand in state["hands"]]
    new["gems"] = list(state["gems"])
    new["discard_zone"] = list(state["discard_zone"])
    new["draw_pile"] = list(state["draw_pile"])
    question = state["question"]
    if question is not None:
        new["question"] = {**question, "claim": clone(question["claim"])}
    duel = state["duel"]
    if duel is not None:
        played = duel["played"]
        new["duel"] = {
            **duel,
            "chosen": dict(duel["chosen"]),
            "played": {"attacker": list(played["attacker"]), "rival": list(played["rival"])},
        }
    new["result"] = clone(state["result"])
    return new


def _copy_card(card):
    told = card["told"]
    return {"spell": card["spell"], "open": card["open"], "told": told and dict(told)}


def emit(events, state, event):
    """Record `event` in `events` and fold it into `state` itself, which the referee owns
    (its own copy, made once per command), so decide can look ahead; returns `state`."""
    events.append(event)
    return evolve_in_place(state, event)
