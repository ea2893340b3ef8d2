"""Per-app dependencies and the small helpers every route uses."""

from contextlib import contextmanager
from http import HTTPStatus

from flask import Response, current_app

from services.api.errors import ApiError
from shared import jsonutil
from shared.games.base import RuleError
from shared.store import NotReplicated, VersionConflict


def deps():
    return current_app.extensions["tablestream"]


def json_response(body, status=200, headers=None):
    """A JSON response from a value or from JSON bytes already stored."""
    raw = body if isinstance(body, bytes) else jsonutil.dumps(body)
    return Response(raw, status, headers=headers, mimetype="application/json")


@contextmanager
def refused():
    """Turn the game service's refusals into API errors."""
    try:
        yield
    except RuleError as error:
        raise ApiError(error.code, error.message) from None
    except VersionConflict as conflict:
        raise ApiError("version_conflict", str(conflict)) from None
    except NotReplicated as short:
        detail = f"{short}: not acknowledged; send it again (the same expected_version)"
        raise ApiError("not_replicated", detail) from None


# What any POST may answer besides its own refusals: a bad or reused Idempotency-Key
# (400, 422), its first request still running (409), a body too large or not JSON.
POSTED = (400, 409, 413, 415, 422)


def errors(blp, *statuses):
    """Document the problem+json answers an endpoint may give, by HTTP status. Only the
    documentation: flask-smorest's `alt_response` would also wrap the view once per
    status, a layer every request runs through; the view keeps the docs they made."""

    def decorate(view):
        documented = view
        for status in sorted(set(statuses)):
            documented = blp.alt_response(status, response=HTTPStatus(status).name)(documented)
        view._apidoc = documented._apidoc
        return view

    return decorate


def doc_only(decorator):
    """A flask-smorest decorator (`blp.response`, `blp.alt_response`, `blp.doc`) for its
    documentation only: each wraps the view in a layer every request runs through, which
    does nothing for a view that answers a Response itself."""

    def decorate(view):
        view._apidoc = decorator(view)._apidoc
        return view

    return decorate


def query_doc(blp, schema):
    """Document `schema` as an endpoint's query parameters, as `@blp.arguments(schema,
    location="query")` does, but only the documentation: its webargs wrapper would parse
    the query on every request; the route reads it itself (play.view_query)."""

    def decorate(view):
        documented = blp.arguments(schema, location="query", error_status_code=400)(view)
        view._apidoc = documented._apidoc
        return view

    return decorate
