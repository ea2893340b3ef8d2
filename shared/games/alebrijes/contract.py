"""Alebrijes's API contract (shared/games/schema.py): its commands, the state of its views,
its events and options, from which services/api/games builds its typed routes and
components. Rules: docs/rules/alebrijes.md."""

from marshmallow import Schema, fields, validate

from shared.games.alebrijes.options import OPTIONS as RULES_OPTIONS
from shared.games.schema import Command, Count, Event, Flag, Result, command_type, tag, variant

# A pattern, not an enum: generators turn enum values into names, and `B1` and `B1*`
# would both become `B1`.
CARD_PATTERN = r"^(?:[BGPO][1-5]\*?|J[1-5])$"
CARD_CODE = validate.Regexp(CARD_PATTERN, error="not an Alebrijes card code")
CARD = fields.String(validate=CARD_CODE, metadata={"example": "B3*"})
UP_TO_TWO = validate.Length(max=2)
OLLIN = ["none", "others_draw", "lay_aside"]


class AlebrijesExchange(Command):
    type = command_type("exchange")
    cards = fields.List(CARD, load_default=list, validate=UP_TO_TWO)


class AlebrijesPlay(Command):
    type = command_type("play")
    cards = fields.List(CARD, required=True, validate=validate.Length(min=1, max=20))
    colour = fields.String(allow_none=True, validate=validate.OneOf(list("BGPO")))
    ollin = fields.String(validate=validate.OneOf(OLLIN))
    lay_aside = fields.String(allow_none=True, validate=CARD_CODE)


class AlebrijesPass(Command):
    type = command_type("pass")
    exchange = fields.List(CARD, load_default=list, validate=UP_TO_TWO)


COMMANDS = {"exchange": AlebrijesExchange, "play": AlebrijesPlay, "pass": AlebrijesPass}


SEATS = fields.List(fields.Integer(), required=True)
PER_SEAT = fields.List(fields.Integer(), required=True)
COLOUR = fields.String(validate=validate.OneOf(list("BGPO")))
CARDS = fields.List(CARD, required=True)


class Combination(Schema):
    """The combination on the table: the one to beat."""

    seat = fields.Integer(required=True, metadata={"description": "Who played it."})
    cards = fields.List(CARD, required=True)
    colour = COLOUR
    number = fields.Integer(required=True)
    count = fields.Integer(required=True)


class AlebrijesOptions(Schema):
    rounds = fields.Integer(required=True)
    one_turn = fields.Boolean(required=True)


class AlebrijesState(Schema):
    """What one seat (or a spectator) sees of an Alebrijes game."""

    game = fields.String(required=True, validate=validate.OneOf(["alebrijes"]))
    seat = fields.Integer(allow_none=True, required=True)
    players = fields.Integer(required=True)
    options = fields.Nested(AlebrijesOptions, required=True)
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
    result = fields.Nested(Result, allow_none=True, required=True)


# --- events (docs/rules/alebrijes.md): what is hidden from a seat is null


class AlebrijesDealt(Event):
    type = tag("dealt")
    round = fields.Integer(required=True)
    starting_seat = fields.Integer(required=True)
    hand_sizes = PER_SEAT
    draw_pile_size = fields.Integer(required=True)
    hands = fields.List(
        fields.List(CARD, allow_none=True),
        required=True,
        metadata={"description": "Per seat; null for the hands you may not see."},
    )
    draw_pile = fields.List(
        CARD, allow_none=True, required=True, metadata={"description": "Once the game is over."}
    )


class AlebrijesExchanged(Event):
    """A seat exchanged cards at the start of the round."""

    type = tag("exchanged")
    seat = fields.Integer(required=True)
    count = fields.Integer(required=True)
    laid_aside = fields.List(CARD, allow_none=True, required=True)
    drawn = fields.List(CARD, allow_none=True, required=True)


class AlebrijesPassed(AlebrijesExchanged):
    """A seat passed, exchanging 0 to 2 cards."""

    type = tag("passed")


class AlebrijesPlayed(Event):
    type = tag("played")
    seat = fields.Integer(required=True)
    cards = CARDS
    colour = COLOUR
    number = fields.Integer(required=True)
    count = fields.Integer(required=True)
    ollin = fields.String(required=True, validate=validate.OneOf(OLLIN))


class AlebrijesTableCleared(Event):
    type = tag("table_cleared")
    leader = fields.Integer(required=True)
    reason = fields.String(required=True, validate=validate.OneOf(["all_passed", "lap_over"]))


class AlebrijesOllinDraw(Schema):
    seat = fields.Integer(required=True)
    card = fields.String(allow_none=True, required=True, validate=CARD_CODE)


class AlebrijesOllinDraws(Event):
    type = tag("ollin_draws")
    seat = fields.Integer(required=True)
    draws = fields.List(fields.Nested(AlebrijesOllinDraw), required=True)


class AlebrijesLaidAside(Event):
    type = tag("laid_aside")
    seat = fields.Integer(required=True)
    card = fields.String(allow_none=True, required=True, validate=CARD_CODE)


class AlebrijesRoundEnded(Event):
    type = tag("round_ended")
    round = fields.Integer(required=True)
    winner = fields.Integer(required=True)
    scores = PER_SEAT
    totals = PER_SEAT
    rounds_won = PER_SEAT
    game_over = fields.Boolean(required=True)
    hands = fields.List(fields.List(CARD), required=True)


EVENTS = {
    "dealt": AlebrijesDealt,
    "exchanged": AlebrijesExchanged,
    "passed": AlebrijesPassed,
    "played": AlebrijesPlayed,
    "table_cleared": AlebrijesTableCleared,
    "ollin_draws": AlebrijesOllinDraws,
    "laid_aside": AlebrijesLaidAside,
    "round_ended": AlebrijesRoundEnded,
}


class AlebrijesTableOptions(Schema):
    variant = variant(RULES_OPTIONS)
    rounds = Count(
        validate=validate.Range(min=1, max=20),
        metadata={"description": "Rounds to play (default 3)."},
    )
    one_turn = Flag(metadata={"description": "Each trick is one lap (the rulebook's variant)."})


STATE, OPTIONS = AlebrijesState, AlebrijesTableOptions
EXAMPLE = {"type": "play", "cards": ["G3", "J3"], "ollin": "none"}
