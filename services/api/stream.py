"""GET /v1/games/{id}/stream: the caller's redacted events as Server-Sent Events.

Each event's SSE id is its version, so a client that reconnects with Last-Event-ID
(or ?after=) resumes where it stopped. The stream ends once the game is over; while
nothing happens a comment every 15 s keeps proxies from closing it. Resuming a game
that is over at or past its last version answers 204 No Content: the one answer that
tells a browser's EventSource to stop reconnecting.
"""

import time

from flask import Response, request, stream_with_context
from flask.views import MethodView
from flask_smorest import Blueprint

from services.api import hangups
from services.api.apidoc import errors
from services.api.auth import seat_of
from services.api.context import deps, refused
from services.api.errors import ApiError
from services.api.fields import INT64
from services.api.games import CONTRACTS
from services.api.limits import LONGEST_LEASE, lease
from services.api.play import OVER, event_as_seen, projected, watcher
from services.api.schemas import MAX_VERSION
from shared import jsonutil

blp = Blueprint("stream", __name__, url_prefix="/v1/games", description="Live updates")

SSE_EXAMPLE = (
    "retry: 2000\n\n"
    'id: 4\nevent: commanded\ndata: {"at":1764580000000,"by":"holder","seat":0,'
    '"type":"commanded","version":4}\n\n'
)
KEEPALIVE = 15.0
LONGEST = 3600.0  # then the client reconnects with Last-Event-ID
BATCH = 200


@blp.route("/<game_id>/stream")
class EventStream(MethodView):
    @blp.doc(
        security=[{"seatToken": []}, {}],
        operationId="streamEvents",
        parameters=[
            {"in": "header", "name": "Last-Event-ID", "required": False,
             "schema": {**INT64, "minimum": 0, "maximum": MAX_VERSION},
             "description": "Resume after this version (sent by EventSource on reconnect)."},
            {"in": "query", "name": "after", "required": False,
             "schema": {**INT64, "minimum": 0, "maximum": MAX_VERSION},
             "description": "Resume after this version."},
        ],
        responses={
            "200": {
                "description": "Server-Sent Events, one per game event: `id: <version>`, "
                "`event: <type>`, `data: <the event as the caller may see it, JSON>`. "
                "Each `data` is one member of the game's event union "
                f"({', '.join(f'`{c.title}Event`' for c in CONTRACTS.values())}), the same "
                "objects as `GET .../events` lists; `: keep-alive` comments come every 15 s.",
                "content": {
                    "text/event-stream": {
                        "schema": {
                            "type": "string",
                            "description": "A stream of `id`/`event`/`data` records.",
                        },
                        "example": SSE_EXAMPLE,
                    }
                },
            },
            "204": {"description": "The game is over and the caller has every event: "
                    "nothing more will come (EventSource stops reconnecting)."},
        },
    )  # fmt: skip
    @errors(blp, 400, 401, 403, 404, 429)
    def get(self, game_id):
        """The game's events as the caller's seat (or a spectator) may see them, live."""
        d = deps()
        seat = seat_of(game_id, d.service.secret, required=False)
        after = _resume_point()
        with refused():  # an unknown game is a 404 now, not an empty stream
            version, current = d.service.load(game_id, fresh=True)
        if current["status"] in OVER and after >= version:
            return Response(status=204)
        held = lease(LONGEST_LEASE)  # given back when the stream closes, however it ends
        events = _events(d, game_id, seat, after, held, hangups.watch(request.environ))
        response = Response(stream_with_context(events), mimetype="text/event-stream")
        response.headers["X-Accel-Buffering"] = "no"
        response.call_on_close(held.release)
        return response


def _resume_point():
    """Where a stream resumes: Last-Event-ID when the client (EventSource) sends it,
    else `?after`, else 0. Both are checked whenever they are sent."""
    given = [request.headers.get("Last-Event-ID"), request.args.get("after")]
    after = [_version(raw) for raw in given if raw is not None]
    return after[0] if after else 0


def _version(raw):
    if not (raw.isascii() and raw.isdigit()) or len(raw) > len(str(MAX_VERSION)):
        raise ApiError("bad_request", "Last-Event-ID and after are versions (ASCII digits)")
    after = int(raw)
    if not 0 <= after <= MAX_VERSION:
        raise ApiError("bad_request", f"Last-Event-ID and after are versions, 0 to {MAX_VERSION}")
    return after


def _events(d, game_id, seat, after, held, gone):
    yield "retry: 2000\n\n"
    stop_at = time.monotonic() + LONGEST
    renew_at = time.monotonic() + KEEPALIVE
    while time.monotonic() < stop_at:
        if time.monotonic() > renew_at:
            held.renew(LONGEST_LEASE)
            renew_at = time.monotonic() + KEEPALIVE
        records = d.store.read(game_id, after=after, limit=BATCH)
        if records:
            _, current = d.service.load(game_id, fresh=True)
            for record in records:
                event = event_as_seen(current, record, seat)
                yield f"id: {record.version}\nevent: {event['type']}\ndata: {_json(event)}\n\n"
            after = records[-1].version
            if len(records) == BATCH:
                continue
            if current["status"] in OVER and d.store.version(game_id) == after:
                return
        elif watcher().wait(game_id, after, KEEPALIVE, lambda: projected(d, game_id), gone):
            continue
        elif gone():
            return  # the client went away: its place is given back now, not at a write
        elif _over(d, game_id):
            return  # resumed past the end of a game that has ended since
        else:
            yield ": keep-alive\n\n"


def _over(d, game_id):
    _, current = d.service.load(game_id, fresh=True)
    return current["status"] in OVER


def _json(event):
    return jsonutil.dumps(event).decode()
