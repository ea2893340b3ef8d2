"""gunicorn's gevent worker, answering the errors gunicorn raises itself (a request line
or headers over its limits, a malformed request) as application/problem+json with a
stable code, like every other error of the API, instead of gunicorn's HTML page; and
gunicorn's logger without its access log.

gunicorn's master imports this module (the config names it), and every worker is a
fork of the master that monkey-patches itself with gevent before it loads the app. So
this module imports nothing of the app at its top: the app's modules (redis.asyncio and
PyJWT's JWKS client take `ssl.SSLContext` by name) must be imported after the patch,
or they keep the blocking SSLContext and gevent warns (MonkeyPatchWarning) in every
worker.
"""

import socket

from gunicorn.glogging import Logger
from gunicorn.http import errors as http_errors
from gunicorn.util import write_nonblock
from gunicorn.workers.ggevent import GeventWorker

# gunicorn's request errors -> our codes; every other parse error is a bad_request.
CODES = {
    http_errors.LimitRequestLine: "uri_too_long",
    http_errors.LimitRequestHeaders: "headers_too_large",
}
# Parse errors that are the server's fault, not the client's.
SERVER_FAULTS = (
    http_errors.InvalidResponseHeader,
    http_errors.InvalidResponseHeaderName,
    http_errors.ConfigurationProblem,
)


class ProblemWorker(GeventWorker):
    def handle_error(self, req, client, addr, exc):
        from services.api.errors import STATUS, problem_bytes  # after the patch: see above

        if isinstance(exc, http_errors.ParseException) and not isinstance(exc, SERVER_FAULTS):
            code = next((c for kind, c in CODES.items() if isinstance(exc, kind)), "bad_request")
            self.log.warning("invalid request from %s: %s", (addr or ("",))[0], exc)
            detail = str(exc) or code.replace("_", " ")
        else:
            self.log.exception("error handling a request")
            code, detail = "internal_error", "the server failed; the request may be retried"
        body = problem_bytes(code, detail)
        status = STATUS[code]
        head = (
            f"HTTP/1.1 {status} {code.replace('_', ' ')}\r\nConnection: close\r\n"
            f"Content-Type: application/problem+json\r\nContent-Length: {len(body)}\r\n\r\n"
        )
        try:
            write_nonblock(client, head.encode("latin1") + body)
            _linger(client)
        except OSError:
            self.log.debug("could not send the error answer")


def _linger(client, seconds=1.0, most=1 << 20):
    """Read what is left of the refused request before the socket closes: closing with
    unread bytes makes the kernel reset the connection, and the client may lose the
    answer it was just sent."""
    client.shutdown(socket.SHUT_WR)
    client.settimeout(seconds)
    read = 0
    while read < most and (chunk := client.recv(65536)):
        read += len(chunk)


class NoAccessLog(Logger):
    """gunicorn's logger, its access log off. The app writes the access line itself
    (services/ops/web.py, with the request id and game id); with a logging config
    set, gunicorn would build its own line's fields on every request only for its
    `gunicorn.access` logger to drop them."""

    def _compute_access_log_enabled(self):
        return False
