"""The client of an HTTP POST envelope server: one POST per request.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: a URL, optional ``settings`` sent with every request, the method registry.
Outputs: ``HttpSession``, a ``Session`` over HTTP POST envelopes.
Guarantees: params are dumped and results validated by pydantic-core directly; a
failed POST is a ``TransportError``; an answer that is not a JSON object an ``RpcError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .codec import dumps, loads
from .errors import INTERNAL_ERROR, JsonObject, RpcError, TransportError, short
from .log import QUIET, MessageLog
from .registry import Methods, package_methods


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
            raise TransportError(f"POST {short(self.url)}: {error}") from error
        self.log.message("in", self.url, body)
        answer = loads(body)
        if not isinstance(answer, dict):
            raise RpcError(INTERNAL_ERROR, f"malformed answer: {short(answer)}")
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
