"""Abluxxen: command and view-state schemas. Rules: docs/rules/abluxxen.md."""

from marshmallow import Schema, fields, validate

from services.api.games.common import Command, command_type
from shared.games import abluxxen
from shared.games.abluxxen.commands import CHOICES
from shared.games.abluxxen.facts import sorted_cards

CARD = fields.String(validate=validate.OneOf(sorted_cards(set(abluxxen.CARDS))))
CARDS = fields.List(CARD, required=True)
SEAT = validate.Range(min=0, max=abluxxen.PLAYERS.stop - 2)


class AbluxxenPlay(Command):
    type = command_type("play")
    cards = fields.List(
        CARD,
        required=True,
        validate=validate.Length(max=len(abluxxen.CARDS)),
        metadata={"description": "A row from your hand: cards of one number, jokers (X) too."},
    )


class AbluxxenAttack(Command):
    """Rulebook rules only."""

    type = command_type("attack")
    target = fields.Integer(
        strict=True,
        required=True,
        validate=SEAT,
        metadata={"description": "A seat among the current targets."},
    )


class AbluxxenStop(Command):
    """Rulebook rules only: attack no more."""

    type = command_type("stop")


class AbluxxenKeep(Command):
    """Published rules only: the attacker takes the row into hand, or leaves it."""

    type = command_type("keep")
    take = fields.Boolean(required=True, truthy={True}, falsy={False})


class AbluxxenAnswer(Command):
    type = command_type("answer")
    choice = fields.String(
        required=True,
        validate=validate.OneOf(list(CHOICES)),
        metadata={"description": "take_back; give_up (rulebook) or discard (published)."},
    )


class AbluxxenDraw(Command):
    type = command_type("draw")
    display = fields.List(
        CARD,
        required=True,
        validate=validate.Length(max=len(abluxxen.CARDS)),
        metadata={"description": "The display cards you take; the rest comes from the draw pile."},
    )


COMMANDS = {
    "play": AbluxxenPlay,
    "attack": AbluxxenAttack,
    "stop": AbluxxenStop,
    "keep": AbluxxenKeep,
    "answer": AbluxxenAnswer,
    "draw": AbluxxenDraw,
}


class AbluxxenSeat(Schema):
    """One seat's public side of the table."""

    seat = fields.Integer(required=True)
    hand_count = fields.Integer(required=True)
    top_row = fields.List(
        CARD,
        allow_none=True,
        required=True,
        metadata={"description": "The row that may be attacked; null when none."},
    )
    top_row_value = fields.Integer(allow_none=True, required=True)
    covered_count = fields.Integer(
        required=True, metadata={"description": "Cards under the top row."}
    )
    front_count = fields.Integer(
        required=True, metadata={"description": "Every card lying in front of the seat."}
    )
    scoring_pile_count = fields.Integer(required=True)
    score = fields.Integer(required=True, metadata={"description": "If the game ended now."})


class AbluxxenAttackState(Schema):
    """This turn's row while its attacks last."""

    seat = fields.Integer(required=True)
    row = CARDS
    value = fields.Integer(required=True)
    targets = fields.List(
        fields.Integer(), required=True, metadata={"description": "Still open, clockwise."}
    )
    target = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "Being attacked now; null while the attacker chooses."},
    )


class AbluxxenDrawState(Schema):
    """The draw someone must make."""

    seat = fields.Integer(required=True)
    count = fields.Integer(required=True)
    source = fields.String(required=True, validate=validate.OneOf(["display_first", "pile", "any"]))
    reason = fields.String(required=True, validate=validate.OneOf(["end_of_turn", "lost_row"]))


class AbluxxenResult(Schema):
    winners = fields.List(fields.Integer(), required=True)
    scores = fields.List(fields.Integer(), required=True)
    reason = fields.String(required=True, validate=validate.OneOf(["hand_empty", "supply_empty"]))


class AbluxxenState(Schema):
    """What one seat (or a spectator) sees of an Abluxxen game."""

    published = fields.Boolean(
        required=True, metadata={"description": "Played by the published rules."}
    )
    phase = fields.String(
        required=True,
        validate=validate.OneOf(["setup", "play", "attack", "keep", "answer", "draw", "over"]),
    )
    turn = fields.Integer(allow_none=True, required=True)
    hand = fields.List(
        CARD, allow_none=True, required=True, metadata={"description": "Yours only."}
    )
    seats = fields.List(fields.Nested(AbluxxenSeat), required=True)
    display = CARDS
    draw_pile_count = fields.Integer(required=True)
    discard_pile_count = fields.Integer(required=True)
    attack = fields.Nested(AbluxxenAttackState, allow_none=True, required=True)
    draw = fields.Nested(AbluxxenDrawState, allow_none=True, required=True)
    hands = fields.List(
        fields.List(CARD),
        allow_none=True,
        required=True,
        metadata={"description": "Every hand, once the game is over."},
    )
    result = fields.Nested(AbluxxenResult, allow_none=True, required=True)
