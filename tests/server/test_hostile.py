"""Hostile peers over every transport (stdio, WebSocket, HTTP), loopback only and bounded:
each case is answered as JSON-RPC 2.0 says (or, where the transport itself must refuse,
closed cleanly), the answer is strict UTF-8 JSON, and the server still serves afterwards.

Cases: ids, methods and params holding a lone surrogate (``"\\ud800"``, also with
``--transcript``); numbers no double holds (``1e400``) and 5000-digit integers; invalid
UTF-8, encoded surrogates and UTF-16; WebSocket messages over the size limit (one frame,
and fragments with a ping between them) and a forged oversize marker; HTTP slowloris
clients (200 at once), a slow body, and half-closed requests.
"""

from __future__ import annotations

import base64
import json
import os
import re
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.support import (
    REPO,
    Generated,
    NetworkServer,
    RawStdio,
    with_transport,
)
from tests.server.test_errors import _valid_request

STDIO = [g for g in with_transport("ndjson-stdio") if g.jsonrpc]
WEBSOCKET = with_transport("websocket")
HTTP = with_transport("http-post")
LIMIT = 16384
TIMEOUT = 20.0
SLOW = ["--header-timeout", "1", "--body-timeout", "1"]
_ADDRESS = re.compile(rb"listening on (\w+)://([^/\s]+):(\d+)/")


def strict_json(raw: bytes) -> Any:
    """Parse an answer as a strict peer would: UTF-8, no NaN/Infinity."""

    def refuse(name: str) -> Any:
        raise AssertionError(f"{name} in an answer: {raw!r}")

    return json.loads(raw.decode("utf-8"), parse_constant=refuse)


def _error(answer: Any, code: int, request_id: Any = None) -> None:
    assert answer["jsonrpc"] == "2.0" and answer["id"] == request_id, answer
    assert answer["error"]["code"] == code, answer


# (raw message, expected error code or None for "answered with a result", expected id)
def _cases(method: str, params: Any) -> list[tuple[bytes, int | None, Any]]:
    valid = json.dumps(params)
    return [
        (
            b'{"jsonrpc":"2.0","id":"\\ud800","method":"%s","params":%s}'
            % (method.encode(), valid.encode()),
            None,
            "\ud800",
        ),
        (b'{"jsonrpc":"2.0","id":"a\\udfffb","method":"nope"}', -32601, "a\udfffb"),
        (b'{"jsonrpc":"2.0","id":5,"method":"\\ud800/x"}', -32601, 5),
        (
            b'{"jsonrpc":"2.0","id":6,"method":"%s","params":{"\\udc00":"\\ud83d"}}'
            % method.encode(),
            -32602,
            6,
        ),
        (b'{"jsonrpc":"2.0","id":1e400,"method":"nope"}', -32700, None),
        (b'{"jsonrpc":"2.0","id":-1E+999,"method":"nope"}', -32700, None),
        (b'{"jsonrpc":"2.0","id":1,"method":"nope","params":[1e400]}', -32700, None),
        (b'{"jsonrpc":"2.0","id":' + b"9" * 5000 + b',"method":"x"}', -32700, None),
        (b'{"jsonrpc":"2.0","id":7,"method":"\xff"}', -32700, None),
        (b'{"jsonrpc":"2.0","id":8,"method":"\xed\xa0\x80"}', -32700, None),
        (b'{"jsonrpc":"2.0","id":9,"method":"\xc3"}', -32700, None),
        ('{"jsonrpc":"2.0","id":10,"method":"x"}'.encode("utf-16"), -32700, None),
        (b'\xef\xbb\xbf{"jsonrpc":"2.0","id":11,"method":"x"}', -32700, None),
    ]


def _check(answer: Any, code: int | None, request_id: Any) -> None:
    if code is None:
        assert answer["id"] == request_id and "result" in answer, answer
    else:
        _error(answer, code, request_id)


# ------------------------------------------------------------------------------ stdio


@pytest.fixture(params=[False, True], ids=["plain", "transcript"])
def stdio_servers(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[list[tuple[Generated, RawStdio, Path | None]]]:
    servers = []
    for gen in STDIO:
        transcript = tmp_path / f"{gen.spec}.jsonl" if request.param else None
        options = ["--transcript", str(transcript)] if transcript else []
        servers.append((gen, RawStdio(gen, "--quiet", *options), transcript))
    yield servers
    for _, server, _ in servers:
        if server.process.poll() is None:
            server.process.kill()


def test_stdio_answers_every_hostile_line(
    stdio_servers: list[tuple[Generated, RawStdio, Path | None]],
) -> None:
    assert STDIO, "no stdio servers generated"
    for gen, server, transcript in stdio_servers:
        method, params = _valid_request(gen)
        for raw, code, request_id in _cases(method, params):
            assert b"\n" not in raw
            server.send(raw + b"\n")
            answer = strict_json(server.receive_text(TIMEOUT))
            _check(answer, code, request_id)
            assert server.process.poll() is None, f"{gen.spec} died on {raw[:60]!r}"
            last = server.call(
                {"jsonrpc": "2.0", "id": "ok", "method": method, "params": params}
            )
            assert "result" in last, (raw[:60], last)
        assert server.close() == 0
        assert b"Traceback" not in b"".join(server.stderr)
        if transcript is not None:
            lines = transcript.read_bytes().splitlines()
            assert len(lines) >= 4 * len(_cases(method, params))
            for line in lines:
                entry = strict_json(line)
                assert entry["direction"] in ("in", "out")


# -------------------------------------------------------------------------- WebSocket


class RawWebSocket:
    """A WebSocket client on a plain socket, so tests can send any frame (fragments,
    forged markers, invalid UTF-8) an aiohttp client would refuse to build."""

    def __init__(self, host: str, port: int) -> None:
        self.sock = socket.create_connection((host, port), timeout=TIMEOUT)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            assert chunk, head
            head += chunk
        assert head.startswith(b"HTTP/1.1 101"), head
        self.buffer = head.split(b"\r\n\r\n", 1)[1]

    def frame(self, opcode: int, payload: bytes, fin: bool = True) -> None:
        mask = os.urandom(4)
        header = bytes([(0x80 if fin else 0) | opcode])
        if len(payload) < 126:
            header += bytes([0x80 | len(payload)])
        elif len(payload) < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(payload))
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", len(payload))
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def _read(self, count: int) -> bytes:
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def receive(self) -> tuple[int, bytes]:
        """The next data message (or close frame): opcode and payload."""
        while True:
            first, second = self._read(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(length)
            opcode = first & 0x0F
            if opcode in (0x9, 0xA):  # ping / pong: not messages
                continue
            return opcode, payload

    def call(self, message: bytes, opcode: int = 0x1) -> Any:
        self.frame(opcode, message)
        kind, payload = self.receive()
        assert kind == 0x1, (kind, payload)
        return strict_json(payload)

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def websocket_server() -> Iterator[tuple[Generated, NetworkServer]]:
    assert WEBSOCKET, "no WebSocket servers generated"
    gen = WEBSOCKET[0]
    server = NetworkServer(gen, "websocket", "--max-message-bytes", str(LIMIT), *SLOW)
    yield gen, server
    assert server.terminate() == 0
    assert b"Traceback" not in b"".join(server.stderr)


def test_websocket_answers_every_hostile_message(
    websocket_server: tuple[Generated, NetworkServer],
) -> None:
    gen, server = websocket_server
    method, params = _valid_request(gen)
    valid = json.dumps(
        {"jsonrpc": "2.0", "id": "ok", "method": method, "params": params}
    )
    client = RawWebSocket(server.host, server.port)
    for raw, code, request_id in _cases(method, params):
        # Text frames must be UTF-8 (RFC 6455): the byte-level cases go as binary.
        try:
            raw.decode("utf-8")
            opcode = 0x1
        except UnicodeDecodeError:
            opcode = 0x2
        _check(client.call(raw, opcode), code, request_id)
        assert "result" in client.call(valid.encode())
    client.close()


def test_websocket_oversize_is_answered_and_the_socket_stays(
    websocket_server: tuple[Generated, NetworkServer],
) -> None:
    gen, server = websocket_server
    method, params = _valid_request(gen)
    valid = json.dumps(
        {"jsonrpc": "2.0", "id": "ok", "method": method, "params": params}
    )
    client = RawWebSocket(server.host, server.port)
    # One frame over the limit.
    answer = client.call(b'{"x":"' + b"y" * LIMIT * 3 + b'"}')
    _error(answer, -32600)
    assert "too large" in answer["error"]["message"]
    assert "result" in client.call(valid.encode())
    # Fragments, each under the limit, together over it; a ping between them.
    part = b"z" * (LIMIT // 2)
    client.frame(0x1, b'{"x":"' + part, fin=False)
    client.frame(0x9, b"ping")
    client.frame(0x0, part, fin=False)
    client.frame(0x0, part + b'"}', fin=True)
    kind, payload = client.receive()
    assert kind == 0x1
    _error(strict_json(payload), -32600)
    # Fragments under the limit are one ordinary message.
    body = valid.encode()
    client.frame(0x1, body[:10], fin=False)
    client.frame(0x0, body[10:20], fin=False)
    client.frame(0x0, body[20:], fin=True)
    assert "result" in strict_json(client.receive()[1])
    # The marker the server uses cannot be forged (it is random per connection).
    _error(client.call(b"\x00oversized:" + b"\x00" * 16, 0x2), -32700)
    assert "result" in client.call(valid.encode())
    client.close()


def test_websocket_invalid_utf8_text_frame_is_refused_and_server_serves(
    websocket_server: tuple[Generated, NetworkServer],
) -> None:
    gen, server = websocket_server
    method, params = _valid_request(gen)
    client = RawWebSocket(server.host, server.port)
    client.frame(0x1, b'{"id":"\xff"}')
    kind, payload = client.receive()
    assert kind == 0x8 and struct.unpack(">H", payload[:2])[0] == 1007  # RFC 6455
    client.close()
    again = RawWebSocket(server.host, server.port)
    valid = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
    assert "result" in again.call(json.dumps(valid).encode())
    again.close()


# ------------------------------------------------------------------------------- HTTP


def _post(host: str, port: int, body: bytes) -> tuple[int, Any]:
    with socket.create_connection((host, port), timeout=TIMEOUT) as sock:
        sock.sendall(
            b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(body) + body
        )
        return _response(sock)


def _response(sock: socket.socket) -> tuple[int, Any]:
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    assert data, "closed without an answer"
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, strict_json(body) if body else None


@pytest.fixture
def http_server() -> Iterator[tuple[Generated, NetworkServer]]:
    assert HTTP, "no HTTP servers generated"
    gen = HTTP[0]
    server = NetworkServer(gen, "http", "--max-message-bytes", str(LIMIT), *SLOW)
    yield gen, server
    assert server.terminate() == 0
    assert b"Traceback" not in b"".join(server.stderr)


def _http_works(server: NetworkServer, method: str, params: Any) -> None:
    status, answer = _post(
        server.host,
        server.port,
        json.dumps({"method": method, "params": params}).encode(),
    )
    assert status == 200 and "result" in answer, answer


def test_http_answers_every_hostile_envelope(
    http_server: tuple[Generated, NetworkServer],
) -> None:
    gen, server = http_server
    method, params = _valid_request(gen)
    cases: list[tuple[bytes, int, int]] = [
        (b'{"method":"\\ud800","params":{}}', 200, -32601),
        (b'{"method":"%s","params":{"\\udc00":"\\ud800"}}' % method.encode(), 200, 0),
        (b'{"method":"x","params":{"n":1e400}}', 400, -32700),
        (b'{"method":"\xff"}', 400, -32700),
        (b'{"method":"\xed\xa0\x80"}', 400, -32700),
        ('{"method":"x"}'.encode("utf-16"), 400, -32700),
        (b'{"method":"x","params":' + b"[" * 5000 + b"]" * 5000 + b"}", 400, -32700),
        (b"{" + b'"a":1,' * 10 + b"}", 400, -32700),
        (b'{"method":"' + b"m" * LIMIT * 2 + b'"}', 413, -32600),
    ]
    for body, status, code in cases:
        got, answer = _post(server.host, server.port, body)
        assert got == status, (body[:60], got, answer)
        if code:
            assert answer["error"]["code"] == code, (body[:60], answer)
        else:
            assert "result" in answer or "error" in answer, answer
        _http_works(server, method, params)


def test_slowloris_clients_are_cut_off_and_others_served(
    http_server: tuple[Generated, NetworkServer],
) -> None:
    gen, server = http_server
    method, params = _valid_request(gen)
    slow: list[socket.socket] = []
    for _ in range(200):
        sock = socket.create_connection((server.host, server.port), timeout=TIMEOUT)
        sock.sendall(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        slow.append(sock)
    stop = threading.Event()

    def trickle() -> None:  # one more header byte each now and then, never the end
        while not stop.is_set():
            for sock in slow:
                try:
                    sock.sendall(b"X")
                except OSError:
                    pass
            time.sleep(0.2)

    pump = threading.Thread(target=trickle, daemon=True)
    pump.start()
    try:
        _http_works(server, method, params)  # served while 200 slow peers hang on
        deadline = time.monotonic() + 10
        closed = 0
        for sock in slow:
            sock.settimeout(max(deadline - time.monotonic(), 0.01))
            try:
                while sock.recv(4096):
                    pass
                closed += 1
            except ConnectionResetError:
                closed += 1
            except TimeoutError:
                break
        assert closed == 200, f"{closed} of 200 slow clients disconnected"
    finally:
        stop.set()
        pump.join()
        for sock in slow:
            sock.close()
    _http_works(server, method, params)


def test_a_slow_body_is_answered_408(
    http_server: tuple[Generated, NetworkServer],
) -> None:
    gen, server = http_server
    method, params = _valid_request(gen)
    with socket.create_connection((server.host, server.port), timeout=TIMEOUT) as sock:
        sock.sendall(
            b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{"
        )
        status, answer = _response(sock)
    assert status == 408 and answer["error"]["code"] == -32600, answer
    _http_works(server, method, params)


def test_half_closed_requests_are_answered_or_closed_cleanly(
    http_server: tuple[Generated, NetworkServer],
) -> None:
    gen, server = http_server
    method, params = _valid_request(gen)
    body = json.dumps({"method": method, "params": params}).encode()
    head = b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: %d\r\n\r\n" % len(
        body
    )
    # The whole request, then the client shuts down its sending side: answered.
    with socket.create_connection((server.host, server.port), timeout=TIMEOUT) as sock:
        sock.sendall(head + body)
        sock.shutdown(socket.SHUT_WR)
        status, answer = _response(sock)
    assert status == 200 and "result" in answer, answer
    # Half the body, then shut down: answered 400 at once (not after the body timeout).
    with socket.create_connection((server.host, server.port), timeout=TIMEOUT) as sock:
        sock.sendall(head + body[: len(body) // 2])
        sock.shutdown(socket.SHUT_WR)
        started = time.monotonic()
        status, answer = _response(sock)
    assert status == 400 and answer["error"]["code"] == -32600, answer
    assert time.monotonic() - started < 0.9  # before the 1 s body timeout
    # Half the headers, then shut down: nothing to answer, a clean close.
    with socket.create_connection((server.host, server.port), timeout=TIMEOUT) as sock:
        sock.sendall(b"POST / HTTP/1.1\r\nHost:")
        sock.shutdown(socket.SHUT_WR)
        assert sock.recv(4096) == b""
    _http_works(server, method, params)


def test_codegen_serve_passes_the_timeouts_on() -> None:
    assert HTTP, "no HTTP servers generated"
    process = subprocess.Popen(
        [sys.executable, "-m", "codegen", "serve", HTTP[0].spec, "-v"]
        + ["--header-timeout", "1", "--body-timeout", "1"],
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert process.stderr is not None
    try:
        lines: list[bytes] = []
        while not (match := _ADDRESS.search(b"".join(lines))):
            line = process.stderr.readline()
            assert line, b"".join(lines)
            lines.append(line)
        assert b"--header-timeout 1.0 --body-timeout 1.0" in b"".join(lines)
        with socket.create_connection(
            (match.group(2).decode(), int(match.group(3))), timeout=TIMEOUT
        ) as sock:
            sock.sendall(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            started = time.monotonic()
            assert sock.recv(4096) == b""  # cut off, not held
            assert time.monotonic() - started < 5
    finally:
        process.terminate()
        process.wait(TIMEOUT)
