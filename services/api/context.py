"""What every route uses: the app's Deps, JSON answers, and the game service's
refusals as API errors."""

from contextlib import contextmanager

from flask import Response, current_app

from services.api.errors import ApiError
from shared import jsonutil
from shared.games.base import RuleError
from shared.store import NotReplicated, VersionConflict


def deps():
    """This app's Deps (services/deps.py), made when the app was."""
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
