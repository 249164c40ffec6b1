"""Semantic spec diff: compare two revisions of a protocol by their normalized IR.

Phase: a consumer of the pipeline (frontends + passes), beside the backends.
Inputs: two side arguments (a spec directory, a spec id, a single source file, or
``REV:path`` in git), resolved by ``sides``.
Outputs: a ``report.Report`` of the changes (``compare``) classified by the rule catalogue
(``rules``) at the wire or the Python-API level.
Guarantees: text is never compared: reordering, comments, doc edits, inlining an alias or
writing the same types in another source language are no wire change; the diff writes no
files outside a temporary directory.

Modules: ``sides`` (resolve OLD/NEW; ``infer`` settings for a file no spec owns) →
``normalize`` (wire shapes) → ``compare`` (changes; ``reach`` says which methods carry what,
``variants`` pairs union variants) → ``change`` (one change and its rating) → ``rules`` (the
catalogue and the severity model) → ``report`` (text, Markdown, JSON, semver bump, exit
code).
"""

from __future__ import annotations

from pathlib import Path

from codegen.diff.change import Change
from codegen.diff.compare import compare
from codegen.diff.report import FAIL_ON, Report
from codegen.diff.rules import RULES, Level, Rule, Severity
from codegen.diff.sides import Side, SideError, open_side

__all__ = [
    "FAIL_ON",
    "RULES",
    "Change",
    "Level",
    "Report",
    "Rule",
    "Severity",
    "Side",
    "SideError",
    "compare",
    "diff_sides",
    "open_side",
]


def diff_sides(
    old: str,
    new: str,
    *,
    level: Level = Level.WIRE,
    role: str | None = None,
    cwd: Path | None = None,
    outside: bool = False,
) -> Report:
    """Load both sides and compare them; raises ``SideError`` for an unusable side.
    ``outside`` admits plain paths outside the repository (``open_side``)."""
    with (
        open_side(old, cwd, outside=outside) as old_side,
        open_side(new, cwd, outside=outside) as new_side,
    ):
        if role is not None:
            roles = {
                name
                for side in (old_side, new_side)
                for name in (
                    *side.protocol.roles,
                    *(m.direction.sender for m in side.protocol.methods),
                    *(m.direction.receiver for m in side.protocol.methods),
                )
            }
            if role not in roles:
                raise SideError(
                    f"--role {role!r} is not a role of this protocol "
                    f"(roles: {', '.join(sorted(roles))})"
                )
        changes = compare(old_side.protocol, new_side.protocol)
        return Report.build(
            changes,
            level,
            role,
            old_side.path,
            new_side.path,
            sides=(old_side.shown, new_side.shown),
        )
