"""The typed answers of replays, imports and forks, one per game like the rest of the
contract: `XReplay` (a finished game's table at a version, as a seat saw it then) and
the cross-game union `Replay`, discriminated by `game`."""

from marshmallow import Schema, fields

from services.api.games import CONTRACTS
from services.api.games.contract import tag


def replay_schema(contract):
    """`XReplay` for one game's contract."""
    return type(
        f"{contract.title}Replay",
        (Schema,),
        {
            "game": tag(contract.name),
            "version": fields.Integer(
                required=True,
                metadata={
                    "description": "Replayed to: the version asked for, or the end of the "
                    "decision it falls in (a seat never saw a decision half done)."
                },
            ),
            "steps": fields.List(
                fields.Integer(),
                required=True,
                metadata={"description": "Every version a seat saw the table at, in order."},
            ),
            "at": fields.Integer(
                required=True, metadata={"description": "When that version was appended (ms)."}
            ),
            "seat": fields.Integer(
                allow_none=True,
                required=True,
                metadata={"description": "The seat replayed; null: a spectator, or everyone."},
            ),
            "view": fields.Nested(
                contract.view,
                required=True,
                metadata={"description": "The seat's view then (everyone: the spectator's)."},
            ),
            "everyone": fields.List(
                fields.Nested(contract.view),
                allow_none=True,
                required=True,
                metadata={"description": "With everyone=true: each seat's view then, all hands."},
            ),
            "events": fields.List(
                contract.event(),
                required=True,
                metadata={"description": "The log up to that version, as the seat saw it then."},
            ),
        },
    )


REPLAYS = {game: replay_schema(contract) for game, contract in CONTRACTS.items()}
