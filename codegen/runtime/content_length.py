"""Content-Length framing over pipes: ``Content-Length: N\\r\\n\\r\\n`` then N bytes of JSON.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: the bytes of a pipe (the base protocol of the editor and debugger protocols: a
header block of ``Name: value`` lines, each ended by CRLF, a blank line, the body).
Outputs: ``ContentLengthReader``, a ``LineReader`` that hands the connection each body
(``PipeChannel`` writes the headers of what it sends).
Guarantees: a header block must end within ``MAX_HEADER_BYTES``, name ``Content-Length``
once (decimal digits only), and end its lines with CRLF; anything else is answered as a
parse error (-32700) and reading resumes at the next ``Content-Length`` header after
the bad block's start (its body has no known length, so it is skipped).  A body over the size
limit is dropped as it streams past, never held whole, and answered -32600.  Input that
ends inside a message is reported once.  Header names are case-insensitive; other
headers (``Content-Type``) are accepted and ignored.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from .errors import MessageTooLarge
from .framing import LineReader

if TYPE_CHECKING:
    from .connection import Connection

MAX_HEADER_BYTES: Final = 8192
"""The longest header block read before it is refused (every real one is a few dozen)."""
_MAX_LENGTH_DIGITS: Final = 20
_HEADER_START: Final = re.compile(rb"(?i)content-length:")
_KEPT_WHILE_SEARCHING: Final = len(b"content-length:") - 1  # a name split by a read


class ContentLengthReader(LineReader):
    """Reads Content-Length framed messages from a pipe, as its bytes arrive."""

    def __init__(self, connection: Connection, limit: int) -> None:
        super().__init__(connection, limit)
        self._body = -1  # bytes of the current body; -1 while reading a header block
        self._dropping = 0  # bytes of an oversized body still to go past unread
        self._resync = False  # after a bad header block: skip to the next header

    def data_received(self, data: bytes) -> None:
        if self.stopped:
            return
        buffer = self._buffer
        buffer += data
        while buffer and not self.stopped:
            if self._dropping:
                taken = min(self._dropping, len(buffer))
                del buffer[:taken]
                self._dropping -= taken
                continue
            if self._resync:
                found = _HEADER_START.search(buffer)
                if found is None:
                    del buffer[: max(0, len(buffer) - _KEPT_WHILE_SEARCHING)]
                    return
                del buffer[: found.start()]
                self._resync = False
                continue
            if self._body >= 0:
                if len(buffer) < self._body:
                    return
                body = bytes(buffer[: self._body])
                del buffer[: self._body]
                self._body = -1
                self.connection.feed(body)
                continue
            if buffer.startswith(b"\r\n"):  # a stray blank line between messages
                del buffer[:2]
                continue
            end = buffer.find(b"\r\n\r\n", 0, MAX_HEADER_BYTES + 4)
            if end < 0:
                if len(buffer) <= MAX_HEADER_BYTES:
                    return  # the rest of the header block is still coming
                del buffer[:1]  # past this block's start: search for the next
                self._malformed(
                    f"no header block end (CRLF CRLF) in {MAX_HEADER_BYTES} bytes"
                )
                continue
            length = self._length(bytes(buffer[:end]))
            if length is None:  # the next header may be inside this block: look there
                del buffer[:1]
                continue
            del buffer[: end + 4]
            if length > self.limit:
                self.connection.too_large(MessageTooLarge(self.limit))
                self._dropping = length
            else:
                self._body = length

    def _length(self, header: bytes) -> int | None:
        """The body length a header block announces; None (reported) if it is bad."""
        length: int | None = None
        for line in header.split(b"\r\n"):
            name, colon, value = line.partition(b":")
            if not colon or not name or name != name.strip() or b"\n" in line:
                shown = line[:60].decode("utf-8", "replace")
                self._malformed(f"bad header line {shown!r}")
                return None
            if name.lower() != b"content-length":
                continue
            digits = value.strip()
            if length is not None:
                self._malformed("Content-Length given twice")
                return None
            if not digits.isdigit() or len(digits) > _MAX_LENGTH_DIGITS:
                shown = digits[:30].decode("utf-8", "replace")
                self._malformed(f"bad Content-Length {shown!r}")
                return None
            length = int(digits)
        if length is None:
            self._malformed("no Content-Length header")
        return length

    def _malformed(self, reason: str) -> None:
        self._resync = True
        self.connection.malformed(f"invalid header: {reason}")

    def eof_received(self) -> None:
        inside = bool(self._buffer.strip(b"\r\n")) or self._body >= 0
        if inside and not self._dropping and not self._resync and not self.stopped:
            self._malformed("the input ended inside a message")
        self._buffer.clear()
        if not self.ended.done():
            self.ended.set_result(None)
