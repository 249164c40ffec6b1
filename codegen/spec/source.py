"""Source text with positions: the bridge between parser byte offsets and user-facing spans.

Phase: used by every frontend.
Inputs: a spec source file (or in-memory text) and its repo-relative path.
Outputs: ``Span``s with 1-based line and character (not byte) columns.
Guarantees: columns count characters, so a caret lands right on lines with non-ASCII text
(``─── initialize ───``, ``Client → Server``); a hash of the exact bytes for provenance.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from codegen.ir import Span


@dataclass
class SourceText:
    rel_path: str  # repo-relative, POSIX separators
    text: str
    data: bytes = field(init=False, repr=False)
    _line_starts: list[int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.data = self.text.encode("utf-8")
        starts = [0]
        position = self.data.find(b"\n")
        while position >= 0:
            starts.append(position + 1)
            position = self.data.find(b"\n", position + 1)
        self._line_starts = starts
        self._lines: list[str] | None = None

    @classmethod
    def read(cls, path: Path, rel_path: str) -> SourceText:
        return cls(rel_path, path.read_text(encoding="utf-8"))

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    def span_at_point(self, row: int, byte_col: int) -> Span:
        """A span from a tree-sitter point (0-based row, byte column)."""
        return Span(self.rel_path, row + 1, self._char_col(row, byte_col) + 1)

    def line_text(self, line: int) -> str:
        if self._lines is None:  # split once: frontends ask for many lines of one file
            self._lines = self.text.splitlines()
        lines = self._lines
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def _char_col(self, row: int, byte_col: int) -> int:
        if row >= len(self._line_starts):
            return byte_col
        start = self._line_starts[row]
        prefix = self.data[start : start + byte_col]
        return len(prefix.decode("utf-8", errors="replace"))
