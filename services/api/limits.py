"""Abuse limits, kept in the deployment's Redis so every API process counts together.

- Opening tables (creating, forking, uploading a log): RATE_LIMIT_CREATE per client
  address (flask-limiter).
- Making guest players: RATE_LIMIT_PLAYERS per client address.
- Invitations (a seat `{"player": "<id>"}` at creation): RATE_LIMIT_INVITATIONS per
  inviting player, or per client address without a player token (InvitationLimits);
  each invited seat counts one.
- Commands: RATE_LIMIT_COMMANDS per seat (SeatLimits, in flask-limiter's storage);
  this also bounds how often the seat on turn in Alien may shout a wrong CAPTURED!,
  which costs nothing.
- Uploaded logs: UPLOAD_QUOTA bytes stored per client address a day (UTC); a log
  answered as stored already costs nothing.
- Open long-polls and event streams: at most RATE_LIMIT_STREAMS at once per client
  address. Each holds a lease in a sorted set per address (Redis, not the process);
  a lease ends with its request or, if the process dies, at its deadline (a stream
  renews its own), so a crash never locks an address out for long.

Over a limit: 429 problem+json, code `rate_limited`, with Retry-After; nothing is
written. RATE_LIMITS=off switches every limit off (benchmarks, load tests).
"""

import functools
import math
import secrets
import time
from contextlib import contextmanager
from urllib.parse import urlsplit

from flask import current_app
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded
from flask_limiter.util import get_remote_address
from limits import parse_many
from limits.storage import RedisStorage
from limits.strategies import FixedWindowRateLimiter as FixedWindow
from redis import RedisCluster
from redis.exceptions import ConnectionError, NoScriptError, TimeoutError
from werkzeug.middleware.proxy_fix import ProxyFix

from services.api import auth, context
from services.api.errors import ApiError, problem
from services.ops import metrics
from shared.link import pooled_call

# The endpoints that open tables (POST): a creation, a fork, an uploaded log.
CREATE = ("games.Games", "replays.Fork", "replays.Upload")
PLAYERS = ("players.Players",)  # making a guest player (POST)
COMMANDS = ".Commands"  # endpoints that take commands: play's and each game's typed one

# KEYS[1] the address's leases; ARGV: now (ms), lease deadline (ms), lease id, cap,
# the key's lifetime (ms). Drop dead leases, then take one if the cap allows.
_TAKE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, first[2]}
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return {1, ARGV[2]}
"""
LONGEST_LEASE = 60.0  # seconds: a stream's, renewed well before it lapses

# KEYS the command windows' counters, shortest window first; ARGV each one's expiry
# (s) and cap in turn. Count one hit in each, as `limits`' fixed window does (its
# incr_expire.lua), up to the first over its cap: its place (1-based), or 0.
_HITS = """
for i, key in ipairs(KEYS) do
  local current = redis.call('INCRBY', key, 1)
  if current == 1 then redis.call('EXPIRE', key, ARGV[2 * i - 1]) end
  if current > tonumber(ARGV[2 * i]) then return i end
end
return 0
"""


def install(app, deps):
    """Put the limits on `app` (already holding its routes), as `deps.config` says."""
    config = deps.config
    if config.trusted_proxies:  # the client's address is the proxies' X-Forwarded-For
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=config.trusted_proxies)
    if not config.rate_limits:  # no limiter at all: a disabled one still runs per request
        app.extensions["tablestream.leases"] = NoLeases()
        return
    uri, options = _storage(config, deps.redis)
    limiter = Limiter(
        key_func=get_remote_address,
        app=app,
        storage_uri=uri,
        storage_options=options,
        strategy="fixed-window",
        key_prefix=f"{config.key_prefix}limits",  # keys LIMITS:LIMITER/<this>/...
        enabled=config.rate_limits,
        swallow_errors=True,  # Redis down: serve (and fail there), do not refuse everyone
    )
    # Shared limits: the generic and the typed command routes count together.
    create = limiter.shared_limit(
        config.rate_limit_create, "create", key_func=get_remote_address, methods=["POST"]
    )
    seat_limits = SeatLimits(limiter, config)
    players = limiter.shared_limit(
        config.rate_limit_players, "players", key_func=get_remote_address, methods=["POST"]
    )
    for endpoint, view in list(app.view_functions.items()):
        if endpoint in CREATE:
            app.view_functions[endpoint] = create(view)
        elif endpoint in PLAYERS:
            app.view_functions[endpoint] = players(view)
        elif endpoint.endswith(COMMANDS):
            app.view_functions[endpoint] = seat_limits.counted(view)
    app.register_error_handler(RateLimitExceeded, lambda error: _refused(limiter, error))
    app.extensions["tablestream.seat_limits"] = seat_limits
    app.extensions["tablestream.invitation_limits"] = InvitationLimits(limiter, config)
    leases = Leases(deps.redis, f"{config.key_prefix}open:", config.rate_limit_streams)
    app.extensions["tablestream.leases"] = leases
    app.extensions["tablestream.upload_quota"] = UploadQuota(deps, config.upload_quota)


def _storage(config, client):
    """flask-limiter's storage: the deployment's Redis, through the app's own pool
    (on a cluster, a cluster client of its own from the same URL). Its counters live
    apart from the deployment's data (under LIMITS:), so a refused request leaves
    nothing under KEY_PREFIX."""
    if isinstance(client, RedisCluster):
        node = client.get_default_node()
        netloc = urlsplit(config.redis_url).netloc if config.redis_cluster else None
        return f"redis+cluster://{netloc or f'{node.host}:{node.port}'}", {}
    return config.redis_url, {"connection_pool": client.connection_pool}


def _refused(limiter, error):
    breached = limiter.current_limit
    reset = breached.window[0] if breached else time.time() + 1
    detail, headers = refusal(error.description, reset)
    return problem("rate_limited", detail, headers=headers)


def refusal(description, reset):
    """The 429's detail and headers for a limit described as `description` (e.g.
    "60 per 1 second") whose window ends at `reset` (epoch seconds)."""
    retry = max(1, math.ceil(reset - time.time()))
    detail = f"too many requests ({description}); retry in {retry} s"
    return detail, {"Retry-After": str(retry)}


class SeatLimits:
    """The commands' per-seat limit: the one count of a seat's commands, for the
    command routes (`counted`) and the fast path (services/api/fast_path.py) alike. It
    counts in flask-limiter's storage, with its fixed windows, keys and log lines: a
    seat's counter is "seat:<game id>:<seat>", the game and seat its token names once
    verified (so one seat has one counter, however its token is sent)."""

    def __init__(self, limiter, config):
        self.limiter = limiter
        # flask-limiter's order: by window length, shortest first (its RateLimitItem's <).
        self.items = sorted(parse_many(config.rate_limit_commands))
        self.prefix = f"{config.key_prefix}limits"
        storage = limiter.storage
        # One Redis server, fixed windows: every window's hit in one script call.
        self.one_trip = type(storage) is RedisStorage and type(limiter.limiter) is FixedWindow
        if self.one_trip:
            self.storage = storage
            self._hits = storage.storage.register_script(_HITS)
            self.expiries = [x for i in self.items for x in (i.get_expiry(), i.amount)]

    def counted(self, view):
        """`view`, a command route, counting each command of a seat's token first (a
        request without a valid seat token is the route's to refuse, uncounted)."""

        @functools.wraps(view)
        def counted(*args, **kwargs):
            game_id = kwargs.get("game_id")
            try:
                seat = auth.seat_of(game_id, context.deps().service.secret, required=True)
            except ApiError:
                seat = None
            if seat is not None:
                self.count(game_id, seat, {})
            return view(*args, **kwargs)

        return counted

    def count(self, game_id, seat, log_extra):
        """Count one command of `seat` in `game_id`; ApiError rate_limited (with its
        Retry-After) when that breaches a limit."""
        refused = self.breached(game_id, seat, log_extra)
        if refused:
            detail, headers = refused
            raise ApiError("rate_limited", detail, headers=headers)

    def breached(self, game_id, seat, log_extra):
        """None when the seat may send one more command now (counted); else the 429's
        (detail, headers). Storage errors are logged and let the command through, as
        flask-limiter's swallow_errors does."""
        args = (self.prefix, f"seat:{game_id}:{seat}", "commands")
        strategy = self.limiter.limiter
        try:
            if self.one_trip:
                item = self._hit_all(args)
            else:
                item = next((i for i in self.items if not strategy.hit(i, *args)), None)
        except Exception:
            self.limiter.logger.exception("Failed to rate limit. Swallowing error", extra=log_extra)
            return None
        if item is None:
            return None
        self.limiter.logger.info(
            "ratelimit %s (%s) exceeded at endpoint: %s", item, args[1], args[2], extra=log_extra
        )
        return refusal(str(item), strategy.get_window_stats(item, *args).reset_time)

    def _hit_all(self, args):
        """The first window breached (None: none), each hit as `limits`' fixed window
        counts it (its keys, INCRBY then EXPIRE on the first), in one round trip."""
        keys = [self.storage.prefixed_key(item.key_for(*args)) for item in self.items]
        words = ("EVALSHA", self._hits.sha, len(keys), *keys, *self.expiries)
        try:
            breached = pooled_call(self.storage.storage, *words)
        except (NoScriptError, ConnectionError, TimeoutError):  # redis-py's way: it
            breached = self._hits(keys=keys, args=self.expiries)  # loads it, retries
        return self.items[breached - 1] if breached else None


class InvitationLimits:
    """How many invitations one player (or one client address, for a creator without a
    player token) may send, in flask-limiter's storage and fixed windows: its counter is
    "invitations:player:<id>" or "invitations:address:<address>"."""

    def __init__(self, limiter, config):
        self.limiter = limiter
        self.items = sorted(parse_many(config.rate_limit_invitations))  # shortest first
        self.prefix = f"{config.key_prefix}limits"

    def count(self, invitations, player_id=None):
        """Count `invitations` sent by `player_id` (None: the caller's address); ApiError
        rate_limited (with Retry-After), counted in no later window, when that takes a
        window past its cap. Storage errors let it through, as flask-limiter's
        swallow_errors does."""
        if invitations <= 0:
            return
        who = f"player:{player_id}" if player_id else f"address:{get_remote_address()}"
        args = (self.prefix, f"invitations:{who}", "invitations")
        strategy = self.limiter.limiter
        try:
            item = next(
                (i for i in self.items if not strategy.hit(i, *args, cost=invitations)), None
            )
        except Exception:
            self.limiter.logger.exception("Failed to rate limit. Swallowing error")
            return
        if item is not None:
            detail, headers = refusal(str(item), strategy.get_window_stats(item, *args).reset_time)
            raise ApiError("rate_limited", f"invitations: {detail}", headers=headers)


def count_invitations(invitations, player_id=None):
    """Count invitations against their sender (none when the limits are off)."""
    limits = current_app.extensions.get("tablestream.invitation_limits")
    if limits is not None:
        limits.count(invitations, player_id)


# KEYS[1] the address's bytes today; ARGV: the upload's size, the quota, the key's
# lifetime (s). Count the upload unless it takes the day past the quota.
_CHARGE = """
local used = redis.call('INCRBY', KEYS[1], ARGV[1])
if used == tonumber(ARGV[1]) then redis.call('EXPIRE', KEYS[1], ARGV[3]) end
if used > tonumber(ARGV[2]) then redis.call('DECRBY', KEYS[1], ARGV[1]) return 0 end
return 1
"""
DAY = 24 * 3600


class UploadQuota:
    """The bytes of uploaded logs each client address may store a day."""

    def __init__(self, deps, quota):
        self.redis, self.keys, self.quota = deps.redis, deps.keys, quota
        self._charge = self.redis.register_script(_CHARGE)

    def _key(self):
        return self.keys.upload_quota(get_remote_address(), int(time.time()) // DAY)

    def charge(self, size):
        """Count `size` bytes against the caller's day, or ApiError rate_limited."""
        if self._charge(keys=[self._key()], args=[size, self.quota, DAY + 60]):
            return
        retry = DAY - int(time.time()) % DAY
        raise ApiError(
            "rate_limited",
            f"your address has stored its {self.quota} bytes of uploaded logs for today",
            headers={"Retry-After": str(retry)},
        )


def charge_upload(size):
    """Count an upload of `size` bytes against its address's daily quota (none when the
    limits are off); ApiError rate_limited past it."""
    quota = current_app.extensions.get("tablestream.upload_quota")
    if quota is not None:
        quota.charge(size)


class Leases:
    """Open long-polls and streams per client address, counted across processes."""

    def __init__(self, redis, prefix, cap):
        self.redis = redis
        self.prefix = prefix
        self.cap = cap
        self._take = redis.register_script(_TAKE)

    def take(self, seconds):
        """A lease for `seconds` on the caller's address, or ApiError rate_limited."""
        key = self.prefix + get_remote_address()
        lease, now = secrets.token_hex(8), time.time()
        taken, until = self._take(
            keys=[key],
            args=[_ms(now), _ms(now + seconds), lease, self.cap, _ms(LONGEST_LEASE + 1)],
        )
        if not taken:
            retry = max(1, math.ceil(float(until) / 1000 - now))
            raise ApiError(
                "rate_limited",
                f"{self.cap} long-polls and event streams are open from your address already",
                headers={"Retry-After": str(retry)},
            )
        return Lease(self.redis, key, lease)


class Lease:
    """One open long-poll's or stream's place in its address's cap."""

    def __init__(self, redis, key, lease):
        self.redis, self.key, self.lease = redis, key, lease

    def renew(self, seconds):
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(self.key, {self.lease: _ms(time.time() + seconds)}, xx=True)
        pipe.pexpire(self.key, _ms(LONGEST_LEASE + 1))
        pipe.execute()

    def release(self):
        self.redis.zrem(self.key, self.lease)


class NoLeases:
    """RATE_LIMITS=off: every request gets a lease that holds nothing."""

    def take(self, seconds):
        return self

    def renew(self, seconds):
        pass

    def release(self):
        pass


def lease(seconds):
    """A lease on one of the caller's open waits (ApiError rate_limited past the cap)."""
    return current_app.extensions["tablestream.leases"].take(seconds)


@contextmanager
def open_wait(seconds):
    """Hold a lease while a long-poll waits, counted as an open long-poll (one that
    finds its version passed answers at once and is not)."""
    held = lease(seconds + 5)
    metrics.LONG_POLLS.inc()
    try:
        yield
    finally:
        metrics.LONG_POLLS.dec()
        held.release()


def _ms(seconds):
    return int(seconds * 1000)
