"""Replays over the API: a finished game at any version as any seat saw it, its whole
log (JSON or JSON Lines), uploading a log back (checked, then stored as a game of its
own), and forking a finished game from a position.

A finished game's log is public: these routes need no token.
"""

from flask import Response, request
from flask.views import MethodView
from flask_smorest import Blueprint

from services.api import limits, schemas
from services.api.apidoc import POSTED, doc_only, errors
from services.api.body import refuse_duplicate_keys
from services.api.context import deps, json_response, refused
from services.api.errors import ApiError
from services.api.games import CONTRACTS
from services.game import replays
from shared import jsonutil, replay
from shared.players import naming

blp = Blueprint("replays", __name__, url_prefix="/v1", description="Replays, imports, forks")

NDJSON = "application/x-ndjson"
UPLOAD_PATH = "/v1/replays"
UPLOAD_LIMIT = 8 * 1024 * 1024  # a long game's whole log is well under 1 MB
PUBLIC = []
STORED_ALREADY = "The same log was uploaded before: the game stored then."
# A finished game never changes again.
FINISHED = {"Cache-Control": "public, max-age=3600"}


def lines_doc(schema):
    """The 200 answer of a log route: JSON (`schema`), or JSON Lines when asked for."""
    return {
        "200": {
            "description": "OK",
            "content": {
                "application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}},
                NDJSON: {
                    "schema": {
                        "type": "string",
                        "description": "With `Accept: application/x-ndjson`: one event a line.",
                    }
                },
            },
        }
    }


REPLAY_DOC = """A finished game's table at version `at` (default: its last), as `seat` saw
it then (default: a spectator), with the log up to `at` redacted as that seat saw it
while the game ran. `everyone=true` shows every hand: the finished log is public. A game
still running is a 409 `game_not_finished`; imported logs and forks are served alike."""


def install(app):
    """Let the upload route take larger bodies than the rest of the API."""

    @app.before_request
    def larger_uploads():
        if request.path == UPLOAD_PATH:
            request.max_content_length = UPLOAD_LIMIT


def takes_lines():
    """Whether this request may send JSON Lines instead of JSON."""
    return request.path == UPLOAD_PATH and request.mimetype == NDJSON


def wants_lines():
    """Whether the client asked for JSON Lines."""
    best = request.accept_mimetypes.best_match(["application/json", NDJSON])
    return best == NDJSON


def lines_response(events, headers=None):
    """Events as JSON Lines: one event a line."""
    body = b"".join(jsonutil.dumps(e) + b"\n" for e in events)
    return Response(body, headers=headers, mimetype=NDJSON)


@blp.route("/games/<game_id>/replay")
class Replay(MethodView):
    @blp.arguments(schemas.ReplayQuery, location="query", error_status_code=400)
    @blp.response(200, "Replay")
    @errors(blp, 400, 404, 409, 422)
    @blp.doc(operationId="getReplay", security=PUBLIC, description=REPLAY_DOC)
    def get(self, query, game_id):
        """A finished game at any version, as any seat saw it then."""
        with refused():
            version, current, records = replays.whole_log(deps().service, game_id)
        at = query.get("at", version)
        if at > version:
            raise ApiError("bad_version", f"the game has versions 1 to {version}")
        seat = query.get("seat")
        if seat is not None and seat >= len(current["seats"]):
            raise ApiError("unknown_seat", f"this game has seats 0 to {len(current['seats']) - 1}")
        if query["everyone"]:
            seat = replay.EVERYONE
        answer = replay.view_at(records, at, seat)
        if seat == replay.EVERYONE:
            answer["seat"] = None
        names = deps().player_names.of(current)
        for shown in [answer["view"], *(answer["everyone"] or [])]:
            naming.name_seats(shown, names)
        return json_response(answer, headers=FINISHED)


@blp.route("/games/<game_id>/export")
class Export(MethodView):
    @blp.response(200, "EventPage")
    @errors(blp, 404, 409)
    @blp.doc(
        operationId="exportGame",
        security=PUBLIC,
        responses=lines_doc("EventPage"),
        description="A finished game's whole log, every event whole (the seed too): what "
        "`POST /v1/replays` takes back. JSON Lines with `Accept: application/x-ndjson`.",
    )
    def get(self, game_id):
        """A finished game's whole log."""
        with refused():
            version, current, records = replays.whole_log(deps().service, game_id)
        if wants_lines():
            return lines_response(records, FINISHED)
        answer = {"game": current["game"], "events": records, "version": version}
        return json_response(answer, headers=FINISHED)


@blp.route("/replays")
class Upload(MethodView):
    @blp.response(201, schemas.Imported)
    @doc_only(blp.alt_response(200, schema=schemas.Imported, description=STORED_ALREADY))
    @errors(blp, 400, 409, 413, 415, 422, 429)
    @blp.doc(
        operationId="importReplay",
        security=PUBLIC,
        description="Upload a finished game's log from any tablestream server: the answer "
        "of `GET /v1/games/{game_id}/export` (or of `.../events` holding every event), as "
        "JSON or JSON Lines, at most 8 MB. The server checks it: every event is exactly as "
        "its game's contract documents it (versions 1, 2... in order, times never going "
        "back), the seed matches its published hash, and every decision, re-decided with "
        "the rules, gives exactly the logged events. A log that checks out is stored "
        "under a new id (its game_created names the original in `imported_from`) and "
        "served by the replay, events and "
        "summary routes; otherwise the answer is a 422 `bad_log` whose `detail` is the "
        "first problem found, and nothing is stored. A log naming a game of this server "
        "must be exactly its log (`imported_from.verified`); a log from elsewhere is "
        "stored as `dealt_by_creator`, since its writer may have chosen every card. The "
        "same log uploaded again is not stored twice: the answer is a 200 naming the "
        "game stored the first time. Each client address may store UPLOAD_QUOTA bytes of "
        "logs a day (UTC); past it, a 429 `rate_limited`.",
        requestBody={
            "required": True,
            "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/EventPage"}},
                NDJSON: {"schema": {"type": "string", "description": "One event a line."}},
            },
        },
    )
    def post(self):
        """Upload a finished game's log: checked, then stored as a game of its own."""
        records = uploaded_records()
        problem = replay.shape_problem(records) or first_undocumented(records)
        if problem:
            raise ApiError("bad_log", problem)
        size = len(request.get_data())
        with refused():
            game_id, game, version, new = replays.import_log(
                deps().service, records, before_storing=lambda: limits.charge_upload(size)
            )
        answer = {"id": game_id, "game": game, "version": version, "verdict": "checks_out"}
        return json_response(answer, 201 if new else 200)


def uploaded_records():
    """The records of the uploaded log; a 400 when the body is not one."""
    raw = request.get_data()
    if request.mimetype == NDJSON:
        lines = [line for line in raw.splitlines() if line.strip()]
        try:
            records = [jsonutil.loads(line) for line in lines]
        except jsonutil.JSONDecodeError:
            raise ApiError("bad_request", "a line of the log is not JSON") from None
        for line, record in zip(lines, records, strict=True):
            refuse_duplicate_keys(line, record)
        return records
    try:
        body = jsonutil.loads(raw)
    except jsonutil.JSONDecodeError:
        raise ApiError("bad_request", "the body is not valid JSON") from None
    if isinstance(body, list):
        return body
    if not isinstance(body, dict) or not isinstance(body.get("events"), list):
        raise ApiError("bad_request", 'a log is {"game", "events", "version"} or a list')
    records = body["events"]
    if body.get("version") not in (None, len(records)):
        raise ApiError(
            "bad_log",
            f"the log says version {body['version']} but holds "
            f"{len(records)} events: it is truncated",
        )
    return records


def first_undocumented(records):
    """The first event of an uploaded log that is not exactly as its game's contract
    documents it (a field missing, extra or of another type), or None. The rules then
    judge what the events say."""
    game = records[0].get("game")
    if not isinstance(game, str) or game not in CONTRACTS:
        return f"the log's first event names no game of this server ({sorted(CONTRACTS)})"
    schemas_by_type = CONTRACTS[game].events
    for position, record in enumerate(records, start=1):
        kind = record["type"]  # a string: shape_problem saw to it
        schema = schemas_by_type.get(kind)
        if schema is None:
            return f"event {position} has a type {game} does not have: {kind!r}"
        problems = schema().validate(record)
        if problems:
            return f"event {position} ({kind}) is not as documented: {problems}"
    return None


@blp.route("/games/<game_id>/fork")
class Fork(MethodView):
    @blp.arguments(
        schemas.Fork,
        error_status_code=400,
        example={"at": 20, "seats": [{"name": "ana"}, {"bot": "random"}, {"bot": "random"}]},
    )
    @blp.response(201, schemas.Forked)
    @errors(blp, 404, *POSTED)
    @blp.doc(
        operationId="forkGame",
        security=PUBLIC,
        description="A new game from a finished game's table at version `at`, with new "
        "seats (as when opening a table: as many as the original's) and a fresh seed. It "
        "keeps the position (every hand, the table, the scores) and shuffles the draw pile "
        "again with its own seed, which also makes every later shuffle. Its game_created "
        "holds `forked_from` and the `position`. What a fork reveals: the original's log "
        "is public, so its players can know every hand of the position, but not the "
        "order of the pile they draw from. All four games can be forked wherever the "
        "game was in play (dealt and not over); elsewhere the answer is 422 `bad_version`. "
        "A version inside a decision (a command and what it caused) starts the fork where "
        "that decision ends, as the replay shows it; `forked_from` says which version.",
    )
    def post(self, body, game_id):
        """Fork a finished game from a position, with new seats and a fresh seed."""
        with refused():
            forked = replays.fork(deps().service, game_id, body["at"], body["seats"])
        return json_response(forked, 201)
