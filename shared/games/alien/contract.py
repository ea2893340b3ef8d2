"""Alien's API contract (shared/games/schema.py): its commands, the state of its views,
its events and options, from which services/api/games builds its typed routes and
components. Rules: docs/rules/alien.md."""

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from shared.games import alien
from shared.games.alien import facts
from shared.games.alien.facts import OPTIONS as RULES_OPTIONS
from shared.games.schema import (
    INT64,
    Alternatives,
    Command,
    Event,
    Flag,
    Seconds,
    command_type,
    tag,
    variant,
)

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
    # A pattern, not an enum: openapi-generator's Python models cannot check an enum
    # inside a list of lists.
    prisons = fields.List(
        fields.List(fields.String(validate=validate.Regexp(r"^A[0-9]$"))), required=True
    )
    draw_pile_count = fields.Integer(required=True)
    played_count = fields.Integer(required=True)
    used_hunter_count = fields.Integer(required=True)
    window = fields.Nested(AlienWindow, allow_none=True, required=True)
    winner = fields.Integer(allow_none=True, required=True)


# --- events (docs/rules/alien.md): a hidden list of cards is its count, a hidden card null

CARD_CODES = sorted(set(alien.CARDS))
CARDS_OR_COUNT = Alternatives(
    {"type": "array", "items": {"type": "string", "enum": CARD_CODES}},
    {**INT64, "description": "How many: the cards are hidden from you."},
    name="AlienCardsOrCount",
    required=True,
)


def _seat():
    return fields.Integer(required=True)


def _hidden_card(description="null when hidden from you"):
    return fields.String(
        allow_none=True,
        required=True,
        validate=validate.OneOf(CARD_CODES),
        metadata={"description": description},
    )


class AlienDealt(Event):
    type = tag("dealt")
    hands = fields.List(CARDS_OR_COUNT, required=True)
    draw_pile = CARDS_OR_COUNT


class AlienTurnedOver(Event):
    type = tag("turned_over")
    card = fields.String(required=True, validate=validate.OneOf(CARD_CODES))
    returned_to = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "Where a non-CLUE card went back in the pile (once over)."},
    )


class AlienTurnBegan(Event):
    type = tag("turn_began")
    seat = _seat()


class AlienClaimed(Event):
    type = tag("claimed")
    seat = _seat()
    card = fields.String(required=True, validate=CAPTURED)
    table = fields.String(required=True, validate=CLUE)


class AlienWrongClaim(AlienClaimed):
    """A wrong CAPTURED! claim: the player on turn takes a random card from the claimant."""

    type = tag("wrong_claim")
    taker = fields.Integer(allow_none=True, required=True)
    taken = _hidden_card()


class AlienStacked(Event):
    type = tag("stacked")
    seat = _seat()


class AlienHandedOver(Event):
    type = tag("handed_over")
    seat = _seat()
    to = fields.Integer(required=True)
    card = _hidden_card()


class AlienWindowClosed(Event):
    type = tag("window_closed")
    late = fields.List(fields.Integer(), required=True)


class AlienHunted(Event):
    type = tag("hunted")
    seat = _seat()
    card = fields.String(required=True, validate=HUNTER)
    target = fields.Integer(required=True)
    alien = fields.Integer(allow_none=True, required=True, metadata={"description": "H2, H3."})
    taken = _hidden_card("H1: the card taken; null when hidden from you")


class AlienCaptured(Event):
    type = tag("captured")
    seat = _seat()
    card = fields.String(required=True, validate=CAPTURED)


class AlienSeatOnly(Event):
    seat = _seat()


class AlienEndedTurn(AlienSeatOnly):
    type = tag("ended_turn")


class AlienPassed(AlienSeatOnly):
    type = tag("passed")


class AlienDrew(Event):
    type = tag("drew")
    seat = _seat()
    cards = CARDS_OR_COUNT


class AlienPlayed(Event):
    type = tag("played")
    seat = _seat()
    card = fields.String(required=True, validate=CLUE)


class AlienReshuffled(Event):
    type = tag("reshuffled")
    draw_pile = CARDS_OR_COUNT


class AlienTookAlien(Event):
    type = tag("took_alien")
    seat = _seat()
    target = fields.Integer(required=True)
    alien = fields.Integer(required=True)


EVENTS = {
    "dealt": AlienDealt,
    "turned_over": AlienTurnedOver,
    "turn_began": AlienTurnBegan,
    "claimed": AlienClaimed,
    "wrong_claim": AlienWrongClaim,
    "stacked": AlienStacked,
    "handed_over": AlienHandedOver,
    "window_closed": AlienWindowClosed,
    "hunted": AlienHunted,
    "captured": AlienCaptured,
    "ended_turn": AlienEndedTurn,
    "passed": AlienPassed,
    "drew": AlienDrew,
    "played": AlienPlayed,
    "reshuffled": AlienReshuffled,
    "took_alien": AlienTookAlien,
}


class AlienTableOptions(Schema):
    variant = variant(RULES_OPTIONS)
    stack_seconds = Seconds(
        validate=validate.Range(min=1, max=60),
        metadata={
            "description": "How long the stacking window stays open after a CAPTURED! "
            "claim, in seconds (default 5)."
        },
    )
    no_math = Flag(metadata={"description": "No sum or difference captures (a variant)."})


STATE, OPTIONS = AlienState, AlienTableOptions
EXAMPLE = {"type": "pass"}
