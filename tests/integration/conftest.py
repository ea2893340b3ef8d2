"""Integration fixtures: the service's real parts wired to fakeredis or a real Redis."""

import pytest

from services.api import create_app
from services.projector.build import projector_of


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


@pytest.fixture
def client(deps):
    """The API in this process, over the test's deps."""
    return create_app(deps).test_client()


@pytest.fixture
def projector(deps):
    """A projector that has joined its consumer group: it reads what is appended next."""
    p = projector_of(deps, consumer="test")
    p.join_group()
    return p
