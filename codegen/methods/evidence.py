"""What a source says about a method: one ``Evidence`` record per place that says it.

Phase: frontend output (each frontend's ``methods.py`` builds these), resolver input.
Inputs: none (plain records).
Outputs: ``Evidence`` (the facts one declaration gives, with its location) and
``MethodLike`` (a string shaped like a method name that no rule read as a method: the
material of the "no methods" error).
Guarantees: ``params``/``result`` distinguish "not said" (``UNSET``) from "none" (``None``:
no params key; a request answering ``null``/nothing) from a type; ``inferred`` marks a fact
reached by a rule of thumb (a name pairing, the only sender) with the reason, which the
resolver reports as a note.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from codegen import ir


class _Unset:
    """Not said by this evidence (distinct from ``None``, "says there is none")."""

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False


UNSET = _Unset()


@dataclass
class Evidence:
    """What one declaration says about method ``wire``; ``None`` where it says nothing.

    ``where`` names the declaration for messages ("interface CallToolRequest", "its @method
    tag", "case \\"doc/lookup\\" of switch r.Method()"). ``exclusive``: a declaration that
    defines the method outright (a JSDoc ``@method`` tag, a prose section), so a second
    one is MTH002. ``direction_guessed``: the direction is a default other evidence
    overrides (a registry naming no role). ``inferred``: fact → why it is a guess (a note).
    """

    wire: str
    where: str
    span: ir.Span
    kind: ir.MethodKind | None = None
    direction: ir.Direction | None = None
    direction_guessed: bool = False
    # The direction says who sends it, not that nobody else does (a role's registry, a
    # role union): another such statement naming the other sender makes it two-way.
    direction_partial: bool = False
    params: object = UNSET
    params_optional: bool = False
    result: object = UNSET
    errors: tuple[ir.ErrorCode, ...] = ()
    lifecycle: ir.Lifecycle = ir.NO_LIFECYCLE
    examples: list[ir.Example] = field(default_factory=list)
    exclusive: bool = False
    inferred: dict[str, str] = field(default_factory=dict)
    # Facts given by a rule of thumb the ``[methods]`` table may restate without being
    # stale (a Go kind guessed from a Result type's presence, an any-JSON stand-in).
    weak: set[str] = field(default_factory=set)
    # fact → how this evidence came by it, when that is more than ``where`` (a type
    # paired by name: "InitializeResult, paired by name"), for ``check --methods``.
    how: dict[str, str] = field(default_factory=dict)
    # The source says this request answers nothing (``void``, ``()``, an empty result).
    answers_nothing: bool = False


@dataclass(frozen=True, slots=True)
class MethodLike:
    """A string shaped like a method name (``doc/lookup``, ``$/cancel``) and where."""

    text: str
    span: ir.Span
    context: str = ""  # e.g. "const LookupMethod", "a string in a switch case"


_METHOD_SHAPE = re.compile(r"^\$?/?[A-Za-z_][\w$]*(?:/[A-Za-z_$][\w$]*)+$")
_QUOTED = re.compile(r"\"([^\"\\\n]{3,80})\"|'([^'\\\n]{3,80})'|`([^`\n]{3,80})`")


def looks_like_method(text: str) -> bool:
    """``doc/lookup``, ``$/cancelRequest``, ``notifications/tools/list_changed``: words
    joined by ``/`` (one word alone is too common to list; a path has dots or dashes).
    """
    return bool(_METHOD_SHAPE.match(text))


def method_like_strings(rel_path: str, text: str) -> list[MethodLike]:
    """Quoted strings of a source shaped like method names, with their line and column
    (the evidence a "no methods" error lists)."""
    out: list[MethodLike] = []
    for number, line in enumerate(text.splitlines(), start=1):
        for match in _QUOTED.finditer(line):
            value = next(g for g in match.groups() if g is not None)
            if looks_like_method(value):
                span = ir.Span(rel_path, number, match.start() + 1)
                out.append(MethodLike(value, span, line.strip()[:60]))
    return out
