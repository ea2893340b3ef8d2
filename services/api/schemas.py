"""The API's request and response schemas (marshmallow). The OpenAPI document is
generated from these same classes, and request bodies are validated with them."""

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from services.api.errors import STATUS
from services.api.fields import Count, Flag, QueryInteger, QueryNumber, Seconds, Seed, Text
from services.api.games import CONTRACTS
from services.api.games.contract import ForkedFrom, PublicSeat, Summary
from services.api.games.replay import REPLAYS
from services.api.webhook_schemas import WebhookRegistered, WebhookSpec
from shared import bots, games, table

NAME = validate.Length(min=1, max=40)
# A bot level's name; which levels there are is the registry's (shared.bots.registry):
# CreateGame checks them against the game, so a plugin needs no change here.
LEVEL = validate.Length(min=1, max=100)
# A version is a Redis stream id's first part; past this no stream can reach.
MAX_VERSION = 2**63 - 1
VERSION = validate.Range(min=0, max=MAX_VERSION)
MAX_WAIT = 30  # seconds a long-poll may wait


class SeatSpec(Schema):
    name = Text(validate=NAME, metadata={"description": "A human player's name."})
    bot = fields.String(
        validate=LEVEL,
        metadata={
            "description": "A bot's level: random, greedy (a heuristic), ismcts (a "
            "search, the strongest) or an installed plugin's; see docs/bots.md."
        },
    )
    think_ms = Count(
        allow_none=True,
        validate=validate.Range(min=bots.MIN_THINK_MS, max=bots.MAX_THINK_MS),
        metadata={
            "description": f"The ismcts bot's time to think per decision, in ms "
            f"({bots.MIN_THINK_MS} to {bots.MAX_THINK_MS}; default {bots.THINK_MS})."
        },
    )
    open = Flag(metadata={"description": "A seat left for someone to claim."})
    player = fields.String(
        validate=validate.Length(min=1, max=64),
        metadata={
            "description": '"me": the seat is the creator\'s player (its player token as '
            "the bearer); a player's id: an invitation, the seat reserved for that player "
            "until it accepts (the game starts once every seat is taken and accepted)."
        },
    )
    reaction_seconds = Seconds(
        validate=validate.Range(min=0, max=MAX_WAIT),
        metadata={
            "description": "A bot's reaction delay before it claims or stacks out of "
            "turn (Alien), so a quick human can beat it. Default 1.5."
        },
    )

    @validates_schema
    def one_kind(self, data, **kwargs):
        named, bot, open_seat, player = (data.get(k) for k in ("name", "bot", "open", "player"))
        if player and (named or bot or open_seat):
            raise ValidationError("a player's seat is {player} alone: the name is the player's")
        if (open_seat and (named or bot)) or not (named or bot or open_seat or player):
            raise ValidationError(
                "a seat is {name}, {bot} (with an optional name), {open: true} or {player}"
            )
        if data.get("think_ms") is not None and not bot:
            raise ValidationError("think_ms is for a bot's seat", "think_ms")


class Options(Schema):
    seed = Seed(
        allow_none=True,
        metadata={
            "description": "Fixes every shuffle. Drawn by the server when left out; "
            "seed_sha256 (salted by the server) is public, and the seed and its salt are "
            "revealed when the game ends. A chosen seed marks the game dealt_by_creator."
        },
    )
    deck = fields.List(
        fields.String(validate=validate.Length(min=1, max=4)),
        allow_none=True,
        validate=validate.Length(max=200),
        metadata={
            "description": "A complete ordering of the game's cards, in the order the "
            "rulebook deals (see the game's rules page). Marks the game custom_deck "
            "and dealt_by_creator."
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
    takeover_bot = fields.String(
        allow_none=True,
        validate=LEVEL,
        metadata={
            "description": "The bot level that plays a seat after zombie_after timeouts, "
            f"or once resigned (default {table.TAKEOVER_BOT})."
        },
    )
    rated = Flag(
        metadata={
            "description": "A rated game: every seat a player's (open seats are claimed "
            "by players); its result moves the players' ratings (a game seating bots only "
            "where the operator sets RATE_BOT_GAMES). See the README's ratings."
        }
    )
    webhook = fields.Nested(
        WebhookSpec,
        metadata={
            "description": "The game's webhook: notifications of what a spectator may "
            "see (every seat's your_turn, the start, the end...). See docs/webhooks.md."
        },
    )


class CreateGame(Schema):
    game = fields.String(required=True, validate=validate.OneOf(games.NAMES))
    seats = fields.List(
        fields.Nested(SeatSpec), required=True, validate=validate.Length(min=1, max=8)
    )
    options = fields.Nested(Options, load_default=dict)

    @validates_schema
    def levels_play_the_game(self, data, **kwargs):
        """Every bot level named is installed and plays the game (400 naming the
        levels that do)."""
        game = data.get("game")
        errors = {}
        for i, seat in enumerate(data.get("seats") or ()):
            why = _unplayable(seat.get("bot"), game)
            if why:
                errors.setdefault("seats", {})[i] = {"bot": [why]}
        why = _unplayable((data.get("options") or {}).get("takeover_bot"), game)
        if why:
            errors["options"] = {"takeover_bot": [why]}
        if errors:
            raise ValidationError(errors)


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
    at = fields.Integer(
        required=True,
        validate=validate.Range(min=1),
        metadata={"description": "The original's version the fork starts from."},
    )
    seats = fields.List(
        fields.Nested(SeatSpec),
        required=True,
        validate=validate.Length(min=1, max=8),
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
    status = fields.Integer(required=True)
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
