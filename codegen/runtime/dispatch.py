"""The JSON-RPC 2.0 layer of a server: requests validated, handled, answered.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: handlers by wire name, the method registry, one decoded request object.
Outputs: ``read_params`` (also ``codegen validate``'s reading), ``Dispatcher`` (params validated on the way in, results validated on the way
out), ``handle_request`` (a request object → its response, or None for a notification),
its two halves for a connection (``open_request``: checked and read, ready for the
handler; ``close_request_text``/``close_request``: the answer to what it returned) and
``error_response``.
Guarantees: every failure becomes an ``RpcError`` answer (a handler bug, or a params
validator's own, answers -32603; its traceback goes to the log only); pydantic-core's
validator and serializer are called directly, not through ``TypeAdapter``'s forwarding
methods (a Python call saved on every message); a result is validated as the text sent,
and a text that validated before (the same method, the same bytes) is not validated again.
"""

from __future__ import annotations

import traceback
from collections.abc import Mapping
from typing import Any, Final

from pydantic import ValidationError
from pydantic_core import to_json

from .errors import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    JsonObject,
    RpcError,
    short,
)
from .log import MessageLog
from .pointers import validation_details
from .registry import Handler, MethodInfo, Methods, package_methods


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
    # pydantic-core's validator itself (here and below): TypeAdapter's methods only
    # forward to it, at the cost of a Python call on every message.
    return info.params.validator.validate_python(params, by_name=False)


REMEMBERED_TEXTS: Final = 256
"""Valid result texts a dispatcher remembers (not validated again when answered again)."""
REMEMBERED_TEXT: Final = 16384
"""Bytes of the longest result text a dispatcher remembers as valid."""


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
        # Result texts that validated, per method: validating the same text gives the
        # same verdict, so a handler answering what it answered before (a stub, an
        # acknowledgement) is not validated again.  Bounded: small texts only, and
        # forgotten all at once when full.
        self.valid_texts: set[tuple[str, bytes]] = set()

    def info(self, method: str) -> MethodInfo:
        info = self.methods.get(method)
        if info is None or method not in self.handlers:
            raise RpcError(METHOD_NOT_FOUND, f"method not found: {short(method)}")
        return info

    def read(self, info: MethodInfo, method: str, has_params: bool, params: Any) -> Any:
        """The params as the handler gets them, or ``RpcError`` (invalid params)."""
        try:
            return read_params(info, method, has_params, params)
        except ValidationError as error:
            message = "invalid params" if has_params else "params are required"
            raise RpcError(
                INVALID_PARAMS,
                f"{message} for {method}",
                validation_details(error, params if has_params else {}),
            ) from None
        except RpcError:
            raise
        except Exception:  # noqa: BLE001 - a validator's own bug answers -32603
            self.log.info(
                f"reading params of {method} failed:\n{traceback.format_exc()}"
            )
            raise RpcError(INTERNAL_ERROR, "internal error") from None

    def failed(self, method: str, error: Exception) -> RpcError:
        """What a handler's exception answers: its own ``RpcError``, else -32603 (the
        traceback goes to the log only)."""
        if isinstance(error, RpcError):
            return error
        self.log.info(f"handler of {method} failed:\n{_traceback(error)}")
        return RpcError(INTERNAL_ERROR, "internal error")

    def written(self, info: MethodInfo, method: str, result: Any) -> Any:
        """The JSON result of a handler's return value, validated as the spec says
        (None for a notification); ``RpcError`` (-32603) for one that is not."""
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

    async def call(self, method: str, has_params: bool, params: Any) -> Any:
        """The JSON result of one call (None for a notification)."""
        info = self.info(method)
        value = self.read(info, method, has_params, params)
        try:
            result = await self.handlers[method](value)
        except Exception as error:  # noqa: BLE001 - any handler bug answers -32603
            raise self.failed(method, error) from None
        return self.written(info, method, result)


def _traceback(error: BaseException) -> str:
    return "".join(traceback.format_exception(error))


def _is_id(value: Any) -> bool:
    return value is None or (
        isinstance(value, (str, int, float)) and not isinstance(value, bool)
    )


def error_response(request_id: Any, error: RpcError) -> JsonObject:
    return {"jsonrpc": "2.0", "id": request_id, "error": error.to_json()}


Call = tuple[Any, bool, str, MethodInfo, Handler, Any]
"""A request ready for its handler: (id, is a notification, method, its info, the
handler, the params as it gets them)."""


def open_request(dispatcher: Dispatcher, message: Any) -> Call | JsonObject | None:
    """A request object checked and its params read, ready for its handler (a
    ``Call``); else the error response it gets (None for a notification, which is
    never answered).  The synchronous part of ``handle_request``."""
    if not isinstance(message, dict):
        return error_response(
            None, RpcError(INVALID_REQUEST, "invalid request: not a JSON object")
        )
    notification = "id" not in message
    request_id = message.get("id")
    if request_id is not None and (
        type(request_id) not in (str, int, float) and not _is_id(request_id)
    ):
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
        has_params = "params" in message
        params = message.get("params")
        if has_params and not isinstance(params, (dict, list)):
            raise RpcError(
                INVALID_REQUEST, 'invalid request: "params" must be an object or array'
            )
        info = dispatcher.methods.get(method)
        handler = dispatcher.handlers.get(method)
        if info is None or handler is None:
            raise RpcError(METHOD_NOT_FOUND, f"method not found: {short(method)}")
        if info.kind == "notification" and not notification:
            raise RpcError(
                INVALID_REQUEST,
                f"invalid request: {method} is a notification; send it without an id",
            )
        adapter = info.params
        if adapter is not None and has_params:  # the common case inline
            try:
                value = adapter.validator.validate_python(params, by_name=False)
            except Exception:  # noqa: BLE001 - read again, by the reading that says why
                value = dispatcher.read(info, method, has_params, params)
        else:
            value = dispatcher.read(info, method, has_params, params)
    except RpcError as error:
        return answer_error(dispatcher, request_id, notification, error)
    return (request_id, notification, method, info, handler, value)


def answer_error(
    dispatcher: Dispatcher, request_id: Any, notification: bool, error: RpcError
) -> JsonObject | None:
    """The error response to a request; None for a notification (logged, unless its
    envelope was invalid)."""
    if notification and error.code not in (INVALID_REQUEST,):
        dispatcher.log.info(f"notification dropped: {error.message}")
        return None
    return error_response(request_id, error)


def close_request_text(
    dispatcher: Dispatcher, call: Call, result: Any, end: bytes = b""
) -> bytes | None:
    """``close_request``'s answer as JSON text, written by pydantic-core straight from
    the handler's value and validated as text (no Python copy of the result, no
    second writing of it); None where only ``close_request`` can say what to answer
    (a notification, a result that does not write or validate, an id or a string the
    fast writer refuses: a lone surrogate), which then decides on its own.  ``end``:
    bytes written after the text (a pipe's newline, without a copy of the answer)."""
    request_id, notification, _, info, _, _ = call
    adapter = info.result
    if notification or adapter is None:
        return None
    try:
        text = adapter.serializer.to_json(result, by_alias=True, warnings="error")
        key = (call[2], text)
        valid = dispatcher.valid_texts
        if key not in valid:  # remembered: valid, and free of NaN and Infinity
            adapter.validator.validate_json(text, by_name=False)
            # In a string, or a float JSON lacks.  (``find``, not ``in``: bytes'
            # ``in`` tries its operand as an integer first, and the TypeError it
            # clears costs more.)
            if text.find(b"NaN") >= 0 or text.find(b"Infinity") >= 0:
                return None
            if len(text) <= REMEMBERED_TEXT:
                if len(valid) >= REMEMBERED_TEXTS:
                    valid.clear()
                valid.add(key)
        ident = b"%d" % request_id if type(request_id) is int else to_json(request_id)
    except Exception:  # noqa: BLE001 - close_request says why, and answers it
        return None
    return b'{"jsonrpc":"2.0","id":%b,"result":%b}%b' % (ident, text, end)


def close_request(dispatcher: Dispatcher, call: Call, result: Any) -> JsonObject | None:
    """The response to a ``Call`` whose handler returned ``result`` (None for a
    notification)."""
    request_id, notification, method, info, _, _ = call
    try:
        written = dispatcher.written(info, method, result)
    except RpcError as error:
        return answer_error(dispatcher, request_id, notification, error)
    if notification:
        return None
    return {"jsonrpc": "2.0", "id": request_id, "result": written}


def fail_request(
    dispatcher: Dispatcher, call: Call, error: Exception
) -> JsonObject | None:
    """The response to a ``Call`` whose handler raised ``error``."""
    request_id, notification, method = call[0], call[1], call[2]
    return answer_error(
        dispatcher, request_id, notification, dispatcher.failed(method, error)
    )


async def handle_request(dispatcher: Dispatcher, message: Any) -> JsonObject | None:
    """The response to one request object, or None for a notification."""
    call = open_request(dispatcher, message)
    if not isinstance(call, tuple):
        return call
    try:
        result = await call[4](call[5])
    except Exception as error:  # noqa: BLE001 - any handler bug answers -32603
        return fail_request(dispatcher, call, error)
    return close_request(dispatcher, call, result)
