"""Origin and Host allow-lists of the network stub servers (issue 33, item 3): by
default only loopback may drive a stub, so a web page elsewhere cannot reach one from a
browser on this machine (its ``Origin``), nor can a rebound DNS name (its ``Host``).

Reproduction: "no Origin/Host check on WebSocket and HTTP (any web page on the machine
can drive a local stub)".  Raw HTTP over a socket, so the headers are exactly the test's.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator

import pytest

from tests.server.support import Generated, NetworkServer, generated

WS = next(g for g in generated() if g.spec == "ahp")
HTTP = next(g for g in generated() if g.spec == "openctx")
UPGRADE = (
    "Upgrade: websocket\r\nConnection: Upgrade\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
)


def _status(server: NetworkServer, request: str) -> int:
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as peer:
        peer.sendall(request.encode())
        head = peer.recv(4096).split(b"\r\n", 1)[0]
    return int(head.split()[1])


def _ws(server: NetworkServer, headers: str) -> int:
    return _status(server, f"GET / HTTP/1.1\r\n{headers}{UPGRADE}\r\n")


def _post(server: NetworkServer, headers: str) -> int:
    body = json.dumps({"method": "meta", "params": {}})
    return _status(
        server,
        f"POST / HTTP/1.1\r\n{headers}Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n{body}",
    )


@pytest.fixture(scope="module", params=[WS, HTTP], ids=["websocket", "http"])
def server(request: pytest.FixtureRequest) -> Iterator[tuple[Generated, NetworkServer]]:
    gen: Generated = request.param
    running = NetworkServer(gen, "websocket" if gen is WS else "http", "--quiet")
    yield gen, running
    running.terminate()


def _ask(server: tuple[Generated, NetworkServer], headers: str) -> int:
    gen, running = server
    return _ws(running, headers) if gen is WS else _post(running, headers)


@pytest.mark.parametrize(
    "headers",
    [
        "Host: 127.0.0.1:{port}\r\n",  # a client that is not a browser: no Origin
        "Host: localhost:{port}\r\nOrigin: http://localhost:3000\r\n",
        "Host: [::1]:{port}\r\nOrigin: https://127.0.0.1\r\n",
        "Host: app.localhost\r\nOrigin: http://app.localhost:8080\r\n",
    ],
)
def test_loopback_hosts_and_origins_are_served(
    server: tuple[Generated, NetworkServer], headers: str
) -> None:
    status = _ask(server, headers.format(port=server[1].port))
    assert status in (101, 200), status


@pytest.mark.parametrize(
    "headers",
    [
        "Host: 127.0.0.1:{port}\r\nOrigin: http://evil.example\r\n",
        "Host: 127.0.0.1:{port}\r\nOrigin: null\r\n",
        "Host: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1.evil.example\r\n",
        "Host: evil.example:{port}\r\n",  # DNS rebinding: a name that resolved to us
        "Host: evil.example\r\nOrigin: http://evil.example\r\n",
    ],
)
def test_other_hosts_and_origins_are_refused_403(
    server: tuple[Generated, NetworkServer], headers: str
) -> None:
    assert _ask(server, headers.format(port=server[1].port)) == 403


def test_a_request_without_host_is_refused(
    server: tuple[Generated, NetworkServer],
) -> None:
    # HTTP/1.1 requires Host: aiohttp answers 400 before we see it; never served.
    assert _ask(server, "") in (400, 403)


def test_allowed_origins_and_hosts_are_configurable() -> None:
    running = NetworkServer(
        HTTP,
        "http",
        "--quiet",
        "--allow-origin",
        "https://app.example",
        "--allow-host",
        "stub.example",
    )
    try:
        allowed = "Host: stub.example\r\nOrigin: https://app.example\r\n"
        assert _post(running, allowed) == 200
        assert (
            _post(running, "Host: stub.example\r\nOrigin: https://x.example\r\n") == 403
        )
        assert _post(running, "Host: other.example\r\n") == 403
    finally:
        running.terminate()
