"""Hostile input: every case is a 400 problem+json with a stable code, never a
500, and nothing is written. Each was a 500, or was accepted silently, before."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from services.api.body import MAX_DEPTH
from tests.api.helpers import assert_problem, auth, stream_versions
from tests.helpers import humans

HUGE = str(2**64)


def post_raw(client, path, raw, headers=None):
    return client.post(path, data=raw, content_type="application/json", headers=headers)


def creation(name="ana", **options):
    """A game creation body as JSON text; json.dumps writes a lone surrogate as the
    escape "\\ud800" a client would send."""
    seats = [{"name": name}, {"open": True}]
    return json.dumps({"game": "alebrijes", "seats": seats, "options": options})


def nested(depth):
    return "[" * depth + "]" * depth


@pytest.fixture
def game(client, projector):
    answer = client.post(
        "/v1/games", json={"game": "alebrijes", "seats": [{"name": "ana"}, {"open": True}]}
    )
    projector.project(answer.get_json()["id"])
    return answer.get_json()


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param(nested(5000), id="a body nested 5,000 deep"),
        pytest.param(creation()[:-2] + f', "x": {nested(5000)}}}}}', id="options nested 5,000"),
        pytest.param(
            creation()[:-2] + f', "x": {nested(MAX_DEPTH + 1)}}}}}', id="past the depth limit"
        ),
        pytest.param(creation("\ud800"), id="a name that is a lone surrogate"),
        pytest.param(creation(seed="\ud800"), id="a seed that is a lone surrogate"),
        pytest.param(creation()[:-2] + f', "seed": {"7" * 5000}}}}}', id="a 5,000-digit seed"),
        pytest.param(creation(seed=float("nan")), id="a NaN seed"),
    ],
)
def test_a_body_no_strict_json_reader_accepts_is_a_bad_request(client, deps, raw):
    assert_problem(post_raw(client, "/v1/games", raw), 400, "bad_request")
    assert deps.store.game_ids() == []


@pytest.mark.parametrize(
    "options, field",
    [
        ({"rounds": "3"}, "rounds"),
        ({"rounds": 2.5}, "rounds"),
        ({"rounds": True}, "rounds"),
        ({"turn_seconds": 1.5}, "turn_seconds"),
        ({"turn_seconds": "60"}, "turn_seconds"),
        ({"zombie_after": 2.0}, "zombie_after"),
        ({"one_turn": "yes"}, "one_turn"),
        ({"one_turn": 1}, "one_turn"),
        ({"seed": "a\u0000b"}, "seed"),
    ],
)
def test_an_option_of_the_wrong_json_type_is_refused(client, deps, options, field):
    response = post_raw(client, "/v1/games", creation(**options))
    assert_problem(response, 400, "bad_request")
    assert field in response.get_json()["errors"]["options"]
    assert deps.store.game_ids() == []


def test_an_alien_option_of_the_wrong_json_type_is_refused(client, deps):
    body = {"game": "alien", "seats": [{"name": "a"}, {"open": True}]}
    response = client.post("/v1/games", json={**body, "options": {"stack_seconds": "5"}})
    assert_problem(response, 400, "bad_request")
    assert "stack_seconds" in response.get_json()["errors"]["options"]
    assert deps.store.game_ids() == []


def test_another_games_option_is_the_rules_refusal_and_names_it(client, deps):
    response = post_raw(client, "/v1/games", creation(stack_seconds=5))
    assert_problem(response, 400, "bad_options")
    assert "stack_seconds" in response.get_json()["detail"]
    assert deps.store.game_ids() == []


@pytest.mark.parametrize("name", ["a\u0000b", "a\nb", "tab\there", "\u001b[31mred", "\u0085"])
def test_a_name_with_a_control_character_is_refused(client, deps, name):
    response = post_raw(client, "/v1/games", creation(name))
    assert_problem(response, 400, "bad_request")
    assert "seats" in response.get_json()["errors"]
    assert deps.store.game_ids() == []


def test_a_seat_option_of_the_wrong_json_type_is_refused(client, deps):
    for seat in ({"open": 1}, {"bot": "random", "reaction_seconds": "1"}):
        body = {"game": "alebrijes", "seats": [{"name": "ana"}, seat]}
        assert_problem(client.post("/v1/games", json=body), 400, "bad_request")
    assert deps.store.game_ids() == []


def test_names_people_write_are_still_welcome(client):
    for name in ("Zoë", "李小龙", "ana 🃏", "O'Brien-Núñez"):
        response = post_raw(client, "/v1/games", creation(name, seed=2**63 - 1))
        assert response.status_code == 201, response.get_json()


@pytest.mark.parametrize("name", ["\ud800", "a\u0000b", "\u0007"])
def test_claiming_a_seat_with_an_unprintable_name_is_refused(client, deps, game, name):
    before = stream_versions(deps)
    response = post_raw(client, f"/v1/games/{game['id']}/seats/1", json.dumps({"name": name}))
    assert_problem(response, 400, "bad_request")
    assert stream_versions(deps) == before


@pytest.mark.parametrize(
    "raw, code",
    [
        (nested(5000), "bad_request"),
        ('{"type": "exchange", "cards": [], "expected_version": "3"}', "bad_command"),
        ('{"type": "exchange", "cards": [], "expected_version": 3.5}', "bad_command"),
        ('{"type": "exchange", "cards": "\\ud800"}', "bad_request"),
    ],
)
def test_a_hostile_command_is_refused(client, deps, projector, raw, code):
    game = client.post("/v1/games", json={"game": "alebrijes", "seats": humans("a", "b")})
    game = game.get_json()
    before = stream_versions(deps)
    token = game["seats"][0]["token"]
    response = post_raw(client, f"/v1/games/{game['id']}/commands", raw, auth(token))
    assert_problem(response, 400, code)
    assert stream_versions(deps) == before


@pytest.mark.parametrize(
    "path, headers",
    [
        ("events?after=" + HUGE, {}),
        ("events?after=" + "9" * 1000, {}),
        ("view?after=" + HUGE + "&wait=1", {}),
        ("stream?after=" + HUGE, {}),
        ("stream", {"Last-Event-ID": HUGE}),
        ("stream", {"Last-Event-ID": "9" * 5000}),
        ("stream", {"Last-Event-ID": "-1"}),
    ],
)
def test_a_version_past_what_a_stream_can_hold_is_a_bad_request(client, game, path, headers):
    response = client.get(f"/v1/games/{game['id']}/{path}", headers=headers)
    assert_problem(response, 400, "bad_request")


def test_the_largest_version_is_answered(client, game):
    response = client.get(f"/v1/games/{game['id']}/events?after={2**63 - 1}")
    assert response.status_code == 200 and response.get_json()["events"] == []


# Any JSON where the schema wants a name or an option: 201 or 400, never a 5xx, and a
# refusal writes nothing. Text includes control characters and lone surrogates.
ANY_TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=6)
ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | ANY_TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(ANY_TEXT, inner, max_size=3),
    max_leaves=8,
)
OPTION = st.sampled_from(
    ["seed", "rounds", "turn_seconds", "zombie_after", "one_turn", "variant", "deck"]
)


@settings(
    max_examples=40,  # under RATE_LIMIT_CREATE's default: one app takes them all
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
@given(name=ANY_JSON | ANY_TEXT, options=st.dictionaries(OPTION, ANY_JSON, max_size=3))
def test_any_json_in_a_creation_is_created_or_refused_never_a_5xx(app, name, options):
    client = app.test_client()
    deps = app.extensions["tablestream"]
    before = deps.store.game_ids()
    body = {"game": "alebrijes", "seats": [{"name": name}, {"open": True}], "options": options}
    response = post_raw(client, "/v1/games", json.dumps(body))
    assert response.status_code in (201, 400), response.get_data(as_text=True)
    if response.status_code == 400:
        assert response.get_json()["code"] in ("bad_request", "bad_options")
        assert deps.store.game_ids() == before
