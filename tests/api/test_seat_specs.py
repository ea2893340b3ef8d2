"""A new table's seats are a union told apart by `kind` (human, bot, open); JSON
without `kind` is told by its fields, as before kinds existed."""

import pytest
import yaml

from services.api import openapi
from services.api.seat_specs import SEAT_KINDS


def create(client, *seats):
    return client.post("/v1/games", json={"game": "alebrijes", "seats": list(seats)})


def test_each_kind_of_seat_makes_its_seat(client):
    answer = create(
        client,
        {"kind": "human", "name": "ana"},
        {"kind": "bot", "bot": "ismcts", "think_ms": 50},
        {"kind": "open"},
    )
    assert answer.status_code == 201, answer.get_json()
    human, bot, open_seat = answer.get_json()["seats"]
    assert human["name"] == "ana" and human["token"] and human["bot"] is None
    assert bot["bot"] == "ismcts" and bot["think_ms"] == 50 and bot["token"] is None
    assert open_seat["open"] is True and open_seat["token"] is None


def test_the_same_seats_without_kind_are_the_same_table(client):
    with_kinds = create(client, {"kind": "human", "name": "ana"}, {"kind": "bot", "bot": "random"})
    told = create(client, {"name": "ana"}, {"bot": "random"})
    strip = [{k: v for k, v in s.items() if k != "token"} for s in told.get_json()["seats"]]
    assert strip == [
        {k: v for k, v in s.items() if k != "token"} for s in with_kinds.get_json()["seats"]
    ]


@pytest.mark.parametrize(
    "seat",
    [
        {"kind": "human"},  # a human needs a name
        {"kind": "human", "name": "ana", "bot": "random"},  # a bot's field on a human
        {"kind": "human", "name": "ana", "think_ms": 50},
        {"kind": "bot"},  # a bot needs its level
        {"kind": "bot", "bot": "random", "open": True},
        {"kind": "open", "name": "ana"},
        {"kind": "player"},  # a player's seat names the player
        {"kind": "player", "player": "me", "name": "ana"},  # the name is the player's
        {"player": "me", "open": True},
        {"kind": 3, "name": "ana"},
        {"open": True, "name": "ana"},
        {},
    ],
)
def test_a_seat_that_is_not_one_kind_is_refused(client, deps, seat):
    answer = create(client, {"name": "bo"}, seat)
    assert answer.status_code == 400, answer.get_json()
    assert answer.get_json()["code"] == "bad_request" and "seats" in answer.get_json()["errors"]
    assert deps.store.game_ids() == []


def test_the_document_has_one_component_per_kind_and_a_discriminator():
    schemas = yaml.safe_load(openapi.PATH.read_text())["components"]["schemas"]
    union = schemas["SeatSpec"]
    assert union["discriminator"]["propertyName"] == "kind"
    assert set(union["discriminator"]["mapping"]) == set(SEAT_KINDS)
    for member in SEAT_KINDS.values():
        assert "kind" in schemas[member.__name__]["required"]
    assert set(schemas["HumanSeat"]["required"]) == {"kind", "name"}
    assert set(schemas["BotSeat"]["required"]) == {"kind", "bot"}
