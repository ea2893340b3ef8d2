"""Integration fixtures: the service's real parts wired to fakeredis or a real Redis."""

import pytest

from services import deps as deps_module
from services.projector.build import projector_of
from shared.config import Config


def build_deps(client, keys, queue_client=None):
    config = Config(
        redis_url="redis://unused",
        queue_url="redis://unused",
        token_secret="test-secret",
        key_prefix=keys.prefix,
    )
    return deps_module.build(config, client=client, queue_client=queue_client or client)


@pytest.fixture
def deps(any_redis, keys):
    """Deps on both backends, installed as the process's own (RQ jobs look them up)."""
    d = build_deps(any_redis, keys)
    deps_module.install(d)
    yield d
    deps_module.install(None)


@pytest.fixture
def projector(deps):
    return projector_of(deps, consumer="test")
