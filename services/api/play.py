"""Playing a game: a seat's view, sending a command, reading the event log."""

from flask import Response, current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import ValidationError

from services.api import schemas
from services.api.auth import seat_of
from services.api.deps import deps, errors, json_response, refused
from services.api.errors import ApiError
from services.api.games import COMMAND_SCHEMAS
from services.api.limits import open_wait
from services.api.schemas import ALL_COMMANDS
from shared import jsonutil, table

blp = Blueprint("play", __name__, url_prefix="/v1/games", description="Playing a game")

BEARER = [{"seatToken": []}, {}]


def _ref(schema):
    return {"$ref": f"#/components/schemas/{schema.__name__}"}


@blp.route("/<game_id>/view")
class GameView(MethodView):
    @blp.arguments(schemas.ViewQuery, location="query", error_status_code=400)
    @blp.response(200, schemas.View)
    @blp.alt_response(304, description="Long-poll: the version did not pass `after` in time.")
    @errors(blp, 400, 401, 403, 404, 429)
    @blp.doc(security=BEARER)
    def get(self, query, game_id):
        """What the caller's seat may see (a seat token), or the spectator view (none).

        Long-poll with `after=V&wait=S`: answers as soon as the game's version passes V,
        or with 304 after S seconds (at most 30) if it has not. A game that is over
        answers at once."""
        d = deps()
        seat = seat_of(game_id, d.service.secret, required=False)
        raw = _view(d, game_id, seat)
        after = query.get("after")
        if after is None:
            return json_response(raw)
        view = jsonutil.loads(raw)
        if view["version"] > after or view["status"] in OVER:
            return json_response(raw)
        with open_wait(query["wait"]):
            moved = watcher().wait(game_id, after, query["wait"], lambda: projected(d, game_id))
        if not moved:
            return Response(status=304)
        return json_response(_view(d, game_id, seat))


OVER = ("finished", "cancelled")


def _view(d, game_id, seat):
    """The seat's view as stored JSON bytes, sent on as they are."""
    raw = d.redis.get(d.keys.view(game_id, seat))
    if raw is not None:
        return raw
    with refused():  # not projected yet: answer from the stream itself
        version, current = d.service.load(game_id)
    if seat is not None and seat >= len(current["seats"]):
        raise ApiError("forbidden", "the token's seat is not in this game")
    return jsonutil.dumps(table.view(current, version, seat))


def projected(d, game_id):
    """The version the game's read models show (0 before the projector saw it)."""
    return int(d.redis.hget(d.keys.checkpoint(game_id), "version") or 0)


def watcher():
    return current_app.extensions["tablestream.watcher"]


@blp.route("/<game_id>/commands")
class Commands(MethodView):
    @blp.doc(
        security=[{"seatToken": []}],
        requestBody={
            "required": True,
            "description": "One command of the game's; see each game's commands.",
            "content": {"application/json": {"schema": {"anyOf": [_ref(c) for c in ALL_COMMANDS]}}},
        },
    )
    @blp.response(200, schemas.Moved)
    @errors(blp, 400, 401, 403, 404, 409, 413, 415, 422, 429)
    def post(self, game_id):
        """Send one command as the token's seat. Returns the new version and the
        events it caused, as this seat may see them."""
        d = deps()
        seat = seat_of(game_id, d.service.secret, required=True)
        body = _json_object()
        with refused():
            _, current = d.service.load(game_id)
            command = _validated(current["game"], body)
            expected = command.pop("expected_version", None)
            version, records, after = d.service.command(game_id, seat, command, expected)
        events = [event_as_seen(after, r, seat) for r in records]
        return json_response({"version": version, "events": events})


def _json_object():
    if not request.is_json:
        raise ApiError("unsupported_media_type", "send the command as application/json")
    try:
        body = jsonutil.loads(request.get_data())
    except jsonutil.JSONDecodeError:
        raise ApiError("bad_request", "the body is not valid JSON") from None
    if not isinstance(body, dict) or not isinstance(body.get("type"), str):
        raise ApiError("bad_request", 'a command is a JSON object with a "type"')
    return body


def _validated(game, body):
    schema = COMMAND_SCHEMAS[game].get(body["type"])
    if schema is None:
        known = sorted(COMMAND_SCHEMAS[game])
        raise ApiError("bad_command", f"{game} has no command {body['type']!r}; try {known}")
    try:
        return schema().load(body)
    except ValidationError as error:
        raise ApiError("bad_command", "the command is not valid", error.messages) from None


def event_as_seen(current, record, seat):
    """A stored event as `seat` may see it now, with its version and append time."""
    return {**table.redact(current, record.event, seat), "version": record.version, "at": record.at}


@blp.route("/<game_id>/events")
class Events(MethodView):
    @blp.arguments(schemas.EventsQuery, location="query", error_status_code=400)
    @blp.response(200, schemas.EventPage)
    @errors(blp, 400, 401, 403, 404)
    @blp.doc(security=BEARER)
    def get(self, query, game_id):
        """The game's event log after version `after`: as the caller's seat (or a
        spectator) may see it while the game runs, whole once it has finished."""
        d = deps()
        seat = seat_of(game_id, d.service.secret, required=False)
        with refused():
            version, current = d.service.load(game_id, fresh=True)
        records = d.store.read(game_id, after=query["after"], limit=query["limit"])
        events = [event_as_seen(current, r, seat) for r in records]
        return json_response({"events": events, "version": version})
