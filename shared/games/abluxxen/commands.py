"""The shape of commands: checked before any rule, so a malformed one is "bad_command"."""

from .. import common
from ..base import RuleError
from .facts import CODES, COMMANDS

CHOICES = ("take_back", "give_up", "discard")
_FIELDS = {  # the fields each command has besides "type"
    "play": {"cards"},
    "attack": {"target"},
    "stop": set(),
    "answer": {"choice"},
    "keep": {"take"},
    "draw": {"display"},
}


def _bad(message):
    return RuleError("bad_command", message)


def _card_list(value, field):
    """A list of known card codes, or RuleError("bad_command")."""
    return common.card_list(value, field, CODES, "; codes are 1..13 and X")


def parse_table_command(command):
    """The table's own command ({"type": "start"}), or RuleError("bad_command")."""
    if not isinstance(command, dict) or command != {"type": "start"}:
        raise _bad('the table\'s only command is {"type": "start"}')
    return {"type": "start"}


def parse_command(command):
    """A seat's command as a new dict, checked for shape only, or RuleError("bad_command").

    Shapes: {"type": "play", "cards": [codes]}; {"type": "attack", "target": seat};
    {"type": "stop"}; {"type": "answer", "choice": "take_back" | "give_up" | "discard"};
    {"type": "keep", "take": bool}; {"type": "draw", "display": [codes]}.
    """
    kind = common.command_type(command, COMMANDS)
    common.check_fields(command, kind, _FIELDS[kind])
    if kind == "play":
        return {"type": kind, "cards": _card_list(command["cards"], "cards")}
    if kind == "draw":
        return {"type": kind, "display": _card_list(command["display"], "display")}
    if kind == "attack":
        target = command["target"]
        if not isinstance(target, int) or isinstance(target, bool):
            raise _bad("target must be a seat number")
        return {"type": kind, "target": target}
    if kind == "answer":
        if command["choice"] not in CHOICES:
            raise _bad(f"choice must be one of {', '.join(CHOICES)}")
        return {"type": kind, "choice": command["choice"]}
    if kind == "keep":
        if not isinstance(command["take"], bool):
            raise _bad("take must be true or false")
        return {"type": kind, "take": command["take"]}
    return {"type": kind}
