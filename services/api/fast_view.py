"""A seat's view GET in its common case, answered before Flask.

Half of a move's requests are `GET /v1/{game}/{game_id}/view` (or `/v1/games/...`)
whose stored view is newer than the client's `after`: one Redis GET, then the stored
JSON as it is. Flask's request context, routing, hooks and Response cost more than
that answer's own work (docs/design.md, "The fast paths"). This WSGI middleware
answers exactly that case itself, with the same bytes and headers as
`play.view_answer` and the same access line and metrics (services/ops/web.answered).
Anything else goes to Flask untouched: another method or path, a query other than
plain `after`/`wait` digits, `If-None-Match`, `Origin`, a body, a token that is not
plain `Bearer <token>` or not valid for the game (a player's token is taken when this
process knows its player's seat: player_auth.seat_known), a view not stored, a view of
another game, a long-poll that has to wait, any error. Flask then answers as it
always has, errors and 304s included.
"""

import functools
import re
import time

from redis import RedisCluster

from services.api.play import OVER, PRIVATE
from services.api.schemas import MAX_WAIT
from services.ops.web import answered, request_id_of
from shared import jsonutil, tokens
from shared.link import pooled_call
from shared.players import tokens as player_tokens

# Game ids and tokens are ASCII: any other byte goes to Flask, which decodes paths.
_ID = r"[A-Za-z0-9._~-]{1,128}"
_QUERY = re.compile(r"(?:after=(\d{1,18})(?:&wait=(\d{1,18}))?)?")
_BEARER = re.compile(r"Bearer ([A-Za-z0-9._~+/=-]{1,512})")
# Asking for something only Flask does: a conditional GET, CORS, a body.
_TO_FLASK = ("HTTP_IF_NONE_MATCH", "HTTP_ORIGIN", "CONTENT_TYPE", "HTTP_TRANSFER_ENCODING")
_HEADERS = [(name, value) for name, value in PRIVATE.items()]


class FastViews:
    """WSGI middleware in front of the app's own `wsgi_app`."""

    def __init__(self, wsgi_app, deps, games, players):
        self.wsgi_app = wsgi_app
        self.deps = deps
        self.players = players  # PlayerAuth: a player's token, when it knows it
        # On one server, without redis-py's per-call layers (a failure: Flask answers).
        single = not isinstance(deps.redis, RedisCluster)
        self.get = functools.partial(pooled_call, deps.redis, "GET") if single else deps.redis.get
        self.path = re.compile(rf"/v1/(games|{'|'.join(map(re.escape, games))})/({_ID})/view")

    def __call__(self, environ, start_response):
        started = time.perf_counter()
        answer = None
        if environ["REQUEST_METHOD"] == "GET":
            try:
                answer = self.answer(environ)
            except Exception:  # Redis and all: Flask answers, as it always has
                answer = None
        if answer is None:
            return self.wsgi_app(environ, start_response)
        raw, version, game, game_id, query = answer
        request_id = request_id_of(environ.get("HTTP_X_REQUEST_ID", ""))
        headers = [
            *_HEADERS,
            ("ETag", f'"{version}"'),
            ("Content-Type", "application/json"),
            ("Content-Length", str(len(raw))),
            ("X-Request-ID", request_id),
        ]
        start_response("200 OK", headers)
        path = environ["PATH_INFO"]
        route = f"/v1/{game}/<game_id>/view"
        full_path = f"{path}?{query}"
        seconds = time.perf_counter() - started
        answered("GET", path, full_path, route, game_id, request_id, 200, seconds)
        return [raw]

    def answer(self, environ):
        """(stored view, version, route's game, game id, query) when this request is the
        common case; None for Flask to answer."""
        matched = self.path.fullmatch(environ.get("PATH_INFO", ""))
        if matched is None or any(environ.get(name) for name in _TO_FLASK):
            return None
        if "HTTP_ORIGIN" in environ:  # even empty: CORS_ORIGINS=* answers it with CORS headers
            return None
        if environ.get("CONTENT_LENGTH", "0") not in ("", "0"):
            return None
        query = environ.get("QUERY_STRING", "")
        plain = _QUERY.fullmatch(query)
        if plain is None:
            return None
        after, wait = plain.groups()
        if wait is not None and int(wait) > MAX_WAIT:
            return None  # webargs' 400
        game, game_id = matched.groups()
        seat = self.seat(environ.get("HTTP_AUTHORIZATION"), game_id)
        if seat is False:
            return None
        raw = self.get(self.deps.keys.view(game_id, seat))
        if raw is None:
            return None  # answered from the stream (play.stored_view)
        view = jsonutil.loads(raw)
        if game != "games" and view["game"] != game:
            return None  # unknown_game
        if after is not None and view["version"] <= int(after) and view["status"] not in OVER:
            return None  # a long-poll that waits: Flask registers its waiter first
        return raw, view["version"], game, game_id, query

    def seat(self, authorization, game_id):
        """The seat a plain valid bearer token holds in `game_id` (None: a spectator, as
        auth.seat_of answers); False for anything auth.py answers otherwise or
        reads more loosely (another scheme, spaces, a bad token, another game)."""
        if authorization is None:
            return None
        bearer = _BEARER.fullmatch(authorization)
        if bearer is None:
            return False
        if player_tokens.looks_like(bearer.group(1)):
            seat = self.players.seat_known(bearer.group(1), game_id, self.deps.service)
            return False if seat is None else seat
        held = tokens.verify(self.deps.service.secret, bearer.group(1))
        if held is None or held[0] != game_id:
            return False
        return None if held[1] == tokens.CREATOR else held[1]


def install(app, deps, games):
    """Put FastViews in front of `app` (outermost: it needs no proxy's address)."""
    players = app.extensions["tablestream.player_auth"]
    app.wsgi_app = FastViews(app.wsgi_app, deps, games, players)
