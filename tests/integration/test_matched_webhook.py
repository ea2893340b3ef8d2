"""A quick match's `matched` reaches the player's webhook as any inbox item does
(signed, the item itself), and only the matched player's own."""

import time

import pytest

from services.api.webhook_schemas import PlayerNotification
from services.matchmaker.matchmaker import Matchmaker
from shared import webhooks
from tests.integration.test_player_webhooks import bearer, receiver, register
from tests.integration.test_players_read_models import guest
from tests.integration.test_webhook_delivery import deliver_all

__all__ = ["receiver"]  # a fixture, shared


@pytest.fixture
def deps_redis(real_redis):
    return real_redis


def test_matched_goes_to_the_players_webhook(hook_env, client, deps, receiver):
    ana, bea = guest(client, "ana"), guest(client, "bea")
    registered = register(client, bea, receiver.url, events=["matched"])
    tickets = []
    for player in (ana, bea):
        opened = client.post(
            "/v1/matchmaking/tickets",
            json={"game": "alien", "players": 2},
            headers=bearer(player["token"]),
        )
        assert opened.status_code == 201
        tickets.append(opened.get_json())
    assert Matchmaker(deps).round() == 1
    deliver_all(deps)
    (body,) = receiver.acknowledged()
    matched = deps.matchmaking.ticket(tickets[1]["id"])
    assert (body["kind"], body["player_id"], body["ticket_id"]) == (
        "matched",
        bea["id"],
        matched["id"],
    )
    assert (body["game_id"], body["seat"]) == (matched["game_id"], matched["seat"])
    assert PlayerNotification().validate(body) == {}
    _, headers, _, raw = receiver.requests[0]
    assert webhooks.verify(
        registered["secret"], headers[webhooks.SIGNATURE_HEADER], raw, time.time()
    )
