"""Playing a game: a seat's view, sending a command, reading the event log.

The routes here serve any game; services/api/per_game.py serves the same three
resources under `/v1/{game}/...` with each game's exact types. Both call the functions
below, so they answer byte for byte alike.
"""

import functools
import time

from flask import Response, current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import ValidationError

from services.api import caching, hangups, replays, schemas
from services.api.apidoc import doc_only, errors, query_doc
from services.api.auth import seat_of
from services.api.body import parsed as parsed_body
from services.api.context import deps, json_response, refused
from services.api.errors import ApiError
from services.api.games import COMMAND_SCHEMAS
from services.api.limits import open_wait
from services.api.watch import Move
from shared import checkpoint, jsonutil, table

blp = Blueprint("play", __name__, url_prefix="/v1/games", description="Playing a game")

BEARER = [{"seatToken": []}, {}]
# A seat's answers share one URL with every other seat's: caches must keep them apart.
PRIVATE = caching.SEAT_ANSWER  # a seat's own answer (caching.py decides)
OVER = ("finished", "cancelled")
# One instance for every request: webargs would build a Schema per request from a class.
VIEW_QUERY = schemas.ViewQuery()
PLAIN_NUMBER = 18  # digits: any such whole number is a version (under 2**63)

ETAG = {"ETag": {"schema": {"type": "string"}}}
NOTHING_NEW = "Nothing new: `If-None-Match`, or a long-poll ran out."
VIEW_DOC = """What the caller's seat may see (a seat token), or the spectator view (none).

Long-poll with `after=V&wait=S`: answers as soon as the game's version passes V, or
with 304 after S seconds (at most 30) if it has not. A game that is over answers at
once. The answer's `ETag` is the view's version: send it back in `If-None-Match` to
get 304 when nothing changed.

`until=turn` (with the seat's token) waits instead until the seat must act or the
game is over: a client's loop is one request a turn. With `until` (`turn` or
`change`) and `after`, the answer also holds `events`: what happened after V, as your
seat may see it (the first 100; page the rest from `/events`).

The typed per-game operation always answers a view: a wait that runs out answers the
view unchanged (no 304), and it does not look at `If-None-Match`."""


@blp.route("/<game_id>/view")
class GameView(MethodView):
    @query_doc(blp, VIEW_QUERY)
    @doc_only(blp.response(200, "View", headers=ETAG))
    @doc_only(blp.alt_response(304, description=NOTHING_NEW))
    @errors(blp, 400, 401, 403, 404, 429)
    @doc_only(blp.doc(security=BEARER, operationId="getView", description=VIEW_DOC))
    def get(self, game_id):
        """A seat's view of any game (typed per game by `game`)."""
        return view_answer(game_id, view_query())


def view_query():
    """The view's query (`ViewQuery`). `after` and `wait` given once each as plain
    digits, as clients send them, are read here; anything else goes through webargs,
    which answers what is wrong with it (400)."""
    query = {"wait": 0}  # ViewQuery's default
    for name, values in request.args.lists():
        value = values[0]
        plain = len(value) <= PLAIN_NUMBER and value.isascii() and value.isdigit()
        if len(values) > 1 or not plain:
            return _parsed(VIEW_QUERY)
        if name == "after":
            query["after"] = int(value)
        elif name == "wait" and int(value) <= schemas.MAX_WAIT:
            query["wait"] = float(value)
        else:
            return _parsed(VIEW_QUERY)
    return query


def _parsed(schema):
    """The query read by webargs, exactly as `@blp.arguments(schema, location="query",
    error_status_code=400)` reads it."""
    return blp.ARGUMENTS_PARSER.parse(schema, location="query", error_status_code=400)


def view_answer(game_id, query, game=None):
    """The caller's view as stored JSON bytes, with long-poll and If-None-Match. With
    `game` (the typed per-game route), a game of another kind is unknown here, and the
    answer is always a view: a long-poll that runs out answers the view unchanged, and
    If-None-Match is not looked at, so a generated client's success type is the view."""
    d = deps()
    seat = seat_of(game_id, d.service.secret, required=False)
    after, until = query.get("after"), query.get("until")
    if until == "turn" and seat is None:
        raise ApiError("bad_request", "until=turn waits for a seat's turn: send its token")
    if after is None and until is None:
        raw = stored_view(d, game_id, seat)
        view = _of_kind(jsonutil.loads(raw), game_id, game)
    else:
        answer = _waited(d, game_id, seat, query, game)
        if answer is None:
            return Response(status=304, headers=PRIVATE)
        raw, view = answer
        if until is not None and after is not None:
            raw = _with_events(d, game_id, seat, raw, after, view["version"])
    headers = view_headers(view["version"])
    if game is None and request.if_none_match.contains_weak(str(view["version"])):
        return Response(status=304, headers=headers)
    return json_response(raw, headers=headers)


def view_headers(version):
    """The headers of a seat's view at `version`: its ETag and what caches may keep (the
    route's and the fast path's answer)."""
    return {**PRIVATE, "ETag": f'"{version}"'}


def waits(view, after):
    """Whether a read of `view` with `?after=` waits for a newer one (a long-poll) rather
    than answer now: it is not newer than `after`, and the game goes on."""
    return after is not None and view["version"] <= after and view["status"] not in OVER


def of_kind(view, game):
    """Whether `view` is of the kind of game `game` names (None: any game)."""
    return game is None or view["game"] == game


def _waited(d, game_id, seat, query, game):
    """(stored view, its value) once the long-poll's wait is over: when the version
    passes `after` (with `until=turn`: when the seat must act), when the game is over,
    or when `wait` runs out. None when it ran out on the generic route (its 304)."""
    after, until = query.get("after"), query.get("until")

    def done(view):
        if view["status"] in OVER:
            return True
        if until == "turn":
            # The stored view may lag the stream (a move of the seat's own not yet
            # projected): its turn is the current view's, not a stale one's.
            return seat in view["to_act"] and view["version"] >= d.store.version(game_id)
        return after is None or view["version"] > after

    deadline = time.monotonic() + query["wait"]
    seen = after
    if seen is None:  # nothing to wait past yet: what is there now
        raw = stored_view(d, game_id, seat)
        view = _of_kind(jsonutil.loads(raw), game_id, game)
        if done(view):
            return raw, view
        seen = view["version"]
    while True:
        # Registered before the read: a move in between is not missed. A long-poll
        # that waits costs two round trips (the view, then the new view), one that
        # finds its version passed one.
        with watcher().watching(game_id, seen) as waiter:
            raw = stored_view(d, game_id, seat)
            view = _of_kind(jsonutil.loads(raw), game_id, game)
            if done(view):
                return raw, view
            left = deadline - time.monotonic()
            # A stored view is written with the checkpoint's version (the projector's
            # write script), so its version is the projected one; one answered from
            # the stream is at least as new. Either says whether to wait.
            moved = view["version"] > seen  # newer, but not yet the seat's turn
            if not moved and left > 0:
                with open_wait(left):
                    version_now = functools.partial(projected, d, game_id)
                    gone = hangups.watch(request.environ)  # its place is given back then
                    moved = waiter.wait(left, version_now, view["version"], gone)
        if not moved:
            return (raw, view) if game is not None else None
        seen = max(seen, view["version"])


def _with_events(d, game_id, seat, raw, after, version):
    """The stored view `raw` with `events`: what happened after `after` up to the
    view's `version`, as the seat may see it, the first MOST_EVENTS of them."""
    with refused():
        _, current = d.service.load(game_id, fresh=True)
    records = d.store.read(game_id, after=after, limit=schemas.MOST_EVENTS)
    events = [event_as_seen(current, r, seat) for r in records if r.version <= version]
    return raw[:-1] + b',"events":' + jsonutil.dumps(events) + b"}"


def _of_kind(view, game_id, game):
    """`view`, unless `game` names another kind of game than the view's."""
    if not of_kind(view, game):
        raise ApiError("unknown_game", f"{game_id} is a game of {view['game']}, not {game}")
    return view


def stored_view(d, game_id, seat):
    """The seat's view as stored JSON bytes, sent on as they are (the view GET and the
    WebSocket's pushes)."""
    raw = d.redis.get(d.keys.view(game_id, seat))
    if raw is not None:
        return raw
    # Not projected yet, or over and its read models expired (services/projector/
    # retention.py): answer from the stream itself, up to its last event.
    with refused():
        version, current = d.service.load(game_id, fresh=True)
    if seat is not None and seat >= len(current["seats"]):
        raise ApiError("forbidden", "the token's seat is not in this game")
    return jsonutil.dumps(table.view(d.player_names.named(current), version, seat))


def stored_view_and_records(d, game_id, seat, after, limit):
    """(the seat's stored view as JSON bytes, the records after version `after`, at most
    `limit`) in one round trip: a WebSocket push needs both. The records may reach past
    the view's version (the projector has not caught up): the caller keeps those for
    later."""
    pipe = d.redis.pipeline(transaction=False)
    pipe.get(d.keys.view(game_id, seat))
    d.store.queue_read(pipe, game_id, after, limit)
    raw, entries = pipe.execute()
    if raw is None:
        raw = stored_view(d, game_id, seat)
    return raw, d.store.records(entries)


def projected(d, game_id):
    """The version the game's read models show (0 before the projector saw it)."""
    return checkpoint.version(d.redis, d.keys, game_id)


def watcher():
    return current_app.extensions["tablestream.watcher"]


@blp.route("/<game_id>/commands")
class Commands(MethodView):
    @doc_only(
        blp.doc(
            security=[{"seatToken": []}],
            operationId="sendCommand",
            requestBody={
                "required": True,
                "description": "One command of the game's, as its view's `legal` lists "
                "them. The typed operations `POST /v1/{game}/{game_id}/commands` take each "
                "game's commands exactly.",
                "content": {
                    "application/json": {
                        "schema": {"$ref": "#/components/schemas/AnyCommand"},
                        "example": {"type": "exchange", "cards": []},
                    }
                },
            },
        )
    )
    @doc_only(blp.response(200, "Moved"))
    @errors(blp, 400, 401, 403, 404, 409, 413, 415, 422, 429)
    def post(self, game_id):
        """Send one command of any game as the token's seat."""
        return command_answer(game_id)


def command_answer(game_id, game=None):
    """Apply the request's command as the token's seat. The answer carries the new
    version, the events it caused and the seat's view after them, as the seat may see
    them: the writer has the table in hand, so the caller needs no second request."""
    d = deps()
    seat = seat_of(game_id, d.service.secret, required=True)
    value = moved(d, game_id, seat, json_object(), game, told=watcher())
    return json_response(value, headers=PRIVATE)


def moved(d, game_id, seat, body, game=None, told=None, besides=None):
    """Apply `body`, a JSON object read from the request, as `seat`'s command: the
    answer's value (services/api/fast_path.py answers with it too). `told`: this
    process's Watcher, whose sockets on the game, but its follower `besides`, are
    pushed the move at once (`Watcher.tell`). Raises ApiError."""
    if not isinstance(body.get("type"), str):
        raise ApiError("bad_request", 'a command is a JSON object with a "type"')
    with refused():
        _, current = d.service.load(game_id)
        if game is not None and current["game"] != game:
            raise ApiError("unknown_game", f"{game_id} is a game of {current['game']}")
        command = _validated(current["game"], body)
        expected = command.pop("expected_version", None)
        version, records, after = d.service.command(game_id, seat, command, expected)
    if told is not None:
        told.tell(game_id, Move(version, records, after), besides)
    return {
        "game": after["game"],
        "version": version,
        "events": [event_as_seen(after, r, seat) for r in records],
        "view": seat_view(d, after, version, seat),
    }


def seat_view(d, current, version, seat):
    """The view of `seat` (None: a spectator) at `version` from the table `current`, as
    the projector stores it (the players' names as this process knows them)."""
    return table.view(d.player_names.named(current), version, seat)


def json_object():
    """The request's body: a JSON object, or a 415/400 problem."""
    if not request.is_json:
        raise ApiError("unsupported_media_type", "send the body as application/json")
    try:
        body = parsed_body()
    except jsonutil.JSONDecodeError:
        raise ApiError("bad_request", "the body is not valid JSON") from None
    if not isinstance(body, dict):
        raise ApiError("bad_request", "the body is a JSON object")
    return body


def _validated(game, body):
    schema = _command_schema(game, body["type"])
    if schema is None:
        known = sorted(COMMAND_SCHEMAS[game])
        raise ApiError("bad_command", f"{game} has no command {body['type']!r}; try {known}")
    try:
        return schema.load(body)
    except ValidationError as error:
        raise ApiError("bad_command", "the command is not valid", error.messages) from None


@functools.cache
def _command_schema(game, command_type):
    """One schema instance per command, built once: loading keeps no state in it."""
    schema = COMMAND_SCHEMAS[game].get(command_type)
    return None if schema is None else schema()


def event_as_seen(current, record, seat):
    """A stored event as `seat` may see it now, with its version and append time."""
    return table.event_as_seen(current, record, seat)


@blp.route("/<game_id>/events")
class Events(MethodView):
    @blp.arguments(schemas.EventsQuery, location="query", error_status_code=400)
    @blp.response(200, "EventPage")
    @errors(blp, 400, 401, 403, 404)
    @blp.doc(security=BEARER, operationId="getEvents", responses=replays.lines_doc("EventPage"))
    def get(self, query, game_id):
        """The game's event log after version `after`: as the caller's seat (or a
        spectator) may see it while the game runs, whole once it has finished."""
        return events_answer(game_id, query)


def events_answer(game_id, query, game=None):
    d = deps()
    seat = seat_of(game_id, d.service.secret, required=False)
    with refused():
        version, current = d.service.load(game_id, fresh=True)
    if game is not None and current["game"] != game:
        raise ApiError("unknown_game", f"{game_id} is a game of {current['game']}")
    records = d.store.read(game_id, after=query["after"], limit=query["limit"])
    events = [event_as_seen(current, r, seat) for r in records]
    if replays.wants_lines():
        return replays.lines_response(events, PRIVATE)
    answer = {"game": current["game"], "events": events, "version": version}
    return json_response(answer, headers=PRIVATE)
