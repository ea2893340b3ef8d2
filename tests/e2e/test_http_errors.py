"""Requests the server refuses before the app sees them are problem+json too; and what
the server's connection handling keeps (services/gunicorn_worker.py)."""

import socket

import pytest

pytestmark = pytest.mark.e2e


GET = b"GET /v1/games HTTP/1.1\r\nHost: x\r\n"  # answers 200 when it is let in


def raw_request(base, request):
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(request)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return head.decode("latin1"), body


@pytest.mark.parametrize(
    ("request_bytes", "status", "code"),
    [
        (b"GET /v1/games?" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "uri_too_long"),
        (
            b"GET /v1/games HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 9000 + b"\r\n\r\n",
            431,
            "headers_too_large",
        ),
        (
            b"GET /v1/games HTTP/1.1\r\n" + b"X-H: v\r\n" * 101 + b"\r\n",
            431,
            "headers_too_large",
        ),
        (b"BR@KEN / HTTP/1.1\r\n\r\n", 400, "bad_request"),
        (b"get /v1/games HTTP/1.1\r\nHost: x\r\n\r\n", 400, "bad_request"),
        # What a proxy in front could read otherwise (request smuggling), or a lax parser
        # would take: each refused, as gunicorn's parser does.
        (
            GET + b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            400,
            "bad_request",
        ),
        (GET + b"Transfer-Encoding: gzip\r\nContent-Length: 2\r\n\r\n{}", 400, "bad_request"),
        (GET + b"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{} ", 400, "bad_request"),
        (b"GET /v1/games HTTP/1.1\nHost: x\n\n", 400, "bad_request"),
        (b"GET /v1/games HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n", 400, "bad_request"),
        (b"GET /v1/games HTTP/1.1\r\nHost : x\r\n\r\n", 400, "bad_request"),
        (b"GET /v1/games\r\n\r\n", 400, "bad_request"),
    ],
    ids=[
        "uri-too-long",
        "header-too-large",
        "too-many-headers",
        "malformed",
        "lower-case",
        "length-and-chunked",
        "unknown-transfer-coding",
        "two-lengths",
        "bare-lf",
        "folded-header",
        "space-before-colon",
        "http-0.9",
    ],
)
def test_the_servers_own_refusals_are_problem_json(stack, request_bytes, status, code):
    import json

    head, body = raw_request(stack.base, request_bytes)
    assert head.startswith(f"HTTP/1.1 {status} "), head
    assert "Content-Type: application/problem+json" in head
    problem = json.loads(body)
    assert problem["code"] == code and problem["status"] == status


def test_a_connection_that_sends_nothing_is_closed(stack):
    host, port = stack.base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        assert connection.recv(100) == b""  # closed by the server (keepalive: 2 s)


def test_a_long_poll_outlasts_the_idle_limit_on_a_kept_connection(stack):
    """The idle limit is for a connection waiting to send its request, not for the app's
    own wait: a 3 s long-poll runs out (304) and the connection serves the next one."""
    import requests

    game = stack.create([{"name": "ana"}, {"name": "bo"}], seed=4)
    headers = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    url = f"{stack.base}/v1/games/{game['id']}/view"
    with requests.Session() as http:
        version = http.get(url, headers=headers, timeout=10).json()["version"]
        ran_out = http.get(f"{url}?after={version}&wait=3", headers=headers, timeout=10)
        assert ran_out.status_code == 304
        assert http.get(url, headers=headers, timeout=10).json()["version"] == version


def test_a_body_that_pauses_past_the_idle_limit_is_still_read(stack):
    """Once its request line and headers are in, a request is the app's: reading its
    body has no time limit (as under gunicorn's own HTTP code)."""
    import json
    import time

    body = json.dumps({"game": "alebrijes", "seats": [{"name": "ana"}, {"name": "bo"}]})
    head = (
        "POST /v1/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    host, port = stack.base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(head.encode() + body[:10].encode())
        time.sleep(3)  # past keepalive (2 s)
        connection.sendall(body[10:].encode())
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 201 "), answer[:200]
