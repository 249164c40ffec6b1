"""Benchmark: request/response round trips through the generated ``ahp`` client and
stub server, against a bare echo loop on the same transport, in the same run.

Phase: measurement (``make bench``), never a timed test.
Inputs: the generated ``ahp_protocol`` package (``initialize`` with the spec's sample
params; the stub answers with its canned result, validated both ways).
Outputs: per transport (stdio pipes, WebSocket on 127.0.0.1): round trips per second
and p50 / p99 latency of sequential requests for the generated pair and for the echo
loop, and the ratios generated / echo.  The echo is a subprocess that writes back each
line (a blocking read/write loop: the cheapest peer a pipe can have) or frame (an
aiohttp server on the event loop ours runs on: uvloop when installed); its client is the
same asyncio pipe or aiohttp socket ours uses.
A third side, the floor, is the generated client against the least server it can
talk to: an event loop (pipes) or aiohttp (WebSocket) server, on the loop ours runs on,
that parses each request and answers the stub's own result, with no validation or
dispatch.  floor / echo is what
the generated client and an event loop cost: no server, however lean, does better.
The sides run in alternating blocks of 100 round trips, so load that comes and goes
during the run weighs on all alike.  Each transport is measured twice: first with the
benchmark and every server on one core (the figure the targets read), then on all cores.
On one core a round trip costs the CPU both peers spend on it; across cores it also
costs waking the other core, which on a virtual machine takes longer than the work and
differs from one process pair to the next (the same code measured 0.27x and 0.61x in
two runs across cores, 0.49x-0.51x in three on one core).  Where ``/proc`` exists, the
CPU time each side's client and server process spent per round trip, too: on one core,
a round trip costs about their sum.
Guarantees: servers run with ``--quiet`` (no per-message stderr log), so the numbers
measure framing, validation and dispatch; nothing is written outside a temp dir.
"""

from __future__ import annotations

import argparse
import asyncio
import json
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

# The event loop the generated server runs on (uvloop when installed: its ``--loop auto``),
# so the floor and the WebSocket echo compare servers, not event loops.  Spelled out
# rather than imported from the package's ``_rpc``: a baseline revision's has no
# ``event_loop_factory``, and its floor must run on the same loop as ours.
_ON_OUR_LOOP = """
try:
    import uvloop
    _factory = uvloop.new_event_loop
except ImportError:
    _factory = None
with asyncio.Runner(loop_factory=_factory) as runner:
    runner.run(main())
"""

# The aiohttp server both WebSocket peers run: ``handle`` answers one socket's frames.
_WEBSOCKET_SITE = """
async def main():
    app = web.Application()
    app.router.add_get("/", handle)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    print(f"listening on ws://127.0.0.1:{port}/", file=sys.stderr, flush=True)
    await asyncio.Event().wait()
""" + _ON_OUR_LOOP


ECHO_WEBSOCKET = """
import asyncio, sys
from aiohttp import web

async def handle(request):
    socket = web.WebSocketResponse()
    await socket.prepare(request)
    async for message in socket:
        await socket.send_str(message.data)
    return socket
""" + _WEBSOCKET_SITE

FLOOR_STDIO = r"""
import asyncio, json, os, sys
RESULT = json.loads(sys.argv[1])

async def main():
    loop = asyncio.get_running_loop()
    source, sink = sys.stdin.fileno(), sys.stdout.fileno()
    os.set_blocking(source, False)
    ended = loop.create_future()
    pending = bytearray()

    def readable():
        data = os.read(source, 65536)
        if not data:
            loop.remove_reader(source)
            ended.set_result(None)
            return
        pending.extend(data)
        while (end := pending.find(b"\n")) >= 0:
            request = json.loads(pending[:end])
            del pending[: end + 1]
            answer = {"jsonrpc": "2.0", "id": request["id"], "result": RESULT}
            os.write(sink, json.dumps(answer, separators=(",", ":")).encode() + b"\n")

    loop.add_reader(source, readable)
    await ended
""" + _ON_OUR_LOOP

FLOOR_WEBSOCKET = """
import asyncio, json, sys
from aiohttp import web
RESULT = json.loads(sys.argv[1])

async def handle(request):
    socket = web.WebSocketResponse()
    await socket.prepare(request)
    async for message in socket:
        call = json.loads(message.data)
        reply = {"jsonrpc": "2.0", "id": call["id"], "result": RESULT}
        await socket.send_str(json.dumps(reply, separators=(",", ":")))
    return socket
""" + _WEBSOCKET_SITE

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
        self.blocks: list[float] = []  # seconds of each block's round trips
        self.client_cpu = 0.0
        self.server_cpu: float | None = 0.0

    async def block(self, count: int) -> None:
        server_before = _process_cpu(self.server_pid)
        client_before = time.process_time()
        first = len(self.times)
        for _ in range(count):
            begin = time.perf_counter()
            await self.call()
            self.times.append(time.perf_counter() - begin)
        self.blocks.append(sum(self.times[first:]))
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


Numbers = dict[str, dict[str, float]]


def _block_ratios(top: Side, bottom: Side) -> dict[str, float]:
    """The ratio of two sides' throughput block by block (each pair of blocks measured
    back to back): its median and quartiles, the spread a single run's figure hides."""
    ratios = [b / a for a, b in zip(top.blocks, bottom.blocks, strict=False)]
    if len(ratios) < 2:
        return {}
    q1, median, q3 = statistics.quantiles(ratios, n=4, method="inclusive")
    return {"median": median, "q1": q1, "q3": q3}


async def _measure(sides: dict[str, Side], count: int, block: int = 100) -> Numbers:
    """The sides measured in alternating blocks so a change in the machine's load
    falls on all alike (these machines are noisy)."""
    for side in sides.values():
        for _ in range(min(200, count)):
            await side.call()
    for start in range(0, count, block):
        for side in sides.values():
            await side.block(min(block, count - start))
    numbers = {name: side.summary() for name, side in sides.items()}
    if "generated" in sides and "floor" in sides:
        blocks = _block_ratios(sides["generated"], sides["floor"])
        numbers["generated"].update({f"floor_blocks_{k}": v for k, v in blocks.items()})
    return numbers


async def _stub_result(connection: Any) -> str:
    """The JSON text of the result the stub server answers ``REQUEST`` with."""
    response = await connection.request_raw({**json.loads(REQUEST), "id": 0})
    return json.dumps(response["result"])


async def _port_of(process: asyncio.subprocess.Process) -> str:
    assert process.stderr is not None
    while True:
        line = (await process.stderr.readline()).decode()
        if not line:
            raise RuntimeError("server exited before listening")
        match = re.search(r"listening on (ws://[^/\s]+/)", line)
        if match:
            return match.group(1)


def _children() -> set[int] | None:
    """This process's children (None where /proc cannot tell)."""
    try:
        with open(f"/proc/self/task/{os.getpid()}/children", encoding="ascii") as f:
            return {int(pid) for pid in f.read().split()}
    except OSError:
        return None


def _new_child(before: set[int] | None) -> int:
    """The pid of the one process ``connect_stdio`` started since ``before`` (-1, no CPU
    figure, where /proc cannot tell)."""
    now = _children()
    if before is None or now is None or len(now - before) != 1:
        return -1
    return next(iter(now - before))


async def _stdio(count: int) -> Numbers:
    sys.path.insert(0, str(PYTHON_DIR))
    from ahp_protocol._rpc import connect_stdio
    from ahp_protocol.client import AhpClient
    from ahp_protocol.models import InitializeParams

    params = InitializeParams(protocol_version=1, client_id="bench")
    command = [sys.executable, "-m", "ahp_protocol.server"]
    command += ["--transport", "stdio", "--quiet"]
    before = _children()
    connection = await connect_stdio(
        command, lambda _s: {}, env=ENV, stderr=subprocess.DEVNULL
    )
    server_pid = _new_child(before)
    client = AhpClient(connection)
    before = _children()
    floor_command = [sys.executable, "-c", FLOOR_STDIO, await _stub_result(connection)]
    floor_connection = await connect_stdio(floor_command, lambda _s: {}, env=ENV)
    floor_pid = _new_child(before)
    floor = AhpClient(floor_connection)
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
        {
            "generated": Side(lambda: client.initialize(params), server_pid),
            "floor": Side(lambda: floor.initialize(params), floor_pid),
            "echo": Side(round_trip, echo.pid),
        },
        count,
    )
    await client.close()
    await floor.close()
    stdin.close()
    await echo.wait()
    return numbers


async def _websocket(count: int) -> Numbers:
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
    floor_server = await asyncio.create_subprocess_exec(
        *(sys.executable, "-c", FLOOR_WEBSOCKET, await _stub_result(client.session)),
        stderr=asyncio.subprocess.PIPE,
        env=ENV,
    )
    floor = await AhpClient.websocket(await _port_of(floor_server))
    url = await _port_of(echo)
    async with aiohttp.ClientSession() as http, http.ws_connect(url) as socket:

        async def round_trip() -> str:
            await socket.send_str(REQUEST)
            text: str = await socket.receive_str()
            return text

        numbers = await _measure(
            {
                "generated": Side(lambda: client.initialize(params), server.pid),
                "floor": Side(lambda: floor.initialize(params), floor_server.pid),
                "echo": Side(round_trip, echo.pid),
            },
            count,
        )
    await client.close()
    await floor.close()
    for process in (server, floor_server, echo):
        process.terminate()
        await process.wait()
    return numbers


def _measure_all(requests: int, cores: set[int]) -> list[tuple[str, Numbers]]:
    """Both transports with this process, and so every server it starts, on ``cores``."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, cores)
    with tempfile.TemporaryDirectory():
        return [
            ("stdio", asyncio.run(_stdio(requests))),
            ("websocket", asyncio.run(_websocket(requests))),
        ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=3000)
    options = parser.parse_args()
    every = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else set()
    one = {min(every)} if every else every
    _report(_measure_all(options.requests, one), "one core", "")
    if len(every) > 1:
        _report(_measure_all(options.requests, every), "all cores", "_all_cores")


def _report(rows: list[tuple[str, Numbers]], title: str, key: str) -> None:
    """Print one measurement's table, and its ratios as RESULT lines named
    ``server.<transport><key>``."""
    print(f"{title}:")
    print(
        f"{'transport':<10} {'side':<10} {'req/s':>9} {'p50 µs':>9} {'p99 µs':>9}"
        "   CPU µs per round trip: client, server"
    )
    for name, sides in rows:
        for side, numbers in sides.items():
            server_cpu = numbers.get("server_cpu_us")
            print(
                f"{name:<10} {side:<10} {numbers['rps']:>9.0f} "
                f"{numbers['p50']:>9.1f} {numbers['p99']:>9.1f}"
                f"   {numbers['client_cpu_us']:>8.1f} "
                + ("       —" if server_cpu is None else f"{server_cpu:>8.1f}")
            )
        generated, floor, bare = sides["generated"], sides["floor"], sides["echo"]
        blocks = {
            f"generated_floor_{k}": generated[f"floor_blocks_{k}"]
            for k in ("median", "q1", "q3")
            if f"floor_blocks_{k}" in generated
        }
        result(
            f"server.{name}{key}",
            {
                "ratio": generated["rps"] / bare["rps"],
                "rps": generated["rps"],
                "floor_ratio": floor["rps"] / bare["rps"],
                "generated_floor": generated["rps"] / floor["rps"],
                **blocks,
            },
        )
        for label, (top, bottom) in (
            ("generated / echo", (generated, bare)),
            ("floor / echo", (floor, bare)),
            ("generated / floor", (generated, floor)),
        ):
            print(
                f"{name:<10} {'ratio':<10} {top['rps'] / bottom['rps']:>9.2f}x "
                f"{top['p50'] / bottom['p50']:>8.2f}x {top['p99'] / bottom['p99']:>8.2f}x"
                f"   ({label}: throughput, p50, p99)"
            )
        if blocks:
            print(
                f"{name:<10} {'blocks':<10} generated / floor block by block: median "
                f"{blocks['generated_floor_median']:.2f}, quartiles "
                f"{blocks['generated_floor_q1']:.2f}-{blocks['generated_floor_q3']:.2f}"
            )


if __name__ == "__main__":
    main()
