"""The building blocks of a game's API contract (`<game package>.contract`), in
marshmallow: a plain library, so a contract sits beside the rules and keeps them pure
(no Flask, Redis, clock or randomness here). services/api/games builds the typed
components and routes of each registered game from its contract (docs/design.md, "How
to add a game").

A game's contract module declares:

- `COMMANDS`: {type: Schema} of its commands, each a `Command` with `type = command_type(...)`;
- `STATE`: the Schema of the `state` of a seat's view;
- `EVENTS`: {type: Schema} of its own events, each an `Event` with `type = tag(...)`;
- `OPTIONS`: a Schema of its own table options (those of every game are added);
- `EXAMPLE`: one command, the example of its typed commands route.

Request bodies get strict fields: JSON has types, so "3" is not a number and 2.5 not a
count.
"""

from marshmallow import Schema, fields, validate

# Java's and Kotlin's `Int`, Swift's `Int32`: generators type an integer without a
# format as 32 bits, and milliseconds since the epoch (about 1.8e12) overflow them.
INT64 = {"type": "integer", "format": "int64"}


class Alternatives(fields.Raw):
    """A value documented as one of a few plain JSON schemas, e.g. a card list that a
    redacted event shows as a count: `Alternatives({"type": "integer"}, CARDS)`. With
    `name`, the choice is a component of its own, so a generator names its class
    once and a client can map it to a type of its own (docs/clients.md)."""

    def __init__(self, *alternatives, name=None, **kwargs):
        super().__init__(**kwargs)
        self.alternatives = alternatives
        self.component = name


class Count(fields.Integer):
    """A JSON integer: not "3", not 2.5, not true."""

    def __init__(self, **kwargs):
        super().__init__(strict=True, **kwargs)


class Flag(fields.Boolean):
    """A JSON true or false: not "yes", not 1."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class Seconds(fields.Float):
    """A number of seconds: a JSON number, not a string; an integer stays an integer
    (5, not 5.0); no NaN or infinity."""

    def _validated(self, value):
        if isinstance(value, str):
            raise self.make_error("invalid", input=value)
        return super()._validated(value)

    def _format_num(self, value):
        if isinstance(value, int):
            return value
        return super()._format_num(value)


def tag(value, description=None):
    """A one-valued string: a union member's discriminator."""
    metadata = {"description": description} if description else {}
    return fields.String(required=True, validate=validate.OneOf([value]), metadata=metadata)


def command_type(name):
    """A command's `type`, its discriminator."""
    return fields.String(required=True, validate=validate.OneOf([name]))


class Command(Schema):
    expected_version = Count(
        validate=validate.Range(min=0),
        metadata={
            "description": "Refuse the command (version_conflict) unless the game is "
            "still at this version."
        },
    )


class Event(Schema):
    version = fields.Integer(required=True)
    at = fields.Integer(required=True, metadata={"description": "Append time, ms since the epoch."})


def seats(**kwargs):
    return fields.List(fields.Integer(), **kwargs)


class Result(Schema):
    """A finished game's result. Every game gives `winners` (several: a shared victory)
    and `scores`; the rest is the game's own."""

    winners = seats(required=True)
    scores = fields.List(fields.Integer(), required=True)
    reason = fields.String(
        metadata={
            "description": "Alakablast: gem_target, shared_victory; Abluxxen: hand_empty, "
            "supply_empty."
        }
    )
    rounds_won = fields.List(fields.Integer(), metadata={"description": "Alebrijes."})
    round_scores = fields.List(
        fields.List(fields.Integer()),
        metadata={"description": "Alebrijes: minus points per round, per seat."},
    )
    prisons = fields.List(
        fields.List(fields.String()), metadata={"description": "Alien: each seat's prison."}
    )


def variant(game_options):
    """`variant`: the name of one of the game's on/off options, switched on. Documented
    as their enum; an unknown name is the rules' refusal (bad_options)."""
    switches = [name for name, default in game_options.items() if default is False]
    return fields.String(
        allow_none=True,
        validate=validate.Length(max=40),
        metadata={
            "enum": [*switches, None],
            "description": "Switches on one of the game's on/off options by name.",
        },
    )
