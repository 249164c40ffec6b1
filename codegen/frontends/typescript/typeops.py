"""Type-level operations of TypeScript on evaluated types: what ``&``, ``keyof``, ``T[K]``,
``extends`` and the utility types compute.

Phase: frontend helper (used by ``evaluator``).
Inputs: ``TsType`` values; through two hooks the evaluator provides, the members of named
object types (``named_object``) and the values of aliases and enums (``symbol_value``).
Outputs: ``TsType`` values; ``assignable`` answers True, False or None (cannot tell).
Guarantees: never raises on user input: an operation that does not apply (``keyof`` of a
string, ``Pick`` of a key the type lacks) records a problem on the current group and yields
``ANY``; recursion through named types ends (a type being assigned to itself is assumed to
fit, as TypeScript assumes).
"""

from __future__ import annotations

import math

from codegen import ir
from codegen.frontends.typescript.state import State
from codegen.frontends.typescript.tstypes import (
    ANY,
    NEVER,
    NULL,
    NUMBER,
    STRING,
    UNDEFINED,
    Arr,
    Dict,
    Leaf,
    Obj,
    Prop,
    TsType,
    Tup,
    Union,
    literal,
    literal_value,
    members_of,
    union_of,
)
from codegen.ir.verdicts import SCALARS, all_of, any_of, scalar_assignable


class TypeOps(State):
    """TypeScript's type operators over ``TsType`` (see the module docstring)."""

    # ------------------------------------------------------------------ hooks

    def named_object(self, name: str) -> Obj | None:
        """The members of a named object type (interface, object alias, lifted object)."""
        raise NotImplementedError

    def symbol_value(self, name: str) -> TsType | None:
        """The value of a (non-generic) alias, or the union of an enum's members."""
        raise NotImplementedError

    def enum_value(self, enum: str, member: str) -> str | int | None:
        raise NotImplementedError

    # ------------------------------------------------------------------ resolving

    def resolve(self, value: TsType, outer: frozenset[str] = frozenset()) -> TsType:
        """Follow references to aliases (and enums, to their members) to the type used
        (``outer``: aliases being flattened around this one, so cycles end)."""
        seen: set[str] = set(outer)
        while isinstance(value, Leaf) and isinstance(value.expr, ir.Ref):
            name = value.expr.name
            if name in seen or self.named_object(name) is not None:
                return value
            seen.add(name)
            target = self.symbol_value(name)
            if target is None:
                return value
            value = target
        if isinstance(value, Union) and any(
            isinstance(m, Leaf) and isinstance(m.expr, ir.Ref) for m in value.members
        ):
            # a union of aliases of unions is the union of their members (a member that
            # names anything else keeps its name)
            flat: list[TsType] = []
            for member in value.members:
                inner = self.resolve(member, frozenset(seen))
                flat.extend(inner.members if isinstance(inner, Union) else (member,))
            value = union_of(flat)
        return value

    def scalar(self, value: TsType) -> TsType:
        """An enum member as its literal value (for comparisons); anything else as is."""
        if isinstance(value, Leaf) and isinstance(value.expr, ir.EnumMemberRef):
            found = self.enum_value(value.expr.enum, value.expr.member)
            if found is not None:
                return literal(found)
        return value

    def is_object_ref(self, value: TsType) -> bool:
        return (
            isinstance(value, Leaf)
            and isinstance(value.expr, ir.Ref)
            and self.named_object(value.expr.name) is not None
        )

    def props_of(self, value: TsType) -> Obj | None:
        """The members of an object type, bases expanded (bases first; a member declared
        again later replaces the earlier one), or None if it is not an object type."""
        value = self.resolve(value)
        if isinstance(value, Leaf) and isinstance(value.expr, ir.Ref):
            found = self.named_object(value.expr.name)
            return self._expand(found, {value.expr.name}) if found else None
        if isinstance(value, Obj):
            return self._expand(value, set())
        return None

    def _expand(self, obj: Obj, seen: set[str]) -> Obj:
        props: dict[str, Prop] = {}
        index = obj.index
        for base in obj.bases:
            if base.name in seen:
                continue
            found = self.named_object(base.name)
            if found is None:
                continue
            expanded = self._expand(found, seen | {base.name})
            for prop in expanded.props:
                props.pop(prop.name, None)
                props[prop.name] = prop
            index = index or expanded.index
        for prop in obj.props:
            props.pop(prop.name, None)
            props[prop.name] = prop
        return Obj(tuple(props.values()), index, (), obj.closed, obj.span)

    # ------------------------------------------------------------------ keyof, T[K]

    def literal_keys(self, value: TsType) -> list[tuple[str, bool]] | None:
        """The property keys a key type stands for (``'a' | 'b'``, an enum), or None when it
        is not a finite set of string or number literals."""
        out: list[tuple[str, bool]] = []
        for member in members_of(self.resolve(value)):
            member = self.scalar(self.resolve(member))
            if not (isinstance(member, Leaf) and isinstance(member.expr, ir.Literal)):
                return None
            raw = member.expr.value
            if isinstance(raw, bool):
                return None
            numeric = isinstance(raw, (int, float))
            key = _number_text(raw) if numeric else str(raw)
            if (key, numeric) not in out:
                out.append((key, numeric))
        return out

    def keys_of(self, value: TsType, span: ir.Span) -> TsType:
        value = self.resolve(value)
        if isinstance(value, Union):
            sets = [self.keys_of(member, span) for member in value.members]
            common = [
                k
                for k in members_of(sets[0])
                if all(k in members_of(s) for s in sets[1:])
            ]
            return union_of(common)
        if isinstance(value, Dict):
            return Leaf(value.key)
        if isinstance(value, (Tup, Arr)):
            # an array's keys: any number (its index signature), ``"length"``, a tuple's
            # positions as strings (``"0"``), and its methods' names, which are not data
            fixed = value.items if isinstance(value, Tup) else ()
            return union_of(
                [
                    NUMBER,
                    *(literal(str(i)) for i in range(len(fixed))),
                    literal("length"),
                ]
            )
        obj = self.props_of(value)
        if obj is None:
            self.problem(span, "keyof applies to object types only here")
            return ANY
        keys: list[TsType] = [
            literal(_key_value(p.name) if p.numeric_key else p.name) for p in obj.props
        ]
        if obj.index is not None:
            keys.append(STRING)
        return union_of(keys)

    def member_while_evaluating(self, name: str, key: TsType) -> TsType | None:
        """``Alias["k"]`` read while ``Alias`` itself is being evaluated (two aliases
        indexing each other): the member's own type, if that can be read alone."""
        return None

    def index_access(self, value: TsType, key: TsType, span: ir.Span) -> TsType:
        if isinstance(value, Leaf) and isinstance(value.expr, ir.Ref):
            early = self.member_while_evaluating(value.expr.name, key)
            if early is not None:
                return early
        value = self.resolve(value)
        if isinstance(value, Union):
            return union_of([self.index_access(m, key, span) for m in value.members])
        key = self.resolve(key)
        if isinstance(value, Tup):
            return self._tuple_access(value, key)
        if isinstance(value, Arr):
            return value.items
        if isinstance(value, Dict):
            return value.values
        obj = self.props_of(value)
        if obj is None:
            self.problem(
                span, "an indexed access T[K] applies to object types only here"
            )
            return ANY
        keys = self.literal_keys(key)
        if keys is None:
            if obj.index is not None:
                return obj.index
            self.problem(span, "an indexed access T[K] needs literal keys here")
            return ANY
        out: list[TsType] = []
        for name, _ in keys:
            prop = next((p for p in obj.props if p.name == name), None)
            if prop is not None:
                out.append(
                    union_of([prop.type, UNDEFINED]) if prop.optional else prop.type
                )
            elif obj.index is not None:
                out.append(obj.index)
            else:
                self.problem(span, f"the type has no property {name!r}")
                return ANY
        return union_of(out)

    # ------------------------------------------------------------------ A & B

    def intersect(self, parts: list[TsType], span: ir.Span) -> TsType:
        result = parts[0] if parts else ANY
        for part in parts[1:]:
            result = self._intersect2(result, part, span)
        return result

    def _intersect2(self, a: TsType, b: TsType, span: ir.Span) -> TsType:
        if a is NEVER or b is NEVER:
            return NEVER
        if a == ANY:
            return b
        if b == ANY:
            return a
        ra, rb = self.resolve(a), self.resolve(b)
        if isinstance(ra, Union):
            return union_of([self._intersect2(m, b, span) for m in ra.members])
        if isinstance(rb, Union):
            return union_of([self._intersect2(a, m, span) for m in rb.members])
        a_obj = self.is_object_ref(a) or isinstance(ra, Obj)
        b_obj = self.is_object_ref(b) or isinstance(rb, Obj)
        if a_obj and b_obj:
            return self._merge(
                a if self.is_object_ref(a) else ra,
                b if self.is_object_ref(b) else rb,
                span,
            )
        if a_obj != b_obj:
            # ``string & { __brand: "Id" }``: a branded primitive is the primitive on the wire.
            scalar = rb if a_obj else ra
            if isinstance(scalar, Leaf) and isinstance(
                scalar.expr, (ir.Primitive, ir.Literal, ir.EnumMemberRef)
            ):
                return scalar
        if self.assignable(ra, rb):
            return a
        if self.assignable(rb, ra):
            return b
        if self.assignable(ra, rb) is False and self.assignable(rb, ra) is False:
            return NEVER
        self.problem(span, "this intersection cannot be evaluated")
        return ANY

    def _merge(self, a: TsType, b: TsType, span: ir.Span) -> Obj:
        if self._members_conflict(a, b):
            # ``A & B`` both with ``flag`` of different types: the member's type is the
            # intersection (``boolean & true`` is ``true``), which ``extends`` of both
            # cannot say; the members are merged instead
            a_obj, b_obj = self.props_of(a), self.props_of(b)
            if a_obj is not None and b_obj is not None:
                a, b = a_obj, b_obj
        bases: list[ir.Ref] = []
        props: dict[str, Prop] = {}
        index: TsType | None = None
        closed = False
        for part in (a, b):
            if isinstance(part, Leaf) and isinstance(part.expr, ir.Ref):
                if part.expr not in bases:
                    bases.append(part.expr)
                continue
            assert isinstance(part, Obj)
            bases.extend(base for base in part.bases if base not in bases)
            closed = closed or part.closed
            if part.index is not None:
                index = (
                    part.index
                    if index is None
                    else self._intersect2(index, part.index, span)
                )
            for prop in part.props:
                earlier = props.get(prop.name)
                if earlier is None:
                    props[prop.name] = prop
                    continue
                props[prop.name] = Prop(
                    prop.name,
                    self._intersect2(earlier.type, prop.type, span),
                    earlier.optional and prop.optional,
                    prop.numeric_key,
                    earlier.readonly or prop.readonly,
                    prop.doc or earlier.doc,
                    earlier.span,
                )
        return Obj(tuple(props.values()), index, tuple(bases), closed, span)

    def _members_conflict(self, a: TsType, b: TsType) -> bool:
        a_obj, b_obj = self.props_of(a), self.props_of(b)
        if a_obj is None or b_obj is None:
            return False
        mine = {p.name: p for p in a_obj.props}
        both_named = self.is_object_ref(a) and self.is_object_ref(b)
        for prop in b_obj.props:
            earlier = mine.get(prop.name)
            if earlier is None or (
                earlier.type == prop.type and earlier.optional == prop.optional
            ):
                continue
            if both_named:
                return True  # two bases cannot both declare it
            # a later inline member that narrows the earlier one overrides it (the IR's
            # ``extends`` keeps the base); anything else is merged
            narrowed = self._intersect2(earlier.type, prop.type, ir.NO_SPAN)
            if narrowed != prop.type or (earlier.optional < prop.optional):
                return True
        return False

    # ------------------------------------------------------------------ utility types

    def partial(self, value: TsType, span: ir.Span, optional: bool) -> TsType:
        resolved = self.resolve(value)
        if isinstance(resolved, Union):
            # a homomorphic mapped type distributes over a union (``Partial<A | B>``)
            return union_of([self.partial(m, span, optional) for m in resolved.members])
        obj = self._object_arg(value, span, "Partial" if optional else "Required")
        if obj is None:
            return ANY
        props = tuple(
            Prop(p.name, p.type, optional, p.numeric_key, p.readonly, p.doc, p.span)
            for p in obj.props
        )
        return Obj(props, obj.index, (), obj.closed, span)

    def pick(self, value: TsType, keys: TsType, span: ir.Span, keep: bool) -> TsType:
        what = "Pick" if keep else "Omit"
        obj = self._object_arg(value, span, what)
        names = self.literal_keys(keys)
        if obj is None:
            return ANY
        if names is None:
            self.problem(span, f"{what}<T, K> needs literal keys")
            return ANY
        wanted = {name for name, _ in names}
        if keep:
            missing = wanted - {p.name for p in obj.props}
            if missing:
                self.problem(span, f"Pick<T, K>: T has no key {min(missing)!r}")
                return ANY
        props = tuple(p for p in obj.props if (p.name in wanted) == keep)
        return Obj(props, None if keep else obj.index, (), obj.closed, span)

    def record(self, keys: TsType, values: TsType, span: ir.Span) -> TsType:
        resolved = self.resolve(keys)
        if resolved is NEVER or resolved is UNDEFINED:
            return Obj(
                span=span
            )  # no keys (symbol keys: JSON.stringify leaves them out)
        names = self.literal_keys(resolved)
        if names is not None:
            props = tuple(
                Prop(name, values, numeric_key=numeric, span=span)
                for name, numeric in names
            )
            return Obj(props, span=span)
        if (
            isinstance(resolved, Leaf)
            and isinstance(resolved.expr, ir.Primitive)
            and resolved.expr.kind in (ir.PrimitiveKind.STRING, ir.PrimitiveKind.NUMBER)
        ):
            if values is NEVER:
                return Obj(closed=True, span=span)  # no key can have a value
            if resolved.expr.kind is ir.PrimitiveKind.NUMBER:
                return Dict(values, resolved.expr)  # numeric names only
            return Dict(values)
        self.problem(span, "Record<K, V> needs string, number or literal keys")
        return ANY

    def exclude(
        self, value: TsType, removed: TsType, span: ir.Span, keep: bool
    ) -> TsType:
        out: list[TsType] = []
        for member in members_of(self.resolve(value)):
            fits = self.assignable(member, removed)
            if fits is None:
                self.problem(span, "Exclude/Extract cannot decide a member")
                return ANY
            if fits == keep:
                out.append(member)
        return union_of(out)

    def non_nullable(self, value: TsType) -> TsType:
        return union_of(
            [m for m in members_of(self.resolve(value)) if m not in (NULL, UNDEFINED)]
        )

    def _object_arg(self, value: TsType, span: ir.Span, what: str) -> Obj | None:
        obj = self.props_of(value)
        if obj is None:
            self.problem(span, f"{what}<T> applies to object types only here")
        return obj

    # ------------------------------------------------------------------ assignability

    def assignable(self, source: TsType, target: TsType) -> bool | None:
        """Whether every value of ``source`` is a value of ``target`` (TypeScript's
        ``extends``); None when the evaluator cannot tell."""
        return self._assignable(source, target, set())

    def _assignable(
        self, source: TsType, target: TsType, assuming: set[tuple[TsType, TsType]]
    ) -> bool | None:
        if (source, target) in assuming:
            return True
        assuming = assuming | {(source, target)}
        if target == ANY or source is NEVER or source == target:
            return True
        if source == ANY:
            return False
        source = self.scalar(self.resolve(source))
        target = self.scalar(self.resolve(target))
        if source == target:
            return True
        if isinstance(source, Union):
            return all_of(self._assignable(m, target, assuming) for m in source.members)
        if isinstance(target, Union):
            return any_of(self._assignable(source, m, assuming) for m in target.members)
        if target is NEVER or target is UNDEFINED or source is UNDEFINED:
            return False
        if isinstance(source, Leaf) and isinstance(target, Leaf):
            leaf = _leaf_assignable(source.expr, target.expr)
            if leaf is not None:
                return leaf
        source_obj = self.props_of(source)
        target_obj = self.props_of(target)
        if target_obj is not None and isinstance(source, (Arr, Tup)):
            return self._array_to_object(source, target_obj, assuming)
        if target_obj is not None:
            if source_obj is None:
                return False if _is_scalar(source) else None
            return self._object_assignable(source_obj, target_obj, assuming)
        if isinstance(target, Leaf) and isinstance(target.expr, ir.AnyJson):
            return source_obj is not None or isinstance(source, (Arr, Tup, Dict))
        if source_obj is not None and _is_scalar(target):
            return False
        if isinstance(target, Tup) and isinstance(source, (Tup, Arr)):
            return self._tuple_assignable(source, target, assuming)
        if isinstance(target, Arr) and isinstance(source, (Arr, Tup)):
            items = _tuple_items(source) if isinstance(source, Tup) else (source.items,)
            return all_of(self._assignable(i, target.items, assuming) for i in items)
        if isinstance(target, Dict) and isinstance(source, Dict):
            return self._assignable(source.values, target.values, assuming)
        if _is_scalar(source) and isinstance(target, (Arr, Tup, Dict)):
            return False
        if isinstance(source, (Arr, Tup, Dict)) and _is_scalar(target):
            return False
        return None

    def _array_to_object(
        self, source: Arr | Tup, target: Obj, assuming: set[tuple[TsType, TsType]]
    ) -> bool | None:
        """An array against an object type (``T extends { length: 3 }``): its members are
        ``length`` and its positions; any other required member it lacks."""
        fixed = isinstance(source, Tup) and source.rest is None
        items = source.items if isinstance(source, Tup) else ()
        if fixed and isinstance(source, Tup) and source.least == len(items):
            length: TsType = literal(len(items))
        else:
            length = NUMBER
        verdicts: list[bool | None] = []
        for prop in target.props:
            if prop.name == "length":
                verdicts.append(self._assignable(length, prop.type, assuming))
            elif (
                prop.numeric_key
                and fixed
                and (at := _position(float(prop.name))) is not None
                and at < len(items)
            ):
                verdicts.append(self._assignable(items[at], prop.type, assuming))
            elif not prop.optional:
                return False
        if target.index is not None:
            return None
        return all_of(iter(verdicts))

    def _tuple_assignable(
        self, source: Tup | Arr, target: Tup, assuming: set[tuple[TsType, TsType]]
    ) -> bool | None:
        """Every array ``source`` allows has a length ``target`` allows and items that fit
        their positions (an array is a tuple of no fixed items and a rest)."""
        if isinstance(source, Arr):
            source = Tup((), 0, source.items)
        if source.least < target.least:
            return False
        if target.rest is None and (
            source.rest is not None or len(source.items) > len(target.items)
        ):
            return False
        verdicts: list[bool | None] = []
        for position, item in enumerate(source.items):
            verdicts.append(
                self._assignable(item, _tuple_at(target, position), assuming)
            )
        if source.rest is not None:
            for position in range(len(source.items), len(target.items)):
                verdicts.append(
                    self._assignable(source.rest, target.items[position], assuming)
                )
            if target.rest is not None:
                verdicts.append(self._assignable(source.rest, target.rest, assuming))
        return all_of(iter(verdicts))

    def _tuple_access(self, value: Tup, key: TsType) -> TsType:
        """``T[0]`` is the item at 0 (``| undefined`` if optional); ``T[number]`` all."""
        raw = literal_value(self.scalar(key))
        position = (
            _position(raw)
            if isinstance(raw, (int, float)) and not isinstance(raw, bool)
            else None
        )
        if position is not None:
            if position < len(value.items):
                item = value.items[position]
                return item if position < value.least else union_of([item, UNDEFINED])
            if value.rest is not None:
                return union_of([value.rest, UNDEFINED])
        return union_of(list(_tuple_items(value)))

    def _object_assignable(
        self, source: Obj, target: Obj, assuming: set[tuple[TsType, TsType]]
    ) -> bool | None:
        mine = {p.name: p for p in source.props}
        verdicts: list[bool | None] = []
        for prop in target.props:
            have = mine.get(prop.name)
            if have is None:
                if not prop.optional:
                    return False
                continue
            if have.optional and not prop.optional:
                return False
            verdicts.append(self._assignable(have.type, prop.type, assuming))
        if target.index is not None:
            verdicts.extend(
                self._assignable(p.type, target.index, assuming) for p in source.props
            )
        if target.closed and set(mine) - {p.name for p in target.props}:
            return False
        return all_of(iter(verdicts))


def _tuple_items(value: Tup) -> tuple[TsType, ...]:
    return (*value.items, *([value.rest] if value.rest is not None else []))


def _tuple_at(value: Tup, position: int) -> TsType:
    if position < len(value.items):
        return value.items[position]
    return value.rest if value.rest is not None else NEVER


def _leaf_assignable(source: ir.TypeExpr, target: ir.TypeExpr) -> bool | None:
    if isinstance(target, ir.AnyJson):
        return None if target.structured or target.object_only else True
    if isinstance(source, SCALARS) and isinstance(target, SCALARS):
        return scalar_assignable(source, target)
    if isinstance(source, ir.Literal):
        return False if isinstance(target, ir.Ref) else None
    if isinstance(source, ir.Ref) and isinstance(target, ir.Ref):
        return True if source.name == target.name else None
    return None


def _is_scalar(value: TsType) -> bool:
    return isinstance(value, Leaf) and isinstance(
        value.expr, (ir.Primitive, ir.Literal, ir.EnumMemberRef)
    )


def _number_text(value: float | bool | str) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _key_value(name: str) -> int | float | str:
    try:
        return int(name)
    except ValueError:
        try:
            return float(name)
        except ValueError:
            return name


def _position(number: float) -> int | None:
    """A tuple position a numeric key names: a whole, finite, non-negative number (the
    checker has no member ``1.5``, ``-1`` or ``1e400`` on a tuple)."""
    if not math.isfinite(number) or number < 0 or not float(number).is_integer():
        return None
    return int(number)
