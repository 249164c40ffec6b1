"""Source text with positions: the bridge between parser byte offsets and user-facing spans.

Phase: used by every frontend (and by the diagnostic renderer, to echo a line).
Inputs: a spec source file's bytes (or in-memory text) and its repo-relative path.
Outputs: ``Span``s with 1-based line and character (not byte) columns; diagnostics (SRC***)
for bytes that are not UTF-8 text.
Guarantees: reading never raises on the file's content: a UTF-8 byte order mark is dropped
(as tsc, rustc and go do), invalid UTF-8 is an SRC001 error at the first bad byte and reads
on with U+FFFD (unless more than a few bytes are bad: then the file is not read), a
UTF-16/32 file (byte order mark) is an SRC002 error and reads on decoded (unless it does
not decode as such either), a file full of NUL bytes is SRC002 and not read; an unreadable file is SRC003.  Lines are numbered by ``\\n`` alone, as tree-sitter counts
rows, so a form feed or U+2028 inside a line never shifts a caret (``split_lines``).
Columns count characters, so a caret lands right on lines with non-ASCII text
(``─── initialize ───``, ``Client → Server``); the hash is of the exact bytes read.
"""

from __future__ import annotations

import codecs
import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from codegen.ir import Span

if TYPE_CHECKING:  # the catalogue module imports this one to echo lines
    from codegen.diagnostics import Diagnostics

_WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16 LE: it starts with the same bytes
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


# Past this many invalid bytes (or NULs), a file is not text with a few bad bytes in it.
_MAX_BAD = 16


@dataclass(frozen=True)
class Decoded:
    """Text decoded from a file's bytes, and what was wrong with them (if anything)."""

    text: str
    code: str = ""  # "" | "SRC001" | "SRC002"
    message: str = ""
    line: int = 1
    col: int = 1


def decode(raw: bytes) -> Decoded:
    """Decode a spec source; never raises (see the module docstring)."""
    for bom, encoding in _WIDE_BOMS:
        if raw.startswith(bom):
            text = raw.decode(encoding, errors="replace")
            message = (
                f"the file is {encoding.upper()} (it starts with a byte order mark); "
                "spec sources must be UTF-8: save it as UTF-8"
            )
            if text.count("\ufffd") + text.count("\0") > _MAX_BAD:
                return Decoded(
                    "", "SRC002", f"{message} (it is not even that: not read)"
                )
            return Decoded(text, "SRC002", message)
    raw = raw.removeprefix(codecs.BOM_UTF8)
    nuls = raw.count(b"\0")
    if nuls > max(_MAX_BAD, len(raw) // 100):  # no spec source holds NULs: not text
        return Decoded(
            "",
            "SRC002",
            f"the file holds {nuls} NUL bytes: it is not UTF-8 text (UTF-16 without a "
            "byte order mark?) and was not read",
        )
    try:
        return Decoded(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        bad = error.start
    line_start = raw.rfind(b"\n", 0, bad) + 1
    line = raw.count(b"\n", 0, bad) + 1
    col = len(raw[line_start:bad].decode("utf-8", errors="replace")) + 1
    text = raw.decode("utf-8", errors="replace")
    count = text.count("\ufffd") - raw.count("\ufffd".encode())
    message = (
        f"not valid UTF-8: byte 0x{raw[bad]:02x} cannot start or continue a character"
    )
    if count > _MAX_BAD:  # binary, or another encoding: reading on would be noise
        return Decoded(
            "", "SRC001", f"{message} ({count} invalid bytes: not read)", line, col
        )
    return Decoded(text, "SRC001", f"{message} (read on as U+FFFD)", line, col)


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` as spans number them: split at ``\\n`` only (a ``\\r`` before
    it dropped), never at form feeds, U+2028 or the other breaks ``str.splitlines`` knows.
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


@dataclass
class SourceText:
    rel_path: str  # repo-relative, POSIX separators
    text: str
    # The bytes the text was decoded from, when they were not its UTF-8 encoding.
    original: bytes | None = field(default=None, repr=False)
    data: bytes = field(init=False, repr=False)
    _line_starts: list[int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # surrogatepass: in-memory text (fuzz tests) may hold lone surrogates.
        self.data = self.text.encode("utf-8", errors="surrogatepass")
        starts = [0]
        position = self.data.find(b"\n")
        while position >= 0:
            starts.append(position + 1)
            position = self.data.find(b"\n", position + 1)
        self._line_starts = starts
        self._lines: list[str] | None = None
        self._ascii_rows: dict[int, bool] = {}

    @classmethod
    def read(
        cls, path: Path, rel_path: str, diags: Diagnostics | None = None
    ) -> SourceText:
        """The file as text; problems with its bytes go to ``diags`` (see module doc)."""
        try:
            raw = path.read_bytes()
        except OSError as error:
            if diags is not None:
                reason = error.strerror or str(error)
                diags.report(
                    "SRC003", f"cannot read {rel_path}: {reason}", Span(rel_path, 1, 1)
                )
            return cls(rel_path, "", original=b"")
        decoded = decode(raw)
        if decoded.code and diags is not None:
            span = Span(rel_path, decoded.line, decoded.col)
            diags.report(decoded.code, decoded.message, span)
        source = cls(rel_path, decoded.text)
        if source.data != raw:
            source.original = raw
        return source

    @property
    def sha256(self) -> str:
        return hashlib.sha256(
            self.original if self.original is not None else self.data
        ).hexdigest()

    def span_at_point(self, row: int, byte_col: int) -> Span:
        """A span from a tree-sitter point (0-based row, byte column)."""
        return Span(self.rel_path, row + 1, self._char_col(row, byte_col) + 1)

    def line_text(self, line: int) -> str:
        if self._lines is None:  # split once: frontends ask for many lines of one file
            self._lines = split_lines(self.text)
        lines = self._lines
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def _char_col(self, row: int, byte_col: int) -> int:
        if row >= len(self._line_starts):
            return byte_col
        start = self._line_starts[row]
        ascii_row = self._ascii_rows.get(row)
        if ascii_row is None:  # once per line: a long line has many columns asked
            end = (
                self._line_starts[row + 1]
                if row + 1 < len(self._line_starts)
                else len(self.data)
            )
            ascii_row = self._ascii_rows[row] = self.data[start:end].isascii()
        if ascii_row:
            return byte_col
        prefix = self.data[start : start + byte_col]
        return len(prefix.decode("utf-8", errors="replace"))
