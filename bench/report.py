"""The comparison's table, its goals marked met or not, and its plots."""

import statistics
from pathlib import Path

from bench.stats import median, ratio, spread


def _runs(results, kind, target=None, games=None):
    return [
        r
        for r in results["runs"]
        if r.get("kind") == kind
        and (target is None or r["target"] == target)
        and (games is None or r.get("games") == games)
    ]


def _values(runs, key):
    return [r[key] for r in runs if r.get(key) is not None]


def _bots(results):
    """Bot-only games, 1 and N at once in interleaved rounds: medians of their moves/s,
    of the per-round ratios (both sides of one saw the same noise), in play too, and the
    ceiling the cores set: N games can make at most cpus / (CPU a move) moves/s, as a
    ratio to one game in play. None without bot runs."""
    runs = _runs(results, "bots")
    if not runs:
        return None
    n = max(r["games"] for r in runs)
    one = [r for r in runs if r["games"] != n]
    many = [r for r in runs if r["games"] == n]
    pairs = list(zip(one, many, strict=True))
    found = {
        "games": n,
        "one": median(_values(one, "moves_per_s")),
        "many": median(_values(many, "moves_per_s")),
        "ratio": median([m["moves_per_s"] / o["moves_per_s"] for o, m in pairs]),
        "commands_per_move": median(_values(many, "redis_commands_per_move")),
        "in_play": None,
    }
    if all(r.get("moves_per_s_in_play") for r in runs):
        one_in_play = median(_values(one, "moves_per_s_in_play"))
        cpu_ms = median([sum(r["cpu_ms_per_move"].values()) for r in many])
        found.update(
            one_in_play=one_in_play,
            many_in_play=median(_values(many, "moves_per_s_in_play")),
            in_play=median([m["moves_per_s_in_play"] / o["moves_per_s_in_play"] for o, m in pairs]),
            cpus=many[0]["cpus"],
            ceiling=many[0]["cpus"] * 1000 / cpu_ms / one_in_play,
        )
    return found


def table(results):
    """The issue's table, as measured now."""
    rows = [("figure", "tablestream", "comparator")]
    games = sorted({r["games"] for r in _runs(results, "saturated", "tablestream")})
    for n in games:
        ts = _values(_runs(results, "saturated", "tablestream", n), "moves_per_s")
        bg = _values(_runs(results, "saturated", "boardgame.io", n), "moves_per_s")
        rows.append(
            (
                f"moves/s, {n} games at once",
                spread(ts),
                f"boardgame.io in-memory: {spread(bg)} ({_x(ratio(median(ts), median(bg)))})",
            )
        )
    for n in games:
        ts = _values(_runs(results, "saturated", "tablestream", n), "requests_per_s")
        fl = _values(_runs(results, "saturated", "floor", n), "requests_per_s")
        rows.append(
            (
                f"requests/s, {n} games (1 POST + 1 GET a move)",
                spread(ts),
                f"floor (Flask+gunicorn, 1 XADD / 1 2 KB GET): {spread(fl)} "
                f"({_x(ratio(median(ts), median(fl)))})",
            )
        )
    for n in games:
        # The ceiling of any Flask+gunicorn service: the floor does no work beyond one XADD
        # and one GET, so its moves/s (two requests a move) bounds the goal against
        # boardgame.io on this stack.
        fl = [v / 2 for v in _values(_runs(results, "saturated", "floor", n), "requests_per_s")]
        bg = _values(_runs(results, "saturated", "boardgame.io", n), "moves_per_s")
        rows.append(
            (
                f"the floor as moves/s, {n} games (requests/s / 2)",
                spread(fl),
                f"boardgame.io in-memory: {spread(bg)} ({_x(ratio(median(fl), median(bg)))})",
            )
        )
    half = _runs(results, "half", "tablestream")
    floor_half = _runs(results, "half", "floor")
    if half:
        rate = half[0]["rate"]
        ts, fl = _values(half, "post_p99_ms"), _values(floor_half, "post_p99_ms")
        rows.append(
            (
                f"POST p99 at half load ({rate:.0f} moves/s)",
                spread(ts, 1, " ms"),
                f"floor at the same rate: {spread(fl, 1, ' ms')} "
                f"({_x(ratio(median(ts), median(fl)))})",
            )
        )
        ts, fl = _values(half, "post_p50_ms"), _values(floor_half, "post_p50_ms")
        rows.append(
            ("POST p50 at half load", spread(ts, 1, " ms"), f"floor: {spread(fl, 1, ' ms')}")
        )
    light = _runs(results, "light", "tablestream")
    sat = _runs(results, "saturated", "tablestream", max(games) if games else None)
    lag = " / ".join(
        f"{_ms(median(_values(runs, 'lag_p50_ms')))}/{_ms(median(_values(runs, 'lag_p99_ms')))}"
        for runs in (light, half, sat)
    )
    rows.append(("projection lag p50/p99 ms: light / half / saturated", lag, "-"))
    own = " / ".join(_own(runs) for runs in (light, half, sat))
    rows.append(
        (
            "projector's own lag p50/p99 ms (its histogram's bounds): light / half / saturated",
            own,
            "the lag above is as a client saw it (its GET's wait in the API's queue included)",
        )
    )
    bots = _bots(results)
    if bots:
        text = f"{bots['one']:.0f} / {bots['many']:.0f} moves/s ({_x(bots['ratio'])})"
        if bots["in_play"] is not None:
            text += (
                f"; in play {bots['one_in_play']:.0f} / {bots['many_in_play']:.0f} "
                f"({_x(bots['in_play'])}); {bots['cpus']} cores allow "
                f"{_x(bots['ceiling'])} one game in play"
            )
        figure = f"four random bots, Alebrijes, 1 game / {bots['games']} games"
        rows.append((figure, text, "goal: 1,000, 4x"))
        human = median(
            _values(_runs(results, "saturated", "tablestream"), "redis_commands_per_move")
        )
        rows.append(
            (
                "Redis commands per move",
                f"bot move {bots['commands_per_move']:.0f}, "
                f"human move {human or 0:.0f} (creation amortised)",
                "-",
            )
        )
    flat = {r["target"]: r for r in _runs(results, "flat")}
    if "tablestream" in flat:
        f = flat["tablestream"]
        peer = flat.get("boardgame.io")
        rows.append(
            (
                f"flat cost: POST p50 at v~{f['reached']} / v~20",
                f"{f['late_p50_ms']:.1f} / {f['early_p50_ms']:.1f} ms "
                f"({_x(ratio(f['late_p50_ms'], f['early_p50_ms']))})",
                f"boardgame.io: {peer['late_p50_ms']} / {peer['early_p50_ms']} ms "
                f"({_x(ratio(peer['late_p50_ms'], peer['early_p50_ms']))})"
                if peer
                else "-",
            )
        )
    rebuild = results.get("rebuild")
    if rebuild:
        rows.append(
            (
                f"rebuild, {rebuild['games']:,} games / {rebuild['events']:,} events",
                f"{rebuild['rebuild_s']:.1f} s",
                f"raw XRANGE + orjson: {rebuild['raw_s']:.1f} s "
                f"({_x(ratio(rebuild['raw_s'], rebuild['rebuild_s']))} the raw rate)",
            )
        )
    if half and half[0].get("cpu_ms_per_move"):
        cpu = _cpu(half)
        peer_cpu = _cpu(_runs(results, "saturated", "boardgame.io"))
        floor_cpu = _cpu(floor_half) if floor_half and floor_half[0].get("cpu_ms_per_move") else {}
        rows.append(
            (
                "CPU per move at half load",
                ", ".join(f"{k} {v:.1f} ms" for k, v in cpu.items())
                + f" (all: {sum(cpu.values()):.1f} ms)",
                "".join(f"floor (server + Redis) {v:.1f} ms; " for v in floor_cpu.values())
                + "boardgame.io server (saturated): "
                + ", ".join(f"{v:.2f} ms" for v in peer_cpu.values()),
            )
        )
    memory = results.get("memory")
    if memory:
        per_game = memory["finished_game_bytes_median"]
        events = memory["finished_game_events_median"] or 0
        rows.append(
            (
                "Redis memory",
                f"{memory['stream_bytes_per_event']:.0f} B per event (streams), "
                f"{memory['used_memory_per_event']:.0f} B per event (used_memory); "
                f"finished game: {per_game or 0:,.0f} B for {events:.0f} events; "
                f"{memory['finished_keys_with_ttl']} of its keys expire",
                f"{memory['games']:,} games, {memory['events']:,} events",
            )
        )
    ceiling = _runs(results, "ceiling")
    if ceiling:
        c = ceiling[0]
        rows.append(
            (
                "load generator: GET /hello (floor app)",
                f"{c['requests_per_s']:,.0f} req/s",
                f"{c['client_cpu_ms_per_request']:.2f} ms client CPU a request "
                f"(~{1000 / c['client_cpu_ms_per_request']:,.0f} req/s a core)",
            )
        )
    rows.append(
        (
            "load average (1, 5, 15 min) before / after",
            " ".join(f"{x:.2f}" for x in results["load_before"]),
            " ".join(f"{x:.2f}" for x in results.get("load_after", ())),
        )
    )
    return _markdown(rows)


def goals(results):
    """Each goal: the ratio measured now, and met or not."""
    marks = []
    bounds = _bounds(results)

    def mark(goal, value, target, met):
        shown = "-" if value is None else value
        status = "n/a" if value is None else ("met" if met else "NOT met")
        bound = next((b for k, b in bounds.items() if goal.startswith(k)), "-")
        bound = bound if status == "NOT met" else ""
        marks.append((goal, shown, target, status, bound))

    games = sorted({r["games"] for r in _runs(results, "saturated", "tablestream")})
    for n in games:
        r = ratio(
            median(_values(_runs(results, "saturated", "tablestream", n), "moves_per_s")),
            median(_values(_runs(results, "saturated", "boardgame.io", n), "moves_per_s")),
        )
        mark(f"moves/s vs boardgame.io, {n} games", _x(r), ">= 1.0x", r is not None and r >= 1)
    n = max(games) if games else None
    r = ratio(
        median(_values(_runs(results, "saturated", "tablestream", n), "requests_per_s")),
        median(_values(_runs(results, "saturated", "floor", n), "requests_per_s")),
    )
    mark(f"requests/s vs the floor, {n} games", _x(r), ">= 0.5x", r is not None and r >= 0.5)
    half, floor_half = _runs(results, "half", "tablestream"), _runs(results, "half", "floor")
    r = ratio(median(_values(half, "post_p99_ms")), median(_values(floor_half, "post_p99_ms")))
    mark("POST p99 at half load vs the floor", _x(r), "<= 3x", r is not None and r <= 3)
    # Met only when both say so: the lag a client saw and the projector's own.
    for label, runs, most in (
        ("projection lag p99, half load", half, 25),
        ("projection lag p99, saturated", _runs(results, "saturated", "tablestream", n), 100),
    ):
        p99, own = median(_values(runs, "lag_p99_ms")), _worst(runs, "own_p99")
        shown = None if p99 is None else f"client {_ms(p99)}; projector's own {_bound(own)}"
        met = p99 is not None and p99 <= most and (own is None or own <= most)
        mark(label, shown, f"<= {most} ms", met)
    bots = _bots(results)
    if bots:
        many = bots["many"]
        mark(f"bot moves/s, {bots['games']} games", f"{many:.0f}", ">= 1,000", many >= 1000)
        r = bots["ratio"]
        mark(f"bots: {bots['games']} games vs 1", _x(r), ">= 4x", r >= 4)
    flat = [r for r in _runs(results, "flat") if r["target"] == "tablestream"]
    if flat:
        r = ratio(flat[0]["late_p50_ms"], flat[0]["early_p50_ms"])
        mark("flat cost v~2,000 / v~20 (p50)", _x(r), "<= 1.2x", r <= 1.2)
    rebuild = results.get("rebuild")
    if rebuild:
        r = ratio(rebuild["raw_s"], rebuild["rebuild_s"])
        mark("rebuild rate vs raw XRANGE + parse", _x(r), ">= 0.5x", r >= 0.5)
    memory = results.get("memory")
    # Reported here; met once a finished game's read models expire (or shrink) by policy.
    expiring = memory and memory.get("finished_keys_with_ttl")
    mark(
        "memory reported; finished games' read models expire",
        f"reported; {expiring or 0} keys of a finished game expire" if memory else None,
        "a documented policy",
        bool(expiring),
    )
    return _markdown([("goal", "now", "target", "status", "what bounds it (profile)"), *marks])


# Whose profile bounds each goal when it is not met (bench/compare.py --profile).
BOUND_BY = {
    "requests/s vs the floor": "API",
    "POST p99 at half load vs the floor": "API",
    "projection lag p99": "projector",
    "bot moves/s": "worker",
    "flat cost v~2,000 / v~20 (p50)": "API",
}


def _bounds(results):
    """{the start of a goal's name: the line of the profile that bounds it}, with the
    measured ceiling beside it where one applies."""
    shares = results.get("profile_shares", {})

    def line(role):
        found = shares.get(role)
        if not found:
            return "no profile (run with --profile)"
        return f"{role}: " + ", ".join(f"{name} {share:.0%}" for name, share in found[:4])

    bounds = {}
    for n in sorted({r["games"] for r in _runs(results, "saturated", "floor")}):
        # A move is two requests: even the floor makes only this share of the peer's moves.
        floor = [v / 2 for v in _values(_runs(results, "saturated", "floor", n), "requests_per_s")]
        peer = _values(_runs(results, "saturated", "boardgame.io", n), "moves_per_s")
        if floor and peer:
            bounds[f"moves/s vs boardgame.io, {n} games"] = (
                f"{line('API')}; the floor itself makes "
                f"{_x(median(floor) / median(peer))} boardgame.io's moves/s"
            )
    bounds.update((goal, line(role)) for goal, role in BOUND_BY.items())
    half, floor_half = _runs(results, "half", "tablestream"), _runs(results, "half", "floor")
    if all(r.get("cpu_ms_per_move") for r in (*half, *floor_half)) and half and floor_half:
        # A tail is a queue's: the same rate keeps tablestream's cores this much busier.
        ours, floors = sum(_cpu(half).values()), sum(_cpu(floor_half).values())
        bounds["POST p99 at half load vs the floor"] += (
            f"; CPU a move at this rate: {ours:.1f} ms (every process) against the floor's "
            f"{floors:.1f} ms ({_x(ours / floors)})"
        )
    bots = _bots(results)
    if bots and bots.get("in_play") is not None:
        bounds[f"bots: {bots['games']} games vs 1"] = (
            f"{line('worker')}; {bots['cpus']} cores allow {_x(bots['ceiling'])} one game in play"
        )
    return bounds


def _cpu(runs):
    """{role: median CPU ms a move} over these runs ({} with none)."""
    if not runs:
        return {}
    roles = runs[0]["cpu_ms_per_move"].keys()
    return {role: statistics.median(r["cpu_ms_per_move"][role] for r in runs) for role in roles}


def _x(value):
    return "-" if value is None else f"{value:.2f}x"


def _ms(value):
    return "-" if value is None else f"{value:.0f}"


def _bound(value):
    """A histogram quantile, known only up to its bucket's upper bound."""
    return "-" if value is None else f"<= {value:.0f}"


def _own(runs):
    """The projector's own p50/p99 over these runs: the worst run's bucket bounds (a
    median of two bounds would be no bound at all)."""
    p50, p99 = _worst(runs, "own_p50"), _worst(runs, "own_p99")
    return "-" if p50 is None else f"{_bound(p50)}/{_bound(p99)}"


def _worst(runs, key):
    values = _values(runs, key)
    return max(values) if values else None


def _markdown(rows):
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for n, row in enumerate(rows):
        lines.append(
            "| " + " | ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)) + " |"
        )
        if n == 0:
            lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def plots(results, raw, folder):
    """Throughput against concurrent games, and latency CDFs; answer the PNG paths."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    folder = Path(folder)
    paths = []
    figure, axes = pyplot.subplots(figsize=(8.5, 4.5))
    for target in ("tablestream", "boardgame.io", "floor"):
        runs = _runs(results, "saturated", target)
        games = sorted({r["games"] for r in runs})
        if not games:
            continue
        meds = [
            median(_values(_runs(results, "saturated", target, g), "moves_per_s")) for g in games
        ]
        lows = [
            m - min(_values(_runs(results, "saturated", target, g), "moves_per_s"))
            for g, m in zip(games, meds, strict=True)
        ]
        highs = [
            max(_values(_runs(results, "saturated", target, g), "moves_per_s")) - m
            for g, m in zip(games, meds, strict=True)
        ]
        axes.errorbar(games, meds, yerr=[lows, highs], marker="o", capsize=4, label=target)
    axes.set_xlabel("concurrent games (one loop each)")
    axes.set_ylabel("moves/s (median, range)")
    axes.set_title("Throughput against concurrent games")
    axes.set_ylim(bottom=0)
    # Beside the axes, so that it never hides a line (it sat on tablestream's).
    axes.legend(loc="upper left", bbox_to_anchor=(1.02, 1), borderaxespad=0)
    axes.grid(alpha=0.3)
    paths.append(_save(figure, folder / "throughput.png"))

    figure, (left, right) = pyplot.subplots(1, 2, figsize=(12, 5.5))
    for label, data in sorted(raw.items()):
        if data.get("post_ms") and any(
            k in label for k in ("50 games #1", "half load #1", "light")
        ):
            _cdf(left, data["post_ms"], f"{label}")
        if data.get("lag_ms") and any(k in label for k in ("50 games #1", "half load #1", "light")):
            _cdf(right, data["lag_ms"], f"{label}")
    left.set_title("POST latency CDF")
    right.set_title("projection lag CDF (answer -> view shows it)")
    for axes in (left, right):
        axes.set_xscale("log")
        axes.set_xlabel("ms (log)")
        axes.set_ylabel("fraction of moves")
        axes.grid(alpha=0.3, which="both")
        axes.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.15), ncol=2)
    paths.append(_save(figure, folder / "latency_cdf.png"))
    return paths


def _cdf(axes, values, label):
    ordered = sorted(values)
    n = len(ordered)
    axes.plot(ordered, [(i + 1) / n for i in range(n)], label=f"{label} (n={n})")


def _save(figure, path):
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    from matplotlib import pyplot

    pyplot.close(figure)
    return path
