"""Webhook settings, read from the environment when used (tests change them)."""

import os
from dataclasses import dataclass

MAX_RESPONSE = 64 * 1024  # bytes of a receiver's answer read at most
DEDUPE_SECONDS = 7 * 24 * 3600  # how long a notification's delivery is remembered
DEAD_LETTERS_KEPT = 10_000


def _flag(env, name):
    return env.get(name, "").lower() in ("1", "true", "yes")


@dataclass(frozen=True)
class Settings:
    allow_http: bool = False  # WEBHOOK_ALLOW_HTTP: http:// URLs too (local testing)
    allow_private: bool = False  # WEBHOOK_ALLOW_PRIVATE: loopback, private... addresses too
    attempts: int = 6  # WEBHOOK_ATTEMPTS: tries of one delivery before its dead letter
    backoff_seconds: float = 2.0  # WEBHOOK_BACKOFF_SECONDS: wait before the 2nd try, doubling
    max_backoff_seconds: float = 300.0
    timeout_seconds: float = 5.0  # WEBHOOK_TIMEOUT_SECONDS: to connect, and each read
    pause_after: int = 3  # WEBHOOK_PAUSE_AFTER: dead letters in a row that pause a subscriber
    max_age_seconds: float = 3600.0  # notifications of older events are not sent (a rebuild)

    @classmethod
    def from_env(cls, env=None):
        env = os.environ if env is None else env
        return cls(
            allow_http=_flag(env, "WEBHOOK_ALLOW_HTTP"),
            allow_private=_flag(env, "WEBHOOK_ALLOW_PRIVATE"),
            attempts=int(env.get("WEBHOOK_ATTEMPTS", cls.attempts)),
            backoff_seconds=float(env.get("WEBHOOK_BACKOFF_SECONDS", cls.backoff_seconds)),
            timeout_seconds=float(env.get("WEBHOOK_TIMEOUT_SECONDS", cls.timeout_seconds)),
            pause_after=int(env.get("WEBHOOK_PAUSE_AFTER", cls.pause_after)),
        )
