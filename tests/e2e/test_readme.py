"""The README's curl examples run as written against `make run`'s stack.

Every indented block of README.md that starts with `curl` is run by bash, in order,
with only what a reader substitutes changed: the server's address (the stack listens on
a free port, not 8000), `ID` and `TOKEN` (from the creation's answer), `PLAYER` (the
token of the player the README makes). The README waits for the bots itself
(`until=turn`); before the replay examples the test plays the game to its end, as a
reader would. Every answer must be a 2xx.
"""

import json
import re
import subprocess
import time

import pytest

from tests.e2e.conftest import ROOT

pytestmark = pytest.mark.e2e


def curl_blocks(text):
    """The curl commands of the README's indented code blocks, in order, each as its
    lines (bash reads the line continuations and the quoted newlines)."""
    commands = []
    for line in text.splitlines():
        if not line.startswith("    "):
            continue
        if line.strip().startswith("curl"):
            commands.append(line.strip())
        elif commands and (commands[-1].endswith("\\") or commands[-1].count("'") % 2):
            commands[-1] += "\n" + line.strip()
    return commands


def run(command, cwd):
    done = subprocess.run(
        ["bash", "-c", command + " -w '\\n%{http_code}'"],
        capture_output=True,
        text=True,
        timeout=30,
        cwd=cwd,
    )
    assert done.returncode == 0, done.stderr
    body, _, status = done.stdout.rpartition("\n")
    return int(status), body


AFTER_THE_END = ("/replay", "/export", "/v1/replays", "/fork")


def finish(client, game_id, token):
    """Play seat 0's first legal command until the game is over, as a reader would."""
    deadline = time.monotonic() + 60
    while (view := client.view(game_id, token))["status"] == "active":
        assert time.monotonic() < deadline, "the game did not end"
        if 0 in view["to_act"] and view["legal"]:
            client.command(game_id, token, view["legal"][0])
        else:
            time.sleep(0.05)  # the bots' turns


def test_every_curl_example_of_the_readme_runs(stack, tmp_path):
    blocks = curl_blocks((ROOT / "README.md").read_text())
    assert len(blocks) >= 5 and "POST localhost:8000/v1/games " in blocks[0]
    address = stack.base.removeprefix("http://")
    game_id = token = player = None
    for block in blocks:
        command = block.replace("localhost:8000", address)
        if game_id is not None:
            command = re.sub(r"/ID/", f"/{game_id}/", command)
            command = command.replace("Bearer TOKEN", f"Bearer {token}")
        if player is not None:
            command = command.replace("Bearer PLAYER", f"Bearer {player}")
            if any(path in command for path in AFTER_THE_END):
                finish(stack, game_id, token)
        status, body = run(command, tmp_path)
        assert 200 <= status < 300, f"{block}\n-> {status} {body}"
        saved = tmp_path / "game.json"
        answer = (
            json.loads(body) if body else json.loads(saved.read_text()) if saved.exists() else {}
        )
        if "/v1/players " in command and "-X POST" in command:
            player = answer["token"]
            continue
        if "/v1/players" in command or "Bearer PLAYER" in block:
            continue  # the player's own game and inbox: the first game is still the one
        if game_id is None:
            game_id = answer["id"]
            token = answer["seats"][0]["token"]
    assert game_id is not None
    assert any("until=turn" in block for block in blocks)
