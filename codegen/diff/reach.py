"""Who carries what: the message flows of methods and the declarations they reach.

Phase: spec diff, used by ``compare`` before and while it walks the two protocols.
Inputs: an ``ir.Protocol`` (or its ``View``).
Outputs: ``method_flows`` (sender → receiver of a method's params or result),
``side_reach`` (declaration name → the flows and methods that reach it, through fields,
bases, flattened members, variants, aliases and extra-key values), ``referenced`` (which of
a set of declarations another one of them refers to), and ``align_roles`` (the old
revision's role names read as the new one's, position by position).
Guarantees: pure and deterministic.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from codegen import ir
from codegen.diff.change import Flow
from codegen.diff.normalize import View
from codegen.passes.walk import type_exprs_of_decl

Reach = frozenset[tuple[Flow, str]]  # (flow, method wire name)


def align_roles(old: ir.Protocol, new: ir.Protocol) -> ir.Protocol:
    """Roles are names for the peer that starts the connection and the one that answers:
    when the revisions name them differently, the old names are read as the new ones,
    position by position (``client``/``server`` → ``client``/``provider``)."""
    if set(old.roles) == set(new.roles) or len(set(new.roles)) != 2:
        return old
    rename = dict(zip(old.roles, new.roles, strict=True))

    def direction(d: ir.Direction) -> ir.Direction:
        return replace(
            d,
            sender=rename.get(d.sender, d.sender),
            receiver=rename.get(d.receiver, d.receiver),
        )

    return replace(
        old,
        roles=new.roles,
        methods=tuple(
            replace(m, direction=direction(m.direction)) for m in old.methods
        ),
    )


def method_flows(method: ir.Method, result: bool = False) -> frozenset[Flow]:
    """The flows of a method's params (or, with ``result``, of its result)."""
    d = method.direction
    flow = (d.receiver, d.sender) if result else (d.sender, d.receiver)
    flows = {flow}
    if d.both_ways:
        flows.add((flow[1], flow[0]))
    return frozenset(flows)


def reach_of(flows: Iterable[Flow], method: str) -> Reach:
    return frozenset((flow, method) for flow in flows)


def referenced(view: View, names: set[str]) -> set[str]:
    """The names among ``names`` that another declaration among them refers to."""
    out: set[str] = set()
    for name in names:
        decl = view.index.get(name)
        if decl is None:
            continue
        refs: list[str] = []
        if isinstance(decl, ir.StructDecl):
            refs.extend(b.name for b in decl.bases)
        for nested, _ in type_exprs_of_decl(decl):
            refs.extend(view.index.references(nested))
        out.update(r for r in refs if r in names and r != name)
    return out


def side_reach(view: View) -> dict[str, set[tuple[Flow, str]]]:
    """Which methods' messages reach each declaration of one protocol (through fields,
    bases, flattened members, variants, aliases and extra-key values)."""
    index = view.index
    out: dict[str, set[tuple[Flow, str]]] = {}
    for method in view.protocol.methods:
        roots = [(method.params, method_flows(method))]
        if method.kind is ir.MethodKind.REQUEST:
            roots.append((method.result, method_flows(method, result=True)))
        for expr, flows in roots:
            reach = {(flow, method.wire_name) for flow in flows}
            todo = list(index.references(expr))
            while todo:
                name = todo.pop()
                known = out.setdefault(name, set())
                if reach <= known:
                    continue
                known |= reach
                decl = index.get(name)
                if decl is None:
                    continue
                if isinstance(decl, ir.StructDecl):
                    todo.extend(b.name for b in decl.bases)
                for nested, _ in type_exprs_of_decl(decl):
                    todo.extend(index.references(nested))
    return out
