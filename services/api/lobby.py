"""/v1/games: open a table, list the games waiting for players, a game's public
summary, cancelling a waiting game; a seat: claiming, accepting or declining an
invitation, resigning, returning."""

from flask import request
from flask.views import MethodView
from flask_smorest import Blueprint

from services.api import players, schemas, webhook_schemas
from services.api.apidoc import POSTED, doc_only, errors
from services.api.auth import bearer, holder_of, players_seat, seat_of, seat_token_for
from services.api.context import deps, json_response, refused
from services.api.errors import ApiError
from services.api.limits import count_invitations
from services.api.webhooks import game_webhook
from services.game.service import new_game_id
from shared import jsonutil, table, tokens
from shared.players import naming
from shared.players import tokens as player_tokens

blp = Blueprint("games", __name__, url_prefix="/v1/games", description="Tables and seats")

PUBLIC = []  # no token needed
# Creates a game as it stands: you against two random bots, one round, a fixed seed.
CREATE_EXAMPLE = {
    "game": "alebrijes",
    "seats": [
        {"kind": "human", "name": "ana"},
        {"kind": "bot", "bot": "random"},
        {"kind": "bot", "bot": "random"},
    ],
    "options": {"seed": 7, "rounds": 1},
}


@blp.route("")
class Games(MethodView):
    @blp.arguments(schemas.LobbyQuery, location="query", error_status_code=400)
    @blp.response(200, schemas.Lobby)
    @errors(blp, 400)
    @blp.doc(operationId="listGames", security=PUBLIC)
    def get(self, query):
        """The games waiting for players, newest first (`order=oldest`: oldest first),
        at most `limit` (200). `game` lists one game's only: each game has a lobby of
        its own, so a flood of one game's tables never hides another's."""
        d = deps()
        lobby = d.keys.lobby_of(query["game"]) if "game" in query else d.keys.lobby
        read = d.redis.zrange if query["order"] == "oldest" else d.redis.zrevrange
        ids = read(lobby, 0, query["limit"] * 2 - 1)
        pipe = d.redis.pipeline(transaction=False)
        for game_id in ids:
            pipe.get(d.keys.summary(game_id.decode()))
        found = [jsonutil.loads(raw) for raw in pipe.execute() if raw]
        # The lobby index may lag its summaries by a moment: trust the summary.
        waiting = [s for s in found if s["status"] == "waiting"]
        return json_response({"games": waiting[: query["limit"]]})

    @doc_only(blp.response(201, schemas.Created))
    @errors(blp, 401, 404, *POSTED, 429)  # 401/404: a {player} seat's token, its player
    @doc_only(
        blp.doc(
            operationId="createGame",
            security=PUBLIC,
            requestBody={
                "required": True,
                "content": {
                    "application/json": {
                        "schema": {"$ref": "#/components/schemas/CreateGame"},
                        "example": CREATE_EXAMPLE,
                    }
                },
            },
            callbacks=webhook_schemas.callbacks(
                "{$request.body#/options/webhook/url}", "receiveCreatedGameNotification"
            ),
        )
    )
    def post(self):
        """Open a table. Human seats get a bearer token each; the game starts when no
        seat is open and every invited player has accepted. A seat `{"player": "me"}`
        is the caller's player (a player token as the bearer); `{"player": "<id>"}`
        invites that player. With options.webhook, the answer holds the webhook's
        secret. The body is one game's (`CreateGame`, told apart by `game`): its
        options are that game's."""
        body = schemas.new_game(_json_object())
        d = deps()
        options = {k: v for k, v in body["options"].items() if v is not None}
        seats = players_seats(d, body["seats"])
        webhook, game_id = options.pop("webhook", None), new_game_id()
        with refused(), game_webhook(d, game_id, webhook) as registered:
            created = d.service.create(body["game"], seats, options, game_id=game_id)
        if registered is not None:
            created["webhook"] = registered
        return json_response(created, 201)


def _json_object():
    """The body as the standard library reads it (body.py has checked it is strict
    JSON): a seed of 2**70 stays a whole number, which orjson would make a float."""
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise ApiError("bad_request", "the body is a JSON object")
    return body


@blp.route("/<game_id>")
class Game(MethodView):
    @blp.response(200, schemas.Summary)
    @errors(blp, 404)
    @blp.doc(operationId="getGame", security=PUBLIC)
    def get(self, game_id):
        """A game's public summary."""
        d = deps()
        raw = d.redis.get(d.keys.summary(game_id))
        if raw is not None:
            return json_response(raw)
        with refused():  # not projected yet, or expired: answer from the stream itself
            version, current = d.service.load(game_id, fresh=True)
        return json_response(table.summary(d.player_names.named(current), version))


@blp.route("/<game_id>/seats/<int:seat>")
class Seat(MethodView):
    @blp.arguments(schemas.ClaimSeat, error_status_code=400, example={"name": "bea"})
    @blp.response(200, schemas.Claimed)
    @errors(blp, 404, *POSTED)
    @blp.doc(operationId="claimSeat", security=[{"playerToken": []}, {}])
    def post(self, body, game_id, seat):
        """Claim an open seat, by a name or, with a player's token, as that player:
        returns the seat's bearer token (a player's own token acts for it too)."""
        token = bearer()
        player = players.me() if token and players.player_auth().claims_player(token) else None
        if player is None and not body.get("name"):
            raise ApiError("bad_request", "claim a seat with a name, or with a player's token")
        with refused():
            claimed = deps().service.claim(game_id, seat, body.get("name"), player)
        return json_response(claimed)


@blp.route("/<game_id>/rematch")
class Rematch(MethodView):
    @blp.response(200, schemas.Created)
    @errors(blp, 401, 403, 404, *POSTED)
    @blp.doc(operationId="rematch", security=[{"seatToken": []}, {"playerToken": []}])
    def post(self, game_id):
        """The rematch of a finished game (a seat's token, or the player's): the same
        game, options and seats with a new seed; players stay players (every other
        player's seat is an invitation), bots stay bots, named seats get new tokens
        here. The old game's log records `rematch_offered`; asking again answers the
        same new game."""
        d = deps()
        token = bearer()
        player = None
        if token and players.player_auth().claims_player(token):
            player = players.me()
            players_seat(game_id, player)  # 403 when it holds no seat there
        else:
            seat_of(game_id, d.service.secret, required=True)
        with refused():
            _, old = d.service.load(game_id)
            held = naming.player_ids(old)
            found = d.players.loaded_many(held)
            erased = {p for p, folded in found.items() if folded is None or folded["erased"]}
            answer = d.service.rematch(game_id, player, erased)
        for seat in answer["seats"]:
            if seat.get("player"):
                seat["name"] = d.player_names.names([seat["player"]]).get(seat["player"])
        return json_response(answer)


@blp.route("/<game_id>/seats/<int:seat>/accept")
class Accept(MethodView):
    @blp.response(200, schemas.Claimed)
    @errors(blp, 401, 404, *POSTED)
    @blp.doc(operationId="acceptSeat", security=[{"playerToken": []}])
    def post(self, game_id, seat):
        """Accept the invitation to this seat (the invited player's token): returns
        the seat's token; the game starts once every seat is taken."""
        player = players.me()
        with refused():
            return json_response(deps().service.accept(game_id, seat, player))


@blp.route("/<game_id>/seats/<int:seat>/decline")
class Decline(MethodView):
    @blp.response(200, schemas.Changed)
    @errors(blp, 401, 404, *POSTED)
    @blp.doc(operationId="declineSeat", security=[{"playerToken": []}])
    def post(self, game_id, seat):
        """Decline the invitation to this seat (the invited player's token): the seat
        is open for anyone to claim."""
        player = players.me()
        with refused():
            version, _, _ = deps().service.decline(game_id, seat, player)
        return json_response({"version": version})


@blp.route("/<game_id>/cancel")
class Cancel(MethodView):
    @blp.response(200, schemas.Changed)
    @errors(blp, 401, 403, 404, *POSTED)
    @blp.doc(security=[{"seatToken": []}], operationId="cancelGame")
    def post(self, game_id):
        """Cancel a game still waiting for players (the creator's token)."""
        d = deps()
        if holder_of(game_id, d.service.secret, required=True) != tokens.CREATOR:
            raise ApiError("forbidden", "only the creator's token can cancel the game")
        with refused():
            version, _, _ = d.service.cancel(game_id)
        return json_response({"version": version})


@blp.route("/<game_id>/seats/<int:seat>/resign")
class Resign(MethodView):
    @blp.response(200, schemas.Changed)
    @errors(blp, 401, 403, 404, *POSTED)
    @blp.doc(security=[{"seatToken": []}], operationId="resignSeat")
    def post(self, game_id, seat):
        """Leave the game: a bot plays the seat to the end (the seat's token)."""
        return _by_holder(game_id, seat, deps().service.resign)


@blp.route("/<game_id>/seats/<int:seat>/return")
class Return(MethodView):
    @blp.response(200, schemas.Changed)
    @errors(blp, 401, 403, 404, *POSTED)
    @blp.doc(security=[{"seatToken": []}], operationId="returnSeat")
    def post(self, game_id, seat):
        """Take the seat back from the bot that played it after timeouts (the seat's
        token). Sending a command does the same."""
        return _by_holder(game_id, seat, deps().service.return_seat)


def _by_holder(game_id, seat, change):
    """A change only the seat's own token may make; answers the new version."""
    seat_token_for(game_id, seat, deps().service.secret)
    with refused():
        version, _, _ = change(game_id, seat)
    return json_response({"version": version})


def players_seats(d, seats):
    """The seats with each player's seat resolved: "me" to the caller's player (its
    token required), another id to an invitation of that player (who must exist)."""
    if not any(spec.get("player") for spec in seats):
        return seats
    mine = players.me() if any(spec.get("player") == "me" for spec in seats) else None
    invited = {spec["player"] for spec in seats if spec.get("player") not in (None, "me")}
    for player_id in invited:
        if not player_tokens.valid_id(player_id):
            raise ApiError("unknown_player", f"no player {player_id!r}")
    found = d.players.loaded_many(invited)
    for player_id, player in found.items():
        if player is None or player["erased"]:
            raise ApiError("unknown_player", f"no player {player_id!r}")
    if mine is None and invited and players.claims_player_token():
        mine = players.me()  # the inviter, whose invitations are counted
    count_invitations(len(invited - {mine}), mine)
    resolved = []
    for spec in seats:
        player = spec.get("player")
        if player is None:
            resolved.append(spec)
        elif player in ("me", mine):
            resolved.append({**spec, "player": mine})
        else:
            resolved.append({**spec, "invited": True})
    return resolved
