"""openapi.yaml is generated from the schemas that validate requests; it must be
current, and the running app must honour it (schemathesis)."""

import random

import pytest
import schemathesis
import yaml
from hypothesis import HealthCheck, given, settings
from schemathesis import checks

from services.api import create_app, errors, openapi
from services.api.games import COMMAND_SCHEMAS, CONTRACTS, STATE_SCHEMAS
from tests.fixtures import build_deps


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
    assert schemas["Problem"]["properties"]["code"]["enum"] == sorted(errors.STATUS)
    for name in [
        "AlebrijesExchange",
        "AlebrijesPlay",
        "AlebrijesPass",
        "AlebrijesState",
        "Problem",
    ]:
        assert name in schemas
    for game, commands in COMMAND_SCHEMAS.items():
        for command in commands.values():
            assert command.__name__.lower().startswith(game) and command.__name__ in schemas
        assert STATE_SCHEMAS[game].__name__ in schemas


def integers(node, path=""):
    """Every integer schema in the document, with where it is."""
    if isinstance(node, dict):
        kind = node.get("type")
        if kind == "integer" or (isinstance(kind, list) and "integer" in kind):
            yield path, node
        for key, value in node.items():
            yield from integers(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from integers(value, f"{path}[{i}]")


def test_every_integer_that_may_pass_32_bits_is_int64():
    """Kotlin, Java and Swift type an integer without a format as 32 bits: a
    millisecond timestamp (about 1.8e12) would overflow. Only an integer whose
    documented maximum fits in 32 bits may be int32."""
    spec = yaml.safe_load(openapi.PATH.read_text())
    found = list(integers(spec))
    assert len(found) > 300
    for path, schema in found:
        fits = schema.get("maximum", 2**63) <= 2**31 - 1
        assert schema.get("format") == ("int32" if fits else "int64"), (path, schema)
    schemas = spec["components"]["schemas"]
    assert schemas["GameStarted"]["properties"]["at"]["format"] == "int64"
    assert schemas["TableTimer"]["properties"]["deadline"]["format"] == "int64"
    deadlines = schemas["AlienView"]["properties"]["deadlines"]["items"]
    assert deadlines["type"] == ["integer", "null"] and deadlines["format"] == "int64"


@pytest.fixture(scope="module")
def live_app(tmp_path_factory):
    import fakeredis

    from shared.keys import Keys

    deps = build_deps(fakeredis.FakeRedis(), Keys("schemathesis:"))
    app = create_app(deps)
    # A few real games, so generated requests can also hit existing ones. Cancelled,
    # so that a generated long-poll or event stream on them ends at once.
    for seed in range(3):
        game = deps.service.create("alebrijes", [{"name": "a"}, {"open": True}], {"seed": seed})
        deps.service.cancel(game["id"])
    return app


EXAMPLES_PER_OPERATION = 20


def test_the_api_honours_its_openapi_document(live_app):
    """No 5xx, and every response matches its documented status, type and schema."""
    schema = schemathesis.openapi.from_wsgi("/openapi.json", live_app)
    operations = [result.ok() for result in schema.get_all_operations()]
    # 19 of games, 2 of invitations, 1 rematch, 12 of players, 3 of ratings, 3 typed per
    # game, 4 of quick match
    assert len(operations) == 19 + 2 + 1 + 12 + 3 + 3 * 4 + 4
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


# One whole game of each, every seat human: (game, seats, options).
WHOLE_GAMES = [
    ("alebrijes", 3, {"seed": 12, "rounds": 2}),
    ("alien", 3, {"seed": 4}),
    ("alakablast", 3, {"seed": 4}),
    ("abluxxen", 3, {"seed": 4}),
    ("abluxxen", 2, {"seed": 4, "variant": "published"}),
]


@pytest.mark.parametrize(
    ("game", "players", "options"),
    WHOLE_GAMES,
    ids=[f"{g}-{n}p-{'-'.join(map(str, o.values()))}" for g, n, o in WHOLE_GAMES],
)
def test_every_view_and_answer_of_a_whole_game_matches_the_document(
    live_app, game, players, options
):
    """Views at every step of a real game, not only the few states random requests
    reach, must match the documented schemas (game state included), and so must every
    answer to a command. Every seat's view is read at every step; a random seat among
    those with something in `legal` (in Alien a claim may come from any seat) sends a
    random one of its legal commands."""
    schema = schemathesis.openapi.from_wsgi("/openapi.json", live_app)
    view_op = schema["/v1/games/{game_id}/view"]["GET"]
    command_op = schema["/v1/games/{game_id}/commands"]["POST"]
    client = live_app.test_client()
    rng = random.Random(f"{game}/{options}")
    body = {"game": game, "seats": [{"name": f"p{i}"} for i in range(players)], "options": options}
    created = client.post("/v1/games", json=body)
    assert created.status_code == 201, created.get_json()
    tokens = [s["token"] for s in created.get_json()["seats"]]
    path = f"/v1/games/{created.get_json()['id']}"
    state_schema, command_schemas = STATE_SCHEMAS[game](), COMMAND_SCHEMAS[game]
    events = CONTRACTS[game].events
    for _ in range(3000):
        spectator = client.get(f"{path}/view")
        view_op.validate_response(spectator)
        assert state_schema.validate(spectator.get_json()["state"]) == {}
        if spectator.get_json()["status"] == "finished":
            break
        moves = []
        for seat, token in enumerate(tokens):
            mine = client.get(f"{path}/view", headers={"Authorization": f"Bearer {token}"})
            view_op.validate_response(mine)
            view = mine.get_json()
            # The marshmallow schema itself is stricter than the document's anyOf.
            assert state_schema.validate(view["state"]) == {}
            for command in view["legal"]:
                assert command_schemas[command["type"]]().load(command) == command
                moves.append((seat, command))
        acting = {seat for seat, _ in moves}
        assert set(spectator.get_json()["to_act"]) <= acting
        if game != "alien":  # only Alien lets seats that are not to act send something
            assert acting == set(spectator.get_json()["to_act"])
        seat, command = rng.choice(moves)
        answer = client.post(
            f"{path}/commands",
            json=command,
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
        command_op.validate_response(answer)
        assert answer.status_code == 200, answer.get_json()
        # Each event's own schema declares every field it has (marshmallow refuses others).
        for event in answer.get_json()["events"]:
            assert events[event["type"]]().validate(event) == {}, event
    assert spectator.get_json()["status"] == "finished"
    assert len(spectator.get_json()["result"]["scores"]) == players
