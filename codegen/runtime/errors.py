"""Error codes, the exceptions a peer or a transport raises, and message size limits.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: none (constants and exception classes).
Outputs: JSON-RPC 2.0's standard codes, ``RpcError`` (an error answer, either way),
``TransportError`` (the peer could not be reached), ``MessageTooLarge``, the default
message size limit, ``JsonObject`` and ``short`` (a text cut to a length).
Guarantees: imports only the standard library; an ``RpcError``'s text never fails to
build (circular data is shown by ``repr``) and shows its data cut to 2,000 characters.
"""

from __future__ import annotations

import json
from typing import Any, Final

PARSE_ERROR: Final = -32700
INVALID_REQUEST: Final = -32600
METHOD_NOT_FOUND: Final = -32601
INVALID_PARAMS: Final = -32602
INTERNAL_ERROR: Final = -32603
DEFAULT_MAX_MESSAGE_BYTES: Final = 16 * 1024 * 1024
DEFAULT_TIMEOUT: Final = 30.0
"""Seconds a client waits to connect, for an answer, or to close, unless told otherwise."""
MAX_ERROR_TEXT: Final = 2000
"""Characters of a peer's error message (and of its data) an error's text shows."""


JsonObject = dict[str, Any]


class RpcError(Exception):
    """An error answer: raise it from a handler to answer with ``code`` (the protocol's
    own codes included); a client raises it when the peer answered with an error.
    """

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        # A peer's text, cut and with control characters escaped: printing an error
        # must not flood a terminal or drive it with escape sequences.
        text = f"{code}: {printable(short(message, MAX_ERROR_TEXT))}"
        if data is not None:
            try:
                detail = json.dumps(data, ensure_ascii=False, default=repr)
            except ValueError:  # a circular structure
                detail = repr(data)
            text += f" (data: {printable(short(detail, MAX_ERROR_TEXT))})"
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


class TransportTimeout(TransportError, TimeoutError):
    """The peer did not answer (or connect, or take what was sent, or close) within the
    time limit: ``operation`` names what timed out (the method of a request, or
    "connect", "send", "close") and ``limit`` the seconds waited.
    """

    def __init__(self, operation: str, limit: float, peer: str = "") -> None:
        where = f" ({short(peer)})" if peer else ""
        super().__init__(f"{operation}: no answer within {limit:g} s{where}")
        self.operation = operation
        self.limit = limit


class InvalidResult(RpcError):
    """The peer answered a request with a result that is not what the spec says: the
    problems (each with its JSON pointer into the result) are in ``data``, the result
    as received in ``result``.
    """

    def __init__(self, method: str, details: JsonObject, result: Any) -> None:
        super().__init__(INTERNAL_ERROR, f"invalid result of {method}", details)
        self.method = method
        self.result = result


class MessageTooLarge(Exception):
    """A message over the size limit was discarded without being read whole."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"message too large (limit {limit} bytes)")
        self.limit = limit


def short(text: object, limit: int = 120) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis says it was)."""
    shown = str(text)
    return shown if len(shown) <= limit else shown[:limit] + "…"


def printable(text: str) -> str:
    """``text`` with control characters (C0, DEL, C1) escaped as ``\\xNN``: safe to
    print to a terminal (no escape sequences, no carriage returns rewriting a line)."""
    if text.isprintable():
        return text
    return text.translate(_CONTROL_ESCAPES)


_CONTROL_ESCAPES: Final = {
    code: f"\\x{code:02x}" for code in (*range(0x20), *range(0x7F, 0xA0))
}
