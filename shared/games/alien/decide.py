"""Who acts, what they may send, and the command dispatcher."""

from ..base import RuleError
from ..common import check_seat
from . import claims, setup, turn
from .commands import parse_command, parse_table_command


def decide(state, seat, command):
    """The events `command` from `seat` produces (seat None: the table itself, whose
    commands are start and close_window), or RuleError. Never changes `state`."""
    check_seat(seat, state["players"])
    if seat is None:
        return _decide_for_table(state, parse_table_command(command, state["players"]))
    command = parse_command(command, state["players"])
    if state["phase"] != "play":
        raise RuleError("not_your_turn", f"the game is in its {state['phase']} phase")
    if command["type"] == "claim":
        return claims.claim(state, seat, command)
    if command["type"] == "stack":
        return claims.stack(state, seat)
    return turn.act(state, seat, command)


def _decide_for_table(state, command):
    if command["type"] == "start":
        return setup.start(state)
    if state["phase"] != "play":
        raise RuleError("illegal_move", "no stacking window is open")
    return claims.close_window(state)


def to_act(state):
    """The seats that must act now: those still to stack while a window is open, else
    the player whose turn it is; [] before the start and once the game is over."""
    if state["phase"] != "play":
        return []
    if state["window"] is not None:
        return claims.waiting(state)
    return [state["turn"]]


def legal(state, seat):
    """Every command `seat` may send now, as it can be sent, in a stable order: its turn
    commands, then the CAPTURED! claims it would win, or its stack in a window."""
    check_seat(seat, state["players"])
    if state["phase"] != "play" or seat is None:
        return []
    if state["window"] is not None:
        return [{"type": "stack"}] if claims.must_stack(state, seat) else []
    commands = turn.turn_commands(state, seat) if seat == state["turn"] else []
    return commands + claims.claim_commands(state, seat)


def reflex_commands(state, seat):
    """The commands of REFLEXES among legal(state, seat), in the same order, without
    working out the turn commands: a search asks every seat at every step."""
    if state["phase"] != "play":
        return []
    if state["window"] is not None:
        return [{"type": "stack"}] if claims.must_stack(state, seat) else []
    return claims.claim_commands(state, seat)


def timeout(state, seat):
    """The command sent for `seat` when its time runs out: stack in a window; on its turn
    PASS, or end_turn once it has played; None when it need not act."""
    if seat not in to_act(state):
        return None
    if state["window"] is not None:
        return {"type": "stack"}
    return {"type": "end_turn"} if state["acted"] else {"type": "pass"}


def table_timers(state):
    """The table's own commands that wait on a clock: an open stacking window closes
    `stack_seconds` after the claim that opened it (the service runs the clock)."""
    window = state["window"]
    if window is None or state["phase"] != "play":
        return []
    return [
        {
            "key": f"window-{window['number']}",
            "seconds": state["options"]["stack_seconds"],
            "command": {"type": "close_window"},
        }
    ]
