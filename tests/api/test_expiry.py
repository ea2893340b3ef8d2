"""An expired game, as a client sees it through the API."""

from services import deps as deps_module
from services.api.games import CONTRACTS
from services.worker import jobs


def test_an_expired_game_is_called_off_with_a_documented_event(client, deps, projector):
    answer = client.post(
        "/v1/games",
        json={"game": "alebrijes", "seats": [{"name": "creator"}, {"open": True}]},
    )
    game = answer.get_json()
    deps_module.install(deps)
    try:
        assert jobs.expire_game(game["id"], game["version"], "no_players") == "expired"
    finally:
        deps_module.install(None)
    projector.project(game["id"])
    log = client.get(f"/v1/games/{game['id']}/events?limit=10").get_json()["events"]
    assert log[-1]["type"] == "game_expired"
    assert CONTRACTS["alebrijes"].events["game_expired"]().validate(log[-1]) == {}
    assert client.get(f"/v1/games/{game['id']}").get_json()["status"] == "cancelled"
