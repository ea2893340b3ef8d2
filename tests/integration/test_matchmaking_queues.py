"""Matchmaking queues on a real Redis (and a Redis Cluster): a rebuild folds the
stream to the same queue; two matchmakers claim a group once; a matchmaker killed
between its claim and the game's opening leaves the game to the next one."""

import random
import threading

import pytest

from services.matchmaker import matchmaker as matchmaker_module
from services.matchmaker.matchmaker import Matchmaker
from shared.matchmaking import tickets as t
from shared.matchmaking.store import Gone
from shared.players.store import Inbox

START = 1_800_000_000.0


@pytest.fixture
def deps_redis(real_redis):
    return real_redis


def open_tickets(d, count, at_ms, rng, queues=2, lows=(2, 2, 3)):
    """`count` tickets of players made for them, over `queues` queues of Alien."""
    opened = []
    for n in range(count):
        player = d.players.create(f"p{n}", at_ms)["id"]
        queue_id, queue = t.queue_of("alien", {}, False, 30 * (1 + n % queues))
        low = rng.choice(lows)
        bots = {"after_seconds": 20, "level": None} if rng.random() < 0.3 else None
        rating = rng.choice([None, 900, 1000, 1100])
        ticket_id = t.new_ticket_id(queue_id)
        doc = t.ticket(
            ticket_id, queue_id, queue, player, [low, low + 1], bots, at_ms + n, 3600, rating
        )
        opened.append(d.matchmaking.open(doc, queue, at_ms + n))
    return opened


def matched_events(d):
    """{ticket id: [game ids]} over every queue's tickets_matched events."""
    found = {}
    for queue_id in d.matchmaking.queue_ids():
        for event, _ in d.matchmaking.events(queue_id):
            if event["type"] == t.GROUP_MATCHED:
                for ticket_id in event["seats"]:
                    found.setdefault(ticket_id, []).append(event["game_id"])
    return found


def test_a_rebuild_gives_the_same_queues(deps):
    rng = random.Random(3)
    clock = [START]
    opened = open_tickets(deps, 40, int(START * 1000), rng)
    for doc in rng.sample(opened, 8):
        deps.matchmaking.cancel(doc["id"], int(clock[0] * 1000))
    matchmaker = Matchmaker(deps, clock=lambda: clock[0])
    for step in (1, 6, 25):
        clock[0] = START + step
        matchmaker.round()
    clock[0] = START + 4000  # the rest expire
    matchmaker.round()
    before = {q: deps.matchmaking.read_model(q) for q in deps.matchmaking.queue_ids()}
    statuses = {d["status"] for model in before.values() for d in model[0].values()}
    assert statuses == {"matched", "cancelled", "expired"}
    for queue_id in before:
        deps.matchmaking.rebuild(queue_id)
    after = {q: deps.matchmaking.read_model(q) for q in deps.matchmaking.queue_ids()}
    assert after == before


def test_two_matchmakers_claim_one_group_once(deps):
    rng = random.Random(1)
    a, b = open_tickets(deps, 2, int(START * 1000), rng, queues=1, lows=[2])
    queue_id = a["queue"]
    first, second = Matchmaker(deps), Matchmaker(deps)
    at = int(START * 1000) + 10
    spec = {"game": "alien"}
    first.queues.claim(queue_id, [a, b], "g1", {a["id"]: 0, b["id"]: 1}, [], at, spec)
    with pytest.raises(Gone):
        second.queues.claim(queue_id, [b, a], "g2", {a["id"]: 1, b["id"]: 0}, [], at, spec)
    assert matched_events(deps) == {a["id"]: ["g1"], b["id"]: ["g1"]}


def test_two_matchmakers_racing_seat_every_ticket_once(deps):
    rng = random.Random(2)
    opened = open_tickets(deps, 120, int(START * 1000), rng)
    clock = [START + 30]  # every bot deadline passed: everyone can be seated
    workers = [Matchmaker(deps, clock=lambda: clock[0]) for _ in range(2)]
    threads = [threading.Thread(target=lambda m=m: [m.round() for _ in range(5)]) for m in workers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    matched = matched_events(deps)
    assert all(len(games) == 1 for games in matched.values())
    by_game = {}
    for ticket_id, (game_id,) in matched.items():
        by_game.setdefault(game_id, set()).add(ticket_id)
    for game_id, ids in by_game.items():
        _, game = deps.service.load(game_id, fresh=True)
        players = {s["player"] for s in game["seats"] if s.get("player")}
        assert players == {deps.matchmaking.ticket(i)["player"] for i in ids}
    waiting = [d for d in opened if deps.matchmaking.ticket(d["id"])["status"] == "waiting"]
    assert len(matched) + len(waiting) == len(opened) and len(matched) > 60


def test_a_claim_whose_game_never_opened_is_opened_by_the_next_round(deps, monkeypatch):
    rng = random.Random(4)
    a, b = open_tickets(deps, 2, int(START * 1000), rng, queues=1, lows=[2])
    clock = [START + 6]
    dying = Matchmaker(deps, clock=lambda: clock[0])
    monkeypatch.setattr(dying, "open_game", lambda *_: None)  # killed after the claim
    assert dying.round() == 1
    game_id = deps.matchmaking.ticket(a["id"])["game_id"]
    assert deps.store.version(game_id) == 0
    clock[0] += matchmaker_module.REPAIR_MS / 1000 + 1
    Matchmaker(deps, clock=lambda: clock[0]).round()
    _, game = deps.service.load(game_id, fresh=True)
    seat = deps.matchmaking.ticket(b["id"])["seat"]
    assert game["status"] == "active" and game["seats"][seat]["player"] == b["player"]
    _, items = Inbox(deps.redis, deps.keys).items(b["player"], 0, 10)
    assert [(i["kind"], i["game_id"], i["seat"]) for i in items] == [("matched", game_id, seat)]
    assert deps.matchmaking.unopened(a["queue"]) == {}


class TestOnACluster:
    @pytest.fixture
    def deps_redis(self, cluster_redis):
        return cluster_redis

    @pytest.fixture
    def deps_queue_redis(self, real_redis):
        return real_redis

    def test_tickets_are_matched_and_rebuilt_on_a_cluster(self, deps):
        rng = random.Random(5)
        opened = open_tickets(deps, 12, int(START * 1000), rng, queues=3)
        Matchmaker(deps, clock=lambda: START + 30).round()
        statuses = [deps.matchmaking.ticket(d["id"])["status"] for d in opened]
        assert statuses.count("matched") >= 6
        for queue_id in deps.matchmaking.queue_ids():
            before = deps.matchmaking.read_model(queue_id)
            deps.matchmaking.rebuild(queue_id)
            assert deps.matchmaking.read_model(queue_id) == before


def test_metrics_show_waiting_tickets_time_to_match_and_bots(deps):
    from prometheus_client import REGISTRY

    from services.matchmaker.matchmaker import WaitingCollector
    from services.ops import metrics

    rng = random.Random(6)
    at = int(START * 1000)
    a, b, c = open_tickets(deps, 3, at, rng, queues=1, lows=[2])
    queue_id = a["queue"]
    labels = {"game": "alien", "queue": queue_id}

    def sample(name, **more):
        return REGISTRY.get_sample_value(name, {**labels, **more}) or 0

    body, _ = metrics.exposition(WaitingCollector(deps))
    line = f'tablestream_matchmaking_waiting_tickets{{game="alien",queue="{queue_id}"}} 3.0'
    assert line in body.decode()
    # (Queue ids name what the queue is, so other tests' matches count here too.)
    before = sample("tablestream_matchmaking_time_to_match_seconds_count")
    games = sample("tablestream_matchmaking_games_total", seated="humans")
    Matchmaker(deps, clock=lambda: START + 1).round()  # three of [2, 3]: one table
    assert {deps.matchmaking.ticket(d["id"])["status"] for d in (a, b, c)} == {"matched"}
    assert sample("tablestream_matchmaking_time_to_match_seconds_count") == before + 3
    assert sample("tablestream_matchmaking_games_total", seated="humans") == games + 1
    body, _ = metrics.exposition(WaitingCollector(deps))
    assert line.replace("3.0", "0.0") in body.decode()


def test_a_rebuild_beside_a_cancel_keeps_the_cancel(deps, monkeypatch):
    rng = random.Random(7)
    a, b = open_tickets(deps, 2, int(START * 1000), rng, queues=1, lows=[2])
    store = deps.matchmaking
    real = store.redis.xrange
    calls = []

    def read_then_cancel(*args, **kwargs):  # the stream moves between read and write
        entries = real(*args, **kwargs)
        if not calls:
            store.cancel(a["id"], int(START * 1000) + 5)
        calls.append(1)
        return entries

    monkeypatch.setattr(store.redis, "xrange", read_then_cancel)
    store.rebuild(a["queue"])
    monkeypatch.undo()
    assert len(calls) == 2  # folded again
    tickets, waiting, holders = store.read_model(a["queue"])
    assert tickets[a["id"]]["status"] == "cancelled" and list(waiting) == [b["id"]]
    assert holders == {b["player"]: b["id"]}


def test_the_projectors_rebuild_rebuilds_the_queues(deps, projector):
    from services.projector import rebuild

    rng = random.Random(8)
    opened = open_tickets(deps, 6, int(START * 1000), rng, queues=2, lows=[2])
    Matchmaker(deps, clock=lambda: START + 6).round()
    before = {q: deps.matchmaking.read_model(q) for q in deps.matchmaking.queue_ids()}
    for queue_id in before:  # the read model lost
        deps.redis.delete(deps.keys.queue_tickets(queue_id), deps.keys.queue_waiting(queue_id))
    rebuild.rebuild(projector)
    assert {q: deps.matchmaking.read_model(q) for q in before} == before
    assert deps.matchmaking.ticket(opened[0]["id"])["status"] == "matched"
