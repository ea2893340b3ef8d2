"""GET /v1/games/{id}/stream: the caller's redacted events as Server-Sent Events.

Each event's SSE id is its version, so a client that reconnects with Last-Event-ID
(or ?after=) resumes where it stopped. The stream ends once the game is over; while
nothing happens a comment every 15 s keeps proxies from closing it.
"""

import time

from flask import Response, request, stream_with_context
from flask.views import MethodView
from flask_smorest import Blueprint

from services.api.auth import seat_of
from services.api.deps import deps, errors, refused
from services.api.errors import ApiError
from services.api.play import OVER, event_as_seen, projected, watcher
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
             "schema": {"type": "integer", "minimum": 0},
             "description": "Resume after this version (sent by EventSource on reconnect)."},
            {"in": "query", "name": "after", "required": False,
             "schema": {"type": "integer", "minimum": 0},
             "description": "Resume after this version."},
        ],
        responses={
            "200": {
                "description": "Server-Sent Events, one per game event: `id: <version>`, "
                "`event: <type>`, `data: <the event as the caller may see it, JSON>`. "
                "Each `data` is one member of the game's event union (`AlebrijesEvent`, "
                "`AlienEvent`, `AlakablastEvent`, `AbluxxenEvent`), the same objects as "
                "`GET .../events` lists; `: keep-alive` comments come every 15 s.",
                "content": {
                    "text/event-stream": {
                        "schema": {
                            "type": "string",
                            "description": "A stream of `id`/`event`/`data` records.",
                        },
                        "example": SSE_EXAMPLE,
                    }
                },
            }
        },
    )  # fmt: skip
    @errors(blp, 400, 401, 403, 404)
    def get(self, game_id):
        """The game's events as the caller's seat (or a spectator) may see them, live."""
        d = deps()
        seat = seat_of(game_id, d.service.secret, required=False)
        after = _resume_point()
        with refused():
            d.service.load(game_id)  # an unknown game is a 404 now, not an empty stream
        events = _events(d, game_id, seat, after)
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        return Response(stream_with_context(events), mimetype="text/event-stream", headers=headers)


def _resume_point():
    raw = request.headers.get("Last-Event-ID") or request.args.get("after") or "0"
    try:
        after = int(raw)
    except ValueError:
        raise ApiError("bad_request", "Last-Event-ID and after are versions (integers)") from None
    if after < 0:
        raise ApiError("bad_request", "Last-Event-ID and after are versions from 0")
    return after


def _events(d, game_id, seat, after):
    yield "retry: 2000\n\n"
    stop_at = time.monotonic() + LONGEST
    while time.monotonic() < stop_at:
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
        elif not watcher().wait(game_id, after, KEEPALIVE, lambda: projected(d, game_id)):
            yield ": keep-alive\n\n"


def _json(event):
    return jsonutil.dumps(event).decode()
