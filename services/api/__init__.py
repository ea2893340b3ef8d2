"""The REST API: a Flask app factory. Routes only translate HTTP into game-service
calls and read-model lookups; every error leaves as application/problem+json."""

import importlib.util
import inspect
from pathlib import Path

from flask import Flask, request, send_from_directory
from flask_smorest import Api
from werkzeug.exceptions import HTTPException
from werkzeug.routing import IntegerConverter

from services.api import (
    body,
    caching,
    client,
    cors,
    errors,
    fields,
    idempotency,
    limits,
    player_auth,
    schemas,
)
from services.api.errors import ApiError
from services.api.watch import Watcher
from services.ops import web as ops_web
from shared.config import Config


class TablestreamApi(Api):
    """flask-smorest with problem+json as the documented error body."""

    ERROR_SCHEMA = schemas.Problem
    DEFAULT_ERROR_RESPONSE_NAME = None

    def _register_responses(self):
        self.DEFAULT_RESPONSE_CONTENT_TYPE = errors.PROBLEM
        try:
            super()._register_responses()
        finally:
            self.DEFAULT_RESPONSE_CONTENT_TYPE = "application/json"

    def _register_error_handlers(self):
        pass  # ours are registered by create_app

    def _register_pagination_header(self):
        pass  # no endpoint pages with headers: keep the unused component out


class App(Flask):
    """Flask, asking once per function whether it is a coroutine function: Flask asks
    `inspect` again for every hook and view on every request (~16 times a request)."""

    def ensure_sync(self, func):
        target = getattr(func, "__func__", func)  # a bound method: its function
        try:
            is_async = _ASYNC.get(target)
        except TypeError:  # an unhashable callable: asked every time, as Flask does
            return super().ensure_sync(func)
        if is_async is None:
            if len(_ASYNC) >= _ASYNC_MOST:  # a closure made per request would fill it
                _ASYNC.clear()
            is_async = _ASYNC[target] = inspect.iscoroutinefunction(func)
        return self.async_to_sync(func) if is_async else func


_ASYNC = {}  # function -> whether it is a coroutine function
_ASYNC_MOST = 1024  # the app's hooks, views and handlers are ~100


def create_app(deps=None, *, spec_only=False):
    """Build the app. `deps` (services.deps.Deps) defaults to one built from the
    environment; tests pass their own. `spec_only` builds it without any Redis, to
    generate the OpenAPI document."""
    if deps is None and not spec_only:
        from services.api import connections

        deps = connections.build_deps()
    app = App(__name__)
    app.config.update(
        MAX_CONTENT_LENGTH=body.MAX_BODY,
        API_TITLE="tablestream",
        API_VERSION="1.0.0",
        # 3.1: nullable references are `oneOf [$ref, null]`, which generators type.
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        # Swagger UI's files ship in a Python package: /docs works with no internet.
        OPENAPI_SWAGGER_UI_URL=f"{DOCS_FILES}/",
        API_SPEC_OPTIONS={
            "info": {
                "description": DESCRIPTION.replace("{games}", _game_titles()),
                "license": {"name": "MIT", "identifier": "MIT"},
            },
            # Relative: /docs' "Try it out" calls the host and port that served it;
            # a generated client takes its base URL from its user.
            "servers": [{"url": "/", "description": "the server that serves this document"}],
            "components": {
                "securitySchemes": {
                    "seatToken": {
                        "type": "http",
                        "scheme": "bearer",
                        "description": "The token a seat got when it was created or claimed.",
                    },
                    "playerToken": {
                        "type": "http",
                        "scheme": "bearer",
                        "description": "A player's token (POST /v1/players) or a JWT from "
                        "an issuer the server trusts (PLAYER_ISSUERS).",
                    },
                }
            },
        },
    )
    app.extensions["tablestream"] = deps
    if deps is not None:
        app.extensions["tablestream.player_auth"] = player_auth.build(deps)
        app.extensions["tablestream.watcher"] = Watcher(deps.redis, deps.keys.changes)
        inboxes = Watcher(deps.redis, deps.keys.player_channels, pattern=True)
        app.extensions["tablestream.inbox_watcher"] = inboxes
    api = TablestreamApi(app)
    for function in fields.ATTRIBUTE_FUNCTIONS:
        api.ma_plugin.converter.add_attribute_function(function)
    api.register_converter(IntegerConverter, fields.seat_parameter)
    schemas.register_unions(api.spec)

    from services.api import (
        lobby,
        matchmaking,
        per_game,
        play,
        players,
        ratings,
        replays,
        stream,
        webhooks,
    )

    api.register_blueprint(lobby.blp)
    api.register_blueprint(play.blp)
    api.register_blueprint(stream.blp)
    api.register_blueprint(replays.blp)
    api.register_blueprint(webhooks.blp)
    api.register_blueprint(players.blp)
    api.register_blueprint(ratings.blp)
    api.register_blueprint(matchmaking.blp)
    api.register_blueprint(matchmaking.mine)
    webhooks.document(api.spec)
    for blueprint in per_game.BLUEPRINTS:
        api.register_blueprint(blueprint)
    app.add_url_rule(f"{DOCS_FILES}/<path:name>", "docs_files", _docs_file)
    client.install(app)
    # First: every later hook and error answer sees the request id; its timing covers them.
    ops_web.install(app)  # request ids, access log, metrics, /healthz, /readyz, /metrics
    replays.install(app)  # before idempotency reads a body: uploads may be larger
    if deps is not None:
        limits.install(app, deps)
        from services.api import live

        live.install(app)  # GET /v1/ws
    idempotency.install(app)
    cors.install(app, Config.from_env().cors_origins)
    app.before_request(_json_bodies_only)
    app.before_request(body.check_json_body)
    app.after_request(caching.cache_headers)
    app.register_error_handler(ApiError, errors.handle_api_error)
    app.register_error_handler(HTTPException, errors.handle_http_exception)
    app.register_error_handler(Exception, errors.handle_unexpected)
    if deps is not None:  # last, so outermost: the common view GET and POST skip Flask
        from services.api import fast_path
        from services.api.games import CONTRACTS

        fast_path.install(app, deps, CONTRACTS)
    return app


DOCS_FILES = "/docs/files"


def _json_bodies_only():
    """Every request body is JSON: anything else is a 415, whichever route it reaches."""
    req = request._get_current_object()  # once: each use of the proxy looks it up again
    if req.method == "POST" and req.content_length and not req.is_json:
        from services.api import replays

        if replays.takes_lines():
            return
        raise ApiError("unsupported_media_type", "send the body as application/json")


def _docs_file(name):
    """Swagger UI's own files, from the swagger-ui-py package (no CDN)."""
    (package,) = importlib.util.find_spec("swagger_ui").submodule_search_locations
    return send_from_directory(Path(package) / "static", name, max_age=86400)


def _game_titles():
    """The registered games' titles, as the document's description lists them."""
    from shared import games

    return ", ".join(name.capitalize() for name in games.NAMES)


DESCRIPTION = """\
Hosts hidden-information card games ({games})
for your app.

Open a table with `POST /v1/games`; each human seat gets a bearer token. Read
`GET /v1/{game}/{game_id}/view` with your token: it holds what your seat may see, who
must act (`to_act`) and every command you may send now (`legal`), each ready to POST to
`/v1/{game}/{game_id}/commands`; the answer carries your view after the move. Each game
has its own typed operations, so a generated client gets exact classes per game; the
generic `/v1/games/{game_id}/...` routes answer the same, as unions told apart by `game`.

Every POST takes an `Idempotency-Key` header for safe retries. Every error is
`application/problem+json` with a stable `code`. The rules as the server applies them:
docs/rules/ in the repository.
"""
