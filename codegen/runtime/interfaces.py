"""The interfaces the runtime's layers meet at: channels below a connection, sessions above.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: none (protocols and a null peer).
Outputs: ``Channel`` (a message stream read on demand), ``Session`` (what a typed
client or peer proxy calls), ``HandlerFactory`` and ``NoPeer`` (the peer of a transport
that carries no calls back).
Guarantees: typing only, but for ``NoPeer``, whose calls answer -32601.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from .errors import METHOD_NOT_FOUND, RpcError
from .registry import Handler


class Channel(Protocol):
    """One bidirectional stream of messages read on demand (a WebSocket frame); pipes
    are a ``PipeChannel``, which hands the connection each line as it arrives."""

    peer: str

    async def receive(self) -> str | bytes | None:
        """The next message; None at the end; raises ``MessageTooLarge``."""
        ...

    async def send(self, data: str | bytes) -> None: ...

    async def close(self) -> None: ...


class Session(Protocol):
    """What a typed client or peer proxy calls: requests and notifications."""

    async def request(
        self, method: str, params: Any, *, timeout: float | None = None
    ) -> Any:
        """The typed result; ``timeout``: seconds to wait (None: the session's)."""
        ...

    async def notify(self, method: str, params: Any) -> None: ...

    async def close(self) -> None: ...


class NoPeer:
    """The peer of a transport that cannot carry calls back (HTTP)."""

    async def request(
        self, method: str, params: Any, *, timeout: float | None = None
    ) -> Any:
        raise RpcError(METHOD_NOT_FOUND, f"{method}: this transport has no callbacks")

    async def notify(self, method: str, params: Any) -> None:
        raise RpcError(METHOD_NOT_FOUND, f"{method}: this transport has no callbacks")

    async def close(self) -> None:
        return None


HandlerFactory = Callable[[Session], Mapping[str, Handler]]
"""Builds the handlers of one connection, given a session to call the peer back."""
