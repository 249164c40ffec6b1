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
Guarantees: pure; flattened structs and maps are left to ``Index.wire_fields``; a
representation serde cannot flatten (a unit or primitive payload, an externally tagged enum)
is SER002 and left as it is; recursion through cycles stops.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from codegen import ir
from codegen.diagnostics import Diagnostics

_FLATTENABLE = (ir.UnionRepr.INTERNALLY_TAGGED, ir.UnionRepr.UNTAGGED)


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
            if union.repr not in _FLATTENABLE:
                self.diags.report(
                    "SER002",
                    f"{struct.name}.{fld.name}: flattening a {union.repr.value} enum is not "
                    "modelled; the field is kept as a nested value",
                    fld.span,
                )
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
            if variant.type is not None and not self._is_object(variant.type):
                self.diags.report(
                    "SER002",
                    f"{struct.name}.{fld.name}: variant {variant.name} of {union.name} has "
                    "no object payload, which serde cannot flatten; the variant is left out",
                    variant.span if variant.span != ir.NO_SPAN else fld.span,
                )
                continue
            inserted: list[ir.Field] = []
            key = union.tag_key
            tagged = (
                union.repr is ir.UnionRepr.INTERNALLY_TAGGED and not variant.untagged
            )
            if tagged and key is not None and not self._has_key(variant.type, key):
                inserted.append(_tag_field(key, variant, fld.span))
            if variant.type is not None:
                inserted.append(
                    replace(
                        fld,
                        type=variant.type,
                        presence=ir.Presence.REQUIRED,
                        flatten=True,
                    )
                )
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
            variants.append(replace(variant, type=ir.Ref(expanded.name, struct.span)))
        return ir.UnionDecl(
            name=struct.name,
            variants=tuple(variants),
            repr=union.repr,
            tag_key=union.tag_key,
            content_key=union.content_key,
            first_fit=union.first_fit,
            lifecycle=struct.lifecycle,
            span=struct.span,
            derived_from=struct.derived_from,
            exported=struct.exported,
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
