"""Newline-delimited JSON over pipes, read as the bytes arrive.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: a readable pipe or socket descriptor, or one the loop cannot watch (a regular file,
a terminal), read by a thread.
Outputs: ``LineReader`` (splits bytes into lines and hands each to the connection from
the loop's callback) and ``PipeChannel`` (a connection's channel over a pair of pipes).
Guarantees: a line over the size limit is dropped as it streams past, never held whole,
and reported once; blank lines are skipped and a trailing ``\r`` is dropped; no reader
task stands between the pipe and the handlers (an answer costs no extra loop turn); a
pause stops the reading thread too (it hands over one chunk at a time and waits while
reading is paused), so a regular file as input is read no faster than it is answered.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Final

from .errors import MessageTooLarge

if TYPE_CHECKING:
    from .connection import Connection


class LineReader:
    """Reads a pipe as its bytes arrive (the loop calls it when the pipe is readable),
    splits them into lines and hands each non-blank line (without its newline) to the
    connection from that callback.  A line over ``limit`` bytes is dropped as it
    streams past (never held whole) and reported once.
    """

    CHUNK: Final = 65536  # read size; under malloc's mmap threshold, unlike asyncio's

    def __init__(self, connection: Connection, limit: int) -> None:
        self.connection = connection
        self.limit = limit
        self.loop = asyncio.get_running_loop()
        self.ended: asyncio.Future[None] = self.loop.create_future()
        self.fileno = -1
        self._buffer = bytearray()
        self._skipping = False  # inside a line over the limit
        self.stopped = False  # stop(): nothing more is read or handed on
        self._holds: set[str] = set()  # why reading is paused (a full inbox, output)
        self._gate: threading.Event | None = None  # open while a thread may read

    def watch(self, fileno: int) -> None:
        """Read ``fileno`` (a pipe or socket, made non-blocking) from the event loop."""
        self.loop.add_reader(fileno, self._readable)
        os.set_blocking(fileno, False)  # once watched: a thread may read it otherwise
        self.fileno = fileno
        self.connection.flow = self

    def read_by_thread(self, fileno: int) -> None:
        """Read ``fileno`` (a regular file or a terminal, which epoll refuses) from a
        thread that hands over one chunk at a time and waits while reading is paused."""
        gate = self._gate = threading.Event()
        gate.set()
        self.connection.flow = self

        def pump() -> None:
            while gate.wait() and not self.stopped:
                try:
                    chunk = os.read(fileno, self.CHUNK)
                except OSError:
                    chunk = b""  # the end of input
                taken = threading.Event()
                try:
                    self.loop.call_soon_threadsafe(self._hand_over, chunk, taken)
                except RuntimeError:  # the loop is closed: nobody reads any more
                    return
                # one chunk in flight: a pause it causes holds the next read back
                while chunk and not taken.wait(0.5):
                    if self.stopped or self.loop.is_closed():
                        return
                if not chunk:
                    return

        threading.Thread(target=pump, daemon=True).start()

    def _hand_over(self, chunk: bytes, taken: threading.Event) -> None:
        try:
            if chunk:
                self.data_received(chunk)
            else:
                self.connection.flow = None
                self.eof_received()
        finally:
            taken.set()

    def pause_reading(self, why: str = "inbox") -> None:
        """Read no more until ``resume_reading(why)`` (and every other pause ended)."""
        self._holds.add(why)
        if self._gate is not None:
            self._gate.clear()
        if self.fileno >= 0 and not self.loop.is_closed():
            self.loop.remove_reader(self.fileno)

    def resume_reading(self, why: str = "inbox") -> None:
        self._holds.discard(why)
        if self._holds:
            return
        if self._gate is not None:
            self._gate.set()
        if self.fileno >= 0:
            self.loop.add_reader(self.fileno, self._readable)

    def _readable(self) -> None:
        try:
            data = os.read(self.fileno, self.CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""  # the peer is gone: the end of input
        if data:
            self.data_received(data)
            return
        self.loop.remove_reader(self.fileno)
        self.connection.flow = None
        self.fileno = -1
        self.eof_received()

    def stop(self) -> None:
        """Read no more (the peer can no longer be answered): the end of input, now."""
        self.stopped = True
        if self._gate is not None:
            self._gate.set()  # a waiting thread sees ``stopped`` and ends
        if self.fileno >= 0:
            if not self.loop.is_closed():
                self.loop.remove_reader(self.fileno)
            self.connection.flow = None
            self.fileno = -1
        self._buffer.clear()
        if not self.ended.done():
            self.ended.set_result(None)

    def data_received(self, data: bytes) -> None:
        if self.stopped:  # chunks a reading thread had already handed over
            return
        buffer = self._buffer
        if (
            not buffer
            and data.find(b"\n") == len(data) - 1
            and len(data) <= self.limit + 1
            and not self._skipping
        ):  # one whole line, as a peer waiting for each answer sends it
            if data[0] == 123 and data[-2] != 13:  # "{", no "\r": the message as is
                self.connection.take_line(data[:-1])
            else:
                self._line(data[:-1])
            return
        buffer += data
        start = 0
        while (end := buffer.find(b"\n", start)) >= 0:
            if self._skipping:
                self._skipping = False
            elif end - start > self.limit:
                self.connection.too_large(MessageTooLarge(self.limit))
            else:
                self._line(bytes(buffer[start:end]))
            start = end + 1
        del buffer[:start]
        if len(buffer) > self.limit:
            if not self._skipping:
                self._skipping = True
                self.connection.too_large(MessageTooLarge(self.limit))
            buffer.clear()

    def _line(self, line: bytes) -> None:
        if line.endswith(b"\r"):
            line = line[:-1]
        if line.strip():
            self.connection.feed(line)

    def eof_received(self) -> None:
        if not self._skipping and self._buffer and not self.stopped:
            self._line(bytes(self._buffer))
        self._buffer.clear()
        if not self.ended.done():
            self.ended.set_result(None)


STDIO_FRAMINGS: Final = ("ndjson-stdio", "content-length-stdio")
"""How messages are framed over pipes: one per line, or ``Content-Length`` headers."""


class PipeChannel:
    """Newline-delimited JSON over pipes (a child's stdin/stdout, our own stdio), read
    as the bytes arrive: no reader task stands between the pipe and the handlers, so an
    answer or a response costs no extra event-loop turn.
    """

    def __init__(
        self,
        open_reader: Callable[[LineReader], Awaitable[None]],
        write: Callable[[bytes], Awaitable[None]],
        limit: int,
        peer: str,
        on_close: Callable[[], Awaitable[None]] | None = None,
        framing: str = "ndjson-stdio",
        abort: Callable[[], None] | None = None,
    ) -> None:
        if framing not in STDIO_FRAMINGS:
            raise ValueError(f"unknown framing {framing!r} (known: {STDIO_FRAMINGS})")
        self._open_reader = open_reader
        self._write = write
        self.limit = limit
        self.peer = peer
        self.content_length = framing == "content-length-stdio"
        self._on_close = on_close
        self._abort = abort  # drops what waits to be written (stop())
        # A pipe written without waiting where it can be (our own stdout): ``put_now``
        # writes at once (True: all of it taken; False: the rest is buffered, and
        # ``drained`` waits for it), so an answer costs no coroutine of the channel's.
        self.put_now: Callable[[bytes], bool] | None = None
        self.drained: Callable[[], Awaitable[None]] | None = None
        self._reader: LineReader | None = None

    async def pump(self, connection: Connection) -> None:
        """Feed ``connection`` every line until the end of input."""
        if self.content_length:
            from .content_length import ContentLengthReader

            reader: LineReader = ContentLengthReader(connection, self.limit)
        else:
            reader = LineReader(connection, self.limit)
        self._reader = reader
        await self._open_reader(reader)
        await reader.ended

    async def send(self, data: str | bytes) -> None:
        if isinstance(data, str):
            data = data.encode("utf-8")
        if self.content_length:
            await self._write(b"Content-Length: %d\r\n\r\n%b" % (len(data), data))
        else:
            await self._write(data + b"\n")

    def put(self, data: str | bytes) -> bool | None:
        """Write one message now where the pipe allows it: True once all of it is in
        the pipe; False when the rest waits in the buffer (``wait`` for it); None
        when nothing was written (this channel cannot: ``send`` it)."""
        put = self.put_now
        if put is None or self.content_length:
            return None
        if isinstance(data, str):
            data = data.encode("utf-8")
        return put(data + b"\n")

    async def wait(self) -> None:
        """Return once what ``put`` left in the buffer is in the pipe."""
        if self.drained is not None:
            await self.drained()

    def stop(self) -> None:
        """Read no more, and write no more: ``pump`` returns, and sends waiting for
        the peer to read fail."""
        if self._reader is not None:
            self._reader.stop()
        if self._abort is not None:
            self._abort()

    async def close(self) -> None:
        if self._on_close is not None:
            await self._on_close()
