"""Webhook notifications, pure: what a table change tells a subscriber, and the signature.

The projector hands over the table before a batch of events and the batch itself; the
notifications of the batch are read off the table as it is folded event by event.
Each notification has a deterministic id, `<game>:<version>:<kind>:<seat or ->`, so a
re-projection or a second projector derives the same ids and delivery can drop the
duplicates. A notification is first made at the spectator's level (what anyone may
know); `for_subscriber` then gives the body one subscriber may receive: the game's
webhook gets every spectator-level notification, a seat's webhook only those about
its own seat (and the game-wide ones), with what only that seat may see (its legal
commands) added.

No Redis, clock or network here: the time of each event comes with the records.
"""

import hashlib
import hmac

from shared import table

YOUR_TURN, STARTED, ENDED, CANCELLED = "your_turn", "game_started", "game_ended", "game_cancelled"
TAKEN_OVER, TIMED_OUT = "seat_taken_over", "timed_out"
KINDS = (YOUR_TURN, STARTED, ENDED, CANCELLED, TAKEN_OVER, TIMED_OUT)
# Notifications about one seat: a seat's webhook hears only its own.
SEAT_KINDS = (YOUR_TURN, TAKEN_OVER, TIMED_OUT)
GAME = "game"  # the subscriber id of the game's webhook; a seat's is seat_subscriber(n)

SIGNATURE_HEADER = "X-Tablestream-Signature"
EVENT_ID_HEADER = "X-Tablestream-Event-Id"
TOLERANCE_SECONDS = 300  # how old a signed timestamp a receiver should accept


def seat_subscriber(seat):
    return f"seat-{seat}"


def seat_of_subscriber(subscriber):
    """The seat a subscriber id names; None for the game's webhook."""
    return None if subscriber == GAME else int(subscriber.removeprefix("seat-"))


PLAYER_PREFIX = "player-"


def player_subscriber(player_id):
    """The subscriber id of a player's webhook (one for all its games)."""
    return f"{PLAYER_PREFIX}{player_id}"


def player_of_subscriber(subscriber):
    """The player a subscriber id names; None for a game's or a seat's webhook."""
    if subscriber.startswith(PLAYER_PREFIX):
        return subscriber.removeprefix(PLAYER_PREFIX)
    return None


def player_note(player_id, item):
    """The body a player's webhook receives for one item of its inbox (the item as the
    inbox holds it, with its inbox `version`): the item with an `id` made as a game's
    notification's is (`<game>:<game version>:<kind>:<seat or ->`, the same on every
    retry and re-projection) and the player's id, so one receiving server can serve
    many players."""
    item_id = event_id(
        item.get("game_id", "-"), item.get("game_version", 0), item["kind"], item.get("seat")
    )
    return {**item, "id": item_id, "player_id": player_id}


def event_id(game_id, version, kind, seat=None):
    return f"{game_id}:{version}:{kind}:{'-' if seat is None else seat}"


def notifications(game_id, before, records):
    """The spectator-level notifications of a batch of stored events (each a
    (version, event, at) triple) folded onto `before` (None: a new game), in order;
    and the table after the batch.

    A seat's turn is notified once, at the version it began, when the seat still has
    to act at the end of the batch: a turn that began and ended inside one batch
    (e.g. a rebuild) is already over and is not worth a push. Seats a bot plays get
    no `your_turn`.
    """
    notes, began = [], {}
    current = before
    acting = set(table.to_act(current)) if current is not None else set()
    for version, event, at in records:
        current = table.evolve(current, event, at)
        now = set(table.to_act(current))
        began.update({seat: version for seat in now - acting})
        acting = now
        note = _lifecycle_note(game_id, version, event, current)
        if note is not None:
            notes.append(note)
    if current is not None:
        deadlines = table.deadlines(current)
        for seat in sorted(acting):
            if seat in began and not current["seats"][seat]["bot"]:
                data = {"deadline": deadlines[seat], "to_act": sorted(acting)}
                notes.append(_note(game_id, began[seat], YOUR_TURN, seat, data))
    notes.sort(key=lambda n: n["version"])  # stable: a turn after what began it
    return notes, current


def _lifecycle_note(game_id, version, event, current):
    kind = event["type"]
    if kind == table.STARTED:
        seats = [
            {"seat": s["seat"], "name": s["name"], "bot": s["bot"]}
            for s in table.public_seats(current)
        ]
        return _note(game_id, version, STARTED, None, {"game": current["game"], "seats": seats})
    if kind == table.ENDED:
        return _note(game_id, version, ENDED, None, {"result": event["result"]})
    if kind == table.CANCELLED:
        return _note(game_id, version, CANCELLED, None, {})
    if kind == table.TAKEN_OVER:
        data = {"bot": event["bot"], "reason": event["reason"]}
        return _note(game_id, version, TAKEN_OVER, event["seat"], data)
    if kind == table.TIMED_OUT:
        return _note(game_id, version, TIMED_OUT, event["seat"], {})
    return None


def _note(game_id, version, kind, seat, data):
    return {
        "id": event_id(game_id, version, kind, seat),
        "game_id": game_id,
        "version": version,
        "kind": kind,
        "seat": seat,
        "data": data,
    }


def for_subscriber(note, subscriber, current):
    """The body `subscriber` (GAME or a seat's id) receives for `note`, made from the
    table `current` the batch ended on; None when the note is not for them."""
    seat = seat_of_subscriber(subscriber)
    if seat is None:
        return note
    if note["kind"] in SEAT_KINDS and note["seat"] != seat:
        return None
    if note["kind"] == YOUR_TURN:
        legal = table.rules_of(current).legal(current["rules"], seat)
        return {**note, "data": {**note["data"], "legal": legal}}
    return note


def sign(secret, body, timestamp):
    """The X-Tablestream-Signature value for `body` (bytes) sent at `timestamp` (whole
    seconds since the epoch): HMAC-SHA256 over "<timestamp>.<body>"."""
    message = f"{timestamp}.".encode() + body
    digest = hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


def verify(secret, header, body, now, tolerance=TOLERANCE_SECONDS):
    """True when `header` signs `body` with `secret` and its timestamp is within
    `tolerance` seconds of `now` (what a receiver checks; see docs/webhooks.md)."""
    parts = dict(p.split("=", 1) for p in header.split(",") if "=" in p)
    try:
        timestamp = int(parts["t"])
    except (KeyError, ValueError):
        return False
    if abs(now - timestamp) > tolerance:
        return False
    expected = sign(secret, body, timestamp).rsplit("v1=", 1)[1]
    return hmac.compare_digest(expected, parts.get("v1", ""))
