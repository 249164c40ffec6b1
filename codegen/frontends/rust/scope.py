"""Findings scoped to what they affect: an error inside a type that no method and no
``[spec] types`` entry reaches does not stop the spec.

Phase: frontend (the last step of ``rust.reader``).
Inputs: the diagnostics the frontend reported (from a mark on), the declarations and methods
it built, the source range (file, first and last line) of the item each declaration came
from, and the spec's requested types.
Outputs: the same diagnostics, where an error about a type-local construct (a flatten clash
STR001, a construct serde rejects SER002, a type with no wire form SYN003, a name not in
scope REF001) lies only inside declarations that nothing reaches is a warning that names the
declaration and what would break with it (the declarations that use it); the declaration is
still generated.  A spec with neither methods nor requested types keeps every error (then
every type is the spec).
Guarantees: never raises; errors inside a reached declaration, and errors of any other code,
are untouched.
"""

from __future__ import annotations

from dataclasses import replace

from codegen import ir
from codegen.diagnostics import Diagnostics, Severity
from codegen.ir.index import Index

Range = tuple[str, int, int]  # file, first line, last line
_SCOPED = {"STR001", "SER002", "SYN003", "REF001"}


def scope_findings(
    diags: Diagnostics,
    mark: int,
    decls: list[ir.Decl],
    methods: list[ir.Method],
    ranges: dict[str, Range],
    requested: tuple[str, ...],
) -> None:
    roots = [
        expr.name
        for method in methods
        for expr in (method.params, method.result)
        if isinstance(expr, ir.Ref)
    ] + list(requested)
    if not roots:
        return
    index = Index(
        ir.Protocol("", "", "", ir.Transport("", ()), ("a", "b"), tuple(decls), ())
    )
    uses: dict[str, list[str]] = {}
    for decl in decls:
        for used in _references(decl, index):
            uses.setdefault(used, []).append(decl.name)
    reached: set[str] = set()
    stack = [name for name in roots if name in index.decls]
    while stack:
        name = stack.pop()
        if name in reached:
            continue
        reached.add(name)
        stack.extend(
            n for n in _references(index.decls[name], index) if n in index.decls
        )
    for position in range(mark, len(diags.items)):
        found = diags.items[position]
        if found.severity is not Severity.ERROR or found.code not in _SCOPED:
            continue
        named = found.message.split(":", 1)[0]
        if found.code == "STR001" and named in index.decls:
            inside = [named]  # the struct that flattens, wherever the field is
        else:
            inside = [
                name
                for name, (file, first, last) in ranges.items()
                if file == found.span.file and first <= found.span.line <= last
            ]
        if not inside or any(name in reached for name in inside):
            continue
        name = inside[0]
        users = sorted(set(uses.get(name, [])) - {name})
        breaks = (
            f"it would break {name} and what uses it ({', '.join(users[:5])})"
            if users
            else f"it would break {name}"
        )
        diags.items[position] = replace(
            found,
            severity=Severity.WARNING,
            message=f"{found.message} [no method or [spec] types reaches {name}: "
            f"{breaks}; the rest of the spec generates]",
        )


def _references(decl: ir.Decl, index: Index) -> list[str]:
    out: list[str] = []
    if isinstance(decl, ir.StructDecl):
        for fld in decl.fields:
            out.extend(index.references(fld.type))
    elif isinstance(decl, ir.UnionDecl):
        for variant in decl.variants:
            out.extend(index.references(variant.type))
    elif isinstance(decl, ir.AliasDecl):
        out.extend(index.references(decl.target))
    return out
