"""Replays over the API: a finished game at any version as any seat saw it, exports,
uploading logs back (good and bad), and forks."""

import random

import pytest
import schemathesis

from services.api.games import CONTRACTS
from shared import jsonutil, replay, table
from tests.api.helpers import auth, finish

GAMES = [("alebrijes", {"rounds": 1}), ("alien", {}), ("alakablast", {}), ("abluxxen", {})]
NDJSON = "application/x-ndjson"


def open_table(client, game="alebrijes", options=None, seats=3):
    seats = [{"name": f"p{i}"} for i in range(seats)]
    body = {"game": game, "seats": seats, "options": {"seed": "s1", **(options or {})}}
    response = client.post("/v1/games", json=body)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


@pytest.fixture
def finished(client, deps):
    game = open_table(client, options={"rounds": 1})
    finish(deps, game["id"])
    return game


def exported(client, game_id):
    response = client.get(f"/v1/games/{game_id}/export")
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def upload(client, log):
    return client.post("/v1/replays", json=log)


def cards_in(value):
    """Every card code anywhere in a JSON value (strings of 1 to 4 characters)."""
    if isinstance(value, dict):
        return [c for v in value.values() for c in cards_in(v)]
    if isinstance(value, list):
        return [c for v in value for c in cards_in(v)]
    return [value] if isinstance(value, str) else []


def test_a_running_game_has_no_replay_yet(client):
    game = open_table(client)
    response = client.get(f"/v1/games/{game['id']}/replay")
    assert response.status_code == 409
    assert response.get_json()["code"] == "game_not_finished"
    assert client.get(f"/v1/games/{game['id']}/export").get_json()["code"] == "game_not_finished"


def test_a_replay_shows_the_table_then_as_the_seat_saw_it(client, finished):
    log = exported(client, finished["id"])
    middle = log["version"] // 2
    response = client.get(f"/v1/games/{finished['id']}/replay?at={middle}&seat=1")
    assert response.status_code == 200
    answer = response.get_json()
    then = replay.table_at(log["events"], middle)
    assert answer["version"] == middle and answer["seat"] == 1
    assert answer["view"] == table.view(then, middle, 1)
    assert answer["at"] == log["events"][middle - 1]["at"]
    assert [e["version"] for e in answer["events"]] == list(range(1, middle + 1))
    # Redacted as while the game ran: no seed, no other seat's dealt hand.
    created, dealt = answer["events"][0], next(e for e in answer["events"] if e["type"] == "dealt")
    assert "seed" not in created
    assert dealt["hands"][1] == then["rules"]["hands"][1] or dealt["hands"][1]
    assert dealt["hands"][0] is None and dealt["hands"][2] is None
    assert answer["view"]["status"] == "active" and answer["view"]["seed"] is None


def test_a_spectator_replay_hides_every_hand_and_everyone_shows_them_all(client, finished):
    base = f"/v1/games/{finished['id']}/replay?at=6"
    spectator = client.get(base).get_json()
    dealt = next(e for e in spectator["events"] if e["type"] == "dealt")
    assert dealt["hands"] == [None, None, None]
    assert spectator["seat"] is None and spectator["everyone"] is None
    everyone = client.get(base + "&everyone=true").get_json()
    dealt = next(e for e in everyone["events"] if e["type"] == "dealt")
    assert all(len(hand) > 0 for hand in dealt["hands"])
    assert [v["seat"] for v in everyone["everyone"]] == [0, 1, 2]
    assert everyone["events"][0]["seed"] == "s1"


def test_a_replay_of_the_last_version_is_the_final_table(client, finished):
    answer = client.get(f"/v1/games/{finished['id']}/replay").get_json()
    assert answer["view"]["status"] == "finished"
    assert answer["events"][-1]["type"] == "game_ended"


@pytest.mark.parametrize(
    ("query", "code"),
    [("at=100000", "bad_version"), ("seat=9", "unknown_seat"), ("at=0", "bad_request")],
)
def test_a_replay_out_of_range_is_refused(client, finished, query, code):
    response = client.get(f"/v1/games/{finished['id']}/replay?{query}")
    assert response.get_json()["code"] == code


def test_an_unknown_game_has_no_replay(client):
    assert client.get("/v1/games/nope/replay").get_json()["code"] == "unknown_game"


def test_the_events_come_as_json_lines_when_asked(client, finished):
    response = client.get(
        f"/v1/games/{finished['id']}/events?limit=1000", headers={"Accept": NDJSON}
    )
    assert response.mimetype == NDJSON
    lines = [jsonutil.loads(line) for line in response.get_data().splitlines()]
    assert lines == exported(client, finished["id"])["events"]
    typed = client.get(
        f"/v1/alebrijes/{finished['id']}/events?limit=1000", headers={"Accept": NDJSON}
    )
    assert typed.get_data() == response.get_data()


def test_an_export_comes_back_as_a_game_of_its_own(client, deps, projector, finished):
    log = exported(client, finished["id"])
    response = upload(client, log)
    assert response.status_code == 201, response.get_json()
    imported = response.get_json()
    assert imported["verdict"] == "checks_out" and imported["id"] != finished["id"]
    copy = exported(client, imported["id"])
    assert copy["events"][0]["imported_from"] == {"game": finished["id"], "verified": True}
    assert [replay.bare(e) for e in copy["events"][1:]] == [
        replay.bare(e) for e in log["events"][1:]
    ]
    assert [e["at"] for e in copy["events"]] == [e["at"] for e in log["events"]]
    original = client.get(f"/v1/games/{finished['id']}/replay?at=9&seat=0").get_json()
    again = client.get(f"/v1/games/{imported['id']}/replay?at=9&seat=0").get_json()
    assert again["view"]["state"] == original["view"]["state"]
    projector.project(imported["id"])
    summary = client.get(f"/v1/games/{imported['id']}").get_json()
    assert summary["status"] == "finished" and summary["result"] == log["events"][-1]["result"]
    assert deps.redis.zscore(deps.keys.live, imported["id"]) is None  # never swept


def test_an_export_as_json_lines_is_taken_back(client, finished):
    lines = client.get(f"/v1/games/{finished['id']}/export", headers={"Accept": NDJSON})
    response = client.post("/v1/replays", data=lines.get_data(), content_type=NDJSON)
    assert response.status_code == 201, response.get_json()


def stored_games(deps):
    return set(deps.store.game_ids())


def test_the_same_log_uploaded_twice_is_stored_once(client, deps, finished):
    log = exported(client, finished["id"])
    first = upload(client, log)
    assert first.status_code == 201
    before = stored_games(deps)
    lines = client.get(f"/v1/games/{finished['id']}/export", headers={"Accept": NDJSON})
    for again in (
        upload(client, log),
        client.post("/v1/replays", data=lines.get_data(), content_type=NDJSON),
    ):
        assert again.status_code == 200, again.get_json()
        assert again.get_json() == first.get_json()
    assert stored_games(deps) == before


def with_created(log, **changes):
    events = [{**log["events"][0], **changes}, *log["events"][1:]]
    return {**log, "events": events}


def test_a_log_of_this_servers_game_must_be_exactly_its_log(client, deps, finished):
    log = exported(client, finished["id"])
    assert log["events"][0]["dealt_by_creator"] is True  # its creator chose the seed
    seats = [{**seat, "name": "mallory"} for seat in log["events"][0]["seats"]]
    before = stored_games(deps)
    for spoilt in (with_created(log, dealt_by_creator=False), with_created(log, seats=seats)):
        response = upload(client, spoilt)
        assert response.status_code == 422, response.get_json()
        assert "is not its log" in response.get_json()["detail"]
    assert stored_games(deps) == before


def test_a_log_from_elsewhere_is_marked_dealt_by_its_writer(client, deps, projector, finished):
    log = with_created(exported(client, finished["id"]), id="elsewhere-1", dealt_by_creator=False)
    response = upload(client, log)
    assert response.status_code == 201, response.get_json()
    copy = exported(client, response.get_json()["id"])["events"][0]
    assert copy["imported_from"] == {"game": "elsewhere-1", "verified": False}
    assert copy["dealt_by_creator"] is True
    projector.project(response.get_json()["id"])
    summary = client.get(f"/v1/games/{response.get_json()['id']}").get_json()
    assert summary["dealt_by_creator"] is True


def test_uploads_are_bounded_per_address_a_day(client, deps, finished):
    log = exported(client, finished["id"])
    size = len(jsonutil.dumps(log))
    client.application.extensions["tablestream.upload_quota"].quota = 2 * size + size // 2

    def send(n):
        body = jsonutil.dumps(with_created(log, id=f"elsewhere-{n}"))
        return client.post("/v1/replays", data=body, content_type="application/json")

    assert [send(1).status_code, send(2).status_code] == [201, 201]
    assert send(1).status_code == 200  # stored already: it costs nothing
    before = stored_games(deps)
    refused = send(3)
    assert refused.status_code == 429 and refused.get_json()["code"] == "rate_limited"
    assert int(refused.headers["Retry-After"]) > 0
    assert stored_games(deps) == before


def tampered(log):
    """A dealt card swapped for another in the first seat's hand."""
    events = [dict(e) for e in log["events"]]
    index = next(i for i, e in enumerate(events) if e["type"] == "dealt")
    hands = [list(h) for h in events[index]["hands"]]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    events[index]["hands"] = hands
    return {**log, "events": events}


def reordered(log):
    events = list(log["events"])
    events[5], events[6] = events[6], events[5]
    return {**log, "events": events}


def renumbered_after_reordering(log):
    events = reordered(log)["events"]
    return {**log, "events": [{**e, "version": v} for v, e in enumerate(events, start=1)]}


def truncated(log):
    return {**log, "events": log["events"][:-5]}


def truncated_and_renumbered(log):
    return {**log, "events": log["events"][:-5], "version": len(log["events"]) - 5}


def another_seed(log):
    events = list(log["events"])
    events[0] = {**events[0], "seed": "another"}
    return {**log, "events": events}


def another_seed_at_the_end(log):
    events = list(log["events"])
    events[-1] = {**events[-1], "seed": "another"}
    return {**log, "events": events}


BAD = {
    "tampered": (tampered, "(dealt) is not what the rules decide in the decision event"),
    "another seed at the end": (another_seed_at_the_end, "the seed does not match its commitment"),
    "reordered": (reordered, "reordered or missing"),
    "renumbered": (renumbered_after_reordering, "event 6 (exchanged) follows from no command"),
    "truncated": (truncated, "truncated"),
    "cut short": (truncated_and_renumbered, "truncated"),
    "another seed": (another_seed, "the seed does not match its commitment"),
    "no events": (lambda log: {**log, "events": [], "version": 0}, "no events"),
    "not events": (lambda log: {**log, "events": [1, 2, 3], "version": 3}, "not an event"),
}


@pytest.mark.parametrize("kind", sorted(BAD))
def test_a_bad_log_is_refused_with_its_first_problem_and_nothing_is_stored(
    client, deps, finished, kind
):
    spoil, problem = BAD[kind]
    log = exported(client, finished["id"])
    before = stored_games(deps)
    response = upload(client, spoil(log))
    assert response.status_code == 422
    body = response.get_json()
    assert body["code"] == "bad_log" and problem in body["detail"]
    assert stored_games(deps) == before


def test_a_running_game_log_is_refused(client, deps):
    game = open_table(client)
    log = client.get(f"/v1/games/{game['id']}/events?limit=1000").get_json()
    response = upload(client, log)
    assert response.get_json()["code"] == "bad_log"
    assert "seed is not in the log" in response.get_json()["detail"]


@pytest.mark.parametrize(
    ("body", "content_type", "status"),
    [
        (b"garbage", "application/json", 400),
        (b'{"events": 3}', "application/json", 400),
        (b"{}\nnot json\n", NDJSON, 400),
        (b"<log/>", "text/xml", 415),
    ],
)
def test_garbage_is_a_clear_4xx(client, deps, body, content_type, status):
    before = stored_games(deps)
    response = client.post("/v1/replays", data=body, content_type=content_type)
    assert response.status_code == status
    assert response.mimetype == "application/problem+json"
    assert stored_games(deps) == before


def test_a_log_over_the_limit_is_a_413_and_a_big_log_under_it_is_read(client, deps):
    huge = b'{"events": [' + b" " * (9 * 1024 * 1024) + b"]}"
    response = client.post("/v1/replays", data=huge, content_type="application/json")
    assert response.status_code == 413
    assert response.get_json()["code"] == "payload_too_large"
    # Over the API's usual 64 KB but under the upload limit: read, then judged.
    big = b'{"events": [' + b" " * (1024 * 1024) + b"]}"
    response = client.post("/v1/replays", data=big, content_type="application/json")
    assert response.get_json()["code"] == "bad_log"


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_a_fork_starts_from_the_position_with_a_fresh_pile(client, deps, game, options):
    original = open_table(client, game, options)
    finish(deps, original["id"])
    log = exported(client, original["id"])
    at = next(
        v
        for v in range(len(log["events"]) // 2, len(log["events"]))
        if log["events"][v]["type"] == "commanded"  # the next event: a decision begins
    )
    seats = [{"name": "ana"}, {"name": "bea"}, {"bot": "random"}]
    response = client.post(f"/v1/games/{original['id']}/fork", json={"at": at, "seats": seats})
    assert response.status_code == 201, response.get_json()
    forked = response.get_json()
    assert forked["forked_from"] == {"game": original["id"], "version": at}
    assert [s["name"] for s in forked["seats"]] == ["ana", "bea", "random bot"]
    _, fork = deps.service.load(forked["id"], fresh=True)
    position = replay.table_at(log["events"], at)["rules"]
    assert fork["status"] == "active" and fork["seed"] != log["events"][0]["seed"]
    assert fork["rules"]["hands"] == position["hands"]
    assert sorted(fork["rules"]["draw_pile"]) == sorted(position["draw_pile"])
    if len(position["draw_pile"]) > 3:
        assert fork["rules"]["draw_pile"] != position["draw_pile"]
    # The new seats play it; the pile's order stays hidden from them.
    ana = client.get(f"/v1/games/{forked['id']}/view", headers=auth(forked["seats"][0]["token"]))
    assert ana.get_json()["seat"] == 0 and ana.get_json()["status"] == "active"
    # The whole pile in its order: a few cards of it may stand in a sorted hand by
    # chance (Abluxxen's "7","7","11","11" did), the whole pile not.
    if len(fork["rules"]["draw_pile"]) > 3:
        pile = jsonutil.dumps(fork["rules"]["draw_pile"])[1:-1]
        assert pile not in ana.get_data()
    events = client.get(f"/v1/games/{forked['id']}/events?limit=1000").get_json()["events"]
    assert events[0]["forked_from"]["version"] == at and "seed" not in events[0]
    finish(deps, forked["id"], seed=2)
    assert replay.problems_of_upload(exported(client, forked["id"])["events"]) == []


def test_a_fork_is_marked_in_its_summary_and_the_lobby_as_a_known_position(
    client, projector, finished
):
    log = exported(client, finished["id"])["events"]
    at = next(e["version"] for e in log[5:] if e["type"] == "commanded") - 1
    seats = [{"name": "ana"}, {"open": True}, {"bot": "random"}]
    response = client.post(f"/v1/games/{finished['id']}/fork", json={"at": at, "seats": seats})
    assert response.status_code == 201, response.get_json()
    fork_id = response.get_json()["id"]
    projector.project(fork_id)
    summary = client.get(f"/v1/games/{fork_id}").get_json()
    assert summary["forked_from"] == {"game": finished["id"], "version": at}
    assert summary["position_known"] is True and summary["dealt_by_creator"] is False
    (listed,) = [g for g in client.get("/v1/games").get_json()["games"] if g["id"] == fork_id]
    assert listed["forked_from"] == summary["forked_from"] and listed["position_known"] is True
    original = client.get(f"/v1/games/{finished['id']}").get_json()
    assert original["forked_from"] is None and original["position_known"] is False


def test_a_fork_inside_a_decision_starts_where_the_decision_ends(client, finished):
    log = exported(client, finished["id"])["events"]
    command = next(e["version"] for e in log[5:] if e["type"] == "commanded")
    seats = [{"name": "ana"}, {"bot": "random"}, {"bot": "random"}]
    response = client.post(f"/v1/games/{finished['id']}/fork", json={"at": command, "seats": seats})
    assert response.status_code == 201, response.get_json()
    start = response.get_json()["forked_from"]["version"]
    replayed = client.get(f"/v1/games/{finished['id']}/replay?at={command}").get_json()
    assert start == replayed["version"] > command and log[start]["type"] == "commanded"


def test_a_fork_refuses_a_version_out_of_play_and_a_running_game(client, deps, finished):
    seats = [{"name": "ana"}, {"bot": "random"}, {"bot": "random"}]
    log = exported(client, finished["id"])
    middle = next(v for v, e in enumerate(log["events"]) if e["type"] == "commanded") + 1
    for at in (100000, len(log["events"])):
        response = client.post(f"/v1/games/{finished['id']}/fork", json={"at": at, "seats": seats})
        assert response.get_json()["code"] == "bad_version"
    response = client.post(
        f"/v1/games/{finished['id']}/fork", json={"at": middle - 1, "seats": seats[:2]}
    )
    assert response.get_json()["code"] == "bad_request"
    running = open_table(client)
    response = client.post(f"/v1/games/{running['id']}/fork", json={"at": 4, "seats": seats})
    assert response.get_json()["code"] == "game_not_finished"


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_replays_imports_and_forks_match_the_document(app, client, deps, game, options):
    """Every answer matches its documented schema, and each event of a replay its own
    event schema exactly (marshmallow refuses undeclared fields)."""
    schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
    original = open_table(client, game, options)
    finish(deps, original["id"])
    path = f"/v1/games/{original['id']}"
    log = exported(client, original["id"])
    events = CONTRACTS[game].events
    for query in ("", "?at=7&seat=0", "?at=7", "?at=7&everyone=true", "?at=7&seat=9"):
        answer = client.get(f"{path}/replay{query}")
        schema["/v1/games/{game_id}/replay"]["GET"].validate_response(answer)
        for event in answer.get_json().get("events", []):
            assert events[event["type"]]().validate(event) == {}, event
    schema["/v1/games/{game_id}/export"]["GET"].validate_response(client.get(f"{path}/export"))
    imported = upload(client, log)
    schema["/v1/replays"]["POST"].validate_response(imported)
    schema["/v1/replays"]["POST"].validate_response(upload(client, truncated(log)))
    at = next(v for v in range(5, len(log["events"])) if log["events"][v]["type"] == "commanded")
    seats = [{"name": "ana"}, {"bot": "random"}, {"bot": "random"}]
    forked = client.post(f"{path}/fork", json={"at": at, "seats": seats})
    schema["/v1/games/{game_id}/fork"]["POST"].validate_response(forked)
    created = client.get(f"/v1/games/{forked.get_json()['id']}/events").get_json()["events"][0]
    assert events["game_created"]().validate(created) == {}
    copy = exported(client, imported.get_json()["id"])["events"][0]
    assert events["game_created"]().validate(copy) == {}


def test_a_replay_inside_a_decision_shows_its_end_and_lists_the_steps(client, finished):
    log = exported(client, finished["id"])["events"]
    command = next(e["version"] for e in log[5:] if e["type"] == "commanded")
    answer = client.get(f"/v1/games/{finished['id']}/replay?at={command}").get_json()
    steps = answer["steps"]
    assert command not in steps and answer["version"] == min(s for s in steps if s > command)
    assert log[answer["version"]]["type"] == "commanded"  # the next decision begins after it
    assert steps[-1] == len(log) and steps == sorted(steps)


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_a_replay_shows_exactly_what_the_seat_was_shown_while_it_ran(client, deps, game, options):
    """Half way, seat 1 reads its view and its log; once the game is over, the replay at
    that version as seat 1 must be the very same, hidden cards hidden."""
    created = open_table(client, game, options)
    token = auth(created["seats"][1]["token"])
    rng = random.Random(3)
    for _ in range(12):
        _, current = deps.service.load(created["id"], fresh=True)
        seat = table.to_act(current)[0]
        command = rng.choice(table.rules_of(current).legal(current["rules"], seat))
        deps.service.command(created["id"], seat, command)
    live_view = client.get(f"/v1/games/{created['id']}/view", headers=token).get_json()
    live_log = client.get(f"/v1/games/{created['id']}/events?limit=1000", headers=token).get_json()
    finish(deps, created["id"])
    version = live_view["version"]
    answer = client.get(f"/v1/games/{created['id']}/replay?at={version}&seat=1").get_json()
    assert answer["version"] == version == live_log["version"]
    assert answer["view"] == live_view
    assert answer["events"] == live_log["events"]
    assert answer["events"] != exported(client, created["id"])["events"][:version]


def mutations(log, rng, count):
    """`count` logs, each the original with one field of one event removed or given a
    value of another type."""
    odd_values = [None, 0, -1, "x", [], {}, True, 10**12, [None], {"type": "dealt"}]
    for _ in range(count):
        events = [dict(e) for e in log["events"]]
        event = rng.choice(events[:12] + events[-3:])
        key = rng.choice(sorted(event))
        if rng.random() < 0.3:
            del event[key]
        else:
            event[key] = rng.choice(odd_values)
        yield {**log, "events": events}


def test_a_spoiled_log_is_always_a_4xx_and_never_stored(client, deps, finished):
    log = exported(client, finished["id"])
    before = stored_games(deps)
    for spoiled in mutations(log, random.Random(5), 60):
        response = upload(client, spoiled)
        assert response.status_code in (400, 422), (response.status_code, response.get_json())
        if response.status_code == 422:
            assert response.get_json()["code"] == "bad_log"
    assert stored_games(deps) == before


def test_forks_and_uploads_count_as_opening_tables_against_the_limit(deps, finished):
    """They open games too: past RATE_LIMIT_CREATE they are 429 and store nothing."""
    from tests.api.helpers import assert_rate_limited, create_app_client

    log = exported(create_app_client(deps), finished["id"])
    client = create_app_client(deps, rate_limit_create="2/minute")
    seats = [{"name": "ana"}, {"bot": "random"}, {"bot": "random"}]
    assert (
        client.post(f"/v1/games/{finished['id']}/fork", json={"at": 9, "seats": seats}).status_code
        == 201
    )
    assert upload(client, log).status_code == 201
    before = stored_games(deps)
    assert_rate_limited(upload(client, log), 60)
    assert_rate_limited(
        client.post(f"/v1/games/{finished['id']}/fork", json={"at": 9, "seats": seats}), 60
    )
    assert stored_games(deps) == before
