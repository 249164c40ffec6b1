"""The WebSocket transport (aiohttp): one JSON-RPC message per text frame, either side.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: handlers (a factory given the peer's session), a size limit, a host and port
or a URL.
Outputs: ``WebSocketChannel``, ``serve_websocket`` (until cancelled) and
``connect_websocket`` (a ``Connection`` to a server).
Guarantees: aiohttp is imported only when a WebSocket is used; a message over the limit
is answered -32600 and the connection goes on (``OversizeFilter``); a connection that
cannot be made is a ``TransportError``.
"""

from __future__ import annotations

import asyncio
import functools
import sys
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from .access import Access
from .connection import Connection
from .errors import (
    DEFAULT_MAX_MESSAGE_BYTES,
    MessageTooLarge,
    TransportError,
    TransportTimeout,
    short,
)
from .interfaces import HandlerFactory, Session
from .log import QUIET, MessageLog
from .network import SHUTDOWN_GRACE, Timeouts, run_site, server_options
from .oversize import OversizeFilter
from .registry import Handler, Methods


class _Kinds:
    """aiohttp's message kinds the channel tells apart (imported on first use: the
    package needs aiohttp only for WebSocket)."""

    def __init__(self) -> None:
        from aiohttp import WSMsgType

        self.data = (WSMsgType.TEXT, WSMsgType.BINARY)
        self.error = WSMsgType.ERROR
        self.text = WSMsgType.TEXT


@functools.cache
def _kinds() -> _Kinds:
    return _Kinds()


class WebSocketChannel:
    """One message per WebSocket text frame (aiohttp, either side)."""

    def __init__(
        self,
        socket: Any,
        peer: str,
        on_close: Callable[[], Awaitable[None]] | None = None,
        oversized: OversizeFilter | None = None,
        send_timeout: float | None = None,
        abort: Callable[[], None] | None = None,
    ) -> None:
        self.socket = socket
        self.peer = peer
        self._on_close = on_close
        self._abort = abort
        self._oversized = oversized
        self._send_timeout = send_timeout  # a client's: a peer that does not read

    async def receive(self) -> str | bytes | None:
        kinds = _kinds()
        message = await self.socket.receive()
        if message.type in kinds.data:
            data: str | bytes = message.data
            if self._oversized is not None and data == self._oversized.marker:
                raise MessageTooLarge(self._oversized.limit)
            return data
        if message.type is kinds.error:  # e.g. over max_msg_size: closed, 1009
            print(f"websocket {self.peer}: {message.data}", file=sys.stderr)
        return None

    async def send(self, data: str | bytes) -> None:
        if self._send_timeout is None:
            await self._send(data)
            return
        try:
            async with asyncio.timeout(self._send_timeout):
                await self._send(data)
        except TimeoutError:
            raise TransportTimeout("send", self._send_timeout, self.peer) from None

    def _send(self, data: str | bytes) -> Awaitable[None]:
        """One text frame: UTF-8 bytes (what the answers' writer gives) go out as they
        are where aiohttp sends a frame of given bytes (``send_frame``), not decoded
        only to be encoded again."""
        if isinstance(data, bytes):
            frame = getattr(self.socket, "send_frame", None)
            if frame is not None:
                result: Awaitable[None] = frame(data, _kinds().text)
                return result
            data = data.decode()
        sent: Awaitable[None] = self.socket.send_str(data)
        return sent

    async def close(self) -> None:
        if self._on_close is not None:
            await self._on_close()
        else:
            await self.socket.close()

    def abort(self) -> None:
        """Drop the connection now (a peer that does not read would hold a close)."""
        if self._abort is not None:
            self._abort()


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
            self.oversized = OversizeFilter(
                handler._payload_parser, limit, queue=self._reader
            )
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
    access: Access | None = None,
) -> None:
    """Serve WebSocket peers at ``ws://host:port/`` until cancelled; ``access``: the
    hosts and origins answered besides loopback ones (403 for the others)."""
    from aiohttp import web

    allowed = access or Access()

    async def endpoint(request: web.Request) -> web.StreamResponse:
        refused = allowed.refusal(request.host, request.headers.get("Origin"))
        if refused is not None:
            log.info(f"{request.remote}: refused: {refused}")
            return web.Response(status=403, text=f"forbidden: {refused}\n")
        socket = _websocket_response(limit)
        await socket.prepare(request)
        peer = str(request.remote)
        transport = request.transport
        channel = WebSocketChannel(
            socket,
            peer,
            oversized=socket.oversized,
            abort=None if transport is None else transport.abort,
        )
        connection = Connection(channel, log, methods)
        connection.serve_with(factory(connection))
        log.status(f"{peer} connected")
        try:
            await connection.run()
        except asyncio.CancelledError:
            # The server stops (SIGTERM): a peer that does not read would hold a
            # polite close (its frame unsent, then 10 s for an answer); drop it.
            if transport is not None:
                transport.abort()
            raise
        finally:
            if socket.oversized is not None:  # its unfinished message: budget back
                socket.oversized.release()
        log.status(f"{peer} disconnected ({socket.close_code})")
        response: web.StreamResponse = socket
        return response

    app = web.Application()
    app.router.add_get("/", endpoint)
    options = server_options(timeouts or Timeouts())
    runner = web.AppRunner(app, shutdown_timeout=SHUTDOWN_GRACE, **options)
    await run_site(runner, host, port, "ws", log)


async def connect_websocket(
    url: str,
    handlers: Callable[[Session], Mapping[str, Handler]],
    *,
    limit: int = DEFAULT_MAX_MESSAGE_BYTES,
    log: MessageLog = QUIET,
    methods: Methods | None = None,
    timeout: float | None = None,
    cancel: tuple[str, str] | None = None,
) -> Connection:
    """Connect to a WebSocket server.

    ``timeout``: seconds to connect (the handshake included), for a request's answer
    (the default of each call), for a send and to close (None: no limit); ``cancel``:
    the notification sent when a request times out, as (method, params key of the
    request's id)."""
    import aiohttp

    http = aiohttp.ClientSession()
    try:
        async with asyncio.timeout(timeout):
            socket = await http.ws_connect(url, max_msg_size=limit)
    except TimeoutError as error:
        await http.close()
        if isinstance(error, aiohttp.ClientError):  # aiohttp's own, inside the limit
            raise TransportError(
                f"cannot connect to {short(url)}: timed out"
            ) from error
        raise TransportTimeout("connect", timeout or 0.0, url) from None
    except (aiohttp.ClientError, OSError, ValueError) as error:
        await http.close()
        reason = str(error) or type(error).__name__
        raise TransportError(f"cannot connect to {short(url)}: {reason}") from error
    except BaseException:
        await http.close()
        raise

    async def close() -> None:
        try:
            async with asyncio.timeout(timeout):
                await socket.close()
                await runner
        except TimeoutError:  # the server does not close: we do
            runner.cancel()
            await asyncio.gather(runner, return_exceptions=True)
        finally:
            await http.close()

    channel = WebSocketChannel(socket, url, close, send_timeout=timeout)
    connection = Connection(channel, log, methods)
    connection.timeout, connection.cancel, connection.client = timeout, cancel, True
    connection.serve_with(handlers(connection))
    runner = asyncio.ensure_future(connection.run())
    return connection
