"""Schemas of the player routes (services/api/players.py)."""

from marshmallow import Schema, fields, validate

from services.api.fields import Text
from shared.games.schema import Result
from shared.players import names

NAME = validate.Length(min=names.MIN_LENGTH, max=names.MAX_LENGTH)
NAME_DOC = (
    f"{names.MIN_LENGTH} to {names.MAX_LENGTH} characters: letters, marks, numbers, "
    "punctuation, symbols and single spaces; no control or invisible format characters. "
    "Names are not unique."
)


class NewPlayer(Schema):
    name = Text(required=True, validate=NAME, metadata={"description": NAME_DOC})


class Rename(Schema):
    name = Text(required=True, validate=NAME, metadata={"description": NAME_DOC})


class LinkIdentity(Schema):
    token = fields.String(
        required=True,
        validate=validate.Length(min=1, max=8192),
        metadata={"description": "A JWT from an issuer this server trusts (PLAYER_ISSUERS)."},
    )


class PlayerToken(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    token = fields.String(
        required=True,
        metadata={
            "description": "The player's bearer token: keep it (a guest has no other way "
            "back in). It acts for every seat the player holds."
        },
    )


class Identity(Schema):
    issuer = fields.String(required=True)
    subject = fields.String(required=True)


class Profile(Schema):
    id = fields.String(required=True)
    name = fields.String(
        required=True,
        metadata={"description": f'The name; "{names.PLACEHOLDER}" once erased.'},
    )
    erased = fields.Boolean(required=True)
    created = fields.Integer(
        required=True, allow_none=True, metadata={"description": "ms since the epoch"}
    )
    games_finished = fields.Integer(required=True)
    games_abandoned = fields.Integer(
        required=True,
        metadata={
            "description": "Games the player resigned, or left to a bot after timeouts "
            "and never came back to."
        },
    )


class Me(Profile):
    guest = fields.Boolean(
        required=True, metadata={"description": "Not linked to an app's identity."}
    )
    identities = fields.List(fields.Nested(Identity), required=True)


class LoggedOut(Schema):
    token = fields.String(
        required=True,
        metadata={"description": "A new token; every token issued before is refused."},
    )


MAX_PAGE = 100  # a page of "my games", at most
MAX_ITEMS = 200  # inbox items in one answer, at most
MAX_CURSOR = 64


class GamesQuery(Schema):
    status = fields.String(validate=validate.OneOf(["active", "waiting", "finished", "cancelled"]))
    turn = fields.String(
        validate=validate.OneOf(["mine"]), metadata={"description": "mine: where I must act"}
    )
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=MAX_PAGE))
    cursor = fields.String(
        validate=validate.Length(min=1, max=MAX_CURSOR),
        metadata={"description": "The `next_cursor` of the page before."},
    )


class OtherSeat(Schema):
    seat = fields.Integer(required=True)
    name = fields.String(required=True, allow_none=True, metadata={"description": "null: open"})
    player = fields.String(required=True, allow_none=True)
    bot = fields.String(required=True, allow_none=True)
    open = fields.Boolean(required=True)


class MyGame(Schema):
    game = fields.String(required=True)
    id = fields.String(required=True)
    version = fields.Integer(required=True)
    status = fields.String(
        required=True, validate=validate.OneOf(["waiting", "active", "finished", "cancelled"])
    )
    seat = fields.Integer(required=True, metadata={"description": "My seat."})
    invited = fields.Boolean(
        required=True,
        metadata={"description": "An invitation: accept or decline it (seats/{seat}/...)."},
    )
    my_turn = fields.Boolean(required=True, metadata={"description": "I must act now."})
    deadline = fields.Integer(
        required=True, allow_none=True, metadata={"description": "By when (ms), if I must act."}
    )
    others = fields.List(fields.Nested(OtherSeat), required=True)
    last_move_at = fields.Integer(required=True, metadata={"description": "ms since the epoch"})
    result = fields.Nested(
        Result, required=True, allow_none=True, metadata={"description": "Once finished."}
    )
    abandoned = fields.Boolean(required=True)


class MyGames(Schema):
    games = fields.List(fields.Nested(MyGame), required=True)
    next_cursor = fields.String(
        required=True, allow_none=True, metadata={"description": "null: the last page."}
    )
    inbox_version = fields.Integer(required=True)


class InboxQuery(Schema):
    after = fields.Integer(
        load_default=0,
        validate=validate.Range(min=0, max=2**53),
        metadata={"description": "The inbox version the client has: items after it."},
    )
    wait = fields.Float(
        load_default=0,
        validate=validate.Range(min=0, max=30),
        metadata={"description": "Seconds to wait for an item when there is none yet."},
    )
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=MAX_ITEMS))


INBOX_KINDS = [
    "matched",
    "invited",
    "game_started",
    "your_turn",
    "game_ended",
    "game_cancelled",
    "invitation_gone",
]


class InboxItem(Schema):
    version = fields.Integer(required=True, metadata={"description": "The inbox version."})
    kind = fields.String(required=True, validate=validate.OneOf(INBOX_KINDS))
    game_id = fields.String(required=True)
    game = fields.String(required=True)
    game_version = fields.Integer(required=True)
    seat = fields.Integer(metadata={"description": "My seat (all kinds but invitation_gone)."})
    deadline = fields.Integer(
        allow_none=True, metadata={"description": "your_turn: by when (ms), or null."}
    )
    result = fields.Nested(Result, metadata={"description": "game_ended: the result."})
    ticket_id = fields.String(metadata={"description": "matched: the quick-match ticket."})


class Inbox(Schema):
    version = fields.Integer(required=True, metadata={"description": "The inbox's version now."})
    items = fields.List(fields.Nested(InboxItem), required=True)
