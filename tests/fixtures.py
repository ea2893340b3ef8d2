"""What fixtures and tests of every layer build on: a deployment's Deps on a given Redis
client, with this test's own key prefix. Not a test module."""

from services import deps as deps_module
from shared.config import Config


def build_deps(client, keys, queue_client=None):
    """The service's parts wired to `client` (fakeredis or a real Redis) under `keys`'
    prefix; RQ on `queue_client` (default: the same client)."""
    config = Config(
        redis_url="redis://unused",
        queue_url="redis://unused",
        token_secret="test-secret",
        key_prefix=keys.prefix,
        durability="everysec",  # what the test servers run
    )
    return deps_module.build(config, client=client, queue_client=queue_client or client)
