"""The API's request and response schemas (marshmallow). The OpenAPI document is
generated from these same classes, and request bodies are validated with them."""

from marshmallow import Schema, ValidationError, fields, validate

from services.api.errors import STATUS, ApiError
from services.api.fields import MAX_VERSION, MOST_SEATS, QueryInteger, QueryNumber, Text
from services.api.games import CONTRACTS
from services.api.games.contract import ForkedFrom, PublicSeat, Summary
from services.api.games.replay import REPLAYS
from services.api.seat_specs import NAME, SeatSpec
from services.api.webhook_schemas import WebhookRegistered
from shared import bots, games

VERSION = validate.Range(min=0, max=MAX_VERSION)
MAX_WAIT = 30  # seconds a long-poll may wait
MOST_EVENTS = 100  # events a view answer carries at most (`until`)
FEWEST_SEATS = min(games.get(name).PLAYERS.start for name in games.NAMES)


class NewGame(Schema):
    """A new table's body as read: `options` is then checked as the game's own
    (`new_game`). Documented as the union `CreateGame` of the games' bodies."""

    game = fields.String(required=True, validate=validate.OneOf(games.NAMES))
    seats = fields.List(SeatSpec(), required=True, validate=validate.Length(min=1, max=MOST_SEATS))
    options = fields.Dict(load_default=dict)


_NEW_GAME = NewGame()
_OPTIONS = {game: contract.options() for game, contract in CONTRACTS.items()}
UNKNOWN = "Unknown field."
# An option some game has: for another game, the rules' refusal (bad_options).
SOME_GAMES_OPTION = {name for schema in _OPTIONS.values() for name in schema.fields}
INVALID = "the request body is not valid"


def new_game(body):
    """The body of `POST /v1/games`, checked: its seats by kind, its options as the
    game's, and every bot level named installed and playing the game (400 naming the
    levels that do). Raises ApiError: bad_request for a value the schema refuses,
    bad_options for another game's option."""
    try:
        loaded = _NEW_GAME.load(body)
    except ValidationError as error:
        raise ApiError("bad_request", INVALID, error.messages) from None
    game = loaded["game"]
    try:
        loaded["options"] = _OPTIONS[game].load(loaded["options"])
    except ValidationError as error:
        unknown = all(
            problem == [UNKNOWN] and name in SOME_GAMES_OPTION
            for name, problem in error.messages.items()
        )
        if unknown:
            raise ApiError(
                "bad_options",
                f"{game} has no option {', '.join(error.messages)}",
                {"options": error.messages},
            ) from None
        raise ApiError("bad_request", INVALID, {"options": error.messages}) from None
    errors = {}
    for i, seat in enumerate(loaded["seats"]):
        why = _unplayable(seat.get("bot"), game)
        if why:
            errors.setdefault("seats", {})[i] = {"bot": [why]}
    why = _unplayable(loaded["options"].get("takeover_bot"), game)
    if why:
        errors["options"] = {"takeover_bot": [why]}
    if errors:
        raise ApiError("bad_request", INVALID, errors)
    return loaded


def _unplayable(level, game):
    """Why `level` cannot play `game` (None: it can, or no level is named)."""
    if level is None or game is None:
        return None
    try:
        bots.registry.get(level, game)
    except bots.UnknownLevel as error:
        return str(error)
    return None


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
    webhook = fields.Nested(
        WebhookRegistered,
        metadata={"description": "When options.webhook was given: its secret, shown only here."},
    )


class ClaimSeat(Schema):
    name = Text(
        validate=NAME,
        metadata={"description": "Who takes the seat; left out with a player's token."},
    )


class Claimed(Schema):
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    token = fields.String(required=True)


class ReplayQuery(Schema):
    at = QueryInteger(
        validate=validate.Range(min=1),
        metadata={"description": "The version to replay to (default: the last)."},
    )
    seat = QueryInteger(
        validate=validate.Range(min=0),
        metadata={"description": "As this seat saw it (default: a spectator)."},
    )
    everyone = fields.Boolean(
        load_default=False,
        metadata={"description": "Every hand: the log of a finished game is public."},
    )


class Fork(Schema):
    # Past the original's last version is bad_version (422), however far: the document
    # says where versions end, the check stays the replay's.
    at = fields.Integer(
        required=True,
        validate=validate.Range(min=1),
        metadata={
            "description": "The original's version the fork starts from.",
            "maximum": MAX_VERSION,
        },
    )
    # Every game seats 2 or more; exactly how many is the original's (bad_request).
    seats = fields.List(
        SeatSpec(),
        required=True,
        validate=validate.Length(min=FEWEST_SEATS, max=MOST_SEATS),
        metadata={"description": "The fork's seats, as many as the original's."},
    )


class Forked(Created):
    forked_from = fields.Nested(ForkedFrom, required=True)


class Imported(Schema):
    id = fields.String(required=True, metadata={"description": "The stored copy's game id."})
    game = fields.String(required=True, validate=validate.OneOf(games.NAMES))
    version = fields.Integer(required=True)
    verdict = fields.String(
        required=True,
        validate=validate.OneOf(["checks_out"]),
        metadata={"description": "The seed matches its hash and every decision was re-decided."},
    )


class Changed(Schema):
    version = fields.Integer(required=True, metadata={"description": "The game's new version."})


class Lobby(Schema):
    games = fields.List(fields.Nested(Summary), required=True)


class ViewQuery(Schema):
    after = QueryInteger(
        validate=VERSION,
        metadata={"description": "Long-poll: answer once the game's version passes this."},
    )
    wait = QueryNumber(
        load_default=0,
        validate=validate.Range(min=0, max=MAX_WAIT),
        metadata={"description": "Long-poll: seconds to wait at most (30)."},
    )
    until = fields.String(
        validate=validate.OneOf(["change", "turn"]),
        metadata={
            "description": "Long-poll: `turn` waits until your seat must act or the game "
            "is over; `change` (as without it) until the version passes `after`. Either "
            "adds `events` since `after` to the answer."
        },
    )


class EventsQuery(Schema):
    after = QueryInteger(load_default=0, validate=VERSION)
    limit = QueryInteger(load_default=100, validate=validate.Range(min=1, max=1000))


class LobbyQuery(Schema):
    game = fields.String(validate=validate.OneOf(games.NAMES))
    order = fields.String(
        load_default="newest",
        validate=validate.OneOf(["newest", "oldest"]),
        metadata={"description": "By creation time; newest first by default."},
    )
    limit = QueryInteger(load_default=50, validate=validate.Range(min=1, max=200))


class Problem(Schema):
    type = fields.String(required=True)
    title = fields.String(required=True)
    # Registered before the attribute functions (fields.py) are: its format is spelt out.
    status = fields.Integer(
        required=True, validate=validate.Range(min=400, max=599), metadata={"format": "int32"}
    )
    code = fields.String(
        required=True,
        validate=validate.OneOf(sorted(STATUS)),
        metadata={"description": "Stable error code: branch on it, never on title or detail."},
    )
    detail = fields.String(required=True)
    errors = fields.Dict(metadata={"description": "Field-level problems of the request."})
    request_id = fields.String(
        metadata={"description": "The request's X-Request-ID (sent or made): quote it."}
    )


class AnyCommand(Schema):
    """Any game's command, for hand-written HTTP: the per-game operations
    (`/v1/{game}/{game_id}/commands`) type each game's commands exactly."""

    type = fields.String(required=True)
    expected_version = fields.Integer(validate=validate.Range(min=0))

    class Meta:
        unknown = "include"


# Answers whose shape depends on the game: one component per game, told apart by `game`.
UNIONS = {
    "View": {game: contract.view for game, contract in CONTRACTS.items()},
    "EventPage": {game: contract.event_page for game, contract in CONTRACTS.items()},
    "Moved": {game: contract.moved for game, contract in CONTRACTS.items()},
    "Replay": REPLAYS,
    "CreateGame": {game: contract.create for game, contract in CONTRACTS.items()},
}


def register_unions(spec):
    """Add the cross-game unions (and their members) to the document's components."""
    spec.components.schema("AnyCommand", schema=AnyCommand)
    for name, members in UNIONS.items():
        refs = {}
        for game, schema in members.items():
            if schema.__name__ not in spec.components.schemas:
                spec.components.schema(schema.__name__, schema=schema)
            refs[game] = f"#/components/schemas/{schema.__name__}"
        spec.components.schema(
            name,
            component={
                "oneOf": [{"$ref": ref} for ref in refs.values()],
                "discriminator": {"propertyName": "game", "mapping": refs},
            },
        )
