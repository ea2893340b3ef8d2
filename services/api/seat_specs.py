"""What a seat is when a table opens or a game is forked: a union told apart by `kind`.

`SEAT_KINDS` maps each kind to its schema; a new kind of seat is one more entry (and
what the game service makes of it). A generated client gets one class per kind, and
the document says what each needs: a human's name, a bot's level and budget.

Hand-written JSON may leave `kind` out, as before it existed: then the kind is told
from the fields (`open: true`, `bot`, `name`), and the body is checked as that kind.
"""

from marshmallow import Schema, ValidationError, fields, validate

from services.api.fields import Count, Seconds, Text, Union
from shared import bots, table

NAME = validate.Length(min=1, max=40)
# A bot level's name; which levels there are is the registry's (shared.bots.registry):
# a new table's levels are checked against its game (schemas.new_game), so a plugin
# needs no change here.
LEVEL = validate.Length(min=1, max=100)
MAX_REACTION = 30  # seconds


def kind(value, description):
    return fields.String(
        required=True, validate=validate.OneOf([value]), metadata={"description": description}
    )


class HumanSeat(Schema):
    kind = kind("human", "A person's seat: it gets a bearer token.")
    name = Text(required=True, validate=NAME, metadata={"description": "The player's name."})


class BotSeat(Schema):
    kind = kind("bot", "A seat the server's bot plays.")
    bot = fields.String(
        required=True,
        validate=LEVEL,
        metadata={
            "description": "The bot's level: random, greedy (a heuristic), ismcts (a "
            "search, the strongest) or an installed plugin's; see docs/bots.md."
        },
    )
    name = Text(validate=NAME, metadata={"description": "A name to show (default: none)."})
    think_ms = Count(
        allow_none=True,
        validate=validate.Range(min=bots.MIN_THINK_MS, max=bots.MAX_THINK_MS),
        metadata={
            "description": f"The ismcts bot's time to think per decision, in ms "
            f"({bots.MIN_THINK_MS} to {bots.MAX_THINK_MS}; default {bots.THINK_MS})."
        },
    )
    reaction_seconds = Seconds(
        validate=validate.Range(min=0, max=MAX_REACTION),
        metadata={
            "description": "The bot's delay before it claims or stacks out of turn "
            f"(Alien), so a quick human can beat it. Default {table.REACTION_SECONDS}."
        },
    )


class OpenSeat(Schema):
    kind = kind("open", "A seat left for someone to claim (POST .../seats/{seat}).")


class PlayerSeat(Schema):
    kind = kind("player", "A seat held by a player (docs/players.md): the name is theirs.")
    player = fields.String(
        required=True,
        validate=validate.Length(min=1, max=64),
        metadata={
            "description": '"me": the seat is the creator\'s player (its player token as '
            "the bearer); a player's id: an invitation, the seat reserved for that player "
            "until it accepts (the game starts once every seat is taken and accepted)."
        },
    )


SEAT_KINDS = {"human": HumanSeat, "bot": BotSeat, "open": OpenSeat, "player": PlayerSeat}
_SCHEMAS = {name: schema() for name, schema in SEAT_KINDS.items()}


SHAPES = (
    "a seat is {kind: human, name}, {kind: bot, bot} (with an optional name), "
    "{kind: open} or {kind: player, player}"
)


def told_kind(spec):
    """The kind of a seat spec sent without `kind`, told from its fields as before
    kinds existed; `open` (true or false) is taken out of `spec`."""
    open_seat = spec.pop("open", False)
    if not isinstance(open_seat, bool):
        raise ValidationError("open is true or false", "open")
    if "player" in spec and not open_seat:
        return "player"  # alone: any other field is refused as the player kind's
    if open_seat and not ({"name", "bot"} & spec.keys()):
        return "open"
    if not open_seat and "bot" in spec:
        return "bot"
    if not open_seat and "name" in spec:
        return "human"
    raise ValidationError(SHAPES)


class SeatSpec(Union):
    """One seat of a new table, checked as its kind's schema. Loads as the game
    service takes a seat: {"name"}, {"bot", "think_ms"?, "name"?, ...} or {"open": true}."""

    def __init__(self, **kwargs):
        super().__init__("SeatSpec", SEAT_KINDS, discriminator="kind", **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, dict):
            raise ValidationError("a seat is a JSON object")
        spec = dict(value)
        name = spec.get("kind")
        if name is None:
            name = spec["kind"] = told_kind(spec)
        schema = _SCHEMAS.get(name) if isinstance(name, str) else None
        if schema is None:
            raise ValidationError(f"kind is one of {', '.join(SEAT_KINDS)}", "kind")
        loaded = schema.load(spec)
        loaded.pop("kind")
        if name == "open":
            loaded["open"] = True
        if name == "bot" and "think_ms" in loaded and loaded["think_ms"] is None:
            loaded.pop("think_ms")
        return loaded
