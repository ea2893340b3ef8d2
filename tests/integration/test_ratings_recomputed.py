"""Three hundred rated games played through the API (2 to 5 players, some resigning):
openskill, called directly on what the games' logs say, gives the very figures the
service shows, and the leaderboard ranks by them."""

import random

import pytest
from openskill.models import PlackettLuce

from services.projector.build import projector_of
from shared import table
from shared.ratings import displayed
from tests.api.helpers import app_with

GAMES = 300  # "a few hundred" (issue 28): about 25 s on a quiet core
PLAYERS = 8


@pytest.fixture
def deps_redis(real_redis):
    return real_redis


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def play(client, deps, projector, seated, resigned, seed):
    """One rated one-round Alebrijes game; a resigned seat is played as its takeover
    bot plays it (by="bot"), here rather than by a worker. Returns its id."""
    body = {
        "game": "alebrijes",
        "seats": [{"player": "me"}, *({"player": p["id"]} for p in seated[1:])],
        "options": {"seed": seed, "rounds": 1, "rated": True},
    }
    created = client.post("/v1/games", json=body, headers=bearer(seated[0]["token"]))
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    path = f"/v1/games/{game_id}"
    for seat, p in enumerate(seated[1:], start=1):
        assert (
            client.post(f"{path}/seats/{seat}/accept", headers=bearer(p["token"])).status_code
            == 200
        )
    for seat in resigned:
        left = client.post(f"{path}/seats/{seat}/resign", headers=bearer(seated[seat]["token"]))
        assert left.status_code == 200
    for _ in range(2000):
        _, current = deps.service.load(game_id)
        if current["status"] == "finished":
            projector.project(game_id)
            return game_id
        rules = table.rules_of(current)
        seat = rules.to_act(current["rules"])[0]
        if seat in resigned:
            deps.service.command(game_id, seat, rules.legal(current["rules"], seat)[0], by="bot")
            continue
        token = seated[seat]["token"]
        legal = client.get(f"{path}/view", headers=bearer(token)).get_json()["legal"]
        moved = client.post(f"{path}/commands", json=legal[0], headers=bearer(token))
        assert moved.status_code == 200, moved.get_json()
    raise AssertionError("the game did not end")


def test_openskill_on_the_logs_gives_the_service_s_figures(deps):
    # More games and invitations than one client may make in a minute: no limits.
    client = app_with(deps, rate_limits=False).test_client()
    projector = projector_of(deps, consumer="test")
    players = [
        client.post("/v1/players", json={"name": f"p{i}"}).get_json() for i in range(PLAYERS)
    ]
    draw = random.Random(28)
    played = []
    for seed in range(GAMES):
        seated = draw.sample(players, draw.randint(2, 5))
        resigned = {s for s in range(len(seated)) if draw.random() < 0.08}
        played.append((play(client, deps, projector, seated, resigned, seed), seated, resigned))

    # The fold's order: the game_ended's append time, then the game id.
    def ended_at(game_id):
        return next(r.at for r in deps.store.read(game_id) if r.event["type"] == table.ENDED)

    played.sort(key=lambda g: (ended_at(g[0]), g[0]))
    model = PlackettLuce()
    expected = {p["id"]: model.rating() for p in players}
    counts = dict.fromkeys(expected, 0)
    for game_id, seated, resigned in played:
        scores = client.get(f"/v1/games/{game_id}/view").get_json()["result"]["scores"]
        stayed = sorted({s for i, s in enumerate(scores) if i not in resigned}, reverse=True)
        ranks = [
            len(stayed) + 1 if i in resigned else stayed.index(s) + 1 for i, s in enumerate(scores)
        ]
        teams = [[expected[p["id"]]] for p in seated]
        for p, [now] in zip(seated, model.rate(teams, ranks=ranks), strict=True):
            expected[p["id"]] = now
            counts[p["id"]] += 1

    shown = {}
    for p in players:
        [rating] = client.get(f"/v1/players/{p['id']}/ratings").get_json()["ratings"]
        shown[p["id"]] = rating
        want = expected[p["id"]]
        assert (rating["mu"], rating["sigma"]) == (want.mu, want.sigma)
        assert rating["rating"] == displayed(want.mu, want.sigma)
        assert rating["games"] == counts[p["id"]] and rating["provisional"] == (
            counts[p["id"]] < 10
        )
    board = client.get(f"/v1/leaderboards/alebrijes?limit={PLAYERS}").get_json()["entries"]
    assert [e["rating"] for e in board] == sorted(
        (r["rating"] for r in shown.values()), reverse=True
    )
    assert sum(1 for _, _, resigned in played if resigned) > 5  # leavers were among them
