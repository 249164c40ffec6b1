"""User-facing problems: one catalogue of codes, a collector per phase, a renderer.

Phase: cross-cutting; every phase reports through a ``Diagnostics`` collector.
Inputs: problems found in spec sources or configuration, with their ``Span``.
Outputs: ``Diagnostic`` records, rendered as ``path:line:col: error[CODE]: message`` followed by
the source line and a caret.
Guarantees: every code used anywhere is in ``CATALOGUE`` (an unknown code is a bug and raises);
rendering is deterministic; ``--strict`` promotes warnings to errors in one place.
"""

from __future__ import annotations

import difflib
import enum
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from codegen.ir import Span
from codegen.spec.source import decode, split_lines


class Severity(enum.Enum):
    NOTE = "note"
    WARNING = "warning"
    ERROR = "error"


# code → (default severity, one-line summary).  Codes are stable: tests and users match on them.
CATALOGUE: dict[str, tuple[Severity, str]] = {
    # configuration
    "CFG001": (Severity.ERROR, "spec.toml is missing or unreadable"),
    "CFG002": (Severity.ERROR, "spec.toml has an invalid or unknown setting"),
    "CFG003": (Severity.ERROR, "a source file named in spec.toml does not exist"),
    "CFG004": (
        Severity.WARNING,
        "an external type declared in spec.toml is never referenced",
    ),
    # source bytes
    "SRC001": (Severity.ERROR, "a source file is not valid UTF-8"),
    "SRC002": (Severity.ERROR, "a source file is UTF-16 or UTF-32, not UTF-8"),
    "SRC003": (Severity.ERROR, "a source file cannot be read"),
    # syntax and unknown constructs
    "SYN001": (Severity.ERROR, "the source does not parse"),
    "SYN002": (Severity.WARNING, "an unsupported construct was skipped"),
    "SYN003": (Severity.ERROR, "an unsupported type expression"),
    "SYN004": (Severity.ERROR, "an enum member value is not a constant"),
    "SYN005": (Severity.NOTE, "a declaration that is not a wire type was excluded"),
    "SYN006": (
        Severity.WARNING,
        "a declaration that cannot be evaluated was left out (nothing needs it)",
    ),
    "SYN007": (
        Severity.NOTE,
        "a source file is not compiled with the selected features (cfg) and is left out",
    ),
    "SYN008": (
        Severity.ERROR,
        "a cfg, attribute, module or use tree is nested deeper than the frontend reads",
    ),
    # names and references
    "REF001": (Severity.ERROR, "a reference to a type that is not defined"),
    "REF002": (
        Severity.WARNING,
        "a type imported from a module we do not have, mapped to any JSON",
    ),
    "REF003": (Severity.ERROR, "a name is declared twice"),
    "REF004": (Severity.ERROR, "an enum member reference names no member"),
    "REF005": (Severity.WARNING, "a type [spec] types asks for is not generated"),
    # methods
    "MTH001": (Severity.ERROR, "a method tag is missing or malformed"),
    "MTH002": (Severity.ERROR, "a method is declared twice"),
    "MTH003": (
        Severity.WARNING,
        "a method's params or result type could not be paired",
    ),
    "MTH004": (Severity.NOTE, "a method's params or result type is not in the source"),
    "MTH005": (Severity.ERROR, "a method override is stale or names nothing"),
    "MTH006": (
        Severity.ERROR,
        "a method's direction or kind is unknown or contradictory",
    ),
    "MTH007": (
        Severity.NOTE,
        "spec.toml corrects a fact of a method the source states",
    ),
    "MTH008": (Severity.WARNING, "the spec declares no methods"),
    "MTH009": (Severity.NOTE, "a method fact inferred, naming its evidence"),
    "MTH010": (
        Severity.ERROR,
        "a request's result or a method's params cannot be found",
    ),
    "MTH011": (Severity.ERROR, "a JSON-RPC spec declares no methods"),
    # unions and structs
    "UNI002": (Severity.ERROR, "a tag value is used by two variants"),
    "UNI003": (
        Severity.NOTE,
        "an untagged union: a reader tries its variants (first fit or best fit)",
    ),
    "UNI004": (
        Severity.WARNING,
        "a first-fit union variant that is never chosen (an earlier one reads its values)",
    ),
    "UNI005": (
        Severity.WARNING,
        "a union declared open in spec.toml has no tag inside its objects",
    ),
    "STR001": (
        Severity.ERROR,
        "two fields share a wire name (after flattening or inheritance)",
    ),
    "STR002": (Severity.ERROR, "a base type is not an object type"),
    # serde (the Rust frontend)
    "SER001": (
        Severity.WARNING,
        "a serde attribute the frontend does not model was ignored",
    ),
    "SER002": (Severity.ERROR, "a serde construct serde itself would reject"),
    "SER003": (
        Severity.WARNING,
        "a wire form set by code (manual impl, with/from/into), not by the derive",
    ),
    # Go (the Go frontend)
    "GOW001": (
        Severity.WARNING,
        "a Go type's wire form is set by marshaler methods the frontend cannot read",
    ),
    # prose (the prose frontend)
    "PRS001": (
        Severity.NOTE,
        "a TypeScript fence is an example or a fragment, not declarations: skipped",
    ),
    # enums
    "ENU001": (Severity.WARNING, "two members of an enum have the same value"),
    # patterns
    "PAT001": (
        Severity.WARNING,
        "a string pattern the Python bindings cannot check (the JSON Schema keeps it)",
    ),
    # examples
    "EXM001": (Severity.NOTE, "an @example block was skipped: it is not valid JSON"),
    "EXM003": (Severity.ERROR, "a sample file is not valid JSON or lacks its target"),
    "EXM004": (Severity.WARNING, "a spec example contradicts the spec's own types"),
    # the toolchain itself
    "INT001": (
        Severity.ERROR,
        "internal error: the toolchain failed on this input (a bug: please report it)",
    ),
}


@dataclass(frozen=True, slots=True)
class Diagnostic:
    severity: Severity
    code: str
    message: str
    span: Span

    def headline(self) -> str:
        return f"{self.span}: {self.severity.value}[{self.code}]: {self.message}"


@dataclass
class Diagnostics:
    """Collects diagnostics of one phase (or of a whole run, when phases are merged)."""

    phase: str = ""
    items: list[Diagnostic] = field(default_factory=list)

    def report(
        self, code: str, message: str, span: Span, severity: Severity | None = None
    ) -> None:
        if code not in CATALOGUE:
            raise KeyError(f"diagnostic code {code!r} is not in the catalogue")
        self.items.append(
            Diagnostic(severity or CATALOGUE[code][0], code, message, span)
        )

    def extend(self, other: Diagnostics) -> None:
        self.items.extend(other.items)

    def errors(self, strict: bool = False) -> list[Diagnostic]:
        failing = {Severity.ERROR, Severity.WARNING} if strict else {Severity.ERROR}
        return [d for d in self.items if d.severity in failing]

    def has_errors(self, strict: bool = False) -> bool:
        return bool(self.errors(strict))

    def sorted(self) -> list[Diagnostic]:
        return sorted(self.items, key=lambda d: (d.span, d.code, d.message))


# At most this many diagnostics of one code are rendered in full; the rest are counted.
# Nobody reads 10,000 copies of one warning, and echoing each source line costs time.
PER_CODE_LIMIT = 50
# An echoed source line is cut to a window of about this many columns around the caret.
ECHO_WIDTH = 160


class SourceLines:
    """The lines of each file a run's diagnostics point into, each file read once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._files: dict[str, list[str] | None] = {}

    def line(self, file: str, line: int) -> str | None:
        if file not in self._files:
            try:
                raw = (self.root / file).read_bytes()
            except OSError:
                self._files[file] = None
            else:
                self._files[file] = split_lines(decode(raw).text)
        lines = self._files[file]
        if lines is None or not 0 < line <= len(lines):
            return None
        return lines[line - 1]


def render(
    diagnostic: Diagnostic,
    root: Path,
    strict: bool = False,
    lines: SourceLines | None = None,
) -> str:
    """Render one diagnostic with the offending source line and a caret under its column."""
    severity = diagnostic.severity
    if strict and severity is Severity.WARNING:
        severity = Severity.ERROR
    head = _printable(
        f"{diagnostic.span}: {severity.value}[{diagnostic.code}]: {diagnostic.message}"
    )
    source = lines or SourceLines(root)
    line_text = source.line(diagnostic.span.file, diagnostic.span.line)
    if line_text is None:
        return head
    shown, caret_pad = _echo(line_text, diagnostic.span.col)
    width = len(str(diagnostic.span.line))
    gutter = " " * width
    return "\n".join(
        [
            head,
            f"{gutter} |",
            f"{diagnostic.span.line} | {shown}",
            f"{gutter} | {caret_pad}^",
        ]
    )


def render_all(
    diags: Diagnostics,
    root: Path,
    strict: bool = False,
    per_code: int | None = PER_CODE_LIMIT,
) -> str:
    """All diagnostics, sorted; past ``per_code`` of one code only a count of the rest."""
    lines = SourceLines(root)
    shown: dict[str, int] = {}
    hidden: dict[tuple[str, str], int] = {}
    out: list[str] = []
    for item in diags.sorted():
        count = shown.get(item.code, 0)
        if per_code is not None and count >= per_code:
            severity = item.severity
            if strict and severity is Severity.WARNING:
                severity = Severity.ERROR
            key = (severity.value, item.code)
            hidden[key] = hidden.get(key, 0) + 1
            continue
        shown[item.code] = count + 1
        out.append(render(item, root, strict, lines))
    if hidden:
        counts = ", ".join(
            f"{number:,} {severity}[{code}]"
            for (severity, code), number in sorted(hidden.items())
        )
        out.append(f"… and {sum(hidden.values()):,} more not shown: {counts}")
    return "\n".join(out)


def _printable(text: str) -> str:
    """``text`` with every control, format or line-breaking character (ANSI escapes, bidi
    overrides, U+2028, a form feed) shown as U+FFFD: spec text must not drive the terminal.
    """
    if text.replace("\t", " ").isprintable():  # the common case, checked in C
        return text
    return "".join(
        "\ufffd" if ch != "\t" and unicodedata.category(ch) in _UNSHOWN else ch
        for ch in text
    )


_UNSHOWN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def _width(ch: str) -> int:
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _echo(line_text: str, col: int) -> tuple[str, str]:
    """The line as shown (tabs expanded, controls replaced, cut around the caret when
    long) and the padding that puts a caret under column ``col`` (1-based characters).
    """
    safe = _printable(line_text)
    index = min(max(col - 1, 0), len(safe))
    start = 0
    if len(safe) > ECHO_WIDTH and index > ECHO_WIDTH * 3 // 4:  # keep the caret in view
        start = min(index - ECHO_WIDTH // 2, len(safe) - ECHO_WIDTH)
    end = min(len(safe), start + ECHO_WIDTH)
    shown: list[str] = ["…"] if start > 0 else []
    column = len(shown)
    pad = 0
    for position in range(start, end):
        if position == index:
            pad = column
        ch = safe[position]
        if ch == "\t":
            spaces = 4 - column % 4
            shown.append(" " * spaces)
            column += spaces
        else:
            shown.append(ch)
            column += _width(ch)
    if index >= end:
        pad = column
    if end < len(safe):
        shown.append("…")
    return "".join(shown), " " * pad


def closest(word: str, known: Iterable[str]) -> str | None:
    """The known word closest to ``word`` (difflib's ratio >= 0.6), if any: the one rule of
    every "did you mean" the tool prints."""
    close = difflib.get_close_matches(word, list(known), n=1)
    return close[0] if close else None


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """``; did you mean 'x'?`` for the closest known word, or nothing."""
    close = closest(word, known)
    return f"; did you mean {close!r}?" if close is not None else ""
