"""`tablestream bot run --url URL --token TOKEN --level LEVEL`: a bot that plays one seat
through the public API, from any machine, as any client would.

Over the WebSocket (`GET /v1/ws`, when the server has it and the `websockets` library is
installed: the `bot` extra) it subscribes to its game from version 0, so the server
pushes its seat's events (the level's feed) and then each new view, and sends commands
as `command` messages. Otherwise it long-polls its seat's view
(`GET /v1/games/{id}/view?after=V&wait=S`), reads its events
(`GET /v1/games/{id}/events`) and posts its commands (`POST /v1/games/{id}/commands`).
Either way a command carries `expected_version`, so a move decided on an old view is
refused, never misplayed.
Out of turn it sends the level's reflexes (Alien's claims and stacks). The level is any
installed one (shared.bots.registry), decided through the same checks as in the worker:
one that fails, is late or answers an illegal command is replaced for that decision by
the table's takeover_bot. It stops when the game is over.

A seat token is `<game_id>.<seat>.<signature>`: the runner reads its game and seat
from it. Only the standard library speaks HTTP here.
"""

import json
import logging
import random
import time
import urllib.error
import urllib.request

from shared import bots, games

log = logging.getLogger(__name__)

WAIT = 25  # seconds a long-poll waits (the API allows 30)
OVER = ("finished", "cancelled")
PAGE = 1000  # events a page
TRANSPORTS = ("auto", "ws", "poll")
# What a refused command's code means for the runner: the game moved on, look again.
LOST_RACE = ("version_conflict", "not_your_turn", "illegal_move", "game_not_active")


class ApiError(RuntimeError):
    """An answer the runner cannot play on (a 4xx other than a lost race, a 5xx)."""

    def __init__(self, status, problem):
        super().__init__(f"{status}: {problem.get('code')}: {problem.get('detail')}")
        self.status, self.problem = status, problem


class Runner:
    """One seat, played by `level` over the API at `url` with the seat's `token`."""

    def __init__(self, url, token, level, think_ms=None, wait=WAIT, timeout=WAIT + 10):
        bots.registry.get(level)  # UnknownLevel, naming the levels there are
        game_id, seat, _ = token.split(".")
        self.url, self.token, self.level = url.rstrip("/"), token, level
        self.game_id, self.seat = game_id, int(seat)
        self.think_ms, self.wait, self.timeout = think_ms, wait, timeout
        self.feed = []
        self.sent = 0  # commands the game accepted
        self.transport = None

    def run(self, max_seconds=None, transport="auto"):
        """Play until the game is over (or `max_seconds` pass): its last view. The
        transport: "ws", "poll", or "auto" (the WebSocket when it can, else long-poll);
        `self.transport` says which played."""
        stop = None if max_seconds is None else time.monotonic() + max_seconds
        if transport != "poll":
            try:
                socket = self._connect()
            except Exception as error:  # no library, no /v1/ws here: long-poll instead
                if transport == "ws":
                    raise
                log.info("no WebSocket (%s): long-polling", error)
            else:
                with socket:
                    self.transport = "ws"
                    return self._run_ws(socket, stop)
        self.transport = "poll"
        return self._run_poll(stop)

    def _connect(self):
        from websockets.sync.client import connect

        url = "ws" + self.url.removeprefix("http") + "/v1/ws"
        headers = {"Authorization": f"Bearer {self.token}"}
        return connect(url, additional_headers=headers, compression=None, open_timeout=10)

    def _run_ws(self, socket, stop):
        """Subscribed from version 0: events (the feed), then views, are pushed."""
        subscribe = {"type": "subscribe", "game_id": self.game_id, "after": 0}
        socket.send(json.dumps(subscribe))
        view = None
        while stop is None or time.monotonic() < stop:
            try:
                message = json.loads(socket.recv(timeout=self.wait))
            except TimeoutError:
                continue
            kind = message["type"]
            if kind == "event":
                self.feed.append(message["event"])
            elif kind == "answer":
                self.sent += 1
            elif kind == "error":
                problem = message.get("problem") or {}
                if problem.get("code") not in LOST_RACE:
                    raise ApiError(problem.get("status"), problem)
                # Refused: ask for the view as it is now (no push may come otherwise).
                socket.send(json.dumps({"type": "subscribe", "game_id": self.game_id}))
            elif kind == "view":
                view = message["view"]
                if view["status"] in OVER:
                    return view
                command = self.decide(view) if view["status"] == "active" else None
                if command is not None:
                    body = {"type": "command", "game_id": self.game_id, "command": command}
                    socket.send(json.dumps({**body, "expected_version": view["version"]}))
        return view

    def _run_poll(self, stop):
        view, after = None, None
        while stop is None or time.monotonic() < stop:
            seen = self.view(after)
            if seen is None:  # the long-poll ran out: nothing happened
                continue
            view = seen
            if view["status"] in OVER:
                return view
            command = self.decide(view) if view["status"] == "active" else None
            if command is None or not self.send(command, view["version"]):
                after = view["version"]  # wait for the game to move
            else:
                after = None  # look again at once: it may still be our turn
        return view

    def decide(self, view):
        """What the level sends now from `view`: its turn's command, a reflex, or None."""
        reflexes = getattr(games.get(view["game"]), "REFLEXES", ())
        legal = view["legal"]
        if not legal:
            return None
        quick = [c for c in legal if c["type"] in reflexes]
        feed = self.events(view["version"]) if bots.reads_feed(self.level) else []
        rng = random.Random(f"bot-{self.game_id}-{self.seat}-{view['version']}")
        if self.seat in view["to_act"] and len(quick) < len(legal):
            fallback = view["options"].get("takeover_bot") or "random"
            return bots.choose(self.level, view, feed, rng, self.think_ms, fallback=fallback)
        return bots.react(self.level, view, feed, rng) if quick else None

    def view(self, after=None):
        """The seat's view; with `after`, long-polled until the game passes that
        version (None when the wait ran out)."""
        path = f"/v1/games/{self.game_id}/view"
        if after is not None:
            path += f"?after={after}&wait={self.wait}"
        status, body = self._call("GET", path)
        return None if status == 304 else body

    def events(self, version):
        """The seat's feed up to `version`: its events as the events endpoint redacts
        them, read page by page after those already read."""
        while len(self.feed) < version:
            after = self.feed[-1]["version"] if self.feed else 0
            path = f"/v1/games/{self.game_id}/events?after={after}&limit={PAGE}"
            _, page = self._call("GET", path)
            if not page["events"]:
                break
            self.feed.extend(page["events"])
        return [event for event in self.feed if event["version"] <= version]

    def send(self, command, version):
        """Send `command` as decided at `version`. False when the game had moved on
        (409) or refused it as no longer legal (422): the runner looks again."""
        body = {**command, "expected_version": version}
        try:
            self._call("POST", f"/v1/games/{self.game_id}/commands", body)
        except ApiError as error:
            if error.status in (409, 422):
                log.info("%s refused at version %s: %s", command, version, error)
                return False
            raise
        self.sent += 1
        return True

    def _call(self, method, path, body=None):
        """(status, parsed body) of one request; ApiError on a 4xx or 5xx."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as error:
            if error.code == 304:
                return 304, None
            try:
                problem = json.loads(error.read() or b"{}")
            except ValueError:
                problem = {}
            raise ApiError(error.code, problem) from None


def run(url, token, level, think_ms=None, max_seconds=None, transport="auto"):
    """Play the seat of `token` at `url` with `level` to the game's end: the Runner,
    and its last view."""
    runner = Runner(url, token, level, think_ms)
    return runner, runner.run(max_seconds, transport)
