"""Errors that gunicorn answers before the app sees the request are problem+json too."""

import socket

import pytest

pytestmark = pytest.mark.e2e


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
        (b"BR@KEN / HTTP/1.1\r\n\r\n", 400, "bad_request"),
    ],
    ids=["uri-too-long", "header-too-large", "malformed"],
)
def test_gunicorns_own_errors_are_problem_json(stack, request_bytes, status, code):
    import json

    head, body = raw_request(stack.base, request_bytes)
    assert head.startswith(f"HTTP/1.1 {status} "), head
    assert "Content-Type: application/problem+json" in head
    problem = json.loads(body)
    assert problem["code"] == code and problem["status"] == status
