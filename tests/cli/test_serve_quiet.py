"""``-q`` on ``codegen serve`` and ``python -m <package>.server`` is quiet.

A quiet stub prints nothing on stdout or stderr in normal operation (listening, a peer
connecting, messages, disconnecting, stopping on SIGTERM), over every transport, with
one exception: on a network transport with ``--port 0`` the ``listening on URL`` line,
the only way to learn the port the OS chose.  Each accepting test has its rejecting
twin: the same run without ``-q`` prints those lines (so the quiet run's silence is the
option's doing, not a server that never got to say anything).
"""

from __future__ import annotations

import asyncio
import json
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from tests.server.support import REPO, TIMEOUT, generated

ADDRESS = re.compile(r"^\w+: listening on (ws|http)://127\.0\.0\.1:(\d+)/$")
# (spec, transport, package): the repository's specs served over each network transport
NETWORK = [
    ("ahp", "websocket", "ahp_protocol"),
    ("openctx", "http", "openctx_protocol"),
]


def _launch(
    how: str, spec: str, package: str, transport: str, *options: str
) -> list[str]:
    if how == "codegen":
        return [
            sys.executable,
            "-m",
            "codegen",
            "serve",
            spec,
            "--transport",
            transport,
            *options,
        ]
    return [
        sys.executable,
        "-m",
        f"{package}.server",
        "--transport",
        transport,
        *options,
    ]


def _env(spec: str) -> dict[str, str]:
    gen = next(g for g in generated() if g.spec == spec)
    return gen.env()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _wait_listening(port: int, process: subprocess.Popen[bytes]) -> None:
    """Until the server accepts a connection (a quiet one does not say when)."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        assert process.poll() is None, "the server exited"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"nothing listens on 127.0.0.1:{port}")


def _exchange(transport: str, port: int) -> None:
    """One request and its answer, as a client does: WebSocket connect, call,
    disconnect; or one HTTP POST."""
    if transport == "http":
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "meta", "params": {}})
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/",
            data=body.encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            assert "result" in json.loads(answer.read())
        return

    async def websocket() -> None:
        import aiohttp

        async with (
            aiohttp.ClientSession() as session,
            session.ws_connect(f"ws://127.0.0.1:{port}/") as ws,
        ):
            await ws.send_str(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "nope"}))
            answer = json.loads(await ws.receive_str(timeout=TIMEOUT))
            assert answer["id"] == 1 and answer["error"]["code"] == -32601

    asyncio.run(websocket())


def _run(
    argv: list[str], env: dict[str, str], transport: str, port: int | None
) -> tuple[bytes, bytes]:
    """Start the server, exchange one message, stop it with SIGTERM: (stdout, stderr)."""
    process = subprocess.Popen(
        argv,
        cwd=REPO,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert process.stderr is not None
        first = b""
        if port is None:  # port 0: the address line says where
            first = process.stderr.readline()
            match = ADDRESS.match(first.decode().rstrip("\n"))
            assert match, first
            port = int(match.group(2))
        _wait_listening(port, process)
        _exchange(transport, port)
        time.sleep(0.3)  # a disconnection line, if any, is written by now
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=TIMEOUT)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, err
    return out, first + err


# Each transport through the server module, and through ``codegen serve`` once (it
# passes -q on and must print nothing of its own).
CASES = [("module", *case) for case in NETWORK] + [("codegen", *NETWORK[0])]


@pytest.mark.parametrize(("how", "spec", "transport", "package"), CASES)
def test_quiet_on_a_chosen_port_prints_nothing(
    how: str, spec: str, transport: str, package: str
) -> None:
    port = _free_port()
    argv = _launch(how, spec, package, transport, "--port", str(port), "-q")
    assert _run(argv, _env(spec), transport, port) == (b"", b"")


@pytest.mark.parametrize(("how", "spec", "transport", "package"), CASES)
def test_quiet_on_port_zero_prints_only_the_address(
    how: str, spec: str, transport: str, package: str
) -> None:
    argv = _launch(how, spec, package, transport, "--port", "0", "-q")
    out, err = _run(argv, _env(spec), transport, None)
    lines = err.decode().splitlines()
    assert out == b"" and len(lines) == 1 and ADDRESS.match(lines[0]), err


@pytest.mark.parametrize(("spec", "transport", "package"), NETWORK)
def test_without_quiet_the_same_run_is_logged(
    spec: str, transport: str, package: str
) -> None:
    """The rejecting twin of both: the same runs, not quiet, say where the server
    listens, each message, and that it stopped."""
    port = _free_port()
    argv = _launch("module", spec, package, transport, "--port", str(port))
    out, err = _run(argv, _env(spec), transport, port)
    text = err.decode()
    scheme = "ws" if transport == "websocket" else "http"
    assert out == b""
    assert f"listening on {scheme}://127.0.0.1:{port}/" in text
    assert " <- 127.0.0.1: " in text and "stopped" in text
    if transport == "websocket":
        assert "connected" in text and "disconnected" in text


@pytest.mark.parametrize("how", ["codegen", "module"])
def test_quiet_on_stdio_prints_nothing_but_answers(how: str) -> None:
    argv = _launch(how, "ahp", "ahp_protocol", "stdio")
    request = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "nope"}) + "\n"

    def run(*options: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            argv + list(options),
            cwd=REPO,
            env=_env("ahp"),
            input=request,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )

    quiet = run("-q")
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr
    assert json.loads(quiet.stdout)["error"]["code"] == -32601
    loud = run()  # rejecting twin
    assert "listening on stdio" in loud.stderr and "end of input" in loud.stderr


def test_help_says_what_quiet_still_prints() -> None:
    env = _env("ahp")
    for how in ("codegen", "module"):
        shown = subprocess.run(
            _launch(how, "ahp", "ahp_protocol", "stdio", "--help"),
            cwd=REPO,
            env=env | {"COLUMNS": "200", "TERM": "dumb", "NO_COLOR": "1"},
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        ).stdout
        flat = " ".join(shown.split())
        assert "--port 0" in flat and "listening on URL" in flat, (how, shown)
