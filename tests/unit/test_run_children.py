"""`make run`'s children (services/run.py): how many projectors, and their names."""

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
