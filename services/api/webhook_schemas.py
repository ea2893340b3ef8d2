"""Webhook schemas: a subscription, its registration answer, and the notification body
a webhook receives (documented as OpenAPI callbacks of the operations that register)."""

from marshmallow import Schema, fields, validate

from services.api.player_schemas import INBOX_KINDS, InboxItem
from services.webhooks.urls import PATTERN as URL_PATTERN
from shared import webhooks
from shared.webhooks import KINDS


class WebhookSpec(Schema):
    url = fields.String(
        required=True,
        validate=validate.Length(min=1, max=2000),
        metadata={
            "description": "Where notifications are POSTed: https (http only where the "
            "operator allows it), resolving to public addresses only.",
            "pattern": URL_PATTERN,
        },
    )
    events = fields.List(
        fields.String(validate=validate.OneOf(KINDS)),
        load_default=lambda: list(KINDS),
        validate=validate.Length(min=1, max=len(KINDS)),
        metadata={"description": "The notification kinds wanted (default: all)."},
    )


class WebhookRegistered(Schema):
    url = fields.String(required=True)
    events = fields.List(fields.String(validate=validate.OneOf(KINDS)), required=True)
    secret = fields.String(
        required=True,
        metadata={
            "description": "Signs every notification (X-Tablestream-Signature). Shown "
            "only this once: keep it."
        },
    )


class WebhookNotification(Schema):
    id = fields.String(
        required=True,
        metadata={
            "description": "The notification's id, `<game>:<version>:<kind>:<seat or ->`; "
            "the same on every retry: a receiver drops what it has already seen."
        },
    )
    game_id = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "The game's version then."})
    kind = fields.String(required=True, validate=validate.OneOf(KINDS))
    seat = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "The seat it is about (your_turn, timed_out, seat_taken_over)."},
    )
    data = fields.Dict(
        required=True,
        metadata={
            "description": "your_turn: deadline (ms since the epoch, or null), to_act, and "
            "for a seat's webhook legal (its commands); game_started: game, seats; "
            "game_ended: result; seat_taken_over: bot, reason; others: {}."
        },
    )


class PlayerWebhookSpec(Schema):
    url = fields.String(
        required=True,
        validate=validate.Length(min=1, max=2000),
        metadata={
            "description": "Where the player's inbox items are POSTed: https (http only "
            "where the operator allows it), resolving to public addresses only.",
            "pattern": URL_PATTERN,
        },
    )
    events = fields.List(
        fields.String(validate=validate.OneOf(INBOX_KINDS)),
        load_default=lambda: list(INBOX_KINDS),
        validate=validate.Length(min=1, max=len(INBOX_KINDS)),
        metadata={"description": "The inbox item kinds wanted (default: all)."},
    )


class PlayerWebhookRegistered(Schema):
    url = fields.String(required=True)
    events = fields.List(fields.String(validate=validate.OneOf(INBOX_KINDS)), required=True)
    secret = fields.String(
        required=True,
        metadata={
            "description": "Signs every notification (X-Tablestream-Signature). Shown "
            "only this once: keep it."
        },
    )


class PlayerNotification(InboxItem):
    """What a player's webhook receives: one item of the player's inbox."""

    id = fields.String(
        required=True,
        metadata={
            "description": "The notification's id, `<game>:<game_version>:<kind>:<seat or "
            "->`; the same on every retry: a receiver drops what it has already seen."
        },
    )
    player_id = fields.String(
        required=True, metadata={"description": "The player whose inbox item this is."}
    )


_HEADERS = [
    {
        "name": webhooks.SIGNATURE_HEADER,
        "in": "header",
        "required": True,
        "schema": {"type": "string"},
        "description": '`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`; '
        "see docs/webhooks.md.",
    },
    {
        "name": webhooks.EVENT_ID_HEADER,
        "in": "header",
        "required": True,
        "schema": {"type": "string"},
        "description": "The notification's id, as in the body.",
    },
]


def _operation(schema, operation_id):
    return {
        "operationId": operation_id,
        "summary": "A notification, POSTed by the server's worker",
        "description": "Any 2xx acknowledges it. Timeouts (5 s), connection errors, "
        "429 and 5xx are retried with exponential backoff and jitter (6 attempts in "
        "all by default); other answers, and the last failure, go to the operator's "
        "dead-letter list. Deliveries may come out of order after a retry.",
        "parameters": _HEADERS,
        "requestBody": {"required": True, "content": {"application/json": {"schema": schema}}},
        # No bearer token: the receiver checks X-Tablestream-Signature instead.
        "security": [],
        "responses": {
            "2XX": {"description": "Received."},
            "4XX": {"description": "Refused (e.g. a bad signature): not retried, a dead letter."},
        },
    }


def callbacks(url_expression, operation_id, schema=WebhookNotification):
    """The OpenAPI callbacks of an operation that registers a webhook at the URL the
    runtime expression names; `operation_id` names the receiving operation (unique in
    the document, as generators need); `schema` the body (a player's webhook receives
    PlayerNotification)."""
    operation = _operation(schema, operation_id)
    return {"notification": {url_expression: {"post": operation}}}


def webhooks():
    """OpenAPI 3.1's top-level webhooks (the schema is the callbacks' component)."""
    return {
        "notification": {
            "post": _operation(
                {"$ref": "#/components/schemas/WebhookNotification"}, "receiveNotification"
            )
        }
    }
