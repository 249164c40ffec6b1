"""Benchmark: request/response round trips through the generated ``ahp`` client and
stub server, against a bare echo loop on the same transport, in the same run.

Phase: measurement (``make bench``), never a timed test.
Inputs: the generated ``ahp_protocol`` package (``initialize`` with the spec's sample
params; the stub answers with its canned result, validated both ways).
Outputs: per transport (stdio pipes, WebSocket on 127.0.0.1): round trips per second
and p50 / p99 latency of sequential requests for the generated pair and for the echo
loop, and the ratios generated / echo.  The echo is a subprocess that writes back each
line (a blocking read/write loop: the cheapest peer a pipe can have) or frame (an
aiohttp server); its client is the same asyncio pipe or aiohttp socket ours uses.  The
two sides run in alternating blocks of 100 round trips, so load that comes and goes
during the run weighs on both alike.  Where ``/proc`` exists, the CPU time each side's
client and server process spent per round trip, too: on a machine whose processes
take turns on one core, a round trip costs about their sum.
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


def _process_cpu(pid: int) -> float | None:
    """Seconds of CPU (user + system) process ``pid`` has used; None without /proc."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Side:
    """One side of the comparison: its round trip, its server's pid, and what it took."""

    def __init__(self, call: Callable[[], Awaitable[Any]], server_pid: int) -> None:
        self.call = call
        self.server_pid = server_pid
        self.times: list[float] = []
        self.client_cpu = 0.0
        self.server_cpu: float | None = 0.0

    async def block(self, count: int) -> None:
        server_before = _process_cpu(self.server_pid)
        client_before = time.process_time()
        for _ in range(count):
            begin = time.perf_counter()
            await self.call()
            self.times.append(time.perf_counter() - begin)
        self.client_cpu += time.process_time() - client_before
        server_after = _process_cpu(self.server_pid)
        if server_before is None or server_after is None or self.server_cpu is None:
            self.server_cpu = None
        else:  # clock ticks: each block's rounding evens out over the blocks
            self.server_cpu += server_after - server_before

    def summary(self) -> dict[str, float]:
        ordered = sorted(self.times)
        numbers = {
            "rps": len(ordered) / sum(ordered),
            "p50": statistics.median(ordered) * 1e6,
            "p99": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1e6,
            "client_cpu_us": self.client_cpu / len(ordered) * 1e6,
        }
        if self.server_cpu is not None:
            numbers["server_cpu_us"] = self.server_cpu / len(ordered) * 1e6
        return numbers


async def _measure(
    generated: Side, echo: Side, count: int, block: int = 100
) -> tuple[dict[str, float], dict[str, float]]:
    """Both sides measured in alternating blocks so a change in the machine's load
    falls on both alike (these machines are noisy)."""
    for side in (generated, echo):
        for _ in range(min(200, count)):
            await side.call()
    for start in range(0, count, block):
        for side in (generated, echo):
            await side.block(min(block, count - start))
    return generated.summary(), echo.summary()


async def _port_of(process: asyncio.subprocess.Process) -> str:
    assert process.stderr is not None
    while True:
        line = (await process.stderr.readline()).decode()
        if not line:
            raise RuntimeError("server exited before listening")
        match = re.search(r"listening on (ws://[^/\s]+/)", line)
        if match:
            return match.group(1)


def _child_pid() -> int:
    """The pid of the server ``connect_stdio`` started: this process's only child then
    (-1, no CPU figure, where /proc cannot tell)."""
    try:
        with open(f"/proc/self/task/{os.getpid()}/children", encoding="ascii") as f:
            children = f.read().split()
    except OSError:
        return -1
    return int(children[0]) if len(children) == 1 else -1


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
    server_pid = _child_pid()  # before the echo starts
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

    numbers = await _measure(
        Side(lambda: client.initialize(params), server_pid),
        Side(round_trip, echo.pid),
        count,
    )
    await client.close()
    stdin.close()
    await echo.wait()
    return numbers


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

        numbers = await _measure(
            Side(lambda: client.initialize(params), server.pid),
            Side(round_trip, echo.pid),
            count,
        )
    await client.close()
    for process in (server, echo):
        process.terminate()
        await process.wait()
    return numbers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=3000)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory():
        rows = [
            ("stdio", asyncio.run(_stdio(options.requests))),
            ("websocket", asyncio.run(_websocket(options.requests))),
        ]
    print(
        f"{'transport':<10} {'side':<10} {'req/s':>9} {'p50 µs':>9} {'p99 µs':>9}"
        "   CPU µs per round trip: client, server"
    )
    for name, (generated, bare) in rows:
        for side, numbers in (("generated", generated), ("echo", bare)):
            server_cpu = numbers.get("server_cpu_us")
            print(
                f"{name:<10} {side:<10} {numbers['rps']:>9.0f} "
                f"{numbers['p50']:>9.1f} {numbers['p99']:>9.1f}"
                f"   {numbers['client_cpu_us']:>8.1f} "
                + ("       —" if server_cpu is None else f"{server_cpu:>8.1f}")
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
