"""Tiny's API contract: its commands, the state of its views, its events and options,
written with shared/games/schema.py as every game's is."""

from marshmallow import Schema, fields, validate

from shared.games.schema import Command, Event, Flag, Result, command_type, tag, variant
from tests.games.tiny import OPTIONS

CARD = fields.String(validate=validate.OneOf(["1", "2", "3", "4", "5"]))


class TinyKeep(Command):
    type = command_type("keep")


class TinySwap(Command):
    type = command_type("swap")


COMMANDS = {"keep": TinyKeep, "swap": TinySwap}


class TinyState(Schema):
    """What one seat (or a spectator) sees of a Tiny game."""

    game = fields.String(required=True, validate=validate.OneOf(["tiny"]))
    seat = fields.Integer(allow_none=True, required=True)
    phase = fields.String(required=True, validate=validate.OneOf(["waiting", "play", "over"]))
    turn = fields.Integer(allow_none=True, required=True)
    hand = fields.String(allow_none=True, required=True, metadata={"description": "Yours only."})
    hands = fields.List(
        CARD, allow_none=True, required=True, metadata={"description": "Once shown."}
    )
    pile_size = fields.Integer(required=True)
    discards = fields.List(CARD, required=True)
    result = fields.Nested(Result, allow_none=True, required=True)


class TinyDealt(Event):
    type = tag("dealt")
    hands = fields.List(
        fields.String(allow_none=True),
        required=True,
        metadata={"description": "Per seat; null for the cards you may not see."},
    )
    pile = fields.List(CARD, allow_none=True, required=True)
    pile_size = fields.Integer()


class TinyKept(Event):
    type = tag("kept")
    seat = fields.Integer(required=True)


class TinySwapped(Event):
    type = tag("swapped")
    seat = fields.Integer(required=True)
    discarded = CARD
    card = fields.String(allow_none=True, required=True, metadata={"description": "Theirs only."})


class TinyShown(Event):
    type = tag("shown")
    hands = fields.List(CARD, required=True)
    winner = fields.Integer(required=True)


EVENTS = {"dealt": TinyDealt, "kept": TinyKept, "swapped": TinySwapped, "shown": TinyShown}


class TinyTableOptions(Schema):
    variant = variant(OPTIONS)
    low_wins = Flag(metadata={"description": "The lower card wins."})


STATE, OPTIONS = TinyState, TinyTableOptions
EXAMPLE = {"type": "swap"}
