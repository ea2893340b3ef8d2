"""Webhook settings, read from the environment (through Config) when used: tests and
operators change them while a process runs."""

from dataclasses import dataclass

from shared.config import Config

MAX_RESPONSE = 64 * 1024  # bytes of a receiver's answer read at most
DEDUPE_SECONDS = 7 * 24 * 3600  # how long a notification's delivery is remembered
DEAD_LETTERS_KEPT = 10_000


@dataclass(frozen=True)
class Settings:
    allow_http: bool = Config.webhook_allow_http  # http:// URLs too (local testing)
    allow_private: bool = Config.webhook_allow_private  # loopback, private... addresses too
    attempts: int = Config.webhook_attempts  # tries of one delivery before its dead letter
    backoff_seconds: float = Config.webhook_backoff_seconds  # before the 2nd try, doubling
    max_backoff_seconds: float = 300.0
    timeout_seconds: float = Config.webhook_timeout_seconds  # to connect, and each read
    pause_after: int = Config.webhook_pause_after  # dead letters in a row that pause one
    max_age_seconds: float = 3600.0  # notifications of older events are not sent (a rebuild)

    @classmethod
    def from_env(cls, env=None):
        """The settings WEBHOOK_* give now (Config.from_env)."""
        config = Config.from_env(env)
        return cls(
            allow_http=config.webhook_allow_http,
            allow_private=config.webhook_allow_private,
            attempts=config.webhook_attempts,
            backoff_seconds=config.webhook_backoff_seconds,
            timeout_seconds=config.webhook_timeout_seconds,
            pause_after=config.webhook_pause_after,
        )
