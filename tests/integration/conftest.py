"""Integration fixtures: the service's real parts wired to fakeredis or a real Redis."""

import pytest


@pytest.fixture
def deps_redis(any_redis):
    """Deps on both backends (tests/conftest.py's `deps`)."""
    return any_redis
