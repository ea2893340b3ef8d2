"""Whether the client of a waiting request has gone away.

A long-poll or an event stream holds one of its address's places (services/api/
limits.py) while it waits; a client that closes its connection meanwhile must give the
place back at once, not when the wait runs out (up to 35 s) or the next write fails:
a phone that reconnects often would lock its own address out. gunicorn hands the
request's socket over in the WSGI environ (`gunicorn.socket`); while a request waits,
the client sends nothing on it, so a socket that polls readable holds the end of the
connection (a read of nothing) or its reset, unless the client sent a next request
ahead (bytes to read: still there). The kernel's own `poll(0)` answers without
blocking, as in services/api/connections.py.
"""

import select
import socket

try:
    from gevent import monkey

    _poll = monkey.get_original("select", "poll")  # the kernel's, not gevent's
except ImportError:  # pragma: no cover - gevent is a dependency of the API
    _poll = select.poll

_ENDED = select.POLLHUP | select.POLLERR | select.POLLNVAL


def watch(environ):
    """A function answering whether the request's client has gone away; always False
    where the server hands over no socket (a test client)."""
    client = environ.get("gunicorn.socket")
    if client is None:
        return _never
    return lambda: _gone(client)


def _never():
    return False


def _gone(client):
    try:
        descriptor = client.fileno()
        if descriptor < 0:
            return True
        poller = _poll()
        poller.register(descriptor, select.POLLIN | select.POLLPRI)
        found = poller.poll(0)
        if not found:
            return False
        if found[0][1] & _ENDED:
            return True
        return client.recv(1, socket.MSG_PEEK) == b""
    except OSError:  # reset by the peer, or closed under us
        return True
