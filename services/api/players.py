"""/v1/players: a player's own routes (`me`: its token or JWT only) and public
profiles. The player's facts are events in its stream (shared/players/store.py)."""

import time

from flask import Response, current_app, request, stream_with_context
from flask.views import MethodView
from flask_smorest import Blueprint

from services.api import cursors, webhook_schemas
from services.api import player_schemas as schemas
from services.api.apidoc import POSTED, errors
from services.api.auth import bearer
from services.api.context import deps, json_response
from services.api.errors import ApiError
from services.api.fields import INT64
from services.api.limits import LONGEST_LEASE, lease, open_wait
from services.api.webhooks import checked_url
from services.webhooks.subscriptions import PlayerSubscriptions, new_secret
from shared import jsonutil
from shared.games.base import RuleError
from shared.players import events as player_events
from shared.players import names
from shared.players import tokens as player_tokens
from shared.players.names import PLACEHOLDER
from shared.players.store import Inbox
from shared.store import FEED_MAXLEN

blp = Blueprint("players", __name__, url_prefix="/v1/players", description="Players")

PUBLIC = []
PLAYER = [{"playerToken": []}]


def player_auth():
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


def claims_player_token():
    """Whether the request's bearer is a player's token or JWT (valid or not)."""
    token = bearer()
    return token is not None and player_auth().claims_player(token)


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


def renamed_in(d, game_ids):
    """Ask the projectors to write these games' read models again with their players'
    names as they are now (a rename, an erasure): a notification on the feed marked
    `names`, which projects no event (services/projector/players.py, `refresh`)."""
    pipe = d.redis.pipeline(transaction=False)
    for game_id in game_ids:
        feed = d.keys.feed(d.store.partition(game_id))
        pipe.xadd(feed, {"g": game_id, "names": "1"}, maxlen=FEED_MAXLEN, approximate=True)
    if game_ids:
        pipe.execute()


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
        d.player_names.forget(player_id)
        renamed_in(d, [g.decode() for g in d.redis.hkeys(d.keys.player_games(player_id))])
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
        games = d.redis.hkeys(d.keys.player_games(player_id))  # before they are dropped
        d.matchmaking.cancel_all(player_id, now_ms())  # nobody seats an erased player
        try:
            d.players.erase(player_id, now_ms())
        except RuleError as error:
            raise ApiError(error.code, error.message) from None
        player_auth().forget(player_id)
        d.player_names.forget(player_id)
        renamed_in(d, [g.decode() for g in games])
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


@blp.route("/me/webhook")
class MyWebhook(MethodView):
    @blp.arguments(webhook_schemas.PlayerWebhookSpec, error_status_code=400)
    @blp.response(201, webhook_schemas.PlayerWebhookRegistered)
    @errors(blp, 401, *POSTED)
    @blp.doc(
        operationId="registerMyWebhook",
        security=PLAYER,
        callbacks=webhook_schemas.callbacks(
            "{$request.body#/url}",
            "receivePlayerNotification",
            webhook_schemas.PlayerNotification,
        ),
    )
    def post(self, spec):
        """Register (or replace, or resume once paused) my webhook: every item of my
        inbox (your_turn, invited, game_started, game_ended, ...) of every game I am
        seated in or invited to, signed as a seat's webhook is. The answer holds the
        secret that signs them, shown only this once."""
        player_id = me()
        checked_url(spec["url"])
        events, secret = list(dict.fromkeys(spec["events"])), new_secret()
        d, _, _ = changed(lambda p: player_events.register_webhook(p, spec["url"], events, secret))
        PlayerSubscriptions(d.redis, d.keys).resume(player_id=player_id)
        answer = {"url": spec["url"], "events": events, "secret": secret}
        return json_response(answer, 201, headers=PRIVATE)

    @blp.response(204)
    @errors(blp, 401)
    @blp.doc(operationId="removeMyWebhook", security=PLAYER)
    def delete(self):
        """Remove my webhook; nothing more is sent to it."""
        changed(player_events.remove_webhook)
        return Response(status=204)


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


@blp.route("/me/games")
class MyGames(MethodView):
    @blp.arguments(schemas.GamesQuery, location="query", error_status_code=400)
    @blp.response(200, schemas.MyGames)
    @errors(blp, 400, 401)
    @blp.doc(operationId="getMyGames", security=PLAYER)
    def get(self, query):
        """My games: those where I must act first (soonest deadline first), then by
        the last move, newest first; invitations among them until accepted or
        declined. `status` and `turn=mine` filter; `limit` a page, `cursor` the next."""
        d = deps()
        player_id = me()
        inbox = Inbox(d.redis, d.keys)
        entries = inbox.games(player_id)
        if "status" in query:
            entries = [e for e in entries if e["status"] == query["status"]]
        if query.get("turn") == "mine":
            entries = [e for e in entries if e["my_turn"]]
        entries.sort(key=_order)
        start = cursors.offset("o", query.get("cursor"))
        page = entries[start : start + query["limit"]]
        more = start + query["limit"] < len(entries)
        names = d.player_names.names(
            {o["player"] for e in page for o in e["others"] if o["player"]}
        )
        for entry in page:
            for other in entry["others"]:
                if other["player"]:
                    other["name"] = names.get(other["player"], PLACEHOLDER)
        answer = {
            "games": page,
            "next_cursor": cursors.cursor("o", start + query["limit"]) if more else None,
            "inbox_version": inbox.version(player_id),
        }
        return json_response(answer, headers=PRIVATE)


def _order(entry):
    """Where I must act first, soonest deadline first (none last); then the last move,
    newest first; the id last, so the order is total and pages do not overlap."""
    deadline = entry["deadline"]
    return (
        not entry["my_turn"],
        deadline is None,
        deadline or 0,
        -entry["last_move_at"],
        entry["id"],
    )


def inbox_watcher():
    return current_app.extensions["tablestream.inbox_watcher"]


@blp.route("/me/inbox")
class MyInbox(MethodView):
    @blp.arguments(schemas.InboxQuery, location="query", error_status_code=400)
    @blp.response(200, schemas.Inbox)
    @errors(blp, 400, 401, 429)
    @blp.doc(operationId="getMyInbox", security=PLAYER)
    def get(self, query):
        """My inbox's items after version `after` (your_turn, invited, game_started,
        game_ended, ...), for every game I am seated in or invited to. With `wait`, a
        long-poll: answers as soon as an item comes, or with none after `wait`
        seconds (at most 30)."""
        d = deps()
        player_id = me()
        inbox = Inbox(d.redis, d.keys)
        after, limit = query["after"], query["limit"]
        with inbox_watcher().watching(player_id, after) as waiter:
            version, items = inbox.items(player_id, after, limit)
            if not items and query["wait"] > 0:
                with open_wait(query["wait"]):
                    came = waiter.wait(query["wait"], lambda: inbox.version(player_id), version)
                if came:
                    version, items = inbox.items(player_id, after, limit)
        return json_response({"version": version, "items": items}, headers=PRIVATE)


KEEPALIVE = 15.0
LONGEST = 3600.0  # then the client reconnects with Last-Event-ID


@blp.route("/me/stream")
class MyStream(MethodView):
    @blp.doc(
        security=PLAYER,
        operationId="streamMyInbox",
        parameters=[
            {"in": "header", "name": "Last-Event-ID", "required": False,
             "schema": {**INT64, "minimum": 0, "maximum": 2**53},
             "description": "Resume after this inbox version (sent by EventSource)."},
            {"in": "query", "name": "after", "required": False,
             "schema": {**INT64, "minimum": 0, "maximum": 2**53},
             "description": "Resume after this inbox version."},
        ],
        responses={
            "200": {
                "description": "Server-Sent Events, one per inbox item: `id: <inbox "
                "version>`, `event: <kind>`, `data: <the item, JSON: an InboxItem>`; "
                "`: keep-alive` comments every 15 s.",
                "content": {"text/event-stream": {"schema": {"type": "string"}}},
            }
        },
    )  # fmt: skip
    @errors(blp, 400, 401, 429)
    def get(self):
        """My inbox, live: one connection for all my games."""
        d = deps()
        player_id = me()
        after = _resume_point()
        held = lease(LONGEST_LEASE)
        items = _items(d, player_id, after, held)
        response = Response(stream_with_context(items), mimetype="text/event-stream")
        response.headers["X-Accel-Buffering"] = "no"
        response.headers.update(PRIVATE)
        response.call_on_close(held.release)
        return response


def _resume_point():
    raw = request.headers.get("Last-Event-ID") or request.args.get("after") or "0"
    if not (raw.isascii() and raw.isdigit() and int(raw) <= 2**53):
        raise ApiError("bad_request", "Last-Event-ID and after are inbox versions (0 or more)")
    return int(raw)


def _items(d, player_id, after, held):
    inbox = Inbox(d.redis, d.keys)
    yield "retry: 2000\n\n"
    stop_at = time.monotonic() + LONGEST
    renew_at = time.monotonic() + KEEPALIVE
    while time.monotonic() < stop_at:
        if time.monotonic() > renew_at:
            held.renew(LONGEST_LEASE)
            renew_at = time.monotonic() + KEEPALIVE
        with inbox_watcher().watching(player_id, after) as waiter:
            version, items = inbox.items(player_id, after, schemas.MAX_ITEMS)
            for item in items:
                data = jsonutil.dumps(item).decode()
                yield f"id: {item['version']}\nevent: {item['kind']}\ndata: {data}\n\n"
            if items:
                after = items[-1]["version"]
                continue
            if not waiter.wait(KEEPALIVE, lambda: inbox.version(player_id), version):
                yield ": keep-alive\n\n"


PRIVATE = {"Cache-Control": "private, no-cache", "Vary": "Authorization"}
