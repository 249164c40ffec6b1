"""One reported change of a spec diff, and how it is rated.

Phase: spec diff; built by ``compare``, read by ``report``.
Inputs: a rule of ``rules.RULES``, where the change happened, and the flows (sender →
receiver, with the methods) whose messages carry it.
Outputs: ``Change`` records; ``Change.rate`` applies the severity model of ``rules`` to the
flows: a severity and the rollout scenarios that reach it.
Guarantees: pure; a change no method carries is never rated above ``dangerous``; two
records of the same change (same rule, place and message, reached through two paths) merge
into one with the union of their flows (``merge``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from codegen import ir
from codegen.diff.rules import Level, Rule, Severity

Flow = tuple[str, str]  # (sender, receiver)
UNUSED: Flow = ("*", "*")  # reached by no method: rated for any sender and receiver


@dataclass(frozen=True, slots=True)
class Change:
    rule: Rule
    where: str
    message: str
    old_span: ir.Span | None
    new_span: ir.Span | None
    flows: frozenset[Flow] = frozenset()
    via: tuple[str, ...] = ()  # the methods that carry it, sorted
    reader_closed: bool = False  # the new receiver rejects unknown keys
    writer_closed: bool = False  # the old receiver rejects unknown keys
    deprecated: bool = False  # the changed item was deprecated in the old revision

    @property
    def unused(self) -> bool:
        """No method carries it (an envelope, a leftover, a type kept for other code)."""
        return not (self.flows - {UNUSED})

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.rule.id, self.where, self.message)

    def merge(self, other: Change) -> Change:
        """The same change reached through another path: one record, both flows."""
        flows = (self.flows | other.flows) - (
            {UNUSED} if not (self.unused and other.unused) else set()
        )
        return replace(
            self,
            flows=frozenset(flows),
            via=tuple(sorted(set(self.via) | set(other.via))),
            reader_closed=self.reader_closed or other.reader_closed,
            writer_closed=self.writer_closed or other.writer_closed,
            deprecated=self.deprecated and other.deprecated,
        )

    def rate(self, role: str | None = None) -> tuple[Severity, tuple[str, ...]]:
        """The severity, and the scenarios that reach it (``old client → new server``).

        ``role``: only rate the scenarios where that role runs the new revision.
        """
        rl = self.rule
        if rl.level is Level.PYTHON:
            return rl.reader, ()
        flows = sorted(self.flows - {UNUSED}) or [UNUSED]
        scored: list[tuple[Severity, str]] = []
        for sender, receiver in flows:
            unused = (sender, receiver) == UNUSED
            s_name = "sender" if unused else sender
            r_name = "receiver" if unused else receiver
            if role is None or unused or role == receiver:
                sev = rl.reader_closed if self.reader_closed else None
                scored.append(
                    (self._adjust(sev or rl.reader), f"old {s_name} → new {r_name}")
                )
            if role is None or unused or role == sender:
                sev = rl.writer_closed if self.writer_closed else None
                scored.append(
                    (self._adjust(sev or rl.writer), f"new {s_name} → old {r_name}")
                )
        if not scored:
            return Severity.DOCS, ()
        top = max(scored, key=lambda item: item[0].rank)[0]
        impacts = tuple(dict.fromkeys(text for sev, text in scored if sev is top))
        return top, impacts

    def _adjust(self, severity: Severity) -> Severity:
        if severity is not Severity.BREAKING:
            return severity
        if self.deprecated and self.rule.softened_by_deprecation:
            return Severity.DANGEROUS  # the removal was announced
        if self.unused:
            return Severity.DANGEROUS  # no method's message breaks
        return severity
