"""Schemas of the quick-match routes (services/api/matchmaking.py)."""

import copy

from marshmallow import INCLUDE, Schema, fields, validate

from services.api.fields import Alternatives, Flag
from services.api.schemas import _OPTIONS
from services.api.seat_specs import LEVEL
from shared import games
from shared.matchmaking import tickets

STATUSES = [tickets.WAITING, tickets.MATCHED, tickets.CANCELLED, tickets.EXPIRED]
COUNT = {"type": "integer", "format": "int32", "minimum": 1, "maximum": 16}


NOT_FOR_A_MATCH = ("seed", "deck", "webhook", "rated", "turn_seconds")  # or given apart


def _options_fields():
    """Every game's table options but a creator's own choices (seed, deck, webhook)
    and those a ticket names apart (rated, turn_seconds): one schema for all games,
    each value checked as its game's when the ticket is opened."""
    found = {}
    for schema in _OPTIONS.values():
        for name, field in schema.fields.items():
            if name not in NOT_FOR_A_MATCH and name not in found:
                found[name] = copy.deepcopy(field)
    found["variant"] = fields.String(
        metadata={"description": "One of the game's variants (POST /v1/games)."}
    )
    return found


class TicketOptions(Schema.from_dict(_options_fields(), name="TicketOptionsFields")):
    """A quick match's options: the game's (POST /v1/games), but seed, deck and
    webhook."""

    class Meta:
        unknown = INCLUDE  # refused by the game's own options (bad_options)


class Bots(Schema):
    after_seconds = fields.Integer(
        required=True,
        validate=validate.Range(min=0, max=3600),
        metadata={
            "description": "Seconds of waiting after which a group still short of players "
            "is completed with bots and starts."
        },
    )
    level = fields.String(
        validate=LEVEL,
        allow_none=True,
        metadata={
            "description": "The bots' level (random, greedy, ismcts...); none: the level "
            "whose calibrated rating of the game (docs/bots.md) is nearest the mean rating "
            "of the table's rated players; greedy when none has a rating."
        },
    )


class NewTicket(Schema):
    game = fields.String(required=True, validate=validate.OneOf(games.NAMES))
    players = Alternatives(
        COUNT,
        {"type": "array", "items": COUNT, "minItems": 2, "maxItems": 2},
        name="PlayerCount",
        required=True,
        metadata={
            "description": "How many players the table has: a number, or [min, max] "
            "(within the game's range)."
        },
    )
    options = fields.Nested(
        TicketOptions,
        load_default=dict,
        metadata={
            "description": "The game's options as in POST /v1/games (variant included); "
            "seed, deck and webhook are not for a quick match."
        },
    )
    rated = Flag(load_default=False)
    bots = fields.Nested(Bots, allow_none=True, load_default=None)
    turn_seconds = fields.Integer(
        allow_none=True,
        load_default=None,
        validate=validate.Range(min=1, max=7 * 24 * 3600),
        metadata={"description": "Each seat's time to act (none: no turn timer)."},
    )
    expires_seconds = fields.Integer(
        load_default=tickets.DEFAULT_EXPIRES,
        validate=validate.Range(min=tickets.MIN_EXPIRES, max=tickets.MAX_EXPIRES),
        metadata={"description": "How long the ticket waits to be matched (default 24 h)."},
    )


class Ticket(Schema):
    id = fields.String(required=True)
    queue = fields.String(
        required=True, metadata={"description": "The queue: game, options, rated, turn time."}
    )
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    player = fields.String(required=True)
    game = fields.String(required=True)
    players = fields.List(
        fields.Integer(), required=True, metadata={"description": "[min, max] players."}
    )
    options = fields.Nested(TicketOptions, required=True)
    rated = fields.Boolean(required=True)
    turn_seconds = fields.Integer(required=True, allow_none=True)
    bots = fields.Nested(Bots, required=True, allow_none=True)
    rating = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "The player's rating of the game when it opened the ticket."},
    )
    opened_at = fields.Integer(required=True, metadata={"description": "ms since the epoch"})
    expires_at = fields.Integer(required=True, metadata={"description": "ms since the epoch"})
    ended_at = fields.Integer(
        required=True, allow_none=True, metadata={"description": "Matched, cancelled or expired."}
    )
    game_id = fields.String(
        required=True, allow_none=True, metadata={"description": "matched: the game."}
    )
    seat = fields.Integer(
        required=True, allow_none=True, metadata={"description": "matched: my seat in it."}
    )


class Tickets(Schema):
    tickets = fields.List(
        fields.Nested(Ticket), required=True, metadata={"description": "Newest first."}
    )
