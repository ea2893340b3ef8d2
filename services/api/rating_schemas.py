"""Schemas of the ratings and leaderboard routes (services/api/ratings.py)."""

from marshmallow import Schema, fields, validate

from shared import games
from shared.ratings import PROVISIONAL_GAMES

MAX_BOARD_PAGE = 200
MAX_CURSOR = 64
RATING_DOC = (
    "The displayed rating: 1000 + 40 * (mu - 3 sigma), rounded (openskill's ordinal, "
    "Plackett-Luce); a new player shows 1000."
)


class Rating(Schema):
    game = fields.String(required=True, validate=validate.OneOf(games.NAMES))
    variant = fields.String(required=True, metadata={"description": "standard, or the rule set"})
    rating = fields.Integer(required=True, metadata={"description": RATING_DOC})
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    games = fields.Integer(required=True, metadata={"description": "rated games played"})
    provisional = fields.Boolean(
        required=True, metadata={"description": f"fewer than {PROVISIONAL_GAMES} rated games"}
    )


class PlayerRatings(Schema):
    player = fields.String(required=True)
    ratings = fields.List(fields.Nested(Rating), required=True)


class HistoryQuery(Schema):
    variant = fields.String(validate=validate.Length(min=1, max=40))


class HistoryEntry(Schema):
    game_id = fields.String(required=True)
    game = fields.String(required=True)
    variant = fields.String(required=True)
    ended_at = fields.Integer(required=True, metadata={"description": "ms since the epoch"})
    place = fields.Integer(required=True, metadata={"description": "1: first; a leaver is last"})
    players = fields.Integer(required=True)
    before = fields.Integer(required=True, metadata={"description": "displayed rating before"})
    after = fields.Integer(required=True, metadata={"description": "displayed rating after"})
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)


class RatingHistory(Schema):
    player = fields.String(required=True)
    game = fields.String(required=True)
    history = fields.List(fields.Nested(HistoryEntry), required=True)


class BoardQuery(Schema):
    variant = fields.String(load_default="standard", validate=validate.Length(min=1, max=40))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=MAX_BOARD_PAGE))
    cursor = fields.String(
        validate=validate.Length(min=1, max=MAX_CURSOR),
        metadata={"description": "The `next_cursor` of the page before."},
    )
    around = fields.String(
        validate=validate.OneOf(["me"]),
        metadata={"description": "me: the window around the caller (a player token)"},
    )


class BoardEntry(Schema):
    rank = fields.Integer(required=True, metadata={"description": "1: the best"})
    player = fields.String(required=True)
    name = fields.String(required=True)
    rating = fields.Integer(required=True, metadata={"description": RATING_DOC})
    games = fields.Integer(required=True)
    provisional = fields.Boolean(required=True)


class Leaderboard(Schema):
    game = fields.String(required=True)
    variant = fields.String(required=True)
    players = fields.Integer(required=True, metadata={"description": "on the board"})
    entries = fields.List(fields.Nested(BoardEntry), required=True)
    next_cursor = fields.String(required=True, allow_none=True)
