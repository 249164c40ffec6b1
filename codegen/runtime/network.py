"""What the network servers (WebSocket, HTTP) share: peer timeouts, server options, the site.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: timeouts, an aiohttp runner, a host and port.
Outputs: ``Timeouts``, ``server_options`` (aiohttp's server settings for them) and
``run_site`` (listen, say where, serve until cancelled).
Guarantees: a slow peer is disconnected after the header timeout; the bound address
is logged as a URL once listening (when quiet, only if the OS chose the port: then it
is the one line a quiet server prints, since nothing else tells where it listens).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Final

from .log import MessageLog


@dataclass(frozen=True)
class Timeouts:
    """How long a network peer may take (seconds): to send a request's headers (and to
    start the next one on a kept-alive connection), and to send its body.  A slow peer
    (slowloris) is disconnected, so it holds nothing for long.
    """

    headers: float = 10.0
    body: float = 30.0


SHUTDOWN_GRACE: Final = 2.0
"""Seconds a stopping server (SIGTERM) gives its connections to end (aiohttp: 60): a
peer that never reads cannot hold the stop."""


def server_options(timeouts: Timeouts) -> dict[str, Any]:
    # aiohttp's keep-alive timer runs from the moment a connection opens (and after
    # each answer) until a request's headers are complete: a header timeout.
    # After refusing a request whose body is still coming, aiohttp reads on for a while
    # so the peer can read the answer (lingering); a second, not aiohttp's 10.
    return {
        "access_log": None,
        "handle_signals": False,
        "keepalive_timeout": timeouts.headers,
        "lingering_time": 1.0,
    }


async def run_site(
    runner: Any, host: str, port: int, scheme: str, log: MessageLog
) -> None:
    from aiohttp import web

    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port)
        await site.start()
        server = site._server
        sockets = getattr(server, "sockets", None) or []
        bound = sockets[0].getsockname() if sockets else (host, port)
        shown = f"[{bound[0]}]" if ":" in bound[0] else bound[0]
        address = f"listening on {scheme}://{shown}:{bound[1]}/"
        if port == 0:  # the OS chose the port: this line is how a peer learns it
            log.info(address)
        else:
            log.status(address)
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
