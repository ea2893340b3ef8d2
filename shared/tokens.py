"""Seat tokens: signed, so checking one needs no Redis round trip.

A token names its game and seat and carries an HMAC of both under the deployment's
secret: `<game_id>.<seat>.<signature>`. The creator of a game holds a token whose seat
is `creator`: it may cancel the game while it waits for players.
"""

import base64
import functools
import hashlib
import hmac

CREATOR = "creator"


def _signature(secret, game_id, seat):
    mac = hmac.new(secret.encode(), f"{game_id}:{seat}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:18]).decode()


def issue(secret, game_id, seat):
    """The bearer token of one seat of one game."""
    return f"{game_id}.{seat}.{_signature(secret, game_id, seat)}"


@functools.lru_cache(maxsize=4096)
def verify(secret, token):
    """(game_id, seat) when the token is genuine, else None; seat is a number, or CREATOR.
    The answer depends on nothing else, so a client's token is checked once, not on
    every request it sends (the HMAC is most of a request's checks)."""
    try:
        game_id, seat, signature = token.split(".")
    except ValueError:
        return None
    if seat != CREATOR:
        # One spelling a seat: "1", never "01", "+1" or " 1" (int() reads them all).
        if not (seat.isascii() and seat.isdigit()) or (seat[0] == "0" and seat != "0"):
            return None
        seat = int(seat)
    if not hmac.compare_digest(signature, _signature(secret, game_id, seat)):
        return None
    return game_id, seat
