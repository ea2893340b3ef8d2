"""Replaying a game from its event log, with no randomness and no server.

A finished game's log (GET /v1/games/{id}/events) holds everything: the seed, the
deck if one was fixed, every command as it was sent (`commanded`), every timeout and
timer, and every deal and draw as it happened. `check` verifies what a player can
verify on their own: the seed, salted with the salt revealed with it, matches the
hash published in the first event (sha256(salt + seed); old logs have no salt), and
deciding every command again with the rules gives exactly the logged events, shuffles
and deals included. `table_at` rebuilds the table at any version, for a replay viewer.
"""

from shared import table
from shared.games.base import RuleError

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
    if table.seed_sha256(seed, created.get("seed_salt", "")) != created["seed_sha256"]:
        problems.append("the seed does not match the seed_sha256 published when it began")
    return problems + _decide_again(events)


def _decide_again(events):
    """Walk the log decision by decision: each must give exactly the events logged."""
    current = table.fold(events[:1])
    position = 1
    while position < len(events):
        try:
            decided = _decision(current, events[position])
        except (RuleError, KeyError, TypeError, ValueError) as error:
            return [f"event {position + 1} ({events[position]['type']}) is refused: {error}"]
        if decided is None:
            kind = events[position]["type"]
            return [f"event {position + 1} ({kind}) follows from no command"]
        if events[position : position + len(decided)] != decided:
            return [f"the events from {position + 1} are not what the rules decide"]
        current = table.fold(decided, current)
        position += len(decided)
    return []


def _decision(current, event):
    """The events the table decides at the point where `event` stands: every decision
    (a claimed seat, a command, a timeout, a timer, resigning, returning, cancelling,
    expiring) is logged by its first event. None when `event` cannot begin one."""
    kind = event["type"]
    if kind == table.STARTED and current["status"] == "waiting":
        return table.opening(current)
    if kind == table.CLAIMED:
        return table.claim(current, event["seat"], event["name"])
    if kind == table.COMMANDED:
        return table.play(current, event["seat"], event["command"], event["by"])
    if kind == table.TIMED_OUT:
        return table.time_out(current, event["seat"])
    if kind == table.FIRED:
        return table.fire(current, event["key"])
    if kind == table.TAKEN_OVER and event["reason"] == "resigned":
        return table.resign(current, event["seat"])
    if kind == table.RETURNED:
        return table.return_seat(current, event["seat"])
    if kind == table.CANCELLED:
        return table.cancel(current)
    if kind == table.PAUSED:
        return table.webhook_paused(current, event["seat"])
    if kind == table.EXPIRED:
        return table.expire(current, event["reason"])
    return None
