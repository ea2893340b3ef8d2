"""A connection of one process's own to one Redis server, for a hot loop's round trips.

redis-py 8 wraps every call in layers (connection pool checkout and release, retries,
observability hooks, response callbacks) that cost several times what sending the same
packed command on a connection and reading the answer does (bench/README.md, "Settled
questions"). The projector's round trips are most of its CPU a move; `Link` sends a
batch's commands as one write on a connection it keeps, and reads Redis' answers as
they come (no response callbacks: a stream read is nested lists, not redis-py's dicts;
see `stream_reads`).

One thread at a time (the projector's loop). Not for a Redis Cluster: the caller keeps
redis-py's path there.
"""

import os

from hiredis import pack_command
from redis.commands import CoreCommands
from redis.exceptions import ResponseError


class Link:
    """Commands to the server `redis` (a redis.Redis) talks to, on a connection made
    with its pool's settings and kept; a failed round trip drops the connection, and
    the next one connects again."""

    def __init__(self, redis):
        self._pool = redis.connection_pool
        self._connection = None
        self._pid = None
        self.pending = False  # the last command of the last run is still to be answered

    def run(self, commands, leave_last=False):
        """Send `commands` (tuples of a command's words) in one write; return their
        answers in order, an error reply as the ResponseError (not raised, like a
        pipeline's raise_on_error=False). Raises when the connection fails.

        `leave_last`: return without the last command's answer (a blocking read that
        may wait long); `pending_answer` reads it, and no other run may come before."""
        if self.pending:
            raise RuntimeError("the link still waits for an answer: pending_answer first")
        connection = self._connect()
        try:
            # One write (redis-py's packing leaves large arguments, views, as chunks of
            # their own, each a sendall), packed by hiredis: a third of redis-py's CPU.
            packed = b"".join(map(pack_command, commands))
            connection.send_packed_command([packed], False)
            answers = [self._answer(connection) for _ in commands[: -1 if leave_last else None]]
            self.pending = leave_last
            return answers
        except BaseException:  # answers left unread would answer the next round trip
            self.close()
            raise

    def pending_answer(self):
        """The answer `run(..., leave_last=True)` left, waited for. Raises when the
        connection fails (and drops it)."""
        if not self.pending:
            raise RuntimeError("no answer is pending")
        try:
            answer = self._answer(self._connection)
        except BaseException:
            self.close()
            raise
        self.pending = False
        return answer

    @staticmethod
    def _answer(connection):
        try:
            return connection.read_response()
        except ResponseError as error:  # its reply is read: go on with the next
            return error

    def _connect(self):
        if self._connection is None or self._pid != os.getpid():  # none, or a fork's
            pool = self._pool
            self._connection = pool.connection_class(**pool.connection_kwargs)
            self._pid = os.getpid()
        return self._connection

    def close(self):
        """Drop the connection (the next `run` connects again)."""
        if self._connection is not None and self._pid == os.getpid():
            self._connection.disconnect()
        self._connection = None
        self.pending = False


def pooled_call(redis, *words):
    """One command on a connection of `redis`'s pool (a redis.Redis on one server),
    Redis' answer as it comes: none of redis-py's per-call layers (retries, response
    callbacks, observability records: a large share of a call's CPU under gevent). Safe
    under gevent: the pool hands each caller a connection of its own. An error reply
    is raised (ResponseError, NoScriptError...); so is any other failure, after
    redis-py's send and read have dropped the connection (an answer half read never
    answers its next user): the caller may then go redis-py's way, which retries. The
    pool's health check of an idle connection runs as for redis-py's own calls."""
    pool = redis.connection_pool
    connection = pool.get_connection()
    try:
        connection.send_packed_command([pack_command(words)])
        return connection.read_response()
    finally:
        pool.release(connection)


class Batch(CoreCommands):
    """Commands queued as on a redis-py pipeline (`batch.hget(...)`), sent by `link` in
    one round trip by `execute`. The answers are Redis' own, as a pipeline with no
    response callbacks gives them (`EventStore.tails_pipeline`): bytes, ints, lists."""

    def __init__(self, link):
        self._link = link
        self._commands = []

    def execute_command(self, *args, **options):
        self._commands.append(args)
        return self

    def __len__(self):
        return len(self._commands)

    def execute(self, raise_on_error=True, leave_last=False):
        """The answers, in order; with `raise_on_error`, the first error reply raised.
        `leave_last`: the last command's answer is left to `Link.pending_answer`."""
        commands, self._commands = self._commands, []
        answers = self._link.run(commands, leave_last) if commands else []
        if raise_on_error:
            for answer in answers:
                if isinstance(answer, Exception):
                    raise answer
        return answers


def stream_reads(answer):
    """A stream read's answer (XREADGROUP, XREAD) as redis-py's callback gives it:
    [(stream, [(entry id, {field: value} or None), ...]), ...]; [] for none. (A map
    {stream: entries}, as RESP3 and fakeredis answer, is read too.)"""
    if not answer:
        return []
    streams = answer.items() if isinstance(answer, dict) else answer
    return [
        (stream, [(entry_id, _fields(flat)) for entry_id, flat in read]) for stream, read in streams
    ]


def _fields(flat):
    if flat is None or isinstance(flat, dict):  # trimmed from the stream, or parsed
        return flat
    return dict(zip(flat[::2], flat[1::2], strict=True))
