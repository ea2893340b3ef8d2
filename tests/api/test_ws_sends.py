"""GET /v1/ws's outbox (services/api/live.py) on the app's Deps: one turn, the queued
answers then a subscription's catch-up of events and its view, goes out in one send;
a mover's own subscription is pushed its move with the answer, once; the game's other
sockets in the same process are pushed it from the mover's command, each as its seat
may see it."""

import types

import pytest
from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, Request, TextMessage

from services.api import live
from services.api.live import Connection, Holder, Subscription
from shared import jsonutil
from shared import table as tables
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


def _connection(app, deps):
    """A Connection over a wsproto server whose socket records its sends, and the
    client's end that reads them."""
    server, peer = WSConnection(ConnectionType.SERVER), WSConnection(ConnectionType.CLIENT)
    server.receive_data(peer.send(Request(host="localhost", target="/v1/ws")))
    list(server.events())
    peer.receive_data(server.send(AcceptConnection()))
    list(peer.events())
    ws = types.SimpleNamespace(
        ws=server, sock=Recorded(), connected=True, close_reason=1005, close_message=None
    )
    return Connection(ws, deps, app.extensions, held_lease=None), ws, peer


def _received(peer, data):
    peer.receive_data(data)
    return [jsonutil.loads(e.data) for e in peer.events() if isinstance(e, TextMessage)]


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

    connection, ws, peer = _connection(app, deps)
    with app.app_context():
        connection.subscriptions[game["id"]] = Subscription(None, 0)
        connection._look_again(game["id"])
        connection._send_later({"type": "pong", "ref": 1})
        connection._send_later({"type": "pong", "ref": 2})
        assert connection._turn()

    calls = ws.sock.sock.calls
    assert len(calls) == 1
    messages = _received(peer, calls[0])
    assert [m["type"] for m in messages] == ["pong", "pong"] + ["event"] * version + ["view"]
    assert [m["event"]["version"] for m in messages[2:-1]] == list(range(1, version + 1))
    assert messages[-1]["version"] == version


def _mover(app, deps, projector, behind):
    """A game at its first move, projected; a connection holding the seat to act,
    subscribed as having been pushed `behind` versions fewer than the game has."""
    client = app.test_client()
    game = create(client, [{"name": "a"}, {"name": "b"}], seed=1)
    version = projector.project(game["id"])
    seat = view_of(client, game)["to_act"][0]
    connection, ws, peer = _connection(app, deps)
    connection.holder = Holder(game["seats"][seat]["token"], deps.service.secret)
    connection.subscriptions[game["id"]] = Subscription(seat, version - behind)
    command = view_of(client, game, seat)["legal"][0]
    return client, game, seat, version, connection, ws.sock.sock, peer, command


def _counted_reads(monkeypatch):
    """The push's reads of a stored view and events, as a list that grows by one a read."""
    reads = []
    read = live.stored_view_and_records

    def counted(*args):
        reads.append(args)
        return read(*args)

    monkeypatch.setattr(live, "stored_view_and_records", counted)
    return reads


def test_a_movers_own_subscription_is_pushed_its_move_with_the_answer_once(
    app, deps, projector, monkeypatch
):
    client, game, seat, before, connection, sock, peer, command = _mover(
        app, deps, projector, behind=0
    )
    with app.app_context():
        connection.on_command({"game_id": game["id"], "command": command}, ref=7)
        assert connection._turn()
    assert len(sock.calls) == 1
    messages = _received(peer, sock.calls[0])
    answer = messages[0]["body"]
    assert [m["type"] for m in messages] == ["answer"] + ["event"] * len(answer["events"]) + [
        "view"
    ]
    assert [m["event"] for m in messages[1:-1]] == answer["events"]
    assert answer["events"][0]["version"] == before + 1
    assert messages[-1]["version"] == answer["version"] > before
    # The view pushed before the projector wrote it is the one the read model then holds.
    assert projector.project(game["id"]) == answer["version"]
    assert messages[-1]["view"] == view_of(client, game, seat)

    # The projector's notification of that version finds nothing left to send, or to
    # read; a mark with no version reads, and finds nothing newer either.
    reads = _counted_reads(monkeypatch)
    with app.app_context():
        connection._look_again(game["id"], answer["version"])
        assert connection._turn()
        assert reads == []
        connection._look_again(game["id"])
        assert connection._turn()
        assert len(reads) == 1
    assert len(sock.calls) == 1


def test_a_move_projected_before_its_answer_is_queued_is_pushed_once_read_nowhere(
    app, deps, projector, monkeypatch
):
    client, game, seat, before, connection, sock, peer, command = _mover(
        app, deps, projector, behind=0
    )
    reads = _counted_reads(monkeypatch)
    moved = live.moved

    def projected_while_answering(*args, **kwargs):
        value = moved(*args, **kwargs)
        version = projector.project(game["id"])  # and its notification heard at once:
        connection._look_again(game["id"], version)
        assert connection._turn()  # the outbox's turn puts the push off
        return value

    monkeypatch.setattr(live, "moved", projected_while_answering)
    with app.app_context():
        connection.on_command({"game_id": game["id"], "command": command}, ref=7)
        assert connection._turn()
        assert connection._turn()
    assert reads == []
    messages = [m for data in sock.calls for m in _received(peer, data)]
    answer = messages[0]["body"]
    assert [m["type"] for m in messages] == ["answer"] + ["event"] * len(answer["events"]) + [
        "view"
    ]
    assert messages[-1]["view"] == view_of(client, game, seat)


def test_a_move_not_yet_pushed_keeps_the_answer_from_standing_in_for_the_push(app, deps, projector):
    client, game, seat, before, connection, sock, peer, command = _mover(
        app, deps, projector, behind=1
    )
    with app.app_context():
        connection.on_command({"game_id": game["id"], "command": command}, ref=7)
        assert connection._turn()
    assert [m["type"] for m in _received(peer, sock.calls[0])] == ["answer"]

    version = projector.project(game["id"])
    with app.app_context():
        connection._look_again(game["id"], version)
        assert connection._turn()
    messages = _received(peer, sock.calls[1])
    events = [m["event"]["version"] for m in messages if m["type"] == "event"]
    assert events == list(range(before, version + 1))
    assert messages[-1]["version"] == version


def _watching(app, deps, game, token, after):
    """A connection holding `token` (None: a spectator), subscribed to `game` as having
    been pushed version `after`, its `subscribed` answer sent."""
    connection, ws, peer = _connection(app, deps)
    connection.holder = Holder(token, deps.service.secret)
    with app.app_context():
        connection.on_subscribe({"game_id": game["id"], "after": after}, ref=1)
        assert connection._turn()
    return connection, ws.sock.sock, peer


def _events_of(client, game, token, after):
    headers = auth(token) if token is not None else {}
    response = client.get(f"/v1/games/{game['id']}/events?after={after}", headers=headers)
    assert response.status_code == 200
    return response.get_json()["events"]


def test_a_move_is_pushed_to_the_games_other_sockets_in_this_process_without_a_read(
    app, deps, projector, monkeypatch
):
    client, game, seat, before, mover, sock, peer, command = _mover(app, deps, projector, behind=0)
    other = 1 - seat
    others = [
        (other, *_watching(app, deps, game, game["seats"][other]["token"], before)),
        (None, *_watching(app, deps, game, None, before)),
    ]
    reads = _counted_reads(monkeypatch)
    with app.app_context():
        mover.on_command({"game_id": game["id"], "command": command}, ref=7)
        assert mover._turn()
        for _, connection, _, _ in others:
            assert connection._turn()
    assert reads == []
    answer = _received(peer, sock.calls[0])[0]["body"]

    # Each is what the read models hold once the projector has written the move, and
    # what REST serves that seat: its view, and the events as that seat may see them
    # (the mover's hidden cards are not the other seat's, nor the spectator's).
    assert projector.project(game["id"]) == answer["version"]
    for number, connection, their_sock, their_peer in others:
        token = None if number is None else game["seats"][number]["token"]
        messages = [m for data in their_sock.calls for m in _received(their_peer, data)]
        assert [m["type"] for m in messages] == ["subscribed"] + ["event"] * len(
            answer["events"]
        ) + ["view"]
        assert [m["event"] for m in messages[1:-1]] == _events_of(client, game, token, before)
        assert messages[-1]["version"] == answer["version"]
        assert messages[-1]["view"] == view_of(client, game, number)

        # The projector's notification of that version then reads and sends nothing.
        sent = len(their_sock.calls)
        with app.app_context():
            connection._look_again(game["id"], answer["version"])
            assert connection._turn()
        assert reads == []
        assert len(their_sock.calls) == sent
    assert [m["event"] for m in messages[1:-1]] != answer["events"]  # redacted otherwise


def test_a_move_that_does_not_follow_what_a_socket_was_pushed_is_read_in_order(
    app, deps, projector, monkeypatch
):
    client, game, seat, before, _, _, _, command = _mover(app, deps, projector, behind=0)
    spectator, their_sock, their_peer = _watching(app, deps, game, None, before)
    # A move this socket does not hear of from here (made through another process, as
    # the game service would there), then one it does.
    deps.service.command(game["id"], seat, command)
    # The next seat's command, from the table itself: the read models are not projected.
    version, current = deps.service.load(game["id"])
    nxt = tables.view(current, version, None)["to_act"][0]
    command = tables.view(current, version, nxt)["legal"][0]
    mover, _, _ = _connection(app, deps)
    mover.holder = Holder(game["seats"][nxt]["token"], deps.service.secret)
    reads = _counted_reads(monkeypatch)
    with app.app_context():
        mover.on_command({"game_id": game["id"], "command": command}, ref=7)
        assert spectator.moves[game["id"]]  # told,
        assert spectator._turn()
    # but not following the version pushed: read instead, and the read models, not
    # projected yet, hold nothing newer; once they do, it is all pushed in order.
    assert len(reads) == 1
    version = projector.project(game["id"])
    with app.app_context():
        spectator._look_again(game["id"], version)
        assert spectator._turn()
    messages = [m for data in their_sock.calls for m in _received(their_peer, data)]
    events = [m["event"]["version"] for m in messages if m["type"] == "event"]
    assert events == list(range(before + 1, version + 1))
    assert [m["version"] for m in messages if m["type"] == "view"] == [version]


def test_events_pushed_with_a_view_of_a_game_going_on_are_redacted_as_then(app, deps, projector):
    """The read models show the game going on while this process's table has it over
    (the last moves made through it, not projected yet): the events pushed with that
    view are the seat's as they were then, not the whole log the end made public."""
    client = app.test_client()
    game = create(client, [{"name": "a"}, {"name": "b"}], seed=1, rounds=1)
    start = projector.project(game["id"])
    for moved in range(5000):  # to the end, from the table itself
        if moved == 3:  # a few moves in, projected: the view the push will read
            shown = projector.project(game["id"])
        version, current = deps.service.load(game["id"], fresh=True)
        if current["status"] == "finished":
            break
        seat = tables.view(current, version, None)["to_act"][0]
        command = tables.view(current, version, seat)["legal"][0]
        response = client.post(
            f"/v1/games/{game['id']}/commands",
            json=command,
            headers=auth(game["seats"][seat]["token"]),
        )
        assert response.status_code == 200, response.get_json()
    assert current["status"] == "finished" and moved > 3

    connection, ws, peer = _connection(app, deps)
    connection.subscriptions[game["id"]] = Subscription(0, start)
    with app.app_context():
        connection._look_again(game["id"])
        assert connection._turn()
    messages = [m for data in ws.sock.sock.calls for m in _received(peer, data)]
    assert messages[-1]["version"] == shown and messages[-1]["view"]["status"] == "active"
    events = [m["event"] for m in messages if m["type"] == "event"]
    assert [e["version"] for e in events] == list(range(start + 1, shown + 1))
    others = [e for e in events if e["type"] == "commanded" and e["seat"] != 0]
    assert others and all("command" not in e for e in others)


@pytest.mark.parametrize("route", ["fast path", "Flask"])
def test_a_move_sent_over_rest_is_pushed_to_the_games_sockets_in_this_process(
    app, deps, projector, monkeypatch, route
):
    client, game, seat, before, _, _, _, command = _mover(app, deps, projector, behind=0)
    other = 1 - seat
    token = game["seats"][other]["token"]
    connection, their_sock, their_peer = _watching(app, deps, game, token, before)
    reads = _counted_reads(monkeypatch)
    headers = auth(game["seats"][seat]["token"])
    if route == "Flask":  # the fast path hands a retry-safe request to Flask's route
        headers["Idempotency-Key"] = "once"
    response = client.post(f"/v1/games/{game['id']}/commands", json=command, headers=headers)
    assert response.status_code == 200
    with app.app_context():
        assert connection._turn()
    assert reads == []
    answer = response.get_json()
    assert projector.project(game["id"]) == answer["version"]
    messages = [m for data in their_sock.calls for m in _received(their_peer, data)]
    assert [m["event"] for m in messages if m["type"] == "event"] == _events_of(
        client, game, token, before
    )
    assert messages[-1]["version"] == answer["version"]
    assert messages[-1]["view"] == view_of(client, game, other)


def test_moves_heard_of_for_a_game_unsubscribed_from_are_not_kept(app, deps, projector):
    client, game, seat, before, mover, _, _, command = _mover(app, deps, projector, behind=0)
    token = game["seats"][1 - seat]["token"]
    connection, _, _ = _watching(app, deps, game, token, before)
    with app.app_context():
        mover.on_command({"game_id": game["id"], "command": command}, ref=7)
        assert game["id"] in connection.moves  # heard of, its push not made yet
        connection.on_unsubscribe({"game_id": game["id"]}, ref=8)
    assert connection.moves == {}


def test_the_spectators_of_a_move_share_its_view_and_redaction(app, deps, projector, monkeypatch):
    client, game, seat, before, mover, _, _, command = _mover(app, deps, projector, behind=0)
    spectators = [_watching(app, deps, game, None, before) for _ in range(3)]
    built = []
    build = live.seat_view

    def counted(d, current, version, seat):
        built.append(seat)
        return build(d, current, version, seat)

    monkeypatch.setattr(live, "seat_view", counted)
    with app.app_context():
        mover.on_command({"game_id": game["id"], "command": command}, ref=7)
        for connection, _, _ in spectators:
            assert connection._turn()
    assert built == [None]  # one spectator view for the three
    pushed = [
        [m for data in sock.calls[1:] for m in _received(peer, data)]
        for _, sock, peer in spectators
    ]
    assert pushed[0][-1]["type"] == "view" and pushed[0] == pushed[1] == pushed[2]
