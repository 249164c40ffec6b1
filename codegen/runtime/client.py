"""Connecting a typed client: awaited, or used as an async context manager.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: a coroutine function that connects and returns a client.
Outputs: ``Connecting``, what ``Client.stdio``/``websocket``/``http`` return.
Guarantees: ``async with`` closes the client on leaving the block (once); a plain
``await`` leaves closing to the caller.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator
from typing import Any, Generic, Protocol, TypeVar


class _Closable(Protocol):
    async def close(self) -> None: ...


_Client = TypeVar("_Client", bound=_Closable)


class Connecting(Generic[_Client]):
    """A client being connected: ``async with Client.websocket(url) as client:`` closes
    it on leaving the block; ``client = await Client.websocket(url)`` leaves closing to
    the caller.
    """

    def __init__(self, connect: Callable[[], Awaitable[_Client]]) -> None:
        self._connect = connect
        self._client: _Client | None = None

    def __await__(self) -> Generator[Any, None, _Client]:
        return self._connect().__await__()

    async def __aenter__(self) -> _Client:
        self._client = await self._connect()
        return self._client

    async def __aexit__(self, *exc_info: object) -> None:
        if self._client is not None:
            client, self._client = self._client, None
            await client.close()
