"""The JSON-RPC runtime of every generated package, copied verbatim as ``<pkg>/_rpc.py``.

Phase: runtime (not run by codegen itself: each generated package carries a copy).
Inputs: the package's method registry (``METHODS``: wire name → ``MethodInfo`` with the
pydantic adapters of params and result), handlers by wire name, and a transport.
Outputs: framing readers with size limits (newline-delimited JSON over stdio, WebSocket,
HTTP POST envelopes), the JSON-RPC 2.0 envelope and batches, error objects, JSON pointer
paths from validation errors, message logging (stderr and an optional JSONL transcript),
typed requests from a client, and the ``python -m <pkg>.server`` command line.
Guarantees: imports nothing of codegen (a test enforces it), only the standard library and
pydantic (with its pydantic-core); aiohttp is imported only by the WebSocket and HTTP
transports, when they are used, and uvloop only by the server command, when installed.
What differs per protocol (the registry, the transports, the error names) is passed in
by the package's small generated modules, so this one file serves every protocol.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import contextvars
import json
import math
import os
import signal
import stat
import sys
import threading
import time
import traceback
from collections.abc import (
    Awaitable,
    Callable,
    Coroutine,
    Generator,
    Mapping,
    Sequence,
)
from dataclasses import dataclass
from importlib import import_module
from typing import IO, Any, Final, Generic, Literal, Protocol, TypeVar

import pydantic
from pydantic import TypeAdapter, ValidationError
from pydantic_core import PydanticSerializationError, from_json, to_json

PYDANTIC_REQUIREMENT: Final = ">=2.14,<3"
"""The pydantic releases a generated package works with (its pyproject says the same)."""


def _check_pydantic(version: str) -> None:
    """Refuse a pydantic the generated models cannot work with, saying so, instead of
    an ``ImportError`` about ``MISSING`` from deep inside ``models``."""
    parts = version.split(".")
    try:
        found = (int(parts[0]), int("".join(c for c in parts[1] if c.isdigit()) or 0))
    except (IndexError, ValueError):
        return  # an unusual version string: let the imports decide
    if not (2, 14) <= found < (3, 0):
        raise ImportError(
            f"{__package__ or 'this package'} needs pydantic{PYDANTIC_REQUIREMENT}, "
            f"found pydantic {version}: pip install 'pydantic{PYDANTIC_REQUIREMENT}'"
        )


_check_pydantic(pydantic.VERSION)

PARSE_ERROR: Final = -32700
INVALID_REQUEST: Final = -32600
METHOD_NOT_FOUND: Final = -32601
INVALID_PARAMS: Final = -32602
INTERNAL_ERROR: Final = -32603
DEFAULT_MAX_MESSAGE_BYTES: Final = 16 * 1024 * 1024
MAX_REPORTED_ERRORS: Final = 20
INBOX_LIMIT: Final = 1024
"""Messages held behind a notification still being handled before the pipe is paused."""

JsonObject = dict[str, Any]
Handler = Callable[[Any], Awaitable[Any]]
"""An inbound method: validated params in, a typed result (or None) out."""


class _Closable(Protocol):
    async def close(self) -> None: ...


_Client = TypeVar("_Client", bound=_Closable)
_T = TypeVar("_T")


@dataclass(frozen=True)
class MethodInfo:
    """One method of the protocol: who sends it and how to validate its payloads.

    ``params`` is None when the message carries no ``params`` key (an adapter that
    accepts None: the key is optional, and a None value is sent without it);
    ``result`` is None for a notification (a request without a declared result
    validates ``null``).
    """

    wire_name: str
    kind: Literal["request", "notification"]
    sender: str
    receiver: str
    both_ways: bool
    params: TypeAdapter[Any] | None
    result: TypeAdapter[Any] | None


def read_params(info: MethodInfo, method: str, has_params: bool, params: Any) -> Any:
    """The params of an incoming message as its handler gets them: the one reading that
    the server and ``codegen validate`` share.

    Raises ``RpcError`` (invalid params) for params given to a method that takes none,
    and pydantic's ``ValidationError`` for params that do not validate.
    """
    if info.params is None:
        if has_params and params is not None and params != {} and params != []:
            raise RpcError(INVALID_PARAMS, f"{method} takes no params")
        return None
    if not has_params:
        # JSON-RPC 2.0: params MAY be omitted.  Absent params read as an object with
        # no keys, so a method whose params are all optional (MCP's ``ping``, an empty
        # struct like piglet's ``shutdown`` that Go sends with ``omitempty``) is
        # accepted without them, and any other is still told which fields it lacks.
        params = {}
    # pydantic-core's validator itself: TypeAdapter's methods only forward to it, at
    # the cost of a Python call on every message.
    return info.params.validator.validate_python(params, by_name=False)


Methods = Mapping[str, MethodInfo]
"""A method registry: wire name → ``MethodInfo`` (the package's ``methods.METHODS``)."""


def package_methods() -> Methods:
    """The registry of the generated package this copy lives in (``.methods.METHODS``).

    What a caller gets when it passes no registry; the generated modules always pass
    theirs.  Imported on first use, since ``methods`` imports ``MethodInfo`` from here.
    """
    if not __package__:
        raise LookupError("no method registry: pass methods=")
    try:
        registry: Methods = import_module(".methods", __package__).METHODS
    except (ImportError, AttributeError):
        raise LookupError(
            f"{__package__} has no methods.METHODS: pass methods="
        ) from None
    return registry


class RpcError(Exception):
    """An error answer: raise it from a handler to answer with ``code`` (the protocol's
    own codes included); a client raises it when the peer answered with an error.
    """

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        text = f"{code}: {message}"
        if data is not None:
            try:
                detail = json.dumps(data, ensure_ascii=False, default=repr)
            except ValueError:  # a circular structure
                detail = repr(data)
            text += f" (data: {_short(detail, 2000)})"
        super().__init__(text)
        self.code = code
        self.message = message
        self.data = data

    def to_json(self) -> JsonObject:
        error: JsonObject = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error

    @classmethod
    def from_json(cls, error: Any) -> RpcError:
        if not isinstance(error, dict):
            return cls(INTERNAL_ERROR, f"malformed error object: {error!r:.200}")
        code = error.get("code")
        message = error.get("message")
        return cls(
            code if isinstance(code, int) else INTERNAL_ERROR,
            message if isinstance(message, str) else "",
            error.get("data"),
        )


class TransportError(ConnectionError):
    """The peer could not be reached, or the connection failed under a request:
    refused, unreachable, a command that does not start, an HTTP or WebSocket failure.
    The transport library's own exception is its ``__cause__``.
    """


class Connecting(Generic[_Client]):
    """A client being connected: ``async with Client.websocket(url) as client:`` closes
    it on leaving the block; ``client = await Client.websocket(url)`` leaves closing to
    the caller.
    """

    def __init__(self, connect: Callable[[], Awaitable[_Client]]) -> None:
        self._connect = connect
        self._client: _Client | None = None

    def __await__(self) -> Generator[Any, None, _Client]:
        return self._connect().__await__()

    async def __aenter__(self) -> _Client:
        self._client = await self._connect()
        return self._client

    async def __aexit__(self, *exc_info: object) -> None:
        if self._client is not None:
            client, self._client = self._client, None
            await client.close()


class MessageTooLarge(Exception):
    """A message over the size limit was discarded without being read whole."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"message too large (limit {limit} bytes)")
        self.limit = limit


# ----------------------------------------------------------------- pointers and errors


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def json_pointer(loc: Sequence[int | str], value: Any, *, missing: bool) -> str:
    """The JSON pointer (RFC 6901) into ``value`` of a pydantic error location.

    Locations name wire keys (aliases) and list indexes, but also union members
    (``RootState``, ``int``); those are not in the input and are skipped.  A missing
    key is kept at the end, where it should have been.
    """
    tokens: list[str] = []
    current = value
    last = len(loc) - 1
    for position, item in enumerate(loc):
        if isinstance(current, dict) and isinstance(item, str) and item in current:
            tokens.append(_escape(item))
            current = current[item]
        elif (
            isinstance(current, list)
            and isinstance(item, int)
            and 0 <= item < len(current)
        ):
            tokens.append(str(item))
            current = current[item]
        elif missing and position == last and isinstance(current, dict):
            tokens.append(_escape(str(item)))
    return "".join(f"/{token}" for token in tokens)


def validation_details(error: ValidationError, value: Any) -> JsonObject:
    """The ``data`` of an invalid-params error: each problem with its JSON pointer."""
    problems: list[JsonObject] = []
    seen: set[tuple[str, str]] = set()
    for item in error.errors(include_url=False, include_input=False):
        path = json_pointer(item["loc"], value, missing=item["type"] == "missing")
        key = (path, item["type"])
        if key in seen:
            continue
        seen.add(key)
        problems.append({"path": path, "message": item["msg"], "type": item["type"]})
    return {
        "errors": problems[:MAX_REPORTED_ERRORS],
        "count": error.error_count(),
    }


def _short(text: object, limit: int = 120) -> str:
    shown = str(text)
    return shown if len(shown) <= limit else shown[:limit] + "…"


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(
        value
    ):  # 1e400: no double holds it (Go's encoding/json agrees)
        raise ValueError(f"number out of range: {_short(text, 40)}")
    return value


def loads(data: str | bytes) -> Any:
    """Parse one message; raises ``RpcError(PARSE_ERROR)`` on anything that is not
    UTF-8 JSON: invalid UTF-8 (and UTF-16/32, which ``json`` would guess), NaN and
    Infinity, numbers no double holds (``1e400``) and integers of over 4300 digits.

    pydantic-core's reader (one call into Rust, a quarter of the standard library's
    cost) reads what it can; what it refuses (NaN, a lone surrogate escape, nesting
    over 200, a BOM, bad UTF-8...) and any number that might not fit a double (an
    exponent of three digits, a run of 200 digits: it would read ``1e400`` as
    infinity) go to the standard library's reader, whose verdict and message stand.
    Both keep the last of duplicate keys at the first one's place.
    """
    # A lone surrogate in text makes bytes pydantic-core refuses: the standard reader
    # decides on the text itself.
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if not _may_overflow(raw):
        try:
            return from_json(raw, allow_inf_nan=False)
        except ValueError:
            pass
    return _standard_loads(data)


def _standard_loads(data: str | bytes) -> Any:
    """``loads`` by the standard library's reader alone: the reference ``loads`` keeps."""
    try:
        text = data.decode("utf-8") if isinstance(data, (bytes, bytearray)) else data
    except UnicodeDecodeError as error:
        raise RpcError(
            PARSE_ERROR, f"parse error: not UTF-8 (byte {error.start})"
        ) from None
    try:
        if text.startswith("\ufeff"):  # what json.loads refuses, refused the same way
            return json.loads(text)
        return _DECODER.decode(text)
    except RecursionError:
        raise RpcError(PARSE_ERROR, "parse error: nested too deeply") from None
    except ValueError as error:
        raise RpcError(PARSE_ERROR, f"parse error: {_short(error)}") from None


def dumps(message: Any) -> str:
    """Compact JSON that always encodes as UTF-8: a string holding a lone surrogate (a
    peer may send ``"\\ud800"``, and its id is echoed) makes the whole message ASCII with
    escapes, exactly as the peer wrote it.  Raises ``ValueError`` on NaN or Infinity,
    which are not JSON.
    """
    text = _ENCODER.encode(message)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            text = _ASCII_ENCODER.encode(message)
    return text


def dumps_plain(message: Any) -> bytes:
    """``dumps`` of a message that holds only what reading JSON or pydantic's JSON-mode
    dump gives (dicts, lists, strings, numbers, booleans, None), as UTF-8: written by
    pydantic-core (one call into Rust) with the same text but for a float's exponent
    (``1e-7``, not ``1e-07``: the same number).  What it would write otherwise goes to
    ``dumps``: NaN or Infinity (refused there), a lone surrogate (escaped there)."""
    try:
        data = to_json(message, inf_nan_mode="constants")
    except PydanticSerializationError:
        data = b"NaN"  # what only ``dumps`` writes right
    if b"NaN" in data or b"Infinity" in data:  # in a string, or a float JSON lacks
        return dumps(message).encode("utf-8")
    return data


def _may_overflow(data: bytes | bytearray) -> bool:
    """Whether a number in ``data`` might not fit a double: one with an exponent of
    three digits (``1e400``) or a run of 200 digits (``1`` and 400 digits ``.0``); a
    literal overflows only if its integer digits and its exponent add up to over 308.
    With every digit made ``0``, ``E`` made ``e`` and signs left out, bytes' own
    search finds both (a regex, byte by byte, cost as much as the read).  Signs left
    out may join digits (``"1-2"``) or spell ``0e000`` in a string: such text is only
    read the slower way."""
    shapes = data.translate(_NUMBER_SHAPES, b"+-")
    return b"0e000" in shapes or (len(shapes) >= 200 and _LONG_RUN in shapes)


_NUMBER_SHAPES: Final = bytes.maketrans(b"123456789E", b"000000000e")
_LONG_RUN: Final = b"0" * 200


# One coder each, built once: ``json.loads``/``dumps`` with options build a new one per
# call, which costs as much as coding a small message.
_DECODER: Final = json.JSONDecoder(parse_constant=_no_constants, parse_float=_finite)
_ENCODER: Final = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":"), allow_nan=False
)
_ASCII_ENCODER: Final = json.JSONEncoder(separators=(",", ":"), allow_nan=False)


def _id_key(request_id: Any) -> Any:
    """The key of a pending request: ints as themselves, any other id as its JSON text
    (so ``1``, ``1.0``, ``"1"`` and ``true`` stay four different ids)."""
    return request_id if type(request_id) is int else dumps(request_id)


# ----------------------------------------------------------------------------- logging


class MessageLog:
    """Logs each message: one line on stderr (unless quiet), one JSON line per message
    in the transcript file when there is one.
    """

    def __init__(
        self, name: str, *, quiet: bool = False, transcript: str | None = None
    ) -> None:
        self.name = name
        self.quiet = quiet
        self._file: IO[str] | None = None
        if transcript:  # open for the life of the server, closed by close()
            self._file = open(transcript, "a", encoding="utf-8")  # noqa: SIM115

    def info(self, text: str) -> None:
        print(f"{self.name}: {text}", file=sys.stderr, flush=True)

    def message(self, direction: str, peer: str, data: str | bytes) -> None:
        if self.quiet and self._file is None:
            return  # the hot path of a quiet server: nothing to decode or format
        text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
        if not self.quiet:
            arrow = "<-" if direction == "in" else "->"
            print(f"{self.name} {arrow} {peer}: {_short(text, 300)}", file=sys.stderr)
        if self._file is not None:
            entry: JsonObject = {"time": time.time(), "direction": direction}
            entry["peer"] = peer
            try:
                entry["message"] = loads(text)
            except RpcError:
                entry["raw"] = text
            try:
                self._file.write(dumps(entry) + "\n")
                self._file.flush()
            except OSError as error:  # a full disk must not stop the server
                self.info(f"transcript stopped: {error}")
                self.close()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


QUIET: Final = MessageLog("client", quiet=True)


# -------------------------------------------------------------------------- dispatcher


class Dispatcher:
    """Validates params on the way in, calls the handler, validates the result on the
    way out.  Every failure becomes an ``RpcError``; tracebacks go to the log only.
    """

    def __init__(
        self,
        handlers: Mapping[str, Handler],
        log: MessageLog,
        methods: Methods | None = None,
    ) -> None:
        self.handlers = handlers
        self.methods = package_methods() if methods is None else methods
        self.log = log

    def info(self, method: str) -> MethodInfo:
        info = self.methods.get(method)
        if info is None or method not in self.handlers:
            raise RpcError(METHOD_NOT_FOUND, f"method not found: {_short(method)}")
        return info

    async def call(self, method: str, has_params: bool, params: Any) -> Any:
        """The JSON result of one call (None for a notification)."""
        info = self.info(method)
        try:
            value = read_params(info, method, has_params, params)
        except ValidationError as error:
            message = "invalid params" if has_params else "params are required"
            raise RpcError(
                INVALID_PARAMS,
                f"{message} for {method}",
                validation_details(error, {} if not has_params else params),
            ) from None
        try:
            result = await self.handlers[method](value)
        except RpcError:
            raise
        except Exception:  # noqa: BLE001 - any handler bug answers -32603
            self.log.info(f"handler of {method} failed:\n{traceback.format_exc()}")
            raise RpcError(INTERNAL_ERROR, "internal error") from None
        if info.result is None:
            return None
        try:
            dumped = info.result.serializer.to_python(
                result, mode="json", by_alias=True, warnings="error"
            )
            info.result.validator.validate_python(dumped, by_name=False)
        except Exception:  # noqa: BLE001 - a result that is not what the spec says
            self.log.info(f"invalid result of {method}:\n{traceback.format_exc()}")
            raise RpcError(INTERNAL_ERROR, "internal error: invalid result") from None
        return dumped


# ------------------------------------------------------------------------ eager tasks


class _Started(Coroutine[Any, Any, _T]):
    """The rest of a coroutine that ``TaskStarter`` ran up to its first wait, as the
    coroutine its task runs: the first step hands the task what the coroutine waits on
    (or its outcome), every later step, and a cancellation at any step, goes straight to
    the coroutine, in the coroutine's own context, exactly as if the task had run it
    from the start.
    """

    def __init__(
        self, coro: Coroutine[Any, Any, _T], context: contextvars.Context
    ) -> None:
        self.coro = coro
        self.context = context
        self.begun = False
        self.error: BaseException | None = None
        self.waiting_on: Any = None

    def send(self, value: Any) -> Any:
        if self.begun:
            return self.context.run(self.coro.send, value)
        self.begun = True
        if self.error is not None:
            raise self.error
        return self.waiting_on

    def throw(self, typ: Any, val: Any = None, tb: Any = None) -> Any:
        error = typ if val is None else val
        if not self.begun:
            self.begun = True
            if self.error is not None:  # nothing left to deliver it to
                raise error
            waiting = self.waiting_on
            if (
                isinstance(error, asyncio.CancelledError)
                and isinstance(waiting, asyncio.Future)
                and waiting.cancel()
            ):
                # What cancelling a task does to the future it waits on: the coroutine
                # reads the cancellation from that future, and a task it awaits is
                # cancelled too.
                return waiting
        return self.context.run(self.coro.throw, error)

    def close(self) -> None:
        self.coro.close()

    def __await__(self) -> Generator[Any, None, _T]:
        raise TypeError("run by its task only")  # pragma: no cover - never awaited


class _Host(Coroutine[Any, Any, Any]):
    """The coroutine of a task that waits, idle, to be handed a coroutine that
    ``TaskStarter`` ran up to its first wait (a ``_Started``), and then runs it to its
    end: the task becomes that coroutine's own.  Cancelled while idle, it ends."""

    def __init__(self, mailbox: asyncio.Future[_Started[Any]]) -> None:
        self.mailbox = mailbox
        self.job: _Started[Any] | None = None

    def _adopted(self) -> _Started[Any] | None:
        if self.job is None and self.mailbox.done() and not self.mailbox.cancelled():
            self.job = self.mailbox.result()
        return self.job

    def send(self, value: Any) -> Any:
        job = self._adopted()
        if job is not None:
            return job.send(value)
        # Idle: what awaiting the mailbox yields to the task (asyncio's protocol).
        self.mailbox._asyncio_future_blocking = True
        return self.mailbox

    def throw(self, typ: Any, val: Any = None, tb: Any = None) -> Any:
        job = self._adopted()
        if job is not None:
            return job.throw(typ, val, tb)
        raise typ if val is None else val

    def close(self) -> None:
        if self.job is not None:
            self.job.close()

    def __await__(self) -> Generator[Any, None, Any]:
        raise TypeError("run by its task only")  # pragma: no cover - never awaited


class TaskStarter:
    """Starts coroutines eagerly: ``start`` runs one up to its first wait before it
    returns, and only a coroutine that does wait costs a task.

    A handler that answers without waiting (a stub, a lookup) is answered before
    ``start`` returns: the peer gets its answer one event-loop turn sooner, and the
    server makes no task and takes no extra loop turn for it.  While a coroutine runs
    its first step, an idle task of this starter's is the current one (so
    ``current_task()`` and ``asyncio.timeout`` work); if the coroutine waits, that task
    becomes its own and runs the rest, and the next coroutine gets a new idle task.
    Each coroutine runs in its own copy of the context (a handler's context variables
    never leak to the next, nor to the caller) and a cancellation of its task reaches
    it at any step, as with Python 3.12's eager tasks, which cost a task each.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        self.loop = loop or asyncio.get_running_loop()
        self._idle: asyncio.Task[Any] | None = None
        self._mailbox: asyncio.Future[_Started[Any]] | None = None

    def start(self, coro: Coroutine[Any, Any, _T]) -> asyncio.Task[_T] | None:
        """The task running the rest of ``coro`` after its first step; None when
        ``coro`` finished in that step (its result is not kept: fire and forget)."""
        loop = self.loop
        host, mailbox = self._idle, self._mailbox
        if host is None or mailbox is None or host.done() or mailbox.done():
            mailbox = loop.create_future()
            host = loop.create_task(_Host(mailbox))
        # Lent while the first step runs: a start() inside that step gets its own.
        self._idle = self._mailbox = None
        context = contextvars.copy_context()
        tasks: Any = asyncio.tasks  # the hooks asyncio's own eager start uses
        outer = asyncio.current_task(loop)
        if outer is not None:
            tasks._leave_task(loop, outer)
        tasks._enter_task(loop, host)
        started: _Started[_T]
        try:
            waiting_on = context.run(coro.send, None)
        except StopIteration:
            self._give_back(host, mailbox)
            return None
        except (KeyboardInterrupt, SystemExit):
            self._give_back(host, mailbox)
            raise
        except BaseException as error:  # noqa: BLE001 - the task raises it when awaited
            started = _Started(coro, context)
            started.error = error
        else:
            started = _Started(coro, context)
            started.waiting_on = waiting_on
        finally:
            tasks._leave_task(loop, host)
            if outer is not None:
                tasks._enter_task(loop, outer)
        mailbox.set_result(started)  # the task is the coroutine's own from now on
        return host

    def _give_back(
        self, host: asyncio.Task[Any], mailbox: asyncio.Future[_Started[Any]]
    ) -> None:
        """The lent task is idle again, unless a start() during the step left one."""
        if self._idle is None:
            self._idle, self._mailbox = host, mailbox
        else:
            host.cancel()

    def close(self) -> None:
        """End the idle task (a coroutine still running keeps its own)."""
        if self._idle is not None:
            self._idle.cancel()
        self._idle = self._mailbox = None


# -------------------------------------------------------------------- JSON-RPC 2.0 layer


def _is_id(value: Any) -> bool:
    return value is None or (
        isinstance(value, (str, int, float)) and not isinstance(value, bool)
    )


def error_response(request_id: Any, error: RpcError) -> JsonObject:
    return {"jsonrpc": "2.0", "id": request_id, "error": error.to_json()}


async def handle_request(dispatcher: Dispatcher, message: Any) -> JsonObject | None:
    """The response to one request object, or None for a notification."""
    if not isinstance(message, dict):
        return error_response(
            None, RpcError(INVALID_REQUEST, "invalid request: not a JSON object")
        )
    notification = "id" not in message
    request_id = message.get("id")
    if not _is_id(request_id):
        return error_response(
            None,
            RpcError(INVALID_REQUEST, "invalid request: id must be a string or number"),
        )
    try:
        if message.get("jsonrpc") != "2.0":
            raise RpcError(INVALID_REQUEST, 'invalid request: "jsonrpc" must be "2.0"')
        method = message.get("method")
        if not isinstance(method, str):
            raise RpcError(
                INVALID_REQUEST, 'invalid request: "method" must be a string'
            )
        params = message.get("params")
        if "params" in message and not isinstance(params, (dict, list)):
            raise RpcError(
                INVALID_REQUEST, 'invalid request: "params" must be an object or array'
            )
        info = dispatcher.info(method)
        if info.kind == "notification" and not notification:
            raise RpcError(
                INVALID_REQUEST,
                f"invalid request: {method} is a notification; send it without an id",
            )
        result = await dispatcher.call(method, "params" in message, params)
    except RpcError as error:
        if notification and error.code not in (INVALID_REQUEST,):
            dispatcher.log.info(f"notification dropped: {error.message}")
            return None
        return error_response(request_id, error)
    if notification:
        return None
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


class Channel(Protocol):
    """One bidirectional stream of messages read on demand (a WebSocket frame); pipes
    are a ``PipeChannel``, which hands the connection each line as it arrives."""

    peer: str

    async def receive(self) -> str | bytes | None:
        """The next message; None at the end; raises ``MessageTooLarge``."""
        ...

    async def send(self, data: str | bytes) -> None: ...

    async def close(self) -> None: ...


class Session(Protocol):
    """What a typed client or peer proxy calls: requests and notifications."""

    async def request(self, method: str, params: Any) -> Any: ...

    async def notify(self, method: str, params: Any) -> None: ...

    async def close(self) -> None: ...


class NoPeer:
    """The peer of a transport that cannot carry calls back (HTTP)."""

    async def request(self, method: str, params: Any) -> Any:
        raise RpcError(METHOD_NOT_FOUND, f"{method}: this transport has no callbacks")

    async def notify(self, method: str, params: Any) -> None:
        raise RpcError(METHOD_NOT_FOUND, f"{method}: this transport has no callbacks")

    async def close(self) -> None:
        return None


HandlerFactory = Callable[[Session], Mapping[str, Handler]]
"""Builds the handlers of one connection, given a session to call the peer back."""


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
        self.log = log
        self.dispatcher = Dispatcher({}, log, methods)
        self.methods = self.dispatcher.methods
        self._pending: dict[Any, asyncio.Future[JsonObject]] = {}
        self._next_id = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False
        self._loop: asyncio.AbstractEventLoop | None = None  # while run() runs
        self._starter: TaskStarter | None = None  # handlers started eagerly
        self._holding: asyncio.Task[None] | None = None  # a notification being handled
        self._inbox: collections.deque[str | bytes] = collections.deque()
        self.flow: _LineReader | None = None  # paused while the inbox is full

    def serve_with(self, handlers: Mapping[str, Handler]) -> None:
        self.dispatcher.handlers = handlers

    async def _send(self, message: Any, *, plain: bool = False) -> None:
        """Send ``message``; ``plain``: it holds only JSON values (``dumps_plain``)."""
        text: str | bytes
        try:
            text = dumps_plain(message) if plain else dumps(message)
        except (ValueError, TypeError):  # e.g. a handler's error data holding NaN
            self.log.info(f"not JSON, not sent: {_short(repr(message))}")
            if not (isinstance(message, dict) and "id" in message):
                return
            failure = RpcError(INTERNAL_ERROR, "internal error: the answer is not JSON")
            text = dumps(error_response(message["id"], failure))
        self.log.message("out", self.channel.peer, text)
        await self.channel.send(text)

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
        finally:
            self._closed = True
            if self._starter is not None:
                self._starter.close()
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(TransportError("connection closed"))
            self._pending.clear()

    async def _pull(self, channel: Channel) -> None:
        """Messages from a channel that is read on demand (a WebSocket)."""
        while True:
            while self._holding is not None:  # read on once the notification is done
                await asyncio.wait((self._holding,))
            try:
                data = await channel.receive()
            except MessageTooLarge as error:
                self.too_large(error)
                continue
            if data is None:
                return
            self.feed(data)

    def too_large(self, error: MessageTooLarge) -> None:
        """A message over the size limit went past unread: say so, and go on."""
        self.log.info(str(error))
        failure = RpcError(INVALID_REQUEST, f"invalid request: {error}")
        self._spawn(self._send(error_response(None, failure)))

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

    def _take(self, data: str | bytes) -> None:
        self.log.message("in", self.channel.peer, data)
        try:
            message = loads(data)
        except RpcError as error:
            self._spawn(self._send(error_response(None, error)))
            return
        if isinstance(message, list):
            self._spawn(self._batch(message))
        elif (
            isinstance(message, dict)
            and "method" not in message
            and ("result" in message or "error" in message)
        ):
            self._on_response(message)
        elif isinstance(message, dict) and "id" not in message:
            # Notifications in order, never answered: what follows waits for this one.
            task = self._spawn(self._answer(message))
            if task is not None:
                self._holding = task
                task.add_done_callback(self._release)
        else:
            self._spawn(self._answer(message))

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

    async def _answer(self, message: Any) -> None:
        response = await handle_request(self.dispatcher, message)
        if response is not None:
            # A result is the dispatcher's JSON-mode dump; an error's data may be any
            # Python value a handler gave.
            await self._send(response, plain="result" in response)

    async def _batch(self, messages: list[Any]) -> None:
        if not messages:
            failure = RpcError(INVALID_REQUEST, "invalid request: empty batch")
            await self._send(error_response(None, failure))
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
            await self._send(responses)

    def _on_response(self, message: JsonObject) -> None:
        future = self._pending.pop(_id_key(message.get("id")), None)
        if future is None:
            self.log.info(f"response to no pending request: {_short(message)}")
        elif not future.done():
            future.set_result(message)

    async def request_raw(self, message: JsonObject) -> JsonObject:
        """Send a request message as given (no validation); the whole response."""
        return await self._exchange(message, plain=False)

    async def _exchange(self, message: JsonObject, *, plain: bool) -> JsonObject:
        if self._closed:
            raise TransportError("connection closed")
        future: asyncio.Future[JsonObject] = asyncio.get_running_loop().create_future()
        self._pending[_id_key(message.get("id"))] = future
        await self._send(message, plain=plain)
        return await future

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    async def request(self, method: str, params: Any) -> Any:
        """Send a typed request; validate and return the typed result."""
        info = self.methods[method]
        message: JsonObject = {"jsonrpc": "2.0", "id": self.new_id(), "method": method}
        if info.params is not None and params is not None:
            # None: optional params left out (JSON-RPC has no ``"params": null``).
            message["params"] = info.params.serializer.to_python(
                params, mode="json", by_alias=True
            )
        response = await self._exchange(message, plain=True)
        if "error" in response:
            raise RpcError.from_json(response["error"])
        if info.result is None:
            return None
        result = response.get("result")
        return info.result.validator.validate_python(result, by_name=False)

    async def notify(self, method: str, params: Any) -> None:
        info = self.methods[method]
        message: JsonObject = {"jsonrpc": "2.0", "method": method}
        if info.params is not None and params is not None:
            # None: optional params left out (JSON-RPC has no ``"params": null``).
            message["params"] = info.params.serializer.to_python(
                params, mode="json", by_alias=True
            )
        await self._send(message, plain=True)

    async def close(self) -> None:
        await self.channel.close()


# ------------------------------------------------------------------------------ stdio


class _LineReader:
    """Reads a pipe as its bytes arrive (the loop calls it when the pipe is readable),
    splits them into lines and hands each non-blank line (without its newline) to the
    connection from that callback.  A line over ``limit`` bytes is dropped as it
    streams past (never held whole) and reported once.
    """

    CHUNK: Final = 65536  # read size; under malloc's mmap threshold, unlike asyncio's

    def __init__(self, connection: Connection, limit: int) -> None:
        self.connection = connection
        self.limit = limit
        self.loop = asyncio.get_running_loop()
        self.ended: asyncio.Future[None] = self.loop.create_future()
        self.fileno = -1
        self._buffer = bytearray()
        self._skipping = False  # inside a line over the limit

    def watch(self, fileno: int) -> None:
        """Read ``fileno`` (a pipe or socket, made non-blocking) from the event loop."""
        self.loop.add_reader(fileno, self._readable)
        os.set_blocking(fileno, False)  # once watched: a thread may read it otherwise
        self.fileno = fileno
        self.connection.flow = self

    def pause_reading(self) -> None:
        if self.fileno >= 0 and not self.loop.is_closed():
            self.loop.remove_reader(self.fileno)

    def resume_reading(self) -> None:
        if self.fileno >= 0:
            self.loop.add_reader(self.fileno, self._readable)

    def _readable(self) -> None:
        try:
            data = os.read(self.fileno, self.CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""  # the peer is gone: the end of input
        if data:
            self.data_received(data)
            return
        self.loop.remove_reader(self.fileno)
        self.connection.flow = None
        self.fileno = -1
        self.eof_received()

    def data_received(self, data: bytes) -> None:
        buffer = self._buffer
        buffer += data
        start = 0
        while (end := buffer.find(b"\n", start)) >= 0:
            if self._skipping:
                self._skipping = False
            elif end - start > self.limit:
                self.connection.too_large(MessageTooLarge(self.limit))
            else:
                self._line(bytes(buffer[start:end]))
            start = end + 1
        del buffer[:start]
        if len(buffer) > self.limit:
            if not self._skipping:
                self._skipping = True
                self.connection.too_large(MessageTooLarge(self.limit))
            buffer.clear()

    def _line(self, line: bytes) -> None:
        if line.endswith(b"\r"):
            line = line[:-1]
        if line.strip():
            self.connection.feed(line)

    def eof_received(self) -> None:
        if not self._skipping and self._buffer:
            self._line(bytes(self._buffer))
        self._buffer.clear()
        if not self.ended.done():
            self.ended.set_result(None)


class PipeChannel:
    """Newline-delimited JSON over pipes (a child's stdin/stdout, our own stdio), read
    as the bytes arrive: no reader task stands between the pipe and the handlers, so an
    answer or a response costs no extra event-loop turn.
    """

    def __init__(
        self,
        open_reader: Callable[[_LineReader], Awaitable[None]],
        write: Callable[[bytes], Awaitable[None]],
        limit: int,
        peer: str,
        on_close: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self._open_reader = open_reader
        self._write = write
        self.limit = limit
        self.peer = peer
        self._on_close = on_close

    async def pump(self, connection: Connection) -> None:
        """Feed ``connection`` every line until the end of input."""
        reader = _LineReader(connection, self.limit)
        await self._open_reader(reader)
        await reader.ended

    async def send(self, data: str | bytes) -> None:
        if isinstance(data, str):
            data = data.encode("utf-8")
        await self._write(data + b"\n")

    async def close(self) -> None:
        if self._on_close is not None:
            await self._on_close()


async def _read_stdin(reader: _LineReader) -> None:
    stdin = sys.stdin.buffer
    # Only pipes and sockets can be watched by the event loop (epoll refuses regular
    # files; a terminal or /dev/null would never be read): the rest is read by a thread.
    mode = os.fstat(stdin.fileno()).st_mode
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        with contextlib.suppress(ValueError, OSError):
            reader.watch(stdin.fileno())
            return

    def pump() -> None:  # regular files and terminals: a reading thread
        while chunk := os.read(stdin.fileno(), reader.CHUNK):
            reader.loop.call_soon_threadsafe(reader.data_received, chunk)
        reader.loop.call_soon_threadsafe(reader.eof_received)

    threading.Thread(target=pump, daemon=True).start()


async def _write_stdout(data: bytes) -> None:
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


async def serve_stdio(
    factory: HandlerFactory, log: MessageLog, limit: int, methods: Methods
) -> None:
    """Serve one peer on stdin/stdout until end of input."""
    channel = PipeChannel(_read_stdin, _write_stdout, limit, "stdio")
    connection = Connection(channel, log, methods)
    connection.serve_with(factory(connection))
    log.info("listening on stdio")
    await connection.run()


async def connect_stdio(
    command: Sequence[str],
    handlers: Callable[[Session], Mapping[str, Handler]],
    *,
    limit: int = DEFAULT_MAX_MESSAGE_BYTES,
    env: Mapping[str, str] | None = None,
    stderr: int | IO[Any] | None = None,
    log: MessageLog = QUIET,
    methods: Methods | None = None,
) -> Connection:
    """Start ``command`` and talk to it over its stdin/stdout."""
    # The child's stdout is our own pipe, read by a _LineReader rather than asyncio's
    # stream reader (whose reading task would cost every response a loop turn); closed
    # by close().
    read_end, write_end = os.pipe()
    try:
        process = await asyncio.create_subprocess_exec(
            *command,
            stdin=asyncio.subprocess.PIPE,
            stdout=write_end,
            stderr=stderr,
            env=None if env is None else dict(env),
        )
    except (OSError, ValueError) as error:
        os.close(read_end)
        raise TransportError(
            f"cannot start {_short(list(command))}: {error}"
        ) from error
    finally:
        os.close(write_end)
    assert process.stdin is not None
    stdin = process.stdin
    readers: list[_LineReader] = []

    async def read(reader: _LineReader) -> None:
        readers.append(reader)
        reader.watch(read_end)

    async def write(data: bytes) -> None:
        stdin.write(data)
        await stdin.drain()

    async def close() -> None:
        if not stdin.is_closing():
            stdin.close()
        try:
            await asyncio.wait_for(process.wait(), 5)
        except TimeoutError:
            process.kill()
            await process.wait()
        try:
            await runner
        finally:
            for reader in readers:
                reader.pause_reading()  # never a closed descriptor in the selector
            os.close(read_end)

    channel = PipeChannel(read, write, limit, f"pid {process.pid}", close)
    connection = Connection(channel, log, methods)
    connection.serve_with(handlers(connection))
    runner = asyncio.ensure_future(connection.run())
    return connection


# -------------------------------------------------------------------------- WebSocket


class WebSocketChannel:
    """One message per WebSocket text frame (aiohttp, either side)."""

    def __init__(
        self,
        socket: Any,
        peer: str,
        on_close: Callable[[], Awaitable[None]] | None = None,
        oversized: OversizeFilter | None = None,
    ) -> None:
        self.socket = socket
        self.peer = peer
        self._on_close = on_close
        self._oversized = oversized

    async def receive(self) -> str | bytes | None:
        from aiohttp import WSMsgType

        message = await self.socket.receive()
        if message.type in (WSMsgType.TEXT, WSMsgType.BINARY):
            data: str | bytes = message.data
            if self._oversized is not None and data == self._oversized.marker:
                raise MessageTooLarge(self._oversized.limit)
            return data
        if message.type is WSMsgType.ERROR:  # e.g. over max_msg_size: closed, 1009
            print(f"websocket {self.peer}: {message.data}", file=sys.stderr)
        return None

    async def send(self, data: str | bytes) -> None:
        await self.socket.send_str(data if isinstance(data, str) else data.decode())

    async def close(self) -> None:
        if self._on_close is not None:
            await self._on_close()
        else:
            await self.socket.close()


class OversizeFilter:
    """Sits between aiohttp's connection and its WebSocket frame reader: a data message
    over the limit is dropped as its bytes stream past (never held whole), and a binary
    frame holding ``marker`` (random per connection, so no peer can forge it) takes its
    place; the channel answers it with -32600 and the connection goes on.

    aiohttp itself would close the socket (1009) on such a message.  Frame headers are
    parsed here (RFC 6455 §5.2) only to know where messages start and end; every other
    byte, and every frame this filter does not drop, goes to aiohttp's reader unchanged,
    which still does all validation.  Fragments of one message are held until its last
    frame (at most ``limit`` bytes, as aiohttp would hold).  Requires no compression
    (sizes are then the message sizes).
    """

    def __init__(self, inner: Any, limit: int) -> None:
        self.inner = inner
        self.limit = limit
        self.marker = b"\x00oversized:" + os.urandom(16)
        self._header = bytearray()
        self._remaining = 0  # payload bytes left in the current frame
        self._action = "pass"  # of the current frame: pass | hold | drop
        self._final = False  # the current frame ends its message
        self._size = 0  # bytes of the current data message so far
        self._dropping = False
        self._held = bytearray()

    def feed_eof(self) -> None:
        self.inner.feed_eof()

    def feed_data(self, data: bytes | bytearray | memoryview) -> tuple[bool, bytes]:
        if self._passes_whole(data):  # the common case: whole frames, nothing to drop
            passed: tuple[bool, bytes] = self.inner.feed_data(data)
            return passed
        view = memoryview(bytes(data))
        out = bytearray()
        position = 0
        while position < len(view):
            if self._remaining == 0 and not self._in_payload:
                position = self._read_header(view, position, out)
                continue
            take = min(self._remaining, len(view) - position)
            self._route(view[position : position + take], out)
            position += take
            self._remaining -= take
            if self._remaining == 0:
                self._end_frame(out)
        if out:
            result: tuple[bool, bytes] = self.inner.feed_data(bytes(out))
            return result
        return False, b""

    _in_payload = False

    def _passes_whole(self, data: bytes | bytearray | memoryview) -> bool:
        """Whether ``data`` is whole frames, each passed unchanged (a complete data
        message within the limit, or a control frame), with no frame begun before it;
        if so the state is left as the byte-by-byte path would leave it."""
        if self._header or self._in_payload or self._held or self._dropping:
            return False
        end = len(data)
        position = 0
        size, action, final = self._size, self._action, self._final
        while position < end:
            if end - position < 2:
                return False
            first, second = data[position], data[position + 1]
            length = second & 0x7F
            start = position + 2
            if length == 126:
                length = int.from_bytes(data[start : start + 2], "big")
                start += 2
            elif length == 127:
                length = int.from_bytes(data[start : start + 8], "big")
                start += 8
            if second & 0x80:
                start += 4
            opcode = first & 0x0F
            if opcode in (0x1, 0x2):
                if not first & 0x80 or length > self.limit:
                    return False  # a fragment or too large: the careful path
                size, action, final = length, "pass", True
            elif opcode == 0x0:
                return False
            else:  # control frames (and anything malformed) pass: aiohttp judges
                action, final = "pass", False
            position = start + length
            if position > end:
                return False
        self._size, self._action, self._final = size, action, final
        return True

    def _read_header(self, view: memoryview, position: int, out: bytearray) -> int:
        needed = 2
        while True:
            if len(self._header) >= 2:
                length_flag = self._header[1] & 0x7F
                extra = 2 if length_flag == 126 else 8 if length_flag == 127 else 0
                mask = 4 if self._header[1] & 0x80 else 0
                needed = 2 + extra + mask
            if len(self._header) >= needed:
                break
            if position >= len(view):
                return position
            self._header.append(view[position])
            position += 1
        header = bytes(self._header)
        self._header.clear()
        self._start_frame(header, out)
        return position

    def _start_frame(self, header: bytes, out: bytearray) -> None:
        fin, opcode = bool(header[0] & 0x80), header[0] & 0x0F
        length_flag = header[1] & 0x7F
        if length_flag == 126:
            length = int.from_bytes(header[2:4], "big")
        elif length_flag == 127:
            length = int.from_bytes(header[2:10], "big")
        else:
            length = length_flag
        action = "pass"
        if opcode in (0x0, 0x1, 0x2):  # a data frame
            if opcode != 0x0:
                self._size, self._dropping = 0, False
                self._held.clear()
            self._size += length
            if self._dropping or self._size > self.limit:
                action, self._dropping = "drop", True
                self._held.clear()
            elif not fin or self._held:
                action = "hold"
        # control frames and anything malformed pass: aiohttp judges them
        self._action, self._final = action, fin and opcode in (0x0, 0x1, 0x2)
        self._route(memoryview(header), out)
        self._remaining = length
        self._in_payload = True
        if length == 0:
            self._end_frame(out)

    def _route(self, chunk: memoryview, out: bytearray) -> None:
        if self._action == "pass":
            out += chunk
        elif self._action == "hold":
            self._held += chunk

    def _end_frame(self, out: bytearray) -> None:
        self._in_payload = False
        if not self._final:
            return
        if self._dropping:
            self._dropping = False
            out += b"\x82" + bytes([len(self.marker)]) + self.marker
        elif self._held:
            out += self._held
            self._held.clear()


def _websocket_response(limit: int) -> Any:
    """A server WebSocket that answers an oversized message instead of closing."""
    from aiohttp import web

    class LimitedWebSocket(web.WebSocketResponse):
        oversized: OversizeFilter | None = None

        def _post_start(self, request: Any, protocol: Any, writer: Any) -> None:
            # aiohttp private API (pinned version; tests/server/test_hostile.py
            # checks it): put the filter in front of the frame reader it installs.
            handler = request.protocol
            tail, handler._message_tail = handler._message_tail, b""
            super()._post_start(request, protocol, writer)
            self.oversized = OversizeFilter(handler._payload_parser, limit)
            handler._payload_parser = self.oversized
            if tail:
                self.oversized.feed_data(tail)

    # aiohttp's own limit stays as a backstop, just above ours.
    return LimitedWebSocket(max_msg_size=limit + 1, compress=False)


async def serve_websocket(
    factory: HandlerFactory,
    log: MessageLog,
    limit: int,
    host: str,
    port: int,
    methods: Methods,
    timeouts: Timeouts | None = None,
) -> None:
    """Serve WebSocket peers at ``ws://host:port/`` until cancelled."""
    from aiohttp import web

    async def endpoint(request: web.Request) -> web.StreamResponse:
        socket = _websocket_response(limit)
        await socket.prepare(request)
        peer = str(request.remote)
        channel = WebSocketChannel(socket, peer, oversized=socket.oversized)
        connection = Connection(channel, log, methods)
        connection.serve_with(factory(connection))
        log.info(f"{peer} connected")
        await connection.run()
        log.info(f"{peer} disconnected ({socket.close_code})")
        response: web.StreamResponse = socket
        return response

    app = web.Application()
    app.router.add_get("/", endpoint)
    runner = web.AppRunner(app, **_server_options(timeouts or Timeouts()))
    await _run_site(runner, host, port, "ws", log)


@dataclass(frozen=True)
class Timeouts:
    """How long a network peer may take (seconds): to send a request's headers (and to
    start the next one on a kept-alive connection), and to send its body.  A slow peer
    (slowloris) is disconnected, so it holds nothing for long.
    """

    headers: float = 10.0
    body: float = 30.0


def _server_options(timeouts: Timeouts) -> dict[str, Any]:
    # aiohttp's keep-alive timer runs from the moment a connection opens (and after
    # each answer) until a request's headers are complete: a header timeout.
    # After refusing a request whose body is still coming, aiohttp reads on for a while
    # so the peer can read the answer (lingering); a second, not aiohttp's 10.
    return {
        "access_log": None,
        "handle_signals": False,
        "keepalive_timeout": timeouts.headers,
        "lingering_time": 1.0,
    }


async def _run_site(
    runner: Any, host: str, port: int, scheme: str, log: MessageLog
) -> None:
    from aiohttp import web

    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port)
        await site.start()
        server = site._server
        sockets = getattr(server, "sockets", None) or []
        bound = sockets[0].getsockname() if sockets else (host, port)
        shown = f"[{bound[0]}]" if ":" in bound[0] else bound[0]
        log.info(f"listening on {scheme}://{shown}:{bound[1]}/")
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()


async def connect_websocket(
    url: str,
    handlers: Callable[[Session], Mapping[str, Handler]],
    *,
    limit: int = DEFAULT_MAX_MESSAGE_BYTES,
    log: MessageLog = QUIET,
    methods: Methods | None = None,
) -> Connection:
    """Connect to a WebSocket server."""
    import aiohttp

    http = aiohttp.ClientSession()
    try:
        socket = await http.ws_connect(url, max_msg_size=limit)
    except (aiohttp.ClientError, OSError, ValueError) as error:
        await http.close()
        raise TransportError(f"cannot connect to {_short(url)}: {error}") from error
    except BaseException:
        await http.close()
        raise

    async def close() -> None:
        await socket.close()
        await runner
        await http.close()

    connection = Connection(WebSocketChannel(socket, url, close), log, methods)
    connection.serve_with(handlers(connection))
    runner = asyncio.ensure_future(connection.run())
    return connection


# -------------------------------------------------------------- HTTP POST envelopes


async def handle_envelope(
    dispatcher: Dispatcher, body: bytes
) -> tuple[int, JsonObject]:
    """``{method, params, settings}`` → (HTTP status, ``{result}`` or ``{error}``)."""
    try:
        message = loads(body)
        if not isinstance(message, dict):
            raise RpcError(INVALID_REQUEST, "invalid request: not a JSON object")
        method = message.get("method")
        if not isinstance(method, str):
            raise RpcError(
                INVALID_REQUEST, 'invalid request: "method" must be a string'
            )
        settings = message.get("settings")
        if "settings" in message and not isinstance(settings, dict):
            raise RpcError(
                INVALID_REQUEST, 'invalid request: "settings" must be an object'
            )
    except RpcError as error:
        return 400, {"error": error.to_json()}
    try:
        result = await dispatcher.call(
            method, "params" in message, message.get("params")
        )
    except RpcError as error:
        return 200, {"error": error.to_json()}
    return 200, {"result": result}


async def serve_http(
    factory: HandlerFactory,
    log: MessageLog,
    limit: int,
    host: str,
    port: int,
    methods: Methods,
    timeouts: Timeouts | None = None,
) -> None:
    """Serve HTTP POST envelopes at ``http://host:port/`` until cancelled."""
    from aiohttp import web

    limits = timeouts or Timeouts()
    dispatcher = Dispatcher(factory(NoPeer()), log, methods)

    def refuse(status: int, error: RpcError) -> web.Response:
        response = web.json_response({"error": error.to_json()}, status=status)
        response.force_close()  # the rest of the body, if any, is not read
        return response

    async def endpoint(request: web.BaseRequest) -> web.StreamResponse:
        peer = str(request.remote)
        if request.path != "/":
            return web.Response(status=404, text="not found: POST to /\n")
        if request.method != "POST":
            return web.Response(status=405, headers={"Allow": "POST"})
        try:
            async with asyncio.timeout(limits.body):
                body = await _read_body(request, limit)
        except MessageTooLarge as error:
            log.info(f"{peer}: {error}")
            return refuse(413, RpcError(INVALID_REQUEST, f"invalid request: {error}"))
        except TimeoutError:
            log.info(f"{peer}: body not received within {limits.body:g} s")
            failure = f"invalid request: body not received within {limits.body:g} s"
            return refuse(408, RpcError(INVALID_REQUEST, failure))
        except (ConnectionError, ValueError) as error:  # the peer ended it early
            log.info(f"{peer}: incomplete body ({error})")
            failure = "invalid request: the body ended before its declared length"
            return refuse(400, RpcError(INVALID_REQUEST, failure))
        log.message("in", peer, body)
        status, answer = await handle_envelope(dispatcher, body)
        text = dumps(answer)
        log.message("out", peer, text)
        return web.Response(text=text, status=status, content_type="application/json")

    server = _half_close_server(endpoint, _server_options(limits))
    await _run_site(web.ServerRunner(server), host, port, "http", log)


async def _read_body(request: Any, limit: int) -> bytes:
    """The request body, or ``MessageTooLarge`` as soon as it is over ``limit``."""
    declared = request.content_length
    if declared is not None and declared > limit:
        raise MessageTooLarge(limit)
    if getattr(request.protocol, "peer_done", False) and not request.content.is_eof():
        request.content.feed_eof()  # EOF came before this request's handler started
    body = bytearray()
    async for chunk in request.content.iter_chunked(65536):
        body += chunk
        if len(body) > limit:
            raise MessageTooLarge(limit)
    if declared is not None and len(body) < declared:
        raise ConnectionResetError("closed before the whole body")
    return bytes(body)


def _half_close_server(handler: Any, options: dict[str, Any]) -> Any:
    """An aiohttp server whose connections survive the peer's half-close: a client that
    sends its request and then shuts down its sending side (``shutdown(SHUT_WR)``, as
    ``curl``-like tools and ``nc -N`` do) still gets its answer, then the connection is
    closed; one that stops mid-request is answered 400 or closed cleanly.
    """
    from aiohttp import web
    from aiohttp.web_protocol import RequestHandler

    class HalfCloseHandler(RequestHandler):
        peer_done = False  # the peer sent EOF: bodies are as long as they will get

        def eof_received(self) -> bool:  # type: ignore[override]  # asyncio's contract
            # aiohttp private state (pinned version; tests/server/test_hostile.py).
            self.peer_done = True
            payloads = [payload for _, payload in self._messages]
            if self._current_request is not None:
                payloads.append(self._current_request.content)
            for payload in payloads:  # a request between them is seen by _read_body
                if not payload.is_eof():
                    payload.feed_eof()
            if self._waiter is not None and not self._waiter.done():
                self.force_close()  # idle, or headers cut short: nothing to answer
                return False
            self.close()  # answer the request under way, accept nothing more
            return True  # keep our sending side open for that answer

    class HalfCloseServer(web.Server):
        def __call__(self) -> RequestHandler:
            return HalfCloseHandler(self, loop=self._loop, **self._kwargs)

    server_options = {k: v for k, v in options.items() if k != "handle_signals"}
    return HalfCloseServer(handler, **server_options)


class HttpSession:
    """A client of an HTTP POST envelope server (one POST per request)."""

    def __init__(
        self,
        url: str,
        settings: Mapping[str, Any] | None,
        log: MessageLog = QUIET,
        methods: Methods | None = None,
    ) -> None:
        import aiohttp

        self.methods = package_methods() if methods is None else methods
        self.url = url
        self.settings = dict(settings) if settings is not None else None
        self.log = log
        self._http = aiohttp.ClientSession()

    async def request_raw(self, message: JsonObject) -> JsonObject:
        """POST an envelope as given (no validation); the decoded answer."""
        text = dumps(message)
        self.log.message("out", self.url, text)
        import aiohttp

        try:
            async with self._http.post(
                self.url, data=text, headers={"Content-Type": "application/json"}
            ) as response:
                body = await response.read()
        except (aiohttp.ClientError, OSError, ValueError) as error:
            raise TransportError(f"POST {_short(self.url)}: {error}") from error
        self.log.message("in", self.url, body)
        answer = loads(body)
        if not isinstance(answer, dict):
            raise RpcError(INTERNAL_ERROR, f"malformed answer: {_short(answer)}")
        return answer

    async def request(self, method: str, params: Any) -> Any:
        info = self.methods[method]
        message: JsonObject = {"method": method}
        if info.params is not None and params is not None:
            # None: optional params left out (JSON-RPC has no ``"params": null``).
            message["params"] = info.params.serializer.to_python(
                params, mode="json", by_alias=True
            )
        if self.settings is not None:
            message["settings"] = self.settings
        answer = await self.request_raw(message)
        if "error" in answer:
            raise RpcError.from_json(answer["error"])
        if info.result is None:
            return None
        result = answer.get("result")
        return info.result.validator.validate_python(result, by_name=False)

    async def notify(self, method: str, params: Any) -> None:
        await self.request(method, params)

    async def close(self) -> None:
        await self._http.close()


# ------------------------------------------------------------------- command line

TRANSPORTS: Final = {
    "ndjson-stdio": "stdio",
    "websocket": "websocket",
    "http-post": "http",
}


def failing(
    handlers: Mapping[str, Handler], failures: Mapping[str, RpcError]
) -> dict[str, Handler]:
    """``handlers`` with the named methods answering the given errors instead."""
    out = dict(handlers)
    for method, error in failures.items():

        async def fail(_params: Any, error: RpcError = error) -> Any:
            raise error

        out[method] = fail
    return out


def without_params(call: Callable[[], Awaitable[Any]]) -> Handler:
    """A handler for a method that carries no params."""

    async def handler(_params: Any) -> Any:
        return await call()

    return handler


def _parse_failures(
    items: Sequence[str], errors: Mapping[int, str], methods: Methods
) -> dict[str, RpcError]:
    """``METHOD=CODE`` items; a ``ValueError`` says what is wrong with one."""
    out: dict[str, RpcError] = {}
    for item in items:
        method, _, code = item.rpartition("=")
        if method not in methods:
            known = ", ".join(sorted(methods))
            raise ValueError(f"--fail: unknown method {method!r} (methods: {known})")
        try:
            number = int(code)
        except ValueError:
            raise ValueError(f"--fail: {code!r} is not an integer error code") from None
        out[method] = RpcError(number, errors.get(number, "stub failure"))
    return out


MIN_MESSAGE_BYTES: Final = 64


def _port(text: str) -> int:
    """An argparse type: a TCP port, 0 (any free one) to 65535."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"{number} is not a port (0 to 65535)")
    return number


def _message_bytes(text: str) -> int:
    """An argparse type: a message size limit of at least ``MIN_MESSAGE_BYTES``."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of bytes") from None
    if number < MIN_MESSAGE_BYTES:
        raise argparse.ArgumentTypeError(
            f"{number} is too small (at least {MIN_MESSAGE_BYTES} bytes)"
        )
    return number


def event_loop_factory(
    choice: str = "auto",
) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The event loop a server runs on: uvloop's when ``choice`` is "uvloop", or "auto"
    and uvloop is installed (it serves the same transports with less CPU per message);
    None for asyncio's own.  Raises ``ImportError`` for "uvloop" without uvloop."""
    if choice == "asyncio":
        return None
    try:
        uvloop = import_module("uvloop")  # optional: the package needs pydantic only
    except ImportError:
        if choice == "uvloop":
            raise
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def main(
    argv: Sequence[str] | None,
    *,
    name: str,
    framings: Sequence[str],
    factory: HandlerFactory,
    errors: Mapping[int, str],
    methods: Methods,
) -> int:
    """``python -m <package>.server``: parse options, serve until EOF or a signal."""
    choices = [TRANSPORTS[framing] for framing in framings if framing in TRANSPORTS]
    parser = argparse.ArgumentParser(
        prog=f"python -m {name}.server", description=f"Stub server of {name}."
    )
    parser.add_argument(
        "--transport", choices=choices, default=choices[0] if choices else None
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument(
        "--port", type=_port, default=0, help="0 to 65535; 0: an ephemeral port"
    )
    parser.add_argument("--transcript", help="append every message to this JSONL file")
    parser.add_argument(
        "--max-message-bytes",
        type=_message_bytes,
        default=DEFAULT_MAX_MESSAGE_BYTES,
        help=f"refuse messages over this size (at least {MIN_MESSAGE_BYTES})",
    )
    parser.add_argument("--quiet", action="store_true", help="no per-message log")
    parser.add_argument(
        "--loop",
        choices=("auto", "uvloop", "asyncio"),
        default="auto",
        help="event loop: uvloop (a C loop, about a fifth less CPU per message) or "
        "asyncio's own; auto: uvloop when installed",
    )
    parser.add_argument(
        "--header-timeout",
        type=float,
        default=Timeouts.headers,
        metavar="SECONDS",
        help="network transports: a peer must send a request's headers within this",
    )
    parser.add_argument(
        "--body-timeout",
        type=float,
        default=Timeouts.body,
        metavar="SECONDS",
        help="HTTP: a peer must send a request's body within this",
    )
    parser.add_argument(
        "--fail",
        action="append",
        default=[],
        metavar="METHOD=CODE",
        help="answer METHOD with error CODE (the protocol's codes carry their names)",
    )
    options = parser.parse_args(argv)
    if not choices:
        parser.error("the spec declares no transport this server can serve")
    try:
        loop_factory = event_loop_factory(options.loop)
    except ImportError:
        parser.error("--loop uvloop: uvloop is not installed (pip install uvloop)")
    try:
        failures = _parse_failures(options.fail, errors, methods)
    except ValueError as error:
        parser.error(str(error))

    def build(session: Session) -> Mapping[str, Handler]:
        return failing(factory(session), failures)

    try:
        log = MessageLog(name, quiet=options.quiet, transcript=options.transcript)
    except OSError as error:
        parser.error(
            f"--transcript: cannot open {options.transcript}: {error.strerror}"
        )
    limit = options.max_message_bytes
    timeouts = Timeouts(
        max(options.header_timeout, 0.01), max(options.body_timeout, 0.01)
    )
    if options.transport == "stdio":
        serving: Awaitable[None] = serve_stdio(build, log, limit, methods)
    elif options.transport == "websocket":
        serving = serve_websocket(
            build, log, limit, options.host, options.port, methods, timeouts
        )
    else:
        serving = serve_http(
            build, log, limit, options.host, options.port, methods, timeouts
        )
    try:
        with asyncio.Runner(loop_factory=loop_factory) as runner:
            runner.run(_until_signal(serving, log))
    except KeyboardInterrupt:
        pass
    except OSError as error:  # the port is taken, the host is not ours, ...
        if options.transport == "stdio":
            raise
        reason = error.strerror or str(error)
        where = f"{options.host}:{options.port}"
        print(
            f"{parser.prog}: error: cannot listen on {where}: {reason}", file=sys.stderr
        )
        return 1
    finally:
        log.close()
    return 0


async def _until_signal(serving: Awaitable[None], log: MessageLog) -> None:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(number, stop.set)
    server = asyncio.ensure_future(serving)
    stopper = asyncio.ensure_future(stop.wait())
    done, _ = await asyncio.wait({server, stopper}, return_when=asyncio.FIRST_COMPLETED)
    for task in (server, stopper):
        task.cancel()
    await asyncio.gather(server, stopper, return_exceptions=True)
    if server in done and not server.cancelled():
        error = server.exception()
        if error is not None:
            raise error
    log.info("stopped" if stopper in done else "end of input")
