"""``--loop``: the stub server runs on uvloop when it is installed, on asyncio's own loop
when asked, and refuses ``--loop uvloop`` without uvloop, saying why."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import codegen.runtime as rpc
from tests.server.support import Generated, RawStdio, with_transport
from tests.server.test_errors import _valid_request

GEN = next(g for g in with_transport("ndjson-stdio") if g.jsonrpc)


def test_auto_takes_uvloop_when_installed_and_asyncio_takes_the_default() -> None:
    import uvloop  # installed by requirements.txt

    assert rpc.event_loop_factory("auto") is uvloop.new_event_loop
    assert rpc.event_loop_factory("uvloop") is uvloop.new_event_loop
    assert rpc.event_loop_factory("asyncio") is None


def _without_uvloop(tmp_path: Path, gen: Generated) -> dict[str, str]:
    """The server's environment with an ``import uvloop`` that fails."""
    (tmp_path / "uvloop.py").write_text("raise ImportError('no uvloop here')\n")
    env = gen.env()
    env["PYTHONPATH"] = f"{tmp_path}:{env['PYTHONPATH']}"
    return env


@pytest.mark.parametrize("loop", ["auto", "uvloop", "asyncio"])
def test_each_loop_serves_a_request(loop: str) -> None:
    method, params = _valid_request(GEN)
    server = RawStdio(GEN, "--quiet", "--loop", loop)
    try:
        answer = server.call(
            {"jsonrpc": "2.0", "id": 7, "method": method, "params": params}
        )
        assert answer["id"] == 7 and "result" in answer, answer
    finally:
        assert server.close() == 0


def test_auto_falls_back_to_asyncio_without_uvloop(tmp_path: Path) -> None:
    method, params = _valid_request(GEN)
    request = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
    process = subprocess.run(
        GEN.argv("stdio", "--quiet"),
        input=json.dumps(request).encode() + b"\n",
        capture_output=True,
        env=_without_uvloop(tmp_path, GEN),
        timeout=60,
        check=False,
    )
    assert process.returncode == 0, process.stderr
    assert b'"result"' in process.stdout


def test_loop_uvloop_without_uvloop_is_refused_with_a_reason(tmp_path: Path) -> None:
    process = subprocess.run(
        GEN.argv("stdio", "--loop", "uvloop"),
        input=b"",
        capture_output=True,
        env=_without_uvloop(tmp_path, GEN),
        timeout=60,
        check=False,
    )
    assert process.returncode == 2
    assert b"--loop uvloop: uvloop is not installed" in process.stderr
