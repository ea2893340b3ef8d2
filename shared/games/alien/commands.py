"""The shape of commands, checked before any rule: a malformed one is "bad_command"."""

from .. import common
from ..base import RuleError
from .facts import (
    ALIENS,
    CAPTURED_CARDS,
    CLUE_CARDS,
    COMMANDS,
    HUNTER_TYPES,
    TABLE_COMMANDS,
)

_FIELDS = {  # every field besides "type"; "alien" is only for H2 and H3 hunts
    "play": {"card"},
    "capture": {"card"},
    "hunt": {"card", "target", "alien"},
    "take": {"target", "alien"},
    "end_turn": set(),
    "pass": set(),
    "claim": {"card", "table"},
    "stack": set(),
    "start": set(),
    "close_window": set(),
}


def _bad(message):
    return RuleError("bad_command", message)


def parse_command(command, players, kinds=COMMANDS):
    """The command, checked for shape: a dict whose "type" is one of `kinds`, with exactly
    its fields, card codes that exist and seats and aliens in range. Raises
    RuleError("bad_command") otherwise."""
    kind = common.command_type(command, kinds)
    expected = _FIELDS[kind]
    for field in ("card", "table"):
        if field in command and field in expected:
            _check_card(command[field], *_CARD_KINDS[kind, field])
    if kind == "hunt" and command.get("card") == "H1":
        expected = expected - {"alien"}  # H1 takes a card from a hand, not an alien
    common.check_fields(command, kind, expected)
    if "target" in command and not _is_int_in(command["target"], range(players)):
        raise _bad(f"target must be a seat number, 0 to {players - 1}")
    if "alien" in command and not _is_int_in(command["alien"], ALIENS):
        raise _bad("alien must be an alien's number, 0 to 9")
    return dict(command)


# The kind of card each card field names: (codes allowed, how to say it).
_CARD_KINDS = {
    ("play", "card"): (CLUE_CARDS, "a CLUE card code such as C38"),
    ("capture", "card"): (CAPTURED_CARDS, "a CAPTURED card code, A0 to A9"),
    ("hunt", "card"): (HUNTER_TYPES, "a BOUNTY HUNTER card code, H1, H2 or H3"),
    ("claim", "card"): (CAPTURED_CARDS, "a CAPTURED card code, A0 to A9"),
    ("claim", "table"): (CLUE_CARDS, "a CLUE card code such as C38"),
}


def _check_card(value, codes, description):
    if not (isinstance(value, str) and value in codes):
        raise _bad(f"{value!r} is not {description}")


def parse_table_command(command, players):
    """A command of the table itself (seat None): start or close_window."""
    return parse_command(command, players, TABLE_COMMANDS)


def _is_int_in(value, allowed):
    return common.is_int(value) and value in allowed
