"""Bearer tokens: which seat, if any, the caller holds in a game. No Redis round trip:
tokens are signed (shared/tokens.py)."""

from flask import request

from services.api.errors import ApiError
from shared import tokens


def bearer():
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if not header:
        return None
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError("unauthorized", "use the header 'Authorization: Bearer <seat token>'")
    return token.strip()


def seat_of(game_id, secret, required):
    """The caller's seat in `game_id`; None for an anonymous caller when not required."""
    token = bearer()
    if token is None:
        if required:
            raise ApiError("unauthorized", "this needs a seat token: 'Authorization: Bearer ...'")
        return None
    held = tokens.verify(secret, token)
    if held is None:
        raise ApiError("unauthorized", "the token is not valid")
    if held[0] != game_id:
        raise ApiError("forbidden", "the token belongs to another game")
    return held[1]
