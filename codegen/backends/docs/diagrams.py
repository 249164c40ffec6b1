"""Mermaid diagrams for the docs: one small class diagram per type, and a typical exchange
per protocol built from the spec's examples.

Phase: backend helper (docs).
Inputs: a normalized ``ir.Protocol`` (its ``Index``) and its accepted examples.
Outputs: Mermaid source text:
- ``type_diagram``: a ``classDiagram`` of one declaration with its fields, the declarations
  it refers to (bases, field types, union variants; names and kinds only) and those that
  refer to it, capped at ``MAX_NEIGHBOURS`` each way so that no diagram grows past what
  can be read at its natural size (the site shows diagrams unscaled, scrolling if wide);
- ``sequence_diagram``: a ``sequenceDiagram`` of a typical exchange: ``initialize`` first if
  the protocol has it, then methods the spec has examples for (one request each way, then
  a notification, then the rest in spec order, at most ``MAX_STEPS``), each message
  labelled with the keys and short values of the spec's own example.
Guarantees: every name and label from the spec goes through ``escape.mermaid_label``
(letters, digits, ``_$./-``) and example values through ``_value`` (the same plus spaces
and ``:@,``), so spec text is never Mermaid syntax or HTML; deterministic.
"""

from __future__ import annotations

import json
import re

from codegen import ir
from codegen.backends.escape import mermaid_label as _safe
from codegen.ir.index import Index

MAX_NEIGHBOURS = 8  # each way; the page lists every reference in text anyway
MAX_STEPS = 6  # methods in a typical exchange
MAX_KEYS = 3  # keys shown per message
MAX_VALUE = 18  # characters of a string value shown


def _short(expr: ir.TypeExpr | None) -> str:
    if expr is None:
        return "none"
    if isinstance(expr, ir.Ref):
        return _safe(expr.name)
    if isinstance(expr, ir.Primitive):
        return expr.kind.value
    if isinstance(expr, ir.ArrayOf):
        return _short(expr.items) + "[]"
    if isinstance(expr, ir.MapOf):
        return "map~" + _short(expr.values).replace("[]", "List") + "~"
    if isinstance(expr, ir.EnumMemberRef):
        return _safe(expr.enum)
    if isinstance(expr, ir.Literal):
        return "literal"
    if isinstance(expr, ir.AnyJson):
        return "json"
    if isinstance(expr, ir.TupleOf):
        return "tuple"
    return "union"


def _stereotype(decl: ir.Decl) -> str:
    if isinstance(decl, ir.StructDecl):
        return ""
    if isinstance(decl, ir.EnumDecl):
        return "flags" if decl.flags else "enumeration"
    if isinstance(decl, ir.UnionDecl):
        return "union"
    return decl.kind.value


def outgoing(index: Index, decl: ir.Decl) -> list[tuple[str, str, str]]:
    """(target, arrow, label) for each declaration ``decl`` refers to, in source order."""
    out: list[tuple[str, str, str]] = []
    if isinstance(decl, ir.StructDecl):
        out.extend((base.name, "base", "") for base in decl.bases)
        for fld in index.wire_fields(decl):
            out.extend((t, "field", fld.wire_name) for t in index.references(fld.type))
        extra = index.index_value(decl)
        out.extend((t, "field", "other keys") for t in index.references(extra))
    elif isinstance(decl, ir.UnionDecl):
        for variant in decl.variants:
            out.extend((t, "variant", "") for t in index.references(variant.type))
    elif isinstance(decl, ir.AliasDecl):
        out.extend((t, "field", "") for t in index.references(decl.target))
    seen: set[tuple[str, str, str]] = set()
    unique = []
    for edge in out:
        if edge[0] in index.decls and edge[0] != decl.name and edge not in seen:
            seen.add(edge)
            unique.append(edge)
    return unique


def users(
    edges: dict[str, list[tuple[str, str, str]]],
) -> dict[str, list[tuple[str, str, str]]]:
    """For each declaration, (user, arrow, label) for each declaration that refers to it,
    from ``edges``: each declaration's ``outgoing``, in declaration order."""
    table: dict[str, list[tuple[str, str, str]]] = {}
    for user, found in edges.items():
        for target, arrow, label in found:
            table.setdefault(target, []).append((user, arrow, label))
    return table


def _class(decl: ir.Decl, index: Index, fields: bool) -> list[str]:
    name = _safe(decl.name)
    stereotype = _stereotype(decl)
    body = [f"    <<{stereotype}>>"] if stereotype else []
    if fields and isinstance(decl, ir.StructDecl):
        for fld in index.wire_fields(decl):
            optional = "" if fld.presence is ir.Presence.REQUIRED else "?"
            body.append(f"    +{_short(fld.type)} {_safe(fld.wire_name)}{optional}")
    elif fields and isinstance(decl, ir.EnumDecl):
        body.extend(f"    {_safe(m.name)}" for m in decl.members[: MAX_NEIGHBOURS * 2])
    if not body:
        return [f"  class {name}"]
    return [f"  class {name} {{", *body, "  }"]


def _edge(source: str, arrow: str, target: str, label: str) -> str:
    """``source`` refers to ``target`` (a field, a base, a variant)."""
    left, right = _safe(source), _safe(target)
    if arrow == "base":
        return f"  {right} <|-- {left}"
    if arrow == "variant":
        return f"  {left} <|.. {right}"
    return f"  {left} --> {right}" + (f" : {_safe(label)}" if label else "")


def type_diagram(
    index: Index,
    decl: ir.Decl,
    out_edges: list[tuple[str, str, str]],
    used_by: list[tuple[str, str, str]],
) -> str | None:
    """The diagram of ``decl`` and its neighbours (``out_edges``: what it refers to,
    ``outgoing``; ``used_by``: what refers to it, ``users``); None when it has none (a
    lone box would only repeat the table beside it)."""
    out_names = list(dict.fromkeys(t for t, _, _ in out_edges))[:MAX_NEIGHBOURS]
    in_names = [
        n
        for n in dict.fromkeys(u for u, _, _ in used_by)
        if n != decl.name and n not in out_names
    ][:MAX_NEIGHBOURS]
    if not out_names and not in_names:
        return None
    lines = ["classDiagram"]
    if len(out_names) + len(in_names) > 4:
        lines.append("  direction LR")  # neighbours stacked, not side by side
    lines.extend(_class(decl, index, fields=True))
    for name in out_names + in_names:
        lines.extend(_class(index.decls[name], index, fields=False))
    edges = [_edge(decl.name, a, t, lbl) for t, a, lbl in out_edges if t in out_names]
    edges += [_edge(u, a, decl.name, lbl) for u, a, lbl in used_by if u in in_names]
    lines.extend(dict.fromkeys(edges))
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------- typical exchange


_UNSAFE_VALUE = re.compile(r"[^0-9A-Za-z_$./:@, -]")


def _value(value: object) -> str:
    if isinstance(value, dict):
        return "{…}" if value else "{}"
    if isinstance(value, list):
        return "[…]" if value else "[]"
    if isinstance(value, str):
        text = value if len(value) <= MAX_VALUE else value[: MAX_VALUE - 1] + "…"
        return "'" + _UNSAFE_VALUE.sub("_", text) + "'"
    return _UNSAFE_VALUE.sub("_", json.dumps(value))


def _label(value: object) -> str:
    """An example value in a message label: its first keys and short values."""
    if not isinstance(value, dict):
        return _value(value)
    items = [f"{_safe(k)}: {_value(v)}" for k, v in list(value.items())[:MAX_KEYS]]
    more = ", …" if len(value) > MAX_KEYS else ""
    return "{" + ", ".join(items) + more + "}"


def example_values(protocol: ir.Protocol) -> dict[str, dict[str, object]]:
    """The first accepted example of each method's params and result."""
    found: dict[str, dict[str, object]] = {}
    for example in protocol.examples:
        if (
            example.method is None
            or example.expect is not ir.Expectation.ACCEPT
            or example.skipped_reason
        ):
            continue
        try:
            value = json.loads(example.json_text)
        except ValueError:
            continue
        parts = found.setdefault(example.method, {})
        if example.part is ir.ExamplePart.MESSAGE and isinstance(value, dict):
            for key in ("params", "result"):
                if key in value:
                    parts.setdefault(key, value[key])
        elif example.part in (ir.ExamplePart.PARAMS, ir.ExamplePart.RESULT):
            parts.setdefault(example.part.value, value)
    return found


def sequence_diagram(protocol: ir.Protocol) -> str:
    first, second = protocol.roles
    values = example_values(protocol)
    lines = [
        "sequenceDiagram",
        f"  participant {_safe(first)}",
        f"  participant {_safe(second)}",
    ]
    for method in typical_exchange(protocol, values):
        sender = _safe(method.direction.sender)
        receiver = _safe(method.direction.receiver)
        example = values.get(method.wire_name, {})
        params = (
            _label(example["params"]) if "params" in example else _short(method.params)
        )
        lines.append(f"  {sender}->>{receiver}: {_safe(method.wire_name)} {params}")
        if method.kind is ir.MethodKind.REQUEST:
            if "result" in example:
                result = _label(example["result"])
            else:
                result = _short(method.result) if method.result else "null"
            lines.append(f"  {receiver}-->>{sender}: {result}")
    return "\n".join(lines) + "\n"


def typical_exchange(
    protocol: ir.Protocol, values: dict[str, dict[str, object]]
) -> list[ir.Method]:
    """The methods of a typical exchange, in the order they are shown."""
    methods = list(protocol.methods)
    shown = [m for m in methods if m.wire_name in values] or methods
    chosen: list[ir.Method] = [m for m in methods if m.wire_name == "initialize"][:1]

    def pick(method: ir.Method | None) -> None:
        if method is not None and method not in chosen:
            chosen.append(method)

    for sender in protocol.roles:
        pick(
            next(
                (
                    m
                    for m in shown
                    if m.kind is ir.MethodKind.REQUEST
                    and m.direction.sender == sender
                    and m not in chosen
                ),
                None,
            )
        )
    pick(next((m for m in shown if m.kind is ir.MethodKind.NOTIFICATION), None))
    for method in shown:
        if len(chosen) >= MAX_STEPS:
            break
        pick(method)
    order = {m.wire_name: i for i, m in enumerate(methods)}
    head = chosen[:1] if chosen and chosen[0].wire_name == "initialize" else []
    return head + sorted(chosen[len(head) :], key=lambda m: order[m.wire_name])
