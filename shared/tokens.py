"""Seat tokens: signed, so checking one needs no Redis round trip.

A token names its game and seat and carries an HMAC of both under the deployment's
secret: `<game_id>.<seat>.<signature>`.
"""

import base64
import hashlib
import hmac


def _signature(secret, game_id, seat):
    mac = hmac.new(secret.encode(), f"{game_id}:{seat}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:18]).decode()


def issue(secret, game_id, seat):
    """The bearer token of one seat of one game."""
    return f"{game_id}.{seat}.{_signature(secret, game_id, seat)}"


def verify(secret, token):
    """(game_id, seat) when the token is genuine, else None."""
    try:
        game_id, seat, signature = token.split(".")
        seat = int(seat)
    except ValueError:
        return None
    if seat < 0 or not hmac.compare_digest(signature, _signature(secret, game_id, seat)):
        return None
    return game_id, seat
