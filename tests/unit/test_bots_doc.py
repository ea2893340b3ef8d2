"""docs/bots.md's examples of plugins, the fairness check and the environments run as
written: the plugin module and its pyproject entry point are installed as a tiny
distribution and play; the policy module becomes a level; the environment loop and the
commands run. (`tablestream bot run` runs in tests/e2e/test_bot_runner.py.)"""

import re
import subprocess
import sys
import tomllib

from services import fairness
from shared import table
from shared.bots import registry
from tests import bot_plugins
from tests.docs_blocks import blocks
from tests.e2e.conftest import ROOT

DOC = (ROOT / "docs" / "bots.md").read_text()


def _block(first_line):
    found = [b for b in blocks(DOC) if b.splitlines()[0].startswith(first_line)]
    assert found, f"docs/bots.md has no block starting {first_line!r}"
    return found


def test_the_plugin_example_installs_takes_a_seat_and_passes_the_check(tmp_path):
    (module,) = _block("# mybot.py")
    (config,) = _block("# pyproject.toml")
    (tmp_path / "mybot.py").write_text(module)
    entries = tomllib.loads(config)["project"]["entry-points"][registry.GROUP]
    with bot_plugins.installed(tmp_path, entries):
        assert registry.get("mybot", "alien").description == "captures first"
        created = table.create("g", "alien", [{"bot": "mybot"}, {"name": "b"}], {}, "s")
        assert created[0]["seats"][0]["bot"] == "mybot"
        report = fairness.check("mybot", positions=3)
        assert report.passed and report.positions["alien"] > 0
    sys.modules.pop("mybot", None)


def test_the_policy_example_is_a_level(tmp_path):
    (module,) = _block("# mypolicy.py")
    (tmp_path / "mypolicy.py").write_text(module)
    with bot_plugins.installed(tmp_path, {"mypolicy": "mypolicy:LEVEL"}):
        assert registry.get("mypolicy", "alien").games == ("alien",)
        assert fairness.check("mypolicy", positions=3).passed
    sys.modules.pop("mypolicy", None)


def test_the_environment_loop_runs_a_game_to_its_end(capsys):
    (loop,) = [b for b in blocks(DOC) if b.startswith("import numpy as np\n\nfrom shared.envs")]
    exec(compile(loop, "docs/bots.md", "exec"), {})
    winners = capsys.readouterr().out.strip()
    assert re.fullmatch(r"\[[0-9, ]+\]", winners)


def test_the_check_and_the_example_commands_run():
    for command in [*_block("tablestream bots check"), *_block("python -m shared.envs.example")]:
        argv = command.split()
        argv = (
            [sys.executable, "-m", "services.cli", *argv[1:]]
            if argv[0] == "tablestream"
            else [
                sys.executable,
                *argv[1:],
            ]
        )
        done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "PASS" in done.stdout or "eager vs greedy" in done.stdout
