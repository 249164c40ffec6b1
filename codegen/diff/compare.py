"""Compare two normalized protocols and list their changes, each tied to a rule.

Phase: spec diff, after both sides are loaded.
Inputs: the old and the new ``ir.Protocol`` (frontends and passes already run).
Outputs: ``Change`` records: a rule of ``rules.RULES``, where it happened, a message, the old
and new spans, and the message flows (sender → receiver, and the methods) that carry the
changed type, from which ``Change.rate`` derives a severity.
Guarantees: deterministic order; methods are matched by wire name, fields by wire name,
enum values by value, tagged variants by tag value, and named types structurally (by the
position they are reached from), so renaming a type or inlining an alias is no wire change;
every declaration pair is compared once, with the union of every flow that reaches it, so a
type used in both directions gets the stricter severity.

Two phases: ``collect`` walks every method's params and result (and declarations no method
uses) to learn which declaration pairs are reached by which flows; ``emit`` then compares
each method and each pair once and records changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from codegen import ir, naming
from codegen.diff.normalize import (
    AnyNode,
    ArrayNode,
    MapNode,
    Node,
    ObjectNode,
    ScalarNode,
    TupleNode,
    UnionNode,
    ValuesNode,
    VariantView,
    View,
    json_scalar,
    label,
)
from codegen.diff.rules import Level, Rule, Severity, rule
from codegen.ir.index import Index

Flow = tuple[str, str]  # (sender, receiver)
UNUSED: Flow = ("*", "*")  # a declaration no method reaches: rated for any direction
Reach = frozenset[tuple[Flow, str]]  # (flow, method wire name)
Spans = tuple[ir.Span | None, ir.Span | None]


@dataclass(frozen=True, slots=True)
class Change:
    rule: Rule
    where: str
    message: str
    old_span: ir.Span | None
    new_span: ir.Span | None
    flows: frozenset[Flow] = frozenset()
    via: tuple[str, ...] = ()
    reader_closed: bool = False  # the new receiver rejects unknown keys
    writer_closed: bool = False  # the old receiver rejects unknown keys
    deprecated: bool = False  # the changed item was deprecated in the old revision

    def rate(self, role: str | None = None) -> tuple[Severity, tuple[str, ...]]:
        """The severity, and the scenarios that reach it (``old client → new server``).

        ``role``: only rate the scenarios where that role runs the new revision.
        """
        rl = self.rule
        if rl.level is Level.PYTHON:
            return rl.reader, ()
        scored: list[tuple[Severity, str]] = []
        for sender, receiver in sorted(self.flows or {UNUSED}):
            unused = (sender, receiver) == UNUSED
            s_name = "sender" if unused else sender
            r_name = "receiver" if unused else receiver
            if role is None or unused or role == receiver:
                sev = rl.reader_closed if self.reader_closed else None
                scored.append(
                    (self._soften(sev or rl.reader), f"old {s_name} → new {r_name}")
                )
            if role is None or unused or role == sender:
                sev = rl.writer_closed if self.writer_closed else None
                scored.append(
                    (self._soften(sev or rl.writer), f"new {s_name} → old {r_name}")
                )
        if not scored:
            return Severity.DOCS, ()
        top = max(scored, key=lambda item: item[0].rank)[0]
        impacts = tuple(dict.fromkeys(text for sev, text in scored if sev is top))
        return top, impacts

    def _soften(self, severity: Severity) -> Severity:
        if (
            self.deprecated
            and self.rule.softened_by_deprecation
            and severity is Severity.BREAKING
        ):
            return Severity.DANGEROUS
        return severity


def compare(old: ir.Protocol, new: ir.Protocol) -> list[Change]:
    """Every change from ``old`` to ``new``, wire and Python-API level, in report order."""
    return _Comparer(old, new).run()


def method_flows(method: ir.Method, result: bool = False) -> frozenset[Flow]:
    """The flows of a method's params (or, with ``result``, of its result)."""
    d = method.direction
    flow = (d.receiver, d.sender) if result else (d.sender, d.receiver)
    flows = {flow}
    if d.both_ways:
        flows.add((flow[1], flow[0]))
    return frozenset(flows)


class _Comparer:
    def __init__(self, old: ir.Protocol, new: ir.Protocol) -> None:
        self.old_p = old
        self.new_p = new
        self.old = View(Index(old))
        self.new = View(Index(new))
        self.reach: dict[tuple[str, str], set[tuple[Flow, str]]] = {}
        self.pairs: dict[tuple[str, str], tuple[ir.Decl, ir.Decl]] = {}
        self.changes: list[Change] = []
        self._emit = False
        self._ctx: Reach = frozenset()
        self._closed = (False, False)

    # ------------------------------------------------------------------ driver

    def run(self) -> list[Change]:
        old_methods = {m.wire_name: m for m in self.old_p.methods}
        new_methods = {m.wire_name: m for m in self.new_p.methods}
        common = [n for n in old_methods if n in new_methods]
        for name in common:  # collect
            self._method_types(old_methods[name], new_methods[name])
        self._collect_unused()
        self._emit = True
        for name in sorted(set(old_methods) | set(new_methods)):
            self._method(old_methods.get(name), new_methods.get(name))
        for key in sorted(self.pairs):
            old_decl, new_decl = self.pairs[key]
            self._ctx = frozenset(self.reach.get(key, set()))
            self._body(old_decl, new_decl)
        self._ctx = frozenset()
        self._python_names()
        return self.changes

    def _collect_unused(self) -> None:
        paired_old = {o for o, _ in self.pairs}
        paired_new = {n for _, n in self.pairs}
        new_decls = {d.name: d for d in self.new_p.decls}
        for old_decl in self.old_p.decls:
            new_decl = new_decls.get(old_decl.name)
            if (
                new_decl is None
                or old_decl.name in paired_old
                or new_decl.name in paired_new
            ):
                continue
            self._ctx = frozenset({(UNUSED, "")})
            old_shape = self.old.shape(ir.Ref(old_decl.name))
            new_shape = self.new.shape(ir.Ref(new_decl.name))
            self._node(old_shape.node, new_shape.node, new_decl.name, (None, None))

    # ------------------------------------------------------------------ emitting

    def _add(
        self,
        rule_id: str,
        where: str,
        spans: Spans,
        *,
        deprecated: bool = False,
        flows: Reach | None = None,
        **details: str,
    ) -> None:
        if not self._emit:
            return
        rl = rule(rule_id)
        ctx = self._ctx if flows is None else flows
        self.changes.append(
            Change(
                rule=rl,
                where=where,
                message=rl.template.format(**details),
                old_span=spans[0],
                new_span=spans[1],
                flows=frozenset(flow for flow, _ in ctx),
                via=tuple(sorted({m for _, m in ctx if m})),
                reader_closed=self._closed[1],
                writer_closed=self._closed[0],
                deprecated=deprecated,
            )
        )

    # ------------------------------------------------------------------ methods

    def _method_types(self, old: ir.Method, new: ir.Method) -> None:
        name = new.wire_name
        self._ctx = _reach(method_flows(old) | method_flows(new), name)
        if old.params is not None and new.params is not None:
            self._expr(old.params, new.params, f"{name} params", (old.span, new.span))
        self._ctx = _reach(
            method_flows(old, result=True) | method_flows(new, result=True), name
        )
        if old.result is not None and new.result is not None:
            self._expr(old.result, new.result, f"{name} result", (old.span, new.span))

    def _method(self, old: ir.Method | None, new: ir.Method | None) -> None:
        if old is None and new is not None:
            self._ctx = _reach(method_flows(new), new.wire_name)
            self._add("method.added", new.wire_name, (None, new.span), method=_q(new))
            return
        if new is None and old is not None:
            self._ctx = _reach(method_flows(old), old.wire_name)
            self._add(
                "method.removed",
                old.wire_name,
                (old.span, None),
                deprecated=old.lifecycle.deprecated is not None,
                method=_q(old),
            )
            return
        assert old is not None and new is not None
        name = new.wire_name
        spans: Spans = (old.span, new.span)
        self._ctx = _reach(method_flows(old) | method_flows(new), name)
        if old.kind is not new.kind:
            self._add(
                "method.kind-changed",
                name,
                spans,
                method=_q(new),
                old=old.kind.value,
                new=new.kind.value,
            )
        if old.direction != new.direction:
            old_flows, new_flows = method_flows(old), method_flows(new)
            rule_id = (
                "method.direction-added"
                if old_flows < new_flows
                else "method.direction-changed"
            )
            self._add(
                rule_id,
                name,
                spans,
                method=_q(new),
                old=old.direction.arrow(),
                new=new.direction.arrow(),
            )
        self._lifecycle(old.lifecycle, new.lifecycle, name, spans, f"method {_q(new)}")
        self._method_types(old, new)
        self._ctx = _reach(method_flows(old) | method_flows(new), name)
        if old.params is None and new.params is not None:
            self._add("method.params-added", name, spans, method=_q(new))
        elif old.params is not None and new.params is None:
            self._add("method.params-removed", name, spans, method=_q(new))
        if new.kind is ir.MethodKind.REQUEST and old.kind is ir.MethodKind.REQUEST:
            self._ctx = _reach(method_flows(old, True) | method_flows(new, True), name)
            if old.result is None and new.result is not None:
                self._add("method.result-added", name, spans, method=_q(new))
            elif old.result is not None and new.result is None:
                self._add("method.result-removed", name, spans, method=_q(new))

    # ------------------------------------------------------------------ type expressions

    def _expr(
        self,
        old: ir.TypeExpr,
        new: ir.TypeExpr,
        where: str,
        spans: Spans,
        old_null: bool = False,
        new_null: bool = False,
    ) -> None:
        old_shape = self.old.shape(old)
        new_shape = self.new.shape(new)
        was_null = old_null or old_shape.nullable
        is_null = new_null or new_shape.nullable
        if is_null and not was_null:
            self._add("nullable.added", where, spans)
        elif was_null and not is_null:
            self._add("nullable.removed", where, spans)
        self._node(old_shape.node, new_shape.node, where, spans)

    def _node(self, old: Node, new: Node, where: str, spans: Spans) -> None:
        if isinstance(old, ObjectNode) and isinstance(new, ObjectNode):
            self._pair(old.decl, new.decl)
        elif isinstance(old, UnionNode) and isinstance(new, UnionNode):
            if old.decl is not None and new.decl is not None:
                self._pair(old.decl, new.decl)
            else:
                self._union(old, new, where, spans)
        elif isinstance(old, ValuesNode) and isinstance(new, ValuesNode):
            if old.decl is not None and new.decl is not None:
                self._pair(old.decl, new.decl)
            else:
                self._values(old, new, where, spans)
        elif isinstance(old, ArrayNode) and isinstance(new, ArrayNode):
            self._expr(old.items, new.items, f"{where}[]", spans)
        elif isinstance(old, MapNode) and isinstance(new, MapNode):
            self._expr(old.values, new.values, f"{where}{{}}", spans)
        elif isinstance(old, TupleNode) and isinstance(new, TupleNode):
            if len(old.items) != len(new.items):
                self._changed("type.changed", where, spans, old, new)
                return
            for position, (o, n) in enumerate(zip(old.items, new.items, strict=True)):
                self._expr(o, n, f"{where}[{position}]", spans)
        elif isinstance(old, ScalarNode) and isinstance(new, ScalarNode):
            if old.kind is not new.kind:
                self._changed(_kind_change(old, new), where, spans, old, new)
        elif isinstance(old, AnyNode) and isinstance(new, AnyNode):
            if new.breadth() > old.breadth():
                self._changed("type.widened", where, spans, old, new)
            elif new.breadth() < old.breadth():
                self._changed("type.narrowed", where, spans, old, new)
        else:
            self._changed(_kind_change(old, new), where, spans, old, new)

    def _changed(
        self, rule_id: str, where: str, spans: Spans, old: Node, new: Node
    ) -> None:
        self._add(rule_id, where, spans, old=label(old), new=label(new))

    def _pair(self, old: ir.Decl, new: ir.Decl) -> None:
        key = (old.name, new.name)
        self.pairs[key] = (old, new)
        if self._emit:
            return  # bodies are compared once each, by ``run``
        known = self.reach.setdefault(key, set())
        fresh = self._ctx - known
        if not fresh:
            return
        known |= fresh
        saved = self._ctx
        self._ctx = frozenset(fresh)
        self._body(old, new)
        self._ctx = saved

    def _body(self, old: ir.Decl, new: ir.Decl) -> None:
        spans: Spans = (old.span, new.span)
        if isinstance(old, ir.StructDecl) and isinstance(new, ir.StructDecl):
            self._struct(old, new)
        else:
            old_node = self.old.shape(ir.Ref(old.name)).node
            new_node = self.new.shape(ir.Ref(new.name)).node
            if isinstance(old_node, UnionNode) and isinstance(new_node, UnionNode):
                self._union(old_node, new_node, new.name, spans)
            elif isinstance(old_node, ValuesNode) and isinstance(new_node, ValuesNode):
                self._values(old_node, new_node, new.name, spans)
        self._lifecycle(old.lifecycle, new.lifecycle, new.name, spans, new.name)

    # ------------------------------------------------------------------ structs

    def _struct(self, old: ir.StructDecl, new: ir.StructDecl) -> None:
        where = new.name
        spans: Spans = (old.span, new.span)
        saved = self._closed
        self._closed = (
            old.extra_keys is ir.ExtraKeys.FORBID,
            new.extra_keys is ir.ExtraKeys.FORBID,
        )
        old_fields = {f.wire_name: f for f in self.old.fields(old)}
        new_fields = {f.wire_name: f for f in self.new.fields(new)}
        added = [f for w, f in new_fields.items() if w not in old_fields]
        removed = [f for w, f in old_fields.items() if w not in new_fields]
        renamed: list[tuple[ir.Field, ir.Field]] = []
        for gone in list(removed):
            twin = next((f for f in added if f.name == gone.name), None)
            if twin is not None:
                renamed.append((gone, twin))
                removed.remove(gone)
                added.remove(twin)
        for fld in added:
            rule_id = (
                "field.added-required"
                if fld.presence is ir.Presence.REQUIRED
                else "field.added-optional"
            )
            self._add(rule_id, f"{where}.{fld.wire_name}", (old.span, fld.span))
        for fld in removed:
            rule_id = (
                "field.removed-required"
                if fld.presence is not ir.Presence.OPTIONAL
                else "field.removed-optional"
            )
            self._add(
                rule_id,
                f"{where}.{fld.wire_name}",
                (fld.span, new.span),
                deprecated=fld.lifecycle.deprecated is not None,
            )
        for gone, twin in renamed:
            self._add(
                "field.wire-renamed",
                f"{where}.{twin.wire_name}",
                (gone.span, twin.span),
                old_field=f"{where}.{gone.wire_name}",
            )
            self._field(gone, twin, f"{where}.{twin.wire_name}")
        for wire, fld in new_fields.items():
            if wire in old_fields:
                self._field(old_fields[wire], fld, f"{where}.{wire}")
        old_keys, new_keys = old.extra_keys, new.extra_keys
        if old_keys is ir.ExtraKeys.ALLOW and new_keys is ir.ExtraKeys.FORBID:
            self._add("struct.extra-keys-closed", where, spans)
        elif old_keys is ir.ExtraKeys.FORBID and new_keys is ir.ExtraKeys.ALLOW:
            self._add("struct.extra-keys-opened", where, spans)
        old_index, new_index = self.old.index.index_value(
            old
        ), self.new.index.index_value(new)
        if old_index is not None and new_index is not None:
            self._expr(old_index, new_index, f"{where}[*]", spans)
        self._closed = saved

    def _field(self, old: ir.Field, new: ir.Field, where: str) -> None:
        spans: Spans = (old.span, new.span)
        op, np_ = old.presence, new.presence
        if op is not np_:
            if np_ is ir.Presence.REQUIRED and op is ir.Presence.OPTIONAL:
                self._add("field.optional-to-required", where, spans, old=op.value)
            elif op is ir.Presence.REQUIRED and np_ is ir.Presence.OPTIONAL:
                self._add(
                    "field.required-to-optional",
                    where,
                    spans,
                    deprecated=old.lifecycle.deprecated is not None,
                )
            else:
                self._add(
                    "field.presence-relaxed",
                    where,
                    spans,
                    old=op.value,
                    new=np_.value,
                )
        may_omit = ir.Presence.OPTIONAL in (op, np_)
        if old.default_json != new.default_json and may_omit:
            # A default only matters when a writer may leave the key out.
            self._add(
                "field.default-changed",
                where,
                spans,
                old=old.default_json or "(none)",
                new=new.default_json or "(none)",
            )
        self._expr(old.type, new.type, where, spans, old.nullable, new.nullable)
        if old.name != new.name and old.wire_name == new.wire_name:
            self._add(
                "python.field-source-renamed",
                where,
                spans,
                old=old.name,
                new=new.name,
                attribute=naming.attribute_name(new.wire_name),
            )
        self._lifecycle(old.lifecycle, new.lifecycle, where, spans, f"field {where}")

    # ------------------------------------------------------------------ values

    def _values(
        self, old: ValuesNode, new: ValuesNode, where: str, spans: Spans
    ) -> None:
        if old.base != new.base and "mixed" not in (old.base, new.base):
            self._changed("type.changed", where, spans, old, new)
            return
        for value in new.values:
            if value in old.values:
                continue
            member = new.member(value)
            self._add(
                "enum.member-added-open" if old.open else "enum.member-added",
                where,
                (spans[0], member.span if member else spans[1]),
                value=json_scalar(value),
            )
        for value in old.values:
            if value in new.values:
                continue
            member = old.member(value)
            self._add(
                "enum.member-removed-open" if new.open else "enum.member-removed",
                where,
                (member.span if member else spans[0], spans[1]),
                deprecated=bool(member and member.lifecycle.deprecated is not None),
                value=json_scalar(value),
            )
        if old.open and not new.open:
            self._add("enum.closed", where, spans)
        elif new.open and not old.open:
            self._add("enum.opened", where, spans)
        for value in new.values:
            old_member, new_member = old.member(value), new.member(value)
            if old_member is None or new_member is None:
                continue
            member_spans: Spans = (old_member.span, new_member.span)
            old_const = naming.constant_case(old_member.name)
            new_const = naming.constant_case(new_member.name)
            enum_name = naming.class_name(new.decl.name if new.decl else where)
            if old_const != new_const:
                self._add(
                    "python.enum-member-renamed",
                    f"{where}.{new_member.name}",
                    member_spans,
                    enum=enum_name,
                    old=old_const,
                    new=new_const,
                    value=json_scalar(value),
                )
            self._lifecycle(
                old_member.lifecycle,
                new_member.lifecycle,
                f"{where}.{new_member.name}",
                member_spans,
                f"value {json_scalar(value)} of {where}",
            )

    # ------------------------------------------------------------------ unions

    def _union(self, old: UnionNode, new: UnionNode, where: str, spans: Spans) -> None:
        if old.repr is not new.repr:
            self._add(
                "union.repr-changed",
                where,
                spans,
                old=old.repr.value,
                new=new.repr.value,
            )
            return
        if old.tag_key != new.tag_key or old.content_key != new.content_key:
            self._add(
                "union.tag-key-changed",
                where,
                spans,
                old=_keys(old),
                new=_keys(new),
            )
        tagged = old.repr is not ir.UnionRepr.UNTAGGED
        pairs, removed, added = _match_variants(
            old.variants, new.variants, tagged, self._variant_kind
        )
        for ov in removed:
            self._add(
                "union.variant-removed",
                where,
                (ov.span, spans[1]),
                deprecated=ov.lifecycle.deprecated is not None,
                variant=ov.key,
            )
        for nv in added:
            self._add("union.variant-added", where, (spans[0], nv.span), variant=nv.key)
        for ov, nv in pairs:
            vspans: Spans = (ov.span, nv.span)
            if tagged and set(ov.tag_values) != set(nv.tag_values):
                self._add(
                    "union.tag-value-changed",
                    where,
                    vspans,
                    variant=nv.name,
                    old=ov.key,
                    new=nv.key,
                )
            inner = f"{where}<{nv.key}>"
            if ov.type is not None and nv.type is not None:
                self._expr(ov.type, nv.type, inner, vspans)
            elif ov.type is not None or nv.type is not None:
                self._add(
                    "type.changed",
                    inner,
                    vspans,
                    old="payload" if ov.type is not None else "no payload",
                    new="payload" if nv.type is not None else "no payload",
                )
            self._lifecycle(
                ov.lifecycle, nv.lifecycle, inner, vspans, f"variant {nv.key}"
            )

    def _variant_kind(self, variant: VariantView, side: str) -> str:
        if variant.type is None:
            return "unit"
        view = self.old if side == "old" else self.new
        node = view.shape(variant.type).node
        return type(node).__name__ + (
            f":{node.kind.value}" if isinstance(node, ScalarNode) else ""
        )

    # ------------------------------------------------------------------ lifecycle

    def _lifecycle(
        self,
        old: ir.Lifecycle,
        new: ir.Lifecycle,
        where: str,
        spans: Spans,
        item: str,
    ) -> None:
        if old.deprecated is None and new.deprecated is not None:
            reason = f": {new.deprecated}" if new.deprecated else ""
            self._add("deprecated.added", where, spans, item=item, reason=reason)
        elif old.deprecated is not None and new.deprecated is None:
            self._add("deprecated.removed", where, spans, item=item)
        if old.since != new.since:
            self._add(
                "since.changed",
                where,
                spans,
                item=item,
                old=old.since or "(none)",
                new=new.since or "(none)",
            )

    # ------------------------------------------------------------------ Python API

    def _python_names(self) -> None:
        # Every declaration is a class (or alias) of the generated models module;
        # ``exported`` only decides what the package root re-exports.
        old_names = {naming.class_name(d.name): d for d in self.old_p.decls}
        new_names = {naming.class_name(d.name): d for d in self.new_p.decls}
        renamed_old: set[str] = set()
        renamed_new: set[str] = set()
        for old_decl, new_decl in sorted(
            self.pairs.values(), key=lambda p: (p[0].name, p[1].name)
        ):
            old_cls = naming.class_name(old_decl.name)
            new_cls = naming.class_name(new_decl.name)
            if (
                old_cls == new_cls
                or old_cls in new_names
                or new_cls in old_names
                or old_cls in renamed_old
                or new_cls in renamed_new
            ):
                continue
            renamed_old.add(old_cls)
            renamed_new.add(new_cls)
            self._add(
                "python.type-renamed",
                new_cls,
                (old_decl.span, new_decl.span),
                old=old_cls,
                new=new_cls,
            )
        for cls in sorted(set(old_names) - set(new_names) - renamed_old):
            self._add("python.type-removed", cls, (old_names[cls].span, None), old=cls)
        for cls in sorted(set(new_names) - set(old_names) - renamed_new):
            self._add("python.type-added", cls, (None, new_names[cls].span), new=cls)


def _reach(flows: Iterable[Flow], method: str) -> Reach:
    return frozenset((flow, method) for flow in flows)


def _q(method: ir.Method) -> str:
    return method.wire_name


def _keys(node: UnionNode) -> str:
    if node.content_key:
        return f"{node.tag_key}/{node.content_key}"
    return str(node.tag_key)


def _kind_change(old: Node, new: Node) -> str:
    """type.widened / type.narrowed / type.changed for two nodes of different kinds."""
    if _wider(old, new):
        return "type.widened"
    if _wider(new, old):
        return "type.narrowed"
    return "type.changed"


def _wider(narrow: Node, wide: Node) -> bool:
    """Does every value of ``narrow`` also fit ``wide`` (judged one level deep)?"""
    if isinstance(wide, AnyNode):
        if not wide.object_only:
            return True
        return isinstance(narrow, (ObjectNode, MapNode))
    if isinstance(wide, ScalarNode):
        if isinstance(narrow, ScalarNode):
            return (
                narrow.kind is ir.PrimitiveKind.INTEGER
                and wide.kind is ir.PrimitiveKind.NUMBER
            )
        if isinstance(narrow, ValuesNode):
            base = narrow.base
            return base == wide.kind.value or (
                base == "integer" and wide.kind is ir.PrimitiveKind.NUMBER
            )
    if isinstance(wide, UnionNode) and wide.repr is ir.UnionRepr.UNTAGGED:
        return any(v.name == label(narrow) for v in wide.variants)
    return False


def _match_variants(
    old: tuple[VariantView, ...],
    new: tuple[VariantView, ...],
    tagged: bool,
    kind: Callable[[VariantView, str], str],
) -> tuple[list[tuple[VariantView, VariantView]], list[VariantView], list[VariantView]]:
    """Pair variants: by tag value (tagged), then by name, then by unique shape kind."""
    pairs: list[tuple[VariantView, VariantView]] = []
    left = list(old)
    right = list(new)

    def take(match: Callable[[VariantView, VariantView], bool]) -> None:
        for ov in list(left):
            for nv in right:
                if match(ov, nv):
                    pairs.append((ov, nv))
                    left.remove(ov)
                    right.remove(nv)
                    break

    def unique_kind(o: VariantView, n: VariantView) -> bool:
        ok, nk = kind(o, "old"), kind(n, "new")
        return (
            ok == nk
            and sum(kind(x, "old") == ok for x in left) == 1
            and sum(kind(x, "new") == nk for x in right) == 1
        )

    if tagged:
        take(lambda o, n: bool(set(o.tag_values) & set(n.tag_values)))
    take(lambda o, n: o.name == n.name)
    if not tagged:
        take(unique_kind)
    return pairs, left, right
