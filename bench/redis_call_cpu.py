"""CPU of one round trip to Redis, client side, by the path it takes: a raw socket
(hiredis packs and parses), a redis-py Connection's send_packed_command + read_response
(what shared/link.py does), and redis-py's client and pipeline. A fresh embedded Redis;
`time.process_time` over 2,000 round trips, three times each.

    .venv/bin/python bench/redis_call_cpu.py
"""

import os
import socket
import sys
import tempfile
import time
from pathlib import Path

import hiredis
import redis

sys.path.insert(0, os.getcwd())

from services import embedded_redis  # noqa: E402

ROUND_TRIPS = 2000


def main():
    with tempfile.TemporaryDirectory() as directory:
        process, url = embedded_redis.start(Path(directory), appendfsync="no")
        try:
            measure(url)
        finally:
            process.kill()
            process.wait()


def measure(url):
    client = redis.Redis.from_url(url)
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    raw_socket = socket.create_connection(("127.0.0.1", port))
    raw_socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    connection = client.connection_pool.get_connection()

    def raw(n):
        raw_socket.sendall(b"".join(hiredis.pack_command(("GET", "x")) for _ in range(n)))
        reader, answered = hiredis.Reader(), 0
        while answered < n:
            reader.feed(raw_socket.recv(65536))
            while reader.gets() is not False:
                answered += 1

    def on_connection(n):
        connection.send_packed_command([hiredis.pack_command(("GET", "x"))] * n)
        for _ in range(n):
            connection.read_response()

    def pipeline(n):
        pipe = client.pipeline(transaction=False)
        for _ in range(n):
            pipe.get("x")
        pipe.execute()

    paths = [
        ("raw socket, 1 GET", lambda: raw(1)),
        ("raw socket, 10 GETs", lambda: raw(10)),
        ("redis-py Connection, 1 GET", lambda: on_connection(1)),
        ("redis-py Connection, 10 GETs", lambda: on_connection(10)),
        ("redis-py client.get", lambda: client.get("x")),
        ("redis-py pipeline, 1 GET", lambda: pipeline(1)),
        ("redis-py pipeline, 10 GETs", lambda: pipeline(10)),
    ]
    for label, round_trip in paths:
        runs = []
        for _ in range(3):
            start = time.process_time()
            for _ in range(ROUND_TRIPS):
                round_trip()
            runs.append(1e6 * (time.process_time() - start) / ROUND_TRIPS)
        print(f"{label}: {' / '.join(f'{us:.0f}' for us in runs)} us of CPU a round trip")


if __name__ == "__main__":
    main()
