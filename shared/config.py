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

    @classmethod
    def from_env(cls, env=None):
        """Read REDIS_URL, QUEUE_URL (defaults to REDIS_URL), REDIS_CLUSTER, TOKEN_SECRET,
        FEED_PARTITIONS, KEY_PREFIX."""
        env = os.environ if env is None else env
        redis_url = env.get("REDIS_URL", "redis://127.0.0.1:6379/0")
        return cls(
            redis_url=redis_url,
            queue_url=env.get("QUEUE_URL") or redis_url,
            token_secret=env.get("TOKEN_SECRET") or None,
            redis_cluster=env.get("REDIS_CLUSTER", "").lower() in ("1", "true", "yes"),
            feed_partitions=int(env.get("FEED_PARTITIONS", "4")),
            key_prefix=env.get("KEY_PREFIX", ""),
        )
