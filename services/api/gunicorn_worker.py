"""gunicorn's gevent worker with gevent's own HTTP handler (pywsgi), answering the
requests it refuses (a request line or headers over gunicorn's limits, a malformed
request) as application/problem+json with a stable code, like every other error of the
API; and gunicorn's logger without its access log.

gunicorn keeps what it is for: the master, the workers' lives, graceful stops, the
settings. pywsgi parses the requests and writes the answers: the same Flask app costs
11-13% less server CPU a request (the floor) under it than under gunicorn's own HTTP code
(docs/performance.md, "The HTTP server layer"). What gunicorn's handler did that pywsgi
does not is done here: its limits (`limit_request_line`, `limit_request_fields`,
`limit_request_field_size`), its method check, and closing a connection idle for
`keepalive` seconds before a request.
"""

import re
from http.client import HTTPException

from gevent import GreenletExit
from gevent.pywsgi import MAX_REQUEST_LINE
from gunicorn.glogging import Logger
from gunicorn.workers.ggevent import GeventPyWSGIWorker, PyWSGIHandler

from services.api.errors import STATUS, problem_bytes

# gunicorn's rule without permit_unconventional_http_method: 3-20 upper-case tchars.
METHOD = re.compile(r"[A-Z0-9!#$%&'*+.^_`|~-]{3,20}")
LONGEST_LINE = 8190  # gunicorn's limit when a setting is 0 ("no limit")


class Refused(ValueError):
    """A request answered before the app sees it: a code of services.api.errors."""

    def __init__(self, code, detail):
        super().__init__(detail)
        self.code = code


def answer(code, detail):
    """A whole HTTP answer, head and problem+json body, that closes the connection."""
    body = problem_bytes(code, detail)
    head = (
        f"HTTP/1.1 {STATUS[code]} {code.replace('_', ' ')}\r\nConnection: close\r\n"
        f"Content-Type: application/problem+json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin1") + body


class ProblemHandler(PyWSGIHandler):
    """One connection. The limits are gunicorn's settings (ProblemWorker sets them)."""

    line_limit = 4094
    fields_limit = 100
    field_limit = 8190
    idle = 2.0  # seconds a connection may wait before (each of) its request(s)
    log = None  # gunicorn's error logger

    def handle(self):
        self.socket.settimeout(self.idle)
        super().handle()

    def handle_one_response(self):
        # The app's own waits (a long-poll, an event stream) are not idleness.
        self.socket.settimeout(None)
        try:
            super().handle_one_response()
        finally:
            self.socket.settimeout(self.idle)

    def read_requestline(self):
        # Past the limit by a byte or more: read_request refuses it (pywsgi's own
        # answer to a line of MAX_REQUEST_LINE would be plain text).
        most = min(self.line_limit + 3, MAX_REQUEST_LINE - 1)
        return self.rfile.readline(most).decode("latin-1")

    def read_request(self, raw_requestline):
        if len(raw_requestline.rstrip("\r\n")) > self.line_limit:
            raise Refused("uri_too_long", f"the request line is over {self.line_limit} bytes")
        if not METHOD.fullmatch(raw_requestline.split(" ", 1)[0]):
            raise Refused("bad_request", "invalid request method")
        try:
            super().read_request(raw_requestline)
        except HTTPException as error:  # over the standard library's 100 headers
            raise Refused("headers_too_large", str(error)) from error
        except ValueError:
            if getattr(self.headers, "status", "") == "Line too long":
                raise Refused("headers_too_large", "a header line is too long") from None
            raise
        if len(self.headers) > self.fields_limit:
            raise Refused("headers_too_large", f"more than {self.fields_limit} headers")
        if any(len(k) + len(v) + 2 > self.field_limit for k, v in self.headers.items()):
            raise Refused("headers_too_large", f"a header is over {self.field_limit} bytes")
        return True

    def _handle_client_error(self, error):
        """pywsgi's hook for a request it will not run: our answer (pywsgi sends it
        and closes), or none for a client that went quiet or away."""
        if isinstance(error, OSError) and not isinstance(error, Refused):
            return None  # idle past `keepalive`, or gone
        code = error.code if isinstance(error, Refused) else "bad_request"
        detail = str(error) if isinstance(error, Refused) else "malformed request"
        self.log.warning("invalid request from %s: %s", self.client_address[0], error)
        return str(STATUS[code]), answer(code, detail)

    def _send_error_response_if_possible(self, error_code):
        """A request that failed once pywsgi was running it (a malformed chunked
        body: 400; a server fault: 500), answered as problem+json if nothing of its
        answer was sent yet."""
        self.close_connection = True
        if self.response_length or self.headers_sent:
            return
        if error_code == 400:
            code, detail = "bad_request", "malformed request body"
        else:
            code, detail = "internal_error", "the server failed; the request may be retried"
        try:
            self.socket.sendall(answer(code, detail))
        except OSError:
            pass

    def handle_error(self, kind, error, traceback):
        if not issubclass(kind, GreenletExit):
            self.log.error("error handling a request", exc_info=(kind, error, traceback))
        self._send_error_response_if_possible(500)

    def log_request(self):
        """None: the app writes the access line (services/ops/web.py)."""


class ProblemWorker(GeventPyWSGIWorker):
    wsgi_handler = ProblemHandler

    def run(self):
        cfg = self.cfg
        settings = {
            "line_limit": cfg.limit_request_line or LONGEST_LINE,
            "fields_limit": cfg.limit_request_fields or 32768,
            "field_limit": cfg.limit_request_field_size or LONGEST_LINE,
            "idle": cfg.keepalive or None,
            "log": self.log,
        }
        self.wsgi_handler = type("ProblemHandler", (ProblemHandler,), settings)
        super().run()


class NoAccessLog(Logger):
    """gunicorn's logger, its access log off. The app writes the access line itself
    (services/ops/web.py, with the request id and game id); with a logging config
    set, gunicorn would build its own line's fields on every request only for its
    `gunicorn.access` logger to drop them."""

    def _compute_access_log_enabled(self):
        return False
