"""Replaying a game from its event log, with no randomness and no server.

A finished game's log (GET /v1/games/{id}/events) holds everything: the seed, the
deck if one was fixed, and every deal and draw as it happened. `check` verifies what
a player can verify on their own: the seed matches the hash published in the first
event, the opening deal is the one that seed (and deck) gives, every event folds, and
the recorded result is the one the rules compute. `table_at` rebuilds the table at any
version, for a replay viewer.
"""

import hashlib

from shared import table

ENVELOPE = ("version", "at")


def bare(record):
    """An event of a log as the API returns it, without its version and time."""
    return {k: v for k, v in record.items() if k not in ENVELOPE}


def events_of(records):
    return [bare(r) for r in records]


def table_at(records, version=None):
    """The table after the events up to `version` (all of them when None)."""
    chosen = [r for r in records if version is None or r["version"] <= version]
    return table.fold((bare(r), r.get("at")) for r in chosen)


def check(records):
    """The problems found in a finished game's log; [] when it checks out."""
    events = events_of(records)
    if not events or events[0]["type"] != table.CREATED:
        return ["the log does not start with game_created"]
    created = events[0]
    seed = created.get("seed")
    if seed is None:
        return ["the seed is not in the log: a game's log is whole only once it has finished"]
    problems = []
    if hashlib.sha256(seed.encode()).hexdigest() != created["seed_sha256"]:
        problems.append("the seed does not match the seed_sha256 published when it began")
    problems += _check_opening(events)
    try:
        final = table.fold(events)
    except Exception as error:  # a forged or corrupt event: say so, do not crash
        return [*problems, f"the events do not fold: {error!r}"]
    ended = [e for e in events if e["type"] == table.ENDED]
    if final["status"] == "finished":
        computed = table.rules_of(final).result(final["rules"])
        if ended and ended[-1]["result"] != computed:
            problems.append("the recorded result is not the one the rules compute")
    return problems


def _check_opening(events):
    """The deal that follows game_started must be the one the seed and deck give."""
    if not any(e["type"] == table.STARTED for e in events):
        return []
    start = next(i for i, e in enumerate(events) if e["type"] == table.STARTED)
    before = table.fold(events[: start + 1])
    expected = table.rules_of(before).decide(before["rules"], None, {"type": "start"})
    recorded = events[start + 1 : start + 1 + len(expected)]
    return [] if recorded == expected else ["the opening deal is not the one the seed gives"]
