"""The HTTP POST envelope server: ``{method, params, settings}`` in, ``{result}`` or ``{error}`` out.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: handlers, the method registry, a size limit, timeouts, a host and port.
Outputs: ``handle_envelope`` (one body → HTTP status and answer) and ``serve_http``.
Guarantees: a body over the limit is refused (413) as soon as it is over, a slow one
(408) after the body timeout, a short one (400); the bytes of bodies still arriving count
against the process's budget for unfinished messages (``pressure.PARTIALS``, shared with the
WebSocket readers): past it the request is refused (503) and its connection closed; a peer
that half-closes after its request still gets its answer.
"""

from __future__ import annotations

import asyncio
from typing import Any

from .access import Access
from .codec import dumps, loads
from .dispatch import Dispatcher
from .errors import INVALID_REQUEST, JsonObject, MessageTooLarge, RpcError
from .interfaces import HandlerFactory, NoPeer
from .log import MessageLog
from .network import SHUTDOWN_GRACE, Timeouts, run_site, server_options
from .pressure import PARTIALS, PartialBudget
from .registry import Methods


class OverBudget(Exception):
    """The bodies being received by this process hold more than its budget."""


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
    access: Access | None = None,
    budget: PartialBudget = PARTIALS,
) -> None:
    """Serve HTTP POST envelopes at ``http://host:port/`` until cancelled."""
    from aiohttp import web

    limits = timeouts or Timeouts()
    dispatcher = Dispatcher(factory(NoPeer()), log, methods)

    def refuse(status: int, error: RpcError) -> web.Response:
        response = web.json_response({"error": error.to_json()}, status=status)
        response.force_close()  # the rest of the body, if any, is not read
        return response

    allowed = access or Access()

    async def endpoint(request: web.BaseRequest) -> web.StreamResponse:
        peer = str(request.remote)
        refused = allowed.refusal(request.host, request.headers.get("Origin"))
        if refused is not None:
            log.info(f"{peer}: refused: {refused}")
            return refuse(403, RpcError(INVALID_REQUEST, f"forbidden: {refused}"))
        if request.path != "/":
            return web.Response(status=404, text="not found: POST to /\n")
        if request.method != "POST":
            return web.Response(status=405, headers={"Allow": "POST"})
        try:
            async with asyncio.timeout(limits.body):
                body = await _read_body(request, limit, budget)
        except OverBudget:
            failure = (
                "unfinished messages over the process's budget of "
                f"{budget.total} bytes"
            )
            log.info(f"{peer}: refused: {failure}")
            return refuse(503, RpcError(INVALID_REQUEST, f"server busy: {failure}"))
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

    server = _half_close_server(endpoint, server_options(limits))
    runner = web.ServerRunner(server, shutdown_timeout=SHUTDOWN_GRACE)
    await run_site(runner, host, port, "http", log)


async def _read_body(request: Any, limit: int, budget: PartialBudget) -> bytes:
    """The request body, or ``MessageTooLarge`` as soon as it is over ``limit``, or
    ``OverBudget`` when the process holds too much of bodies not yet complete."""
    declared = request.content_length
    if declared is not None and declared > limit:
        raise MessageTooLarge(limit)
    if getattr(request.protocol, "peer_done", False) and not request.content.is_eof():
        request.content.feed_eof()  # EOF came before this request's handler started
    body = bytearray()
    try:
        async for chunk in request.content.iter_chunked(65536):
            if not budget.reserve(len(chunk)):
                raise OverBudget()
            body += chunk
            if len(body) > limit:
                raise MessageTooLarge(limit)
    finally:
        budget.release(len(body))  # complete (or dropped): no longer unfinished
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
