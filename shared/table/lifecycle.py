"""The lifecycle's decisions: the events that open a table, seat players, start, time
out, hand a seat to a bot or back, play a seat's command, fire a timer, cancel, expire
and end. Each checks the table it is given and returns events (RuleError when refused);
the seed and the time come from the caller, never from here."""

import hashlib

from shared import bots, games
from shared.games.base import RuleError
from shared.table.events import (
    ACCEPTED,
    CANCELLED,
    CLAIMED,
    COMMANDED,
    CREATED,
    DECLINED,
    ENDED,
    EXPIRED,
    EXPIRY_REASONS,
    FIRED,
    PAUSED,
    REACTION_SECONDS,
    REMATCH,
    RETURNED,
    STARTED,
    TAKEN_OVER,
    TAKEOVER_BOT,
    TIMED_OUT,
)
from shared.table.folding import evolve, fold
from shared.table.queries import rules_of, rules_timers, takeover_bot

BOTS = bots.LEVELS  # the built-in levels; a plugin adds its own (shared.bots.registry)
# Options of every game, handled here rather than by the game's rules.
GENERIC_OPTIONS = (
    "seed",
    "deck",
    "variant",
    "turn_seconds",
    "zombie_after",
    "takeover_bot",
    "rated",
)
ZOMBIE_AFTER = 2


def create(game_id, game, seats, options, seed, salt=""):
    """The events that open a table: game_created, and the deal when no seat is open.

    `seats` holds {"name": ...}, {"bot": "random"}, {"open": True} or {"player": <id>}
    (with "invited": True, a seat reserved for that player until it accepts) per seat;
    a player holds at most one seat of a game; `options`
    holds the game's options and the generic ones: seed (the creator's choice, else the
    `seed` the caller drew), deck (a fixed deck order), variant (the name of one of
    the game's on/off options, switched on), turn_seconds (a seat's time to act; none by
    default), zombie_after (consecutive timeouts before a bot takes the seat over) and
    takeover_bot (the bot level that then plays it, and plays a resigned seat) and
    rated (true: a rated game, whose seats are players', open ones claimed by players;
    a bot's seat too, rated only where the operator rates bots' games).

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
    seed = chosen_seed if chosen_seed is not None else seed  # 7 stays 7 in the log
    created = {
        "type": CREATED,
        "id": game_id,
        "game": game,
        "seats": [_seat(spec, rules.NAME) for spec in seats],
        "options": configured,
        "turn_seconds": _whole_number(options, "turn_seconds", None),
        "zombie_after": _whole_number(options, "zombie_after", ZOMBIE_AFTER),
        "takeover_bot": _level(options.get("takeover_bot") or _takeover(rules.NAME), rules.NAME),
        "custom_deck": deck is not None,
        "dealt_by_creator": chosen_seed is not None or deck is not None,
        "seed_sha256": seed_sha256(seed, salt),
        "seed": seed,
        "seed_salt": salt,
        "deck": deck,
    }
    if options.get("rated") is not None:
        if not isinstance(options["rated"], bool):
            raise RuleError("bad_options", "rated is true or false")
        if options["rated"]:
            _check_rated_seats(created["seats"])
            created["rated"] = True  # only when rated: an unrated game's log is as before
    players = [seat["player"] for seat in created["seats"] if seat.get("player")]
    if len(players) != len(set(players)):
        raise RuleError("bad_request", "a player holds at most one seat of a game")
    table = evolve(None, created)
    return [created, *_start_when_full(table)]


def _check_rated_seats(seats):
    """A rated game seats players (or bots; open seats are for players to claim)."""
    for place in seats:
        if not (place.get("player") or place["bot"] or place["open"]):
            raise RuleError("rated_needs_players", "a rated game's seats are players' or bots'")


def seed_sha256(seed, salt):
    """The commitment to a game's seed published from its first event."""
    return hashlib.sha256((salt + str(seed)).encode()).hexdigest()


def _whole_number(options, name, default):
    value = options.get(name)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RuleError("bad_options", f"{name} is a whole number from 1")
    return value


def _takeover(game):
    """The default takeover level of `game`: TAKEOVER_BOT where it plays the game, else
    `random`, which plays every game (a game without a heuristic of its own)."""
    level = bots.registry.levels().get(TAKEOVER_BOT)
    return TAKEOVER_BOT if level is None or game in level.plays else "random"


def _level(level, game):
    """`level` when an installed level of that name plays `game`; else bad_request
    naming the levels that do."""
    try:
        bots.registry.get(level, game)
    except bots.UnknownLevel as error:
        raise RuleError("bad_request", str(error)) from None
    return level


def _think_ms(value, level=None):
    """A bot's budget per decision, in ms, within its level's bounds (None: the level's
    default)."""
    found = bots.registry.levels().get(level)
    low, high = (found.min_ms, found.max_ms) if found else (bots.MIN_THINK_MS, bots.MAX_THINK_MS)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RuleError("bad_request", f"think_ms is a whole number of ms from {low} to {high}")
    return value


def _seat(spec, game):
    seat = {
        "name": spec.get("name"),
        "bot": None,
        "open": False,
        "away": False,
        "resigned": False,
        "think_ms": _think_ms(spec.get("think_ms"), spec.get("bot")),
    }
    if spec.get("bot") is not None:
        level = _level(spec["bot"], game)
        # Only a bot's seat has a delay of its own; a bot that takes a person's seat over
        # reacts after the default (queries.reaction_seconds).
        reaction = spec.get("reaction_seconds")
        reaction = REACTION_SECONDS if reaction is None else reaction
        name = spec.get("name") or f"{level} bot"
        return {**seat, "name": name, "bot": level, "reaction_seconds": reaction}
    if spec.get("reaction_seconds") is not None:
        raise RuleError("bad_request", "reaction_seconds is for a bot's seat")
    if seat["think_ms"] is not None:
        raise RuleError("bad_request", "think_ms is for a bot's seat")
    if spec.get("open"):
        return {**seat, "open": True}
    if spec.get("player"):
        # A player's name is the player's (resolved when read), never in the game's log.
        invited = bool(spec.get("invited"))
        return {**seat, "name": None, "player": spec["player"], "invited": invited}
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
    if player is None and table.get("rated"):
        raise RuleError("rated_needs_players", "a rated game's seats are claimed by players")
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


def offer_rematch(table, game_id):
    """A finished game's rematch is `game_id` (no events when one was offered already:
    the table's `rematch` names it)."""
    if table["status"] != "finished":
        raise RuleError("game_not_finished", "only a finished game has a rematch")
    if table.get("rematch") is not None:
        return []
    return [{"type": REMATCH, "game_id": game_id}]


def rematch_seats(table, player=None, erased=()):
    """The seats of a finished game's rematch: bots stay bots, a named seat keeps its
    name, `player` (the one asking, if a player) keeps its seat, every other player's
    seat is an invitation; the seat of a player in `erased` is open."""
    seats = []
    for place in table["seats"]:
        holder = place.get("player")
        if holder is not None:
            if holder in erased:
                seats.append({"open": True})
            else:
                seats.append({"player": holder, "invited": holder != player})
        elif place["bot"] is not None and not (place["away"] or place["resigned"]):
            seats.append({"bot": place["bot"], "name": place["name"]})
        else:  # a human's seat (a bot may have played it at the end)
            seats.append({"name": place["name"]})
    return seats


def rematch_options(table):
    """The options of a finished game's rematch: its own and the generic ones, never
    its seed or deck (a new shuffle)."""
    return {
        **table["options"],
        "turn_seconds": table["turn_seconds"],
        "zombie_after": table["zombie_after"],
        "takeover_bot": takeover_bot(table),
    }


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
