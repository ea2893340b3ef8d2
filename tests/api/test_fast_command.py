"""The command POST answered before Flask (services/api/fast_path.py) answers
exactly what Flask answers, counts the same limits, and leaves every other request
to Flask.

Two twin apps, each on its own Redis, hold the same game (same id, seed, salt and
clock): one answers with its middleware, the other with Flask alone; every request is
sent to both, and their answers must be the same bytes."""

import dataclasses
import json
import logging

import fakeredis
import pytest
from werkzeug.test import Client

from services.api import create_app
from services.api.fast_path import FastPath
from services.ops import logs
from shared import table, tokens
from shared.keys import Keys
from tests.fixtures import build_deps

GAME_ID = "fastpost01"
NOW = 1_800_000_000.0


class Twins:
    """The same game on two apps: `fast` whole, `flask` without its middlewares."""

    def __init__(self, keys, redis=None, **settings):
        """Each on a fakeredis of its own, or both on `redis` under two key prefixes."""
        other = Keys(prefix=f"{keys.prefix}twin:")
        self.fast, self.fast_deps = _app(redis or fakeredis.FakeRedis(), keys, settings)
        flask, self.flask_deps = _app(redis or fakeredis.FakeRedis(), other, settings)
        self.flask = _flask_of(flask)
        self.taken = []  # requests the fast app's middleware answered itself
        middleware = _middleware(self.fast)
        inner = middleware.wsgi_app

        def flask_behind(environ, start_response):
            self.taken.pop()  # it reached Flask after all
            return inner(environ, start_response)

        middleware.wsgi_app = flask_behind
        self.secret = self.fast_deps.service.secret
        self.seats = [tokens.issue(self.secret, GAME_ID, seat) for seat in (0, 1)]

    def post(self, path, body, headers=None, **options):
        """Both apps' answers to one POST: (status, headers, body) each."""
        headers = {"X-Request-ID": "same-id", **(headers or {})}
        answers = []
        for wsgi in (self.fast, self.flask):
            if wsgi is self.fast:
                self.taken.append(path)
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            kwargs = {"content_type": "application/json", **options}
            answer = Client(wsgi).post(path, data=data, headers=headers, **kwargs)
            answers.append((answer.status, answer.headers.to_wsgi_list(), answer.get_data()))
        return answers

    def view(self, seat):
        path = f"/v1/games/{GAME_ID}/view"
        answer = Client(self.flask).get(path, headers=auth(self.seats[seat]))
        return answer.get_json()


def _app(redis, keys, settings):
    deps = build_deps(redis, keys)
    deps.config = dataclasses.replace(deps.config, **settings)
    deps.service.clock = lambda: NOW
    seats = [{"name": "ana"}, {"name": "bo"}]
    deps.service.open(GAME_ID, table.create(GAME_ID, "alebrijes", seats, {}, "seed", "salt"))
    return create_app(deps), deps


def _middleware(app):
    """The FastPath layer of `app`'s WSGI stack."""
    layer = app.wsgi_app
    while not isinstance(layer, FastPath):
        layer = layer.wsgi_app
    return layer


def _flask_of(app):
    return _middleware(app).wsgi_app


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def commands(game="games"):
    return f"/v1/{game}/{GAME_ID}/commands"


@pytest.fixture
def twins(keys):
    return Twins(keys, rate_limits=False)


def test_a_whole_game_of_moves_is_answered_before_flask_alike(twins):
    moves = 0
    while moves < 200:
        view = twins.view(0)
        if view["status"] != "active":
            break
        seat = view["to_act"][0]
        legal = twins.view(seat)["legal"]
        game = ("games", "alebrijes")[moves % 2]
        fast, flask = twins.post(commands(game), legal[moves % len(legal)], auth(twins.seats[seat]))
        assert fast == flask
        assert fast[0] == "200 OK"
        moves += 1
    assert moves > 20
    assert len(twins.taken) == moves


def test_refusals_are_answered_before_flask_alike(twins):
    seat = twins.view(0)["to_act"][0]
    other = 1 - seat
    legal = twins.view(seat)["legal"][0]
    creator_of_none = tokens.issue(twins.secret, "nosuchgame", 0)
    cases = [
        (commands(), {"type": "dance"}, seat, 400),  # no such command
        (commands(), {**legal, "cards": "G3"}, seat, 400),  # not valid: field errors
        (commands(), {**legal, "expected_version": 99}, seat, 409),  # version_conflict
        (commands(), legal, other, 409),  # not_your_turn
        (commands(), {"type": "play", "cards": ["Z9"], "ollin": "none"}, seat, 400),
        (commands("alien"), legal, seat, 404),  # a game of another kind
        ("/v1/games/nosuchgame/commands", legal, creator_of_none, 404),  # unknown_game
    ]
    for path, body, holder, status in cases:
        token = holder if isinstance(holder, str) else twins.seats[holder]
        fast, flask = twins.post(path, body, auth(token))
        assert fast == flask, (path, body)
        assert fast[0].startswith(str(status)), fast
        assert dict(fast[1])["Content-Type"] == "application/problem+json"
    assert len(twins.taken) == len(cases)


@pytest.mark.parametrize(
    "path, body, headers, options",
    [
        ("{commands}", "{legal}", {"Idempotency-Key": "k1"}, {}),
        ("{commands}", "{legal}", {"Idempotency-Key": ""}, {}),  # 400
        ("{commands}", "{legal}", {"Origin": "https://example.com"}, {}),
        ("{commands}?x=1", "{legal}", {}, {}),
        ("{commands}/", "{legal}", {}, {}),  # 404
        ("{commands}", "{legal}", {}, {"content_type": "text/plain"}),  # 415
        ("{commands}", "{legal}", {}, {"content_type": "application/json; charset=utf-8"}),
        ("{commands}", b"", {}, {}),  # 400
        ("{commands}", b"{nope", {}, {}),  # 400
        ("{commands}", b"[1, 2]", {}, {}),  # 400
        ("{commands}", b'{"type": 1}', {}, {}),  # 400
        ("{commands}", b'{"type": "play", "x": ' + b"[" * 40 + b"]" * 40 + b"}", {}, {}),
        ("{commands}", b'{"type": "play", "cards": ["\\ud800"]}', {}, {}),  # 400
        ("{commands}", b"x" * (64 * 1024 + 1), {}, {}),  # 413
        ("{commands}", "{legal}", {"Authorization": "Bearer {creator}"}, {}),  # 403
        ("{commands}", "{legal}", {"Authorization": "Bearer {other_game}"}, {}),  # 403
        ("{commands}", "{legal}", {"Authorization": "Bearer nonsense"}, {}),  # 401
        ("{commands}", "{legal}", {"Authorization": ""}, {}),  # 401
        ("{commands}", "{legal}", {"Authorization": None}, {}),  # no token: 401
        ("/v1/chess/{game_id}/commands", "{legal}", {}, {}),  # 404
    ],
)
def test_everything_else_goes_to_flask(twins, path, body, headers, options):
    seat = twins.view(0)["to_act"][0]
    legal = twins.view(seat)["legal"][0]
    fill = {
        "seat": twins.seats[seat],
        "creator": tokens.issue(twins.secret, GAME_ID, tokens.CREATOR),
        "other_game": tokens.issue(twins.secret, "othergame1", seat),
        "commands": commands(),
        "game_id": GAME_ID,
    }
    headers = {"Authorization": "Bearer {seat}", **headers}
    headers = {k: v.format(**fill) for k, v in headers.items() if v is not None}
    body = legal if body == "{legal}" else body
    fast, flask = twins.post(path.format(**fill), body, headers, **options)
    assert fast == flask
    assert twins.taken == []


@pytest.mark.parametrize("spelling", ["bearer {token}", "Bearer  {token}", "Bearer {token} "])
def test_a_token_is_read_as_the_routes_read_it(twins, spelling):
    """One reading of a token (auth.seat): any spelling the routes take, it takes."""
    seat = twins.view(0)["to_act"][0]
    legal = twins.view(seat)["legal"][0]
    headers = {"Authorization": spelling.format(token=twins.seats[seat])}
    fast, flask = twins.post(commands(), legal, headers)
    assert fast == flask
    assert fast[0] == "200 OK"
    assert twins.taken == [commands()]


@pytest.mark.parametrize("backend", ["fakeredis", "redis"])
def test_the_command_limit_counts_alike_and_answers_429_alike(keys, backend, request):
    redis = request.getfixturevalue("real_redis") if backend == "redis" else None
    settings = {"rate_limits": True, "rate_limit_commands": "100/hour;3/minute"}
    twins = Twins(keys, redis, **settings)
    seat = twins.view(0)["to_act"][0]
    legal = twins.view(seat)["legal"][0]
    answers = [
        twins.post(commands(), {"type": "dance"}, auth(twins.seats[seat])),  # counted
        twins.post(commands(), legal, auth(twins.seats[1 - seat])),  # another seat's
        twins.post(commands(), legal, auth(twins.seats[seat])),
        twins.post(commands(), {"type": "dance"}, auth(twins.seats[seat])),
        twins.post(commands(), {"type": "dance"}, auth(twins.seats[seat])),  # the 4th: 429
    ]
    statuses = [fast[0][:3] for fast, _ in answers]
    assert statuses == ["400", "409", "200", "400", "429"]
    for fast, flask in answers:
        assert _retry_unset(fast) == _retry_unset(flask)
    refused = dict(answers[-1][0][1])
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert b"too many requests (3 per 1 minute)" in answers[-1][0][2]
    assert len(twins.taken) == len(answers)
    fast, flask = (_counters(d) for d in (twins.fast_deps, twins.flask_deps))
    assert fast == flask  # the same counters, the same counts, the same lifetimes
    assert fast[f"seat:{GAME_ID}:{seat}/commands/3/1/minute"][0] == b"4"
    assert fast[f"seat:{GAME_ID}:{seat}/commands/100/1/hour"][0] == b"3"  # stopped at the 429


def _counters(deps):
    """{counter key without the deployment's prefix: (count, whether it expires)}."""
    redis, prefix = deps.redis, f"LIMITS:LIMITER/{deps.keys.prefix}limits/"
    return {
        k.decode().removeprefix(prefix): (redis.get(k), 0 < redis.ttl(k) <= 3600)
        for k in redis.keys(f"{prefix}*")
    }


def _retry_unset(answer):
    """An answer without its seconds to retry (the two Redis' windows start apart)."""
    status, headers, body = answer
    headers = [(k, "N" if k == "Retry-After" else v) for k, v in headers]
    if status.startswith("429"):
        problem = json.loads(body)
        problem["detail"] = problem["detail"].rsplit(" in ", 1)[0]
        body = problem
    return status, headers, body


def test_a_failure_is_a_500_problem_with_its_traceback_logged(twins, monkeypatch, caplog):
    seat = twins.view(0)["to_act"][0]
    legal = twins.view(seat)["legal"][0]
    for deps in (twins.fast_deps, twins.flask_deps):

        def broken(*args, **kwargs):
            raise RuntimeError("the store broke")

        monkeypatch.setattr(deps.service, "command", broken)
    with caplog.at_level(logging.ERROR):
        fast, flask = twins.post(commands(), legal, auth(twins.seats[seat]))
    assert fast == flask
    assert fast[0] == "500 INTERNAL SERVER ERROR"
    failures = [r for r in caplog.records if r.getMessage() == "unexpected error"]
    assert len(failures) == 2
    assert all(r.exc_info[1].args == ("the store broke",) for r in failures)
    fast = failures[0]  # what logs.RequestContext adds to Flask's, it carries itself
    assert (fast.method, fast.path, fast.request_id) == ("POST", commands(), "same-id")


def test_its_access_lines_and_metrics_are_flasks(twins, answers_seen):
    observed, stream = answers_seen
    seat = twins.view(0)["to_act"][0]
    legal = twins.view(seat)["legal"][0]
    twins.post(commands("alebrijes"), legal, auth(twins.seats[seat]))
    twins.post(commands("alebrijes"), legal, auth(twins.seats[seat]))  # now not its turn
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    lines = [line for line in lines if line["logger"] == logs.ACCESS and line["method"] == "POST"]
    for line in lines:
        line.pop("time")
        line.pop("duration_ms")
        line["message"] = line["message"].rsplit(" ", 1)[0]  # its duration
    fast_ok, flask_ok, fast_refused, flask_refused = lines
    assert fast_ok == flask_ok
    assert fast_refused == flask_refused
    route = "/v1/alebrijes/<game_id>/commands"
    assert fast_ok["route"] == route
    assert fast_ok["message"] == f"POST /v1/alebrijes/{GAME_ID}/commands 200"
    assert fast_refused["status"] == 409
    posted = [answer for answer in observed if answer[0] == "POST"]
    assert posted == [("POST", route, 200)] * 2 + [("POST", route, 409)] * 2
    assert len(twins.taken) == 2
