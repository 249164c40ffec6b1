"""The stdio transport: serve on our own stdin/stdout, or talk to a child process's.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: handlers (a factory given the peer's session), a size limit, a command.
Outputs: ``serve_stdio`` (until end of input) and ``connect_stdio`` (a ``Connection``
to a started child).
Guarantees: pipes and sockets are read from the event loop; regular files and terminals
(which epoll refuses) by a thread that pauses when the loop's reading would; a command that does not start is a
``TransportError``; closing waits 5 s for the child, then kills it.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import stat
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any, Final

from .connection import Connection
from .errors import DEFAULT_MAX_MESSAGE_BYTES, TransportError, TransportTimeout, short
from .framing import STDIO_FRAMINGS, LineReader, PipeChannel
from .interfaces import HandlerFactory, Session
from .log import QUIET, MessageLog
from .registry import Handler, Methods

CLOSE_GRACE: Final = 5.0
"""Seconds a closing client waits for its child to exit before it kills it."""


async def _read_stdin(reader: LineReader) -> None:
    stdin = sys.stdin.buffer
    # Only pipes and sockets can be watched by the event loop (epoll refuses regular
    # files; a terminal or /dev/null would never be read): the rest is read by a thread.
    mode = os.fstat(stdin.fileno()).st_mode
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        with contextlib.suppress(ValueError, OSError):
            reader.watch(stdin.fileno())
            return

    reader.read_by_thread(stdin.fileno())


async def _write_stdout(data: bytes) -> None:
    """Our stdout when it is a file, a terminal, or a pipe it shares with stderr: a
    blocking write (non-blocking mode would be the terminal's, or stderr's, too)."""
    try:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    except OSError:
        # The reader is gone.  What is left in the buffer goes to /dev/null, so that
        # Python's own flush at exit does not fail again (and print a traceback).
        with contextlib.suppress(OSError, ValueError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        raise


class _Drain(asyncio.BaseProtocol):
    """The state of our stdout pipe: whether all was written, whether it is gone."""

    def __init__(self) -> None:
        self.empty = asyncio.Event()
        self.empty.set()
        self.gone = asyncio.Event()
        self.lost: BaseException | None = None

    def pause_writing(self) -> None:
        self.empty.clear()

    def resume_writing(self) -> None:
        self.empty.set()

    def connection_lost(self, exc: BaseException | None) -> None:
        self.lost = exc or BrokenPipeError(errno.EPIPE, "stdout is closed")
        self.empty.set()
        self.gone.set()


class _StdoutPipe:
    """Our stdout when it is a pipe or socket of its own, written from the event loop
    without ever blocking it: a peer that does not read holds only the answers it
    left unread (each send waits until its bytes are in the pipe, so the connection's
    ``OutputGauge`` counts them), and SIGTERM is handled while it does not read."""

    def __init__(self, transport: asyncio.WriteTransport, drain: _Drain) -> None:
        self.transport = transport
        self.drain = drain

    @classmethod
    async def open(cls) -> _StdoutPipe | None:
        """The pipe, or None where a blocking write must do (see ``_write_stdout``)."""
        try:
            fileno = sys.stdout.fileno()
            mine = os.fstat(fileno)
            theirs = os.fstat(sys.stderr.fileno())
        except (OSError, ValueError, AttributeError):
            return None
        if not (stat.S_ISFIFO(mine.st_mode) or stat.S_ISSOCK(mine.st_mode)):
            return None
        if (mine.st_dev, mine.st_ino) == (theirs.st_dev, theirs.st_ino):
            return None  # 2>&1: non-blocking stdout would make stderr fail
        # the transport owns (and closes) the duplicate; opening a descriptor never blocks
        pipe = os.fdopen(os.dup(fileno), "wb", buffering=0)
        loop = asyncio.get_running_loop()
        try:
            transport, drain = await loop.connect_write_pipe(_Drain, pipe)
        except (OSError, ValueError):
            pipe.close()
            return None
        transport.set_write_buffer_limits(high=0, low=0)  # "empty" means all written
        return cls(transport, drain)

    async def write(self, data: bytes) -> None:
        if not self.put(data):
            await self.drained()

    def put(self, data: bytes) -> bool:
        """Write ``data`` now: True once the pipe took all of it; False when the rest
        waits in the buffer (``drained`` waits for it)."""
        transport = self.transport
        if transport.is_closing():
            raise self._gone()
        transport.write(data)  # what the pipe takes now, the rest buffered
        if transport.is_closing():  # the write failed: the reader is gone
            raise self._gone()
        return not transport.get_write_buffer_size()

    async def drained(self) -> None:
        """Return once everything written is in the pipe."""
        if self.transport.get_write_buffer_size():
            await self.drain.empty.wait()
            if self.drain.lost is not None:
                raise self._gone()

    def _gone(self) -> OSError:
        lost = self.drain.lost
        if isinstance(lost, OSError):
            return lost
        return BrokenPipeError(errno.EPIPE, "stdout is closed")

    def abort(self) -> None:
        """Drop what waits to be written, and close (once: a transport closing with
        nothing left to write has its end already scheduled)."""
        transport = self.transport
        if not transport.is_closing() or transport.get_write_buffer_size():
            transport.abort()

    async def finish(self) -> None:
        """Write what is left (however long the peer takes to read it), then close."""
        self.transport.close()
        await self.drain.gone.wait()

    def restore(self) -> None:
        # O_NONBLOCK belongs to the pipe, shared with whoever else writes to it.
        with contextlib.suppress(OSError, ValueError):
            os.set_blocking(sys.stdout.fileno(), True)


async def serve_stdio(
    factory: HandlerFactory,
    log: MessageLog,
    limit: int,
    methods: Methods,
    framing: str = "ndjson-stdio",
) -> None:
    """Serve one peer on stdin/stdout until end of input (``framing``: one message
    per line, or ``content-length-stdio``)."""
    pipe = await _StdoutPipe.open()
    write = _write_stdout if pipe is None else pipe.write
    abort = None if pipe is None else pipe.abort
    channel = PipeChannel(
        _read_stdin, write, limit, "stdio", framing=framing, abort=abort
    )
    if pipe is not None:
        channel.put_now = pipe.put
        channel.drained = pipe.drained
    connection = Connection(channel, log, methods)
    connection.serve_with(factory(connection))
    log.status("listening on stdio")  # quiet: nothing in a stderr shared with a client
    try:
        await connection.run()
        if pipe is not None:
            await pipe.finish()
    finally:
        if pipe is not None:
            pipe.abort()  # stopped (SIGTERM): what the peer did not read is dropped
            pipe.restore()


async def connect_stdio(
    command: Sequence[str],
    handlers: Callable[[Session], Mapping[str, Handler]],
    *,
    limit: int = DEFAULT_MAX_MESSAGE_BYTES,
    env: Mapping[str, str] | None = None,
    stderr: int | IO[Any] | None = None,
    log: MessageLog = QUIET,
    methods: Methods | None = None,
    timeout: float | None = None,
    cancel: tuple[str, str] | None = None,
    framing: str = "ndjson-stdio",
) -> Connection:
    """Start ``command`` and talk to it over its stdin/stdout, one message per line or
    (``framing="content-length-stdio"``) after ``Content-Length`` headers.

    ``timeout``: seconds a request waits for its answer (the default of each call) and
    a send for the child to read it (None: no limit); ``cancel``: the notification sent
    when a request times out, as (method, params key of the request's id).  Closing
    waits at most 5 s for the child to exit, then kills it."""
    # The child's stdout is our own pipe, read by a LineReader rather than asyncio's
    # stream reader (whose reading task would cost every response a loop turn); closed
    # by close().
    if framing not in STDIO_FRAMINGS:
        raise ValueError(f"unknown framing {framing!r} (known: {STDIO_FRAMINGS})")
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
        if timeout is None or not stdin.transport.get_write_buffer_size():
            await stdin.drain()
            return
        try:  # the child is not reading: wait for it only so long
            async with asyncio.timeout(timeout):
                await stdin.drain()
        except TimeoutError:
            raise TransportTimeout("send", timeout, peer) from None

    async def close() -> None:
        if not stdin.is_closing():
            stdin.close()
        try:
            await asyncio.wait_for(process.wait(), CLOSE_GRACE)
        except TimeoutError:
            process.kill()
            await process.wait()
        try:
            # The pipe ends when every process holding it has exited: a grandchild
            # may keep it open, so the reading ends at the latest after the grace.
            await asyncio.wait((runner,), timeout=CLOSE_GRACE)
            runner.cancel()
            await asyncio.gather(runner, return_exceptions=True)
        finally:
            for reader in readers:
                reader.pause_reading(
                    "closed"
                )  # never a closed descriptor in the selector
            os.close(read_end)

    async def exit_status() -> str:
        try:
            code = await asyncio.wait_for(process.wait(), 1)
        except TimeoutError:  # it closed its stdout but runs on
            return f": {short(list(command))} closed its output"
        return f": {short(list(command))} exited with status {code}"

    peer = f"pid {process.pid}"
    channel = PipeChannel(read, write, limit, peer, close, framing)
    connection = Connection(channel, log, methods)
    connection.timeout, connection.cancel, connection.client = timeout, cancel, True
    connection.closed_detail = exit_status
    connection.serve_with(handlers(connection))
    runner = asyncio.ensure_future(connection.run())
    return connection
