"""Evaluated TypeScript types → IR: naming the anonymous objects and unions on the way.

Phase: frontend helper (after ``typeops``, used by ``evaluator``).
Inputs: ``TsType`` values with their naming context (``FileEdit`` + ``before``).
Outputs: IR type expressions, fields and declarations; anonymous object types and the unions
of declarations in fields and aliases become named declarations (``FileEdit.before`` →
``FileEditBefore``, recorded in ``derived_from``) lifted into the current group.
Guarantees: ``T | undefined`` makes a field optional, ``T | null`` nullable; ``undefined`` and
``never`` where a JSON value is needed are problems (reported by reachability), never
silently dropped; JSDoc ``@minimum``/``@maximum``/``@pattern``/``@format`` become
``Constraints`` of primitive types.
"""

from __future__ import annotations

import re
from dataclasses import replace

from codegen import ir
from codegen.frontends.common.syntax import MAX_TYPE_NESTING
from codegen.frontends.typescript.jsdoc import JsDoc, lifecycle_of
from codegen.frontends.typescript.tstypes import (
    NEVER,
    NULL,
    NUMBER_KEY,
    UNDEFINED,
    Arr,
    Dict,
    Leaf,
    Obj,
    Prop,
    TsType,
    Tup,
    Union,
    members_of,
    union_of,
)
from codegen.frontends.typescript.typeops import TypeOps

NULL_EXPR = ir.Primitive(ir.PrimitiveKind.NULL)
_NUMBER_TAG = re.compile(r"^\s*(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\s*$")


def pascal(name: str) -> str:
    """``before`` → ``Before``, ``session/new`` → ``SessionNew``: names of lifted types."""
    parts = re.split(r"[^0-9A-Za-z]+", name)
    return "".join(part[:1].upper() + part[1:] for part in parts if part)


class Materializer(TypeOps):
    """Turns ``TsType`` into IR within the current group (see the module docstring)."""

    # ------------------------------------------------------------------ declarations

    def struct(
        self,
        obj: Obj,
        name: str,
        *,
        derived_from: str | None,
        lifecycle: ir.Lifecycle = ir.NO_LIFECYCLE,
        exported: bool = True,
        span: ir.Span | None = None,
    ) -> ir.StructDecl:
        self.objects.setdefault(name, obj)
        path = derived_from or name
        fields = tuple(
            self.field(prop, name, path) for prop in obj.props if not absent(prop)
        )
        index = None
        if obj.index is not None:
            index = self.element(
                obj.index, name + "Value", f"{path}[key]", obj.span, undefined="absent"
            )
            index = self.bounded(index, obj.span)
        return ir.StructDecl(
            name=name,
            fields=fields,
            bases=obj.bases,
            extra_keys=ir.ExtraKeys.FORBID if obj.closed else ir.ExtraKeys.ALLOW,
            index_value=index,
            lifecycle=lifecycle,
            span=span or obj.span,
            derived_from=derived_from,
            exported=exported,
            index_key=NUMBER_KEY if obj.numeric_index and index is not None else None,
        )

    def alias_decl(
        self,
        value: TsType,
        name: str,
        lifecycle: ir.Lifecycle,
        span: ir.Span,
        exported: bool,
    ) -> ir.Decl | None:
        """``type Name = value``: a struct for an object, a union for a union of
        declarations, else an alias."""
        if isinstance(value, Obj):
            return self.struct(
                value,
                name,
                derived_from=None,
                lifecycle=lifecycle,
                span=span,
                exported=exported,
            )
        members = members_of(value)
        if UNDEFINED in members and all(m in (UNDEFINED, NULL) for m in members):
            self.problem(span, f"'undefined' in the type alias {name} has no JSON form")
        # ``type T = X | undefined``: its JSON values are X's (a property it types may
        # be absent: ``field``); the evaluator says so with a note
        rest = [m for m in members if m not in (UNDEFINED, NULL)]
        nullable = NULL in members
        if not rest:
            if nullable:
                return ir.AliasDecl(
                    name, NULL_EXPR, lifecycle=lifecycle, span=span, exported=exported
                )
            self.problem(span, f"the type alias {name} has no JSON value (never)")
            return None
        body = absorb(union_of(rest))
        if isinstance(body, Union) and not _literal_only(body):
            variants = self.variants(body, name, name, nullable, span)
            return ir.UnionDecl(
                name,
                variants,
                ir.UnionRepr.UNTAGGED,
                lifecycle=lifecycle,
                span=span,
                exported=exported,
            )
        target = self.bounded(self.expr(body, name, name, span), span)
        if nullable:
            target = ir.InlineUnion((target, NULL_EXPR))
        return ir.AliasDecl(
            name, target, lifecycle=lifecycle, span=span, exported=exported
        )

    def field(self, prop: Prop, owner: str, path: str) -> ir.Field:
        members = members_of(prop.type)
        # ``undefined`` directly, or through an alias (``p: Maybe``, ``type Maybe = X |
        # undefined``): JSON.stringify leaves the key out
        undefined = UNDEFINED in members or UNDEFINED in members_of(
            self.resolve(prop.type)
        )
        nullable = NULL in members
        rest = [m for m in members if m not in (UNDEFINED, NULL)]
        context = owner + pascal(prop.name)
        where = f"{path}.{prop.name}"
        expr: ir.TypeExpr
        if not rest:
            if prop.type is NEVER or not nullable:
                self.problem(
                    prop.span,
                    f"{owner}.{prop.name} has no JSON value "
                    f"({'never' if prop.type is NEVER else 'only undefined'})",
                )
            expr, nullable = NULL_EXPR, False
        else:
            body = absorb(union_of(rest))
            if isinstance(body, Union) and not _literal_only(body):
                union = ir.UnionDecl(
                    self.fresh_name(context),
                    self.variants(body, context, where, False, prop.span),
                    ir.UnionRepr.UNTAGGED,
                    span=prop.span,
                    derived_from=where,
                    exported=False,
                )
                self.add_lifted(union)
                expr = ir.Ref(union.name, union.span)
            else:
                expr = self.expr(body, context, where, prop.span)
        expr = self.bounded(expr, prop.span)
        return ir.Field(
            name=prop.name,
            wire_name=prop.name,
            type=with_constraints(expr, prop.doc),
            presence=(
                ir.Presence.OPTIONAL
                if prop.optional or undefined
                else ir.Presence.REQUIRED
            ),
            nullable=nullable,
            lifecycle=lifecycle_of(prop.doc),
            span=prop.span,
        )

    def bounded(self, expr: ir.TypeExpr, span: ir.Span) -> ir.TypeExpr:
        """``expr``, or a problem when it nests deeper than the output can render:
        the backends write one expression per field, and Python's parser stops at
        about 200 nested brackets, so the bound is the one the Go and Rust frontends
        keep (``MAX_TYPE_NESTING``); named declarations (lifted objects, unions) start
        again at 1."""
        if nesting(expr) <= MAX_TYPE_NESTING:
            return expr
        if self.stack and any("levels deep" in p.message for p in self.group.problems):
            return ir.AnyJson()  # the evaluator already reported the first level
        self.problem(
            span,
            f"a type nested more than {MAX_TYPE_NESTING} levels deep cannot be "
            "rendered; name an inner level (a type alias or interface)",
        )
        return ir.AnyJson()

    def variants(
        self,
        body: Union,
        context: str,
        derived: str,
        nullable: bool,
        span: ir.Span,
    ) -> tuple[ir.Variant, ...]:
        exprs: list[ir.TypeExpr] = []
        objects = 0
        for member in body.members:
            suffix = ""
            if isinstance(member, Obj):
                objects += 1
                suffix = "Object" if objects == 1 else f"Object{objects}"
            exprs.append(self.element(member, context + suffix, derived, span))
        if nullable:
            exprs.append(NULL_EXPR)
        out: list[ir.Variant] = []
        used: set[str] = set()
        for expr in exprs:
            name = _variant_name(expr)
            while name in used:
                name += "_"
            used.add(name)
            variant_span = (
                expr.span
                if isinstance(expr, (ir.Ref, ir.EnumMemberRef))
                else ir.NO_SPAN
            )
            out.append(ir.Variant(name, expr, span=variant_span))
        return tuple(out)

    # ------------------------------------------------------------------ expressions

    def expr(
        self, value: TsType, context: str, derived: str, span: ir.Span
    ) -> ir.TypeExpr:
        """An IR expression for a type with no ``undefined`` or ``null`` at its top."""
        if isinstance(value, Leaf):
            return value.expr
        if isinstance(value, Obj) and _only_a_string_index(value):
            # ``{ [k: string]: T }`` is ``Record<string, T>`` to the checker (the same
            # type, each assignable to the other): a map, not a class of its own.
            assert value.index is not None
            return self.expr(Dict(value.index), context, derived, span)
        if isinstance(value, Obj):
            name = self.fresh_name(context)
            struct = self.struct(value, name, derived_from=derived, exported=False)
            self.add_lifted(struct)
            return ir.Ref(name, struct.span)
        if isinstance(value, Union):
            objects = 0
            exprs: list[ir.TypeExpr] = []
            for member in value.members:
                suffix = ""
                if isinstance(member, Obj):
                    objects += 1
                    suffix = "Object" if objects == 1 else f"Object{objects}"
                exprs.append(self.element(member, context + suffix, derived, span))
            return ir.InlineUnion(tuple(exprs))
        if isinstance(value, Arr):
            return ir.ArrayOf(
                self.element(
                    value.items,
                    context + "Item",
                    derived + "[]",
                    span,
                    undefined="null",
                )
            )
        if isinstance(value, Tup):
            rest = (
                None
                if value.rest is None
                else self.element(
                    value.rest,
                    context + "Rest",
                    derived + "[...]",
                    span,
                    undefined="null",
                )
            )
            return ir.TupleOf(
                tuple(
                    self.element(
                        item, f"{context}{i}", f"{derived}[{i}]", span, undefined="null"
                    )
                    for i, item in enumerate(value.items)
                ),
                value.required,
                rest,
            )
        if isinstance(value, Dict):
            values = self.element(
                value.values,
                context + "Value",
                derived + "<value>",
                span,
                undefined="absent",
            )
            return ir.MapOf(values, value.key)
        what = "never" if value is NEVER else "undefined"
        self.problem(span, f"'{what}' here has no JSON form")
        return ir.AnyJson()

    def element(
        self,
        value: TsType,
        context: str,
        derived: str,
        span: ir.Span,
        undefined: str = "",
    ) -> ir.TypeExpr:
        """A type inside a container or a union: ``null`` stays in the expression.
        ``undefined`` says what ``JSON.stringify`` writes for an ``undefined`` there:
        ``absent`` (a map's or index signature's key is left out: the value type loses
        ``undefined``), ``null`` (an array or tuple item), or nothing (no JSON form)."""
        members = members_of(value)
        if UNDEFINED in members and undefined == "absent":
            members = tuple(m for m in members if m is not UNDEFINED)
            if not members:
                self.problem(
                    span, "a map whose values are only 'undefined' has no keys"
                )
        elif UNDEFINED in members and undefined == "null":
            members = tuple(NULL if m is UNDEFINED else m for m in members)
        elif UNDEFINED in members:
            self.problem(span, "'undefined' inside a container has no JSON form")
        nullable = NULL in members
        rest = [m for m in members if m not in (UNDEFINED, NULL)]
        if not rest:
            if value is NEVER:
                self.problem(span, "'never' here has no JSON value")
            return NULL_EXPR
        expr = self.expr(absorb(union_of(rest)), context, derived, span)
        if nullable:
            if isinstance(expr, ir.InlineUnion):
                return ir.InlineUnion((*expr.members, NULL_EXPR))
            return ir.InlineUnion((expr, NULL_EXPR))
        return expr


def nesting(expr: ir.TypeExpr) -> int:
    """How many type expressions deep ``expr`` is (``string`` 1, ``string[]`` 2)."""
    deepest = 0
    stack: list[tuple[ir.TypeExpr, int]] = [(expr, 1)]
    while stack:
        current, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(current, ir.ArrayOf):
            stack.append((current.items, depth + 1))
        elif isinstance(current, ir.MapOf):
            stack.extend(((current.key, depth + 1), (current.values, depth + 1)))
        elif isinstance(current, (ir.TupleOf, ir.InlineUnion)):
            inner = (
                (*current.items, *([current.rest] if current.rest else []))
                if isinstance(current, ir.TupleOf)
                else current.members
            )
            stack.extend((item, depth + 1) for item in inner)
    return deepest


def absent(prop: Prop) -> bool:
    """A property whose key is never on the wire: ``k?: never``, ``k?: undefined``,
    ``k: undefined`` (``JSON.stringify`` leaves ``undefined`` out; ``never`` has no
    value), the usual way to make the members of a union exclusive.  The model leaves
    the key out (a reader of a model that allows extra keys still takes it)."""
    members = members_of(prop.type)
    if NULL in members or any(m is not UNDEFINED for m in members):
        return False
    return prop.optional or UNDEFINED in members


def with_constraints(expr: ir.TypeExpr, doc: JsDoc | None) -> ir.TypeExpr:
    """JSDoc ``@minimum``, ``@maximum``, ``@pattern``, ``@format`` on a primitive type."""
    if doc is None or not isinstance(expr, ir.Primitive):
        return expr
    limits = expr.constraints
    for tag in ("minimum", "maximum"):
        found = doc.first(tag)
        match = _NUMBER_TAG.match(found.text) if found is not None else None
        if match:
            text = match.group(1)
            number: float = float(text) if any(c in text for c in ".eE") else int(text)
            if tag == "minimum":
                limits = replace(limits, minimum=number)
            else:
                limits = replace(limits, maximum=number)
    pattern = doc.first("pattern")
    if pattern is not None and pattern.text.strip():
        limits = replace(limits, pattern=pattern.text.strip())
    fmt = doc.first("format")
    if fmt is not None and fmt.text.strip():
        limits = replace(limits, format=fmt.text.strip().split()[0])
    return replace(expr, constraints=limits)


def absorb(value: TsType) -> TsType:
    """``"a" | "b" | string`` is ``string``: literals of a primitive the union also has add
    no value (TypeScript writes them for documentation and completion)."""
    if not isinstance(value, Union):
        return value
    kinds = {
        m.expr.kind
        for m in value.members
        if isinstance(m, Leaf)
        and isinstance(m.expr, ir.Primitive)
        and m.expr.constraints == ir.NO_CONSTRAINTS
    }
    if not kinds:
        return value
    kept = [
        m
        for m in value.members
        if not (
            isinstance(m, Leaf)
            and isinstance(m.expr, ir.Literal)
            and _kind_of(m.expr.value) in kinds
        )
    ]
    return union_of(kept)


def _kind_of(value: str | float | bool) -> ir.PrimitiveKind:
    if isinstance(value, bool):
        return ir.PrimitiveKind.BOOLEAN
    if isinstance(value, str):
        return ir.PrimitiveKind.STRING
    return ir.PrimitiveKind.NUMBER


def _literal_only(body: Union) -> bool:
    return all(
        isinstance(m, Leaf) and isinstance(m.expr, (ir.Literal, ir.EnumMemberRef))
        for m in body.members
    )


def _variant_name(member: ir.TypeExpr) -> str:
    if isinstance(member, ir.Ref):
        return member.name
    if isinstance(member, ir.Primitive):
        return member.kind.value.capitalize()
    if isinstance(member, ir.ArrayOf):
        return _variant_name(member.items) + "List"
    if isinstance(member, ir.MapOf):
        return _variant_name(member.values) + "Map"
    if isinstance(member, ir.Literal):
        return pascal(str(member.value)) or "Literal"
    if isinstance(member, ir.EnumMemberRef):
        return member.member
    return type(member).__name__


def _only_a_string_index(obj: Obj) -> bool:
    """An anonymous object type that is nothing but ``[k: string]: T``."""
    return (
        obj.index is not None
        and not obj.props
        and not obj.bases
        and not obj.closed
        and not obj.numeric_index
    )
