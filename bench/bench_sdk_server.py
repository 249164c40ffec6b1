"""Benchmark: the generated stub server against the official SDK's own server, over stdio.

Phase: measurement (``make bench``), never a timed test.
Inputs: the generated ``mcp`` and ``acp1`` packages; the official SDKs (pinned in
``tests/interop/requirements.txt``, run by the interop venv, ``CODEGEN_INTEROP_PYTHON``
names another python) serving through ``sdk_servers.py``; each request's params are the
spec's first accepted sample for the method.
Outputs, per protocol: requests/second, p50 latency, and the CPU the client and the server
process spent per round trip, of the generated stub server (``python -m
<package>.server --transport stdio --quiet``) and of the SDK's server (the MCP SDK's
low-level ``Server``; an ACP SDK agent), and the ratio generated / SDK.  Both answer
``initialize``, then the same fixed mix of requests (MCP: ``ping``, ``tools/list``,
``tools/call``, ``resources/list``, ``resources/read``, ``prompts/get``; ACP:
``session/new``, ``session/prompt``, ``session/set_mode``, ``authenticate``,
``session/load``), each with the result the stub answers it with (the SDK's handlers
return that result, read once into the SDK's model at start: a trivial handler on both
sides).  The client is the same bare pipe client for both: it writes each request's
line and reads the answer's, so the ratio compares servers.
Guarantees: the benchmark and both servers run on one core (a round trip then costs the
CPU both peers spend on it: ``bench_server.py`` says why the all-cores figure swings), the
two servers measured in alternating blocks of 100 round trips; every answer is checked to
be a result, not an error, during the warm-up; writes only to a temporary directory.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import orjson
from bench_server import _ON_OUR_LOOP, Numbers, Side, _measure
from support import ROOT as REPO
from support import result

HERE = Path(__file__).resolve().parent
INTEROP_PYTHON = Path(
    os.environ.get("CODEGEN_INTEROP_PYTHON")
    or HERE.parent / ".venv-interop" / "bin" / "python"
)

# The least server the pipe client can talk to: an event loop (the one the generated
# server runs on) that parses each request and answers the stub's result for its method,
# with no validation or dispatch.  No server on that loop does better: floor / SDK is
# the most any asyncio server reaches against the SDK's with this client.
FLOOR = r"""
import asyncio, json, os, sys
with open(sys.argv[1], encoding="utf-8") as stream:
    RESULTS = json.load(stream)

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
            if "id" not in request:
                continue
            result = RESULTS[request["method"]]
            answer = {"jsonrpc": "2.0", "id": request["id"], "result": result}
            os.write(sink, json.dumps(answer, separators=(",", ":")).encode() + b"\n")

    loop.add_reader(source, readable)
    await ended
""" + _ON_OUR_LOOP

# spec -> (the SDK server's kind in sdk_servers.py, its name, the first message after
# ``initialize``, the mix of requests)
PROTOCOLS: dict[str, tuple[str, str, str | None, tuple[str, ...]]] = {
    "mcp": (
        "mcp",
        "MCP SDK server",
        "notifications/initialized",
        (
            "ping",
            "tools/list",
            "tools/call",
            "resources/list",
            "resources/read",
            "prompts/get",
        ),
    ),
    "acp1": (
        "acp",
        "ACP SDK agent",
        None,
        (
            "session/new",
            "session/prompt",
            "session/set_mode",
            "authenticate",
            "session/load",
        ),
    ),
}


def _params(spec: str) -> dict[str, Any]:
    """Each method's first accepted params sample (``{}`` for a method without one)."""
    from codegen import ir
    from tests.roundtrip import harness

    found: dict[str, Any] = {}
    for example in harness.protocol(spec).examples:
        if (
            example.expect is ir.Expectation.ACCEPT
            and example.part is ir.ExamplePart.PARAMS
            and example.method is not None
        ):
            found.setdefault(example.method, json.loads(example.json_text))
    return found


class Peer:
    """A server subprocess on pipes, driven by a bare client: one line out, one line in.

    The client is the leanest a pipe can have: blocking ``os.write`` and ``os.read`` on
    the pipes (one request is in flight at a time, so nothing else could run meanwhile),
    orjson, no event loop in the round trip; so its cost, the same for both servers,
    weighs as little as it can on the ratio of the servers."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self.ids = itertools.count(1)
        assert process.stdin is not None and process.stdout is not None
        self.sink = process.stdin.fileno()
        self.source = process.stdout.fileno()
        self.pending = bytearray()

    @classmethod
    def start(cls, command: list[str], env: dict[str, str]) -> Peer:
        debug = os.environ.get("CODEGEN_BENCH_DEBUG")
        process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=None if debug else subprocess.DEVNULL,
            env=env,
        )
        return cls(process)

    def _line(self) -> bytes:
        pending = self.pending
        while (end := pending.find(b"\n")) < 0:
            data = os.read(self.source, 1 << 20)
            if not data:
                raise RuntimeError("server closed its output")
            pending += data
        line = bytes(pending[:end])
        del pending[: end + 1]
        return line

    async def call(self, method: str, params: Any) -> Any:
        ident = next(self.ids)
        message = {"jsonrpc": "2.0", "id": ident, "method": method}
        if params is not None:
            message["params"] = params
        os.write(self.sink, orjson.dumps(message) + b"\n")
        line = self._line()
        answer = orjson.loads(line)
        if answer.get("id") != ident or "result" not in answer:
            raise RuntimeError(f"{method}: {line[:300]!r}")
        return answer["result"]

    def notify(self, method: str, params: Any) -> None:
        message = {"jsonrpc": "2.0", "method": method, "params": params}
        os.write(self.sink, orjson.dumps(message) + b"\n")

    def round_trips(self, mix: list[tuple[str, Any]]) -> Any:
        """A call that sends the next request of ``mix`` each time."""
        turn = itertools.cycle(mix)

        async def next_call() -> Any:
            method, params = next(turn)
            return await self.call(method, params)

        return next_call

    async def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            await asyncio.to_thread(self.process.wait, 10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        assert self.process.stdout is not None
        self.process.stdout.close()


async def _open(peer: Peer, initialize: Any, then: str | None) -> None:
    await peer.call("initialize", initialize)
    if then is not None:
        peer.notify(then, {})


async def bench_spec(spec: str, count: int, folder: Path) -> Numbers:
    kind, _, then, methods = PROTOCOLS[spec]
    samples = _params(spec)
    mix = [(m, samples.get(m, {})) for m in methods]
    package_dir = REPO / "generated" / spec / "python"
    ours = Peer.start(
        [sys.executable, "-m", f"{spec}_protocol.server"]
        + ["--transport", "stdio", "--quiet"],
        {**os.environ, "PYTHONPATH": str(package_dir)},
    )
    results = {"initialize": await ours.call("initialize", samples["initialize"])}
    if then is not None:
        ours.notify(then, {})
    for method, params in mix:
        results[method] = await ours.call(method, params)
    answers = folder / f"{spec}-results.json"
    answers.write_text(json.dumps(results), encoding="utf-8")
    sdk_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    sdk = Peer.start(
        [str(INTEROP_PYTHON), str(HERE / "sdk_servers.py"), kind, str(answers)],
        sdk_env,
    )
    floor = Peer.start(
        [sys.executable, "-c", FLOOR, str(answers)],
        {**os.environ, "PYTHONPATH": str(package_dir)},
    )
    for peer in (sdk, floor):
        await _open(peer, samples["initialize"], then)
        for method, params in mix:  # every request of the mix is answered
            await peer.call(method, params)
    numbers = await _measure(
        {
            "generated": Side(ours.round_trips(mix), ours.process.pid),
            "sdk": Side(sdk.round_trips(mix), sdk.process.pid),
            "floor": Side(floor.round_trips(mix), floor.process.pid),
        },
        count,
    )
    for peer in (ours, sdk, floor):
        await peer.close()
    return numbers


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--spec", action="append", choices=sorted(PROTOCOLS))
    args = parser.parse_args()
    if not INTEROP_PYTHON.is_file():
        print(f"skipped: no {INTEROP_PYTHON} (make .venv-interop/.installed)")
        return 0
    if hasattr(os, "sched_setaffinity"):
        every = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {min(every)})
    print(
        f"{'spec':<6} {'server':<18} {'req/s':>9} {'p50 µs':>9}"
        "   CPU µs per round trip: client, server"
    )
    with tempfile.TemporaryDirectory(prefix="codegen-bench-sdk-") as tmp:
        for spec in args.spec or sorted(PROTOCOLS):
            sides = asyncio.run(bench_spec(spec, args.requests, Path(tmp)))
            names = {
                "generated": "generated stub",
                "sdk": PROTOCOLS[spec][1],
                "floor": "floor",
            }
            for side, numbers in sides.items():
                server_cpu = numbers.get("server_cpu_us")
                print(
                    f"{spec:<6} {names[side]:<18} {numbers['rps']:>9.0f} "
                    f"{numbers['p50']:>9.1f}   {numbers['client_cpu_us']:>8.1f} "
                    + ("       —" if server_cpu is None else f"{server_cpu:>8.1f}")
                )
            ours, sdk, floor = sides["generated"], sides["sdk"], sides["floor"]
            ratio = ours["rps"] / sdk["rps"]
            cpu = {}
            if "server_cpu_us" in ours and "server_cpu_us" in sdk:
                cpu["server_cpu_ratio"] = sdk["server_cpu_us"] / ours["server_cpu_us"]
            result(
                f"sdk_server.{spec}",
                {
                    "ratio": ratio,
                    "rps": ours["rps"],
                    "sdk_rps": sdk["rps"],
                    "floor_ratio": floor["rps"] / sdk["rps"],
                    "generated_floor": ours["rps"] / floor["rps"],
                    **{f"ours_{k}": v for k, v in ours.items()},
                    **{f"sdk_{k}": v for k, v in sdk.items()},
                    **cpu,
                },
            )
            print(
                f"{spec:<6} {'ratio':<18} {ratio:>9.2f}x "
                f"{ours['p50'] / sdk['p50']:>8.2f}x"
                + (
                    f"   server CPU, SDK / generated: {cpu['server_cpu_ratio']:.2f}x"
                    if cpu
                    else ""
                )
            )
            print(
                f"{spec:<6} {'floor / SDK':<18} {floor['rps'] / sdk['rps']:>9.2f}x"
                "   (the most an asyncio server reaches here)"
            )
            print(
                f"{spec:<6} {'generated / floor':<18} {ratio * sdk['rps'] / floor['rps']:>9.2f}x"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
