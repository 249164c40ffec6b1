"""A WebSocket message over the size limit answered, not fatal: a filter before aiohttp's reader.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: the bytes of a server WebSocket connection, before aiohttp's frame reader.
Outputs: ``OversizeFilter``: the same bytes, but a data message over the limit replaced
by one binary frame holding a per-connection random marker.
Guarantees: a dropped message is never held whole (at most ``limit`` bytes of one
message are held, as aiohttp would); every other byte reaches aiohttp unchanged, and
aiohttp still validates every frame it gets.  What aiohttp would check of a frame it
never gets, the filter checks (RFC 6455): frames masked, reserved bits clear, known
opcodes, continuations only inside a message and no new message inside one, a 64-bit
length without its top bit, UTF-8 text; it also refuses unmasked frames aiohttp would
take.  The bytes of unfinished messages are reserved from the process's budget
(``PARTIALS``): a peer whose message would take it past the budget is disconnected.
A violation fails the connection as aiohttp's own reader does (the close code and
reason reach the socket's ``receive``).
"""

from __future__ import annotations

import codecs
import os
from typing import Any

from .pressure import PARTIALS, PartialBudget

PROTOCOL_ERROR = 1002  # RFC 6455 §7.4.1
INVALID_DATA = 1007
TOO_BIG = 1009


class OversizeFilter:
    """Sits between aiohttp's connection and its WebSocket frame reader: a data message
    over the limit is dropped as its bytes stream past (never held whole), and a binary
    frame holding ``marker`` (random per connection, so no peer can forge it) takes its
    place; the channel answers it with -32600 and the connection goes on.

    aiohttp itself would close the socket (1009) on such a message.  Frame headers are
    parsed here (RFC 6455 §5.2) only to know where messages start and end; every other
    byte, and every frame this filter does not drop, goes to aiohttp's reader unchanged,
    which still does all validation.  Fragments of one message are held until its last
    frame (at most ``limit`` bytes, as aiohttp would hold).  Requires no compression
    (sizes are then the message sizes).
    """

    def __init__(
        self,
        inner: Any,
        limit: int,
        queue: Any = None,
        budget: PartialBudget = PARTIALS,
    ) -> None:
        self.inner = inner
        self.limit = limit
        self.queue = queue  # aiohttp's message queue: where a failure is reported
        self.budget = budget
        self.reserved = 0  # bytes of the unfinished message taken from the budget
        self.failure: tuple[int, str] | None = None
        self._open = False  # inside a fragmented data message
        self._text = False  # the current data message is text
        self._utf8: Any = None  # the decoder checking a dropped text message
        self._mask = b""  # the current frame's key, and how far into its payload
        self._offset = 0
        self.marker = b"\x00oversized:" + os.urandom(16)
        self._header = bytearray()
        self._remaining = 0  # payload bytes left in the current frame
        self._action = "pass"  # of the current frame: pass | hold | drop
        self._final = False  # the current frame ends its message
        self._size = 0  # bytes of the current data message so far
        self._dropping = False
        self._held = bytearray()

    def feed_eof(self) -> None:
        self.release()
        self.inner.feed_eof()

    def release(self) -> None:
        """Give the budget back what this connection holds (its end, or a message's)."""
        self.budget.release(self.reserved)
        self.reserved = 0

    def _fail(self, code: int, reason: str) -> tuple[bool, bytes]:
        """Fail the connection as aiohttp's reader does: the error goes to the socket's
        ``receive`` (which closes with ``code``), and nothing more is read."""
        if self.failure is None:
            self.failure = (code, reason)
            self.release()
            self._held.clear()
            if self.queue is not None:
                from aiohttp import WebSocketError

                self.queue.set_exception(WebSocketError(code, reason))
        return True, b""

    def feed_data(self, data: bytes | bytearray | memoryview) -> tuple[bool, bytes]:
        if self.failure is not None:
            return True, b""
        try:
            return self._feed(data)
        except _Violation as violation:
            return self._fail(violation.code, violation.reason)

    def _feed(self, data: bytes | bytearray | memoryview) -> tuple[bool, bytes]:
        if self._passes_whole(data):  # the common case: whole frames, nothing to drop
            passed: tuple[bool, bytes] = self.inner.feed_data(data)
            return passed
        view = memoryview(bytes(data))
        out = bytearray()
        position = 0
        try:
            while position < len(view):
                if self._remaining == 0 and not self._in_payload:
                    position = self._read_header(view, position, out)
                    continue
                take = min(self._remaining, len(view) - position)
                self._route(view[position : position + take], out)
                position += take
                self._remaining -= take
                if self._remaining == 0:
                    self._end_frame(out)
        except _Violation:
            if out:  # the frames before the bad one, as aiohttp would have had them
                self.inner.feed_data(bytes(out))
            raise
        if out:
            result: tuple[bool, bytes] = self.inner.feed_data(bytes(out))
            return result
        return False, b""

    _in_payload = False
    _data_frame = False

    def _passes_whole(self, data: bytes | bytearray | memoryview) -> bool:
        """Whether ``data`` is whole frames, each passed unchanged (a complete data
        message within the limit, or a control frame), with no frame begun before it;
        if so the state is left as the byte-by-byte path would leave it."""
        if self._header or self._in_payload or self._held or self._dropping:
            return False
        if self._open:
            return False
        end = len(data)
        position = 0
        size, action, final = self._size, self._action, self._final
        while position < end:
            if end - position < 2:
                return False
            first, second = data[position], data[position + 1]
            length = second & 0x7F
            start = position + 2
            if length == 126:
                length = int.from_bytes(data[start : start + 2], "big")
                start += 2
            elif length == 127:
                length = int.from_bytes(data[start : start + 8], "big")
                start += 8
            if not second & 0x80 or first & 0x70:
                return False  # unmasked, or reserved bits: the careful path refuses
            start += 4
            opcode = first & 0x0F
            if opcode in (0x1, 0x2):
                if not first & 0x80 or length > self.limit:
                    return False  # a fragment or too large: the careful path
                size, action, final = length, "pass", True
            elif opcode == 0x0 or opcode not in (0x8, 0x9, 0xA):
                return False  # a continuation, or an unknown opcode: the careful path
            else:  # control frames (and anything malformed) pass: aiohttp judges
                action, final = "pass", False
            position = start + length
            if position > end:
                return False
        self._size, self._action, self._final = size, action, final
        return True

    def _read_header(self, view: memoryview, position: int, out: bytearray) -> int:
        needed = 2
        while True:
            if len(self._header) >= 2:
                length_flag = self._header[1] & 0x7F
                extra = 2 if length_flag == 126 else 8 if length_flag == 127 else 0
                mask = 4 if self._header[1] & 0x80 else 0
                needed = 2 + extra + mask
            if len(self._header) >= needed:
                break
            if position >= len(view):
                return position
            self._header.append(view[position])
            position += 1
        header = bytes(self._header)
        self._header.clear()
        self._start_frame(header, out)
        return position

    def _start_frame(self, header: bytes, out: bytearray) -> None:
        fin, opcode = bool(header[0] & 0x80), header[0] & 0x0F
        length_flag = header[1] & 0x7F
        if length_flag == 126:
            length = int.from_bytes(header[2:4], "big")
        elif length_flag == 127:
            length = int.from_bytes(header[2:10], "big")
            if length >> 63:
                raise _Violation(PROTOCOL_ERROR, "a frame length with its top bit set")
        else:
            length = length_flag
        if not header[1] & 0x80:
            raise _Violation(PROTOCOL_ERROR, "a frame from a client that is not masked")
        self._mask, self._offset = header[-4:], 0
        action = "pass"
        if opcode in (0x0, 0x1, 0x2):  # a data frame
            if header[0] & 0x70:
                raise _Violation(PROTOCOL_ERROR, "a data frame with reserved bits set")
            if opcode == 0x0 and not self._open:
                raise _Violation(PROTOCOL_ERROR, "a continuation frame of no message")
            if opcode != 0x0 and self._open:
                raise _Violation(
                    PROTOCOL_ERROR, "a new message inside an unfinished fragmented one"
                )
            if opcode != 0x0:
                self._size, self._dropping = 0, False
                self._text, self._utf8 = opcode == 0x1, None
                self._held.clear()
            self._open = not fin
            self._size += length
            if self._dropping or self._size > self.limit:
                if not self._dropping and self._text and opcode:  # from its start:
                    # aiohttp never sees it, so its UTF-8 is checked here
                    self._utf8 = codecs.getincrementaldecoder("utf-8")()
                action, self._dropping = "drop", True
                self._held.clear()
                self.release()  # what was held of it is dropped
            elif not fin or self._held:
                action = "hold"
        elif opcode not in (0x8, 0x9, 0xA):
            raise _Violation(PROTOCOL_ERROR, f"an unknown opcode {opcode:#x}")
        # control frames and anything malformed pass: aiohttp judges them
        self._action, self._final = action, fin and opcode in (0x0, 0x1, 0x2)
        self._data_frame = opcode in (0x0, 0x1, 0x2)
        if action == "pass":
            out += header
        elif action == "hold":
            self._held += header
        self._remaining = length
        self._in_payload = True
        if length == 0:
            self._end_frame(out)

    def _route(self, chunk: memoryview, out: bytearray) -> None:
        if self._action == "pass":
            out += chunk
        elif self._action == "hold":
            self._held += chunk
        else:  # dropped: aiohttp never sees it, so its text is checked here
            self._check_text(chunk)
        if self._action != "drop" and self._data_frame:
            # aiohttp (or we) hold these bytes until the message is complete
            if not self.budget.reserve(len(chunk)):
                raise _Violation(
                    TOO_BIG,
                    "unfinished messages over the process's budget of "
                    f"{self.budget.total} bytes",
                )
            self.reserved += len(chunk)

    def _check_text(self, chunk: memoryview) -> None:
        if self._utf8 is None or not len(chunk):
            return
        from aiohttp._websocket.helpers import websocket_mask

        turn = self._offset % 4
        payload = bytearray(chunk)
        websocket_mask(self._mask[turn:] + self._mask[:turn], payload)
        self._offset += len(payload)
        try:
            self._utf8.decode(bytes(payload))
        except UnicodeDecodeError:
            raise _Violation(INVALID_DATA, "a text message that is not UTF-8") from None

    def _end_frame(self, out: bytearray) -> None:
        self._in_payload = False
        if not self._final:
            return
        self.release()  # the message is complete: aiohttp hands it on
        if self._utf8 is not None:
            try:
                self._utf8.decode(b"", final=True)
            except UnicodeDecodeError:
                raise _Violation(
                    INVALID_DATA, "a text message that is not UTF-8"
                ) from None
            self._utf8 = None
        if self._dropping:
            self._dropping = False
            out += b"\x82" + bytes([len(self.marker)]) + self.marker
        elif self._held:
            out += self._held
            self._held.clear()


class _Violation(Exception):
    """A frame RFC 6455 forbids (or one over the budget): the connection fails."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
