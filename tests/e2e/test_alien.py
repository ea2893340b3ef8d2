"""Alien, the real-time game, over HTTP against the real processes: the bots claim
CAPTURED! and stack on their own, after their reaction delay, through RQ."""

import random
import time

import pytest

pytestmark = pytest.mark.e2e


def test_a_human_and_three_bots_finish_a_game_of_alien(stack):
    client = stack
    bots = [{"bot": "random", "reaction_seconds": 0.1}] * 3
    game = client.create([{"name": "ana"}, *bots], game="alien", seed=4)
    token, rng = game["seats"][0]["token"], random.Random(4)
    deadline = time.monotonic() + 240
    while True:
        assert time.monotonic() < deadline, "the game did not finish in time"
        view = client.view(game["id"], token)
        if view["status"] == "finished":
            break
        if not view["legal"]:
            time.sleep(0.02)
            continue
        # The scripted human: any legal command, with the version it saw.
        command = {**rng.choice(view["legal"]), "expected_version": view["version"]}
        response = client.command(game["id"], token, command)
        assert response.status_code in (200, 409, 422), response.text
    log, _ = client.events(game["id"])
    bot_claims = [e for e in log if e["type"] == "claimed" and e["seat"] != 0]
    bot_stacks = [e for e in log if e["type"] == "stacked" and e["seat"] != 0]
    assert bot_claims, "no bot ever shouted CAPTURED!"
    assert bot_stacks, "no bot ever stacked"
    result = view["result"]
    assert len(result["scores"]) == 4 and max(result["scores"]) >= 4
    assert result["winners"] == [result["scores"].index(max(result["scores"]))]
