"""services/api/hangups.py: a waiting request's client that went away, seen on its socket
without reading what it may have sent ahead."""

import socket

from services.api import hangups


def test_a_client_is_gone_once_it_closes_and_not_before():
    server, client = socket.socketpair()
    gone = hangups.watch({"gunicorn.socket": server})
    try:
        assert gone() is False
        client.sendall(b"GET /next HTTP/1.1\r\n")  # a request sent ahead: still there
        assert gone() is False
        assert server.recv(100) == b"GET /next HTTP/1.1\r\n"  # nothing was taken from it
        client.close()
        assert gone() is True
    finally:
        server.close()
    assert gone() is True  # a socket closed under it


def test_without_a_socket_nobody_is_ever_gone():
    assert hangups.watch({})() is False
