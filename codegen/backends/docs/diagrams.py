"""Mermaid diagrams for the docs: the protocol's types, and a typical exchange.

Phase: backend helper (docs).
Inputs: a normalized ``ir.Protocol`` (its ``Index`` for the class diagrams).
Outputs: Mermaid source text: a ``classDiagram`` of every declaration with its fields and
references, and a ``sequenceDiagram`` built from the method table (initialize first if the
protocol has it, then one request in each direction, then a notification).
Guarantees: every name and label from the spec goes through ``escape.mermaid_label``
(letters, digits, ``_$./-``), so spec text is never Mermaid syntax or HTML; deterministic.
"""

from __future__ import annotations

from codegen import ir
from codegen.backends.escape import mermaid_label as _safe
from codegen.ir.index import Index


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


MAX_CLASSES = 10  # beyond this a Mermaid class diagram shrinks past legibility


def class_diagrams(index: Index) -> list[tuple[str, str]]:
    """One readable diagram per method (the types its params and result reach, nearest
    first, capped at ``MAX_CLASSES``), then one for the types no method reaches; together
    they show every declaration at least once."""
    protocol = index.protocol
    shown: set[str] = set()
    out: list[tuple[str, str]] = []
    for method in protocol.methods:
        roots = index.references(method.params) + index.references(method.result)
        names = _reachable(index, roots)
        if names:
            shown.update(names)
            out.append((method.wire_name, class_diagram(index, names)))
    rest = [decl.name for decl in protocol.decls if decl.name not in shown]
    for start in range(0, len(rest), MAX_CLASSES):
        chunk = rest[start : start + MAX_CLASSES]
        out.append(
            (
                f"other types ({start // MAX_CLASSES + 1})",
                class_diagram(index, chunk),
            )
        )
    return out


def _reachable(index: Index, roots: list[str]) -> list[str]:
    order: list[str] = []
    queue = [name for name in roots if name in index.decls]
    while queue and len(order) < MAX_CLASSES:
        name = queue.pop(0)
        if name in order:
            continue
        order.append(name)
        decl = index.decls[name]
        queue.extend(
            n for n in _refs_of(index, decl) if n in index.decls and n not in order
        )
    return order


def _refs_of(index: Index, decl: ir.Decl) -> list[str]:
    if isinstance(decl, ir.StructDecl):
        names = [base.name for base in decl.bases]
        for fld in index.wire_fields(decl):
            names.extend(index.references(fld.type))
        return names
    if isinstance(decl, ir.UnionDecl):
        return [n for v in decl.variants for n in index.references(v.type)]
    if isinstance(decl, ir.AliasDecl):
        return index.references(decl.target)
    return []


def class_diagram(index: Index, names: list[str] | None = None) -> str:
    """A ``classDiagram`` of the declarations ``names`` (all when None)."""
    keep = set(names) if names is not None else set(index.decls)
    lines = ["classDiagram"]
    edges: list[str] = []
    # Declaration order, without walking every declaration for every small diagram.
    chosen = sorted(
        (n for n in keep if n in index.position), key=index.position.__getitem__
    )
    for decl in (index.decls[name] for name in chosen):
        name = _safe(decl.name)
        if isinstance(decl, ir.StructDecl):
            lines.append(f"  class {name} {{")
            for fld in index.wire_fields(decl):
                optional = "" if fld.presence is ir.Presence.REQUIRED else "?"
                lines.append(
                    f"    +{_short(fld.type)} {_safe(fld.wire_name)}{optional}"
                )
                for target in index.references(fld.type):
                    if target in keep and target != decl.name:
                        edges.append(
                            f"  {name} --> {_safe(target)} : {_safe(fld.wire_name)}"
                        )
            lines.append("  }")
            for base in decl.bases:
                if base.name in keep:
                    edges.append(f"  {_safe(base.name)} <|-- {name}")
        elif isinstance(decl, ir.EnumDecl):
            lines.append(f"  class {name} {{")
            lines.append("    <<flags>>" if decl.flags else "    <<enumeration>>")
            for member in decl.members:
                lines.append(f"    {_safe(member.name)}")
            lines.append("  }")
        elif isinstance(decl, ir.UnionDecl):
            lines.append(f"  class {name} {{")
            lines.append("    <<union>>")
            lines.append("  }")
            for variant in decl.variants:
                for target in index.references(variant.type):
                    if target in keep:
                        edges.append(f"  {name} <|.. {_safe(target)}")
        else:
            lines.append(f"  class {name} {{")
            lines.append(f"    <<{decl.kind.value}>>")
            lines.append("  }")
    return "\n".join(lines + sorted(set(edges), key=edges.index)) + "\n"


def sequence_diagram(protocol: ir.Protocol) -> str:
    first, second = protocol.roles
    lines = [
        "sequenceDiagram",
        f"  participant {_safe(first)}",
        f"  participant {_safe(second)}",
    ]
    for method in _typical_exchange(protocol):
        sender, receiver = _safe(method.direction.sender), _safe(
            method.direction.receiver
        )
        params = _short(method.params)
        lines.append(f"  {sender}->>{receiver}: {_safe(method.wire_name)}({params})")
        if method.kind is ir.MethodKind.REQUEST:
            result = _short(method.result) if method.result else "null"
            lines.append(f"  {receiver}-->>{sender}: {result}")
    return "\n".join(lines) + "\n"


def _typical_exchange(protocol: ir.Protocol) -> list[ir.Method]:
    chosen: list[ir.Method] = []
    methods = list(protocol.methods)
    init = next((m for m in methods if m.wire_name == "initialize"), None)
    if init:
        chosen.append(init)
    first, second = protocol.roles
    for sender in (first, second):
        request = next(
            (
                m
                for m in methods
                if m.kind is ir.MethodKind.REQUEST
                and m.direction.sender == sender
                and m not in chosen
            ),
            None,
        )
        if request:
            chosen.append(request)
    notification = next(
        (m for m in methods if m.kind is ir.MethodKind.NOTIFICATION), None
    )
    if notification:
        chosen.append(notification)
    return chosen
