"""The request/response/event envelope (codegen/runtime/event_envelope.py): a stub server
and the typed client over real stream pairs, with the default (DAP) field names and with
renamed ones."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from pydantic import TypeAdapter

import codegen.runtime as rpc
from codegen.runtime.dispatch import Dispatcher
from codegen.runtime.event_envelope import (
    Endpoint,
    EnvelopeFields,
    _Counter,
    handle_message,
)
from tests.runtime.test_jsonrpc import HANDLERS, LOG, METHODS, Add

DISPATCHER = Dispatcher(HANDLERS, LOG, METHODS)


DEFAULT = EnvelopeFields()


def _handle(message: Any, fields: EnvelopeFields = DEFAULT) -> Any:
    return asyncio.run(handle_message(DISPATCHER, fields, message, _Counter()))


def test_a_request_is_answered_with_its_body() -> None:
    answer = _handle(
        {"seq": 7, "type": "request", "command": "add", "arguments": {"a": 1, "b": 2}}
    )
    assert answer == {
        "seq": 1,
        "type": "response",
        "request_seq": 7,
        "command": "add",
        "success": True,
        "body": 3,
    }


@pytest.mark.parametrize(
    ("message", "why"),
    [
        ({"seq": 1, "type": "request", "command": "nope"}, "method not found"),
        (
            {"seq": 1, "type": "request", "command": "add", "arguments": {"a": 1}},
            "invalid params",
        ),
        ({"seq": 1, "type": "ask", "command": "add"}, '"type" must be "request"'),
        ({"seq": 1, "type": "request", "command": 3}, '"command" must be a string'),
        (
            {
                "seq": 1,
                "type": "request",
                "command": "add",
                "arguments": {"a": 13, "b": 0},
            },
            "internal error",
        ),
        ([1, 2], "not a JSON object"),
    ],
)
def test_a_bad_request_answers_success_false_with_a_message(
    message: Any, why: str
) -> None:
    answer = _handle(message)
    assert answer["success"] is False and why in answer["message"]
    assert "Traceback" not in answer["message"]


def test_responses_and_events_sent_to_a_server_are_not_answered() -> None:
    assert _handle({"seq": 2, "type": "event", "event": "x"}) is None
    assert _handle({"seq": 2, "type": "response", "request_seq": 1}) is None


def test_field_names_come_from_the_spec() -> None:
    fields = EnvelopeFields(
        seq="id",
        type="kind",
        command="op",
        arguments="args",
        body="data",
        success="ok",
        message="error",
        request_seq="re",
        request_type="call",
        response_type="reply",
    )
    answer = _handle({"id": 4, "kind": "call", "op": "now"}, fields)
    assert answer == {
        "id": 1,
        "kind": "reply",
        "re": 4,
        "op": "now",
        "ok": True,
        "data": "noon",
    }
    # The default names mean nothing under renamed fields.
    wrong = _handle({"seq": 4, "type": "request", "command": "now"}, fields)
    assert wrong["ok"] is False


class _Pipe:
    def __init__(self, target: asyncio.StreamReader) -> None:
        self.target = target

    def __call__(self, data: bytes) -> None:
        self.target.feed_data(data)


STOPPED = rpc.MethodInfo(
    "stopped", "notification", "server", "client", False, TypeAdapter(Any), None
)
PAIR_METHODS = {**METHODS, "stopped": STOPPED}


def _pair(fields: EnvelopeFields, framing: str) -> tuple[Endpoint, Endpoint]:
    server_in, client_in = asyncio.StreamReader(), asyncio.StreamReader()
    common: dict[str, Any] = {"fields": fields, "methods": PAIR_METHODS, "log": LOG}
    server = Endpoint(
        server_in, _Pipe(client_in), server=True, framing=framing, **common
    )
    client = Endpoint(client_in, _Pipe(server_in), framing=framing, **common)
    server.serve_with(HANDLERS)
    return server, client


@pytest.mark.parametrize("framing", ["ndjson-stdio", "content-length-stdio"])
@pytest.mark.parametrize(
    "fields", [EnvelopeFields(), EnvelopeFields(seq="n", body="out")]
)
def test_stub_server_and_typed_client_over_streams(
    fields: EnvelopeFields, framing: str
) -> None:
    async def scenario() -> None:
        server, client = _pair(fields, framing)
        events: asyncio.Queue[Any] = asyncio.Queue()

        async def stopped(body: Any) -> None:
            await events.put(body)

        client.serve_with({"stopped": stopped, "add": HANDLERS["add"]})
        running = [asyncio.ensure_future(e.run()) for e in (server, client)]
        assert await client.request("add", rpc_add(2, 3)) == 5
        assert await client.request("now", None) == "noon"
        with pytest.raises(rpc.RpcError, match="negative") as failed:
            await client.request("add", rpc_add(-1, 0))
        assert failed.value.code == -32001  # the code, carried as DAP's body.error.id
        await server.notify("stopped", {"reason": "breakpoint"})
        assert await asyncio.wait_for(events.get(), 1) == {"reason": "breakpoint"}
        # a reverse request (DAP's runInTerminal): the server asks, the client answers
        assert await server.request("add", rpc_add(4, 5)) == 9
        with pytest.raises(rpc.RpcError, match="method not found"):
            await server.request("now", None)  # the client serves no `now`
        server._reader.stream.feed_eof()
        client._reader.stream.feed_eof()
        await asyncio.wait_for(asyncio.gather(*running), 1)
        # once the peer is gone, a request fails at once
        with pytest.raises(rpc.TransportError):
            await client.request("now", None)

    asyncio.run(scenario())


def rpc_add(a: int, b: int) -> Add:
    return Add(a=a, b=b)


@pytest.mark.parametrize("framing", ["ndjson-stdio", "content-length-stdio"])
def test_what_is_not_json_is_answered_with_a_parse_error(framing: str) -> None:
    async def scenario() -> list[Any]:
        server_in, out = asyncio.StreamReader(), asyncio.StreamReader()
        server = Endpoint(
            server_in,
            _Pipe(out),
            methods=PAIR_METHODS,
            log=LOG,
            server=True,
            framing=framing,
        )
        server.serve_with(HANDLERS)
        lines = [b"{not json", b'{"seq": 5, "type": "request", "command": "now"}']
        for line in lines:
            if framing == "ndjson-stdio":
                server_in.feed_data(line + b"\n")
            else:
                server_in.feed_data(b"Content-Length: %d\r\n\r\n%b" % (len(line), line))
        server_in.feed_eof()
        await asyncio.wait_for(server.run(), 1)
        out.feed_eof()
        text = await out.read()
        if framing == "content-length-stdio":
            text = b"\n".join(
                part.split(b"\r\n\r\n", 1)[1]
                for part in text.split(b"Content-Length: ")[1:]
            )
        return [json.loads(line) for line in text.splitlines() if line.strip()]

    refused, answered = asyncio.run(scenario())
    assert refused["success"] is False and refused["request_seq"] is None
    assert refused["message"].startswith("parse error: ")
    assert refused["body"]["error"]["id"] == rpc.PARSE_ERROR
    # reading goes on: the next message is answered
    assert (answered["request_seq"], answered["body"]) == (5, "noon")


@pytest.mark.parametrize(
    ("framing", "data"),
    [
        ("ndjson-stdio", b'{"seq": 1, "type": "response", "x": "' + b"a" * 200),
        ("content-length-stdio", b"Content-Length: 100000\r\n\r\n{}"),
        ("content-length-stdio", b"Content-Length: many\r\n\r\n{}"),
    ],
)
def test_an_oversize_or_malformed_frame_ends_the_connection(
    framing: str, data: bytes
) -> None:
    async def scenario() -> BaseException | None:
        client_in, server_in = asyncio.StreamReader(limit=100), asyncio.StreamReader()
        client = Endpoint(
            client_in,
            _Pipe(server_in),
            methods=PAIR_METHODS,
            log=LOG,
            framing=framing,
            limit=100,
        )
        running = asyncio.ensure_future(client.run())
        asking = asyncio.ensure_future(client.request("now", None))
        await asyncio.sleep(0)
        client_in.feed_data(data)  # no EOF: the reader gives up on its own
        await asyncio.wait_for(running, 1)
        try:
            await asyncio.wait_for(asking, 1)
        except BaseException as error:  # noqa: BLE001 - the error is the result
            return error
        return None

    assert isinstance(asyncio.run(scenario()), rpc.TransportError)
