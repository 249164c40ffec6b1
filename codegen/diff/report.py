"""Render the changes of a spec diff as text, Markdown or JSON, with a semver suggestion.

Phase: spec diff, last step.
Inputs: the ``Change`` list from ``compare``, the chosen level (``wire``, or ``python`` which
includes the wire), the role that runs the new revision (or None for every scenario), and a
function that prints a span of each side.
Outputs: report text; ``Report.exit_code(fail_on)``; ``Report.bump`` (``major`` for anything
breaking, ``minor`` for dangerous or compatible changes, ``patch`` for docs-only, ``none``).
Guarantees: deterministic (sorted by severity, then location, then rule); every line carries
both spans (``old → new``, ``-`` where a side has none); the JSON form is stable
(sorted keys) and carries everything the text shows.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from codegen import ir
from codegen.diff.compare import Change
from codegen.diff.rules import Level, Severity

SpanText = Callable[[ir.Span | None], str]

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


@dataclass
class Report:
    rated: list[Rated]
    level: Level
    role: str | None
    old_where: SpanText
    new_where: SpanText

    @classmethod
    def build(
        cls,
        changes: list[Change],
        level: Level,
        role: str | None,
        old_where: SpanText,
        new_where: SpanText,
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
        return cls(rated, level, role, old_where, new_where)

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
                    f"      {self.old_where(change.old_span)} → "
                    f"{self.new_where(change.new_span)}"
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
                tail = f" — {context}" if context else ""
                lines.append(
                    f"- `{change.where}`: {_md(change.message)}{_level_mark(change)}"
                    f"{tail} (`{change.rule.id}`; "
                    f"`{self.old_where(change.old_span)}` → "
                    f"`{self.new_where(change.new_span)}`)"
                )
        return "\n".join(lines) + "\n"

    # ------------------------------------------------------------------ json

    def json(self) -> str:
        data = {
            "level": self.level.value,
            "role": self.role,
            "bump": self.bump,
            "counts": self.counts(),
            "changes": [
                {
                    "rule": r.change.rule.id,
                    "level": r.change.rule.level.value,
                    "severity": r.severity.value,
                    "where": r.change.where,
                    "message": r.change.message,
                    "old": self.old_where(r.change.old_span),
                    "new": self.new_where(r.change.new_span),
                    "flows": [f"{s} → {t}" for s, t in sorted(r.change.flows)],
                    "via": list(r.change.via),
                    "impacts": list(r.impacts),
                }
                for r in self.rated
            ],
        }
        return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"

    def render(self, fmt: str) -> str:
        if fmt == "markdown":
            return self.markdown()
        if fmt == "json":
            return self.json()
        return self.text()


def _level_mark(change: Change) -> str:
    return " (Python API)" if change.rule.level is Level.PYTHON else ""


def _context(item: Rated) -> str:
    change = item.change
    parts: list[str] = []
    if change.rule.level is Level.WIRE:
        if item.severity in (Severity.BREAKING, Severity.DANGEROUS) and item.impacts:
            parts.append(f"{item.severity.value} for {'; '.join(item.impacts)}")
        if change.via and change.via != (change.where,):
            shown = ", ".join(change.via[:3])
            more = len(change.via) - 3
            parts.append(f"via {shown}{f' (+{more} more)' if more > 0 else ''}")
        elif change.flows == {("*", "*")}:
            parts.append("not used by any method")
        if change.deprecated and change.rule.softened_by_deprecation:
            parts.append("was deprecated")
    return "; ".join(parts)


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("<", "&lt;")
