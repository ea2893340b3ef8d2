"""The shape of every command; a malformed one is RuleError("bad_command").

Only the shape is checked here (types, known fields, known values); whether the move is
allowed now is the referee's business (decide.py).
"""

from shared.games import common
from shared.games.alakablast.cards import COMMANDS, DIMENSIONS, DUEL_KINDS, ELEMENTS
from shared.games.base import RuleError

TABLE_COMMANDS = ("start",)

# type -> (required fields, optional fields), "type" aside
FIELDS = {
    "start": ((), ()),
    "ask": (("card", "informant"), ("claim",)),
    "inform": (("dimension",), ()),
    "duel": (("rival", "kind"), ("card", "dimension")),
    "choose": (("card",), ()),
}
INTEGER_FIELDS = ("card", "informant", "rival")
ENVELOPE_FIELDS = ("expected_version",)  # the API's, not the game's: ignored here
POWERS = range(0, 8)


def _bad(message):
    return RuleError("bad_command", message)


def _check_fields(command, kind):
    required, optional = FIELDS[kind]
    common.check_fields(command, kind, required, (*optional, *ENVELOPE_FIELDS))
    for name in INTEGER_FIELDS:
        if name in command and type(command[name]) is not int:
            raise _bad(f"{name} must be an integer")


def _check_claim(claim):
    if claim is None:
        return
    if not isinstance(claim, dict) or len(claim) != 1 or not set(claim) <= {"element", "power"}:
        raise _bad('a claim is {"element": letter} or {"power": number}')
    if "element" in claim and claim["element"] not in ELEMENTS:
        raise _bad(f"no element {claim['element']!r}; elements are {list(ELEMENTS)}")
    if "power" in claim and (type(claim["power"]) is not int or claim["power"] not in POWERS):
        raise _bad(f"no power {claim['power']!r}; powers are 0 to 7")


def command_type(command):
    """The command's type once its shape is checked; raises RuleError("bad_command")."""
    kind = common.command_type(command, TABLE_COMMANDS + COMMANDS)
    _check_fields(command, kind)
    if kind == "ask":
        _check_claim(command.get("claim"))
    if command.get("dimension", "element") not in DIMENSIONS:
        raise _bad(f"dimension must be one of {list(DIMENSIONS)}")
    if kind == "duel":
        if command["kind"] not in DUEL_KINDS:
            raise _bad(f"a duel's kind must be one of {list(DUEL_KINDS)}")
        if ("card" in command) != ("dimension" in command):
            raise _bad("a duel's clue needs both card and dimension, or neither")
    return kind
