"""The benchmark's pieces start and answer (bench/compare.py runs them for real; no
timings are asserted here): the floor app, the load generator against it for one
second, and the profile summary."""

import logging
import sys
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import floor  # noqa: E402
import load  # noqa: E402
import pyspy  # noqa: E402
import report  # noqa: E402


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


def test_request_cpu_times_the_move_paths_requests_and_the_floors():
    """bench/request_cpu.py plays a few moves in-process (its own Redis) and prints a
    figure for each kind of request, no timing asserted."""
    import subprocess

    done = subprocess.run(
        [sys.executable, str(BENCH / "request_cpu.py"), "--moves", "5", "--rounds", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    for kind in ("POST command", "GET view (long-poll, moved)", "floor POST", "floor GET"):
        assert f"  {kind}: " in done.stdout
