"""The stdio transport: serve on our own stdin/stdout, or talk to a child process's.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: handlers (a factory given the peer's session), a size limit, a command.
Outputs: ``serve_stdio`` (until end of input) and ``connect_stdio`` (a ``Connection``
to a started child).
Guarantees: pipes and sockets are read from the event loop; regular files and terminals
(which epoll refuses) by a thread; a command that does not start is a
``TransportError``; closing waits 5 s for the child, then kills it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any

from .connection import Connection
from .errors import DEFAULT_MAX_MESSAGE_BYTES, TransportError, short
from .framing import LineReader, PipeChannel
from .interfaces import HandlerFactory, Session
from .log import QUIET, MessageLog
from .registry import Handler, Methods


async def _read_stdin(reader: LineReader) -> None:
    stdin = sys.stdin.buffer
    # Only pipes and sockets can be watched by the event loop (epoll refuses regular
    # files; a terminal or /dev/null would never be read): the rest is read by a thread.
    mode = os.fstat(stdin.fileno()).st_mode
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        with contextlib.suppress(ValueError, OSError):
            reader.watch(stdin.fileno())
            return

    def pump() -> None:  # regular files and terminals: a reading thread
        while chunk := os.read(stdin.fileno(), reader.CHUNK):
            reader.loop.call_soon_threadsafe(reader.data_received, chunk)
        reader.loop.call_soon_threadsafe(reader.eof_received)

    threading.Thread(target=pump, daemon=True).start()


async def _write_stdout(data: bytes) -> None:
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


async def serve_stdio(
    factory: HandlerFactory, log: MessageLog, limit: int, methods: Methods
) -> None:
    """Serve one peer on stdin/stdout until end of input."""
    channel = PipeChannel(_read_stdin, _write_stdout, limit, "stdio")
    connection = Connection(channel, log, methods)
    connection.serve_with(factory(connection))
    if not log.quiet:  # quiet: nothing in the stderr a client shares with its stub
        log.info("listening on stdio")
    await connection.run()


async def connect_stdio(
    command: Sequence[str],
    handlers: Callable[[Session], Mapping[str, Handler]],
    *,
    limit: int = DEFAULT_MAX_MESSAGE_BYTES,
    env: Mapping[str, str] | None = None,
    stderr: int | IO[Any] | None = None,
    log: MessageLog = QUIET,
    methods: Methods | None = None,
) -> Connection:
    """Start ``command`` and talk to it over its stdin/stdout."""
    # The child's stdout is our own pipe, read by a LineReader rather than asyncio's
    # stream reader (whose reading task would cost every response a loop turn); closed
    # by close().
    read_end, write_end = os.pipe()
    try:
        process = await asyncio.create_subprocess_exec(
            *command,
            stdin=asyncio.subprocess.PIPE,
            stdout=write_end,
            stderr=stderr,
            env=None if env is None else dict(env),
        )
    except (OSError, ValueError) as error:
        os.close(read_end)
        raise TransportError(f"cannot start {short(list(command))}: {error}") from error
    finally:
        os.close(write_end)
    assert process.stdin is not None
    stdin = process.stdin
    readers: list[LineReader] = []

    async def read(reader: LineReader) -> None:
        readers.append(reader)
        reader.watch(read_end)

    async def write(data: bytes) -> None:
        stdin.write(data)
        await stdin.drain()

    async def close() -> None:
        if not stdin.is_closing():
            stdin.close()
        try:
            await asyncio.wait_for(process.wait(), 5)
        except TimeoutError:
            process.kill()
            await process.wait()
        try:
            await runner
        finally:
            for reader in readers:
                reader.pause_reading()  # never a closed descriptor in the selector
            os.close(read_end)

    async def exit_status() -> str:
        try:
            code = await asyncio.wait_for(process.wait(), 1)
        except TimeoutError:  # it closed its stdout but runs on
            return f": {short(list(command))} closed its output"
        return f": {short(list(command))} exited with status {code}"

    channel = PipeChannel(read, write, limit, f"pid {process.pid}", close)
    connection = Connection(channel, log, methods)
    connection.closed_detail = exit_status
    connection.serve_with(handlers(connection))
    runner = asyncio.ensure_future(connection.run())
    return connection
