"""Every wire sample of each protocol, replayed through the generated client against
the generated stub server over its real transports (a subprocess on stdio, an
ephemeral 127.0.0.1 port for WebSocket and HTTP).

Valid requests must be answered with a result that validates; invalid ones with
-32602 (or -32600 when the params are not structured); notifications with nothing.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
from dataclasses import dataclass, field
from typing import Any

import pytest

from codegen import ir
from tests.roundtrip.harness import protocol
from tests.server.support import Generated, NetworkServer, generated

CASES = [
    pytest.param(gen, transport, id=f"{gen.spec}-{transport}")
    for gen in generated()
    for framing, transport in (
        ("ndjson-stdio", "stdio"),
        ("websocket", "websocket"),
        ("http-post", "http"),
    )
    if framing in gen.framings
]


@dataclass
class Tally:
    requests: int = 0
    notifications: int = 0
    rejected: int = 0
    failures: list[str] = field(default_factory=list)


def _server_methods(gen: Generated) -> set[str]:
    proto = protocol(gen.spec)
    server_role = proto.roles[1]
    return {
        m.wire_name
        for m in proto.methods
        if m.direction.receiver == server_role or m.direction.both_ways
    }


async def _connect(gen: Generated, transport: str, url: str | None) -> Any:
    client_module = gen.module("client")
    client_class = next(
        value
        for name, value in vars(client_module).items()
        if name.endswith("Client") and isinstance(value, type)
    )
    if transport == "stdio":
        return await client_class.stdio(stderr=subprocess.DEVNULL)
    if transport == "websocket":
        return await client_class.websocket(url)
    return await client_class.http(url)


async def _replay(gen: Generated, transport: str, url: str | None) -> Tally:
    tally = Tally()
    methods = gen.module("methods").METHODS
    rpc = gen.module("_rpc")
    inbound = _server_methods(gen)
    client = await _connect(gen, transport, url)
    session = client.session
    jsonrpc = gen.jsonrpc
    ids = iter(range(1, 10**6))

    async def raw(method: str, params: Any, has_params: bool = True) -> Any:
        message: dict[str, Any] = {"method": method}
        if jsonrpc:
            message = {"jsonrpc": "2.0", "id": f"r{next(ids)}", **message}
        if has_params:
            message["params"] = params
        return await session.request_raw(message)

    async def alive() -> None:
        # a valid request right after: the server is still answering
        for name in sorted(inbound):
            info = methods[name]
            if info.kind == "request" and info.params is None:
                assert "result" in await raw(name, None, has_params=False)
                return
        if jsonrpc:
            answer = await raw("$codegen/no-such-method", {})
            assert answer["error"]["code"] == rpc.METHOD_NOT_FOUND

    async def notify_raw(method: str, params: Any) -> None:
        if jsonrpc:
            text = json.dumps({"jsonrpc": "2.0", "method": method, "params": params})
            await session.channel.send(text)
        await alive()

    try:
        for example in protocol(gen.spec).examples:
            method = example.method
            if method is None or method not in inbound or example.skipped_reason:
                continue
            info = methods[method]
            value = json.loads(example.json_text)
            label = f"{example.name} ({example.part.value})"
            if example.part is ir.ExamplePart.MESSAGE:
                if not isinstance(value, dict) or "method" not in value:
                    continue  # an answer: the stub's own candidates, checked elsewhere
                params, has = value.get("params"), "params" in value
            elif example.part is ir.ExamplePart.PARAMS:
                params, has = value, True
            else:
                continue
            accept = example.expect is ir.Expectation.ACCEPT
            if info.kind == "notification" and jsonrpc:
                await notify_raw(method, params)
                tally.notifications += 1
                continue
            if accept:
                typed = info.params.validate_python(params) if info.params else None
                try:
                    result = await session.request(method, typed)
                except Exception as error:  # noqa: BLE001 - reported below
                    tally.failures.append(f"{label}: {error!r}")
                    continue
                if info.result is not None:
                    dumped = info.result.dump_python(result, mode="json", by_alias=True)
                    info.result.validate_python(dumped)
                tally.requests += 1
            else:
                answer = await raw(method, params, has)
                error = answer.get("error") or {}
                structured = isinstance(params, (dict, list))
                wanted = (
                    rpc.INVALID_PARAMS
                    if structured or not jsonrpc
                    else rpc.INVALID_REQUEST
                )
                if error.get("code") != wanted:
                    tally.failures.append(f"{label}: wanted {wanted}, got {answer}")
                elif wanted == rpc.INVALID_PARAMS and not error.get("data"):
                    tally.failures.append(f"{label}: no validation details")
                tally.rejected += 1
        await alive()
    finally:
        await client.close()
    return tally


@pytest.mark.parametrize(("gen", "transport"), CASES)
def test_samples_replay_through_the_generated_client(
    gen: Generated, transport: str
) -> None:
    server = None
    url = None
    if transport != "stdio":
        server = NetworkServer(gen, transport, "--quiet")
        url = server.url
    try:
        tally = asyncio.run(_replay(gen, transport, url))
    finally:
        if server is not None:
            assert server.terminate() == 0
    print(
        f"{gen.spec}/{transport}: {tally.requests} requests answered, "
        f"{tally.notifications} notifications, {tally.rejected} invalid samples refused"
    )
    assert not tally.failures, "\n".join(tally.failures)
    assert tally.requests > 0


@pytest.mark.parametrize("gen", generated(), ids=lambda g: g.spec)
def test_every_request_has_a_valid_stub_result(gen: Generated) -> None:
    stub_data = gen.module("stub_data")
    methods = gen.module("methods").METHODS
    missing = []
    for name, info in methods.items():
        if info.kind == "request":
            try:
                stub_data.choose(name)
            except LookupError as error:
                missing.append(str(error))
    assert not missing, missing


def test_stub_prefers_the_specs_own_example_results() -> None:
    ahp = next((g for g in generated() if g.spec == "ahp"), None)
    assert ahp is not None, "generated/ahp is missing: run make generate"
    origin, _ = ahp.module("stub_data").choose("resourceRead")
    assert origin.startswith("example resourceRead.")


def test_replay_covers_every_transport() -> None:
    # CASES is built from the generated tree; an empty or partial list passes vacuously.
    transports = {param.values[1] for param in CASES}
    assert transports == {"stdio", "websocket", "http"}, transports
