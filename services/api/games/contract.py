"""Each game's typed contract, built the same way for every game from its own schemas.

For a game `X` (Alebrijes...) this makes the components a generated client codes
against: `XCommand` (its commands, discriminated by `type`), `XEvent` (the log's
lifecycle events and the game's own, discriminated by `type`), `XView` (a seat's view
with `state: XState` and `legal: [XCommand]`), `XEventPage`, `XMoved` (the answer to
a command) and `CreateXGame` (a new table's body, with the game's `XTableOptions`).
Cross-game answers (`View`, `EventPage`, `Moved`) and the body `CreateGame` are unions
of these, discriminated by `game`. Two games' commands are never in one union, so `pass` in
Alebrijes and `pass` in Alien stay apart.
"""

from marshmallow import Schema, fields, validate

from services.api.fields import MOST_SEATS, Seed, Union
from services.api.games.options import TableOptions
from services.api.seat_specs import SeatSpec
from shared import games, table
from shared.games.schema import Event, Result, seats, tag  # noqa: F401 (the games' own)


def _in_force(field):
    """An option's field as a table's options in force show it: its JSON type only (the
    checks of a new table's body do not apply to what the table holds)."""
    for kind in (fields.Boolean, fields.Integer, fields.Float, fields.String):
        if isinstance(field, kind):
            return kind
    raise TypeError(f"an option of type {type(field).__name__} is not supported")


def _games_options():
    """{option: field} of every registered game's own options (its contract's OPTIONS),
    each described by the games that have it ("Alebrijes.")."""
    owners = {}
    for name in games.NAMES:
        for option, field in games.part(name, "contract").OPTIONS().fields.items():
            # Not `variant` (in force as the option it switches on), nor what a game
            # restates of every game's options (its `deck`, say).
            if option != "variant" and option not in TableOptions().fields:
                owners.setdefault(option, (_in_force(field), []))[1].append(name.capitalize())
    return {
        option: kind(metadata={"description": f"{', '.join(titles)}."})
        for option, (kind, titles) in owners.items()
    }


# A game's options as configured: those of each game (each has some of these, derived
# from the games' contracts), then every game's.
OptionsInForce = type(
    "OptionsInForce",
    (Schema,),
    {
        "__doc__": "A game's options as configured (each game has some of these).",
        **_games_options(),
        "turn_seconds": fields.Integer(allow_none=True),
        "zombie_after": fields.Integer(),
        "takeover_bot": fields.String(
            validate=validate.OneOf(table.BOTS),
            metadata={"description": "The bot level that plays a timed-out or resigned seat."},
        ),
    },
)


class SeatRecord(Schema):
    name = fields.String(allow_none=True, required=True)
    bot = fields.String(
        allow_none=True, required=True, metadata={"description": "The bot playing the seat."}
    )
    open = fields.Boolean(required=True)
    away = fields.Boolean(
        required=True,
        metadata={"description": "A bot plays for the holder after timeouts, until they act."},
    )
    resigned = fields.Boolean(required=True, metadata={"description": "A bot plays it for good."})
    reaction_seconds = fields.Float(
        metadata={
            "description": "On a seat a bot plays: its delay before it claims or stacks out "
            "of turn (Alien). Not on people's seats (older logs have it there too)."
        }
    )
    think_ms = fields.Integer(
        allow_none=True,
        metadata={"description": "The ismcts bot's time per decision; null: the default."},
    )
    player = fields.String(
        metadata={
            "description": "The id of the player holding the seat (GET /v1/players/{id}); "
            "only on a player's seat, whose name is the player's name now."
        }
    )
    invited = fields.Boolean(
        metadata={"description": "A player's seat reserved for it, until it accepts."}
    )


# --- lifecycle events: the same in every game's log


class ForkedFrom(Schema):
    game = fields.String(required=True, metadata={"description": "The original game's id."})
    version = fields.Integer(required=True, metadata={"description": "Its version forked."})


class ImportedFrom(Schema):
    game = fields.String(required=True, metadata={"description": "The game's id where it ran."})
    verified = fields.Boolean(
        metadata={
            "description": "true: the log is exactly this server's game `game`; false: a "
            "log from elsewhere, whose id is the uploader's word (none: an old import)."
        }
    )


class GameCreated(Event):
    type = tag(table.CREATED)
    id = fields.String(required=True)
    game = fields.String(required=True)
    seats = fields.List(fields.Nested(SeatRecord), required=True)
    options = fields.Nested(OptionsInForce, required=True)
    turn_seconds = fields.Integer(allow_none=True, required=True)
    zombie_after = fields.Integer(required=True)
    takeover_bot = fields.String(
        validate=validate.OneOf(table.BOTS),
        metadata={"description": "The bot level that plays a timed-out or resigned seat."},
    )
    custom_deck = fields.Boolean(required=True)
    dealt_by_creator = fields.Boolean(
        metadata={"description": "The creator chose the seed or the deck (none: an old log)."}
    )
    seed_sha256 = fields.String(
        required=True, metadata={"description": "sha256 of seed_salt + seed (old logs: seed)."}
    )
    seed = Seed(metadata={"description": 'Only in a finished game\'s log, as chosen (7 or "7").'})
    seed_salt = fields.String(metadata={"description": "Only in a finished game's log."})
    deck = fields.List(
        fields.String(), allow_none=True, metadata={"description": "Only once finished."}
    )
    forked_from = fields.Nested(ForkedFrom, metadata={"description": "A fork's original."})
    position = fields.Dict(
        metadata={
            "description": "A fork's position: the original's rules state at the version "
            "forked (public: the original has finished). Its draw pile is shuffled again "
            "with the fork's seed."
        }
    )
    imported_from = fields.Nested(
        ImportedFrom, metadata={"description": "An uploaded log (POST /v1/replays)."}
    )


class SeatClaimed(Event):
    type = tag(table.CLAIMED)
    seat = fields.Integer(required=True)
    name = fields.String(required=True, allow_none=True, metadata={"description": "null: a player"})
    player = fields.String(metadata={"description": "The player who claimed it."})


class SeatAccepted(Event):
    type = tag(table.ACCEPTED, "An invited player took the seat reserved for it.")
    seat = fields.Integer(required=True)


class RematchOffered(Event):
    type = tag(table.REMATCH, "A seat asked this finished game's rematch: the new game.")
    game_id = fields.String(required=True, metadata={"description": "The rematch's id."})


class SeatDeclined(Event):
    type = tag(table.DECLINED, "An invited player turned the seat down: it is open.")
    seat = fields.Integer(required=True)


class GameStarted(Event):
    type = tag(table.STARTED)


class GameEnded(Event):
    type = tag(table.ENDED)
    result = fields.Nested(Result, required=True)
    seed = Seed(required=True, metadata={"description": "Every shuffle came from it."})
    seed_salt = fields.String(
        metadata={"description": "The salt of seed_sha256, revealed with the seed."}
    )


class TimedOut(Event):
    type = tag(table.TIMED_OUT)
    seat = fields.Integer(required=True)


class SeatTakenOver(Event):
    type = tag(table.TAKEN_OVER)
    seat = fields.Integer(required=True)
    bot = fields.String(required=True)
    reason = fields.String(required=True, validate=validate.OneOf(["resigned", "timeouts"]))


class SeatReturned(Event):
    type = tag(table.RETURNED)
    seat = fields.Integer(required=True)


class GameCancelled(Event):
    type = tag(table.CANCELLED)


class GameExpired(Event):
    type = tag(table.EXPIRED, "An abandoned game called off (docs/operations.md).")
    reason = fields.String(
        required=True,
        validate=validate.OneOf(sorted(table.EXPIRY_REASONS.values())),
        metadata={"description": "no_players: nobody joined in time; idle: nobody acted."},
    )


class TimerFired(Event):
    type = tag(table.FIRED)
    key = fields.String(required=True)


class WebhookPaused(Event):
    type = tag(table.PAUSED)
    seat = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "Whose webhook kept failing and is paused; null: the game's."},
    )


LIFECYCLE_EVENTS = {
    schema._declared_fields["type"].validate.choices[0]: schema
    for schema in (
        GameCreated,
        SeatClaimed,
        GameStarted,
        GameEnded,
        TimedOut,
        SeatTakenOver,
        SeatReturned,
        GameCancelled,
        GameExpired,
        TimerFired,
        WebhookPaused,
        SeatAccepted,
        SeatDeclined,
        RematchOffered,
    )
}


class TableTimer(Schema):
    key = fields.String(required=True)
    deadline = fields.Integer(required=True, metadata={"description": "ms since the epoch"})


class PublicSeat(SeatRecord):
    seat = fields.Integer(required=True)


class Summary(Schema):
    id = fields.String(required=True)
    game = fields.String(required=True, validate=validate.OneOf(games.NAMES))
    version = fields.Integer(required=True)
    status = fields.String(
        required=True, validate=validate.OneOf(["waiting", "active", "finished", "cancelled"])
    )
    seats = fields.List(fields.Nested(PublicSeat), required=True)
    options = fields.Nested(OptionsInForce, required=True)
    custom_deck = fields.Boolean(required=True)
    dealt_by_creator = fields.Boolean(
        required=True,
        metadata={
            "description": "The creator chose the seed or the deck, so knows every hand "
            "dealt: think twice before claiming a seat."
        },
    )
    forked_from = fields.Nested(
        ForkedFrom,
        allow_none=True,
        required=True,
        metadata={"description": "A fork's original game and the version it started from."},
    )
    position_known = fields.Boolean(
        required=True,
        metadata={
            "description": "The game began from a published position (a fork of a finished "
            "game, whose log is public): anyone may know every hand it began with, though "
            "not the order of the pile still to be drawn."
        },
    )
    seed_sha256 = fields.String(
        required=True,
        metadata={"description": "sha256 of seed_salt + seed, published from the start."},
    )
    seed = Seed(
        allow_none=True,
        required=True,
        metadata={"description": "Once finished; a number when the creator chose a number."},
    )
    seed_salt = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "Once finished: the salt drawn by the server for seed_sha256."},
    )
    result = fields.Nested(Result, allow_none=True, required=True)


class ViewBase(Summary):
    seat = fields.Integer(
        allow_none=True, required=True, metadata={"description": "null: spectator"}
    )
    to_act = seats(required=True)
    deadlines = fields.List(
        fields.Integer(allow_none=True),
        required=True,
        metadata={
            "description": "Per seat, when its time to act runs out (ms since the "
            "epoch); null when it need not act or the game has no turn_seconds."
        },
    )
    timers = fields.List(
        fields.Nested(TableTimer),
        required=True,
        metadata={"description": "The table's own timers, e.g. Alien's stacking window."},
    )


class Contract:
    """The typed components of one game. `name` is the game's wire name; `example`
    the command its typed commands route shows."""

    def __init__(self, name, commands, state, events, options, example):
        title = name.capitalize()
        self.name = name
        self.title = title
        self.commands = commands
        self.state = state
        self.options = options
        self.example = example
        self.create = type(
            f"Create{title}Game",
            (Schema,),
            {
                "game": tag(name),
                "seats": fields.List(
                    SeatSpec(), required=True, validate=validate.Length(min=1, max=MOST_SEATS)
                ),
                "options": fields.Nested(options, metadata={"description": "Default: none."}),
            },
        )
        self.command = Union(f"{title}Command", commands)
        commanded = type(
            f"{title}Commanded",
            (Event,),
            {
                "type": tag(table.COMMANDED),
                "seat": fields.Integer(required=True),
                "by": fields.String(required=True, validate=validate.OneOf(["holder", "bot"])),
                "command": Union(
                    f"{title}Command",
                    commands,
                    metadata={"description": "What was sent: shown to others once it is over."},
                ),
            },
        )
        members = {**LIFECYCLE_EVENTS, table.COMMANDED: commanded, **events}
        self.events = members
        self.event = lambda **kw: Union(f"{title}Event", members, **kw)
        self.view = type(
            f"{title}View",
            (ViewBase,),
            {
                "game": tag(name),
                "legal": fields.List(
                    Union(f"{title}Command", commands),
                    required=True,
                    metadata={"description": "Every command this seat may send now, as sent."},
                ),
                "state": fields.Nested(state, allow_none=True, required=True),
                "events": fields.List(
                    self.event(),
                    metadata={
                        "description": "Only in a long-poll's answer with `until` and "
                        "`after`: what happened after `after`, as your seat may see it "
                        "(the first 100)."
                    },
                ),
            },
        )
        self.event_page = type(
            f"{title}EventPage",
            (Schema,),
            {
                "game": tag(name),
                "events": fields.List(self.event(), required=True),
                "version": fields.Integer(
                    required=True, metadata={"description": "The game's version now."}
                ),
            },
        )
        self.moved = type(
            f"{title}Moved",
            (Schema,),
            {
                "game": tag(name),
                "version": fields.Integer(required=True),
                "events": fields.List(
                    self.event(),
                    required=True,
                    metadata={"description": "What the command caused, as your seat sees it."},
                ),
                "view": fields.Nested(
                    self.view,
                    required=True,
                    metadata={"description": "Your seat's view right after the command."},
                ),
            },
        )
