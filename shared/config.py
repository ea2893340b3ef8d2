"""Configuration read from the environment, in one place."""

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
# Where `make run` keeps its state; its embedded Redis writes its URL in REDIS_URL_FILE
# there, so every command of the project (rebuild, replay, a second worker) finds it.
RUN_DIR = Path(__file__).resolve().parents[1] / ".run"
REDIS_URL_FILE = "redis.url"


@dataclass(frozen=True)
class Config:
    redis_url: str
    queue_url: str
    token_secret: str | None = None
    redis_cluster: bool = False
    feed_partitions: int = 4
    key_prefix: str = ""
    # Where redis_url came from: "REDIS_URL", the embedded Redis's URL file, or "default".
    redis_url_from: str = "REDIS_URL"
    # Abandoned games expire (a game_expired event): waiting with no seat claimed, or
    # active with nobody acting, for this long.
    waiting_expires_after: int = 24 * 3600
    idle_expires_after: int = 7 * 24 * 3600
    # The read models (views, summary, checkpoint) of a finished or cancelled game expire
    # this long after it ended; 0 keeps them for good. Its events are always kept.
    finished_read_models_ttl: int = 7 * 24 * 3600
    # Abuse limits of the API (services/api/limits.py); RATE_LIMITS=off for load tests.
    rate_limits: bool = True
    rate_limit_create: str = "120/minute"
    rate_limit_commands: str = "60/second;1800/minute"
    rate_limit_streams: int = 200
    upload_quota: int = 16 * 1024 * 1024  # bytes of uploaded logs stored an address a day
    trusted_proxies: int = 0
    rate_limit_players: str = "30/hour"  # guest players made per client address
    # Invitations ({"player": "<id>"} seats) one player (or, without a player token,
    # one client address) may send.
    rate_limit_invitations: str = "60/hour;300/day"
    # Trusted issuers of players' JWTs (shared/players/issuers.py): a JSON list.
    player_issuers: str = ""
    # When an append is acknowledged (docs/operations.md, "Durable acknowledgements"):
    # "always" (Redis fsyncs before it replies: make run's embedded Redis is started so;
    # set appendfsync always on your own), "everysec" (it fsyncs every second), or
    # "replica" (WAIT for DURABILITY_REPLICAS replicas, at most DURABILITY_TIMEOUT_MS,
    # then refuse).
    durability: str = "always"
    durability_replicas: int = 1
    durability_timeout_ms: int = 1000
    # Origins browsers may call the API from (comma-separated, or "*"); "" keeps CORS off.
    cors_origins: str = ""
    # What `make run` (services/run.py) starts, where it listens and keeps its state.
    port: int = 8000
    projectors: int = 1
    workers: int = 2
    background_nice: int = 0  # niceness added to the projectors and workers (0 to 19)
    # Workers for the games of bots only (the `background` queue), this much nicer still.
    background_workers: int = 1
    background_worker_nice: int = 10
    run_dir: Path = RUN_DIR
    # Logs (services/ops/logs.py): "json" lines or "text", and the level.
    log_format: str = "json"
    log_level: str = "INFO"
    # The /metrics, /healthz and /readyz server beside a projector or worker (0: none),
    # and the folder the API's processes share their metrics in (prometheus_client's
    # own variable, which it reads too).
    metrics_port: int | None = None  # unset: none, but `make run` gives each a free port
    metrics_host: str = "127.0.0.1"
    metrics_dir: str | None = None
    # /readyz's thresholds, seconds (services/ops/health.py).
    ready_projector_lag: float = 10.0
    ready_queue_age: float = 30.0
    ready_heartbeat_age: float = 60.0
    # Webhook deliveries (services/webhooks/settings.py).
    webhook_allow_http: bool = False
    webhook_allow_private: bool = False
    webhook_attempts: int = 6
    webhook_backoff_seconds: float = 2.0
    webhook_timeout_seconds: float = 5.0
    webhook_pause_after: int = 3
    # Bot levels a worker must be able to play beside the built-in ones (comma-separated
    # names of installed plugins): it will not start without them (docs/bots.md).
    bot_levels: tuple = ()
    # The WebSocket channel (services/api/live.py): a protocol ping this often, and a
    # peer that has not answered the last one by the next is closed; a send that waits
    # this long on a client that does not read closes it as a slow consumer.
    ws_ping_seconds: float = 25.0
    ws_send_seconds: float = 10.0
    # Sockets one API process holds at most (fewer if its open-file limit holds fewer:
    # services/ops/files.py); an upgrade beyond is refused (503 sockets_full) so that
    # the process keeps room for plain requests (gunicorn's worker_connections).
    ws_max_sockets: int = 11_000
    # Rate games that seat bots (the bots' ratings stay fixed): shared/ratings/fold.py.
    rate_bot_games: bool = False
    # Tables each API process keeps folded in memory (services/game/service.py): the
    # hot path's cache, least recently used first out; its memory is about this many
    # tables' states (docs/operations.md, "The soak").
    table_cache: int = 2048

    @classmethod
    def from_env(cls, env=None):
        """Every setting of the environment (`os.environ`, or `env`): REDIS_URL (else
        the URL an embedded Redis of RUN_DIR wrote, else 127.0.0.1:6379), QUEUE_URL
        (defaults to REDIS_URL), and each field below by its name in capitals (the
        README's configuration table lists them). Read when used, so a process (or a
        test) that changes its environment sees the change."""
        env = os.environ if env is None else env
        redis_url, redis_url_from = _redis_url(env)
        return cls(
            redis_url=redis_url,
            queue_url=env.get("QUEUE_URL") or redis_url,
            token_secret=env.get("TOKEN_SECRET") or None,
            redis_cluster=_flag(env.get("REDIS_CLUSTER")),
            feed_partitions=int(env.get("FEED_PARTITIONS") or cls.feed_partitions),
            key_prefix=env.get("KEY_PREFIX", ""),
            redis_url_from=redis_url_from,
            waiting_expires_after=int(
                env.get("WAITING_EXPIRES_AFTER") or cls.waiting_expires_after
            ),
            idle_expires_after=int(env.get("IDLE_EXPIRES_AFTER") or cls.idle_expires_after),
            finished_read_models_ttl=_seconds_or_off(
                env.get("FINISHED_READ_MODELS_TTL"), cls.finished_read_models_ttl
            ),
            rate_limits=env.get("RATE_LIMITS", "on").lower() not in ("off", "0", "false", "no"),
            rate_limit_create=env.get("RATE_LIMIT_CREATE") or cls.rate_limit_create,
            rate_limit_commands=env.get("RATE_LIMIT_COMMANDS") or cls.rate_limit_commands,
            rate_limit_streams=int(env.get("RATE_LIMIT_STREAMS") or cls.rate_limit_streams),
            upload_quota=int(env.get("UPLOAD_QUOTA") or cls.upload_quota),
            trusted_proxies=int(env.get("TRUSTED_PROXIES") or 0),
            rate_limit_players=env.get("RATE_LIMIT_PLAYERS") or cls.rate_limit_players,
            rate_limit_invitations=env.get("RATE_LIMIT_INVITATIONS") or cls.rate_limit_invitations,
            player_issuers=env.get("PLAYER_ISSUERS", ""),
            durability=_durability(env.get("DURABILITY") or cls.durability),
            durability_replicas=int(env.get("DURABILITY_REPLICAS") or cls.durability_replicas),
            durability_timeout_ms=int(
                env.get("DURABILITY_TIMEOUT_MS") or cls.durability_timeout_ms
            ),
            cors_origins=env.get("CORS_ORIGINS", ""),
            port=int(env.get("PORT") or cls.port),
            projectors=int(env.get("PROJECTORS") or cls.projectors),
            workers=int(env.get("WORKERS") or cls.workers),
            background_nice=min(19, max(0, int(env.get("BACKGROUND_NICE") or 0))),
            background_workers=int(env.get("BACKGROUND_WORKERS") or cls.background_workers),
            background_worker_nice=min(
                19,
                max(0, int(env.get("BACKGROUND_WORKER_NICE") or cls.background_worker_nice)),
            ),
            run_dir=Path(env.get("RUN_DIR") or RUN_DIR),
            log_format=(env.get("LOG_FORMAT") or cls.log_format).lower(),
            log_level=(env.get("LOG_LEVEL") or cls.log_level).upper(),
            metrics_port=int(env["METRICS_PORT"]) if env.get("METRICS_PORT") else None,
            metrics_host=env.get("METRICS_HOST") or cls.metrics_host,
            metrics_dir=env.get("PROMETHEUS_MULTIPROC_DIR") or None,
            ready_projector_lag=float(env.get("READY_PROJECTOR_LAG") or cls.ready_projector_lag),
            ready_queue_age=float(env.get("READY_QUEUE_AGE") or cls.ready_queue_age),
            ready_heartbeat_age=float(env.get("READY_HEARTBEAT_AGE") or cls.ready_heartbeat_age),
            webhook_allow_http=_flag(env.get("WEBHOOK_ALLOW_HTTP")),
            webhook_allow_private=_flag(env.get("WEBHOOK_ALLOW_PRIVATE")),
            webhook_attempts=int(env.get("WEBHOOK_ATTEMPTS") or cls.webhook_attempts),
            webhook_backoff_seconds=float(
                env.get("WEBHOOK_BACKOFF_SECONDS") or cls.webhook_backoff_seconds
            ),
            webhook_timeout_seconds=float(
                env.get("WEBHOOK_TIMEOUT_SECONDS") or cls.webhook_timeout_seconds
            ),
            webhook_pause_after=int(env.get("WEBHOOK_PAUSE_AFTER") or cls.webhook_pause_after),
            bot_levels=tuple(
                name.strip() for name in env.get("BOT_LEVELS", "").split(",") if name.strip()
            ),
            ws_ping_seconds=float(env.get("WS_PING_SECONDS") or cls.ws_ping_seconds),
            ws_send_seconds=float(env.get("WS_SEND_SECONDS") or cls.ws_send_seconds),
            ws_max_sockets=int(env.get("WS_MAX_SOCKETS") or cls.ws_max_sockets),
            rate_bot_games=_flag(env.get("RATE_BOT_GAMES")),
            table_cache=int(env.get("TABLE_CACHE") or cls.table_cache),
        )


DURABILITY = ("everysec", "always", "replica")


def _durability(raw):
    mode = raw.strip().lower()
    if mode not in DURABILITY:
        raise ValueError(f"DURABILITY is one of {', '.join(DURABILITY)}: {raw!r}")
    return mode


def _flag(raw):
    """A yes/no setting: "1", "true" or "yes" (any case) is yes."""
    return (raw or "").lower() in ("1", "true", "yes")


def _seconds_or_off(raw, default):
    """A number of seconds from the environment; "off" (or 0) is 0: never."""
    if raw is None or raw.strip() == "":
        return default
    if raw.strip().lower() in ("off", "no", "false", "never"):
        return 0
    seconds = int(raw)
    if seconds < 0:
        raise ValueError(f"a number of seconds, 0 or more, or off: {raw!r}")
    return seconds


def redis_url_file(env=None):
    """The file an embedded Redis started for RUN_DIR (default `.run`) writes its URL to."""
    env = os.environ if env is None else env
    return Path(env.get("RUN_DIR") or RUN_DIR) / REDIS_URL_FILE


def _redis_url(env):
    if env.get("REDIS_URL"):
        return env["REDIS_URL"], "REDIS_URL"
    path = redis_url_file(env)
    if path.is_file():
        return path.read_text().strip(), str(path)
    return DEFAULT_REDIS_URL, "default"
