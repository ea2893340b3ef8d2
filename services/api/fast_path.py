"""The fast path: a move's two common requests answered before Flask, by the routes'
own decisions.

Most of a move's requests are a seat's command POST and the view GETs that follow it.
For those, Flask's request context, routing, hooks and Response cost about as much as
the answer's own work (docs/design.md, "The fast paths"). This WSGI middleware answers
them itself, with the same status, headers, body, access line and metrics as the
routes, because it asks the same functions: which seat a token holds
(`auth.seat_known`, deciding as `auth.seat_of`), what caches may keep
(`caching.per_seat`), the seat's command limit (`limits.SeatLimits.count`), the
command's answer (`play.moved`), the view's answer (`play.view_headers`, `play.waits`,
`play.of_kind`), the access line and metrics (`services.ops.web.answered`).

It takes exactly these requests; anything else goes to Flask untouched, before
anything is counted or written (a body read here is handed on):

- `GET /v1/{game}/{game_id}/view` (or `/v1/games/...`), the game id ASCII; no query,
  or `after=<digits>` optionally followed by `&wait=<digits>` (at most MAX_WAIT); no
  `If-None-Match`, no `Origin` (even empty), no `Content-Type`, no
  `Transfer-Encoding`, no body; no token, or one `auth.seat_known` is sure of for this
  game (a seat's, the creator's, a player's whose seat this process knows); a view
  stored for that seat, of that kind of game, newer than `after` or of a game that is
  over (a long-poll that would wait is Flask's).
- `POST /v1/{game}/{game_id}/commands` (or `/v1/games/...`), the game id ASCII; no
  query, no `Idempotency-Key`, no `Origin`, no `Transfer-Encoding`; `Content-Type:
  application/json` exactly and a Content-Length of 1 to body.MAX_BODY bytes; a token
  of a seat of this game (`auth.seat_known`, required: a seat's, or a player's whose
  seat this process knows); a body that is strict JSON (orjson), an object with a
  string `type`, nested at most body.MAX_DEPTH deep, no field named twice. Once taken,
  it answers every outcome itself: the move, a refusal or a 429 as problem+json, a 500.
"""

import functools
import io
import re
import time

from redis import RedisCluster
from werkzeug.http import HTTP_STATUS_CODES

from services.api import auth, body, caching
from services.api.errors import PROBLEM, STATUS, ApiError, problem_bytes, unexpected
from services.api.play import moved, of_kind, view_headers, waits
from services.api.schemas import MAX_WAIT
from services.ops.web import answered, request_id_of
from shared import jsonutil
from shared.link import pooled_call

# Game ids are ASCII: any other byte goes to Flask, which decodes paths.
_ID = r"[A-Za-z0-9._~-]{1,128}"
_QUERY = re.compile(r"(?:after=(\d{1,18})(?:&wait=(\d{1,18}))?)?")
# Asking for something only Flask does, even when empty: a conditional GET, CORS, a
# safe retry, a chunked body.
_VIEW_TO_FLASK = ("HTTP_IF_NONE_MATCH", "HTTP_ORIGIN", "CONTENT_TYPE", "HTTP_TRANSFER_ENCODING")
_COMMAND_TO_FLASK = ("HTTP_IDEMPOTENCY_KEY", "HTTP_ORIGIN", "HTTP_TRANSFER_ENCODING")


class FastPath:
    """WSGI middleware in front of the app's own `wsgi_app`."""

    def __init__(self, wsgi_app, deps, games, seat_limits, players, watcher):
        self.wsgi_app = wsgi_app
        self.deps = deps
        self.watcher = watcher  # this process's sockets on a game hear of its moves
        self.seat_limits = seat_limits  # None: RATE_LIMITS=off
        self.players = players  # PlayerAuth: a player's token, when it knows it
        # On one server, without redis-py's per-call layers (a failure: Flask answers).
        single = not isinstance(deps.redis, RedisCluster)
        self.get = functools.partial(pooled_call, deps.redis, "GET") if single else deps.redis.get
        names = f"games|{'|'.join(map(re.escape, games))}"
        self.view_path = re.compile(rf"/v1/({names})/({_ID})/view")
        self.commands_path = re.compile(rf"/v1/({names})/({_ID})/commands")

    def __call__(self, environ, start_response):
        started = time.perf_counter()
        method = environ["REQUEST_METHOD"]
        answer = None
        if method == "GET":
            try:
                answer = self.view(environ)
            except Exception:  # Redis and all: Flask answers, as it always has
                answer = None
        elif method == "POST":
            answer = self.command(environ)
        if answer is None:
            return self.wsgi_app(environ, start_response)
        status, headers, raw, route, game_id, full_path = answer
        request_id = request_id_of(environ.get("HTTP_X_REQUEST_ID", ""))
        headers.append(("X-Request-ID", request_id))
        start_response(f"{status} {HTTP_STATUS_CODES[status].upper()}", headers)
        path = environ["PATH_INFO"]
        seconds = time.perf_counter() - started
        answered(method, path, full_path, route, game_id, request_id, status, seconds)
        return [raw]

    def seat(self, environ, game_id, required):
        """The seat of the request's token (`auth.seat_known`); False for the routes."""
        authorization = environ.get("HTTP_AUTHORIZATION")
        service = self.deps.service
        return auth.seat_known(
            service.secret, authorization, game_id, required, self.players, service
        )

    # A view GET.

    def view(self, environ):
        """The answer (status, headers but the request id, body, route, game id, path
        with query) when this GET is the common case; None for Flask to answer."""
        matched = self.view_path.fullmatch(environ.get("PATH_INFO", ""))
        if matched is None or any(environ.get(name) for name in _VIEW_TO_FLASK):
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
        seat = self.seat(environ, game_id, required=False)
        if seat is False:
            return None
        raw = self.get(self.deps.keys.view(game_id, seat))
        if raw is None:
            return None  # answered from the stream (play._view)
        view = jsonutil.loads(raw)
        if not of_kind(view, None if game == "games" else game):
            return None  # unknown_game
        if waits(view, None if after is None else int(after)):
            return None  # a long-poll that waits: Flask registers its waiter first
        content = [("Content-Type", "application/json"), ("Content-Length", str(len(raw)))]
        headers = [*view_headers(view["version"]).items(), *content]
        route = f"/v1/{game}/<game_id>/view"
        return 200, headers, raw, route, game_id, f"{environ['PATH_INFO']}?{query}"

    # A command POST.

    def command(self, environ):
        """The answer, as `view`'s, when this POST is the plain case; None for Flask to
        answer (with the body, if read here, put back)."""
        matched = self.commands_path.fullmatch(environ.get("PATH_INFO", ""))
        if matched is None or environ.get("QUERY_STRING"):
            return None
        if any(name in environ for name in _COMMAND_TO_FLASK):
            return None
        if environ.get("CONTENT_TYPE") != "application/json":
            return None
        length = environ.get("CONTENT_LENGTH", "")
        if not (length.isascii() and length.isdigit() and 0 < int(length) <= body.MAX_BODY):
            return None
        game, game_id = matched.groups()
        seat = self.seat(environ, game_id, required=True)
        if seat is False:
            return None
        command = _command(environ, int(length))
        if command is None:
            return None
        path = environ["PATH_INFO"]
        request_id = request_id_of(environ.get("HTTP_X_REQUEST_ID", ""))
        status, headers, raw = self.move(game, game_id, seat, command, path, request_id)
        return status, headers, raw, f"/v1/{game}/<game_id>/commands", game_id, path

    def move(self, game, game_id, seat, command, path, request_id):
        """(status, headers but the request id, body) of a taken command."""
        extra = {"method": "POST", "path": path, "request_id": request_id}
        try:
            if self.seat_limits is not None:
                self.seat_limits.count(game_id, seat, extra)
            kind = None if game == "games" else game
            value = moved(self.deps, game_id, seat, command, kind, told=self.watcher)
        except ApiError as error:
            return _problem(error.code, error.detail, error.errors, error.headers, request_id)
        except Exception as error:  # as errors.handle_unexpected
            code, detail, headers = unexpected(error, extra)
            return _problem(code, detail, None, headers, request_id)
        raw = jsonutil.dumps(value)
        content = [("Content-Type", "application/json"), ("Content-Length", str(len(raw)))]
        return 200, [*caching.per_seat(True), *content], raw


def _command(environ, length):
    """The body, when it is a JSON object with a string `type` that body.py's checks
    pass; else None, the body read put back for Flask."""
    try:
        data = environ["wsgi.input"].read(length)
    except Exception:  # the client went away: Flask answers what it answers then
        data = b""
    environ["wsgi.input"] = io.BytesIO(data)
    if len(data) != length:
        return None
    try:
        value = jsonutil.loads(data)
    except jsonutil.JSONDecodeError:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("type"), str):
        return None
    if body.nests_deeper(value, body.MAX_DEPTH) or body.duplicate_key(data, value) is not None:
        return None
    return value


def _problem(code, detail, errors, headers, request_id):
    """An error answer as errors.problem and the after_request hooks make it."""
    raw = problem_bytes(code, detail, errors, request_id)
    content = [("Content-Type", PROBLEM), ("Content-Length", str(len(raw)))]
    refusal = caching.per_seat(False)
    return STATUS.get(code, 400), [*(headers or {}).items(), *content, *refusal], raw


def install(app, deps, games):
    """Put the fast path in front of `app` (outermost: it needs no proxy's address)."""
    seat_limits = app.extensions.get("tablestream.seat_limits")
    players = app.extensions["tablestream.player_auth"]
    watcher = app.extensions["tablestream.watcher"]
    app.wsgi_app = FastPath(app.wsgi_app, deps, games, seat_limits, players, watcher)
