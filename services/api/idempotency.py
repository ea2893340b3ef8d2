"""Safe retries: a POST sent with an `Idempotency-Key` header is carried out once.

The first request with a key marks it pending, runs, and stores its answer; a repeat
(a phone retrying after a timeout) gets that stored answer and writes nothing. A key
is scoped to the caller's bearer token; reusing it for a different request (another
path or body) is refused with 422 `idempotency_key_reused`, and a repeat that arrives
while the first is still running waits for it, briefly, then gets 409
`idempotency_key_in_use`.

A request without a token (creating a game, claiming a seat, forking, uploading) names
no caller: anyone may send the same key. Its key is scoped to the client address and
the request itself (so another body is simply another request: nobody learns from a
422 that a key was used), and an answer holding tokens is never sent again: a repeat
gets 409 `idempotency_answer_withheld` and writes nothing.

An answer is kept for KEEP seconds. A 5xx or a 429 is not kept (the retry runs again); a
process that dies mid-request leaves the key pending for PENDING seconds at most.
`expected_version` on a command remains the way to make a retry safe for longer.
"""

import hashlib
import time

from flask import Response, g, request
from flask_limiter.util import get_remote_address

from services.api.context import deps
from services.api.errors import ApiError
from shared import jsonutil

HEADER = "Idempotency-Key"
KEEP = 24 * 3600
PENDING = 60
WAIT = 5.0
KEPT_HEADERS = ("Content-Type", "ETag", "Location")


def install(app):
    app.before_request(_before)
    app.after_request(_after)


def _before():
    key = request.headers.get(HEADER)
    if key is None or request.method != "POST":
        return None
    if not 1 <= len(key) <= 255 or not key.isascii() or not key.isprintable():
        raise ApiError("bad_request", f"{HEADER} is 1 to 255 printable ASCII characters")
    d = deps()
    fingerprint = hashlib.sha256(f"{request.path}\n".encode() + request.get_data()).hexdigest()
    scope = request.headers.get("Authorization", "")
    if not scope:  # no caller named: the address and the request itself
        scope = f"anonymous {get_remote_address()} {fingerprint}"
    digest = hashlib.sha256(f"{scope}\n{key}".encode()).hexdigest()
    redis_key = d.keys.idempotency(digest)
    pending = jsonutil.dumps({"fingerprint": fingerprint})
    deadline = time.monotonic() + WAIT
    while not d.redis.set(redis_key, pending, nx=True, ex=PENDING):
        stored = d.redis.get(redis_key)
        if stored is None:
            continue  # it expired just now: try to take it again
        stored = jsonutil.loads(stored)
        if stored["fingerprint"] != fingerprint:
            raise ApiError(
                "idempotency_key_reused",
                f"this {HEADER} was used for another request; use a new key per request",
            )
        if "status" in stored:
            return _replay(stored)
        if time.monotonic() > deadline:
            raise ApiError("idempotency_key_in_use", "the first request with this key still runs")
        time.sleep(0.05)
    g.idempotency = (redis_key, fingerprint, scope.startswith("anonymous "))
    return None


def _after(response):
    taken = g.pop("idempotency", None)
    if taken is None:
        return response
    redis_key, fingerprint, anonymous = taken
    client = deps().redis
    if response.status_code >= 500 or response.status_code == 429 or response.is_streamed:
        client.delete(redis_key)
        return response
    stored = {
        "fingerprint": fingerprint,
        "status": response.status_code,
        "headers": {h: response.headers[h] for h in KEPT_HEADERS if h in response.headers},
        "body": response.get_data(as_text=True),
    }
    if anonymous and _holds_tokens(stored["body"]):
        stored = {"fingerprint": fingerprint, "status": response.status_code, "withheld": True}
    client.set(redis_key, jsonutil.dumps(stored), ex=KEEP)
    return response


def _holds_tokens(body):
    """Whether an answer carries a bearer token (a field named `token` or `..._token`)."""
    if "token" not in body:
        return False
    try:
        pending = [jsonutil.loads(body)]
    except jsonutil.JSONDecodeError:
        return False
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            if any(k == "token" or k.endswith("_token") for k in item):
                return True
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


def _replay(stored):
    if stored.get("withheld"):
        raise ApiError(
            "idempotency_answer_withheld",
            "the first request with this key succeeded; its answer held tokens, which are "
            "sent once only",
        )
    headers = {**stored["headers"], "Idempotent-Replayed": "true"}
    return Response(stored["body"], stored["status"], headers=headers)
