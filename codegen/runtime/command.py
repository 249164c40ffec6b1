"""The stub server's command line: ``python -m <pkg>.server``.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: the command line, and from the package's generated ``server`` module its
name, framings, handler factory, error names and method registry.
Outputs: ``main`` (parse options, serve until end of input or a signal; an exit status),
``failing`` and ``without_params`` (handler helpers), ``TRANSPORTS`` (framing → transport
name) and ``event_loop_factory`` (uvloop when installed).
Guarantees: bad options are argparse errors naming the option; a port that cannot be
bound is one line on stderr and exit status 1; SIGTERM and SIGINT stop the server.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import signal
import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from importlib import import_module
from typing import Any, Final

from .access import Access
from .envelope import serve_http
from .errors import DEFAULT_MAX_MESSAGE_BYTES, RpcError
from .interfaces import HandlerFactory, Session
from .log import MessageLog
from .network import Timeouts
from .pressure import (
    DEFAULT_HARD_OUTPUT,
    DEFAULT_PARTIAL_BUDGET,
    DEFAULT_SOFT_OUTPUT,
    configure,
)
from .registry import Handler, Methods
from .stdio import serve_stdio
from .websocket import serve_websocket

TRANSPORTS: Final = {
    "ndjson-stdio": "stdio",
    "websocket": "websocket",
    "http-post": "http",
    "content-length-stdio": "content-length-stdio",
}


def failing(
    handlers: Mapping[str, Handler], failures: Mapping[str, RpcError]
) -> dict[str, Handler]:
    """``handlers`` with the named methods answering the given errors instead."""
    out = dict(handlers)
    for method, error in failures.items():

        async def fail(_params: Any, error: RpcError = error) -> Any:
            raise error

        out[method] = fail
    return out


def without_params(call: Callable[[], Awaitable[Any]]) -> Handler:
    """A handler for a method that carries no params."""

    async def handler(_params: Any) -> Any:
        return await call()

    return handler


def _parse_failures(
    items: Sequence[str], errors: Mapping[int, str], methods: Methods
) -> dict[str, RpcError]:
    """``METHOD=CODE`` items; a ``ValueError`` says what is wrong with one."""
    out: dict[str, RpcError] = {}
    for item in items:
        method, _, code = item.rpartition("=")
        if method not in methods:
            known = ", ".join(sorted(methods))
            raise ValueError(f"--fail: unknown method {method!r} (methods: {known})")
        try:
            number = int(code)
        except ValueError:
            raise ValueError(f"--fail: {code!r} is not an integer error code") from None
        out[method] = RpcError(number, errors.get(number, "stub failure"))
    return out


# The stdio transports, by --transport name → their framing.
STDIO: Final = {"stdio": "ndjson-stdio", "content-length-stdio": "content-length-stdio"}


def _transport(text: str) -> str:
    """An argparse type: a transport, named as itself or by its framing."""
    return TRANSPORTS.get(text, text)


MIN_MESSAGE_BYTES: Final = 64


def _port(text: str) -> int:
    """An argparse type: a TCP port, 0 (any free one) to 65535."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"{number} is not a port (0 to 65535)")
    return number


def _message_bytes(text: str) -> int:
    """An argparse type: a message size limit of at least ``MIN_MESSAGE_BYTES``."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of bytes") from None
    if number < MIN_MESSAGE_BYTES:
        raise argparse.ArgumentTypeError(
            f"{number} is too small (at least {MIN_MESSAGE_BYTES} bytes)"
        )
    return number


def event_loop_factory(
    choice: str = "auto",
) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The event loop a server runs on: uvloop's when ``choice`` is "uvloop", or "auto"
    and uvloop is installed (it serves the same transports with less CPU per message);
    None for asyncio's own.  Raises ``ImportError`` for "uvloop" without uvloop."""
    if choice == "asyncio":
        return None
    try:
        uvloop = import_module("uvloop")  # optional: the package needs pydantic only
    except ImportError:
        if choice == "uvloop":
            raise
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def main(
    argv: Sequence[str] | None,
    *,
    name: str,
    framings: Sequence[str],
    factory: HandlerFactory,
    errors: Mapping[int, str],
    methods: Methods,
    envelope: Mapping[str, str] | None = None,
) -> int:
    """``python -m <package>.server``: parse options, serve until EOF or a signal.

    ``envelope``: the key of each part of an event envelope (spec.toml's
    ``[transport.fields]``): requests and events in it instead of JSON-RPC, on stdio."""
    choices = [TRANSPORTS[framing] for framing in framings if framing in TRANSPORTS]
    parser = argparse.ArgumentParser(
        prog=f"python -m {name}.server", description=f"Stub server of {name}."
    )
    parser.add_argument(
        "--transport",
        choices=choices,
        default=choices[0] if choices else None,
        type=_transport,
        help="a transport, or the spec's framing name for it",
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument(
        "--port", type=_port, default=0, help="0 to 65535; 0: an ephemeral port"
    )
    parser.add_argument("--transcript", help="append every message to this JSONL file")
    parser.add_argument(
        "--max-message-bytes",
        type=_message_bytes,
        default=DEFAULT_MAX_MESSAGE_BYTES,
        help=f"refuse messages over this size (at least {MIN_MESSAGE_BYTES})",
    )
    parser.add_argument(
        "--max-queued-bytes",
        type=_message_bytes,
        default=DEFAULT_HARD_OUTPUT,
        help="close a peer's connection when this many bytes of answers wait for it "
        "to read (it is read no more from a quarter of this, or 1 MiB)",
    )
    parser.add_argument(
        "--max-partial-bytes",
        type=_message_bytes,
        default=DEFAULT_PARTIAL_BUDGET,
        help="bytes of unfinished messages (WebSocket messages, HTTP bodies) held "
        "across all connections; a peer whose message would take more is "
        "disconnected (WebSocket 1009, HTTP 503)",
    )
    parser.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="print problems only: no per-message log, no connection or stop lines; "
        "on a network transport with --port 0 the one 'listening on URL' line is still "
        "printed (stderr), as it is the only way to learn the port the OS chose",
    )
    parser.add_argument(
        "--loop",
        choices=("auto", "uvloop", "asyncio"),
        default="auto",
        help="event loop: uvloop (a C loop, about a fifth less CPU per message) or "
        "asyncio's own; auto: uvloop when installed",
    )
    parser.add_argument(
        "--header-timeout",
        type=float,
        default=Timeouts.headers,
        metavar="SECONDS",
        help="network transports: a peer must send a request's headers within this",
    )
    parser.add_argument(
        "--body-timeout",
        type=float,
        default=Timeouts.body,
        metavar="SECONDS",
        help="HTTP: a peer must send a request's body within this",
    )
    parser.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="network transports: also answer browser pages of this origin "
        "(scheme://host[:port]; * for any); default: loopback origins only",
    )
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="HOST",
        help="network transports: also answer requests naming this host (* for any); "
        "default: loopback names only",
    )
    parser.add_argument(
        "--fail",
        action="append",
        default=[],
        metavar="METHOD=CODE",
        help="answer METHOD with error CODE (the protocol's codes carry their names)",
    )
    options = parser.parse_args(argv)
    if not choices:
        parser.error("the spec declares no transport this server can serve")
    if options.transport != "stdio" and importlib.util.find_spec("aiohttp") is None:
        # the package needs pydantic only; its network transports need aiohttp too
        parser.error(
            f"--transport {options.transport} needs aiohttp, which is not installed: "
            "pip install aiohttp (or the package's [server] extra)"
        )
    try:
        loop_factory = event_loop_factory(options.loop)
    except ImportError:
        parser.error("--loop uvloop: uvloop is not installed (pip install uvloop)")
    try:
        failures = _parse_failures(options.fail, errors, methods)
    except ValueError as error:
        parser.error(str(error))

    def build(session: Session) -> Mapping[str, Handler]:
        return failing(factory(session), failures)

    try:
        log = MessageLog(name, quiet=options.quiet, transcript=options.transcript)
    except OSError as error:
        parser.error(
            f"--transcript: cannot open {options.transcript}: {error.strerror}"
        )
    limit = options.max_message_bytes
    queued = options.max_queued_bytes
    configure(
        soft=min(DEFAULT_SOFT_OUTPUT, queued // 4),
        hard=queued,
        partial=options.max_partial_bytes,
    )
    hosts = tuple(options.allow_host)
    if options.host not in ("0.0.0.0", "::", ""):  # the address asked for is ours
        hosts += (options.host.strip("[]").lower(),)
    access = Access(hosts, tuple(options.allow_origin))
    timeouts = Timeouts(
        max(options.header_timeout, 0.01), max(options.body_timeout, 0.01)
    )
    if envelope is not None and options.transport in STDIO:
        # Only a package of that kind carries the module: imported by name, so that
        # the others (and their type checks) never look for it.
        envelopes = import_module(".event_envelope", __package__)
        framing = STDIO[options.transport]
        serving: Awaitable[None] = envelopes.serve_stdio(
            build, log, limit, methods, framing, envelope
        )
    elif options.transport in STDIO:
        framing = STDIO[options.transport]
        serving = serve_stdio(build, log, limit, methods, framing)
    elif options.transport == "websocket":
        serving = serve_websocket(
            build, log, limit, options.host, options.port, methods, timeouts, access
        )
    else:
        serving = serve_http(
            build, log, limit, options.host, options.port, methods, timeouts, access
        )
    try:
        with asyncio.Runner(loop_factory=loop_factory) as runner:
            runner.run(_until_signal(serving, log))
    except KeyboardInterrupt:
        pass
    except OSError as error:  # the port is taken, the host is not ours, ...
        if options.transport in STDIO:
            raise
        reason = error.strerror or str(error)
        where = f"{options.host}:{options.port}"
        print(
            f"{parser.prog}: error: cannot listen on {where}: {reason}", file=sys.stderr
        )
        return 1
    finally:
        log.close()
    return 0


async def _until_signal(serving: Awaitable[None], log: MessageLog) -> None:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(number, stop.set)
    server = asyncio.ensure_future(serving)
    stopper = asyncio.ensure_future(stop.wait())
    done, _ = await asyncio.wait({server, stopper}, return_when=asyncio.FIRST_COMPLETED)
    for task in (server, stopper):
        task.cancel()
    await asyncio.gather(server, stopper, return_exceptions=True)
    if server in done and not server.cancelled():
        error = server.exception()
        if error is not None:
            raise error
    # only stdio ends at the end of its input
    log.status("stopped" if stopper in done else "end of input")
