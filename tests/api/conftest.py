"""API tests: the Flask app in-process (test client), its Deps on fakeredis."""

import io
import logging

import pytest

from services.api import create_app
from services.ops import logs, web


@pytest.fixture
def app(deps):
    return create_app(deps)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def answers_seen(monkeypatch):
    """What the API records of each answer: (the request metrics' (method, route,
    status) in order, the log lines written as the API writes them)."""
    observed = []
    monkeypatch.setattr(
        web.metrics, "request_answered", lambda *answer: observed.append(answer[:3])
    )
    stream = io.StringIO()
    logs.setup("api")
    logging.getLogger().handlers[0].setStream(stream)
    return observed, stream
