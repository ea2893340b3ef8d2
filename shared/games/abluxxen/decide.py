"""Deciding: a command in, the events it causes out, or a RuleError.

A seat's command gives one event; then the table carries on by itself as far as it can
without anyone's choice (a compulsory attack, a draw with only one way to make it, the
next turn, the end of the game), each step an event of its own.
"""

import random

from ..base import RuleError
from ..common import check_seat
from .commands import parse_command, parse_table_command
from .events import evolve_in_place, working_copy
from .facts import CARDS, DISPLAY_SIZE, HAND_SIZE, holds, remove_cards, row_value, sorted_cards
from .rules import attack_targets, display_bounds, draw_choices, end_reason, published, scores
from .rules import winners as best_seats
from .turns import EXPECTED, to_act


def _illegal(message):
    return RuleError("illegal_move", message)


def decide(state, seat, command):
    """The events `command` from `seat` (None: the table) causes; `state` is not changed.

    Raises RuleError: "bad_command" (malformed), "not_your_turn" (that seat may not act
    now), "illegal_move" (against the rules).
    """
    check_seat(seat, state["players"])
    if seat is None:
        parse_table_command(command)
        if state["phase"] != "setup":
            raise _illegal("the cards have already been dealt")
        return _settle(state, [_dealt_event(state)])
    command = parse_command(command)
    if seat not in to_act(state):
        raise RuleError("not_your_turn", f"seat {seat} may not act now")
    expected = EXPECTED[state["phase"]]
    if command["type"] not in expected:
        raise _illegal(f"now seat {seat} must send {' or '.join(expected)}")
    return _settle(state, [_DECIDERS[command["type"]](state, seat, command)])


def _settle(state, events):
    """`events` followed by what happens by itself after them."""
    events = list(events)
    state = working_copy(state)  # decide's own: folded in place, `state` is not changed
    for event in events:
        evolve_in_place(state, event)
    while (event := _next_by_itself(state)) is not None:
        events.append(event)
        evolve_in_place(state, event)
    return events


def _next_by_itself(state):
    """The event that happens with nobody's choice now, or None when someone must act."""
    if state["phase"] in ("setup", "over"):
        return None
    reason = end_reason(state)
    if reason is not None:  # the game ends as soon as its end condition holds
        return _game_over_event(state, reason)
    phase = state["phase"]
    if phase == "attack" and published(state):  # every such row must be attacked, clockwise
        return _attacked_event(state, state["attack"]["seat"], state["attack"]["targets"][0])
    if phase == "draw":
        choices = draw_choices(state)
        if len(choices) == 1:
            return _drew_event(state, choices[0])
    if phase == "turn_end":
        return {"type": "turn", "seat": (state["turn"] + 1) % state["players"]}
    return None


def _dealt_event(state):
    """The deal: 13 cards to each seat in turn, then the display, the rest is the draw pile.

    A fixed deck is dealt as given; otherwise the 109 cards are shuffled by a generator
    seeded from the game's seed and the shuffle's number.
    """
    if state["deck"] is not None:
        deck = list(state["deck"])
    else:
        deck = list(CARDS)
        random.Random(f"{state['seed']}/shuffle/{state['shuffles']}").shuffle(deck)
    players = state["players"]
    dealt = players * HAND_SIZE
    hands = [sorted_cards(deck[s * HAND_SIZE : (s + 1) * HAND_SIZE]) for s in range(players)]
    return {
        "type": "dealt",
        "starting_seat": 0,
        "hands": hands,
        "hand_counts": [HAND_SIZE] * players,
        "display": deck[dealt : dealt + DISPLAY_SIZE],
        "draw_pile": deck[dealt + DISPLAY_SIZE :],
        "draw_pile_count": len(deck) - dealt - DISPLAY_SIZE,
    }


def _play(state, seat, command):
    cards = command["cards"]
    value = row_value(cards)
    if value is None:
        raise _illegal("a row is one or more cards of one number; jokers (X) take that number")
    if not holds(state["hands"][seat], cards):
        raise _illegal(f"your hand does not hold {', '.join(sorted_cards(cards))}")
    row = sorted_cards(cards)
    return {
        "type": "played",
        "seat": seat,
        "cards": row,
        "value": value,
        "targets": attack_targets(state, seat, row),
    }


def _attack(state, seat, command):
    target = command["target"]
    if target not in state["attack"]["targets"]:
        allowed = ", ".join(map(str, state["attack"]["targets"]))
        raise _illegal(f"seat {target}'s row may not be attacked now; it may be: {allowed}")
    return _attacked_event(state, seat, target)


def _attacked_event(state, seat, target):
    row = list(state["top_rows"][target])
    return {
        "type": "attacked",
        "seat": seat,
        "target": target,
        "cards": row,
        "value": row_value(row),
    }


def _stop(state, seat, command):
    return {"type": "stopped", "seat": seat}


def _answer(state, seat, command):
    choice, attack = command["choice"], state["attack"]
    row = list(state["top_rows"][seat])
    allowed = ("take_back", "discard") if published(state) else ("take_back", "give_up")
    if choice not in allowed:
        raise _illegal(f"the answer is {' or '.join(allowed)} under these rules")
    if choice == "take_back":
        return {"type": "taken_back", "seat": seat, "cards": row}
    if choice == "give_up":
        return {"type": "given_up", "seat": seat, "to": attack["seat"], "cards": row}
    return {"type": "discarded", "seat": seat, "cards": row}


def _keep(state, seat, command):
    target = state["attack"]["target"]
    if command["take"]:
        return {
            "type": "kept",
            "seat": seat,
            "target": target,
            "cards": list(state["top_rows"][target]),
        }
    return {"type": "declined", "seat": seat, "target": target}


def _draw(state, seat, command):
    picks = command["display"]
    if not holds(state["display"], picks):
        raise _illegal(f"the display does not hold {', '.join(sorted_cards(picks))}")
    fewest, most = display_bounds(state)
    if not fewest <= len(picks) <= most:
        wanted = str(fewest) if fewest == most else f"{fewest} to {most}"
        raise _illegal(f"take {wanted} card(s) from the display, the rest from the draw pile")
    return _drew_event(state, sorted_cards(picks))


def _drew_event(state, picks):
    """The pending draw: `picks` from the display, the rest from the top of the draw
    pile, then the display refilled to 6 from the draw pile."""
    draw, pile = state["draw"], state["draw_pile"]
    from_pile = pile[: min(draw["count"] - len(picks), len(pile))]
    display_left = len(remove_cards(state["display"], picks))
    refill = pile[len(from_pile) :][: max(0, DISPLAY_SIZE - display_left)]
    return {
        "type": "drew",
        "seat": draw["seat"],
        "display": list(picks),
        "pile": from_pile,
        "pile_count": len(from_pile),
        "refill": refill,
    }


def _game_over_event(state, reason):
    points = scores(state)
    return {
        "type": "game_over",
        "reason": reason,
        "scores": points,
        "winners": best_seats(points),
        "hands": [list(hand) for hand in state["hands"]],
    }


_DECIDERS = {
    "play": _play,
    "attack": _attack,
    "stop": _stop,
    "answer": _answer,
    "keep": _keep,
    "draw": _draw,
}
