"""API tests: the Flask app in-process (test client), its Deps on fakeredis."""

import fakeredis
import pytest

from services.api import create_app
from tests.integration.conftest import build_deps


@pytest.fixture
def deps(keys):
    return build_deps(fakeredis.FakeRedis(), keys)


@pytest.fixture
def app(deps):
    return create_app(deps)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def projector(deps):
    return deps.projector(consumer="test")
