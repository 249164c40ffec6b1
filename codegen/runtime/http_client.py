"""The client of an HTTP POST envelope server: one POST per request.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: a URL, optional ``settings`` sent with every request, the method registry.
Outputs: ``HttpSession``, a ``Session`` over HTTP POST envelopes.
Guarantees: params are dumped and results validated by pydantic-core directly; a
failed POST is a ``TransportError``, one over its time limit a ``TransportTimeout``; an
answer over the size limit is not read whole; a redirect is followed only when asked,
and only a 307 or 308 to the same origin; an answer that is not a JSON object is an
``RpcError``, a result that is not what the spec says an ``InvalidResult``.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Mapping
from typing import Any, Final

from .codec import dumps, loads
from .errors import (
    DEFAULT_MAX_MESSAGE_BYTES,
    INTERNAL_ERROR,
    JsonObject,
    RpcError,
    TransportError,
    TransportTimeout,
    printable,
    short,
)
from .log import QUIET, MessageLog
from .registry import Methods, package_methods
from .typed_calls import params_json, typed_result


class HttpSession:
    """A client of an HTTP POST envelope server (one POST per request).

    ``timeout``: seconds a request may take, answer included (None: aiohttp's 300 s;
    a call may say otherwise), then ``TransportTimeout``; ``limit``: the largest answer
    read, in bytes (a larger one is a ``TransportError``).  Redirects are not followed
    (the envelope carries ``settings``, tokens included, that another origin must not
    get): a redirect is a ``TransportError`` naming where it pointed, unless
    ``follow_redirects`` and it is a 307 or 308 to the same origin (scheme, host and
    port), which repeats the POST there (at most ``MAX_REDIRECTS`` times).
    """

    def __init__(
        self,
        url: str,
        settings: Mapping[str, Any] | None,
        log: MessageLog = QUIET,
        methods: Methods | None = None,
        *,
        timeout: float | None = None,
        limit: int = DEFAULT_MAX_MESSAGE_BYTES,
        follow_redirects: bool = False,
    ) -> None:
        import aiohttp

        self.methods = package_methods() if methods is None else methods
        self.url = url
        self.settings = dict(settings) if settings is not None else None
        self.log = log
        self.timeout = timeout
        self.limit = limit
        self.follow_redirects = follow_redirects
        self._http = aiohttp.ClientSession()

    async def request_raw(
        self, message: JsonObject, *, timeout: float | None = None
    ) -> JsonObject:
        """POST an envelope as given (no validation); the decoded answer."""
        text = dumps(message)
        self.log.message("out", self.url, text)
        limit = self.timeout if timeout is None else timeout
        method = message.get("method")
        operation = method if isinstance(method, str) else "request"
        try:
            async with asyncio.timeout(None if limit == math.inf else limit):
                body = await self._post(text)
        except TimeoutError:
            raise TransportTimeout(operation, limit or 0.0, self.url) from None
        self.log.message("in", self.url, body)
        answer = loads(body)
        if not isinstance(answer, dict):
            shown = printable(short(answer))
            raise RpcError(INTERNAL_ERROR, f"malformed answer: {shown}")
        return answer

    async def _post(self, text: str) -> bytes:
        """The body of the answer to a POST of ``text``, redirects handled."""
        import aiohttp
        from yarl import URL

        url = URL(self.url)
        headers = {"Content-Type": "application/json"}
        try:
            for _ in range(MAX_REDIRECTS + 1):
                async with self._http.post(
                    url, data=text, headers=headers, allow_redirects=False
                ) as response:
                    if response.status not in REDIRECTS:
                        return await _read_answer(response, self.limit)
                    target = _redirect_target(response, url, self.follow_redirects)
                url = target
        except (aiohttp.ClientError, OSError, ValueError) as error:
            reason = str(error) or type(error).__name__
            raise TransportError(f"POST {short(self.url)}: {reason}") from error
        raise TransportError(f"POST {short(self.url)}: over {MAX_REDIRECTS} redirects")

    async def request(
        self, method: str, params: Any, *, timeout: float | None = None
    ) -> Any:
        info = self.methods[method]
        message: JsonObject = {"method": method}
        sent = params_json(info, params)
        if sent is not None:
            message["params"] = sent
        if self.settings is not None:
            message["settings"] = self.settings
        answer = await self.request_raw(message, timeout=timeout)
        return typed_result(info, method, answer)

    async def notify(self, method: str, params: Any) -> None:
        await self.request(method, params)

    async def close(self) -> None:
        await self._http.close()


MAX_REDIRECTS: Final = 5
REDIRECTS: Final = frozenset({301, 302, 303, 307, 308})


def _redirect_target(response: Any, url: Any, follow: bool) -> Any:
    """Where a redirect may be followed to; else a ``TransportError`` saying why not.
    Only 307 and 308 repeat a POST as it was (301, 302 and 303 turn it into a GET)."""
    location = response.headers.get("Location", "")
    target = url.join(type(url)(location)) if location else None
    where = printable(short(str(target) if target is not None else "nowhere"))
    refused = f"POST {printable(short(str(url)))}: redirected ({response.status}) to"
    if target is None or not follow or response.status not in (307, 308):
        raise TransportError(f"{refused} {where}: not followed")
    if (target.scheme, target.host, target.port) != (url.scheme, url.host, url.port):
        raise TransportError(f"{refused} {where}: another origin, not followed")
    return target


async def _read_answer(response: Any, limit: int) -> bytes:
    """The body of ``response``, or a ``TransportError`` once it is over ``limit``."""
    declared = response.content_length
    too_large = f"POST {printable(short(str(response.url)))}: answer over {limit} bytes"
    if declared is not None and declared > limit:
        raise TransportError(too_large)
    body = bytearray()
    async for chunk in response.content.iter_chunked(65536):
        body += chunk
        if len(body) > limit:
            raise TransportError(too_large)
    return bytes(body)
