"""`tablestream bot run --url URL --token TOKEN --level LEVEL`: a bot that plays one seat
through the public API, from any machine, as any client would.

It long-polls its seat's view (`GET /v1/games/{id}/view?after=V&wait=S`), reads its
seat's events (`GET /v1/games/{id}/events`, what the level's feed is), and when its
seat must move sends what the level chooses (`POST /v1/games/{id}/commands`, with
`expected_version`, so a move decided on an old view is refused, never misplayed).
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

    def run(self, max_seconds=None):
        """Play until the game is over (or `max_seconds` pass): its last view."""
        stop = None if max_seconds is None else time.monotonic() + max_seconds
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


def run(url, token, level, think_ms=None, max_seconds=None):
    """Play the seat of `token` at `url` with `level` to the game's end: its last view
    and the number of commands sent."""
    runner = Runner(url, token, level, think_ms)
    view = runner.run(max_seconds)
    return view, runner.sent
