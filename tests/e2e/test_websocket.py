"""GET /v1/ws against the real processes: two API processes (gunicorn), a projector, an
RQ worker and Redis. Seats and spectators play and watch whole games over WebSockets
only, each seat on its own API process, so every push to the other seat crosses
processes through the projector's notification; every pushed view is checked against
the view the API serves at that version (what the projector builds from the log, the
log folded), every pushed event against the log as that seat may see it."""

import random
import threading
import time

import pytest
import requests

from services.embedded_redis import free_port
from shared import table as tables
from shared.keys import Keys
from shared.store import Record
from tests import processes
from tests.e2e.ws_client import Socket, rest_events, rest_view

pytestmark = pytest.mark.e2e

WALL_CLOCK = 30.0  # seconds a game may take


@pytest.fixture(scope="module")
def apis(tmp_path_factory):
    """(base URL of API process A, of API process B) over one stack."""
    directory = tmp_path_factory.mktemp("ws")
    stack = processes.Stack(directory, Keys(prefix="ws:"), workers=1)
    started = []
    try:
        for name in ("a", "b"):
            port = free_port()
            started.append(processes.start_api(stack.env, directory / f"api-{name}.log", port))
            started[-1].base = f"http://127.0.0.1:{port}"
        yield started[0].base, started[1].base
    finally:
        for process in started:
            processes.stop(process)
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

    def __init__(self, base, game_id, token, seed, socket=None):
        self.game_id = game_id
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
                assert message is not None, f"closed: {self.socket.closed}"
                if message["type"] == "event":
                    waiting.append(message["event"])
                elif message["type"] == "view":
                    view = message["view"]
                    assert message["version"] == view["version"]
                    self.events += [(e, view["version"]) for e in waiting]
                    waiting = []
                    self.views.append(view)
                    if view["status"] != "active" or (until and until()):
                        return
                elif message["type"] in ("answer", "error") and message["ref"] == sent:
                    sent = None
                    if message["type"] == "answer":
                        self.answers += 1
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
    for number, player in ((0, players[0]), (1, players[1]), (None, spectator)):
        check_against_log(player, log, number)
        # The last push is what REST serves now, the game being over.
        assert player.views[-1] == rest_view(a, game_id, player.token)
        assert player.events[-1][0]["version"] == log[-1]["version"]
    for player in players:
        player.socket.close()
