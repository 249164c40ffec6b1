"""Render the changes of a spec diff as text, Markdown or JSON, with a semver suggestion.

Phase: spec diff, last step.
Inputs: the ``Change`` list from ``compare``, the chosen level (``wire``, or ``python`` which
includes the wire), the role that runs the new revision (or None for every scenario), and
each side's way of showing a span's file (``Locate``: a path relative to the repository the
diff runs in, or ``REV:path``; None where a side has no such place).
Outputs: report text; ``Report.exit_code(fail_on)``; ``Report.bump`` (``major`` for anything
breaking, ``minor`` for dangerous or compatible changes, ``patch`` for docs-only, ``none``).
Guarantees: deterministic (sorted by severity, then location, then rule); no machine path in
any format; every text and Markdown line carries both places (``old → new``, ``-`` where a
side has none); the JSON form has a fixed shape (``JSON_FORMAT``, described in the README):
every key always present, ``null`` for what a side lacks, sorted keys.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from codegen import ir
from codegen.diff.change import Change
from codegen.diff.rules import Level, Severity

Locate = Callable[[ir.Span | None], str | None]

JSON_FORMAT = 1  # bumped when a key is removed or changes meaning
ORDER = (Severity.BREAKING, Severity.DANGEROUS, Severity.COMPATIBLE, Severity.DOCS)
_BUMP = {
    Severity.BREAKING: "major",
    Severity.DANGEROUS: "minor",
    Severity.COMPATIBLE: "minor",
    Severity.DOCS: "patch",
}
FAIL_ON = ("breaking", "dangerous", "compatible", "none")


@dataclass(frozen=True, slots=True)
class Rated:
    change: Change
    severity: Severity
    impacts: tuple[str, ...]


def _no_place(span: ir.Span | None) -> str | None:
    return None


@dataclass
class Report:
    rated: list[Rated]
    level: Level
    role: str | None
    old_path: Locate = _no_place
    new_path: Locate = _no_place
    old_side: str | None = None
    new_side: str | None = None

    @classmethod
    def build(
        cls,
        changes: list[Change],
        level: Level,
        role: str | None,
        old_path: Locate = _no_place,
        new_path: Locate = _no_place,
        sides: tuple[str | None, str | None] = (None, None),
    ) -> Report:
        rated = []
        for change in changes:
            if level is Level.WIRE and change.rule.level is not Level.WIRE:
                continue
            severity, impacts = change.rate(role)
            rated.append(Rated(change, severity, impacts))
        rated.sort(
            key=lambda r: (
                -r.severity.rank,
                r.change.where,
                r.change.rule.id,
                r.change.message,
            )
        )
        return cls(rated, level, role, old_path, new_path, sides[0], sides[1])

    # ------------------------------------------------------------------ summary

    @property
    def bump(self) -> str:
        if not self.rated:
            return "none"
        return _BUMP[max((r.severity for r in self.rated), key=lambda s: s.rank)]

    def counts(self) -> dict[str, int]:
        return {sev.value: sum(r.severity is sev for r in self.rated) for sev in ORDER}

    def exit_code(self, fail_on: str) -> int:
        if fail_on == "none":
            return 0
        threshold = Severity(fail_on).rank
        return int(any(r.severity.rank >= threshold for r in self.rated))

    def _summary(self) -> str:
        if not self.rated:
            return f"no changes at the {self.level.value} level"
        parts = [f"{n} {sev}" for sev, n in self.counts().items() if n]
        total = len(self.rated)
        return f"{total} change{'s' if total != 1 else ''}: {', '.join(parts)}"

    def _place(self, locate: Locate, span: ir.Span | None) -> str:
        path = locate(span)
        if path is None or span is None:
            return "-"
        return f"{path}:{span.line}:{span.col}"

    # ------------------------------------------------------------------ text

    def text(self) -> str:
        lines: list[str] = []
        for sev in ORDER:
            group = [r for r in self.rated if r.severity is sev]
            if not group:
                continue
            lines.append(f"{sev.value} ({len(group)})")
            for item in group:
                change = item.change
                lines.append(
                    f"  [{change.rule.id}] {change.where}: {change.message}"
                    f"{_level_mark(change)}"
                )
                context = _context(item)
                if context:
                    lines.append(f"      {context}")
                lines.append(
                    f"      {self._place(self.old_path, change.old_span)} → "
                    f"{self._place(self.new_path, change.new_span)}"
                )
        lines.append(self._summary())
        lines.append(f"suggested version bump: {self.bump}")
        return "\n".join(lines) + "\n"

    # ------------------------------------------------------------------ markdown

    def markdown(self) -> str:
        lines = ["## Protocol changes", ""]
        lines.append(f"Suggested version bump: **{self.bump}** ({self._summary()}).")
        for sev in ORDER:
            group = [r for r in self.rated if r.severity is sev]
            if not group:
                continue
            lines += ["", f"### {sev.value.capitalize()}", ""]
            for item in group:
                change = item.change
                context = _context(item)
                tail = f" — {_md(context)}" if context else ""
                lines.append(
                    f"- `{change.where}`: {_md(change.message)}{_level_mark(change)}"
                    f"{tail} (`{change.rule.id}`; "
                    f"`{self._place(self.old_path, change.old_span)}` → "
                    f"`{self._place(self.new_path, change.new_span)}`)"
                )
        return "\n".join(lines) + "\n"

    # ------------------------------------------------------------------ json

    def json(self) -> str:
        data: dict[str, Any] = {
            "format": JSON_FORMAT,
            "old": self.old_side,
            "new": self.new_side,
            "level": self.level.value,
            "role": self.role,
            "bump": self.bump,
            "counts": self.counts(),
            "changes": [self._json_change(r) for r in self.rated],
        }
        return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"

    def _json_change(self, item: Rated) -> dict[str, Any]:
        change = item.change
        return {
            "rule": change.rule.id,
            "title": change.rule.title,
            "level": change.rule.level.value,
            "severity": item.severity.value,
            "where": change.where,
            "message": change.message,
            "old": _json_place(self.old_path, change.old_span),
            "new": _json_place(self.new_path, change.new_span),
            "flows": [
                {"sender": s, "receiver": r}
                for s, r in sorted(change.flows)
                if (s, r) != ("*", "*")
            ],
            "methods": list(change.via),
            "impacts": list(item.impacts),
            "unused": change.rule.level is Level.WIRE and change.unused,
            "deprecated": change.deprecated,
        }

    def render(self, fmt: str) -> str:
        if fmt == "markdown":
            return self.markdown()
        if fmt == "json":
            return self.json()
        return self.text()


def _json_place(locate: Locate, span: ir.Span | None) -> dict[str, Any] | None:
    path = locate(span)
    if path is None or span is None:
        return None
    return {"path": path, "line": span.line, "column": span.col}


def _level_mark(change: Change) -> str:
    return " (Python API)" if change.rule.level is Level.PYTHON else ""


def _context(item: Rated) -> str:
    change = item.change
    parts: list[str] = []
    if change.rule.level is Level.WIRE:
        if item.severity in (Severity.BREAKING, Severity.DANGEROUS) and item.impacts:
            parts.append(f"{item.severity.value} for {'; '.join(item.impacts)}")
        if change.rule.id.startswith("constant."):
            pass  # a value, not a message: no method carries it
        elif change.unused:
            parts.append("not used by any method")
        elif change.via and change.via != (change.where,):
            shown = ", ".join(change.via[:3])
            more = len(change.via) - 3
            parts.append(f"via {shown}{f' (+{more} more)' if more > 0 else ''}")
        if change.deprecated and change.rule.softened_by_deprecation:
            parts.append("was deprecated")
    return "; ".join(parts)


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("<", "&lt;")
