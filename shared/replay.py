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
        problems.append(
            "the seed does not match its commitment: sha256(seed_salt + seed) is not the "
            "seed_sha256 published when the game began"
        )
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
        logged = events[position : position + len(decided)]
        if logged != decided and logged == decided[: len(logged)]:
            return ["the log ends in the middle of a decision: it is truncated"]
        if logged != decided:
            return [_mismatch(events, position, logged, decided)]
        current = table.fold(decided, current)
        position += len(decided)
    return []


def _mismatch(events, position, logged, decided):
    """In words: the first logged event of the decision that `events[position]` begins
    that is not the one the rules decide, and how it differs."""
    begun = f"event {position + 1} ({events[position]['type']})"
    number, was, ought = next(
        (position + offset + 1, was, ought)
        for offset, (was, ought) in enumerate(zip(logged, decided, strict=False))
        if was != ought
    )
    if was["type"] != ought["type"]:
        return (
            f"event {number} is {was['type']} where the rules decide {ought['type']}, in "
            f"the decision {begun} begins"
        )
    differ = sorted(k for k in was.keys() | ought.keys() if was.get(k) != ought.get(k))
    differ = differ or ["fields"]  # a field null in one and missing in the other
    if was["type"] == table.ENDED and "seed" in differ:
        return (
            f"event {number} (game_ended) reveals another seed than game_created's: the seed "
            "does not match its commitment (seed_sha256)"
        )
    return (
        f"event {number} ({was['type']}) is not what the rules decide in the decision "
        f"{begun} begins: its {', '.join(differ)} differ"
    )


def _decision(current, event):
    """The events the table decides at the point where `event` stands: every decision
    (a claimed seat, a command, a timeout, a timer, resigning, returning, cancelling,
    expiring) is logged by its first event. None when `event` cannot begin one."""
    kind = event["type"]
    if kind == table.STARTED and current["status"] == "waiting":
        return table.opening(current)
    if kind == table.CLAIMED:
        return table.claim(current, event["seat"], event["name"], event.get("player"))
    if kind == table.REMATCH:
        return table.offer_rematch(current, event["game_id"])
    if kind == table.ACCEPTED:
        return table.accept(current, event["seat"], current["seats"][event["seat"]].get("player"))
    if kind == table.DECLINED:
        return table.decline(current, event["seat"], current["seats"][event["seat"]].get("player"))
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


EVERYONE = "all"  # a seat that sees every hand: a finished log is public


def view_at(records, version, seat):
    """A finished game replayed: the table at `version` (or, inside a decision, at its
    end) as `seat` saw it then (None: a spectator; EVERYONE: every hand), with the
    events up to there as that seat saw them then, and the `steps` to step through.
    The events are redacted as of a running game, as the seat saw them, even though
    the finished log is whole and public now."""
    version = min(v for v in steps(records) if v >= version)  # never a decision half done
    chosen = [r for r in records if r["version"] <= version]
    current = table_at(chosen)
    at = chosen[-1]["at"] if chosen else None
    running = {**current, "status": "active"}  # what the table redacted while it ran
    if seat == EVERYONE:
        shown = chosen
        seen = table.view(current, version, None)
        everyone = [table.view(current, version, s) for s in range(len(current["seats"]))]
    else:
        shown = [{**table.redact(running, bare(r), seat), **_envelope(r)} for r in chosen]
        seen = table.view(current, version, seat)
        everyone = None
    return {
        "game": current["game"],
        "version": version,
        "at": at,
        "seat": seat,
        "view": seen,
        "everyone": everyone,
        "events": shown,
        "steps": steps(records),
    }


def _envelope(record):
    return {k: record[k] for k in ENVELOPE}


def problems_of_upload(records):
    """The first problem of an uploaded log, checked as `check` does and more: the
    records are whole (a version and a time each, in order from 1) and the game is
    over. [] when it checks out."""
    shape = shape_problem(records)
    if shape:
        return [shape]
    try:
        problems = check(records)
        if problems:
            return problems[:1]
        if table_at(records)["status"] != "finished":
            return ["the log ends before the game does: it is truncated"]
    except (RuleError, KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
        # An uploaded log is anyone's JSON: what the rules cannot fold is a bad log.
        return [f"the log cannot be replayed: {type(error).__name__} {error}"]
    return []


def shape_problem(records):
    """The first problem of an uploaded log's form (not an event list, versions out of
    order, times going back), or None."""
    if not isinstance(records, list) or not records:
        return "the log holds no events"
    for position, record in enumerate(records, start=1):
        if not isinstance(record, dict) or not isinstance(record.get("type"), str):
            return f"event {position} is not an event object with a type"
        for name in ENVELOPE:
            value = record.get(name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                return f"event {position} has no whole-number {name}"
        if record["version"] != position:
            return f"event {position} has version {record['version']}: reordered or missing"
        if position > 1 and record["at"] < records[position - 2]["at"]:
            return f"event {position} was appended before event {position - 1}"
    return None


def fork(records, version, game_id, seats, seed, salt=""):
    """The events that open a fork of a finished game: a new table, `game_id`, that
    starts from the original's position at `version` (inside a decision: at its end,
    as the replay shows it) with new `seats` (the shape of a
    new game's) and its own `seed`, dealing nothing (see shared/fork.py). Its
    game_created records where it came from (`forked_from`) and the position; its seed
    is committed to, salted, like any game's."""
    if not 0 < version <= records[-1]["version"]:
        raise RuleError("bad_version", f"the game has versions 1 to {records[-1]['version']}")
    version = min(v for v in steps(records) if v >= version)  # a decision's end
    original = table_at(records, version)
    if original["status"] != "active":
        raise RuleError("bad_version", f"the game was {original['status']} at version {version}")
    if len(seats) != len(original["seats"]):
        raise RuleError("bad_request", f"a fork of this game has {len(original['seats'])} seats")
    options = {
        **original["options"],
        "turn_seconds": original["turn_seconds"],
        "zombie_after": original["zombie_after"],
        "takeover_bot": table.takeover_bot(original),
    }
    created = table.create(game_id, original["game"], seats, options, seed, salt)[0]
    created = {
        **created,
        "forked_from": {"game": original["id"], "version": version},
        "position": original["rules"],
    }
    opened = table.evolve(None, created)
    if any(s["open"] or s.get("invited") for s in opened["seats"]):
        return [created]
    return [created, *table.opening(opened)]


def steps(records):
    """The versions a seat could see the table at: the end of each decision (a command
    and all it caused is one append, never seen half done), in order."""
    return [r["version"] for r in records if _decided_up_to(records, r["version"])]


def _decided_up_to(records, version):
    """Whether `version` ends a decision: it is the last, or the next event begins one
    (a seat claimed, a command, a timeout, a timer, a seat resigned or returned, a
    webhook paused, the game called off)."""
    if version >= len(records):
        return True
    following, kind = records[version], records[version]["type"]  # the record of version + 1
    beginnings = (table.CLAIMED, table.COMMANDED, table.TIMED_OUT, table.FIRED, table.CANCELLED)
    beginnings += (table.ACCEPTED, table.DECLINED, table.REMATCH)
    if kind in (*beginnings, table.PAUSED, table.EXPIRED):
        return True
    if kind == table.TAKEN_OVER:
        return following["reason"] == "resigned"
    # A holder's command takes the seat back first: that seat_returned is part of it.
    return kind == table.RETURNED and records[version - 1]["type"] != table.COMMANDED
