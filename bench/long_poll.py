"""Live updates, measured through the whole stack with ONE API process (gevent).

1. Latency: the time from sending a move to the answer of a long-poll that was
   waiting for it (median, p99), over --moves moves.
2. Capacity: N clients long-poll one game at once (each its own TCP connection), one
   move is made, and we count how many got the new view, for growing N.

    .venv/bin/python -m bench.long_poll [--moves 200] [--clients 1000 2000 4000]
"""

import argparse
import asyncio
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import requests

from bench.stats import percentile
from bench.systems import ROOT
from services.embedded_redis import free_port


def raise_file_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def start_stack(run_dir):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "QUEUE_URL")}
    env.update(PORT=str(port), RUN_DIR=run_dir, WEB_CONCURRENCY="1", RATE_LIMITS="off")
    process = subprocess.Popen(
        [sys.executable, "-m", "services.run"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            requests.get(f"{base}/v1/games", timeout=1)
            return process, base, port
        except requests.ConnectionError:
            time.sleep(0.1)
    raise RuntimeError("the stack did not start")


def new_game(http, base):
    seats = [{"name": "ana"}, {"name": "bo"}]
    game = http.post(
        f"{base}/v1/games", json={"game": "alebrijes", "seats": seats, "options": {"rounds": 20}}
    ).json()
    return game["id"], [s["token"] for s in game["seats"]]


def current_turn(http, base, game_id, tokens):
    view = http.get(f"{base}/v1/games/{game_id}/view").json()
    seat = view["to_act"][0]
    mine = http.get(
        f"{base}/v1/games/{game_id}/view", headers={"Authorization": f"Bearer {tokens[seat]}"}
    ).json()
    return mine, tokens[seat]


def latency(base, moves):
    http = requests.Session()
    game_id, tokens = new_game(http, base)
    poll = requests.Session()
    delays = []
    for _ in range(moves):
        view, token = current_turn(http, base, game_id, tokens)
        if view["status"] != "active":
            game_id, tokens = new_game(http, base)
            continue
        answered = {}
        url = f"{base}/v1/games/{game_id}/view?after={view['version']}&wait=10"

        def wait(url=url, answered=answered):
            response = poll.get(url, timeout=15)
            answered["at"], answered["status"] = time.perf_counter(), response.status_code

        poller = threading.Thread(target=wait)
        poller.start()
        time.sleep(0.02)  # the poll is waiting by now
        sent = time.perf_counter()
        http.post(
            f"{base}/v1/games/{game_id}/commands",
            json=view["legal"][0],
            headers={"Authorization": f"Bearer {token}"},
        )
        poller.join()
        if answered["status"] == 200:
            delays.append(answered["at"] - sent)
    return delays


async def one_poll(port, path, results):
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        status = (await asyncio.wait_for(reader.readline(), 60)).split()[1]
        results.append(int(status))
        writer.close()
    except Exception as error:  # counted, not hidden: a refused or reset connection
        results.append(type(error).__name__)


async def capacity(base, port, clients):
    http = requests.Session()
    game_id, tokens = new_game(http, base)
    view, token = current_turn(http, base, game_id, tokens)
    path = f"/v1/games/{game_id}/view?after={view['version']}&wait=30"
    results = []
    tasks = []
    for _ in range(clients):
        tasks.append(asyncio.create_task(one_poll(port, path, results)))
        await asyncio.sleep(0)
    await asyncio.sleep(3)  # every request is in and waiting
    waiting = clients - len(results)
    start = time.perf_counter()
    await asyncio.to_thread(
        http.post,
        f"{base}/v1/games/{game_id}/commands",
        json=view["legal"][0],
        headers={"Authorization": f"Bearer {token}"},
    )
    await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - start
    ok = sum(1 for r in results if r == 200)
    return waiting, ok, elapsed, sorted({str(r) for r in results if r != 200})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--clients", type=int, nargs="+", default=[1000, 2000, 4000])
    args = parser.parse_args()
    print(f"open files allowed: {raise_file_limit()}")
    with tempfile.TemporaryDirectory() as run_dir:
        process, base, port = start_stack(run_dir)
        try:
            delays = sorted(latency(base, args.moves))
            p99 = percentile(delays, 0.99)
            print(
                f"move -> long-poll answer over {len(delays)} moves: "
                f"median {statistics.median(delays) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms"
            )
            for clients in args.clients:
                waiting, ok, elapsed, other = asyncio.run(capacity(base, port, clients))
                print(
                    f"{clients} concurrent long-polls: {waiting} held waiting, {ok} answered "
                    f"200 within {elapsed:.2f} s of the move; other outcomes: {other or 'none'}"
                )
        finally:
            process.send_signal(signal.SIGINT)
            process.wait(30)


if __name__ == "__main__":
    main()
