"""User-facing problems: one catalogue of codes, a collector per phase, a renderer.

Phase: cross-cutting; every phase reports through a ``Diagnostics`` collector.
Inputs: problems found in spec sources or configuration, with their ``Span``.
Outputs: ``Diagnostic`` records, rendered as ``path:line:col: error[CODE]: message`` followed by
the source line and a caret.
Guarantees: every code used anywhere is in ``CATALOGUE`` (an unknown code is a bug and raises);
rendering is deterministic; ``--strict`` promotes warnings to errors in one place.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from pathlib import Path

from codegen.ir import Span


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
    # syntax and unknown constructs
    "SYN001": (Severity.ERROR, "the source does not parse"),
    "SYN002": (Severity.WARNING, "an unsupported construct was skipped"),
    "SYN003": (Severity.ERROR, "an unsupported type expression"),
    "SYN004": (Severity.ERROR, "an enum member value is not a constant"),
    "SYN005": (Severity.NOTE, "a declaration that is not a wire type was excluded"),
    "SYN006": (
        Severity.NOTE,
        "a source file is not compiled with the selected features (cfg) and is left out",
    ),
    # names and references
    "REF001": (Severity.ERROR, "a reference to a type that is not defined"),
    "REF002": (
        Severity.WARNING,
        "a type imported from a module we do not have, mapped to any JSON",
    ),
    "REF003": (Severity.ERROR, "a name is declared twice"),
    "REF004": (Severity.ERROR, "an enum member reference names no member"),
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
    "MTH007": (Severity.WARNING, "the spec declares no methods"),
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
    # examples
    "EXM001": (Severity.NOTE, "an @example block was skipped: it is not valid JSON"),
    "EXM003": (Severity.ERROR, "a sample file is not valid JSON or lacks its target"),
    "EXM004": (Severity.WARNING, "a spec example contradicts the spec's own types"),
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


def render(diagnostic: Diagnostic, root: Path, strict: bool = False) -> str:
    """Render one diagnostic with the offending source line and a caret under its column."""
    severity = diagnostic.severity
    if strict and severity is Severity.WARNING:
        severity = Severity.ERROR
    head = (
        f"{diagnostic.span}: {severity.value}[{diagnostic.code}]: {diagnostic.message}"
    )
    line_text = _source_line(root / diagnostic.span.file, diagnostic.span.line)
    if line_text is None:
        return head
    width = len(str(diagnostic.span.line))
    gutter = " " * width
    caret_pad = _caret_padding(line_text, diagnostic.span.col)
    return "\n".join(
        [
            head,
            f"{gutter} |",
            f"{diagnostic.span.line} | {line_text.expandtabs(4)}",
            f"{gutter} | {caret_pad}^",
        ]
    )


def render_all(diags: Diagnostics, root: Path, strict: bool = False) -> str:
    return "\n".join(render(d, root, strict) for d in diags.sorted())


def _source_line(path: Path, line: int) -> str | None:
    if line < 1:
        return None
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    return lines[line - 1] if line <= len(lines) else None


def _caret_padding(line_text: str, col: int) -> str:
    # Tabs are expanded in the echoed line, so the caret must be placed on the expanded text.
    prefix = line_text[: max(col - 1, 0)]
    return " " * len(prefix.expandtabs(4))
