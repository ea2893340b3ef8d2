"""A table: one hosted game, its seats and its lifecycle, around the game's own rules.

The lifecycle events (created, seats claimed, started, timeouts, seats taken over by a
bot or returned, cancelled, ended) share the game's stream with the rules' events; this
module decides them and folds both kinds. It is pure like the rules: the seed and the
time of each event come from the caller, never from here.
"""

import hashlib

from shared import bots, fork, games
from shared.games.base import RuleError
from shared.games.common import clone

BOTS = bots.LEVELS
TAKEOVER_BOT = "greedy"  # the level that plays a timed-out or resigned seat by default
LEGACY_TAKEOVER_BOT = "random"  # games logged before takeover_bot existed
# Options of every game, handled here rather than by the game's rules.
GENERIC_OPTIONS = ("seed", "deck", "variant", "turn_seconds", "zombie_after", "takeover_bot")
ZOMBIE_AFTER = 2
REACTION_SECONDS = 1.5  # how long a bot takes to shout or stack, so a human can beat it
CREATED, CLAIMED, STARTED, ENDED = "game_created", "seat_claimed", "game_started", "game_ended"
TIMED_OUT, TAKEN_OVER, RETURNED = "timed_out", "seat_taken_over", "seat_returned"
CANCELLED, COMMANDED, FIRED = "game_cancelled", "commanded", "timer_fired"
PAUSED = "webhook_paused"
EXPIRED = "game_expired"
ACCEPTED, DECLINED = "seat_accepted", "seat_declined"  # a player's invitation answered
# The events the table folds itself; every other event is the rules'.
_LIFECYCLE = frozenset(
    (CREATED, CLAIMED, STARTED, ENDED, TIMED_OUT, TAKEN_OVER, RETURNED)
    + (CANCELLED, COMMANDED, FIRED, PAUSED, EXPIRED, ACCEPTED, DECLINED)
)
# Why an abandoned game expired: waiting with no seat claimed, or active with nobody acting.
EXPIRY_REASONS = {"waiting": "no_players", "active": "idle"}
LIFECYCLE = (
    CREATED,
    CLAIMED,
    STARTED,
    ENDED,
    TIMED_OUT,
    TAKEN_OVER,
    RETURNED,
    CANCELLED,
    COMMANDED,
    FIRED,
    PAUSED,
    EXPIRED,
    ACCEPTED,
    DECLINED,
)


def create(game_id, game, seats, options, seed, salt=""):
    """The events that open a table: game_created, and the deal when no seat is open.

    `seats` holds {"name": ...}, {"bot": "random"}, {"open": True} or {"player": <id>}
    (with "invited": True, a seat reserved for that player until it accepts) per seat;
    a player holds at most one seat of a game; `options`
    holds the game's options and the generic ones: seed (the creator's choice, else the
    `seed` the caller drew), deck (a fixed deck order), variant (the name of one of
    the game's on/off options, switched on), turn_seconds (a seat's time to act; none by
    default), zombie_after (consecutive timeouts before a bot takes the seat over) and
    takeover_bot (the bot level that then plays it, and plays a resigned seat).

    The public commitment is sha256(salt + seed), the salt drawn by the caller (the game
    service always draws one; simulations and tests may leave it empty) and kept secret
    with the seed until the end: an unsalted hash of a small chosen seed (4242)
    gave the seed, hence every hand, away in a millisecond. A game whose seed or deck the
    creator chose is marked `dealt_by_creator`, since its creator knows every hand.
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
    chosen_seed = options.get("seed")
    seed = str(chosen_seed) if chosen_seed is not None else seed
    created = {
        "type": CREATED,
        "id": game_id,
        "game": game,
        "seats": [_seat(spec) for spec in seats],
        "options": configured,
        "turn_seconds": _whole_number(options, "turn_seconds", None),
        "zombie_after": _whole_number(options, "zombie_after", ZOMBIE_AFTER),
        "takeover_bot": _level(options.get("takeover_bot") or TAKEOVER_BOT),
        "custom_deck": deck is not None,
        "dealt_by_creator": chosen_seed is not None or deck is not None,
        "seed_sha256": seed_sha256(seed, salt),
        "seed": seed,
        "seed_salt": salt,
        "deck": deck,
    }
    players = [seat["player"] for seat in created["seats"] if seat.get("player")]
    if len(players) != len(set(players)):
        raise RuleError("bad_request", "a player holds at most one seat of a game")
    table = evolve(None, created)
    return [created, *_start_when_full(table)]


def seed_sha256(seed, salt):
    """The commitment to a game's seed published from its first event."""
    return hashlib.sha256((salt + seed).encode()).hexdigest()


SECRET_OF_CREATED = ("seed", "seed_salt", "deck")  # revealed once the game has finished


def _whole_number(options, name, default):
    value = options.get(name)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RuleError("bad_options", f"{name} is a whole number from 1")
    return value


def _level(level):
    if level not in BOTS:
        raise RuleError("bad_request", f"unknown bot {level!r}; the levels are {', '.join(BOTS)}")
    return level


def _think_ms(value):
    """A search bot's budget per decision, in ms (None: the default, bots.THINK_MS)."""
    low, high = bots.MIN_THINK_MS, bots.MAX_THINK_MS
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RuleError("bad_request", f"think_ms is a whole number of ms from {low} to {high}")
    return value


def _seat(spec):
    seat = {
        "name": spec.get("name"),
        "bot": None,
        "open": False,
        "away": False,
        "resigned": False,
        "reaction_seconds": REACTION_SECONDS,
        "think_ms": _think_ms(spec.get("think_ms")),
    }
    if spec.get("reaction_seconds") is not None:
        seat["reaction_seconds"] = spec["reaction_seconds"]
    if spec.get("bot") is not None:
        level = _level(spec["bot"])
        return {**seat, "name": spec.get("name") or f"{level} bot", "bot": level}
    if seat["think_ms"] is not None:
        raise RuleError("bad_request", "think_ms is for a bot's seat")
    if spec.get("open"):
        return {**seat, "open": True}
    if spec.get("player"):
        # A player's name is the player's (resolved when read), never in the game's log.
        return {
            **seat,
            "name": None,
            "player": spec["player"],
            "invited": bool(spec.get("invited")),
        }
    if not spec.get("name"):
        raise RuleError("bad_request", "a seat is {'name': ...}, {'bot': ...} or {'open': true}")
    return seat


def claim(table, seat, name, player=None):
    """Someone takes an open seat: by a name, or a player (its id; its name is the
    player's); the game starts when it was the last one."""
    if table["status"] != "waiting":
        raise RuleError("game_not_waiting", "this game is no longer waiting for players")
    _check_seat(table, seat)
    if not table["seats"][seat]["open"]:
        raise RuleError("seat_taken", f"seat {seat} is not open")
    if player is not None and seat_of_player(table, player) is not None:
        raise RuleError("seat_taken", "this player holds a seat of this game already")
    claimed = {"type": CLAIMED, "seat": seat, "name": name}
    if player is not None:
        claimed = {**claimed, "name": None, "player": player}
    return [claimed, *_start_when_full(evolve(table, claimed))]


def seat_of_player(table, player):
    """The seat `player` (an id) holds in this game, accepted or invited; None."""
    for index, place in enumerate(table["seats"]):
        if place.get("player") == player:
            return index
    return None


def accept(table, seat, player):
    """An invited player takes the seat reserved for it; the game starts when no seat
    is open or reserved any more."""
    _check_invited(table, seat, player)
    accepted = {"type": ACCEPTED, "seat": seat}
    return [accepted, *_start_when_full(evolve(table, accepted))]


def decline(table, seat, player):
    """An invited player turns the seat down: it is open for anyone to claim."""
    _check_invited(table, seat, player)
    return [{"type": DECLINED, "seat": seat}]


def _check_invited(table, seat, player):
    if table["status"] != "waiting":
        raise RuleError("game_not_waiting", "this game is no longer waiting for players")
    _check_seat(table, seat)
    place = table["seats"][seat]
    if place.get("player") != player or not place.get("invited"):
        raise RuleError("not_invited", f"seat {seat} holds no invitation for this player")


def cancel(table):
    """The creator calls off a game that is still waiting for players."""
    if table["status"] != "waiting":
        raise RuleError("game_not_waiting", "only a game waiting for players can be cancelled")
    return [{"type": CANCELLED}]


def expire(table, reason):
    """An abandoned game is called off (status cancelled): `no_players` for a game that
    waited too long for its seats, `idle` for an active one where nobody acted for too
    long. How long is the server's policy; the event says which applied."""
    if EXPIRY_REASONS.get(table["status"]) != reason:
        raise RuleError("game_not_active", f"a {table['status']} game cannot expire as {reason}")
    return [{"type": EXPIRED, "reason": reason}]


def _check_seat(table, seat):
    if not 0 <= seat < len(table["seats"]):
        raise RuleError("unknown_seat", f"this game has seats 0 to {len(table['seats']) - 1}")


def _start_when_full(table):
    if any(s["open"] or s.get("invited") for s in table["seats"]):
        return []
    return opening(table)


def opening(table):
    """game_started and the deal, once every seat is taken."""
    started = {"type": STARTED}
    table = evolve(table, started)
    if table.get("forked_from") is not None:
        return [started]  # a fork starts from its position: nothing is dealt
    events = rules_of(table).decide(table["rules"], None, {"type": "start"})
    return [started, *_with_end(table, events)]


def play(table, seat, command, by="holder"):
    """The events one seat's command produces, ending the game when the rules say so.

    `by` says who sent it: the seat's "holder" (a player with the seat's token) or its
    "bot". A holder acting while a bot plays for them (or after timeouts) takes the
    seat back first; a bot may act only for a seat it plays. The command itself is
    logged first (`commanded`), so a finished game's log can be decided over again.
    """
    return play_folded(table, seat, command, by)[0]


def play_folded(table, seat, command, by="holder", at=None):
    """(`play`'s events, the table after them, appended at `at`): the events are folded
    once, for both the end-of-game check and the table a writer keeps."""
    _check_active(table)
    _check_seat(table, seat)
    place = table["seats"][seat]
    commanded = {"type": COMMANDED, "seat": seat, "by": by, "command": command}
    if by == "bot":
        if not place["bot"]:
            raise RuleError("not_your_turn", "no bot plays this seat")
        events = [commanded, *rules_of(table).decide(table["rules"], seat, command)]
        return _ending(events, fold(((e, at) for e in events), table), at)
    if place["resigned"]:
        raise RuleError("seat_resigned", "this seat was resigned; a bot plays it for good")
    returned = _returned(table, seat)
    back = fold(returned, table)
    events = [commanded, *returned, *rules_of(back).decide(back["rules"], seat, command)]
    return _ending(events, fold(((e, at) for e in events), table), at)


def _ending(events, after, at):
    """(events, after), with game_ended added and folded when the rules' state after
    them has a result."""
    result = rules_of(after).result(after["rules"])
    if result is None:
        return events, after
    ended = _ended(after, result)
    return [*events, ended], evolve(after, ended, at)


def _returned(table, seat):
    """A seat_returned event when the holder comes back from timeouts or a takeover."""
    place = table["seats"][seat]
    if place["away"] or table["timeouts"][seat]:
        return [{"type": RETURNED, "seat": seat}]
    return []


def return_seat(table, seat):
    """The holder takes the seat back from the bot that played it after timeouts."""
    _check_active(table)
    _check_seat(table, seat)
    if table["seats"][seat]["resigned"]:
        raise RuleError("seat_resigned", "this seat was resigned; a bot plays it for good")
    if not table["seats"][seat]["away"]:
        raise RuleError("seat_not_away", "the seat is already played by its holder")
    return _returned(table, seat)


def resign(table, seat):
    """The holder leaves for good: a bot plays the seat to the end."""
    _check_active(table)
    _check_seat(table, seat)
    if table["seats"][seat]["resigned"]:
        raise RuleError("seat_resigned", "this seat was already resigned")
    return [{"type": TAKEN_OVER, "seat": seat, "bot": takeover_bot(table), "reason": "resigned"}]


def webhook_paused(table, seat):
    """A webhook kept failing and is paused (seat None: the game's webhook). A note in
    the log for the players; it changes nothing at the table."""
    if table["status"] not in ("waiting", "active"):
        raise RuleError("game_not_active", f"the game is {table['status']}")
    return [{"type": PAUSED, "seat": seat}]


def time_out(table, seat):
    """The seat ran out of time: the rules' default action for it, and a bot takes the
    seat over after zombie_after timeouts in a row."""
    _check_active(table)
    rules = rules_of(table)
    if seat not in rules.to_act(table["rules"]):
        raise RuleError("not_your_turn", "the seat has nothing to do")
    timed_out = {"type": TIMED_OUT, "seat": seat}
    events = [timed_out]
    place = table["seats"][seat]
    if not place["bot"] and table["timeouts"][seat] + 1 >= table["zombie_after"]:
        takeover = {"type": TAKEN_OVER, "seat": seat, "bot": takeover_bot(table)}
        events.append({**takeover, "reason": "timeouts"})
    command = rules.timeout(table["rules"], seat)
    return [*events, *_with_end(table, rules.decide(table["rules"], seat, command))]


def fire(table, key):
    """The table's own timer `key` ran out: the command it waits for, or no events when
    the timer is gone (a window every seat stacked on)."""
    _check_active(table)
    for timer in rules_timers(table):
        if timer["key"] == key:
            events = rules_of(table).decide(table["rules"], None, timer["command"])
            return [{"type": FIRED, "key": key}, *_with_end(table, events)]
    return []


def rules_timers(table):
    """The rules' own timers now: [{"key", "seconds", "command"}] (most games: none)."""
    if table["status"] != "active":
        return []
    return getattr(rules_of(table), "table_timers", lambda state: [])(table["rules"])


def table_timers(table):
    """The table's timers now, each with its deadline (ms since the epoch)."""
    since = table["timers_since"]
    return [
        {
            "key": t["key"],
            "command": t["command"],
            "deadline": since[t["key"]] + int(t["seconds"] * 1000),
        }
        for t in rules_timers(table)
        if since.get(t["key"]) is not None
    ]


def bot_chances(table, seat):
    """What a bot in `seat` may do now: (its turn: a move to make at once, the reflexes
    it may send after its reaction delay)."""
    if table["status"] != "active":
        return False, []
    rules = rules_of(table)
    reflexes = getattr(rules, "REFLEXES", ())
    acting = seat in rules.to_act(table["rules"])
    if not reflexes:
        return acting, []
    legal = rules.legal(table["rules"], seat)
    quick = [c for c in legal if c["type"] in reflexes]
    return acting and len(quick) < len(legal), quick


def takeover_bot(table):
    """The level that plays a timed-out or resigned seat (a table folded before the
    option existed, e.g. a stored checkpoint, had random)."""
    return table.get("takeover_bot", LEGACY_TAKEOVER_BOT)


def _check_active(table):
    if table["status"] != "active":
        raise RuleError("game_not_active", f"the game is {table['status']}")


def _with_end(table, events):
    rules = rules_of(table)
    state = table["rules"]
    for event in events:
        state = rules.evolve(state, event)
    result = rules.result(state)
    return events if result is None else [*events, _ended(table, result)]


def _ended(table, result):
    ended = {"type": ENDED, "result": result, "seed": table["seed"]}
    if table["seed_salt"]:  # an old log's game had none
        ended["seed_salt"] = table["seed_salt"]
    return ended


def rules_of(table):
    return games.get(table["game"])


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
            "seed": table["seed"],
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
        if kind in _LIFECYCLE:
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


# Lifecycle events that only record something: the table is as it was (a fold of a
# table it made passes over them).
RECORDS = frozenset((COMMANDED, FIRED, PAUSED))


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


def to_act(table):
    """The seats that must act now."""
    if table["status"] != "active":
        return []
    return rules_of(table).to_act(table["rules"])


def deadlines(table):
    """Per seat, when its time to act runs out (ms since the epoch), or None."""
    seconds = table["turn_seconds"]
    since = table["acting_since"]
    if seconds is None or table["status"] != "active":
        return [None] * len(table["seats"])
    return [
        since[str(s)] + seconds * 1000 if since.get(str(s)) is not None else None
        for s in range(len(table["seats"]))
    ]


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
    return [{"seat": i, "think_ms": None, **s} for i, s in enumerate(table["seats"])]


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
