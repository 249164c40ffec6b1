"""The ``[methods]`` table of spec.toml applied to the methods the sources evidence (any
language).

Phase: after the frontend (called by the pipeline, or by a frontend that must know the
table's facts before it decides what is reachable).
Inputs: the frontend's methods and declarations, the parsed ``MethodEntry``s, the spec's
roles, and per method the facts the frontend could not find (``unknown``).
Outputs: the methods, with entries applied:
- an entry naming a method the sources declare corrects the facts it gives (a note,
  MTH007, says so); a fact equal to what the source already states is stale (MTH005), unless
  the frontend could not find that fact;
- an entry naming no method declares one: ``kind`` and ``direction`` are required, params
  and result are optional (none → no params, a ``null`` result);
- ``params``/``result`` are types in the spec's own source syntax (``type_syntax``:
  ``"Entry[] | null"``, ``"Option<Vec<Entry>>"``, ``"[]Entry"``; a list of them is a
  union, e.g. a result chosen by the params); ``""`` (or ``"null"``, ``"()"``) says there
  is none: no params key, a request answering ``null``; ``params_optional`` says the params
  key may be absent;
- ``method = false`` says what the sources evidence under this name is not a method (a
  request embedded in a result, a string that only looks like a method name).
Guarantees: every problem is a diagnostic on the entry's line in spec.toml (CFG002 for a
malformed value or type text, MTH005 for a name that is not declared); source order is
kept, declared methods follow in table order.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import cast

from codegen import ir
from codegen.diagnostics import Diagnostics
from codegen.methods.type_syntax import SyntaxProblem, read_type
from codegen.spec.config import MethodEntry

_ARROW = re.compile(r"^\s*(\w+)\s*(→|->|↔|<->)\s*(\w+)\s*$")
FACTS = ("kind", "direction", "params", "params_optional", "result")


def parse_direction(text: str, roles: tuple[str, str]) -> ir.Direction | None:
    """``"client → server"`` (or ``->``); ``↔`` / ``<->`` for both ways."""
    match = _ARROW.match(text)
    if match is None:
        return None
    known = {role.lower(): role for role in roles}
    sender, receiver = match.group(1).lower(), match.group(3).lower()
    if sender not in known or receiver not in known or sender == receiver:
        return None
    both = match.group(2) in ("↔", "<->")
    return ir.Direction(known[sender], known[receiver], both_ways=both)


def apply_method_table(
    methods: list[ir.Method],
    decls: list[ir.Decl] | tuple[ir.Decl, ...],
    entries: tuple[MethodEntry, ...],
    roles: tuple[str, str],
    diags: Diagnostics,
    unknown: dict[str, set[str]] | None = None,
    language: str = "typescript",
    provenance: dict[str, dict[str, str]] | None = None,
) -> list[ir.Method]:
    """``provenance`` (wire → fact → where), when given, records each fact the table
    gives as coming from its spec.toml line."""
    unknown = unknown or {}
    names = {decl.name for decl in decls}
    out = list(methods)
    for entry in entries:
        if not entry.is_method:
            kept = [m for m in out if m.wire_name != entry.wire]
            # ``unknown`` lists a name the resolver already left out for this entry.
            if len(kept) == len(out) and "method" not in unknown.get(entry.wire, ()):
                diags.report(
                    "MTH005",
                    f"[methods.{entry.wire!r}] method = false: the sources evidence no "
                    "method of that name",
                    entry.span,
                )
            out = kept
    by_wire = {method.wire_name: index for index, method in enumerate(out)}
    for entry in entries:
        if not entry.is_method:
            continue
        facts = _facts(entry, names, roles, diags, language)
        if facts is None:
            continue
        if provenance is not None:
            record = provenance.setdefault(entry.wire, {})
            for key in facts:
                record[key.removesuffix("_optional")] = f"spec.toml ({entry.span})"
        index = by_wire.get(entry.wire)
        if index is None:
            declared = _declare(entry, facts, diags)
            if declared is not None:
                by_wire[entry.wire] = len(out)
                out.append(declared)
            continue
        out[index] = _correct(
            out[index], entry, facts, unknown.get(entry.wire, set()), diags
        )
    return out


def _facts(
    entry: MethodEntry,
    names: set[str],
    roles: tuple[str, str],
    diags: Diagnostics,
    language: str,
) -> dict[str, object] | None:
    facts: dict[str, object] = {}
    if entry.kind is not None:
        facts["kind"] = ir.MethodKind(entry.kind)
    if entry.direction is not None:
        direction = parse_direction(entry.direction, roles)
        if direction is None:
            diags.report(
                "CFG002",
                f"[methods.{entry.wire!r}]: direction {entry.direction!r} must read "
                f"'{roles[0]} → {roles[1]}', '{roles[1]} → {roles[0]}' or "
                f"'{roles[0]} ↔ {roles[1]}'",
                entry.span,
            )
            return None
        facts["direction"] = direction
    for key, value in (("params", entry.params), ("result", entry.result)):
        if value is None:
            continue
        members: list[ir.TypeExpr] = []
        for text in value:
            read = read_type(text, language, names)
            if isinstance(read, SyntaxProblem):
                code = "MTH005" if "not declared" in read.message else "CFG002"
                diags.report(
                    code,
                    f"[methods.{entry.wire!r}]: {key} {text!r}: {read.message}",
                    entry.span,
                )
                return None
            if read is not None:
                members.extend(
                    read.members if isinstance(read, ir.InlineUnion) else (read,)
                )
        facts[key] = _type_of(members)
    if entry.params_optional is not None:
        facts["params_optional"] = entry.params_optional
    return facts


def _type_of(members: list[ir.TypeExpr]) -> ir.TypeExpr | None:
    unique = list(dict.fromkeys(members))
    if not unique:
        return None
    return unique[0] if len(unique) == 1 else ir.InlineUnion(tuple(unique))


def _declare(
    entry: MethodEntry, facts: dict[str, object], diags: Diagnostics
) -> ir.Method | None:
    kind, direction = facts.get("kind"), facts.get("direction")
    if not isinstance(kind, ir.MethodKind) or not isinstance(direction, ir.Direction):
        diags.report(
            "MTH005",
            f"[methods.{entry.wire!r}] names no method of the sources; to declare one it "
            "needs kind and direction",
            entry.span,
        )
        return None
    params = facts.get("params")
    result = facts.get("result")
    if kind is ir.MethodKind.NOTIFICATION and result is not None:
        diags.report(
            "CFG002",
            f"[methods.{entry.wire!r}]: a notification has no result",
            entry.span,
        )
        result = None
    return ir.Method(
        wire_name=entry.wire,
        kind=kind,
        direction=direction,
        params=cast("ir.TypeExpr | None", params),
        result=cast("ir.TypeExpr | None", result),
        params_optional=bool(facts.get("params_optional", False)),
        lifecycle=ir.Lifecycle(docs=entry.docs or ""),
        span=entry.span,
    )


def _correct(
    method: ir.Method,
    entry: MethodEntry,
    facts: dict[str, object],
    unknown: set[str],
    diags: Diagnostics,
) -> ir.Method:
    changes: dict[str, object] = {}
    for key in FACTS:
        if key not in facts:
            continue
        value = facts[key]
        if value == getattr(method, key) and key not in unknown:
            diags.report(
                "MTH005",
                f"[methods.{entry.wire!r}]: {key} is not needed, the source already says so",
                entry.span,
            )
            continue
        changes[key] = value
    if entry.docs is not None:
        changes["lifecycle"] = replace(method.lifecycle, docs=entry.docs)
    if not changes:
        return method
    corrected = sorted(set(changes) - unknown - {"lifecycle"})
    if corrected:
        diags.report(
            "MTH007",
            f"spec.toml corrects {', '.join(corrected)} of {entry.wire}",
            entry.span,
        )
    if changes.get("kind") is ir.MethodKind.NOTIFICATION:
        changes["result"] = None
    elif (
        changes.get("kind") is ir.MethodKind.REQUEST
        and method.kind is ir.MethodKind.NOTIFICATION
        and "result" not in facts
    ):
        diags.report(
            "MTH010",
            f"[methods.{entry.wire!r}] makes {entry.wire} a request, but no result is "
            'known for it; add result = "<type>" (or result = "null")',
            entry.span,
        )
    return replace(method, **changes)  # type: ignore[arg-type]


def method_table_facts(entry: MethodEntry) -> list[str]:
    """The facts an entry gives (``"method"`` when it says the name is no method)."""
    facts = [
        key
        for key in ("kind", "direction", "params", "result", "params_optional")
        if getattr(entry, key) is not None
    ]
    if not entry.is_method:
        facts.append("method")
    return facts
