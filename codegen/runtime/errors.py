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


JsonObject = dict[str, Any]


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
            text += f" (data: {short(detail, 2000)})"
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


class MessageTooLarge(Exception):
    """A message over the size limit was discarded without being read whole."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"message too large (limit {limit} bytes)")
        self.limit = limit


def short(text: object, limit: int = 120) -> str:
    shown = str(text)
    return shown if len(shown) <= limit else shown[:limit] + "…"
