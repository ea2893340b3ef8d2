"""The read models of a table: the public summary, each seat's view and the
spectator's, and each event as a seat may see it (hidden information stays hidden)."""

from shared.table.events import COMMANDED, CREATED, LIFECYCLE, SECRET_OF_CREATED
from shared.table.queries import (
    deadlines,
    reaction_seconds,
    rules_of,
    table_timers,
    takeover_bot,
    to_act,
)


def redact(table, event, seat):
    """The event as `seat` (None: a spectator) may see it. Once the game has finished the
    whole log is public."""
    if table["status"] == "finished":
        return event
    kind = event["type"]
    if kind == CREATED:
        return {k: v for k, v in event.items() if k not in SECRET_OF_CREATED}
    if kind == COMMANDED and event["seat"] != seat:
        return {k: v for k, v in event.items() if k != "command"}  # what was sent is private
    if kind in LIFECYCLE:
        return event
    return rules_of(table).redact(event, seat)


def event_as_seen(table, record, seat):
    """A stored record's event as `seat` may see it now, with its version and append
    time: the events endpoint's shape, and a bot's feed."""
    return {**redact(table, record.event, seat), "version": record.version, "at": record.at}


def public_seats(table):
    """Every seat as anyone may see it; `reaction_seconds` only where a bot plays (logs
    written before it was a bot's own also held it on people's seats)."""
    return [_public_seat(i, place) for i, place in enumerate(table["seats"])]


def _public_seat(number, place):
    shown = {"seat": number, "think_ms": None, **place}
    if place["bot"] is None:
        shown.pop("reaction_seconds", None)
    else:
        shown["reaction_seconds"] = reaction_seconds(place)
    return shown


def summary(table, version):
    """What anyone may know of a game: the lobby entry and GET /v1/games/{id}."""
    finished = table["status"] == "finished"
    return {
        "id": table["id"],
        "game": table["game"],
        "version": version,
        "status": table["status"],
        "seats": public_seats(table),
        "options": {
            **table["options"],
            "turn_seconds": table["turn_seconds"],
            "zombie_after": table["zombie_after"],
            "takeover_bot": takeover_bot(table),
        },
        "custom_deck": table["custom_deck"],
        "dealt_by_creator": table["dealt_by_creator"],
        # A fork starts from a finished game's position, whose log is public: anyone may
        # know every hand it began with, as a creator who chose the seed does.
        "forked_from": table.get("forked_from"),
        "position_known": table.get("forked_from") is not None,
        "seed_sha256": table["seed_sha256"],
        "result": table["result"],
        # Revealed once the game is over, so anyone can re-derive every shuffle.
        "seed": table["seed"] if finished else None,
        "seed_salt": table["seed_salt"] if finished else None,
    }


def view(table, version, seat):
    """One seat's view (seat None: the spectator's): the summary plus what the rules let
    that seat see, who must act and by when, and the commands the seat may send."""
    return views(table, version, [seat])[seat]


def views(table, version, seats):
    """{seat: view(table, version, seat)} for each of `seats` (None: the spectator's),
    the parts every seat shares (summary, who acts, deadlines, timers) made once: the
    projector writes every seat's view on every event. The views share those parts'
    lists and dicts: serialise them, do not change them."""
    rules, state = rules_of(table), table["rules"]
    active = table["status"] == "active"
    public = summary(table, version)
    shared = {
        "to_act": to_act(table),
        "deadlines": deadlines(table),
        "timers": [{"key": t["key"], "deadline": t["deadline"]} for t in table_timers(table)],
    }
    return {
        seat: {
            **public,
            "seat": seat,
            **shared,
            "legal": rules.legal(state, seat) if active and seat is not None else [],
            "state": None if state is None else rules.view(state, seat),
        }
        for seat in seats
    }
