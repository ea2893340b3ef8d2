"""The API's Redis connections: the pool's check of an idle connection, without gevent.

Before each command redis-py asks the connection it takes from the pool whether it
holds unread data (a reply left behind, or a closed socket), with `poll(0)` through
the `select` module. Under gunicorn's gevent worker that module is gevent's, whose
`poll` starts and stops a watcher on the hub for a check that never waits, a large
share of a GET's cost in redis-py. The kernel's own `poll(0)` answers the same question without
blocking; when it finds something to read, redis-py's own check runs as before and
decides (a pending reply, a closed socket, TLS bytes).
"""

import select

import redis

from services import deps as deps_module
from shared.config import Config

try:
    from gevent import monkey

    _poll = monkey.get_original("select", "poll")  # the unpatched one
except ImportError:  # pragma: no cover - gevent is a dependency of the API
    _poll = select.poll


def socket_and_buffer(connection):
    """(the socket, hiredis's reader of what it has received) of a redis-py connection,
    either None while it has none. redis-py has no public accessor for them: this is
    the one place that reads its internals, and tests/integration/
    test_api_connections.py fails if a release of redis-py moves them."""
    parser = getattr(connection, "_parser", None)
    return getattr(connection, "_sock", None), getattr(parser, "_reader", None)


class QuickCheck:
    """A redis-py connection mixin: `can_read(0)` by the kernel's poll first."""

    def can_read(self, timeout=0):
        sock, reader = socket_and_buffer(self)
        # TLS may hold decrypted bytes above the socket (`pending`): the library decides.
        quick = timeout == 0 and sock is not None and reader is not None
        if quick and not hasattr(sock, "pending"):
            if not reader.has_data():
                poller = _poll()
                poller.register(sock, select.POLLIN)  # errors and hang-ups always count
                if not poller.poll(0):
                    return False
        return super().can_read(timeout)


def quick_checks(client):
    """Make the connections `client`'s pool opens from now on check with QuickCheck.
    Call it before the first command: connections already open keep their class. A
    cluster client is left as it is."""
    pool = getattr(client, "connection_pool", None)
    if pool is None or not isinstance(pool, redis.ConnectionPool):
        return client
    base = pool.connection_class
    if not issubclass(base, QuickCheck):
        pool.connection_class = type(f"Quick{base.__name__}", (QuickCheck, base), {})
    return client


def build_deps(config=None):
    """The API process's dependencies (services.deps.build), on quick-check connections."""
    config = config or Config.from_env()
    client = deps_module.connect(config.redis_url, config.redis_cluster)
    return deps_module.build(config, client=quick_checks(client))
