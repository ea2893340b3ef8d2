"""Webhooks end to end in one process: the API registers, the projector derives and
enqueues, a real RQ SimpleWorker delivers over HTTP to a receiver this test starts on
127.0.0.1 (WEBHOOK_ALLOW_PRIVATE set), all on a real Redis."""

import json
import random
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from rq import SimpleWorker
from rq.serializers import JSONSerializer

from services import deps as deps_module
from services.api import create_app
from services.api.games import CONTRACTS
from services.api.webhook_schemas import WebhookNotification
from services.projector.build import projector_of
from services.webhooks import __main__ as webhooks_cli
from services.webhooks import dead_letters, delivery
from services.webhooks.notifier import Notifier
from services.webhooks.settings import Settings
from shared import table, webhooks
from shared.replay import table_at
from tests.webhook_receiver import Receiver


@pytest.fixture
def deps_redis(real_redis):
    return real_redis


@pytest.fixture
def client(deps):
    return create_app(deps).test_client()


@pytest.fixture
def projector(deps):
    return projector_of(deps, consumer="test")


@pytest.fixture
def receivers():
    started = []

    def start(**kwargs):
        started.append(Receiver(**kwargs))
        return started[-1]

    yield start
    for receiver in started:
        receiver.stop()


def deliver_all(deps, timeout=20.0):
    """Run the webhooks queue with a real SimpleWorker until nothing is queued or
    scheduled (retries wait a few hundredths of a second in these tests)."""
    queue = deps.webhook_queue
    rq = queue.connection
    worker = SimpleWorker([queue], connection=rq, serializer=JSONSerializer)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        scheduled = rq.zcard(queue.scheduled_job_registry.key)
        due = rq.zcount(queue.scheduled_job_registry.key, 0, time.time())
        if queue.count:
            worker.work(burst=True, logging_level="ERROR")
        elif due:
            worker.work(burst=True, with_scheduler=True, logging_level="ERROR")
        elif scheduled:
            time.sleep(0.01)
        else:
            return
    raise AssertionError("the deliveries did not settle")


def create(client, seats, webhook=None, **options):
    body = {"game": "alebrijes", "seats": seats, "options": {"seed": 5, "rounds": 1, **options}}
    if webhook is not None:
        body["options"]["webhook"] = webhook
    answer = client.post("/v1/games", json=body)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def view(client, game_id, token=None):
    return client.get(f"/v1/games/{game_id}/view", headers=bearer(token) if token else {}).json


def random_move(client, game_id, tokens, rng):
    """One legal command from a seat that must act; returns (seat, the new version)."""
    spectator = view(client, game_id)
    seat = rng.choice(spectator["to_act"])
    command = rng.choice(view(client, game_id, tokens[seat])["legal"])
    answer = client.post(
        f"/v1/games/{game_id}/commands", json=command, headers=bearer(tokens[seat])
    )
    assert answer.status_code == 200, answer.get_json()
    return seat, answer.get_json()["version"]


def assert_signed(receiver, secret):
    now = time.time()
    for _, headers, body, raw in receiver.requests:
        assert webhooks.verify(secret, headers[webhooks.SIGNATURE_HEADER], raw, now)
        assert headers[webhooks.EVENT_ID_HEADER] == body["id"]


def test_a_receiver_gets_every_turn_of_a_whole_game_in_order_signed(
    hook_env, deps, client, projector, receivers
):
    receiver = receivers()
    created = create(
        client, [{"name": "ana"}, {"name": "bo"}], webhook={"url": receiver.url}, turn_seconds=3600
    )
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    secret = created["webhook"]["secret"]
    assert created["webhook"]["events"] == list(webhooks.KINDS)
    rng, acted_at = random.Random(1), {0: 0, 1: 0}
    for _ in range(500):
        projector.project(game_id)
        deliver_all(deps)
        spectator = view(client, game_id)
        if spectator["status"] == "finished":
            break
        turns = [b for b in receiver.acknowledged() if b["kind"] == "your_turn"]
        for seat in spectator["to_act"]:
            # Every seat that must act has heard so, since it last acted.
            told = [b for b in turns if b["seat"] == seat and b["version"] > acted_at[seat]]
            assert told, f"seat {seat} was not told it must act"
            assert told[-1]["data"]["deadline"] == spectator["deadlines"][seat]
        seat, acted_at[seat] = random_move(client, game_id, tokens, rng)
    bodies = receiver.acknowledged()
    assert bodies[0]["kind"] == "game_started" and bodies[-1]["kind"] == "game_ended"
    assert bodies[-1]["data"]["result"] == spectator["result"]
    ids = [b["id"] for b in bodies]
    assert len(ids) == len(set(ids)), "a notification came twice"
    assert [b["version"] for b in bodies] == sorted(b["version"] for b in bodies)
    turns = [b for b in bodies if b["kind"] == "your_turn"]
    assert len(turns) > 10
    events = client.get(f"/v1/games/{game_id}/events?limit=1000").json["events"]
    for turn in turns:  # each names a seat that then had to act, and its deadline
        assert turn["seat"] in table.to_act(table_at(events, turn["version"]))
        assert turn["game_id"] == game_id and set(turn) == {
            "id",
            "game_id",
            "version",
            "kind",
            "seat",
            "data",
        }
    assert all(WebhookNotification().validate(b) == {} for b in bodies)  # as documented
    assert len(receiver.requests) == len(bodies)  # nothing failed, nothing retried
    assert_signed(receiver, secret)


def test_a_receiver_that_fails_twice_gets_each_notification_exactly_once_more(
    hook_env, deps, client, projector, receivers
):
    receiver = receivers(answer=lambda body, seen: 500 if seen <= 2 else 200)
    created = create(client, [{"name": "ana"}, {"name": "bo"}], webhook={"url": receiver.url})
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    rng = random.Random(2)
    for _ in range(4):
        projector.project(game_id)
        random_move(client, game_id, tokens, rng)
    projector.project(game_id)
    # A second projection of everything (a crash, a rebuild) derives the same ids.
    deps.redis.delete(deps.keys.checkpoint(game_id))
    projector.project(game_id)
    deliver_all(deps)
    bodies = receiver.acknowledged()
    assert len(bodies) >= 5
    for body in bodies:
        statuses = [s for s, _, b, _ in receiver.requests if b["id"] == body["id"]]
        assert statuses == [500, 500, 200]
    assert len({b["id"] for b in bodies}) == len(bodies)
    assert dead_letters.read(deps.redis, deps.keys) == []
    assert_signed(receiver, created["webhook"]["secret"])


def test_a_dead_receiver_ends_in_the_dead_letters_is_paused_and_a_replay_delivers(
    hook_env, deps, client, projector, receivers, redis_url, capsys
):
    hook_env.setenv("WEBHOOK_ATTEMPTS", "3")
    hook_env.setenv("WEBHOOK_PAUSE_AFTER", "2")
    receiver = receivers()
    port = receiver.port
    receiver.stop()  # nothing listens there now: every attempt is refused
    created = create(client, [{"name": "ana"}, {"name": "bo"}], webhook={"url": receiver.url})
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    projector.project(game_id)
    deliver_all(deps)
    letters = dead_letters.read(deps.redis, deps.keys)
    assert sorted(letter["body"]["kind"] for letter in letters) == ["game_started", "your_turn"]
    assert all(letter["attempts"] == 3 and "Connection" in letter["error"] for letter in letters)
    # Two dead letters in a row paused the game's webhook, with an event in its log.
    events = client.get(f"/v1/games/{game_id}/events?limit=1000").json["events"]
    assert [e for e in events if e["type"] == "webhook_paused"] == [
        {
            "type": "webhook_paused",
            "seat": None,
            "version": events[-1]["version"],
            "at": events[-1]["at"],
        }
    ]
    paused = events[-1]
    assert CONTRACTS["alebrijes"].events["webhook_paused"]().validate(paused) == {}
    projector.project(game_id)
    random_move(client, game_id, tokens, random.Random(3))
    projector.project(game_id)
    assert deps.webhook_queue.count == 0, "a paused webhook is not sent to"

    # The operator lists the dead letters and replays them once the receiver is back.
    hook_env.setenv("REDIS_URL", redis_url)
    hook_env.setenv("KEY_PREFIX", deps.keys.prefix)
    hook_env.setenv("TOKEN_SECRET", "test-secret")
    webhooks_cli.main(["dead-letters"])
    listed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [letter["body"]["id"] for letter in listed] == [
        letter["body"]["id"] for letter in letters
    ]
    back = receivers(port=port)
    webhooks_cli.main(["dead-letters", "--replay"])
    assert "replayed 2" in capsys.readouterr().out
    deps_module.install(deps)
    deliver_all(deps)
    assert sorted(b["id"] for b in back.acknowledged()) == sorted(
        letter["body"]["id"] for letter in letters
    )
    assert_signed(back, created["webhook"]["secret"])
    assert dead_letters.read(deps.redis, deps.keys) == []
    # The replay resumed the webhook: the next turn is delivered again.
    random_move(client, game_id, tokens, random.Random(4))
    projector.project(game_id)
    deliver_all(deps)
    assert back.acknowledged()[-1]["kind"] == "your_turn"


def test_a_seats_webhook_never_carries_another_seats_cards(
    hook_env, deps, client, projector, receivers
):
    receiver = receivers()
    created = create(client, [{"name": "ana"}, {"name": "bo"}, {"name": "cy"}])
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    registered = client.post(
        f"/v1/games/{game_id}/seats/0/webhook",
        json={"url": receiver.url},
        headers=bearer(tokens[0]),
    )
    assert registered.status_code == 201, registered.json
    rng, batch_ends, legal_then = random.Random(5), [], {}
    for _ in range(500):
        version = projector.project(game_id)
        batch_ends.append(version)
        legal_then[version] = view(client, game_id, tokens[0])["legal"]
        if view(client, game_id)["status"] == "finished":
            break
        random_move(client, game_id, tokens, rng)
    deliver_all(deps)
    bodies = receiver.acknowledged()
    events = client.get(f"/v1/games/{game_id}/events?limit=1000").json["events"]
    turns = [b for b in bodies if b["kind"] == "your_turn"]
    assert turns and {b["seat"] for b in turns} == {0}
    assert {b["kind"] for b in bodies} >= {"game_started", "your_turn", "game_ended"}
    for body in bodies:
        if body["kind"] == "game_ended":
            continue  # the game is over: every hand is public
        end = min(v for v in batch_ends if v >= body["version"])
        hands = table_at(events, end)["rules"]["hands"]
        others = {c for seat, hand in enumerate(hands) if seat != 0 for c in hand} - set(hands[0])
        assert not others & set(strings_in(body)), "another seat's card in seat 0's webhook"
        if body["kind"] == "your_turn":
            assert body["data"]["legal"] == legal_then[end]  # its own commands, cards and all
    assert_signed(receiver, registered.json["secret"])


def strings_in(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


def test_a_url_to_a_private_address_is_refused_with_a_stable_code_and_nothing_written(
    hook_env, deps, client
):
    hook_env.delenv("WEBHOOK_ALLOW_PRIVATE")
    transition = [
        "http://[2002:7f00:1::]/",
        "http://[2002:a9fe:a9fe::]/",
        "http://[64:ff9b::7f00:1]/",
    ]
    undeliverable = ["http://8.8.8.8/a hook", "http://8.8.8.8:0/hook"]
    for url in [
        "http://127.0.0.1:9/hook",
        "http://10.0.0.7/hook",
        "http://[::1]/",
        "ftp://x/",
        *transition,
        *undeliverable,
    ]:
        body = {"game": "alebrijes", "seats": [{"name": "a"}, {"name": "b"}]}
        body["options"] = {"webhook": {"url": url}}
        answer = client.post("/v1/games", json=body)
        assert answer.status_code == 400 and answer.json["code"] == "bad_webhook_url", url
    assert deps.store.game_ids() == []
    assert list(deps.redis.scan_iter(match=f"{deps.keys.prefix}*")) == []
    created = create(client, [{"name": "a"}, {"name": "b"}])
    answer = client.post(
        f"/v1/games/{created['id']}/seats/1/webhook",
        json={"url": "http://169.254.169.254/latest/meta-data"},
        headers=bearer(created["seats"][1]["token"]),
    )
    assert answer.status_code == 400 and answer.json["code"] == "bad_webhook_url"
    assert deps.redis.exists(deps.keys.webhooks(created["id"])) == 0


def test_https_only_unless_the_operator_allows_http(hook_env, client):
    hook_env.delenv("WEBHOOK_ALLOW_HTTP")
    body = {"game": "alebrijes", "seats": [{"name": "a"}, {"name": "b"}]}
    body["options"] = {"webhook": {"url": "http://127.0.0.1:9/hook"}}
    answer = client.post("/v1/games", json=body)
    assert answer.status_code == 400 and answer.json["code"] == "bad_webhook_url"
    assert "https" in answer.json["detail"]


def test_a_refused_game_keeps_no_webhook_and_bad_kinds_are_refused(hook_env, deps, client):
    body = {"game": "alebrijes", "seats": [{"name": "a"}], "options": {}}
    body["options"]["webhook"] = {"url": "http://127.0.0.1:9/hook"}
    answer = client.post("/v1/games", json=body)  # one seat: the rules refuse the game
    assert answer.status_code == 400 and answer.json["code"] != "bad_webhook_url"
    assert list(deps.redis.scan_iter(match=f"{deps.keys.prefix}g:*")) == []
    body["seats"] = [{"name": "a"}, {"name": "b"}]
    body["options"]["webhook"]["events"] = ["your_turn", "someone_sneezed"]
    answer = client.post("/v1/games", json=body)
    assert answer.status_code == 400 and answer.json["code"] == "bad_request"


def test_only_the_seats_token_registers_or_removes_its_webhook_and_removal_stops_it(
    hook_env, deps, client, projector, receivers
):
    receiver = receivers()
    created = create(client, [{"name": "ana"}, {"name": "bo"}])
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    path = f"/v1/games/{game_id}/seats/1/webhook"
    spec = {"url": receiver.url, "events": ["your_turn"]}
    assert client.post(path, json=spec).status_code == 401
    assert client.post(path, json=spec, headers=bearer(tokens[0])).status_code == 403
    answer = client.post(path, json=spec, headers=bearer(tokens[1]))
    assert answer.status_code == 201 and answer.json["events"] == ["your_turn"]
    assert client.delete(path, headers=bearer(tokens[0])).status_code == 403
    assert client.delete(path, headers=bearer(tokens[1])).status_code == 204
    rng = random.Random(6)
    for _ in range(6):
        projector.project(game_id)
        random_move(client, game_id, tokens, rng)
    projector.project(game_id)
    deliver_all(deps)
    assert receiver.requests == []


def test_an_address_that_turns_private_after_registration_is_refused_at_delivery(
    hook_env, deps, client, projector, receivers
):
    receiver = receivers()
    created = create(client, [{"name": "ana"}, {"name": "bo"}], webhook={"url": receiver.url})
    hook_env.delenv("WEBHOOK_ALLOW_PRIVATE")  # as if the name now resolved to 127.0.0.1
    projector.project(created["id"])
    deliver_all(deps)
    assert receiver.requests == []
    letters = dead_letters.read(deps.redis, deps.keys)
    assert letters and all(letter["error"].startswith("refused") for letter in letters)
    assert all(letter["attempts"] == 1 for letter in letters)  # not worth retrying


def test_a_duplicate_delivery_job_sends_nothing(hook_env, deps, client, projector, receivers):
    receiver = receivers()
    created = create(client, [{"name": "ana"}, {"name": "bo"}], webhook={"url": receiver.url})
    projector.project(created["id"])
    deliver_all(deps)
    sent = receiver.acknowledged()
    assert sent
    # Another projector enqueues the same notifications again (new nonces).
    Notifier(deps.redis, deps.keys, deps.webhook_queue).notify(
        created["id"], None, deps.store.read(created["id"])
    )
    assert deps.webhook_queue.count == len(sent)
    deliver_all(deps)
    assert receiver.acknowledged() == sent


def test_a_receiver_that_drips_its_answer_is_cut_off_when_the_attempts_time_is_up(hook_env):
    """The limit is for the whole attempt, not for each read."""

    class Drip(BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers["Content-Length"]))
            try:
                self.wfile.write(b"HTTP/1.1 200 OK\r\n")
                for _ in range(40):  # a header byte every 0.1 s: each read is quick
                    self.wfile.write(b"X")
                    self.wfile.flush()
                    time.sleep(0.1)
            except OSError:
                pass

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Drip)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        started = time.monotonic()
        outcome = delivery.post(
            f"http://127.0.0.1:{server.server_address[1]}/hook",
            b"{}",
            {"Content-Type": "application/json"},
            Settings(allow_http=True, allow_private=True, timeout_seconds=0.5),
        )
        elapsed = time.monotonic() - started
    finally:
        server.shutdown()
        server.server_close()
    assert not outcome.delivered and outcome.retry and "timed out" in outcome.detail
    assert elapsed < 1.5


def test_https_is_tls_to_the_checked_address_and_a_failed_handshake_is_retried(hook_env, receivers):
    receiver = receivers()  # speaks plain HTTP: the TLS handshake fails
    outcome = delivery.post(
        f"https://127.0.0.1:{receiver.port}/hook",
        b"{}",
        {"Content-Type": "application/json"},
        Settings(allow_private=True, timeout_seconds=2),
    )
    assert not outcome.delivered and outcome.retry and "SSL" in outcome.detail
    assert receiver.requests == []


def test_notifications_of_events_older_than_an_hour_are_not_sent(hook_env, deps, client):
    created = create(
        client, [{"name": "ana"}, {"name": "bo"}], webhook={"url": "http://127.0.0.1:9/"}
    )
    records = deps.store.read(created["id"])
    later = records[-1].at / 1000 + Settings().max_age_seconds + 1
    late = Notifier(deps.redis, deps.keys, deps.webhook_queue, clock=lambda: later)
    assert late.notify(created["id"], None, records) == 0
    assert deps.webhook_queue.count == 0
    notifier = Notifier(deps.redis, deps.keys, deps.webhook_queue)
    assert notifier.notify(created["id"], None, records) == 2  # started, a turn
    assert deps.webhook_queue.count == 2


def test_the_creator_replaces_a_paused_game_webhook_and_removes_it(
    hook_env, deps, client, projector, receivers
):
    hook_env.setenv("WEBHOOK_ATTEMPTS", "1")
    hook_env.setenv("WEBHOOK_PAUSE_AFTER", "1")
    dead = receivers(answer=lambda body, seen: 410)
    created = create(client, [{"name": "ana"}, {"name": "bo"}], webhook={"url": dead.url})
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    projector.project(game_id)
    deliver_all(deps)
    assert len(dead.requests) == 1  # a 410 is not retried; the first dead letter pauses
    path, alive = f"/v1/games/{game_id}/webhook", receivers()
    spec = {"url": alive.url, "events": ["your_turn"]}
    assert client.post(path, json=spec).status_code == 401
    assert client.post(path, json=spec, headers=bearer(tokens[0])).status_code == 403
    answer = client.post(path, json=spec, headers=bearer(created["creator_token"]))
    assert answer.status_code == 201 and answer.json["secret"] != created["webhook"]["secret"]
    projector.project(game_id)  # the webhook_paused event
    rng = random.Random(7)
    random_move(client, game_id, tokens, rng)
    projector.project(game_id)
    deliver_all(deps)
    assert [b["kind"] for b in alive.acknowledged()] == ["your_turn"]
    assert_signed(alive, answer.json["secret"])
    assert client.delete(path, headers=bearer(tokens[0])).status_code == 403
    assert client.delete(path, headers=bearer(created["creator_token"])).status_code == 204
    random_move(client, game_id, tokens, rng)
    projector.project(game_id)
    deliver_all(deps)
    assert len(alive.requests) == 1 and len(dead.requests) == 1
