"""The API's pooled connections check for unread data with the kernel's poll
(services/api/connections.py) and still catch what redis-py's own check catches."""

import pytest
import redis

from services import deps as deps_module
from services.api import connections


@pytest.fixture
def client(redis_url):
    client = connections.quick_checks(deps_module.connect(redis_url))
    yield client
    client.close()


def test_redis_py_still_keeps_the_socket_and_buffer_where_the_quick_check_reads_them(client):
    """Else every check would fall back to redis-py's own (slow under gevent), unseen."""
    client.ping()
    connection = client.connection_pool.get_connection()
    try:
        sock, reader = connections.socket_and_buffer(connection)
        assert sock is not None and sock.fileno() >= 0
        assert reader is not None and reader.has_data() is False
    finally:
        client.connection_pool.release(connection)


def test_the_pool_opens_quick_connections(client):
    connection = client.connection_pool.get_connection()
    try:
        assert isinstance(connection, connections.QuickCheck)
        assert isinstance(connection, redis.Connection)
    finally:
        client.connection_pool.release(connection)


def test_an_idle_connection_has_nothing_to_read(client):
    client.ping()
    connection = client.connection_pool.get_connection()
    try:
        assert connection.can_read() is False
    finally:
        client.connection_pool.release(connection)


def test_a_reply_left_unread_is_seen(client):
    connection = client.connection_pool.get_connection()
    try:
        connection.send_command("PING")
        # The reply is on its way: the kernel's poll sees it once it lands.
        assert connection.can_read(timeout=1) is True  # the library's wait, as before
        assert connection.can_read() is True  # now in the socket: the quick check
    finally:
        client.connection_pool.release(connection)


def test_a_connection_the_server_closed_is_not_reused(client):
    client.set("quick-check", "two")
    connection = client.connection_pool.get_connection()
    own_id = _client_id(connection)
    killer = deps_module.connect(_url(client))
    try:
        killer.client_kill_filter(_id=own_id)
        client.connection_pool.release(connection)
        assert client.get("quick-check") == b"two"  # on a fresh connection
    finally:
        killer.close()


def test_a_cluster_client_is_left_alone():
    class NoPool:
        pass

    client = NoPool()
    assert connections.quick_checks(client) is client


def _client_id(connection):
    connection.send_command("CLIENT", "ID")
    return connection.read_response()


def _url(client):
    kwargs = client.connection_pool.connection_kwargs
    return f"redis://{kwargs['host']}:{kwargs['port']}/{kwargs.get('db', 0)}"


def test_the_app_built_from_the_environment_uses_them(redis_url, monkeypatch):
    from services.api import create_app

    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("RATE_LIMITS", "off")
    app = create_app()
    pool = app.extensions["tablestream"].redis.connection_pool
    assert issubclass(pool.connection_class, connections.QuickCheck)
    assert app.test_client().get("/healthz").status_code == 200
