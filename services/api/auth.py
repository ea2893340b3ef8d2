"""Bearer tokens: which seat, if any, the caller holds in a game. No Redis round trip:
tokens are signed (shared/tokens.py, shared/players/tokens.py).

A player's token (or a trusted JWT) acts for the seat its player holds in the game, as
that seat's token would: the table (the game service's in-process copy) knows which
player holds which seat."""

import time

from flask import current_app, request

from services.api.context import deps, refused
from services.api.errors import ApiError
from shared import table, tokens


def bearer():
    """The token of this request's Authorization header (`token_of`)."""
    return token_of(request.headers.get("Authorization"))


def token_of(authorization):
    """The token of an Authorization header ("Bearer <token>"); None without one."""
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
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
    players = current_app.extensions.get("tablestream.player_auth")
    if token is not None and players is not None and players.claims_player(token):
        return players_seat(game_id, players.player_of(token, _now_ms()))
    return seat_token_holds(token, game_id, secret, required)


def seat_known(secret, authorization, game_id, required, players, service):
    """`seat_of` of an Authorization header, for the fast path: the seat (None: a
    spectator's read) when this process is sure of it with no Redis round trip, False
    otherwise (a token the routes refuse, a player's this process cannot tell yet): the
    routes answer those. The same functions decide as for the routes."""
    try:
        token = token_of(authorization)
        if token is not None and players is not None and players.claims_player(token):
            seat = players.seat_known(token, game_id, service)
            return False if seat is None else seat
        return seat_held(seat_token_holds(token, game_id, secret, required), required)
    except ApiError:
        return False


def seat_token_holds(token, game_id, secret, required):
    """What a seat's or the creator's `token` (None: no token) holds in `game_id`: a
    seat number, tokens.CREATOR, or None when a token is not required."""
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


def players_seat(game_id, player_id):
    """The seat `player_id` holds in `game_id`; 403 when it holds none (as another
    game's seat token). A seat accepted or claimed is the player's for good, so the
    cached table answers it; an invitation (it may have been declined since) or no
    seat is asked of the stream."""
    service = deps().service
    with refused():
        _, current = service.load(game_id)
        seat = table.seat_of_player(current, player_id)
        if seat is None or current["seats"][seat].get("invited"):
            _, current = service.load(game_id, fresh=True)
            seat = table.seat_of_player(current, player_id)
    if seat is None:
        raise ApiError("forbidden", "the player holds no seat in this game")
    return seat


def _now_ms():
    return int(time.time() * 1000)
