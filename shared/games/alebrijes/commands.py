"""The shape of commands: checked before any rule, so a malformed one is "bad_command"."""

from .. import common
from ..base import RuleError
from .cards import CODES, COLOURS
from .combinations import OLLIN_EFFECTS

COMMANDS = ("exchange", "play", "pass")
_FIELDS = {
    "start": (set(), set()),  # (required, optional) besides "type"
    "exchange": ({"cards"}, set()),
    "play": ({"cards"}, {"colour", "ollin", "lay_aside"}),
    "pass": (set(), {"exchange"}),
}


def _bad(message):
    return RuleError("bad_command", message)


def _card_list(value, field):
    """A list of known card codes, or RuleError("bad_command")."""
    return common.card_list(value, field, CODES)


def parse_command(command):
    """The command with every field present and defaulted, or RuleError("bad_command").

    Result shapes: {"type": "start"}; {"type": "exchange", "cards"};
    {"type": "play", "cards", "colour", "ollin", "lay_aside"}; {"type": "pass", "exchange"}.
    """
    kind = common.command_type(command, tuple(_FIELDS))
    common.check_fields(command, kind, *_FIELDS[kind])
    if kind == "exchange":
        return {"type": kind, "cards": _card_list(command["cards"], "cards")}
    if kind == "pass":
        exchange = command.get("exchange")
        cards = [] if exchange is None else _card_list(exchange, "exchange")
        return {"type": kind, "exchange": cards}
    if kind == "play":
        return _parse_play(command)
    return {"type": kind}


def _parse_play(command):
    """The fields of a play, defaulted: colour None, ollin "none", lay_aside None."""
    cards = _card_list(command["cards"], "cards")
    colour = command.get("colour")
    if colour is not None and colour not in COLOURS:
        raise _bad(f"colour must be one of {', '.join(COLOURS)}")
    ollin = command.get("ollin")
    if ollin is None:
        ollin = "none"
    if ollin not in OLLIN_EFFECTS:
        raise _bad(f"ollin must be one of {', '.join(OLLIN_EFFECTS)}")
    lay_aside = command.get("lay_aside")
    if lay_aside is not None and (not isinstance(lay_aside, str) or lay_aside not in CODES):
        raise _bad("lay_aside must be a card code")
    return {
        "type": "play",
        "cards": cards,
        "colour": colour,
        "ollin": ollin,
        "lay_aside": lay_aside,
    }
