"""Fixtures shared by every layer.

Real Redis: the server named by REDIS_URL when set, else an embedded redis-server this
session starts (never the machine's own Redis on 6379). Each test gets its own key
prefix and queue name, so tests never see each other's data.
"""

import os
import uuid

import fakeredis
import pytest
import redis

from services import embedded_redis
from shared.keys import Keys


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    process, url = embedded_redis.start(tmp_path_factory.mktemp("redis"))
    yield url
    process.terminate()
    process.wait(10)


@pytest.fixture
def real_redis(redis_url):
    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()


@pytest.fixture
def fake_redis():
    return fakeredis.FakeRedis()


@pytest.fixture
def keys():
    """A key prefix of this test's own."""
    return Keys(prefix=f"t{uuid.uuid4().hex[:10]}:")


@pytest.fixture(params=["fakeredis", "redis"])
def any_redis(request):
    """Both backends: contract tests run once against each."""
    if request.param == "fakeredis":
        return request.getfixturevalue("fake_redis")
    return request.getfixturevalue("real_redis")
