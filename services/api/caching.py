"""What caches may keep (Cache-Control, Vary), decided in one place for every answer.

A seat's view, its events and its stream share one URL with every other seat's and
the spectator's; only the Authorization header tells them apart. So those answers
are `private, no-cache` (a browser may keep its own copy but must ask again before
using it, with the view's ETag; no shared cache keeps them) with `Vary: Authorization`.
The lobby and a game's summary are the same for everyone: shared caches may keep them
PUBLIC_MAX_AGE seconds. Every other answer of the API, every error included, is
`no-store` (creation and claim answers carry seat tokens).
"""

from flask import request

# The view classes whose answers are a seat's own: in play, stream and each game's
# typed blueprint (services/api/per_game.py), e.g. "alien.View".
PER_SEAT = {"GameView", "View", "Commands", "Events", "EventStream"}
PUBLIC = {"games.Games", "games.Game"}
PUBLIC_MAX_AGE = 2
# A seat's own answer, and a refusal on a seat's route, as this module leaves them.
SEAT_ANSWER = {"Cache-Control": "private, no-cache", "Vary": "Authorization"}
SEAT_REFUSAL = {"Vary": "Authorization", "Cache-Control": "no-store"}


def per_seat(answered):
    """The caching headers of an answer on a seat's route, [(name, value)]: its own
    answer (`answered`) or a refusal. The routes' answers get them from `cache_headers`,
    the fast path's (services/api/fast_path.py) from here."""
    return list((SEAT_ANSWER if answered else SEAT_REFUSAL).items())


def cache_headers(response):
    """An after_request hook."""
    req = request._get_current_object()  # once: each use of the proxy looks it up again
    endpoint = req.endpoint or ""
    answered = response.status_code < 400
    headers = response.headers
    if endpoint.rpartition(".")[2] in PER_SEAT:
        if headers.get("Vary") != "Authorization":  # most answers here set it already
            response.vary.add("Authorization")
        headers["Cache-Control"] = (SEAT_ANSWER if answered else SEAT_REFUSAL)["Cache-Control"]
    elif endpoint in PUBLIC and answered and req.method in ("GET", "HEAD"):
        headers.setdefault("Cache-Control", f"public, max-age={PUBLIC_MAX_AGE}")
    elif req.blueprint not in (None, "api-docs"):
        headers.setdefault("Cache-Control", "no-store")
    return response
