"""Bot seats over the API: the levels, a search bot's think_ms, the takeover level;
a bad level or budget is a 400 bad_request that names the levels and writes nothing."""

import pytest

from shared import bots, table


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
