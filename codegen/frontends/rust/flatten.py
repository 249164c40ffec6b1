"""``#[serde(flatten)]`` of an enum: a struct whose keys include a tagged (or untagged) enum's.

Phase: frontend (``rust.reader``, once every declaration exists).
Inputs: the crate's declarations; struct fields with ``flatten`` whose type is (or became) a
union; internally tagged newtype variants whose payload is (or became) a union.
Outputs: such a struct becomes a union of the flattened enum's representation (same tag
key, same untagged fallbacks, first fit for untagged ones), one variant per variant of the
enum: a synthesized struct ``<Struct><Variant>`` holding the struct's own fields with, where
the flattened field stood, the variant's tag (internally tagged) and its payload
(flattened).  A payload that is itself such a union (``ElicitationFormMode`` flattening an
untagged scope) makes that variant a union in turn: the choice is nested exactly as serde
nests it (the tag first, then the payload's own first fit).  Likewise an internally tagged
variant whose payload is a union: the tag goes into each of the payload's structs.  That is
serde's wire form: it writes the struct's fields in order with the enum's tag and fields in
place, and reads the enum from the keys the struct's own fields do not take.
Externally tagged enums flatten too: the variant's name becomes a key of the struct holding
its payload (``null`` for a unit variant), and the union of the structs is untagged (the key
a variant requires tells them apart; serde takes the first key in the object's order that
names a variant, we the first variant in declaration order: the same objects are accepted).
Adjacently tagged ones put their tag and content keys into the struct (a unit variant's
content key is never written; ``null`` reads); the union is tagged by that tag key.  A
``serde_json::Value`` (or map) payload flattened is every key the struct does not take; a
unit payload of an untagged variant adds no key.  An ``Option<Enum>`` flattened adds a last
variant without the enum's keys: serde reads ``None`` when the enum does not read.
Guarantees: pure; flattened structs and maps are left to ``Index.wire_fields``; a payload
serde cannot flatten (a primitive or a sequence in an internally tagged or untagged variant)
is SER002 and that variant left out; recursion through cycles stops.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from codegen import ir
from codegen.diagnostics import Diagnostics

_NULL = ir.Primitive(ir.PrimitiveKind.NULL)


def distribute_flattened_unions(
    decls: list[ir.Decl], diags: Diagnostics
) -> list[ir.Decl]:
    first: dict[str, ir.Decl] = {}
    for decl in decls:
        first.setdefault(decl.name, decl)
    work = _Distributor(first, diags)
    out: list[ir.Decl] = []
    for decl in decls:
        if first[decl.name] is not decl:
            out.append(decl)  # a second declaration of a name: reported, left alone
            continue
        final = work.final(decl.name)
        out.extend(work.synthesized.pop(decl.name, []))
        out.append(final)
    return out


@dataclass
class _Distributor:
    original: dict[str, ir.Decl]
    diags: Diagnostics
    done: dict[str, ir.Decl] = field(default_factory=dict)
    synthesized: dict[str, list[ir.Decl]] = field(
        default_factory=dict
    )  # owner → new decls
    busy: set[str] = field(default_factory=set)
    made: dict[str, ir.Decl] = field(default_factory=dict)  # synthesized, by name

    def final(self, name: str) -> ir.Decl:
        if name in self.done:
            return self.done[name]
        decl = self.original[name]
        if name in self.busy:
            return decl
        self.busy.add(name)
        owner: list[ir.Decl] = []
        if isinstance(decl, ir.StructDecl):
            result = self._expand(decl, owner)
        elif isinstance(decl, ir.UnionDecl):
            result = self._tag_into_union_payloads(decl, owner)
        else:
            result = decl
        self.busy.discard(name)
        self.done[name] = result
        if owner:
            self.synthesized[name] = owner
        return result

    def _union_of(self, expr: ir.TypeExpr | None) -> ir.UnionDecl | None:
        if not isinstance(expr, ir.Ref):
            return None
        made = self.made.get(expr.name)
        if made is not None:
            return made if isinstance(made, ir.UnionDecl) else None
        if expr.name not in self.original:
            return None
        decl = self.original[expr.name]
        if isinstance(decl, ir.AliasDecl) and decl.kind is ir.AliasKind.ALIAS:
            return self._union_of(decl.target)
        final = self.final(expr.name)
        return final if isinstance(final, ir.UnionDecl) else None

    def _has_key(self, expr: ir.TypeExpr | None, key: str, depth: int = 0) -> bool:
        """Whether every object of the payload already writes ``key`` (a struct variant
        lifted with its tag, or a payload the tag was already distributed into)."""
        if not isinstance(expr, ir.Ref) or depth > 16:
            return False
        decl = self.made.get(expr.name) or self.original.get(expr.name)
        if isinstance(decl, ir.StructDecl):
            return any(
                f.wire_name == key
                or (f.flatten and self._has_key(f.type, key, depth + 1))
                for f in decl.fields
            )
        if isinstance(decl, ir.UnionDecl):
            return bool(decl.variants) and all(
                self._has_key(v.type, key, depth + 1) for v in decl.variants
            )
        return False

    def _expand(self, struct: ir.StructDecl, owner: list[ir.Decl]) -> ir.Decl:
        for position, fld in enumerate(struct.fields):
            if not fld.flatten:
                continue
            union = self._union_of(fld.type)
            if union is None:
                continue
            return self._distribute(struct, position, fld, union, owner)
        return struct

    def _distribute(
        self,
        struct: ir.StructDecl,
        position: int,
        fld: ir.Field,
        union: ir.UnionDecl,
        owner: list[ir.Decl],
    ) -> ir.UnionDecl:
        variants: list[ir.Variant] = []
        for variant in union.variants:
            inserted = self._keys_of(union, variant, fld)
            if inserted is None:
                self.diags.report(
                    "SER002",
                    f"{struct.name}.{fld.name}: variant {variant.name} of {union.name} has "
                    "no object payload, which serde cannot flatten; the variant is left out",
                    variant.span if variant.span != ir.NO_SPAN else fld.span,
                )
                continue
            fields = (
                struct.fields[:position]
                + tuple(inserted)
                + struct.fields[position + 1 :]
            )
            sub = replace(
                struct,
                name=f"{struct.name}{variant.name}",
                fields=fields,
                array_form=None,
                lifecycle=replace(
                    struct.lifecycle,
                    docs=(
                        struct.lifecycle.docs + "\n\n" + variant.lifecycle.docs
                    ).strip(),
                ),
                derived_from=f"{struct.name} with {fld.name}: {union.name}::{variant.name}",
            )
            expanded = self._expand(sub, owner)
            owner.append(expanded)
            self.made[expanded.name] = expanded
            variants.append(
                replace(
                    variant,
                    type=ir.Ref(expanded.name, struct.span),
                    # the variant's key is in its struct: the union is untagged
                    tag_values=(
                        ()
                        if union.repr is ir.UnionRepr.EXTERNALLY_TAGGED
                        else variant.tag_values
                    ),
                )
            )
        if fld.presence is not ir.Presence.REQUIRED:
            # Option<Enum>: None when the enum does not read; nothing written for it
            absent = self._expand(
                replace(
                    struct,
                    name=f"{struct.name}No{fld.name[:1].upper()}{fld.name[1:]}",
                    fields=struct.fields[:position] + struct.fields[position + 1 :],
                    array_form=None,
                    derived_from=f"{struct.name} with {fld.name}: None",
                ),
                owner,
            )
            owner.append(absent)
            self.made[absent.name] = absent
            variants.append(
                ir.Variant(
                    "None",
                    ir.Ref(absent.name, struct.span),
                    untagged=union.repr is not ir.UnionRepr.EXTERNALLY_TAGGED
                    and union.repr is not ir.UnionRepr.UNTAGGED,
                    span=fld.span,
                )
            )
        if union.repr is ir.UnionRepr.EXTERNALLY_TAGGED:
            repr_, tag_key = ir.UnionRepr.UNTAGGED, None
        elif union.repr is ir.UnionRepr.ADJACENTLY_TAGGED:
            repr_, tag_key = ir.UnionRepr.INTERNALLY_TAGGED, union.tag_key
        else:
            repr_, tag_key = union.repr, union.tag_key
        return ir.UnionDecl(
            name=struct.name,
            variants=tuple(variants),
            repr=repr_,
            tag_key=tag_key,
            content_key=None,
            first_fit=union.first_fit or repr_ is ir.UnionRepr.UNTAGGED,
            lifecycle=struct.lifecycle,
            span=struct.span,
            derived_from=struct.derived_from,
            exported=struct.exported,
        )

    def _keys_of(
        self, union: ir.UnionDecl, variant: ir.Variant, fld: ir.Field
    ) -> list[ir.Field] | None:
        """The fields one variant of a flattened enum puts where the flattened field
        stood, as serde writes them; None when serde cannot flatten its payload."""
        payload = variant.type
        if union.repr is ir.UnionRepr.EXTERNALLY_TAGGED and not variant.untagged:
            wire = str((variant.tag_values or (variant.name,))[0])
            # a unit variant is written as its name with null (and read from null)
            return [
                ir.Field(wire, wire, payload or _NULL, span=variant.span or fld.span)
            ]
        inserted: list[ir.Field] = []
        key = union.tag_key
        if union.repr is ir.UnionRepr.ADJACENTLY_TAGGED and not variant.untagged:
            assert key is not None
            inserted.append(_tag_field(key, variant, fld.span))
            content = union.content_key or "content"
            if payload is None:
                # never written; serde reads a unit from null
                inserted.append(
                    ir.Field(
                        content,
                        content,
                        _NULL,
                        presence=ir.Presence.OPTIONAL,
                        omitted_value="null",
                        span=fld.span,
                    )
                )
            else:
                inserted.append(ir.Field(content, content, payload, span=fld.span))
            return inserted
        tagged = union.repr is ir.UnionRepr.INTERNALLY_TAGGED and not variant.untagged
        if tagged and key is not None and not self._has_key(payload, key):
            inserted.append(_tag_field(key, variant, fld.span))
        if payload is None or payload == _NULL:
            return inserted  # a unit is written as no key at all
        if self._is_object(payload):
            flat = replace(
                fld, type=payload, presence=ir.Presence.REQUIRED, flatten=True
            )
        elif self._is_map(payload):
            # a Value (or map) is every key the struct's other fields do not take
            values = payload.values if isinstance(payload, ir.MapOf) else ir.AnyJson()
            flat = replace(
                fld,
                type=ir.MapOf(values),
                presence=ir.Presence.REQUIRED,
                flatten=True,
            )
        else:
            return None
        inserted.append(flat)
        return inserted

    def _is_map(self, expr: ir.TypeExpr) -> bool:
        if isinstance(expr, ir.Ref):
            decl = self.made.get(expr.name) or self.original.get(expr.name)
            if isinstance(decl, ir.AliasDecl) and decl.kind is ir.AliasKind.ALIAS:
                return self._is_map(decl.target)
            return False
        return isinstance(expr, ir.MapOf) or (
            isinstance(expr, ir.AnyJson) and not expr.structured
        )

    def _is_object(self, expr: ir.TypeExpr) -> bool:
        if not isinstance(expr, ir.Ref):
            return False
        decl = self.made.get(expr.name) or self.original.get(expr.name)
        if isinstance(decl, ir.AliasDecl) and decl.kind is ir.AliasKind.ALIAS:
            return self._is_object(decl.target)
        return isinstance(decl, (ir.StructDecl, ir.UnionDecl))

    def _tag_into_union_payloads(
        self, union: ir.UnionDecl, owner: list[ir.Decl]
    ) -> ir.UnionDecl:
        """An internally tagged newtype variant whose payload is a union: its tag goes
        into each of the payload's structs."""
        if union.repr is not ir.UnionRepr.INTERNALLY_TAGGED or union.tag_key is None:
            return union
        variants = list(union.variants)
        changed = False
        for index, variant in enumerate(variants):
            if variant.untagged or self._union_of(variant.type) is None:
                continue
            assert variant.type is not None
            carrier = ir.StructDecl(
                name=f"{union.name}{variant.name}",
                fields=(
                    _tag_field(union.tag_key, variant, variant.span),
                    ir.Field(
                        name="payload",
                        wire_name="payload",
                        type=variant.type,
                        flatten=True,
                        span=variant.span,
                    ),
                ),
                lifecycle=variant.lifecycle,
                span=variant.span,
                derived_from=f"{union.name}::{variant.name}",
            )
            expanded = self._expand(carrier, owner)
            owner.append(expanded)
            self.made[expanded.name] = expanded
            variants[index] = replace(variant, type=ir.Ref(expanded.name, variant.span))
            changed = True
        return replace(union, variants=tuple(variants)) if changed else union


def _tag_field(key: str, variant: ir.Variant, span: ir.Span) -> ir.Field:
    values = variant.tag_values or (variant.name,)
    members = tuple(ir.Literal(v) for v in values)
    tag_type: ir.TypeExpr = members[0] if len(members) == 1 else ir.InlineUnion(members)
    return ir.Field(key, key, tag_type, span=span, synthesized=True)
