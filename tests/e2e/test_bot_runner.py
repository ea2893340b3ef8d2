"""`tablestream bot run`: a bot level plays a human's seat through the public API (the
real processes; one runner over the WebSocket, one long-polling), beside the server's
own bots, to the game's end; a level that is not installed is refused before any
request."""

import json
import subprocess
import sys

import pytest

from tests.docs_blocks import blocks
from tests.e2e.conftest import ROOT

pytestmark = pytest.mark.e2e

WALL_CLOCK = 180  # seconds a game may take


def bot_run(client, token, level, *extra):
    command = [sys.executable, "-m", "services.cli", "bot", "run", "--url", client.base]
    command += ["--token", token, "--level", level, "--max-seconds", str(WALL_CLOCK), *extra]
    return subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


@pytest.mark.parametrize(
    ("game", "options"), [("alebrijes", {"rounds": 1}), ("alien", {})], ids=["alebrijes", "alien"]
)
def test_runners_play_seats_over_http_to_the_end(stack, game, options):
    seats = [{"name": "ana"}, {"name": "bo"}, {"bot": "greedy", "reaction_seconds": 0}]
    created = stack.create(seats, game=game, seed=12, **options)
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"][:2]]
    runners = [
        bot_run(stack, tokens[0], "greedy", "--transport", "ws"),
        bot_run(stack, tokens[1], "random", "--transport", "poll"),
    ]
    outputs = [runner.communicate(timeout=WALL_CLOCK + 30) for runner in runners]
    for runner, (out, err), transport in zip(runners, outputs, ("ws", "poll"), strict=True):
        assert runner.returncode == 0, err.decode()
        ended = json.loads(out.decode().strip().splitlines()[-1])
        assert ended["status"] == "finished" and ended["sent"] > 0
        assert ended["transport"] == transport
    summary = stack.call("GET", f"/v1/games/{game_id}").json()
    assert summary["status"] == "finished"
    assert [s["bot"] for s in summary["seats"]] == [None, None, "greedy"]  # players, not bots
    events, _ = stack.events(game_id)
    by = {(e["seat"], e["by"]) for e in events if e["type"] == "commanded"}
    assert {(0, "holder"), (1, "holder"), (2, "bot")} <= by, by


def test_a_runner_refuses_a_level_that_is_not_installed(stack):
    created = stack.create([{"name": "ana"}, {"bot": "random"}], seed=3)
    runner = bot_run(stack, created["seats"][0]["token"], "genius")
    out, err = runner.communicate(timeout=60)
    assert runner.returncode == 2 and b"the levels are random, greedy, ismcts" in err
    events, _ = stack.events(created["id"])
    assert not [e for e in events if e["type"] == "commanded" and e["seat"] == 0]


def test_the_runner_command_of_docs_bots_md_runs_as_written(stack):
    """The document's command, with only what a reader substitutes changed: the
    server's address and TOKEN."""
    (command,) = [b for b in blocks((ROOT / "docs" / "bots.md").read_text()) if "bot run" in b]
    created = stack.create([{"name": "ana"}, {"bot": "random"}], game="alebrijes", rounds=1)
    argv = command.replace("http://127.0.0.1:8000", stack.base).split()
    argv = [sys.executable, "-m", "services.cli", *argv[1:]]
    argv[argv.index("TOKEN")] = created["seats"][0]["token"]
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=WALL_CLOCK)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1])["status"] == "finished"
