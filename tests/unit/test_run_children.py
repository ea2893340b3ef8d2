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
