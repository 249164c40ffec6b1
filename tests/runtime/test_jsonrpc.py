"""The JSON-RPC runtime (the package ``codegen/runtime/``) tested as the Python it is,
with a small registry of its own; the generated packages carry it verbatim (tests/server
drives those copies over real transports)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, TypeAdapter

import codegen.runtime as rpc
from codegen.runtime import command


class Add(BaseModel):
    model_config = ConfigDict(strict=True)
    a: int
    b: int


METHODS: rpc.Methods = {
    "add": rpc.MethodInfo(
        "add", "request", "client", "server", False, TypeAdapter(Add), TypeAdapter(int)
    ),
    "now": rpc.MethodInfo(
        "now", "request", "client", "server", False, None, TypeAdapter(str)
    ),
    "ping": rpc.MethodInfo(
        "ping", "notification", "client", "server", False, None, None
    ),
}
LOG = rpc.MessageLog("test", quiet=True)


async def _add(params: Add) -> int:
    if params.a < 0:
        raise rpc.RpcError(-32001, "negative", {"a": params.a})
    if params.a == 13:
        raise KeyError("secret internals")
    if params.a == 99:
        return "not an int"  # type: ignore[return-value]
    return params.a + params.b


async def _now(_params: Any) -> str:
    return "noon"


async def _ping(_params: Any) -> None:
    return None


HANDLERS: dict[str, rpc.Handler] = {"add": _add, "now": _now, "ping": _ping}


def answer(message: Any) -> Any:
    dispatcher = rpc.Dispatcher(HANDLERS, LOG, METHODS)
    return asyncio.run(rpc.handle_request(dispatcher, message))


def request(method: str, params: Any = None, **extra: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": 7, "method": method}
    if params is not None:
        message["params"] = params
    return {**message, **extra}


# ------------------------------------------------------------------ parsing and pointers


def test_loads_rejects_what_is_not_json() -> None:
    assert rpc.loads('{"a": [1, 2.5]}') == {"a": [1, 2.5]}
    for text in ("NaN", "[Infinity]", "{", "[" * 100_000):
        with pytest.raises(rpc.RpcError) as caught:
            rpc.loads(text)
        assert caught.value.code == rpc.PARSE_ERROR


def test_json_pointer_skips_union_members_and_escapes_tokens() -> None:
    value = {"a/b": [{"c~d": 1}]}
    loc = ("a/b", 0, "RootState", "c~d")
    assert rpc.json_pointer(loc, value, missing=False) == "/a~1b/0/c~0d"
    assert rpc.json_pointer(("a/b", 0, "e"), value, missing=True) == "/a~1b/0/e"
    assert rpc.json_pointer(("a/b", 0, "e"), value, missing=False) == "/a~1b/0"


def test_rpc_error_round_trips_and_tolerates_garbage() -> None:
    error = rpc.RpcError(-32001, "negative", {"a": -1})
    assert rpc.RpcError.from_json(error.to_json()).to_json() == error.to_json()
    assert rpc.RpcError.from_json("boom").code == rpc.INTERNAL_ERROR
    odd = rpc.RpcError.from_json({"code": "x", "message": 5})
    assert (odd.code, odd.message) == (rpc.INTERNAL_ERROR, "")


# ----------------------------------------------------------------------- the envelope


def test_success_and_notification() -> None:
    assert answer(request("add", {"a": 1, "b": 2})) == {
        "jsonrpc": "2.0",
        "id": 7,
        "result": 3,
    }
    assert answer(request("now")) == {"jsonrpc": "2.0", "id": 7, "result": "noon"}
    assert answer({"jsonrpc": "2.0", "method": "ping"}) is None


@pytest.mark.parametrize(
    ("message", "code", "echoed_id"),
    [
        ([], rpc.INVALID_REQUEST, None),
        ({"jsonrpc": "2.0", "id": True, "method": "add"}, rpc.INVALID_REQUEST, None),
        ({"jsonrpc": "2.0", "id": {}, "method": "add"}, rpc.INVALID_REQUEST, None),
        ({"id": 7, "method": "add", "params": {}}, rpc.INVALID_REQUEST, 7),
        ({"jsonrpc": "2.0", "id": 7, "method": 5}, rpc.INVALID_REQUEST, 7),
        (
            request("add", params=None, params_=1) | {"params": 3},
            rpc.INVALID_REQUEST,
            7,
        ),
        (request("ping"), rpc.INVALID_REQUEST, 7),  # a notification sent with an id
        (request("nope"), rpc.METHOD_NOT_FOUND, 7),
        (request("add", {"a": "1", "b": 2}), rpc.INVALID_PARAMS, 7),  # strict: no "1"
        (request("add"), rpc.INVALID_PARAMS, 7),
        (request("now", {"x": 1}), rpc.INVALID_PARAMS, 7),  # takes no params
        (request("add", {"a": -1, "b": 0}), -32001, 7),  # the protocol's own code
        (request("add", {"a": 13, "b": 0}), rpc.INTERNAL_ERROR, 7),
        (request("add", {"a": 99, "b": 0}), rpc.INTERNAL_ERROR, 7),  # bad result
    ],
)
def test_errors_per_json_rpc(message: Any, code: int, echoed_id: Any) -> None:
    response = answer(message)
    assert response["id"] == echoed_id and response["error"]["code"] == code


def test_invalid_params_name_json_pointers_and_never_leak_internals() -> None:
    response = answer(request("add", {"a": 1, "b": "2"}))
    assert [e["path"] for e in response["error"]["data"]["errors"]] == ["/b"]
    failure = answer(request("add", {"a": 13, "b": 0}))
    assert failure["error"] == {"code": -32603, "message": "internal error"}


def test_notifications_are_never_answered_even_when_they_fail() -> None:
    assert answer({"jsonrpc": "2.0", "method": "nope"}) is None
    assert answer({"jsonrpc": "2.0", "method": "add", "params": {"a": "x"}}) is None


def test_http_envelopes() -> None:
    dispatcher = rpc.Dispatcher(HANDLERS, LOG, METHODS)

    def post(body: str) -> tuple[int, Any]:
        return asyncio.run(rpc.handle_envelope(dispatcher, body.encode()))

    assert post('{"method": "add", "params": {"a": 2, "b": 2}}') == (
        200,
        {"result": 4},
    )
    assert post("[1]")[0] == 400 and post("{")[0] == 400
    assert post('{"method": "add", "settings": 3}')[0] == 400
    status, body = post('{"method": "nope"}')
    assert status == 200 and body["error"]["code"] == rpc.METHOD_NOT_FOUND


# ------------------------------------------------------------------ registry lookup


def test_without_a_registry_the_package_one_is_looked_up() -> None:
    # codegen (the parent of codegen.runtime) has no ``methods``: the lookup says so.
    with pytest.raises(LookupError, match="pass methods="):
        rpc.Dispatcher(HANDLERS, LOG)
    assert rpc.Dispatcher(HANDLERS, LOG, METHODS).methods is METHODS


def test_stub_failures_name_known_methods_only() -> None:
    failures = command._parse_failures(["add=-32001"], {-32001: "Negative"}, METHODS)
    assert failures["add"].to_json() == {"code": -32001, "message": "Negative"}
    with pytest.raises(ValueError, match="unknown method 'sub'"):
        command._parse_failures(["sub=-32001"], {}, METHODS)
    with pytest.raises(ValueError, match="not an integer error code"):
        command._parse_failures(["add=x"], {}, METHODS)


# ---------------------------------------------------------------- connections


class Pipe:
    """One end of an in-memory channel pair."""

    def __init__(
        self, inbox: asyncio.Queue[str | None], outbox: asyncio.Queue[str | None]
    ):
        self.inbox, self.outbox, self.peer = inbox, outbox, "pipe"

    async def receive(self) -> str | None:
        return await self.inbox.get()

    async def send(self, text: str) -> None:
        await self.outbox.put(text)

    async def close(self) -> None:
        await self.outbox.put(None)
        await self.inbox.put(None)


def test_typed_requests_between_two_connections() -> None:
    async def run() -> tuple[int, str, rpc.RpcError]:
        a: asyncio.Queue[str | None] = asyncio.Queue()
        b: asyncio.Queue[str | None] = asyncio.Queue()
        client = rpc.Connection(Pipe(a, b), LOG, METHODS)
        server = rpc.Connection(Pipe(b, a), LOG, METHODS)
        server.serve_with(HANDLERS)
        tasks = [asyncio.ensure_future(c.run()) for c in (client, server)]
        total = await client.request("add", Add(a=2, b=3))
        now = await client.request("now", None)
        await client.notify("ping", None)
        with pytest.raises(rpc.RpcError) as caught:
            await client.request("add", Add(a=-4, b=0))
        await client.close()
        await asyncio.gather(*tasks)
        return total, now, caught.value

    total, now, error = asyncio.run(run())
    assert (total, now) == (5, "noon")
    assert (error.code, error.data) == (-32001, {"a": -4})


def test_batches_and_oversized_lines_over_a_stream() -> None:
    from tests.runtime.test_push_and_eager import serve_over_pipe

    batch = [request("add", {"a": 1, "b": 1}), {"jsonrpc": "2.0", "method": "ping"}]
    chunks = [
        json.dumps(batch).encode() + b"\n",
        b"[]\n" + b"x" * 1000 + b"\n" + b"not json\n",
        json.dumps(request("now")).encode() + b"\n",
    ]
    answers = asyncio.run(serve_over_pipe(chunks))

    # Batches and requests are answered concurrently: compare regardless of order.
    batches = [a for a in answers if isinstance(a, list)]
    single = sorted(
        (a.get("error", {}).get("message", ""), a.get("result"))
        for a in answers
        if isinstance(a, dict)
    )
    assert batches == [[{"jsonrpc": "2.0", "id": 7, "result": 2}]]
    assert [message.split(":")[0] for message, _ in single] == [
        "",  # the request after every bad line: still serving
        "invalid request",  # the empty batch
        "invalid request",  # the oversized line, skipped as it streamed past
        "parse error",
    ]
    assert single[0][1] == "noon"
    assert "too large" in single[2][0] + single[1][0]


def test_pending_requests_fail_when_the_connection_ends() -> None:
    async def run() -> None:
        a: asyncio.Queue[str | None] = asyncio.Queue()
        b: asyncio.Queue[str | None] = asyncio.Queue()
        client = rpc.Connection(Pipe(a, b), LOG, METHODS)
        runner = asyncio.ensure_future(client.run())
        pending = asyncio.ensure_future(client.request("now", None))
        await asyncio.sleep(0)
        await a.put(None)  # the peer hangs up without answering
        await runner
        with pytest.raises(ConnectionError):
            await pending

    asyncio.run(run())


def test_transcript_records_every_message(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    log = rpc.MessageLog("t", quiet=True, transcript=str(path))
    log.message("in", "stdio", b'{"a":1}')
    log.message("out", "stdio", "not json")
    log.close()
    first, second = (json.loads(line) for line in path.read_text().splitlines())
    assert (first["direction"], first["message"]) == ("in", {"a": 1})
    assert (second["direction"], second["raw"]) == ("out", "not json")
