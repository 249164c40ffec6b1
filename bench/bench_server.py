"""Benchmark: request/response round trips through the generated ``ahp`` client and
stub server, against a bare echo loop on the same transport, in the same run.

Phase: measurement (``make bench``), never a timed test.
Inputs: the generated ``ahp_protocol`` package (``initialize`` with the spec's sample
params; the stub answers with its canned result, validated both ways).
Outputs: per transport (stdio pipes, WebSocket on 127.0.0.1): round trips per second
and p50 / p99 latency of sequential requests for the generated pair and for the echo
loop (a subprocess that writes back each line / frame it gets, with the same
transport code: asyncio pipes, aiohttp), and the ratios generated / echo.  The two
sides run in alternating blocks of 100 round trips, so load that comes and goes during
the run weighs on both alike.
Guarantees: servers run with ``--quiet`` (no per-message stderr log), so the numbers
measure framing, validation and dispatch; nothing is written outside a temp dir.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from typing import Any

from support import ROOT as REPO
from support import result

PYTHON_DIR = REPO / "generated" / "ahp" / "python"
ENV = {**os.environ, "PYTHONPATH": str(PYTHON_DIR)}

ECHO_STDIO = """
import sys
for line in sys.stdin.buffer:
    sys.stdout.buffer.write(line)
    sys.stdout.buffer.flush()
"""

ECHO_WEBSOCKET = """
import asyncio, sys
from aiohttp import web

async def echo(request):
    socket = web.WebSocketResponse()
    await socket.prepare(request)
    async for message in socket:
        await socket.send_str(message.data)
    return socket

async def main():
    app = web.Application()
    app.router.add_get("/", echo)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    print(f"echo: listening on ws://127.0.0.1:{port}/", file=sys.stderr, flush=True)
    await asyncio.Event().wait()

asyncio.run(main())
"""

REQUEST = (
    '{"jsonrpc":"2.0","id":1,"method":"initialize",'
    '"params":{"protocolVersion":1,"clientId":"bench"}}'
)


async def _measure(
    generated: Callable[[], Awaitable[Any]],
    echo: Callable[[], Awaitable[Any]],
    count: int,
    block: int = 100,
) -> tuple[list[float], list[float]]:
    """Round-trip times of both sides, measured in alternating blocks so a change in
    the machine's load falls on both alike (these machines are noisy)."""
    for call in (generated, echo):
        for _ in range(min(200, count)):
            await call()
    samples: tuple[list[float], list[float]] = ([], [])
    for start in range(0, count, block):
        for call, times in zip((generated, echo), samples, strict=True):
            for _ in range(min(block, count - start)):
                begin = time.perf_counter()
                await call()
                times.append(time.perf_counter() - begin)
    return samples


def _summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "rps": len(samples) / sum(samples),
        "p50": statistics.median(ordered) * 1e6,
        "p99": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1e6,
    }


async def _port_of(process: asyncio.subprocess.Process) -> str:
    assert process.stderr is not None
    while True:
        line = (await process.stderr.readline()).decode()
        if not line:
            raise RuntimeError("server exited before listening")
        match = re.search(r"listening on (ws://[^/\s]+/)", line)
        if match:
            return match.group(1)


async def _stdio(count: int) -> tuple[dict[str, float], dict[str, float]]:
    sys.path.insert(0, str(PYTHON_DIR))
    from ahp_protocol._rpc import connect_stdio
    from ahp_protocol.client import AhpClient
    from ahp_protocol.models import InitializeParams

    params = InitializeParams(protocol_version=1, client_id="bench")
    command = [sys.executable, "-m", "ahp_protocol.server"]
    command += ["--transport", "stdio", "--quiet"]
    connection = await connect_stdio(
        command, lambda _s: {}, env=ENV, stderr=subprocess.DEVNULL
    )
    client = AhpClient(connection)
    echo = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        ECHO_STDIO,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert echo.stdin is not None and echo.stdout is not None
    stdin, stdout = echo.stdin, echo.stdout
    data = REQUEST.encode() + b"\n"

    async def round_trip() -> bytes:
        stdin.write(data)
        await stdin.drain()
        return await stdout.readline()

    generated, bare = await _measure(
        lambda: client.initialize(params), round_trip, count
    )
    await client.close()
    stdin.close()
    await echo.wait()
    return _summary(generated), _summary(bare)


async def _websocket(count: int) -> tuple[dict[str, float], dict[str, float]]:
    import aiohttp
    from ahp_protocol.client import AhpClient
    from ahp_protocol.models import InitializeParams

    params = InitializeParams(protocol_version=1, client_id="bench")
    server = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "ahp_protocol.server",
        "--transport",
        "websocket",
        "--quiet",
        stderr=asyncio.subprocess.PIPE,
        env=ENV,
    )
    echo = await asyncio.create_subprocess_exec(
        sys.executable, "-c", ECHO_WEBSOCKET, stderr=asyncio.subprocess.PIPE, env=ENV
    )
    client = await AhpClient.websocket(await _port_of(server))
    url = await _port_of(echo)
    async with aiohttp.ClientSession() as http, http.ws_connect(url) as socket:

        async def round_trip() -> str:
            await socket.send_str(REQUEST)
            text: str = await socket.receive_str()
            return text

        generated, bare = await _measure(
            lambda: client.initialize(params), round_trip, count
        )
    await client.close()
    for process in (server, echo):
        process.terminate()
        await process.wait()
    return _summary(generated), _summary(bare)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=3000)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory():
        rows = [
            ("stdio", asyncio.run(_stdio(options.requests))),
            ("websocket", asyncio.run(_websocket(options.requests))),
        ]
    print(f"{'transport':<10} {'side':<10} {'req/s':>9} {'p50 µs':>9} {'p99 µs':>9}")
    for name, (generated, bare) in rows:
        for side, numbers in (("generated", generated), ("echo", bare)):
            print(
                f"{name:<10} {side:<10} {numbers['rps']:>9.0f} "
                f"{numbers['p50']:>9.1f} {numbers['p99']:>9.1f}"
            )
        result(
            f"server.{name}",
            {"ratio": generated["rps"] / bare["rps"], "rps": generated["rps"]},
        )
        print(
            f"{name:<10} {'ratio':<10} {generated['rps'] / bare['rps']:>9.2f}x "
            f"{generated['p50'] / bare['p50']:>8.2f}x {generated['p99'] / bare['p99']:>8.2f}x"
            "   (generated / echo: throughput, p50, p99)"
        )


if __name__ == "__main__":
    main()
