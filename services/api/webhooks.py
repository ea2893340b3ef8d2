"""Webhooks: a seat's holder registers or removes the seat's webhook; the game's own
webhook comes with the game (options.webhook, see lobby.py) or from the creator's
token later. The API only stores subscriptions, after checking the URL: the worker
delivers."""

from contextlib import contextmanager

from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint

from services.api import webhook_schemas
from services.api.apidoc import POSTED, errors
from services.api.auth import holder_of, seat_token_for
from services.api.context import deps, json_response, refused
from services.api.errors import ApiError
from services.webhooks import urls
from services.webhooks.settings import Settings
from services.webhooks.subscriptions import Subscriptions
from shared import tokens, webhooks

blp = Blueprint("webhooks", __name__, url_prefix="/v1/games", description="Webhooks")


def document(spec):
    """OpenAPI 3.1's top-level `webhooks`: the notification any registered URL receives
    (the same as the callbacks of the operations that register one)."""
    spec.options["webhooks"] = webhook_schemas.webhooks()


def checked_url(url):
    """The URL when a webhook may call it; else the bad_webhook_url refusal."""
    settings = Settings.from_env()
    try:
        urls.resolve(url, settings.allow_http, settings.allow_private)
    except urls.RefusedUrl as refused_url:
        raise ApiError("bad_webhook_url", str(refused_url)) from None
    return url


def _register(d, game_id, subscriber, spec):
    events = list(dict.fromkeys(spec["events"]))  # each kind once
    secret = Subscriptions(d.redis, d.keys).register(game_id, subscriber, spec["url"], events)
    return {"url": spec["url"], "events": events, "secret": secret}


@contextmanager
def game_webhook(d, game_id, spec):
    """Register the game's webhook (`spec` from options.webhook, or None) before the
    game's first events are appended, so the projector sees it from the first one;
    forget it again if the game is refused. Yields the registration answer."""
    if spec is None:
        yield None
        return
    checked_url(spec["url"])
    registered = _register(d, game_id, webhooks.GAME, spec)
    try:
        yield registered
    except BaseException:
        Subscriptions(d.redis, d.keys).remove(game_id, webhooks.GAME)
        raise


@blp.route("/<game_id>/seats/<int:seat>/webhook")
class SeatWebhook(MethodView):
    @blp.arguments(webhook_schemas.WebhookSpec, error_status_code=400)
    @blp.response(201, webhook_schemas.WebhookRegistered)
    @errors(blp, 401, 403, 404, *POSTED)
    @blp.doc(
        security=[{"seatToken": []}],
        operationId="registerSeatWebhook",
        callbacks=webhook_schemas.callbacks("{$request.body#/url}", "receiveSeatNotification"),
    )
    def post(self, spec, game_id, seat):
        """Register (or replace) the seat's webhook (the seat's token): notifications
        of what this seat may see, e.g. `your_turn`. The answer holds the secret that
        signs them, shown only this once."""
        d = deps()
        seat_token_for(game_id, seat, d.service.secret)
        with refused():
            _, current = d.service.load(game_id)
        if seat >= len(current["seats"]):
            raise ApiError("unknown_seat", f"this game has seats 0 to {len(current['seats']) - 1}")
        checked_url(spec["url"])
        return json_response(_register(d, game_id, webhooks.seat_subscriber(seat), spec), 201)

    @blp.response(204)
    @errors(blp, 401, 403, 404)
    @blp.doc(security=[{"seatToken": []}], operationId="removeSeatWebhook")
    def delete(self, game_id, seat):
        """Remove the seat's webhook (the seat's token); nothing more is sent to it."""
        d = deps()
        seat_token_for(game_id, seat, d.service.secret)
        Subscriptions(d.redis, d.keys).remove(game_id, webhooks.seat_subscriber(seat))
        return Response(status=204)


@blp.route("/<game_id>/webhook")
class GameWebhook(MethodView):
    @blp.arguments(webhook_schemas.WebhookSpec, error_status_code=400)
    @blp.response(201, webhook_schemas.WebhookRegistered)
    @errors(blp, 401, 403, 404, *POSTED)
    @blp.doc(
        security=[{"seatToken": []}],
        operationId="registerGameWebhook",
        callbacks=webhook_schemas.callbacks("{$request.body#/url}", "receiveGameNotification"),
    )
    def post(self, spec, game_id):
        """Register (or replace, or resume once paused) the game's webhook (the
        creator's token): notifications of what a spectator may see. The answer holds
        the secret that signs them, shown only this once."""
        d = deps()
        _creator(d, game_id)
        with refused():
            d.service.load(game_id)
        checked_url(spec["url"])
        return json_response(_register(d, game_id, webhooks.GAME, spec), 201)

    @blp.response(204)
    @errors(blp, 401, 403, 404)
    @blp.doc(security=[{"seatToken": []}], operationId="removeGameWebhook")
    def delete(self, game_id):
        """Remove the game's webhook (the creator's token)."""
        d = deps()
        _creator(d, game_id)
        Subscriptions(d.redis, d.keys).remove(game_id, webhooks.GAME)
        return Response(status=204)


def _creator(d, game_id):
    if holder_of(game_id, d.service.secret, required=True) != tokens.CREATOR:
        raise ApiError("forbidden", "only the creator's token holds the game's webhook")
