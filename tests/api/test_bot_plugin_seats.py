"""A seat asks for a plugin's level by name: one installed that plays the game takes
the seat; one missing, broken or that does not play the game is a 400 bad_request
naming the levels there are, and nothing is written."""

import pytest

from tests import bot_plugins


@pytest.fixture
def plugins(tmp_path):
    with bot_plugins.installed(tmp_path, {**bot_plugins.ENTRIES, **bot_plugins.BROKEN}) as found:
        yield found


def create(client, game, seats, **options):
    return client.post("/v1/games", json={"game": game, "seats": seats, "options": options})


def test_a_plugin_level_takes_a_seat_and_the_takeover(client, plugins):
    response = create(client, "alien", [{"bot": "alien_only"}, {"name": "b"}], takeover_bot="first")
    assert response.status_code == 201, response.get_json()
    game = response.get_json()
    assert game["seats"][0]["bot"] == "alien_only"
    assert client.get(f"/v1/games/{game['id']}").get_json()["options"]["takeover_bot"] == "first"


@pytest.mark.parametrize(
    ("level", "why"),
    [
        ("deepbot", "unknown bot 'deepbot'"),
        ("missing_module", "did not load"),
        ("not_a_level", "not a shared.bots.registry.Level"),
        ("plays_chess", "chess"),
        ("alien_only", "does not play alebrijes (it plays alien)"),
    ],
)
@pytest.mark.parametrize("where", ["seat", "takeover_bot"])
def test_a_level_that_cannot_play_the_game_is_a_bad_request_naming_the_levels(
    client, deps, plugins, level, why, where
):
    if where == "seat":
        response = create(client, "alebrijes", [{"bot": level}, {"name": "b"}])
    else:
        response = create(client, "alebrijes", [{"name": "a"}, {"name": "b"}], takeover_bot=level)
    problem = response.get_json()
    assert response.status_code == 400 and problem["code"] == "bad_request"
    errors = str(problem["errors"])
    assert why in errors
    assert "the levels are random, greedy, ismcts, first, raises" in errors
    assert "alien_only" not in errors.split("the levels are")[1]  # it does not play alebrijes
    assert deps.store.game_ids() == []
