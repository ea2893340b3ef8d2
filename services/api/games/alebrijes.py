"""Alebrijes: command and view-state schemas. Rules: docs/rules/alebrijes.md."""

from marshmallow import Schema, fields, validate

from services.api.games.common import Command, command_type
from shared.games import alebrijes

CARD = fields.String(validate=validate.OneOf(sorted(set(alebrijes.CARDS))))
UP_TO_TWO = validate.Length(max=2)


class AlebrijesExchange(Command):
    type = command_type("exchange")
    cards = fields.List(CARD, load_default=list, validate=UP_TO_TWO)


class AlebrijesPlay(Command):
    type = command_type("play")
    cards = fields.List(CARD, required=True, validate=validate.Length(min=1, max=20))
    colour = fields.String(allow_none=True, validate=validate.OneOf(list("BGPO")))
    ollin = fields.String(validate=validate.OneOf(["none", "others_draw", "lay_aside"]))
    lay_aside = fields.String(
        allow_none=True, validate=validate.OneOf(sorted(set(alebrijes.CARDS)))
    )


class AlebrijesPass(Command):
    type = command_type("pass")
    exchange = fields.List(CARD, load_default=list, validate=UP_TO_TWO)


COMMANDS = {"exchange": AlebrijesExchange, "play": AlebrijesPlay, "pass": AlebrijesPass}


SEATS = fields.List(fields.Integer(), required=True)
PER_SEAT = fields.List(fields.Integer(), required=True)
COLOUR = fields.String(validate=validate.OneOf(list("BGPO")))


class Combination(Schema):
    """The combination on the table: the one to beat."""

    seat = fields.Integer(required=True, metadata={"description": "Who played it."})
    cards = fields.List(CARD, required=True)
    colour = COLOUR
    number = fields.Integer(required=True)
    count = fields.Integer(required=True)


class AlebrijesState(Schema):
    """What one seat (or a spectator) sees of an Alebrijes game."""

    game = fields.String(required=True, validate=validate.OneOf(["alebrijes"]))
    seat = fields.Integer(allow_none=True, required=True)
    players = fields.Integer(required=True)
    options = fields.Dict(required=True)
    phase = fields.String(
        required=True,
        validate=validate.OneOf(["waiting", "exchange", "play", "round_over", "over"]),
    )
    round = fields.Integer(required=True)
    rounds = fields.Integer(required=True)
    starting_seat = fields.Integer(allow_none=True, required=True)
    turn = fields.Integer(allow_none=True, required=True)
    to_act = SEATS
    leader = fields.Integer(allow_none=True, required=True)
    hand = fields.List(
        CARD, allow_none=True, required=True, metadata={"description": "Yours only."}
    )
    laid_aside = fields.List(
        CARD,
        allow_none=True,
        required=True,
        metadata={"description": "The cards you laid aside this round."},
    )
    hand_sizes = PER_SEAT
    laid_aside_counts = PER_SEAT
    draw_pile_size = fields.Integer(required=True)
    table = fields.Nested(Combination, allow_none=True, required=True)
    passed = fields.List(fields.Boolean(), required=True)
    round_scores = fields.List(
        fields.List(fields.Integer()),
        required=True,
        metadata={"description": "Minus points per round, per seat."},
    )
    totals = PER_SEAT
    rounds_won = PER_SEAT
    round_winner = fields.Integer(allow_none=True, required=True)
    result = fields.Dict(allow_none=True, required=True)
