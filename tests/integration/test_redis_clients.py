"""The service's Redis clients (services.deps.connect) never give a command a reply
that was meant for another: a connection returned to the pool with a reply unread
(a command cut off between its send and its read) is not handed out as it is.
redis-py 8's maintenance notifications, on by default, skip that check."""

import uuid

from services import deps as deps_module


def leave_a_reply_unread(pool, key):
    connection = pool.get_connection()
    connection.send_command("GET", key)  # sent, its reply never read
    pool.release(connection)


def test_a_reply_left_unread_is_not_read_by_the_next_command(redis_url):
    client = deps_module.connect(redis_url)
    mine, yours = f"stale-{uuid.uuid4().hex}", f"stale-{uuid.uuid4().hex}"
    try:
        client.set(mine, "my view")
        leave_a_reply_unread(client.connection_pool, mine)
        assert client.set(yours, "your view") is True
        assert client.get(yours) == b"your view"
    finally:
        client.delete(mine, yours)
        client.close()


def test_on_a_cluster_too(cluster_url):
    client = deps_module.connect(cluster_url, cluster=True)
    mine, yours = "{stale}mine", "{stale}yours"  # one slot, so one node's pool
    try:
        client.set(mine, "my view")
        leave_a_reply_unread(client.get_node_from_key(mine).redis_connection.connection_pool, mine)
        assert client.set(yours, "your view") is True
        assert client.get(yours) == b"your view"
    finally:
        client.delete(mine)
        client.delete(yours)
        client.close()
