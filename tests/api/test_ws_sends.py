"""GET /v1/ws's outbox (services/api/live.py) on the app's Deps: one turn, the queued
answers then a subscription's catch-up of events and its view, goes out in one send."""

import types

from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, Request, TextMessage

from services.api.live import Connection, Subscription
from shared import jsonutil
from tests.api.helpers import auth, create, view_of


class Recorded:
    """A socket that keeps each `sendall`'s bytes."""

    def __init__(self):
        self.calls = []
        self.timeout = None

    def settimeout(self, seconds):
        self.timeout = seconds

    def sendall(self, data):
        self.calls.append(bytes(data))


def test_an_outbox_turn_sends_its_answers_events_and_view_in_one_call(app, deps, projector):
    client = app.test_client()
    game = create(client, [{"name": "a"}, {"name": "b"}], seed=1)
    for _ in range(3):
        view = view_of(client, game)
        seat = view["to_act"][0]
        command = view_of(client, game, seat)["legal"][0]
        token = game["seats"][seat]["token"]
        response = client.post(
            f"/v1/games/{game['id']}/commands", json=command, headers=auth(token)
        )
        assert response.status_code == 200
    version = projector.project(game["id"])

    server, peer = WSConnection(ConnectionType.SERVER), WSConnection(ConnectionType.CLIENT)
    server.receive_data(peer.send(Request(host="localhost", target="/v1/ws")))
    list(server.events())
    peer.receive_data(server.send(AcceptConnection()))
    list(peer.events())
    ws = types.SimpleNamespace(
        ws=server, sock=Recorded(), connected=True, close_reason=1005, close_message=None
    )
    with app.app_context():
        connection = Connection(ws, deps, app.extensions, held_lease=None)
        connection.subscriptions[game["id"]] = Subscription(None, 0)
        connection.pending.add(game["id"])
        connection._send_later({"type": "pong", "ref": 1})
        connection._send_later({"type": "pong", "ref": 2})
        assert connection._turn()

    calls = ws.sock.sock.calls
    assert len(calls) == 1
    peer.receive_data(calls[0])
    messages = [jsonutil.loads(e.data) for e in peer.events() if isinstance(e, TextMessage)]
    assert [m["type"] for m in messages] == ["pong", "pong"] + ["event"] * version + ["view"]
    assert [m["event"]["version"] for m in messages[2:-1]] == list(range(1, version + 1))
    assert messages[-1]["version"] == version
