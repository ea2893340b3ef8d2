"""The service's Redis clients parse replies with hiredis (a declared dependency)."""

from redis._parsers import _HiredisParser

from services.deps import connect


def test_clients_parse_replies_with_hiredis():
    # redis-py falls back to its pure-Python parser silently when hiredis is missing
    # or too old; reading a long stream then costs about 2.6x more.
    client = connect("redis://127.0.0.1:1/0")
    connection = client.connection_pool.make_connection()
    assert isinstance(connection._parser, _HiredisParser)
