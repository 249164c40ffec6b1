"""A request/response/event envelope (the Debug Adapter Protocol's shape), not JSON-RPC.

Phase: runtime (carried in the ``_rpc`` package of a spec whose ``[transport] kind`` is
``"event-envelope"``; packages of the other kinds leave it out).
Inputs: the envelope's field names (``EnvelopeFields``, from spec.toml's
``[transport.fields]``: which key holds the sequence number, the message type, the
command, its arguments, the body, success, the error message, the event name, and the
request a response answers), handlers by wire name, the method registry, a stream
pair framed one message per line or after ``Content-Length`` headers.
Outputs: ``handle_message`` (one request object → its response object),
``Endpoint`` (one side of a connection, a ``Session``: ``request`` sends a command
and answers the response's typed body; ``notify`` sends an event from the server, a
request whose answer is not awaited from the client; inbound requests are answered by
the handlers, inbound events handed to them), ``serve_stdio`` (the stub server on our
own stdin/stdout) and ``connect_stdio`` (a client of a started child).
Guarantees: every request a peer sends gets a response (``success: false`` with the
error's ``message``, and ``body.error`` as DAP's ``{id, format}`` carrying the code,
never a traceback); responses and events are never answered; sequence numbers start
at 1 and increase by one per message a side sends.  A client's request ends with the
typed body, an ``RpcError`` (the peer's failure, or an invalid answer: ``success``
not a boolean, a ``request_seq`` that answers no request sent, a body that is not the
spec's), a ``TransportTimeout`` or a ``TransportError`` (the peer closed).  What is not
JSON is answered with a parse error and reading goes on; a message over the size limit
(a line, a ``Content-Length``) or a malformed ``Content-Length`` header ends the
connection, logged (the stream cannot be resynchronised with certainty), and every
request still waiting fails with ``TransportError``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from typing import IO, Any, Final

from pydantic import ValidationError

from .codec import dumps, loads
from .dispatch import Dispatcher
from .errors import (
    DEFAULT_MAX_MESSAGE_BYTES,
    INTERNAL_ERROR,
    INVALID_REQUEST,
    PARSE_ERROR,
    InvalidResult,
    JsonObject,
    RpcError,
    TransportError,
    TransportTimeout,
    short,
)
from .interfaces import HandlerFactory, Session
from .log import QUIET, MessageLog
from .pointers import validation_details
from .registry import Handler, Methods, package_methods
from .typed_calls import params_json

FRAMINGS: Final = ("ndjson-stdio", "content-length-stdio")
"""How an envelope travels over pipes: one per line, or after ``Content-Length``."""


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

    @classmethod
    def of(cls, names: Mapping[str, str] | None) -> EnvelopeFields:
        """The fields a package's ``ENVELOPE_FIELDS`` names (part → key)."""
        known = {item.name for item in dataclass_fields(cls)}
        return cls(**{k: v for k, v in (names or {}).items() if k in known})


@dataclass(frozen=True)
class _NotJson:
    """What a peer sent that is not JSON (answered with a parse error)."""

    reason: str


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
        if isinstance(message, _NotJson):
            raise RpcError(PARSE_ERROR, message.reason)
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
        # DAP's ErrorResponse body: {error: Message}, whose id carries the code.
        response[fields.body] = {"error": {"id": error.code, "format": error.message}}
        return response
    response[fields.success] = True
    if body is not None:
        response[fields.body] = body
    return response


def failure(command: str, response: JsonObject, fields: EnvelopeFields) -> RpcError:
    """The error a ``success: false`` response stands for: its code from DAP's
    ``body.error.id`` when it has one (else -32603), its text from ``message``."""
    body = response.get(fields.body)
    error = body.get("error") if isinstance(body, dict) else None
    code = error.get("id") if isinstance(error, dict) else None
    text = response.get(fields.message)
    return RpcError(
        (
            code
            if isinstance(code, int) and not isinstance(code, bool)
            else INTERNAL_ERROR
        ),
        text if isinstance(text, str) else f"{command} failed",
        body,
    )


class _Reader:
    """Messages off a stream: one per line, or after ``Content-Length`` headers."""

    def __init__(self, stream: asyncio.StreamReader, framing: str, limit: int) -> None:
        if framing not in FRAMINGS:
            raise ValueError(f"unknown framing {framing!r} (known: {FRAMINGS})")
        self.stream = stream
        self.content_length = framing == "content-length-stdio"
        self.limit = limit

    async def next(self) -> bytes | None:
        """The next message's bytes; None at the end; ``ValueError`` if malformed."""
        if not self.content_length:
            while True:
                line = await self.stream.readline()
                if not line:
                    return None
                if line.strip():
                    return line
        length: int | None = None
        while True:
            header = await self.stream.readline()
            if not header:
                return None
            header = header.strip()
            if not header:
                if length is None:
                    continue  # blank lines between messages
                break
            name, _, value = header.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        if length < 0 or length > self.limit:
            raise ValueError(f"Content-Length {length} is over the limit")
        return await self.stream.readexactly(length)


class Endpoint:
    """One side of an envelope connection (a ``Session``): sends requests and events,
    answers the requests it gets with ``handlers`` and hands them the events."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        write: Callable[[bytes], Any],
        *,
        fields: EnvelopeFields | None = None,
        methods: Methods | None = None,
        log: MessageLog = QUIET,
        server: bool = False,
        framing: str = "ndjson-stdio",
        timeout: float | None = None,
        peer: str = "peer",
        limit: int = DEFAULT_MAX_MESSAGE_BYTES,
    ) -> None:
        self.fields = fields or EnvelopeFields()
        self.methods = package_methods() if methods is None else methods
        self.log = log
        self.server = server
        self.timeout = timeout
        self.peer = peer
        self.content_length = framing == "content-length-stdio"
        self._reader = _Reader(reader, framing, limit)
        self._write = write
        self.seq = _Counter()
        self.dispatcher = Dispatcher({}, log, self.methods)
        self.pending: dict[int, tuple[str, asyncio.Future[JsonObject]]] = {}
        self.unawaited: set[int] = set()  # requests sent as notifications
        self.closed: TransportError | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def serve_with(self, handlers: Mapping[str, Handler]) -> None:
        self.dispatcher = Dispatcher(handlers, self.log, self.methods)

    async def send(self, message: JsonObject) -> None:
        # Sent even once the input has ended: the answers to the last requests go out.
        data = dumps(message).encode("utf-8")
        self.log.message("out", self.peer, data)
        if self.content_length:
            data = b"Content-Length: %d\r\n\r\n%b" % (len(data), data)
        else:
            data += b"\n"
        result = self._write(data)
        if asyncio.iscoroutine(result):
            await result

    async def request(
        self, method: str, params: Any, *, timeout: float | None = None
    ) -> Any:
        """The typed body of the response to command ``method``."""
        info = self.methods[method]
        number, fields = self.seq.next(), self.fields
        message: JsonObject = {
            fields.seq: number,
            fields.type: fields.request_type,
            fields.command: method,
        }
        sent = params_json(info, params)
        if sent is not None:
            message[fields.arguments] = sent
        if self.closed is not None:  # no answer can come any more
            raise self.closed
        answer: asyncio.Future[JsonObject] = asyncio.get_running_loop().create_future()
        self.pending[number] = (method, answer)
        limit = self.timeout if timeout is None else timeout
        try:
            await self.send(message)
            async with asyncio.timeout(limit):
                response = await answer
        except TimeoutError:
            raise TransportTimeout(method, limit or 0.0, self.peer) from None
        finally:
            self.pending.pop(number, None)
        success = response.get(fields.success)
        if success is False:
            raise failure(method, response, fields)
        if success is not True:
            raise RpcError(
                INTERNAL_ERROR,
                f'invalid answer to {method}: "{fields.success}" must be true or '
                f"false, not {short(dumps(success) if fields.success in response else 'missing')}",
                response,
            )
        if info.result is None:
            return None
        body = response.get(fields.body)
        try:
            return info.result.validator.validate_python(body, by_name=False)
        except ValidationError as error:
            raise InvalidResult(method, validation_details(error, body), body) from None

    async def notify(self, method: str, params: Any) -> None:
        """An event (from the server); from a client, a request not waited for."""
        fields = self.fields
        number = self.seq.next()
        message: JsonObject = {fields.seq: number}
        sent = params_json(self.methods[method], params)
        if self.server:
            message[fields.type] = fields.event_type
            message[fields.event] = method
            if sent is not None:
                message[fields.body] = sent
        else:
            message[fields.type] = fields.request_type
            message[fields.command] = method
            if sent is not None:
                message[fields.arguments] = sent
            self.unawaited.add(number)
        await self.send(message)

    async def run(self) -> None:
        """Read messages until the end of input, then fail what is still waiting."""
        try:
            while True:
                try:
                    data = await self._reader.next()
                except (ValueError, asyncio.LimitOverrunError) as error:
                    self.log.info(f"malformed or too large a message: {error}")
                    break
                except asyncio.IncompleteReadError:
                    break
                if data is None:
                    break
                self.log.message("in", self.peer, data)
                try:
                    message = loads(data)
                except (RpcError, ValueError) as error:
                    self.log.info(f"not JSON: {short(error)}")
                    reason = error.message if isinstance(error, RpcError) else error
                    message = _NotJson(short(reason, 300))
                self._take(message)
        finally:
            self._close(TransportError(f"{self.peer} closed the connection"))
            if self._tasks:
                await asyncio.gather(*self._tasks, return_exceptions=True)

    def _take(self, message: Any) -> None:
        fields = self.fields
        kind = message.get(fields.type) if isinstance(message, dict) else None
        if kind == fields.response_type:
            self._on_response(message)
        elif kind == fields.event_type and not self.server:
            self._spawn(self._on_event(message))
        elif kind == fields.event_type:
            self.log.info("an event sent to the server: ignored")
        else:  # a request, or what is no message at all: answered
            self._spawn(self._answer(message))

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(self, message: Any) -> None:
        response = await handle_message(self.dispatcher, self.fields, message, self.seq)
        if response is not None:
            with contextlib.suppress(TransportError, OSError):
                await self.send(response)

    async def _on_event(self, message: JsonObject) -> None:
        fields = self.fields
        name = message.get(fields.event)
        try:
            await self.dispatcher.call(
                str(name), fields.body in message, message.get(fields.body)
            )
        except RpcError as error:
            self.log.info(f"event {short(name)}: {error}")

    def _on_response(self, message: JsonObject) -> None:
        fields = self.fields
        number = message.get(fields.request_seq)
        if isinstance(number, int) and number in self.unawaited:
            self.unawaited.discard(number)
            return
        waiting = self.pending.get(number) if isinstance(number, int) else None
        if waiting is not None:
            if not waiting[1].done():
                waiting[1].set_result(message)
            return
        # A response to no request sent: the peer is out of step.  The requests of its
        # command (else every request waiting) fail rather than wait for their time.
        command = message.get(fields.command)
        mine = [w for c, w in self.pending.values() if c == command]
        error = RpcError(
            INTERNAL_ERROR,
            f'invalid answer: "{fields.request_seq}" {short(dumps(number))} answers '
            "no request sent",
            message,
        )
        for answer in mine or [w for _, w in self.pending.values()]:
            if not answer.done():
                answer.set_exception(error)
        if not self.pending:
            self.log.info(f"a response to no request sent: {short(dumps(message))}")

    def _close(self, error: TransportError) -> None:
        if self.closed is None:
            self.closed = error
        for _, answer in list(self.pending.values()):
            if not answer.done():
                answer.set_exception(error)


class _EndpointSession:
    """A ``Session`` whose calls go through one ``Endpoint``."""

    def __init__(self, endpoint: Endpoint) -> None:
        self.endpoint = endpoint

    async def request(
        self, method: str, params: Any, *, timeout: float | None = None
    ) -> Any:
        return await self.endpoint.request(method, params, timeout=timeout)

    async def notify(self, method: str, params: Any) -> None:
        await self.endpoint.notify(method, params)

    async def close(self) -> None:
        return None


class _ServerPeer(_EndpointSession):
    """The handlers' peer on a server: notifications go out as events, requests as
    reverse requests (DAP's ``runInTerminal``) the client's handlers answer."""


async def _stdin(limit: int) -> asyncio.StreamReader:
    """Our stdin as a stream: a pipe read by the loop, a file or terminal by a thread."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=limit)
    protocol = asyncio.StreamReaderProtocol(reader)
    try:
        await loop.connect_read_pipe(lambda: protocol, sys.stdin.buffer)
        return reader
    except (ValueError, OSError):
        pass  # epoll refuses regular files and terminals

    def pump() -> None:
        fileno = sys.stdin.buffer.fileno()
        while chunk := os.read(fileno, 65536):
            loop.call_soon_threadsafe(reader.feed_data, chunk)
        loop.call_soon_threadsafe(reader.feed_eof)

    threading.Thread(target=pump, daemon=True).start()
    return reader


def _write_stdout(data: bytes) -> None:
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


async def serve_stdio(
    factory: HandlerFactory,
    log: MessageLog,
    limit: int,
    methods: Methods,
    framing: str,
    fields: Mapping[str, str] | None,
) -> None:
    """The stub server: answer the requests on stdin until its end."""
    endpoint = Endpoint(
        await _stdin(limit),
        _write_stdout,
        fields=EnvelopeFields.of(fields),
        methods=methods,
        log=log,
        server=True,
        framing=framing,
        peer="stdio",
        limit=limit,
    )
    session: Session = _ServerPeer(endpoint)
    endpoint.serve_with(factory(session))
    if not log.quiet:
        log.info("listening on stdio (event envelope)")
    await endpoint.run()


class ChildSession(_EndpointSession):
    """A client ``Session`` over a started child's stdin/stdout."""

    def __init__(self, endpoint: Endpoint, process: asyncio.subprocess.Process) -> None:
        super().__init__(endpoint)
        self.process = process
        self.runner = asyncio.ensure_future(endpoint.run())

    async def close(self) -> None:
        stdin = self.process.stdin
        if stdin is not None and not stdin.is_closing():
            stdin.close()
        try:
            await asyncio.wait_for(self.process.wait(), CLOSE_GRACE)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
        await asyncio.wait((self.runner,), timeout=CLOSE_GRACE)
        self.runner.cancel()
        await asyncio.gather(self.runner, return_exceptions=True)


CLOSE_GRACE: Final = 5.0
"""Seconds a closing client waits for its child to exit before it kills it."""


async def connect_stdio(
    command: Sequence[str],
    handlers: Callable[[Session], Mapping[str, Handler]],
    *,
    fields: Mapping[str, str] | None = None,
    limit: int = DEFAULT_MAX_MESSAGE_BYTES,
    env: Mapping[str, str] | None = None,
    stderr: int | IO[Any] | None = None,
    log: MessageLog = QUIET,
    methods: Methods | None = None,
    timeout: float | None = None,
    framing: str = "ndjson-stdio",
) -> ChildSession:
    """Start ``command`` and talk envelopes over its stdin/stdout; ``handlers`` get
    the server's events (and requests).  A command that cannot start raises
    ``TransportError``; ``timeout``: seconds a request waits (None: no limit)."""
    if framing not in FRAMINGS:
        raise ValueError(f"unknown framing {framing!r} (known: {FRAMINGS})")
    try:
        process = await asyncio.create_subprocess_exec(
            *command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=stderr,
            env=None if env is None else dict(env),
            limit=limit,
        )
    except (OSError, ValueError) as error:
        raise TransportError(f"cannot start {short(list(command))}: {error}") from error
    assert process.stdin is not None and process.stdout is not None
    stdin = process.stdin

    async def write(data: bytes) -> None:
        try:
            stdin.write(data)
            await stdin.drain()
        except (ConnectionError, OSError) as error:
            raise TransportError(f"pid {process.pid}: {error}") from error

    endpoint = Endpoint(
        process.stdout,
        write,
        fields=EnvelopeFields.of(fields),
        methods=methods,
        log=log,
        framing=framing,
        timeout=timeout,
        peer=f"pid {process.pid}",
        limit=limit,
    )
    session = ChildSession(endpoint, process)
    endpoint.serve_with(handlers(session))
    return session


__all__ = [
    "FRAMINGS",
    "ChildSession",
    "Endpoint",
    "EnvelopeFields",
    "connect_stdio",
    "failure",
    "handle_message",
    "serve_stdio",
]
