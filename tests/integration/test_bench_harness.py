"""The benchmark's pieces start and answer (bench/compare.py runs them for real; no
timings are asserted here): the floor app, the load generator against it for one
second, and the profile summary."""

import logging
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from bench import ab, floor, load, post_tail, pyspy, report, stats, systems

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def floor_app(redis_url, real_redis):
    yield floor.create_app(redis_url)
    for key in [floor.VIEW_KEY, *real_redis.scan_iter(match="floor:{*}:events")]:
        real_redis.delete(key)


def test_the_floor_answers_a_view_and_appends_a_command(floor_app, real_redis):
    client = floor_app.test_client()
    assert client.get("/hello").status_code == 200
    view = client.get("/v1/floor/g1/view")
    assert view.status_code == 200 and 1800 <= len(view.data) <= 2200
    answer = client.post("/v1/floor/g1/commands", json={"type": "pass"})
    assert answer.status_code == 200
    assert real_redis.xlen("floor:{g1}:events") == 1


def test_the_load_generator_drives_the_floor_for_one_second(floor_app, real_redis):
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # not a line per request
    server = make_server("127.0.0.1", 0, floor_app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        base = f"http://127.0.0.1:{server.server_port}"
        summary, raw = load.run("floor", base, games=2, seconds=1, warmup=0, processes=1)
    finally:
        server.shutdown()
    assert summary["errors"] == 0
    # Moves answered in the one-second window; a few more finish after it.
    assert 0 < len(raw["post_ms"]) == summary["moves_per_s"] <= summary["all_moves"]
    appended = sum(real_redis.xlen(f"floor:{{g{n}}}:events") for n in range(2))
    assert appended == summary["all_moves"]
    assert summary["post_p50_ms"] <= summary["post_p99_ms"]


def test_a_profile_is_summed_by_library_and_by_our_code(tmp_path):
    raw = tmp_path / "api-1.txt"
    raw.write_text(
        "run (gunicorn/arbiter.py:10);_view (services/api/play.py:70);"
        "get (redis/commands/core.py:5) 3\n"
        "run (gunicorn/arbiter.py:10);view (shared/games/alebrijes/views.py:9) 1\n"
    )
    result = pyspy.summary([raw])
    assert result["samples"] == 4
    assert dict(result["buckets"]) == {"redis-py I/O": 0.75, "rules (shared/games)": 0.25}
    assert result["ours"][0] == ("_view (services/api/play.py)", 0.75)


def test_the_table_sets_the_floor_against_boardgame_io_as_moves(tmp_path):
    # The floor's requests/s over two (a move is a POST and a GET) against boardgame.io's
    # moves/s: the ceiling of the human-move goal on a Flask+gunicorn stack.
    runs = [
        {"kind": "saturated", "target": "floor", "games": 10, "requests_per_s": 1300},
        {"kind": "saturated", "target": "floor", "games": 10, "requests_per_s": 1500},
        {"kind": "saturated", "target": "boardgame.io", "games": 10, "moves_per_s": 1000},
        {"kind": "saturated", "target": "tablestream", "games": 10, "moves_per_s": 150},
    ]
    rows = report.table({"runs": runs, "load_before": (1.0, 1.0, 1.0)})
    line = next(r for r in rows.splitlines() if "the floor as moves/s, 10 games" in r)
    assert "700 (650-750)" in line and "(0.70x)" in line


def test_bot_games_are_set_against_one_game_round_by_round_and_against_the_cores():
    # Two interleaved rounds of (1 game, 8 games). A ratio is taken within a round, then
    # the median; the cores' ceiling is cpus / (CPU a move at 8 games) over one game's
    # rate in play: 2 cores / 1 ms a move = 2,000 moves/s = 2.0x a game playing 1,000.
    def run(games, rate, in_play):
        return {"kind": "bots", "target": "tablestream", "games": games, "moves_per_s": rate,
                "moves_per_s_in_play": in_play, "redis_commands_per_move": 4,
                "cpu_ms_per_move": {"worker": 0.6, "Redis": 0.4}, "cpus": 2}  # fmt: skip

    runs = [run(1, 500, 1000), run(8, 1500, 1800), run(1, 1000, 1000), run(8, 2000, 1800)]
    results = {"runs": runs, "load_before": (1.0, 1.0, 1.0)}
    bots = report._bots(results)
    assert bots["ratio"] == (1500 / 500 + 2000 / 1000) / 2  # not 1,750 / 750
    assert bots["in_play"] == 1.8
    assert bots["ceiling"] == 2.0
    line = next(r for r in report.table(results).splitlines() if "four random bots" in r)
    assert "in play 1000 / 1800 (1.80x); 2 cores allow 2.00x one game in play" in line
    goal = next(r for r in report.goals(results).splitlines() if "8 games vs 1" in r)
    assert "2.50x" in goal and "NOT met" in goal


def test_the_projectors_own_lag_is_read_from_its_histogram_between_two_readings():
    # Cumulative buckets (seconds -> count) before and after a window: 100 writes in it,
    # 60 within 5 ms, 97 within 100 ms, 3 more within 250 ms.
    before = {0.005: 10, 0.025: 10, 0.1: 10, 0.25: 10, float("inf"): 10}
    after = {0.005: 70, 0.025: 90, 0.1: 107, 0.25: 110, float("inf"): 110}
    found = systems.lag_quantiles(before, after)
    assert found == {"own_p50": 5.0, "own_p99": 250.0, "own_le_25ms": 0.8, "own_le_100ms": 0.97}
    assert systems.lag_quantiles(after, after) == {}  # nothing written in the window


def _lag_results(client_p99, own_p99, shares=None):
    runs = [
        {"kind": "saturated", "target": "tablestream", "games": 50, "moves_per_s": 300,
         "requests_per_s": 600, "lag_p50_ms": 20, "lag_p99_ms": client_p99, "own_p50": 5.0,
         "own_p99": own_p99},
        {"kind": "saturated", "target": "floor", "games": 50, "requests_per_s": 1000},
        {"kind": "saturated", "target": "boardgame.io", "games": 50, "moves_per_s": 1000},
    ]  # fmt: skip
    results = {"runs": runs, "load_before": (1.0, 1.0, 1.0)}
    if shares:
        results["profile_shares"] = shares
    return results


def _goal(results, name):
    return next(r for r in report.goals(results).splitlines() if name in r)


def test_a_lag_goal_is_met_only_when_the_client_and_the_projector_both_meet_it():
    assert "| met" in _goal(_lag_results(80, 50.0), "projection lag p99, saturated")
    # The client saw 80 ms, but the projector's own p99 lies in the (100, 250] ms bucket.
    line = _goal(_lag_results(80, 250.0), "projection lag p99, saturated")
    assert "client 80; projector's own <= 250" in line and "NOT met" in line
    assert "NOT met" in _goal(_lag_results(300, 50.0), "projection lag p99, saturated")
    table = report.table(_lag_results(80, 250.0))
    assert "<= 5/<= 250" in next(r for r in table.splitlines() if "projector's own lag" in r)


def test_over_several_runs_the_projectors_own_lag_is_the_worst_runs_bucket():
    results = _lag_results(80, 100.0)
    results["runs"].append({**results["runs"][0], "own_p50": 10.0, "own_p99": 250.0})
    line = _goal(results, "projection lag p99, saturated")
    assert "projector's own <= 250" in line and "NOT met" in line  # not "<= 175"
    table = report.table(results)
    assert "<= 10/<= 250" in next(r for r in table.splitlines() if "projector's own lag" in r)


def test_a_goal_not_met_names_the_profile_line_that_bounds_it():
    shares = {
        "API": [("gunicorn HTTP", 0.39), ("redis-py I/O", 0.23), ("rules", 0.03)],
        "projector": [("redis-py I/O", 0.6), ("tablestream services/", 0.17)],
    }
    results = _lag_results(300, 250.0, shares)
    line = _goal(results, "moves/s vs boardgame.io, 50 games")
    assert "API: gunicorn HTTP 39%, redis-py I/O 23%, rules 3%" in line
    # A move is two requests: the floor's 1,000 requests/s are 0.50x boardgame.io's moves.
    assert "the floor itself makes 0.50x boardgame.io's moves/s" in line
    assert "projector: redis-py I/O 60%" in _goal(results, "projection lag p99, saturated")
    met = _goal(results, "requests/s vs the floor")  # 0.60x: met, so nothing bounds it
    assert "| met" in met and "API:" not in met
    unprofiled = _goal(_lag_results(300, 250.0), "moves/s vs boardgame.io")
    assert "no profile (run with --profile)" in unprofiled


def test_a_tail_at_half_load_is_set_beside_the_cpu_each_system_spends_on_that_rate():
    half = {"kind": "half", "games": 50, "rate": 150, "post_p50_ms": 3, "post_p99_ms": 20}
    runs = [
        {**half, "target": "tablestream", "cpu_ms_per_move": {"API": 2.0, "projector": 1.0}},
        {**half, "target": "floor", "post_p99_ms": 4, "cpu_ms_per_move": {"floor": 0.6}},
    ]
    results = {"runs": runs, "load_before": (1.0, 1.0, 1.0), "profile_shares": {}}
    goal = _goal(results, "POST p99 at half load vs the floor")
    assert "5.00x" in goal and "NOT met" in goal
    assert (
        "CPU a move at this rate: 3.0 ms (every process) against the floor's 0.6 ms (5.00x)" in goal
    )
    row = next(r for r in report.table(results).splitlines() if "CPU per move at half" in r)
    assert (
        "API 2.0 ms, projector 1.0 ms (all: 3.0 ms)" in row
        and "floor (server + Redis) 0.6 ms" in row
    )


def test_post_tail_reads_the_share_answered_within_each_bound_over_a_window():
    before = {0.001: 5, 0.0025: 5, 0.005: 5, float("inf"): 5}
    after = {0.001: 45, 0.0025: 85, 0.005: 100, float("inf"): 105}  # 100 in the window
    found = post_tail.shares(before, after)
    assert (found[0.001], found[0.0025], found[0.005]) == (0.4, 0.8, 0.95)
    assert found[0.25] == 0.0  # a bound the API did not report counts nothing


def test_request_cpu_times_the_move_paths_requests_and_the_floors():
    """bench/request_cpu.py plays a few moves in-process (its own Redis) and prints a
    figure for each kind of request, no timing asserted."""
    done = subprocess.run(
        [sys.executable, "-m", "bench.request_cpu", "--moves", "5", "--rounds", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    for kind in ("POST command", "GET view (long-poll, moved)", "floor POST", "floor GET"):
        assert f"  {kind}: " in done.stdout


def test_percentiles_are_measured_values_and_nothing_summarises_to_none():
    assert stats.percentile([5, 1, 3, 2, 4], 0.5) == 3
    assert stats.percentile(range(1, 101), 0.99) == 100  # nearest rank, not interpolated
    assert stats.percentile([], 0.99) is None and stats.median([]) is None
    assert stats.spread([3, 1, 2]) == "2 (1-3)" and stats.ratio(1, 0) is None


def test_the_ab_harness_turns_the_order_each_rep_and_takes_medians_per_field():
    assert [ab.order(2, rep) for rep in range(3)] == [[0, 1], [1, 0], [0, 1]]
    assert ab.parse_tree("/tmp/base:WORKERS=3")[1] == {"WORKERS": "3"}
    assert ab.last_json('noise\n{"rate": 2, "name": "x"}\n') == {"rate": 2, "name": "x"}
    assert ab.last_json("no summary\n") is None
    assert ab.medians([{"rate": 1, "name": "x"}, {"rate": 3, "name": "y"}]) == {"rate": 2}


def test_the_ab_harness_runs_a_benchmark_with_the_trees_own_services(tmp_path):
    # A tree with a services/ of its own and a probe that says where its imports came
    # from: services from the tree under test, bench from this checkout.
    (tmp_path / "services").mkdir()
    (tmp_path / "services" / "__init__.py").write_text("")
    (tmp_path / "probe.py").write_text(
        "import json, pathlib, bench, services\n"
        "found = {'services': services.__file__, 'bench': pathlib.Path(bench.__file__).resolve()}\n"
        "print(json.dumps(found, default=str))\n"
    )
    done = ab.run_in_tree(tmp_path, "probe", [], timeout=60)
    found = ab.last_json(done.stdout)
    assert found["services"] == str(tmp_path / "services" / "__init__.py")
    assert found["bench"] == str(ROOT / "bench" / "__init__.py")
