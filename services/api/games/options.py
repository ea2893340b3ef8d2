"""The options a new table takes: those of every game (`TableOptions`), which each
game's schema (`XTableOptions`, in the game's module) extends with its own."""

from marshmallow import Schema, fields, validate

from services.api.fields import Count, Flag, Seed
from services.api.seat_specs import LEVEL
from services.api.webhook_schemas import WebhookSpec
from shared import table


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


DECK_DOC = (
    "A complete ordering of the game's cards, in the order the rulebook deals (see the "
    "game's rules page). Marks the game custom_deck and dealt_by_creator."
)


def deck(cards, code):
    """A game's `deck` option: `cards` (the game's, each once) in some order, each a card
    code as the JSON schema `code` says it ({"pattern": ...} or {"enum": [...]}).
    Documented only: any other deck is the rules' refusal (bad_options), which the
    document's count and codes say in part (not how many of each code)."""
    return fields.List(
        fields.String(validate=validate.Length(min=1, max=4), metadata=code),
        allow_none=True,
        validate=validate.Length(max=200),
        metadata={"description": DECK_DOC, "minItems": len(cards), "maxItems": len(cards)},
    )


class TableOptions(Schema):
    seed = Seed(
        allow_none=True,
        metadata={
            "description": "Fixes every shuffle. Drawn by the server when left out; "
            "seed_sha256 (salted by the server) is public, and the seed and its salt are "
            "revealed when the game ends. A chosen seed marks the game dealt_by_creator."
        },
    )
    # Each game's options name its own deck (deck()); this one is the generic check.
    deck = fields.List(
        fields.String(validate=validate.Length(min=1, max=4)),
        allow_none=True,
        validate=validate.Length(max=200),
        metadata={"description": DECK_DOC},
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
