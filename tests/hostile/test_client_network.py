"""The generated WebSocket and HTTP clients against fake peers in this process (OS-chosen
ports on 127.0.0.1): a server that never completes the handshake, one that never
answers, redirects to another origin, answers too large, ill-typed results.

Reproductions of issue 33: "a call to a peer that never completes the WebSocket
handshake waits 300 s with an empty reason"; "the HTTP client follows redirects to
another origin, re-POSTing the envelope — ``settings`` with tokens included — and
returns the other origin's answer as the result"; "HTTP answers have no size limit".
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import ahp_protocol
import openctx_protocol
import pytest
from ahp_protocol.client import AhpClient
from ahp_protocol.models import InitializeParams
from aiohttp import web
from openctx_protocol.client import OpenctxClient
from openctx_protocol.models import MetaParams

LIMIT = 0.5
WITHIN = 10.0
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@asynccontextmanager
async def serving(handler: Handler) -> AsyncIterator[str]:
    """An aiohttp server on an OS-chosen port answering every path with ``handler``."""
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", handler)
    # A peer that never answers is still sleeping when the test is done with it: its
    # handler is cancelled at once, not waited for (aiohttp's default is 60 s).
    runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=0.1)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        await runner.cleanup()


def run(scenario: Awaitable[Any]) -> Any:
    async def bounded() -> Any:
        return await asyncio.wait_for(scenario, WITHIN * 3)

    return asyncio.run(bounded())


# ---------------------------------------------------------------------- WebSocket


def test_a_websocket_handshake_that_never_completes_fails_in_time() -> None:
    async def scenario() -> tuple[BaseException, float]:
        held: list[asyncio.StreamWriter] = []

        async def accept(
            _r: asyncio.StreamReader, writer: asyncio.StreamWriter
        ) -> None:
            held.append(writer)  # read nothing, answer nothing

        server = await asyncio.start_server(accept, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        started = time.monotonic()
        try:
            with pytest.raises(ahp_protocol.TransportTimeout) as caught:
                await AhpClient.websocket(f"ws://127.0.0.1:{port}/", timeout=LIMIT)
        finally:
            for writer in held:
                writer.close()
            server.close()
        return caught.value, time.monotonic() - started

    error, elapsed = run(scenario())
    assert LIMIT <= elapsed < WITHIN
    assert "connect: no answer within 0.5 s" in str(error)


def test_a_refused_websocket_says_why() -> None:
    # Was: "cannot connect to ws://…: " with an empty reason.
    async def scenario() -> str:
        server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        server.close()
        await server.wait_closed()
        with pytest.raises(ahp_protocol.TransportError) as caught:
            await AhpClient.websocket(f"ws://127.0.0.1:{port}/", timeout=WITHIN)
        return str(caught.value)

    text = run(scenario())
    assert text.startswith("cannot connect to ws://127.0.0.1:") and not text.endswith(
        ": "
    )


def test_a_websocket_peer_that_never_answers_fails_the_call_in_time() -> None:
    async def scenario() -> tuple[BaseException, float]:
        async def silent(request: web.Request) -> web.StreamResponse:
            socket = web.WebSocketResponse()
            await socket.prepare(request)
            async for _ in socket:  # read everything, answer nothing
                pass
            return socket

        async with serving(silent) as url:
            ws = url.replace("http", "ws", 1)
            async with AhpClient.websocket(ws, timeout=LIMIT) as client:
                started = time.monotonic()
                with pytest.raises(ahp_protocol.TransportTimeout) as caught:
                    await client.initialize(
                        InitializeParams(protocol_version=1, client_id="x")
                    )
                return caught.value, time.monotonic() - started

    error, elapsed = run(scenario())
    assert LIMIT <= elapsed < WITHIN
    assert "initialize: no answer within 0.5 s" in str(error)


def test_a_websocket_server_that_never_closes_cannot_hold_close() -> None:
    async def scenario() -> float:
        async def stubborn(request: web.Request) -> web.StreamResponse:
            socket = web.WebSocketResponse(autoclose=False)
            await socket.prepare(request)
            await asyncio.sleep(WITHIN * 2)  # never reads the close frame
            return socket

        async with serving(stubborn) as url:
            client = await AhpClient.websocket(
                url.replace("http", "ws", 1), timeout=LIMIT
            )
            started = time.monotonic()
            await client.close()
            return time.monotonic() - started

    assert run(scenario()) < WITHIN


# ---------------------------------------------------------------------------- HTTP


def test_an_http_peer_that_never_answers_fails_the_call_in_time() -> None:
    async def scenario() -> tuple[BaseException, float]:
        async def silent(request: web.Request) -> web.StreamResponse:
            await asyncio.sleep(WITHIN * 2)
            return web.Response()

        async with (
            serving(silent) as url,
            OpenctxClient.http(url, timeout=LIMIT) as client,
        ):
            started = time.monotonic()
            with pytest.raises(openctx_protocol.TransportTimeout) as caught:
                await client.meta(MetaParams())
            return caught.value, time.monotonic() - started

    error, elapsed = run(scenario())
    assert LIMIT <= elapsed < WITHIN
    assert "meta: no answer within 0.5 s" in str(error)


def _meta_answer() -> dict[str, Any]:
    return {"result": {"name": "theirs"}}


def test_a_redirect_to_another_origin_is_refused_and_the_settings_stay_home() -> None:
    async def scenario() -> tuple[str, list[Any]]:
        seen: list[Any] = []

        async def other(request: web.Request) -> web.StreamResponse:
            seen.append(await request.json())  # the tokens would land here
            return web.json_response(_meta_answer())

        async with serving(other) as elsewhere:
            # another port of the same host: another origin all the same

            async def redirect(request: web.Request) -> web.StreamResponse:
                raise web.HTTPTemporaryRedirect(elsewhere)

            async with serving(redirect) as url:
                settings = {"token": "secret"}
                async with OpenctxClient.http(
                    url, settings=settings, follow_redirects=True
                ) as client:
                    with pytest.raises(openctx_protocol.TransportError) as caught:
                        await client.meta(MetaParams())
        return str(caught.value), seen

    text, seen = run(scenario())
    assert "redirected (307)" in text and "another origin" in text
    assert seen == []


@pytest.mark.parametrize("follow", [False, True])
def test_a_same_origin_307_is_followed_only_when_asked(follow: bool) -> None:
    async def scenario() -> Any:
        async def handler(request: web.Request) -> web.StreamResponse:
            if request.path == "/":
                raise web.HTTPTemporaryRedirect("/moved")
            body = await request.json()
            assert body["settings"] == {"token": "secret"}
            return web.json_response(_meta_answer())

        async with serving(handler) as url:
            settings = {"token": "secret"}
            async with OpenctxClient.http(
                url, settings=settings, follow_redirects=follow
            ) as client:
                return await client.meta(MetaParams())

    if follow:
        assert run(scenario()).name == "theirs"
    else:
        with pytest.raises(openctx_protocol.TransportError, match="not followed"):
            run(scenario())


def test_a_302_is_never_followed() -> None:
    # 302 turns a POST into a GET: the envelope would be lost, or resent wrongly.
    async def scenario() -> Any:
        async def handler(request: web.Request) -> web.StreamResponse:
            if request.path == "/":
                raise web.HTTPFound("/moved")
            return web.json_response(_meta_answer())

        async with (
            serving(handler) as url,
            OpenctxClient.http(url, follow_redirects=True) as client,
        ):
            return await client.meta(MetaParams())

    with pytest.raises(openctx_protocol.TransportError, match=r"\(302\).*not followed"):
        run(scenario())


def test_an_answer_over_the_size_limit_is_refused_unread() -> None:
    async def scenario(declared: bool) -> str:
        async def huge(request: web.Request) -> web.StreamResponse:
            body = json.dumps({"result": {"name": "x" * 200_000}}).encode()
            if declared:
                return web.Response(body=body, content_type="application/json")
            response = web.StreamResponse()  # chunked: no length said in advance
            await response.prepare(request)
            for start in range(0, len(body), 8192):
                await response.write(body[start : start + 8192])
            await response.write_eof()
            return response

        async with (
            serving(huge) as url,
            OpenctxClient.http(url, max_message_bytes=65536) as client,
        ):
            with pytest.raises(openctx_protocol.TransportError) as caught:
                await client.meta(MetaParams())
        return str(caught.value)

    for declared in (True, False):
        assert "answer over 65536 bytes" in run(scenario(declared))


def test_an_ill_typed_http_result_raises_the_packages_error() -> None:
    async def scenario() -> BaseException:
        async def wrong(request: web.Request) -> web.StreamResponse:
            return web.json_response({"result": {"name": 5}})

        async with serving(wrong) as url, OpenctxClient.http(url) as client:
            with pytest.raises(openctx_protocol.InvalidResult) as caught:
                await client.meta(MetaParams())
        return caught.value

    error = run(scenario())
    assert isinstance(error, openctx_protocol.RpcError)
    assert error.data["errors"][0]["path"] == "/name"
