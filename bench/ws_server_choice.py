"""Which WebSocket server: flask-sock on the API's gevent gunicorn worker, or a separate
asyncio process with the `websockets` library.

Both servers do the same small job per frame, shaped like a command: parse the JSON,
one Redis GET of a ~2 KB value (a stored view), send it back as JSON. One process each.
The same asyncio client (the `websockets` library) drives both:

1. round trips: C connections each send a frame and wait for its answer, for S
   seconds; round trips a second, p50/p99, and the server's CPU per round trip;
2. idle sockets: N connections opened and held; the server's RSS growth per socket.

    .venv/bin/python -m bench.ws_server_choice [--seconds 5] [--clients 50] [--idle 2000]

Bounded: a few seconds per server and part, one server process at a time.
"""

import argparse
import asyncio
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import orjson
import psutil
import websockets

from bench.stats import percentile
from services.embedded_redis import free_port

ROOT = Path(__file__).resolve().parents[1]
VIEW = orjson.dumps({"game": "alebrijes", "state": {"hand": ["x" * 8] * 200}})


def flask_app():
    """The flask-sock server, as gunicorn loads it (`bench.ws_server_choice:flask_app()`)."""
    import redis
    from flask import Flask
    from flask_sock import Sock

    app = Flask(__name__)
    sock = Sock(app)
    client = redis.Redis.from_url(os.environ["BENCH_REDIS"])

    @sock.route("/ws")
    def ws(socket):
        while True:
            message = orjson.loads(socket.receive())
            raw = client.get("view")
            socket.send(orjson.dumps({"ref": message["ref"], "view": orjson.loads(raw)}).decode())

    return app


async def serve_websockets(port):
    """The `websockets` asyncio server, with redis-py's asyncio client."""
    import redis.asyncio

    client = redis.asyncio.Redis.from_url(os.environ["BENCH_REDIS"])

    async def handler(socket):
        async for frame in socket:
            message = orjson.loads(frame)
            raw = await client.get("view")
            await socket.send(
                orjson.dumps({"ref": message["ref"], "view": orjson.loads(raw)}).decode()
            )

    async with websockets.serve(handler, "127.0.0.1", port, max_queue=16):
        await asyncio.Future()


def start(kind, port, env):
    if kind == "flask-sock":
        command = [
            sys.executable, "-m", "gunicorn", "-w", "1", "-k", "gevent",
            "--worker-connections", "30000", "--bind", f"127.0.0.1:{port}",
            "--log-level", "warning", "bench.ws_server_choice:flask_app()",
        ]  # fmt: skip
    else:
        command = [sys.executable, "-m", "bench.ws_server_choice", "--serve", str(port)]
    process = subprocess.Popen(command, cwd=ROOT, env=env)
    for _ in range(100):
        try:
            asyncio.run(_probe(port))
            break
        except OSError:
            time.sleep(0.1)
    procs = psutil.Process(process.pid)
    worker = (procs.children() or [procs])[0]  # gunicorn's one worker; else the server
    return process, worker


async def _probe(port):
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws"):
        pass


async def round_trips(port, clients, seconds):
    stop = time.monotonic() + seconds
    delays = []

    async def one():
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws") as socket:
            ref = 0
            while time.monotonic() < stop:
                ref += 1
                sent = time.perf_counter()
                await socket.send(orjson.dumps({"type": "command", "ref": ref}).decode())
                await socket.recv()
                delays.append(time.perf_counter() - sent)

    await asyncio.gather(*(one() for _ in range(clients)))
    return delays


async def idle(port, count, worker):
    before = worker.memory_info().rss
    sockets = []
    for _ in range(count):
        sockets.append(await websockets.connect(f"ws://127.0.0.1:{port}/ws", ping_interval=None))
    await asyncio.sleep(1.0)
    after = worker.memory_info().rss
    await asyncio.gather(*(s.close() for s in sockets))
    return (after - before) / count


def measure(kind, args, env):
    port = free_port()
    process, worker = start(kind, port, env)
    try:
        cpu = worker.cpu_times()
        delays = asyncio.run(round_trips(port, args.clients, args.seconds))
        spent = sum(worker.cpu_times()[:2]) - sum(cpu[:2])
        per_socket = asyncio.run(idle(port, args.idle, worker))
    finally:
        process.terminate()
        process.wait(10)
    delays.sort()
    return {
        "server": kind,
        "round_trips_per_s": len(delays) / args.seconds,
        "p50_ms": 1000 * statistics.median(delays),
        "p99_ms": 1000 * percentile(delays, 0.99),
        "cpu_us_per_round_trip": 1e6 * spent / len(delays),
        "rss_kb_per_idle_socket": per_socket / 1024,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--idle", type=int, default=2000)
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve_websockets(args.serve))
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    args.idle = min(args.idle, hard // 2 - 100)
    import tempfile

    from services import embedded_redis

    directory = tempfile.TemporaryDirectory(prefix="ws-choice-")
    server, url = embedded_redis.start(Path(directory.name))
    try:
        import redis

        redis.Redis.from_url(url).set("view", VIEW)
        env = {**os.environ, "BENCH_REDIS": url}
        print(f"load average before: {os.getloadavg()}")
        for kind in ("flask-sock", "websockets"):
            row = measure(kind, args, env)
            print(" ".join(f"{k}={v:.1f}" if isinstance(v, float) else f"{k}={v}"
                           for k, v in row.items()), flush=True)  # fmt: skip
        print(f"load average after: {os.getloadavg()}")
    finally:
        server.terminate()
        server.wait(10)
        directory.cleanup()


if __name__ == "__main__":
    main()
