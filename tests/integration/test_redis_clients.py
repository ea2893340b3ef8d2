"""The service's Redis clients (services.deps.connect) keep redis-py's guard against
reading a reply meant for another command: a pooled connection that holds an unread
reply is not handed out as it is. redis-py 8's maintenance notifications, on by
default, skip that check. (redis-py's own read path already drops a connection whose
read was cut off; the guard is for any other way a reply is left behind.)"""

import uuid

from services import deps as deps_module


def leave_a_reply_unread(pool, key):
    connection = pool.get_connection()
    connection.send_command("GET", key)  # sent, its reply never read
    assert connection.can_read(timeout=5)  # it has landed, where the pool's check looks
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
