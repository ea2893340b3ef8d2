"""What a player's token costs on the hot path beside a seat's token: Redis round trips
and commands per request, and the in-process time of each request, for the same game
played twice from the same seed (once with the seats' tokens, once with the players'
tokens only), the app in-process on a private Redis, the projector run between moves.

    .venv/bin/python -m bench.player_tokens [--moves 40]

Prints, per request kind and token kind, the median Redis commands, round trips and
microseconds per request. The same is then measured for a `command` over GET /v1/ws
(the app served by werkzeug's threaded server in this process, on 127.0.0.1, so the
round trips its threads send are counted; from the message sent to its `answer`).
"""

import argparse
import collections
import contextlib
import statistics
import threading
import time

import orjson
import redis

from bench.api_commands import RoundTrips, counted
from services.projector.build import projector_of


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=40)
    args = parser.parse_args()
    from bench.systems import private_redis

    with private_redis() as url:
        run(url, args.moves)


def run(url, moves):
    from services import deps as deps_module
    from services.api import create_app
    from shared.config import Config

    deps = deps_module.build(Config.from_env({"REDIS_URL": url, "RATE_LIMITS": "off"}))
    app = create_app(deps)
    projector = projector_of(deps, consumer="bench")
    projector.join_group()
    http = app.test_client()
    stats = redis.Redis.from_url(url)
    stats.info("commandstats")
    RoundTrips()
    ana = http.post("/v1/players", json={"name": "ana"}).get_json()
    bea = http.post("/v1/players", json={"name": "bea"}).get_json()
    seats = [{"player": "me"}, {"player": bea["id"]}]
    options = {"seed": 7, "rounds": 3}
    by_seat = http.post(
        "/v1/games",
        json={"game": "alebrijes", "seats": [{"name": "a"}, {"name": "b"}], "options": options},
    ).get_json()
    by_player = http.post(
        "/v1/games",
        json={"game": "alebrijes", "seats": seats, "options": options},
        headers={"Authorization": f"Bearer {ana['token']}"},
    ).get_json()
    accepted = http.post(
        f"/v1/games/{by_player['id']}/seats/1/accept",
        headers={"Authorization": f"Bearer {bea['token']}"},
    )
    assert accepted.status_code == 200, accepted.data
    projector.poll(block_ms=None)
    samples = collections.defaultdict(list)
    plays = {
        "seat token": (by_seat["id"], [s["token"] for s in by_seat["seats"]]),
        "player token": (by_player["id"], [ana["token"], bea["token"]]),
    }
    for kind, (game_id, tokens) in plays.items():
        play(http, stats, projector, game_id, tokens, moves, kind, samples)
    with served(app) as base:
        for kind, (game_id, tokens) in plays.items():
            play_ws(base, http, stats, projector, game_id, tokens, moves, kind, samples)
    print(f"Per request, median over {moves} moves (in-process app, private Redis):")
    for (request, kind), taken in sorted(samples.items()):
        commands = statistics.median(sum(c.values()) - c["round trips"] for c, _ in taken)
        trips = statistics.median(c["round trips"] for c, _ in taken)
        most = max(c["round trips"] for c, _ in taken)
        micros = statistics.median(s for _, s in taken) * 1e6
        print(
            f"  {request:13} {kind:12}: {commands:g} Redis commands, {trips:g} round trips "
            f"(at most {most}), {micros:.0f} us ({len(taken)} requests)"
        )


def play(http, stats, projector, game_id, tokens, moves, kind, samples):
    """Play `moves` moves of one game, each seat reading its view and sending its
    first legal command with `tokens`; note each request's cost under `kind`."""
    # A first read with each token: the process learns the seat (then cached).
    for token in tokens:
        http.get(f"/v1/alebrijes/{game_id}/view", headers={"Authorization": f"Bearer {token}"})
    for _ in range(moves):
        spectator = orjson.loads(http.get(f"/v1/alebrijes/{game_id}/view").data)
        if spectator["status"] != "active":
            break
        seat = spectator["to_act"][0]
        headers = {"Authorization": f"Bearer {tokens[seat]}"}
        started = time.perf_counter()
        answer, commands = counted(
            stats, http.get, f"/v1/alebrijes/{game_id}/view", headers=headers
        )
        samples[("GET view", kind)].append((commands, time.perf_counter() - started))
        command = orjson.loads(answer.data)["legal"][0]
        started = time.perf_counter()
        answer, commands = counted(
            stats,
            http.post,
            f"/v1/alebrijes/{game_id}/commands",
            data=orjson.dumps(command),
            content_type="application/json",
            headers=headers,
        )
        assert answer.status_code == 200, answer.data
        samples[("POST command", kind)].append((commands, time.perf_counter() - started))
        projector.poll(block_ms=None)


@contextlib.contextmanager
def served(app):
    """`app` on werkzeug's threaded server on 127.0.0.1 (a free port) in this process;
    yields its base URL."""
    import logging

    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no access line a socket

    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()


def play_ws(base, http, stats, projector, game_id, tokens, moves, kind, samples):
    """Go on playing the game (`play` left it midway), each move a `command` message
    on its seat's socket, the token in the upgrade's Authorization header."""
    from websockets.sync.client import connect

    url = base.replace("http://", "ws://") + "/v1/ws"
    sockets = [
        connect(url, additional_headers={"Authorization": f"Bearer {t}"}, compression=None)
        for t in tokens
    ]
    try:
        for ws in sockets:  # each socket authenticated and answering before counting
            ws.send(orjson.dumps({"type": "ping"}).decode())
            ws.recv(10)
        for _ in range(moves):
            spectator = orjson.loads(http.get(f"/v1/alebrijes/{game_id}/view").data)
            if spectator["status"] != "active":
                break
            seat = spectator["to_act"][0]
            headers = {"Authorization": f"Bearer {tokens[seat]}"}
            view = orjson.loads(http.get(f"/v1/alebrijes/{game_id}/view", headers=headers).data)
            message = {"type": "command", "game_id": game_id, "command": view["legal"][0]}
            started = time.perf_counter()
            answer, commands = counted(stats, _ask, sockets[seat], message)
            assert answer["type"] == "answer", answer
            samples[("WS command", kind)].append((commands, time.perf_counter() - started))
            projector.poll(block_ms=None)
    finally:
        for ws in sockets:
            ws.close()


def _ask(ws, message):
    ws.send(orjson.dumps(message).decode())
    return orjson.loads(ws.recv(10))


if __name__ == "__main__":
    main()
