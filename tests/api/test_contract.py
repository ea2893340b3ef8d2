"""The client contract beyond the document: safe retries (Idempotency-Key), reading your
own writes, ETags, CORS, offline docs, typed per-game operations and JSON-only bodies."""

import re

import pytest

from services.api import create_app

ALEBRIJES = {
    "game": "alebrijes",
    "seats": [{"name": "ana"}, {"name": "bea"}],
    "options": {"seed": 7, "rounds": 1},
}


def auth(token, **headers):
    return {"Authorization": f"Bearer {token}", **headers}


@pytest.fixture
def game(client):
    created = client.post("/v1/games", json=ALEBRIJES).get_json()
    return created["id"], [s["token"] for s in created["seats"]]


def first_legal(client, game_id, tokens):
    spectator = client.get(f"/v1/games/{game_id}/view").get_json()
    seat = spectator["to_act"][0]
    mine = client.get(f"/v1/games/{game_id}/view", headers=auth(tokens[seat])).get_json()
    return seat, mine["legal"][0]


def stream_length(deps, game_id):
    return deps.redis.xlen(deps.keys.events(game_id))


def games_stored(deps):
    return len(list(deps.redis.scan_iter(match=deps.keys.events_pattern())))


def test_a_repeated_creation_creates_one_game_and_never_hands_its_tokens_out_again(client, deps):
    headers = {"Idempotency-Key": "create-1"}
    first = client.post("/v1/games", json=ALEBRIJES, headers=headers)
    assert first.status_code == 201
    issued = [first.get_json()["creator_token"], *(s["token"] for s in first.get_json()["seats"])]
    elsewhere = {"REMOTE_ADDR": "192.0.2.9"}
    for environ in ({}, elsewhere):
        again = client.post("/v1/games", json=ALEBRIJES, headers=headers, environ_base=environ)
        assert not any(token.encode() in again.get_data() for token in issued)
        if not environ:  # the same address: the same request, withheld
            assert again.status_code == 409
            assert again.get_json()["code"] == "idempotency_answer_withheld"
    # From elsewhere the key is another caller's own: a game of its own.
    assert again.status_code == 201 and again.get_json()["id"] != first.get_json()["id"]
    assert games_stored(deps) == 2


def test_a_claims_token_is_not_replayed_to_another_caller(client, deps):
    body = {**ALEBRIJES, "seats": [{"name": "ana"}, {"open": True}]}
    game_id = client.post("/v1/games", json=body).get_json()["id"]
    headers = {"Idempotency-Key": "claim-1"}
    claim = {"name": "bea"}
    first = client.post(f"/v1/games/{game_id}/seats/1", json=claim, headers=headers)
    assert first.status_code == 200, first.get_json()
    token = first.get_json()["token"]
    again = client.post(f"/v1/games/{game_id}/seats/1", json=claim, headers=headers)
    assert again.get_json()["code"] == "idempotency_answer_withheld"
    assert token.encode() not in again.get_data()


def test_an_anonymous_key_cannot_be_probed_with_another_body(client, deps):
    headers = {"Idempotency-Key": "create-2"}
    client.post("/v1/games", json=ALEBRIJES, headers=headers)
    other = {**ALEBRIJES, "options": {"seed": 8}}
    answer = client.post("/v1/games", json=other, headers=headers)
    assert answer.status_code == 201  # another request: nothing says the key was used
    assert games_stored(deps) == 2


def test_a_key_reused_for_another_body_under_one_token_is_refused(client, deps, game):
    game_id, tokens = game
    seat, command = first_legal(client, game_id, tokens)
    headers = auth(tokens[seat], **{"Idempotency-Key": "move-2"})
    path = f"/v1/games/{game_id}/commands"
    assert client.post(path, json=command, headers=headers).status_code == 200
    answer = client.post(path, json={**command, "x": 1}, headers=headers)
    assert answer.status_code == 422
    assert answer.get_json()["code"] == "idempotency_key_reused"


def test_a_retried_command_answers_the_first_answer_and_moves_once(client, deps, game):
    game_id, tokens = game
    seat, command = first_legal(client, game_id, tokens)
    headers = auth(tokens[seat], **{"Idempotency-Key": "move-1"})
    first = client.post(f"/v1/games/{game_id}/commands", json=command, headers=headers)
    length = stream_length(deps, game_id)
    again = client.post(f"/v1/games/{game_id}/commands", json=command, headers=headers)
    assert first.status_code == again.status_code == 200
    assert again.get_json() == first.get_json()
    assert stream_length(deps, game_id) == length


def test_an_idempotency_key_is_scoped_to_the_callers_token(client, game):
    game_id, tokens = game
    seat, command = first_legal(client, game_id, tokens)
    other = tokens[1 - seat]
    mine = client.post(
        f"/v1/games/{game_id}/commands",
        json=command,
        headers=auth(tokens[seat], **{"Idempotency-Key": "k"}),
    )
    theirs = client.post(
        f"/v1/games/{game_id}/commands",
        json=command,
        headers=auth(other, **{"Idempotency-Key": "k"}),
    )
    assert mine.status_code == 200
    # Another seat's request with the same key is its own request, not a replay.
    assert "Idempotent-Replayed" not in theirs.headers
    assert theirs.get_json() != mine.get_json()


def test_a_bad_idempotency_key_is_a_400(client):
    answer = client.post("/v1/games", json=ALEBRIJES, headers={"Idempotency-Key": "x" * 300})
    assert answer.status_code == 400 and answer.get_json()["code"] == "bad_request"


def test_a_commands_answer_carries_the_senders_new_view(client, game):
    game_id, tokens = game
    seat, command = first_legal(client, game_id, tokens)
    answer = client.post(f"/v1/games/{game_id}/commands", json=command, headers=auth(tokens[seat]))
    moved = answer.get_json()
    assert moved["game"] == "alebrijes"
    assert moved["view"]["version"] == moved["version"] == moved["events"][-1]["version"]
    assert moved["view"]["seat"] == seat
    assert answer.headers["Cache-Control"].startswith("private")
    assert answer.headers["Vary"] == "Authorization"


def test_a_view_sends_its_version_as_etag_and_answers_if_none_match(client, projector, game):
    game_id, tokens = game
    projector.project(game_id)
    first = client.get(f"/v1/games/{game_id}/view", headers=auth(tokens[0]))
    etag = first.headers["ETag"]
    assert etag == f'"{first.get_json()["version"]}"'
    same = client.get(
        f"/v1/games/{game_id}/view", headers=auth(tokens[0], **{"If-None-Match": etag})
    )
    assert same.status_code == 304 and same.headers["ETag"] == etag
    seat, command = first_legal(client, game_id, tokens)
    client.post(f"/v1/games/{game_id}/commands", json=command, headers=auth(tokens[seat]))
    projector.project(game_id)
    moved = client.get(
        f"/v1/games/{game_id}/view", headers=auth(tokens[0], **{"If-None-Match": etag})
    )
    assert moved.status_code == 200 and moved.headers["ETag"] != etag


def test_the_typed_operations_serve_their_own_game_only(client, game):
    game_id, tokens = game
    assert client.get(f"/v1/alebrijes/{game_id}/view").get_json()["game"] == "alebrijes"
    wrong = client.get(f"/v1/alien/{game_id}/view")
    assert wrong.status_code == 404 and wrong.get_json()["code"] == "unknown_game"
    seat, command = first_legal(client, game_id, tokens)
    refused = client.post(
        f"/v1/abluxxen/{game_id}/commands", json=command, headers=auth(tokens[seat])
    )
    assert refused.status_code == 404
    sent = client.post(
        f"/v1/alebrijes/{game_id}/commands", json=command, headers=auth(tokens[seat])
    )
    assert sent.status_code == 200 and sent.get_json()["view"]["game"] == "alebrijes"
    page = client.get(f"/v1/alebrijes/{game_id}/events").get_json()
    assert page["game"] == "alebrijes" and page["events"][0]["type"] == "game_created"


def test_a_body_that_is_not_json_is_a_415_on_every_post(client, game):
    game_id, _ = game
    for path in ("/v1/games", f"/v1/games/{game_id}/seats/1"):
        answer = client.post(path, data="game=alebrijes", content_type="text/plain")
        assert answer.status_code == 415, path
        assert answer.get_json()["code"] == "unsupported_media_type"


def test_cors_is_off_unless_origins_are_configured(deps, monkeypatch):
    origin = {"Origin": "https://app.example"}
    closed = create_app(deps).test_client().get("/v1/games", headers=origin)
    assert "Access-Control-Allow-Origin" not in closed.headers
    monkeypatch.setenv("CORS_ORIGINS", "https://app.example, https://other.example")
    client = create_app(deps).test_client()
    open_ = client.get("/v1/games", headers=origin)
    assert open_.headers["Access-Control-Allow-Origin"] == "https://app.example"
    assert "ETag" in open_.headers["Access-Control-Expose-Headers"]
    preflight = client.options(
        "/v1/games",
        headers={**origin, "Access-Control-Request-Method": "POST"},
    )
    assert "Idempotency-Key" in preflight.headers["Access-Control-Allow-Headers"]
    stranger = client.get("/v1/games", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in stranger.headers


def test_the_docs_page_loads_everything_from_this_server(client):
    page = client.get("/docs")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    links = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert links, html
    for link in links:
        assert link.startswith("/"), f"external URL in /docs: {link}"
        assert client.get(link).status_code == 200, link
    assert "http://" not in html and "https://" not in html


def test_a_move_no_replica_acknowledged_is_a_503_to_send_again(client, deps, game, monkeypatch):
    from shared.store import NotReplicated

    game_id, tokens = game
    seat, command = first_legal(client, game_id, tokens)

    def short(*args, **kwargs):
        raise NotReplicated(9, 1, 0)

    monkeypatch.setattr(deps.store, "append", short)
    answer = client.post(f"/v1/games/{game_id}/commands", json=command, headers=auth(tokens[seat]))
    assert answer.status_code == 503 and answer.get_json()["code"] == "not_replicated"
    assert "send it again" in answer.get_json()["detail"]
