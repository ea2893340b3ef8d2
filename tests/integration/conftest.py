"""Integration fixtures: the service's real parts wired to fakeredis or a real Redis."""

import pytest

from services import deps as deps_module
from services.projector.build import projector_of
from tests.fixtures import build_deps


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
