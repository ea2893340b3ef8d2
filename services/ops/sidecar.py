"""The small HTTP server a projector or a worker runs beside its loop: `/metrics`,
`/healthz` and `/readyz`, on `METRICS_PORT` (0 or unset: none) and `METRICS_HOST`
(127.0.0.1; a container sets 0.0.0.0)."""

import json
import logging
import threading
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from services.ops import health, metrics
from shared.config import Config

log = logging.getLogger(__name__)

PROBLEM = "application/problem+json"


def app(d, alive=lambda: True, collectors=()):
    """The WSGI app: `alive()` answers /healthz; /readyz runs health.readiness(d);
    /metrics adds `collectors` (scrape-time gauges) to this process's metrics."""

    def wsgi(environ, start_response):
        path = environ.get("PATH_INFO", "")
        if path == "/metrics":
            body, content_type = metrics.exposition(*collectors)
            return _answer(start_response, 200, body, content_type)
        if path == "/healthz":
            if alive():
                return _json(start_response, 200, {"status": "ok"})
            return _json(start_response, 503, _stuck(), PROBLEM)
        if path == "/readyz":
            report = health.readiness(d)
            if report["ready"]:
                return _json(start_response, 200, report)
            return _json(start_response, 503, health.not_ready(report), PROBLEM)
        return _json(start_response, 404, {"code": "not_found", "status": 404}, PROBLEM)

    return wsgi


def _stuck():
    return {
        "type": "about:blank#not_alive",
        "title": "not alive",
        "status": 503,
        "code": "not_alive",
        "detail": "the process's loop has not gone round lately",
    }


def _json(start_response, status, body, content_type="application/json"):
    return _answer(start_response, status, json.dumps(body).encode(), content_type)


def _answer(start_response, status, body, content_type):
    reason = {200: "OK", 404: "Not Found", 503: "Service Unavailable"}[status]
    start_response(f"{status} {reason}", [("Content-Type", content_type)])
    return [body]


class _Quiet(WSGIRequestHandler):
    def log_message(self, *args):  # scrapes and probes every few seconds: not news
        pass


def serve(d, alive=lambda: True, collectors=(), port=None, host=None):
    """Serve app(...) in a daemon thread when METRICS_PORT (or `port`) is set; returns
    the server, or None."""
    config = Config.from_env()
    port = int(port if port is not None else config.metrics_port or 0)
    if not port:
        return None
    host = host or config.metrics_host
    server = make_server(
        host, port, app(d, alive, collectors), server_class=_Threaded, handler_class=_Quiet
    )
    threading.Thread(target=server.serve_forever, name="sidecar", daemon=True).start()
    log.info("metrics and health on http://%s:%d", host, port)
    return server


class _Threaded(ThreadingMixIn, WSGIServer):
    """One thread a request, so a slow readiness check never holds up a scrape."""

    daemon_threads = True
