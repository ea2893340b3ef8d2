"""GET /v1/ws against the real processes: two API processes (gunicorn), a projector, an
RQ worker and Redis. Seats and spectators play and watch whole games over WebSockets
only, each seat on its own API process, so every push to the other seat crosses
processes through the projector's notification; every pushed view is checked against
the view the API serves at that version (what the projector builds from the log, the
log folded), every pushed event against the log as that seat may see it."""

import json
import random
import signal
import socket
import threading
import time

import pytest
import requests
import yaml
from jsonschema import Draft202012Validator
from websockets.exceptions import ConnectionClosed, InvalidStatus

from services.api import asyncapi
from services.api.errors import STATUS
from services.api.live import SLOW_CONSUMER, UNAUTHORIZED
from services.embedded_redis import free_port
from services.ops import files
from shared import table as tables
from shared.keys import Keys
from shared.store import Record
from tests import processes
from tests.e2e.ws_client import Socket, rest_events, rest_view

pytestmark = pytest.mark.e2e

WALL_CLOCK = 30.0  # seconds a game may take
SUBSCRIPTIONS = 20  # RATE_LIMIT_STREAMS of the API processes here


@pytest.fixture(scope="module")
def apis(tmp_path_factory):
    """(base URL of API process A, of API process B) over one stack."""
    directory = tmp_path_factory.mktemp("ws")
    stack = processes.Stack(directory, Keys(prefix="ws:"), workers=1)
    env = {**stack.env, "WS_SEND_SECONDS": "2", "RATE_LIMIT_STREAMS": str(SUBSCRIPTIONS)}
    started = []
    try:
        for name in ("a", "b"):
            port = free_port()
            started.append(processes.start_api(env, directory / f"api-{name}.log", port))
            started[-1].base = f"http://127.0.0.1:{port}"
        yield started[0].base, started[1].base
    finally:
        for process in started:  # SIGINT: gunicorn's quick shutdown, sockets and all
            process.send_signal(signal.SIGINT)
        for process in started:
            process.wait(15)
        stack.stop()


def create(base, game, seats, **options):
    body = {"game": game, "seats": seats, "options": options}
    response = requests.post(f"{base}/v1/games", json=body, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()


class Seat:
    """A seat (or a spectator, token None) on one socket: it subscribes from the start,
    keeps every pushed view and event, and, holding a seat, sends one of its `legal`
    commands (seeded) whenever its newest pushed view says it is to act."""

    def __init__(
        self, base, game_id, token, seed, socket=None, cuts=None, bases=(), failover=False
    ):
        self.game_id = game_id
        self.cuts = cuts  # a seeded rng: cut the connection now and then, and resume
        self.bases = bases  # the API processes to reconnect to
        self.failover = failover  # when the server side goes away, resume on another
        self.base = base
        self.resumed = 0
        self.token = token
        self.socket = socket or Socket(base, token)
        self.rng = random.Random(seed)
        self.views = []  # every pushed view, in the order received
        self.events = []  # (event, the version of the view pushed after it)
        self.answers = 0
        self.error = None

    def subscribe(self, after=0):
        ref = self.socket.send("subscribe", game_id=self.game_id, after=after)
        subscribed = self.socket.answer(ref)
        assert subscribed["type"] == "subscribed", subscribed

    def resume(self):
        """Cut the connection (a clean close or a dropped TCP connection) and subscribe
        again, on any API process, after the last version held: what was received
        since the last view is dropped, as a client that lost it would."""
        if self.cuts.random() < 0.5:
            self.socket.close()
        else:
            self.socket.ws.socket.shutdown(socket.SHUT_RDWR)
        self.base = self.cuts.choice(self.bases)
        self.socket = Socket(self.base, self.token)
        self.subscribe(after=self.views[-1]["version"])
        self.resumed += 1

    def fail_over(self):
        """The server closed the socket (its process died): connect to another API
        process and subscribe again after the last version held."""
        others = [base for base in self.bases if base != self.base]
        deadline = time.monotonic() + 10
        while True:
            try:
                self.base = others[0]
                self.socket = Socket(self.base, self.token)
                break
            except OSError:
                assert time.monotonic() < deadline, "no other API process answers"
                time.sleep(0.1)
        if self.token is None:  # a spectator says so first
            assert self.socket.answer(self.socket.send("auth", token=None))["type"] == (
                "authenticated"
            )
        self.subscribe(after=self.views[-1]["version"] if self.views else 0)
        self.resumed += 1

    def mine(self, view):
        return self.token is not None and view["seat"] in view["to_act"] and view["legal"]

    def play(self, until=None):
        """Read pushes until the game is over (or `until()`); act on each new view."""
        deadline = time.monotonic() + WALL_CLOCK
        waiting = []  # events since the last view
        sent, acted_at = None, 0
        try:
            while True:
                assert time.monotonic() < deadline, f"game {self.game_id} still running"
                message = self.socket.next(timeout=deadline - time.monotonic())
                if message is None and self.failover:
                    waiting, sent, acted_at = [], None, 0  # the answer may be lost
                    self.fail_over()
                    message = {"type": "resumed"}  # then act on the last view, if mine
                assert message is not None, f"closed: {self.socket.closed}"
                if message["type"] == "event":
                    waiting.append(message["event"])
                elif message["type"] == "view":
                    view = message["view"]
                    assert message["version"] == view["version"]
                    self.events += [(e, view["version"]) for e in waiting]
                    waiting = []
                    self.views.append(view)
                    if view["status"] in ("finished", "cancelled") or (until and until()):
                        return
                    if self.cuts and self.cuts.random() < CUT_CHANCE:
                        waiting, sent, acted_at = [], None, 0  # the answer may be lost
                        self.resume()
                elif message["type"] in ("answer", "error") and message["ref"] == sent:
                    sent = None
                    if message["type"] == "answer":
                        self.answers += 1
                    elif message["problem"]["code"] == "rate_limited":
                        # A fast game can pass the socket's message limit: as a client
                        # should, wait the time it names and send again.
                        time.sleep(message["retry_after"])
                        acted_at = 0
                    else:  # a bot or the other seat moved first: wait for the next view
                        code = message["problem"]["code"]
                        assert code in ("version_conflict", "not_your_turn"), message
                view = self.views[-1] if self.views else None
                if sent is None and view and view["version"] > acted_at and self.mine(view):
                    acted_at = view["version"]
                    sent = self.socket.send(
                        "command",
                        game_id=self.game_id,
                        command=self.rng.choice(view["legal"]),
                        expected_version=view["version"],
                    )
        except BaseException as error:
            last = self.views[-1] if self.views else None
            shown = last and {k: last[k] for k in ("version", "to_act", "legal", "status")}
            self.error = AssertionError(f"{error!r}; last view {shown}, sent {sent}")
            raise


def contract():
    """A validator per received message type, from asyncapi.yaml's payloads."""
    document = yaml.safe_load(asyncapi.PATH.read_text())
    components = {"schemas": document["components"]["schemas"]}
    return {
        message["name"]: Draft202012Validator({**message["payload"], "components": components})
        for key, message in document["components"]["messages"].items()
        if key.startswith("receive_")
    }


def check_against_contract(messages, validators):
    """Every message received is one asyncapi.yaml describes."""
    for message in messages:
        validators[message["type"]].validate(message)


def check_against_log(seat, log, seat_number):
    """Every pushed view is the view at its version (the log folded, as the projector
    builds it); the events came in version order, each once, as the seat may see them."""
    versions = [v["version"] for v in seat.views]
    assert versions == sorted(set(versions)), "views out of order or twice"
    folded, table = {}, None
    for event in log:
        table = tables.fold([(event, event["at"])], table)
        folded[event["version"]] = table
    for view in seat.views:
        assert view == tables.view(folded[view["version"]], view["version"], seat_number)
    pushed = [e["version"] for e, _ in seat.events]
    assert pushed == list(range(1, len(pushed) + 1)), "events missing, twice or out of order"
    for event, shown_with in seat.events:
        public = log[event["version"] - 1]
        raw = {k: v for k, v in public.items() if k not in ("version", "at")}
        record = Record(event["version"], event["at"], raw)
        assert event == tables.event_as_seen(folded[shown_with], record, seat_number)


CUT_CHANCE = 0.25  # after each view received

GAMES = {
    "alebrijes": ([{"name": "ana"}, {"name": "bo"}, {"bot": "random"}], {"rounds": 1}),
    "alien": ([{"name": "ana"}, {"name": "bo"}, {"bot": "random", "reaction_seconds": 0.1}], {}),
    "alakablast": ([{"name": "ana"}, {"name": "bo"}, {"bot": "random"}], {}),
    "abluxxen": ([{"name": "ana"}, {"name": "bo"}, {"bot": "random"}], {}),
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_game_over_websockets_only(apis, game):
    a, b = apis
    seats, options = GAMES[game]
    created = create(a, game, seats, seed=str(len(game)), **options)
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    players = [
        Seat(a, game_id, tokens[0], seed=1),
        Seat(b, game_id, tokens[1], seed=2),
        Seat(b, game_id, None, seed=3, socket=Socket(b, read=True)),
    ]
    spectator = players[2]
    ref = spectator.socket.send("auth", token=None)
    assert spectator.socket.answer(ref)["type"] == "authenticated"
    for player in players:
        player.subscribe(after=0)
    threads = [threading.Thread(target=p.play, daemon=True) for p in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WALL_CLOCK + 5)
    for player in players:
        assert player.error is None, player.error
        assert player.views and player.views[-1]["status"] == "finished"
    assert players[0].answers and players[1].answers, "a seat never moved"

    log = rest_events(a, game_id)
    assert log[-1]["type"] == "game_ended"
    bots = [e for e in log if e["type"] == "commanded" and e["by"] == "bot"]
    assert bots, "the bot never moved"
    validators = contract()
    for number, player in ((0, players[0]), (1, players[1]), (None, spectator)):
        check_against_log(player, log, number)
        check_against_contract(player.socket.messages, validators)
        # The last push is what REST serves now, the game being over.
        assert player.views[-1] == rest_view(a, game_id, player.token)
        assert player.events[-1][0]["version"] == log[-1]["version"]
    for player in players:
        player.socket.close()


def test_cut_at_random_points_and_resumed_nothing_lost_nothing_twice(apis):
    """Two seats whose connections are cut at seeded random points (closed cleanly or
    dropped), each resuming on a random API process with the last version it holds:
    every event arrives exactly once, in order, and every view is the view at its
    version."""
    created = create(apis[0], "alebrijes", [{"name": "ana"}, {"name": "bo"}], rounds=2, seed="7")
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    players = [
        Seat(apis[n], game_id, tokens[n], seed=n, cuts=random.Random(40 + n), bases=apis)
        for n in (0, 1)
    ]
    for player in players:
        player.subscribe(after=0)
    threads = [threading.Thread(target=p.play, daemon=True) for p in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WALL_CLOCK + 5)
    for player in players:
        assert player.error is None, player.error
        assert player.views[-1]["status"] == "finished"
    assert all(p.resumed >= 2 for p in players), [p.resumed for p in players]
    log = rest_events(apis[0], game_id)
    for number, player in enumerate(players):
        check_against_log(player, log, number)
        assert player.events[-1][0]["version"] == log[-1]["version"]


@pytest.mark.slow
def test_the_api_process_sigkilled_under_live_sockets_loses_nothing(tmp_path):
    """Two seats and a spectator play on API process A while it is SIGKILLed mid-game
    (no close frame, no handler: a crashed host): each reconnects to process B and
    resumes after the last version it holds. Every event arrives once, in order, every
    view is the view at its version, and the game plays to its end."""
    stack = processes.Stack(tmp_path, Keys(prefix="wskill:"), workers=1)
    ports, started = [free_port(), free_port()], []
    try:
        for name, port in zip("ab", ports, strict=True):
            started.append(processes.start_api(stack.env, tmp_path / f"api-{name}.log", port))
        a, b = (f"http://127.0.0.1:{port}" for port in ports)
        created = create(a, "alebrijes", [{"name": "ana"}, {"name": "bo"}], rounds=2, seed="5")
        game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
        players = [
            Seat(a, game_id, token, seed=n, bases=(a, b), failover=True)
            for n, token in enumerate([*tokens, None])
        ]
        ref = players[2].socket.send("auth", token=None)
        assert players[2].socket.answer(ref)["type"] == "authenticated"
        for player in players:
            player.subscribe(after=0)
        threads = [threading.Thread(target=p.play, daemon=True) for p in players]
        for thread in threads:
            thread.start()
        processes.wait_for(lambda: players[0].views and players[0].views[-1]["version"] > 20, 20)
        processes.kill_tree(started[0])
        for thread in threads:
            thread.join(WALL_CLOCK + 5)
        for player in players:
            assert player.error is None, player.error
            assert player.views[-1]["status"] == "finished"
            assert player.resumed == 1 and player.base == b
        log = rest_events(b, game_id)
        for number, player in zip((0, 1, None), players, strict=True):
            check_against_log(player, log, number)
            assert player.events[-1][0]["version"] == log[-1]["version"]
    finally:
        for process in started:
            processes.stop(process)
        stack.stop()


def test_a_client_that_stops_reading_is_disconnected(apis):
    """A socket that asks for much (the whole log of a finished game, again and again)
    and reads nothing: its sends wait WS_SEND_SECONDS (2 s here), then the server drops
    it; its queue never grows past its bound, and the process serves the others.

    It keeps asking, at a pace, until the server gives up on it: how much a burst of
    asks makes the server push depends on how the two sides' threads interleave and on
    the message limit, and the kernel's send buffer (up to 4 MB here) takes many whole
    logs before a send has to wait."""
    a, _ = apis
    seats = [{"bot": "random"}, {"bot": "random"}]
    game_id = create(a, "alebrijes", seats, rounds=1, seed="3")["id"]
    processes.wait_for(lambda: rest_view(a, game_id)["status"] == "finished", timeout=30)
    log_length = len(rest_events(a, game_id))
    raw = socket.create_connection(("127.0.0.1", int(a.rsplit(":", 1)[1])))
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    slow = Socket(a, read=False, sock=raw)
    slow.send("auth", token=None)
    healthy = Socket(a)
    ref = healthy.send("auth", token=None)
    assert healthy.answer(ref)["type"] == "authenticated"
    started = checked = time.monotonic()
    asked = 0
    with pytest.raises((ConnectionClosed, OSError)):  # the server dropped or closed it
        # About 100 asks a second, over the message limit (60 a second): at least 60
        # whole logs pushed a second, until the send buffer is full and a send waits.
        while time.monotonic() - started < 40 and asked < 4_000:
            slow.send("subscribe", game_id=game_id, after=0)
            asked += 1
            time.sleep(0.01)
            if time.monotonic() - checked > 1:  # meanwhile, the process serves the others
                ref = healthy.send("ping")
                assert healthy.answer(ref)["type"] == "pong", (healthy.messages, healthy.closed)
                checked = time.monotonic()
    assert time.monotonic() - started < 40 and asked < 4_000, "never dropped"
    received = 0
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            slow.ws.recv(timeout=10)
            received += 1
    assert closed.value.rcvd is None or closed.value.rcvd.code == SLOW_CONSUMER
    assert received < asked * log_length, "the server buffered everything the client asked for"
    ref = healthy.send("ping")
    assert healthy.answer(ref)["type"] == "pong"


def test_bad_input_gets_an_error_or_a_close_code_and_writes_nothing(apis):
    a, b = apis
    created = create(a, "alebrijes", [{"name": "ana"}, {"name": "bo"}], rounds=1, seed="5")
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    other = create(a, "alebrijes", [{"name": "cy"}, {"name": "di"}], rounds=1)["id"]
    version = rest_view(a, game_id)["version"]

    # Before the upgrade: a plain GET, a token that is not valid.
    plain = requests.get(f"{a}/v1/ws", timeout=10)
    assert plain.status_code == 400 and plain.json()["code"] == "bad_request"
    with pytest.raises(InvalidStatus) as refused:
        Socket(a, token="not-a-token")
    assert refused.value.response.status_code == 401

    # Anything before auth: an error, then close 4401.
    early = Socket(a)
    ref = early.send("command", game_id=game_id, command={"type": "pass"})
    assert early.answer(ref)["problem"]["code"] == "unauthorized"
    assert early.next(where=lambda m: False) is None and early.closed == UNAUTHORIZED

    seat = Socket(b, tokens[0])

    def refused_with(code, **message):
        ref = seat.send(**message)
        answer = seat.answer(ref)
        assert answer["type"] == "error", answer
        problem = answer["problem"]
        assert problem["code"] == code and problem["status"] == STATUS[code], problem
        assert set(problem) >= {"type", "title", "status", "code", "detail"}
        return problem

    for raw in ("{not json", "[1, 2]", '{"type": 7}', '"subscribe"'):
        seat.ws.send(raw)
        assert seat.next()["problem"]["code"] == "bad_request"
    seat.ws.send(b'{"type": "ping"}')  # a binary frame
    assert seat.next()["problem"]["code"] == "bad_request"
    refused_with("bad_request", kind="shout")
    refused_with("bad_request", kind="subscribe", game_id=7)
    refused_with("bad_request", kind="subscribe", game_id=game_id, after=-1)
    refused_with("forbidden", kind="subscribe", game_id=other)  # another game's seat token
    refused_with("forbidden", kind="command", game_id=other, command={"type": "pass"})
    refused_with("bad_command", kind="command", game_id=game_id, command={"type": "shout"})
    refused_with("bad_request", kind="command", game_id=game_id, command="pass")
    refused_with(
        "version_conflict",
        kind="command",
        game_id=game_id,
        command=rest_view(a, game_id, tokens[0])["legal"][0],
        expected_version=version + 5,
    )
    refused_with("bad_request", kind="auth", token=tokens[1])  # authenticated already

    # A spectator sends no command.
    spectator = Socket(a)
    ref = spectator.send("auth", token=None)
    assert spectator.answer(ref)["type"] == "authenticated"
    ref = spectator.send("command", game_id=game_id, command={"type": "pass"})
    assert spectator.answer(ref)["problem"]["code"] == "unauthorized"
    ref = spectator.send("subscribe", game_id="nosuchgame")
    assert spectator.answer(ref)["problem"]["code"] == "unknown_game"

    # Subscriptions on one socket: RATE_LIMIT_STREAMS at most.
    games = [create(a, "alebrijes", [{"name": "x"}, {"name": "y"}])["id"] for _ in range(20)]
    for number, other_game in enumerate(games):
        ref = spectator.send("subscribe", game_id=other_game)
        kind = spectator.answer(ref)["type"]
        assert kind == ("subscribed" if number < SUBSCRIPTIONS else "error"), number
    ref = spectator.send("subscribe", game_id=game_id)
    assert spectator.answer(ref)["problem"]["code"] == "rate_limited"

    # Nothing of that was written; the socket still serves.
    assert rest_view(a, game_id)["version"] == version
    ref = seat.send("ping")
    assert seat.answer(ref)["type"] == "pong"

    validators = contract()
    for socket_ in (early, seat, spectator):
        check_against_contract(socket_.messages, validators)

    # A frame over 64 KB: closed with 1009.
    seat.ws.send('{"type": "ping", "pad": "' + "x" * 70_000 + '"}')
    assert seat.next(where=lambda m: False) is None and seat.closed == 1009
    assert rest_view(a, game_id)["version"] == version


def test_messages_over_the_rate_are_refused(apis):
    """A socket's messages share the commands' shortest window (60 a second here)."""
    flood = Socket(apis[0])
    flood.send("auth", token=None)
    for _ in range(100):
        flood.send("ping")
    time.sleep(1)
    kinds = [m["type"] for m in flood.messages]
    assert kinds.count("pong") == 60 - 1  # the auth message counted too
    refusals = [m for m in flood.messages if m["type"] == "error"]
    assert refusals and all(m["problem"]["code"] == "rate_limited" for m in refusals)
    assert refusals[0]["retry_after"] >= 1


def test_players_play_over_websockets_with_their_player_tokens(apis):
    """A player's token acts for the seat its player holds, as on REST."""
    a, b = apis
    ana, bea = (requests.post(f"{a}/v1/players", json={"name": n}, timeout=10).json()
                for n in ("ana ws", "bea ws"))  # fmt: skip
    seats = [{"player": "me"}, {"player": bea["id"]}]
    body = {"game": "alebrijes", "seats": seats, "options": {"seed": "9", "rounds": 1}}
    headers = {"Authorization": f"Bearer {ana['token']}"}
    created = requests.post(f"{a}/v1/games", json=body, headers=headers, timeout=10)
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    accept = f"{a}/v1/games/{game_id}/seats/1/accept"
    headers = {"Authorization": f"Bearer {bea['token']}"}
    assert requests.post(accept, headers=headers, timeout=10).status_code == 200
    players = [Seat(a, game_id, ana["token"], seed=1), Seat(b, game_id, bea["token"], seed=2)]
    ref = players[0].socket.send("ping")
    assert players[0].socket.answer(ref)["type"] == "pong"
    for player in players:
        player.subscribe(after=0)
    threads = [threading.Thread(target=p.play, daemon=True) for p in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WALL_CLOCK + 5)
    log = rest_events(a, game_id)
    for player in players:
        assert player.error is None, player.error
        # Player seats' names are resolved when read, so the truth is REST's own answer.
        assert player.views[-1] == rest_view(a, game_id, player.token)
        pushed = [e["version"] for e, _ in player.events]
        assert pushed == [e["version"] for e in log]
    movers = {e["seat"] for e in log if e["type"] == "commanded" and e["by"] == "holder"}
    assert movers == {0, 1}, [(p.answers, p.views[-1]["to_act"]) for p in players]
    # Authenticated by a first message, a player's token names its player.
    late = Socket(b)
    ref = late.send("auth", token=bea["token"])
    assert late.answer(ref) == {
        "type": "authenticated", "ref": ref, "game_id": None, "seat": None, "player": bea["id"]
    }  # fmt: skip


def _inbox(base, token, after=0):
    url = f"{base}/v1/players/me/inbox?after={after}&limit=200"
    response = requests.get(url, headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert response.status_code == 200, response.text
    return response.json()["items"]


def _pushed_items(sock):
    return [m["item"] for m in list(sock.messages) if m["type"] == "inbox"]


def _until_same(sock, base, token, games, after=0, timeout=15.0):
    """The items pushed on `sock` once they are the REST inbox's after `after` and tell
    of each of `games`, or an AssertionError with both."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pushed, served = _pushed_items(sock), _inbox(base, token, after)
        if pushed == served and set(games) <= {i["game_id"] for i in served}:
            return pushed
        time.sleep(0.05)
    raise AssertionError((pushed, served))


def test_a_players_inbox_is_pushed_resumable_and_only_its_own(apis):
    """Each player's socket, on its own API process, gets its inbox's items as REST
    serves them, none of another player's; cut and resumed with the last inbox version,
    it gets exactly what it missed."""
    a, b = apis
    ana, bea, cy = (requests.post(f"{a}/v1/players", json={"name": n}, timeout=10).json()
                    for n in ("ana in", "bea in", "cy in"))  # fmt: skip

    def invite(host, guest):
        seats = [{"player": "me"}, {"player": guest["id"]}]
        body = {"game": "alebrijes", "seats": seats, "options": {"rounds": 1}}
        headers = {"Authorization": f"Bearer {host['token']}"}
        answer = requests.post(f"{a}/v1/games", json=body, headers=headers, timeout=10)
        assert answer.status_code == 201, answer.text
        return answer.json()["id"]

    sockets = {"ana": Socket(a, ana["token"]), "bea": Socket(b, bea["token"])}
    for name, sock in sockets.items():
        ref = sock.send("subscribe_inbox", after=0)
        subscribed = sock.answer(ref)
        assert subscribed["type"] == "inbox_subscribed", subscribed
        assert subscribed["player"] == {"ana": ana, "bea": bea}[name]["id"]
    shared = invite(ana, bea)
    accept = f"{a}/v1/games/{shared}/seats/1/accept"
    headers = {"Authorization": f"Bearer {bea['token']}"}
    assert requests.post(accept, headers=headers, timeout=10).status_code == 200
    apart = invite(cy, bea)  # ana holds no seat here
    bea_items = _until_same(sockets["bea"], b, bea["token"], [shared, apart])
    ana_items = _until_same(sockets["ana"], a, ana["token"], [shared])
    assert {i["game_id"] for i in ana_items} == {shared}
    assert {i["game_id"] for i in bea_items} == {shared, apart}
    assert "invited" in [i["kind"] for i in bea_items]
    # Each once, in inbox version order.
    for items in (ana_items, bea_items):
        versions = [i["version"] for i in items]
        assert versions == sorted(set(versions))
    # Cut bea's socket; what happens meanwhile comes on the resumed one, nothing twice.
    held = bea_items[-1]["version"]
    sockets["bea"].close()
    missed_game = invite(cy, bea)
    deadline = time.monotonic() + 15
    while not _inbox(a, bea["token"], held) and time.monotonic() < deadline:
        time.sleep(0.05)
    resumed = Socket(a, bea["token"])
    ref = resumed.send("subscribe_inbox", after=held)
    assert resumed.answer(ref)["type"] == "inbox_subscribed"
    again = _until_same(resumed, a, bea["token"], [missed_game], after=held)
    assert {i["game_id"] for i in again} == {missed_game}
    assert all(i["version"] > held for i in again)
    # Without `after`: from now on, no history.
    fresh = Socket(b, ana["token"])
    ref = fresh.send("subscribe_inbox")
    assert fresh.answer(ref)["version"] == ana_items[-1]["version"]
    time.sleep(0.3)
    assert _pushed_items(fresh) == []
    for sock in (sockets["ana"], resumed, fresh):
        sock.close()


def test_the_inbox_needs_a_players_token(apis):
    game = create(apis[0], "alebrijes", [{"name": "x"}, {"bot": "random"}])
    for token in (game["seats"][0]["token"], None):
        sock = Socket(apis[0], token)
        if token is None:
            sock.send("auth", token=None)
        ref = sock.send("subscribe_inbox", after=0)
        refused = sock.answer(ref)
        assert refused["type"] == "error" and refused["problem"]["code"] == "unauthorized"
        sock.close()
    player = requests.post(f"{apis[0]}/v1/players", json={"name": "p"}, timeout=10).json()
    sock = Socket(apis[0], player["token"])
    for after in (-1, "3", 2**70, True):
        refused = sock.answer(sock.send("subscribe_inbox", after=after))
        assert refused["type"] == "error" and refused["problem"]["code"] == "bad_request"
    assert sock.answer(sock.send("unsubscribe_inbox"))["type"] == "inbox_unsubscribed"
    sock.close()


def test_a_process_full_of_sockets_refuses_the_next_and_still_answers_requests(tmp_path):
    """One API process (one gunicorn worker) with WS_MAX_SOCKETS=3: the fourth upgrade
    is refused 503 sockets_full with Retry-After, while plain requests and the health
    check are answered at once; a socket closed makes room for the next."""
    stack = processes.Stack(tmp_path, Keys(prefix="wsfull:"), workers=1)
    port = free_port()
    api = processes.start_api({**stack.env, "WS_MAX_SOCKETS": "3"}, tmp_path / "api.log", port)
    base = f"http://127.0.0.1:{port}"
    held = []
    try:
        game = create(base, "alien", [{"name": "ana"}, {"name": "bo"}])
        held = [Socket(base) for _ in range(3)]
        with pytest.raises(InvalidStatus) as refused:
            Socket(base)
        answer = refused.value.response
        assert answer.status_code == 503 == STATUS["sockets_full"]
        assert answer.headers["Retry-After"] == "1"
        assert json.loads(answer.body)["code"] == "sockets_full"
        for path in ("/healthz", f"/v1/games/{game['id']}"):
            assert requests.get(f"{base}{path}", timeout=5).status_code == 200
        held.pop().close()
        processes.wait_for(lambda: _connected(base, held), 10)  # once the server saw it
        ref = held[-1].send("auth", token=None)
        assert held[-1].answer(ref)["type"] == "authenticated"
    finally:
        for socket_ in held:
            socket_.close()
        processes.stop(api)
        stack.stop()


def _connected(base, held):
    """Whether a new socket to `base` opened (kept in `held`); False while it is full."""
    try:
        held.append(Socket(base))
    except InvalidStatus as refused:
        assert refused.response.status_code == 503
        return False
    return True


def test_a_process_holds_only_the_sockets_its_file_limit_has_room_for(tmp_path):
    """An API process under a low open-file limit (hard 300, soft 150, as a host's
    ulimit may set it) with the default WS_MAX_SOCKETS: it raises its soft limit to the
    hard one, holds the sockets that leave room for plain requests and its own files
    (services/ops/files.py), refuses the next 503 sockets_full, and still answers plain
    requests; without the cap, a process out of files accepts nothing, its health check
    included."""
    stack = processes.Stack(tmp_path, Keys(prefix="wsfiles:"), workers=1)
    port = free_port()
    api = processes.start_api(stack.env, tmp_path / "api.log", port, files=300)
    base = f"http://127.0.0.1:{port}"
    expected = files.connections(int(stack.env.get("WS_MAX_SOCKETS") or 11_000), 300)[0]
    held = []
    try:
        game = create(base, "alien", [{"name": "ana"}, {"name": "bo"}])
        with pytest.raises(InvalidStatus) as refused:
            while len(held) <= expected:
                held.append(Socket(base))
        assert refused.value.response.status_code == 503
        assert json.loads(refused.value.response.body)["code"] == "sockets_full"
        assert len(held) == expected > 100  # the soft limit (150) alone leaves 13
        for path in ("/healthz", f"/v1/games/{game['id']}"):
            assert requests.get(f"{base}{path}", timeout=5).status_code == 200
        ref = held[-1].send("auth", token=None)
        assert held[-1].answer(ref)["type"] == "authenticated"
        assert "open-file limit (ulimit -n 300)" in (tmp_path / "api.log").read_text()
    finally:
        for socket_ in held:
            socket_.close()
        processes.stop(api)
        stack.stop()
