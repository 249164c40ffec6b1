"""The JSON-RPC runtime of every generated package, copied verbatim as ``<pkg>/_rpc/``.

Phase: runtime (not run by codegen itself: each generated package carries a copy).
Inputs: the package's method registry (``METHODS``: wire name → ``MethodInfo`` with the
pydantic adapters of params and result), handlers by wire name, and a transport.
Outputs: what the package's generated modules and its users need, re-exported here from
the modules that hold it, one concern each:

- ``requirement``: the pydantic releases it works with, checked on import;
- ``errors``: error codes, ``RpcError``, ``TransportError`` (``TransportTimeout``),
  ``InvalidResult``, ``MessageTooLarge``;
- ``codec``: JSON in (``loads``) and out (``dumps``, ``dumps_plain``);
- ``registry``: ``MethodInfo``, ``Methods``, ``Handler``;
- ``pointers``: validation errors as JSON pointers;
- ``log``: ``MessageLog`` (stderr lines, a JSONL transcript);
- ``dispatch``: the JSON-RPC 2.0 layer of a server (``Dispatcher``, ``handle_request``);
- ``tasks``: eager tasks (``TaskStarter``);
- ``deadlines``: a client's request deadlines, one timer per connection;
- ``interfaces``: ``Channel``, ``Session``, ``HandlerFactory``, ``NoPeer``;
- ``connection``: ``Connection``, a JSON-RPC endpoint over one channel;
- ``framing``: newline-delimited JSON over pipes (``LineReader``, ``PipeChannel``);
- ``content_length``: ``Content-Length`` framing over pipes (``content-length-stdio``);
- ``stdio``: ``serve_stdio``, ``connect_stdio``;
- ``oversize``, ``websocket``: the WebSocket transport;
- ``network``: what the network servers share (``Timeouts``);
- ``access``: Origin and Host allow-lists of the network servers (``Access``);
- ``envelope``, ``http_client``: HTTP POST envelopes, server and client;
- ``client``: ``Connecting``, how a typed client is connected;
- ``command``: ``python -m <pkg>.server``.
- ``event_envelope`` (not re-exported, and only in packages of ``kind =
  "event-envelope"``): DAP's request/response/event envelope, server and client.

Guarantees: imports nothing of codegen (a test enforces it), only the standard library and
pydantic (with its pydantic-core); aiohttp is imported only by the WebSocket and HTTP
transports, when they are used, and uvloop only by the server command, when installed.
What differs per protocol (the registry, the transports, the error names) is passed in
by the package's small generated modules, so this one package serves every protocol.
"""

from __future__ import annotations

from .requirement import PYDANTIC_REQUIREMENT  # first: refuses an unfit pydantic

# isort: split
from .access import Access
from .client import Connecting
from .codec import dumps, dumps_plain, id_key, loads
from .command import (
    MIN_MESSAGE_BYTES,
    TRANSPORTS,
    event_loop_factory,
    failing,
    main,
    without_params,
)
from .connection import INBOX_LIMIT, Connection
from .dispatch import Dispatcher, error_response, handle_request
from .envelope import handle_envelope, serve_http
from .errors import (
    DEFAULT_MAX_MESSAGE_BYTES,
    DEFAULT_TIMEOUT,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    MAX_ERROR_TEXT,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    InvalidResult,
    JsonObject,
    MessageTooLarge,
    RpcError,
    TransportError,
    TransportTimeout,
    printable,
)
from .framing import LineReader, PipeChannel
from .http_client import HttpSession
from .interfaces import Channel, HandlerFactory, NoPeer, Session
from .log import QUIET, MessageLog
from .network import Timeouts
from .oversize import OversizeFilter
from .pointers import MAX_REPORTED_ERRORS, json_pointer, validation_details
from .registry import Handler, MethodInfo, Methods, package_methods
from .stdio import connect_stdio, serve_stdio
from .tasks import TaskStarter
from .websocket import WebSocketChannel, connect_websocket, serve_websocket

__all__ = [
    "DEFAULT_MAX_MESSAGE_BYTES",
    "DEFAULT_TIMEOUT",
    "INBOX_LIMIT",
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "MAX_ERROR_TEXT",
    "MAX_REPORTED_ERRORS",
    "METHOD_NOT_FOUND",
    "MIN_MESSAGE_BYTES",
    "PARSE_ERROR",
    "PYDANTIC_REQUIREMENT",
    "QUIET",
    "TRANSPORTS",
    "Access",
    "Channel",
    "Connecting",
    "Connection",
    "Dispatcher",
    "Handler",
    "HandlerFactory",
    "HttpSession",
    "InvalidResult",
    "JsonObject",
    "LineReader",
    "MessageLog",
    "MessageTooLarge",
    "MethodInfo",
    "Methods",
    "NoPeer",
    "OversizeFilter",
    "PipeChannel",
    "RpcError",
    "Session",
    "TaskStarter",
    "Timeouts",
    "TransportError",
    "TransportTimeout",
    "WebSocketChannel",
    "connect_stdio",
    "connect_websocket",
    "dumps",
    "dumps_plain",
    "error_response",
    "event_loop_factory",
    "failing",
    "handle_envelope",
    "handle_request",
    "id_key",
    "json_pointer",
    "loads",
    "main",
    "package_methods",
    "printable",
    "serve_http",
    "serve_stdio",
    "serve_websocket",
    "validation_details",
    "without_params",
]
