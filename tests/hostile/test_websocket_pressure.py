"""WebSocket peers that flood a stub server (issue 33, item 3): many peers each holding a
huge unfinished message cannot take the server past its process-wide budget (RSS
measured), a peer that never reads is cut off past the queued-output limit with the
reason logged, and a frame length with its top bit set no longer swallows the
connection.  Each has a twin: well-behaved peers sending as much are answered.
"""

from __future__ import annotations

import json
import socket
import struct
import time
from collections.abc import Iterator

import pytest

from tests.hostile.pressure_support import rss_mb
from tests.server.support import Generated, NetworkServer, generated

MB = 1024 * 1024


@pytest.fixture(scope="module")
def ahp() -> Generated:
    return next(g for g in generated() if g.spec == "ahp")


def _open(port: int) -> socket.socket:
    peer = socket.create_connection(("127.0.0.1", port), timeout=20)
    peer.sendall(
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        b"Sec-WebSocket-Version: 13\r\n\r\n"
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += peer.recv(4096)
    assert b" 101 " in head
    return peer


def _header(size: int, opcode: int = 0x1) -> bytes:
    """A client's final frame header for ``size`` payload bytes (zero mask key)."""
    if size < 126:
        return bytes([0x80 | opcode, 0x80 | size]) + b"\0\0\0\0"
    if size < 65536:
        return bytes([0x80 | opcode, 0x80 | 126]) + struct.pack(">H", size) + b"\0" * 4
    return bytes([0x80 | opcode, 0x80 | 127]) + struct.pack(">Q", size) + b"\0" * 4


def _request(size: int) -> bytes:
    """One request of about ``size`` bytes (a long id: any answer will do)."""
    text = '{"jsonrpc":"2.0","id":"%s","method":"ping"}'
    return (text % ("x" * (size - len(text) + 2))).encode()


def _frames(peer: socket.socket) -> Iterator[tuple[int, bytes]]:
    """The server's frames (opcode, payload) until the connection ends."""
    data = b""
    while True:
        while len(data) < 2 or len(data) < _frame_end(data):
            try:
                chunk = peer.recv(65536)
            except (ConnectionResetError, TimeoutError):
                return
            if not chunk:
                return
            data += chunk
        end = _frame_end(data)
        start = end - _payload_size(data)
        yield data[0] & 0x0F, data[start:end]
        data = data[end:]


def _payload_size(data: bytes) -> int:
    flag = data[1] & 0x7F
    if flag == 126:
        return int(struct.unpack(">H", data[2:4])[0]) if len(data) >= 4 else 1 << 62
    if flag == 127:
        return int(struct.unpack(">Q", data[2:10])[0]) if len(data) >= 10 else 1 << 62
    return flag


def _frame_end(data: bytes) -> int:
    flag = data[1] & 0x7F
    head = 2 + (2 if flag == 126 else 8 if flag == 127 else 0)
    return head + _payload_size(data)


def _close_code(peer: socket.socket) -> int | None:
    for opcode, payload in _frames(peer):
        if opcode == 0x8:
            return int(struct.unpack(">H", payload[:2])[0]) if payload else None
    return None


def _log(server: NetworkServer) -> str:
    return b"".join(server.stderr).decode("utf-8", "replace")


PEERS = 40
PARTIAL = 3 * MB  # of each peer's 3.5 MB message: sent, never finished
BUDGET = 20 * MB


def test_unfinished_messages_of_many_peers_stay_within_the_process_budget(
    ahp: Generated,
) -> None:
    # Was: 50 peers x 15 MB unfinished messages -> 1 GB.  Now the process holds at
    # most --max-partial-bytes of them; the peer that would take more is closed.
    server = NetworkServer(
        ahp,
        "websocket",
        "--quiet",
        "--max-message-bytes",
        str(4 * MB),
        "--max-partial-bytes",
        str(BUDGET),
    )
    peers: list[socket.socket] = []
    try:
        first = _open(server.port)
        first.sendall(_header(50) + _request(50))
        assert next(_frames(first))[0] == 0x1  # up and answering: then measure
        before = rss_mb(server.process.pid)
        cut_off = 0
        for _ in range(PEERS):
            peer = _open(server.port)
            peers.append(peer)
            try:
                peer.sendall(_header(PARTIAL + MB // 2) + b"x" * PARTIAL)
            except OSError:
                cut_off += 1  # closed while we sent: the budget was reached
        time.sleep(1.0)
        grown = rss_mb(server.process.pid) - before
        # without the budget: 40 x 3 MB = 120 MB held
        assert grown < BUDGET / MB + 40, f"the server grew {grown:.0f} MB"
        codes = []
        for peer in peers[-10:]:
            peer.settimeout(5)
            codes.append(_close_code(peer))
        assert codes.count(1009) >= 8, codes
        assert "over the process's budget of 20971520 bytes" in _log(server)
        # a peer within the budget finishes its message and is answered
        peers[0].settimeout(10)
        peers[0].sendall(b"x" * (MB // 2 - 100) + _request(100)[-100:])
        opcode, _ = next(_frames(peers[0]))
        assert opcode == 0x1
    finally:
        for peer in peers:
            peer.close()
        server.terminate()


def test_peers_finishing_their_messages_are_all_answered(ahp: Generated) -> None:
    # The twin: as many bytes from as many peers, each message finished in turn,
    # never exceed the budget (a complete message gives its bytes back).
    server = NetworkServer(
        ahp,
        "websocket",
        "--quiet",
        "--max-message-bytes",
        str(4 * MB),
        "--max-partial-bytes",
        str(BUDGET),
    )
    try:
        for _ in range(PEERS):
            peer = _open(server.port)
            try:
                message = _request(PARTIAL + MB // 2)
                peer.sendall(_header(len(message)) + message)
                opcode, payload = next(_frames(peer))
                assert opcode == 0x1 and b'"jsonrpc"' in payload
            finally:
                peer.close()
        assert "budget" not in _log(server)
    finally:
        server.terminate()


def test_a_length_with_its_top_bit_set_fails_the_connection(ahp: Generated) -> None:
    # Was: taken as a huge message to drop, so every later byte was swallowed.
    server = NetworkServer(ahp, "websocket", "--quiet")
    try:
        peer = _open(server.port)
        peer.settimeout(10)
        peer.sendall(bytes([0x81, 0xFF]) + struct.pack(">Q", 1 << 63) + b"\0" * 4)
        peer.sendall(_header(50) + _request(50))
        assert _close_code(peer) == 1002
        # the twin: the same request on a new connection is answered
        other = _open(server.port)
        other.sendall(_header(50) + _request(50))
        assert next(_frames(other))[0] == 0x1
    finally:
        server.terminate()


def _amplifying() -> bytes:
    """A 2 kB batch frame whose answer is 99 kB (an error for each element)."""
    batch = b"[" + b",".join([b"1"] * 1000) + b"]"
    return _header(len(batch)) + batch


def test_a_peer_that_never_reads_is_cut_off_past_the_queued_limit(
    ahp: Generated,
) -> None:
    # Reading stops at a quarter of the limit; two answers of 99 kB in flight then
    # take it past 150 kB.
    server = NetworkServer(ahp, "websocket", "--quiet", "--max-queued-bytes", "150000")
    try:
        peer = _open(server.port)
        peer.settimeout(3)
        try:
            for _ in range(2000):  # 200 MB of answers, none read
                peer.sendall(_amplifying())
        except OSError:
            pass  # the server stopped reading, or dropped us
        deadline = time.monotonic() + 20
        while "would wait unread" not in _log(server) and time.monotonic() < deadline:
            time.sleep(0.2)
        log = _log(server)
        assert "would wait unread (limit 150000)" in log, log[-2000:]
        # and it serves the next peer
        other = _open(server.port)
        other.sendall(_header(50) + _request(50))
        assert next(_frames(other))[0] == 0x1
    finally:
        server.terminate()


def test_a_peer_that_reads_its_answers_is_never_cut_off(ahp: Generated) -> None:
    # The twin: the same answers (600 times the limit), read as they come.
    server = NetworkServer(ahp, "websocket", "--quiet", "--max-queued-bytes", "150000")
    try:
        peer = _open(server.port)
        peer.settimeout(20)
        frames = _frames(peer)
        for _ in range(1000):
            peer.sendall(_amplifying())
            opcode, payload = next(frames)
            assert opcode == 0x1 and len(json.loads(payload)) == 1000
        assert "would wait unread" not in _log(server)
    finally:
        server.terminate()
