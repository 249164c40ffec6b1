"""Unions of the Python bindings: every union representation → a discriminated type.

Phase: backend (Python bindings), after ``decls`` (models) and before the
templates.
Inputs: a normalized ``ir.Protocol``, one ``ir.UnionDecl`` at a time.
Outputs: ``UnionBuilder.union``: the union's ``DeclView`` (an ``Annotated`` type
alias), preceded by the wrapper models it synthesizes; internally tagged (or an
inferred tag key) → ``Field(discriminator=...)`` or a callable discriminator;
adjacently tagged → one ``{tag, content}`` wrapper per variant; externally tagged →
one single-key wrapper per variant, unit variants as bare strings; untagged → pydantic's
``left_to_right`` union when the first fit in declaration order decides (serde), else its
smart union (any variant that reads the value, the best-fitting one: TypeScript).  A
union of models (lists of them, unions of them) is written by the class of the value
(``_BY_CLASS``), unless a union written otherwise holds it.
Guarantees: a value is accepted exactly when the source language reads it; tags compare
JSON types exactly (``true`` never matches the tag ``1``).
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterator, Sequence
from dataclasses import fields, is_dataclass, replace
from functools import cached_property
from types import UnionType
from typing import Any, Union, get_args, get_origin, get_type_hints

from codegen import ir, naming
from codegen.backends.python.annotations import ANY_JSON_OBJECT
from codegen.backends.python.decls import DeclBuilder, _is_literal_like
from codegen.backends.python.names import (
    has_untagged_fallback,
    needs_wrapper,
    tagged_part_key,
    wrapper_key,
)
from codegen.backends.python.text import (
    docstring,
    json_kind,
    lifecycle_text,
    py_literal,
)
from codegen.backends.python.views import CheckView, DeclView, DiscriminatorView
from codegen.ir.index import Index

__all__ = ["UnionBuilder"]

# The tag of the catch-all member of an open union (not a name a spec variant can have).
_UNKNOWN_TAG = "<unknown tag>"


class UnionBuilder(DeclBuilder):
    """The views of unions (and of their wrapper models) of one protocol."""

    _tagged_part: str | None = None  # a union whose tagged part is being built

    def union(self, union: ir.UnionDecl) -> list[DeclView]:
        if any(v.asymmetric() for v in union.variants):
            # serde reads these variants otherwise than it writes them: the bindings read
            # as serde does (the variants and tags its reader takes) and write a value
            # back with the tag it was read with
            union = replace(
                union,
                variants=tuple(
                    replace(v, tag_values=v.read_tags or v.tag_values)
                    for v in union.variants
                    if v.read
                ),
            )
        if has_untagged_fallback(union):
            return self._with_untagged_fallback(union)
        if union.repr is ir.UnionRepr.INTERNALLY_TAGGED:
            return self._tagged_union(union, union.tag_key or "type")
        if union.repr is ir.UnionRepr.ADJACENTLY_TAGGED:
            return self._adjacent_union(union)
        if union.repr is ir.UnionRepr.EXTERNALLY_TAGGED:
            return self._external_union(union)
        members = list(
            dict.fromkeys(self._variant_annotation(v) for v in union.variants)
        )
        if not union.first_fit:
            # Any order reads the same; ``bool`` first so that ``True`` is written as
            # ``true`` (pydantic serializes by the first member it is an instance of).
            members.sort(key=lambda a: not a.startswith(("bool", "Annotated[bool")))
        value = " | ".join(members)
        if union.first_fit and len(members) > 1:
            # serde: the first variant in declaration order that reads the value.
            return [
                self._union_view(
                    union,
                    value,
                    (
                        "Untagged: the first variant, in declaration order, that reads it.",
                    ),
                    markers=("_LEFT_TO_RIGHT",),
                )
            ]
        models = self._by_keys(union)
        markers = (f"_ByKeys({', '.join(models)})",) if models else ()
        if not models and len(members) > 1 and self._one_kind_each(union):
            markers = ("_SCALARS",)
        return [
            self._union_view(
                union,
                value,
                ("Untagged: pydantic's smart union picks the best-fitting variant.",),
                markers=markers,
            )
        ]

    def _one_kind_each(self, union: ir.UnionDecl) -> bool:
        """Whether every variant is a plain scalar (a string, an integer or a number, a
        boolean) and no two take a value of the same JSON kind: then the first member
        that reads a value is the only one, and a value is written as it is
        (``_SCALARS``).  A serde ``f64`` reads integers too, so it is not one."""
        kinds: list[str] = []
        for variant in union.variants:
            resolved = (
                self.index.resolve(variant.type) if variant.type is not None else None
            )
            if not isinstance(resolved, ir.Primitive) or (
                resolved.constraints.binary_float
            ):
                return False
            kind = {
                ir.PrimitiveKind.STRING: "string",
                ir.PrimitiveKind.INTEGER: "number",
                ir.PrimitiveKind.NUMBER: "number",
                ir.PrimitiveKind.BOOLEAN: "boolean",
            }.get(resolved.kind)
            if kind is None or kind in kinds:
                return False
            kinds.append(kind)
        return True

    def _by_keys(self, union: ir.UnionDecl) -> list[str]:
        """The model classes of a smart union of models (nested smart unions of models
        included) worth sorting out by the keys of the object (``_ByKeys``), else [].
        Three or more: with two, the one failed try saved costs about what sorting
        costs (a Python call on a Python copy of the object).  A member that requires
        no key (MCP's ``EmptyResult``) does not stand in the way: the member whose
        fields outnumber what it could count is read alone."""
        found = self._smart_members(union, set())
        if found is None or len(found) < 3:
            return []
        return list(dict.fromkeys(self.names[s.name] for s in found))

    def _smart_members(
        self, union: ir.UnionDecl, seen: set[str]
    ) -> list[ir.StructDecl] | None:
        """The structs a smart union reads with, through nested smart unions; None
        when a member is anything else."""
        if (
            union.repr is not ir.UnionRepr.UNTAGGED
            or union.first_fit
            or has_untagged_fallback(union)
            or union.name in seen
        ):
            return None
        seen.add(union.name)
        out: list[ir.StructDecl] = []
        for variant in union.variants:
            if variant.type is None:
                return None
            struct = self.index.struct_of(variant.type)
            if struct is not None:
                out.append(struct)
                continue
            resolved = self.index.resolve(variant.type)
            inner = (
                self.index.get(resolved.name) if isinstance(resolved, ir.Ref) else None
            )
            if not isinstance(inner, ir.UnionDecl):
                return None
            nested = self._smart_members(inner, seen)
            if nested is None:
                return None
            out.extend(nested)
        return out

    def _with_untagged_fallback(self, union: ir.UnionDecl) -> list[DeclView]:
        """serde's ``#[serde(untagged)]`` variants of a tagged enum: the tagged variants
        first (as one tagged union), then each untagged variant in declaration order;
        the first that reads the value is the one."""
        tagged = replace(
            union,
            variants=tuple(v for v in union.variants if not v.untagged),
            exported=False,
        )
        self._tagged_part = union.name
        views = self.union(tagged) if tagged.variants else []
        self._tagged_part = None
        parts = [self.names[tagged_part_key(union)]] if tagged.variants else []
        parts += [self._variant_annotation(v) for v in union.variants if v.untagged]
        views.append(
            self._union_view(
                union,
                " | ".join(dict.fromkeys(parts)),
                (
                    "Tagged variants first, then each untagged variant: the first that reads it.",
                ),
                markers=("_LEFT_TO_RIGHT",),
            )
        )
        return views

    def _union_view(
        self,
        union: ir.UnionDecl,
        value: str,
        comment: tuple[str, ...],
        discriminator: DiscriminatorView | None = None,
        markers: tuple[str, ...] = (),
    ) -> DeclView:
        """The alias of ``value`` (the union's members) with its ``Annotated``
        ``markers``, and ``_BY_CLASS`` when it is written by class."""
        doc = lifecycle_text(union.lifecycle.docs, union.lifecycle)
        key = union.name
        if union.name == self._tagged_part:
            key = tagged_part_key(union)
        if union.name in self._by_class:
            markers += ("_BY_CLASS",)
        if markers:
            value = f"Annotated[{value}, {', '.join(markers)}]"
        return DeclView(
            kind="union",
            name=self.names[key],
            doc=docstring(doc, ""),
            comment=comment,
            value=value or "None",
            discriminator=discriminator,
            exported=union.exported,
            runtime=value,
        )

    def _variant_annotation(self, variant: ir.Variant) -> str:
        # ``strict``: a union alias is validated at module level too (``TypeAdapter``),
        # where ``true`` would otherwise read as ``1``.
        if variant.type is None:
            return "None"
        return self.annotation(variant.type, strict=True)

    def _tag_field(
        self, key: str, values: tuple[str | int | bool, ...], *, catch_all: bool = False
    ) -> ir.Field:
        members = tuple(ir.Literal(v) for v in values)
        expr: ir.TypeExpr = members[0] if len(members) == 1 else ir.InlineUnion(members)
        if catch_all:
            # serde's ``#[serde(other)]``: read for any other tag, written as its own.
            return ir.Field(
                name=key,
                wire_name=key,
                type=expr,
                presence=ir.Presence.WRITTEN_ALWAYS_READ_OPTIONAL,
                default_json=json.dumps(values[0]),
                default_on_error=True,
                synthesized=True,
            )
        return ir.Field(name=key, wire_name=key, type=expr, synthesized=True)

    def _tagged_members(self, expr: ir.TypeExpr | None, key: str) -> list[str] | None:
        """The model classes of a union-typed variant when every one of them carries the
        tag field itself (a flattened enum distributed into structs), else None."""
        if not isinstance(expr, ir.Ref):
            return None
        resolved = self.index.resolve(expr)
        decl = self.index.get(resolved.name) if isinstance(resolved, ir.Ref) else None
        if not isinstance(decl, ir.UnionDecl) or decl.repr is not ir.UnionRepr.UNTAGGED:
            return None
        out: list[str] = []
        for variant in decl.variants:
            struct = self.index.struct_of(variant.type) if variant.type else None
            if struct is not None:
                if all(f.wire_name != key for f in self.index.wire_fields(struct)):
                    return None
                out.append(self.names[struct.name])
                continue
            inner = self._tagged_members(variant.type, key)
            if inner is None:
                return None
            out.extend(inner)
        return out

    def _wrapper(
        self,
        union: ir.UnionDecl,
        variant: ir.Variant,
        fields: list[ir.Field],
        *,
        closed: bool,
        tag_aliases: dict[str, tuple[str, ...]] | None = None,
    ) -> DeclView:
        doc = lifecycle_text(
            variant.lifecycle.docs,
            variant.lifecycle,
            f"The `{variant.name}` variant of `{self.names[union.name]}` on the wire.",
        )
        return self.model(
            name=self.names[wrapper_key(union, variant)],
            struct_name=None,
            fields=fields,
            closed=closed,
            extra_type=None,
            doc=doc,
            exported=union.exported,
            tag_aliases=tag_aliases,
        )

    def _tagged_union(self, union: ir.UnionDecl, key: str) -> list[DeclView]:
        """Internally tagged, or untagged with an inferred tag key: the wire form is
        ``{key: tag, ...fields}``.  A variant may itself be a union of models (its
        tags are theirs); an open union keeps a value whose tag it does not know as a
        plain JSON object."""
        out: list[DeclView] = []
        # (variant, its class or annotation, the attribute of its tag field if usable)
        classes: list[tuple[ir.Variant, str, str | None]] = []
        nested: dict[str, str] = {}  # variant → the tuple of its models, for isinstance
        for variant in union.variants:
            values = variant.tag_values or (variant.name,)
            struct = self.index.struct_of(variant.type) if variant.type else None
            members = (
                self._tagged_members(variant.type, key) if struct is None else None
            )
            if members:
                # A flattened enum distributed into structs that carry the tag.
                nested[variant.name] = f"({', '.join(members)},)"
                classes.append((variant, self._variant_annotation(variant), key))
                continue
            if needs_wrapper(self.index, union, variant):
                fields = [self._tag_field(key, values, catch_all=variant.catch_all)]
                if struct is not None:
                    fields.extend(self.index.wire_fields(struct))
                # A unit variant has no struct: serde ignores the other keys.
                closed = struct is not None and struct.extra_keys is ir.ExtraKeys.FORBID
                out.append(self._wrapper(union, variant, fields, closed=closed))
                classes.append((variant, out[-1].name, self.attrs(fields)[key]))
                continue
            if struct is None:
                models = self._nested_models(variant)
                if models and variant.tag_values:
                    nested[variant.name] = f"({', '.join(models)},)"
                    classes.append((variant, self._variant_annotation(variant), ""))
                else:
                    classes.append((variant, self._variant_annotation(variant), None))
                continue
            fields = self.index.wire_fields(struct)
            tag_field = next((f for f in fields if f.wire_name == key), None)
            attr = self.attrs(fields)[key] if tag_field is not None else None
            if tag_field is not None and tag_field.presence is not ir.Presence.REQUIRED:
                attr = None
            classes.append((variant, self.names[struct.name], attr))
        untagged = any(attr is None for *_, attr in classes)
        if untagged or len({cls for _, cls, _ in classes}) < len(classes):
            joined = " | ".join(dict.fromkeys(cls for _, cls, _ in classes))
            comment = (
                f"Tagged by {key!r}, but not every variant is a model with that field:",
                "pydantic's smart union picks the best-fitting variant.",
            )
            out.append(self._union_view(union, joined, comment))
            return out
        note = f"Tagged by {key!r}."
        if union.open:
            note += " Open: a value with another tag is kept as a JSON object."
        catch_all = next((v for v in union.variants if v.catch_all), None)
        out.append(self._by_tag(union, classes, key, note, nested, catch_all))
        return out

    @cached_property
    def _containers(self) -> dict[str, set[str | None]]:
        """The unions that are a member of another union (a variant, or a member of an
        inline union other than ``null``), through aliases, each with the unions that
        hold it (None: an inline union)."""
        found: dict[str, set[str | None]] = {}

        def mark(expr: ir.TypeExpr | None, holder: str | None) -> None:
            resolved = self.index.resolve(expr) if expr is not None else None
            if isinstance(resolved, ir.Ref):
                if isinstance(self.index.get(resolved.name), ir.UnionDecl):
                    found.setdefault(resolved.name, set()).add(holder)
            elif isinstance(resolved, ir.InlineUnion):
                for member in resolved.members:
                    mark(member, holder)

        for node in union_nodes((self.protocol.decls, self.protocol.methods)):
            if isinstance(node, ir.UnionDecl):
                for variant in node.variants:
                    mark(variant.type, node.name)
            elif isinstance(node, ir.InlineUnion):
                members = [m for m in node.members if not _is_null(m)]
                if len(members) > 1:
                    for member in members:
                        mark(member, None)
        return found

    @cached_property
    def _by_class(self) -> frozenset[str]:
        """The unions written by the class of the value they hold (``_BY_CLASS``):
        every variant is a model, a list of them or a union of them written so, and
        every union that holds it is written so too.  pydantic-core's typed writer of
        a union tries its members in turn, and a member written by class takes any
        value: a typed union holding it would write a sibling's value (a map with
        sorted keys, say) as it is."""
        # A union of one is its model, written by its class already (and an alias of
        # the class itself: ``TypeAdapter(Alias, config=...)`` must stay legal).
        unions = [
            d
            for d in self.protocol.decls
            if isinstance(d, ir.UnionDecl) and len(d.variants) > 1
        ]
        chosen = {u.name for u in unions}
        while True:
            kept = {
                u.name
                for u in unions
                if u.name in chosen
                and self._holds_models(u, chosen)
                and all(h in chosen for h in self._containers.get(u.name, ()))
            }
            if kept == chosen:
                return frozenset(kept)
            chosen = kept

    def _holds_models(self, union: ir.UnionDecl, chosen: set[str]) -> bool:
        """Whether every variant of ``union`` is written as a model (its own struct, a
        wrapper, a list of models, any JSON, or a union in ``chosen``); serde's
        untagged variants of a tagged union too."""
        for variant in union.variants:
            if union.repr is not ir.UnionRepr.UNTAGGED and needs_wrapper(
                self.index, union, variant
            ):
                continue
            if not self._model_like(variant.type, chosen):
                return False
        return True

    def _model_like(self, expr: ir.TypeExpr | None, chosen: set[str]) -> bool:
        resolved = self.index.resolve(expr) if expr is not None else None
        if isinstance(resolved, ir.AnyJson):
            return True
        if isinstance(resolved, ir.ArrayOf):
            # A list that drops unreadable items has its own writer.
            return not resolved.skip_invalid and self._model_like(
                resolved.items, chosen
            )
        if not isinstance(resolved, ir.Ref):
            return False
        decl = self.index.get(resolved.name)
        if isinstance(decl, ir.StructDecl):
            return True
        return isinstance(decl, ir.UnionDecl) and decl.name in chosen

    def _tag_admits(
        self, variant: ir.Variant, cls: str, attr: str | None, key: str
    ) -> bool:
        """Whether the tag at ``key`` picks this variant's class exactly: the class
        has the tag field (at attribute ``attr``), and the field takes only this
        variant's tags."""
        if attr is None:
            return False
        own: set[object] = set(variant.tag_values or (variant.name,))
        struct = self.index.struct_of(variant.type) if variant.type else None
        if struct is None or cls != self.names[struct.name]:
            return True  # a wrapper: its tag field is ``Literal`` of exactly these
        fld = next(f for f in self.index.wire_fields(struct) if f.wire_name == key)
        values: tuple[object, ...] | None = self._tags.get((struct.name, key))
        if values is None or _is_literal_like(self.index, fld.type):
            resolved = self.index.resolve(fld.type)
            members = (
                resolved.members
                if isinstance(resolved, ir.InlineUnion)
                else (resolved,)
            )
            found = [self._literal_value(m) for m in members]
            if any(v is None for v in found):
                return False
            values = tuple(v for v in found if v is not None)
        return set(values) <= own

    def _literal_value(self, expr: ir.TypeExpr) -> str | int | float | bool | None:
        """The one wire value of a literal type (``'x'``, ``Kind.X``), else None."""
        if isinstance(expr, ir.Literal):
            return expr.value
        if isinstance(expr, ir.EnumMemberRef):
            enum = self.index.get(expr.enum)
            if isinstance(enum, ir.EnumDecl):
                for member in enum.members:
                    if member.name == expr.member:
                        return member.value
        return None

    def _nested_models(self, variant: ir.Variant) -> list[str]:
        """The model classes of a variant that names a union of models, else []."""
        found: list[str] = []
        stack = [variant.type] if variant.type is not None else []
        seen: set[str] = set()
        while stack:
            expr = self.index.resolve(stack.pop(0))
            struct = self.index.struct_of(expr)
            if struct is not None:
                found.append(self.names[struct.name])
                continue
            decl = self.index.get(expr.name) if isinstance(expr, ir.Ref) else None
            if not isinstance(decl, ir.UnionDecl) or decl.name in seen:
                return []
            if any(needs_wrapper(self.index, decl, v) for v in decl.variants):
                return []
            seen.add(decl.name)
            stack.extend(v.type for v in decl.variants if v.type is not None)
        return found

    def _by_tag(
        self,
        union: ir.UnionDecl,
        classes: Sequence[tuple[ir.Variant, str, str | None]],
        key: str,
        comment: str,
        nested: dict[str, str] | None = None,
        catch_all: ir.Variant | None = None,
    ) -> DeclView:
        """A union of models told apart by the value of the ``key`` field: a callable
        discriminator that reads the wire key and compares JSON types exactly (pydantic
        would match ``true`` to the tag ``1``), and that knows nested unions, the
        unknown tags of an open union and serde's ``#[serde(other)]`` variant (any other
        string tag)."""
        # Always a callable on the wire key: pydantic's ``Field(discriminator=attr)``
        # also reads the attribute name, so an unknown key ``type_`` would steer it.
        nested = nested or {}
        tags = [(v, tag) for v, _, _ in classes for tag in v.tag_values or (v.name,)]
        checks = tuple(
            CheckView(
                f"kind == {json.dumps(json_kind(tag))} and tag == {py_literal(tag)}",
                json.dumps(variant.name),
            )
            for variant, tag in tags
        )
        members = list(classes)
        fallback = "None"
        if union.open:
            unknown = ir.Variant(_UNKNOWN_TAG, ir.AnyJson(object_only=True))
            members.append((unknown, ANY_JSON_OBJECT, None))
            fallback = (
                f"{json.dumps(_UNKNOWN_TAG)} if {json.dumps(key)} in value else None"
            )
        elif catch_all is not None:
            fallback = f'{json.dumps(catch_all.name)} if kind == "string" else None'
        disc = DiscriminatorView(
            function=self._discriminator_name(union),
            doc=docstring(
                f"Pick the variant of `{self.names[union.name]}` by its {key!r} tag.",
                "    ",
            ),
            instance_checks=tuple(
                CheckView(nested.get(variant.name, cls), json.dumps(variant.name))
                for variant, cls, _ in classes
            ),
            dict_prelude=(
                f"tag = value.get({json.dumps(key)})",
                "kind = _json_kind(tag)",
            ),
            dict_checks=checks,
            dict_fallback=fallback,
            other_fallback="None",
        )
        by_wire_tag: str | None = None
        if (
            not union.open
            and catch_all is None
            and not nested
            # A tagged part, or a union held by another, only when written by class
            # (and so is what holds it): a typed union holding it tries its Python
            # side (with warnings) on the values of its siblings.
            and (
                union.name in self._by_class
                or (self._tagged_part is None and union.name not in self._containers)
            )
            and all(self._tag_admits(v, cls, attr, key) for v, cls, attr in classes)
        ):
            by_wire_tag = _wire_tags(key, tags, {v.name: cls for v, cls, _ in classes})
        return self._discriminated_view(union, members, disc, comment, by_wire_tag)

    def _discriminated_view(
        self,
        union: ir.UnionDecl,
        classes: Sequence[tuple[ir.Variant, str, str | None]],
        disc: DiscriminatorView,
        comment: str,
        by_wire_tag: str | None = None,
    ) -> DeclView:
        tagged = " | ".join(
            f"Annotated[{cls}, Tag({json.dumps(variant.name)})]"
            for variant, cls, _ in classes
        )
        markers: tuple[str, ...] = (f"Discriminator({disc.function})",)
        markers += (by_wire_tag,) if by_wire_tag else ()
        return self._union_view(union, tagged, (comment,), disc, markers)

    def _discriminator_name(self, union: ir.UnionDecl) -> str:
        key = union.name
        if union.name == self._tagged_part:
            key = tagged_part_key(union)
        return f"_discriminate_{naming.snake_case(self.names[key])}"

    def _adjacent_union(self, union: ir.UnionDecl) -> list[DeclView]:
        """``{tag_key: tag, content_key: payload}``; a unit variant has no content."""
        tag_key = union.tag_key or "t"
        content_key = union.content_key or "c"
        out: list[DeclView] = []
        for variant in union.variants:
            fields = [self._tag_field(tag_key, variant.tag_values or (variant.name,))]
            if variant.type is not None:
                fields.append(
                    ir.Field(name=content_key, wire_name=content_key, type=variant.type)
                )
            else:
                # serde reads a unit variant's content as `()`: absent or null; it
                # writes none
                fields.append(
                    ir.Field(
                        name=content_key,
                        wire_name=content_key,
                        type=ir.Primitive(ir.PrimitiveKind.NULL),
                        presence=ir.Presence.OPTIONAL,
                        omitted_value="null",
                    )
                )
            closed = union.extra_keys is ir.ExtraKeys.FORBID
            out.append(self._wrapper(union, variant, fields, closed=closed))
        attr = self.attrs([self._tag_field(tag_key, ("x",))])[tag_key]
        classes = [
            (v, view.name, attr) for v, view in zip(union.variants, out, strict=True)
        ]
        comment = f"Adjacently tagged: {{{tag_key!r}: tag, {content_key!r}: payload}}."
        out.append(self._by_tag(union, classes, tag_key, comment))
        return out

    def _external_union(self, union: ir.UnionDecl) -> list[DeclView]:
        """``{"Variant": payload}``; a unit variant is the bare string ``"Variant"``."""
        out: list[DeclView] = []
        units: list[ir.Literal | ir.EnumMemberRef] = []
        for variant in union.variants:
            values = tuple(str(v) for v in variant.tag_values) or (variant.name,)
            if variant.type is None:
                units.extend(ir.Literal(v) for v in values)
                continue
            fld = ir.Field(name=values[0], wire_name=values[0], type=variant.type)
            out.append(
                self._wrapper(
                    union, variant, [fld], closed=True, tag_aliases={values[0]: values}
                )
            )
        parts = ([self.literals(units)] if units else []) + [view.name for view in out]
        comment = (
            "Externally tagged: {tag: payload}, a unit variant as the bare tag string;",
            "each wrapper has exactly one key and rejects others: at most one matches.",
        )
        out.append(self._union_view(union, " | ".join(parts), comment))
        return out


def _is_null(expr: ir.TypeExpr) -> bool:
    return isinstance(expr, ir.Primitive) and expr.kind is ir.PrimitiveKind.NULL


def union_nodes(value: object) -> Iterator[ir.UnionDecl | ir.InlineUnion]:
    """Every union declaration and inline union under ``value`` (dataclasses, tuples,
    lists), depth-first in the order of their fields.

    One loop over a stack, entering of each dataclass only the fields whose annotation
    may hold a union (``_union_fields``: no spans, docs, names or constraints): the
    generic walk of every node it replaced took a tenth of the bindings' time on a
    large spec."""
    stack: list[object] = [value]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is tuple or kind is list:
            stack.extend(reversed(node))  # type: ignore[call-overload]
            continue
        names = _FIELD_NAMES.get(kind)
        if names is None:
            if isinstance(node, (tuple, list)):
                stack.extend(reversed(node))
                continue
            if kind in _LEAVES or not is_dataclass(kind):
                continue
            names = _FIELD_NAMES[kind] = _union_fields(kind)
        if isinstance(node, (ir.UnionDecl, ir.InlineUnion)):
            yield node
        stack.extend(getattr(node, name) for name in reversed(names))


# Dataclass → the names of its fields that may hold a union (filled on use); types that
# never hold IR nodes.
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_LEAVES = frozenset({str, int, float, bool, type(None), bytes})


def _union_fields(kind: type) -> tuple[str, ...]:
    """The fields of a dataclass whose annotation may hold a union; every field when
    the annotations cannot be read."""
    try:
        hints = get_type_hints(kind)
    except Exception:  # noqa: BLE001 - unreadable annotations: enter every field
        return tuple(f.name for f in fields(kind))
    return tuple(
        f.name for f in fields(kind) if _may_hold_union(hints.get(f.name, Any), set())
    )


def _may_hold_union(hint: object, seen: set[type]) -> bool:
    """Whether a value of this annotation may be or contain a union node (when unsure:
    yes)."""
    if hint in _LEAVES:
        return False
    if isinstance(hint, type):
        if issubclass(hint, enum.Enum):
            return False
        if hint in (ir.UnionDecl, ir.InlineUnion):
            return True
        if not is_dataclass(hint):
            return True
        if hint in seen:
            return False  # decided where the cycle started
        seen.add(hint)
        try:
            hints = get_type_hints(hint)
        except Exception:  # noqa: BLE001 - unreadable annotations: assume so
            return True
        return any(_may_hold_union(h, seen) for h in hints.values())
    origin = get_origin(hint)
    if origin in (Union, UnionType, tuple, list):
        return any(
            _may_hold_union(arg, seen) for arg in get_args(hint) if arg is not ...
        )
    return True


def _wire_tags(
    key: str,
    tags: Sequence[tuple[ir.Variant, str | int | bool]],
    classes: dict[str, str],
) -> str | None:
    """``_ByWireTag(key, {tag: model})``, pydantic-core's own tagged union for JSON
    input, when it reads exactly as the callable discriminator does there: every tag is
    a string (pydantic-core would match ``true`` to the tag ``1``), every variant one
    model, no tag left for a fallback.  Python input keeps the callable (it tells
    instances apart by class)."""
    if not all(isinstance(tag, str) for _, tag in tags):
        return None
    mapping = ", ".join(
        f"{json.dumps(tag)}: {classes[variant.name]}" for variant, tag in tags
    )
    return f"_ByWireTag({json.dumps(key)}, {{{mapping}}})"


def _never_object(index: Index, expr: ir.TypeExpr) -> bool:
    """True when no value of the type is a JSON object (so a dict can never be it)."""
    resolved = index.resolve(expr)
    if isinstance(resolved, ir.Ref):
        decl = index.get(resolved.name)
        if isinstance(decl, ir.EnumDecl):
            return True
        if isinstance(decl, ir.AliasDecl) and decl.kind is ir.AliasKind.NEWTYPE:
            return _never_object(index, decl.target)
        return False
    if isinstance(resolved, ir.InlineUnion):
        return all(_never_object(index, member) for member in resolved.members)
    return isinstance(
        resolved, (ir.Primitive, ir.ArrayOf, ir.TupleOf, ir.Literal, ir.EnumMemberRef)
    )
