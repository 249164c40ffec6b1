"""HTTP POST peers that hold bodies open (issue 33, item 3): the bytes of bodies still
arriving count against the process's budget for unfinished messages, as WebSocket
messages do, so many peers each sending most of a large body and stalling cannot take the
server past ``--max-partial-bytes`` (RSS measured); the peer over it is answered 503 and
its connection closed.  The twin: as many bytes sent by as many peers, each body finished
in turn, are all answered, and the budget given back lets a new peer in.
"""

from __future__ import annotations

import json
import socket
import time

import pytest

from tests.hostile.pressure_support import rss_mb
from tests.server.support import Generated, NetworkServer, generated

MB = 1024 * 1024
PEERS = 30
PARTIAL = 2 * MB  # of each peer's 3 MB body: sent, never finished
BUDGET = 16 * MB


@pytest.fixture(scope="module")
def openctx() -> Generated:
    return next(g for g in generated() if g.spec == "openctx")


def _body(size: int) -> bytes:
    """A ``meta`` envelope of exactly ``size`` bytes (padding in an ignored setting)."""
    text = '{"method":"meta","params":{},"settings":{"pad":"%s"}}'
    return (text % ("x" * (size - len(text) + 2))).encode()


def _post(port: int, declared: int) -> socket.socket:
    peer = socket.create_connection(("127.0.0.1", port), timeout=20)
    peer.sendall(
        b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n" % declared
    )
    return peer


def _answer(peer: socket.socket) -> tuple[int, bytes]:
    """The status and body of the server's answer (read until it closes or is whole)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = peer.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    if not head:
        return 0, b""
    length = next(
        (
            int(line.split(b":", 1)[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        ),
        0,
    )
    while len(body) < length:
        chunk = peer.recv(65536)
        if not chunk:
            break
        body += chunk
    return int(head.split(b" ", 2)[1]), body


def _server(gen: Generated) -> NetworkServer:
    return NetworkServer(
        gen,
        "http",
        "--quiet",
        "--max-message-bytes",
        str(4 * MB),
        "--max-partial-bytes",
        str(BUDGET),
    )


def test_bodies_held_open_stay_within_the_process_budget(openctx: Generated) -> None:
    # Was: each stalled body was held whole by its handler, outside any budget
    # (30 x 2 MB = 60 MB against a 16 MB budget).
    server = _server(openctx)
    try:
        _hold_bodies_open(server)
        # the stalled peers are gone: their bytes are given back, a new body is answered
        time.sleep(0.5)
        body = _body(PARTIAL + MB)
        peer = _post(server.port, len(body))
        peer.sendall(body)
        assert _answer(peer)[0] == 200
        peer.close()
    finally:
        server.terminate()


def _hold_bodies_open(server: NetworkServer) -> None:
    peers: list[socket.socket] = []
    try:
        small = _body(200)
        warm = _post(server.port, len(small))
        warm.sendall(small)
        assert _answer(warm)[0] == 200  # up and answering: then measure
        warm.close()
        before = rss_mb(server.process.pid)
        refused = 0
        for _ in range(PEERS):
            peer = _post(server.port, PARTIAL + MB)
            peers.append(peer)
            try:
                peer.sendall(b"x" * PARTIAL)
            except OSError:
                refused += 1  # answered and closed while we sent: over the budget
            time.sleep(0.05)  # let the server read what was sent
        time.sleep(1.0)
        grown = rss_mb(server.process.pid) - before
        assert grown < BUDGET / MB + 30, f"the server grew {grown:.0f} MB"
        statuses = []
        for peer in peers[-10:]:
            peer.settimeout(5)
            statuses.append(_answer(peer))
        assert [status for status, _ in statuses].count(503) >= 8, statuses
        body = next(body for status, body in statuses if status == 503)
        assert "over the process's budget" in json.loads(body)["error"]["message"]
        log = b"".join(server.stderr).decode("utf-8", "replace")
        assert f"over the process's budget of {BUDGET} bytes" in log
    finally:
        for peer in peers:
            peer.close()


def test_bodies_finished_in_turn_are_all_answered(openctx: Generated) -> None:
    # The twin: as many bytes from as many peers, each body finished before the next
    # starts, never reach the budget (a complete body gives its bytes back).
    server = _server(openctx)
    try:
        body = _body(PARTIAL + MB)
        for _ in range(PEERS):
            peer = _post(server.port, len(body))
            try:
                peer.sendall(body)
                status, answer = _answer(peer)
                assert status == 200 and b'"result"' in answer, answer[:200]
            finally:
                peer.close()
        assert b"budget" not in b"".join(server.stderr)
    finally:
        server.terminate()
