"""Stub servers whose surroundings fail or whose peers play tricks (issue 33, item 3):
a transcript on a full disk, a peer that closed our stdout, terminal escapes in what a
peer sends.  Each is the exact reproduction of a defect the issue names.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PYTHON_DIR = REPO / "generated" / "mcp" / "python"
SERVER = [sys.executable, "-m", "mcp_protocol.server", "--transport", "stdio"]
WITHIN = 60.0


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(PYTHON_DIR)}


def _pings(count: int) -> bytes:
    lines = (
        json.dumps({"jsonrpc": "2.0", "id": n, "method": "ping"}) for n in range(count)
    )
    return ("\n".join(lines) + "\n").encode()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="Linux's /dev/full")
def test_a_transcript_on_a_full_disk_is_closed_once_and_the_server_serves_on() -> None:
    # Was: the stub stopped answering after ~200 messages and never exited
    # ("ValueError: I/O operation on closed file", from the transcript's close path).
    done = subprocess.run(
        [*SERVER, "--quiet", "--transcript", "/dev/full"],
        input=_pings(1000),
        capture_output=True,
        env=_env(),
        timeout=WITHIN,
        check=False,
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert sorted(a["id"] for a in answers) == list(range(1000))
    assert all("result" in a for a in answers)
    errors = done.stderr.decode()
    assert errors.count("transcript stopped") == 1, errors[-2000:]
    assert "Traceback" not in errors and done.returncode == 0


def test_a_transcript_that_can_be_written_keeps_every_message(tmp_path: Path) -> None:
    # The twin: a writable transcript holds each message, in and out.
    transcript = tmp_path / "t.jsonl"
    done = subprocess.run(
        [*SERVER, "--quiet", "--transcript", str(transcript)],
        input=_pings(50),
        capture_output=True,
        env=_env(),
        timeout=WITHIN,
        check=False,
    )
    assert done.returncode == 0
    assert len(transcript.read_text().splitlines()) == 100


def test_a_closed_stdout_ends_the_server_cleanly() -> None:
    # Was: a 1 KB traceback per incoming message, and the server read on.
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody will ever read our answers
    try:
        server = subprocess.Popen(
            [*SERVER, "--quiet"],
            stdin=subprocess.PIPE,
            stdout=write_end,
            stderr=subprocess.PIPE,
            env=_env(),
        )
    finally:
        os.close(write_end)
    try:
        _, errors = server.communicate(_pings(500), timeout=WITHIN)
    finally:
        server.kill()
    text = errors.decode()
    assert server.returncode == 0, text[-2000:]
    assert "Traceback" not in text and "Exception ignored" not in text
    assert text.count("cannot send to stdio") == 1, text[-2000:]


def test_peer_text_in_the_log_cannot_drive_the_terminal() -> None:
    # Was: peer bytes logged raw to stderr (terminal escape injection).
    evil = "\x1b[2J\x1b]0;owned\x07\rX"
    message = {"jsonrpc": "2.0", "id": 1, "method": evil}
    raw = evil.encode() + b"\n"  # not JSON: logged as the bytes came
    done = subprocess.run(
        SERVER,
        input=raw + (json.dumps(message) + "\n").encode(),
        capture_output=True,
        env=_env(),
        timeout=WITHIN,
        check=False,
    )
    errors = done.stderr.decode()
    assert "\x1b" not in errors and "\x07" not in errors and "\r" not in errors
    assert "\\x1b[2J" in errors  # shown, as text
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    codes = [a["error"]["code"] for a in answers]
    assert codes == [-32700, -32601]  # and answered as before


# ---------------------------------------------------------------- a peer that never reads


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def _ws_frame(payload: bytes) -> bytes:
    """A client's text frame (masked, with a zero key: RFC 6455 allows any key)."""
    size = len(payload)
    if size < 126:
        head = bytes([0x81, 0x80 | size])
    else:
        head = bytes([0x81, 0x80 | 126]) + size.to_bytes(2, "big")
    return head + b"\0\0\0\0" + payload


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="Linux's /proc")
def test_a_websocket_peer_that_never_reads_cannot_grow_the_server() -> None:
    # Was: 100k requests never read → 776 MB.  Now the server reads no more once
    # IN_FLIGHT_LIMIT answers wait to be sent, and TCP makes the peer wait.
    import socket
    import time

    from tests.server.support import NetworkServer, generated

    ahp = next(g for g in generated() if g.spec == "ahp")
    server = NetworkServer(ahp, "websocket", "--quiet")
    try:
        peer = socket.create_connection(("127.0.0.1", server.port), timeout=20)
        peer.sendall(
            b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n"
        )
        assert b" 101 " in peer.recv(4096)
        before = _rss_mb(server.process.pid)
        params = {"protocolVersion": 1, "clientId": "x" * 200}
        batch = b"".join(
            _ws_frame(
                json.dumps(
                    {
                        "jsonrpc": "2.0",
                        "id": n,
                        "method": "initialize",
                        "params": params,
                    }
                ).encode()
            )
            for n in range(1000)
        )
        peer.settimeout(2.0)
        sent = 0
        deadline = time.monotonic() + 30
        while sent < 100 and time.monotonic() < deadline:  # 100 batches: 100k requests
            try:
                peer.sendall(batch)
            except TimeoutError:
                break  # the server stopped reading: what we wanted
            sent += 1
        time.sleep(1.0)
        grown = _rss_mb(server.process.pid) - before
        assert grown < 150, f"server grew {grown:.0f} MB after {sent}k requests"
        # SIGTERM stops it while the peer still holds its answers unread
        server.process.terminate()
        assert server.process.wait(timeout=20) == 0
        server = NetworkServer(ahp, "websocket", "--quiet")
        # and it serves the next peer
        other = socket.create_connection(("127.0.0.1", server.port), timeout=20)
        other.sendall(
            b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n"
        )
        assert b" 101 " in other.recv(4096)
        other.close()
    finally:
        server.terminate()
