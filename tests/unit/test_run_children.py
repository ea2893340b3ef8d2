"""services/run.py: which processes `make run` supervises (none is started here)."""

from services import run


def names(env, tmp_path):
    return [child.name for child in run.children(env, tmp_path)]


def test_make_run_starts_two_bot_workers_by_default(tmp_path):
    """Two bot workers play two games' bot chains at once (docs/operations.md)."""
    found = names({"REDIS_URL": "redis://127.0.0.1:1/0"}, tmp_path)
    assert [n for n in found if n.startswith("worker-")] == ["worker-1", "worker-2"]
    assert {"api", "projector", "timers", "webhooks"} <= set(found) and "redis" not in found


def test_workers_sets_how_many_bot_workers(tmp_path):
    found = names({"REDIS_URL": "redis://127.0.0.1:1/0", "WORKERS": "3"}, tmp_path)
    assert [n for n in found if n.startswith("worker-")] == ["worker-1", "worker-2", "worker-3"]
