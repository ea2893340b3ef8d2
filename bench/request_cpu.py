"""CPU a request of the human move path costs in the API's own code (Flask, our hooks,
the game service, redis-py), without the HTTP server: the app called as WSGI
in-process on a private Redis, the projector run by hand between moves so its work
is not counted. The floor's two routes (bench/floor.py) are timed the same way: the
difference is the per-request work tablestream does and the floor does not.

    .venv/bin/python -m bench.request_cpu                    # medians of 5 rounds
    .venv/bin/python -m bench.request_cpu --profile /tmp/p   # cProfile of each kind too
    .venv/bin/python -m bench.request_cpu --gevent --limits  # as gunicorn runs it, limits on
    .venv/bin/python -m bench.request_cpu --flask-only       # what the fast path saves

Prints, per request kind, the CPU microseconds a request (process time, the median of
--rounds rounds of --moves moves each).
"""

import argparse
import cProfile
import io
import os
import pstats
import statistics
import tempfile
import time
from pathlib import Path

import orjson
from werkzeug.test import EnvironBuilder

KINDS = ("POST command", "GET view (long-poll, moved)", "floor POST", "floor GET")


def call(app, environ):
    """Answer one request as a WSGI server would: the status and the body's bytes."""
    status = []
    body = b"".join(app(environ, lambda s, h, e=None: status.append(s)))
    return status[0], body


def environ(method, path, headers=None, body=None):
    builder = EnvironBuilder(
        path=path,
        method=method,
        headers=headers or {},
        data=body,
        content_type="application/json" if body is not None else None,
    )
    try:
        return builder.get_environ()
    finally:
        builder.close()


class Timer:
    """Process time spent in `timed` calls, by kind; a profiler per kind if asked."""

    def __init__(self, profile):
        self.spent = {}
        self.count = {}
        self.profiles = {kind: cProfile.Profile() for kind in KINDS} if profile else None

    def timed(self, kind, app, env):
        profiler = self.profiles and self.profiles[kind]
        started = time.process_time()
        if profiler:
            profiler.enable()
        answer = call(app, env)
        if profiler:
            profiler.disable()
        self.spent[kind] = self.spent.get(kind, 0.0) + time.process_time() - started
        self.count[kind] = self.count.get(kind, 0) + 1
        return answer

    def per_request_us(self):
        return {kind: 1e6 * self.spent[kind] / self.count[kind] for kind in self.spent}


def play(app, projector, moves, timer, seed):
    """Play 2-seat Alebrijes games as bench/load.py does, `moves` commands in all."""
    made = 0
    while made < moves:
        body = {
            "game": "alebrijes",
            "seats": [{"name": "a"}, {"name": "b"}],
            "options": {"seed": seed + made},
        }
        _, raw = call(app, environ("POST", "/v1/games", body=orjson.dumps(body)))
        created = orjson.loads(raw)
        game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
        projector.poll(block_ms=None)
        seat, after = 0, 0
        while made < moves:
            headers = {"Authorization": f"Bearer {tokens[seat]}"}
            path = f"/v1/alebrijes/{game_id}/view"
            if after:
                env = environ("GET", f"{path}?after={after - 1}&wait=5", headers)
                _, raw = timer.timed("GET view (long-poll, moved)", app, env)
            else:
                _, raw = call(app, environ("GET", path, headers))
            view = orjson.loads(raw)
            if view["status"] != "active":
                break
            if seat not in view["to_act"]:
                seat, after = view["to_act"][0], view["version"]
                continue
            command = orjson.dumps(view["legal"][made % len(view["legal"])])
            env = environ("POST", f"/v1/alebrijes/{game_id}/commands", headers, command)
            status, raw = timer.timed("POST command", app, env)
            assert status.startswith("200"), raw
            made += 1
            projector.poll(block_ms=None)
            moved = orjson.loads(raw)
            to_act = moved["view"]["to_act"]
            seat, after = (to_act[0] if to_act else seat), moved["version"]


def floor(app, moves, timer):
    command = orjson.dumps({"type": "play", "cards": ["G1", "G1"], "ollin": "none"})
    for n in range(moves):
        timer.timed("floor GET", app, environ("GET", f"/v1/floor/g{n % 50}/view"))
        env = environ("POST", f"/v1/floor/g{n % 50}/commands", body=command)
        timer.timed("floor POST", app, env)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--profile", help="write cProfile summaries here (a folder)")
    parser.add_argument(
        "--gevent", action="store_true", help="monkey-patch as gunicorn's gevent worker does"
    )
    parser.add_argument(
        "--limits", action="store_true", help="the abuse limits on (the default of a deployment)"
    )
    parser.add_argument(
        "--flask-only", action="store_true", help="without the fast path: every request to Flask"
    )
    args = parser.parse_args()
    if args.gevent:
        from gevent import monkey

        monkey.patch_all()
    # As under gunicorn (deploy/gunicorn.conf.py): metrics in shared files.
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="request-cpu-metrics-")
    from bench.systems import private_redis

    with private_redis() as url:
        run(url, args)


def run(url, args):
    import logging

    from bench import floor as floor_module
    from services import deps as deps_module
    from services.api import create_app
    from services.ops import logs
    from shared.config import Config

    # As under gunicorn: JSON access lines, here into nothing.
    logs.setup("api")
    logging.getLogger().handlers[0].setStream(io.StringIO())
    config = Config.from_env({"REDIS_URL": url, "RATE_LIMITS": "on" if args.limits else "off"})
    try:  # as the API builds them (quick-check connections), where the checkout has it
        from services.api.connections import build_deps
    except ImportError:
        build_deps = deps_module.build
    deps = build_deps(config)
    app = create_app(deps)
    while args.flask_only and type(app.wsgi_app).__name__.startswith("Fast"):
        app.wsgi_app = app.wsgi_app.wsgi_app  # the layers in front of Flask, taken off
    floor_app = floor_module.create_app(url)
    try:  # the tree's own projector (a tree before services/projector/build.py: Deps')
        from services.projector.build import projector_of
    except ImportError:
        projector_of = type(deps).projector
    projector = projector_of(deps, consumer="time")
    projector.join_group()
    play(app, projector, 50, Timer(False), seed=1)  # warm up: imports, caches
    floor(floor_app, 50, Timer(False))
    rounds = []
    timer = None
    for number in range(args.rounds):
        timer = Timer(args.profile and number == args.rounds - 1)
        play(app, projector, args.moves, timer, seed=1000 * (number + 1))
        floor(floor_app, args.moves, timer)
        rounds.append(timer.per_request_us())
    print(f"CPU a request, us (median of {args.rounds} rounds of {args.moves} moves):")
    medians = {}
    for kind in KINDS:
        samples = [r[kind] for r in rounds]
        medians[kind] = statistics.median(samples)
        print(f"  {kind}: {medians[kind]:.0f} ({min(samples):.0f}-{max(samples):.0f})")
    if timer and timer.profiles:
        folder = Path(args.profile)
        folder.mkdir(parents=True, exist_ok=True)
        for kind, profiler in timer.profiles.items():
            out = io.StringIO()
            stats = pstats.Stats(profiler, stream=out)
            stats.sort_stats("tottime").print_stats(40)
            stats.sort_stats("cumulative").print_stats(60)
            (folder / f"{kind.split(' (')[0].replace(' ', '_')}.txt").write_text(out.getvalue())
        print(f"profiles in {folder}")
    print(orjson.dumps(medians).decode())  # last: the figures, for bench.ab


if __name__ == "__main__":
    main()
