"""Bad input gets a clear 4xx problem+json with a stable code, and nothing is written."""

import pytest
import redis
from limits.errors import StorageError
from werkzeug.exceptions import InternalServerError

from services.api.errors import unexpected
from tests.api.helpers import assert_problem, auth, stream_versions
from tests.helpers import humans


def create(client, **body):
    body = {"game": "alebrijes", "seats": humans("ana", "bo"), **body}
    return client.post("/v1/games", json=body)


@pytest.fixture
def game(client):
    return create(client, options={"seed": 9}).get_json()


@pytest.mark.parametrize(
    "body, field",
    [
        ({"game": "chess"}, "game"),
        ({"seats": humans("solo")}, None),
        ({"seats": humans(*"abcdefg")}, None),
        ({"seats": []}, "seats"),
        ({"seats": [{"bot": "genius"}]}, "seats"),
        ({"seats": [{"name": "a", "open": True}, {"name": "b"}]}, "seats"),
        ({"options": {"rounds": 0}}, "options"),
        ({"options": {"deck": ["B1", "B2"]}}, None),
        ({"options": {"variant": "fast"}}, None),
        ({"options": {"seed": True}}, "options"),
        ({"options": {"colour": "B"}}, "options"),
    ],
)
def test_a_bad_game_creation_is_a_bad_request_and_creates_nothing(client, deps, body, field):
    response = create(client, **body)
    code = "bad_request" if field else "bad_options"
    assert_problem(response, 400, code)
    if field:
        assert field in response.get_json()["errors"]
    assert deps.store.game_ids() == []


def test_malformed_json_is_a_bad_request(client, deps):
    response = client.post("/v1/games", data="{nope", content_type="application/json")
    assert_problem(response, 400, "bad_request")
    assert deps.store.game_ids() == []


def test_an_oversized_body_is_refused(client, game, deps):
    before = stream_versions(deps)
    big = {"type": "pass", "exchange": [], "padding": "x" * 70_000}
    response = client.post(
        f"/v1/games/{game['id']}/commands", json=big, headers=auth(game["seats"][0]["token"])
    )
    assert_problem(response, 413, "payload_too_large")
    assert stream_versions(deps) == before


def test_an_unknown_game_is_not_found(client):
    assert_problem(client.get("/v1/games/nope"), 404, "unknown_game")
    assert_problem(client.get("/v1/games/nope/view"), 404, "unknown_game")
    assert_problem(client.get("/v1/games/nope/events"), 404, "unknown_game")


def test_a_command_without_a_token_is_unauthorized(client, game):
    response = client.post(f"/v1/games/{game['id']}/commands", json={"type": "pass"})
    assert_problem(response, 401, "unauthorized")


def test_a_forged_token_is_unauthorized(client, game):
    token = game["seats"][0]["token"][:-4] + "AAAA"
    response = client.post(
        f"/v1/games/{game['id']}/commands", json={"type": "pass"}, headers=auth(token)
    )
    assert_problem(response, 401, "unauthorized")


def test_a_token_of_another_game_is_forbidden(client, game):
    other = create(client).get_json()
    response = client.post(
        f"/v1/games/{game['id']}/commands",
        json={"type": "pass"},
        headers=auth(other["seats"][0]["token"]),
    )
    assert_problem(response, 403, "forbidden")


def test_another_seats_turn_is_not_yours_and_appends_nothing(client, game, deps):
    before = stream_versions(deps)
    response = client.post(
        f"/v1/games/{game['id']}/commands",
        json={"type": "exchange"},
        headers=auth(game["seats"][1]["token"]),
    )
    assert_problem(response, 409, "not_your_turn")
    assert stream_versions(deps) == before


def test_an_illegal_move_is_refused_and_appends_nothing(client, game, deps):
    before = stream_versions(deps)
    view = client.get(f"/v1/games/{game['id']}/view", headers=auth(game["seats"][0]["token"]))
    hand = view.get_json()["state"]["hand"]
    missing = next(c for c in ["B1", "G1", "P1", "O1", "J1"] if c not in hand)
    response = client.post(
        f"/v1/games/{game['id']}/commands",
        json={"type": "exchange", "cards": [missing]},
        headers=auth(game["seats"][0]["token"]),
    )
    assert_problem(response, 422, "illegal_move")
    assert stream_versions(deps) == before


@pytest.mark.parametrize(
    "command",
    [
        {"type": "fly"},
        {"type": "play"},
        {"type": "play", "cards": "B1"},
        {"type": "exchange", "cards": ["B1", "B2", "B3"]},
        {"type": "pass", "exchange": ["X9"]},
        {"type": "exchange", "expected_version": -1},
    ],
)
def test_a_malformed_command_is_a_bad_command(client, game, deps, command):
    before = stream_versions(deps)
    response = client.post(
        f"/v1/games/{game['id']}/commands", json=command, headers=auth(game["seats"][0]["token"])
    )
    assert_problem(response, 400, "bad_command")
    assert stream_versions(deps) == before


@pytest.mark.parametrize("body", ["[1, 2]", '"pass"', '{"cards": []}'])
def test_a_command_that_is_not_an_object_with_a_type_is_a_bad_request(client, game, body):
    response = client.post(
        f"/v1/games/{game['id']}/commands",
        data=body,
        content_type="application/json",
        headers=auth(game["seats"][0]["token"]),
    )
    assert_problem(response, 400, "bad_request")


def test_a_command_that_is_not_json_is_an_unsupported_media_type(client, game):
    response = client.post(
        f"/v1/games/{game['id']}/commands",
        data="type=pass",
        headers=auth(game["seats"][0]["token"]),
    )
    assert_problem(response, 415, "unsupported_media_type")


def test_a_stale_expected_version_is_a_conflict_and_appends_nothing(client, game, deps):
    before = stream_versions(deps)
    response = client.post(
        f"/v1/games/{game['id']}/commands",
        json={"type": "exchange", "cards": [], "expected_version": game["version"] - 1},
        headers=auth(game["seats"][0]["token"]),
    )
    assert_problem(response, 409, "version_conflict")
    assert stream_versions(deps) == before


def test_claiming_a_taken_seat_is_a_conflict(client, deps):
    game = create(client, seats=[{"name": "a"}, {"open": True}, {"open": True}]).get_json()
    assert_problem(
        client.post(f"/v1/games/{game['id']}/seats/0", json={"name": "x"}), 409, "seat_taken"
    )
    assert_problem(
        client.post(f"/v1/games/{game['id']}/seats/7", json={"name": "x"}), 404, "unknown_seat"
    )
    assert_problem(client.post(f"/v1/games/{game['id']}/seats/1", json={}), 400, "bad_request")


def test_unknown_paths_and_methods_are_problems_too(client):
    assert_problem(client.get("/v1/nothing"), 404, "not_found")
    assert_problem(client.delete("/v1/games"), 405, "method_not_allowed")


def test_the_event_store_out_of_reach_is_a_503_to_retry_not_a_server_fault(
    client, game, deps, monkeypatch
):
    """Redis restarting or failing over: every path answers 503 store_unavailable with
    Retry-After, the command answered before Flask and the routes behind it alike."""

    def out_of_reach(*args, **kwargs):
        raise redis.exceptions.ConnectionError("Connection refused")

    monkeypatch.setattr(deps.service, "command", out_of_reach)
    monkeypatch.setattr(deps.service, "create", out_of_reach)
    token = game["seats"][0]["token"]
    exchange = {"type": "exchange", "cards": []}
    answers = [
        client.post(f"/v1/games/{game['id']}/commands", json=exchange, headers=auth(token)),
        client.post(
            f"/v1/games/{game['id']}/commands?x=1", json=exchange, headers=auth(token)
        ),  # a query string: Flask's route
        create(client),
    ]
    for answer in answers:
        assert_problem(answer, 503, "store_unavailable")
        assert answer.headers["Retry-After"] == "1"


def test_redis_out_of_reach_is_told_apart_when_a_library_wraps_it():
    """Flask wraps an error raised in a hook (flask-limiter's) in InternalServerError,
    limits in StorageError: still a 503 to retry; any other error stays a 500."""
    down = redis.exceptions.ConnectionError("Connection closed by server")
    wrapped = [InternalServerError(original_exception=down), StorageError(down)]
    for error in wrapped:
        assert unexpected(error)[0] == "store_unavailable"
    assert unexpected(InternalServerError(original_exception=KeyError("x")))[0] == (
        "internal_error"
    )
