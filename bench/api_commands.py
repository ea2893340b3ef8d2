"""Redis commands the API sends per request of the human move path, counted on a private
Redis (INFO commandstats before and after each request, the app in-process, the
projector run by hand between requests so its commands are not the API's), and the
round trips they took (writes to a Redis socket: a script or a pipeline is one; the
commands a script runs count in commandstats, not as round trips).

    .venv/bin/python -m bench.api_commands            # RATE_LIMITS off, as the bench runs
    .venv/bin/python -m bench.api_commands --limits   # with the abuse limits on

Prints, per request kind, the commands by name (the median over --moves moves).
"""

import argparse
import collections
import statistics

import orjson
import redis
from redis.connection import AbstractConnection


def commandstats(client):
    """{command: calls} so far, INFO itself left out."""
    stats = client.info("commandstats")
    return {
        name.removeprefix("cmdstat_"): value["calls"]
        for name, value in stats.items()
        if name != "cmdstat_info"
    }


class RoundTrips:
    """Counts what this process writes to Redis sockets (one write a round trip)."""

    count = 0

    def __init__(self):
        send = AbstractConnection.send_packed_command

        def counting(connection, *args, **kwargs):
            RoundTrips.count += 1
            return send(connection, *args, **kwargs)

        AbstractConnection.send_packed_command = counting


def counted(client, request, *args, **kwargs):
    """(answer, Counter of the commands Redis ran while `request(...)` ran, with the
    round trips under "round trips")."""
    before = commandstats(client)
    trips = RoundTrips.count
    answer = request(*args, **kwargs)
    trips = RoundTrips.count - trips
    after = commandstats(client)
    ran = collections.Counter({name: calls - before.get(name, 0) for name, calls in after.items()})
    ran = ran - collections.Counter()
    ran["round trips"] = trips
    return answer, ran


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--limits", action="store_true", help="abuse limits on")
    args = parser.parse_args()
    from bench.systems import private_redis

    with private_redis() as url:
        run(url, args)


def run(url, args):
    from services import deps as deps_module
    from services.api import create_app
    from shared.config import Config

    config = Config.from_env({"REDIS_URL": url, "RATE_LIMITS": "on" if args.limits else "off"})
    deps = deps_module.build(config)
    app = create_app(deps)
    try:  # the tree's own projector (a tree before services/projector/build.py: Deps')
        from services.projector.build import projector_of
    except ImportError:
        projector_of = type(deps).projector
    projector = projector_of(deps, consumer="count")
    projector.join_group()
    http = app.test_client()
    stats = redis.Redis.from_url(url)
    stats.info("commandstats")  # its connection made before counting starts
    RoundTrips()
    body = {"game": "alebrijes", "seats": [{"name": "a"}, {"name": "b"}], "options": {"seed": 7}}
    created = http.post("/v1/games", json=body).get_json()
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    projector.poll(block_ms=None)
    kinds = collections.defaultdict(list)
    seat, after = 0, 0
    for _ in range(args.moves):
        headers = {"Authorization": f"Bearer {tokens[seat]}"}
        query = f"?after={after - 1}&wait=5" if after else ""
        answer, commands = counted(
            stats, http.get, f"/v1/alebrijes/{game_id}/view{query}", headers=headers
        )
        kinds["GET view (long-poll, moved)" if after else "GET view"].append(commands)
        view = orjson.loads(answer.data)
        if view["status"] != "active":
            break
        if seat not in view["to_act"]:
            seat, after = view["to_act"][0], view["version"]
            continue
        command = view["legal"][0]
        answer, commands = counted(
            stats,
            http.post,
            f"/v1/alebrijes/{game_id}/commands",
            json=command,
            headers=headers,
        )
        assert answer.status_code == 200, answer.data
        kinds["POST command"].append(commands)
        moved = answer.get_json()
        headers["Idempotency-Key"] = f"refused-{moved['version']}"
        answer, commands = counted(
            stats,
            http.post,
            f"/v1/alebrijes/{game_id}/commands",
            json={},
            headers=headers,
        )
        kinds["POST refused (400), with an Idempotency-Key"].append(commands)
        projector.poll(block_ms=None)
        to_act = moved["view"]["to_act"]
        seat, after = (to_act[0] if to_act else seat), moved["version"]
    limits = "on" if args.limits else "off"
    print(f"Redis commands per request (median of each command's count), limits {limits}:")
    for kind, samples in kinds.items():
        names = sorted({name for sample in samples for name in sample})
        medians = {name: statistics.median(s[name] for s in samples) for name in names}
        total = statistics.median(sum(s.values()) - s["round trips"] for s in samples)
        trips = medians.pop("round trips")
        detail = ", ".join(f"{name} {n:g}" for name, n in medians.items() if n)
        print(f"  {kind}: {total:g} ({detail}) in {trips:g} round trips, {len(samples)} requests")


if __name__ == "__main__":
    main()
