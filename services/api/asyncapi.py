"""`python -m services.api.asyncapi` prints the AsyncAPI 3.0 document of GET /v1/ws as
YAML; `--write` updates asyncapi.yaml at the repository's root (a test fails when it is
stale). The payloads' views, commands, answers, events and problems are the OpenAPI
document's own components (services/api/openapi.py), so the two contracts cannot drift.
"""

import sys
from pathlib import Path

import yaml

from services.api import create_app, live
from services.api.games import CONTRACTS
from services.api.schemas import MAX_VERSION

PATH = Path(__file__).resolve().parents[2] / "asyncapi.yaml"
GAMES = tuple(contract.title for contract in CONTRACTS.values())  # the registered games


def _ref(name):
    return {"$ref": f"#/components/schemas/{name}"}


REF = {
    "description": "Echoed on the message that answers this one.",
    "oneOf": [
        {"type": "string", "maxLength": live.REF_MOST},
        {"type": "integer", "minimum": -MAX_VERSION, "maximum": MAX_VERSION},
        {"type": "null"},
    ],
}
ANSWERING = {"description": "The `ref` of the message this answers (null: none)."}
VERSION = {"type": "integer", "minimum": 0, "maximum": MAX_VERSION}
GAME_ID = {"type": "string", "pattern": f"^{live.GAME_ID.pattern}$"}


def _message(kind, summary, properties, required=(), answer=False):
    """An envelope: {type: kind, ref?, ...properties}."""
    fields = {"type": {"type": "string", "const": kind}}
    fields["ref"] = {**REF, **ANSWERING} if answer else REF
    fields.update(properties)
    return {
        "name": kind,
        "summary": summary,
        "contentType": "application/json",
        "payload": {
            "type": "object",
            "properties": fields,
            "required": ["type", *required],
        },
    }


SENT = {
    "auth": _message(
        "auth",
        "First message when the upgrade carried no Authorization header: a seat token, "
        "or null for a spectator. Nothing else is accepted before it.",
        {"token": {"type": ["string", "null"]}},
        ["token"],
    ),
    "subscribe": _message(
        "subscribe",
        "Push this game's view (and its events after `after`) whenever it moves. "
        "Without `after`: the current view, no history. Subscribing again replaces "
        "`after`; RATE_LIMIT_STREAMS subscriptions a socket at most.",
        {"game_id": GAME_ID, "after": VERSION},
        ["game_id"],
    ),
    "unsubscribe": _message("unsubscribe", "Stop pushes of this game.", {"game_id": GAME_ID}),
    "subscribe_inbox": _message(
        "subscribe_inbox",
        "A player's token only: push the player's inbox items (your_turn, invited, "
        "game_started, game_ended, ...) of all its games, each once, after inbox version "
        "`after` (omitted: from now on), as GET /v1/players/me/inbox serves them.",
        {"after": VERSION},
    ),
    "unsubscribe_inbox": _message("unsubscribe_inbox", "Stop pushes of the inbox.", {}),
    "command": _message(
        "command",
        "One command of the game's, as its view's `legal` lists them, sent as the token's "
        "seat; answered by `answer` or `error`.",
        {
            "game_id": GAME_ID,
            "command": _ref("AnyCommand"),
            "expected_version": {
                **VERSION,
                "description": "Refuse the command (version_conflict) unless the game is "
                "still at this version.",
            },
        },
        ["game_id", "command"],
    ),
    "ping": _message("ping", "Answered by `pong`; any message keeps the socket alive.", {}),
    "pong": _message("pong", "Ignored: a client may answer anything with it.", {}),
}

RECEIVED = {
    "authenticated": _message(
        "authenticated",
        "The socket's token: a seat token's game and seat (`creator`), a player token's "
        "player, or nulls for a spectator.",
        {
            "game_id": {"type": ["string", "null"]},
            "seat": {"oneOf": [{"type": "integer"}, {"const": "creator"}, {"type": "null"}]},
            "player": {"type": ["string", "null"], "description": "A player token's player."},
        },
        ["game_id", "seat", "player"],
        answer=True,
    ),
    "subscribed": _message(
        "subscribed",
        "The subscription holds; its pushes follow.",
        {"game_id": GAME_ID, "seat": {"type": ["integer", "null"]}},
        ["game_id", "seat"],
        answer=True,
    ),
    "unsubscribed": _message(
        "unsubscribed", "No more pushes of the game.", {"game_id": GAME_ID}, ["game_id"], True
    ),
    "inbox_subscribed": _message(
        "inbox_subscribed",
        "The inbox subscription holds: the player, and its inbox version now; its items "
        "after `after` follow.",
        {"player": {"type": "string"}, "version": VERSION},
        ["player", "version"],
        answer=True,
    ),
    "inbox_unsubscribed": _message(
        "inbox_unsubscribed", "No more pushes of the inbox.", {}, answer=True
    ),
    "inbox": _message(
        "inbox",
        "One item of the player's inbox, in inbox version order (its `version`), each "
        "once; a resumed subscription continues after its `after`.",
        {"item": _ref("InboxItem")},
        ["item"],
    ),
    "view": _message(
        "view",
        "The seat's view, as GET .../view serves it at `version`, pushed after the events "
        "that led to it. The whole view, never a patch.",
        {"game_id": GAME_ID, "version": VERSION, "view": _ref("View")},
        ["game_id", "version", "view"],
    ),
    "event": _message(
        "event",
        "One event of the game's log, as the seat may see it, in version order, each "
        "once; a resumed subscription continues after its `after`.",
        {"game_id": GAME_ID, "event": {"anyOf": [_ref(f"{g}Event") for g in GAMES]}},
        ["game_id", "event"],
    ),
    "answer": _message(
        "answer",
        "A command's answer: the same body as POST .../commands answers.",
        {"game_id": GAME_ID, "body": _ref("Moved")},
        ["game_id", "body"],
        answer=True,
    ),
    "error": _message(
        "error",
        "A refused message: the same problem+json fields and codes as the REST API. "
        "Nothing was written.",
        {
            "problem": _ref("Problem"),
            "retry_after": {"type": "integer", "description": "rate_limited: seconds to wait."},
        },
        ["problem"],
        answer=True,
    ),
    "pong": _message("pong", "The answer to `ping`.", {}, answer=True),
}

CLOSE_CODES = f"""\
Close codes: 1008 a protocol ping not answered by the next one (WS_PING_SECONDS);
1009 a frame over {live.MAX_BODY} bytes; {live.UNAUTHORIZED} a first message that is
not `auth`, or a token that is not valid; {live.AUTH_TIMEOUT} no `auth` within
{live.AUTH_SECONDS:.0f} s; {live.SLOW_CONSUMER} more than {live.SEND_QUEUE} answers
unsent. A client that reads nothing for WS_SEND_SECONDS is dropped (1006)."""

DESCRIPTION = f"""\
One WebSocket per client: commands in, views and events pushed out, resumable. JSON text
frames, one message each, with a `type`. Authenticate with `Authorization: Bearer
<seat token>` on the upgrade, or an `auth` message first. After a drop, reconnect and
`subscribe` with the last version you hold: you get exactly what you missed. With a
player's token, `subscribe_inbox` pushes the player's inbox for all its games, resumed
the same way with the last inbox version held.

The upgrade itself may be refused with an HTTP problem+json answer: 401 for a bad
token in the header, 429 rate_limited when the address holds its open streams, 503
sockets_full (with Retry-After) when the API process holds WS_MAX_SOCKETS sockets (or
the fewer its open-file limit has room for).

{CLOSE_CODES}
"""


def _paragraphs(text):
    """`text` with each paragraph on one line (YAML folds nothing then)."""
    return "\n\n".join(" ".join(p.split()) for p in text.split("\n\n"))


def document():
    app = create_app(spec_only=True)
    with app.app_context():
        spec = app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    messages = {f"send_{k}": m for k, m in SENT.items()}
    messages.update({f"receive_{k}": m for k, m in RECEIVED.items()})
    schemas = _reachable(spec["components"]["schemas"], messages)
    operations = {
        _camel(name): {
            "action": name.split("_", 1)[0],
            "channel": {"$ref": "#/channels/live"},
            "summary": message["summary"],
            "messages": [{"$ref": f"#/channels/live/messages/{name}"}],
        }
        for name, message in messages.items()
    }
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "tablestream live connections",
            "version": spec["info"]["version"],
            "description": _paragraphs(DESCRIPTION),
            "license": {"name": "MIT"},
        },
        "servers": {
            "local": {
                "host": "127.0.0.1:8000",
                "protocol": "ws",
                "description": "make run, on your machine",
            }
        },
        "defaultContentType": "application/json",
        "channels": {
            "live": {
                "address": "/v1/ws",
                "description": "The one WebSocket endpoint.",
                "messages": {n: {"$ref": f"#/components/messages/{n}"} for n in messages},
            }
        },
        "operations": operations,
        "components": {"messages": messages, "schemas": schemas},
    }


def _camel(name):
    first, *rest = name.split("_")
    return first + "".join(part.title() for part in rest)


def _reachable(schemas, roots):
    """The OpenAPI components the messages reach, as AsyncAPI schemas (an OpenAPI
    discriminator object becomes AsyncAPI's discriminator, its property's name)."""
    found, todo = {}, _refs(roots)
    while todo:
        name = todo.pop()
        if name in found:
            continue
        found[name] = _asyncapi_schema(schemas[name])
        todo |= _refs(found[name])
    return {name: found[name] for name in schemas if name in found}


def _asyncapi_schema(value):
    if isinstance(value, dict):
        return {
            k: v["propertyName"] if k == "discriminator" else _asyncapi_schema(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_asyncapi_schema(v) for v in value]
    return value


def _refs(value):
    if isinstance(value, dict):
        found = set()
        for key, item in value.items():
            if key == "$ref" and item.startswith("#/components/schemas/"):
                found.add(item.rsplit("/", 1)[1])
            else:
                found |= _refs(item)
        return found
    if isinstance(value, list):
        return set().union(*map(_refs, value)) if value else set()
    return set()


def text():
    return yaml.safe_dump(document(), sort_keys=False, allow_unicode=True, width=100)


if __name__ == "__main__":
    output = text()
    if "--write" in sys.argv:
        PATH.write_text(output)
    else:
        sys.stdout.write(output)
