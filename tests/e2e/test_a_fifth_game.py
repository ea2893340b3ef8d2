"""A fifth game added by its package alone: Tiny (tests/games/tiny), registered only in
the tests through a test distribution's entry point (tests/games/registry.py), touches no
project file, and yet:

- the OpenAPI generator (`python -m services.api.openapi`, in a process that finds the
  game) documents its typed routes and components beside the four games', which stay
  exactly as in openapi.yaml;
- `make run`'s stack started with it plays a whole game over HTTP, and a seat never sees
  the other's hidden card before the cards are shown;
- openapi-python-client generates a client from that document, which plays a whole game
  with Tiny's own typed operations and models;
- /play serves its table through the plain module for a game without one;
- the AsyncAPI document, the PettingZoo environment and the bot levels find it too.
"""

import json
import signal
import subprocess
import sys

import pytest
import yaml

from tests.e2e import clients
from tests.e2e.conftest import ROOT, start_stack
from tests.games.registry import installed

pytestmark = pytest.mark.e2e

ROUTES = ["/v1/tiny/{game_id}/view", "/v1/tiny/{game_id}/commands", "/v1/tiny/{game_id}/events"]
COMPONENTS = ["TinyCommand", "TinyKeep", "TinySwap", "TinyState", "TinyEvent", "TinyView",
              "TinyMoved", "TinyEventPage", "TinyReplay", "CreateTinyGame",
              "TinyTableOptions"]  # fmt: skip
SEATS = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bo"}]


@pytest.fixture(scope="module")
def python_path(tmp_path_factory):
    return installed(tmp_path_factory.mktemp("tinygame"))


def run_with_tiny(python_path, *arguments):
    """The output of `python *arguments` in a process that finds Tiny."""
    return subprocess.run(
        [sys.executable, *arguments],
        cwd=ROOT, env={"PYTHONPATH": python_path, "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout  # fmt: skip


@pytest.fixture(scope="module")
def document(python_path, tmp_path_factory):
    """The OpenAPI document as the generator makes it in a process that finds Tiny."""
    made = run_with_tiny(python_path, "-m", "services.api.openapi")
    path = tmp_path_factory.mktemp("spec") / "openapi.yaml"
    path.write_text(made)
    return path, yaml.safe_load(made)


# Played in a process that finds Tiny: its environment (one action per command type, as
# it declares no action space), the bot levels that play it, and its default takeover.
ENV_AND_BOTS = """
import json
from shared import bots, table
from shared.envs import env
from shared.envs.actions import actions

game = env("tiny", players=2)
game.reset(seed=3)
steps, rewards = 0, {}
for agent in game.agent_iter():
    observation, reward, done, cut, info = game.last()
    rewards[agent] = rewards.get(agent, 0) + reward
    if done or cut:
        game.step(None)
        continue
    game.step(int(observation["action_mask"].nonzero()[0][-1]))
    steps += 1
created = table.create("t1", "tiny", [{"name": "a"}, {"name": "b"}], {}, seed="s")[0]
print(json.dumps({
    "commands": actions("tiny").commands,
    "steps": steps,
    "rewards": sorted(rewards.values()),
    "levels": list(bots.registry.names("tiny")),
    "takeover": created["takeover_bot"],
}))
"""


@pytest.fixture(scope="module")
def stack(python_path, tmp_path_factory):
    client, run = start_stack(tmp_path_factory, PYTHONPATH=python_path)
    yield client
    run.send_signal(signal.SIGINT)
    run.wait(30)


def test_this_process_never_registered_the_test_game():
    from shared import games

    assert "tiny" not in games.NAMES  # the suite's own processes see the four games


def test_the_document_has_the_games_routes_and_the_four_games_unchanged(document):
    _, spec = document
    committed = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    assert set(spec["paths"]) - set(committed["paths"]) == set(ROUTES)
    schemas = spec["components"]["schemas"]
    assert set(COMPONENTS) <= set(schemas)
    assert schemas["TinyCommand"]["discriminator"]["mapping"] == {
        "keep": "#/components/schemas/TinyKeep",
        "swap": "#/components/schemas/TinySwap",
    }
    # The cross-game unions gain Tiny; every other component is exactly as committed.
    unions = {"View": "TinyView", "Moved": "TinyMoved", "EventPage": "TinyEventPage",
              "CreateGame": "CreateTinyGame", "Replay": "TinyReplay"}  # fmt: skip
    for union, member in unions.items():
        mapping = schemas[union]["discriminator"]["mapping"]
        assert mapping["tiny"] == f"#/components/schemas/{member}", union
    # A table's options in force gain Tiny's own, from its contract.
    assert schemas["OptionsInForce"]["properties"]["low_wins"] == {
        "type": "boolean",
        "description": "Tiny.",
    }
    # Nothing of the four games' changed: the components that list the games (unions,
    # enums of names) or their options only gained Tiny; every other is as committed.
    changed = []
    for name, schema in committed["components"]["schemas"].items():
        assert only_added(schema, schemas[name]), name
        if schemas[name] != schema:
            added = json.dumps(schemas[name]).lower()
            assert "tiny" in added or "low_wins" in added, name  # a name or an option
            changed.append(name)
    assert {"View", "CreateGame", "Summary", "OptionsInForce"} <= set(changed)


def only_added(old, new):
    """Whether `new` is `old` with things added only: keys, and items of lists (enums,
    the members of a union)."""
    if isinstance(old, dict):
        return isinstance(new, dict) and all(
            key in new and only_added(value, new[key]) for key, value in old.items()
        )
    if isinstance(old, list):
        return isinstance(new, list) and all(item in new for item in old)
    return old == new


def play(stack, seen):
    """A whole game over HTTP through Tiny's typed routes; `seen[seat]` collects every
    view state and event that seat (None: a spectator) was sent while the game ran."""
    created = stack.create(SEATS, game="tiny", seed=4, variant="low_wins")
    game_id, tokens = created["id"], [seat["token"] for seat in created["seats"]]
    version = created["version"]
    for _ in range(10):
        # Each seat's view once it is at the last move's version (the read side follows).
        path = f"/v1/tiny/{game_id}/view?after={version - 1}&wait=10"
        views = [_get(stack, path, token) for token in tokens]
        assert [view["version"] for view in views] == [version] * 2
        assert views[0]["options"]["low_wins"] is True  # the variant, switched on
        if views[0]["status"] == "finished":
            return game_id, views
        for seat, token in [(0, tokens[0]), (1, tokens[1]), (None, None)]:
            if seat is not None:
                seen[seat].append(("view", views[seat]["state"]))
            events = _get(stack, f"/v1/tiny/{game_id}/events", token)["events"]
            seen[seat] += [("event", event) for event in events]
        (seat,) = views[0]["to_act"]
        command = views[seat]["legal"][1]  # swap: the hidden card changes hands
        answer = stack.call("POST", f"/v1/tiny/{game_id}/commands", tokens[seat], json=command)
        assert answer.status_code == 200, answer.text
        version = answer.json()["version"]
        if answer.json()["view"]["status"] != "finished":
            seen[seat].append(("view", answer.json()["view"]["state"]))
    raise AssertionError("tiny did not finish")


def _get(stack, path, token):
    answer = stack.call("GET", path, token)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_whole_game_over_http_never_shows_a_seat_the_others_card(stack):
    seen = {0: [], 1: [], None: []}
    game_id, final = play(stack, seen)
    shown = final[0]["state"]["hands"]
    assert final[0]["result"]["winners"] == [min((0, 1), key=lambda s: int(shown[s]))]
    dealt = [event for kind, event in seen[None] if event["type"] == "dealt"]
    assert dealt and all(e["hands"] == [None, None] and e["pile"] is None for e in dealt)
    log, _ = stack.events(game_id)  # once over, the log is public
    assert None not in next(e for e in log if e["type"] == "dealt")["hands"]
    for seat in (0, 1):
        other = 1 - seat
        assert ("view", None) not in seen[seat]  # the game was dealt before the first read
        for kind, item in seen[seat]:
            if kind == "view":
                assert item["hands"] is None and item["seat"] == seat and item["hand"]
            elif item["type"] == "dealt":
                assert item["hands"][other] is None and item["hands"][seat] is not None
            elif item["type"] == "swapped" and item["seat"] == other:
                assert item["card"] is None and item["discarded"] is not None
        kinds = {item["type"] for kind, item in seen[seat] if kind == "event"}
        assert {"dealt", "swapped"} <= kinds  # what was checked was there


def test_the_api_refuses_another_games_command_and_a_bad_option(stack):
    created = stack.create(SEATS, game="tiny")
    token = created["seats"][0]["token"]
    answer = stack.call("POST", f"/v1/tiny/{created['id']}/commands", token, json={"type": "pass"})
    assert answer.status_code == 400 and answer.json()["code"] == "bad_command", answer.text
    refused = stack.call(
        "POST", "/v1/games", json={"game": "tiny", "seats": SEATS, "options": {"rounds": 2}}
    )
    assert refused.status_code == 400 and refused.json()["code"] == "bad_options", refused.text


def test_play_serves_a_plain_table_for_a_game_without_a_module(stack):
    assert stack.call("GET", "/play/games/tiny.js").status_code == 404
    generic = stack.call("GET", "/play/generic.js")
    assert generic.status_code == 200 and "No table client for this game" in generic.text


def test_the_generated_python_client_plays_a_whole_game(stack, document, tmp_path_factory):
    path, _ = document
    package = clients.python_client(tmp_path_factory.mktemp("tiny-client"), path, "tiny_client")
    from tiny_client.api.games import create_game
    from tiny_client.api.tiny import get_tiny_view, send_tiny_command
    from tiny_client.models import (
        CreateTinyGame,
        CreateTinyGameGame,
        HumanSeat,
        HumanSeatKind,
        TinySwap,
        TinyTableOptions,
    )

    anonymous = package.Client(base_url=stack.base, raise_on_unexpected_status=True)
    body = CreateTinyGame(
        game=CreateTinyGameGame("tiny"),
        seats=[HumanSeat(kind=HumanSeatKind.HUMAN, name=n) for n in ("Ana", "Bo")],
        options=TinyTableOptions.from_dict({"seed": 9, "low_wins": True}),
    )
    created = create_game.sync(client=anonymous, body=body)
    seats = [package.AuthenticatedClient(base_url=stack.base, token=s.token) for s in created.seats]
    version = created.version
    for _ in range(4):
        at = {"game_id": created.id, "after": version - 1, "wait": 10}
        view = get_tiny_view.sync(client=anonymous, **at)
        assert type(view).__name__ == "TinyView" and view.version == version
        assert view.options.low_wins is True  # an attribute of the derived OptionsInForce
        if view.status.value == "finished":
            break
        (seat,) = view.to_act
        mine = get_tiny_view.sync(client=seats[seat], **at)
        assert type(mine.state).__name__ == "TinyState" and mine.state.hand in "12345"
        command = next(c for c in mine.legal if isinstance(c, TinySwap))
        moved = send_tiny_command.sync(client=seats[seat], game_id=created.id, body=command)
        assert type(moved).__name__ == "TinyMoved", moved
        version = moved.version
    assert view.status.value == "finished" and len(view.result.scores) == 2
    assert sorted(view.state.hands) != [] and view.result.winners[0] in (0, 1)


def test_the_asyncapi_document_lists_its_events(python_path):
    made = yaml.safe_load(run_with_tiny(python_path, "-m", "services.api.asyncapi"))
    assert "TinyEvent" in made["components"]["schemas"]
    assert "#/components/schemas/TinyEvent" in json.dumps(made["components"]["messages"])


def test_its_environment_and_bots_come_from_its_package_or_the_fallbacks(python_path):
    found = json.loads(run_with_tiny(python_path, "-c", ENV_AND_BOTS))
    assert found["commands"] == [None, {"type": "keep"}, {"type": "swap"}]
    assert found["steps"] == 2 and found["rewards"] == [0, 1]
    assert found["levels"] == ["random"]  # no heuristic of its own: greedy does not play it
    assert found["takeover"] == "random"
