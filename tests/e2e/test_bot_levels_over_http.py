"""Every bot level plays every game through the API: a game created over HTTP with a
`random`, a `greedy` and an `ismcts` seat runs to its end on the real processes
(gunicorn, projector, RQ workers, embedded Redis), and each level's seat moved."""

import time

import pytest

from shared import games

pytestmark = pytest.mark.e2e

WALL_CLOCK = 180.0  # seconds a game may take before the test gives up
LEVELS = ("random", "greedy", "ismcts")
SHORT = {"alebrijes": {"rounds": 1}}  # options that keep a game short


@pytest.mark.parametrize("game", games.NAMES)
def test_each_level_plays_a_whole_game_over_http(stack, game):
    client = stack
    seats = [{"bot": level} for level in LEVELS]
    seats[LEVELS.index("ismcts")]["think_ms"] = 50
    if game == "alien":  # reaction delays are Alien's alone
        for seat in seats:
            seat["reaction_seconds"] = 0
    created = client.create(seats, game=game, seed=11, **SHORT.get(game, {}))
    game_id = created["id"]

    deadline = time.monotonic() + WALL_CLOCK
    while (summary := client.call("GET", f"/v1/games/{game_id}").json())["status"] != "finished":
        assert time.monotonic() < deadline, f"{game} {game_id} still {summary['status']}"
        time.sleep(0.2)

    events, _ = client.events(game_id)
    movers = {e["seat"] for e in events if e["type"] == "commanded" and e.get("by") == "bot"}
    assert movers == {0, 1, 2}, f"seats that moved as bots: {sorted(movers)}"
    assert [s["bot"] for s in summary["seats"]] == list(LEVELS)
