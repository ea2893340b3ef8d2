"""The REST API: a Flask app factory. Routes only translate HTTP into game-service
calls and read-model lookups; every error leaves as application/problem+json."""

from flask import Flask
from flask_smorest import Api
from werkzeug.exceptions import HTTPException

from services.api import body, caching, errors, fields, limits, schemas
from services.api.errors import ApiError
from services.api.watch import Watcher

MAX_BODY = 64 * 1024  # a full custom deck is ~500 bytes; anything near this is abuse


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


def create_app(deps=None, *, spec_only=False):
    """Build the app. `deps` (services.deps.Deps) defaults to one built from the
    environment; tests pass their own. `spec_only` builds it without any Redis, to
    generate the OpenAPI document."""
    if deps is None and not spec_only:
        from services import deps as deps_module

        deps = deps_module.build()
    app = Flask(__name__)
    app.config.update(
        MAX_CONTENT_LENGTH=MAX_BODY,
        API_TITLE="tablestream",
        API_VERSION="1.0.0",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        OPENAPI_SWAGGER_UI_URL="https://cdn.jsdelivr.net/npm/swagger-ui-dist/",
        API_SPEC_OPTIONS={
            "info": {"description": DESCRIPTION},
            "components": {
                "securitySchemes": {
                    "seatToken": {
                        "type": "http",
                        "scheme": "bearer",
                        "description": "The token a seat got when it was created or claimed.",
                    }
                }
            },
        },
    )
    app.extensions["tablestream"] = deps
    if deps is not None:
        app.extensions["tablestream.watcher"] = Watcher(deps.redis, deps.keys.changes)
    api = TablestreamApi(app)
    api.ma_plugin.converter.add_attribute_function(fields.anyof2properties)
    api.ma_plugin.converter.add_attribute_function(fields.seed2properties)

    from services.api import lobby, play, stream

    api.register_blueprint(lobby.blp)
    api.register_blueprint(play.blp)
    api.register_blueprint(stream.blp)
    if deps is not None:
        limits.install(app, deps)
    app.before_request(body.check_json_body)
    app.after_request(caching.cache_headers)
    app.register_error_handler(ApiError, errors.handle_api_error)
    app.register_error_handler(HTTPException, errors.handle_http_exception)
    app.register_error_handler(Exception, errors.handle_unexpected)
    return app


DESCRIPTION = """\
Hosts hidden-information card games (Alebrijes, Alien, Alakablast, Abluxxen)
for your app.

Open a table with `POST /v1/games`; each human seat gets a bearer token. Poll
`GET /v1/games/{id}/view` with your token: it holds what your seat may see, who must
act (`to_act`) and every command you may send now (`legal`), each ready to POST to
`/v1/games/{id}/commands`. Every error is `application/problem+json` with a stable
`code`. The rules as the server applies them: docs/rules/ in the repository.
"""
