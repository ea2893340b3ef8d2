"""What the API tests share: building requests, playing games through the test client,
and checking answers. Not a test module: pytest collects nothing here."""

import dataclasses
import random

from services.api import create_app
from shared import table
from shared.games import alebrijes

PROBLEM = "application/problem+json"


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def create(client, seats, **options):
    response = client.post(
        "/v1/games", json={"game": "alebrijes", "seats": seats, "options": options}
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def view_of(client, game, seat=None):
    headers = auth(game["seats"][seat]["token"]) if seat is not None else {}
    response = client.get(f"/v1/games/{game['id']}/view", headers=headers)
    assert response.status_code == 200
    return response.get_json()


def play_to_the_end(client, game, projector, seat_count):
    """Every seat sends its first legal command until the game is over."""
    for _ in range(5000):
        projector.project(game["id"])
        spectator = view_of(client, game)
        if spectator["status"] == "finished":
            return spectator
        seat = spectator["to_act"][0]
        command = view_of(client, game, seat)["legal"][0]
        response = client.post(
            f"/v1/games/{game['id']}/commands",
            json=command,
            headers=auth(game["seats"][seat]["token"]),
        )
        assert response.status_code == 200, response.get_json()
    raise AssertionError("the game did not end")


def card_codes(value):
    """Every card code anywhere in a JSON value, as a sorted list (a multiset)."""
    if isinstance(value, dict):
        return sorted(c for v in value.values() for c in card_codes(v))
    if isinstance(value, list):
        return sorted(c for v in value for c in card_codes(v))
    return [value] if isinstance(value, str) and value in alebrijes.CARDS else []


def assert_problem(response, status, code):
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == PROBLEM
    body = response.get_json()
    assert body["code"] == code and body["status"] == status and body["detail"]


def stream_versions(deps):
    return {gid: deps.store.version(gid) for gid in deps.store.game_ids()}


def app_with(deps, **settings):
    deps.config = dataclasses.replace(deps.config, **settings)
    return create_app(deps)


def create_app_client(deps, **settings):
    return app_with(deps, **settings).test_client()


def assert_rate_limited(response, longest):
    assert_problem(response, 429, "rate_limited")
    assert 1 <= int(response.headers["Retry-After"]) <= longest


def finish(deps, game_id, seed=1):
    """Play seeded random legal commands through the game service until the end."""
    rng = random.Random(seed)
    for _ in range(5000):
        _, current = deps.service.load(game_id, fresh=True)
        if current["status"] == "finished":
            return current
        seat = table.to_act(current)[0]
        command = rng.choice(table.rules_of(current).legal(current["rules"], seat))
        deps.service.command(game_id, seat, command)
    raise AssertionError("the game did not end")
