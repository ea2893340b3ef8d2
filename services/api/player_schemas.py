"""Schemas of the player routes (services/api/players.py)."""

from marshmallow import Schema, fields, validate

from services.api.fields import Text
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
