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
