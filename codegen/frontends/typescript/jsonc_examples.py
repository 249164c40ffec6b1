"""Split a JSDoc ``@example`` block of JSONC wire messages into individual samples.

Phase: frontend helper.
Inputs: the text of an ``@example`` tag (a ```jsonc fence holding several messages, each
preceded by ``// Client → Server``-style comment lines) and the source line it starts on.
Outputs: ``Sample``s: the message text with comments removed, its line, the comment as a note,
and an error when it is not valid JSON (``...`` placeholders, truncated objects).
Guarantees: never raises; every top-level value in the block becomes a sample, valid or not.
"""

from __future__ import annotations

import json
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Sample:
    json_text: str
    line: int
    note: str
    error: str | None


@dataclass
class _Scanner:
    depth: int = 0
    in_string: bool = False
    escaped: bool = False
    placeholder: bool = False  # a ``...`` outside strings was seen

    def feed_line(self, line: str) -> str:
        """Consume one line, returning it with ``//`` comments (outside strings) removed."""
        out: list[str] = []
        outside: list[str] = []  # the line's characters outside strings, quotes dropped
        for index, char in enumerate(line):
            if self.in_string:
                out.append(char)
                if self.escaped:
                    self.escaped = False
                elif char == "\\":
                    self.escaped = True
                elif char == '"':
                    self.in_string = False
            elif char == "/" and line[index : index + 2] == "//":
                break
            else:
                out.append(char)
                if char == '"':
                    self.in_string = True
                else:
                    outside.append(char)
                if char in "{[":
                    self.depth += 1
                elif char in "}]":
                    self.depth -= 1
        self.placeholder = self.placeholder or "..." in "".join(outside)
        return "".join(out).rstrip()


def split_examples(text: str, first_line: int) -> list[Sample]:
    samples: list[Sample] = []
    notes: list[str] = []
    scanner = _Scanner()
    current: list[str] = []
    start = 0
    for offset, line in enumerate(text.split("\n")):
        stripped = line.strip()
        if not current:
            if stripped.startswith("```") or not stripped:
                continue
            if stripped.startswith("//"):
                notes.append(stripped[2:].strip())
                continue
            start = first_line + offset
        current.append(scanner.feed_line(line))
        if scanner.depth <= 0 and not scanner.in_string:
            samples.append(
                _finish(current, start, " / ".join(notes), scanner.placeholder)
            )
            current, notes, scanner = [], [], _Scanner()
    if current:
        samples.append(
            _finish(
                current,
                start,
                " / ".join(notes),
                scanner.placeholder,
                "the message is not closed",
            )
        )
    return samples


def _finish(
    lines: list[str],
    line: int,
    note: str,
    placeholder: bool,
    forced: str | None = None,
) -> Sample:
    body = "\n".join(lines).strip()
    error = forced
    if error is None:
        try:
            json.loads(body)
        except json.JSONDecodeError as exc:
            error = (
                f"not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
            )
            if placeholder:
                error = "it contains a '...' placeholder; " + error
    return Sample(body, line, note, error)
