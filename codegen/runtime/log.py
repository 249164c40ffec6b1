"""Message logging: one line per message on stderr, one JSON line per message in a transcript.

Phase: runtime (every generated package carries this module in its ``_rpc`` package).
Inputs: each message as sent or received, its direction and peer.
Outputs: ``MessageLog`` (a server's log: ``status`` lines of normal operation, shown
unless quiet; ``info`` lines of problems, always shown; ``message`` lines) and
``QUIET`` (a client's default: logs nothing).
Guarantees: a quiet log without a transcript costs nothing per message; a transcript
that cannot be written (a full disk) is closed once and reported, and never stops the
server; control characters from peers are escaped in stderr lines.
"""

from __future__ import annotations

import contextlib
import sys
import time
from typing import IO, Final

from .codec import dumps, loads
from .errors import JsonObject, RpcError, printable, short


class MessageLog:
    """Logs each message: one line on stderr (unless quiet), one JSON line per message
    in the transcript file when there is one.
    """

    def __init__(
        self, name: str, *, quiet: bool = False, transcript: str | None = None
    ) -> None:
        self.name = name
        self.quiet = quiet
        self._file: IO[str] | None = None
        if transcript:  # open for the life of the server, closed by close()
            self._file = open(transcript, "a", encoding="utf-8")  # noqa: SIM115

    def info(self, text: str) -> None:
        # Peer text (a method name, an error) is shown with its control characters
        # escaped: a peer must not drive the terminal reading our log.
        shown = "\n".join(printable(line) for line in text.split("\n"))
        print(f"{self.name}: {shown}", file=sys.stderr, flush=True)

    def status(self, text: str) -> None:
        """A line of normal operation (listening, a peer connected, stopped): shown
        unless quiet, where only problems are (``info``)."""
        if not self.quiet:
            self.info(text)

    def message(self, direction: str, peer: str, data: str | bytes) -> None:
        if self.quiet and self._file is None:
            return  # the hot path of a quiet server: nothing to decode or format
        text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
        if not self.quiet:
            arrow = "<-" if direction == "in" else "->"
            shown = printable(short(text, 300))
            print(f"{self.name} {arrow} {peer}: {shown}", file=sys.stderr)
        if self._file is not None:
            entry: JsonObject = {"time": time.time(), "direction": direction}
            entry["peer"] = peer
            try:
                entry["message"] = loads(text)
            except RpcError:
                entry["raw"] = text
            try:
                self._file.write(dumps(entry) + "\n")
                self._file.flush()
            except OSError as error:  # a full disk must not stop the server
                self.info(f"transcript stopped: {error}")
                self.close()

    def close(self) -> None:
        """Close the transcript, once: a close that fails (the flush of what is still
        buffered, on a full disk) leaves it closed all the same."""
        file, self._file = self._file, None
        if file is not None:
            with contextlib.suppress(OSError):
                file.close()


QUIET: Final = MessageLog("client", quiet=True)
