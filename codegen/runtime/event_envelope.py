"""A request/response/event envelope (the Debug Adapter Protocol's shape), not JSON-RPC.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: the envelope's field names (``EnvelopeFields``: which key holds the sequence
number, the message type, the command, its arguments, the body, success, the error
message, the event name, and the request a response answers), a ``Dispatcher`` (handlers
validated by the method registry, as JSON-RPC's are), newline-delimited JSON streams.
Outputs: ``handle_message`` (one request object → its response object), ``serve_stream``
(a stub server over a reader and a writer, which can also send events) and
``EnvelopeClient`` (a typed client: ``request`` answers the response's body or raises
``RpcError`` with the response's message; events are queued by name).
Guarantees: every message a peer sends gets a response or is logged as not a request
(responses and events sent to a server are not answered); a failing handler answers
``success: false`` with the error's message, never a traceback; sequence numbers start
at 1 and increase by one per message a side sends.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .codec import dumps, loads
from .dispatch import Dispatcher
from .errors import INVALID_REQUEST, JsonObject, RpcError
from .log import MessageLog


@dataclass(frozen=True)
class EnvelopeFields:
    """The keys of the envelope and the values of its ``type`` key."""

    seq: str = "seq"
    type: str = "type"
    command: str = "command"
    arguments: str = "arguments"
    body: str = "body"
    success: str = "success"
    message: str = "message"
    event: str = "event"
    request_seq: str = "request_seq"
    request_type: str = "request"
    response_type: str = "response"
    event_type: str = "event"


@dataclass
class _Counter:
    numbers: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def next(self) -> int:
        return next(self.numbers)


async def handle_message(
    dispatcher: Dispatcher, fields: EnvelopeFields, message: Any, seq: _Counter
) -> JsonObject | None:
    """The response to one request; None for a message that is not a request."""
    if isinstance(message, dict) and message.get(fields.type) in (
        fields.response_type,
        fields.event_type,
    ):
        return None
    request_seq = message.get(fields.seq) if isinstance(message, dict) else None
    command = message.get(fields.command) if isinstance(message, dict) else None
    response: JsonObject = {
        fields.seq: seq.next(),
        fields.type: fields.response_type,
        fields.request_seq: request_seq,
        fields.command: command,
    }
    try:
        if not isinstance(message, dict):
            raise RpcError(INVALID_REQUEST, "invalid request: not a JSON object")
        if message.get(fields.type) != fields.request_type:
            raise RpcError(
                INVALID_REQUEST,
                f'invalid request: "{fields.type}" must be "{fields.request_type}"',
            )
        if not isinstance(command, str):
            raise RpcError(
                INVALID_REQUEST, f'invalid request: "{fields.command}" must be a string'
            )
        body = await dispatcher.call(
            command, fields.arguments in message, message.get(fields.arguments)
        )
    except RpcError as error:
        response[fields.success] = False
        response[fields.message] = error.message
        return response
    response[fields.success] = True
    if body is not None:
        response[fields.body] = body
    return response


class EnvelopeServer:
    """A stub server on one connection: answers requests, and sends events."""

    def __init__(
        self,
        dispatcher: Dispatcher,
        fields: EnvelopeFields,
        reader: asyncio.StreamReader,
        writer: Any,
        log: MessageLog,
    ) -> None:
        self.dispatcher = dispatcher
        self.fields = fields
        self.reader = reader
        self.writer = writer
        self.log = log
        self.seq = _Counter()

    async def send_event(self, event: str, body: Any = None) -> None:
        message: JsonObject = {
            self.fields.seq: self.seq.next(),
            self.fields.type: self.fields.event_type,
            self.fields.event: event,
        }
        if body is not None:
            message[self.fields.body] = body
        await self._write(message)

    async def serve(self) -> None:
        """Answer requests until the reader ends."""
        while True:
            line = await self.reader.readline()
            if not line:
                return
            if not line.strip():
                continue
            self.log.message("in", "peer", line)
            try:
                message = loads(line)
            except ValueError as error:
                message = None
                self.log.info(f"not JSON: {error}")
            response = await handle_message(
                self.dispatcher, self.fields, message, self.seq
            )
            if response is None:
                self.log.info("a response or an event sent to the server: ignored")
                continue
            await self._write(response)

    async def _write(self, message: JsonObject) -> None:
        text = dumps(message)
        self.log.message("out", "peer", text)
        self.writer.write(text.encode() + b"\n")
        await self.writer.drain()


class EnvelopeClient:
    """A client on one connection: ``request`` answers the body of the response."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: Any,
        fields: EnvelopeFields | None = None,
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.fields = fields or EnvelopeFields()
        self.seq = _Counter()
        self.pending: dict[int, asyncio.Future[JsonObject]] = {}
        self.events: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self._task = asyncio.ensure_future(self._read())

    async def request(self, command: str, arguments: Any = None) -> Any:
        number = self.seq.next()
        message: JsonObject = {
            self.fields.seq: number,
            self.fields.type: self.fields.request_type,
            self.fields.command: command,
        }
        if arguments is not None:
            message[self.fields.arguments] = arguments
        answer: asyncio.Future[JsonObject] = asyncio.get_running_loop().create_future()
        self.pending[number] = answer
        self.writer.write(dumps(message).encode() + b"\n")
        await self.writer.drain()
        response = await answer
        if response.get(self.fields.success) is not True:
            raise RpcError(
                INVALID_REQUEST, str(response.get(self.fields.message, "failed"))
            )
        return response.get(self.fields.body)

    async def close(self) -> None:
        self._task.cancel()
        try:
            await self._task
        except asyncio.CancelledError:
            pass

    async def _read(self) -> None:
        fields = self.fields
        while True:
            line = await self.reader.readline()
            if not line:
                for unanswered in self.pending.values():
                    if not unanswered.done():
                        unanswered.set_exception(ConnectionError("the peer closed"))
                return
            try:
                message = loads(line)
            except ValueError:
                continue
            if not isinstance(message, dict):
                continue
            kind = message.get(fields.type)
            if kind == fields.event_type:
                await self.events.put(
                    (str(message.get(fields.event)), message.get(fields.body))
                )
            elif kind == fields.response_type:
                number = message.get(fields.request_seq)
                waiting = self.pending.pop(number) if number in self.pending else None
                if waiting is not None and not waiting.done():
                    waiting.set_result(message)
