"""The API's side of operations: a request id on every request, one access log line
and the request metrics per answer, the count of open long-polls and streams, and
`/healthz`, `/readyz`, `/metrics` (outside the documented API, /v1)."""

import logging
import os
import re
import time

import orjson
from flask import Blueprint, Response, current_app, g, request

from services.ops import metrics
from services.ops.logs import ACCESS

access = logging.getLogger(ACCESS)

blp = Blueprint("ops", __name__)

_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
QUIET = ("/healthz", "/readyz", "/metrics")  # probes and scrapes: no access line


def install(app):
    """Hook request ids, access logs and metrics into `app`; add the ops routes."""
    app.before_request(_begin)
    app.after_request(_end)
    app.register_blueprint(blp)


def _begin():
    g.request_id = request_id_of(request.headers.get("X-Request-ID", ""))
    g.started = time.perf_counter()


def _end(response):
    req = request._get_current_object()
    request_id = g.get("request_id")
    response.headers["X-Request-ID"] = request_id or ""
    seconds = time.perf_counter() - g.get("started", time.perf_counter())
    route = req.url_rule.rule if req.url_rule else "unmatched"
    if response.mimetype == "text/event-stream":
        metrics.STREAMS.inc()
        response.call_on_close(metrics.STREAMS.dec)
    game_id = (req.view_args or {}).get("game_id")
    answered(
        req.method,
        req.path,
        req.full_path,
        route,
        game_id,
        request_id,
        response.status_code,
        seconds,
    )
    return response


def request_id_of(given):
    """The request id: the client's X-Request-ID when it is a sane one, else a new one
    (32 random hex digits, as uuid4().hex, at a fifth of its cost)."""
    return given if _REQUEST_ID.fullmatch(given) else os.urandom(16).hex()


def answered(method, path, full_path, route, game_id, request_id, status, seconds):
    """Count an answer in the request metrics and write its access line (one place for
    Flask's answers and services/api/fast_path.py's)."""
    metrics.request_answered(method, route, status, seconds)
    level = logging.DEBUG if path in QUIET else logging.INFO
    duration_ms = round(seconds * 1000, 2)
    access.log(
        level,
        "%s %s %s %.1fms",
        method,
        full_path.rstrip("?"),
        status,
        duration_ms,
        extra={
            "status": status,
            "duration_ms": duration_ms,
            "game_id": game_id,
            "route": route,
            # What logs.RequestContext would add, at hand here.
            "method": method,
            "path": path,
            "request_id": request_id,
        },
    )


@blp.get("/healthz")
def healthz():
    """The process answers."""
    return {"status": "ok"}


@blp.get("/readyz")
def readyz():
    """The deployment can play a game end to end (see services.ops.health)."""
    from services.ops import health  # rq and redis: not in gunicorn's master (gevent)

    report = health.readiness(current_app.extensions["tablestream"])
    if report["ready"]:
        return report
    body = health.not_ready(report, g.get("request_id"))
    return Response(orjson.dumps(body), 503, mimetype="application/problem+json")


@blp.get("/metrics")
def scrape():
    body, content_type = metrics.exposition()
    return Response(body, 200, content_type=content_type)
