"""Configuration read from the environment, in one place."""

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Config:
    redis_url: str
    queue_url: str
    token_secret: str | None = None
    redis_cluster: bool = False
    feed_partitions: int = 4
    key_prefix: str = ""
    # Abuse limits of the API (services/api/limits.py); RATE_LIMITS=off for load tests.
    rate_limits: bool = True
    rate_limit_create: str = "120/minute"
    rate_limit_commands: str = "60/second;1800/minute"
    rate_limit_streams: int = 200
    trusted_proxies: int = 0

    @classmethod
    def from_env(cls, env=None):
        """Read REDIS_URL, QUEUE_URL (defaults to REDIS_URL), REDIS_CLUSTER, TOKEN_SECRET,
        FEED_PARTITIONS, KEY_PREFIX, RATE_LIMITS, RATE_LIMIT_CREATE, RATE_LIMIT_COMMANDS,
        RATE_LIMIT_STREAMS, TRUSTED_PROXIES."""
        env = os.environ if env is None else env
        redis_url = env.get("REDIS_URL", "redis://127.0.0.1:6379/0")
        return cls(
            redis_url=redis_url,
            queue_url=env.get("QUEUE_URL") or redis_url,
            token_secret=env.get("TOKEN_SECRET") or None,
            redis_cluster=env.get("REDIS_CLUSTER", "").lower() in ("1", "true", "yes"),
            feed_partitions=int(env.get("FEED_PARTITIONS", "4")),
            key_prefix=env.get("KEY_PREFIX", ""),
            rate_limits=env.get("RATE_LIMITS", "on").lower() not in ("off", "0", "false", "no"),
            rate_limit_create=env.get("RATE_LIMIT_CREATE") or cls.rate_limit_create,
            rate_limit_commands=env.get("RATE_LIMIT_COMMANDS") or cls.rate_limit_commands,
            rate_limit_streams=int(env.get("RATE_LIMIT_STREAMS") or cls.rate_limit_streams),
            trusted_proxies=int(env.get("TRUSTED_PROXIES") or 0),
        )
