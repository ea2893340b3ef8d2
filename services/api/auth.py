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


def holder_of(game_id, secret, required):
    """What the caller's token holds in `game_id`: a seat number, tokens.CREATOR, or None
    for an anonymous caller when a token is not required."""
    return held_in(bearer(), game_id, secret, required)


def held_in(token, game_id, secret, required):
    """What `token` (None: no token) holds in `game_id`, as holder_of answers it: the
    HTTP routes and the WebSocket channel decide alike."""
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


def seat_of(game_id, secret, required):
    """The caller's seat in `game_id`; None for a spectator (no token, or the creator's
    token) when a seat is not required."""
    return seat_held(holder_of(game_id, secret, required), required)


def seat_held(held, required):
    """The seat of `held` (holder_of's answer); None for a spectator (no token, or the
    creator's) when a seat is not required."""
    if held == tokens.CREATOR:
        if required:
            raise ApiError("forbidden", "the creator's token holds no seat; use a seat token")
        return None
    return held


def seat_token_for(game_id, seat, secret):
    """Check the caller holds `seat` (resign, return)."""
    if seat_of(game_id, secret, required=True) != seat:
        raise ApiError("forbidden", f"the token is not seat {seat}'s")
