"""Handler registration for requests the peer sends back (ACP's agent → client,
piglet's extension → host): the generated client answers them with its handler.

Both ends are the generated runtime, joined by an in-memory channel pair.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.server.support import Generated, generated


class _Pipe:
    def __init__(
        self, inbox: asyncio.Queue[str | None], outbox: asyncio.Queue[str | None]
    ) -> None:
        self.peer = "memory"
        self.inbox = inbox
        self.outbox = outbox

    async def receive(self) -> str | None:
        return await self.inbox.get()

    async def send(self, text: str) -> None:
        await self.outbox.put(text)

    async def close(self) -> None:
        await self.outbox.put(None)


def _callbacks(gen: Generated) -> list[str]:
    import tomllib

    from tests.server.support import REPO

    toml = tomllib.loads((REPO / "specs" / gen.spec / "spec.toml").read_text())
    client_role = toml["spec"]["roles"][0]
    methods = gen.module("methods").METHODS
    return [
        name
        for name, info in methods.items()
        if info.kind == "request" and (info.receiver == client_role or info.both_ways)
    ]


# Only protocols whose server side sends requests to the client (ahp's does not).
WITH_CALLBACKS = [g for g in generated() if g.jsonrpc and _callbacks(g)]


def test_the_protocols_with_callbacks_are_found() -> None:
    assert {g.spec for g in WITH_CALLBACKS} >= {"acp", "piglet"}


@pytest.mark.parametrize("gen", WITH_CALLBACKS, ids=lambda g: g.spec)
def test_client_handler_answers_the_peers_requests(gen: Generated) -> None:
    names = _callbacks(gen)
    rpc = gen.module("_rpc")
    client_module = gen.module("client")
    stub_class = next(
        value
        for name, value in vars(client_module).items()
        if name.startswith("Stub") and isinstance(value, type)
    )
    stub_data = gen.module("stub_data")

    async def run() -> list[Any]:
        a: asyncio.Queue[str | None] = asyncio.Queue()
        b: asyncio.Queue[str | None] = asyncio.Queue()
        client_side = rpc.Connection(_Pipe(a, b))
        client_side.serve_with(client_module.handlers(stub_class()))
        server_side = rpc.Connection(_Pipe(b, a))
        tasks = [asyncio.ensure_future(c.run()) for c in (client_side, server_side)]
        answers = []
        for name in names:
            info = gen.module("methods").METHODS[name]
            params = None
            if info.params is not None:
                params = _sample_params(gen, name)
                if params is None:
                    continue
            message = {"jsonrpc": "2.0", "id": name, "method": name}
            if params is not None:
                message["params"] = params
            answer = await server_side.request_raw(message)
            assert "result" in answer, answer
            assert answer["result"] == info.result.dump_python(
                stub_data.result(name), mode="json", by_alias=True
            )
            answers.append(answer)
        await client_side.close()
        await server_side.close()
        await asyncio.gather(*tasks)
        return answers

    assert asyncio.run(run())


def _sample_params(gen: Generated, method: str) -> Any:
    import json

    from tests.server.support import REPO

    path = (
        REPO
        / "specs"
        / gen.spec
        / "examples"
        / "methods"
        / f"{method.replace('/', '_')}.json"
    )
    candidates = [path] + sorted(
        (REPO / "specs" / gen.spec / "examples" / "methods").glob("*.json")
    )
    for candidate in candidates:
        if not candidate.is_file():
            continue
        data = json.loads(candidate.read_text(encoding="utf-8"))
        if data["target"].get("method") != method:
            continue
        for sample in data["samples"]:
            if sample.get("part") == "params" and sample.get("expect") == "accept":
                return sample["value"]
    return None
