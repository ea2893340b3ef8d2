"""Exactly once, under concurrency: many players open tickets through the API (in
process, several threads) while two matchmaker processes run and cancels race the
matches; then every ticket's outcome is checked against the queues' events and the
games' logs. A ticket ends in one game or is cancelled; a cancel's answer says which
won; no player is seated twice from one ticket."""

import random
import threading
import time

import pytest

from services.api import create_app
from shared.matchmaking import tickets as t
from tests.api.helpers import app_with
from tests.processes import service_env, start, stop, wait_for

PLAYERS = 150
QUEUES = 4  # tickets a player opens, one in each queue
COUNTS = ([2, 2], [2, 3], [3, 4], [2, 4])


@pytest.fixture
def deps_redis(real_redis):
    return real_redis


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def matchmakers(deps, redis_url, tmp_path):
    env = service_env(redis_url, deps.keys, METRICS_PORT="0")
    processes = [start("matchmaker", env, tmp_path / "matchmakers.log") for _ in range(2)]
    yield processes
    for process in processes:
        stop(process)
    for process in processes:
        assert process.returncode in (0, -15), (tmp_path / "matchmakers.log").read_text()


def run(deps, rng_seed, players, answers):
    """One client thread: its players open a ticket in each queue, cancelling about a
    third of them at once or after a moment (racing the matchmakers)."""
    rng = random.Random(rng_seed)
    client = create_app(deps).test_client()
    for player in players:
        for queue in range(QUEUES):
            body = {
                "game": "alien",
                "players": rng.choice(COUNTS),
                "turn_seconds": 10 * (queue + 1),
            }
            if rng.random() < 0.3:
                body["bots"] = {"after_seconds": 1, "level": "random"}
            response = client.post(
                "/v1/matchmaking/tickets", json=body, headers=bearer(player["token"])
            )
            assert response.status_code == 201, response.get_json()
            ticket = response.get_json()
            answers[ticket["id"]] = {"player": player, "cancel": None}
            if rng.random() < 0.35:
                time.sleep(rng.choice([0, 0, 0.01, 0.05]))
                gone = client.delete(
                    f"/v1/matchmaking/tickets/{ticket['id']}", headers=bearer(player["token"])
                )
                answers[ticket["id"]]["cancel"] = (gone.status_code, gone.get_json())


def test_every_ticket_ends_once_under_concurrency(deps, matchmakers):
    check_every_ticket(deps, PLAYERS, limit_seconds=50)


@pytest.mark.slow
def test_every_ticket_ends_once_under_concurrency_at_scale(deps, matchmakers):
    """The issue's size: thousands of tickets from hundreds of players."""
    check_every_ticket(deps, 600, limit_seconds=300)


def check_every_ticket(deps, count, limit_seconds):
    client = app_with(deps, rate_limits=False).test_client()
    players = []
    for n in range(count):
        made = client.post("/v1/players", json={"name": f"p{n}"})
        assert made.status_code == 201
        players.append(made.get_json())
    answers = {}
    threads = [
        threading.Thread(target=run, args=(deps, n, players[n::6], answers)) for n in range(6)
    ]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(answers) == count * QUEUES
    store = deps.matchmaking

    def settled():  # nobody left who could still be seated: only short, bot-less tables
        waiting = [d for q in store.queue_ids() for d in store.waiting(q)]
        return all(not d["bots"] for d in waiting) and len(waiting) < 40 * count // PLAYERS

    wait_for(settled, timeout=limit_seconds / 2, every=0.2)
    time.sleep(1)  # a last round; then cancel whatever still waits, racing it too
    for ticket_id, answer in answers.items():
        if answer["cancel"] is None and store.ticket(ticket_id)["status"] == "waiting":
            token = answer["player"]["token"]
            gone = client.delete(f"/v1/matchmaking/tickets/{ticket_id}", headers=bearer(token))
            answer["cancel"] = (gone.status_code, gone.get_json())
    wait_for(lambda: all(not store.unopened(q) for q in store.queue_ids()), timeout=10)

    # The queues' events: each ticket in at most one match.
    matched_in = {}
    for queue_id in store.queue_ids():
        for event, _ in store.events(queue_id):
            if event["type"] == t.GROUP_MATCHED:
                for ticket_id, seat in event["seats"].items():
                    assert ticket_id not in matched_in, "a ticket in two games"
                    matched_in[ticket_id] = (event["game_id"], seat)
    seated = {}  # game id -> {seat: player} from the games' logs
    for game_id in {g for g, _ in matched_in.values()}:
        created = deps.store.read(game_id, limit=1)[0].event
        assert created["type"] == "game_created"
        seated[game_id] = {n: s.get("player") for n, s in enumerate(created["seats"])}
    cancelled = 0
    for ticket_id, answer in answers.items():
        final = store.ticket(ticket_id)
        assert final["status"] in ("matched", "cancelled"), final
        if answer["cancel"] is not None:
            status, body = answer["cancel"]
            if status == 200:
                assert final["status"] == "cancelled" and body["status"] == "cancelled"
                cancelled += 1
            else:
                assert (status, body["code"]) == (409, "ticket_matched")
                assert body["errors"]["ticket"]["game_id"] == final["game_id"]
        if final["status"] == "matched":
            game_id, seat = matched_in[ticket_id]
            assert (final["game_id"], final["seat"]) == (game_id, seat)
            assert seated[game_id][seat] == answer["player"]["id"]
        else:
            assert ticket_id not in matched_in
    # Every player seat of every game is one matched ticket's: nobody seated twice.
    for game_id, seats in seated.items():
        humans = [p for p in seats.values() if p]
        assert len(humans) == len(set(humans))
        tickets_here = [i for i, (g, _) in matched_in.items() if g == game_id]
        assert len(tickets_here) == len(humans)
    matched = sum(1 for i in answers if i in matched_in)
    lost = sum(1 for a in answers.values() if a["cancel"] and a["cancel"][0] == 409)
    print(
        f"{len(answers)} tickets: {matched} matched in {len(seated)} games, "
        f"{cancelled} cancelled, {lost} cancels lost to a match"
    )
    assert matched > len(answers) // 3 and cancelled > len(answers) // 5
    assert time.monotonic() - started < limit_seconds
