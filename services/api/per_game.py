"""The typed per-game operations: `/v1/{game}/{game_id}/view`, `.../commands` and
`.../events`, one blueprint per game.

They answer exactly what the generic `/v1/games/{game_id}/...` routes answer, but each
documents its game's own types (`AlebrijesView`, `AlebrijesCommand`...), so a client
generated for one game gets precise classes and can never send Alien's `pass` where
Alebrijes' was meant: the union of commands is per game, discriminated by `type`.
A game id of another game is a 404 here.
"""

from flask.views import MethodView
from flask_smorest import Blueprint

from services.api import replays, schemas
from services.api.apidoc import doc_only, errors, query_doc
from services.api.games import CONTRACTS
from services.api.play import (
    BEARER,
    ETAG,
    VIEW_DOC,
    VIEW_QUERY,
    command_answer,
    events_answer,
    view_answer,
    view_query,
)


def blueprint(contract):
    """The three typed operations of one game."""
    game, title = contract.name, contract.title
    blp = Blueprint(game, __name__, url_prefix=f"/v1/{game}", description=f"{title}, typed")

    @blp.route("/<game_id>/view")
    class View(MethodView):
        @query_doc(blp, VIEW_QUERY)
        @doc_only(blp.response(200, contract.view, headers=ETAG))
        @errors(blp, 400, 401, 403, 404, 429)
        @doc_only(
            blp.doc(
                security=BEARER,
                operationId=f"get{title}View",
                summary=f"A seat's view of a {title} game",
                description=VIEW_DOC,
            )
        )
        def get(self, game_id):
            return view_answer(game_id, view_query(), game)

    @blp.route("/<game_id>/commands")
    class Commands(MethodView):
        @doc_only(
            blp.doc(
                security=[{"seatToken": []}],
                operationId=f"send{title}Command",
                summary=f"Send one {title} command as the token's seat",
                description="The answer holds the events the command caused and your "
                "seat's view after them, as your seat may see them.",
                requestBody={
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {"$ref": f"#/components/schemas/{title}Command"},
                            "example": contract.example,
                        }
                    },
                },
            )
        )
        @doc_only(blp.response(200, contract.moved))
        @errors(blp, 400, 401, 403, 404, 409, 413, 415, 422, 429)
        def post(self, game_id):
            return command_answer(game_id, game)

    @blp.route("/<game_id>/events")
    class Events(MethodView):
        @blp.arguments(schemas.EventsQuery, location="query", error_status_code=400)
        @blp.response(200, contract.event_page)
        @errors(blp, 400, 401, 403, 404)
        @blp.doc(
            security=BEARER,
            operationId=f"get{title}Events",
            responses=replays.lines_doc(f"{title}EventPage"),
            summary=f"A {title} game's event log, as the caller may see it",
        )
        def get(self, query, game_id):
            return events_answer(game_id, query, game)

    return blp


BLUEPRINTS = [blueprint(contract) for contract in CONTRACTS.values()]
