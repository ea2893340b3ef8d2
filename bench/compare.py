"""The comparison in one command: tablestream against boardgame.io's in-memory
server and the bare Flask+gunicorn+Redis floor, on this machine, in one run.

Starts the three systems (127.0.0.1 only), drives them interleaved (A, B, C, A, B, C...)
with one loop per game at 10 and 50 concurrent games, then at half of tablestream's
saturation for POST p99 against the floor at the same rate, then the bot-only, flat-cost,
rebuild and memory figures. Prints the table and the goals, writes results.json and PNG
plots into --out, and with --profile records py-spy profiles of the API, projector and
worker under load.

    make bench-compare          # or: .venv/bin/python -m bench.compare [--seconds 15 --reps 2]
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

import orjson
import psutil
import redis
import requests
from tqdm import tqdm

from bench import load, moves_per_second, rebuild, report, systems
from bench import pyspy as spy

LIGHT_RATE = 20  # moves/s over 2 games: "light" load for projection lag
FLAT_EARLY = (10, 160)  # versions whose moves count as "a move at version ~20"
FLAT_LATE = 150  # the last versions before --flat-version count as "~2,000"
# The longest Alebrijes game the API allows: 2 seats reach only ~1,260 versions in 20 rounds.
FLAT_GAME = {"players": 4, "rounds": 20}
FLAT_GAMES = 3  # played one after another, their moves pooled
BOT_ROUNDS = 3  # rounds of (1 game, --bot-games games), interleaved


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=15, help="measuring window per run")
    parser.add_argument("--warmup", type=float, default=2)
    parser.add_argument("--reps", type=int, default=2, help="repetitions of each A,B,C block")
    parser.add_argument("--games", type=int, nargs="+", default=[10, 50])
    parser.add_argument("--processes", type=int, default=2, help="load generator processes")
    parser.add_argument("--bot-games", type=int, default=8)
    parser.add_argument("--flat-version", type=int, default=2000)
    parser.add_argument("--out", default="bench/results", help="folder for plots, JSON, profiles")
    parser.add_argument("--profile", action="store_true", help="also record py-spy profiles")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    bench = Comparison(args, out)
    with tempfile.TemporaryDirectory() as run_dir:
        try:
            bench.run(run_dir)
        finally:
            bench.stop()
    (out / "results.json").write_text(json.dumps(bench.results, indent=1, default=str))
    table = report.table(bench.results)
    goals = report.goals(bench.results)
    plots = report.plots(bench.results, bench.raw, out)
    print()
    print(table)
    print()
    print(goals)
    print(f"\nplots: {', '.join(map(str, plots))}\nresults: {out / 'results.json'}")
    if bench.results.get("profiles"):
        print()
        print("\n\n".join(bench.results["profiles"].values()))
    (out / "table.md").write_text(f"{table}\n\n{goals}\n")


class Comparison:
    def __init__(self, args, out):
        self.args = args
        self.out = out
        self.results = {"command": " ".join(sys.argv), "runs": [], "settings": vars(args)}
        self.raw = {}  # latencies for the plots, by run label
        self.started = []

    def steps(self):
        a = self.args
        steps = [("start the three systems", self.start), ("load generator ceiling", self.ceiling)]
        for rep in range(a.reps):
            for games in a.games:
                for system in ("tablestream", "boardgame.io", "floor"):
                    steps.append(
                        (
                            f"{system}, {games} games, run {rep + 1}",
                            lambda s=system, g=games, r=rep: self.saturated(s, g, r),
                        )
                    )
        for rep in range(a.reps):
            for system in ("tablestream", "floor"):
                steps.append(
                    (
                        f"{system} at half load, run {rep + 1}",
                        lambda s=system, r=rep: self.half_load(s, r),
                    )
                )
        steps += [
            ("projection lag at light load", self.light),
            ("flat cost: one game to version ~2,000", self.flat),
            ("boardgame.io flat cost", self.peer_flat),
            ("bot-only games, 1 and 8 at once", self.bots),
            ("Redis memory", self.memory),
            ("rebuild vs raw XRANGE + parse", self.rebuild),
        ]
        if a.profile:
            steps += [
                ("py-spy: API and projector, 50 human games", self.profile_humans),
                ("py-spy: worker and projector, bot games", self.profile_bots),
            ]
        return steps

    def run(self, run_dir):
        self.run_dir = run_dir
        self.results["load_before"] = os.getloadavg()
        self.results["uptime_before"] = _uptime()
        steps = self.steps()
        with tqdm(steps, unit="step", dynamic_ncols=True) as progress:
            for label, step in progress:
                progress.set_description(label)
                step()
        self.results["load_after"] = os.getloadavg()
        self.results["uptime_after"] = _uptime()

    # The systems.

    def start(self):
        self.ts = systems.Tablestream(
            Path(self.run_dir) / "tablestream", self.out / "tablestream.log"
        ).start()
        self.started.append(self.ts)
        self.peer = systems.Peer().start()
        self.started.append(self.peer)
        self.floor = systems.Floor().start()
        self.started.append(self.floor)
        self.redis = redis.Redis.from_url(self.ts.redis_url)

    def stop(self):
        for system in reversed(self.started):
            system.stop()

    def drive(self, target, games, **settings):
        base = self.ts.base if target == "tablestream" else self.floor.base
        a = self.args
        settings.setdefault("seconds", a.seconds)
        settings.setdefault("warmup", a.warmup)
        return load.run(target, base, games, processes=a.processes, **settings)

    def _with_own_lag(self, roles, drive):
        """`drive()`'s answer, with the projector's own lag over it (its histogram read
        before and after, warm-up included) beside the lag the client saw: the client's
        includes its GET's wait in the API's queue, the projector's does not."""
        if "projector" not in roles:
            return drive()
        before = systems.projection_lag(roles["projector"])
        summary, raw = drive()
        summary.update(systems.lag_quantiles(before, systems.projection_lag(roles["projector"])))
        return summary, raw

    def record(self, label, summary, raw=None, **extra):
        summary = {"label": label, **summary, **extra}
        self.results["runs"].append(summary)
        if raw:
            self.raw[label] = raw
        tqdm.write(f"{label}: " + _brief(summary))
        return summary

    # The steps.

    def ceiling(self):
        summary, _ = self.drive("hello", 50, seconds=5, warmup=1)
        self.record("hello ceiling", summary, kind="ceiling")

    def saturated(self, system, games, rep):
        label = f"{system} {games} games #{rep + 1}"
        if system == "boardgame.io":
            self.record(label, self._saturated_peer(games), kind="saturated")
            return
        roles = self.ts.processes() if system == "tablestream" else {}
        before = {role: systems.cpu_seconds(p) for role, p in roles.items()}
        commands = self._commands()
        summary, raw = self._with_own_lag(roles, lambda: self.drive(system, games))
        if roles:
            summary["cpu_ms_per_move"] = _cpu_per_move(roles, before, summary["all_moves"])
            summary["redis_commands_per_move"] = (self._commands() - commands) / max(
                1, summary["all_moves"]
            )
        self.record(label, summary, raw, kind="saturated")

    def _saturated_peer(self, games):
        server = [psutil.Process(self.peer.process.pid)]
        cpu = systems.cpu_seconds(server)
        seconds, warmup = int(self.args.seconds), int(self.args.warmup)
        line = self.peer.drive(
            "moves", "--matches", games, "--seconds", seconds, "--warmup", warmup
        )
        # The driver moves during its warm-up too: CPU over both, per move.
        moves = line["moves_per_s"] * (seconds + warmup)
        return {
            "target": "boardgame.io",
            "games": games,
            "moves_per_s": line["moves_per_s"],
            "post_p50_ms": line["move_p50_ms"],
            "post_p99_ms": line["move_p99_ms"],
            "errors": line["errors"],
            "cpu_ms_per_move": {
                "server": 1000 * (systems.cpu_seconds(server) - cpu) / max(1, moves)
            },
        }

    def saturation(self):
        """Median moves/s of tablestream at the most games: what "half load" halves."""
        rates = [
            r["moves_per_s"]
            for r in self.results["runs"]
            if r.get("kind") == "saturated"
            and r["target"] == "tablestream"
            and r["games"] == max(self.args.games)
        ]
        return statistics.median(rates)

    def half_load(self, system, rep):
        rate = self.saturation() / 2
        games = max(self.args.games)
        # The floor's CPU too (server and its Redis): what the same rate costs each.
        roles = self.ts.processes() if system == "tablestream" else self.floor.processes()
        before = {role: systems.cpu_seconds(p) for role, p in roles.items()}
        summary, raw = self._with_own_lag(roles, lambda: self.drive(system, games, rate=rate))
        if roles:
            summary["cpu_ms_per_move"] = _cpu_per_move(roles, before, summary["all_moves"])
        self.record(f"{system} half load #{rep + 1}", summary, raw, kind="half")

    def light(self):
        roles = self.ts.processes()
        summary, raw = self._with_own_lag(
            roles, lambda: self.drive("tablestream", 2, rate=LIGHT_RATE)
        )
        self.record("tablestream light", summary, raw, kind="light")

    def flat(self):
        """Games played alone, one after another, up to --flat-version: POST latency of
        the moves early in each game against those near the end."""
        top = self.args.flat_version + 50
        commands = self._commands()
        by_version = []
        for game in range(FLAT_GAMES):
            _, raw = self.drive(
                "tablestream",
                1,
                seconds=600,
                warmup=0,
                until_version=top,
                options=FLAT_GAME,
                seed=1000 + game,
            )
            by_version += raw["by_version"]
        early = [ms for v, ms in by_version if FLAT_EARLY[0] <= v < FLAT_EARLY[1]]
        late = [ms for v, ms in by_version if top - FLAT_LATE <= v <= top]
        moves = len(by_version)
        summary = {
            "target": "tablestream",
            "games": FLAT_GAMES,
            "moves": moves,
            "early_p50_ms": statistics.median(early),
            "late_p50_ms": statistics.median(late),
            "reached": max(v for v, _ in by_version),
            "redis_commands_per_move": (self._commands() - commands) / max(1, moves),
        }
        self.record("tablestream flat", summary, kind="flat")

    def peer_flat(self):
        line = self.peer.drive(
            "long",
            "--target",
            self.args.flat_version,
            "--rounds",
            400,
            "--seconds",
            300,
            timeout=400,
        )
        self.record(
            "boardgame.io flat",
            {
                "target": "boardgame.io",
                "reached": line["reached"],
                "early_p50_ms": line["early"]["p50_ms"],
                "late_p50_ms": line["late"]["p50_ms"],
            },
            kind="flat",
        )

    def bots(self):
        """bench/moves_per_second.py's figures, 1 game and --bot-games at once, interleaved
        over BOT_ROUNDS rounds, against the running stack."""
        http = requests.Session()
        roles = self.ts.processes()
        for round_ in range(BOT_ROUNDS):
            for games in (1, self.args.bot_games):
                before = {role: systems.cpu_seconds(p) for role, p in roles.items()}
                commands = self._commands()
                batch = moves_per_second.play(http, self.ts.base, games, seed=77 + 1000 * round_)
                summary = {
                    "target": "tablestream",
                    "games": games,
                    "moves": batch.moves,
                    "moves_per_s": batch.rate,
                    "moves_per_s_in_play": batch.rate_in_play,
                    "redis_commands_per_move": (self._commands() - commands) / max(1, batch.moves),
                    "cpu_ms_per_move": _cpu_per_move(roles, before, batch.moves),
                    "cpus": os.cpu_count(),
                }
                self.record(f"bots {games} games, round {round_ + 1}", summary, kind="bots")

    def memory(self):
        """Bytes of Redis per event (streams) and per finished game (every key of it)."""
        info = self.redis.info("memory")
        per_game = {}
        for key in self.redis.scan_iter(match="g:{*}:*", count=1000):
            game_id = key[3 : key.index(b"}")].decode()
            per_game.setdefault(game_id, []).append(key)
        finished, stream_bytes, events = [], 0, 0
        for game_id, keys in per_game.items():
            pipe = self.redis.pipeline(transaction=False)
            for key in keys:
                pipe.memory_usage(key, samples=0)
                pipe.ttl(key)
            answers = pipe.execute()
            sizes = dict(zip(keys, answers[0::2], strict=True))
            ttls = dict(zip(keys, answers[1::2], strict=True))
            stream = f"g:{{{game_id}}}:events".encode()
            if stream not in sizes:
                continue
            length = self.redis.xlen(stream)
            stream_bytes += sizes[stream] or 0
            events += length
            last = self.redis.xrevrange(stream, count=1)
            if last and orjson.loads(last[0][1][b"e"]).get("type") == "game_ended":
                expiring = sum(1 for t in ttls.values() if t and t > 0)
                finished.append((sum(s or 0 for s in sizes.values()), length, sizes, expiring))
        keys_of_one, expiring = {}, 0
        if finished:
            _, _, sizes, expiring = sorted(finished, key=lambda f: f[0])[len(finished) // 2]
            keys_of_one = {k.decode().split(":", 2)[2]: v for k, v in sizes.items()}
        self.results["memory"] = {
            "used_memory": info["used_memory"],
            "games": len(per_game),
            "events": events,
            "stream_bytes_per_event": stream_bytes / max(1, events),
            "used_memory_per_event": info["used_memory"] / max(1, events),
            "finished_games": len(finished),
            "finished_game_bytes_median": statistics.median(f[0] for f in finished)
            if finished
            else None,
            "finished_game_events_median": statistics.median(f[1] for f in finished)
            if finished
            else None,
            "keys_of_a_finished_game": keys_of_one,
            "finished_keys_with_ttl": expiring,
        }
        tqdm.write(f"memory: {_brief(self.results['memory'])}")

    def rebuild(self):
        """The projector's rebuild of every read model, against XRANGE + orjson of the
        same streams, in this process against tablestream's Redis (bench/rebuild.py)."""
        self.results["rebuild"] = rebuild.measure(self.ts.redis_url)
        tqdm.write(f"rebuild: {_brief(self.results['rebuild'])}")

    def profile_humans(self):
        seconds = self.args.seconds
        roles = self.ts.processes()
        handles = spy.record([p.pid for p in self.ts.api_workers()], seconds, self.out, "api")
        handles_projector = spy.record(
            [p.pid for p in roles["projector"]], seconds, self.out, "projector-humans"
        )
        summary, _ = self.drive("tablestream", max(self.args.games), seconds=seconds, warmup=0.5)
        self.record("tablestream under py-spy", summary, kind="profiled")
        self._profiled("API", "API (gunicorn workers), 50 human games", handles)
        self._profiled("projector", "projector, 50 human games", handles_projector)

    def profile_bots(self):
        roles = self.ts.processes()
        seconds = 20
        handles = spy.record([p.pid for p in roles["worker"]], seconds, self.out, "worker")
        handles_projector = spy.record(
            [p.pid for p in roles["projector"]], seconds, self.out, "projector-bots"
        )
        batch = moves_per_second.play_batch(
            requests.Session(), self.ts.base, self.args.bot_games, seed=99
        )
        self.record(
            "bots under py-spy", {"moves": batch.moves, "moves_per_s": batch.rate}, kind="profiled"
        )
        self._profiled("worker", f"RQ worker, {self.args.bot_games} bot games", handles)
        self._profiled("projector (bots)", "projector, bot games", handles_projector)

    def _profiled(self, role, title, handles):
        """Keep a recording's report, and its shares by library for the goals' table."""
        found = spy.summary(spy.finish(handles))
        self.results.setdefault("profiles", {})[role] = spy.render(title, found)
        self.results.setdefault("profile_shares", {})[role] = found["buckets"]

    def _commands(self):
        return self.redis.info("stats")["total_commands_processed"]


def _cpu_per_move(roles, before, moves):
    """CPU milliseconds per move of each role since `before` (creations included)."""
    return {
        role: 1000 * (systems.cpu_seconds(p) - before[role]) / max(1, moves)
        for role, p in roles.items()
    }


def _uptime():
    return Path("/proc/loadavg").read_text().strip()


def _brief(summary):
    shown = []
    for key, value in summary.items():
        if key in ("label", "kind", "target") or isinstance(value, dict | list):
            continue
        shown.append(f"{key}={value:.1f}" if isinstance(value, float) else f"{key}={value}")
    return " ".join(shown)


if __name__ == "__main__":
    main()
