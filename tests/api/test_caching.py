"""What caches may keep: a seat's answers share their URL with every other
seat's, so no shared cache may keep them and each varies by Authorization."""

import pytest

from tests.api.helpers import auth, create


@pytest.fixture
def game(client, projector):
    game = create(client, [{"name": "a"}, {"name": "b"}], seed=1)
    projector.project(game["id"])
    return game


def per_seat_answers(client, game, token):
    headers = auth(token) if token else {}
    gid = game["id"]
    for games in ("games", "alebrijes"):  # the generic routes and the game's typed ones
        yield client.get(f"/v1/{games}/{gid}/view", headers=headers)
        yield client.get(f"/v1/{games}/{gid}/view?after={game['version']}&wait=0", headers=headers)
        yield client.get(f"/v1/{games}/{gid}/events", headers=headers)
    stream = client.get(f"/v1/games/{gid}/stream", headers=headers)
    stream.close()
    yield stream


@pytest.mark.parametrize("seat", [0, 1, None])
def test_a_seats_answers_are_private_and_vary_by_authorization(client, game, seat):
    token = game["seats"][seat]["token"] if seat is not None else None
    for response in per_seat_answers(client, game, token):
        assert response.status_code in (200, 304)
        assert response.headers["Cache-Control"] == "private, no-cache"
        assert "Authorization" in response.headers["Vary"]


def test_a_command_answer_is_private(client, game):
    for games in ("games", "alebrijes"):
        response = client.post(
            f"/v1/{games}/{game['id']}/commands",
            json={"type": "exchange", "cards": []},
            headers=auth(game["seats"][0]["token"]),
        )
        assert response.status_code in (200, 409)  # the second: not seat 0's turn now
        assert response.headers["Cache-Control"] == (
            "private, no-cache" if response.status_code == 200 else "no-store"
        )
        assert "Authorization" in response.headers["Vary"]


def test_answers_that_carry_tokens_are_never_stored(client):
    created = client.post(
        "/v1/games", json={"game": "alebrijes", "seats": [{"name": "a"}, {"open": True}]}
    )
    claimed = client.post(f"/v1/games/{created.get_json()['id']}/seats/1", json={"name": "b"})
    for response in (created, claimed):
        assert response.status_code in (200, 201)
        assert response.headers["Cache-Control"] == "no-store"


def test_the_lobby_and_a_summary_may_be_cached_briefly_by_anyone(client, game):
    for path in ("/v1/games", f"/v1/games/{game['id']}"):
        response = client.get(path)
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == "public, max-age=2"


def test_an_error_is_never_stored(client, game):
    for response in (
        client.get("/v1/games/nope"),
        client.get(f"/v1/games/{game['id']}/view", headers=auth("forged")),
    ):
        assert response.status_code >= 400
        assert response.headers["Cache-Control"] == "no-store"
