"""A table: one hosted game, its seats and its lifecycle, around the game's own rules.

The lifecycle events (game_created, seat_claimed, game_started, game_ended) share the
game's stream with the rules' events; this module decides them and folds both kinds.
It is pure like the rules: the seed comes from the caller, never from here.
"""

import hashlib

from shared import games
from shared.games.base import RuleError

BOTS = ("random",)
GENERIC_OPTIONS = ("seed", "deck", "variant")
CREATED, CLAIMED, STARTED, ENDED = "game_created", "seat_claimed", "game_started", "game_ended"
LIFECYCLE = (CREATED, CLAIMED, STARTED, ENDED)


def create(game_id, game, seats, options, seed):
    """The events that open a table: game_created, and the deal when no seat is open.

    `seats` holds {"name": ...}, {"bot": "random"} or {"open": True} per seat; `options`
    holds the game's options and the generic ones: seed (already drawn by the caller
    when the creator gave none), deck (a fixed deck order) and variant (the name of one
    of the game's on/off options, switched on).
    """
    rules = games.get(game)
    game_options = {k: v for k, v in options.items() if k not in GENERIC_OPTIONS}
    variant = options.get("variant")
    if variant is not None:
        if rules.OPTIONS.get(variant) is not False:
            raise RuleError("bad_options", f"{game} has no variant {variant!r}")
        game_options[variant] = True
    configured = rules.configure(len(seats), game_options)
    deck = options.get("deck")
    if deck is not None:
        rules.check_deck(deck)
    created = {
        "type": CREATED,
        "id": game_id,
        "game": game,
        "seats": [_seat(spec) for spec in seats],
        "options": configured,
        "custom_deck": deck is not None,
        "seed_sha256": hashlib.sha256(seed.encode()).hexdigest(),
        "seed": seed,
        "deck": deck,
    }
    table = evolve(None, created)
    return [created, *_start_when_full(table)]


def _seat(spec):
    if spec.get("bot") is not None:
        if spec["bot"] not in BOTS:
            raise RuleError("bad_request", f"unknown bot {spec['bot']!r}; bots: {list(BOTS)}")
        return {"name": spec.get("name") or f"{spec['bot']} bot", "bot": spec["bot"], "open": False}
    if spec.get("open"):
        return {"name": None, "bot": None, "open": True}
    if not spec.get("name"):
        raise RuleError("bad_request", "a seat is {'name': ...}, {'bot': ...} or {'open': true}")
    return {"name": spec["name"], "bot": None, "open": False}


def claim(table, seat, name):
    """A player takes an open seat; the game starts when it was the last one."""
    if table["status"] != "waiting":
        raise RuleError("game_not_waiting", "this game is no longer waiting for players")
    if not 0 <= seat < len(table["seats"]):
        raise RuleError("unknown_seat", f"this game has seats 0 to {len(table['seats']) - 1}")
    if not table["seats"][seat]["open"]:
        raise RuleError("seat_taken", f"seat {seat} is not open")
    claimed = {"type": CLAIMED, "seat": seat, "name": name}
    return [claimed, *_start_when_full(evolve(table, claimed))]


def _start_when_full(table):
    if any(s["open"] for s in table["seats"]):
        return []
    started = {"type": STARTED}
    table = evolve(table, started)
    return [
        started,
        *_with_end(table, rules_of(table).decide(table["rules"], None, {"type": "start"})),
    ]


def play(table, seat, command):
    """The events one seat's command produces, ending the game when the rules say so."""
    if table["status"] != "active":
        raise RuleError("game_not_active", f"the game is {table['status']}")
    return _with_end(table, rules_of(table).decide(table["rules"], seat, command))


def _with_end(table, events):
    rules = rules_of(table)
    state = table["rules"]
    for event in events:
        state = rules.evolve(state, event)
    result = rules.result(state)
    if result is None:
        return events
    return [*events, {"type": ENDED, "result": result, "seed": table["seed"]}]


def rules_of(table):
    return games.get(table["game"])


def evolve(table, event):
    """Fold one event (lifecycle or rules) into the table; the input is not changed."""
    kind = event["type"]
    if kind == CREATED:
        fields = ("id", "game", "seats", "options", "custom_deck", "seed_sha256", "seed", "deck")
        return {**{f: event[f] for f in fields}, "status": "waiting", "rules": None, "result": None}
    if kind == CLAIMED:
        seats = list(table["seats"])
        seats[event["seat"]] = {"name": event["name"], "bot": None, "open": False}
        return {**table, "seats": seats}
    if kind == STARTED:
        config = {
            "players": len(table["seats"]),
            "seed": table["seed"],
            "deck": table["deck"],
            "options": table["options"],
        }
        return {**table, "status": "active", "rules": rules_of(table).initial(config)}
    if kind == ENDED:
        return {**table, "status": "finished", "result": event["result"]}
    return {**table, "rules": rules_of(table).evolve(table["rules"], event)}


def fold(events, table=None):
    """Fold a sequence of events onto a table (None: from nothing)."""
    for event in events:
        table = evolve(table, event)
    return table


def redact(table, event, seat):
    """The event as `seat` (None: a spectator) may see it. Once the game has finished the
    whole log is public."""
    if table["status"] == "finished":
        return event
    kind = event["type"]
    if kind == CREATED:
        return {k: v for k, v in event.items() if k not in ("seed", "deck")}
    if kind in LIFECYCLE:
        return event
    return rules_of(table).redact(event, seat)


def public_seats(table):
    return [
        {"seat": i, "name": s["name"], "bot": s["bot"], "open": s["open"]}
        for i, s in enumerate(table["seats"])
    ]


def summary(table, version):
    """What anyone may know of a game: the lobby entry and GET /v1/games/{id}."""
    return {
        "id": table["id"],
        "game": table["game"],
        "version": version,
        "status": table["status"],
        "seats": public_seats(table),
        "options": table["options"],
        "custom_deck": table["custom_deck"],
        "seed_sha256": table["seed_sha256"],
        "result": table["result"],
        # Revealed once the game is over, so anyone can re-derive every shuffle.
        "seed": table["seed"] if table["status"] == "finished" else None,
    }


def view(table, version, seat):
    """One seat's view (seat None: the spectator's): the summary plus what the rules let
    that seat see, who must act and the commands the seat may send."""
    rules, state = rules_of(table), table["rules"]
    active = table["status"] == "active"
    return {
        **summary(table, version),
        "seat": seat,
        "to_act": rules.to_act(state) if active else [],
        "legal": rules.legal(state, seat) if active and seat is not None else [],
        "state": None if state is None else rules.view(state, seat),
    }
