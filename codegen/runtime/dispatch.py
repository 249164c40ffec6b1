"""The JSON-RPC 2.0 layer of a server: requests validated, handled, answered.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: handlers by wire name, the method registry, one decoded request object.
Outputs: ``read_params`` (also ``codegen validate``'s reading), ``Dispatcher`` (params validated on the way in, results validated on the way
out), ``handle_request`` (a request object → its response, or None for a notification)
and ``error_response``.
Guarantees: every failure becomes an ``RpcError`` answer (a handler bug answers -32603;
its traceback goes to the log only); pydantic-core's validator and serializer are called
directly, not through ``TypeAdapter``'s forwarding methods (a Python call saved on every
message).
"""

from __future__ import annotations

import traceback
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

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
            raise RpcError(METHOD_NOT_FOUND, f"method not found: {short(method)}")
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
                validation_details(error, params if has_params else {}),
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
