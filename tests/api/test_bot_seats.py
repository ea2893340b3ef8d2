"""Bot seats over the API: the levels, a search bot's think_ms, the takeover level;
a bad level or budget is a 400 bad_request that names the levels and writes nothing."""

import pytest
import yaml

from services.api import openapi
from shared import bots, table
from shared.games.base import RuleError


def create(client, seats, **options):
    return client.post("/v1/games", json={"game": "alebrijes", "seats": seats, "options": options})


def test_every_level_may_take_a_seat_and_a_search_bot_keeps_its_budget(client):
    seats = [{"name": "ana"}, {"bot": "greedy"}, {"bot": "ismcts", "think_ms": 450}]
    response = create(client, [*seats, {"bot": "random"}], seed=3, takeover_bot="ismcts")
    assert response.status_code == 201, response.get_json()
    game = response.get_json()
    assert [s["bot"] for s in game["seats"]] == [None, "greedy", "ismcts", "random"]
    assert [s["think_ms"] for s in game["seats"]] == [None, None, 450, None]
    summary = client.get(f"/v1/games/{game['id']}").get_json()
    assert summary["seats"][2]["think_ms"] == 450 and summary["seats"][2]["bot"] == "ismcts"
    assert summary["options"]["takeover_bot"] == "ismcts"


def test_the_takeover_level_is_greedy_unless_told(client):
    game = create(client, [{"name": "a"}, {"name": "b"}], seed=1).get_json()
    summary = client.get(f"/v1/games/{game['id']}").get_json()
    assert summary["options"]["takeover_bot"] == table.TAKEOVER_BOT == "greedy"


def test_a_resigned_seat_is_taken_over_by_the_takeover_level(client, deps):
    game = create(client, [{"name": "a"}, {"name": "b"}], seed=2, takeover_bot="ismcts")
    game = game.get_json()
    headers = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    assert client.post(f"/v1/games/{game['id']}/seats/0/resign", headers=headers).status_code == 200
    taken = [r.event for r in deps.store.read(game["id"]) if r.event["type"] == "seat_taken_over"]
    assert taken == [{"type": "seat_taken_over", "seat": 0, "bot": "ismcts", "reason": "resigned"}]


def test_reaction_seconds_is_shown_only_on_seats_a_bot_plays(client, deps, projector):
    seats = [{"name": "ana"}, {"open": True}, {"bot": "random", "reaction_seconds": 0.5}]
    game = create(client, seats, seed=4).get_json()
    projector.project(game["id"])
    created = deps.store.read(game["id"])[0].event
    summary = client.get(f"/v1/games/{game['id']}").get_json()
    for shown in (game["seats"], created["seats"], summary["seats"]):
        assert ["reaction_seconds" in s for s in shown] == [False, False, True]
    assert summary["seats"][2]["reaction_seconds"] == 0.5
    # The document agrees: a seat record may leave it out.
    record = yaml.safe_load(openapi.PATH.read_text())["components"]["schemas"]["SeatRecord"]
    assert "reaction_seconds" in record["properties"]
    assert "reaction_seconds" not in record["required"]
    # A person's seat a bot takes over shows the delay that bot reacts after.
    bea = client.post(f"/v1/games/{game['id']}/seats/1", json={"name": "bea"}).get_json()
    headers = {"Authorization": f"Bearer {bea['token']}"}
    assert client.post(f"/v1/games/{game['id']}/seats/1/resign", headers=headers).status_code == 200
    projector.project(game["id"])
    summary = client.get(f"/v1/games/{game['id']}").get_json()
    assert "reaction_seconds" not in summary["seats"][0]
    assert summary["seats"][1]["reaction_seconds"] == table.REACTION_SECONDS


def test_a_persons_seat_with_a_reaction_delay_is_refused(client, deps):
    seats = [{"kind": "human", "name": "ana", "reaction_seconds": 1}, {"bot": "random"}]
    response = create(client, seats)
    assert response.status_code == 400 and response.get_json()["code"] == "bad_request"
    assert deps.store.game_ids() == []
    with pytest.raises(RuleError, match="reaction_seconds is for a bot's seat"):
        person = {"name": "a", "reaction_seconds": 1}
        table.create("g", "alebrijes", [person, {"name": "b"}], {}, "s")


@pytest.mark.parametrize(
    ("seats", "options", "field"),
    [
        ([{"bot": "genius"}, {"name": "b"}], {}, "bot"),
        ([{"bot": "ismcts", "think_ms": bots.MIN_THINK_MS - 1}, {"name": "b"}], {}, "think_ms"),
        ([{"bot": "ismcts", "think_ms": bots.MAX_THINK_MS + 1}, {"name": "b"}], {}, "think_ms"),
        ([{"bot": "ismcts", "think_ms": "fast"}, {"name": "b"}], {}, "think_ms"),
        ([{"name": "a", "think_ms": 300}, {"name": "b"}], {}, "think_ms"),
        ([{"name": "a"}, {"name": "b"}], {"takeover_bot": "genius"}, "takeover_bot"),
    ],
    ids=["level", "too-short", "too-long", "not-a-number", "human", "takeover"],
)
def test_a_bad_level_or_budget_is_a_bad_request_and_writes_nothing(
    client, deps, seats, options, field
):
    response = create(client, seats, **options)
    problem = response.get_json()
    assert response.status_code == 400 and problem["code"] == "bad_request"
    assert field in str(problem["errors"])
    if field in ("bot", "takeover_bot"):
        assert "random, greedy, ismcts" in str(problem["errors"])
    assert deps.store.game_ids() == []


def test_the_table_refuses_what_the_schema_would_too():
    """shared.table checks levels and budgets itself, for callers other than the API."""
    from shared.games.base import RuleError

    for spec in (
        {"bot": "genius"},
        {"bot": "ismcts", "think_ms": 10},
        {"name": "a", "think_ms": 50},
    ):
        with pytest.raises(RuleError) as refused:
            table.create("g", "alebrijes", [spec, {"name": "b"}], {"seed": "s"}, "s")
        assert refused.value.code == "bad_request"
    with pytest.raises(RuleError, match="random, greedy, ismcts"):
        table.create("g", "alebrijes", [{"bot": "genius"}, {"name": "b"}], {}, "s")
