"""Integration fixtures: the service's real parts wired to fakeredis or a real Redis."""

import pytest


@pytest.fixture
def deps_redis(any_redis):
    """Deps on both backends (tests/conftest.py's `deps`)."""
    return any_redis


@pytest.fixture
def hook_env(monkeypatch):
    """Webhooks to a receiver on this machine (http, 127.0.0.1), retried quickly."""
    monkeypatch.setenv("WEBHOOK_ALLOW_HTTP", "1")
    monkeypatch.setenv("WEBHOOK_ALLOW_PRIVATE", "1")
    monkeypatch.setenv("WEBHOOK_BACKOFF_SECONDS", "0.02")
    monkeypatch.setenv("WEBHOOK_TIMEOUT_SECONDS", "2")
    return monkeypatch
