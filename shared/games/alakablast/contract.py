"""Alakablast's API contract (shared/games/schema.py): its commands, the state of its views,
its events and options, from which services/api/games builds its typed routes and
components. Rules: docs/rules/alakablast.md."""

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from shared.games import alakablast
from shared.games.alakablast import cards
from shared.games.schema import INT64, Alternatives, Command, Event, command_type, tag

SPELL = validate.OneOf(sorted(set(alakablast.CARDS)))
DIMENSION = validate.OneOf(list(cards.DIMENSIONS))
KIND = validate.OneOf(list(cards.DUEL_KINDS))
POSITION = validate.Range(min=0)
SEAT = validate.Range(min=0, max=alakablast.PLAYERS.stop - 2)


class AlakablastClaim(Schema):
    """What the asker believes of the card: exactly one of `element` and `power`.
    Only W, F, P and 1..6 can be right; L, S, 0 and 7 are refused as illegal moves."""

    element = fields.String(validate=validate.OneOf(list(cards.ELEMENTS)))
    power = fields.Integer(strict=True, validate=validate.Range(min=0, max=7))

    @validates_schema
    def exactly_one(self, data, **kwargs):
        if len(data) != 1:
            raise ValidationError('a claim is {"element": letter} or {"power": number}')


class AlakablastAsk(Command):
    type = command_type("ask")
    card = fields.Integer(
        strict=True,
        required=True,
        validate=POSITION,
        metadata={"description": "A position in your hand: one of your open cards."},
    )
    informant = fields.Integer(
        strict=True, required=True, validate=SEAT, metadata={"description": "Another seat."}
    )
    claim = fields.Nested(
        AlakablastClaim,
        allow_none=True,
        metadata={"description": "Optional: only about a card you have been told nothing of."},
    )


class AlakablastInform(Command):
    type = command_type("inform")
    dimension = fields.String(required=True, validate=DIMENSION)


class AlakablastDuel(Command):
    type = command_type("duel")
    rival = fields.Integer(strict=True, required=True, validate=SEAT)
    kind = fields.String(required=True, validate=KIND)
    card = fields.Integer(
        strict=True,
        validate=POSITION,
        metadata={
            "description": "The clue's card: a position in the rival's hand (one of their "
            "open cards). With `dimension`; both left out when no clue can be given."
        },
    )
    dimension = fields.String(validate=DIMENSION)

    @validates_schema
    def clue_is_whole(self, data, **kwargs):
        if ("card" in data) != ("dimension" in data):
            raise ValidationError("a duel's clue needs both card and dimension, or neither")


class AlakablastChoose(Command):
    type = command_type("choose")
    card = fields.Integer(
        strict=True,
        required=True,
        validate=POSITION,
        metadata={"description": "A position in your hand as it is now."},
    )


COMMANDS = {
    "ask": AlakablastAsk,
    "inform": AlakablastInform,
    "duel": AlakablastDuel,
    "choose": AlakablastChoose,
}


PER_SEAT = fields.List(fields.Integer(), required=True)


class AlakablastTold(Schema):
    """What a card's owner has been told of it (public)."""

    element = fields.String(
        allow_none=True, required=True, validate=validate.OneOf(["W", "F", "P"])
    )
    power = fields.Integer(allow_none=True, required=True, validate=validate.Range(min=1, max=6))
    special = fields.Boolean(required=True, metadata={"description": "Light or shadow."})


class AlakablastCard(Schema):
    open = fields.Boolean(required=True)
    spell = fields.String(
        allow_none=True,
        required=True,
        validate=SPELL,
        metadata={"description": "null when this seat may not see it."},
    )
    told = fields.Nested(
        AlakablastTold,
        allow_none=True,
        required=True,
        metadata={"description": "null for hidden cards."},
    )


class AlakablastQuestion(Schema):
    asker = fields.Integer(required=True)
    informant = fields.Integer(required=True)
    card = fields.Integer(required=True, metadata={"description": "In the asker's hand."})
    claim = fields.Nested(AlakablastClaim, allow_none=True, required=True)


class AlakablastPlayed(Schema):
    attacker = fields.List(fields.String(validate=SPELL), required=True)
    rival = fields.List(fields.String(validate=SPELL), required=True)


class AlakablastDuelState(Schema):
    attacker = fields.Integer(required=True)
    rival = fields.Integer(required=True)
    kind = fields.String(required=True, validate=KIND)
    stake = fields.Integer(
        required=True, metadata={"description": "Gems to the winner of the next showdown."}
    )
    played = fields.Nested(
        AlakablastPlayed,
        required=True,
        metadata={"description": "Cards revealed in earlier tied showdowns."},
    )
    chosen = fields.List(
        fields.Integer(), required=True, metadata={"description": "The seats that have chosen."}
    )
    choice = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "Your chosen position; null when not chosen or not a duelist."},
    )


class AlakablastResult(Schema):
    winners = fields.List(fields.Integer(), required=True)
    scores = fields.List(fields.Integer(), required=True, metadata={"description": "Gems."})
    reason = fields.String(required=True, validate=validate.OneOf(["gem_target", "shared_victory"]))


class AlakablastState(Schema):
    """What one seat (or a spectator) sees of an Alakablast game."""

    game = fields.String(required=True, validate=validate.OneOf(["alakablast"]))
    players = fields.Integer(required=True)
    seat = fields.Integer(allow_none=True, required=True)
    phase = fields.String(
        required=True, validate=validate.OneOf(["waiting", "turn", "answer", "duel", "over"])
    )
    turn = fields.Integer(allow_none=True, required=True)
    turn_number = fields.Integer(required=True)
    hand_size = fields.Integer(required=True)
    target = fields.Integer(required=True, metadata={"description": "The gems that win."})
    gems = PER_SEAT
    hands = fields.List(
        fields.List(fields.Nested(AlakablastCard)),
        required=True,
        metadata={"description": "Per seat, the cards in position order: hidden, then open."},
    )
    discard_zone = fields.List(fields.String(validate=SPELL), required=True)
    draw_pile = fields.Integer(required=True, metadata={"description": "How many cards."})
    question = fields.Nested(AlakablastQuestion, allow_none=True, required=True)
    duel = fields.Nested(AlakablastDuelState, allow_none=True, required=True)
    to_act = fields.List(fields.Integer(), required=True)
    result = fields.Nested(AlakablastResult, allow_none=True, required=True)


# --- events (docs/rules/alakablast.md): a hidden list of spells is its count

SPELLS_OR_COUNT = Alternatives(
    {"type": "array", "items": {"type": "string", "enum": sorted(set(alakablast.CARDS))}},
    {**INT64, "description": "How many: the spells are hidden from you."},
    name="AlakablastSpellsOrCount",
    required=True,
)
SPELLS = fields.List(fields.String(validate=SPELL), required=True)


class AlakablastDealtHand(Schema):
    hidden = SPELLS_OR_COUNT
    open = SPELLS_OR_COUNT


class AlakablastDealt(Event):
    type = tag("dealt")
    hands = fields.List(fields.Nested(AlakablastDealtHand), required=True)
    draw_pile = SPELLS_OR_COUNT
    discard_zone = SPELLS


class AlakablastTurnBegan(Event):
    type = tag("turn_began")
    turn = fields.Integer(required=True)


class AlakablastAsked(Event):
    type = tag("asked")
    seat = fields.Integer(required=True)
    card = fields.Integer(required=True)
    informant = fields.Integer(required=True)
    claim = fields.Nested(AlakablastClaim, allow_none=True, required=True)


class AlakablastClue(Schema):
    """Exactly one of: the element, the power, or `special` (light or shadow)."""

    element = fields.String(validate=validate.OneOf(list(cards.ELEMENTS)))
    power = fields.Integer()
    special = fields.Boolean()


class AlakablastInformed(Event):
    type = tag("informed")
    seat = fields.Integer(required=True, metadata={"description": "The informant."})
    target = fields.Integer(required=True, metadata={"description": "Whose card it is."})
    card = fields.Integer(required=True)
    cards = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "Every open card of the target's that the clue matches."},
    )
    clue = fields.Nested(
        AlakablastClue,
        required=True,
        metadata={"description": "Only the clue: nothing says whether a claim was right."},
    )


class AlakablastDuelDeclared(Event):
    type = tag("duel_declared")
    seat = fields.Integer(required=True)
    rival = fields.Integer(required=True)
    kind = fields.String(required=True, validate=KIND)


class AlakablastCardChosen(Event):
    type = tag("card_chosen")
    seat = fields.Integer(required=True)
    card = fields.Integer(metadata={"description": "The chooser's own position (theirs only)."})
    spell = fields.String(validate=SPELL, metadata={"description": "Once the game is over."})


class AlakablastDuelRevealed(Event):
    type = tag("duel_revealed")
    attacker = fields.Integer(required=True)
    rival = fields.Integer(required=True)
    attacker_spell = fields.String(required=True, validate=SPELL)
    rival_spell = fields.String(required=True, validate=SPELL)
    winner = fields.Integer(allow_none=True, required=True, metadata={"description": "null: tie"})


class AlakablastDuelTied(Event):
    type = tag("duel_tied")
    stake = fields.Integer(required=True)


class AlakablastDuelWon(Event):
    type = tag("duel_won")
    winner = fields.Integer(required=True)
    loser = fields.Integer(required=True)
    gems = fields.Integer(required=True)


class AlakablastCardsDiscarded(Event):
    type = tag("cards_discarded")
    cards = SPELLS


class AlakablastCardsDrawn(Event):
    type = tag("cards_drawn")
    seat = fields.Integer(required=True)
    cards = SPELLS_OR_COUNT
    open = fields.Boolean(required=True)


class AlakablastDrawPileRebuilt(Event):
    type = tag("draw_pile_rebuilt")
    draw_pile = SPELLS_OR_COUNT


class AlakablastGameOver(Event):
    type = tag("game_over")
    winners = fields.List(fields.Integer(), required=True)
    scores = PER_SEAT
    reason = fields.String(required=True, validate=validate.OneOf(["gem_target", "shared_victory"]))


EVENTS = {
    "dealt": AlakablastDealt,
    "turn_began": AlakablastTurnBegan,
    "asked": AlakablastAsked,
    "informed": AlakablastInformed,
    "duel_declared": AlakablastDuelDeclared,
    "card_chosen": AlakablastCardChosen,
    "duel_revealed": AlakablastDuelRevealed,
    "duel_tied": AlakablastDuelTied,
    "duel_won": AlakablastDuelWon,
    "cards_discarded": AlakablastCardsDiscarded,
    "cards_drawn": AlakablastCardsDrawn,
    "draw_pile_rebuilt": AlakablastDrawPileRebuilt,
    "game_over": AlakablastGameOver,
}


class AlakablastTableOptions(Schema):
    """Alakablast has no options of its own."""


STATE, OPTIONS = AlakablastState, AlakablastTableOptions
EXAMPLE = {"type": "ask", "card": 2, "informant": 1}
