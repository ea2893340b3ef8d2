"""Bearer tokens: which seat, if any, the caller holds in a game. No Redis round trip:
tokens are signed (shared/tokens.py)."""

from flask import request

from services.api.errors import ApiError
from shared import tokens


def bearer(authorization):
    """The token of an Authorization header ("Bearer <token>"); None without one."""
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError("unauthorized", "use the header 'Authorization: Bearer <seat token>'")
    return token.strip()


def holder(secret, authorization, game_id, required):
    """What the token of an Authorization header holds in `game_id`: a seat number,
    tokens.CREATOR, or None for an anonymous caller when a token is not required.
    Raises ApiError (unauthorized, forbidden). The one reading of a token: the routes
    (`holder_of`) and the fast path call it."""
    token = bearer(authorization)
    if token is None:
        if required:
            raise ApiError("unauthorized", "this needs a token: 'Authorization: Bearer ...'")
        return None
    held = tokens.verify(secret, token)
    if held is None:
        raise ApiError("unauthorized", "the token is not valid")
    if held[0] != game_id:
        raise ApiError("forbidden", "the token belongs to another game")
    return held[1]


def seat(secret, authorization, game_id, required):
    """The seat the token of an Authorization header holds in `game_id`; None for a
    spectator (no token, or the creator's token) when a seat is not required. Raises
    ApiError as `holder`, and forbidden for the creator's token when it is."""
    held = holder(secret, authorization, game_id, required)
    if held == tokens.CREATOR:
        if required:
            raise ApiError("forbidden", "the creator's token holds no seat; use a seat token")
        return None
    return held


def holder_of(game_id, secret, required):
    """`holder` of this request's Authorization header."""
    return holder(secret, request.headers.get("Authorization"), game_id, required)


def seat_of(game_id, secret, required):
    """`seat` of this request's Authorization header."""
    return seat(secret, request.headers.get("Authorization"), game_id, required)


def seat_token_for(game_id, seat, secret):
    """Check the caller holds `seat` (resign, return)."""
    if seat_of(game_id, secret, required=True) != seat:
        raise ApiError("forbidden", f"the token is not seat {seat}'s")
