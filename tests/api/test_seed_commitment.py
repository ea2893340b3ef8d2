"""A creator-chosen seed no longer gives every hand away. The public
commitment is sha256(salt + seed) with a salt the server draws, revealed with the seed
at the end; games whose seed or deck the creator chose say so in the lobby."""

import hashlib

from services.api.games import CONTRACTS
from shared import replay, table
from shared.games import alebrijes
from tests.api.helpers import finish
from tests.helpers import humans

ATTACK_RANGE = 20_000  # small seeds a creator picks; 4242 among them


def create(client, seats, **options):
    response = client.post(
        "/v1/games", json={"game": "alebrijes", "seats": seats, "options": options}
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def lobby_entry(client, game_id):
    listed = client.get("/v1/games?limit=200").get_json()["games"]
    return next(g for g in listed if g["id"] == game_id)


def test_the_old_attack_no_longer_recovers_a_chosen_seed_from_the_lobby(client, projector):
    game = create(client, [{"name": "creator"}, {"open": True}], seed=4242)
    projector.project(game["id"])
    entry = lobby_entry(client, game["id"])
    # The attack of the issue: hash every small seed, compare with the lobby's hash.
    found = [
        seed
        for seed in range(ATTACK_RANGE)
        if hashlib.sha256(str(seed).encode()).hexdigest() == entry["seed_sha256"]
    ]
    assert found == []
    assert entry["seed"] is None and entry["seed_salt"] is None
    created = client.get(f"/v1/games/{game['id']}/events?limit=10").get_json()["events"][0]
    assert "seed_salt" not in created and "seed" not in created
    # ...and the player about to claim the open seat is told who dealt.
    assert entry["dealt_by_creator"] is True


def test_a_seed_drawn_by_the_server_is_not_dealt_by_the_creator(client, projector):
    game = create(client, [{"name": "creator"}, {"open": True}])
    projector.project(game["id"])
    assert lobby_entry(client, game["id"])["dealt_by_creator"] is False


def test_a_chosen_deck_is_dealt_by_the_creator(client, projector):
    game = create(client, humans("ana", "bo"), deck=list(alebrijes.CARDS))
    projector.project(game["id"])
    assert client.get(f"/v1/games/{game['id']}").get_json()["dealt_by_creator"] is True


def test_the_salt_is_revealed_with_the_seed_and_the_log_still_checks_out(client, deps, projector):
    game = create(client, humans("ana", "bo"), seed=4242, rounds=1)
    for _ in range(2000):  # bounded: a one-round game ends long before
        _, current = deps.service.load(game["id"])
        if current["status"] == "finished":
            break
        seat = table.to_act(current)[0]
        deps.service.command(
            game["id"], seat, table.rules_of(current).legal(current["rules"], seat)[0]
        )
    projector.project(game["id"])
    summary = client.get(f"/v1/games/{game['id']}").get_json()
    assert summary["status"] == "finished" and summary["seed"] == 4242
    salt = summary["seed_salt"]
    assert len(salt) == 32
    assert hashlib.sha256((salt + "4242").encode()).hexdigest() == summary["seed_sha256"]
    log = client.get(f"/v1/games/{game['id']}/events?limit=1000").get_json()["events"]
    assert log[-1]["seed_salt"] == salt
    assert replay.check(log) == []
    lifecycle = [e for e in log if e["type"] in table.LIFECYCLE]
    schemas = CONTRACTS["alebrijes"].events
    assert all(schemas[e["type"]]().validate(e) == {} for e in lifecycle)
    log[-1] = {**log[-1], "seed_salt": "0" * 32}  # a forged salt is caught
    assert replay.check(log) != []


def test_a_numeric_seed_comes_back_a_number_and_deals_as_its_digits(client, deps, projector):
    numeric = create(client, humans("a", "b", "c"), seed=7, rounds=1)
    text = create(client, humans("a", "b", "c"), seed="7", rounds=1)
    for game in (numeric, text):
        finish(deps, game["id"])
        projector.project(game["id"])
    logs = [client.get(f"/v1/games/{g['id']}/export").get_json()["events"] for g in (numeric, text)]
    assert [log[0]["seed"] for log in logs] == [7, "7"]
    assert [log[-1]["seed"] for log in logs] == [7, "7"]
    summaries = [client.get(f"/v1/games/{g['id']}").get_json() for g in (numeric, text)]
    assert [s["seed"] for s in summaries] == [7, "7"]
    # The same shuffles either way, and the commitment checks out for each.
    assert logs[0][2]["hands"] == logs[1][2]["hands"]
    assert [replay.check(log) for log in logs] == [[], []]


def test_a_seed_past_64_bits_is_refused(client, deps):
    body = {"game": "alebrijes", "seats": humans("a", "b", "c"), "options": {"seed": 2**64}}
    response = client.post("/v1/games", json=body)
    assert response.status_code == 400 and response.get_json()["code"] == "bad_request"
    assert deps.store.game_ids() == []
