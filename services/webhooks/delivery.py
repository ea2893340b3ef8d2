"""One delivery attempt: POST a signed body to a webhook URL, connecting to an address
checked just now, with a time limit and a bounded read of the answer. Redirects are
not followed (a redirect could point anywhere).

The time limit is for the whole attempt: a socket timeout alone bounds each read, and a
receiver dripping one byte at a time would hold the worker far longer, so a timer
shuts the connection down when the attempt's time is up.
"""

import http.client
import socket
import ssl
import threading
from dataclasses import dataclass

from services.webhooks import urls
from services.webhooks.settings import MAX_RESPONSE


@dataclass(frozen=True)
class Outcome:
    delivered: bool
    retry: bool  # worth trying again later: a timeout, a connection error, 429 or 5xx
    detail: str


class _PinnedHTTP(http.client.HTTPConnection):
    """HTTP to a checked address, with the URL's host in the Host header."""

    def __init__(self, host, port, address, timeout):
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self):
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    """HTTPS to a checked address; the certificate must match the URL's host."""

    def __init__(self, host, port, address, timeout):
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self.address = address

    def connect(self):
        sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


def _cut(connection, cut):
    """The attempt's time is up: wake a blocked read with an end of stream."""
    cut.set()
    sock = connection.sock
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def post(url, body, headers, settings, resolver=socket.getaddrinfo):
    """POST `body` (bytes) to `url` once. Returns an Outcome; never raises for the
    receiver's or the network's failures."""
    try:
        target, addresses = urls.resolve(url, settings.allow_http, settings.allow_private, resolver)
    except urls.RefusedUrl as refused:
        return Outcome(False, False, f"refused: {refused}")
    kind = _PinnedHTTPS if target.scheme == "https" else _PinnedHTTP
    connection = kind(target.host, target.port, addresses[0], settings.timeout_seconds)
    cut = threading.Event()
    time_up = threading.Timer(settings.timeout_seconds, _cut, (connection, cut))
    time_up.start()
    try:
        connection.request("POST", target.path, body=body, headers=headers)
        response = connection.getresponse()
        response.read(MAX_RESPONSE)  # bounded: a receiver's answer is not our business
        status = response.status
    except (OSError, http.client.HTTPException) as error:  # timeouts are OSErrors too
        status, failure = None, f"{type(error).__name__}: {error}"
    finally:
        time_up.cancel()
        connection.close()
    if cut.is_set():  # whatever was read, the answer did not come in time
        return Outcome(False, True, f"timed out after {settings.timeout_seconds} s")
    if status is None:
        return Outcome(False, True, failure)
    if 200 <= status < 300:
        return Outcome(True, False, f"HTTP {status}")
    return Outcome(False, status >= 500 or status == 429, f"HTTP {status}")
