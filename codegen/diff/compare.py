"""Compare two normalized protocols and list their changes, each tied to a rule.

Phase: spec diff, after both sides are loaded.
Inputs: the old and the new ``ir.Protocol`` (frontends and passes already run).
Outputs: ``Change`` records (``change.py``): a rule of ``rules.RULES``, where it happened, a
message, the old and new spans, and the message flows (sender → receiver, and the methods)
that carry the changed place.
Guarantees: deterministic order; the wire shapes are compared, never the declarations:
methods are matched by wire name, fields by wire name, enum values by value, union variants
by tag value, name or shape, and named types by the position they are reached from, so
renaming, nesting, inlining, aliasing or splitting a type across bases is no wire change.
Each change is reported once, where a reader finds it: a key inherited from a base or a
flattened struct at the struct that declares it, a union's variants at the union, with the
union of every flow that reaches it (so a type used both ways gets the stricter severity).
Declarations no method reaches are compared by name and rated as such (``Change.unused``);
JSON-RPC message types that stand for a method (a literal ``method`` key) are the method and
are left to the method comparison.

Two phases: ``collect`` walks every method's params and result (then the declarations no
method reaches) to learn which declaration pairs are reached by which flows; ``emit`` then
compares each method and each pair once and records the changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from codegen import ir, naming
from codegen.diff.change import UNUSED, Change, Flow
from codegen.diff.normalize import (
    AnyNode,
    ArrayNode,
    MapNode,
    Node,
    ObjectNode,
    ScalarNode,
    Shape,
    TupleNode,
    UnionNode,
    ValuesNode,
    VariantView,
    View,
    WireField,
    json_scalar,
    label,
    label_of,
)
from codegen.diff.reach import (
    Reach,
    align_roles,
    method_flows,
    reach_of,
    referenced,
    side_reach,
)
from codegen.diff.rules import rule
from codegen.diff.variants import match_variants, style_text, unique_tags
from codegen.ir.index import Index

__all__ = ["align_roles", "compare", "method_flows"]
Spans = tuple[ir.Span | None, ir.Span | None]
PairKey = tuple[str, str]


def compare(old: ir.Protocol, new: ir.Protocol) -> list[Change]:
    """Every change from ``old`` to ``new``, wire and Python-API level."""
    return _Comparer(align_roles(old, new), new).run()


@dataclass(frozen=True, slots=True)
class _Object:
    """An object's keys and what it does with others, whichever way it was written."""

    fields: dict[str, WireField]
    extra: ir.TypeExpr | None  # None: unknown keys are rejected
    decl: ir.StructDecl | None


class _Comparer:
    def __init__(self, old: ir.Protocol, new: ir.Protocol) -> None:
        self.old_p = old
        self.new_p = new
        self.old = View(Index(old))
        self.new = View(Index(new))
        self.reach: dict[PairKey, set[tuple[Flow, str]]] = {}
        self.pairs: dict[PairKey, tuple[ir.Decl, ir.Decl]] = {}
        self.changes: dict[tuple[str, str, str], Change] = {}
        self._emit = False
        self._unused_phase = False
        self._reached_old: set[str] = set()
        self._reached_new: set[str] = set()
        self._ctx: Reach = frozenset()
        self._closed = (False, False)

    # ------------------------------------------------------------------ driver

    def run(self) -> list[Change]:
        old_methods = {m.wire_name: m for m in self.old_p.methods}
        new_methods = {m.wire_name: m for m in self.new_p.methods}
        for name in sorted(set(old_methods) & set(new_methods)):  # collect
            self._method_types(old_methods[name], new_methods[name])
        self._reached_old = {o for o, _ in self.pairs}
        self._reached_new = {n for _, n in self.pairs}
        self._collect_unused()
        self._emit = True
        for name in sorted(set(old_methods) | set(new_methods)):
            self._method(old_methods.get(name), new_methods.get(name))
        for key in sorted(self.pairs):
            old_decl, new_decl = self.pairs[key]
            self._ctx = frozenset(self.reach.get(key, set()))
            self._body(old_decl, new_decl)
        self._ctx = frozenset()
        self._constants()
        self._python_names()
        return list(self.changes.values())

    def _constants(self) -> None:
        old = {c.name: c for c in self.old_p.constants}
        new = {c.name: c for c in self.new_p.constants}
        for name in sorted(set(old) | set(new)):
            o, n = old.get(name), new.get(name)
            if o is None and n is not None:
                self._add(
                    "constant.added", name, (None, n.span), new=json_scalar(n.value)
                )
            elif n is None and o is not None:
                self._add(
                    "constant.removed", name, (o.span, None), old=json_scalar(o.value)
                )
            elif o is not None and n is not None:
                if (type(o.value), o.value) != (type(n.value), n.value):
                    self._add(
                        "constant.changed",
                        name,
                        (o.span, n.span),
                        old=json_scalar(o.value),
                        new=json_scalar(n.value),
                    )
                self._lifecycle(o.lifecycle, n.lifecycle, name, (o.span, n.span), name)

    def _collect_unused(self) -> None:
        """Declarations not paired through a method's params or result (their place
        changed, or no method carries them), paired by name: the outermost first (those
        no other such declaration refers to), so what they contain pairs by position as
        method payloads do.  Rated by the flows that reach each of them on its own side;
        by none (``Change.unused``) when no method reaches either."""
        self._unused_phase = True
        old_reach = side_reach(self.old)
        new_reach = side_reach(self.new)
        new_decls = {d.name: d for d in self.new_p.decls}
        # Message types of methods are the methods (their payloads were compared with
        # them); they and their bases are no starting point of their own.
        old_parts = self.old.envelope_parts()
        new_parts = self.new.envelope_parts()
        candidates = [
            (old_decl, new_decls[old_decl.name])
            for old_decl in self.old_p.decls
            if old_decl.name in new_decls
            and old_decl.name not in old_parts
            and old_decl.name not in new_parts
        ]
        inner = referenced(self.old, {o.name for o, _ in candidates})
        ordered = [c for c in candidates if c[0].name not in inner] + [
            c for c in candidates if c[0].name in inner
        ]
        for old_decl, new_decl in ordered:
            if old_decl.name in self._reached_old or new_decl.name in self._reached_new:
                continue
            reach = old_reach.get(old_decl.name, set()) | new_reach.get(
                new_decl.name, set()
            )
            self._ctx = frozenset(reach or {(UNUSED, "")})
            self._expr(ir.Ref(old_decl.name), ir.Ref(new_decl.name), "", (None, None))
            self._reached_old |= {o for o, _ in self.pairs}
            self._reached_new |= {n for _, n in self.pairs}
        self._unused_phase = False

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
        change = Change(
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
        known = self.changes.get(change.key)
        self.changes[change.key] = change if known is None else known.merge(change)

    # ------------------------------------------------------------------ methods

    def _method_types(self, old: ir.Method, new: ir.Method) -> None:
        name = new.wire_name
        spans: Spans = (old.span, new.span)
        self._ctx = reach_of(method_flows(old) | method_flows(new), name)
        if not (self.old.is_unit(old.params) or self.new.is_unit(new.params)):
            assert old.params is not None and new.params is not None
            self._expr(old.params, new.params, f"{name} params", spans)
        if (
            old.kind is not ir.MethodKind.REQUEST
            or new.kind is not ir.MethodKind.REQUEST
        ):
            return
        self._ctx = reach_of(
            method_flows(old, result=True) | method_flows(new, result=True), name
        )
        if not (self.old.is_unit(old.result) or self.new.is_unit(new.result)):
            assert old.result is not None and new.result is not None
            self._expr(old.result, new.result, f"{name} result", spans)

    def _method(self, old: ir.Method | None, new: ir.Method | None) -> None:
        if old is None and new is not None:
            self._ctx = reach_of(method_flows(new), new.wire_name)
            self._add(
                "method.added", new.wire_name, (None, new.span), kind=new.kind.value
            )
            return
        if new is None and old is not None:
            self._ctx = reach_of(method_flows(old), old.wire_name)
            self._add(
                "method.removed",
                old.wire_name,
                (old.span, None),
                deprecated=old.lifecycle.deprecated is not None,
                kind=old.kind.value,
            )
            return
        assert old is not None and new is not None
        name = new.wire_name
        spans: Spans = (old.span, new.span)
        old_flows, new_flows = method_flows(old), method_flows(new)
        self._ctx = reach_of(old_flows | new_flows, name)
        if old.kind is not new.kind:
            self._add(
                "method.kind-changed",
                name,
                spans,
                old=old.kind.value,
                new=new.kind.value,
            )
        if old_flows != new_flows:
            was, now = old.direction.arrow(), new.direction.arrow()
            if old_flows < new_flows:
                self._add(
                    "method.direction-added",
                    name,
                    spans,
                    flows=reach_of(new_flows - old_flows, name),
                    old=was,
                    new=now,
                )
            elif new_flows < old_flows:
                self._add(
                    "method.direction-removed",
                    name,
                    spans,
                    flows=reach_of(old_flows - new_flows, name),
                    deprecated=old.lifecycle.deprecated is not None,
                    old=was,
                    new=now,
                )
            else:
                self._add("method.direction-changed", name, spans, old=was, new=now)
        self._lifecycle(old.lifecycle, new.lifecycle, name, spans, f"method {name}")
        self._method_types(old, new)
        self._ctx = reach_of(old_flows | new_flows, name)
        old_unit, new_unit = self.old.is_unit(old.params), self.new.is_unit(new.params)
        if old_unit and not new_unit:
            self._add("method.params-added", name, spans)
        elif new_unit and not old_unit:
            self._add("method.params-removed", name, spans)
        if new.kind is ir.MethodKind.REQUEST and old.kind is ir.MethodKind.REQUEST:
            self._ctx = reach_of(
                method_flows(old, True) | method_flows(new, True), name
            )
            old_unit = self.old.is_unit(old.result)
            new_unit = self.new.is_unit(new.result)
            if old_unit and not new_unit:
                self._add("method.result-added", name, spans)
            elif new_unit and not old_unit:
                self._add("method.result-removed", name, spans)

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
        self._node(old, new, old_shape, new_shape, where, spans)

    def _node(
        self,
        old_expr: ir.TypeExpr,
        new_expr: ir.TypeExpr,
        old_shape: Shape,
        new_shape: Shape,
        where: str,
        spans: Spans,
    ) -> None:
        old, new = old_shape.node, new_shape.node
        if isinstance(old, UnionNode) and isinstance(new, UnionNode):
            if old.decl is not None and new.decl is not None:
                self._pair(old.decl, new.decl)
            else:
                self._union(old, new, self._union_where(old, new, where), spans)
        elif isinstance(old, UnionNode) or isinstance(new, UnionNode):
            # ``T`` against ``T | U``: a one-variant union, so the variants tell.
            if isinstance(new, UnionNode):
                single = self._single(self.old, old_expr, old, new)
                if not self._union(
                    single, new, self._union_where(None, new, where), spans
                ):
                    self._changed("type.changed", where, spans, old, new)
            elif isinstance(old, UnionNode):
                single = self._single(self.new, new_expr, new, old)
                if not self._union(
                    old, single, self._union_where(old, None, where), spans
                ):
                    self._changed("type.changed", where, spans, old, new)
        elif isinstance(old, ObjectNode) and isinstance(new, ObjectNode):
            self._pair(old.decl, new.decl)
        elif isinstance(old, (ObjectNode, MapNode)) and isinstance(
            new, (ObjectNode, MapNode)
        ):
            if isinstance(old, MapNode) and isinstance(new, MapNode):
                self._expr(old.values, new.values, f"{where}{{}}", spans)
                return
            self._object(
                self._as_object(old, self.old),
                self._as_object(new, self.new),
                where,
                spans,
            )
        elif isinstance(old, ValuesNode) and isinstance(new, ValuesNode):
            if old.decl is not None and new.decl is not None:
                self._pair(old.decl, new.decl)
            else:
                self._values(old, new, where, spans)
        elif isinstance(old, ArrayNode) and isinstance(new, ArrayNode):
            self._expr(old.items, new.items, f"{where}[]", spans)
        elif isinstance(old, TupleNode) and isinstance(new, TupleNode):
            if (
                len(old.items) != len(new.items)
                or old.required != new.required
                or (old.rest is None) != (new.rest is None)
            ):  # other lengths are allowed (``[a, b?]``, ``[a, ...b[]]``)
                self._changed("type.changed", where, spans, old, new)
                return
            for position, (o, n) in enumerate(zip(old.items, new.items, strict=True)):
                self._expr(o, n, f"{where}[{position}]", spans)
            if old.rest is not None and new.rest is not None:
                self._expr(old.rest, new.rest, f"{where}[...]", spans)
        elif isinstance(old, ScalarNode) and isinstance(new, ScalarNode):
            if old.kind is not new.kind:
                self._changed(_kind_change(old, new), where, spans, old, new)
        elif isinstance(old, AnyNode) and isinstance(new, AnyNode):
            pass
        else:
            self._changed(_kind_change(old, new), where, spans, old, new)

    def _changed(
        self, rule_id: str, where: str, spans: Spans, old: Node, new: Node
    ) -> None:
        self._add(rule_id, where, spans, old=label(old), new=label(new))

    def _pair(self, old: ir.Decl, new: ir.Decl) -> None:
        key = (old.name, new.name)
        if self._unused_phase and (
            key in self.reach
            or old.name in self._reached_old
            or new.name in self._reached_new
        ):
            return  # carried by a method: rated by its flows, not as unused
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
        where = self.new.display(new)
        if isinstance(old, ir.StructDecl) and isinstance(new, ir.StructDecl):
            saved = self._closed
            self._closed = (
                old.extra_keys is ir.ExtraKeys.FORBID,
                new.extra_keys is ir.ExtraKeys.FORBID,
            )
            self._object(
                self._as_object(ObjectNode(old), self.old),
                self._as_object(ObjectNode(new), self.new),
                where,
                spans,
            )
            self._closed = saved
        else:
            old_node = self.old.shape(ir.Ref(old.name)).node
            new_node = self.new.shape(ir.Ref(new.name)).node
            if isinstance(old_node, UnionNode) and isinstance(new_node, UnionNode):
                if not self._union(old_node, new_node, where, spans):
                    self._changed("type.changed", where, spans, old_node, new_node)
            elif isinstance(old_node, ValuesNode) and isinstance(new_node, ValuesNode):
                self._values(old_node, new_node, where, spans)
        self._lifecycle(old.lifecycle, new.lifecycle, where, spans, where)

    # ------------------------------------------------------------------ objects

    def _as_object(self, node: ObjectNode | MapNode, view: View) -> _Object:
        if isinstance(node, MapNode):
            return _Object({}, node.values, node.decl)
        fields = {wf.field.wire_name: wf for wf in view.object_fields(node.decl)}
        return _Object(fields, view.extra(node.decl), node.decl)

    def _object(self, old: _Object, new: _Object, where: str, spans: Spans) -> None:
        renamed = self._renamed(old, new)
        for gone_wf, twin_wf in renamed.values():
            fwhere = self._field_where(new, twin_wf, where)
            self._add(
                "field.wire-renamed",
                fwhere,
                (gone_wf.field.span, twin_wf.field.span),
                old_field=self._field_where(old, gone_wf, where, old_side=True),
            )
            self._field(gone_wf.field, twin_wf.field, fwhere)
        gone = {g.field.wire_name for g, _ in renamed.values()}
        for wire, nwf in new.fields.items():
            if wire in renamed:
                continue
            owf = old.fields.get(wire)
            if owf is None:
                if self._delegate_one(nwf, new, self.old):
                    continue
                fld = nwf.field
                rule_id = (
                    "field.added-required"
                    if fld.presence is ir.Presence.REQUIRED
                    else "field.added-optional"
                )
                self._add(
                    rule_id, self._field_where(new, nwf, where), (spans[0], fld.span)
                )
                continue
            if self._delegate_both(owf, nwf, old, new):
                continue
            self._field(owf.field, nwf.field, self._field_where(new, nwf, where))
        for wire, owf in old.fields.items():
            if wire in new.fields or wire in gone:
                continue
            if self._delegate_one(owf, old, self.new):
                continue
            fld = owf.field
            rule_id = (
                "field.removed-required"
                if fld.presence is not ir.Presence.OPTIONAL
                else "field.removed-optional"
            )
            self._add(
                rule_id,
                self._field_where(old, owf, where, old_side=True),
                (fld.span, spans[1]),
                deprecated=fld.lifecycle.deprecated is not None,
            )
        if old.extra is None and new.extra is not None:
            self._add("struct.extra-keys-opened", where, spans)
        elif old.extra is not None and new.extra is None:
            self._add("struct.extra-keys-closed", where, spans)
        elif old.extra is not None and new.extra is not None:
            self._expr(old.extra, new.extra, f"{where}[*]", spans)

    @staticmethod
    def _renamed(old: _Object, new: _Object) -> dict[str, tuple[WireField, WireField]]:
        """Keys whose source name stayed while the wire name changed (serde ``rename``),
        by new wire name."""
        added = [w for w in new.fields.values() if w.field.wire_name not in old.fields]
        removed = [
            w for w in old.fields.values() if w.field.wire_name not in new.fields
        ]
        out: dict[str, tuple[WireField, WireField]] = {}
        for owf in removed:
            twin = next(
                (
                    n
                    for n in added
                    if n.field.name == owf.field.name and n.field.wire_name not in out
                ),
                None,
            )
            if twin is not None:
                out[twin.field.wire_name] = (owf, twin)
        return out

    def _field_where(
        self, obj: _Object, wf: WireField, where: str, old_side: bool = False
    ) -> str:
        """``Struct.key``: named by the base or flattened struct that declares the key
        when that struct is new in this revision (``BaseMetadata.title``, added to every
        struct that now extends it, reads as one change), else by the struct compared
        (a struct that gained an existing base gained its keys)."""
        view, other = (self.old, self.new) if old_side else (self.new, self.old)
        if obj.decl is not None and wf.origin != obj.decl.name and not wf.adjusted:
            origin = view.index.struct(wf.origin)
            if origin is not None and _declared(other, wf.origin) is None:
                return f"{view.display(origin)}.{wf.field.wire_name}"
        return f"{where}.{wf.field.wire_name}"

    def _delegate_both(
        self, owf: WireField, nwf: WireField, old: _Object, new: _Object
    ) -> bool:
        """A key both sides inherit from the same base: compared with that base."""
        if owf.adjusted or nwf.adjusted or old.decl is None or new.decl is None:
            return False
        if owf.origin != nwf.origin or owf.origin in (old.decl.name, new.decl.name):
            return False
        return self._pair_bases(owf.origin, nwf.origin)

    def _delegate_one(self, wf: WireField, mine: _Object, other: View) -> bool:
        """A key added to (or removed from) a base both revisions have: ``wf`` of
        ``mine`` comes from a base that ``other``, the other revision, has without that
        key; reported once, at the base."""
        if wf.adjusted or mine.decl is None or wf.origin == mine.decl.name:
            return False
        base = _declared(other, wf.origin)
        if base is None or any(
            theirs.field.wire_name == wf.field.wire_name
            for theirs in other.object_fields(base)
        ):
            return False
        return self._pair_bases(wf.origin, wf.origin)

    def _pair_bases(self, old_name: str, new_name: str) -> bool:
        old_base = _declared(self.old, old_name)
        new_base = _declared(self.new, new_name)
        if old_base is None or new_base is None:
            return False
        if self._unused_phase and (
            old_name in self._reached_old or new_name in self._reached_new
        ):
            return True  # the base is compared with the flows of a method
        self._pair(old_base, new_base)
        return True

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
        self._directions(old, new, where, spans)
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

    def _directions(
        self, old: ir.Field, new: ir.Field, where: str, spans: Spans
    ) -> None:
        """A field readers and writers see differently, compared per direction: the
        old writer against the new reader (``reader`` scenario), the new writer against
        the old reader (``writer`` scenario). Symmetric fields are left to the checks of
        wire name and presence above."""
        if not (old.asymmetric() or new.asymmetric()):
            return
        old_reader, new_reader = _ReaderSide.of(old), _ReaderSide.of(new)
        old_writer, new_writer = _WriterSide.of(old), _WriterSide.of(new)
        if (old_reader, old_writer) == (new_reader, new_writer):
            return
        # A change of presence is rated by the presence rules above; here only keys.
        absence = old.presence is new.presence
        reader_breaks = new_reader.loses(old_writer, absence=absence)
        writer_breaks = old_reader.loses(new_writer, absence=absence)
        keys_changed = (old_reader.keys, old_writer.key) != (
            new_reader.keys,
            new_writer.key,
        )
        rules = [
            rule_id
            for rule_id, breaks in (
                ("field.read-mismatch", reader_breaks),
                ("field.write-mismatch", writer_breaks),
            )
            if breaks
        ]
        if not rules and (absence or keys_changed):
            rules = ["field.direction-relaxed"]
        for rule_id in rules:
            self._add(
                rule_id,
                where,
                spans,
                new_reader=str(new_reader),
                new_writer=str(new_writer),
                old_reader=str(old_reader),
                old_writer=str(old_writer),
            )

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

    def _single(
        self, view: View, expr: ir.TypeExpr, node: Node, other: UnionNode | None
    ) -> UnionNode:
        """A non-union as a one-variant union, to compare it with a union: ``T`` →
        ``T | U`` adds a variant."""
        variant = VariantView(label_of(view, expr, node), expr, ("untagged",))
        keyed = [
            v.style[1] for v in (other.variants if other else ()) if v.style[0] == "key"
        ]
        if keyed:
            values = view.literal_keys(expr).get(keyed[0])
            if values:
                variant = VariantView(
                    variant.name,
                    expr,
                    ("key", keyed[0]),
                    tuple(v for v in values if not isinstance(v, float)),
                )
        return UnionNode((variant,))

    def _union_where(
        self, old: UnionNode | None, new: UnionNode | None, where: str
    ) -> str:
        if new is not None and new.decl is not None:
            return self.new.display(new.decl)
        if old is not None and old.decl is not None:
            return self.old.display(old.decl)
        return where

    def _union(self, old: UnionNode, new: UnionNode, where: str, spans: Spans) -> bool:
        """Compare two unions; False (and nothing reported) when one of them is a plain
        type in disguise (``_single``) that fits none of the other's variants."""
        routing = self._unused_now()
        old_vs = [v for v in old.variants if not self._routed(v, self.old, routing)]
        new_vs = [v for v in new.variants if not self._routed(v, self.new, routing)]
        pairs, removed, added = match_variants(old_vs, new_vs, self.old, self.new)
        for single, union in ((old, new_vs), (new, old_vs)):
            if single.decl is not None or len(single.variants) != 1:
                continue
            if not pairs:
                return False
            if not single.variants[0].tag_values and all(v.tag_values for v in union):
                # A plain object against a union told apart by a tag it lacks: one
                # struct for all of them (Go's way), a different type.
                return False
        styles = sorted(
            {
                (style_text(ov.style), style_text(nv.style))
                for ov, nv in pairs
                if ov.style != nv.style
            }
        )
        key_renames = [
            (o, n)
            for o, n in styles
            if o.split(" ", 1)[0] == n.split(" ", 1)[0]
            and o.startswith(("key", "adjacent"))
        ]
        if styles and len(key_renames) == len(styles):
            self._add(
                "union.tag-key-changed",
                where,
                spans,
                old=", ".join(dict.fromkeys(o.split(" ", 1)[1] for o, _ in styles)),
                new=", ".join(dict.fromkeys(n.split(" ", 1)[1] for _, n in styles)),
            )
        elif styles:
            self._add(
                "union.repr-changed",
                where,
                spans,
                old=", ".join(dict.fromkeys(o for o, _ in styles)),
                new=", ".join(dict.fromkeys(n for _, n in styles)),
            )
        # A variant is named by its tag where the tag tells it apart, else by its name.
        old_tagged, new_tagged = unique_tags(old_vs), unique_tags(new_vs)
        for ov in removed:
            self._add(
                "union.variant-removed",
                self._leaf_where(ov, self.old, self.new, where),
                (ov.span if ov.span != ir.NO_SPAN else spans[0], spans[1]),
                deprecated=ov.lifecycle.deprecated is not None,
                variant=ov.key if ov.key in old_tagged else ov.name,
            )
        for nv in added:
            self._add(
                "union.variant-added",
                self._leaf_where(nv, self.new, self.old, where),
                (spans[0], nv.span if nv.span != ir.NO_SPAN else spans[1]),
                variant=nv.key if nv.key in new_tagged else nv.name,
            )
        for ov, nv in pairs:
            vspans: Spans = (
                ov.span if ov.span != ir.NO_SPAN else spans[0],
                nv.span if nv.span != ir.NO_SPAN else spans[1],
            )
            if (
                ov.style == nv.style
                and ov.tag_values
                and nv.tag_values
                and set(ov.tag_values) != set(nv.tag_values)
            ):
                self._add(
                    "union.tag-value-changed",
                    where,
                    vspans,
                    variant=nv.name,
                    old=ov.key,
                    new=nv.key,
                )
            elif ov.style == nv.style:
                self._variant_directions(ov, nv, where, vspans)
            inner = f"{where}<{nv.key}>"
            if ov.payload is not None and nv.payload is not None:
                self._expr(ov.payload, nv.payload, inner, vspans)
            elif ov.payload is not None or nv.payload is not None:
                self._add(
                    "type.changed",
                    inner,
                    vspans,
                    old="payload" if ov.payload is not None else "no payload",
                    new="payload" if nv.payload is not None else "no payload",
                )
            self._lifecycle(
                ov.lifecycle, nv.lifecycle, inner, vspans, f"variant {nv.key}"
            )
        return True

    def _variant_directions(
        self, old: VariantView, new: VariantView, where: str, spans: Spans
    ) -> None:
        """A variant readers and writers see differently (serde's alias, rename per
        direction, skip_serializing / skip_deserializing on a variant), compared per
        direction as fields are (``_directions``)."""
        sides = [
            (v.read_tags or v.tag_values if v.read else (), v.written)
            for v in (old, new)
        ]
        if sides[0] == sides[1] and old.read_tags == new.read_tags:
            return
        (old_reads, old_writes), (new_reads, new_writes) = sides
        old_tag = old.tag_values[0] if old.tag_values and old_writes else None
        new_tag = new.tag_values[0] if new.tag_values and new_writes else None
        reader_breaks = old_tag is not None and old_tag not in new_reads
        writer_breaks = new_tag is not None and new_tag not in old_reads

        def text(
            reads: tuple[str | int | bool, ...], tag: str | int | bool | None
        ) -> str:
            taken = " or ".join(json_scalar(t) for t in reads) or "nothing"
            written = "never write it" if tag is None else f"write {json_scalar(tag)}"
            return f"readers take {taken}, writers {written}"

        was, now = text(old_reads, old_tag), text(new_reads, new_tag)
        rules = [
            rule_id
            for rule_id, breaks in (
                ("union.variant-read-mismatch", reader_breaks),
                ("union.variant-write-mismatch", writer_breaks),
            )
            if breaks
        ] or ["union.variant-direction-relaxed"]
        for rule_id in rules:
            self._add(rule_id, where, spans, variant=new.name, old=was, new=now)

    def _leaf_where(
        self, variant: VariantView, view: View, other: View, where: str
    ) -> str:
        """A variant that came out of a nested union is reported at the outermost of
        those unions the other revision also has (``EnumSchema`` gained variants through
        ``SingleSelectEnumSchema``), else at the union compared."""
        for name in variant.within:
            decl = view.index.get(name)
            if decl is not None and other.index.get(name) is not None:
                return view.display(decl)
        return where

    def _unused_now(self) -> bool:
        return bool(self._ctx) and all(flow == UNUSED for flow, _ in self._ctx)

    def _routed(self, variant: VariantView, view: View, unused: bool) -> bool:
        """A variant the method table already reports: a JSON-RPC message type of a
        method, and, in a union no method carries (``ClientResult``), a method's params
        or result type."""
        if variant.payload is None:
            return False
        struct = view.index.struct_of(variant.payload)
        if struct is not None and view.envelope_of(struct) is not None:
            return True
        if not unused:
            return False
        resolved = view.index.resolve(variant.payload)
        return isinstance(resolved, ir.Ref) and resolved.name in view.payload_names

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


@dataclass(frozen=True)
class _ReaderSide:
    """What a reader of one revision does with a field: the keys it takes the value
    from (none: it ignores the key) and whether a message without them is rejected."""

    keys: tuple[str, ...]
    requires: bool

    @classmethod
    def of(cls, fld: ir.Field) -> _ReaderSide:
        if not fld.read:
            return cls((), False)
        required = fld.presence is ir.Presence.REQUIRED or fld.read_required
        return cls(fld.read_keys(), required)

    def loses(self, writer: _WriterSide, *, absence: bool = True) -> bool:
        """Whether this reader rejects or drops what ``writer`` writes: the value under a
        key it does not read (a reader that ignores the field has dropped it on
        purpose, as when a field is removed), or (``absence``) no value where it
        requires one."""
        if writer.key is not None and self.keys and writer.key not in self.keys:
            return True
        return absence and self.requires and writer.may_omit

    def __str__(self) -> str:
        if not self.keys:
            return "ignore the key"
        keys = " or ".join(f"'{k}'" for k in self.keys)
        return f"take {keys}" + (", required" if self.requires else "")


@dataclass(frozen=True)
class _WriterSide:
    """What a writer of one revision writes for a field: its key (None: never) and
    whether it may leave the key out."""

    key: str | None
    may_omit: bool

    @classmethod
    def of(cls, fld: ir.Field) -> _WriterSide:
        if not fld.written:
            return cls(None, True)
        return cls(fld.wire_name, fld.presence is ir.Presence.OPTIONAL)

    def __str__(self) -> str:
        if self.key is None:
            return "never write it"
        return f"write '{self.key}'" + (" or leave it out" if self.may_omit else "")


def _declared(view: View, name: str) -> ir.StructDecl | None:
    """A struct the source declares under this name; not one named after the place it
    was written (the inline ``Request.params`` is no ``RequestParams`` interface)."""
    struct = view.index.struct(name)
    return struct if struct is not None and struct.derived_from is None else None


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
        return True
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
    return False
