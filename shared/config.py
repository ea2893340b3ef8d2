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
    trusted_proxies: int = 0
    rate_limit_players: str = "30/hour"  # guest players made per client address
    # Trusted issuers of players' JWTs (shared/players/issuers.py): a JSON list.
    player_issuers: str = ""

    @classmethod
    def from_env(cls, env=None):
        """Read REDIS_URL (else the URL an embedded Redis of RUN_DIR wrote, else
        127.0.0.1:6379), QUEUE_URL (defaults to REDIS_URL), REDIS_CLUSTER, TOKEN_SECRET,
        FEED_PARTITIONS, KEY_PREFIX, WAITING_EXPIRES_AFTER, IDLE_EXPIRES_AFTER,
        FINISHED_READ_MODELS_TTL (seconds, or 0/off), RATE_LIMITS, RATE_LIMIT_CREATE,
        RATE_LIMIT_COMMANDS, RATE_LIMIT_STREAMS, TRUSTED_PROXIES, RATE_LIMIT_PLAYERS,
        PLAYER_ISSUERS."""
        env = os.environ if env is None else env
        redis_url, redis_url_from = _redis_url(env)
        return cls(
            redis_url=redis_url,
            queue_url=env.get("QUEUE_URL") or redis_url,
            token_secret=env.get("TOKEN_SECRET") or None,
            redis_cluster=env.get("REDIS_CLUSTER", "").lower() in ("1", "true", "yes"),
            feed_partitions=int(env.get("FEED_PARTITIONS", "4")),
            key_prefix=env.get("KEY_PREFIX", ""),
            redis_url_from=redis_url_from,
            waiting_expires_after=int(env.get("WAITING_EXPIRES_AFTER", 24 * 3600)),
            idle_expires_after=int(env.get("IDLE_EXPIRES_AFTER", 7 * 24 * 3600)),
            finished_read_models_ttl=_seconds_or_off(
                env.get("FINISHED_READ_MODELS_TTL"), cls.finished_read_models_ttl
            ),
            rate_limits=env.get("RATE_LIMITS", "on").lower() not in ("off", "0", "false", "no"),
            rate_limit_create=env.get("RATE_LIMIT_CREATE") or cls.rate_limit_create,
            rate_limit_commands=env.get("RATE_LIMIT_COMMANDS") or cls.rate_limit_commands,
            rate_limit_streams=int(env.get("RATE_LIMIT_STREAMS") or cls.rate_limit_streams),
            trusted_proxies=int(env.get("TRUSTED_PROXIES") or 0),
            rate_limit_players=env.get("RATE_LIMIT_PLAYERS") or cls.rate_limit_players,
            player_issuers=env.get("PLAYER_ISSUERS", ""),
        )


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
