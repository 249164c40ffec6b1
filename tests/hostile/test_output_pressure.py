"""A stdio peer that sends and never reads our answers (issue 33, item 3): the server
stops reading it once its answers wait, cuts it off past the hard limit with the reason
logged, and stops at once on SIGTERM although its stdout is full.  Each has a twin: a
peer that reads is never cut off, however much it is sent.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.hostile.pressure_support import rss_mb

REPO = Path(__file__).resolve().parents[2]
PYTHON_DIR = REPO / "generated" / "mcp" / "python"
SERVER = [sys.executable, "-m", "mcp_protocol.server", "--transport", "stdio", "-q"]
LOOPS = ("asyncio", "uvloop")


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(PYTHON_DIR)}


def _pings(first: int, count: int) -> bytes:
    return b"".join(
        b'{"jsonrpc":"2.0","id":%d,"method":"ping"}\n' % n
        for n in range(first, first + count)
    )


def _start(*options: str, errors: Path) -> subprocess.Popen[bytes]:
    with errors.open("wb") as sink:
        return subprocess.Popen(
            [*SERVER, *options],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=sink,
            env=_env(),
        )


def _write_until_stalled(fileno: int, data: bytes, stall: float) -> int:
    """Write ``data`` until the reader takes nothing for ``stall`` seconds; the
    bytes it took."""
    os.set_blocking(fileno, False)
    written = 0
    while written < len(data):
        try:
            written += os.write(fileno, data[written : written + 65536])
        except BlockingIOError:
            _, ready, _ = select.select([], [fileno], [], stall)
            if not ready:
                break
    return written


def _stops_at_once_on_sigterm(server: subprocess.Popen[bytes]) -> None:
    """SIGTERM ends the server (exit 0) within 5 s, whatever its stdout's state."""
    started = time.monotonic()
    server.send_signal(signal.SIGTERM)
    assert server.wait(timeout=20) == 0
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("loop", LOOPS)
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="Linux's /proc")
def test_a_peer_that_never_reads_is_read_no_more_and_sigterm_stops_the_server(
    tmp_path: Path, loop: str
) -> None:
    # Was: the server blocked in a write to its full stdout, so SIGTERM (handled by
    # the event loop) did nothing until the peer read.
    errors = tmp_path / "stderr"
    server = _start("--loop", loop, errors=errors)
    try:
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write(_pings(-1, 1))  # up and answering: then measure
        server.stdin.flush()
        assert json.loads(server.stdout.readline())["id"] == -1
        before = rss_mb(server.pid)
        flood = _pings(0, 400_000)  # 17 MB of requests, never an answer read
        taken = _write_until_stalled(server.stdin.fileno(), flood, stall=3.0)
        grown = rss_mb(server.pid) - before
        # 1 MiB of answers wait (about 27k pings), plus the pipes' 64 kB each way
        assert taken < 4_000_000, f"the server read {taken} bytes from a non-reader"
        assert grown < 60, f"the server grew {grown:.0f} MB, read {taken} bytes"
        _stops_at_once_on_sigterm(server)
    finally:
        server.kill()
        server.wait()
    text = errors.read_text()
    assert "Traceback" not in text, text[-2000:]  # (quiet: no "stopped" line)


@pytest.mark.parametrize("loop", LOOPS)
def test_a_peer_that_reads_gets_every_answer(tmp_path: Path, loop: str) -> None:
    # The twin: the same flood, read as it comes, is answered whole.
    count = 60_000
    errors = tmp_path / "stderr"
    server = _start("--loop", loop, errors=errors)
    out, _ = server.communicate(_pings(0, count), timeout=120)
    assert server.returncode == 0, errors.read_text()[-2000:]
    ids = [json.loads(line)["id"] for line in out.splitlines()]
    assert sorted(ids) == list(range(count))


def _amplifying_line() -> bytes:
    """2 kB of batch whose answer is 99 kB (an error for each of 1,000 elements)."""
    return b"[" + b",".join([b"1"] * 1000) + b"]\n"


@pytest.mark.parametrize("loop", LOOPS)
def test_answers_past_the_hard_limit_close_the_connection_with_the_reason(
    tmp_path: Path, loop: str
) -> None:
    errors = tmp_path / "stderr"
    server = _start("--loop", loop, "--max-queued-bytes", "100000", errors=errors)
    try:
        assert server.stdin is not None
        server.stdin.write(_amplifying_line() * 64)  # 6 MB of answers, none read
        server.stdin.close()
        assert server.wait(timeout=30) == 0
    finally:
        server.kill()
        server.wait()
    text = errors.read_text()
    assert text.count("would wait unread (limit 100000)") == 1, text[-2000:]
    assert "the peer does not read: closing" in text
    assert "Traceback" not in text


@pytest.mark.parametrize("loop", LOOPS)
def test_a_peer_that_reads_each_answer_is_never_cut_off(
    tmp_path: Path, loop: str
) -> None:
    # The twin: the same 64 answers (60 times the hard limit in all), each read.
    errors = tmp_path / "stderr"
    server = _start("--loop", loop, "--max-queued-bytes", "100000", errors=errors)
    try:
        assert server.stdin is not None and server.stdout is not None
        for _ in range(64):
            server.stdin.write(_amplifying_line())
            server.stdin.flush()
            answer = json.loads(server.stdout.readline())
            assert len(answer) == 1000 and answer[0]["error"]["code"] == -32600
        server.stdin.close()
        assert server.wait(timeout=30) == 0
    finally:
        server.kill()
        server.wait()
    assert "would wait unread" not in errors.read_text()


def _file_offset(pid: int, fd: int) -> int:
    """How far process ``pid`` has read its descriptor ``fd`` (a regular file)."""
    for line in Path(f"/proc/{pid}/fdinfo/{fd}").read_text().splitlines():
        if line.startswith("pos:"):
            return int(line.split()[1])
    raise AssertionError("no pos: in fdinfo")


@pytest.mark.skipif(not Path("/proc/self/fdinfo").exists(), reason="Linux's /proc")
def test_a_regular_file_as_input_is_read_no_faster_than_it_is_answered(
    tmp_path: Path,
) -> None:
    # Was: a regular file (which epoll refuses) was read by a thread that never paused,
    # so a 17 MB file of requests, answered into a pipe nobody read, was read whole.
    requests = tmp_path / "requests.jsonl"
    requests.write_bytes(_pings(0, 400_000))
    errors = tmp_path / "stderr"
    with requests.open("rb") as source, errors.open("wb") as sink:
        server = subprocess.Popen(
            SERVER, stdin=source, stdout=subprocess.PIPE, stderr=sink, env=_env()
        )
    try:
        assert server.stdout is not None
        assert json.loads(server.stdout.readline())["id"] == 0  # up and answering
        time.sleep(3.0)
        read = _file_offset(server.pid, 0)
        # 1 MiB of answers wait (about 27k pings, 1.1 MB of requests), one chunk more
        assert read < 4_000_000, f"the server read {read} bytes for a non-reader"
        _stops_at_once_on_sigterm(server)
    finally:
        server.kill()
        server.wait()
    assert "Traceback" not in errors.read_text()


def test_a_regular_file_as_input_is_answered_whole_when_read(tmp_path: Path) -> None:
    # The twin: the same kind of file, its answers read, is answered to the last line.
    count = 60_000
    requests = tmp_path / "requests.jsonl"
    requests.write_bytes(_pings(0, count))
    errors = tmp_path / "stderr"
    with requests.open("rb") as source, errors.open("wb") as sink:
        done = subprocess.run(
            SERVER,
            stdin=source,
            stdout=subprocess.PIPE,
            stderr=sink,
            env=_env(),
            timeout=120,
            check=False,
        )
    assert done.returncode == 0, errors.read_text()[-2000:]
    ids = [json.loads(line)["id"] for line in done.stdout.splitlines()]
    assert sorted(ids) == list(range(count))
