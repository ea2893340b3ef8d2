"""A webhook receiver for the tests: a real HTTP server on 127.0.0.1."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Receiver:
    """A webhook receiver on 127.0.0.1. `answer(body, times_seen)` gives the status for
    each request (times_seen counts this notification id's requests, this one
    included). Records every request: (status answered, headers, body, raw body)."""

    def __init__(self, answer=lambda body, seen: 200, port=0):
        self.answer = answer
        self.requests = []
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                raw = self.rfile.read(int(self.headers["Content-Length"]))
                body = json.loads(raw)
                with receiver._lock:
                    seen = 1 + sum(1 for _, _, b, _ in receiver.requests if b["id"] == body["id"])
                    status = receiver.answer(body, seen)
                    receiver.requests.append((status, dict(self.headers), body, raw))
                self.send_response(status)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/hook"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def acknowledged(self):
        """The bodies answered with 2xx, in the order they came."""
        return [body for status, _, body, _ in self.requests if 200 <= status < 300]

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
