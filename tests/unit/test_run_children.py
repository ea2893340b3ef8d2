"""services/run.py: which processes `make run` supervises, how many of each, and their
names (none is started here)."""

from services import run


def names(tmp_path, **env):
    base = {"REDIS_URL": "redis://127.0.0.1:1/0", "METRICS_PORT": "0"}
    return [child.name for child in run.children({**base, **env}, tmp_path)]


def test_one_projector_unless_projectors_says_more(tmp_path):
    assert [n for n in names(tmp_path) if n.startswith("projector")] == ["projector"]
    more = names(tmp_path, PROJECTORS="3")
    assert [n for n in more if n.startswith("projector")] == [
        "projector",
        "projector-2",
        "projector-3",
    ]


def test_make_run_starts_two_bot_workers_by_default(tmp_path):
    """Two bot workers play two games' bot chains at once (docs/operations.md)."""
    found = names(tmp_path)
    assert [n for n in found if n.startswith("worker-")] == ["worker-1", "worker-2"]
    assert {"api", "projector", "timers", "webhooks"} <= set(found) and "redis" not in found


def test_workers_sets_how_many_bot_workers(tmp_path):
    found = names(tmp_path, WORKERS="3")
    assert [n for n in found if n.startswith("worker-")] == ["worker-1", "worker-2", "worker-3"]


def test_background_nice_lowers_the_projectors_and_workers_cpu_priority(tmp_path):
    """BACKGROUND_NICE (off by default) niceness for every child but the API (and
    Redis, which `names` leaves out here)."""
    base = {"REDIS_URL": "redis://127.0.0.1:1/0", "METRICS_PORT": "0"}
    nice = {c.name: c.nice for c in run.children(base, tmp_path)}
    assert nice.pop("background-1") == 10  # games of bots only: always lower
    assert set(nice.values()) == {0}
    nice = {c.name: c.nice for c in run.children({**base, "BACKGROUND_NICE": "5"}, tmp_path)}
    assert nice.pop("api") == 0 and nice.pop("background-1") == 15
    assert set(nice.values()) == {5} and {"projector", "timers", "worker-1"} <= set(nice)


def test_games_of_bots_only_get_workers_of_their_own(tmp_path):
    assert [n for n in names(tmp_path) if n.startswith("background-")] == ["background-1"]
    more = names(tmp_path, BACKGROUND_WORKERS="2")
    assert [n for n in more if n.startswith("background-")] == ["background-1", "background-2"]


def test_a_child_starts_with_its_niceness_raised():
    import os
    import signal
    import subprocess
    import sys

    show = [sys.executable, "-c", "import os; print(os.nice(0))"]
    prepare = run._prepare(signal.SIGTERM, 3)
    shown = subprocess.run(show, preexec_fn=prepare, capture_output=True, text=True, check=True)
    assert int(shown.stdout) == min(19, os.nice(0) + 3)
