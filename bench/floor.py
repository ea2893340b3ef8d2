"""The bare floor: what Flask under gunicorn and one Redis round trip cost, and no more.

Same gunicorn settings as the API (deploy/gunicorn.conf.py: gevent workers, one per
core), its own embedded Redis. A move of the floor is one GET of a ~2 KB stored value
(a seat's view) and one POST doing one XADD (a command): the least any durable move path
built from these parts can do. `/hello` answers without Redis, to find the ceiling of the
load generator.

    .venv/bin/python -m bench.floor --port 18400      # serves until Ctrl-C
"""

import argparse
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import orjson
import redis
from flask import Flask, Response, request

CHECKOUT = Path(__file__).resolve().parents[1]
VIEW_KEY = "floor:view"
VIEW = orjson.dumps({"state": {"hand": ["G1"] * 40, "padding": "x" * 1700}, "version": 1})


def create_app(redis_url=None):
    """The floor's three routes over one Redis (FLOOR_REDIS_URL by default)."""
    app = Flask("floor")
    client = redis.Redis.from_url(redis_url or os.environ["FLOOR_REDIS_URL"])
    client.set(VIEW_KEY, VIEW)

    @app.get("/hello")
    def hello():
        return Response(b'{"hello": "floor"}', mimetype="application/json")

    @app.get("/v1/floor/<game_id>/view")
    def view(game_id):
        return Response(client.get(VIEW_KEY), mimetype="application/json")

    @app.post("/v1/floor/<game_id>/commands")
    def command(game_id):
        body = request.get_data()
        entry_id = client.xadd(f"floor:{{{game_id}}}:events", {"e": body})
        return Response(orjson.dumps({"id": entry_id.decode()}), mimetype="application/json")

    return app


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=18400)
    args = parser.parse_args()
    from services import embedded_redis

    with tempfile.TemporaryDirectory() as directory:
        redis_process, url = embedded_redis.start(Path(directory))
        env = dict(os.environ, FLOOR_REDIS_URL=url)
        # The API's own gunicorn settings, only another app.
        gunicorn = [sys.executable, "-m", "gunicorn", "--config", "deploy/gunicorn.conf.py"]
        command = [*gunicorn, "--bind", f"127.0.0.1:{args.port}", "bench.floor:create_app()"]
        server = subprocess.Popen(command, cwd=CHECKOUT, env=env)
        signal.signal(signal.SIGTERM, lambda *_: server.terminate())
        try:
            server.wait()
        except KeyboardInterrupt:
            server.terminate()
            server.wait(10)
        finally:
            redis_process.terminate()
            redis_process.wait(10)


if __name__ == "__main__":
    main()
