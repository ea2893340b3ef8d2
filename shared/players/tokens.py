"""Player tokens: signed, so checking one needs no Redis round trip; revocable through
the player's token generation.

A token is `pt.<player_id>.<generation>.<signature>`: an HMAC of the id and generation
under the deployment's secret (the seat tokens' secret, with its own domain, so no seat
token is ever a player token or the other way round). Logging out everywhere and
erasure raise the player's generation, after which its older tokens are refused: the
API compares a token's generation with the player's, read from Redis at most once per
GENERATION_TTL seconds per player and process (services/api/players.py), so a revoked
token stops working on every process within that bound.
"""

import base64
import functools
import hashlib
import hmac
import re

PREFIX = "pt"
_ID = re.compile(r"[0-9a-f]{16}")


def _signature(secret, player_id, generation):
    message = f"player:{player_id}:{generation}".encode()
    mac = hmac.new(secret.encode(), message, hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:24]).decode()


def issue(secret, player_id, generation):
    """The bearer token of a player at `generation`."""
    return f"{PREFIX}.{player_id}.{generation}.{_signature(secret, player_id, generation)}"


def looks_like(token):
    """Whether a bearer token is meant as a player token (checked or not)."""
    return token.startswith(PREFIX + ".")


@functools.lru_cache(maxsize=4096)
def verify(secret, token):
    """(player_id, generation) when the token is genuine, else None. Whether that
    generation is still the player's is the caller's question."""
    try:
        prefix, player_id, generation, signature = token.split(".")
    except ValueError:
        return None
    if prefix != PREFIX or not _ID.fullmatch(player_id):
        return None
    if not (generation.isascii() and generation.isdigit() and len(generation) <= 9):
        return None
    generation = int(generation)
    if not hmac.compare_digest(signature, _signature(secret, player_id, generation)):
        return None
    return player_id, generation


def valid_id(player_id):
    """Whether `player_id` has the shape of a player's id."""
    return isinstance(player_id, str) and _ID.fullmatch(player_id) is not None
