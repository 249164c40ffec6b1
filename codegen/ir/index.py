"""Read-only lookups over a normalized ``ir.Protocol`` shared by passes and backends.

Phase: used after the frontends (by passes, backends, docs and diff).
Inputs: an ``ir.Protocol``.
Outputs: answers: a declaration by name, the effective wire fields of a struct (bases and
flattened members expanded in wire order), alias chains followed to their target, the
expressions nested in a type expression (``walk_expr``).
Guarantees: pure and deterministic; cycles in bases or aliases end the walk instead of looping.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from codegen import ir


class Index:
    def __init__(self, protocol: ir.Protocol) -> None:
        self.protocol = protocol
        self.decls: dict[str, ir.Decl] = {d.name: d for d in protocol.decls}
        self.position: dict[str, int] = {
            d.name: i for i, d in enumerate(protocol.decls)
        }
        self.methods: dict[str, ir.Method] = {m.wire_name: m for m in protocol.methods}

    def get(self, name: str) -> ir.Decl | None:
        return self.decls.get(name)

    def struct(self, name: str) -> ir.StructDecl | None:
        decl = self.decls.get(name)
        return decl if isinstance(decl, ir.StructDecl) else None

    def resolve(self, expr: ir.TypeExpr) -> ir.TypeExpr:
        """Follow ``Ref``s through plain aliases (not newtypes or externals) to the type used."""
        seen: set[str] = set()
        while isinstance(expr, ir.Ref) and expr.name not in seen:
            seen.add(expr.name)
            decl = self.decls.get(expr.name)
            if (
                not isinstance(decl, ir.AliasDecl)
                or decl.kind is not ir.AliasKind.ALIAS
            ):
                return expr
            expr = decl.target
        return expr

    def struct_of(self, expr: ir.TypeExpr) -> ir.StructDecl | None:
        """The struct a type expression names, through aliases; None if it is not one."""
        resolved = self.resolve(expr)
        if isinstance(resolved, ir.Ref):
            return self.struct(resolved.name)
        return None

    def wire_fields(
        self, struct: ir.StructDecl, keep_duplicates: bool = False
    ) -> list[ir.Field]:
        """The keys an object of this struct has on the wire, in wire order.

        Base fields come first (TypeScript ``extends``), then the struct's own fields, with each
        ``flatten`` field replaced in place by the wire fields of its struct (serde writes
        flattened fields where the flattened member stands).  ``keep_duplicates`` keeps a
        key that comes twice (for the pass that reports such clashes).
        """
        return self._wire_fields(struct, frozenset(), keep_duplicates)

    def _wire_fields(
        self, struct: ir.StructDecl, visiting: frozenset[str], keep: bool = False
    ) -> list[ir.Field]:
        if struct.name in visiting:
            return []
        visiting = visiting | {struct.name}
        out: list[ir.Field] = []
        for base in struct.bases:
            base_struct = self.struct_of(base)
            if base_struct is not None:
                out.extend(self._wire_fields(base_struct, visiting, keep))
        for fld in struct.fields:
            inner = self.struct_of(fld.type) if fld.flatten else None
            if inner is None:
                out.append(fld)
                continue
            for flat in self._wire_fields(inner, visiting, keep):
                # A flattened Option<Struct> makes every inner key optional.
                if (
                    fld.presence is not ir.Presence.REQUIRED
                    and flat.presence is ir.Presence.REQUIRED
                ):
                    flat = replace(flat, presence=fld.presence)
                out.append(flat)
        if keep:
            return out
        # Later declarations override earlier ones with the same wire name (TS redeclaration).
        last: dict[str, int] = {}
        for position, fld in enumerate(out):
            last[fld.wire_name] = position
        return [
            fld for position, fld in enumerate(out) if last[fld.wire_name] == position
        ]

    def index_value(self, struct: ir.StructDecl) -> ir.TypeExpr | None:
        """The value type of extra keys (index signature / flattened map), bases included."""
        found = self._indexed(struct, frozenset())
        return found.index_value if found is not None else None

    def index_key(self, struct: ir.StructDecl) -> ir.TypeExpr | None:
        """The keys ``index_value`` types (None: every key), from the same declaration."""
        found = self._indexed(struct, frozenset())
        return found.index_key if found is not None else None

    def _indexed(
        self, struct: ir.StructDecl, visiting: frozenset[str]
    ) -> ir.StructDecl | None:
        """The struct (itself or a base) whose index signature applies; bases that
        extend each other (which the checker refuses) end the search."""
        if struct.index_value is not None:
            return struct
        visiting = visiting | {struct.name}
        for base in struct.bases:
            base_struct = self.struct_of(base)
            if base_struct is not None and base_struct.name not in visiting:
                found = self._indexed(base_struct, visiting)
                if found is not None:
                    return found
        return None

    def numeric_index(self, struct: ir.StructDecl) -> bool:
        """The index signature takes numeric names only (``[k: number]: T``)."""
        key = self.index_key(struct)
        return isinstance(key, ir.Primitive) and key.kind is ir.PrimitiveKind.NUMBER

    def references(self, expr: ir.TypeExpr | None) -> list[str]:
        """Names of declarations a type expression mentions, in order of appearance."""
        return [
            node.name if isinstance(node, ir.Ref) else node.enum
            for node in walk_expr(expr)
            if isinstance(node, (ir.Ref, ir.EnumMemberRef))
        ]


def walk_expr(expr: ir.TypeExpr | None) -> Iterator[ir.TypeExpr]:
    """The expression and every expression nested in it: depth-first, in source order."""
    if expr is None:
        return
    yield expr
    if isinstance(expr, ir.ArrayOf):
        yield from walk_expr(expr.items)
    elif isinstance(expr, ir.MapOf):
        yield from walk_expr(expr.key)
        yield from walk_expr(expr.values)
    elif isinstance(expr, ir.TupleOf):
        for item in expr.items:
            yield from walk_expr(item)
        if expr.rest is not None:
            yield from walk_expr(expr.rest)
    elif isinstance(expr, ir.InlineUnion):
        for member in expr.members:
            yield from walk_expr(member)
