"""The API's request and response schemas (marshmallow). The OpenAPI document is
generated from these same classes, and request bodies are validated with them."""

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from services.api.errors import STATUS
from services.api.fields import AnyOf, Count, Flag, Seconds, Seed, Text
from services.api.games import COMMAND_SCHEMAS, STATE_SCHEMAS
from shared import games, table

NAME = validate.Length(min=1, max=40)
# A version is a Redis stream id's first part; past this no stream can reach.
MAX_VERSION = 2**63 - 1
VERSION = validate.Range(min=0, max=MAX_VERSION)


class SeatSpec(Schema):
    name = Text(validate=NAME, metadata={"description": "A human player's name."})
    bot = fields.String(validate=validate.OneOf(table.BOTS), metadata={"description": "A bot."})
    open = Flag(metadata={"description": "A seat left for someone to claim."})
    reaction_seconds = Seconds(
        validate=validate.Range(min=0, max=30),
        metadata={
            "description": "A bot's reaction delay before it claims or stacks out of "
            "turn (Alien), so a quick human can beat it. Default 1.5."
        },
    )

    @validates_schema
    def one_kind(self, data, **kwargs):
        named, bot, open_seat = (data.get(k) for k in ("name", "bot", "open"))
        if (open_seat and (named or bot)) or not (named or bot or open_seat):
            raise ValidationError("a seat is {name}, {bot} (with an optional name) or {open: true}")


class Options(Schema):
    seed = Seed(
        allow_none=True,
        metadata={
            "description": "Fixes every shuffle. Drawn by the server when left out; its "
            "SHA-256 is public and the seed is revealed when the game ends."
        },
    )
    deck = fields.List(
        fields.String(validate=validate.Length(min=1, max=4)),
        allow_none=True,
        validate=validate.Length(max=200),
        metadata={
            "description": "A complete ordering of the game's cards, in the order the "
            "rulebook deals (see the game's rules page). Marks the game custom_deck."
        },
    )
    variant = fields.String(
        allow_none=True,
        validate=validate.Length(max=40),
        metadata={
            "description": "Switches on one of the game's on/off options by name "
            "(Alebrijes: one_turn; Alien: no_math; Abluxxen: published; Alakablast has none)."
        },
    )
    rounds = Count(
        validate=validate.Range(min=1, max=20),
        metadata={"description": "Alebrijes: rounds to play (default 3)."},
    )
    one_turn = Flag(
        metadata={"description": "Alebrijes: each trick is one lap (the rulebook's variant)."}
    )
    stack_seconds = Seconds(
        validate=validate.Range(min=1, max=60),
        metadata={
            "description": "Alien: how long the stacking window stays open after a "
            "CAPTURED! claim, in seconds (default 5)."
        },
    )
    no_math = Flag(
        metadata={"description": "Alien: no sum or difference captures (the rulebook's variant)."}
    )
    published = Flag(
        metadata={"description": "Abluxxen: play the published rules instead of the rulebook's."}
    )
    turn_seconds = Count(
        allow_none=True,
        validate=validate.Range(min=1, max=7 * 24 * 3600),
        metadata={
            "description": "Seconds a seat has to act; then the rules' default action "
            "is taken for it. None by default: no timer."
        },
    )
    zombie_after = Count(
        allow_none=True,
        validate=validate.Range(min=1, max=100),
        metadata={
            "description": "Timeouts in a row after which a bot plays the seat until "
            "its holder acts again (default 2)."
        },
    )


class CreateGame(Schema):
    game = fields.String(required=True, validate=validate.OneOf(games.NAMES))
    seats = fields.List(
        fields.Nested(SeatSpec), required=True, validate=validate.Length(min=1, max=8)
    )
    options = fields.Nested(Options, load_default=dict)


class PublicSeat(Schema):
    seat = fields.Integer(required=True)
    name = fields.String(allow_none=True, required=True)
    bot = fields.String(
        allow_none=True, required=True, metadata={"description": "The bot playing the seat."}
    )
    open = fields.Boolean(required=True)
    away = fields.Boolean(
        required=True,
        metadata={"description": "A bot plays for the holder after timeouts, until they act."},
    )
    resigned = fields.Boolean(required=True, metadata={"description": "A bot plays it for good."})
    reaction_seconds = fields.Float(required=True, metadata={"description": "A bot's delay."})


class SeatCredentials(PublicSeat):
    token = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "Bearer token of a human seat; null for bots and open seats."},
    )


class Created(Schema):
    id = fields.String(required=True)
    version = fields.Integer(required=True)
    creator_token = fields.String(
        required=True, metadata={"description": "Lets the creator cancel the game while it waits."}
    )
    seats = fields.List(fields.Nested(SeatCredentials), required=True)


class ClaimSeat(Schema):
    name = Text(required=True, validate=NAME)


class Claimed(Schema):
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    token = fields.String(required=True)


class Result(Schema):
    winners = fields.List(fields.Integer(), required=True)
    scores = fields.List(fields.Float(), required=True)

    class Meta:
        unknown = "include"


class Summary(Schema):
    id = fields.String(required=True)
    game = fields.String(required=True, validate=validate.OneOf(games.NAMES))
    version = fields.Integer(required=True)
    status = fields.String(
        required=True, validate=validate.OneOf(["waiting", "active", "finished", "cancelled"])
    )
    seats = fields.List(fields.Nested(PublicSeat), required=True)
    options = fields.Dict(required=True, metadata={"description": "The game's options in force."})
    custom_deck = fields.Boolean(required=True)
    seed_sha256 = fields.String(required=True)
    seed = fields.String(allow_none=True, required=True, metadata={"description": "Once finished."})
    result = fields.Nested(Result, allow_none=True, required=True)


class Changed(Schema):
    version = fields.Integer(required=True, metadata={"description": "The game's new version."})


class Lobby(Schema):
    games = fields.List(fields.Nested(Summary), required=True)


class TableTimer(Schema):
    key = fields.String(required=True)
    deadline = fields.Integer(required=True, metadata={"description": "ms since the epoch"})


ALL_COMMANDS = [s for by_type in COMMAND_SCHEMAS.values() for s in by_type.values()]


class View(Summary):
    seat = fields.Integer(
        allow_none=True, required=True, metadata={"description": "null: spectator"}
    )
    to_act = fields.List(fields.Integer(), required=True)
    deadlines = fields.List(
        fields.Integer(allow_none=True),
        required=True,
        metadata={
            "description": "Per seat, when its time to act runs out (ms since the "
            "epoch); null when it need not act or the game has no turn_seconds."
        },
    )
    timers = fields.List(
        fields.Nested(TableTimer),
        required=True,
        metadata={"description": "The table's own timers, e.g. Alien's stacking window."},
    )
    legal = fields.List(
        AnyOf(*ALL_COMMANDS),
        required=True,
        metadata={"description": "Every command this seat may send now, each as it can be sent."},
    )
    state = AnyOf(*STATE_SCHEMAS.values(), allow_none=True, required=True)


class Event(Schema):
    version = fields.Integer(required=True)
    at = fields.Integer(required=True, metadata={"description": "Append time, ms since the epoch."})
    type = fields.String(required=True)

    class Meta:
        unknown = "include"


class Moved(Schema):
    version = fields.Integer(required=True)
    events = fields.List(fields.Nested(Event), required=True)


class ViewQuery(Schema):
    after = fields.Integer(
        validate=VERSION,
        metadata={"description": "Long-poll: answer once the game's version passes this."},
    )
    wait = fields.Float(
        load_default=0,
        validate=validate.Range(min=0, max=30),
        metadata={"description": "Long-poll: seconds to wait at most (30)."},
    )


class EventsQuery(Schema):
    after = fields.Integer(load_default=0, validate=VERSION)
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class LobbyQuery(Schema):
    game = fields.String(validate=validate.OneOf(games.NAMES))
    order = fields.String(
        load_default="newest",
        validate=validate.OneOf(["newest", "oldest"]),
        metadata={"description": "By creation time; newest first by default."},
    )
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))


class EventPage(Schema):
    events = fields.List(fields.Nested(Event), required=True)
    version = fields.Integer(required=True, metadata={"description": "The game's version now."})


class Problem(Schema):
    type = fields.String(required=True)
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    code = fields.String(
        required=True,
        validate=validate.OneOf(sorted(STATUS)),
        metadata={"description": "Stable error code: branch on it, never on title or detail."},
    )
    detail = fields.String(required=True)
    errors = fields.Dict(metadata={"description": "Field-level problems of the request."})
