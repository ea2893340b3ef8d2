"""Players over the API (in-process, fakeredis): guests, `me`, profiles, JWT players,
linking, logging out everywhere and erasure; every `me` route answers only its player."""

import dataclasses
import json
import time

import jwt
import pytest

from services.api import create_app
from services.api import player_auth as player_auth_module

ISSUER = "https://id.example"
SECRET = "i" * 40


@pytest.fixture(autouse=True)
def trusted_issuer(deps):
    """`deps` (tests/conftest.py) trusting this module's JWT issuer, before any app of
    them is made."""
    issuers = json.dumps([{"issuer": ISSUER, "audience": "app", "hs256_secret": SECRET}])
    deps.config = dataclasses.replace(deps.config, player_issuers=issuers)


def identity_jwt(sub="user-1", **changes):
    now = int(time.time())
    claims = {"iss": ISSUER, "aud": "app", "sub": sub, "exp": now + 600, **changes}
    return jwt.encode(claims, changes.pop("key", SECRET), algorithm="HS256")


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def guest(client, name="ana"):
    response = client.post("/v1/players", json={"name": name})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def test_a_guest_is_made_and_reads_itself(client):
    made = guest(client)
    assert set(made) == {"id", "name", "token"} and made["name"] == "ana"
    me = client.get("/v1/players/me", headers=bearer(made["token"]))
    assert me.status_code == 200
    body = me.get_json()
    assert body["id"] == made["id"] and body["guest"] and not body["erased"]
    assert body["games_finished"] == 0 and body["identities"] == []
    assert me.headers["Cache-Control"].startswith("private")


def test_names_are_not_unique_but_are_validated(client, deps):
    assert guest(client)["id"] != guest(client)["id"]
    before = deps.redis.dbsize()
    for name in ["", "a" * 41, "ana\u202e", "a\x00", 7, None]:
        response = client.post("/v1/players", json={"name": name})
        assert response.status_code == 400, name
        assert response.get_json()["code"] in ("bad_name", "bad_request")
    assert deps.redis.dbsize() == before  # nothing written


def test_renaming_shows_in_me_and_the_public_profile(client):
    made = guest(client)
    renamed = client.patch("/v1/players/me", json={"name": "ana b."}, headers=bearer(made["token"]))
    assert renamed.status_code == 200 and renamed.get_json()["name"] == "ana b."
    public = client.get(f"/v1/players/{made['id']}").get_json()
    assert public["name"] == "ana b." and "identities" not in public and "guest" not in public
    bad = client.patch("/v1/players/me", json={"name": "a\u2066b"}, headers=bearer(made["token"]))
    assert bad.status_code == 400 and bad.get_json()["code"] == "bad_name"


def test_an_unknown_player_is_404(client):
    for player_id in ["0123456789abcdef", "nope", "x" * 300]:
        response = client.get(f"/v1/players/{player_id}")
        assert response.status_code == 404 and response.get_json()["code"] == "unknown_player"


def test_a_jwt_names_one_player_made_on_first_sight(client):
    first = client.get("/v1/players/me", headers=bearer(identity_jwt()))
    assert first.status_code == 200, first.get_json()
    again = client.get("/v1/players/me", headers=bearer(identity_jwt()))
    assert again.get_json()["id"] == first.get_json()["id"]
    assert first.get_json()["identities"] == [{"issuer": ISSUER, "subject": "user-1"}]
    other = client.get("/v1/players/me", headers=bearer(identity_jwt("user-2")))
    assert other.get_json()["id"] != first.get_json()["id"]


def test_a_guest_links_an_identity_and_the_jwt_then_names_it(client):
    made = guest(client)
    linked = client.post(
        "/v1/players/me/link", json={"token": identity_jwt("u-9")}, headers=bearer(made["token"])
    )
    assert linked.status_code == 200, linked.get_json()
    assert not linked.get_json()["guest"]
    me = client.get("/v1/players/me", headers=bearer(identity_jwt("u-9")))
    assert me.get_json()["id"] == made["id"]
    # The identity names this player now: another guest cannot take it.
    other = guest(client, "bea")
    taken = client.post(
        "/v1/players/me/link", json={"token": identity_jwt("u-9")}, headers=bearer(other["token"])
    )
    assert taken.status_code == 409 and taken.get_json()["code"] == "identity_linked"
    expired = identity_jwt("u-10", exp=int(time.time()) - 3600)
    refused = client.post(
        "/v1/players/me/link", json={"token": expired}, headers=bearer(other["token"])
    )
    assert refused.status_code == 401


def test_logging_out_everywhere_revokes_every_older_token(client, monkeypatch):
    made = guest(client)
    out = client.post("/v1/players/me/logout", headers=bearer(made["token"]))
    assert out.status_code == 200
    fresh = out.get_json()["token"]
    assert client.get("/v1/players/me", headers=bearer(made["token"])).status_code == 401
    assert client.get("/v1/players/me", headers=bearer(fresh)).status_code == 200


def test_another_process_refuses_a_revoked_token_within_the_bound(app, deps, client):
    """A second API process (its own PlayerAuth memory) saw the token before it was
    revoked elsewhere: it refuses it once GENERATION_TTL has passed."""
    made = guest(client)
    clock = [0.0]
    other = create_app(deps)
    auth = other.extensions["tablestream.player_auth"]
    auth.clock = lambda: clock[0]
    other_client = other.test_client()
    assert other_client.get("/v1/players/me", headers=bearer(made["token"])).status_code == 200
    assert client.post("/v1/players/me/logout", headers=bearer(made["token"])).status_code == 200
    clock[0] = player_auth_module.GENERATION_TTL - 1
    assert other_client.get("/v1/players/me", headers=bearer(made["token"])).status_code == 200
    clock[0] = player_auth_module.GENERATION_TTL + 0.1
    assert other_client.get("/v1/players/me", headers=bearer(made["token"])).status_code == 401


def test_erasure_revokes_the_tokens_and_leaves_a_placeholder(client):
    made = guest(client)
    linked = client.post(
        "/v1/players/me/link", json={"token": identity_jwt("gone")}, headers=bearer(made["token"])
    )
    assert linked.status_code == 200
    assert client.delete("/v1/players/me", headers=bearer(made["token"])).status_code == 204
    assert client.get("/v1/players/me", headers=bearer(made["token"])).status_code == 401
    public = client.get(f"/v1/players/{made['id']}").get_json()
    assert public["name"] == "deleted player" and public["erased"]
    # The identity is free again: its next JWT makes a new player.
    again = client.get("/v1/players/me", headers=bearer(identity_jwt("gone")))
    assert again.status_code == 200 and again.get_json()["id"] != made["id"]


def test_the_players_stream_rebuilds_to_the_same_fold(client, deps):
    made = guest(client)
    client.patch("/v1/players/me", json={"name": "bea"}, headers=bearer(made["token"]))
    client.post("/v1/players/me/logout", headers=bearer(made["token"]))
    stored = deps.redis.get(deps.keys.player(made["id"]))
    generation = deps.redis.get(deps.keys.player_generation(made["id"]))
    deps.redis.delete(deps.keys.player(made["id"]), deps.keys.player_generation(made["id"]))
    deps.players.rebuild(made["id"])
    assert deps.redis.get(deps.keys.player(made["id"])) == stored
    assert deps.redis.get(deps.keys.player_generation(made["id"])) == generation
    assert made["id"] in deps.players.player_ids()


def test_a_players_keys_share_one_hash_tag(deps):
    player_id = "0123456789abcdef"
    names = [
        deps.keys.player_events(player_id),
        deps.keys.player(player_id),
        deps.keys.player_generation(player_id),
        deps.keys.player_games(player_id),
        deps.keys.player_inbox(player_id),
        deps.keys.player_webhook(player_id),
    ]
    assert {name[name.index("{") : name.index("}") + 1] for name in names} == {
        "{" + player_id + "}"
    }


ME_ROUTES = [
    ("get", "/v1/players/me", None),
    ("patch", "/v1/players/me", {"name": "mallory"}),
    ("post", "/v1/players/me/logout", None),
    ("post", "/v1/players/me/link", {"token": "x"}),
    ("delete", "/v1/players/me", None),
    ("get", "/v1/players/me/games", None),
    ("get", "/v1/players/me/inbox", None),
    ("get", "/v1/players/me/stream", None),
    ("post", "/v1/players/me/webhook", {"url": "https://93.184.215.14/mallory"}),
    ("delete", "/v1/players/me/webhook", None),
]


@pytest.mark.parametrize("method, path, body", ME_ROUTES)
def test_me_routes_answer_only_their_player(client, deps, method, path, body):
    """Another player's token acts on that other player only; a seat's token, a
    creator's, an expired JWT, an unconfigured issuer's JWT and none are refused."""
    ana, bea = guest(client, "ana"), guest(client, "bea")
    created = deps.service.create("alebrijes", [{"name": "x"}, {"bot": "random"}], {})
    refused = [
        created["seats"][0]["token"],
        created["creator_token"],
        identity_jwt(exp=int(time.time()) - 3600),
        jwt.encode(
            {
                "iss": "https://other.example",
                "aud": "app",
                "sub": "u",
                "exp": int(time.time()) + 60,
            },
            SECRET,
            algorithm="HS256",
        ),
        "pt.0123456789abcdef.0.forged",
    ]
    for token in refused:
        response = getattr(client, method)(path, json=body, headers=bearer(token))
        assert response.status_code == 401, (token, response.get_json())
    assert getattr(client, method)(path, json=body).status_code == 401
    ana_hook = client.post(
        "/v1/players/me/webhook",
        json={"url": "https://93.184.215.14/ana"},
        headers=bearer(ana["token"]),
    )
    assert ana_hook.status_code == 201
    stored = deps.redis.get(deps.keys.player_webhook(ana["id"]))
    answer = getattr(client, method)(path, json=body, headers=bearer(bea["token"]))
    answer.close()  # a stream ends with its response
    ana_now = client.get(f"/v1/players/{ana['id']}").get_json()
    assert ana_now["name"] == "ana" and not ana_now["erased"]
    assert client.get("/v1/players/me", headers=bearer(ana["token"])).status_code == 200
    assert deps.redis.get(deps.keys.player_webhook(ana["id"])) == stored  # ana's, untouched


def test_a_players_token_is_never_logged(client, answers_seen):
    _, stream = answers_seen
    made = guest(client)
    jwt_token = identity_jwt("logged?")
    client.get("/v1/players/me", headers=bearer(made["token"]))
    client.get("/v1/players/me", headers=bearer(jwt_token))
    client.get("/v1/players/me", headers=bearer(made["token"] + "x"))  # refused: logged too
    logged = stream.getvalue()
    assert "/v1/players/me" in logged
    assert made["token"] not in logged and made["token"].split(".")[-1] not in logged
    assert jwt_token not in logged and jwt_token.split(".")[-1] not in logged


@pytest.mark.parametrize("path", ["/v1/players/me/games", "/v1/players/me/inbox"])
def test_another_players_token_sees_none_of_my_games_or_items(client, projector, path):
    ana, bea = guest(client, "ana"), guest(client, "bea")
    body = {"game": "alebrijes", "seats": [{"player": "me"}, {"bot": "random"}]}
    game = client.post("/v1/games", json=body, headers=bearer(ana["token"])).get_json()
    projector.project(game["id"])
    mine = client.get(path, headers=bearer(ana["token"]))
    assert game["id"].encode() in mine.data
    theirs = client.get(path, headers=bearer(bea["token"]))
    assert theirs.status_code == 200 and game["id"].encode() not in theirs.data


def test_my_webhook_is_registered_replaced_and_removed(client, deps):
    made = guest(client)
    key = deps.keys.player_webhook(made["id"])
    first = client.post(
        "/v1/players/me/webhook",
        json={"url": "https://93.184.215.14/a", "events": ["your_turn", "your_turn"]},
        headers=bearer(made["token"]),
    )
    assert first.status_code == 201
    assert first.get_json()["events"] == ["your_turn"] and len(first.get_json()["secret"]) > 30
    assert first.headers["Cache-Control"].startswith("private")
    second = client.post(
        "/v1/players/me/webhook",
        json={"url": "https://93.184.215.14/b"},
        headers=bearer(made["token"]),
    ).get_json()
    assert second["secret"] != first.get_json()["secret"]
    assert json.loads(deps.redis.get(key)) == second
    assert client.delete("/v1/players/me/webhook", headers=bearer(made["token"])).status_code == 204
    assert deps.redis.get(key) is None
    # The secret is not part of what the player's profile or `me` shows.
    me_now = client.get("/v1/players/me", headers=bearer(made["token"])).data
    assert second["secret"].encode() not in me_now
    assert second["secret"].encode() not in deps.redis.get(deps.keys.player(made["id"]))


@pytest.mark.parametrize(
    "body, code",
    [
        ({"url": "https://127.0.0.1/hook"}, "bad_webhook_url"),
        ({"url": "https://169.254.169.254/latest"}, "bad_webhook_url"),
        ({"url": "ftp://hooks.example/x"}, "bad_webhook_url"),
        ({"url": "https://93.184.215.14/x", "events": ["timed_out"]}, "bad_request"),
        ({"url": "https://93.184.215.14/x", "events": []}, "bad_request"),
        ({"url": "h" * 3000}, "bad_request"),
        ({}, "bad_request"),
    ],
)
def test_a_bad_player_webhook_is_refused_and_nothing_is_written(client, deps, body, code):
    made = guest(client)
    events_before = deps.redis.xlen(deps.keys.player_events(made["id"]))
    answer = client.post("/v1/players/me/webhook", json=body, headers=bearer(made["token"]))
    assert answer.status_code == 400 and answer.get_json()["code"] == code, answer.get_json()
    assert deps.redis.get(deps.keys.player_webhook(made["id"])) is None
    assert deps.redis.xlen(deps.keys.player_events(made["id"])) == events_before
