"""A JSON-RPC 2.0 endpoint over one channel: answers the peer, and calls it.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: a channel (pipes, a WebSocket), handlers, the method registry.
Outputs: ``Connection``: reads messages and answers them with the handlers (requests
concurrently, batches as JSON-RPC 2.0 says), matches responses to its own requests, and
sends typed requests and notifications (``request``, ``notify``).
Guarantees: notifications are handled in the order sent, and what follows one waits for
it (the pipe is paused once ``INBOX_LIMIT`` messages wait); an answer that is not JSON is
logged and replaced by -32603; when the channel ends, every pending request fails with
``TransportError``.  A request's envelope and params are read at once; only its handler
and the sending run as one coroutine, with no task when neither waits, and an answer
the pipe takes whole costs no coroutine of the channel's.  A pipe's common request
(``take_line``) goes from the line read to the answer written in one call, answered
byte for byte as the general path answers it.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import inspect
import math
import types
from collections.abc import Awaitable, Callable, Coroutine, Generator, Mapping
from typing import Any, Final

from pydantic_core import from_json

from .codec import (
    dumps,
    dumps_plain,
    id_key,
    loads,
    may_overflow,
)
from .deadlines import Deadline, Deadlines
from .dispatch import (
    Call,
    Dispatcher,
    close_request,
    close_request_text,
    error_response,
    fail_request,
    handle_request,
    open_request,
)
from .errors import (
    INTERNAL_ERROR,
    INVALID_REQUEST,
    PARSE_ERROR,
    JsonObject,
    MessageTooLarge,
    RpcError,
    TransportError,
    TransportTimeout,
    printable,
    short,
)
from .framing import LineReader, PipeChannel
from .interfaces import Channel
from .log import QUIET, MessageLog
from .pressure import OutputGauge, OutputOverflow
from .registry import Handler, Methods
from .tasks import TaskStarter
from .typed_calls import params_json, typed_result

INBOX_LIMIT: Final = 1024
"""Messages held behind a notification still being handled before the pipe is paused."""
IN_FLIGHT_LIMIT: Final = 1024
"""Requests of a WebSocket peer being handled or answered before it is read no more."""


@types.coroutine
def _settled(finished: bool, value: Any) -> Generator[Any, None, Any]:
    """A handler's outcome already known (its value, or the ``Exception`` it raised),
    as an awaitable: awaited, it returns the value or raises the error, at once."""
    if not finished:
        raise value
    return value
    yield  # pragma: no cover - a generator, never reached


class Connection:
    """A JSON-RPC 2.0 endpoint over one channel: answers the peer's requests with the
    handlers and sends requests of its own.  Requests are handled concurrently (a
    handler may call the peer back); batches are supported as JSON-RPC 2.0 says.
    """

    def __init__(
        self,
        channel: Channel | PipeChannel,
        log: MessageLog = QUIET,
        methods: Methods | None = None,
    ) -> None:
        self.channel = channel
        self._pipe = channel if isinstance(channel, PipeChannel) else None
        self.log = log
        self.dispatcher = Dispatcher({}, log, methods)
        self.methods = self.dispatcher.methods
        self._pending: dict[Any, asyncio.Future[JsonObject]] = {}
        self._next_id = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        # Why the peer is gone, for the requests it leaves unanswered (a child process:
        # its exit status); set by the transport that knows.
        self.closed_detail: Callable[[], Awaitable[str]] | None = None
        self._closed_reason = "connection closed"
        self._loop: asyncio.AbstractEventLoop | None = None  # while run() runs
        self._starter: TaskStarter | None = None  # handlers started eagerly
        self._holding: asyncio.Task[None] | None = None  # a notification being handled
        self._inbox: collections.deque[str | bytes] = collections.deque()
        self.flow: LineReader | None = None  # paused while the inbox is full
        # A client's: how long a request waits for its answer (None: no limit; a call
        # may say otherwise), and the notification that cancels a request on the wire,
        # as (method, the params key of the request's id), where the protocol has one.
        self.timeout: float | None = None
        self.cancel: tuple[str, str] | None = None
        self.client = False  # a client logs what it cannot use (a server answers it)
        self.strays = 0  # messages that were not JSON, or answered nothing we asked
        self._deadlines: Deadlines | None = None
        self._broken = False  # sending failed: the connection is ending
        # A server's answers accepted and not yet sent: past a soft limit the peer is
        # read no more, past a hard one it is disconnected (created on first send).
        self._output: OutputGauge | None = None
        self._batched = 0  # requests in flight in batches, beyond one per batch
        # Per handler: whether it is an ``async def`` (its call only makes a coroutine,
        # so ``_answer`` may run its first step in place).
        self._native: dict[Handler, bool] = {}

    def serve_with(self, handlers: Mapping[str, Handler]) -> None:
        self.dispatcher.handlers = handlers

    async def _send(self, message: Any, *, plain: bool = False) -> None:
        """Send ``message``; ``plain``: it holds only JSON values (``dumps_plain``)."""
        text: str | bytes
        try:
            text = dumps_plain(message) if plain else dumps(message)
        except (ValueError, TypeError):  # e.g. a handler's error data holding NaN
            self.log.info(f"not JSON, not sent: {short(repr(message))}")
            if not (isinstance(message, dict) and "id" in message):
                return
            failure = RpcError(INTERNAL_ERROR, "internal error: the answer is not JSON")
            text = dumps(error_response(message["id"], failure))
        await self._send_text(text)

    async def _send_text(self, text: str | bytes) -> None:
        """Send a message's JSON text."""
        channel = self.channel
        self.log.message("out", channel.peer, text)
        gauge = None if self.client else self._output or self._gauge()
        size = len(text)
        counted = False
        try:
            if self._pipe is not None and (gauge is None or not gauge.messages):
                # Nothing waits to be sent: written at once, and only what the pipe
                # did not take is counted (and waited for).
                written = self._pipe.put(text)
                if written:
                    return
                if written is not None:
                    if gauge is not None:
                        gauge.add(size)
                        counted = True
                    await self._pipe.wait()
                    return
            if gauge is not None:
                gauge.add(size)  # or OutputOverflow: the peer does not read
                counted = True
            await channel.send(text)
        except TransportError:
            raise
        except (OSError, ValueError) as error:  # a closed pipe, file or socket
            raise self._send_failed(error) from error
        finally:
            if counted and gauge is not None:
                gauge.sent(size)

    def _gauge(self) -> OutputGauge:
        self._output = OutputGauge(
            self.channel.peer, pause=self._output_full, resume=self._output_drained
        )
        return self._output

    def _output_full(self) -> None:
        if self.flow is not None:  # a pipe; a WebSocket is read on demand (_pull)
            self.flow.pause_reading("output")

    def _output_drained(self) -> None:
        if self.flow is not None:
            self.flow.resume_reading("output")

    async def _reply(self, message: Any) -> None:
        """Send an answer the peer may never get: a failure ends the connection."""
        try:
            await self._send(message)
        except TransportError as error:
            self._lost(error)

    def _lost(self, error: TransportError) -> None:
        """The peer cannot be answered (its end of the pipe or socket is closed): say
        so once, and read no more, so the connection ends instead of failing again
        on every message."""
        if self._broken:
            return
        self._broken = True
        self.log.info(f"{error}: closing")
        self._drop_work()
        channel = self.channel
        if isinstance(channel, PipeChannel):
            channel.stop()
        elif isinstance(error, OutputOverflow) and callable(
            abort := getattr(channel, "abort", None)
        ):
            abort()  # a close would wait for a peer that does not read
        else:
            self._spawn(self._close_quietly())

    def _drop_work(self) -> None:
        """Stop answering: what is still being handled can never be sent (a peer that
        sent a flood of batches must not keep the server busy after it is gone)."""
        if self.client:
            return
        current = asyncio.current_task()
        for task in list(self._tasks):
            if task is not current:
                task.cancel()

    async def _close_quietly(self) -> None:
        with contextlib.suppress(Exception):
            await self.channel.close()

    async def run(self) -> None:
        """Read and answer messages until the channel ends."""
        self._loop = asyncio.get_running_loop()
        try:
            if isinstance(self.channel, PipeChannel):
                await self.channel.pump(self)
            else:
                await self._pull(self.channel)
            while self._holding is not None:  # the last notifications, in order
                await asyncio.wait((self._holding,))
            if self._tasks:
                await asyncio.gather(*self._tasks, return_exceptions=True)
        except asyncio.CancelledError:
            self._drop_work()  # the server stops: no answer will be sent
            raise
        finally:
            self._closed = True
            if self._starter is not None:
                self._starter.close()
            if self._deadlines is not None:
                self._deadlines.close()
            if self._pending and self.closed_detail is not None:
                self._closed_reason += await self.closed_detail()
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(TransportError(self._closed_reason))
            self._pending.clear()

    async def _pull(self, channel: Channel) -> None:
        """Messages from a channel that is read on demand (a WebSocket)."""
        while True:
            while self._holding is not None:  # read on once the notification is done
                await asyncio.wait((self._holding,))
            output = self._output
            if output is not None and output.paused:
                # Answers wait that the peer does not read: read it no more until
                # they are sent (TCP then makes the peer wait).
                await output.drained()
            while len(self._tasks) + self._batched >= IN_FLIGHT_LIMIT:
                # A peer that sends and never reads our answers: each unsent answer
                # holds a task.  Read no more until some are sent (TCP then makes the
                # peer wait), so the peer cannot grow us without bound.
                await asyncio.wait(self._tasks, return_when=asyncio.FIRST_COMPLETED)
            try:
                data = await channel.receive()
            except MessageTooLarge as error:
                self.too_large(error)
                continue
            if data is None or self._broken:  # the end, or the peer cannot be answered
                return
            self.feed(data)

    def too_large(self, error: MessageTooLarge) -> None:
        """A message over the size limit went past unread: say so, and go on."""
        self.log.info(str(error))
        failure = RpcError(INVALID_REQUEST, f"invalid request: {error}")
        self._spawn(self._reply(error_response(None, failure)))

    def malformed(self, reason: str) -> None:
        """Bytes that frame no message went past: answer a parse error, and go on."""
        self.strays += 1
        self.log.info(f"{self.channel.peer}: {reason}")
        failure = RpcError(PARSE_ERROR, f"parse error: {reason}")
        self._spawn(self._reply(error_response(None, failure)))

    def feed(self, data: str | bytes) -> None:
        """Handle one message from the channel now, or, while a notification before it
        is still being handled, after it: a peer sees its notifications and whatever
        follows them (a response included) handled in the order it sent them.
        """
        if self._holding is not None or self._inbox:
            self._inbox.append(data)
            if len(self._inbox) == INBOX_LIMIT and self.flow is not None:
                self.flow.pause_reading()  # the peer waits until we caught up
            return
        self._take(data)

    def take_line(self, line: bytes) -> None:
        """``feed`` of one line from a pipe, for the common request: a server's request
        (a string or integer id, object params) on a quiet log, read and checked here as
        ``loads`` and ``open_request`` do (inline: a request costs a few Python frames
        instead of some twenty, which on one core is most of what separates the server
        from the least one could be), then ``_answer``-ed.  Anything else, at the first
        step that differs, goes on by the general path, from where this one left it
        (never handled twice)."""
        log = self.log
        if (
            self._holding is not None
            or self._inbox
            or self.client
            or not log.quiet
            or log._file is not None
        ):
            self.feed(line)
            return
        # ``loads``: pydantic-core reads it unless a number might not fit a double.
        if may_overflow(line):
            self._take(line)
            return
        try:
            message = from_json(line, allow_inf_nan=False)
        except ValueError:
            self._take(line)  # ``loads`` says why, as it always did
            return
        # ``open_request``'s checks, for the shape they all pass.
        if type(message) is not dict:
            self._handle(message)
            return
        request_id: Any = message.get("id")
        method: Any = message.get("method")
        params = message.get("params")
        dispatcher = self.dispatcher
        info = dispatcher.methods.get(method) if type(method) is str else None
        if (
            info is None
            or info.kind != "request"
            or info.params is None
            or (type(request_id) is not int and type(request_id) is not str)
            or type(params) is not dict
            or message.get("jsonrpc") != "2.0"
        ):
            self._handle(message)
            return
        handler = dispatcher.handlers.get(method)
        if handler is None:
            self._handle(message)
            return
        try:
            value = info.params.validator.validate_python(params, by_name=False)
        except Exception:  # noqa: BLE001 - ``open_request`` says why
            self._handle(message)
            return
        self._answer((request_id, False, method, info, handler, value))

    def _take(self, data: str | bytes) -> None:
        self.log.message("in", self.channel.peer, data)
        try:
            message = loads(data)
        except RpcError as error:
            self.strays += 1
            if self.client:
                self.log.info(f"not JSON from {self.channel.peer}: {error.message}")
            self._spawn(self._reply(error_response(None, error)))
            return
        self._handle(message)

    def _handle(self, message: Any) -> None:
        """A message read: a batch, a response, a request or a notification."""
        if isinstance(message, list):
            task = self._spawn(self._batch(message))
            if task is not None and len(message) > 1:
                # in flight as so many requests: a flood of batches is held to the
                # same bound as a flood of requests
                extra = len(message) - 1
                self._batched += extra
                task.add_done_callback(lambda _: self._unbatch(extra))
        elif (
            isinstance(message, dict)
            and "method" not in message
            and ("result" in message or "error" in message)
        ):
            self._on_response(message)
        else:
            # Checked and read at once: only the handler, and the answer's sending,
            # run as a coroutine (no task at all when neither waits).
            call = open_request(self.dispatcher, message)
            if not isinstance(call, tuple):  # answered already: an error, or nothing
                if call is not None:
                    self._spawn(self._reply(call))
                return
            if not call[1]:  # a request: answered now where its handler allows
                self._answer(call)
                return
            task = self._spawn(self._run(call))
            if task is not None and call[1]:
                # Notifications in order, never answered: what follows waits for
                # this one.
                self._holding = task
                task.add_done_callback(self._release)

    def _unbatch(self, extra: int) -> None:
        self._batched -= extra

    def _release(self, _done: object) -> None:
        self._holding = None
        while self._inbox and self._holding is None:
            self._take(self._inbox.popleft())
        if not self._inbox and self.flow is not None:
            self.flow.resume_reading()

    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None] | None:
        """Start ``work`` at once; its task while it still runs, None once done."""
        starter = self._starter
        if starter is None:
            starter = self._starter = TaskStarter(self._loop)
        task = starter.start(work)
        if task is None:
            return None
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _answer(self, call: Call) -> None:
        """A request's handler run up to its first wait now (``TaskStarter.begin``: the
        current task and the context it would have in a task of its own).  Finished
        there, with an answer the pipe takes whole at once (nothing waiting before it):
        written now, with no coroutine or task of ours; else ``_run`` answers (with the
        rest of the handler, in the handler's task, when it waits)."""
        handler = call[4]
        native = self._native.get(handler)
        if native is None:
            native = self._native[handler] = inspect.iscoroutinefunction(handler)
        if not native:  # any other callable runs as it always did, in its task
            self._spawn(self._run(call))
            return
        try:
            handled = handler(call[5])  # only makes the coroutine
        except Exception as error:  # noqa: BLE001 - a call that does not fit: -32603
            self._spawn(self._run(call, _settled(False, error)))
            return
        if not isinstance(handled, types.CoroutineType):  # an awaitable of its own
            self._spawn(self._run(call, handled))
            return
        starter = self._starter
        if starter is None:
            starter = self._starter = TaskStarter(self._loop)
        begun = starter.begin(handled, self._run, (call,))
        if not isinstance(begun, tuple):  # it waits: its task answers
            self._tasks.add(begun)
            begun.add_done_callback(self._tasks.discard)
            return
        finished, value = begun
        pipe = self._pipe
        output = self._output
        if (
            finished
            and pipe is not None
            and pipe.put_now is not None
            and not pipe.content_length
            and (output is None or not output.messages)
        ):
            # The pipe's newline written with the text (no copy of the answer to add
            # it, as ``put`` would make).
            text = close_request_text(self.dispatcher, call, value, b"\n")
            if text is not None:
                log = self.log
                if not log.quiet or log._file is not None:  # no copy for a quiet log
                    log.message("out", self.channel.peer, text[:-1])
                try:
                    if not pipe.put_now(text):  # the rest waits in the buffer
                        self._spawn(self._written(len(text) - 1))
                except (OSError, ValueError) as error:  # the reader is gone
                    self._lost(self._send_failed(error))
                return
        self._spawn(self._run(call, _settled(finished, value)))

    async def _written(self, size: int) -> None:
        """What the pipe did not take of an answer written at once: counted and waited
        for, as ``_send_text`` does."""
        assert self._pipe is not None
        gauge = None if self.client else self._output or self._gauge()
        counted = False
        try:
            if gauge is not None:
                gauge.add(size)  # or OutputOverflow: the peer does not read
                counted = True
            await self._pipe.wait()
        except TransportError as error:
            self._lost(error)
        except (OSError, ValueError) as error:
            self._lost(self._send_failed(error))
        finally:
            if counted and gauge is not None:
                gauge.sent(size)

    def _send_failed(self, error: Exception) -> TransportError:
        reason = short(error) or type(error).__name__
        failure = TransportError(f"cannot send to {self.channel.peer}: {reason}")
        failure.__cause__ = error
        return failure

    async def _run(self, call: Call, pending: Awaitable[Any] | None = None) -> None:
        """Run a request's handler and send its answer (``handle_request``'s second
        half, inline: one coroutine less per message); ``pending``: the handler's
        outcome, or its rest, where ``_answer`` began it."""
        try:
            result = await (call[4](call[5]) if pending is None else pending)
        except Exception as error:  # noqa: BLE001 - any handler bug answers -32603
            response = fail_request(self.dispatcher, call, error)
        else:
            text = close_request_text(self.dispatcher, call, result)
            if text is not None:
                try:
                    await self._send_text(text)
                except TransportError as error:
                    self._lost(error)
                return
            response = close_request(self.dispatcher, call, result)
        if response is not None:
            # A result is the dispatcher's JSON-mode dump; an error's data may be any
            # Python value a handler gave.
            try:
                await self._send(response, plain="result" in response)
            except TransportError as error:
                self._lost(error)

    async def _batch(self, messages: list[Any]) -> None:
        if not messages:
            failure = RpcError(INVALID_REQUEST, "invalid request: empty batch")
            await self._reply(error_response(None, failure))
            return
        answers: list[Any] = []
        for message in messages:
            if (
                isinstance(message, dict)
                and "method" not in message
                and ("result" in message or "error" in message)
            ):
                self._on_response(message)
            else:
                answers.append(handle_request(self.dispatcher, message))
        responses = [r for r in await asyncio.gather(*answers) if r is not None]
        if responses:
            await self._reply(responses)

    def _on_response(self, message: JsonObject) -> None:
        future = self._pending.pop(id_key(message.get("id")), None)
        if future is None:
            self.strays += 1
            shown = printable(short(message))
            self.log.info(f"response to no pending request: {shown}")
        elif not future.done():
            future.set_result(message)

    async def request_raw(self, message: JsonObject) -> JsonObject:
        """Send a request message as given (no validation); the whole response."""
        return await self._exchange(message, plain=False)

    async def _exchange(
        self, message: JsonObject, *, plain: bool, timeout: float | None = None
    ) -> JsonObject:
        """Send a request, wait for its response: within ``timeout`` seconds (None: the
        connection's ``timeout``; infinity: no limit), else ``TransportTimeout``."""
        if self._closed:
            raise TransportError(self._closed_reason)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[JsonObject] = loop.create_future()
        key = id_key(message.get("id"))
        self._pending[key] = future
        limit = self.timeout if timeout is None else timeout
        if limit is None or limit == math.inf:
            await self._send(message, plain=plain)
            return await future
        deadlines = self._deadlines
        if deadlines is None:
            deadlines = self._deadlines = Deadlines(self._expired)
        method = message.get("method")
        deadline = Deadline(
            loop.time() + max(limit, 0.0),
            future,
            asyncio.current_task(),
            method if isinstance(method, str) else "request",
            limit,
            message.get("id"),
        )
        deadlines.add(key, deadline)
        try:
            await self._send(message, plain=plain)
            deadline.sending = False
            return await future
        except asyncio.CancelledError:
            if not deadline.expired or deadline.task is None:
                raise
            deadline.task.uncancel()  # our cancellation (a send that never ended)
            raise self._timed_out(deadline) from None
        finally:
            deadlines.discard(key, deadline)
            if self._pending.get(key) is future:
                del self._pending[key]

    def _timed_out(self, deadline: Deadline) -> TransportTimeout:
        return TransportTimeout(deadline.operation, deadline.limit, self.channel.peer)

    def _expired(self, deadline: Deadline) -> None:
        """A request's time is up: fail it, and cancel it on the wire if we can."""
        if deadline.future.done():
            return
        deadline.expired = True
        if deadline.sending and deadline.task is not None:
            deadline.task.cancel()  # stuck sending: the peer does not read
        else:
            deadline.future.set_exception(self._timed_out(deadline))
        if self.cancel is not None and not self._closed:
            method, key = self.cancel
            notice: JsonObject = {"jsonrpc": "2.0", "method": method}
            notice["params"] = {key: deadline.request_id}
            self._spawn(self._reply(notice))

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    async def request(
        self, method: str, params: Any, *, timeout: float | None = None
    ) -> Any:
        """Send a typed request; validate and return the typed result.  ``timeout``:
        seconds to wait for the answer (None: the connection's ``timeout``); then
        ``TransportTimeout``.  A result that is not what the spec says raises
        ``InvalidResult``."""
        info = self.methods[method]
        message: JsonObject = {"jsonrpc": "2.0", "id": self.new_id(), "method": method}
        sent = params_json(info, params)
        if sent is not None:
            message["params"] = sent
        response = await self._exchange(message, plain=True, timeout=timeout)
        return typed_result(info, method, response)

    async def notify(self, method: str, params: Any) -> None:
        info = self.methods[method]
        message: JsonObject = {"jsonrpc": "2.0", "method": method}
        sent = params_json(info, params)
        if sent is not None:
            message["params"] = sent
        await self._send(message, plain=True)

    async def close(self) -> None:
        await self.channel.close()
