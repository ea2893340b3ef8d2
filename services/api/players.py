"""/v1/players: a player's own routes (`me`: its token or JWT only) and public
profiles. The player's facts are events in its stream (shared/players/store.py)."""

from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint

from services.api import player_schemas as schemas
from services.api.auth import bearer
from services.api.deps import POSTED, deps, errors, json_response
from services.api.errors import ApiError
from shared import jsonutil
from shared.games.base import RuleError
from shared.players import events as player_events
from shared.players import names
from shared.players import tokens as player_tokens

blp = Blueprint("players", __name__, url_prefix="/v1/players", description="Players")

PUBLIC = []
PLAYER = [{"playerToken": []}]


def player_auth():
    from flask import current_app

    return current_app.extensions["tablestream.player_auth"]


def now_ms():
    return int(deps().service.clock() * 1000)


def me():
    """The id of the player the request's bearer names (a player token or a JWT from a
    trusted issuer); 401 for none, a seat's token, or a refused one."""
    token = bearer()
    if token is None:
        raise ApiError("unauthorized", "this needs a player token: 'Authorization: Bearer ...'")
    auth = player_auth()
    if not auth.claims_player(token):
        raise ApiError("unauthorized", "this needs a player token or JWT, not a seat's token")
    return auth.player_of(token, now_ms())


def checked_name(raw):
    try:
        return names.checked(raw)
    except names.BadName as refused:
        raise ApiError("bad_name", str(refused)) from None


def token_of(player):
    return player_tokens.issue(deps().service.secret, player["id"], player["generation"])


def profile(d, player_id, player):
    """The public profile of a player (None: unknown)."""
    if player is None:
        raise ApiError("unknown_player", f"no player {player_id!r}")
    record = games_record(d, player_id)
    return {
        "id": player_id,
        "name": names.PLACEHOLDER if player["erased"] else player["name"],
        "erased": player["erased"],
        "created": player["created"],
        "games_finished": record["finished"],
        "games_abandoned": record["abandoned"],
    }


def games_record(d, player_id):
    """How many of the player's games finished, and how many it abandoned, from its
    games (the projector's read model)."""
    finished = abandoned = 0
    for raw in d.redis.hvals(d.keys.player_games(player_id)):
        entry = jsonutil.loads(raw)
        if entry["status"] == "finished":
            finished += 1
            abandoned += entry.get("abandoned", False)
    return {"finished": finished, "abandoned": abandoned}


def own(d, player_id, player):
    """What the player itself sees of itself."""
    return {
        **profile(d, player_id, player),
        "guest": player["guest"],
        "identities": player["identities"],
    }


def changed(decide):
    """Apply `decide` to the calling player; answers its own view of itself."""
    d = deps()
    player_id = me()
    try:
        player = d.players.change(player_id, decide, now_ms())
    except RuleError as error:
        raise ApiError(error.code, error.message) from None
    player_auth().forget(player_id)
    return d, player_id, player


@blp.route("")
class Players(MethodView):
    @blp.arguments(schemas.NewPlayer, error_status_code=400, example={"name": "ana"})
    @blp.response(201, schemas.PlayerToken)
    @errors(blp, *POSTED, 429)
    @blp.doc(operationId="createPlayer", security=PUBLIC)
    def post(self, body):
        """Make a guest player: its id, name and bearer token (keep the token: it is
        the player's only way back in until it is linked to an app's identity)."""
        d = deps()
        player = d.players.create(checked_name(body["name"]), now_ms())
        answer = {"id": player["id"], "name": player["name"], "token": token_of(player)}
        return json_response(answer, 201)


@blp.route("/me")
class MyPlayer(MethodView):
    @blp.response(200, schemas.Me)
    @errors(blp, 401)
    @blp.doc(operationId="getMe", security=PLAYER)
    def get(self):
        """The calling player, as it sees itself."""
        d = deps()
        player_id = me()
        _, player = d.players.load(player_id)
        return json_response(own(d, player_id, player), headers=PRIVATE)

    @blp.arguments(schemas.Rename, error_status_code=400, example={"name": "ana b."})
    @blp.response(200, schemas.Me)
    @errors(blp, 401, *POSTED)
    @blp.doc(operationId="renameMe", security=PLAYER)
    def patch(self, body):
        """Change the player's name; every view shows the new one."""
        name = checked_name(body["name"])
        d, player_id, player = changed(lambda p: player_events.rename(p, name))
        return json_response(own(d, player_id, player), headers=PRIVATE)

    @blp.response(204)
    @errors(blp, 401)
    @blp.doc(operationId="deleteMe", security=PLAYER)
    def delete(self):
        """Erase the player: its tokens stop working (within 30 seconds on every
        server), its name is gone from every view, inbox, replay and export (shown
        as "deleted player"); the games it played stay replayable."""
        d = deps()
        player_id = me()
        _, before = d.players.load(player_id)
        d, player_id, _ = changed(player_events.erase)
        for identity in before["identities"]:
            d.players.forget_identity(identity["issuer"], identity["subject"], player_id)
        return Response(status=204)


@blp.route("/me/logout")
class LogOut(MethodView):
    @blp.response(200, schemas.LoggedOut)
    @errors(blp, 401, *POSTED)
    @blp.doc(operationId="logOutEverywhere", security=PLAYER)
    def post(self):
        """Log out everywhere: every token issued so far is refused (within 30 seconds
        on every server); the answer holds the one new token."""
        _, _, player = changed(player_events.log_out)
        return json_response({"token": token_of(player)}, headers=PRIVATE)


@blp.route("/me/link")
class Link(MethodView):
    @blp.arguments(schemas.LinkIdentity, error_status_code=400)
    @blp.response(200, schemas.Me)
    @errors(blp, 401, *POSTED)
    @blp.doc(operationId="linkIdentity", security=PLAYER)
    def post(self, body):
        """Link the calling player (a guest's token) to an app's identity (a JWT from
        a trusted issuer): from now on that JWT names this player, with its games and
        record. 409 identity_linked when the identity names another player already."""
        d = deps()
        player_id = me()
        identity = player_auth().identity_of(body["token"])
        named = d.players.claim_identity(*identity, player_id)
        if named != player_id:
            raise ApiError("identity_linked", "that identity names another player already")
        d, player_id, player = changed(lambda p: player_events.link(p, identity))
        return json_response(own(d, player_id, player), headers=PRIVATE)


@blp.route("/<player_id>")
class PlayerProfile(MethodView):
    @blp.response(200, schemas.Profile)
    @errors(blp, 404)
    @blp.doc(operationId="getPlayer", security=PUBLIC)
    def get(self, player_id):
        """A player's public profile: name, when it was made, games finished and
        abandoned."""
        d = deps()
        if not player_tokens.valid_id(player_id):
            raise ApiError("unknown_player", f"no player {player_id!r}")
        _, player = d.players.load(player_id)
        return json_response(profile(d, player_id, player))


PRIVATE = {"Cache-Control": "private, no-cache", "Vary": "Authorization"}
