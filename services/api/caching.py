"""What caches may keep (Cache-Control, Vary), decided in one place for every answer.

A seat's view, its events and its stream share one URL with every other seat's and
the spectator's; only the Authorization header tells them apart. So those answers
are `private, no-cache` (a browser may keep its own copy but must ask again before
using it; no shared cache keeps them) with `Vary: Authorization`. The lobby and a
game's summary are the same for everyone: shared caches may keep them PUBLIC_MAX_AGE
seconds. Everything else that changes something, and every error, is `no-store`
(creation and claim answers carry seat tokens).
"""

from flask import request

PER_SEAT = {"play.GameView", "play.Events", "play.Commands", "stream.EventStream"}
PUBLIC = {"games.Games", "games.Game"}
PUBLIC_MAX_AGE = 2


def cache_headers(response):
    """An after_request hook."""
    endpoint = request.endpoint
    reading = request.method in ("GET", "HEAD") and response.status_code < 400
    if endpoint in PER_SEAT:
        response.vary.add("Authorization")
        response.headers["Cache-Control"] = "private, no-cache" if reading else "no-store"
    elif endpoint in PUBLIC and reading:
        response.headers.setdefault("Cache-Control", f"public, max-age={PUBLIC_MAX_AGE}")
    elif endpoint is not None and endpoint.split(".")[0] in ("games", "play", "stream"):
        response.headers.setdefault("Cache-Control", "no-store")
    return response
