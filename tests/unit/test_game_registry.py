"""The games' registry (shared/games/__init__.py): entry points in `tablestream.games`,
read on first use, the built-in four first, a missing built-in said loudly, and a game's
optional parts found in its own package."""

from importlib import metadata

import pytest

from shared import games


class Point:
    def __init__(self, name, value):
        self.name, self.value = name, value


@pytest.fixture
def fresh(monkeypatch):
    """The registry as if never read, with the entry points a test gives it; restored after."""
    assert games.NAMES  # read once for real, so that there is a NAMES to restore
    monkeypatch.setattr(games, "_packages", None)
    monkeypatch.setattr(games, "_MODULES", {})
    monkeypatch.delattr(games, "NAMES")  # read again through __getattr__, as at first
    games.__getattr__ = games._first_read  # gone again once the registry is read

    def given(points):
        monkeypatch.setattr(
            metadata, "entry_points", lambda group: [Point(n, v) for n, v in points]
        )

    yield given
    vars(games).pop("__getattr__", None)  # as after the real first read


def test_the_built_in_games_come_first_in_their_order_then_the_others_by_name(fresh):
    built_in = [(name, f"shared.games.{name}") for name in sorted(games.FIRST)]
    fresh([("zeta", "z.game"), ("beta", "b.game"), *built_in])
    assert games.NAMES == (*games.FIRST, "beta", "zeta")
    assert games.packages()["zeta"] == "z.game"


def test_an_install_without_the_games_entry_points_is_refused_loudly(fresh):
    fresh([])
    with pytest.raises(RuntimeError, match="reinstall tablestream"):
        games.NAMES  # noqa: B018


def test_once_read_names_is_a_plain_attribute(fresh):
    fresh([(name, f"shared.games.{name}") for name in games.FIRST])
    assert games.get("alien").NAME == "alien"  # reads the registry
    assert "NAMES" in vars(games) and "__getattr__" not in vars(games)


def test_a_game_not_registered_is_an_unknown_game():
    with pytest.raises(games.RuleError) as refused:
        games.get("chess")
    assert refused.value.code == "unknown_game" and "alebrijes" in refused.value.message


def test_a_games_parts_are_found_in_its_own_package():
    assert games.part("alien", "contract").__name__ == "shared.games.alien.contract"
    assert games.part("alien", "actions").__name__ == "shared.games.alien.actions"
    assert games.part("alien", "bot") is None  # its bot lives in shared/bots/games/alien


def test_the_games_import_only_the_standard_library_marshmallow_and_each_other():
    """Rules are pure; a contract beside them adds marshmallow, a plain library (no I/O,
    no Flask, Redis, clock or randomness of its own)."""
    import ast
    import sys
    from pathlib import Path

    allowed = {*sys.stdlib_module_names, "marshmallow", "shared"}
    found = set()
    for path in Path(games.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top not in allowed or (top == "shared" and not name.startswith("shared.games")):
                    found.add(f"{path.name}: {name}")
    assert found == set()
