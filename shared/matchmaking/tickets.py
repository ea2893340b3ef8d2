"""A queue's events and their fold: pure, so a rebuild folds the stream to the same
queue the scripts wrote (shared/matchmaking/store.py).

A queue is one game, option set, rated flag and turn time: tickets match only within
their queue. Its id is a digest of those, so every process names the same queue for
the same request, and a ticket's id starts with its queue's id, so a ticket's keys are
found from its id alone and share the queue's hash tag.

Events, each in the queue's stream:
- `ticket_opened` {ticket}: the whole ticket, status waiting;
- `tickets_matched` {game_id, seats: {ticket id: seat}, bots: [level per bot seat]};
- `ticket_cancelled` {ticket: id}, `ticket_expired` {ticket: id}.
"""

import hashlib
import re
import secrets

from shared import jsonutil

WAITING, MATCHED, CANCELLED, EXPIRED = "waiting", "matched", "cancelled", "expired"
OPENED, GROUP_MATCHED = "ticket_opened", "tickets_matched"
ENDED = {"ticket_cancelled": CANCELLED, "ticket_expired": EXPIRED}
MAX_OPEN = 5  # tickets a player holds at once
DEFAULT_EXPIRES = 24 * 3600  # seconds a ticket waits, unless it asks otherwise
MIN_EXPIRES, MAX_EXPIRES = 60, 7 * 24 * 3600
_TICKET_ID = re.compile(r"^([0-9a-f]{16})-[0-9a-f]{16}$")


def queue_of(game, options, rated, turn_seconds):
    """The queue's description and id: tickets of one queue are compatible but for
    their player counts and ratings."""
    queue = {"game": game, "options": options, "rated": rated, "turn_seconds": turn_seconds}
    digest = hashlib.sha256(jsonutil.dumps(queue)).hexdigest()[:16]
    return digest, queue


def new_ticket_id(queue_id):
    return f"{queue_id}-{secrets.token_hex(8)}"


def queue_id_of(ticket_id):
    """The queue a ticket id names, or None when it is not a ticket id."""
    found = _TICKET_ID.match(ticket_id or "")
    return found.group(1) if found else None


def ticket(ticket_id, queue_id, queue, player, players, bots, at, expires_seconds,
           rating=None, abandoner=False):  # fmt: skip
    """A new ticket, waiting. `players` is [min, max]; `bots` {after_seconds, level} or
    None; `rating` the player's displayed rating of the game (None: unrated)."""
    return {
        "id": ticket_id,
        "queue": queue_id,
        "game": queue["game"],
        "options": queue["options"],
        "rated": queue["rated"],
        "turn_seconds": queue["turn_seconds"],
        "player": player,
        "players": list(players),
        "bots": bots,
        "rating": rating,
        "abandoner": abandoner,
        "status": WAITING,
        "opened_at": at,
        "expires_at": at + expires_seconds * 1000,
        "ended_at": None,
        "game_id": None,
        "seat": None,
    }


def ended(doc, status, at, game_id=None, seat=None):
    """The ticket once over: matched (with its game and seat), cancelled or expired."""
    return {**doc, "status": status, "ended_at": at, "game_id": game_id, "seat": seat}


def opened(doc):
    return {"type": OPENED, "ticket": doc}


def matched(game_id, seats, bots):
    """One group's match: {ticket id: seat} and the bots' levels."""
    return {"type": GROUP_MATCHED, "game_id": game_id, "seats": seats, "bots": bots}


def cancelled(ticket_id):
    return {"type": "ticket_cancelled", "ticket": ticket_id}


def expired(ticket_id):
    return {"type": "ticket_expired", "ticket": ticket_id}


def evolve(tickets, event, at):
    """Fold one event (appended at `at`, ms) into {ticket id: ticket}, in place;
    returns the tickets it changed."""
    kind = event["type"]
    if kind == OPENED:
        doc = event["ticket"]
    elif kind == GROUP_MATCHED:
        changed = []
        for ticket_id, seat in event["seats"].items():
            doc = ended(tickets[ticket_id], MATCHED, at, event["game_id"], seat)
            tickets[ticket_id] = doc
            changed.append(doc)
        return changed
    else:
        doc = ended(tickets[event["ticket"]], ENDED[kind], at)
    tickets[doc["id"]] = doc
    return [doc]


def fold(entries):
    """{ticket id: ticket} from (event, at) pairs, oldest first."""
    tickets = {}
    for event, at in entries:
        evolve(tickets, event, at)
    return tickets
