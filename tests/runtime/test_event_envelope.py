"""The request/response/event envelope (codegen/runtime/event_envelope.py): a stub server
and the typed client over real stream pairs, with the default (DAP) field names and with
renamed ones."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import codegen.runtime as rpc
from codegen.runtime.dispatch import Dispatcher
from codegen.runtime.event_envelope import (
    EnvelopeClient,
    EnvelopeFields,
    EnvelopeServer,
    _Counter,
    handle_message,
)
from tests.runtime.test_jsonrpc import HANDLERS, LOG, METHODS

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


async def _pair(fields: EnvelopeFields) -> tuple[EnvelopeServer, EnvelopeClient, Any]:
    server_in, client_in = asyncio.StreamReader(), asyncio.StreamReader()

    class Pipe:
        def __init__(self, target: asyncio.StreamReader) -> None:
            self.target = target

        def write(self, data: bytes) -> None:
            self.target.feed_data(data)

        async def drain(self) -> None:
            await asyncio.sleep(0)

    server = EnvelopeServer(DISPATCHER, fields, server_in, Pipe(client_in), LOG)
    client = EnvelopeClient(client_in, Pipe(server_in), fields)
    task = asyncio.ensure_future(server.serve())
    return server, client, (task, server_in, client_in)


@pytest.mark.parametrize(
    "fields", [EnvelopeFields(), EnvelopeFields(seq="n", body="out")]
)
def test_stub_server_and_typed_client_over_streams(fields: EnvelopeFields) -> None:
    async def scenario() -> None:
        server, client, (task, server_in, client_in) = await _pair(fields)
        assert await client.request("add", {"a": 2, "b": 3}) == 5
        assert await client.request("now") == "noon"
        with pytest.raises(rpc.RpcError, match="negative"):
            await client.request("add", {"a": -1, "b": 0})
        await server.send_event("stopped", {"reason": "breakpoint"})
        assert await asyncio.wait_for(client.events.get(), 1) == (
            "stopped",
            {"reason": "breakpoint"},
        )
        server_in.feed_eof()
        await asyncio.wait_for(task, 1)
        client_in.feed_eof()
        await client.close()

    asyncio.run(scenario())
