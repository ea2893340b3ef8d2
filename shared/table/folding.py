"""The fold: events (the lifecycle's and the rules') onto a table. Pure like the rules:
the time of each event comes from its record, never from here."""

from shared import fork
from shared.games.common import clone
from shared.table.events import (
    ACCEPTED,
    CANCELLED,
    CLAIMED,
    COMMANDED,
    CREATED,
    DECLINED,
    ENDED,
    EXPIRED,
    FIRED,
    LEGACY_TAKEOVER_BOT,
    LIFECYCLE,
    PAUSED,
    RECORDS,
    REMATCH,
    RETURNED,
    STARTED,
    TAKEN_OVER,
    TIMED_OUT,
)
from shared.table.queries import rules_of, rules_timers, to_act


def evolve(table, event, at=None):
    """Fold one event (lifecycle or rules) into the table; the input is not changed.

    `at` (ms since the epoch) is when the event was appended: it dates the moment each
    seat had to act, from which its deadline runs."""
    kind = event["type"]
    if kind == CREATED:
        return _created(event)
    if kind == CLAIMED:
        if event.get("player") is not None:
            table = _with_seat(table, event["seat"], open=False, player=event["player"])
        else:
            table = _with_seat(table, event["seat"], name=event["name"], open=False)
    elif kind == REMATCH:
        table = {**table, "rematch": event["game_id"]}
    elif kind == ACCEPTED:
        table = _with_seat(table, event["seat"], invited=False)
    elif kind == DECLINED:
        seats = list(table["seats"])
        place = {k: v for k, v in seats[event["seat"]].items() if k not in ("player", "invited")}
        seats[event["seat"]] = {**place, "open": True}
        table = {**table, "seats": seats}
    elif kind == STARTED:
        config = {
            "players": len(table["seats"]),
            # The rules shuffle by the seed's text: a numeric seed 7 deals as "7" does.
            "seed": str(table["seed"]),
            "deck": table["deck"],
            "options": table["options"],
        }
        if table.get("forked_from") is not None:
            rules = fork.resumed(table["position"], table["seed"])
        else:
            rules = rules_of(table).initial(config)
        table = {**table, "status": "active", "rules": rules}
    elif kind in (COMMANDED, FIRED, PAUSED):
        pass  # a record of what was decided on (or of a paused webhook); no change
    elif kind == ENDED:
        table = {**table, "status": "finished", "result": event["result"]}
    elif kind in (CANCELLED, EXPIRED):
        table = {**table, "status": "cancelled"}
    elif kind == TIMED_OUT:
        table = _with_timeouts(table, event["seat"], table["timeouts"][event["seat"]] + 1)
    elif kind == TAKEN_OVER:
        resigned = event["reason"] == "resigned"
        table = _with_seat(
            table, event["seat"], bot=event["bot"], away=not resigned, resigned=resigned
        )
    elif kind == RETURNED:
        table = _with_timeouts(table, event["seat"], 0)
        if table["seats"][event["seat"]]["away"]:
            table = _with_seat(table, event["seat"], bot=None, away=False)
    else:
        table = {**table, "rules": rules_of(table).evolve(table["rules"], event)}
    return _with_timers_since(_with_acting_since(table, at), at)


def _created(event):
    fields = (
        "id",
        "game",
        "seats",
        "options",
        "turn_seconds",
        "zombie_after",
        "custom_deck",
        "seed_sha256",
        "seed",
        "deck",
    )
    table = {f: event[f] for f in fields}
    # Logs from before salted commitments: no salt, and no record of who dealt.
    table["seed_salt"] = event.get("seed_salt", "")
    table["dealt_by_creator"] = event.get("dealt_by_creator", event["custom_deck"])
    # A fork starts from another game's position (see shared/fork.py).
    table.update(forked_from=event.get("forked_from"), position=event.get("position"))
    if event.get("rated"):  # only then: an unrated table is as it always was
        table["rated"] = True
    n = len(event["seats"])
    return {
        **table,
        "takeover_bot": event.get("takeover_bot", LEGACY_TAKEOVER_BOT),
        "status": "waiting",
        "rules": None,
        "result": None,
        "timeouts": [0] * n,
        "acting_since": {},
        "timers_since": {},
    }


def _with_seat(table, seat, **changes):
    seats = list(table["seats"])
    seats[seat] = {**seats[seat], **changes}
    return {**table, "seats": seats}


def _with_timeouts(table, seat, count):
    timeouts = list(table["timeouts"])
    timeouts[seat] = count
    return {**table, "timeouts": timeouts}


def _with_acting_since(table, at):
    """Keep, for each seat that must act, when it first had to: a seat's deadline does
    not move while others act."""
    kept = _since(table["acting_since"], [str(s) for s in to_act(table)], at)
    return table if kept is table["acting_since"] else {**table, "acting_since": kept}


def _with_timers_since(table, at):
    """Keep when each of the rules' timers started, so its deadline stays put."""
    kept = _since(table["timers_since"], [t["key"] for t in rules_timers(table)], at)
    return table if kept is table["timers_since"] else {**table, "timers_since": kept}


def _since(since, keys, at):
    """`since` for `keys` only (distinct: seats, timer keys), a key new to it from `at`:
    `since` itself when unchanged."""
    if len(keys) == len(since) and all(key in since for key in keys):
        return since
    return {key: since.get(key, at) for key in keys}


def fold(events, table=None, copy_events=True):
    """Fold events onto a table (None: from nothing). Items are events, or (event, at)
    pairs when the append times are known (stored records). Neither the table nor the
    events are changed. A game with `evolve_in_place` (base.py) has its rules' state
    copied once for the whole fold rather than once an event, and the tables in between
    are not made: they are never seen (a rebuild folds whole streams). Nor are the
    `acting_since` in between: who acts is noted at each change and dated once
    (`_date_acting`), before a lifecycle event and at the end.

    copy_events=False: the events are the caller's to give away (just parsed, and read
    by nobody after the fold), so the rules may keep parts of them without a copy.
    """
    given = table  # the caller's: every other table here is one this fold made
    owned = rules = timed = None  # the rules' state this fold made, which it may fold into
    acted, changes = None, []  # who acts, and [(seats, at)] at each change not yet dated
    for item in events:
        event, at = item if isinstance(item, tuple) else (item, None)
        kind = event["type"]
        if kind in LIFECYCLE:
            if kind in RECORDS and table is not given:
                continue  # no change, and who acts (and since when) is up to date
            if changes:
                changes = _date_acting(table, changes)
            table, acted = evolve(table, event, at), None
        elif owned is not None and table["rules"] is owned and table is not given:
            event = event if not copy_events else clone(event)
            owned = table["rules"] = rules.evolve_in_place(owned, event)
            acting = rules.to_act(owned) if table["status"] == "active" else []
            if acting != acted:  # a copy: the rules may change the list they gave
                acted = list(acting)
                changes.append((acted, at))
            if timed or table["timers_since"]:  # else no timers, before or after
                table["timers_since"] = _since(
                    table["timers_since"], [t["key"] for t in rules_timers(table)], at
                )
        else:
            if changes:
                changes = _date_acting(table, changes)
            table, acted = evolve(table, event, at), None
            rules = rules_of(table)
            timed = hasattr(rules, "table_timers")
            owned = table["rules"] if hasattr(rules, "evolve_in_place") else None
    if changes:
        _date_acting(table, changes)
    return table


def _date_acting(table, changes):
    """Bring the acting_since of a table fold made up to date with `changes`, the seats
    to act after each change ([(seats, at)], oldest first, the first made from the
    seats acting_since holds): what `_since` at each change would give. A seat acting
    since before the first change keeps its time; any other is dated from the change
    after which it acted in every later one. Returns no changes left to date."""
    since, seats = table["acting_since"], changes[-1][0]
    dated = {}
    for seat in seats:
        first = len(changes) - 1
        while first > 0 and seat in changes[first - 1][0]:
            first -= 1
        at = changes[first][1]
        dated[str(seat)] = since.get(str(seat), at) if first == 0 else at
    table["acting_since"] = dated
    return []
