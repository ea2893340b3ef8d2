"""CAPTURED!: the claim by sum or difference that any seat may shout at any moment, and
the stacking window it opens."""

from ..base import RuleError
from .chronicle import Chronicle
from .facts import alien_of, claimable_aliens, is_captured


def _illegal(message):
    return RuleError("illegal_move", message)


def is_right(state, seat, card):
    """A claim is right when the claimant holds the CAPTURED card `card` and its alien is
    the sum or the difference of the table card's numbers."""
    return (
        is_captured(card)
        and card in state["hands"][seat]
        and alien_of(card) in claimable_aliens(state["table"])
    )


def claim_commands(state, seat):
    """The claims `seat` may shout now and win: none once the table card is claimed."""
    if state["options"]["no_math"] or state["table_claimed"]:
        return []
    table = state["table"]
    claimable = claimable_aliens(table)
    return [  # the right claims (is_right), the hand's cards read once
        {"type": "claim", "card": card, "table": table}
        for card in sorted(state["hands"][seat])
        if is_captured(card) and alien_of(card) in claimable
    ]


def claim(state, seat, command):
    """A CAPTURED! claim. A stale claim (the named table card has changed) is refused
    without penalty, and so is one naming the sum or the difference once this table card
    was already claimed. A right claim captures the alien and opens the stacking window. A
    wrong one costs the claimant a random card, taken by the player whose turn it is
    (nothing when that is the claimant): also after the capture when its alien is neither
    the sum nor the difference."""
    if state["options"]["no_math"]:
        raise _illegal("this game is played with no_math: no sum or difference captures")
    card, table = command["card"], command["table"]
    if table != state["table"]:
        raise _illegal(f"stale claim: the table card is now {state['table']}, not {table}")
    if state["table_claimed"] and alien_of(card) in claimable_aliens(table):
        raise _illegal(f"{table} has already been claimed: one capture per table card")
    chronicle = Chronicle(state)
    event = {"type": "claimed", "seat": seat, "card": card, "table": table}
    if is_right(state, seat, card):
        chronicle.add(event)
        return chronicle.events
    taker = state["turn"] if state["turn"] != seat else None
    taken = None if taker is None else chronicle.random_card(seat, "penalty")
    chronicle.add({**event, "type": "wrong_claim", "taker": taker, "taken": taken})
    return chronicle.events


def must_stack(state, seat):
    """While the window is open, every player but the claimant must stack once."""
    window = state["window"]
    return window is not None and seat != window["claimant"] and seat not in window["stacked"]


def waiting(state):
    """The seats that still must stack, in seat order."""
    return [seat for seat in range(state["players"]) if must_stack(state, seat)]


def stack(state, seat):
    """`seat` puts a hand on the pile. The last to stack gives the claimant a random card
    from hand, and the window closes."""
    if not must_stack(state, seat):
        raise RuleError("not_your_turn", "there is no stacking window for you now")
    chronicle = Chronicle(state)
    chronicle.add({"type": "stacked", "seat": seat})
    if not waiting(chronicle.state):
        _close(chronicle, [seat], late=[])
    return chronicle.events


def close_window(state):
    """The table's close_window command, when the window's time is up: each player who
    has not stacked gives the claimant a random card, and the window closes."""
    if state["window"] is None:
        raise _illegal("no stacking window is open")
    late = waiting(state)
    chronicle = Chronicle(state)
    _close(chronicle, late, late=late)
    return chronicle.events


def _close(chronicle, givers, late):
    claimant = chronicle.state["window"]["claimant"]
    for giver in givers:
        card = chronicle.random_card(giver, "stack")
        if card is not None:
            chronicle.add({"type": "handed_over", "seat": giver, "to": claimant, "card": card})
    chronicle.add({"type": "window_closed", "late": late})
