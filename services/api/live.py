"""GET /v1/ws: one WebSocket per client. Commands in; views and events pushed out.

The protocol (docs/design.md, "Live connections"; asyncapi.yaml): JSON text frames,
one message each, with a `type` and, on an answer, the `ref` the client sent.

- Authentication first: `Authorization: Bearer <token>` on the upgrade request, or an
  `auth {token}` message first (`token: null`: a spectator). Nothing else is accepted
  before it.
- `subscribe {game_id, after?}`: the seat's (or spectator's) view is pushed whenever
  the game moves, each pushed `view` preceded by the redacted `event`s since the last
  one sent, in version order, starting after `after` (omitted: the current view, no
  history). A client that reconnects and subscribes with the last version it holds
  gets exactly what it missed.
- `command {game_id, command, expected_version?}`: answered by `answer` whose `body` is
  the REST command's answer, or by `error` whose `problem` holds its problem+json.
- `subscribe_inbox {after?}` (a player's token only): the player's inbox items
  (your_turn, invited, game_started, game_ended, ...) of all its games are pushed as
  `inbox {item}`, in inbox version order, starting after `after` (omitted: from now
  on), as the inbox long-poll and SSE stream serve them; `unsubscribe_inbox` stops
  them. A client that reconnects with the last inbox version it holds gets exactly
  what it missed.
- `ping` is answered by `pong`; the server sends protocol pings too.

Pushes come from the projector's notification (watch.Watcher; the players' inboxes
from their own channels, the inbox watcher), so any API process serves any client. A
move made through this process is pushed without waiting for the projector: to the
mover's own socket from its answer (the same events and view), and to the game's other
sockets here from the move itself (`Watcher.tell`: its records and table), each as
its seat may see it. Each socket keeps at most its unsent answers, one "look again"
mark per subscription and a few such moves: a push reads the newest view and the
events since the last one sent when it is its turn, so a slow reader gets fewer,
larger catch-ups, never an unbounded buffer.
"""

import collections
import re
import resource
import socket
import threading
import time
from contextlib import contextmanager

from flask import Blueprint, current_app, g, request
from flask_sock import Sock
from limits import parse_many
from simple_websocket import ConnectionClosed
from wsproto.connection import ConnectionState
from wsproto.events import TextMessage

from services.api.auth import bearer, held_in, seat_held
from services.api.body import MAX_BODY
from services.api.context import deps
from services.api.errors import ApiError, log, problem_fields, unexpected
from services.api.limits import LONGEST_LEASE, lease
from services.api.play import (
    event_as_seen,
    moved,
    seat_view,
    stored_view,
    stored_view_and_records,
)
from services.api.player_schemas import MAX_ITEMS
from services.api.schemas import MAX_VERSION
from services.ops import files
from shared import jsonutil, tokens
from shared.players.store import Inbox

blp = Blueprint("live", __name__)
sock = Sock()

# Close codes (RFC 6455 leaves 4000-4999 to applications). The library closes with
# 1009 a frame over MAX_BODY and with 1008 a peer that has not answered a ping by the
# next one (WS_PING_SECONDS).
UNAUTHORIZED = 4401  # a first message that is not `auth`, or a token that is not valid
AUTH_TIMEOUT = 4408  # no `auth` within AUTH_SECONDS of the upgrade
SLOW_CONSUMER = 4503  # the send queue is full, or a send waited WS_SEND_SECONDS
AUTH_SECONDS = 10.0
SEND_QUEUE = 64  # answers and errors waiting to be sent, at most
KEEPALIVE = 15.0  # the socket's lease on its address's open streams is renewed this often
BATCH = 200  # events read at a time when catching a subscription up
SEND_BYTES = 64 * 1024  # an outbox turn's frames go out in one send, or one each this many bytes
GAME_ID = re.compile(r"[A-Za-z0-9._~-]{1,128}")
REF_MOST = 128  # characters of a string `ref`

TYPES = (
    "auth",
    "subscribe",
    "unsubscribe",
    "subscribe_inbox",
    "unsubscribe_inbox",
    "command",
    "ping",
    "pong",
)
INBOX = object()  # in `pending`: the player's inbox is to be looked at again
MOST_MOVES = 8  # moves made in this process kept for a subscription's next push, at most


def install(app):
    """Serve /v1/ws on `app`, its frames bounded by the request body's limit, at most
    WS_MAX_SOCKETS sockets at once, fewer if the process's file limit holds fewer."""
    config = app.extensions["tablestream"].config
    SOCKETS.most = files.connections(config.ws_max_sockets)[0]
    if SOCKETS.most < config.ws_max_sockets:
        log.warning(
            "the open-file limit (ulimit -n %d) leaves room for %d WebSockets a process, "
            "not WS_MAX_SOCKETS=%d: raise the hard limit to hold more",
            resource.getrlimit(resource.RLIMIT_NOFILE)[0],
            SOCKETS.most,
            config.ws_max_sockets,
        )
    app.config["SOCK_SERVER_OPTIONS"] = {
        "ping_interval": config.ws_ping_seconds,
        "max_message_size": MAX_BODY,
    }
    sock.init_app(app)
    app.register_blueprint(blp)


class _Sockets:
    """The sockets this process holds, at most `most` (set by `install`)."""

    def __init__(self):
        self.open = 0
        self.most = 0
        self.lock = threading.Lock()

    def take(self):
        """Count one more socket; False (nothing counted) when `most` are open."""
        with self.lock:
            if self.open >= self.most:
                return False
            self.open += 1
            return True

    def give_back(self):
        with self.lock:
            self.open -= 1


SOCKETS = _Sockets()


@blp.before_request
def _upgrade():
    """Refuse before the upgrade what an HTTP answer can say: a plain GET, a bad token
    in the header, an address over its open streams (429), a process holding its most
    sockets (503 sockets_full: another API process, or a moment later, will take it)."""
    if request.headers.get("Upgrade", "").lower() != "websocket":
        raise ApiError("bad_request", "GET /v1/ws is a WebSocket: send 'Upgrade: websocket'")
    token = bearer()
    players = current_app.extensions.get("tablestream.player_auth")
    g.live_holder = None if token is None else Holder(token, deps().service.secret, players)
    if not SOCKETS.take():
        detail = "this API process holds all the sockets it may; try again"
        raise ApiError("sockets_full", detail, headers={"Retry-After": "1"})
    g.live_socket = True
    g.live_lease = lease(LONGEST_LEASE)


@blp.teardown_request
def _socket_closed(error):
    """The socket's count given back when its request ends, however it ended (closed,
    refused after it was counted, or failed in the handshake)."""
    if g.pop("live_socket", False):
        SOCKETS.give_back()


@sock.route("/v1/ws", bp=blp)
def channel(ws):
    """The socket's life: authentication, then one message at a time."""
    connection = Connection(ws, deps(), current_app.extensions, g.live_lease)
    try:
        connection.run(g.live_holder)
    finally:
        g.live_lease.release()


class Holder:
    """What a socket's token holds: a seat token (its game's seat), a creator's token,
    a player's token or trusted JWT (the seat its player holds in each game, looked up
    as the REST routes do), or none (a spectator of any game)."""

    def __init__(self, token, secret, players=None):
        """Raises ApiError unauthorized for a token that is not valid."""
        self.token = token
        self.secret = secret
        self.held = self.player = None
        if token is None:
            return
        if players is not None and players.claims_player(token):
            self.player = players.player_of(token, int(time.time() * 1000))
            return
        self.held = tokens.verify(secret, token)
        if self.held is None:
            raise ApiError("unauthorized", "the token is not valid")

    def seat_in(self, game_id, required):
        """The seat held in `game_id` (None: a spectator), as the REST routes decide it;
        ApiError unauthorized or forbidden otherwise."""
        return seat_held(held_in(self.token, game_id, self.secret, required), required)

    def describe(self):
        game_id, seat = self.held or (None, None)
        return {"game_id": game_id, "seat": seat, "player": self.player}


class Subscription:
    def __init__(self, seat, sent):
        self.seat = seat
        self.sent = sent  # the last version pushed; None: push the current view only
        self.follower = None


class Connection:
    """One socket: the request's thread reads and answers messages; an outbox thread
    sends the answers, then the subscriptions' pushes, each turn's frames together."""

    def __init__(self, ws, d, extensions, held_lease):
        self.ws = ws
        self.d = d
        self.config = d.config
        self.watcher = extensions["tablestream.watcher"]
        self.inbox_watcher = extensions["tablestream.inbox_watcher"]
        self.inbox = None  # the inbox's Subscription (seat: the player id), once asked
        self.seat_limits = extensions.get("tablestream.seat_limits")
        self.players = extensions.get("tablestream.player_auth")
        self.lease = held_lease
        self.holder = None
        self.subscriptions = {}  # game_id -> Subscription
        self.queue = collections.deque()
        self.pending = {}  # games to look at again -> the newest version heard of (None: unknown)
        self.answering = None  # the game of the command being answered, if any
        self.deferred = {}  # as `pending`: the pushes waiting for that command's answer
        self.moves = {}  # game_id -> [Move]: made in this process since the last push
        self.lock = threading.Lock()
        self.wake = threading.Event()
        self.closing = None  # (code, reason) once the socket is to be closed
        self.rate = _MessageRate(self.config)
        # A send to a client that stops reading waits this long, then fails; and a frame
        # goes out whole (the library's own sends may write part of one).
        ws.sock.settimeout(self.config.ws_send_seconds)
        ws.sock = WholeSends(ws.sock)
        self.frames = Frames(ws)  # the outbox's frames not sent yet

    # --- the request's thread: reading

    def run(self, holder):
        outbox = threading.Thread(target=self._outbox, name="ws-outbox", daemon=True)
        outbox.start()
        try:
            if holder is not None:
                self.holder = holder
            else:
                first = self.ws.receive(timeout=AUTH_SECONDS)
                if first is None:
                    return self._close(AUTH_TIMEOUT, "no auth message in time")
                self.handle(first)
            while self.closing is None:
                raw = self.ws.receive(timeout=KEEPALIVE)
                if raw is not None:
                    self.handle(raw)
        except ConnectionClosed:
            pass
        finally:
            with self.lock:
                games = list(self.subscriptions.items())
                self.subscriptions.clear()
            for game_id, subscription in games:
                self.watcher.unfollow(game_id, subscription.follower)
            self._stop_inbox()
            if self.closing is None:
                self.closing = (1000, "")
            self.wake.set()
            outbox.join(self.config.ws_send_seconds + 1)

    def handle(self, raw):
        """Read one message and answer it (every refusal as an `error`)."""
        ref = None
        try:
            message = _message(raw)
            ref = _ref(message.get("ref"))
            kind = message["type"]
            if self.holder is None and kind != "auth":
                self._error(ref, "unauthorized", "send an auth message first")
                return self._close(UNAUTHORIZED, "auth first")
            self.rate.count()
            if kind not in TYPES:
                raise ApiError("bad_request", f"no message type {kind!r}; one of {list(TYPES)}")
            getattr(self, f"on_{kind}")(message, ref)
        except ApiError as error:
            self._error(ref, error.code, error.detail, error.errors, error.headers)
        except Exception as error:  # as errors.handle_unexpected
            code, detail, headers = unexpected(error)
            self._error(ref, code, detail, None, headers)

    def on_auth(self, message, ref):
        if self.holder is not None:
            raise ApiError("bad_request", "this socket is authenticated already")
        token = message.get("token")
        if token is not None and not isinstance(token, str):
            raise ApiError("bad_request", "token is a string, or null for a spectator")
        try:
            holder = Holder(token, self.d.service.secret, self.players)
        except ApiError as refused:
            self._error(ref, refused.code, refused.detail)
            return self._close(UNAUTHORIZED, "token not valid")
        self.holder = holder
        self._send_later({"type": "authenticated", "ref": ref, **holder.describe()})

    def on_subscribe(self, message, ref):
        game_id = _game_id(message)
        after = message.get("after")
        if after is not None and not _version(after):
            raise ApiError("bad_request", f"after is a version, 0 to {MAX_VERSION}")
        most = self.config.rate_limit_streams
        if game_id not in self.subscriptions and len(self.subscriptions) >= most:
            raise ApiError("rate_limited", f"{most} subscriptions on one socket at most")
        seat = self.holder.seat_in(game_id, required=False)
        stored_view(self.d, game_id, seat)  # unknown_game, or a seat not in it: refused now
        with self.lock:
            subscription = self.subscriptions.get(game_id)
            if subscription is None:
                subscription = self.subscriptions[game_id] = Subscription(seat, after)
                subscription.follower = self._follower(game_id)
                self.watcher.follow(game_id, subscription.follower)
            else:
                subscription.sent = after
        self._send_later({"type": "subscribed", "ref": ref, "game_id": game_id, "seat": seat})
        self._look_again(game_id)

    def on_unsubscribe(self, message, ref):
        game_id = _game_id(message)
        with self.lock:
            subscription = self.subscriptions.pop(game_id, None)
            self.moves.pop(game_id, None)  # heard of, not pushed: not to be kept
        if subscription is not None:
            self.watcher.unfollow(game_id, subscription.follower)
        self._send_later({"type": "unsubscribed", "ref": ref, "game_id": game_id})

    def on_subscribe_inbox(self, message, ref):
        player_id = self.holder.player
        if player_id is None:
            raise ApiError("unauthorized", "the inbox needs a player's token or JWT")
        after = message.get("after")
        if after is not None and not _version(after):
            raise ApiError("bad_request", f"after is an inbox version, 0 to {MAX_VERSION}")
        inbox = Inbox(self.d.redis, self.d.keys)
        with self.lock:
            if self.inbox is None:
                self.inbox = Subscription(player_id, after)
                self.inbox.follower = self._inbox_follower()
                self.inbox_watcher.follow(player_id, self.inbox.follower)
            # Read after following: an item written in between is looked at again.
            version = inbox.version(player_id)
            self.inbox.sent = version if after is None else after
        frame = {"type": "inbox_subscribed", "ref": ref, "player": player_id, "version": version}
        self._send_later(frame)
        self._look_again(INBOX)

    def on_unsubscribe_inbox(self, message, ref):
        self._stop_inbox()
        self._send_later({"type": "inbox_unsubscribed", "ref": ref})

    def _stop_inbox(self):
        with self.lock:
            inbox, self.inbox = self.inbox, None
        if inbox is not None:
            self.inbox_watcher.unfollow(inbox.seat, inbox.follower)

    def on_command(self, message, ref):
        game_id = _game_id(message)
        command = message.get("command")
        if not isinstance(command, dict):
            raise ApiError("bad_request", 'command is a JSON object with a "type"')
        if "idempotency_key" in message:
            raise ApiError(
                "bad_request",
                "idempotency_key is not taken over the WebSocket; send expected_version",
            )
        body = dict(command)
        expected = message.get("expected_version")
        if expected is not None:
            if not _version(expected):
                raise ApiError("bad_request", f"expected_version is a version, 0 to {MAX_VERSION}")
            body["expected_version"] = expected
        seat = self.holder.seat_in(game_id, required=True)
        if self.seat_limits is not None:
            extra = {"method": "WS", "path": "/v1/ws", "request_id": g.get("request_id")}
            refused = self.seat_limits.breached(game_id, seat, extra)
            if refused:
                detail, headers = refused
                raise ApiError("rate_limited", detail, headers=headers)
        own = self.subscriptions.get(game_id)  # pushed from the answer (_push_answered)
        with self._answering(game_id):
            besides = own and own.follower
            value = moved(self.d, game_id, seat, body, told=self.watcher, besides=besides)
            frame = {"type": "answer", "ref": ref, "game_id": game_id, "body": value}
            self._send_later(frame, answered=(game_id, seat, value))

    @contextmanager
    def _answering(self, game_id):
        """While a command on `game_id` is answered, its subscription's push waits: the
        projector may write the move before the answer is queued, and the answer brings
        it (_push_answered). A push put off meanwhile is looked at again after it.
        Commands are answered one at a time (the request's thread)."""
        with self.lock:
            self.answering = game_id
        try:
            yield
        finally:
            with self.lock:
                self.answering = None
                again = game_id in self.deferred
                heard = self.deferred.pop(game_id, None)
            if again:
                self._look_again(game_id, heard)

    def on_ping(self, message, ref):
        self._send_later({"type": "pong", "ref": ref})

    def on_pong(self, message, ref):
        pass  # any message keeps the socket alive; nothing to answer

    def _error(self, ref, code, detail, errors=None, headers=None):
        frame = {"type": "error", "ref": ref, "problem": problem_fields(code, detail, errors)}
        if headers and "Retry-After" in headers:
            frame["retry_after"] = int(headers["Retry-After"])
        self._send_later(frame)

    def _send_later(self, frame, answered=None):
        """Queue `frame` for the outbox; `answered`: (game_id, seat, the command's answer)
        when it answers a command (see _push_answered)."""
        with self.lock:
            if len(self.queue) >= SEND_QUEUE:  # closed once the queue's frames are out
                self.closing = self.closing or (SLOW_CONSUMER, "send queue full")
            else:
                self.queue.append((jsonutil.dumps(frame), answered))
        self.wake.set()

    def _close(self, code, reason):
        self.closing = (code, reason)
        self.wake.set()

    # --- the watcher's thread: taking note

    def _follower(self, game_id):
        def moved_to(version, move=None):
            subscription = self.subscriptions.get(game_id)
            if subscription is None:
                return
            if version is None or subscription.sent is None or version > subscription.sent:
                if move is not None:
                    with self.lock:
                        moves = self.moves.setdefault(game_id, [])
                        moves.append(move)
                        del moves[:-MOST_MOVES]
                self._look_again(game_id, version)

        return moved_to

    def _inbox_follower(self):
        def moved_to(version):
            inbox = self.inbox
            if inbox is not None and (version is None or version > inbox.sent):
                self._look_again(INBOX)

        return moved_to

    def _look_again(self, game_id, version=None):
        """Mark `game_id` for the outbox's next turn, having heard it reached `version`
        (None: it may have moved; read to know)."""
        with self.lock:
            _hear(self.pending, game_id, version)
        self.wake.set()

    # --- the outbox thread: sending

    def _outbox(self):
        renew_at = time.monotonic() + KEEPALIVE
        try:
            while True:
                self.wake.wait(KEEPALIVE)
                self.wake.clear()
                if time.monotonic() > renew_at:
                    self.lease.renew(LONGEST_LEASE)
                    renew_at = time.monotonic() + KEEPALIVE
                if not self._turn():
                    break
            self.frames.flush()  # the queued answers, before the close frame
            code, reason = self.closing
            self.ws.close(code, reason)
        except TimeoutError:  # a send waited WS_SEND_SECONDS: the client does not read
            self.closing = (SLOW_CONSUMER, "send timed out")
            self._drop()
        except (ConnectionClosed, OSError):
            self.closing = self.closing or (1006, "")
        except Exception:
            log.exception("the WebSocket outbox failed")
            self._drop()
        finally:
            self.wake.set()

    def _turn(self):
        """The queued answers, then, unless the socket is closing (False), each marked
        subscription's push, all sent together (Frames)."""
        while (queued := self._next_frame()) is not None:
            frame, answered = queued
            self._send(frame)
            if answered is not None:
                self._push_answered(*answered)
        if self.closing is not None:
            return False
        with self.lock:
            games, self.pending = self.pending, {}
        if INBOX in games:
            del games[INBOX]
            self._push_inbox()
        for game_id in sorted(games):
            self._push(game_id, games[game_id])
        self.frames.flush()  # before waiting for the next turn
        return True

    def _next_frame(self):
        with self.lock:
            return self.queue.popleft() if self.queue else None

    def _send(self, frame):
        """Send `frame` (JSON bytes) with the rest of the turn's frames."""
        self.frames.add(frame)

    def _drop(self):
        """Drop the connection of a client that does not read: a frame may have gone out
        in part, so no close frame can follow it."""
        try:
            self.ws.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def _push(self, game_id, heard):
        """Send one subscription what it has not seen: the events since the last version
        sent, then the view; from the moves made in this process when they follow it
        (_push_moves), else as the read models hold them now (both read in one round
        trip). Nothing is read when `heard`, the newest version heard of, was sent."""
        subscription = self.subscriptions.get(game_id)
        if subscription is None:
            return
        with self.lock:
            if game_id == self.answering:  # the answer may bring it (_answering)
                _hear(self.deferred, game_id, heard)
                return
            moves = self.moves.pop(game_id, ())
        if moves:
            self._push_moves(game_id, subscription, moves)
        seat, sent = subscription.seat, subscription.sent
        if heard is not None and sent is not None and heard <= sent:
            return
        try:
            if sent is None:
                raw, records = stored_view(self.d, game_id, seat), []
            else:
                raw, records = stored_view_and_records(self.d, game_id, seat, sent, BATCH)
        except ApiError as error:  # the game's read models and stream are gone
            return self._error(None, error.code, error.detail)
        view = jsonutil.loads(raw)
        version = view["version"]
        if sent is not None and version <= sent:
            return
        if sent is not None:
            self._push_events(game_id, seat, sent, view, records)
        self._send(_view_frame(game_id, version, raw))
        subscription.sent = version

    def _push_answered(self, game_id, seat, answer):
        """Push a command's answer to the mover's own subscription: its events and view
        are what the push would read once the projector has written that version (the
        same redaction, the same view), so they go out now, in the answer's send, and
        the projector's notification of the version finds nothing new. Only when they
        follow the last version pushed: a move made in between is the push's to read."""
        subscription = self.subscriptions.get(game_id)
        events = answer["events"]
        if subscription is None or subscription.seat != seat or subscription.sent is None:
            return
        if not events or events[0]["version"] != subscription.sent + 1:
            return
        for event in events:
            self._send(_event_frame(game_id, event))
        version = answer["version"]
        self._send(_view_frame(game_id, version, jsonutil.dumps(answer["view"])))
        subscription.sent = version

    def _push_moves(self, game_id, subscription, moves):
        """Push the moves made in this process that follow the last version pushed, one
        after another, without a read: their events as the subscription's seat may see
        them and its view after the last, each as the projector will write it. A gap
        (a move made elsewhere, not heard of yet) ends them: the push reads from there."""
        sent = subscription.sent
        chain = []
        for move in sorted(moves, key=lambda m: m.version):  # two movers' tells may cross
            if sent is not None and move.records and move.records[0].version == sent + 1:
                chain.append(move)
                sent = move.version
        if not chain:
            return
        seat = subscription.seat
        if len(chain) == 1:  # the common case: one move, its frames shared by the seat's sockets
            frames = chain[0].frames.get(seat)
            if frames is None:
                frames = chain[0].frames[seat] = self._move_frames(game_id, chain, seat)
        else:
            frames = self._move_frames(game_id, chain, seat)
        for frame in frames:
            self._send(frame)
        subscription.sent = chain[-1].version

    def _move_frames(self, game_id, chain, seat):
        """The frames that push `chain`, moves following one another, to `seat`: their
        events as it may see them, then its view after the last."""
        last = chain[-1]
        frames = [
            _event_frame(game_id, event_as_seen(last.table, record, seat))
            for move in chain
            for record in move.records
        ]
        view = jsonutil.dumps(seat_view(self.d, last.table, last.version, seat))
        frames.append(_view_frame(game_id, last.version, view))
        return frames

    def _push_inbox(self):
        """Send the player's inbox items after the last one sent, one `inbox` frame
        each, at most MAX_ITEMS a turn (then it looks again, after the games)."""
        inbox = self.inbox
        if inbox is None:
            return
        _, items = Inbox(self.d.redis, self.d.keys).items(inbox.seat, inbox.sent, MAX_ITEMS)
        for item in items:
            self._send(jsonutil.dumps({"type": "inbox", "item": item}))
            inbox.sent = item["version"]
        if len(items) == MAX_ITEMS:
            self._look_again(INBOX)

    def _push_events(self, game_id, seat, sent, view, records):
        """The events after `sent` up to the `view`'s version, each as `seat` may see it
        with that view: `records` (read with the view) first, then as many more reads as
        a long catch-up needs."""
        version = view["version"]
        current = self._table(game_id, version, records)
        if current["status"] != view["status"]:
            # The table in hand is past the view, in a game that has finished since (the
            # last move made through this process, or read past the view): the whole
            # log is public now, but events pushed with a view of a game going on are
            # redacted as they were then.
            current = {**current, "status": view["status"]}
        while sent < version:
            if not records:
                records = self.d.store.read(game_id, after=sent, limit=min(BATCH, version - sent))
                if not records:
                    return
            for record in records:
                if record.version > version:  # past the view: pushed with the next one
                    return
                self._send(_event_frame(game_id, event_as_seen(current, record, seat)))
            sent, records = records[-1].version, []

    def _table(self, game_id, version, records):
        """The game's table at `version` or later, to redact events with: this process's
        cache, folded on with `records` when they take it there, else read afresh."""
        found = self.d.service.advance(game_id, records)
        if found is None or found[0] < version:
            found = self.d.service.load(game_id, fresh=True)
        return found[1]


class _MessageRate:
    """Messages a socket may send: the commands' shortest window (RATE_LIMIT_COMMANDS,
    e.g. 60 a second), counted in the process; RATE_LIMITS=off: no limit."""

    def __init__(self, config):
        self.most = None
        if config.rate_limits:
            shortest = sorted(parse_many(config.rate_limit_commands))[0]
            self.most, self.seconds = shortest.amount, shortest.get_expiry()
            self.description = str(shortest)
        self.window_ends = 0.0
        self.used = 0

    def count(self):
        if self.most is None:
            return
        now = time.monotonic()
        if now >= self.window_ends:
            self.window_ends, self.used = now + self.seconds, 0
        self.used += 1
        if self.used > self.most:
            retry = max(1, round(self.window_ends - now))
            raise ApiError(
                "rate_limited",
                f"too many messages ({self.description}); retry in {retry} s",
                headers={"Retry-After": str(retry)},
            )


def _hear(marks, game_id, version):
    """Note in `marks` (game_id -> version) that `game_id` reached `version`; None, for
    a version not known, stays None."""
    if game_id in marks:
        known = marks[game_id]
        version = None if known is None or version is None else max(known, version)
    marks[game_id] = version


def _event_frame(game_id, event):
    return jsonutil.dumps({"type": "event", "game_id": game_id, "event": event})


def _view_frame(game_id, version, raw):
    """A `view` frame around `raw`, the view's JSON as stored (not parsed again)."""
    head = b'{"type":"view","game_id":%s,"version":%d,"view":' % (
        jsonutil.dumps(game_id),
        version,
    )
    return head + raw + b"}"


def _message(raw):
    if isinstance(raw, bytes):
        raise ApiError("bad_request", "send each message as a text frame of JSON")
    try:
        message = jsonutil.loads(raw)
    except jsonutil.JSONDecodeError:
        raise ApiError("bad_request", "a message is JSON") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ApiError("bad_request", 'a message is a JSON object with a string "type"')
    return message


def _ref(ref):
    """The client's `ref`, echoed on the answer: a short string or a whole number."""
    if ref is None or (isinstance(ref, str) and len(ref) <= REF_MOST):
        return ref
    if isinstance(ref, int) and not isinstance(ref, bool) and abs(ref) <= MAX_VERSION:
        return ref
    raise ApiError("bad_request", f"ref is a string of at most {REF_MOST} characters or a number")


def _game_id(message):
    game_id = message.get("game_id")
    if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
        raise ApiError("bad_request", "game_id is a game's id")
    return game_id


def _version(value):
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_VERSION


class Frames:
    """The frames of an outbox turn, encoded in order and sent together: one `sendall`
    a turn, or one each SEND_BYTES, so a long game's catch-up is never one buffer of
    its whole log. A move pushes ~5 frames a socket, and each system call also wakes
    the client once (docs/performance.md measures the gain).

    Only the outbox adds frames, so nothing here is locked; the socket's sends (these,
    and the library's pings, pongs and close frames from its own thread) are kept
    apart by WholeSends."""

    def __init__(self, ws, most=SEND_BYTES):
        self.ws = ws  # simple_websocket's socket: its wsproto connection and WholeSends
        self.most = most
        self.parts = []
        self.size = 0

    def add(self, frame):
        """Encode `frame` (JSON bytes) as a text message after those added before, as
        `ws.send` does (with permessage-deflate, the compressor runs in send order);
        send them all once they hold `most` bytes. ConnectionClosed once the socket is
        closing, as `ws.send`."""
        self._open_or_raise()
        data = self.ws.ws.send(TextMessage(data=frame.decode()))
        self.parts.append(data)
        self.size += len(data)
        if self.size >= self.most:
            self.flush()

    def flush(self):
        """Send the frames added since the last flush in one call. TimeoutError, as any
        send, when it waits WS_SEND_SECONDS; ConnectionClosed, nothing sent, when a
        close frame was sent or received after they were encoded."""
        if not self.parts:
            return
        data = self.parts[0] if len(self.parts) == 1 else b"".join(self.parts)
        # Emptied before sending: a send that failed, part of it maybe gone, is never
        # sent again, and its bytes are not kept.
        self.parts, self.size = [], 0
        if not self.ws.sock.send_while_open(data, self.ws.ws):
            self._open_or_raise()

    def _open_or_raise(self):
        if not self.ws.connected or self.ws.ws.state is not ConnectionState.OPEN:
            raise ConnectionClosed(self.ws.close_reason, self.ws.close_message)


class WholeSends:
    """A socket whose `send` sends all of it (`sendall`), one caller at a time. The
    library's own sends come here too, from its thread: a send that waits for a slow
    reader has written part of its data, and a ping, pong or close frame sent
    meanwhile must not land inside it."""

    def __init__(self, sock):
        self.sock = sock
        self.lock = threading.Lock()

    def send(self, data):
        with self.lock:
            self.sock.sendall(data)
        return len(data)

    def send_while_open(self, data, protocol):
        """Send `data` (whole messages) unless `protocol` (the socket's wsproto
        connection) has sent or received a close frame, since no message may follow
        one, and the library's thread sends one on its own (the client's close
        answered, a ping not answered). Looked at under the lock: a close frame sent
        meanwhile goes out after `data`, or `data` not at all. False: not sent."""
        with self.lock:
            if protocol.state is not ConnectionState.OPEN:
                return False
            self.sock.sendall(data)
        return True

    def __getattr__(self, name):
        return getattr(self.sock, name)
