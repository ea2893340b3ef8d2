"""Alien: command and view-state schemas. Rules: docs/rules/alien.md."""

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from services.api.games.common import Command, command_type
from shared.games import alien
from shared.games.alien import facts

CLUE = validate.OneOf(facts.CLUE_CARDS)
CAPTURED = validate.OneOf(facts.CAPTURED_CARDS)
HUNTER = validate.OneOf(list(facts.HUNTER_TYPES))
ANY_CARD = fields.String(validate=validate.OneOf(sorted(set(alien.CARDS))))
SEAT = validate.Range(min=0, max=alien.PLAYERS.stop - 2)
ALIEN = validate.Range(min=0, max=9)


def _target():
    return fields.Integer(
        strict=True, required=True, validate=SEAT, metadata={"description": "A seat."}
    )


class AlienPlay(Command):
    type = command_type("play")
    card = fields.String(
        required=True, validate=CLUE, metadata={"description": "A CLUE card from your hand."}
    )


class AlienCapture(Command):
    type = command_type("capture")
    card = fields.String(
        required=True,
        validate=CAPTURED,
        metadata={"description": "A CAPTURED card whose alien the table card shows."},
    )


class AlienHunt(Command):
    type = command_type("hunt")
    card = fields.String(required=True, validate=HUNTER)
    target = _target()
    alien = fields.Integer(
        strict=True,
        validate=ALIEN,
        metadata={
            "description": "H2 and H3 only (required there): an alien in the target's prison."
        },
    )

    @validates_schema
    def alien_only_for_h2_and_h3(self, data, **kwargs):
        if data.get("card") == "H1" and "alien" in data:
            raise ValidationError("H1 takes a card from a hand: no alien", "alien")
        if data.get("card") in ("H2", "H3") and "alien" not in data:
            raise ValidationError(f"{data['card']} needs the alien to take", "alien")


class AlienTake(Command):
    type = command_type("take")
    target = _target()
    alien = fields.Integer(strict=True, required=True, validate=ALIEN)


class AlienEndTurn(Command):
    type = command_type("end_turn")


class AlienPass(Command):
    type = command_type("pass")


class AlienClaim(Command):
    """CAPTURED!: any seat, at any moment."""

    type = command_type("claim")
    card = fields.String(
        required=True, validate=CAPTURED, metadata={"description": "The CAPTURED card claimed."}
    )
    table = fields.String(
        required=True,
        validate=CLUE,
        metadata={"description": "The table card the claim answers (a stale one is refused)."},
    )


class AlienStack(Command):
    type = command_type("stack")


COMMANDS = {
    "play": AlienPlay,
    "capture": AlienCapture,
    "hunt": AlienHunt,
    "take": AlienTake,
    "end_turn": AlienEndTurn,
    "pass": AlienPass,
    "claim": AlienClaim,
    "stack": AlienStack,
}


SEATS = fields.List(fields.Integer(), required=True)


class AlienOptions(Schema):
    stack_seconds = fields.Float(required=True)
    no_math = fields.Boolean(required=True)


class AlienWindow(Schema):
    """The stacking window open after a right CAPTURED! claim."""

    claimant = fields.Integer(required=True)
    alien = fields.String(required=True, validate=CAPTURED)
    table = fields.String(required=True, validate=CLUE)
    stacked = fields.List(
        fields.Integer(), required=True, metadata={"description": "In the order they stacked."}
    )
    waiting = fields.List(
        fields.Integer(), required=True, metadata={"description": "Still to stack."}
    )
    seconds = fields.Float(required=True, metadata={"description": "The window's length."})


class AlienState(Schema):
    """What one seat (or a spectator) sees of an Alien game."""

    phase = fields.String(required=True, validate=validate.OneOf(["setup", "play", "over"]))
    players = fields.Integer(required=True)
    options = fields.Nested(AlienOptions, required=True)
    turn = fields.Integer(allow_none=True, required=True)
    began_with = fields.Integer(
        required=True, metadata={"description": "Cards in hand when the turn began."}
    )
    acted = fields.Boolean(
        required=True, metadata={"description": "The player on turn chose PLAY."}
    )
    took = fields.Boolean(
        required=True, metadata={"description": "The empty-hand take was used this turn."}
    )
    table = fields.String(allow_none=True, required=True, validate=CLUE)
    table_claimed = fields.Boolean(required=True)
    hand = fields.List(
        ANY_CARD, allow_none=True, required=True, metadata={"description": "Yours only."}
    )
    hand_counts = SEATS
    prisons = fields.List(fields.List(fields.String(validate=CAPTURED)), required=True)
    draw_pile_count = fields.Integer(required=True)
    played_count = fields.Integer(required=True)
    used_hunter_count = fields.Integer(required=True)
    window = fields.Nested(AlienWindow, allow_none=True, required=True)
    winner = fields.Integer(allow_none=True, required=True)
