"""The WebSocket side of the e2e tests: a socket to GET /v1/ws through the `websockets`
library's client, reading in a thread of its own so a test can wait for a message."""

import contextlib
import json
import queue
import threading
import time

import requests
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect


class Socket:
    """One client socket. `messages` holds every message received, in order; `closed`
    the close code once the server closed it."""

    def __init__(self, base, token=None, header=True, read=True, **options):
        url = base.replace("http://", "ws://") + "/v1/ws"
        headers = {"Authorization": f"Bearer {token}"} if token and header else None
        self.stack = contextlib.ExitStack()
        opened = connect(url, additional_headers=headers, compression=None, **options)
        self.ws = self.stack.enter_context(opened)
        self.inbox = queue.Queue()
        self.messages = []
        self.closed = None
        self.refs = 0
        if read:
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        try:
            for raw in self.ws:
                message = json.loads(raw)
                self.messages.append(message)
                self.inbox.put(message)
        except ConnectionClosed:
            pass
        self.closed = self.ws.close_code
        self.inbox.put(None)

    def send(self, kind, **fields):
        """Send a message with a fresh `ref`; return the ref."""
        self.refs += 1
        self.ws.send(json.dumps({"type": kind, "ref": self.refs, **fields}))
        return self.refs

    def next(self, timeout=10.0, where=lambda m: True):
        """The next message received that `where` accepts (None: the socket closed)."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.inbox.get(timeout=max(0.001, deadline - time.monotonic()))
            if message is None:
                self.inbox.put(None)  # closed for every later call too
                return None
            if where(message):
                return message

    def answer(self, ref, timeout=10.0):
        """The message answering the one sent with `ref`."""
        return self.next(timeout, lambda m: m.get("ref") == ref)

    def close(self):
        self.stack.close()


def rest_view(base, game_id, token=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = requests.get(f"{base}/v1/games/{game_id}/view", headers=headers, timeout=10)
    assert response.status_code == 200, response.text
    return response.json()


def rest_events(base, game_id, token=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    url = f"{base}/v1/games/{game_id}/events?after=0&limit=1000"
    response = requests.get(url, headers=headers, timeout=10)
    assert response.status_code == 200, response.text
    return response.json()["events"]
