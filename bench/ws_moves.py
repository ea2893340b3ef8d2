"""tablestream over GET /v1/ws beside boardgame.io (bench/peer) and Colyseus
(bench/peer-colyseus), interleaved on this machine; then push latency at half load and
saturated, and idle sockets held while a plain REST request's p99 is measured.

The WebSocket driver (bench/ws-driver/driver.mjs: node, as the peers' drivers are, so
the three load generators cost alike) plays as the peers' drivers do: N games of two
seats, each seat its own socket; the acting seat sends its command and waits until its
own pushed view shows the move; the other seat plays when its pushed view says so; one
move in flight per game. Push latency is an event's append time (its `at`, the same
machine's clock) to the moment the other seat's socket reads it. CPU per move: each
server process's CPU time (tablestream's by role: API, projector, worker, Redis, other;
a peer's one node process) over the measured seconds, divided by the moves made in
them; each driver reports its own beside it (`driver_cpu_ms_per_move`), which the
servers' figures do not count. A driver starts its clock after node has started (a
fraction of a second), so its window is that much earlier than the sampler's.

    .venv/bin/python -m bench.ws_moves [--seconds 10] [--games 10 50] [--idle 8000] [--profile]

--profile: one more run at the most games, saturated, under py-spy (the API's workers
and the projector), its profile printed by library and by function (bench/pyspy.py).

Bounded: --seconds per run, the idle sockets by --idle (held by client processes of
8,000 sockets each, under one process's file limit).
"""

import argparse
import asyncio
import json
import multiprocessing
import os
import resource
import tempfile
import threading
import time
from pathlib import Path

import psutil
import requests
import websockets
from websockets.exceptions import InvalidStatus

from bench import pyspy as spy
from bench import systems

PER_HOLDER = 8000  # idle sockets one client process holds


def quantile(values, q):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def wait_for_pushes(stack, timeout=120.0):
    """Until a move is pushed: the projector (and its Python) may start well after the
    API answers, on a loaded machine."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if drive_tablestream(stack, 1, seconds=2, warmup=0)["moves_per_s"] > 0:
            return
    raise RuntimeError("no move was pushed: is the projector running?")


def drive_tablestream(stack, games, seconds, warmup, rate=None):
    """bench/ws-driver/driver.mjs against `stack`: its JSON line."""
    arguments = ["moves", "--games", games, "--seconds", seconds, "--warmup", warmup]
    return stack.drive(*arguments, *(["--rate", rate] if rate else []))


def with_cpu(roles, seconds, warmup, drive):
    """`drive()`'s figures, with `cpu_ms_per_move`: each role's CPU ms a move over the
    `seconds` after `warmup` (roles: {name: psutil processes})."""
    spent = {}

    def sample():
        time.sleep(warmup)
        before = {role: systems.cpu_seconds(p) for role, p in roles.items()}
        time.sleep(seconds)
        for role, processes in roles.items():
            spent[role] = systems.cpu_seconds(processes) - before[role]

    sampler = threading.Thread(target=sample)
    sampler.start()
    figures = drive()
    sampler.join()
    moves = max(1.0, figures["moves_per_s"] * seconds)
    figures["cpu_ms_per_move"] = {role: round(1000 * s / moves, 3) for role, s in spent.items()}
    figures["cpu_ms_per_move"]["all"] = round(sum(figures["cpu_ms_per_move"].values()), 3)
    return figures


async def hold_idle(ws_url, count):
    """Open `count` sockets, each authenticated as a spectator; return them."""
    held, refused = [], 0
    for number in range(count):
        try:
            socket = await websockets.connect(ws_url, compression=None, ping_interval=None)
        except InvalidStatus as error:  # 503 sockets_full: this API process is full
            refused += 1
            if refused > 100:  # every process is: the host holds what it may
                print(f"stopped at {number} sockets: {error}")
                break
            continue  # the next upgrade may reach another process
        except OSError as error:
            print(f"stopped at {number} sockets: {error}")
            break
        await socket.send('{"type": "auth", "token": null}')
        held.append(socket)
    return held


def rest_p99(base, game_id, seconds=5.0):
    """A plain GET of a game's summary, one after another, for `seconds`: p50, p99 ms."""
    http = requests.Session()
    times, stop = [], time.monotonic() + seconds
    while time.monotonic() < stop:
        start = time.perf_counter()
        http.get(f"{base}/v1/games/{game_id}", timeout=30).raise_for_status()
        times.append(1000 * (time.perf_counter() - start))
    return quantile(times, 0.5), quantile(times, 0.99)


def _holder(ws_url, count, held, release):
    """A client process: hold `count` idle sockets, say how many, until `release`."""

    async def hold():
        sockets = await hold_idle(ws_url, count)
        held.put(len(sockets))
        await asyncio.to_thread(release.wait)
        for socket in sockets:
            await socket.close()

    asyncio.run(hold())


def idle_sockets(stack, count):
    """RSS of the API's workers per idle socket, and the REST p99 with them held. The
    sockets are held by client processes of at most PER_HOLDER each (one process's file
    limit is below 20,000 here)."""
    game = requests.post(
        f"{stack.base}/v1/games",
        json={"game": "alebrijes", "seats": [{"name": "a"}, {"name": "b"}]},
        timeout=30,
    ).json()
    before_p50, before_p99 = rest_p99(stack.base, game["id"])
    workers = stack.api_workers()
    rss = sum(p.memory_info().rss for p in workers)
    ws_url = stack.base.replace("http://", "ws://") + "/v1/ws"
    shares = [min(PER_HOLDER, count - n) for n in range(0, count, PER_HOLDER)]
    held, release = multiprocessing.Queue(), multiprocessing.Event()
    holders = [
        multiprocessing.Process(target=_holder, args=(ws_url, share, held, release))
        for share in shares
    ]
    for holder in holders:
        holder.start()
    try:
        sockets = sum(held.get(timeout=600) for _ in holders)
        time.sleep(2)
        grown = sum(p.memory_info().rss for p in workers) - rss
        p50, p99 = rest_p99(stack.base, game["id"])
    finally:
        release.set()
        for holder in holders:
            holder.join(60)
    return {
        "sockets": sockets,
        "kb_per_socket": grown / max(1, sockets) / 1024,
        "rest_p50_ms_before": before_p50,
        "rest_p99_ms_before": before_p99,
        "rest_p50_ms_held": p50,
        "rest_p99_ms_held": p99,
    }


def profiled(stack, games, seconds, folder):
    """A saturated run of `games` games under py-spy: the API's workers' and the
    projector's profiles, printed and answered as text."""
    roles = stack.processes()
    handles = {
        "API": spy.record([p.pid for p in stack.api_workers()], seconds, folder, "api"),
        "projector": spy.record([p.pid for p in roles["projector"]], seconds, folder, "proj"),
    }
    figures = drive_tablestream(stack, games, seconds, warmup=0.5)
    print(f"under py-spy, {games} games:", json.dumps(figures), flush=True)
    found = {}
    for role, recording in handles.items():
        found[role] = spy.render(f"{role}, {games} games", spy.summary(spy.finish(recording)))
        print(found[role], flush=True)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--warmup", type=float, default=2)
    parser.add_argument("--games", type=int, nargs="+", default=[10, 50])
    parser.add_argument("--idle", type=int, default=8000, help="idle sockets to hold, at most")
    parser.add_argument("--profile", action="store_true", help="also a run under py-spy")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(f"load average before: {os.getloadavg()}", flush=True)
    results = {"load_before": os.getloadavg()}
    with tempfile.TemporaryDirectory() as run_dir:
        stack = systems.Tablestream(run_dir, Path(run_dir) / "run.log").start()
        peers = [systems.Peer().start(), systems.Colyseus().start()]
        try:
            wait_for_pushes(stack)
            for games in args.games:
                row = {
                    "tablestream": with_cpu(
                        stack.processes(),
                        args.seconds,
                        args.warmup,
                        lambda g=games: drive_tablestream(stack, g, args.seconds, args.warmup),
                    )
                }
                for peer in peers:
                    row[peer.name] = with_cpu(
                        {"server": [psutil.Process(peer.process.pid)]}, args.seconds, args.warmup,
                        lambda p=peer, g=games: p.drive(
                            "moves", "--matches", g, "--seconds", args.seconds,
                            "--warmup", args.warmup,
                        ),
                    )  # fmt: skip
                results[f"{games} games"] = row
                print(games, "games:", json.dumps(row), flush=True)
            saturated = results[f"{args.games[0]} games"]["tablestream"]
            half = max(1.0, saturated["moves_per_s"] / 2)
            results["half load"] = drive_tablestream(
                stack, args.games[0], args.seconds, args.warmup, rate=half
            )
            print("half load:", json.dumps(results["half load"]), flush=True)
            if args.profile:
                results["profiles"] = profiled(stack, max(args.games), args.seconds, run_dir)
            results["idle"] = idle_sockets(stack, args.idle)
            print("idle:", json.dumps(results["idle"]), flush=True)
        finally:
            for peer in peers:
                peer.stop()
            stack.stop()
    results["load_after"] = os.getloadavg()
    print(f"load average after: {os.getloadavg()}")
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
