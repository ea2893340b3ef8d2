"""The service's Redis clients: hiredis parses replies (a declared dependency), and a
connect gives up after CONNECT_TIMEOUT while a read waits as long as it must."""

from redis._parsers import _HiredisParser

from services.deps import CONNECT_TIMEOUT, connect


def test_clients_parse_replies_with_hiredis():
    # redis-py falls back to its pure-Python parser silently when hiredis is missing
    # or too old; reading a long stream then costs about 2.6x more.
    client = connect("redis://127.0.0.1:1/0")
    connection = client.connection_pool.make_connection()
    assert isinstance(connection._parser, _HiredisParser)


def test_a_connect_is_bounded_and_a_read_is_not():
    settings = connect("redis://127.0.0.1:1/0").connection_pool.connection_kwargs
    assert settings["socket_connect_timeout"] == CONNECT_TIMEOUT
    assert settings["socket_timeout"] is None  # RQ's blocking dequeue waits 15 s
