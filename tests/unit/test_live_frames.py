"""The WebSocket outbox's sends (services/api/live.py): a turn's frames go out in one
system call, whole, in order, bounded in bytes, never after a close frame; the socket's
sends from two threads never interleave."""

import threading
import types

import pytest
from simple_websocket import ConnectionClosed
from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, CloseConnection, Ping, Request, TextMessage
from wsproto.extensions import PerMessageDeflate

from services.api.live import Frames, WholeSends


class Recorded:
    """A socket that keeps each `sendall`'s bytes."""

    def __init__(self):
        self.calls = []

    def sendall(self, data):
        self.calls.append(bytes(data))


def opened(deflate=False):
    """A server's and a client's wsproto connections, past the handshake (with
    permessage-deflate, as a browser offers it and simple_websocket accepts it)."""
    server, client = WSConnection(ConnectionType.SERVER), WSConnection(ConnectionType.CLIENT)
    offered = [PerMessageDeflate()] if deflate else []
    server.receive_data(client.send(Request(host="localhost", target="/v1/ws", extensions=offered)))
    assert any(isinstance(e, Request) for e in server.events())
    accepted = [PerMessageDeflate()] if deflate else []
    client.receive_data(server.send(AcceptConnection(extensions=accepted)))
    assert any(isinstance(e, AcceptConnection) for e in client.events())
    return server, client


def socket_of(server):
    """What Frames uses of simple_websocket's socket: its wsproto connection, its
    WholeSends, `connected` and the close's reason."""
    sock = WholeSends(Recorded())
    return types.SimpleNamespace(
        ws=server, sock=sock, connected=True, close_reason=1005, close_message=None
    )


def received(client, data):
    client.receive_data(data)
    return list(client.events())


@pytest.mark.parametrize("deflate", [False, True])
def test_a_turns_frames_go_out_in_one_send_whole_and_in_order(deflate):
    server, client = opened(deflate)
    ws = socket_of(server)
    frames = Frames(ws)
    sent = [b'{"type":"event","n":%d}' % n for n in range(5)] + [b'{"type":"view","v":"\xc3\xa9"}']
    for frame in sent:
        frames.add(frame)
    assert ws.sock.sock.calls == []  # nothing before the flush
    frames.flush()
    frames.flush()  # nothing more to send: no call
    assert len(ws.sock.sock.calls) == 1
    assert (b'"event"' in ws.sock.sock.calls[0]) is not deflate  # compressed when deflated
    messages = received(client, ws.sock.sock.calls[0])
    assert all(isinstance(m, TextMessage) and m.message_finished for m in messages)
    assert [m.data for m in messages] == [frame.decode() for frame in sent]


def test_a_batch_goes_out_once_it_passes_its_bytes_so_it_never_holds_more():
    server, client = opened()
    ws = socket_of(server)
    frames = Frames(ws, most=1000)
    sent = [b'"%s"' % (b"x" * 300) for _ in range(10)]  # ~304 bytes a frame
    for frame in sent:
        frames.add(frame)
        assert frames.size < 1000
    frames.flush()
    calls = ws.sock.sock.calls
    assert [len(c) for c in calls] == [4 * 306, 4 * 306, 2 * 306]
    messages = received(client, b"".join(calls))
    assert [m.data for m in messages] == [frame.decode() for frame in sent]


def test_frames_encoded_before_a_close_frame_are_not_sent_after_it():
    server, client = opened()
    ws = socket_of(server)
    frames = Frames(ws)
    frames.add(b'{"type":"view"}')
    # The library's thread closes meanwhile (a ping not answered): its close frame is
    # the last thing sent.
    ws.sock.send(server.send(CloseConnection(code=1008, reason="Ping/Pong timeout")))
    with pytest.raises(ConnectionClosed):
        frames.flush()
    assert len(ws.sock.sock.calls) == 1
    assert [type(e) for e in received(client, ws.sock.sock.calls[0])] == [CloseConnection]
    with pytest.raises(ConnectionClosed):  # nothing more is taken
        frames.add(b'{"type":"view"}')


def test_a_send_that_waits_keeps_the_other_threads_send_out_of_its_bytes():
    """The outbox's send to a slow reader waits with part of its data written; the
    library's ping, sent from its own thread meanwhile, goes after it, not inside."""
    waiting, go_on = threading.Event(), threading.Event()

    class Slow(Recorded):
        def sendall(self, data):
            if not self.calls:
                self.calls.append(bytes(data[:3]))
                waiting.set()
                assert go_on.wait(10)
                self.calls.append(bytes(data[3:]))
            else:
                self.calls.append(bytes(data))

    sock = WholeSends(Slow())
    server, client = opened()
    outbox = threading.Thread(target=sock.send, args=(server.send(TextMessage(data="a" * 50)),))
    outbox.start()
    assert waiting.wait(10)
    pinger = threading.Thread(target=sock.send, args=(server.send(Ping(b"p")),))
    pinger.start()
    pinger.join(0.2)
    assert pinger.is_alive()  # waits for the outbox's send to end
    go_on.set()
    outbox.join(10)
    pinger.join(10)
    assert [type(e) for e in received(client, b"".join(sock.sock.calls))] == [TextMessage, Ping]
