"""One error shape for every failure: application/problem+json (RFC 9457) with a
stable machine-readable `code`. Clients branch on `code`, never on `title` or `detail`."""

import logging

import orjson
import redis
from flask import Response, g, has_request_context

log = logging.getLogger(__name__)

PROBLEM = "application/problem+json"

# code -> HTTP status. Codes are a public contract: add, never rename.
STATUS = {
    "bad_request": 400,
    "bad_command": 400,
    "bad_options": 400,
    "bad_webhook_url": 400,
    "unauthorized": 401,
    "forbidden": 403,
    "not_found": 404,
    "unknown_game": 404,
    "unknown_seat": 404,
    "unknown_player": 404,
    "unknown_variant": 404,
    "bad_name": 400,
    "bad_cursor": 400,
    "rated_needs_players": 400,
    "identity_linked": 409,
    "bad_player_count": 400,
    "unknown_ticket": 404,
    "too_many_tickets": 409,
    "duplicate_ticket": 409,
    "ticket_matched": 409,
    "ticket_cancelled": 409,
    "ticket_expired": 409,
    "not_invited": 409,
    "method_not_allowed": 405,
    "not_your_turn": 409,
    "version_conflict": 409,
    "seat_taken": 409,
    "game_not_waiting": 409,
    "game_not_active": 409,
    "seat_resigned": 409,
    "seat_not_away": 409,
    "idempotency_key_in_use": 409,
    "idempotency_answer_withheld": 409,
    "game_not_finished": 409,
    "payload_too_large": 413,
    "uri_too_long": 414,
    "unsupported_media_type": 415,
    "headers_too_large": 431,
    "illegal_move": 422,
    "idempotency_key_reused": 422,
    "bad_log": 422,
    "bad_version": 422,
    "rate_limited": 429,
    "internal_error": 500,
    "not_replicated": 503,
    "store_unavailable": 503,
    "sockets_full": 503,
}

_HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    414: "uri_too_long",
    415: "unsupported_media_type",
    431: "headers_too_large",
    422: "bad_request",
    429: "rate_limited",
}


class ApiError(Exception):
    """A refusal with a stable code; `errors` details field-level problems."""

    def __init__(self, code, detail, errors=None, headers=None):
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.errors = errors
        self.headers = headers


def problem_bytes(code, detail, errors=None, request_id=None):
    """The problem+json body of an error with a stable `code`; `request_id` defaults to
    the Flask request's."""
    body = problem_fields(code, detail, errors, request_id)
    return orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS)  # list errors use int keys


def problem_fields(code, detail, errors=None, request_id=None):
    """The problem+json fields of an error (the WebSocket's `error` message carries
    them too); `request_id` defaults to the Flask request's."""
    body = {
        "type": f"about:blank#{code}",
        "title": code.replace("_", " "),
        "status": STATUS.get(code, 400),
        "code": code,
        "detail": detail,
    }
    if errors:
        body["errors"] = errors
    if request_id is None and has_request_context():
        request_id = g.get("request_id")
    if request_id:
        body["request_id"] = request_id  # quote it when reporting a problem
    return body


def problem(code, detail, errors=None, headers=None):
    raw = problem_bytes(code, detail, errors)
    return Response(raw, STATUS.get(code, 400), headers=headers, mimetype=PROBLEM)


def handle_api_error(error):
    return problem(error.code, error.detail, error.errors, error.headers)


def handle_http_exception(error):
    """Werkzeug's and webargs' exceptions (bad JSON, validation, 404, 405, 413...)."""
    if error.code >= 500:
        return handle_unexpected(error)
    code = _HTTP_CODES.get(error.code, "bad_request")
    data = getattr(error, "data", None) or {}
    errors = data.get("messages") or data.get("errors")
    if isinstance(errors, dict) and set(errors) == {"json"}:  # webargs nests by location
        errors = errors["json"]
    detail = "the request body is not valid" if errors else error.description
    headers = {"Allow": ", ".join(error.valid_methods)} if code == "method_not_allowed" else None
    return problem(code, detail, errors if isinstance(errors, dict) else None, headers)


def handle_unexpected(error):
    code, detail, headers = unexpected(error)
    return problem(code, detail, headers=headers)


def unexpected(error, extra=None):
    """(code, detail, headers) of an answer to an exception no route expected, logged.
    Redis out of reach (restarting, failing over) is a 503 to retry after a second, not a
    server fault: a command it interrupted may have landed, and sent again with the same
    expected_version it is found there, not applied twice (shared/store.py)."""
    if _store_down(error):
        log.warning("the event store is out of reach: %s", error, extra=extra)
        return "store_unavailable", STORE_DOWN_DETAIL, {"Retry-After": "1"}
    log.exception("unexpected error", exc_info=error, extra=extra)
    return "internal_error", FAILED, None


def _store_down(error):
    """Whether `error`, or what it wraps (Flask's InternalServerError, a limits
    StorageError, a cause), is Redis out of reach."""
    seen = 0
    while error is not None and seen < 8:
        if isinstance(error, STORE_DOWN):
            return True
        wrapped = getattr(error, "original_exception", None) or getattr(
            error, "storage_error", None
        )
        error = wrapped or error.__cause__ or error.__context__
        seen += 1
    return False


FAILED = "the server failed; the request may be retried"
STORE_DOWN = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
STORE_DOWN_DETAIL = "the event store is out of reach for a moment; send it again in a second"
