"""openapi.yaml is generated from the schemas that validate requests; it must be
current, and the running app must honour it (schemathesis)."""

import pytest
import schemathesis
import yaml
from hypothesis import HealthCheck, given, settings
from schemathesis import checks

from services.api import create_app, openapi
from tests.integration.conftest import build_deps


def test_openapi_yaml_is_current():
    assert openapi.PATH.read_text() == openapi.document(), "run `make openapi` and commit it"


def test_every_endpoint_and_error_code_is_documented():
    spec = yaml.safe_load(openapi.PATH.read_text())
    paths = spec["paths"]
    for path in [
        "/v1/games",
        "/v1/games/{game_id}",
        "/v1/games/{game_id}/seats/{seat}",
        "/v1/games/{game_id}/view",
        "/v1/games/{game_id}/commands",
        "/v1/games/{game_id}/events",
    ]:
        assert path in paths
    schemas = spec["components"]["schemas"]
    for name in [
        "AlebrijesExchange",
        "AlebrijesPlay",
        "AlebrijesPass",
        "AlebrijesState",
        "Problem",
    ]:
        assert name in schemas


@pytest.fixture(scope="module")
def live_app(tmp_path_factory):
    import fakeredis

    from shared.keys import Keys

    deps = build_deps(fakeredis.FakeRedis(), Keys("schemathesis:"))
    app = create_app(deps)
    # A few real games, so generated requests can also hit existing ones.
    for seed in range(3):
        deps.service.create("alebrijes", [{"name": "a"}, {"open": True}], {"seed": seed})
    return app


EXAMPLES_PER_OPERATION = 30


def test_the_api_honours_its_openapi_document(live_app):
    """No 5xx, and every response matches its documented status, type and schema."""
    schema = schemathesis.openapi.from_wsgi("/openapi.json", live_app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == 7
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(
            max_examples=EXAMPLES_PER_OPERATION,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def honours(case):
            # A well-formed request may still break a rule (a seat count the game does
            # not allow, an illegal move): 400/422 there is right, so schema-valid
            # requests need not all be accepted.
            case.call_and_validate(excluded_checks=[checks.positive_data_acceptance])

        honours()


def test_every_view_and_answer_of_a_whole_game_matches_the_document(live_app):
    """Views at every step of a real game, not only the few states random requests
    reach, must match the documented schemas (game state included)."""
    schema = schemathesis.openapi.from_wsgi("/openapi.json", live_app)
    view_op = schema["/v1/games/{game_id}/view"]["GET"]
    command_op = schema["/v1/games/{game_id}/commands"]["POST"]
    client = live_app.test_client()
    body = {
        "game": "alebrijes",
        "seats": [{"name": "a"}, {"name": "b"}, {"name": "c"}],
        "options": {"seed": 12, "rounds": 2},
    }
    game = client.post("/v1/games", json=body).get_json()
    tokens = [s["token"] for s in game["seats"]]
    path = f"/v1/games/{game['id']}"
    for _ in range(3000):
        spectator = client.get(f"{path}/view")
        view_op.validate_response(spectator)
        if spectator.get_json()["status"] == "finished":
            break
        seat = spectator.get_json()["to_act"][0]
        mine = client.get(f"{path}/view", headers={"Authorization": f"Bearer {tokens[seat]}"})
        view_op.validate_response(mine)
        answer = client.post(
            f"{path}/commands",
            json=mine.get_json()["legal"][-1],
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
        command_op.validate_response(answer)
        assert answer.status_code == 200
    assert spectator.get_json()["status"] == "finished"
