"""The options a new table takes: those of every game (`TableOptions`), to which each
game's contract adds its own (`OPTIONS`, in `<game package>.contract`): `table_options`
makes the game's `XTableOptions`."""

from marshmallow import Schema, fields, validate

from services.api.fields import Count, Flag, Seed
from services.api.seat_specs import LEVEL
from services.api.webhook_schemas import WebhookSpec
from shared import table


class TableOptions(Schema):
    seed = Seed(
        allow_none=True,
        metadata={
            "description": "Fixes every shuffle. Drawn by the server when left out; "
            "seed_sha256 (salted by the server) is public, and the seed and its salt are "
            "revealed when the game ends. A chosen seed marks the game dealt_by_creator."
        },
    )
    deck = fields.List(
        fields.String(validate=validate.Length(min=1, max=4)),
        allow_none=True,
        validate=validate.Length(max=200),
        metadata={
            "description": "A complete ordering of the game's cards, in the order the "
            "rulebook deals (see the game's rules page). Marks the game custom_deck "
            "and dealt_by_creator."
        },
    )
    turn_seconds = Count(
        allow_none=True,
        validate=validate.Range(min=1, max=7 * 24 * 3600),
        metadata={
            "description": "Seconds a seat has to act; then the rules' default action "
            "is taken for it. None by default: no timer."
        },
    )
    zombie_after = Count(
        allow_none=True,
        validate=validate.Range(min=1, max=100),
        metadata={
            "description": "Timeouts in a row after which a bot plays the seat until "
            "its holder acts again (default 2)."
        },
    )
    takeover_bot = fields.String(
        allow_none=True,
        validate=LEVEL,
        metadata={
            "description": "The bot level that plays a seat after zombie_after timeouts, "
            f"or once resigned (default {table.TAKEOVER_BOT})."
        },
    )
    rated = Flag(
        metadata={
            "description": "A rated game: every seat a player's (open seats are claimed "
            "by players); its result moves the players' ratings (a game seating bots only "
            "where the operator sets RATE_BOT_GAMES). See the README's ratings."
        }
    )
    webhook = fields.Nested(
        WebhookSpec,
        metadata={
            "description": "The game's webhook: notifications of what a spectator may "
            "see (every seat's your_turn, the start, the end...). See docs/webhooks.md."
        },
    )


def table_options(own):
    """`XTableOptions`: the options of every game, then the game's own (`own`, a Schema
    named `XTableOptions`)."""
    # Bases in this order: marshmallow collects fields base-most first, so every game's
    # come first, then the game's own, as a subclass would have them.
    return type(own.__name__, (own, TableOptions), {"__doc__": own.__doc__})
