"""A seat's command POST in its common case, answered before Flask.

The other half of a move's requests is `POST /v1/{game}/{game_id}/commands` (or
`/v1/games/...`): Flask's request context, routing, hooks and Response cost about as
much as the command's own work (docs/design.md, "The fast paths"). This WSGI
middleware answers the plain case itself, through the same code as the route
(`play.moved`), with the same status, headers, body, access line and metrics:

- a POST with an ASCII game id, no query, no `Idempotency-Key`, no `Origin`;
- `Content-Type: application/json` and a Content-Length of 1 to body.MAX_BODY bytes;
- a plain `Bearer <token>` of a seat of that game (not the creator's), or a player's
  token whose seat this process knows (player_auth.seat_known);
- a body that is strict JSON (orjson), an object with a string `type`, nested at
  most body.MAX_DEPTH deep, no field named twice.

Anything else goes to Flask untouched, before anything is counted or written (the
body read here is handed on). Once a request is taken, it counts the seat's command
limit as flask-limiter does (limits.SeatLimits) and answers every outcome itself: the
move, a refusal or a 429 as problem+json, a 500.
"""

import io
import re
import time

from werkzeug.http import HTTP_STATUS_CODES

from services.api import body
from services.api.errors import FAILED, PROBLEM, STATUS, ApiError, log, problem_bytes
from services.api.fast_view import _BEARER, _ID
from services.api.play import PRIVATE, moved
from services.ops.web import answered, request_id_of
from shared import jsonutil, tokens
from shared.players import tokens as player_tokens

# Asking for something only Flask does, even when empty: a safe retry, CORS, a chunked body.
_TO_FLASK = ("HTTP_IDEMPOTENCY_KEY", "HTTP_ORIGIN", "HTTP_TRANSFER_ENCODING")
_ANSWERED = [(name, value) for name, value in PRIVATE.items()]
# What caching.cache_headers adds to a refusal of a seat's route.
_REFUSED = [("Vary", "Authorization"), ("Cache-Control", "no-store")]


class FastCommands:
    """WSGI middleware in front of the app's own `wsgi_app`."""

    def __init__(self, wsgi_app, deps, games, seat_limits, players):
        self.wsgi_app = wsgi_app
        self.deps = deps
        self.players = players  # PlayerAuth: a player's token, when it knows it
        self.seat_limits = seat_limits  # None: RATE_LIMITS=off
        names = "|".join(map(re.escape, games))
        self.path = re.compile(rf"/v1/(games|{names})/({_ID})/commands")

    def __call__(self, environ, start_response):
        if environ["REQUEST_METHOD"] != "POST":
            return self.wsgi_app(environ, start_response)
        started = time.perf_counter()
        taken = self.take(environ)
        if taken is None:
            return self.wsgi_app(environ, start_response)
        game, game_id, seat, command = taken
        path = environ["PATH_INFO"]
        request_id = request_id_of(environ.get("HTTP_X_REQUEST_ID", ""))
        status, headers, raw = self.answer(game, game_id, seat, command, path, request_id)
        headers += [("X-Request-ID", request_id)]
        start_response(f"{status} {HTTP_STATUS_CODES[status].upper()}", headers)
        route = f"/v1/{game}/<game_id>/commands"
        seconds = time.perf_counter() - started
        answered("POST", path, path, route, game_id, request_id, status, seconds)
        return [raw]

    def take(self, environ):
        """(route's game, game id, seat, command) when this request is the plain case;
        None for Flask to answer (with the body, if read here, put back)."""
        matched = self.path.fullmatch(environ.get("PATH_INFO", ""))
        if matched is None or environ.get("QUERY_STRING"):
            return None
        if any(name in environ for name in _TO_FLASK):
            return None
        if environ.get("CONTENT_TYPE") != "application/json":
            return None
        length = environ.get("CONTENT_LENGTH", "")
        if not (length.isascii() and length.isdigit() and 0 < int(length) <= body.MAX_BODY):
            return None
        game_id = matched.group(2)
        seat = self.seat(environ.get("HTTP_AUTHORIZATION"), game_id)
        if seat is None:
            return None
        command = self.command(environ, int(length))
        if command is None:
            return None
        return matched.group(1), game_id, seat, command

    def seat(self, authorization, game_id):
        """The seat a plain valid bearer token holds in `game_id`; None otherwise (no
        token, the creator's, another game's: auth.py answers those)."""
        bearer = _BEARER.fullmatch(authorization or "")
        if bearer is None:
            return None
        if player_tokens.looks_like(bearer.group(1)):
            return self.players.seat_known(bearer.group(1), game_id, self.deps.service)
        held = tokens.verify(self.deps.service.secret, bearer.group(1))
        if held is None or held[0] != game_id or held[1] == tokens.CREATOR:
            return None
        return held[1]

    @staticmethod
    def command(environ, length):
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
        if body.nests_deeper(value, body.MAX_DEPTH) or body.duplicate_key(data) is not None:
            return None
        return value

    def answer(self, game, game_id, seat, command, path, request_id):
        """(status, headers but the request id, body) of a taken command."""
        extra = {"method": "POST", "path": path, "request_id": request_id}
        try:
            refused = self.seat_limits and self.seat_limits.breached(game_id, seat, extra)
            if refused:
                detail, headers = refused
                return _problem("rate_limited", detail, None, headers, request_id)
            value = moved(self.deps, game_id, seat, command, None if game == "games" else game)
        except ApiError as error:
            return _problem(error.code, error.detail, error.errors, error.headers, request_id)
        except Exception as error:  # as errors.handle_unexpected
            log.exception("unexpected error", exc_info=error, extra=extra)
            return _problem("internal_error", FAILED, None, None, request_id)
        raw = jsonutil.dumps(value)
        content = [("Content-Type", "application/json"), ("Content-Length", str(len(raw)))]
        return 200, [*_ANSWERED, *content], raw


def _problem(code, detail, errors, headers, request_id):
    """An error answer as errors.problem and the after_request hooks make it."""
    raw = problem_bytes(code, detail, errors, request_id)
    content = [("Content-Type", PROBLEM), ("Content-Length", str(len(raw)))]
    return STATUS.get(code, 400), [*(headers or {}).items(), *content, *_REFUSED], raw


def install(app, deps, games):
    """Put FastCommands in front of `app`'s Flask (fast_view's goes in front of it)."""
    seat_limits = app.extensions.get("tablestream.seat_limits")
    players = app.extensions["tablestream.player_auth"]
    app.wsgi_app = FastCommands(app.wsgi_app, deps, games, seat_limits, players)
