"""The API process's watcher: one subscription, waking only the requests it concerns."""

import threading
import time

import fakeredis

from services.api.watch import Watcher


def started_watcher():
    client = fakeredis.FakeRedis()
    watcher = Watcher(client, "changes")
    watcher._start()
    deadline = time.monotonic() + 5
    while client.pubsub_numsub("changes")[0][1] == 0:  # subscribed by now
        assert time.monotonic() < deadline
        time.sleep(0.01)
    return client, watcher


def wait_in_background(watcher, game_id, after, reads):
    answers = []

    def version_now():
        reads.append(1)
        return 0

    thread = threading.Thread(
        target=lambda: answers.append(watcher.wait(game_id, after, 10, version_now))
    )
    thread.start()
    time.sleep(0.1)  # it is waiting by now
    return thread, answers


def test_a_published_version_wakes_its_waiter_without_another_read():
    client, watcher = started_watcher()
    reads = []
    thread, answers = wait_in_background(watcher, "g1", 3, reads)
    client.publish("changes", "g1 4")
    thread.join(5)
    assert answers == [True] and len(reads) == 1  # the one read before it waited


def test_a_version_that_does_not_pass_or_another_game_wakes_nobody():
    client, watcher = started_watcher()
    thread, answers = wait_in_background(watcher, "g1", 3, [])
    client.publish("changes", "g1 3")
    client.publish("changes", "g2 9")
    thread.join(0.5)
    assert thread.is_alive() and answers == []
    client.publish("changes", "g1 5")
    thread.join(5)
    assert answers == [True]


def test_a_wait_that_runs_out_answers_false():
    _, watcher = started_watcher()
    assert watcher.wait("g1", 3, 0.2, lambda: 3) is False
    assert watcher.wait("g1", 3, 0.2, lambda: 4) is True  # already passed
