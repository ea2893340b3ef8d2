"""Abluxxen's API contract (shared/games/schema.py): its commands, the state of its views,
its events and options, from which services/api/games builds its typed routes and
components. Rules: docs/rules/abluxxen.md."""

from marshmallow import Schema, fields, validate

from shared.games import abluxxen
from shared.games.abluxxen.commands import CHOICES
from shared.games.abluxxen.facts import OPTIONS as RULES_OPTIONS
from shared.games.schema import Command, Event, Flag, command_type, tag, variant

# A pattern, not an enum: openapi-generator's Python models cannot check an enum inside
# a list of lists (hands), and every code matching it is a card.
CARD = fields.String(
    validate=validate.Regexp(r"^(?:[1-9]|1[0-3]|X)$", error="not an Abluxxen card code"),
    metadata={"description": "A value 1..13, or X for a joker."},
)
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


# --- events (docs/rules/abluxxen.md): while the game runs a seat sees only its own hand


def _seat():
    return fields.Integer(required=True)


class AbluxxenDealt(Event):
    type = tag("dealt")
    starting_seat = fields.Integer(required=True)
    display = CARDS
    draw_pile_count = fields.Integer(required=True)
    hand_counts = fields.List(fields.Integer(), required=True)
    hand = fields.List(CARD, allow_none=True, metadata={"description": "Yours (redacted log)."})
    hands = fields.List(fields.List(CARD), metadata={"description": "Every hand, once over."})
    draw_pile = fields.List(CARD, metadata={"description": "Once the game is over."})


class AbluxxenPlayed(Event):
    type = tag("played")
    seat = _seat()
    cards = CARDS
    value = fields.Integer(required=True)
    targets = fields.List(
        fields.Integer(), required=True, metadata={"description": "The rows it may attack."}
    )


class AbluxxenDrew(Event):
    type = tag("drew")
    seat = _seat()
    display = fields.List(CARD, required=True, metadata={"description": "Taken from the display."})
    pile_count = fields.Integer(required=True, metadata={"description": "Drawn from the pile."})
    pile = fields.List(
        CARD, metadata={"description": "The cards drawn from the pile: the drawer's only."}
    )
    refill = fields.List(
        CARD, required=True, metadata={"description": "Turned up to refill the display."}
    )


class AbluxxenTurn(Event):
    type = tag("turn")
    seat = _seat()


class AbluxxenAttacked(Event):
    type = tag("attacked")
    seat = _seat()
    target = fields.Integer(required=True)
    cards = CARDS
    value = fields.Integer(required=True)


class AbluxxenGivenUp(Event):
    type = tag("given_up")
    seat = _seat()
    to = fields.Integer(required=True)
    cards = CARDS


class AbluxxenStopped(Event):
    type = tag("stopped")
    seat = _seat()


class AbluxxenTakenBack(Event):
    type = tag("taken_back")
    seat = _seat()
    cards = CARDS


class AbluxxenDiscarded(AbluxxenTakenBack):
    type = tag("discarded")


class AbluxxenKept(Event):
    type = tag("kept")
    seat = _seat()
    target = fields.Integer(required=True)
    cards = CARDS


class AbluxxenDeclined(Event):
    type = tag("declined")
    seat = _seat()
    target = fields.Integer(required=True)


class AbluxxenGameOver(Event):
    type = tag("game_over")
    winners = fields.List(fields.Integer(), required=True)
    scores = fields.List(fields.Integer(), required=True)
    reason = fields.String(required=True, validate=validate.OneOf(["hand_empty", "supply_empty"]))
    hands = fields.List(fields.List(CARD), required=True)


EVENTS = {
    "dealt": AbluxxenDealt,
    "played": AbluxxenPlayed,
    "drew": AbluxxenDrew,
    "turn": AbluxxenTurn,
    "attacked": AbluxxenAttacked,
    "given_up": AbluxxenGivenUp,
    "stopped": AbluxxenStopped,
    "taken_back": AbluxxenTakenBack,
    "discarded": AbluxxenDiscarded,
    "kept": AbluxxenKept,
    "declined": AbluxxenDeclined,
    "game_over": AbluxxenGameOver,
}


class AbluxxenTableOptions(Schema):
    variant = variant(RULES_OPTIONS)
    published = Flag(metadata={"description": "Play the published rules, not the rulebook's."})


STATE, OPTIONS = AbluxxenState, AbluxxenTableOptions
EXAMPLE = {"type": "play", "cards": ["7", "7"]}
